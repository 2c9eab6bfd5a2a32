// The community pages: sign-up, log-in, account settings, public profiles (/u/NAME),
// leaderboards (/leaders), friends (/friends); the top bar's account links, "Play now" (quick
// match) in the lobby, and at a table: invite by username, mute a player's chat for yourself.
import { api, loadCatalogue, variantInfo } from "./api.js";
import "./community_i18n.js";
import { $, $$, app, esc, modal, navigate, store, toast, ui } from "./dom.js";
import { getLang, handName, t } from "./i18n.js";
import { tokensPanelHTML, wireTokens } from "./api_tokens.js";

let me = null; // {user, csrf, rules, invites}

/** Who this browser is (GET /api/me, which also sets the CSRF cookie); cached until changed. */
export async function loadMe(fresh = false) {
  if (!me || fresh) {
    try {
      me = await api("/api/me");
    } catch {
      me = { user: null, rules: { password_min: 10, username_min: 3, username_max: 20 }, invites: [] };
    }
  }
  return me;
}

export function currentUser() {
  return me?.user || null;
}

/** An API error as the player's language says it (the server's message otherwise). */
function errorText(err) {
  const key = `err_${err.code}`;
  const text = t(key, { min: me?.rules?.password_min ?? 10, max: me?.rules?.username_max ?? 20 });
  return text === key ? err.message : text;
}

/** The top bar's links: leaderboards, friends, and the account (or log in / sign up). */
export async function paintNav() {
  const nav = $("#nav");
  if (!nav) return;
  await loadMe();
  const user = currentUser();
  nav.innerHTML = `<a href="/leaders" data-link id="nav-leaders"><span class="wide">${t("nav_leaders")}</span><span class="narrow">${t("nav_leaders_short")}</span></a>
    ${user ? `<a href="/friends" data-link id="nav-friends">${t("nav_friends")}${me.invites?.length ? ` <span class="badge">${me.invites.length}</span>` : ""}</a>
      <a href="/account" data-link id="nav-account" class="nav-user">${esc(user.username)}</a>`
    : `<a href="/login" data-link id="nav-login">${t("nav_login")}</a>`}`;
}

/** The seat tokens this browser holds: a guest's games, handed over at sign-up. */
function browserTokens() {
  const out = new Set();
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && (key.startsWith("sabacc:token:") || key.startsWith("sabacc:host:"))) {
        const v = localStorage.getItem(key);
        if (v) out.add(v);
      }
    }
  } catch {
    /* private mode */
  }
  return [...out].slice(0, 200);
}

/** Draw a page, unless the player went elsewhere while it loaded (``here``: its path). */
function page(here, title, body) {
  if (location.pathname !== here) return false;
  document.title = `${title} · Sabacc`;
  $("#crumb").textContent = "";
  app.innerHTML = `<section class="community">${body}</section>`;
  return true;
}

// ---------------------------------------------------------------------- sign-up and log-in
export async function authPage(kind) {
  const here = location.pathname;
  await loadMe();
  const rules = me.rules;
  const draw = () => {
    const signup = kind === "signup";
    if (!page(here,
      t(signup ? "signup_title" : "login_title"),
      `<form class="panel auth-form" id="auth-form" autocomplete="on" novalidate>
        <h1>${t(signup ? "signup_title" : "login_title")}</h1>
        ${signup ? `<p class="muted">${t("signup_intro")}</p><p class="muted small">${t("signup_keeps")}</p>` : ""}
        <label>${t("username")}<input name="username" id="auth-username" autocomplete="username" maxlength="${rules.username_max}" required></label>
        ${signup ? `<small class="muted">${esc(t("username_rule", { min: rules.username_min, max: rules.username_max }))}</small>` : ""}
        <label>${t("password")}<input name="password" id="auth-password" type="password" autocomplete="${signup ? "new-password" : "current-password"}" maxlength="${rules.password_max}" required></label>
        ${signup ? `<small class="muted" id="password-rule">${esc(t("password_rule", { min: rules.password_min }))}</small>` : ""}
        <p class="form-error" id="auth-error" role="alert"></p>
        <button class="primary" type="submit" id="auth-submit">${t(signup ? "signup_button" : "login_button")}</button>
        <a href="${signup ? "/login" : "/signup"}" data-link class="small">${t(signup ? "have_account" : "no_account")}</a>
      </form>`,
    )) return;
    const f = $("#auth-form");
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      $("#auth-submit").disabled = true;
      try {
        const res = await api(`/api/account/${kind}`, {
          method: "POST",
          body: JSON.stringify({ username: f.username.value.trim(), password: f.password.value, tokens: browserTokens() }),
        });
        await loadMe(true);
        toast(t("welcome_user", { name: res.user.username }));
        if (res.claimed) toast(t("kept_games", { n: res.claimed }));
        paintNav();
        navigate(res.user.url);
      } catch (err) {
        $("#auth-error").textContent = errorText(err);
        $("#auth-submit").disabled = false;
      }
    });
  };
  draw();
  ui.rerender = draw;
}

// ---------------------------------------------------------------------- account settings
export async function accountPage() {
  const here = location.pathname;
  await loadMe(true);
  if (!currentUser()) return navigate("/login");
  const draw = () => {
    const user = currentUser();
    if (!page(here,
      t("account_title"),
      `<div class="panel">
        <h1>${t("account_title")}</h1>
        <p>${esc(t("logged_in_as", { name: user.username }))} · <a href="${esc(user.url)}" data-link>${esc(t("profile_title", { name: user.username }))}</a></p>
        <button id="logout" type="button">${t("logout")}</button>
      </div>
      <form class="panel auth-form" id="password-form">
        <h2>${t("change_password")}</h2>
        <label>${t("password_current")}<input name="current" type="password" autocomplete="current-password" required></label>
        <label>${t("password_new")}<input name="new" type="password" autocomplete="new-password" required></label>
        <small class="muted">${esc(t("password_rule", { min: me.rules.password_min }))}</small>
        <p class="form-error" id="password-error" role="alert"></p>
        <button class="primary" type="submit">${t("change_password")}</button>
      </form>
      <form class="panel auth-form danger-zone" id="delete-form">
        <h2>${t("delete_account")}</h2>
        <p class="muted small">${esc(t("delete_warning"))}</p>
        <label>${t("password")}<input name="password" type="password" autocomplete="current-password" required></label>
        <p class="form-error" id="delete-error" role="alert"></p>
        <button class="danger" type="submit">${t("delete_confirm")}</button>
      </form>${tokensPanelHTML()}`,
    )) return;
    wireTokens();
    $("#logout").addEventListener("click", async () => {
      await api("/api/account/logout", { method: "POST", body: "{}" }).catch(() => {});
      await loadMe(true);
      paintNav();
      navigate("/");
    });
    const pf = $("#password-form");
    pf.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api("/api/account/password", { method: "POST", body: JSON.stringify({ current: pf.current.value, new: pf.new.value }) });
        pf.reset();
        $("#password-error").textContent = "";
        toast(t("password_changed"));
      } catch (err) {
        $("#password-error").textContent = errorText(err);
      }
    });
    const df = $("#delete-form");
    df.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await api("/api/account/delete", { method: "POST", body: JSON.stringify({ password: df.password.value }) });
        await loadMe(true);
        toast(t("deleted"));
        paintNav();
        navigate("/");
      } catch (err) {
        $("#delete-error").textContent = errorText(err);
      }
    });
  };
  draw();
  ui.rerender = draw;
}

// ---------------------------------------------------------------------- profiles
const pct = (x) => `${Math.round(x * 1000) / 10}%`;
const signed = (n) => (n > 0 ? `+${n}` : String(n));

function variantTitle(name, fallback) {
  const v = variantInfo(name);
  return v?.title || fallback || name;
}

export async function profilePage(name) {
  const here = location.pathname;
  await loadCatalogue();
  let prof;
  try {
    prof = await api(`/api/users/${encodeURIComponent(name)}`);
  } catch (err) {
    if (!page(here, name, `<div class="panel"><h1>${esc(name)}</h1><p>${t("no_user")}</p></div>`)) return;
    return;
  }
  const draw = () => {
    const rows = prof.variants
      .map(
        (v) => `<tr>
          <th scope="row">${esc(variantTitle(v.variant, v.title))}</th>
          <td data-label="${esc(t("games_col"))}">${v.games}</td><td data-label="${esc(t("hands_col"))}">${v.hands}</td>
          <td data-label="${esc(t("net_col"))}" class="${v.net >= 0 ? "up" : "down"}">${signed(v.net)}</td>
          <td data-label="${esc(t("win_rate_col"))}">${pct(v.win_rate)}</td><td data-label="${esc(t("sabacc_pots_col"))}">${v.sabacc_pots}</td>
          <td data-label="${esc(t("best_hand_col"))}">${v.best_hand ? esc(handName(v.best_hand.name)) : "—"}</td>
          <td data-label="${esc(t("rating_col"))}">${v.rating ? `<b>${v.rating.rating}</b> <small class="muted">(${v.rating.games})</small>` : `<span class="muted">${t("unrated")}</span>`}</td>
        </tr>`,
      )
      .join("");
    const recent = prof.recent
      .map(
        // An unlisted table's game comes without its code or link (the code is its secret).
        (g) => `<li>${g.url ? `<a href="${esc(g.url)}" data-link>${esc(g.table_name)}</a>` : esc(g.table_name)}
          <span class="muted">${esc(variantTitle(g.variant))} · ${esc(t("place_of", { place: g.place, n: g.players }))} · <span class="${g.net >= 0 ? "up" : "down"}">${signed(g.net)}</span>${g.rated ? ` · ${t("rated_game")}` : ""}</span>
          ${g.url ? `<a class="small" href="${esc(g.url)}" data-link>${t("open_history")}</a>` : ""}</li>`,
      )
      .join("");
    const since = new Date(prof.since).toLocaleDateString(getLang() === "ja" ? "ja-JP" : "en-GB");
    if (!page(here,
      t("profile_title", { name: prof.username }),
      `<div class="panel profile">
        <h1 id="profile-name">${esc(prof.username)} ${prof.online ? `<span class="badge online">${t("online_now")}</span>` : ""}</h1>
        <p class="muted">${esc(t("member_since", { date: since }))}</p>
        ${prof.variants.length
          ? `<div class="scroll-x"><table class="stats by-variant" id="stats"><thead><tr>
              <th>${t("variant_col")}</th><th>${t("games_col")}</th><th>${t("hands_col")}</th><th>${t("net_col")}</th>
              <th>${t("win_rate_col")}</th><th>${t("sabacc_pots_col")}</th><th>${t("best_hand_col")}</th><th>${t("rating_col")}</th>
            </tr></thead><tbody>${rows}</tbody></table></div>`
          : `<p class="muted">${t("no_games_yet")}</p>`}
      </div>
      ${prof.recent.length ? `<div class="panel"><h2>${t("recent_games")}</h2><ol class="recent" id="recent">${recent}</ol></div>` : ""}`,
    )) return;
  };
  draw();
  ui.rerender = draw;
}

// ---------------------------------------------------------------------- leaderboards
export async function leadersPage() {
  const here = location.pathname;
  const catalogue = await loadCatalogue();
  const params = new URLSearchParams(location.search);
  let variant = params.get("variant") || catalogue.default_variant;
  let board = null;
  const load = async () => {
    try {
      board = await api(`/api/leaders?variant=${encodeURIComponent(variant)}`);
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    draw();
  };
  const draw = () => {
    if (!board) return;
    const rows = board.leaders
      .map(
        (r, i) => `<tr><td>${i + 1}</td><th scope="row"><a href="/u/${encodeURIComponent(r.username)}" data-link>${esc(r.username)}</a></th>
          <td><b>${r.rating}</b></td><td>${r.games}</td></tr>`,
      )
      .join("");
    const bots = board.bots.map((b) => `<li>${esc(t("bot_level", { level: b.bot }))}: <b>${b.rating}</b></li>`).join("");
    if (!page(here,
      t("leaders_title", { title: variantTitle(board.variant, board.title) }),
      `<div class="panel">
        <h1>${esc(t("leaders_title", { title: variantTitle(board.variant, board.title) }))}</h1>
        <div class="tabs" role="tablist">${board.variants
          .map((v) => `<button type="button" role="tab" class="tab ${v.name === board.variant ? "active" : ""}" data-variant="${esc(v.name)}" aria-selected="${v.name === board.variant}">${esc(variantTitle(v.name, v.title))}</button>`)
          .join("")}</div>
        <p class="muted small">${esc(t("leaders_rule", { n: board.min_games }))}</p>
        ${board.leaders.length
          ? `<table class="stats" id="leaders"><thead><tr><th>${t("rank_col")}</th><th>${t("player_col")}</th><th>${t("rating_col")}</th><th>${t("games_col")}</th></tr></thead><tbody>${rows}</tbody></table>`
          : `<p class="muted" id="no-leaders">${t("no_leaders")}</p>`}
      </div>
      <div class="panel"><h2>${t("bot_ratings")}</h2><ul class="bot-ratings">${bots}</ul></div>`,
    )) return;
    $$("[data-variant]").forEach((b) =>
      b.addEventListener("click", () => {
        variant = b.dataset.variant;
        history.replaceState({}, "", `/leaders?variant=${encodeURIComponent(variant)}`);
        load();
      }),
    );
  };
  ui.rerender = draw;
  await load();
}

// ---------------------------------------------------------------------- friends
export async function friendsPage() {
  const here = location.pathname;
  await loadMe(true);
  if (!currentUser()) {
    if (!page(here, t("friends_title"), `<div class="panel"><h1>${t("friends_title")}</h1><p>${t("login_to_see")}</p><a href="/login" data-link>${t("nav_login")}</a></div>`)) return;
    return;
  }
  let friends = [];
  const load = async () => {
    try {
      ({ friends } = await api("/api/friends"));
    } catch (err) {
      toast(errorText(err), "error");
    }
    draw();
  };
  const draw = () => {
    const list = friends
      .map((f) => {
        const where = f.table ? (f.table.private ? t("at_private") : t("at_table", { table: f.table.name })) : f.online ? t("online_now") : t("offline");
        return `<li class="friend ${f.online ? "on" : ""}"><a href="${esc(f.url)}" data-link>${esc(f.username)}</a>
          <span class="muted">${f.table?.url ? `<a href="${esc(f.table.url)}" data-link>${esc(where)}</a>` : esc(where)}</span>
          <button class="ghost small" data-remove="${esc(f.username)}">${t("friend_remove")}</button></li>`;
      })
      .join("");
    const invites = (me.invites || [])
      .map((i) => `<li>${esc(t("invited_by", { name: i.by, table: i.table }))} <a class="button" href="${esc(i.url)}" data-link>${t("go_table")}</a></li>`)
      .join("");
    if (!page(here,
      t("friends_title"),
      `${invites ? `<div class="panel"><h2>${t("invites")}</h2><ul id="invites">${invites}</ul></div>` : ""}
      <div class="panel">
        <h1>${t("friends_title")}</h1>
        <form id="friend-form" class="row"><input name="username" maxlength="20" placeholder="${t("username")}" required><button type="submit">${t("add_friend")}</button></form>
        ${friends.length ? `<ul class="friends" id="friends">${list}</ul>` : `<p class="muted">${t("no_friends")}</p>`}
      </div>`,
    )) return;
    const f = $("#friend-form");
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const res = await api("/api/friends", { method: "POST", body: JSON.stringify({ username: f.username.value.trim() }) });
        toast(t("friend_added", { name: res.username }));
        load();
      } catch (err) {
        toast(errorText(err), "error");
      }
    });
    $$("[data-remove]").forEach((b) =>
      b.addEventListener("click", async () => {
        await api("/api/friends/remove", { method: "POST", body: JSON.stringify({ username: b.dataset.remove }) }).catch(() => {});
        load();
      }),
    );
  };
  ui.rerender = draw;
  await load();
}

// ---------------------------------------------------------------------- quick match
const WAITS = [0, 15, 30, 60, 120];
let polling = null;

/** The lobby's "Play now" panel (quick match): its HTML, then wire(variant getter). */
export function quickMatchHTML(maxSeats) {
  const seats = Array.from({ length: Math.max(0, Math.min(8, maxSeats) - 1) }, (_, i) => i + 2);
  return `<form class="panel quick-match" id="match-form">
    <h2>${t("play_now")}</h2>
    <p class="muted small">${esc(t("play_now_hint"))}</p>
    <div class="row">
      <label>${t("match_seats")}<select name="seats">${seats.map((n) => `<option value="${n}" ${n === Math.min(4, maxSeats) ? "selected" : ""}>${n}</option>`).join("")}</select></label>
      <label>${t("match_wait")}<select name="wait">${WAITS.map((w) => `<option value="${w}" ${w === 30 ? "selected" : ""}>${t("match_wait_s", { n: w })}</option>`).join("")}</select></label>
    </div>
    <button class="primary" type="submit" id="match-go">${t("play_now")}</button>
    <p class="muted small" id="match-status" aria-live="polite"></p>
  </form>`;
}

export function wireQuickMatch(getVariant, getName) {
  const f = $("#match-form");
  if (!f) return;
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearTimeout(polling);
    const body = { variant: getVariant(), seats: Number(f.seats.value), wait: Number(f.wait.value), name: getName() || t("guest_name") };
    $("#match-go").disabled = true;
    try {
      const ticket = await api("/api/match", { method: "POST", body: JSON.stringify(body) });
      follow(ticket);
    } catch (err) {
      toast(err.message, "error");
      $("#match-go").disabled = false;
    }
  });
}

function follow(ticket) {
  const status = $("#match-status");
  if (ticket.status === "matched") {
    const res = ticket.table;
    store.set(`sabacc:token:${res.code}`, res.token);
    navigate(res.url);
    return;
  }
  if (ticket.status === "failed") {
    toast(ticket.error?.message || "quick match failed", "error");
    if ($("#match-go")) $("#match-go").disabled = false;
    return;
  }
  if (!status) {
    api(`/api/match/${ticket.ticket}/cancel`, { method: "POST", body: "{}" }).catch(() => {});
    return; // the lobby was left: give the place up
  }
  status.innerHTML = `${esc(t("match_waiting", { n: ticket.waiting }))} · ${esc(t("match_bots_in", { s: Math.ceil(ticket.bots_in) }))}
    <button type="button" class="ghost small" id="match-cancel">${t("match_cancel")}</button>`;
  $("#match-cancel").addEventListener("click", async () => {
    clearTimeout(polling);
    await api(`/api/match/${ticket.ticket}/cancel`, { method: "POST", body: "{}" }).catch(() => {});
    status.textContent = "";
    $("#match-go").disabled = false;
  });
  polling = setTimeout(async () => {
    try {
      follow(await api(`/api/match/${ticket.ticket}`));
    } catch (err) {
      toast(err.message, "error");
    }
  }, 700);
}

// ---------------------------------------------------------------------- at a table
/** Chat lines of muted players are hidden for this browser only (per table). */
export function mutedNames(code) {
  try {
    return new Set(JSON.parse(store.get(`sabacc:chatmute:${code}`) || "[]"));
  } catch {
    return new Set();
  }
}

export function toggleMute(code, name) {
  const names = mutedNames(code);
  if (names.has(name)) names.delete(name);
  else names.add(name);
  store.set(`sabacc:chatmute:${code}`, JSON.stringify([...names]));
}

/** The invite button at a table, for a logged-in player seated there. */
export function inviteButtonHTML(seated) {
  return currentUser() && seated ? `<button class="ghost" id="invite">${t("invite")}</button>` : "";
}

export function wireInvite(code) {
  $("#invite")?.addEventListener("click", () => {
    const { wrap, close } = modal(`<h2>${t("invite")}</h2>
      <form id="invite-form" class="row"><input name="username" maxlength="20" placeholder="${t("invite_prompt")}" required autofocus><button class="primary" type="submit">${t("invite")}</button></form>`);
    const f = $("#invite-form", wrap);
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const res = await api(`/api/tables/${code}/invite`, { method: "POST", body: JSON.stringify({ username: f.username.value.trim() }) });
        toast(t("invite_sent", { name: res.username }));
        close();
      } catch (err) {
        toast(errorText(err), "error");
      }
    });
  });
}
