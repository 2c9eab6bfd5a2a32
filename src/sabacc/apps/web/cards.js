// Cards drawn from their notation: Spike "+4c" (staves: circle, square, triangle; "0" = Sylop)
// and classic "11f" (suits: Sabres, Staves, Flasks, Coins; faces by their value, "-2").
import { getLang, handName } from "./i18n.js";

const STAVES = {
  c: '<circle cx="10" cy="10" r="7"/>',
  s: '<rect x="3.5" y="3.5" width="13" height="13" rx="1"/>',
  t: '<polygon points="10,2.5 18,17 2,17"/>',
};
const SUITS = {
  s: '<path d="M10 1l2 11-2 2-2-2zM4.5 12.5h11v2h-11zM9 14.5h2V19H9z"/>', // sabre
  t: '<path d="M9 6h2v13H9z"/><circle cx="10" cy="4" r="3"/>', // stave
  f: '<path d="M8 1.5h4V7l4.5 9c.6 1.3-.3 2.5-1.7 2.5H5.2c-1.4 0-2.3-1.2-1.7-2.5L8 7z"/>', // flask
  c: '<path fill-rule="evenodd" d="M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm0 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8z"/>', // coin
};
const STAR = '<polygon points="10,1 12.6,7.3 19,7.6 14,11.8 15.7,18.5 10,14.8 4.3,18.5 6,11.8 1,7.6 7.4,7.3"/>';
const SYLOP = '<path fill-rule="evenodd" d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17zm0 3a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z"/><circle cx="10" cy="10" r="2.2"/>';

export const STAVE_NAMES = { c: "circle", s: "square", t: "triangle" };
export const SUIT_NAMES = { s: "Sabres", t: "Staves", f: "Flasks", c: "Coins" };
const SUIT_NAMES_JA = { s: "セイバー", t: "スタッフ", f: "フラスク", c: "コイン" };
const STAVE_NAMES_JA = { c: "サークル", s: "スクエア", t: "トライアングル" };
export const CLASSIC_FACES = {
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

function svg(inner) {
  return `<svg viewBox="0 0 20 20" aria-hidden="true">${inner}</svg>`;
}

export function parseCard(code, style) {
  const text = String(code);
  if (style === "classic") {
    const m = /^(\d+)([stfc])$/.exec(text);
    if (m) {
      const value = Number(m[1]);
      return { code: text, value, suit: m[2], face: null, ranked: RANKED[value] || null };
    }
    const value = Number(text);
    return { code: text, value, suit: null, face: CLASSIC_FACES[text] || "", ranked: null };
  }
  const m = /^([+-]?\d+)([cst])?$/.exec(text);
  const value = m ? Number(m[1]) : 0;
  return { code: text, value, suit: m && m[2] ? m[2] : null, face: value === 0 ? "Sylop" : null };
}

export function displayValue(value, style) {
  if (style === "classic") return value < 0 ? `−${-value}` : String(value);
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${-value}`;
  return "0";
}

export function cardTitle(card, style) {
  const ja = getLang() === "ja";
  if (style === "classic") {
    if (card.suit) {
      const suit = ja ? SUIT_NAMES_JA[card.suit] : SUIT_NAMES[card.suit];
      return card.ranked ? `${card.ranked} of ${suit}` : `${card.value} ${suit}`;
    }
    return `${handName(card.face)} (${card.value})`;
  }
  if (card.value === 0) return handName("Sylop");
  const stave = ja ? STAVE_NAMES_JA[card.suit] : STAVE_NAMES[card.suit];
  return `${displayValue(card.value, style)} ${stave || ""}`.trim();
}

/** A face-up card. size: "sm" | "" | "lg". extra: more classes. */
export function cardHTML(code, style = "spike", size = "", extra = "") {
  const card = parseCard(code, style);
  let symbol;
  let tone;
  if (style === "classic") {
    symbol = card.suit ? SUITS[card.suit] : STAR;
    tone = card.suit ? `suit-${card.suit}` : "face";
  } else {
    symbol = card.suit ? STAVES[card.suit] : SYLOP;
    tone = card.value > 0 ? "pos" : card.value < 0 ? "neg" : "sylop";
  }
  const value = displayValue(card.value, style);
  const label = style === "classic" && !card.suit ? shortFace(card.face) : "";
  const title = cardTitle(card, style);
  return `<div class="card ${style} ${tone} ${size} ${extra}" data-code="${code}" title="${title}">
    <span class="corner tl">${value}${svg(symbol)}</span>
    <span class="pip"><b>${value}</b>${svg(symbol)}</span>
    ${label ? `<span class="face-name">${label}</span>` : ""}
    <span class="corner br">${value}${svg(symbol)}</span>
  </div>`;
}

function shortFace(face) {
  const ja = getLang() === "ja";
  return ja ? handName(face) : face.replace("Queen of Air and Darkness", "Queen of Air & Dark");
}

export function backHTML(size = "", extra = "") {
  return `<div class="card back ${size} ${extra}"><span class="back-mark">${svg(SYLOP)}</span></div>`;
}

/** Dice faces drawn with CSS pips. */
export function dieHTML(n, rolling = false) {
  const pips = {
    1: [5],
    2: [1, 9],
    3: [1, 5, 9],
    4: [1, 3, 7, 9],
    5: [1, 3, 5, 7, 9],
    6: [1, 3, 4, 6, 7, 9],
  }[n] || [];
  const cells = [];
  for (let i = 1; i <= 9; i++) cells.push(`<i class="${pips.includes(i) ? "on" : ""}"></i>`);
  return `<div class="die ${rolling ? "rolling" : ""}" data-value="${n}">${cells.join("")}</div>`;
}
