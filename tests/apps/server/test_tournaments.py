"""Tournaments on the web server: the store (SQLite and PostgreSQL), and a real server process
running a 12-player multi-table event from registration to the results, with the director's
refusals and a kill -9 in the middle that resumes levels, tables, standings and the clock."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from sabacc.services.store import Store, TournamentStore
from tests.apps.server.helpers import UNLIMITED, ServerProcess


def test_the_store_keeps_events_registrations_and_the_log(db_url: str) -> None:
    store = Store(db_url)
    try:
        events = TournamentStore(store.engine)
        rec = events.create("ABCDEF", "Friday", {"event": {}}, 7, "h" * 64, None)
        assert rec.status == "registering" and rec.seed == 7
        ann = events.register(rec.id, "Ann", "guest", token_hash="t" * 64)
        events.register(rec.id, "Bot 1", "bot", bot="easy")
        events.unregister(rec.id, ann.id)
        assert [r.name for r in events.registrations(rec.id)] == ["Bot 1"]
        log = [({"op": "start", "players": [["a", None]]}, [{"type": "started"}])]
        events.append(rec.id, 0, log, status="running", clock=(12.5, 30.0, True))
        events.append(rec.id, 1, [({"op": "end_hand", "clock": 0.2}, [])])
        assert events.log(rec.id) == [*log, ({"op": "end_hand", "clock": 0.2}, [])]
        again = events.get("ABCDEF")
        assert again is not None
        assert (again.status, again.clock_elapsed, again.clock_added, again.clock_running) == (
            "running",
            12.5,
            30.0,
            True,
        )
        assert [e.code for e in events.events()] == ["ABCDEF"]
    finally:
        store.close()


class Player:
    """A person registered as a guest, playing the first of check / stand / the first legal
    action whenever it is their turn."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.base, self.code, self.token = base, code, token
        self.headers = {"X-Tournament-Token": token}

    def detail(self) -> dict[str, Any]:
        r = httpx.get(f"{self.base}/api/tournaments/{self.code}", headers=self.headers, timeout=10)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def turn(self) -> dict[str, Any] | None:
        """The table view if it is this player's turn."""
        you = self.detail()["you"]
        if not you or you["table"] is None:
            return None
        url = f"{self.base}/api/tournaments/{self.code}/tables/{you['table']}"
        view = httpx.get(url, headers=self.headers, timeout=10).json()
        return view if view.get("your_turn") else None

    def act(self, view: dict[str, Any]) -> None:
        legal = view["legal"]
        action = next((a for a in ("check", "stand") if a in legal), legal[0])
        r = httpx.post(
            f"{self.base}/api/tournaments/{self.code}/act",
            json={"action": action, "token": self.token},
            timeout=10,
        )
        assert r.status_code in (200, 409), r.text  # 409: the turn moved on (never the case)


def post(base: str, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    return httpx.post(f"{base}{path}", json=body, headers=headers or {}, timeout=30)


def play_until(players: list[Player], done: Any, limit: float = 240.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for p in players:
            view = p.turn()
            if view is not None:
                p.act(view)
        detail = players[0].detail()
        if done(detail):
            return detail
        time.sleep(0.05)
    raise AssertionError("the event did not get there in time")


def stalled_on_a_person(players: list[Player]) -> dict[str, Any]:
    """Wait until a person is to act and nothing else moves: the event's state is stored."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(p.turn() is not None for p in players):
            first = players[0].detail()
            time.sleep(1.0)
            second = players[0].detail()
            if first["version"] == second["version"]:
                return second
        time.sleep(0.1)
    raise AssertionError("no person's turn came")


def test_a_multi_table_event_survives_kill_9_and_ends_in_results(
    tmp_path: Path, db_url: str
) -> None:
    first = ServerProcess(tmp_path / "events.db", extra=list(UNLIMITED), db_url=db_url).start()
    second: ServerProcess | None = None
    base = first.base
    try:
        made = post(
            base,
            "/api/tournaments",
            {"template": "mtt", "table_size": 4, "level_minutes": 0.05, "turn_timer": 600},
        )
        assert made.status_code == 201, made.text
        code, director = made.json()["code"], {"X-Director-Token": made.json()["director_token"]}
        tokens = [post(base, f"/api/tournaments/{code}/register", {"name": n}).json()["token"]
                  for n in ("Ann", "Ben")]  # fmt: skip
        players = [Player(base, code, t) for t in tokens]
        # Refused for non-directors, with a clear error, and nothing changes.
        before = players[0].detail()
        for path, body in (("/director", {"action": "start"}), ("/bots", {"count": 10})):
            r = post(base, f"/api/tournaments/{code}{path}", body, {"X-Director-Token": "nope"})
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_director"
        assert players[0].detail()["registered"] == before["registered"] == 2
        assert (
            post(base, f"/api/tournaments/{code}/bots", {"count": 10}, director).status_code == 200
        )
        assert post(base, f"/api/tournaments/{code}/director", {"action": "start"}, director).json()
        # A director's move to a full table is refused and changes nothing.
        running = play_until(
            players, lambda d: d["status"] == "running" and d["clock"]["hand"] >= 1
        )
        full = running["tables"][0]
        mover = running["tables"][1]["seats"][0]["entry"]
        move = {"action": "move", "entry": mover, "table": full["table"]}
        r = post(base, f"/api/tournaments/{code}/director", move, {"X-Director-Token": "nope"})
        assert r.status_code == 403
        if len(full["seats"]) == 4:
            r = post(base, f"/api/tournaments/{code}/director", move, director)
            assert r.status_code == 409 and r.json()["error"]["code"] == "tournament_refused"
        play_until(players, lambda d: d["clock"]["hand"] >= 3)
        stalled = stalled_on_a_person(players)
        first.kill()  # SIGKILL mid-event: no shutdown code runs
        down = time.monotonic()
        time.sleep(3.0)
        second = ServerProcess(tmp_path / "events2.db", extra=list(UNLIMITED),
                               db_url=first.db_url).start()  # fmt: skip
        downtime = time.monotonic() - down
        players = [Player(second.base, code, t) for t in tokens]
        resumed = players[0].detail()
        assert resumed["clock"]["hand"] == stalled["clock"]["hand"]
        assert resumed["clock"]["level"] == stalled["clock"]["level"]
        seats = [[s["entry"] for s in t["seats"]] for t in stalled["tables"]]
        assert [[s["entry"] for s in t["seats"]] for t in resumed["tables"]] == seats
        places = [
            (r["name"], r["place"], r["points"]) for r in stalled["standings"] if r["chips"] is None
        ]
        assert [(r["name"], r["place"], r["points"]) for r in resumed["standings"]
                if r["chips"] is None] == places  # fmt: skip
        credits = sum(r["chips"] or 0 for r in stalled["standings"]) + sum(
            t["pot"] for t in stalled["tables"]
        )
        after = sum(r["chips"] or 0 for r in resumed["standings"]) + sum(
            t["pot"] for t in resumed["tables"]
        )
        assert after == credits  # pots left on a table's game settled into its stacks
        # The clock was paused while the server was down, and resumed with the time left.
        lost = stalled["clock"]["elapsed"] - resumed["clock"]["elapsed"]
        assert -1.5 <= lost <= 1.5 and downtime > 3.0
        finished = play_until(players, lambda d: d["status"] == "finished")
        assert len(finished["standings"]) == 12
        assert finished["standings"][0]["place"] == 1 and finished["standings"][0]["chips"]
        assert sorted(r["place"] for r in finished["standings"])[-1] <= 12
        results = second.get(f"/api/tournaments/{code}/results").json()
        assert results["standings"] == finished["standings"] and results["status"] == "finished"
        csv_text = second.get(f"/api/tournaments/{code}/standings.csv").text
        assert (
            csv_text.splitlines()[0].startswith("place,name,bot")
            and len(csv_text.splitlines()) == 13
        )
        assert {r["bot"] for r in results["standings"]} == {None, "easy"}  # bots disclosed
    finally:
        first.kill()
        if second is not None:
            second.stop()


def test_a_watcher_sees_a_table_a_hand_behind(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "watch.db", extra=list(UNLIMITED)).start()
    try:
        made = post(
            srv.base, "/api/tournaments", {"template": "sng", "seats": 3, "turn_timer": 600}
        )
        code = made.json()["code"]
        token = post(srv.base, f"/api/tournaments/{code}/register", {"name": "Ann"}).json()["token"]
        headers = {"X-Director-Token": made.json()["director_token"]}
        assert post(srv.base, f"/api/tournaments/{code}/bots", {}, headers).status_code == 200
        ann = Player(srv.base, code, token)
        view = None
        deadline = time.monotonic() + 30
        while view is None and time.monotonic() < deadline:
            view = ann.turn()
        assert view is not None and view["you"]["cards"]  # Ann sees her cards, live
        watched = srv.get(f"/api/tournaments/{code}/tables/{view['table']}").json()
        assert watched["delayed"] and watched["you"] is None and watched["legal"] == []
        assert all(set(s) == {"name", "bot", "stack"} for s in watched["seats"])
        assert [s["stack"] for s in watched["seats"]] == [100, 100, 100]  # before this hand
    finally:
        srv.stop()
