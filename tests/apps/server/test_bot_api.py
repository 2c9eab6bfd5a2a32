"""The API for programs (issue 38) on a real server on loopback, SQLite and PostgreSQL:
personal API tokens (made, listed, revoked; scopes; per-token limits), bot accounts, and two
bots playing a rated game through the client and ``sabacc bot connect``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest

from sabacc.apps.client import ApiError, BotRunner, Client, legal_actions
from sabacc.apps.commands.bot import bot_factory
from sabacc.core.actions import Action
from sabacc.engine.observation import Observation
from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.apps.server.test_community import SHARED, Browser

QUICK = {"game_end": "hands:1"}


class Cautious:
    """A user's own bot, as ``sabacc bot connect --bot MODULE:CLASS`` loads it: it checks,
    calls or stands when it can, else takes the first legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "cautious"
        self.seed = seed

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        for kind in ("check", "call", "stand"):
            for action in legal:
                if str(action) == kind:
                    return action
        return legal[0]


@pytest.fixture
def site(db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(
        tmp_path / "site.db",
        db_url=db_url,
        extra=[*UNLIMITED, *SHARED, "--leaderboard-min-games", "1", "--signups-per-hour", "0"],
    ).start()
    yield srv
    srv.stop()


def account(site: ServerProcess, name: str, *scopes: str) -> tuple[Browser, str]:
    """A signed-up account's browser and a new token of it with ``scopes``."""
    browser = Browser(site)
    assert browser.signup(name).status_code == 201
    r = browser.post("/api/account/tokens", {"name": f"{name} token", "scopes": list(scopes)})
    assert r.status_code == 201, r.text
    return browser, str(r.json()["token"])


def test_tokens_are_shown_once_listed_and_revoked_at_once(site: ServerProcess) -> None:
    ann, token = account(site, "ann", "read")
    assert token.startswith("sbc_") and len(token) > 40
    listed = ann.http.get("/api/account/tokens").json()["tokens"]
    assert [(t["name"], t["scopes"]) for t in listed] == [("ann token", ["read"])]
    assert token not in str(listed) and listed[0]["prefix"] == token[:8]
    client = Client(site.base, token)
    assert client.whoami() == {
        "username": "ann", "url": "/u/ann", "bot": False, "scopes": ["read"],
    }  # fmt: skip
    # the token manages nothing: making tokens needs the session and its CSRF token
    r = httpx.post(
        f"{site.base}/api/account/tokens",
        json={"name": "x", "scopes": ["bot"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code in (401, 403)
    bad = ann.post("/api/account/tokens", {"name": "x", "scopes": ["admin"]})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_scopes"
    # revoked: refused from the very next call
    r = ann.http.delete(
        f"/api/account/tokens/{listed[0]['id']}", headers={"X-CSRF-Token": ann.csrf}
    )
    assert r.status_code == 200
    with pytest.raises(ApiError) as refused:
        client.whoami()
    assert (refused.value.status, refused.value.code) == (401, "bad_token")
    assert ann.http.get("/api/account/tokens").json()["tokens"] == []
    with pytest.raises(ApiError) as forged:
        Client(site.base, "sbc_" + "A" * 43).whoami()
    assert forged.value.code == "bad_token"


def test_only_a_new_account_becomes_a_bot_and_bots_stay_off_the_people_s_board(
    site: ServerProcess,
) -> None:
    _, token = account(site, "robo", "bot")
    client = Client(site.base, token)
    assert client.become_bot()["bot"] is True
    assert client.whoami()["bot"] is True
    assert [b["username"] for b in client.bots()] == ["robo"]
    # an account that holds a seat is not new
    carl, carl_token = account(site, "carl", "bot")
    carl.create(seats=["human", "bot:easy"], player_name="carl")
    with pytest.raises(ApiError) as refused:
        Client(site.base, carl_token).become_bot()
    assert (refused.value.status, refused.value.code) == (409, "not_a_new_account")
    # a read token cannot make its account a bot
    _, read = account(site, "dora", "read")
    with pytest.raises(ApiError) as scoped:
        Client(site.base, read).become_bot()
    assert scoped.value.code == "missing_scope"


def start_game(site: ServerProcess) -> tuple[Client, Client, str, dict[str, int]]:
    """Two bot accounts, ``alpha`` and ``beta``, at one game by challenge: their clients, the
    table's code and each one's seat."""
    _, ta = account(site, "alpha", "bot")
    _, tb = account(site, "beta", "bot")
    alpha, beta = Client(site.base, ta), Client(site.base, tb)
    alpha.become_bot()
    beta.become_bot()
    ch = alpha.challenge("beta", "spike", turn_timer=60, options=QUICK)
    assert ch["status"] == "open"
    events = beta.events()
    first = next(events)
    assert first["type"] == "challenge" and first["challenge"]["id"] == ch["id"]
    accepted = beta.accept(ch["id"])
    started = next(events)
    assert started["type"] == "game_start"
    code = accepted["game"]["code"]
    seats = {
        "beta": accepted["game"]["seat"],
        "alpha": alpha.challenge_status(ch["id"])["game"]["seat"],
    }
    assert sorted(seats.values()) == [0, 1]
    return alpha, beta, code, seats


def test_scopes_and_seats_are_enforced(site: ServerProcess) -> None:
    alpha, beta, code, seats = start_game(site)
    state = next(alpha.game(code))
    to_act = state["to_act"]
    mover, waiter = (alpha, beta) if seats["alpha"] == to_act else (beta, alpha)
    version = state["version"]
    # not its turn: refused, nothing changes
    with pytest.raises(ApiError) as turn:
        waiter.move(code, "stand")
    assert turn.value.code == "not_your_turn"
    # an illegal move: a clear error, nothing changes
    with pytest.raises(ApiError) as illegal:
        mover.move(code, "bet 99999999")
    assert illegal.value.code == "illegal_action" and illegal.value.status == 400
    # another seat: refused
    other = 1 - to_act
    r = httpx.post(
        f"{site.base}/api/games/{code}/move", json={"action": "stand", "seat": other},
        headers={"Authorization": f"Bearer {mover.token}"},
    )  # fmt: skip
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
    # another table: refused
    _, tc = account(site, "gamma", "bot")
    gamma = Client(site.base, tc)
    gamma.become_bot()
    with pytest.raises(ApiError) as elsewhere:
        gamma.move(code, "stand")
    assert elsewhere.value.code == "not_seated"
    # nothing changed: the mover plays a legal move at the version it saw
    assert next(mover.game(code))["version"] == version
    legal = legal_actions(next(mover.game(code))["observation"])
    assert mover.move(code, legal[0], version)["version"] == version + 1
    with pytest.raises(ApiError) as stale:
        waiter.move(code, "stand", version)
    assert stale.value.code in ("stale", "not_your_turn")


def test_a_read_token_cannot_play(site: ServerProcess) -> None:
    ann, token = account(site, "ann", "read")
    play = ann.post("/api/account/tokens", {"name": "p", "scopes": ["play"]}).json()["token"]
    _, tb = account(site, "beta", "bot")
    Client(site.base, tb).become_bot()
    with pytest.raises(ApiError) as refused:
        Client(site.base, token).challenge("beta", "spike")
    assert (refused.value.status, refused.value.code) == (403, "missing_scope")
    made = Client(site.base, play).challenge("beta", "spike", options=QUICK)
    assert made["to"] == "beta"
    with pytest.raises(ApiError) as human:
        Client(site.base, tb).challenge("ann", "spike")
    assert human.value.code == "not_a_bot"


def test_a_flood_of_calls_is_limited_per_token(site: ServerProcess) -> None:
    _, token = account(site, "flood", "read")
    _, other = account(site, "calm", "read")
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=site.base, timeout=10) as http:
        codes = [http.get("/api/account/whoami", headers=headers).status_code for _ in range(300)]
        assert 200 in codes and 429 in codes
        assert codes[:50] == [200] * 50  # a burst is allowed
        # another token (same address: unlimited here) is not held up by the flood
        calm = http.get("/api/account/whoami", headers={"Authorization": f"Bearer {other}"})
        assert calm.status_code == 200


def test_two_bot_accounts_play_a_rated_game_through_the_client(site: ServerProcess) -> None:
    _, ta = account(site, "alpha", "bot")
    _, tb = account(site, "beta", "bot")
    alpha = Client(site.base, ta)
    alpha.become_bot()
    # beta is a built-in level, connected by the command line
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    cmd = [sys.executable, "-m", "sabacc", "bot", "connect", "--server", site.base,
           "--token", tb, "--bot", "easy", "--games", "1", "--upgrade", "--seed", "3",
           "--variants", "spike"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not any(b["username"] == "beta" for b in alpha.bots()):
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline
            time.sleep(0.2)
        runner = BotRunner(alpha, bot_factory(f"{__name__}:Cautious", 1), games=1)
        thread = threading.Thread(target=runner.run, daemon=True)
        thread.start()
        ch = alpha.challenge("beta", "spike", turn_timer=60, options=QUICK)
        out, _ = proc.communicate(timeout=120)
        thread.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out.decode(errors="replace")
    assert b"1 games played" in out and not runner.errors, runner.errors
    game = alpha.challenge_status(ch["id"])["game"]
    profile = httpx.get(f"{site.base}/api/users/alpha").json()
    assert profile["recent"][0]["rated"] is True and profile["bot"] is True
    assert httpx.get(f"{site.base}/api/users/beta").json()["bot"] is True
    board = alpha.bot_leaders("corellian_spike")["leaders"]
    assert sorted(r["username"] for r in board) == ["alpha", "beta"]
    people = httpx.get(f"{site.base}/api/leaders", params={"variant": "corellian_spike"}).json()
    assert "alpha" not in str(people)
    assert game["code"]
    log = site.log_path.read_text(errors="replace")
    assert ta not in log and tb not in log
