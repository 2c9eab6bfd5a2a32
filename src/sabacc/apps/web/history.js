// The hand-history viewer: a table's finished hands, replayed frame by frame.
import { api, deckStyle } from "./api.js";
import { $, $$, esc, modal, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { feltHTML, handHTML, resultHTML } from "./render.js";
import { cardGlyphs, eventLine, lineText } from "./text.js";

export async function openHistory(page) {
  const { wrap } = modal(`<h2>${t("history")}</h2><div class="history-body"><p class="muted">…</p></div>`, "history");
  const body = $(".history-body", wrap);
  let games;
  try {
    ({ games } = await api(`/api/tables/${page.code}/games`));
  } catch (err) {
    body.textContent = err.message;
    return;
  }
  const list = games
    .filter((g) => g.hands_finished > 0)
    .map(
      (g) => `<div class="hist-game"><b>${t("game_n", { n: g.number })}</b>
        ${Array.from({ length: g.hands_finished }, (_, i) => `<button class="ghost" data-game="${g.number}" data-hand="${i + 1}">${t("hand_n", { n: i + 1 })}</button>`).join("")}
      </div>`,
    )
    .join("");
  body.innerHTML = list || `<p class="muted">${t("no_history")}</p>`;
  $$("[data-hand]", body).forEach((b) =>
    b.addEventListener("click", () => showHand(page, body, Number(b.dataset.game), Number(b.dataset.hand))),
  );
}

async function showHand(page, body, game, hand) {
  let data;
  try {
    data = await api(`/api/tables/${page.code}/games/${game}/hands/${hand}`, {
      headers: page.token ? { "X-Seat-Token": page.token } : {},
    });
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  const style = deckStyle(data.variant);
  let i = 0;
  let timer = null;
  const frames = data.frames;
  const draw = () => {
    const f = frames[i];
    const names = data.players;
    const lines = f.events.map(eventLine).filter(Boolean);
    // The last action ends the hand: show the table as it was, with the hands revealed.
    const last = i === frames.length - 1 && i > 0;
    const obs = last ? frames[i - 1].game : f.game;
    const result = last ? f.game.last_hand : null;
    // Why the hand ended so: the server's lines in the current language (pots, reasons, nets).
    const explain = last && f.explain ? (f.explain[getLang()] || f.explain.en || []).map((l) => cardGlyphs(l, data.variant)) : null;
    const reveal = result ? result.hands : null;
    const turn = obs.current_player != null && !last ? { seat: obs.current_player } : null;
    body.innerHTML = `<div class="viewer">
      <div class="viewer-head"><b>${t("game_n", { n: game })} · ${t("hand_n", { n: hand })}</b><span class="muted">${t("step", { n: i, m: frames.length - 1 })}</span></div>
      <div class="felt-wrap small">${feltHTML({ obs, table: null, me: data.viewer, turn, reveal, style })}</div>
      ${data.viewer != null ? handHTML(obs, style, null) : ""}
      ${result ? `<div class="showdown inline">${resultHTML(result, names, style, false, explain != null)}${explain ? `<ul class="explain">${explain.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : ""}</div>` : ""}
      <ol class="log frame-log">${lines.map((l) => `<li class="${l.cls || ""}">${esc(lineText(l, data.variant))}</li>`).join("")}</ol>
      <div class="viewer-controls">
        <button class="ghost" data-step="first">⏮ ${t("first")}</button>
        <button class="ghost" data-step="prev">◀ ${t("prev")}</button>
        <button class="primary" data-step="play">${timer ? "⏸ " + t("pause") : "▶ " + t("play")}</button>
        <button class="ghost" data-step="next">${t("next")} ▶</button>
        <button class="ghost" data-step="last">${t("last")} ⏭</button>
      </div>
    </div>`;
    $$("[data-step]", body).forEach((b) =>
      b.addEventListener("click", () => {
        const s = b.dataset.step;
        if (s === "play") {
          if (timer) {
            clearInterval(timer);
            timer = null;
          } else {
            timer = setInterval(() => {
              if (i >= frames.length - 1 || !document.body.contains(body)) {
                clearInterval(timer);
                timer = null;
              } else i++;
              draw();
            }, 900);
          }
        } else if (s === "first") i = 0;
        else if (s === "prev") i = Math.max(0, i - 1);
        else if (s === "next") i = Math.min(frames.length - 1, i + 1);
        else if (s === "last") i = frames.length - 1;
        draw();
      }),
    );
  };
  draw();
}
