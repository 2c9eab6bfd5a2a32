"""Moments of the web table that only a browser shows, against a real server of its own (one
test stops it): a lost connection is said on screen and the move made meanwhile is kept and
sent when the connection is back; on your first turn of the next hand the showdown overlay no
longer covers the felt, and no stale bet chip is left in front of a seat, neither from the last
hand nor, in the card phase, from the betting round before it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.test_browser import _errors, browser
from tests.e2e.test_table_ux import SIZES, _open_seated, _play_passively

__all__ = ["browser"]  # the Chromium fixture of test_browser, shared

MY_TURN = "#actions button[data-action]:not([disabled])"


LINES = "() => document.querySelector('#log').innerText.split('\\n')"
YOURS = LINES + ".filter((l) => l.startsWith('You ')).length"
ANTES = LINES + ".filter((l) => l.startsWith('You ante')).length"


def test_a_lost_connection_is_said_and_the_move_made_meanwhile_is_sent_when_back(
    browser: Browser, tmp_path: Path
) -> None:
    srv = ServerProcess(tmp_path / "conn.db", extra=list(UNLIMITED)).start()
    ctx = browser.new_context(**SIZES["desktop"])
    try:
        created = srv.create(
            seats=["human", "bot:random"],
            player_name="Leia",
            turn_timer=0,
            options={"game_end": "hands:5"},
        )
        page = _open_seated(ctx, srv, created)
        page.wait_for_selector(MY_TURN, timeout=30_000)
        before = page.evaluate(YOURS)  # the log's lines of your own moves
        antes = page.evaluate(ANTES)
        srv.kill()  # the server is gone: no goodbye on the socket
        page.wait_for_selector("#conn-lost", timeout=15_000)
        assert "Connection lost, reconnecting" in page.inner_text("#conn-lost")
        _play_passively(page)  # a move while offline: kept, and said to be kept
        page.wait_for_function(
            "() => document.querySelector('#conn-lost')?.innerText.includes('will be sent')",
            timeout=5_000,
        )
        assert not srv.alive()
        srv.start()  # the same port and database: the table is recovered where it was
        page.wait_for_selector("#conn-lost", state="detached", timeout=20_000)
        # the kept move was sent: the table played it (its line is in the log)
        page.wait_for_function(f"() => ({YOURS})() > {before}", timeout=15_000)
        assert page.evaluate(ANTES) == antes  # (not the hand told again after reconnecting)
    finally:
        ctx.close()
        srv.stop()


def test_the_next_hands_first_turn_has_no_overlay_and_no_stale_chips(
    browser: Browser, tmp_path: Path
) -> None:
    # (the desktop size: the overlay and the chips are drawn by the same code on a phone)
    srv = ServerProcess(tmp_path / "next.db", extra=list(UNLIMITED)).start()
    checked = card_turns = 0
    deadline = time.monotonic() + 120
    try:
        # A random bot may go all in and end a game at once: a new table then, until both
        # moments were seen twice.
        while (checked < 2 or card_turns < 2) and time.monotonic() < deadline:
            created = srv.create(
                seats=["human", "bot:random"],
                player_name="Leia",
                turn_timer=0,
                options={"game_end": "hands:8"},
            )
            ctx = browser.new_context(**SIZES["desktop"])
            try:
                page = _open_seated(ctx, srv, created)
                errors = _errors(page)
                got = _watch_next_hands(page, deadline)
                checked, card_turns = checked + got[0], card_turns + got[1]
                assert not errors, errors
            finally:
                ctx.close()
        assert checked, "no later hand began on this seat's turn"
        assert card_turns, "no card phase came after a bet"
    finally:
        srv.stop()


def _watch_next_hands(page: Page, deadline: float) -> tuple[int, int]:
    """Play one game: bet the smallest bet when possible, else passively (calls included).
    Asserts at the first turn of each later hand, and at each card phase after a bet, that
    no overlay or bet chip is left; returns how many of each were seen."""
    hand = lambda: int(  # noqa: E731 - the number the centre title shows
        page.evaluate(
            "() => (document.querySelector('.felt .center-title')?.innerText"
            ".match(/\\d+/) || ['0'])[0]"
        )
    )
    checked = card_turns = seen_hand = 0
    bet_made = False
    while time.monotonic() < deadline:
        try:
            page.wait_for_selector(MY_TURN, timeout=5_000)
        except PlaywrightError:
            if page.query_selector(".game-over"):
                break
            continue
        now = hand()
        if now > 1 and now != seen_hand:  # the first turn of a later hand
            seen_hand = now
            assert page.query_selector("#showdown") is None, "the overlay covers the felt"
            chips = page.query_selector_all(".felt .bet-chip")
            assert not chips, [c.inner_text() for c in chips]
            checked += 1
        if page.query_selector('#actions button[data-action="stand"]') and bet_made:
            # a card phase after a betting round: its chips are in the pot, not at a seat
            chips = page.query_selector_all(".felt .bet-chip")
            assert not chips, [c.inner_text() for c in chips]
            card_turns += 1
        bet = page.query_selector('#size-go[data-kind="bet"]:not([disabled])')
        if bet is not None:
            bet.click()
            bet_made = True
        else:
            _play_passively(page)
        time.sleep(0.15)
    return checked, card_turns


def test_reduced_motion_is_honoured(browser: Browser, tmp_path: Path) -> None:
    """With the system asking for less motion no chip flies, and nothing animates for longer
    than an instant; without it, chips fly (so the check is not vacuous)."""
    srv = ServerProcess(tmp_path / "motion.db", extra=list(UNLIMITED)).start()
    watch = """() => { window.__flown = 0; window.__slow = [];
        new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes)
          if (n.classList?.contains('flying-chip')) window.__flown++; })
          .observe(document.body, {childList: true, subtree: true});
        setInterval(() => { for (const e of document.querySelectorAll('*')) {
          const s = getComputedStyle(e);
          const d = Math.max(...s.animationDuration.split(',').map(parseFloat),
                             ...s.transitionDuration.split(',').map(parseFloat));
          if (d > 0.01 && s.animationName !== 'none') window.__slow.push(e.className); } }, 100);
      }"""
    flown: dict[str, int] = {}
    try:
        for motion in ("reduce", "no-preference"):
            created = srv.create(
                seats=["human", "bot:random"],
                player_name="Leia",
                turn_timer=0,
                options={"game_end": "hands:2"},
            )
            ctx = browser.new_context(**SIZES["desktop"], reduced_motion=motion)
            try:
                page = _open_seated(ctx, srv, created)
                page.wait_for_selector(MY_TURN, timeout=30_000)
                page.evaluate(watch)
                for _ in range(12):
                    if page.query_selector(".game-over"):
                        break
                    try:
                        page.wait_for_selector(MY_TURN, timeout=5_000)
                    except Exception:
                        continue
                    _play_passively(page)
                    time.sleep(0.3)
                flown[motion] = int(page.evaluate("() => window.__flown"))
                if motion == "reduce":
                    assert page.evaluate("() => window.__slow") == []
            finally:
                ctx.close()
        assert flown["reduce"] == 0, flown
        assert flown["no-preference"] > 0, flown
    finally:
        srv.stop()
