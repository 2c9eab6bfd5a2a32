// Cards, dice and card backs. Each variant ships its own card art as an ES module (its
// `card_art` in /api/variants, served as /art/<variant>.js from the file the variant declares): loadArt imports it, and
// cardHTML / displayCode / formatTotal draw a card or a total with the art of a deck style.

export const SYLOP =
  '<path fill-rule="evenodd" d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17zm0 3a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z"/><circle cx="10" cy="10" r="2.2"/>';

export function svg(inner) {
  return `<svg viewBox="0 0 20 20" aria-hidden="true">${inner}</svg>`;
}

const ART = new Map(); // deck style -> card-art module

/** Import every variant's card art (once per deck style). */
export async function loadArt(variants) {
  await Promise.all(
    variants
      .filter((v) => v.card_art && !ART.has(v.deck))
      .map(async (v) => ART.set(v.deck, await import(v.card_art))),
  );
}

function art(style) {
  return ART.get(style) || null;
}

/** A face-up card. size: "sm" | "" | "lg". extra: more classes. */
export function cardHTML(code, style, size = "", extra = "") {
  const a = art(style);
  if (a) return a.cardHTML(code, size, extra);
  return `<div class="card ${size} ${extra}" data-code="${code}"><span class="pip"><b>${code}</b></span></div>`;
}

/** A card code as running text (log lines, pile labels). */
export function displayCode(code, style) {
  const a = art(style);
  return a ? a.displayCode(code) : String(code);
}

/** A hand total in the deck's notation. */
export function formatTotal(value, style) {
  const a = art(style);
  return a ? a.formatTotal(value) : String(value);
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
