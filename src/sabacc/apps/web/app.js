// The sabacc web client's entry point and router: lobby at "/", a table at "/t/CODE".
// Plain ES modules, no framework, no build step.
import { loadCatalogue } from "./api.js";
import { $, navigate, store, ui } from "./dom.js";
import { getLang, setLang } from "./i18n.js";
import { lobby } from "./lobby.js";
import { TablePage } from "./table.js";

function initLang() {
  const saved = store.get("sabacc:lang");
  const browser = (navigator.language || "").toLowerCase().startsWith("ja") ? "ja" : "en";
  setLang(saved || browser);
  const button = $("#lang");
  const paint = () => {
    button.textContent = getLang() === "ja" ? "English" : "日本語";
  };
  paint();
  button.addEventListener("click", () => {
    setLang(getLang() === "ja" ? "en" : "ja");
    store.set("sabacc:lang", getLang());
    paint();
    ui.rerender();
  });
}

let page = null;

function route() {
  page?.destroy();
  page = null;
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  if (m) {
    const code = decodeURIComponent(m[1]).toUpperCase();
    loadCatalogue().then(() => {
      page = new TablePage(code);
      ui.rerender = () => page.render();
      page.render();
      page.connect();
    });
  } else {
    lobby();
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && a.origin === location.origin && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    navigate(a.pathname);
  }
});
window.addEventListener("popstate", route);
window.addEventListener("resize", () => {
  // Only the table is laid out by script (seat positions differ on a phone).
  clearTimeout(window.__rs);
  window.__rs = setTimeout(() => page?.render(), 150);
});

initLang();
route();
