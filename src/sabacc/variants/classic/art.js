// Card art of the classic 76-card deck: "11f" is 11 of Flasks (suits: Sabres, Staves, Flasks,
// Coins), face cards go by their value ("-2" the Queen of Air and Darkness). A variant's card-art
// module exports cardHTML, displayCode and formatTotal (see spike_family/art.js).
import { svg } from "/static/cards.js";
import { getLang, handName } from "/static/i18n.js";

const SUITS = {
  s: '<path d="M10 1l2 11-2 2-2-2zM4.5 12.5h11v2h-11zM9 14.5h2V19H9z"/>', // sabre
  t: '<path d="M9 6h2v13H9z"/><circle cx="10" cy="4" r="3"/>', // stave
  f: '<path d="M8 1.5h4V7l4.5 9c.6 1.3-.3 2.5-1.7 2.5H5.2c-1.4 0-2.3-1.2-1.7-2.5L8 7z"/>', // flask
  c: '<path fill-rule="evenodd" d="M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm0 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8z"/>', // coin
};
const STAR = '<polygon points="10,1 12.6,7.3 19,7.6 14,11.8 15.7,18.5 10,14.8 4.3,18.5 6,11.8 1,7.6 7.4,7.3"/>';
const SUIT_NAMES = { s: "Sabres", t: "Staves", f: "Flasks", c: "Coins" };
const SUIT_NAMES_JA = { s: "セイバー", t: "スタッフ", f: "フラスク", c: "コイン" };
const FACES = {
  0: "The Idiot",
  "-2": "Queen of Air and Darkness",
  "-8": "Endurance",
  "-11": "Balance",
  "-13": "Demise",
  "-14": "Moderation",
  "-15": "The Evil One",
  "-17": "The Star",
};
const RANKED = { 12: "Commander", 13: "Mistress", 14: "Master", 15: "Ace" };

function parse(code) {
  const text = String(code);
  const m = /^(\d+)([stfc])$/.exec(text);
  if (m) {
    const value = Number(m[1]);
    return { value, suit: m[2], face: null, ranked: RANKED[value] || null };
  }
  return { value: Number(text), suit: null, face: FACES[text] || "", ranked: null };
}

/** A total as classic players say it: 23, −7. */
export function formatTotal(value) {
  return value < 0 ? `−${-value}` : String(value);
}

/** A card code for running text, as written. */
export function displayCode(code) {
  return String(code);
}

function title(card) {
  if (card.suit) {
    const suit = (getLang() === "ja" ? SUIT_NAMES_JA : SUIT_NAMES)[card.suit];
    return card.ranked ? `${card.ranked} of ${suit}` : `${card.value} ${suit}`;
  }
  return `${handName(card.face)} (${card.value})`;
}

function shortFace(face) {
  return getLang() === "ja" ? handName(face) : face.replace("Queen of Air and Darkness", "Queen of Air & Dark");
}

/** A face-up card. size: "sm" | "" | "lg". extra: more classes. */
export function cardHTML(code, size = "", extra = "") {
  const card = parse(code);
  const symbol = card.suit ? SUITS[card.suit] : STAR;
  const tone = card.suit ? `suit-${card.suit}` : "face";
  const value = formatTotal(card.value);
  const label = card.suit ? "" : shortFace(card.face);
  return `<div class="card classic ${tone} ${size} ${extra}" data-code="${code}" title="${title(card)}">
    <span class="corner tl">${value}${svg(symbol)}</span>
    <span class="pip"><b>${value}</b>${svg(symbol)}</span>
    ${label ? `<span class="face-name">${label}</span>` : ""}
    <span class="corner br">${value}${svg(symbol)}</span>
  </div>`;
}
