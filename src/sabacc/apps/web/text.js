// Player-facing text for actions and events, from the server's action strings and events.
import { variantInfo } from "./api.js";
import { displayCode } from "./cards.js";
import { getLang, has, t } from "./i18n.js";

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

// Action labels are the variant's own words (classic folds, Spike junks), from its text in
// the /api/variants catalogue; the generic strings are the fallback.
export function actionLabel(kind, variant) {
  const labels = variantInfo(variant)?.text?.labels?.[getLang()];
  const own = labels?.[kind.replace(/ /g, "_")];
  if (own && !own.includes("{")) return own.charAt(0).toUpperCase() + own.slice(1);
  const key = `a_${kind.replace(/ /g, "_")}`;
  return has(key) ? t(key) : words(kind);
}

// ------------------------------------------------------------------ event text
// The server renders every event (src/sabacc/services/render.py), in every language, for the
// viewer: the client only picks the line in the current language, so a language switch re-reads
// past lines. A null line is said by the next event's line (a bet and its payment).
const EVENT_CLASS = {
  hand_started: "head",
  acted: "act",
  revealed: "reveal",
  pot_awarded: "win",
  eliminated: "out",
  hand_ended: "head",
  game_ended: "head",
};

export function eventLine(ev) {
  if (!ev.text || ev.text.en == null) return null;
  const cls = ev.type === "dice_rolled" && ev.shift ? "shift" : EVENT_CLASS[ev.type] || "";
  return { text: ev.text, cls };
}

/** A line in the current language; with ``variant``, its card codes written as the cards
 * are drawn ("+5c" → "+5●"): one card notation everywhere. */
export function lineText(line, variant = null) {
  const text = line.text[getLang()] ?? line.text.en;
  return variant ? cardGlyphs(text, variant) : text;
}

// Any word may be a card code (Kessel's Impostors are "Is"/"Ib", no digit): the variant's own
// set of codes decides.
const CODE_IN_TEXT = /(^|[^\w+\-−])([+\-]?[0-9A-Za-z]+)(?!\w)/g;
const CODE_SETS = new Map();

/** ``text`` with each of the variant's card codes written by its card art. */
export function cardGlyphs(text, variant) {
  const info = variantInfo(variant);
  if (!info?.codes) return text;
  let codes = CODE_SETS.get(variant);
  if (!codes) CODE_SETS.set(variant, (codes = new Set(info.codes)));
  return text.replace(CODE_IN_TEXT, (m, pre, code) => (codes.has(code) ? pre + displayCode(code, info.deck) : m));
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// Card codes in running text are drawn by the variant's card art.
export { displayCode };
