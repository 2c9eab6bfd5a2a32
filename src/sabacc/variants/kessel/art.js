// Card art of the Kessel deck: "3s" is a Sand 3, "5b" a Blood 5, "Is"/"Ib" an Impostor, "0s"/"0b"
// a Sylop. A variant's card-art module exports cardHTML, displayCode and formatTotal; the client
// loads it from the variant's `card_art` (/api/variants). Sand cards take the shared style
// sheet's gold tone and Blood cards its red one.
import { SYLOP, svg } from "/static/cards.js";
import { getLang } from "/static/i18n.js";

const FAMILY = {
  s: '<polygon points="10,2 18,10 10,18 2,10"/>', // Sand: a diamond
  b: '<circle cx="10" cy="10" r="7"/>', // Blood: a drop seen from above
};
const IMPOSTOR = '<path d="M3 7h14v3a7 7 0 0 1-14 0z"/><circle cx="7" cy="9" r="1.2" fill="#fff"/><circle cx="13" cy="9" r="1.2" fill="#fff"/>';
const FAMILY_NAMES = { s: "Sand", b: "Blood" };
const FAMILY_NAMES_JA = { s: "サンド", b: "ブラッド" };
const GLYPHS = { s: "◆", b: "●" };

function parse(code) {
  const m = /^([0-6I])([sb])$/i.exec(String(code));
  if (!m) return { rank: "?", family: null };
  return { rank: m[1].toUpperCase(), family: m[2].toLowerCase() };
}

/** A Kessel total is a difference (or 0 for a Sabacc): never signed. */
export function formatTotal(value) {
  return String(Math.abs(Number(value) || 0));
}

/** A card code for running text: "3◆", "I●". */
export function displayCode(code) {
  const card = parse(code);
  return card.family ? `${card.rank}${GLYPHS[card.family]}` : String(code);
}

function title(card) {
  const ja = getLang() === "ja";
  const family = (ja ? FAMILY_NAMES_JA : FAMILY_NAMES)[card.family] || "";
  if (card.rank === "0") return ja ? `${family} シーロップ` : `${family} Sylop`;
  if (card.rank === "I") return ja ? `${family} インポスター` : `${family} Impostor`;
  return `${family} ${card.rank}`;
}

/** A face-up card. size: "sm" | "" | "lg". extra: more classes. */
export function cardHTML(code, size = "", extra = "") {
  const card = parse(code);
  const family = card.family || "s";
  const symbol = card.rank === "0" ? SYLOP : card.rank === "I" ? IMPOSTOR : FAMILY[family];
  // Sand is gold and Blood red (the shared style sheet's tone-gold / tone-red).
  const tone = family === "s" ? "tone-gold sand" : "tone-red blood";
  const label = card.rank === "0" ? "0" : card.rank;
  return `<div class="card kessel ${tone} ${size} ${extra}" data-code="${code}" title="${title(card)}">
    <span class="corner tl">${label}${svg(symbol)}</span>
    <span class="pip"><b>${label}</b>${svg(symbol)}</span>
    <span class="corner br">${label}${svg(symbol)}</span>
  </div>`;
}
