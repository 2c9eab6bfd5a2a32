// Pure rendering: the felt (seats, piles, pots, dice), the player's hand and a hand's result,
// all drawn from an observation; no state, no events.
import { variantInfo } from "./api.js";
import { backHTML, cardHTML, dieHTML, formatTotal } from "./cards.js";
import { esc } from "./dom.js";
import { getLang, handName, has, t } from "./i18n.js";
import { actionText, displayCode } from "./text.js";

// The observation keys shown in a place of their own: every observation's common keys and the
// variant's declared fields (VariantInfo.placed_fields, from /api/variants); any other scalar
// key is listed among the facts.
function placedKeys(variant) {
  return new Set(variantInfo(variant)?.placed_fields || []);
}

// A pile's label: the catalogue's word for its generic name (pile_<name>), else the variant's.
function pileLabel(name, variant) {
  const key = `pile_${name.replace(/ /g, "_")}`;
  if (has(key)) return t(key);
  // The variant's own word for the pile (its text's pile.<name>), without the article.
  const own = variantInfo(variant)?.text?.piles?.[getLang()]?.[name.replace(/ /g, "_")];
  return own ? own.replace(/^the /i, "") : name.replace(/_/g, " ");
}

// An observation key's name: the variant's own (fact.<key> in its text), else the key's words.
function key_label(key, variant) {
  const own = variantInfo(variant)?.text?.facts?.[getLang()]?.[key];
  if (own) return own;
  return has(`k_${key}`) ? t(`k_${key}`) : key.replace(/_/g, " ");
}

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
export function feltHTML(view) {
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
    // Chips in front of a seat are this betting round's; once the phase moves on they are in
    // the pot (the engine keeps round_bet until the next round starts).
    const bet = obs && view.betting !== false ? obs.seats[s].round_bet : 0;
    if (bet > 0) {
      const bx = 50 + (pos.x - 50) * 0.62;
      const by = 50 + (pos.y - 50) * 0.74;
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

/** The variant's per-seat facts (TableDisplay.seat_facts) of seat s: a round pot, stood,
 * tokens left; "" when it has none. */
function seatFactsHTML(obs, s, cls = "seat-facts") {
  const lang = getLang();
  const seat = obs ? obs.seats[s] : null;
  const facts = [];
  for (const fact of (obs && variantInfo(obs.variant)?.display?.seat_facts) || []) {
    const listed = obs?.[fact.key];
    const value = seat?.[fact.key] ?? (Array.isArray(listed) ? listed[s] : undefined);
    const label = fact.label?.[lang] ?? fact.label?.en ?? fact.key;
    if (fact.flag) {
      if (value) facts.push(`<span data-fact="${esc(fact.key)}">${esc(label)}</span>`);
    } else if (value != null) {
      facts.push(`<span data-fact="${esc(fact.key)}">${esc(label.replace("{value}", value))}</span>`);
    }
  }
  return facts.length ? `<div class="${cls}">${facts.join(" · ")}</div>` : "";
}

/** A seat's last move: the generic words, or in another language than English the
 * variant's own label where the generic words have none (Kessel's "keep": 引いた札を残す),
 * without its cost in brackets. */
export function lastActionText(action, variant) {
  const generic = actionText(action);
  if (getLang() === "en" || !/[A-Za-z]{2,}/.test(generic)) return generic;
  const labels = variantInfo(variant)?.text?.labels?.[getLang()];
  const plain = (label) => (label && !label.includes("{") ? label.replace(/\s*[（(][^）)]*[）)]/g, "") : null);
  const own = plain(labels?.[String(action).replace(/ /g, "_")]);
  if (own) return own;
  // A move with a number ("impostor 4"): the kind's own label, then the number.
  const m = /^(\S+) (-?\d+)$/.exec(String(action));
  const kind = m ? plain(labels?.[m[1]]) : null;
  return kind ? `${kind} ${m[2]}` : generic;
}

/** A stack's unit in the variant's words ("cr"; Kessel: "chips"). */
function unitWord(variant) {
  const unit = variantInfo(variant)?.unit;
  return unit?.[getLang()] ?? unit?.en ?? "cr";
}

function seatHTML(view, s, pos) {
  const { obs, table, me, turn } = view;
  const info = table?.seats?.[s] || {};
  const seat = obs ? obs.seats[s] : null;
  const vacant = seat?.vacant === true; // its player left the table: an empty seat
  const name = vacant ? "" : seat ? seat.name : info.name || (info.kind === "human" ? t("open_seat") : "");
  const isTurn = turn && turn.seat === s;
  const classes = ["seat"];
  if (s === me) classes.push("me");
  if (isTurn) classes.push("turn");
  if (seat && seat.status !== "active" && !vacant) classes.push(`st-${seat.status}`);
  if ((!obs && !info.taken) || vacant) classes.push("open");
  const tags = [];
  if (info.kind === "bot") tags.push(`<span class="tag bot">${t("bot_tag")}</span>`);
  if (table && table.host_seat === s) tags.push(`<span class="tag host">${t("host")}</span>`);
  if (info.away) tags.push(`<span class="tag warn">${t("away")}</span>`);
  else if (info.taken && info.kind === "human" && !info.connected) tags.push(`<span class="tag warn">${t("offline")}</span>`);
  if (seat && !vacant && seat.status !== "active" && has(`status_${seat.status === "waiting" ? "waiting_seat" : seat.status}`)) {
    const key = `status_${seat.status === "waiting" ? "waiting_seat" : seat.status}`;
    if (t(key)) tags.push(`<span class="tag st">${t(key)}</span>`);
  }
  const factsHTML = seatFactsHTML(obs, s);
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
  const stack = seat && !vacant ? seat.stack : null;
  const showLast = seat?.last_action && (!view.lastShown || view.lastShown.has(s));
  const last = showLast ? `<div class="last-action">${esc(lastActionText(seat.last_action, obs.variant))}</div>` : "";
  const timer = isTurn && turn.deadline_ms != null ? `<div class="timer"><i style="width:${Math.round((view.deadlineFrac ?? 1) * 100)}%"></i></div>` : "";
  const sit =
    view.canSit && !info.taken && info.kind === "human"
      ? `<button class="sit" data-sit="${s}">${t("take_seat")}</button>`
      : "";
  // Cards sit on the outer side of the top seats, on the inner side of the others; the seat
  // at the very top has its last move beside its box (below it would touch the centre).
  const top = pos.y < 40;
  const apex = top && Math.abs(pos.x - 50) < 12;
  // so has the seat at the very bottom: below it, it would hang over the docked bar
  const nadir = pos.y > 80 && Math.abs(pos.x - 50) < 12;
  return `<div class="${classes.join(" ")} ${top ? "top" : ""} ${apex ? "apex" : ""} ${nadir ? "nadir" : ""}" data-seat="${s}" style="left:${pos.x}%;top:${pos.y}%">
    <div class="seat-cards">${cards}</div>
    <div class="seat-box">
      <div class="avatar ${info.kind === "bot" ? "droid" : ""}">${initial}</div>
      <div class="seat-meta">
        <div class="seat-name">${esc(name || t("empty"))}${s === me ? ` <span class="you">(${t("you")})</span>` : ""}</div>
        <div class="seat-tags">${stack != null ? `<span class="stack">${stack}</span><span class="unit">${esc(unitWord(obs?.variant ?? table?.variant))}</span>` : ""}${tags.join("")}</div>
        ${factsHTML}
      </div>
      ${seat && seat.dealer ? `<div class="dealer-btn" title="${t("dealer")}">D</div>` : ""}
      ${timer}
    </div>
    ${last}${sit}
  </div>`;
}

function centerHTML(obs, style) {
  const placed = placedKeys(obs.variant);
  const lines = [];
  // the variant's own name for its phase first (Coruscant's selection, Kessel's impostor)
  const own = variantInfo(obs.variant)?.text?.phases?.[getLang()]?.[obs.phase];
  const phase = has(`phase_${obs.phase}`) ? t(`phase_${obs.phase}`) : own || obs.phase;
  let round = "";
  if (obs.rounds) round = t("round", { n: obs.round, m: obs.rounds });
  else if (obs.turns != null && obs.turn != null) round = `${key_label("turn", obs.variant)} ${obs.turn}/${obs.turns}`;
  else if (obs.turn != null && obs.max_orbits != null) {
    // obs.turn is the turn player's seat (who draws); betting in that turn is someone else's
    const who = (s) => (s === obs.seat ? null : obs.seats[s]?.name ?? String(s));
    const whose = who(obs.turn) == null ? t("your_turn_orbit", { o: obs.orbit + 1, m: obs.max_orbits }) : t("turn_orbit", { who: esc(who(obs.turn)), o: obs.orbit + 1, m: obs.max_orbits });
    const actor = obs.current_player;
    // what the actor is to do where the phase says it ("your bet", not "you to act")
    const actKey = (k) => (has(`${k}_${obs.phase}`) ? `${k}_${obs.phase}` : k);
    const acting = actor != null && actor !== obs.turn ? ` · ${who(actor) == null ? t(actKey("you_to_act")) : t(actKey("to_act"), { who: esc(who(actor)) })}` : "";
    round = whose + acting;
  }
  lines.push(`<div class="center-title">${t("hand_no", { n: obs.hand })} · ${esc(phase)}</div>`);
  if (round) lines.push(`<div class="center-sub">${round}</div>`);
  // piles, as the variant declares them (face up: their cards; face down: a count)
  const piles = [];
  const rows = [];
  const display = variantInfo(obs.variant)?.display || {};
  const legal = new Set(obs.legal?.actions || []);
  for (const pile of variantInfo(obs.variant)?.piles || []) {
    const value = obs[pile.key];
    if (value == null) continue;
    const take = display.pile_actions?.[pile.key];
    // A pile the player may take from now is a button (TableDisplay.pile_actions).
    const act = take && legal.has(take) ? ` data-action="${esc(take)}" role="button" tabindex="0"` : "";
    const label = pileLabel(pile.name, obs.variant);
    if (pile.face_up && pile.spread) {
      if (value.length) rows.push(`<div class="sun-row"><label>${label}</label>${value.map((c) => cardHTML(c, style, "sm")).join("")}</div>`);
    } else if (pile.face_up) {
      const top = value.length ? cardHTML(value[value.length - 1], style, "", "pile-card") : `<div class="card empty-slot"></div>`;
      piles.push(`<div class="pile ${act ? "takes" : ""}"${act}>${top}<label>${label}${value.length > 1 ? ` · ${value.length}` : ""}</label></div>`);
    } else {
      const known = pile.known_key ? (obs[pile.known_key] || []).filter(Boolean) : [];
      const back = value ? backHTML("", `pile-card ${pile.name}`) : `<div class="card empty-slot"></div>`;
      piles.push(`<div class="pile ${act ? "takes" : ""}"${act}><div class="stack-cards">${back}<span class="count">${value}</span></div><label>${label}${known.length ? ` · ${known.map((c) => displayCode(c, style)).join(" ")}` : ""}</label></div>`);
    }
    placed.add(pile.key);
    // A declared pile's top and size under shorter keys are the same fact: not listed again.
    for (const key of Object.keys(obs)) if (pile.key.startsWith(key)) placed.add(key);
  }
  (display.shown_keys || []).forEach((k) => placed.add(k)); // shown elsewhere (TableDisplay)
  if (piles.length) lines.push(`<div class="piles">${piles.join("")}</div>`);
  lines.push(...rows);
  // pots
  // Per-player pots (no main pot): their total here, each seat's own at the seat.
  const perSeat = (variantInfo(obs.variant)?.pots || []).some((p) => p.per_seat);
  const seatPots = (obs.pots.side || []).reduce((n, p) => n + p.amount, 0);
  const pots = perSeat
    ? [`<span class="pot main"><i></i>${t("pot")} <b>${seatPots || obs.pots.main || 0}</b></span>`]
    : [`<span class="pot main"><i></i>${t("pot")} <b>${obs.pots.main}</b></span>`];
  const lost = display.lost_key; // credits that left the game (TableDisplay.lost_key)
  if (lost && obs[lost]) pots.push(`<span class="chip lost">${esc(key_label(lost, obs.variant))} <b>${obs[lost]}</b></span>`);
  if (obs.pots.sabacc) pots.push(`<span class="pot sabacc"><i></i>${t("sabacc_pot")} <b>${obs.pots.sabacc}</b></span>`);
  const sides = perSeat ? [] : (obs.pots.side || []).slice(1);
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
    if (placed.has(key) || value == null || value === false || typeof value === "object") continue;
    if (value === true) {
      extra.push(`<span class="chip">${esc(key_label(key, obs.variant))}</span>`);
      continue;
    }
    const shown = has(`v_${value}`) ? t(`v_${value}`) : value;
    extra.push(`<span class="chip">${esc(key_label(key))}: ${esc(shown)}</span>`);
  }
  if (extra.length) lines.push(`<div class="extras">${extra.join("")}</div>`);
  return lines.join("");
}

export function handHTML(obs, style, previous) {
  if (!obs || !obs.you) return "";
  const you = obs.you;
  // A variant that keeps a set (TableDisplay.kept_key): its cards come first and are marked.
  const keptKey = variantInfo(obs.variant)?.display?.kept_key;
  const kept = keptKey && Array.isArray(obs[keptKey]) ? obs[keptKey].length : 0;
  let cards = you.cards
    .map((c, i) => {
      const cls = [previous && !previous.includes(c) ? "deal-in" : "", i < kept ? "kept" : ""];
      return cardHTML(c, style, "lg", cls.join(" ").trim());
    })
    .join("");
  // A card drawn and not yet kept or discarded (obs.drawn), beside the hand.
  if (obs.drawn?.card) cards += `<span class="drawn">${cardHTML(obs.drawn.card, style, "lg", "drawn-card")}</span>`;
  let name = you.hand ? handName(you.hand.name) : "";
  // The hand's value says the total of what counts (a kept set), not of every card held.
  const sum = you.hand?.total ?? you.total;
  if (you.hand && String(you.hand.name) === String(sum)) name = "";
  const total = sum != null ? t("total", { n: formatTotal(sum, style) }) : "";
  const keptNote = kept ? `<em class="kept-note">${t("kept_n", { n: kept })}</em> · ` : "";
  const good = you.hand && (you.hand.total === 0 || you.hand.rank <= 2);
  return `<div class="my-hand">
    <div class="hand-cards">${cards || `<span class="muted">—</span>`}</div>
    <div class="hand-value ${good ? "good" : ""}"><b>${esc(name)}</b><span>${keptNote}${total}</span>${obs.seat != null ? seatFactsHTML(obs, obs.seat, "my-facts") : ""}</div>
  </div>`;
}

/** A finished hand's result: each revealed hand, and who won which pot. */
/** A finished hand: each revealed hand, then how each pot went; ``explained``: the server's
 * explanation is shown with it (it says the pots, penalties and carries in full, in the
 * player's language), so the pot lines are left out. */
export function resultHTML(result, names, style, animate = false, explained = false) {
  const winners = new Set(result.pots.flatMap((p) => p.winners));
  const hands = Object.entries(result.hands || {})
    .map(([seat, h]) => {
      const s = Number(seat);
      return `<div class="reveal-row ${winners.has(s) ? "winner" : ""}">
        <span class="rname">${winners.has(s) ? "★ " : ""}${esc(names[s])}</span>
        <span class="rcards">${h.cards.map((c) => cardHTML(c, style, "sm", animate ? "flip-in" : "")).join("")}</span>
        <span class="rvalue"><b>${esc(handName(h.name))}</b> ${h.total != null && !String(h.name).endsWith(` ${h.total}`) ? `(${formatTotal(h.total, style)})` : ""}</span>
      </div>`;
    })
    .join("");
  const potName = (p) => (has(`pot_${p}`) ? t(`pot_${p}`) : p);
  const pots = result.pots
    .map((p) =>
      !p.winners.length
        ? `<li class="lost">${esc(potName(p.pot))} (${p.amount}) <small class="muted">${esc(p.reason)}</small></li>`
        : `<li>${t("wins_pot", { names: p.winners.map((w) => esc(names[w])).join(", "), pot: potName(p.pot), amount: p.amount })} <small class="muted">${esc(p.reason)}</small></li>`,
    )
    .join("");
  const carried = Object.entries(result.carried || {})
    .map(([pot, amount]) => `<li class="muted">${t("carried", { pot: potName(pot), amount })}</li>`)
    .join("");
  return `<h3>${t("hand_over", { n: result.hand })}${result.reason === "showdown" ? ` · ${t("showdown")}` : ""}</h3>
    ${hands}
    ${explained ? "" : `<ul class="pot-lines">${pots}${carried}</ul>`}`;
}
