// Player-facing text for actions and events, from the server's action strings and events.
import { displayCode } from "./cards.js";
import { has, handName, t } from "./i18n.js";

export const VALUE_RE = /^(.*?) ([+-]?\d+[a-z]?)$/;

export function words(text) {
  return text
    .split(" ")
    .map((w) => (has(`w_${w}`) ? t(`w_${w}`) : w.replace(/^([+-]?)(\d+)$/, (m, s, d) => (s === "-" ? `−${d}` : m))))
    .join(" ");
}

export function actionText(text) {
  if (!text) return "";
  const m = /^(.*) \((all-in)\)$/.exec(text);
  if (m) return `${words(m[1])} (${t("w_all-in")})`;
  return words(text);
}

export function actionLabel(kind) {
  const key = `a_${kind.replace(/ /g, "_")}`;
  return has(key) ? t(key) : words(kind);
}

// ------------------------------------------------------------------ event text
export function eventText(ev, names, style) {
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

export function srcName(source) {
  return has(`src_${source}`) ? t(`src_${source}`) : source;
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// Card codes in running text are drawn by the variant's card art.
export { displayCode };
