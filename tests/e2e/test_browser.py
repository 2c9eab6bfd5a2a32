"""Two browsers create and join a table and play a whole hand by clicking (Playwright with
Debian's Chromium). Screenshots go to artifacts/ (desktop and phone, English and Japanese)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import sabacc
from tests.apps.server.helpers import ServerProcess

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

CHROMIUM = os.environ.get("SABACC_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PREFERRED = ("check", "stand", "call")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("e2e") / "e2e.db").start()
    yield srv
    srv.stop()


def _errors(page: Page) -> list[str]:
    """Uncaught errors, and anything the page's Content-Security-Policy blocked."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return errors


def _take_turn(page: Page) -> bool:
    """Click a passive action if it is this page's turn. True if it clicked."""
    if page.locator("#actions").count() == 0:
        return False
    for action in PREFERRED:
        button = page.query_selector(f'#actions button[data-action="{action}"]')
        if button is not None and button.is_enabled():
            try:
                button.click()
            except PlaywrightError:  # redrawn under the click (a state arrived): look again
                return False
            button.wait_for_element_state("hidden", timeout=10_000)
            return True
    return False


# Hand 1's cards stay revealed at the seats for 9 s (table.js): the steps between the showdown
# and that check must not be slowed down by another test running beside this one.
@pytest.mark.timing
def test_two_players_play_a_hand_in_the_browser(
    browser: Browser, web_server: ServerProcess
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    guest_ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    host = host_ctx.new_page()
    guest = guest_ctx.new_page()
    host_errors, guest_errors = _errors(host), _errors(guest)
    try:
        # The host creates a two-seat table from the lobby.
        host.goto(web_server.base + "/")
        host.wait_for_selector("#create-form")
        host.fill("input[name=player_name]", "Han")
        host.fill("input[name=seat_count]", "2")
        host.dispatch_event("input[name=seat_count]", "change")
        host.wait_for_function("document.querySelectorAll('.seat-pick').length === 2")
        host.fill("input[name=turn_timer]", "0")
        host.screenshot(path=str(ARTIFACTS / "lobby-desktop.png"), full_page=True)
        host.click("#create")
        host.wait_for_url("**/t/*")
        host.click(".howto #howto-ok")  # the how-to-win screen, once per variant
        host.wait_for_selector(".felt .seat.open")
        host.screenshot(path=str(ARTIFACTS / "waiting-desktop.png"), full_page=True)
        link = host.input_value("#share-link")
        assert "/t/" in link

        # The guest opens the link on a phone and takes the open seat.
        guest.goto(link)
        guest.click(".howto #howto-ok")
        guest.wait_for_selector("#sit-name")
        guest.fill("#sit-name", "Chewie")
        guest.click("button[data-sit]")
        for page in (host, guest):
            page.wait_for_selector(".felt .center-title:has-text('Hand 1')")
            page.wait_for_selector(".my-hand .card")

        # Play the whole first hand by clicking, until the showdown is shown.
        deadline = time.monotonic() + 120
        clicks = 0
        # (the overlay gives way to the next hand's first turn: the result stays beside the log)
        while not all(p.locator("#result-panel").count() for p in (host, guest)):
            assert time.monotonic() < deadline, "the hand did not finish"
            acted = False
            for page in (host, guest):
                if _take_turn(page):
                    clicks += 1
                    acted = True
            if not acted:
                time.sleep(0.05)
        assert clicks >= 6
        host.wait_for_timeout(600)  # let the reveal animation settle
        guest.wait_for_timeout(600)
        showdown = host.inner_text("#result-panel")
        assert "Hand 1" in showdown and ("Nulrhek" in showdown or "Sabacc" in showdown)
        host.screenshot(path=str(ARTIFACTS / "showdown-desktop.png"), full_page=True)
        guest.screenshot(path=str(ARTIFACTS / "showdown-phone.png"))
        # The winning hand is named in the log too.
        assert "win" in host.inner_text("#log")
        # The log is the server's lines for this seat (services/render.py): second person, and
        # switching the language re-reads the past lines at once.
        assert "You ante " in host.inner_text("#log")
        host.click("#lang")
        host.wait_for_function(
            "() => document.querySelector('#log').innerText.includes('あなたは')"
        )
        host.click("#lang")
        host.wait_for_function("() => document.querySelector('#log').innerText.includes('You ')")

        # Hand 2 is under way: dismiss the result and look at the table on both screens.
        for page in (host, guest):
            if page.locator("#dismiss-showdown").count():
                _click(page, "#dismiss-showdown")
        host.wait_for_selector(".felt .center-title:has-text('Hand 2')")

        # Hand 1's revealed cards stay at the seats (for up to 9 s) only until somebody acts in
        # hand 2: past that they would read as the new hand's cards.
        shown = """() => [...document.querySelectorAll('.felt .seat[data-seat]')]
            .filter((e) => !e.querySelector('.you'))
            .reduce((n, e) => n + e.querySelectorAll('.seat-cards .card:not(.back)').length, 0)"""
        assert host.evaluate(shown) > 0, "hand 1's cards are not revealed at the seats"
        deadline = time.monotonic() + 20
        while not (_take_turn(host) or _take_turn(guest)):
            assert time.monotonic() < deadline, "nobody could act in hand 2"
            time.sleep(0.05)
        host.wait_for_function(f"() => ({shown})() === 0", timeout=2_000)
        host.screenshot(path=str(ARTIFACTS / "table-desktop.png"), full_page=True)
        guest.screenshot(path=str(ARTIFACTS / "table-phone.png"), full_page=True)

        # Japanese.
        guest.click("#lang")
        guest.wait_for_selector(".felt .center-title:has-text('第 2 ハンド')")
        guest.screenshot(path=str(ARTIFACTS / "table-phone-ja.png"))
        assert "日本語" not in guest.inner_text("#lang")

        # The hand history: step through hand 1 to its showdown.
        host.click("#open-history")
        host.click("[data-game='1'][data-hand='1']")
        host.wait_for_selector(".viewer")
        host.click("[data-step=next]")
        assert "1/" in host.inner_text(".viewer-head")
        host.click("[data-step=last]")
        host.wait_for_selector(".viewer .seat")
        host.screenshot(path=str(ARTIFACTS / "history-desktop.png"))
        # In Japanese the viewer's showdown is the server's Japanese explanation (pot names,
        # reasons and nets were English whatever the language).
        guest.click("#open-history")
        guest.click("[data-game='1'][data-hand='1']")
        guest.wait_for_selector(".viewer")
        guest.click("[data-step=last]")
        guest.wait_for_selector(".viewer .explain li")
        explained = guest.locator(".viewer .explain li").all_inner_texts()
        japanese = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
        assert explained and all(japanese.search(line) for line in explained), explained
        assert not guest.locator(".viewer .pot-lines").count()
        assert not host_errors and not guest_errors, (host_errors, guest_errors)
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_every_variant_is_drawn_from_its_declared_facts(
    browser: Browser, web_server: ServerProcess
) -> None:
    # The client names no variant: each table draws its cards with the variant's own card-art
    # module and its piles from /api/variants; the lobby offers enum options as dropdowns.
    catalogue = web_server.get("/api/variants").json()
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    errors = _errors(page)
    try:
        page.goto(web_server.base + "/")
        page.wait_for_selector("#create-form")
        for v in catalogue["variants"]:
            page.select_option("select[name=variant]", v["name"])
            page.wait_for_function(  # the form is redrawn for the chosen variant
                "(s) => document.querySelector('#create-form p.muted')?.textContent === s",
                arg=v["summary"],
            )
            # every value a dropdown offers is in words, never the raw value (no_limit, hands:N)
            shown = page.eval_on_selector_all(
                ".opts select option", "(os) => os.map((o) => o.textContent)"
            )
            raw = [x for x in shown if "_" in x or ":N" in x or x in ("true", "false")]
            assert shown and not raw, (v["name"], raw)
            if not any(o["name"] == "final_pot" for o in v["options"]):
                continue  # a variant without a final pot (Kessel: no pots to carry)
            choices = page.eval_on_selector_all(
                "select[name=opt-final_pot] option", "(os) => os.map((o) => o.value)"
            )
            assert choices == ["", "split", "house"]
        for v in catalogue["variants"]:
            created = web_server.create(
                variant=v["name"],
                seats=["human", "bot:heuristic", "bot:heuristic"],
                player_name="Lando",
                turn_timer=0,
            )
            code = created["code"]
            page.evaluate(
                "([code, token]) => localStorage.setItem(`sabacc:token:${code}`, token)",
                [code, created["token"]],
            )
            page.goto(f"{web_server.base}/t/{code}")
            page.wait_for_selector(f".my-hand .card.{v['deck']}")
            page.wait_for_selector(".felt .piles .pile")
            # whose turn is said by name and orbits count from 1 (classic said "Turn 2", a
            # seat number, and "orbit 0/10")
            sub = " ".join(page.locator(".felt .center-sub").all_inner_texts())
            assert not re.search(r"Turn \d+ · orbit", sub) and "orbit 0/" not in sub, sub
            # one card notation: the log writes your dealt cards as the cards are drawn
            # ("+5●", not "+5c") where the variant's art writes its codes so
            page.wait_for_selector("#log li")
            log_words = set(re.findall(r"[+-]?\d+[a-z]", page.inner_text("#log")))
            if v["deck"] in ("spike", "kessel"):
                assert not log_words & set(v["codes"]), (v["name"], log_words & set(v["codes"]))
            page.screenshot(path=str(ARTIFACTS / f"variant-{v['name']}.png"))
        assert not errors, errors
    finally:
        ctx.close()


def _overlaps(page: Page, selectors: tuple[str, ...], others: str) -> list[str]:
    """Pairs of boxes (one of ``selectors``, one of ``others``) that intersect on screen."""
    found: list[str] = page.evaluate(
        """([sels, others]) => {
          const out = [];
          const boxes = (sel) => [...document.querySelectorAll(sel)]
            .map((e) => [sel, e.getBoundingClientRect()]).filter(([, r]) => r.width && r.height);
          const mine = sels.flatMap(boxes);
          for (const [sel, a] of mine) for (const [o, b] of boxes(others)) {
            const ix = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const iy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (ix > 1 && iy > 1) out.push(`${sel} x ${o}`);
          }
          return out;
        }""",
        [list(selectors), others],
    )
    return found


def _click(page: Page, selector: str) -> bool:
    """Click what ``selector`` finds now; False if the table was redrawn under the pointer (a
    bot acted meanwhile: the caller looks again)."""
    try:
        page.click(selector, timeout=1500)
    except PlaywrightError:
        return False
    return True


# The selectors' elements that are not wholly inside the viewport or are covered at their
# centre by something else (an empty list: every one is on screen and can be clicked).
VISIBLE_UNCOVERED = """(selectors) => selectors.flatMap((sel) => {
  const found = [...document.querySelectorAll(sel)];
  if (!found.length) return [sel + ": none"];
  return found.flatMap((e, i) => {
    const r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
      return [`${sel}[${i}] off screen: ${[r.top, r.bottom]}`];
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return hit && e.contains(hit) ? [] : [`${sel}[${i}] covered by ${hit?.className}`];
  });
})"""


def _kessel_side_hand(catalogue: dict[str, object]) -> tuple[str, str]:
    """A variant with a side hand (shift tokens), found by its declaration: (name, action)."""
    for v in catalogue["variants"]:  # type: ignore[attr-defined]
        side = (v.get("display") or {}).get("side_hand")
        if side:
            return str(v["name"]), str(side["action"])
    pytest.skip("no variant declares a side hand")


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 800, "en"), (390, 844, "ja")])
def test_a_token_game_is_played_to_its_end_against_bots(
    browser: Browser, web_server: ServerProcess, width: int, height: int, lang: str
) -> None:
    # Kessel, found by its declarations (a side hand of tokens): you and two bots, short game.
    catalogue = web_server.get("/api/variants").json()
    variant, token_action = _kessel_side_hand(catalogue)
    created = web_server.create(
        variant=variant,
        seats=["human", "bot:random", "bot:random"],
        player_name="Lando",
        turn_timer=0,
        options={"chips": 4, "game_end": "rounds:3", "shift_tokens": "free_draw,refund"},
    )
    code = created["code"]
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errors = _errors(page)
    try:
        page.goto(web_server.base + "/")
        page.evaluate(
            "([code, token, lang, v]) => { localStorage.setItem(`sabacc:token:${code}`, token);"
            " localStorage.setItem('sabacc:lang', lang);"
            " localStorage.setItem(`sabacc:howto:${v}`, '1'); }",  # the how-to-win seen
            [code, created["token"], lang, variant],
        )
        page.goto(f"{web_server.base}/t/{code}")
        page.wait_for_selector(".my-hand .card")
        used_token = False
        shots = 0
        deadline = time.time() + 120
        while time.time() < deadline:
            if page.query_selector(".game-over"):
                break
            dismiss = page.query_selector("#dismiss-showdown")
            if dismiss:
                if shots < 1:
                    page.screenshot(path=str(ARTIFACTS / f"kessel-reveal-{width}.png"))
                    shots += 1
                # The overlay leaves by itself when your turn comes (it never covers the felt
                # then), so it may be gone between finding it and reading or clicking it.
                try:
                    text = page.inner_text("#showdown", timeout=1500)
                except PlaywrightError:
                    continue
                assert text.strip()
                _click(page, "#dismiss-showdown")
                continue
            buttons = page.query_selector_all("#actions button[data-action]:not([disabled])")
            if not buttons:
                time.sleep(0.15)
                continue
            actions = [b.get_attribute("data-action") or "" for b in buttons]
            tokens = [
                b for b, a in zip(buttons, actions, strict=True) if a.startswith(token_action + " ")
            ]
            if tokens and not used_token:
                tip = tokens[0].get_attribute("title") or ""
                assert tip and tokens[0].inner_text().strip()  # the effect, on hover and shown
                assert tip in tokens[0].inner_text().replace("\n", " ")
                page.screenshot(path=str(ARTIFACTS / f"kessel-tokens-{width}.png"), full_page=True)
                assert not _overlaps(page, (".center .pots", ".my-hand .card"), ".seat-box"), (
                    _overlaps(page, (".center .pots", ".my-hand .card"), ".seat-box")
                )
                if _click(
                    page, f'#actions button[data-action="{tokens[0].get_attribute("data-action")}"]'
                ):
                    used_token = True
            else:
                pick = next(
                    (b for b, a in zip(buttons, actions, strict=True) if a in ("stand", "keep")),
                    None,
                )
                pile = page.query_selector(".pile.takes")
                if pick is None:
                    pick = next(
                        b
                        for b, a in zip(buttons, actions, strict=True)
                        if not a.startswith(token_action)
                    )
                if pile is not None and "keep" not in actions and used_token and shots == 1:
                    if _click(page, ".pile.takes"):  # a click on a pile draws from it
                        page.wait_for_selector(".my-hand .drawn .card")
                        shots += 1
                else:
                    _click(
                        page, f'#actions button[data-action="{pick.get_attribute("data-action")}"]'
                    )
            time.sleep(0.1)
        assert page.query_selector(".game-over"), "the game did not end"
        assert used_token
        # Once the last hand's result is read, the standings and "New game" are on screen,
        # nothing over them (the docked hand covered them on a desktop; the page does not need
        # scrolling to find them).
        page.wait_for_timeout(300)
        _click(page, "#dismiss-showdown")
        page.wait_for_timeout(200)
        hidden = page.evaluate(VISIBLE_UNCOVERED, [".game-over .standings li", "#new-game"])
        assert hidden == [], hidden
        log = page.inner_text("#log")
        assert log.strip()
        page.screenshot(path=str(ARTIFACTS / f"kessel-end-{width}.png"))
        # The hand-history viewer steps through a round of it.
        page.click("#open-history")
        page.click(".hist-game button[data-hand='1']")
        page.wait_for_selector(".viewer .felt")
        first = page.inner_text(".viewer-head")
        for _ in range(4):
            page.click("button[data-step='next']")
        assert page.inner_text(".viewer-head") != first
        page.click("button[data-step='last']")
        page.wait_for_selector(".viewer .showdown.inline")
        assert page.query_selector_all(".viewer .showdown .reveal-row")
        page.screenshot(path=str(ARTIFACTS / f"kessel-history-{width}.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_the_buy_in_box_says_what_a_player_starts_with(
    browser: Browser, web_server: ServerProcess
) -> None:
    """A variant whose buy-in defaults to "none" (100 x ante) showed an empty box: the box now
    shows the credits each player starts with, from the variant's options."""
    catalogue = web_server.get("/api/variants").json()
    with_buy_in = [
        v for v in catalogue["variants"] if any(o["name"] == "buy_in" for o in v["options"])
    ]
    assert any(
        next(o for o in v["options"] if o["name"] == "buy_in")["default"] is None
        for v in with_buy_in
    )
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(web_server.base + "/")
        page.wait_for_selector("#create-form")
        for v in with_buy_in:
            page.select_option("select[name=variant]", v["name"])
            page.wait_for_selector("input[name=buy_in]")
            shown = page.get_attribute("input[name=buy_in]", "placeholder")
            starts = sabacc.variant(v["name"]).info.options_type().starting_stack
            assert shown == str(starts) == str(v["starting_stack"]), (v["name"], shown)
    finally:
        ctx.close()


def test_a_token_table_is_created_in_the_lobby(browser: Browser, web_server: ServerProcess) -> None:
    # The lobby offers the variant's own options (chips, turns... and no buy-in when it has
    # none); the table it creates plays with bots through the server's bot machinery.
    catalogue = web_server.get("/api/variants").json()
    variant, _ = _kessel_side_hand(catalogue)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors = _errors(page)
    try:
        page.goto(web_server.base + "/")
        page.wait_for_selector("#create-form")
        page.select_option("select[name=variant]", variant)
        page.wait_for_selector("input[name=opt-chips]", state="attached")
        page.click("details.house summary")  # the house rules
        assert page.query_selector("input[name=buy_in]") is None
        page.fill("input[name=player_name]", "Lando")
        page.fill("input[name=opt-chips]", "5")
        # A multi-valued rule (the shift tokens) is a checkbox per item with its effect, not
        # a text box; ticking two makes the list every player holds.
        multi = next(o for v in catalogue["variants"] if v["name"] == variant
                     for o in v["options"] if o["kind"] == "multi")  # fmt: skip
        rows = page.locator(f".opt[data-option={multi['name']}] .opt-item-row")
        assert rows.count() == len(multi["items"]) >= 2
        for i in range(rows.count()):
            assert "_" not in rows.nth(i).inner_text() and rows.nth(i).locator("small").count()
        picked = multi["items"][:2]
        for item in picked:
            page.check(f"input.opt-item[value={item}]")
        page.select_option("select[name=seat-1]", "bot:random")
        page.select_option("select[name=seat-2]", "bot:random")
        page.click("#create")
        page.wait_for_selector(".my-hand .card")
        page.wait_for_selector(".felt .pile")
        stacks = page.eval_on_selector_all(".seat .stack", "(es) => es.map((e) => e.textContent)")
        assert stacks and all(int(s) <= 5 for s in stacks)
        # a stack says its unit in the variant's words (Kessel's chips, not credits' "cr")
        unit = next(v for v in catalogue["variants"] if v["name"] == variant)["unit"]["en"]
        units = page.eval_on_selector_all(".seat .unit", "(es) => es.map((e) => e.textContent)")
        assert units and set(units) == {unit} and unit != "cr", units
        code = page.url.rstrip("/").rsplit("/", 1)[-1]
        options = web_server.get(f"/api/tables/{code}").json()["options"]
        assert options[multi["name"]] == ",".join(picked), options
        page.screenshot(path=str(ARTIFACTS / "kessel-created.png"))
        assert not errors, errors
    finally:
        ctx.close()
