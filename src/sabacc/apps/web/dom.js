// DOM helpers shared by every page: selectors, escaping, local storage, toasts, modals, and
// the two hooks pages use to talk to the router without importing it (no import cycles).
import { t } from "./i18n.js";

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
export const app = $("#app");

export const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export const store = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value == null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* private mode */
    }
  },
};

/** The current page's redraw (after a language change); each page sets it. */
export const ui = { rerender: () => {} };

/** Go to a client-side URL: the router listens to popstate. */
export function navigate(url) {
  history.pushState({}, "", url);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export function toast(text, kind = "") {
  const box = $("#toast");
  const item = document.createElement("div");
  item.className = `toast-item ${kind}`;
  item.textContent = text;
  box.appendChild(item);
  setTimeout(() => item.classList.add("hide"), 3200);
  setTimeout(() => item.remove(), 3800);
}

export function modal(html, cls = "") {
  const wrap = document.createElement("div");
  wrap.className = `modal-wrap ${cls}`;
  wrap.innerHTML = `<div class="modal">${html}<button class="modal-close ghost" aria-label="${t("close")}">✕</button></div>`;
  document.body.appendChild(wrap);
  const close = () => {
    wrap.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (e) => e.key === "Escape" && close();
  document.addEventListener("keydown", onKey);
  wrap.addEventListener("click", (e) => e.target === wrap && close());
  $(".modal-close", wrap).addEventListener("click", close);
  return { wrap, close };
}
