// The HTTP API client and the variant catalogue (GET /api/variants), loaded once.
let catalogue = null;

export async function api(path, options = {}) {
  const res = await fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
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
  if (!catalogue) catalogue = await api("/api/variants");
  return catalogue;
}

export function variantInfo(name) {
  return catalogue?.variants.find((v) => v.name === name) || null;
}

export function deckStyle(variant) {
  const info = variantInfo(variant);
  if (info) return info.deck;
  return variant === "classic" ? "classic" : "spike";
}
