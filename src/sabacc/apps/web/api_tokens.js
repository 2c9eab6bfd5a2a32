// Personal API tokens on /account (issue 38, docs/api.md): make one (named, scoped), see it
// once, list and revoke them; and make an account with no games a bot account.
import { api } from "./api.js";
import { $, esc, toast } from "./dom.js";
import { getLang } from "./i18n.js";

const TEXT = {
  en: {
    title: "API tokens", intro: "For programs: scripts and bots (see the API docs). A token is shown once.",
    name: "Name", make: "Make token", revoke: "Revoke", none: "No tokens yet.",
    copy: "Your new token (copy it now: it is not shown again):", used: "last used", never: "never used",
    bot: "Bot account", botIntro: "An account that has played no game can become a bot account, for good: marked as a bot, on the bots' ladder, never on the people's.",
    becomeBot: "Make this a bot account", isBot: "This is a bot account.", revoked: "Token revoked",
  },
  ja: {
    title: "APIトークン", intro: "プログラム（スクリプトやボット）用です。トークンは一度だけ表示されます。",
    name: "名前", make: "トークンを作成", revoke: "無効にする", none: "トークンはまだありません。",
    copy: "新しいトークン（今コピーしてください。再表示されません）:", used: "最終使用", never: "未使用",
    bot: "ボットアカウント", botIntro: "まだ対局していないアカウントはボットアカウントにできます（元に戻せません）。ボットとして表示され、人のランキングには載りません。",
    becomeBot: "ボットアカウントにする", isBot: "これはボットアカウントです。", revoked: "トークンを無効にしました",
  },
};
const tt = (key) => (TEXT[getLang()] || TEXT.en)[key] || TEXT.en[key];
const SCOPES = ["read", "play", "bot"];

/** The panel's HTML (filled by wireTokens). */
export function tokensPanelHTML() {
  return `<section class="panel" id="api-tokens">
    <h2>${esc(tt("title"))}</h2>
    <p class="muted small">${esc(tt("intro"))} <a href="https://sabacc-dev.github.io/sabacc/api/">docs/api.md</a></p>
    <ul id="token-list"></ul>
    <p id="token-new" class="form-error" role="status"></p>
    <form id="token-form" class="auth-form">
      <label>${esc(tt("name"))}<input name="name" maxlength="40" required></label>
      <fieldset>${SCOPES.map((s) => `<label><input type="radio" name="scope" value="${s}"${s === "read" ? " checked" : ""}> ${s}</label>`).join(" ")}</fieldset>
      <button class="primary" type="submit">${esc(tt("make"))}</button>
    </form>
    <h2>${esc(tt("bot"))}</h2>
    <p class="muted small" id="bot-state">${esc(tt("botIntro"))}</p>
    <button type="button" id="become-bot">${esc(tt("becomeBot"))}</button>
  </section>`;
}

async function paintTokens() {
  const list = $("#token-list");
  if (!list) return;
  const { tokens, bot } = await api("/api/account/tokens");
  list.innerHTML = tokens.length
    ? tokens.map((k) => `<li>${esc(k.name)} · <code>${esc(k.prefix)}…</code> · ${esc(k.scopes.join(", "))} · ${esc(k.last_used_at ? `${tt("used")} ${k.last_used_at.slice(0, 16)}` : tt("never"))}
        <button type="button" class="small" data-revoke="${k.id}">${esc(tt("revoke"))}</button></li>`).join("")
    : `<li class="muted">${esc(tt("none"))}</li>`;
  if (bot) {
    $("#bot-state").textContent = tt("isBot");
    $("#become-bot").hidden = true;
  }
}

/** Wire the panel drawn by tokensPanelHTML. */
export function wireTokens() {
  const form = $("#token-form");
  if (!form) return;
  paintTokens().catch(() => {});
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const made = await api("/api/account/tokens", {
        method: "POST", body: JSON.stringify({ name: form.name.value, scopes: [form.scope.value] }),
      });
      $("#token-new").innerHTML = `${esc(tt("copy"))} <code>${esc(made.token)}</code>`;
      form.reset();
      await paintTokens();
    } catch (err) {
      $("#token-new").textContent = err.message;
    }
  });
  $("#token-list").addEventListener("click", async (e) => {
    const id = e.target?.dataset?.revoke;
    if (!id) return;
    await api(`/api/account/tokens/${id}`, { method: "DELETE" }).catch((err) => toast(err.message));
    toast(tt("revoked"));
    await paintTokens();
  });
  $("#become-bot").addEventListener("click", async () => {
    try {
      await api("/api/account/bot", { method: "POST", body: "{}" });
      await paintTokens();
    } catch (err) {
      $("#bot-state").textContent = err.message;
    }
  });
}
