"""Issue 31 S12: limits on friends and invitations. One account may follow so many accounts
(``--friends-max``), add so many friends an hour (``--friend-adds-per-hour``) and have so many
invitations pending (``--invites-pending``); past each, a clear error and nothing changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.apps.server.test_community import Browser


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[ServerProcess]:
    flags = ["--friends-max", "3", "--friend-adds-per-hour", "4", "--invites-pending", "2"]
    s = ServerProcess(tmp_path / "social.db", extra=[*UNLIMITED, *flags]).start()
    yield s
    s.stop()


def test_friends_total_and_friend_requests_per_hour_are_limited(srv: ServerProcess) -> None:
    me = Browser(srv)
    assert me.signup("popular").status_code == 201
    others = [f"pal_{i}" for i in range(5)]
    for name in others:
        assert Browser(srv).signup(name).status_code == 201
    for name in others[:3]:
        r = me.post("/api/friends", {"username": name})
        assert r.status_code == 200 and r.json()["added"] is True, r.text
    full = me.post("/api/friends", {"username": others[3]})
    assert full.status_code == 409, full.text
    assert full.json()["error"]["code"] == "too_many_friends"
    assert len(me.http.get("/api/friends").json()["friends"]) == 3  # nothing added
    # Removing one makes room; the hour's additions run out next (4 an hour).
    assert me.post("/api/friends/remove", {"username": others[0]}).status_code == 200
    assert me.post("/api/friends", {"username": others[3]}).status_code == 200
    assert me.post("/api/friends/remove", {"username": others[1]}).status_code == 200
    fast = me.post("/api/friends", {"username": others[4]})
    assert fast.status_code == 429, fast.text
    assert fast.json()["error"]["code"] == "too_many_friend_requests"
    names = {f["username"] for f in me.http.get("/api/friends").json()["friends"]}
    assert names == {others[2], others[3]}


def test_pending_invitations_are_limited(srv: ServerProcess) -> None:
    host = Browser(srv)
    assert host.signup("inviter").status_code == 201
    guests = [f"guest_{i}" for i in range(3)]
    browsers = {name: Browser(srv) for name in guests}
    for name, b in browsers.items():
        assert b.signup(name).status_code == 201
    made = host.create(seats=["human", "human", "human"], player_name="x")
    for name in guests[:2]:
        r = host.post(f"/api/tables/{made['code']}/invite", {"username": name})
        assert r.status_code == 200, r.text
    third = host.post(f"/api/tables/{made['code']}/invite", {"username": guests[2]})
    assert third.status_code == 429, third.text
    assert third.json()["error"]["code"] == "too_many_invites"
    assert browsers[guests[2]].http.get("/api/me").json()["invites"] == []
    assert len(browsers[guests[0]].http.get("/api/me").json()["invites"]) == 1
