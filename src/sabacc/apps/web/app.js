// The sabacc web client's entry point and router: lobby at "/", a table at "/t/CODE".
// Plain ES modules, no framework, no build step.
import { loadCatalogue } from "./api.js";
import { accountPage, authPage, friendsPage, leadersPage, loadMe, paintNav, profilePage } from "./community.js";
import { $, navigate, store, ui } from "./dom.js";
import { getLang, setLang } from "./i18n.js";
import { lobby } from "./lobby.js";
import { TablePage } from "./table.js";
import { paintTournamentsTab, tournamentRoute } from "./tournaments.js";

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
    paintNav();
    paintTournamentsTab();
  });
}

let page = null;

function route() {
  page?.destroy();
  page = null;
  const path = location.pathname;
  if ((page = tournamentRoute(path) || null)) return;
  const m = /^\/t\/([^/]+)\/?$/.exec(path);
  const user = /^\/u\/([^/]+)\/?$/.exec(path);
  if (m) {
    const code = decodeURIComponent(m[1]).toUpperCase();
    Promise.all([loadCatalogue(), loadMe()]).then(() => {
      page = new TablePage(code);
      ui.rerender = () => page.render();
      page.render();
      page.connect();
      // A profile's recent game links here with ?game=N: open the hand-history viewer.
      if (new URLSearchParams(location.search).get("game")) page.openHistory?.();
    });
  } else if (user) profilePage(decodeURIComponent(user[1]));
  else if (path === "/signup" || path === "/login") authPage(path.slice(1));
  else if (path === "/account") accountPage();
  else if (path === "/leaders") leadersPage();
  else if (path === "/friends") friendsPage();
  else {
    lobby();
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && a.origin === location.origin && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    navigate(a.pathname + a.search);
  }
});
window.addEventListener("popstate", route);
window.addEventListener("resize", () => {
  // Only the table is laid out by script (seat positions differ on a phone).
  clearTimeout(window.__rs);
  window.__rs = setTimeout(() => page?.render(), 150);
});

initLang();
paintNav();
paintTournamentsTab();
route();
// Invitations and presence: the account's view is asked for again every half minute.
setInterval(() => loadMe(true).then(paintNav), 30_000);
