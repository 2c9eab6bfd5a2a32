"""Delta messages (``hello`` with ``"deltas": true``): after a whole state, only what changed.

A client that follows the deltas must hold, after every message, exactly the state a client
of whole states is sent: checked here against the engine's own observations, replayed from the
stored history, for every seat and a spectator, through whole random games. A delta that does
not follow the last message (a missed or reordered one) makes the client ask for a ``sync``,
which the server answers with a whole state; a reconnection starts with a whole state; a
client that does not ask for deltas never gets one.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

import sabacc
from sabacc.services.render import events_json
from tests.apps.server.helpers import Client, ServerProcess, play, seat_table


def _replayed(server: ServerProcess, code: str, viewers: list[int | None]) -> tuple[Any, list[Any]]:
    """The finished game 1 of ``code`` replayed: the game, and each viewer's observation (as
    JSON would carry it) at every version."""
    doc = server.get(f"/api/tables/{code}/games/1/history").json()
    game = sabacc.new_game(
        doc["variant"], players=doc["players"], seed=doc["seed"], **doc["options"]
    )
    obs_at = [{v: json.loads(json.dumps(game.observation(v))) for v in viewers}]
    for entry in doc["actions"]:
        game.apply(entry["action"], seat=entry["seat"])
        obs_at.append({v: json.loads(json.dumps(game.observation(v))) for v in viewers})
    assert game.is_over
    return game, obs_at


def _game_states(client: Client) -> list[dict[str, Any]]:
    return [s for s in client.states if s["game"] is not None and s["game_no"] == 1]


@pytest.mark.parametrize("variant", ["corellian_spike", "kessel", "classic"])
def test_a_delta_follower_holds_the_whole_state_after_every_message(
    server: ServerProcess, variant: str
) -> None:
    seats = 3

    async def main() -> tuple[str, list[Client], list[Client]]:
        code, players = await seat_table(
            server,
            ["human"] * seats,
            variant=variant,
            turn_timer=0,
            options={"game_end": "hands:3"},
        )
        # every seat (and a spectator) followed by a second connection that asks for deltas
        followers = [Client(server, code, p.token, deltas=True) for p in players]
        followers.append(Client(server, code, None, deltas=True))
        watcher = Client(server, code)
        for c in [*followers, watcher]:
            await c.open()
        await play([*players, watcher, *followers], random.Random(11))
        for c in [*players, watcher, *followers]:
            await c.drain(0.3)
            await c.close()
        return code, [*players, watcher], followers

    code, whole, followers = asyncio.run(main())
    game, obs_at = _replayed(server, code, [*range(seats), None])
    for full, follower in zip(whole, followers, strict=True):
        assert not any(m["type"] == "delta" for m in full.messages), "no delta unasked"
        deltas = [m for m in follower.messages if m["type"] == "delta"]
        assert len(deltas) > 15
        assert follower.resyncs == 0
        seat = follower.welcome["seat"] if follower.welcome else None
        assert follower.welcome is not None and follower.welcome["deltas"] is True
        states = _game_states(follower)
        for state in states:
            # the rebuilt observation is exactly the engine's at that version
            assert state["game"] == obs_at[state["version"]][seat], (seat, state["version"])
            assert state["you"]["seat"] == seat
        # every event reached it once, in order, each as the seat may see it
        events = [e for s in states for e in s["events"]]
        expected = events_json(game.events, game.names, viewer=seat, variant=game.info)
        # from the start of the hand it came in (it connected once the game had begun)
        assert events[0]["type"] == "hand_started"
        assert events == expected[len(expected) - len(events) :]
        # a state the whole-state client was sent at the same version is the same state
        by_version = {s["version"]: s for s in _game_states(full)}
        same = 0
        for state in states:
            other = by_version.get(state["version"])
            if other is not None:
                assert state["game"] == other["game"]
                assert state["turn"] == other["turn"]
                assert state["you"] == other["you"]
                same += 1
        assert same > len(states) // 2
        # and at the end, the table too
        assert follower.state is not None and full.state is not None
        assert follower.state["table"]["status"] == "finished"
        for key in ("version", "game_no", "you", "turn", "game"):
            assert follower.state[key] == full.state[key], key


def test_deltas_carry_only_what_changed_and_are_smaller(server: ServerProcess) -> None:
    async def main() -> tuple[Client, Client]:
        code, players = await seat_table(
            server, ["human"] * 4, turn_timer=0, options={"game_end": "hands:2"}
        )
        follower = Client(server, code, players[1].token, deltas=True)
        await follower.open()
        await play([*players, follower], random.Random(3))
        await follower.drain(0.3)
        await follower.close()
        return players[1], follower

    full, follower = asyncio.run(main())
    deltas = [(m, r) for m, r in zip(follower.messages, follower.raw, strict=True)]
    deltas = [(m, r) for m, r in deltas if m["type"] == "delta"]
    assert deltas
    # the table's description (seats, names, options) is sent again only when it changed
    assert sum(1 for m, _ in deltas if "table" in m) < len(deltas) // 2
    # and the observation's unchanged parts are left out
    assert follower.state is not None
    parts = set(follower.state["game"])
    assert all(set(m.get("game", {})) | set(m.get("game_rows", {})) < parts for m, _ in deltas)
    assert any("seats" in m.get("game_rows", {}) for m, _ in deltas), "a seat's row alone"
    whole = [r for m, r in zip(full.messages, full.raw, strict=True) if m["type"] == "state"]
    mean_delta = sum(len(r) for _, r in deltas) / len(deltas)
    mean_state = sum(len(r) for r in whole) / len(whole)
    assert mean_delta < mean_state / 2, (mean_delta, mean_state)


class Forgetful(Client):
    """A delta follower that loses the ``drop``-th delta it is sent, as if it never came."""

    def __init__(self, *args: Any, drop: int, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.drop = drop
        self.seen = 0
        self.dropped: dict[str, Any] | None = None

    async def _follow(self, delta: dict[str, Any]) -> None:
        self.seen += 1
        if self.seen == self.drop:
            self.dropped = delta
            return
        await super()._follow(delta)


def test_a_missed_delta_leads_to_a_whole_state(server: ServerProcess) -> None:
    async def main() -> tuple[Forgetful, Client]:
        code, players = await seat_table(
            server, ["human"] * 3, turn_timer=0, options={"game_end": "hands:1"}
        )
        forgetful = Forgetful(server, code, None, deltas=True, drop=4)
        watcher = Client(server, code)
        for c in (forgetful, watcher):
            await c.open()
        await play([*players, forgetful, watcher], random.Random(8))
        for c in (forgetful, watcher):
            await c.drain(0.3)
            await c.close()
        return forgetful, watcher

    forgetful, watcher = asyncio.run(main())
    assert forgetful.dropped is not None
    assert forgetful.resyncs == 1
    # the delta after the lost one was refused, a sync asked, and a whole state came back
    after = forgetful.messages[forgetful.messages.index(forgetful.dropped) + 1 :]
    kinds = [m["type"] for m in after if m["type"] in ("state", "delta")]
    assert "state" in kinds
    # whatever was lost, the follower ends where a client of whole states ends
    assert forgetful.state is not None and watcher.state is not None
    for key in ("version", "you", "turn", "game"):
        assert forgetful.state[key] == watcher.state[key], key
    # and it read every event of the hand once the whole state brought the hand again
    whole_events = [e for s in watcher.states if s["game"] for e in s["events"]]
    last_hand = next(
        i for i in range(len(whole_events) - 1, -1, -1) if whole_events[i]["type"] == "hand_started"
    )
    again = next(m for m in after if m["type"] == "state")
    assert again["events"][0]["type"] == "hand_started"
    assert whole_events[last_hand]["text"] == again["events"][0]["text"]


class Reordering(Client):
    """A delta follower that is handed its ``hold``-th delta after the one that follows it."""

    def __init__(self, *args: Any, hold: int, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.hold = hold
        self.seen = 0
        self.held: dict[str, Any] | None = None
        self.refused: list[int] = []

    async def _follow(self, delta: dict[str, Any]) -> None:
        self.seen += 1
        if self.seen == self.hold:
            self.held = delta
            return
        before = self.resyncs
        await super()._follow(delta)
        if self.resyncs > before:
            self.refused.append(delta["v"])
        if self.held is not None and self.seen == self.hold + 1:
            held, self.held = self.held, None
            await super()._follow(held)


def test_an_out_of_order_delta_leads_to_a_whole_state(server: ServerProcess) -> None:
    async def main() -> tuple[Reordering, Client]:
        code, players = await seat_table(
            server, ["human"] * 3, turn_timer=0, options={"game_end": "hands:1"}
        )
        shuffled = Reordering(server, code, None, deltas=True, hold=5)
        watcher = Client(server, code)
        for c in (shuffled, watcher):
            await c.open()
        await play([*players, shuffled, watcher], random.Random(9))
        for c in (shuffled, watcher):
            await c.drain(0.3)
            await c.close()
        return shuffled, watcher

    shuffled, watcher = asyncio.run(main())
    # the delta that came too early was not applied: a sync was asked
    assert len(shuffled.refused) == 1 and shuffled.resyncs == 1
    assert shuffled.state is not None and watcher.state is not None
    for key in ("version", "you", "turn", "game"):
        assert shuffled.state[key] == watcher.state[key], key
    # no state it held was made of the two deltas out of order: each matches the watcher's
    by_version = {s["version"]: s["game"] for s in _game_states(watcher)}
    for state in _game_states(shuffled):
        if state["version"] in by_version:
            assert state["game"] == by_version[state["version"]]


def test_reconnecting_starts_with_a_whole_state_then_deltas(server: ServerProcess) -> None:
    async def main() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        code, players = await seat_table(server, ["human"] * 2, turn_timer=0)
        me = Client(server, code, players[0].token, deltas=True)
        await me.open()
        await play([*players, me], random.Random(4), until=lambda s: s and s["version"] >= 4)
        await me.close()
        for p in players:
            await p.drain(0.1)
        again = Client(server, code, players[0].token, deltas=True)
        await again.open()
        first = again.state
        assert first is not None
        await play([*players, again], random.Random(5), until=lambda s: s and s["version"] >= 8)
        await again.drain(0.2)
        await again.close()
        return again.messages, first

    messages, first = asyncio.run(main())
    kinds = [m["type"] for m in messages if m["type"] in ("state", "delta")]
    assert kinds[0] == "state" and first["v"] == 1
    assert first["events"][0]["type"] == "hand_started"  # the current hand, told again
    assert "delta" in kinds[1:]


def test_every_delta_line_is_in_every_language(server: ServerProcess) -> None:
    """A client switches language without asking the server: every line it is sent, in a
    delta as in a state, is there in English and in Japanese, as the whole state has it."""

    async def main() -> tuple[Client, Client]:
        code, players = await seat_table(
            server, ["human"] * 3, turn_timer=0, options={"game_end": "hands:1"}
        )
        follower = Client(server, code, players[2].token, deltas=True)
        await follower.open()
        await play([*players, follower], random.Random(6))
        for c in [players[2], follower]:
            await c.drain(0.3)
        await follower.close()
        return players[2], follower

    full, follower = asyncio.run(main())
    lines = [
        e["text"] for m in follower.messages if m["type"] == "delta" for e in m.get("events", [])
    ]
    assert lines and all(set(t) == {"en", "ja"} for t in lines)
    said = [t for t in lines if t["en"] is not None]
    assert said and all(isinstance(t["ja"], str) and t["ja"] for t in said)
    full_lines = [e["text"] for s in _game_states(full) for e in s["events"]]
    rebuilt = [e["text"] for s in _game_states(follower) for e in s["events"]]
    assert rebuilt == full_lines[len(full_lines) - len(rebuilt) :]


def test_deltas_must_be_a_boolean(server: ServerProcess) -> None:
    async def main() -> dict[str, Any]:
        code, _ = await seat_table(server, ["human"] * 2, turn_timer=0)
        c = Client(server, code)
        await c.open(hello=False)
        reply = await c.error_reply({"type": "hello", "deltas": "yes"})
        await c.close()
        return reply

    assert asyncio.run(main())["code"] == "bad_message"
