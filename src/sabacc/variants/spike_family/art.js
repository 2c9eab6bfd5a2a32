// Card art of the Spike deck (Corellian Spike, Surabat Cycle): "+4c" is +4 of circles (staves:
// circle, square, triangle), "0" a Sylop. A variant's card-art module exports cardHTML,
// displayCode and formatTotal; the client loads it from the variant's `card_art` (/api/variants).
import { SYLOP, svg } from "/static/cards.js";
import { getLang, handName } from "/static/i18n.js";

const STAVES = {
  c: '<circle cx="10" cy="10" r="7"/>',
  s: '<rect x="3.5" y="3.5" width="13" height="13" rx="1"/>',
  t: '<polygon points="10,2.5 18,17 2,17"/>',
};
const STAVE_NAMES = { c: "circle", s: "square", t: "triangle" };
const STAVE_NAMES_JA = { c: "サークル", s: "スクエア", t: "トライアングル" };
const STAVE_GLYPHS = { c: "●", s: "■", t: "▲" };

function parse(code) {
  const m = /^([+-]?\d+)([cst])?$/.exec(String(code));
  const value = m ? Number(m[1]) : 0;
  return { value, suit: m && m[2] ? m[2] : null };
}

/** A signed total: +4, −3, 0. */
export function formatTotal(value) {
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${-value}`;
  return "0";
}

/** A card code for running text: "+4●", "−3▲". */
export function displayCode(code) {
  return String(code)
    .replace(/^-/, "−")
    .replace(/[cst]$/, (c) => STAVE_GLYPHS[c]);
}

function title(card) {
  if (card.value === 0) return handName("Sylop");
  const names = getLang() === "ja" ? STAVE_NAMES_JA : STAVE_NAMES;
  return `${formatTotal(card.value)} ${names[card.suit] || ""}`.trim();
}

/** A face-up card. size: "sm" | "" | "lg". extra: more classes. */
export function cardHTML(code, size = "", extra = "") {
  const card = parse(code);
  const symbol = card.suit ? STAVES[card.suit] : SYLOP;
  const tone = card.value > 0 ? "pos" : card.value < 0 ? "neg" : "sylop";
  const value = formatTotal(card.value);
  return `<div class="card spike ${tone} ${size} ${extra}" data-code="${code}" title="${title(card)}">
    <span class="corner tl">${value}${svg(symbol)}</span>
    <span class="pip"><b>${value}</b>${svg(symbol)}</span>
    <span class="corner br">${value}${svg(symbol)}</span>
  </div>`;
}
