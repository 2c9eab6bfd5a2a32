// The sabacc web client: lobby, table, hand-history viewer. Plain ES modules, no framework.
// Everything shown at a table is rendered from the server's observation for this seat.
import { backHTML, cardHTML, dieHTML, displayValue } from "./cards.js";
import { getLang, handName, has, setLang, t } from "./i18n.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const app = $("#app");

const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const store = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value == null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* private mode */
    }
  },
};

let catalogue = null;

async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(body?.error?.message || body?.detail || res.statusText);
    err.code = body?.error?.code;
    throw err;
  }
  return body;
}

async function loadCatalogue() {
  if (!catalogue) catalogue = await api("/api/variants");
  return catalogue;
}

function variantInfo(name) {
  return catalogue?.variants.find((v) => v.name === name) || null;
}

function deckStyle(variant) {
  const info = variantInfo(variant);
  if (info) return info.deck;
  return variant === "classic" ? "classic" : "spike";
}

function toast(text, kind = "") {
  const box = $("#toast");
  const item = document.createElement("div");
  item.className = `toast-item ${kind}`;
  item.textContent = text;
  box.appendChild(item);
  setTimeout(() => item.classList.add("hide"), 3200);
  setTimeout(() => item.remove(), 3800);
}

// ------------------------------------------------------------------ language
function initLang() {
  const saved = store.get("sabacc:lang");
  const browser = (navigator.language || "").toLowerCase().startsWith("ja") ? "ja" : "en";
  setLang(saved || browser);
  const button = $("#lang");
  const paint = () => {
    button.textContent = getLang() === "ja" ? "English" : "日本語";
  };
  paint();
  button.addEventListener("click", () => {
    setLang(getLang() === "ja" ? "en" : "ja");
    store.set("sabacc:lang", getLang());
    paint();
    rerender();
  });
}

let rerender = () => {};

// ------------------------------------------------------------------ action text
const VALUE_RE = /^(.*?) ([+-]?\d+[a-z]?)$/;

function words(text) {
  return text
    .split(" ")
    .map((w) => (has(`w_${w}`) ? t(`w_${w}`) : w.replace(/^([+-]?)(\d+)$/, (m, s, d) => (s === "-" ? `−${d}` : m))))
    .join(" ");
}

function actionText(text) {
  if (!text) return "";
  const m = /^(.*) \((all-in)\)$/.exec(text);
  if (m) return `${words(m[1])} (${t("w_all-in")})`;
  return words(text);
}

function actionLabel(kind) {
  const key = `a_${kind.replace(/ /g, "_")}`;
  return has(key) ? t(key) : words(kind);
}

// ------------------------------------------------------------------ event text
function eventText(ev, names, style) {
  const who = (s) => (s != null && names[s] != null ? names[s] : `#${s}`);
  const cards = (list) => list.map((c) => displayCode(c, style)).join(" ");
  const pot = (p) => (has(`pot_${p}`) ? t(`pot_${p}`) : p);
  switch (ev.type) {
    case "hand_started":
      return { text: t("ev_hand_started", { hand: ev.hand, who: who(ev.dealer) }), cls: "head" };
    case "dealt": {
      const what = ev.cards ? cards(ev.cards) : t("ev_cards", { n: ev.count });
      return { text: t(ev.reason === "shift" ? "ev_dealt_shift" : "ev_dealt", { who: who(ev.seat), what }) };
    }
    case "flipped":
      return { text: t("ev_flipped", { card: displayCode(ev.card, style), pile: srcName(ev.pile) }) };
    case "acted":
      return { text: t("ev_acted", { who: who(ev.seat), action: actionText(ev.action || ev.public) }), cls: "act" };
    case "card_taken":
      return {
        text: t("ev_taken", {
          who: who(ev.seat),
          card: ev.card ? displayCode(ev.card, style) : t("ev_a_card"),
          source: srcName(ev.source),
        }),
      };
    case "card_discarded":
      return { text: t("ev_discarded", { who: who(ev.seat), card: displayCode(ev.card, style), pile: srcName(ev.pile) }) };
    case "paid":
      if (ev.reason === "ante" || /^(call|bet|raise)/.test(ev.reason)) return null;
      return { text: t("ev_paid", { who: who(ev.seat), amount: ev.amount, reason: actionText(ev.reason) }) };
    case "dice_rolled":
      return {
        text: t("ev_dice", { who: who(ev.roller), dice: ev.dice.join(" · ") }) + (ev.shift ? ` — ${t("shift")}` : ""),
        cls: ev.shift ? "shift" : "",
      };
    case "reshuffled":
      return { text: t("ev_reshuffled", { n: ev.cards }) };
    case "revealed":
      return {
        text: t("ev_revealed", { who: who(ev.seat), cards: cards(ev.cards), name: handName(ev.name), total: signed(ev.total) }),
        cls: "reveal",
      };
    case "blind_draw":
      return { text: t("ev_blind", { who: who(ev.seat), card: displayCode(ev.card, style) }) };
    case "pot_awarded":
      return {
        text: t("ev_awarded", { who: ev.seats.map(who).join(", "), pot: pot(ev.pot), amount: ev.amount }),
        cls: "win",
      };
    case "pot_carried":
      return { text: t("ev_carried", { pot: pot(ev.pot), amount: ev.amount }) };
    case "eliminated":
      return { text: t("ev_eliminated", { who: who(ev.seat), stack: ev.stack }), cls: "out" };
    case "game_ended":
      return { text: t("ev_game_ended"), cls: "head" };
    default:
      return null;
  }
}

function srcName(source) {
  return has(`src_${source}`) ? t(`src_${source}`) : source;
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

const STAVE_GLYPHS = { c: "●", s: "■", t: "▲" };

function displayCode(code, style) {
  if (style === "classic") return code;
  return String(code)
    .replace(/^-/, "−")
    .replace(/[cst]$/, (c) => STAVE_GLYPHS[c]);
}

// ------------------------------------------------------------------ the felt (pure render)
const KNOWN_KEYS = new Set([
  "variant", "seat", "hand", "phase", "dealer", "current_player", "is_over", "seats", "pots",
  "betting", "legal", "last_hand", "you", "outcome", "round", "rounds", "discard_top",
  "discard_pile", "draw_pile", "mucked", "dice", "sun", "moon_count", "moon_known",
  "discard_stack", "starting_player", "hand_cap", "deck", "out_of_play", "roll", "shift",
  "turn", "orbit", "max_orbits", "calls_open", "bet_limit", "raises", "max_raises", "caller",
]);

function seatPosition(k, n, phone) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  const rx = phone ? 36 : 44;
  const ry = phone ? 43 : 41;
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle), angle };
}

function isPhone() {
  return window.matchMedia("(max-width: 700px)").matches;
}

/**
 * The table as HTML. view: {obs, table, me, turn, deadlineFrac, reveal, style}.
 * obs may be null (no game yet): the seats then come from the table description.
 */
function feltHTML(view) {
  const { obs, table, me, style } = view;
  const seatsInfo = table ? table.seats : [];
  const n = obs ? obs.seats.length : seatsInfo.length;
  const bottom = me ?? 0;
  const phone = isPhone();
  const parts = [];
  for (let s = 0; s < n; s++) {
    const k = (s - bottom + n) % n;
    const pos = seatPosition(k, n, phone);
    parts.push(seatHTML(view, s, pos));
    const bet = obs ? obs.seats[s].round_bet : 0;
    if (bet > 0) {
      const bx = 50 + (pos.x - 50) * 0.58;
      const by = 50 + (pos.y - 50) * 0.52;
      parts.push(`<div class="bet-chip" style="left:${bx}%;top:${by}%"><i></i>${bet}</div>`);
    }
  }
  return `<div class="felt ${phone ? "phone" : ""}">
    <div class="felt-rim"></div>
    <div class="center">${obs ? centerHTML(obs, style) : waitingCenterHTML(table)}</div>
    ${parts.join("")}
    <div class="overlay-slot"></div>
  </div>`;
}

function waitingCenterHTML(table) {
  if (!table) return "";
  const open = table.seats.filter((s) => !s.taken).length;
  return `<div class="center-title">${esc(table.title)}</div>
    <div class="center-sub">${open ? t("waiting_for", { n: open }) : t(`status_${table.status}`)}</div>`;
}

function seatHTML(view, s, pos) {
  const { obs, table, me, turn } = view;
  const info = table?.seats?.[s] || {};
  const seat = obs ? obs.seats[s] : null;
  const name = seat ? seat.name : info.name || (info.kind === "human" ? t("open_seat") : "");
  const isTurn = turn && turn.seat === s;
  const classes = ["seat"];
  if (s === me) classes.push("me");
  if (isTurn) classes.push("turn");
  if (seat && seat.status !== "active") classes.push(`st-${seat.status}`);
  if (!obs && !info.taken) classes.push("open");
  const tags = [];
  if (info.kind === "bot") tags.push(`<span class="tag bot">${t("bot_tag")}</span>`);
  if (table && table.host_seat === s) tags.push(`<span class="tag host">${t("host")}</span>`);
  if (info.away) tags.push(`<span class="tag warn">${t("away")}</span>`);
  else if (info.taken && info.kind === "human" && !info.connected) tags.push(`<span class="tag warn">${t("offline")}</span>`);
  if (seat && seat.status !== "active" && has(`status_${seat.status === "waiting" ? "waiting_seat" : seat.status}`)) {
    const key = `status_${seat.status === "waiting" ? "waiting_seat" : seat.status}`;
    if (t(key)) tags.push(`<span class="tag st">${t(key)}</span>`);
  }
  let cards = "";
  if (seat) {
    const reveal = view.reveal?.[s];
    if (reveal && s !== me) {
      cards = reveal.cards.map((c) => cardHTML(c, view.style, "sm", view.animate ? "flip-in" : "")).join("");
    } else if (s !== me) {
      const known = seat.known_cards || [];
      const hidden = Math.max(0, seat.cards - known.length);
      cards = known.map((c) => cardHTML(c, view.style, "sm")).join("") + backHTML("sm").repeat(hidden);
    } else {
      cards = backHTML("sm").repeat(0);
    }
  }
  const initial = !obs && !info.taken ? "+" : esc((name || "?").trim().charAt(0).toUpperCase() || "?");
  const stack = seat ? seat.stack : null;
  const last = seat?.last_action ? `<div class="last-action">${esc(actionText(seat.last_action))}</div>` : "";
  const timer = isTurn && turn.deadline_ms != null ? `<div class="timer"><i style="width:${Math.round((view.deadlineFrac ?? 1) * 100)}%"></i></div>` : "";
  const sit =
    view.canSit && !info.taken && info.kind === "human"
      ? `<button class="sit" data-sit="${s}">${t("take_seat")}</button>`
      : "";
  // Cards sit on the outer side of the top seats, on the inner side of the others.
  const top = pos.y < 40;
  return `<div class="${classes.join(" ")} ${top ? "top" : ""}" data-seat="${s}" style="left:${pos.x}%;top:${pos.y}%">
    <div class="seat-cards">${cards}</div>
    <div class="seat-box">
      <div class="avatar ${info.kind === "bot" ? "droid" : ""}">${initial}</div>
      <div class="seat-meta">
        <div class="seat-name">${esc(name || t("empty"))}${s === me ? ` <span class="you">(${t("you")})</span>` : ""}</div>
        <div class="seat-tags">${stack != null ? `<span class="stack">${stack}</span>` : ""}${tags.join("")}</div>
      </div>
      ${seat && seat.dealer ? `<div class="dealer-btn" title="${t("dealer")}">D</div>` : ""}
      ${timer}
    </div>
    ${last}${sit}
  </div>`;
}

function centerHTML(obs, style) {
  const lines = [];
  const phase = has(`phase_${obs.phase}`) ? t(`phase_${obs.phase}`) : obs.phase;
  let round = "";
  if (obs.rounds) round = t("round", { n: obs.round, m: obs.rounds });
  else if (obs.turn != null && obs.max_orbits != null) round = t("turn_orbit", { n: obs.turn, o: obs.orbit, m: obs.max_orbits });
  lines.push(`<div class="center-title">${t("hand_no", { n: obs.hand })} · ${esc(phase)}</div>`);
  if (round) lines.push(`<div class="center-sub">${round}</div>`);
  // piles
  const piles = [];
  const drawCount = obs.draw_pile ?? obs.deck;
  if (drawCount != null) {
    piles.push(`<div class="pile"><div class="stack-cards">${backHTML("", "pile-card")}<span class="count">${drawCount}</span></div><label>${t(obs.deck != null ? "deck" : "draw_pile")}</label></div>`);
  }
  if (obs.discard_top !== undefined) {
    const top = obs.discard_top
      ? cardHTML(obs.discard_top, style, "", "pile-card")
      : `<div class="card empty-slot"></div>`;
    const count = (obs.discard_pile || []).length;
    piles.push(`<div class="pile">${top}<label>${t("discard_pile")}${count > 1 ? ` · ${count}` : ""}</label></div>`);
  } else if (obs.discard_pile && obs.discard_pile.length) {
    piles.push(`<div class="pile">${cardHTML(obs.discard_pile[obs.discard_pile.length - 1], style, "", "pile-card")}<label>${t("discard_pile")}</label></div>`);
  }
  if (obs.moon_count != null) {
    const known = (obs.moon_known || []).filter(Boolean);
    piles.push(`<div class="pile"><div class="stack-cards">${obs.moon_count ? backHTML("", "pile-card moon") : `<div class="card empty-slot"></div>`}<span class="count">${obs.moon_count}</span></div><label>${t("moon")}${known.length ? ` · ${known.map((c) => displayCode(c, style)).join(" ")}` : ""}</label></div>`);
  }
  if (obs.out_of_play != null) piles.push(`<div class="pile small"><span class="chip">${t("out_pile")}: ${obs.out_of_play}</span></div>`);
  if (piles.length) lines.push(`<div class="piles">${piles.join("")}</div>`);
  if (obs.sun && obs.sun.length) {
    lines.push(`<div class="sun-row"><label>${t("sun")}</label>${obs.sun.map((c) => cardHTML(c, style, "sm")).join("")}</div>`);
  }
  // pots
  const pots = [`<span class="pot main"><i></i>${t("pot")} <b>${obs.pots.main}</b></span>`];
  if (obs.pots.sabacc) pots.push(`<span class="pot sabacc"><i></i>${t("sabacc_pot")} <b>${obs.pots.sabacc}</b></span>`);
  const sides = (obs.pots.side || []).slice(1);
  for (const side of sides) pots.push(`<span class="pot side">${t("side_pot")} <b>${side.amount}</b></span>`);
  const dice = obs.dice || (obs.roll != null ? [obs.roll] : null);
  const diceHTML = dice
    ? `<div class="dice-row" title="${t("dice")}">${dice.map((d) => dieHTML(d)).join("")}${obs.shift ? `<span class="chip shift">${t("shift")}</span>` : ""}</div>`
    : "";
  lines.push(`<div class="pots">${pots.join("")}${diceHTML}</div>`);
  // anything else a variant adds, shown generically
  const extra = [];
  if (obs.calls_open) extra.push(`<span class="chip">${t("calls_open")}</span>`);
  for (const [key, value] of Object.entries(obs)) {
    if (KNOWN_KEYS.has(key) || value == null || typeof value === "object") continue;
    extra.push(`<span class="chip">${esc(key.replace(/_/g, " "))}: ${esc(value)}</span>`);
  }
  if (extra.length) lines.push(`<div class="extras">${extra.join("")}</div>`);
  return lines.join("");
}

function handHTML(obs, style, previous) {
  if (!obs || !obs.you) return "";
  const you = obs.you;
  const cards = you.cards
    .map((c) => cardHTML(c, style, "lg", previous && !previous.includes(c) ? "deal-in" : ""))
    .join("");
  let name = you.hand ? handName(you.hand.name) : "";
  if (you.hand && String(you.hand.name) === String(you.total)) name = "";
  const total = you.total != null ? t("total", { n: style === "classic" ? you.total : signed(you.total) }) : "";
  const good = you.hand && (you.hand.total === 0 || you.hand.rank <= 2);
  return `<div class="my-hand">
    <div class="hand-cards">${cards || `<span class="muted">—</span>`}</div>
    <div class="hand-value ${good ? "good" : ""}"><b>${esc(name)}</b><span>${total}</span></div>
  </div>`;
}

// ------------------------------------------------------------------ lobby
async function lobby() {
  document.title = "Sabacc";
  $("#crumb").textContent = "";
  await loadCatalogue();
  const form = { variant: "corellian_spike", seats: ["human", "human", "bot:heuristic"] };
  const bots = catalogue.bots;

  function seatOptions(i, value) {
    const opts = [`<option value="human" ${value === "human" ? "selected" : ""}>${i === 0 ? t("you_seat") : t("human")}</option>`];
    if (i > 0) for (const b of bots) opts.push(`<option value="bot:${b}" ${value === `bot:${b}` ? "selected" : ""}>${t("bot", { name: b })}</option>`);
    return opts.join("");
  }

  function draw() {
    const v = variantInfo(form.variant);
    const n = form.seats.length;
    const optionRows = v.options
      .filter((o) => o.name !== "buy_in")
      .map(
        (o) => `<label class="opt"><span>${esc(o.name)}</span>
          <input name="opt-${esc(o.name)}" placeholder="${esc(o.default ?? "none")}" value="${esc(form.options?.[o.name] ?? "")}">
          <small>${esc(o.help)}</small></label>`,
      )
      .join("");
    app.innerHTML = `<section class="lobby">
      <div class="hero"><h1>Sabacc</h1><p>${t("tagline")}</p></div>
      <div class="lobby-grid">
        <form class="panel" id="create-form" autocomplete="off">
          <h2>${t("new_table")}</h2>
          <label>${t("variant")}
            <select name="variant">${catalogue.variants.map((x) => `<option value="${x.name}" ${x.name === form.variant ? "selected" : ""}>${esc(x.title)}</option>`).join("")}</select>
          </label>
          <p class="muted small">${esc(v.summary)}</p>
          <label>${t("your_name")}<input name="player_name" maxlength="24" placeholder="${t("name_placeholder")}" value="${esc(form.player_name ?? store.get("sabacc:name") ?? "")}" required></label>
          <div class="row">
            <label>${t("seats")}<input name="seat_count" type="number" min="${v.min_players}" max="${Math.min(8, v.max_players)}" value="${n}"></label>
            <label>${t("buy_in")}<input name="buy_in" type="number" min="1" placeholder="${esc(v.options.find((o) => o.name === "buy_in")?.default ?? "")}" value="${esc(form.buy_in ?? "")}"></label>
            <label>${t("turn_timer")}<input name="turn_timer" type="number" min="0" max="3600" value="${esc(form.turn_timer ?? 60)}"></label>
          </div>
          <div class="seat-list">${form.seats.map((k, i) => `<label class="seat-pick"><span>${t("seat", { n: i + 1 })}</span><select name="seat-${i}">${seatOptions(i, k)}</select></label>`).join("")}</div>
          <details class="house"><summary>${t("house_rules")}</summary><div class="opts">${optionRows}</div></details>
          <label class="check"><input type="checkbox" name="listed" ${form.listed === false ? "" : "checked"}> ${t("listed")}</label>
          <button class="primary" type="submit" id="create">${t("create")}</button>
        </form>
        <div class="side-col">
          <form class="panel" id="join-form">
            <h2>${t("join_code")}</h2>
            <div class="row"><input name="code" maxlength="8" placeholder="${t("code_placeholder")}" class="code-input"><button type="submit">${t("join")}</button></div>
          </form>
          <div class="panel"><h2>${t("open_tables")}</h2><div id="table-list" class="table-list"><span class="muted">…</span></div></div>
        </div>
      </div>
    </section>`;
    const f = $("#create-form");
    const capture = () => {
      form.player_name = f.player_name.value;
      form.buy_in = f.buy_in.value;
      form.turn_timer = f.turn_timer.value;
      form.listed = f.listed.checked;
      form.options = {};
      for (const o of v.options) {
        const input = f[`opt-${o.name}`];
        if (input && input.value.trim() !== "") form.options[o.name] = input.value.trim();
      }
      form.seats = form.seats.map((k, i) => f[`seat-${i}`]?.value || k);
    };
    // Redraws are deferred: a "change" can fire from a blur while the form is being replaced.
    f.variant.addEventListener("change", () => {
      capture();
      form.variant = f.variant.value;
      form.options = {};
      setTimeout(draw);
    });
    f.seat_count.addEventListener("change", () => {
      capture();
      const want = Math.max(v.min_players, Math.min(8, v.max_players, Number(f.seat_count.value) || 2));
      if (want === form.seats.length) return;
      while (form.seats.length < want) form.seats.push("bot:heuristic");
      form.seats.length = want;
      setTimeout(draw);
    });
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      capture();
      const name = (form.player_name || "").trim();
      if (!name) return toast(t("name_needed"), "error");
      store.set("sabacc:name", name);
      const body = {
        variant: form.variant,
        seats: form.seats,
        options: form.options,
        turn_timer: Number(form.turn_timer || 0),
        listed: form.listed,
        player_name: name,
      };
      if (form.buy_in) body.buy_in = Number(form.buy_in);
      $("#create").disabled = true;
      $("#create").textContent = t("creating");
      try {
        const res = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
        store.set(`sabacc:host:${res.code}`, res.host_token);
        if (res.token) store.set(`sabacc:token:${res.code}`, res.token);
        navigate(res.url);
      } catch (err) {
        toast(err.message, "error");
        $("#create").disabled = false;
        $("#create").textContent = t("create");
      }
    });
    $("#join-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const code = $("#join-form").code.value.trim().toUpperCase();
      if (code) navigate(`/t/${encodeURIComponent(code)}`);
    });
    listTables();
    rerender = () => {
      capture();
      draw();
    };
  }
  draw();
}

async function listTables() {
  const box = $("#table-list");
  if (!box) return;
  try {
    const { tables } = await api("/api/tables");
    box.innerHTML = tables.length
      ? tables
          .map(
            (tb) => `<a class="table-row" href="/t/${tb.code}" data-link>
              <span class="code">${tb.code}</span>
              <span class="tname">${esc(tb.name)}<small>${esc(tb.title)}</small></span>
              <span class="tstatus ${tb.status}">${t(`status_${tb.status}`)}${tb.open_seats ? ` · ${t("open_seats", { n: tb.open_seats })}` : ""}</span>
            </a>`,
          )
          .join("")
      : `<span class="muted">${t("no_tables")}</span>`;
  } catch (err) {
    box.textContent = err.message;
  }
}

// ------------------------------------------------------------------ table page
class TablePage {
  constructor(code) {
    this.code = code;
    this.ws = null;
    this.msg = null; // the latest state message
    this.log = [];
    this.gameNo = null;
    this.fresh = true;
    this.closed = false;
    this.retry = 0;
    this.prevCards = null;
    this.deadline = null;
    this.pending = false;
    this.reveal = null; // {seat: {cards, name}} shown at the seats after a showdown
    this.showdown = null; // last_hand shown in the overlay
    this.dismissedHand = null;
    this.diceBusy = false;
    this.betSize = null;
    this.timerLoop = setInterval(() => this.tick(), 250);
  }

  get token() {
    return store.get(`sabacc:token:${this.code}`) || store.get(`sabacc:host:${this.code}`);
  }

  get style() {
    return deckStyle(this.msg?.table?.variant);
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.fresh = true;
      $("#conn")?.classList.remove("down");
      ws.send(JSON.stringify({ type: "hello", token: this.token || null }));
    });
    ws.addEventListener("message", (e) => this.onMessage(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (this.closed || this.ws !== ws) return;
      $("#conn")?.classList.add("down");
      const delay = Math.min(5000, 500 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.connect(), delay);
    });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timerLoop);
    this.ws?.close();
  }

  onMessage(msg) {
    if (msg.type === "error") {
      this.pending = false;
      if (msg.code === "no_table") {
        app.innerHTML = `<section class="panel narrow"><h2>${t("no_table")}</h2><a href="/" data-link>← Sabacc</a></section>`;
        this.destroy();
        return;
      }
      if (msg.code === "bad_token") store.set(`sabacc:token:${this.code}`, null);
      toast(msg.message, "error");
      this.render();
      return;
    }
    if (msg.type !== "state") return;
    const prev = this.msg;
    this.msg = msg;
    this.pending = false;
    if (msg.game_no !== this.gameNo) {
      this.gameNo = msg.game_no;
      this.log = [];
      this.prevCards = null;
    }
    const names = msg.game ? msg.game.seats.map((s) => s.name) : [];
    let handEnded = false;
    let actedInNewHand = false;
    let dice = null;
    for (const ev of msg.events) {
      const line = eventText(ev, names, this.style);
      if (line) this.log.push(line);
      if (ev.type === "hand_ended") handEnded = true;
      if (ev.type === "acted" && !handEnded) actedInNewHand = true;
      if (ev.type === "dice_rolled") dice = ev;
    }
    // The showdown's cards stay at the seats until somebody acts in the next hand (or 9 s):
    // past that they would read as the new hand's cards. "Last hand" still shows them.
    if (actedInNewHand && this.reveal) {
      clearTimeout(this.revealTimer);
      this.reveal = null;
    }
    if (this.log.length > 300) this.log.splice(0, this.log.length - 300);
    this.deadline = msg.turn?.deadline_ms != null ? performance.now() + msg.turn.deadline_ms : null;
    if (msg.version !== prev?.version) this.betSize = null;
    const lastHand = msg.game?.last_hand;
    if (handEnded && lastHand && !this.fresh) {
      this.showdown = lastHand;
      this.reveal = lastHand.hands;
      this.animateReveal = true;
      clearTimeout(this.revealTimer);
      this.revealTimer = setTimeout(() => {
        this.reveal = null;
        this.render();
      }, 9000);
    }
    this.render();
    if (dice && !this.fresh) this.rollDice(dice);
    this.prevCards = msg.game?.you?.cards || null;
    this.fresh = false;
    const myTurn = msg.turn && msg.you.seat != null && msg.turn.seat === msg.you.seat;
    document.title = `${myTurn ? "● " : ""}${msg.table.name} · Sabacc`;
  }

  tick() {
    if (!this.msg?.turn || this.deadline == null) return;
    const left = Math.max(0, this.deadline - performance.now());
    const frac = this.msg.turn.timer ? left / (this.msg.turn.timer * 1000) : 0;
    const bar = $(`.seat[data-seat="${this.msg.turn.seat}"] .timer i`);
    if (bar) bar.style.width = `${Math.round(frac * 100)}%`;
    const label = $("#turn-clock");
    if (label) label.textContent = t("seconds", { n: Math.ceil(left / 1000) });
  }

  rollDice(ev) {
    const row = $(".dice-row");
    if (!row) return;
    row.innerHTML = ev.dice.map((d) => dieHTML(1 + Math.floor(Math.random() * 6), true)).join("");
    let n = 0;
    const spin = setInterval(() => {
      $$(".dice-row .die").forEach((die) => {
        die.outerHTML = dieHTML(1 + Math.floor(Math.random() * 6), true);
      });
      if (++n >= 6) {
        clearInterval(spin);
        const r = $(".dice-row");
        if (r) r.innerHTML = ev.dice.map((d) => dieHTML(d)).join("") + (ev.shift ? `<span class="chip shift">${t("shift")}</span>` : "");
        if (ev.shift) {
          const felt = $(".felt");
          felt?.classList.add("shifting");
          setTimeout(() => felt?.classList.remove("shifting"), 1400);
          const banner = document.createElement("div");
          banner.className = "banner shift-banner";
          banner.textContent = t("shift");
          $(".overlay-slot")?.appendChild(banner);
          setTimeout(() => banner.remove(), 1800);
        }
      }
    }, 110);
  }

  // ---------------------------------------------------------------- rendering
  render() {
    const msg = this.msg;
    if (!msg) {
      app.innerHTML = `<section class="panel narrow"><p class="muted">…</p></section>`;
      return;
    }
    const table = msg.table;
    const obs = msg.game;
    const me = msg.you.seat;
    $("#crumb").innerHTML = `<span class="crumb-name">${esc(table.name)}</span><span class="crumb-code">${table.code}</span>`;
    const waiting = table.status === "waiting";
    const showObs = obs && !waiting ? obs : null;
    const turn = table.status === "playing" ? msg.turn : null;
    const frac = this.deadline != null && msg.turn?.timer ? Math.max(0, this.deadline - performance.now()) / (msg.turn.timer * 1000) : 1;
    const felt = feltHTML({
      obs: showObs,
      table,
      me,
      turn,
      deadlineFrac: frac,
      reveal: this.reveal,
      animate: this.animateReveal,
      style: this.style,
      canSit: me == null && table.status !== "playing",
    });
    const myTurn = turn && me != null && turn.seat === me;
    const whoTurn = turn && showObs ? showObs.seats[turn.seat]?.name : "";
    app.innerHTML = `<section class="table-page ${myTurn ? "my-turn" : ""}">
      <div class="play-col">
        ${this.statusBarHTML(table, me, myTurn, whoTurn)}
        <div class="felt-wrap">${felt}</div>
        ${waiting || !showObs || (table.status === "finished" && me == null && table.seats.some((x) => !x.taken)) ? this.waitingHTML(table, me, msg.you) : ""}
        ${showObs && me != null ? handHTML(showObs, this.style, this.prevCards) : ""}
        ${showObs && myTurn ? this.actionsHTML(showObs) : ""}
        ${table.status === "finished" && obs ? this.gameOverHTML(obs, table, me, msg.you) : ""}
      </div>
      <aside class="side">
        <div class="panel share">
          <div class="share-row"><span class="muted small">${t("table_code")}</span><b class="big-code">${table.code}</b></div>
          <div class="share-row"><input readonly value="${esc(location.origin + "/t/" + table.code)}" id="share-link"><button id="copy">${t("copy_link")}</button></div>
        </div>
        <div class="panel log-panel">
          <div class="panel-head"><h3>${t("log")}</h3>
            <div class="head-buttons">
              ${obs?.last_hand ? `<button class="ghost" id="show-last">${t("last_hand")}</button>` : ""}
              <button class="ghost" id="open-history">${t("history")}</button>
              <button class="ghost" id="open-rules">${t("rules")}</button>
            </div>
          </div>
          <ol class="log" id="log">${this.log.slice(-80).map((l) => `<li class="${l.cls || ""}">${esc(l.text)}</li>`).join("")}</ol>
        </div>
        <div class="side-foot">
          <span id="conn" class="conn"></span>
          <span class="muted small">${me == null ? t("spectating") : ""}</span>
          ${me != null ? `<button class="ghost danger" id="leave">${t("leave")}</button>` : ""}
        </div>
      </aside>
    </section>`;
    const log = $("#log");
    if (log) log.scrollTop = log.scrollHeight;
    if (this.showdown && this.dismissedHand !== this.showdown.hand && showObs) this.showShowdown(this.showdown, showObs);
    this.animateReveal = false;
    this.bind();
  }

  statusBarHTML(table, me, myTurn, whoTurn) {
    let text = t(`status_${table.status}`);
    let cls = "";
    if (table.status === "playing") {
      if (myTurn) {
        text = t("your_turn");
        cls = "mine";
      } else if (whoTurn) text = t("waiting_turn", { name: esc(whoTurn) });
    }
    const clock = myTurn && this.deadline != null ? `<span class="clock" id="turn-clock"></span>` : "";
    return `<div class="status-bar ${cls}"><span class="variant-name">${esc(table.title)}</span><span class="status-text">${text}</span>${clock}</div>`;
  }

  waitingHTML(table, me, you) {
    const open = table.seats.filter((s) => !s.taken).length;
    const name = store.get("sabacc:name") || "";
    const sit = me == null && table.status !== "playing" && open > 0;
    return `<div class="panel waiting">
      ${sit ? `<label class="inline">${t("your_name")} <input id="sit-name" maxlength="24" value="${esc(name)}" placeholder="${t("name_placeholder")}"></label>` : ""}
      <p class="muted small">${t("share_hint")} <b>${esc(location.origin + "/t/" + table.code)}</b></p>
      <p class="muted small">${t("start_hint")}</p>
      ${you.host && table.status !== "playing" ? `<button class="primary" id="start">${t("start_now")}</button>` : ""}
    </div>`;
  }

  actionsHTML(obs) {
    const legal = obs.legal;
    const simple = [];
    const groups = new Map();
    for (const a of legal.actions) {
      const m = VALUE_RE.exec(a);
      if (m && m[1] !== "call") {
        if (!groups.has(m[1])) groups.set(m[1], []);
        groups.get(m[1]).push({ action: a, value: m[2] });
      } else simple.push(a);
    }
    const mine = obs.you?.cards || [];
    const sun = obs.sun || [];
    const cardFor = (value) => {
      const v = Number(value.replace(/[a-z]$/, ""));
      const pool = [...mine, ...sun];
      const code = pool.find((c) => Number(String(c).replace(/[a-z]$/, "")) === v);
      return code || value;
    };
    const order = ["check", "call", "stand", "gain", "call hand", "junk"];
    simple.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
    const buttons = simple.map(
      (a) => `<button class="act ${a === "junk" ? "danger" : ""} ${a === "call hand" ? "accent" : ""}" data-action="${esc(a)}" ${this.pending ? "disabled" : ""}>${actionLabel(a)}</button>`,
    );
    const groupHTML = [...groups.entries()].map(
      ([kind, items]) => `<div class="act-group"><span class="group-label">${actionLabel(kind)}</span>
        ${items.map((it) => `<button class="act card-btn" data-action="${esc(it.action)}" title="${esc(actionText(it.action))}" ${this.pending ? "disabled" : ""}>${cardHTML(cardFor(it.value), this.style, "sm")}</button>`).join("")}
      </div>`,
    );
    let sizing = "";
    const kind = legal.bet ? "bet" : legal.raise ? "raise" : null;
    if (kind) {
      const [lo, hi] = legal[kind];
      const pot = obs.pots.main + (obs.betting.to_call || 0);
      const clamp = (x) => Math.max(lo, Math.min(hi, Math.round(x)));
      const size = clamp(this.betSize ?? lo);
      const quick = [
        ["min", lo],
        ["half_pot", clamp(pot / 2)],
        ["pot_size", clamp(pot)],
        ["all_in", hi],
      ];
      sizing = `<div class="sizing" data-kind="${kind}">
        <div class="quick">${quick.map(([k, v]) => `<button class="ghost" data-size="${v}">${t(k)}</button>`).join("")}</div>
        <input type="range" id="size-range" min="${lo}" max="${hi}" value="${size}" ${lo === hi ? "disabled" : ""}>
        <input type="number" id="size-num" min="${lo}" max="${hi}" value="${size}">
        <button class="act primary" id="size-go" data-kind="${kind}" ${this.pending ? "disabled" : ""}>${t(kind === "bet" ? "a_bet" : "a_raise")} <b id="size-val">${size}</b></button>
      </div>`;
    }
    const toCall = obs.betting?.to_call ? `<span class="chip">${t("to_call", { n: obs.betting.to_call })}</span>` : "";
    return `<div class="actions panel" id="actions">
      <div class="actions-head"><b>${t("your_turn")}</b>${toCall}<span class="clock" id="turn-clock"></span></div>
      <div class="buttons">${buttons.join("")}</div>
      ${groupHTML.join("")}
      ${sizing}
    </div>`;
  }

  gameOverHTML(obs, table, me, you) {
    const out = obs.outcome;
    if (!out) return "";
    const rows = out.standings
      .map((s, i) => {
        const pay = out.payoffs[s];
        const win = out.winners.includes(s);
        return `<li class="${win ? "winner" : ""}"><span class="place">${i + 1}</span><span class="pname">${esc(obs.seats[s].name)}</span><span class="pstack">${out.stacks[s]}</span><span class="pnet ${pay >= 0 ? "up" : "down"}">${pay >= 0 ? "+" : "−"}${Math.abs(pay)}</span><span class="muted small">${t("total_net", { n: table.seats[s]?.net ?? 0 })}</span></li>`;
      })
      .join("");
    const can = me != null || you.host;
    return `<div class="panel game-over">
      <h2>${t("game_over")}</h2>
      <ol class="standings">${rows}</ol>
      ${can ? `<button class="primary" id="new-game">${t("new_game")}</button>` : ""}
    </div>`;
  }

  showShowdown(result, obs) {
    const slot = $(".overlay-slot");
    if (!slot) return;
    const animate = this.poppedHand !== result.hand;
    this.poppedHand = result.hand;
    const names = obs.seats.map((s) => s.name);
    slot.innerHTML = `<div class="showdown ${animate ? "pop" : ""}" id="showdown">
      ${resultHTML(result, names, this.style, animate)}
      <button class="primary" id="dismiss-showdown">${t("continue")}</button>
    </div>`;
    $("#dismiss-showdown").addEventListener("click", () => {
      this.dismissedHand = result.hand;
      this.showdown = null;
      slot.innerHTML = "";
    });
  }

  bind() {
    $$("[data-action]").forEach((b) =>
      b.addEventListener("click", () => this.act(b.dataset.action)),
    );
    const range = $("#size-range");
    const num = $("#size-num");
    const val = $("#size-val");
    const setSize = (v) => {
      this.betSize = Number(v);
      if (range) range.value = v;
      if (num) num.value = v;
      if (val) val.textContent = v;
    };
    range?.addEventListener("input", () => setSize(range.value));
    num?.addEventListener("input", () => setSize(num.value));
    $$("[data-size]").forEach((b) => b.addEventListener("click", () => setSize(b.dataset.size)));
    $("#size-go")?.addEventListener("click", (e) => {
      const kind = e.currentTarget.dataset.kind;
      this.act(`${kind} ${Number(num.value)}`);
    });
    $$("[data-sit]").forEach((b) => b.addEventListener("click", () => this.sit(Number(b.dataset.sit))));
    $("#start")?.addEventListener("click", () => this.send({ type: "start" }));
    $("#new-game")?.addEventListener("click", () => this.send({ type: "new_game" }));
    $("#leave")?.addEventListener("click", () => this.leave());
    $("#copy")?.addEventListener("click", () => {
      const input = $("#share-link");
      input.select();
      (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject())
        .catch(() => document.execCommand && document.execCommand("copy"))
        .finally(() => toast(t("copied")));
    });
    $("#open-history")?.addEventListener("click", () => openHistory(this));
    $("#open-rules")?.addEventListener("click", () => openRules(this.msg.table.variant));
    $("#show-last")?.addEventListener("click", () => {
      this.showdown = this.msg.game.last_hand;
      this.dismissedHand = null;
      this.poppedHand = null;
      this.showShowdown(this.showdown, this.msg.game);
    });
  }

  act(action) {
    if (this.pending) return;
    this.pending = true;
    $$("#actions button").forEach((b) => {
      b.disabled = true;
    });
    this.send({ type: "action", action, version: this.msg.version });
  }

  async sit(seat) {
    const input = $("#sit-name");
    const name = (input?.value || store.get("sabacc:name") || "").trim();
    if (!name) {
      toast(t("name_needed"), "error");
      input?.focus();
      return;
    }
    store.set("sabacc:name", name);
    try {
      const res = await api(`/api/tables/${this.code}/join`, {
        method: "POST",
        body: JSON.stringify({ name, seat, host_token: store.get(`sabacc:host:${this.code}`) || null }),
      });
      store.set(`sabacc:token:${this.code}`, res.token);
      this.send({ type: "hello", token: res.token });
    } catch (err) {
      toast(err.message, "error");
    }
  }

  leave() {
    this.send({ type: "leave" });
    if (this.msg?.table.status !== "playing") {
      store.set(`sabacc:token:${this.code}`, null);
      setTimeout(() => this.send({ type: "hello", token: store.get(`sabacc:host:${this.code}`) }), 100);
    }
  }
}

/** A finished hand's result: each revealed hand, and who won which pot. */
function resultHTML(result, names, style, animate = false) {
  const winners = new Set(result.pots.flatMap((p) => p.winners));
  const hands = Object.entries(result.hands || {})
    .map(([seat, h]) => {
      const s = Number(seat);
      return `<div class="reveal-row ${winners.has(s) ? "winner" : ""}">
        <span class="rname">${winners.has(s) ? "★ " : ""}${esc(names[s])}</span>
        <span class="rcards">${h.cards.map((c) => cardHTML(c, style, "sm", animate ? "flip-in" : "")).join("")}</span>
        <span class="rvalue"><b>${esc(handName(h.name))}</b> ${h.total != null ? `(${style === "classic" ? h.total : signed(h.total)})` : ""}</span>
      </div>`;
    })
    .join("");
  const potName = (p) => (has(`pot_${p}`) ? t(`pot_${p}`) : p);
  const pots = result.pots
    .map(
      (p) =>
        `<li>${t("wins_pot", { names: p.winners.map((w) => esc(names[w])).join(", "), pot: potName(p.pot), amount: p.amount })} <small class="muted">${esc(p.reason)}</small></li>`,
    )
    .join("");
  const carried = Object.entries(result.carried || {})
    .map(([pot, amount]) => `<li class="muted">${t("carried", { pot: potName(pot), amount })}</li>`)
    .join("");
  return `<h3>${t("hand_over", { n: result.hand })}${result.reason === "showdown" ? ` · ${t("showdown")}` : ""}</h3>
    ${hands}
    <ul class="pot-lines">${pots}${carried}</ul>`;
}

// ------------------------------------------------------------------ modals
function modal(html, cls = "") {
  const wrap = document.createElement("div");
  wrap.className = `modal-wrap ${cls}`;
  wrap.innerHTML = `<div class="modal">${html}<button class="modal-close ghost" aria-label="${t("close")}">✕</button></div>`;
  document.body.appendChild(wrap);
  const close = () => {
    wrap.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (e) => e.key === "Escape" && close();
  document.addEventListener("keydown", onKey);
  wrap.addEventListener("click", (e) => e.target === wrap && close());
  $(".modal-close", wrap).addEventListener("click", close);
  return { wrap, close };
}

function openRules(variant) {
  const info = variantInfo(variant);
  modal(`<h2>${esc(info?.title || variant)}</h2><pre class="rules">${esc(info?.rules || "")}</pre>`);
}

async function openHistory(page) {
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
    const lines = f.events.map((e) => eventText(e, names, style)).filter(Boolean);
    // The last action ends the hand: show the table as it was, with the hands revealed.
    const last = i === frames.length - 1 && i > 0;
    const obs = last ? frames[i - 1].game : f.game;
    const result = last ? f.game.last_hand : null;
    const reveal = result ? result.hands : null;
    const turn = obs.current_player != null && !last ? { seat: obs.current_player } : null;
    body.innerHTML = `<div class="viewer">
      <div class="viewer-head"><b>${t("game_n", { n: game })} · ${t("hand_n", { n: hand })}</b><span class="muted">${t("step", { n: i, m: frames.length - 1 })}</span></div>
      <div class="felt-wrap small">${feltHTML({ obs, table: null, me: data.viewer, turn, reveal, style })}</div>
      ${data.viewer != null ? handHTML(obs, style, null) : ""}
      ${result ? `<div class="showdown inline">${resultHTML(result, names, style)}</div>` : ""}
      <ol class="log frame-log">${lines.map((l) => `<li class="${l.cls || ""}">${esc(l.text)}</li>`).join("")}</ol>
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

// ------------------------------------------------------------------ routing
let page = null;

function navigate(url) {
  history.pushState({}, "", url);
  route();
}

function route() {
  page?.destroy();
  page = null;
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  if (m) {
    const code = decodeURIComponent(m[1]).toUpperCase();
    loadCatalogue().then(() => {
      page = new TablePage(code);
      rerender = () => page.render();
      page.render();
      page.connect();
    });
  } else {
    lobby();
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && a.origin === location.origin && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    navigate(a.pathname);
  }
});
window.addEventListener("popstate", route);
window.addEventListener("resize", () => {
  // Only the table is laid out by script (seat positions differ on a phone).
  clearTimeout(window.__rs);
  window.__rs = setTimeout(() => page?.render(), 150);
});

initLang();
route();
