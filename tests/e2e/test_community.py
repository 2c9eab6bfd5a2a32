"""Sign-up → play → profile → leaderboard in two browsers (Playwright with Debian's Chromium),
one at 1280×800 and one on a 390×844 phone. Screenshots go to artifacts/."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.apps.server.helpers import ServerProcess
from tests.apps.server.test_community import SHARED
from tests.e2e.test_browser import ARTIFACTS, _errors, _take_turn, browser

pytest.importorskip("playwright")
from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the module's fixture, shared

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(
        tmp_path_factory.mktemp("community") / "c.db",
        extra=["--leaderboard-min-games", "1", *SHARED],
    ).start()
    yield srv
    srv.stop()


def _sign_up(page: Page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.click("#nav-login")
    page.click("a[href='/signup']")
    page.wait_for_selector("#auth-form")
    assert "10" in page.inner_text("#password-rule")  # the minimum is stated
    page.fill("#auth-username", name)
    page.fill("#auth-password", "short")
    page.click("#auth-submit")
    page.wait_for_function("() => document.querySelector('#auth-error').textContent.length > 0")
    page.fill("#auth-password", PASSWORD)
    page.click("#auth-submit")
    page.wait_for_selector("#profile-name")
    assert name in page.inner_text("#nav-account")


def test_sign_up_play_profile_leaderboard(browser: Browser, site: ServerProcess) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    a, b = desk.new_page(), phone.new_page()
    errors = _errors(a), _errors(b)
    try:
        _sign_up(a, site.base, "Lando")
        _sign_up(b, site.base, "Qira")
        # Lando opens a one-hand table with a bot (the client's own API call, with its cookies
        # and CSRF header) and takes the first seat.
        made = a.evaluate(
            """async () => {
                const csrf = /sabacc_csrf=([^;]+)/.exec(document.cookie)[1];
                const r = await fetch('/api/tables', {method: 'POST',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                  body: JSON.stringify({seats: ['human', 'human', 'bot:easy'], turn_timer: 0,
                    player_name: 'x', options: {game_end: 'hands:1'}})});
                const res = await r.json();
                localStorage.setItem('sabacc:host:' + res.code, res.host_token);
                localStorage.setItem('sabacc:token:' + res.code, res.token);
                return res;
            }"""
        )
        code = made["code"]
        a.goto(f"{site.base}/t/{code}")
        a.click(".howto #howto-ok")
        b.goto(f"{site.base}/t/{code}")
        b.click(".howto #howto-ok")
        b.wait_for_selector("button[data-sit]")
        b.click("button[data-sit]")
        for page in (a, b):
            page.wait_for_selector(".my-hand .card")
        names = [s["name"] for s in site.get(f"/api/tables/{code}").json()["seats"]]
        assert names[:2] == ["Lando", "Qira"]  # seated under their usernames
        # Qira chats; Lando mutes her for himself (she still sees her line).
        b.fill("#chat-input", "hello from Qira")
        b.press("#chat-input", "Enter")
        a.wait_for_selector("#chat li:has-text('hello from Qira')")
        a.click("#chat [data-mute='Qira']")
        a.wait_for_selector("#chat li.muted-line")
        assert "hello from Qira" not in a.inner_text("#chat")
        b.wait_for_selector("#chat li:has-text('hello from Qira')")
        deadline = time.monotonic() + 60  # a loaded machine (CI) plays slower
        while site.get(f"/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the game did not finish"
            if not (_take_turn(a) or _take_turn(b)):
                time.sleep(0.05)
        # The profile counts the game, and links to its hand history.
        a.goto(f"{site.base}/u/Lando")
        a.wait_for_selector("#stats")
        stats = a.inner_text("#stats")
        assert "Corellian Spike" in stats
        a.screenshot(path=str(ARTIFACTS / "profile-desktop.png"), full_page=True)
        b.goto(f"{site.base}/u/Qira")
        b.wait_for_selector("#recent a")
        b.screenshot(path=str(ARTIFACTS / "profile-phone.png"), full_page=True)
        b.click("#recent a >> nth=0")
        b.wait_for_selector(".history-body [data-hand]")
        # The leaderboard: two accounts at one table made it a rated game.
        for page, tag in ((a, "desktop"), (b, "phone")):
            page.goto(f"{site.base}/leaders")
            page.wait_for_selector("#leaders")
            board = page.inner_text("#leaders")
            assert "Lando" in board and "Qira" in board
            page.screenshot(path=str(ARTIFACTS / f"leaders-{tag}.png"), full_page=True)
        # Japanese.
        b.click("#lang")
        b.wait_for_selector("h1:has-text('ランキング')")
        b.screenshot(path=str(ARTIFACTS / "leaders-phone-ja.png"), full_page=True)
        prof = httpx.get(f"{site.base}/api/users/lando", timeout=10).json()
        assert prof["variants"][0]["games"] == 1 and prof["variants"][0]["rating"]["games"] == 1
        assert not errors[0] and not errors[1], errors
    finally:
        desk.close()
        phone.close()
