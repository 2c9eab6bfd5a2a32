"""What a newcomer tripped on at the web table (issue 35), in headless Chromium against the
real server, at 1280x800 and on a 390x844 phone, in English and Japanese."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess

pytest.importorskip("playwright")
from playwright.sync_api import Browser

from tests.e2e.test_browser import _errors, browser
from tests.e2e.test_table_ux import SETTLED, SIZES, _open_seated

__all__ = ["browser"]  # the Chromium fixture of test_browser, shared

TOTAL = {"en": "Total ", "ja": "合計 "}
KEPT = {"en": "Kept 1", "ja": "キープ 1 枚"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("nc") / "nc.db", extra=list(UNLIMITED))
    server.start()
    yield server
    server.stop()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_coruscant_totals_the_kept_set_and_marks_it(
    browser: Browser, srv: ServerProcess, size: str, lang: str
) -> None:
    """N2: once one card is kept, the total is that card's (not the five cards' sum) and
    the card wears the kept mark."""
    created = srv.create(
        variant="coruscant_shift", seats=["human", "bot:easy"], player_name="Leia", turn_timer=0
    )
    ctx = browser.new_context(**SIZES[size])
    ctx.add_init_script(f"localStorage.setItem('sabacc:lang', '{lang}')")
    page = _open_seated(ctx, srv, created)
    errors = _errors(page)
    try:
        page.wait_for_selector("#actions .subset .toggle:not(.locked)", timeout=20_000)
        assert page.locator(".my-hand .card.kept").count() == 0
        page.click("#actions .subset .toggle:not(.locked) >> nth=0")
        page.click("#keep-go")
        page.wait_for_selector(".my-hand .card.kept", timeout=20_000)
        page.wait_for_function(SETTLED, timeout=10_000)
        kept = page.locator(".my-hand .card.kept")
        assert kept.count() == 1
        first = page.locator(".my-hand .hand-cards .card").first
        assert "kept" in (first.get_attribute("class") or "")
        value = first.locator(".pip b").inner_text().strip()
        hand_value = page.locator(".my-hand .hand-value").inner_text()
        assert f"{TOTAL[lang]}{value}" in hand_value, hand_value
        assert KEPT[lang] in hand_value, hand_value
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_bet_box_refuses_more_than_the_stack(
    browser: Browser, srv: ServerProcess, size: str, lang: str
) -> None:
    """B23: 99999 typed with 98 credits was sent; the box now marks it, the button says the
    range and nothing is sent; an amount in range bets it."""
    created = srv.create(
        variant="corellian_spike", seats=["human", "bot:easy"], player_name="Leia", turn_timer=0
    )
    ctx = browser.new_context(**SIZES[size])
    ctx.add_init_script(f"localStorage.setItem('sabacc:lang', '{lang}')")
    page = _open_seated(ctx, srv, created)
    errors = _errors(page)
    try:
        for _ in range(30):  # stand through card phases until a bet can be sized
            page.wait_for_selector("#actions button:not([disabled])", timeout=20_000)
            if page.query_selector("#size-num"):
                break
            page.click('#actions button[data-action="stand"]')
            page.wait_for_timeout(300)
        num = page.locator("#size-num")
        top = int(num.get_attribute("max") or 0)
        log = page.locator("#log li").count()
        num.fill("99999")
        go = page.locator("#size-go")
        assert "invalid" in (num.get_attribute("class") or "")
        assert go.is_disabled()
        assert str(top) in go.inner_text()
        go.click(force=True)
        page.wait_for_timeout(500)
        assert num.input_value() == "99999"  # never changed behind the player's back
        assert page.locator("#log li").count() == log  # nothing was sent, nothing said
        assert page.locator("#size-go").count() == 1  # still your turn
        num.fill(str(min(top, 3)))
        assert not go.is_disabled() and "invalid" not in (num.get_attribute("class") or "")
        assert go.inner_text().strip().endswith(str(min(top, 3)))
        assert not errors, errors
    finally:
        ctx.close()


def test_kessel_log_lines_draw_every_card_code(browser: Browser, srv: ServerProcess) -> None:
    """N8: "Is is turned face up…": an Impostor's code has no digit, so the log left it raw;
    every code of the variant is now drawn by its card art (a word that is no code stays)."""
    ctx = browser.new_context(**SIZES["desktop"])
    page = ctx.new_page()
    try:
        page.goto(srv.base + "/")
        said = page.evaluate(
            """async () => {
                const api = await import("/static/api.js");
                const cards = await import("/static/cards.js");
                const text = await import("/static/text.js");
                const cat = await api.loadCatalogue();
                await cards.loadArt(cat.variants);
                return [
                    text.cardGlyphs("Is is turned face up on the Sand discard pile", "kessel"),
                    text.cardGlyphs("You show 3s Ib: Sabacc 3/3", "kessel"),
                    text.cardGlyphs("You are dealt: +4t 0", "corellian_spike"),
                ];
            }"""
        )
        assert said[0].startswith("I◆ is turned"), said
        assert said[1] == "You show 3◆ I●: Sabacc 3/3", said
        assert "+4" in said[2] and "+4t" not in said[2], said
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("how", ["code", "link"])
def test_an_unlisted_tables_code_or_link_joins_it(
    browser: Browser, srv: ServerProcess, lang: str, how: str
) -> None:
    """N21: the box said "ABC123" and took 8 letters, so an unlisted table's 12-letter code
    was cut; it takes the whole code (or a pasted link) and says what to type."""
    created = srv.create(
        variant="corellian_spike", seats=["human", "human"], player_name="Leia", listed=False
    )
    code = created["code"]
    assert len(code) == 12
    ctx = browser.new_context(**SIZES["phone"])
    ctx.add_init_script(f"localStorage.setItem('sabacc:lang', '{lang}')")
    page = ctx.new_page()
    try:
        page.goto(srv.base + "/")
        box = page.locator("#join-form input[name=code]")
        placeholder = box.get_attribute("placeholder") or ""
        assert "12" in placeholder and "ABC123" not in placeholder, placeholder
        box.fill(code.lower() if how == "code" else f"{srv.base}/t/{code}")
        page.click("#join-form button[type=submit]")
        page.wait_for_url(f"**/t/{code}", timeout=10_000)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_signed_in_player_creates_a_table_without_retyping_a_name(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory, lang: str
) -> None:
    """N5: signed in, the lobby's name box was empty; it holds the account's name."""
    from tests.apps.server.test_community import SHARED
    from tests.e2e.test_community import _sign_up

    site = ServerProcess(tmp_path_factory.mktemp("n5") / "n5.db", extra=list(SHARED)).start()
    ctx = browser.new_context(**SIZES["desktop"])
    ctx.add_init_script(f"localStorage.setItem('sabacc:lang', '{lang}')")
    page = ctx.new_page()
    try:
        _sign_up(page, site.base, f"rey{lang}")
        page.goto(site.base + "/")
        box = page.locator("#create-form input[name=player_name]")
        box.wait_for()
        assert box.input_value() == f"rey{lang}"
    finally:
        ctx.close()
        site.stop()
