"""The community layer on a real server on loopback, SQLite and PostgreSQL: accounts, sessions,
CSRF, profiles, ratings, leaderboards, friends, invitations and quick match."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, text
from websockets.asyncio.client import connect

from sabacc.services.store import normalise_url
from sabacc.services.store.models import GameRow, PlayerGameRow, SeatRow, UserRow, utcnow
from tests.apps.server.helpers import UNLIMITED, Client, ServerProcess, play

PASSWORD = "correct horse battery"
QUICK = {"game_end": "hands:1"}
#: Every test client shares 127.0.0.1: declared a shared address (a NAT), it links no accounts
#: for ratings, so two test browsers are two people (apps/server/integrity.py).
SHARED = ("--shared-addresses", "127.0.0.1/32")


class Browser:
    """One browser: its cookies (session, CSRF) kept between requests, as a page's are."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=20)
        self.csrf = self.http.get("/api/me").json()["csrf"]

    def me(self) -> dict[str, Any] | None:
        user: dict[str, Any] | None = self.http.get("/api/me").json()["user"]
        return user

    def post(self, path: str, body: dict[str, Any], csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf else {}
        return self.http.post(path, json=body, headers=headers)

    def signup(self, username: str, password: str = PASSWORD, **more: Any) -> httpx.Response:
        return self.post(
            "/api/account/signup", {"username": username, "password": password, **more}
        )

    def login(self, username: str, password: str = PASSWORD, **more: Any) -> httpx.Response:
        body = {"username": username, "password": password, **more}
        return self.post("/api/account/login", body)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/tables", body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def join(self, code: str, name: str = "guest") -> dict[str, Any]:
        r = self.post(f"/api/tables/{code}/join", {"name": name})
        assert r.status_code == 200, r.text
        return dict(r.json())


@pytest.fixture
def site(db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(
        tmp_path / "site.db",
        db_url=db_url,
        # The TLS test plays the proxy on loopback: trust it (its X-Forwarded-Proto).
        extra=[
            *UNLIMITED,
            *SHARED,
            "--leaderboard-min-games",
            "1",
            "--login-attempts",
            "3",
            "--trusted-proxy",
            "127.0.0.1",
        ],
    ).start()
    yield srv
    srv.stop()


def _db(url: str) -> Any:
    return create_engine(normalise_url(url))


def test_sign_up_log_in_log_out_and_the_cookies(site: ServerProcess) -> None:
    b = Browser(site)
    assert b.me() is None
    r = b.signup("Alice_1")
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"]
    assert "sabacc_session=" in cookie
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert b.me() == {"username": "Alice_1", "url": "/u/Alice_1"}
    assert b.post("/api/account/logout", {}).status_code == 200
    assert b.me() is None
    # Usernames are compared without case at log-in too.
    assert b.login("alice_1").status_code == 200
    assert b.me() is not None
    # The password is never stored in clear: only an argon2id hash.
    engine = _db(site.db_url)
    with engine.connect() as conn:
        stored = conn.execute(select(UserRow.password_hash)).scalar_one()
        assert stored.startswith("$argon2id$") and PASSWORD not in stored
        dump = " ".join(str(v) for row in conn.execute(text("SELECT * FROM users")) for v in row)
        assert PASSWORD not in dump
    engine.dispose()
    assert PASSWORD not in site.log_path.read_text()


def test_bad_input_gets_a_clear_error_and_changes_nothing(site: ServerProcess) -> None:
    b = Browser(site)
    assert b.signup("Bobby").status_code == 201
    other = Browser(site)
    cases = [
        (other.signup("BOBBY"), 409, "username_taken"),
        (other.signup("carol", "short"), 400, "weak_password"),
        (other.signup("carol", "aaaaaaaaaaaa"), 400, "weak_password"),
        (other.signup("x" * 21), 400, "bad_username"),
        (other.signup("no spaces"), 400, "bad_username"),
        (other.signup("R2-D2"), 400, "reserved_username"),
        (other.signup("r2d2"), 400, "reserved_username"),
        (other.signup("Admin"), 400, "reserved_username"),
        (other.signup("hard"), 400, "reserved_username"),
        (other.signup("carol", "p" * 2000), 422, "bad_request"),
        (other.signup("y" * 100), 422, "bad_request"),
        (other.post("/api/account/signup", {"username": "carol", "password": PASSWORD},
                    csrf=False), 403, "csrf"),
    ]  # fmt: skip
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code
        assert response.json()["error"]["message"]
    # A form posted from another site has neither the header nor the right token.
    forged = other.http.post(
        "/api/account/signup",
        json={"username": "carol", "password": PASSWORD},
        headers={"X-CSRF-Token": "not-the-cookie"},
    )
    assert forged.status_code == 403
    assert other.me() is None
    engine = _db(site.db_url)
    with engine.connect() as conn:
        assert [u for (u,) in conn.execute(select(UserRow.username))] == ["Bobby"]
    engine.dispose()
    # The minimum is stated for the sign-up page.
    assert other.http.get("/api/me").json()["rules"]["password_min"] == 10


def test_forged_and_expired_sessions_are_a_guest(site: ServerProcess) -> None:
    b = Browser(site)
    assert b.signup("dora").status_code == 201
    forged = httpx.Client(base_url=site.base, cookies={"sabacc_session": "forged-token"})
    assert forged.get("/api/me").json()["user"] is None
    assert forged.get("/api/friends").status_code == 401
    # Expire every session in the database: the cookie no longer logs anyone in.
    engine = _db(site.db_url)
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE sessions SET expires_at = :t"), {"t": utcnow() - timedelta(minutes=1)}
        )
    assert b.me() is None
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM sessions")).scalar_one() == 0
    engine.dispose()


def test_log_ins_are_rate_limited(site: ServerProcess) -> None:
    b = Browser(site)
    assert b.signup("erin1").status_code == 201
    other = Browser(site)
    for _ in range(3):
        assert other.login("erin1", "wrong password!").status_code == 401
    refused = other.login("erin1")  # the right password, but too many failures first
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_attempts"
    assert other.me() is None
    assert other.login("someone_else", "wrong password!").status_code == 401  # another name


def test_change_password_logs_out_elsewhere(site: ServerProcess) -> None:
    a, elsewhere = Browser(site), Browser(site)
    assert a.signup("frank").status_code == 201
    assert elsewhere.login("frank").status_code == 200
    bad = a.post("/api/account/password", {"current": "not it at all", "new": "new password 1"})
    assert bad.status_code == 403
    weak = a.post("/api/account/password", {"current": PASSWORD, "new": "short"})
    assert weak.json()["error"]["code"] == "weak_password"
    ok = a.post("/api/account/password", {"current": PASSWORD, "new": "new password 1"})
    assert ok.status_code == 200, ok.text
    assert a.me() is not None
    assert elsewhere.me() is None
    assert Browser(site).login("frank").status_code == 401
    assert Browser(site).login("frank", "new password 1").status_code == 200


def _play_out(site: ServerProcess, code: str, tokens: list[str], seed: int = 1) -> None:
    async def main() -> None:
        clients = [Client(site, code, t) for t in tokens]
        for c in clients:
            await c.open()
        await play(clients, random.Random(seed), timeout=60)
        for c in clients:
            await c.close()

    asyncio.run(main())


def _two_player_game(
    site: ServerProcess, host: Browser, guest: Browser, seats: list[str] | None = None
) -> tuple[str, list[str]]:
    made = host.create(
        seats=seats or ["human", "human", "bot:easy"], player_name="Hana", options=QUICK,
        turn_timer=0,
    )  # fmt: skip
    joined = guest.join(made["code"], "guest")
    _play_out(site, made["code"], [made["token"], joined["token"]])
    return made["code"], [made["token"], joined["token"]]


def test_a_guest_who_signs_up_keeps_the_games_of_that_browser(site: ServerProcess) -> None:
    host, guest = Browser(site), Browser(site)
    code, tokens = _two_player_game(site, host, guest)
    # The guest signs up, handing over the seat tokens its browser kept.
    r = guest.signup("gina", tokens=[tokens[1]])
    assert r.status_code == 201 and r.json()["claimed"] == 1
    prof = site.get("/api/users/GINA").json()
    assert prof["username"] == "gina"
    (spike,) = prof["variants"]
    assert spike["games"] == 1 and spike["hands"] >= 1
    assert spike["rating"] is None  # one account at the table: not rated
    (recent,) = prof["recent"]
    assert recent["table"] == code and recent["url"] == f"/t/{code}?game=1"
    # The viewer has that game.
    assert site.get(f"/api/tables/{code}/games/1/history").status_code == 200
    # Someone else's token does not count twice: the host's was never claimed by gina.
    assert host.signup("henry", tokens=[tokens[1]]).json()["claimed"] == 0


def test_rated_games_profiles_and_the_leaderboard(site: ServerProcess) -> None:
    a, b = Browser(site), Browser(site)
    assert a.signup("ivan").status_code == 201
    assert b.signup("judy").status_code == 201
    for seed in range(2):
        made = a.create(
            seats=["human", "human", "bot:easy"], player_name="x", options=QUICK, turn_timer=0
        )
        joined = b.join(made["code"])
        assert joined["seat"] == 1
        table = site.get(f"/api/tables/{made['code']}").json()
        names = [s["name"] for s in table["seats"]]
        assert names[:2] == ["ivan", "judy"]  # logged-in players sit under their usernames
        _play_out(site, made["code"], [made["token"], joined["token"]], seed)
    ivan = site.get("/api/users/ivan").json()
    judy = site.get("/api/users/judy").json()
    for prof in (ivan, judy):
        (row,) = prof["variants"]
        assert row["games"] == 2
        assert row["rating"]["games"] == 2
        assert 0.0 <= row["win_rate"] <= 1.0
        assert row["sabacc_pots"] >= 0
        assert len(prof["recent"]) == 2 and all(g["rated"] for g in prof["recent"])
    # Net credits of the two add up with the bot's to zero (a zero-sum game).
    engine = _db(site.db_url)
    with engine.connect() as conn:
        games = conn.execute(select(GameRow.result)).scalars().all()
        bot_net = sum(int(g["payoffs"][2]) for g in games if g)
        human_rows = conn.execute(select(PlayerGameRow.net)).scalars().all()
        assert sum(human_rows) + bot_net == 0
    engine.dispose()
    board = site.get("/api/leaders?variant=spike").json()
    assert board["variant"] == "corellian_spike" and board["min_games"] == 1
    assert {row["username"] for row in board["leaders"]} == {"ivan", "judy"}
    ratings = [row["rating"] for row in board["leaders"]]
    assert ratings == sorted(ratings, reverse=True)
    assert {bot["bot"] for bot in board["bots"]} >= {"easy", "normal", "hard"}
    assert site.get("/api/leaders?variant=nope").status_code == 400
    # Page routes are served (the client draws them).
    for page in ("/u/ivan", "/leaders", "/signup", "/login", "/account"):
        assert site.get(page).status_code == 200


def test_a_guest_cannot_sit_under_an_accounts_name(site: ServerProcess) -> None:
    a = Browser(site)
    assert a.signup("Rey_99").status_code == 201
    made = a.create(seats=["human", "human", "bot:easy"], player_name="x")
    guest = Browser(site)
    for name in ("rey_99", "REY_99"):
        r = guest.post(f"/api/tables/{made['code']}/join", {"name": name})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    r = guest.post("/api/tables", {"seats": ["human", "bot:easy"], "player_name": "Rey_99"})
    assert r.json()["error"]["code"] == "name_taken"
    assert site.get(f"/api/tables/{made['code']}").json()["seats"][1]["taken"] is False
    assert guest.join(made["code"], "Rey")["seat"] == 1


def test_games_with_one_account_or_only_bots_do_not_count(site: ServerProcess) -> None:
    a = Browser(site)
    assert a.signup("karl").status_code == 201
    guest = Browser(site)
    _two_player_game(site, a, guest)
    (row,) = site.get("/api/users/karl").json()["variants"]
    assert row["games"] == 1 and row["rating"] is None
    assert site.get("/api/leaders").json()["leaders"] == []


def test_delete_account_keeps_games_under_a_neutral_name(site: ServerProcess) -> None:
    a, b = Browser(site), Browser(site)
    assert a.signup("liam").status_code == 201
    assert b.signup("mona").status_code == 201
    code, _ = _two_player_game(site, a, b)
    wrong = a.post("/api/account/delete", {"password": "not my password"})
    assert wrong.status_code == 403
    assert site.get("/api/users/liam").status_code == 200
    assert a.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    assert a.me() is None
    assert site.get("/api/users/liam").status_code == 404
    history = site.get(f"/api/tables/{code}/games/1/history").json()
    assert "liam" not in str(history)
    assert "deleted player" in str(history)
    table = site.get(f"/api/tables/{code}").json()
    assert table["seats"][0]["name"] == "deleted player"
    # mona's stats keep the game; the name can be taken again.
    assert site.get("/api/users/mona").json()["variants"][0]["games"] == 1
    engine = _db(site.db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM sessions")).scalar_one() == 1  # mona's
        assert conn.execute(select(SeatRow.name).where(SeatRow.name == "liam")).all() == []
    engine.dispose()
    assert Browser(site).signup("liam").status_code == 201


def test_friends_presence_and_invitations(site: ServerProcess) -> None:
    a, b = Browser(site), Browser(site)
    assert a.signup("nora").status_code == 201
    assert b.signup("omar").status_code == 201
    assert a.post("/api/friends", {"username": "OMAR"}).json()["added"] is True
    assert a.post("/api/friends", {"username": "nobody_here"}).status_code == 404
    assert a.post("/api/friends", {"username": "nora"}).status_code == 400
    assert a.post("/api/friends", {"username": "omar"}, csrf=False).status_code == 403
    made = b.create(seats=["human", "human", "bot:easy"], player_name="x", listed=True)

    async def main() -> None:
        # omar's page socket carries his session cookie: he is seen at that table.
        cookie = f"sabacc_session={b.http.cookies['sabacc_session']}"
        async with connect(
            f"{site.ws_base}/ws/{made['code']}", additional_headers={"Cookie": cookie}
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            await ws.recv()
            (friend,) = a.http.get("/api/friends").json()["friends"]
            assert friend["username"] == "omar" and friend["online"] is True
            assert friend["table"]["code"] == made["code"]
        await asyncio.sleep(0.3)
        (friend,) = a.http.get("/api/friends").json()["friends"]
        assert friend["table"] is None

    asyncio.run(main())
    # An invitation from a player seated there.
    refused = a.post(f"/api/tables/{made['code']}/invite", {"username": "omar"})
    assert refused.status_code == 403  # nora does not sit at omar's table
    sent = b.post(f"/api/tables/{made['code']}/invite", {"username": "nora"})
    assert sent.status_code == 200, sent.text
    invites = a.http.get("/api/me").json()["invites"]
    assert invites == [
        {"by": "omar", "code": made["code"], "table": invites[0]["table"],
         "url": f"/t/{made['code']}"}
    ]  # fmt: skip


def test_quick_match_seats_waiting_people_together_or_with_bots(site: ServerProcess) -> None:
    a, b = Browser(site), Browser(site)
    first = a.post("/api/match", {"variant": "spike", "seats": 2, "wait": 60, "name": "Ann"})
    assert first.status_code == 201, first.text
    assert first.json()["status"] == "waiting"
    second = b.post("/api/match", {"variant": "spike", "seats": 2, "wait": 60, "name": "Ben"})
    seated = []
    for ticket in (first.json()["ticket"], second.json()["ticket"]):
        deadline = time.monotonic() + 10
        while True:
            st = a.http.get(f"/api/match/{ticket}").json()
            if st["status"] == "matched" or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert st["status"] == "matched", st
        seated.append(st["table"])
    assert seated[0]["code"] == seated[1]["code"]
    assert {s["seat"] for s in seated} == {0, 1}
    table = site.get(f"/api/tables/{seated[0]['code']}").json()
    assert [s["name"] for s in table["seats"]] == ["Ann", "Ben"]
    # Alone, with no wait: bots fill the other seats at once.
    alone = a.post("/api/match", {"variant": "kessel", "seats": 3, "wait": 0, "name": "Cy"})
    ticket = alone.json()["ticket"]
    deadline = time.monotonic() + 10
    st = alone.json()
    while st["status"] != "matched" and time.monotonic() < deadline:
        time.sleep(0.2)
        st = a.http.get(f"/api/match/{ticket}").json()
    assert st["status"] == "matched"
    seats = site.get(f"/api/tables/{st['table']['code']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
    bad = a.post("/api/match", {"variant": "spike", "seats": 2, "wait": 7, "name": "Ann"})
    assert bad.json()["error"]["code"] == "bad_wait"
    assert a.post("/api/match", {"variant": "spike", "seats": 9}).status_code == 422


def test_session_cookies_are_secure_behind_a_tls_proxy(site: ServerProcess) -> None:
    """The proxy on loopback says the page came over https: the session cookie is Secure."""
    b = Browser(site)
    r = b.http.post(
        "/api/account/signup",
        json={"username": "tls_user", "password": PASSWORD},
        headers={"X-CSRF-Token": b.csrf, "X-Forwarded-Proto": "https"},
    )
    assert r.status_code == 201, r.text
    assert "secure" in r.headers["set-cookie"].lower()
    plain = Browser(site).signup("plain_user")
    assert "secure" not in plain.headers["set-cookie"].lower()
