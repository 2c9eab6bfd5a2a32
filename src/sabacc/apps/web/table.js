// The table page: one WebSocket to the server, the latest state message, the log, the
// action panel; everything at the table is drawn from this seat's observation.
import { api, deckStyle, variantInfo } from "./api.js";
import { cardHTML, dieHTML, displayCode } from "./cards.js";
import { $, $$, app, esc, modal, store, toast } from "./dom.js";
import { openHistory } from "./history.js";
import { currentUser, inviteButtonHTML, mutedNames, toggleMute, wireInvite } from "./community.js";
import { getLang, t } from "./i18n.js";
import { feltHTML, handHTML, resultHTML } from "./render.js";
import { sound } from "./sound.js";
import { actionLabel, actionText, cardGlyphs, eventLine, lineText, VALUE_RE } from "./text.js";
import { applyDelta } from "./delta.js";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
// Lines of a finished hand that explain it: the reveals, every payment and pot, the nets.
const RESULT_TYPES = new Set(["revealed", "paid", "pot_awarded", "pot_carried", "hand_ended", "eliminated", "game_ended"]);
// A redraw replaces every button, and one landing between a button's press and its release
// eats the click (an away player's press sends "back", whose answer redraws the table: "New
// game" pressed by an away host was lost). Redraws wait while a press lasts, at most
// PRESS_HOLD_MS, and after its release up to RELEASE_GRACE_MS for its click (a tap's click is
// an event of its own after the touch ends; a mouse's comes with the release).
const PRESS_HOLD_MS = 1000;
const RELEASE_GRACE_MS = 150;

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
    this.online = false;
    this.everOnline = false;
    this.resync = true; // the next state carries the hand's events from its start
    this.queued = null; // an action clicked while the connection was down
    this.chat = [];
    this.chatIds = new Set();
    this.resultLines = null; // the last finished hand's explaining lines
    this.handLines = [];
    this.wasMyTurn = false;
    this.backSent = 0;
    this.pressed = false; // a press (the pointer, or Space on a button) is under way
    this.heldRender = false; // a redraw waits for the press to end
    this.pressTimer = null;
    this.drawnVersion = null; // the table version the buttons on screen were drawn for
    this.onPress = (e) => this.press(e);
    this.onRelease = (e) => this.release(e);
    document.addEventListener("pointerdown", this.onPress, true);
    document.addEventListener("keydown", this.onPress, true);
    for (const type of ["pointerup", "pointercancel", "keyup", "click"]) document.addEventListener(type, this.onRelease, true);
    window.addEventListener("blur", this.onRelease);
    this.timerLoop = setInterval(() => this.tick(), 250);
    this.onActivity = () => this.activity();
    for (const type of ["pointerdown", "keydown", "touchstart"]) document.addEventListener(type, this.onActivity, true);
    window.addEventListener("focus", this.onActivity);
    document.addEventListener("visibilitychange", this.onActivity);
  }

  /** Any input or the tab coming back: an away player is back (the server is told once). */
  activity() {
    if (document.visibilityState === "hidden") return;
    if (!this.msg?.you?.away || this.msg.you.seat == null) return;
    const now = performance.now();
    if (now - this.backSent < 1500) return;
    this.backSent = now;
    this.send({ type: "back" });
  }

  /** A press begins: redraws wait until it ends (see PRESS_HOLD_MS). */
  press(e) {
    const space = e.type === "keydown" && e.key === " " && !e.repeat && e.target?.closest?.("button");
    if (e.type === "pointerdown" ? !e.isPrimary || e.button !== 0 : !space) return;
    this.pressed = true;
    clearTimeout(this.pressTimer);
    this.pressTimer = setTimeout(() => this.unhold(), PRESS_HOLD_MS);
  }

  /** A press ends: on its click (or a cancel, the window losing focus) the held redraw is
   * drawn, after the click's own handlers; a release waits a moment for its click. */
  release(e) {
    if (!this.pressed || (e.type === "pointerup" && !e.isPrimary)) return;
    if (e.type === "pointerup" || e.type === "keyup") {
      clearTimeout(this.pressTimer);
      this.pressTimer = setTimeout(() => this.unhold(), RELEASE_GRACE_MS);
      return;
    }
    this.unhold();
  }

  unhold() {
    clearTimeout(this.pressTimer);
    this.pressed = false;
    if (this.heldRender) {
      this.heldRender = false;
      this.scheduleRender();
    }
  }

  /** Whether a press holds redraws now (the redraw is then owed to its end). */
  held() {
    if (this.pressed) this.heldRender = true;
    return this.pressed;
  }

  /** The hand-history viewer of this table (a profile's recent-game link opens it). */
  openHistory() {
    openHistory(this);
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
      this.online = true;
      this.everOnline = true;
      this.resync = true;
      $("#conn")?.classList.remove("down");
      ws.send(JSON.stringify({ type: "hello", token: this.token || null, deltas: true }));
    });
    ws.addEventListener("message", (e) => this.onMessage(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (this.closed || this.ws !== ws) return;
      $("#conn")?.classList.add("down");
      if (this.online) {
        this.online = false;
        this.pending = false;
        this.render();
      }
      const delay = Math.min(5000, 500 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.connect(), delay);
    });
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timerLoop);
    clearTimeout(this.renderTimer);
    clearTimeout(this.pressTimer);
    for (const type of ["pointerdown", "keydown", "touchstart"]) document.removeEventListener(type, this.onActivity, true);
    document.removeEventListener("pointerdown", this.onPress, true);
    document.removeEventListener("keydown", this.onPress, true);
    for (const type of ["pointerup", "pointercancel", "keyup", "click"]) document.removeEventListener(type, this.onRelease, true);
    window.removeEventListener("blur", this.onRelease);
    window.removeEventListener("focus", this.onActivity);
    document.removeEventListener("visibilitychange", this.onActivity);
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
    if (msg.type === "welcome") {
      this.resync = true; // the server sends this hand's events again after every hello
      return;
    }
    if (msg.type === "chat") {
      if (this.chatIds.has(msg.id)) return;
      this.chatIds.add(msg.id);
      this.chat.push(msg);
      if (this.chat.length > 50) this.chat.shift();
      this.renderChat();
      return;
    }
    if (msg.type === "delta") {
      // Only what changed since the last state or delta (docs/protocol.md): one that does not
      // follow the last one is not applied; a sync brings the whole state again.
      const whole = applyDelta(this.msg, msg);
      if (!whole) {
        this.resync = true; // the whole state tells this hand again: the log starts over
        this.send({ type: "sync" });
        return;
      }
      msg = whole;
    }
    if (msg.type !== "state") return;
    const prev = this.msg;
    this.msg = msg;
    this.pending = false;
    if (msg.game_no !== this.gameNo || this.resync) {
      // A new game, or the hand told again from its start (a reconnect, taking a seat): the
      // log starts over instead of showing the hand twice.
      if (msg.game_no !== this.gameNo) this.prevCards = null;
      this.gameNo = msg.game_no;
      this.log = [];
      this.handLines = [];
      this.resync = false;
    }
    let handEnded = false;
    let actedInNewHand = false;
    let dice = null;
    const me = msg.you.seat;
    let dealtMe = false;
    for (const ev of msg.events) {
      const line = eventLine(ev);
      if (ev.type === "hand_started") this.handLines = [];
      if (line) {
        if (ev.auto) line.auto = true;
        this.log.push(line);
        if (RESULT_TYPES.has(ev.type)) this.handLines.push(line);
      }
      if (ev.type === "hand_ended" || ev.type === "game_ended") {
        handEnded = true;
        this.resultLines = this.handLines.slice();
      }
      if (ev.type === "acted" && !handEnded) actedInNewHand = true;
      if (ev.type === "dice_rolled") dice = ev;
      if (ev.type === "dealt" && ev.seat === me) dealtMe = true;
    }
    const myTurnNow = msg.turn && me != null && msg.turn.seat === me && msg.table.status === "playing";
    if (!this.fresh) {
      if (myTurnNow && !this.wasMyTurn) sound.play("turn", me != null);
      else if (dealtMe) sound.play("deal", me != null);
      this.flyChips(msg.events);
    }
    this.wasMyTurn = Boolean(myTurnNow);
    if (msg.explain) this.explain = msg.explain;
    if (this.queued && myTurnNow && msg.version === this.queued.version) {
      const queued = this.queued;
      this.queued = null;
      setTimeout(() => this.act(queued.action, queued.version), 0);
    } else if (this.queued && msg.version !== this.queued.version) {
      this.queued = null; // the table moved on (the timer played): the old move no longer applies
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
    this.scheduleRender(dice && !this.fresh ? dice : null);
    this.fresh = false;
    const myTurn = msg.turn && msg.you.seat != null && msg.turn.seat === msg.you.seat;
    document.title = `${myTurn ? "● " : ""}${msg.table.name} · Sabacc`;
  }

  /** Redraw soon, at most about eight times a second: a table whose seats play themselves
   * sends a state every few tens of milliseconds, and redrawing each one starves the page. */
  scheduleRender(dice) {
    if (dice) this.pendingDice = dice;
    if (this.renderTimer) return;
    const since = performance.now() - (this.lastRender || 0);
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      if (this.held()) return; // drawn (and the dice rolled) when the press ends
      this.render();
      this.lastRender = performance.now();
      if (this.pendingDice) this.rollDice(this.pendingDice);
      this.pendingDice = null;
      this.prevCards = this.msg?.game?.you?.cards || null;
    }, Math.max(0, 120 - since));
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
    if (this.held()) return;
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
    // A seat's last move is shown during the phase it was played in, not after (a stale
    // "bet 75" in the next phase or hand reads as a new move).
    this.lastMoves = this.lastMoves || {};
    const lastShown = new Set();
    (showObs?.seats || []).forEach((seat, i) => {
      const rec = this.lastMoves[i];
      if (!rec || rec.action !== seat.last_action) this.lastMoves[i] = { action: seat.last_action, phase: showObs.phase, hand: showObs.hand };
      const now = this.lastMoves[i];
      if (now.phase === showObs.phase && now.hand === showObs.hand) lastShown.add(i);
    });
    const felt = feltHTML({
      lastShown,
      betting: showObs ? showObs.phase === "betting" : false,
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
    const kept = this.keepInputs();
    const dock =
      showObs && me != null
        ? `<div class="dock ${myTurn ? "mine" : ""} ${showObs.outcome ? "over" : ""}" id="dock">${handHTML(showObs, this.style, this.prevCards)}${myTurn ? this.actionsHTML(showObs) : ""}</div>`
        : "";
    app.innerHTML = `<section class="table-page ${myTurn ? "my-turn" : ""} ${me != null ? "seated" : ""}">
      <div class="play-col">
        ${this.statusBarHTML(table, me, myTurn, whoTurn)}
        ${this.bannersHTML(table, msg.you)}
        ${table.status === "finished" && obs ? this.gameOverHTML(obs, table, me, msg.you) : ""}
        <div class="felt-wrap">${felt}</div>
        ${waiting || !showObs || (table.status === "finished" && me == null && table.seats.some((x) => !x.taken)) ? this.waitingHTML(table, me, msg.you) : ""}
        ${dock}
      </div>
      <aside class="side">
        <div class="panel share">
          <div class="share-row"><span class="muted small">${t("table_code")}</span><b class="big-code">${table.code}</b></div>
          <div class="share-row"><input readonly value="${esc(location.origin + "/t/" + table.code)}" id="share-link"><button id="copy">${t("copy_link")}</button></div>
          ${LOOPBACK.has(location.hostname) ? `<p class="muted small loopback" id="loopback-hint">${esc(t("loopback_hint", { port: location.port || "80", code: table.code }))}</p>` : ""}
        </div>
        ${this.resultPanelHTML()}
        <div class="panel log-panel">
          <div class="panel-head"><h3>${t("log")}</h3>
            <div class="head-buttons">
              ${obs?.last_hand ? `<button class="ghost" id="show-last">${t("last_hand")}</button>` : ""}
              <button class="ghost" id="open-history">${t("history")}</button>
              ${inviteButtonHTML(this.msg?.you?.seat != null)}
              <button class="ghost" id="open-rules">${t("rules")}</button>
            </div>
          </div>
          <ol class="log" id="log">${this.log.slice(-200).map((l) => `<li class="${l.cls || ""} ${l.auto ? "auto" : ""}">${esc(lineText(l, table.variant))}</li>`).join("")}</ol>
        </div>
        <div class="panel chat-panel">
          <h3>${t("chat")}</h3>
          <ol class="chat" id="chat"></ol>
          <form id="chat-form" class="chat-form" autocomplete="off"><input id="chat-input" maxlength="200" placeholder="${t("chat_placeholder")}"><button type="submit">${t("send")}</button></form>
        </div>
        <div class="side-foot">
          <span id="conn" class="conn ${this.online ? "" : "down"}"></span>
          <span class="muted small">${me == null ? t("spectating") : ""}</span>
          <button class="ghost" id="mute" aria-pressed="${sound.muted(me != null)}">${sound.muted(me != null) ? t("sound_off") : t("sound_on")}</button>
          ${me != null ? `<button class="ghost danger" id="leave">${t("leave")}</button>` : ""}
        </div>
      </aside>
    </section>`;
    this.drawnVersion = msg.version;
    this.restoreInputs(kept);
    this.fitFelt();
    this.renderChat();
    const log = $("#log");
    if (log) log.scrollTop = log.scrollHeight;
    // The showdown overlay never covers the felt while it is this player's turn: the result
    // stays beside the log ("Last hand") instead.
    if (myTurn && this.showdown) {
      this.dismissedHand = this.showdown.hand;
      this.showdown = null;
    }
    if (this.showdown && this.dismissedHand !== this.showdown.hand && showObs) this.showShowdown(this.showdown, showObs);
    this.showStandings();
    this.animateReveal = false;
    this.bind();
    this.maybeHowTo(table.variant);
  }

  /** Size the felt so that it and the dock (your cards and actions) fit the viewport
   * together: on your turn every control is on screen without scrolling. */
  fitFelt() {
    const felt = $(".felt");
    const wrap = $(".felt-wrap");
    if (!felt || !wrap) return;
    const phone = window.matchMedia("(max-width: 700px)").matches;
    const dock = $("#dock");
    const style = getComputedStyle(wrap);
    const top = wrap.getBoundingClientRect().top + window.scrollY + parseFloat(style.paddingTop);
    const docked = dock && getComputedStyle(dock).position !== "static";
    document.documentElement.style.setProperty("--dock-h", `${docked ? dock.offsetHeight : 0}px`);
    const below = parseFloat(style.paddingBottom) + (docked ? dock.offsetHeight + (phone ? 4 : 16) : 0);
    // The felt takes the height the docked bar leaves, never more: a felt taller than that
    // ran under the bar (on a phone whose bar holds the bet sizer and five cards, the bottom
    // seat covered your cards). The floor is only for a viewport too short to play in.
    const avail = Math.max(phone ? 200 : 260, window.innerHeight - top - below);
    if (phone) {
      // a phone's felt keeps the full width and takes the height left (an ellipse, not a circle)
      felt.style.aspectRatio = "auto";
      felt.style.height = `${Math.floor(Math.min(avail, wrap.clientWidth * 1.22))}px`;
      // The bottom seat's box and last move hang below the felt: they must clear the bar too.
      for (let i = 0; docked && i < 3; i++) {
        const over = this.feltOverhang(dock);
        if (!(over > 0.5)) break;
        felt.style.height = `${Math.max(200, Math.floor(felt.getBoundingClientRect().height - over / 0.9 - 1))}px`;
      }
    } else {
      felt.style.width = `min(100%, ${Math.floor(avail * (2 / 1.05))}px)`;
      // as on a phone, what hangs below the felt clears the bar (a narrower felt is shorter)
      for (let i = 0; docked && i < 3; i++) {
        const over = this.feltOverhang(dock);
        if (!(over > 0.5)) break;
        const width = felt.getBoundingClientRect().width;
        felt.style.width = `${Math.max(420, Math.floor(width - (over / 0.9) * (2 / 1.05) - 1))}px`;
      }
    }
    this.fitCenter();
  }

  /** How far the seats (the bottom seat's box and last move hang below the felt) reach into
   * the docked bar: > 0 when they run under it. */
  feltOverhang(dock) {
    const top = dock.getBoundingClientRect().top;
    if (top >= window.innerHeight) return 0; // the bar is further down the page
    const lowest = Math.max(...$$(".felt .seat, .felt .seat *").map((e) => e.getBoundingClientRect().bottom));
    return lowest - (top - 4);
  }

  /** Shrink the centre (title, piles, pots) until no seat, chip or last move touches it. */
  fitCenter() {
    const center = $(".felt .center");
    if (!center) return;
    const parts = $$(".center-title, .center-sub, .piles, .sun-row, .pots, .extras", center);
    const others = $$(".felt .seat .seat-box, .felt .seat .seat-cards .card, .felt .bet-chip, .felt .last-action");
    const boxes = others.map((e) => e.getBoundingClientRect());
    const hit = () =>
      parts.some((p) => {
        const a = p.getBoundingClientRect();
        return boxes.some((b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1);
      });
    let scale = 1;
    center.style.transform = "";
    while (hit() && scale > 0.55) {
      scale -= 0.05;
      center.style.transform = `translate(-50%, -50%) scale(${scale.toFixed(2)})`;
    }
    if (!hit()) return;
    // Still touching at the smallest legible size (a tall seat box over the title on a phone
    // whose bar is tall): move it up or down into the free room between the seats, if any.
    const shrunk = center.style.transform;
    for (let dy = 3; dy <= 45; dy += 3) {
      for (const d of [dy, -dy]) {
        center.style.transform = `translate(-50%, calc(-50% + ${d}px)) scale(${scale.toFixed(2)})`;
        if (!hit()) return;
      }
    }
    center.style.transform = shrunk;
  }

  /** Why the last hand ended as it did (the server's explanation), beside the log. */
  explainLines() {
    const lines = this.explain?.lines;
    const variant = this.msg?.table?.variant;
    if (lines) return (lines[getLang()] || lines.en || []).map((l) => cardGlyphs(l, variant));
    return (this.resultLines || []).map((l) => lineText(l, variant));
  }

  resultPanelHTML() {
    const lines = this.explainLines();
    if (!lines.length) return "";
    const hand = this.explain?.hand;
    return `<div class="panel result-panel" id="result-panel"><h3>${hand ? t("hand_over", { n: hand }) : t("last_hand")}</h3><ul class="result-lines">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul></div>`;
  }

  /** The values, focus and caret of the page's inputs, to put back after a redraw. */
  keepInputs() {
    const kept = { values: {}, focus: null };
    for (const input of $$("input[id]", app)) {
      if (input.readOnly || input.type === "range") continue;
      if (input.dataset.dirty) kept.values[input.id] = input.value;
    }
    const active = document.activeElement;
    if (active && active.id && app.contains(active) && active.tagName === "INPUT") {
      kept.focus = { id: active.id, start: active.selectionStart, end: active.selectionEnd };
    }
    return kept;
  }

  restoreInputs(kept) {
    for (const [id, value] of Object.entries(kept.values)) {
      const input = document.getElementById(id);
      if (input) {
        input.value = value;
        input.dataset.dirty = "1";
      }
    }
    for (const input of $$("input[id]", app)) input.addEventListener("input", () => (input.dataset.dirty = "1"));
    if (kept.focus) {
      const input = document.getElementById(kept.focus.id);
      if (input) {
        input.focus({ preventScroll: true });
        try {
          input.setSelectionRange(kept.focus.start, kept.focus.end);
        } catch {
          /* number inputs have no selection */
        }
      }
    }
  }

  bannersHTML(table, you) {
    const out = [];
    if (table.problem) out.push(`<div class="banner-line problem" role="alert" id="problem">${esc(table.problem)}</div>`);
    if (!this.online && this.everOnline) {
      const queued = this.queued ? ` ${esc(t("conn_queued", { action: actionText(this.queued.action) }))}` : "";
      out.push(`<div class="banner-line conn-lost" role="alert" id="conn-lost">${t("conn_lost")}${queued}</div>`);
    }
    if (you.away && you.seat != null && table.status === "playing") {
      out.push(`<div class="banner-line away" role="alert" id="away-banner">${t("away_banner")} <button class="primary" id="im-back">${t("im_back")}</button></div>`);
    }
    return out.join("");
  }

  renderChat() {
    const box = $("#chat");
    if (!box) return;
    const names = this.msg?.table?.seats || [];
    const muted = mutedNames(this.code);
    const mine = this.msg?.you?.seat;
    box.innerHTML = this.chat
      .map((c) => {
        const named = c.name || (c.seat != null ? names[c.seat]?.name : null);
        const who = named || t("spectator");
        // Muting is for this browser only: the others still see the lines.
        const button = named && c.seat !== mine
          ? `<button type="button" class="ghost chat-mute" data-mute="${esc(named)}" title="${esc(muted.has(named) ? t("unmute_player") : t("mute_player"))}">${muted.has(named) ? t("unmute_player") : t("mute_player")}</button>`
          : "";
        if (named && muted.has(named)) return `<li class="muted-line"><i>${esc(t("muted_lines", { name: named }))}</i> ${button}</li>`;
        return `<li><b>${esc(who)}</b> ${esc(c.text)} ${button}</li>`;
      })
      .filter((line, i, all) => !line.startsWith('<li class="muted-line">') || !all[i - 1]?.startsWith('<li class="muted-line">'))
      .join("");
    box.scrollTop = box.scrollHeight;
  }

  /** The how-to-win screen, once per variant on this browser (Rules opens it again). */
  maybeHowTo(variant) {
    const key = `sabacc:howto:${variant}`;
    if (store.get(key) || this.howToShown) return;
    this.howToShown = true;
    store.set(key, "1");
    openRules(variant);
  }

  /** Chips fly from a seat to the pot when it pays, and from the pot to whoever wins it. */
  flyChips(events) {
    if (reducedMotion()) return;
    const moves = [];
    for (const ev of events) {
      if (ev.type === "paid" && ev.amount > 0) moves.push({ from: `.seat[data-seat="${ev.seat}"] .seat-box`, to: ".pots .pot.main" });
      if (ev.type === "pot_awarded") for (const w of ev.seats || []) moves.push({ from: ".pots .pot.main", to: `.seat[data-seat="${w}"] .seat-box` });
    }
    if (!moves.length) return;
    requestAnimationFrame(() => {
      moves.slice(-8).forEach((m, i) => {
        const a = $(m.from)?.getBoundingClientRect();
        const b = $(m.to)?.getBoundingClientRect();
        if (!a || !b) return;
        const chip = document.createElement("div");
        chip.className = "flying-chip";
        chip.style.left = `${a.left + a.width / 2 - 8}px`;
        chip.style.top = `${a.top + a.height / 2 - 8}px`;
        document.body.appendChild(chip);
        const dx = b.left + b.width / 2 - (a.left + a.width / 2);
        const dy = b.top + b.height / 2 - (a.top + a.height / 2);
        chip.animate([{ transform: "translate(0,0)", opacity: 1 }, { transform: `translate(${dx}px,${dy}px)`, opacity: 0.2 }], {
          duration: 650,
          delay: i * 90,
          easing: "cubic-bezier(.3,.7,.4,1)",
          fill: "forwards",
        }).onfinish = () => chip.remove();
      });
    });
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
    const name = currentUser()?.username || store.get("sabacc:name") || "";
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
    // The variant's declared action kinds (/api/variants): a subset kind ("choose a subset of
    // your cards") is one picker, not a button per subset; a kind picking a pile's card (a
    // face-up pile's) offers that pile's cards.
    const kinds = variantInfo(obs.variant)?.actions || [];
    const subsetKind = kinds.find((k) => k.control === "subset");
    const subsetHead = subsetKind ? `${subsetKind.head} ` : null;
    const keeps = [];
    for (const a of legal.actions) {
      if (subsetHead && a.startsWith(subsetHead)) {
        keeps.push(a);
        continue;
      }
      const w = a.split(" ");
      if (side && w[0] === side.action && w.length >= 2) {
        // one control per item; an item played on a chosen player gets one small button per
        // target under its name (not a full button per player: the bar stays on screen)
        const item = w[1];
        let entry = sideButtons.find((e) => e.item === item);
        if (!entry) {
          entry = { item, name: side.names?.[lang]?.[item] ?? side.names?.en?.[item] ?? item, help: side.help?.[lang]?.[item] ?? side.help?.en?.[item] ?? "", action: null, targets: [] };
          sideButtons.push(entry);
        }
        if (w.length > 2) entry.targets.push({ action: a, name: obs.seats[Number(w[2])]?.name ?? w[2] });
        else entry.action = a;
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
    const pileCards = kinds.filter((k) => k.control === "pile" && k.pile).flatMap((k) => obs[k.pile] || []);
    const cardFor = (value) => {
      const v = Number(value.replace(/[a-z]$/, ""));
      const pool = [...mine, ...pileCards];
      const code = pool.find((c) => Number(String(c).replace(/[a-z]$/, "")) === v);
      return code || value;
    };
    // Buttons in order: check and call, stand, the variant's card actions, its own betting
    // actions (drawn as an accent), junk; anything else after them.
    const kindOf = (a) => kinds.find((k) => k.head === a);
    const rank = (a) => {
      const shared = { check: 0, call: 1, stand: 2, junk: 5 }[a];
      if (shared !== undefined) return shared;
      const kind = kindOf(a);
      return kind ? (kind.betting ? 4 : 3) : 99;
    };
    simple.sort((a, b) => rank(a) - rank(b));
    const accent = (a) => rank(a) === 4;
    const buttons = simple.map(
      (a) => `<button class="act ${a === "junk" ? "danger" : ""} ${accent(a) ? "accent" : ""}" data-action="${esc(a)}" ${this.pending ? "disabled" : ""}>${esc(own(a) || "") || actionLabel(a, obs.variant)}</button>`,
    );
    // What each swap gives and takes: the card is yours, the pile's top is what you take
    // (face-up piles show it; face-down ones give an unseen card). Piles come from the variant.
    const piles = variantInfo(obs.variant)?.piles || [];
    const pileTop = (source) => {
      const pile = piles.find((p) => p.name === source);
      if (!pile || !pile.face_up) return null;
      const value = obs[pile.key];
      if (Array.isArray(value)) return value.length ? value[value.length - 1] : null;
      return value || null;
    };
    // A group's name: its declared kind's (a card taken from a pile: "gain sun"), else its words.
    const groupName = (head) => {
      const own = kinds.find((k) => k.head === head && k.form.includes("<card>"));
      return own ? own.name.replace(/_/g, " ") : head;
    };
    // A card button's caption, by its declared kind: a hand card given for a pile's card
    // (a swap), a pile's card taken, else the action's words.
    const caption = (kind, value) => {
      const card = displayCode(cardFor(value), this.style);
      const own = kinds.find((k) => k.head === kind && k.form.includes("<card>"));
      if (own?.control === "card" && own.source) {
        const top = pileTop(own.source);
        return top ? t("give_take", { give: card, take: displayCode(top, this.style) }) : t("give_take_hidden", { give: card });
      }
      if (own?.control === "pile") return t("take_card", { take: card });
      return actionText(`${kind} ${value}`);
    };
    if (sideButtons.length) {
      const title = side.title?.[lang] ?? side.title?.en ?? side.action;
      const off = this.pending ? "disabled" : "";
      const item = (e) =>
        e.action && !e.targets.length
          ? `<button class="act token-btn" data-action="${esc(e.action)}" title="${esc(e.help)}" aria-label="${esc(e.name)}: ${esc(e.help)}" ${off}><b>${esc(e.name)}</b><small class="token-help">${esc(e.help)}</small></button>`
          : `<div class="token-item" title="${esc(e.help)}"><b>${esc(e.name)}</b><small class="token-help">${esc(e.help)}</small><span class="token-targets">${[
              ...(e.action ? [{ action: e.action, name: "" }] : []),
              ...e.targets,
            ]
              .map((tg) => `<button class="act token-target" data-action="${esc(tg.action)}" title="${esc(e.help)}" aria-label="${esc(e.name)} → ${esc(tg.name)}: ${esc(e.help)}" ${off}>→ ${esc(tg.name)}</button>`)
              .join("")}</span></div>`;
      groups.set("\u0000side", sideButtons.map(item));
      this.sideTitle = title;
    }
    const groupHTML = [...groups.entries()].map(([kind, items]) =>
      kind === "\u0000side"
        ? `<div class="act-group tokens"><span class="group-label">${esc(this.sideTitle)}</span>${items.join("")}</div>`
        : `<div class="act-group"><span class="group-label">${actionLabel(groupName(kind), obs.variant)}</span>
        ${items.map((it) => `<button class="act card-btn" data-action="${esc(it.action)}" title="${esc(caption(kind, it.value))}" ${this.pending ? "disabled" : ""}>${cardHTML(cardFor(it.value), this.style, "sm")}<small class="give-take">${esc(caption(kind, it.value))}</small></button>`).join("")}
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
      const sets = keeps.map((a) => a.slice(subsetHead.length).split(" "));
      const locked = new Set(sets.reduce((acc, s) => acc.filter((c) => s.includes(c))));
      // the cards chosen so far survive a redraw (a spectator arriving, a chat line)
      const key = `${this.msg?.game_no}:${this.msg?.version}`;
      const picked = new Set(this.keepChoice?.key === key ? this.keepChoice.codes : []);
      const on = (c) => locked.has(c) || picked.has(c);
      const name = subsetKind.name.replace(/_/g, " ");
      subset = `<div class="act-group subset" data-keeps="${esc(JSON.stringify(keeps))}" data-head="${esc(subsetHead)}" data-key="${esc(key)}">
        <span class="group-label">${actionLabel(name, obs.variant)}</span>
        <p class="keep-hint muted small">${t(locked.size ? "keep_hint_more" : "keep_hint")}</p>
        ${mine.map((c, i) => `<button class="act card-btn toggle ${on(c) ? "on" : ""} ${locked.has(c) ? "locked" : ""}" data-pos="${i}" data-code="${esc(c)}" aria-pressed="${on(c)}" title="${esc(displayCode(c, this.style))}" ${this.pending || locked.has(c) ? "disabled" : ""}>${cardHTML(c, this.style, "sm")}</button>`).join("")}
        <button class="act primary" id="keep-go" disabled>${actionLabel(name, obs.variant)}</button>
      </div>`;
    }
    const toCall = obs.betting?.to_call ? `<span class="chip">${t("to_call", { n: obs.betting.to_call })}</span>` : "";
    return `<div class="actions panel" id="actions">
      <div class="actions-head"><b>${t("your_turn")}</b>${toCall}<button class="ghost small" id="odds">${t("odds")}</button><span class="clock" id="turn-clock"></span></div>
      <div class="odds-line muted small" id="odds-line" hidden></div>
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
    const explained = this.explain?.hand === result.hand;
    slot.innerHTML = `<div class="showdown ${animate ? "pop" : ""}" id="showdown">
      ${resultHTML(result, names, this.style, animate, explained)}
      ${explained ? `<ul class="explain">${this.explainLines().map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : ""}
      <button class="primary" id="dismiss-showdown">${t("continue")}</button>
    </div>`;
    $("#dismiss-showdown").addEventListener("click", () => {
      this.dismissedHand = result.hand;
      this.showdown = null;
      slot.innerHTML = "";
      this.showStandings();
    });
  }

  /** When the game ends, its standings (above the felt) are brought into view once the last
   * hand's result is read, however far down the page the player was (a phone scrolled to the
   * log, a desktop to the overlay's Continue). */
  showStandings() {
    const over = $(".game-over");
    if (!over) {
      this.standingsShown = false;
      return;
    }
    if (this.standingsShown || $("#showdown")) return;
    over.scrollIntoView({ block: "nearest" });
    this.standingsShown = true;
  }

  bind() {
    $("#im-back")?.addEventListener("click", () => {
      this.backSent = performance.now();
      this.send({ type: "back" });
    });
    $("#mute")?.addEventListener("click", () => {
      sound.toggle(this.msg?.you?.seat != null);
      this.render();
    });
    $("#chat-form")?.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("#chat-input");
      const text = input.value.trim();
      if (!text) return;
      if (this.send({ type: "chat", text })) {
        input.value = "";
        delete input.dataset.dirty;
      } else toast(t("conn_lost"), "error");
    });
    $("#odds")?.addEventListener("click", () => this.showOdds());
    $("#chat")?.addEventListener("click", (e) => {
      const b = e.target.closest("[data-mute]");
      if (!b) return;
      toggleMute(this.code, b.dataset.mute);
      this.renderChat();
    });
    wireInvite(this.code);
    $$("[data-action]").forEach((b) =>
      b.addEventListener("click", () => this.act(b.dataset.action)),
    );
    const range = $("#size-range");
    const num = $("#size-num");
    const setSize = (v) => {
      this.betSize = Number(v);
      if (range) range.value = v;
      if (num) num.value = v;
      const val = $("#size-val");
      if (val) val.textContent = v;
    };
    const go = $("#size-go");
    const label = go?.innerHTML;
    // A typed amount is never changed behind the player's back: out of the legal range it is
    // marked and the button says the range instead of betting (as the terminal's sizer).
    const inRange = () => {
      const n = Number(num.value);
      return num.value !== "" && Number.isInteger(n) && n >= Number(num.min) && n <= Number(num.max);
    };
    const mark = () => {
      const ok = inRange();
      num.classList.toggle("invalid", !ok);
      num.setAttribute("aria-invalid", String(!ok));
      go.disabled = !ok || this.pending;
      if (!ok) go.textContent = t("size_between", { lo: num.min, hi: num.max });
      else if (!$("#size-val")) {
        go.innerHTML = label;
        $("#size-val").textContent = num.value;
      }
    };
    range?.addEventListener("input", () => {
      setSize(range.value);
      mark();
    });
    num?.addEventListener("input", () => {
      if (inRange()) setSize(num.value);
      mark();
    });
    $$("[data-size]").forEach((b) =>
      b.addEventListener("click", () => {
        setSize(b.dataset.size);
        mark();
      }),
    );
    go?.addEventListener("click", (e) => {
      if (!inRange()) return;
      const kind = e.currentTarget.dataset.kind;
      this.act(`${kind} ${Number(num.value)}`);
    });
    const picker = $(".subset");
    if (picker) {
      const keeps = JSON.parse(picker.dataset.keeps);
      const chosen = () =>
        $$(".subset .toggle.on").map((b) => b.dataset.code).sort().join(" ");
      const head = picker.dataset.head;
      const match = () => keeps.find((a) => a.slice(head.length).split(" ").sort().join(" ") === chosen());
      $$(".subset .toggle:not(.locked)").forEach((b) =>
        b.addEventListener("click", () => {
          b.classList.toggle("on");
          b.setAttribute("aria-pressed", String(b.classList.contains("on")));
          this.keepChoice = { key: picker.dataset.key, codes: $$(".subset .toggle.on:not(.locked)").map((x) => x.dataset.code) };
          $("#keep-go").disabled = !match() || this.pending;
        }),
      );
      $("#keep-go").disabled = !match() || this.pending;
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

  /** Play ``action`` at the decision its button was drawn for (``version``): a click on a
   * table that moved on meanwhile (a redraw held by the press, a timer move) is refused as
   * stale by the server, never played at a later decision. */
  act(action, version = this.drawnVersion ?? this.msg.version) {
    if (this.pending) return;
    if (!this.online) {
      // Kept, and sent when the connection is back if the table is still at this decision.
      this.queued = { action, version };
      this.render();
      return;
    }
    this.pending = true;
    $$("#actions button").forEach((b) => {
      b.disabled = true;
    });
    if (!this.send({ type: "action", action, version })) {
      this.pending = false;
      this.queued = { action, version };
      this.render();
    }
  }

  async showOdds() {
    const line = $("#odds-line");
    if (!line) return;
    line.hidden = false;
    line.textContent = "…";
    try {
      const res = await api(`/api/tables/${this.code}/odds`, { headers: { "X-Seat-Token": this.token || "" } });
      const pct = (p) => (p.probability > 0 && p.probability < 0.005 ? "<1%" : `${Math.round(p.probability * 100)}%`);
      const parts = [];
      const ranked = (res.options || []).filter((o) => o.action !== "stand").sort((a, b) => b.sabacc.probability - a.sabacc.probability || b.better.probability - a.better.probability);
      for (const o of ranked.slice(0, 4)) parts.push(`${actionText(o.action)} ↑${pct(o.better)}${o.sabacc.probability ? ` S ${pct(o.sabacc)}` : ""}`);
      if (!parts.length && res.hand) parts.push(t("odds_beats", { p: pct(res.hand.win) }));
      const box = $("#odds-line");
      if (box) box.textContent = `${t("odds_title")}: ${parts.join(" · ") || "—"}`;
    } catch (err) {
      const box = $("#odds-line");
      if (box) box.textContent = err.message;
    }
  }

  async sit(seat) {
    const input = $("#sit-name");
    // A logged-in player sits under their username whatever the box says (the server's rule).
    const name = (currentUser()?.username || input?.value || store.get("sabacc:name") || "").trim();
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
      this.send({ type: "hello", token: res.token, deltas: true });
    } catch (err) {
      toast(err.message, "error");
    }
  }

  leave() {
    this.send({ type: "leave" });
    if (this.msg?.table.status !== "playing") {
      store.set(`sabacc:token:${this.code}`, null);
      setTimeout(() => this.send({ type: "hello", token: store.get(`sabacc:host:${this.code}`), deltas: true }), 100);
    }
  }
}


/** How to win (the variant's summary and rules) and its named hands, from the catalogue. */
function openRules(variant) {
  const info = variantInfo(variant);
  const lang = getLang();
  const glossary = info?.text?.glossary?.[lang] || info?.text?.glossary?.en || [];
  const rows = glossary
    .map((g) => `<tr><th>${esc(g.name)}</th><td>${esc(g.definition)}</td><td class="ex">${esc(g.example)}</td></tr>`)
    .join("");
  const rules = (lang === "ja" && info?.rules_ja) || info?.rules || "";
  const { wrap, close } = modal(
    `<h2>${esc(info?.title || variant)} · ${t("how_to_win")}</h2>
    <p class="howto-summary">${esc(info?.howto?.[lang] || info?.howto?.en || (lang === "ja" && info?.summary_ja) || info?.summary || "")}</p>
    ${rows ? `<h3>${t("glossary")}</h3><table class="glossary">${rows}</table>` : ""}
    <details><summary>${t("rules")}</summary><pre class="rules">${esc(rules)}</pre></details>
    <button class="primary" id="howto-ok">${t("got_it")}</button>`,
    "howto",
  );
  $("#howto-ok", wrap)?.addEventListener("click", close);
}
