"""Issue 31 S3: an unlisted table's code is its only secret (whoever has it may watch, read
its history with the seed, and take an open seat), so no public page or API shows it: not the
player's profile, the leaderboard, the lobby, a stranger's or a friend's view."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.apps.server.test_community import QUICK, Browser, _play_out


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(
        tmp_path / "unlisted.db", extra=[*UNLIMITED, "--leaderboard-min-games", "0"]
    ).start()
    yield s
    s.stop()


def _matched(b: Browser, body: dict[str, object]) -> dict[str, object]:
    r = b.post("/api/match", body)
    assert r.status_code == 201, r.text
    st = r.json()
    deadline = time.monotonic() + 15
    while st["status"] != "matched" and time.monotonic() < deadline:
        time.sleep(0.2)
        st = b.http.get(f"/api/match/{st['ticket']}").json()
    assert st["status"] == "matched", st
    return dict(st["table"])


def test_no_public_page_or_api_shows_an_unlisted_tables_code(srv: ServerProcess) -> None:
    owner, friend, stranger = Browser(srv), Browser(srv), Browser(srv)
    assert owner.signup("hidden_han").status_code == 201
    assert friend.signup("chewie").status_code == 201
    assert friend.post("/api/friends", {"username": "hidden_han"}).status_code == 200
    made = owner.create(
        seats=["human", "bot:easy"], player_name="x", options=QUICK, turn_timer=0, listed=False
    )
    secret = made["code"]
    _play_out(srv, secret, [made["token"]])
    quick = _matched(owner, {"variant": "spike", "seats": 2, "wait": 0})
    secrets = {secret, str(quick["code"])}

    prof = srv.get("/api/users/hidden_han").json()
    assert prof["recent"], prof  # the games are there, without their codes
    public = [
        "/api/users/hidden_han", "/api/users/HIDDEN_HAN", "/u/hidden_han", "/api/leaders",
        "/api/leaders?variant=spike", "/api/tables", "/healthz", "/api/variants", "/",
    ]  # fmt: skip
    seen: dict[str, str] = {path: srv.get(path).text for path in public}
    seen["stranger /api/me"] = stranger.http.get("/api/me").text
    seen["friend /api/friends"] = friend.http.get("/api/friends").text
    seen["friend /api/users"] = friend.http.get("/api/users/hidden_han").text
    for where, text in seen.items():
        for code in secrets:
            assert code not in text, f"{where} shows the unlisted table {code}"
    # The owner's own seat still reaches the table (the token is theirs).
    assert srv.get(f"/api/tables/{secret}").status_code == 200
