// The table page: one WebSocket to the server, the latest state message, the log, the
// action panel; everything at the table is drawn from this seat's observation.
import { api, deckStyle, variantInfo } from "./api.js";
import { cardHTML, dieHTML } from "./cards.js";
import { $, $$, app, esc, modal, store, toast } from "./dom.js";
import { openHistory } from "./history.js";
import { getLang, t } from "./i18n.js";
import { feltHTML, handHTML, resultHTML } from "./render.js";
import { actionLabel, actionText, eventLine, lineText, VALUE_RE } from "./text.js";

export class TablePage {
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
    let handEnded = false;
    let actedInNewHand = false;
    let dice = null;
    for (const ev of msg.events) {
      const line = eventLine(ev);
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
          <ol class="log" id="log">${this.log.slice(-80).map((l) => `<li class="${l.cls || ""}">${esc(lineText(l))}</li>`).join("")}</ol>
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
    // The variant's own layout facts (TableDisplay): its labels and its side hand (tokens).
    const display = variantInfo(obs.variant)?.display || {};
    const lang = getLang();
    const own = (a) => display.labels?.[lang]?.[a] ?? display.labels?.en?.[a];
    const side = display.side_hand;
    const sideButtons = [];
    const keeps = []; // "choose a subset of your cards": one picker, not a button per subset
    for (const a of legal.actions) {
      if (a.startsWith("keep ")) {
        keeps.push(a);
        continue;
      }
      const w = a.split(" ");
      if (side && w[0] === side.action && w.length >= 2) {
        const item = w[1];
        const name = side.names?.[lang]?.[item] ?? side.names?.en?.[item] ?? item;
        const help = side.help?.[lang]?.[item] ?? side.help?.en?.[item] ?? "";
        const target = w.length > 2 ? obs.seats[Number(w[2])]?.name : null;
        sideButtons.push(`<button class="act token-btn" data-action="${esc(a)}" title="${esc(help)}" aria-label="${esc(name)}: ${esc(help)}" ${this.pending ? "disabled" : ""}><b>${esc(name)}</b>${target ? ` → ${esc(target)}` : ""}<small class="token-help">${esc(help)}</small></button>`);
        continue;
      }
      if (own(a)) {
        simple.push(a);
        continue;
      }
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
      (a) => `<button class="act ${a === "junk" ? "danger" : ""} ${a === "call hand" ? "accent" : ""}" data-action="${esc(a)}" ${this.pending ? "disabled" : ""}>${esc(own(a) || "") || actionLabel(a, obs.variant)}</button>`,
    );
    if (sideButtons.length) {
      const title = side.title?.[lang] ?? side.title?.en ?? side.action;
      groups.set("\u0000side", sideButtons);
      this.sideTitle = title;
    }
    const groupHTML = [...groups.entries()].map(([kind, items]) =>
      kind === "\u0000side"
        ? `<div class="act-group tokens"><span class="group-label">${esc(this.sideTitle)}</span>${items.join("")}</div>`
        : `<div class="act-group"><span class="group-label">${actionLabel(kind === "gain" ? "gain sun" : kind, obs.variant)}</span>
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
    let subset = "";
    if (keeps.length) {
      const sets = keeps.map((a) => a.slice(5).split(" "));
      const locked = new Set(sets.reduce((acc, s) => acc.filter((c) => s.includes(c))));
      subset = `<div class="act-group subset" data-keeps="${esc(JSON.stringify(keeps))}">
        <span class="group-label">${actionLabel("keep", obs.variant)}</span>
        ${mine.map((c, i) => `<button class="act card-btn toggle ${locked.has(c) ? "on locked" : ""}" data-pos="${i}" data-code="${esc(c)}" aria-pressed="${locked.has(c)}" ${this.pending || locked.has(c) ? "disabled" : ""}>${cardHTML(c, this.style, "sm")}</button>`).join("")}
        <button class="act primary" id="keep-go" disabled>${actionLabel("keep", obs.variant)}</button>
      </div>`;
    }
    const toCall = obs.betting?.to_call ? `<span class="chip">${t("to_call", { n: obs.betting.to_call })}</span>` : "";
    return `<div class="actions panel" id="actions">
      <div class="actions-head"><b>${t("your_turn")}</b>${toCall}<span class="clock" id="turn-clock"></span></div>
      <div class="buttons">${buttons.join("")}</div>
      ${groupHTML.join("")}
      ${subset}
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
    const picker = $(".subset");
    if (picker) {
      const keeps = JSON.parse(picker.dataset.keeps);
      const chosen = () =>
        $$(".subset .toggle.on").map((b) => b.dataset.code).sort().join(" ");
      const match = () => keeps.find((a) => a.slice(5).split(" ").sort().join(" ") === chosen());
      $$(".subset .toggle:not(.locked)").forEach((b) =>
        b.addEventListener("click", () => {
          b.classList.toggle("on");
          b.setAttribute("aria-pressed", String(b.classList.contains("on")));
          $("#keep-go").disabled = !match() || this.pending;
        }),
      );
      $("#keep-go").addEventListener("click", () => {
        const action = match();
        if (action) this.act(action);
      });
    }
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


function openRules(variant) {
  const info = variantInfo(variant);
  modal(`<h2>${esc(info?.title || variant)}</h2><pre class="rules">${esc(info?.rules || "")}</pre>`);
}
