"""A 12-player multi-table event in browsers (Playwright with Debian's Chromium): the director
creates it from the Tournaments tab, two people register (one at 1280×800, one on a 390×844
phone), ten disclosed bots fill it, it starts from the director console, the people play at
their tables by clicking until they are out, and the event ends on the results page while the
TV page updates. Screenshots go to artifacts/ (desktop and phone, English and Japanese)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.e2e.test_browser import ARTIFACTS, _errors, browser

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page, ViewportSize
from playwright.sync_api import Error as PlaywrightError

__all__ = ["browser"]  # the module's fixture, shared

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
PASSIVE = ("check", "stand", "call", "fold")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("tournaments") / "t.db", extra=UNLIMITED).start()
    yield srv
    srv.stop()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"tournament-{name}.png"))


def register(page: Page, base: str, code: str, name: str) -> None:
    page.goto(f"{base}/e/{code}")
    page.wait_for_selector("#tour-reg")
    page.fill("#tour-reg input[name=name]", name)
    page.click("#tour-register")
    page.wait_for_function("() => document.body.innerText.includes('Withdraw')")


def play_step(page: Page, code: str) -> None:
    """What a person does now: take a passive action at their table, or go to it."""
    try:
        if "/table/" in page.url:
            buttons = page.locator("[data-act]")
            for action in PASSIVE:
                button = page.locator(f'[data-act="{action}"]')
                if button.count():
                    button.first.click(timeout=2000)
                    return
            if buttons.count():
                buttons.first.click(timeout=2000)
            elif page.locator("#tour-back-btn").count():
                page.click("#tour-back-btn", timeout=2000)
        elif page.locator("#tour-my-table").count():
            page.click("#tour-my-table", timeout=2000)
    except PlaywrightError:
        pass  # redrawn under the click: look again next time


def test_a_twelve_player_event_from_registration_to_results(
    browser: Browser, site: ServerProcess
) -> None:
    base = site.base
    desk = browser.new_context(viewport=DESKTOP)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tv_context = browser.new_context(viewport=DESKTOP)
    ann, ben, tv = desk.new_page(), phone.new_page(), tv_context.new_page()
    errors = _errors(ann) + _errors(ben)
    try:
        # The director creates the event from the Tournaments tab.
        ann.goto(base + "/")
        ann.click("#nav-tournaments")
        ann.wait_for_selector("#tour-form")
        ann.select_option("#tour-form select[name=template]", "mtt")
        ann.fill("#tour-form input[name=level_minutes]", "0.1")
        ann.fill("#tour-form input[name=table_size]", "4")
        shot(ann, "list-desktop")
        ann.click("#tour-create")
        ann.wait_for_url("**/e/*")
        code = ann.url.rstrip("/").split("/")[-1]
        register(ann, base, code, "Ann")
        register(ben, base, code, "Ben")
        shot(ben, "register-phone")
        # The director's console: ten disclosed bots, then the start.
        ann.click("#tour-console")
        ann.wait_for_selector("#dir-add-bots")
        ann.click("#dir-add-bots")
        ann.wait_for_function(
            "() => document.querySelector('#dir-status').innerText.includes('12')"
        )
        shot(ann, "console-desktop")
        ann.click("#dir-start")
        ann.wait_for_selector("#dir-pause")
        tv.goto(f"{base}/tv/{code}")
        tv.wait_for_selector("#tv-clock")
        first_meta = tv.inner_text("#tv-meta")
        shot(tv, "tv-desktop")
        ann.goto(f"{base}/e/{code}")
        ben.goto(f"{base}/e/{code}")
        ann.wait_for_selector("#tour-my-table")
        shot(ann, "event-desktop")
        shot(ben, "event-phone")
        seen_table = False
        deadline = time.monotonic() + 400
        status = ""
        while time.monotonic() < deadline:
            for page in (ann, ben):
                play_step(page, code)
                if not seen_table and page.locator("#tour-hand").count():
                    seen_table = True
                    shot(page, "table-" + ("desktop" if page is ann else "phone"))
            status = httpx.get(f"{base}/api/tournaments/{code}", timeout=10).json()["status"]
            if status == "finished":
                break
            time.sleep(0.2)
        assert status == "finished", "the event did not end in time"
        assert seen_table
        # The TV page followed the event to its end.
        tv.wait_for_function("() => document.querySelector('#tv-clock').innerText.length > 0")
        tv.wait_for_function(
            "(first) => document.querySelector('#tv-meta').innerText !== first", arg=first_meta
        )
        shot(tv, "tv-final-desktop")
        for page, name in ((ann, "desktop"), (ben, "phone")):
            page.goto(f"{base}/e/{code}")
            page.wait_for_selector("#tour-results")
            rows = page.locator(".tour-standings tbody tr")
            assert rows.count() == 12
            shot(page, f"results-{name}")
        assert "(easy)" not in ann.inner_text(".tour-standings")  # the level is its own badge
        assert ann.locator(".tour-standings .tour-bot").count() == 10  # every bot disclosed
        # Japanese.
        ben.click("#lang")
        ben.wait_for_function("() => document.body.innerText.includes('順位')")
        shot(ben, "results-phone-ja")
        assert not errors, errors
    finally:
        desk.close()
        phone.close()
        tv_context.close()
