// The lobby: create a table (variant, house rules, seats, bots), join by code, list tables.
import { api, loadCatalogue, variantInfo } from "./api.js";
import { $, app, esc, navigate, store, toast, ui } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { currentUser, loadMe, quickMatchHTML, wireQuickMatch } from "./community.js";

export async function lobby() {
  document.title = "Sabacc";
  $("#crumb").textContent = "";
  const [catalogue] = await Promise.all([loadCatalogue(), loadMe()]);
  if (location.pathname !== "/") return; // left for another page meanwhile
  // A signed-in player's name is their account's (never retyped); a guest's the last typed.
  const knownName = () => currentUser()?.username ?? store.get("sabacc:name") ?? "";
  const level = catalogue.default_level || "easy";
  const form = { variant: catalogue.default_variant, seats: ["human", "human", `bot:${level}`] };
  const bots = catalogue.bots;

  function seatOptions(i, value) {
    const opts = [`<option value="human" ${value === "human" ? "selected" : ""}>${i === 0 ? t("you_seat") : t("human")}</option>`];
    if (i > 0)
      for (const l of catalogue.levels || [])
        opts.push(`<option value="bot:${l.name}" ${value === `bot:${l.name}` ? "selected" : ""}>${esc(t("level", { level: l.name }))}</option>`);
    if (i > 0) for (const b of bots) opts.push(`<option value="bot:${b}" ${value === `bot:${b}` ? "selected" : ""}>${t("bot", { name: b })}</option>`);
    return opts.join("");
  }

  function draw() {
    const v = variantInfo(form.variant);
    const n = form.seats.length;
    const optionRows = v.options
      .filter((o) => o.name !== "buy_in")
      .map(
        (o) => `<${o.kind === "multi" ? "div" : "label"} class="opt opt-${esc(o.kind)}" data-option="${esc(o.name)}"><span>${esc(optionLabel(o))}</span>
          ${optionInput(o, form.options?.[o.name] ?? "")}
          <small>${esc(o.help_text?.[getLang()] || (getLang() === "ja" && o.help_ja) || o.help)}</small></${o.kind === "multi" ? "div" : "label"}>`,
      )
      .join("");
    app.innerHTML = `<section class="lobby">
      <div class="hero"><h1>Sabacc</h1><p>${t("tagline")}</p></div>
      <div class="lobby-grid">
        <form class="panel" id="create-form" autocomplete="off">
          <h2>${t("new_table")}</h2>
          <label>${t("variant")}
            <select name="variant">${catalogue.variants.map((x) => `<option value="${x.name}" ${x.name === form.variant ? "selected" : ""}>${esc(x.title)}</option>`).join("")}</select>
          </label>
          <p class="muted small" id="variant-summary">${esc((getLang() === "ja" && v.summary_ja) || v.summary)}</p>
          <label>${t("your_name")}<input name="player_name" maxlength="24" placeholder="${t("name_placeholder")}" value="${esc(form.player_name ?? knownName())}" required></label>
          <div class="row">
            <label>${t("seats")}<input name="seat_count" type="number" min="${v.min_players}" max="${Math.min(8, v.max_players)}" value="${n}"></label>
            ${v.options.some((o) => o.name === "buy_in") ? `<label>${t("buy_in")}<input name="buy_in" type="number" min="1" placeholder="${esc(v.options.find((o) => o.name === "buy_in")?.default ?? v.starting_stack ?? "")}" value="${esc(form.buy_in ?? "")}"></label>` : ""}
            <label>${t("turn_timer")}<input name="turn_timer" type="number" min="0" max="3600" value="${esc(form.turn_timer ?? 60)}"></label>
          </div>
          <div class="seat-list">${form.seats.map((k, i) => `<label class="seat-pick"><span>${t("seat", { n: i + 1 })}</span><select name="seat-${i}">${seatOptions(i, k)}</select></label>`).join("")}</div>
          ${v.levels_note?.[getLang()] ? `<p class="muted small" id="levels-note">${esc(v.levels_note[getLang()])}</p>` : ""}
          <details class="house"><summary>${t("house_rules")}</summary><div class="opts">${optionRows}</div></details>
          <label class="check"><input type="checkbox" name="listed" ${form.listed === false ? "" : "checked"}> ${t("listed")}</label>
          <button class="primary" type="submit" id="create">${t("create")}</button>
        </form>
        <div class="side-col">
          <div class="panel quick-play">
            <button class="primary big" type="button" id="play-bots">${t("play_bots_now")}</button>
            <p class="muted small">${esc(t("play_bots_hint", { level }))}</p>
          </div>
          ${quickMatchHTML(v.max_players)}
          <form class="panel" id="join-form">
            <h2>${t("join_code")}</h2>
            <div class="row"><input name="code" maxlength="200" autocomplete="off" placeholder="${t("code_placeholder")}" class="code-input"><button type="submit">${t("join")}</button></div>
          </form>
          <div class="panel"><h2>${t("open_tables")}</h2><div id="table-list" class="table-list"><span class="muted">…</span></div></div>
        </div>
      </div>
    </section>`;
    const f = $("#create-form");
    const capture = () => {
      form.player_name = f.player_name.value;
      form.buy_in = f.buy_in ? f.buy_in.value : "";
      form.turn_timer = f.turn_timer.value;
      form.listed = f.listed.checked;
      form.options = {};
      for (const o of v.options) {
        const value = readOption(f, o);
        if (value !== "") form.options[o.name] = value;
      }
      form.seats = form.seats.map((k, i) => f[`seat-${i}`]?.value || k);
    };
    // Redraws are deferred: a "change" can fire from a blur while the form is being replaced.
    f.variant.addEventListener("change", () => {
      capture();
      form.variant = f.variant.value;
      form.options = {};
      setTimeout(draw);
    });
    f.seat_count.addEventListener("change", () => {
      capture();
      const want = Math.max(v.min_players, Math.min(8, v.max_players, Number(f.seat_count.value) || 2));
      if (want === form.seats.length) return;
      while (form.seats.length < want) form.seats.push(`bot:${level}`);
      form.seats.length = want;
      setTimeout(draw);
    });
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      capture();
      const name = (form.player_name || "").trim();
      if (!name) return toast(t("name_needed"), "error");
      store.set("sabacc:name", name);
      const body = {
        variant: form.variant,
        seats: form.seats,
        options: form.options,
        turn_timer: Number(form.turn_timer || 0),
        listed: form.listed,
        player_name: name,
      };
      if (form.buy_in) body.buy_in = Number(form.buy_in);
      $("#create").disabled = true;
      $("#create").textContent = t("creating");
      try {
        const res = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
        store.set(`sabacc:host:${res.code}`, res.host_token);
        if (res.token) store.set(`sabacc:token:${res.code}`, res.token);
        navigate(res.url);
      } catch (err) {
        toast(err.message, "error");
        $("#create").disabled = false;
        $("#create").textContent = t("create");
      }
    });
    $("#play-bots").addEventListener("click", async () => {
      capture();
      const name = (form.player_name || knownName()).trim() || t("guest_name");
      store.set("sabacc:name", name);
      const max = Math.min(4, variantInfo(form.variant).max_players);
      const body = {
        variant: form.variant,
        seats: ["human", ...Array(max - 1).fill(`bot:${level}`)],
        turn_timer: 0,
        listed: false,
        player_name: name,
      };
      $("#play-bots").disabled = true;
      try {
        const res = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
        store.set(`sabacc:host:${res.code}`, res.host_token);
        if (res.token) store.set(`sabacc:token:${res.code}`, res.token);
        navigate(res.url);
      } catch (err) {
        toast(err.message, "error");
        $("#play-bots").disabled = false;
      }
    });
    $("#join-form").addEventListener("submit", (e) => {
      e.preventDefault();
      // A code is 6 letters (12 for an unlisted table); a pasted link is taken as its code.
      const raw = $("#join-form").code.value.trim();
      const code = (raw.match(/\/t\/([A-Za-z0-9]+)/)?.[1] ?? raw).replace(/[\s-]/g, "").toUpperCase();
      if (code) navigate(`/t/${encodeURIComponent(code)}`);
    });
    wireQuickMatch(
      () => form.variant,
      () => (f.player_name.value || knownName()).trim(),
    );
    // A preset taking a number shows its number box; ticking an item chooses the list.
    for (const box of f.querySelectorAll(".opt[data-option]")) {
      const select = box.querySelector("select");
      const count = box.querySelector("input.opt-count");
      const sync = () => count && count.classList.toggle("hidden", !select.value.endsWith(":N"));
      select?.addEventListener("change", sync);
      sync();
      for (const item of box.querySelectorAll("input.opt-item"))
        item.addEventListener("change", () => {
          if (select) select.value = "list";
        });
    }
    listTables();
    ui.rerender = () => {
      capture();
      draw();
    };
  }
  draw();
}

/** An option's name in the current language (the server's labels), else spelled out. */
function optionLabel(o) {
  const own = o.label?.[getLang()] || o.label?.en || (getLang() === "ja" && o.label_ja);
  if (own) return own;
  const text = o.name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value of an option in words ("no_limit" → "no limit"), from the server's labels. */
function valueLabel(o, value) {
  const labels = o.labels?.[getLang()] || o.labels?.en || {};
  const key = typeof value === "boolean" ? String(value) : String(value ?? "none");
  return labels[key] ?? key.replace(/_/g, " ");
}

const COUNTED = /^(.*):(\d+)$/;

/** The input of one option, from its spec: a dropdown for choices, booleans and presets (a
 * preset taking a number has a number box), checkboxes for a multi-valued option, a number
 * box within its range, or a text box. "" keeps the default. */
function optionInput(o, value) {
  const name = `opt-${esc(o.name)}`;
  const fallback = `${t("default")}: ${valueLabel(o, o.default)}`;
  const choices = o.kind === "bool" ? [true, false] : o.choices;
  if (choices && choices.length) {
    const opts = [`<option value="">${esc(fallback)}</option>`];
    if (o.optional) opts.push(`<option value="none" ${value === "none" ? "selected" : ""}>${esc(valueLabel(o, "none"))}</option>`);
    for (const c of choices) opts.push(`<option value="${esc(c)}" ${String(c) === value ? "selected" : ""}>${esc(valueLabel(o, c))}</option>`);
    return `<select name="${name}">${opts.join("")}</select>`;
  }
  if (o.kind === "multi") {
    const picked = o.presets.includes(value) || !value ? [] : String(value).split(",");
    const mode = !value ? "" : o.presets.includes(value) ? value : "list";
    const opts = [`<option value="">${esc(fallback)}</option>`];
    for (const p of o.presets) opts.push(`<option value="${esc(p)}" ${mode === p ? "selected" : ""}>${esc(valueLabel(o, p))}</option>`);
    opts.push(`<option value="list" ${mode === "list" ? "selected" : ""}>${esc(t("multi_list"))}</option>`);
    const help = o.item_help?.[getLang()] || o.item_help?.en || {};
    const items = o.items
      .map(
        (item) => `<label class="check opt-item-row"><input type="checkbox" class="opt-item" name="${name}-item" value="${esc(item)}" ${picked.includes(item) ? "checked" : ""}>
          <b>${esc(valueLabel(o, item))}</b>${help[item] ? ` <small>${esc(help[item])}</small>` : ""}</label>`,
      )
      .join("");
    return `<select name="${name}">${opts.join("")}</select><div class="opt-items">${items}</div>`;
  }
  if (o.presets && o.presets.length) {
    const m = COUNTED.exec(value || "");
    const preset = m && o.presets.includes(`${m[1]}:N`) ? `${m[1]}:N` : value;
    const opts = [`<option value="">${esc(fallback)}</option>`];
    for (const p of o.presets) opts.push(`<option value="${esc(p)}" ${preset === p ? "selected" : ""}>${esc(valueLabel(o, p))}</option>`);
    const counted = o.presets.some((p) => p.endsWith(":N"));
    return `<span class="opt-pair"><select name="${name}">${opts.join("")}</select>${
      counted ? `<input class="opt-count" name="${name}-n" type="number" min="1" placeholder="${esc(t("how_many"))}" value="${esc(m ? m[2] : "")}" aria-label="${esc(t("how_many"))}">` : ""
    }</span>`;
  }
  const range = o.kind === "int" ? `type="${o.optional ? "text" : "number"}" ${o.minimum != null ? `min="${o.minimum}"` : ""} ${o.maximum != null ? `max="${o.maximum}"` : ""}` : "";
  return `<input name="${name}" ${range} placeholder="${esc(o.default ?? "none")}" value="${esc(value)}">`;
}

/** An option's value as the form holds it ("" keeps the default). */
function readOption(f, o) {
  const box = f.querySelector(`.opt[data-option="${o.name}"]`);
  const control = box?.querySelector(`[name="opt-${o.name}"]`);
  if (!control) return "";
  const value = control.value.trim();
  if (o.kind === "multi" && value === "list") {
    const picked = [...box.querySelectorAll("input.opt-item:checked")].map((x) => x.value);
    return picked.length ? picked.join(",") : "none";
  }
  if (value.endsWith(":N")) {
    const n = box.querySelector("input.opt-count")?.value.trim();
    return n ? value.replace(/:N$/, `:${n}`) : "";
  }
  return value;
}

async function listTables() {
  const box = $("#table-list");
  if (!box) return;
  try {
    const { tables } = await api("/api/tables");
    box.innerHTML = tables.length
      ? tables
          .map(
            (tb) => `<a class="table-row" href="/t/${tb.code}" data-link>
              <span class="code">${tb.code}</span>
              <span class="tname">${esc(tb.name)}<small>${esc(tb.title)} · ${t("players_count", { n: tb.players ?? 0, m: tb.seats })}${tb.spectators ? ` · ${t("watchers", { n: tb.spectators })}` : ""}</small>
                <small class="seated">${esc(t("seated", { names: (tb.seated || []).map((x) => x.name || "?").join(", ") || "—" }))}</small></span>
              <span class="tstatus ${tb.status}">${t(`status_${tb.status}`)}${tb.open_seats ? ` · ${t("open_seats", { n: tb.open_seats })}` : ""}</span>
            </a>`,
          )
          .join("")
      : `<span class="muted">${t("no_tables")}</span>`;
  } catch (err) {
    box.textContent = err.message;
  }
}
