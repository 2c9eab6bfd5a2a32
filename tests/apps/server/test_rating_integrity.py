"""Issue 31 S5: rating integrity. A game counts for ratings only between accounts the server
cannot link: two accounts that took their seats from one address or one browser (device) do
not move each other's ratings, and one pair of accounts gets at most ``--rating-pair-games``
rated games together a day. Their games still count in their stats."""

from __future__ import annotations

from pathlib import Path

from tests.apps.server.helpers import UNLIMITED, ServerProcess
from tests.apps.server.test_community import Browser, _two_player_game


def _farm(srv: ServerProcess, a: Browser, b: Browser, games: int) -> None:
    for _ in range(games):
        _two_player_game(srv, a, b)


def test_two_accounts_from_one_address_do_not_climb_the_leaderboard(tmp_path: Path) -> None:
    srv = ServerProcess(
        tmp_path / "farm.db", extra=[*UNLIMITED, "--leaderboard-min-games", "1"]
    ).start()
    try:
        a, b = Browser(srv), Browser(srv)  # two browsers, one address (127.0.0.1)
        assert a.signup("farmer").status_code == 201
        assert b.signup("farmhand").status_code == 201
        _farm(srv, a, b, 8)
        assert srv.get("/api/leaders").json()["leaders"] == []
        for name in ("farmer", "farmhand"):
            prof = srv.get(f"/api/users/{name}").json()
            (row,) = prof["variants"]
            assert row["games"] == 8 and row["rating"] is None  # stats kept, no rating
            assert not any(g["rated"] for g in prof["recent"])
    finally:
        srv.stop()


def test_one_browser_or_one_pair_again_and_again_is_not_rated(tmp_path: Path) -> None:
    # Every test client shares 127.0.0.1: declared shared (a NAT), the address links nobody.
    srv = ServerProcess(
        tmp_path / "pair.db",
        extra=[
            *UNLIMITED, "--leaderboard-min-games", "1", "--shared-addresses", "127.0.0.1/32",
            "--rating-pair-games", "2",
        ],
    ).start()  # fmt: skip
    try:
        one = Browser(srv)
        assert one.signup("twin_a").status_code == 201
        other = Browser(srv)
        other.http.cookies.set("sabacc_csrf", one.csrf)  # the same browser: one device
        other.csrf = one.csrf
        assert other.signup("twin_b").status_code == 201
        _farm(srv, one, other, 2)
        assert srv.get("/api/leaders").json()["leaders"] == []
        # Two browsers: rated, but only twice a day for one pair.
        c, d = Browser(srv), Browser(srv)
        assert c.signup("pair_c").status_code == 201
        assert d.signup("pair_d").status_code == 201
        _farm(srv, c, d, 4)
        prof = srv.get("/api/users/pair_c").json()
        (row,) = prof["variants"]
        assert row["games"] == 4 and row["rating"]["games"] == 2
        assert sum(g["rated"] for g in prof["recent"]) == 2
        board = {r["username"] for r in srv.get("/api/leaders").json()["leaders"]}
        assert board == {"pair_c", "pair_d"}
    finally:
        srv.stop()
