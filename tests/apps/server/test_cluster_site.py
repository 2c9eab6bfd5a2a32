"""One site across processes (issue 31, point 2): under ``--cluster`` quick-match tickets,
presence, invitations and the site-wide counters live in PostgreSQL, so two ``sabacc serve
--cluster`` processes behind nginx are one site. Players who reach different processes (each
browser talks to one server directly) are matched, see each other online and invite each
other; a server killed with SIGKILL and restarted loses no waiting ticket; matchers racing for
the same tickets never match one twice; the listener of the site's pushes reconnects."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from websockets.asyncio.client import connect

from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.shared_pg import Listener
from sabacc.services.store import Store
from sabacc.services.store.site import CHANNEL, SiteStore
from tests.apps.server.helpers import cluster as cluster_of
from tests.apps.server.helpers import empty_schema
from tests.apps.server.test_community import Browser


def _until_matched(browser: Browser, ticket: str, timeout: float = 20.0) -> dict[str, Any]:
    """The ticket's state once matched (long polls on the browser's server)."""
    deadline = time.monotonic() + timeout
    while True:
        st: dict[str, Any] = browser.http.get(f"/api/match/{ticket}", params={"wait": 5}).json()
        if st.get("status") != "waiting" or time.monotonic() > deadline:
            return st
        time.sleep(0.1)


def test_players_on_two_processes_meet_see_each_other_and_invite(
    tmp_path: Path, pg_url: str | None
) -> None:
    with cluster_of(tmp_path, pg_url, lease_ttl=3) as (servers, proxy):
        nora, omar = Browser(servers["a"]), Browser(servers["b"])  # one process each
        assert nora.signup("nora").status_code == 201
        assert omar.signup("omar").status_code == 201
        assert nora.post("/api/friends", {"username": "omar"}).json()["added"] is True
        assert omar.post("/api/friends", {"username": "nora"}).json()["added"] is True
        # Each is seen by its own process only, and online on the other.
        (friend,) = nora.http.get("/api/friends").json()["friends"]
        assert friend["username"] == "omar" and friend["online"] is True
        (friend,) = omar.http.get("/api/friends").json()["friends"]
        assert friend["username"] == "nora" and friend["online"] is True
        for api in (proxy, servers["a"], servers["b"]):
            assert api.get("/api/users/omar").json()["online"] is True
            assert api.get("/api/users/nora").json()["online"] is True

        # Quick match: nora waits on a (a long poll there), omar comes to b.
        body = {"variant": "spike", "seats": 2, "wait": 120}
        first = nora.post("/api/match", body).json()
        assert first["status"] == "waiting" and first["waiting"] == 1, first
        answer: dict[str, Any] = {}

        def long_poll() -> None:
            url = f"/api/match/{first['ticket']}"
            answer.update(nora.http.get(url, params={"wait": 20}).json())
            answer["at"] = time.monotonic()

        poll = threading.Thread(target=long_poll)
        poll.start()
        time.sleep(0.5)
        second = omar.post("/api/match", body).json()
        sent = time.monotonic()
        theirs = second if second["status"] != "waiting" else _until_matched(omar, second["ticket"])
        poll.join(30)
        assert answer["status"] == "matched" and theirs["status"] == "matched", (answer, theirs)
        assert answer["at"] - sent < 10  # pushed, not at the end of the 20 s wait
        code = answer["table"]["code"]
        assert theirs["table"]["code"] == code
        assert {answer["table"]["seat"], theirs["table"]["seat"]} == {0, 1}
        seats = proxy.get(f"/api/tables/{code}").json()["seats"]
        assert sorted(s["name"] for s in seats) == ["nora", "omar"]
        # Settled tickets are handed over once, on whichever process is asked.
        for api in (servers["a"], servers["b"]):
            assert api.get(f"/api/match/{first['ticket']}").status_code == 404

        # omar at the table through b: nora's friends page on a says where (a private table).
        asyncio.run(_at_table(servers["b"].ws_base, code, omar, theirs["table"]["token"], nora))
        deadline = time.monotonic() + 10
        while nora.http.get("/api/friends").json()["friends"][0]["table"] is not None:
            assert time.monotonic() < deadline, "omar left the table: no longer shown at it"
            time.sleep(0.1)

        # Invitations, each way, sent on one process and read on the other and via nginx.
        sent_by_nora = nora.post(f"/api/tables/{code}/invite", {"username": "omar"})
        assert sent_by_nora.status_code == 200, sent_by_nora.text
        (invite,) = omar.http.get("/api/me").json()["invites"]
        assert invite["by"] == "nora" and invite["code"] == code
        sent_by_omar = omar.post(f"/api/tables/{code}/invite", {"username": "nora"})
        assert sent_by_omar.status_code == 200, sent_by_omar.text
        (invite,) = nora.http.get("/api/me").json()["invites"]
        assert invite["by"] == "omar" and invite["code"] == code
        via_proxy = Browser(proxy)  # type: ignore[arg-type]
        assert via_proxy.login("omar").status_code == 200
        assert [i["by"] for i in via_proxy.http.get("/api/me").json()["invites"]] == ["nora"]


async def _at_table(ws_base: str, code: str, player: Browser, token: str, friend: Browser) -> None:
    cookie = f"sabacc_session={player.http.cookies['sabacc_session']}"
    async with connect(f"{ws_base}/ws/{code}", additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.recv()
        (seen,) = friend.http.get("/api/friends").json()["friends"]
        assert seen["online"] is True and seen["table"] == {"private": True}, seen


def test_a_server_killed_and_restarted_loses_no_waiting_ticket(
    tmp_path: Path, pg_url: str | None
) -> None:
    with cluster_of(tmp_path, pg_url, lease_ttl=3) as (servers, _proxy):
        ann = Browser(servers["a"])
        body = {"variant": "spike", "seats": 2, "wait": 120}
        ticket = ann.post("/api/match", {**body, "name": "Ann"}).json()
        assert ticket["status"] == "waiting"
        servers["a"].kill()  # SIGKILL: no shutdown code runs
        servers["a"].start()
        ann = Browser(servers["a"])
        st = ann.http.get(f"/api/match/{ticket['ticket']}").json()
        assert st["status"] == "waiting" and st["waiting"] == 1, st
        ben = Browser(servers["b"])
        other = ben.post("/api/match", {**body, "name": "Ben"}).json()
        other = other if other["status"] != "waiting" else _until_matched(ben, other["ticket"])
        mine = _until_matched(ann, ticket["ticket"])
        assert mine["status"] == other["status"] == "matched", (mine, other)
        assert mine["table"]["code"] == other["table"]["code"]


NAMES = ("lando", "han", "leia", "chewie")


def test_the_per_client_limits_count_site_wide(tmp_path: Path, pg_url: str | None) -> None:
    """Tables made, sign-ups and failed log-ins per address, friends added per account: each
    limit holds over both processes together (alternating between them gains nothing)."""
    quota = ["--tables-per-hour", "3", "--signups-per-hour", "4", "--friend-adds-per-hour", "2"]
    with cluster_of(tmp_path, pg_url, lease_ttl=3, extra=quota) as (servers, _proxy):
        one, two = Browser(servers["a"]), Browser(servers["b"])
        seats = ["human", "bot:easy"]
        assert one.post("/api/tables", {"seats": seats}).status_code == 201
        assert two.post("/api/tables", {"seats": seats}).status_code == 201
        match = {"variant": "spike", "seats": 2, "wait": 0, "name": "Ann"}
        assert one.post("/api/match", match).status_code == 201  # a table too
        for browser in (one, two):  # three tables made by this address, over both servers
            refused = browser.post("/api/tables", {"seats": seats})
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"]["code"] == "too_many_tables_created"
            assert browser.post("/api/match", match).status_code == 429
        made = [b.signup(n).status_code for b, n in zip((one, two) * 2, NAMES, strict=True)]
        assert made == [201] * 4  # sign-ups: 4 an hour from this address, over both
        assert one.signup("luke").json()["error"]["code"] == "too_many_signups"
        assert two.signup("luke").json()["error"]["code"] == "too_many_signups"
        assert one.login("lando").status_code == two.login("lando").status_code == 200
        assert one.post("/api/friends", {"username": "han"}).status_code == 200
        assert two.post("/api/friends", {"username": "leia"}).status_code == 200
        third = one.post("/api/friends", {"username": "chewie"})  # 2 an hour, over both
        assert third.json()["error"]["code"] == "too_many_friend_requests", third.text
        wrong = [
            (one if i % 2 else two).login("lando", "not the password").status_code for i in range(8)
        ]
        # --login-attempts 5 (the default) per address and name over both processes
        assert Counter(wrong) == {401: 5, 429: 3}, wrong
        assert two.login("lando").status_code == 429


@pytest.fixture
def site_store(pg_url: str | None) -> Any:
    if pg_url is None:
        pytest.skip("PostgreSQL is not available (needs psycopg and initdb)")
    empty_schema(pg_url)
    store = Store(pg_url)
    yield SiteStore(store.engine)
    store.close()


def test_matchers_racing_for_the_same_tickets_match_each_once(site_store: SiteStore) -> None:
    db = site_store
    claimed: dict[str, list[str]] = {}
    made = 0

    def matcher(name: str, start: threading.Barrier) -> None:
        start.wait()
        while (claim := db.claim_due()) is not None:
            outcomes = {}
            for group in claim.groups:
                for t in group:
                    claimed.setdefault(t.id_hash, []).append(name)
                    outcomes[t.id_hash] = ("matched", {"by": name})
            db.settle(claim, outcomes)

    for _ in range(12):
        for i in range(7):  # due at once: two queues, bots would fill the rest
            made += 1
            db.add_ticket(hash_token(f"t{made}"), "spike", 2 + (i % 2), 0.0, f"p{made}", None)
        start = threading.Barrier(2)
        threads = [threading.Thread(target=matcher, args=(n, start)) for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert db.waiting() == 0
    assert len(claimed) == made
    assert all(len(by) == 1 for by in claimed.values()), claimed
    for n in range(1, made + 1):
        polled = db.poll_ticket(hash_token(f"t{n}"))
        assert polled is not None and polled[0].status == "matched"
        assert polled[0].result is not None
        assert polled[0].result["by"] == claimed[hash_token(f"t{n}")][0]


def test_the_listener_reconnects_after_its_connection_is_cut(site_store: SiteStore) -> None:
    async def main() -> None:
        got: list[str] = []
        url = site_store.engine.url.render_as_string(hide_password=False)
        listener = Listener(url, asyncio.get_running_loop(), got.append)
        listener.start()
        try:
            await _wait_for(lambda: "listening" in got)
            with site_store.engine.begin() as conn:
                conn.execute(text("SELECT pg_notify(:c, 'one')"), {"c": CHANNEL})
            await _wait_for(lambda: "one" in got)
            with site_store.engine.begin() as conn:  # the database drops the connection
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()"
                    )
                )
            await _wait_for(lambda: got.count("listening") == 2)
            assert listener.connected
            with site_store.engine.begin() as conn:
                conn.execute(text("SELECT pg_notify(:c, 'two')"), {"c": CHANNEL})
            await _wait_for(lambda: "two" in got)
        finally:
            listener.stop()

    asyncio.run(main())


async def _wait_for(pred: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_presence_lapses_and_invitations_keep_the_newest(site_store: SiteStore) -> None:
    """An account no server has seen lately is offline (a killed server's players go offline
    when its heartbeats stop); an account keeps its newest invitations, one per table."""
    db = site_store
    with db.engine.begin() as conn:
        for name in ("nora", "omar"):
            conn.execute(
                text(
                    "INSERT INTO users (username, name_key, password_hash, created_at) "
                    "VALUES (:n, :n, 'x', now())"
                ),
                {"n": name},
            )
        rows = conn.execute(text("SELECT username, id FROM users")).all()
        ids: dict[str, int] = {str(name): int(i) for name, i in rows}
    nora, omar = ids["nora"], ids["omar"]
    db.touch([nora, omar, 999_999])  # an id with no account is not recorded
    assert db.online([nora, omar, 999_999], within=60) == {nora, omar}
    time.sleep(1.2)
    db.touch([omar])  # still connected somewhere
    assert db.online([nora, omar], within=1.0) == {omar}
    db.place({nora: {"private": True}, omar: {"code": "ABC", "name": "x", "url": "/t/ABC"}})
    assert db.places([nora, omar], within=60) == {
        nora: {"private": True}, omar: {"code": "ABC", "name": "x", "url": "/t/ABC"},
    }  # fmt: skip
    db.place({omar: None})  # left the table
    assert db.places([nora, omar], within=60) == {nora: {"private": True}}
    time.sleep(1.2)
    assert db.places([nora], within=1.0) == {}  # no heartbeat from its server since
    for i in range(5):
        db.add_invite(nora, "omar", f"T{i % 3}", f"table {i}", keep=2)
    assert db.invites(nora, ttl=60) == [("omar", "T0", "table 3"), ("omar", "T1", "table 4")]
    db.forget(nora)
    assert db.invites(nora, ttl=60) == [] and db.online([nora], within=60) == set()
