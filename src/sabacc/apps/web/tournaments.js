// The tournament pages: the list and a new event (/tournaments), an event (/e/CODE), a
// player's table (/e/CODE/table/N), the TV page (/tv/CODE) and the director console
// (/e/CODE/director). Each page asks the JSON API again every second (the clock, the
// standings and the tables update live). Tokens (a guest's registration, the director's) are
// kept in this browser's local storage, per event.
import "./tournament_i18n.js";
import { api, loadCatalogue } from "./api.js";
import { $, app, esc, navigate, store, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";

const playerKey = (code) => `sabacc:tp:${code}`;
const directorKey = (code) => `sabacc:td:${code}`;

function headers(code) {
  const out = {};
  const tp = store.get(playerKey(code));
  const td = store.get(directorKey(code));
  if (tp) out["X-Tournament-Token"] = tp;
  if (td) out["X-Director-Token"] = td;
  return out;
}

const get = (path, code) => api(`${path}${path.includes("?") ? "&" : "?"}lang=${getLang()}`, { headers: code ? headers(code) : {} });
const post = (path, code, body) => api(path, { method: "POST", body: JSON.stringify(body), headers: headers(code) });

/** The top bar's Tournaments tab (its words follow the language). */
export function paintTournamentsTab() {
  const tab = $("#nav-tournaments");
  if (!tab) return;
  // The short word on a phone, as the nav's Ranks: the top bar holds the account's name too.
  tab.innerHTML = `<span class="wide">${t("nav_tournaments")}</span><span class="narrow">${t("nav_tournaments_short")}</span>`;
}

function mmss(seconds) {
  if (seconds == null) return "—";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function botBadge(bot) {
  return bot ? ` <span class="tour-bot">${esc(t("tour_bot_badge", { level: bot }))}</span>` : "";
}

function standingsTable(rows, limit = 1000, over = false) {
  const body = rows
    .slice(0, limit)
    .map(
      (r) => `<tr class="${r.chips == null && r.place ? "out" : ""}"><td>${r.place ?? ""}</td><td>${esc(r.name)}${botBadge(r.bot)}</td>
        <td class="num">${r.chips == null || over ? (r.points ?? 0) : "—"}</td><td class="num">${r.chips != null ? r.chips : r.bust_hand != null ? esc(t("tour_out_hand", { n: r.bust_hand })) : ""}</td></tr>`,
    )
    .join("");
  return `<table class="tour-standings"><thead><tr><th>${t("tour_place")}</th><th>${t("tour_player")}</th><th class="num">${t("tour_points")}</th><th class="num">${t("tour_chips")}</th></tr></thead><tbody>${body}</tbody></table>`;
}

function clockLine(c) {
  const level = t("tour_level_of", { n: c.level, m: c.levels });
  const left = c.final_hand ? t("tour_final_hand") : c.seconds_left == null ? t("tour_last_level") : mmss(c.seconds_left);
  return { level, left, next: c.next ? t("tour_next", { what: c.next }) : t("tour_last_level") };
}

/** A page that draws itself from the API every second until it is left. */
class Poller {
  constructor(draw, every = 1000) {
    this.draw = draw;
    this.timer = setInterval(() => this.render(), every);
    this.render();
  }
  render() {
    this.draw().catch((err) => console.warn(err));
  }
  destroy() {
    clearInterval(this.timer);
  }
}

// ------------------------------------------------------------------ the list
export async function tournamentsPage() {
  document.title = `${t("tour_title")} · Sabacc`;
  $("#crumb").textContent = t("tour_title");
  const catalogue = await loadCatalogue();
  const { events } = await get("/api/tournaments");
  const rows = events
    .map(
      (e) => `<a class="tour-row" href="${e.url}" data-link><strong>${esc(e.name)}</strong>
        <span class="muted">${esc(e.title)} · ${esc(t(`tpl_${e.template}`))}</span>
        <span class="tour-status ${e.status}">${esc(t(`tour_status_${e.status}`))}</span>
        <span>${e.status === "registering" ? esc(t("tour_players", { n: e.registered })) : esc(t("tour_left", { n: e.left }))}</span></a>`,
    )
    .join("");
  app.innerHTML = `<section class="tour-page">
    <h1>${t("tour_title")}</h1><p class="muted">${t("tour_intro")}</p>
    <div class="lobby-grid">
      <form class="panel" id="tour-form" autocomplete="off"><h2>${t("tour_new")}</h2>
        <label>${t("tour_template")}<select name="template">
          ${["mtt", "sng", "s4c"].map((k) => `<option value="${k}">${t(`tpl_${k}`)}</option>`).join("")}</select></label>
        <label>${t("variant")}<select name="variant">${catalogue.variants.map((v) => `<option value="${v.name}" ${v.name === catalogue.default_variant ? "selected" : ""}>${esc(v.title)}</option>`).join("")}</select></label>
        <label>${t("tour_name")}<input name="name" maxlength="80"></label>
        <div class="row">
          <label>${t("tour_level_minutes")}<input name="level_minutes" type="number" min="0.05" step="0.05" value="10"></label>
          <label>${t("tour_table_size")}<input name="table_size" type="number" min="2" max="8" placeholder="8"></label>
        </div>
        <div class="row">
          <label>${t("tour_seats")}<input name="seats" type="number" min="2" max="200"></label>
          <label>${t("tour_late")}<input name="late_until_level" type="number" min="0" max="50" value="0"></label>
        </div>
        <button class="primary" type="submit" id="tour-create">${t("tour_create")}</button>
      </form>
      <div class="panel"><h2>${t("tour_title")}</h2><div class="tour-list">${rows || `<p class="muted">${t("tour_none")}</p>`}</div></div>
    </div></section>`;
  $("#tour-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const body = { template: f.get("template"), variant: f.get("variant"), name: f.get("name") || "" };
    for (const k of ["level_minutes", "table_size", "seats", "late_until_level"]) if (f.get(k)) body[k] = Number(f.get(k));
    if (body.template !== "sng") delete body.seats;
    try {
      const made = await post("/api/tournaments", null, body);
      store.set(directorKey(made.code), made.director_token);
      navigate(made.url);
    } catch (err) {
      toast(err.message, "error");
    }
  });
  return null;
}

// ------------------------------------------------------------------ an event
export function eventPage(code) {
  return new Poller(async () => {
    const ev = await get(`/api/tournaments/${code}`, code);
    if (!location.pathname.startsWith(`/e/${code}`)) return;
    document.title = `${ev.name} · Sabacc`;
    $("#crumb").textContent = ev.name;
    const c = clockLine(ev.clock);
    const you = ev.you;
    const mine = store.get(playerKey(code));
    let reg = "";
    if (ev.status === "registering" && mine) reg = `<p>${t("tour_registered")}</p><button id="tour-unreg" class="ghost">${t("tour_unregister")}</button>`;
    else if (ev.registration_open && !mine)
      reg = `<form id="tour-reg" class="row"><input name="name" maxlength="24" placeholder="${t("name_placeholder")}" value="${esc(store.get("sabacc:name") || "")}" required><button class="primary" id="tour-register">${t("tour_register")}</button></form>`;
    else if (!mine && ev.status !== "finished") reg = `<p class="muted">${t("tour_closed")}</p>`;
    if (you?.link) reg += `<p><a class="primary button" id="tour-my-table" href="${you.link}" data-link>${t("tour_open_table")} · ${esc(t("tour_your_table", { n: you.table }))}</a></p>`;
    else if (you && ev.status !== "registering") reg += `<p>${t("tour_busted")}</p>`;
    const tables = (ev.status === "finished" ? [] : ev.tables)
      .map((tb) => `<div class="tour-table"><h3>${t("tour_table_n", { n: tb.table })}</h3><ul>${tb.seats.map((s) => `<li>${esc(s.name)}${botBadge(s.bot)} <span class="num">${s.chips}</span></li>`).join("")}</ul></div>`)
      .join("");
    const finished = ev.status === "finished";
    app.innerHTML = `<section class="tour-page tour-event" data-version="${ev.version}">
      <h1>${esc(ev.name)} <span class="tour-status ${ev.status}" id="tour-status">${esc(t(`tour_status_${ev.status}`))}</span></h1>
      <p class="muted">${esc(ev.title)} · ${esc(ev.config.format_name)} · ${esc(t("tour_players", { n: ev.registered }))}${ev.config.charity ? ` · ${esc(t("tour_charity", { n: ev.config.charity }))}` : ""}</p>
      <div class="tour-links"><a href="/tv/${code}" data-link id="tour-tv">${t("tour_tv")}</a>
        ${ev.director ? `<a href="/e/${code}/director" data-link id="tour-console">${t("tour_console")}</a>` : ""}
        <a href="/api/tournaments/${code}/standings.csv" id="tour-csv">${t("tour_export_csv")}</a>
        <a href="/api/tournaments/${code}/results" id="tour-json">${t("tour_export_json")}</a></div>
      <div class="lobby-grid">
        <div class="panel">${finished ? `<h2 id="tour-results">${t("tour_results")}</h2>${ev.counts === false ? `<p class="muted">${t("tour_not_counted")}</p>` : ""}` : `<div class="tour-clock"><strong>${esc(c.level)}</strong> · ${esc(ev.clock.sets)} · <span id="tour-left">${esc(c.left)}</span>${ev.status !== "running" || ev.clock.running ? "" : ` · ${t("tour_paused")}`}<br><span class="muted">${esc(c.next)}</span></div>`}
          ${reg}<h2>${t("tour_standings")}</h2>${standingsTable(ev.standings, 1000, finished)}</div>
        <div class="side-col">${tables ? `<div class="panel"><h2>${t("tour_tables")}</h2><div class="tour-tables">${tables}</div></div>` : ""}
          <div class="panel"><h2>${t("tour_feed")}</h2><ul class="tour-feed" id="tour-feed">${ev.feed.map((l) => `<li>${esc(l)}</li>`).join("")}</ul></div></div>
      </div></section>`;
    $("#tour-reg")?.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = new FormData(e.target).get("name");
      try {
        const r = await post(`/api/tournaments/${code}/register`, code, { name });
        if (r.token) store.set(playerKey(code), r.token);
        store.set("sabacc:name", name);
      } catch (err) {
        toast(err.message, "error");
      }
    });
    $("#tour-unreg")?.addEventListener("click", async () => {
      try {
        await post(`/api/tournaments/${code}/unregister`, code, { token: store.get(playerKey(code)) });
        store.set(playerKey(code), null);
      } catch (err) {
        toast(err.message, "error");
      }
    });
  }, 1000);
}

// ------------------------------------------------------------------ a player's table
export function tablePage(code, number) {
  let shown = null;
  return new Poller(async () => {
    const v = await get(`/api/tournaments/${code}/tables/${number}`, code);
    const ev = await get(`/api/tournaments/${code}`, code);
    if (!location.pathname.startsWith(`/e/${code}/table/`)) return;
    if (ev.you?.table && ev.you.table !== Number(number)) return navigate(ev.you.link); // moved
    if ((ev.you && !ev.you.table) || ev.status === "finished") return navigate(`/e/${code}`); // out, or over
    const key = `${v.version}:${v.seconds_left != null ? Math.round(v.seconds_left) : ""}`;
    if (key === shown) return;
    shown = key;
    $("#crumb").textContent = `${ev.name} · ${t("tour_table_n", { n: number })}`;
    const back = `<a href="/e/${code}" data-link id="tour-back">${t("tour_back_event")}</a>`;
    if (!v.playing) {
      app.innerHTML = `<section class="tour-page"><p>${t("tour_no_table")}</p>${back}</section>`;
      return;
    }
    const seats = v.seats
      .map((s) => `<li class="${s.you ? "you" : ""} ${s.seat != null && s.seat === v.current ? "turn" : ""} ${s.status ?? ""}">${esc(s.name)}${s.you ? ` (${t("tour_you")})` : ""}${botBadge(s.bot)} <span class="num">${s.stack}</span>${s.last_action ? ` <span class="muted">${esc(s.last_action)}</span>` : ""}</li>`)
      .join("");
    const pot = (v.pots?.main ?? 0) + (v.pots?.sabacc ?? 0);
    const cards = v.you ? `<div class="tour-hand" id="tour-hand">${(v.you.cards || []).map((c) => `<span class="tour-card">${esc(c)}</span>`).join("")} <strong>${esc(v.you.hand?.name ?? "")}</strong> ${v.you.total != null ? `(${v.you.total})` : ""}</div>` : "";
    const acts = v.your_turn
      ? `<p class="tour-turn"><strong>${t("tour_your_turn")}</strong> · ${esc(t("tour_seconds", { n: Math.round(v.seconds_left ?? 0) }))}</p><div class="tour-actions">${v.legal
          .map((a) => (/ \d+-\d+$/.test(a) ? `<span class="row"><input type="number" data-kind="${esc(a.split(" ")[0])}" min="${a.split(" ")[1].split("-")[0]}" max="${a.split(" ")[1].split("-")[1]}" value="${a.split(" ")[1].split("-")[0]}"><button data-range="${esc(a.split(" ")[0])}">${esc(a.split(" ")[0])}</button></span>` : `<button data-act="${esc(a)}">${esc(a)}</button>`))
          .join("")}</div>`
      : v.current != null ? `<p class="muted">${esc(t("tour_waiting", { name: v.seats[v.current]?.name ?? "" }))}</p>` : "";
    const away = v.away ? `<p>${t("tour_autopilot")} <button id="tour-back-btn" class="primary">${t("tour_back")}</button></p>` : "";
    app.innerHTML = `<section class="tour-page tour-play"><h1>${t("tour_table_n", { n: number })} <span class="muted">${esc(t("tour_pot", { n: pot }))}</span></h1>
      <ul class="tour-seats">${seats}</ul>${cards}${acts}${away}${back}</section>`;
    const send = async (action) => {
      try {
        await post(`/api/tournaments/${code}/act`, code, { action, token: store.get(playerKey(code)) });
        shown = null;
      } catch (err) {
        toast(err.message, "error");
      }
    };
    for (const b of app.querySelectorAll("[data-act]")) b.addEventListener("click", () => send(b.dataset.act));
    for (const b of app.querySelectorAll("[data-range]")) b.addEventListener("click", () => send(`${b.dataset.range} ${b.previousElementSibling.value}`));
    $("#tour-back-btn")?.addEventListener("click", () => send("back"));
  }, 700);
}

// ------------------------------------------------------------------ the TV page
export function tvPage(code) {
  document.body.classList.add("tv-mode");
  const poller = new Poller(async () => {
    const ev = await get(`/api/tournaments/${code}`);
    if (!location.pathname.startsWith(`/tv/${code}`)) return;
    const c = clockLine(ev.clock);
    app.innerHTML = `<section class="tv" data-version="${ev.version}">
      <h1>${esc(ev.name)}</h1>
      <div class="tv-clock" id="tv-clock">${ev.status === "finished" ? esc(t("tour_results")) : ev.clock.seconds_left == null ? "—" : mmss(ev.clock.seconds_left)}</div>
      ${ev.status === "running" && (ev.clock.final_hand || ev.clock.seconds_left == null) ? `<div class="tv-next">${esc(c.left)}</div>` : ""}
      <div class="tv-level" id="tv-level">${esc(c.level)} · ${esc(ev.clock.sets)}${ev.clock.running || ev.status !== "running" ? "" : ` · ${t("tour_paused")}`}</div>
      <div class="tv-next" id="tv-next">${esc(c.next)}</div>
      <div class="tv-meta" id="tv-meta">${esc(t("tour_left", { n: ev.left }))} · ${esc(t("tour_hand", { n: ev.clock.hand }))}${ev.clock.hand_for_hand ? ` · ${t("tour_hand_for_hand")}` : ""}</div>
      <div class="tv-standings" id="tv-standings">${standingsTable(ev.standings, 12, ev.status === "finished")}</div></section>`;
  }, 1000);
  const destroy = poller.destroy.bind(poller);
  poller.destroy = () => {
    document.body.classList.remove("tv-mode");
    destroy();
  };
  return poller;
}

// ------------------------------------------------------------------ the director console
export function directorPage(code) {
  let drawn = null;
  return new Poller(async () => {
    const ev = await get(`/api/tournaments/${code}`, code);
    if (!location.pathname.startsWith(`/e/${code}/director`)) return;
    const c = clockLine(ev.clock);
    $("#crumb").textContent = `${ev.name} · ${t("tour_director")}`;
    const status = `<p id="dir-status"><span class="tour-status ${ev.status}">${esc(t(`tour_status_${ev.status}`))}</span> ${esc(c.level)} · ${esc(c.left)}${ev.status !== "running" || ev.clock.running ? "" : ` · ${t("tour_paused")}`} · ${esc(t("tour_players", { n: ev.registered }))}</p>`;
    if (drawn === ev.status && $("#dir-status")) {
      $("#dir-status").outerHTML = status;
      return;
    }
    drawn = ev.status;
    const entries = ev.standings.filter((r) => r.entry).map((r) => `<option value="${esc(r.entry)}">${esc(r.name)} (${t("tour_table_n", { n: r.table })})</option>`).join("");
    app.innerHTML = `<section class="tour-page tour-console"><h1>${t("tour_console")}: ${esc(ev.name)}</h1>${status}
      ${ev.director ? "" : `<p class="error">${t("err_not_director") === "err_not_director" ? "only this event's director can do that" : t("err_not_director")}</p>`}
      <div class="panel">${ev.status === "registering"
        ? `<div class="row"><label>${t("tour_bot_count")}<input id="dir-bots" type="number" min="1" max="200" value="10"></label>
            <label>${t("tour_bot_level")}<select id="dir-level">${["easy", "normal", "hard", "expert"].map((l) => `<option>${l}</option>`).join("")}</select></label>
            <button id="dir-add-bots">${t("tour_add_bots")}</button></div><button class="primary" id="dir-start">${t("tour_start")}</button>`
        : `<div class="row"><button id="dir-pause">${t("tour_pause")}</button><button id="dir-resume">${t("tour_resume")}</button>
            <button id="dir-plus">${t("tour_add_time")}</button><button id="dir-minus">${t("tour_take_time")}</button></div>
          <div class="row"><label>${t("tour_move_entry")}<select id="dir-entry">${entries}</select></label>
            <label>${t("tour_move_to")}<input id="dir-to" type="number" min="1"></label><button id="dir-move">${t("tour_move")}</button></div>
          <div class="row"><label>${t("tour_table_n", { n: "" })}<input id="dir-table" type="number" min="1"></label><button id="dir-break">${t("tour_break")}</button></div>`}
      </div><p><a href="/e/${code}" data-link>${t("tour_back_event")}</a> · <a href="/tv/${code}" data-link>${t("tour_tv")}</a></p></section>`;
    const act = async (body, path = "director") => {
      try {
        const r = await post(`/api/tournaments/${code}/${path}`, code, body);
        toast(r.pending ? t("tour_pending") : t("tour_done"));
        drawn = null;
      } catch (err) {
        toast(err.message, "error");
      }
    };
    $("#dir-add-bots")?.addEventListener("click", () => act({ count: Number($("#dir-bots").value), level: $("#dir-level").value }, "bots"));
    $("#dir-start")?.addEventListener("click", () => act({ action: "start" }));
    $("#dir-pause")?.addEventListener("click", () => act({ action: "pause" }));
    $("#dir-resume")?.addEventListener("click", () => act({ action: "resume" }));
    $("#dir-plus")?.addEventListener("click", () => act({ action: "add_time", seconds: 60 }));
    $("#dir-minus")?.addEventListener("click", () => act({ action: "add_time", seconds: -60 }));
    $("#dir-move")?.addEventListener("click", () => act({ action: "move", entry: $("#dir-entry").value, table: Number($("#dir-to").value) }));
    $("#dir-break")?.addEventListener("click", () => act({ action: "break", table: Number($("#dir-table").value) }));
  }, 1000);
}

/** The router's part: the page for a tournament path, or undefined. */
export function tournamentRoute(path) {
  let m;
  if (path === "/tournaments") {
    tournamentsPage();
    return { destroy() {}, render() {} };
  }
  if ((m = /^\/e\/([^/]+)\/table\/(\d+)\/?$/.exec(path))) return tablePage(m[1].toUpperCase(), m[2]);
  if ((m = /^\/e\/([^/]+)\/director\/?$/.exec(path))) return directorPage(m[1].toUpperCase());
  if ((m = /^\/e\/([^/]+)\/?$/.exec(path))) return eventPage(m[1].toUpperCase());
  if ((m = /^\/tv\/([^/]+)\/?$/.exec(path))) return tvPage(m[1].toUpperCase());
  return undefined;
}
