// The HTTP API client and the variant catalogue (GET /api/variants), loaded once with every
// variant's card art. The catalogue holds each variant's declared facts (options with choices,
// piles, pots, players): the client draws from them and never names a variant.
import { loadArt } from "./cards.js";
import { addHandNames } from "./i18n.js";

let catalogue = null;

/** The CSRF token (double submit): the server's cookie, sent back in a header. */
export function csrfToken() {
  const m = /(?:^|;\s*)sabacc_csrf=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : "";
}

export async function api(path, options = {}) {
  const csrf = csrfToken();
  const res = await fetch(path, {
    ...options,
    headers: {
      "Content-Type": "application/json",
      ...(csrf ? { "X-CSRF-Token": csrf } : {}),
      ...(options.headers || {}),
    },
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(body?.error?.message || body?.detail || res.statusText);
    err.code = body?.error?.code;
    throw err;
  }
  return body;
}

/** The catalogue: {variants: [...], bots: [...]}. */
export async function loadCatalogue() {
  if (!catalogue) {
    const loaded = await api("/api/variants");
    await loadArt(loaded.variants);
    for (const v of loaded.variants) addHandNames(v.hands);
    catalogue = loaded;
  }
  return catalogue;
}

export function variantInfo(name) {
  return catalogue?.variants.find((v) => v.name === name) || null;
}

/** The deck style (card art) of a variant. */
export function deckStyle(variant) {
  return variantInfo(variant)?.deck ?? "";
}
