"""No hidden card ever reaches another browser: every message of a whole game is checked.

Each client records every message. After the game, the stored history is replayed action by
action; each state message (tagged with its version) must carry exactly the engine's
observation for that seat at that version, the events must be exactly the engine's redacted
events for that seat, and no other seat's hidden card may appear anywhere else in the message.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import pytest

import sabacc
from sabacc.services.render import events_json
from tests.apps.server.helpers import Client, ServerProcess, play, seat_table


def _strings(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    return out


def _keys(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _keys(v, out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, out)
    return out


@pytest.mark.parametrize(
    ("variant", "deltas"),
    [
        ("corellian_spike", False),
        ("surabat_cycle", False),
        ("classic", False),
        ("corellian_spike", True),
        ("kessel", True),
    ],
)
def test_no_message_leaks_a_hidden_card(server: ServerProcess, variant: str, deltas: bool) -> None:
    """With ``deltas``, every seat and the spectator follow deltas: each delta is checked as
    sent, and each state rebuilt from them as a whole state is."""

    async def main() -> tuple[str, list[Client]]:
        code, clients = await seat_table(
            server, ["human"] * 4, variant=variant, turn_timer=0, options={"game_end": "hands:3"}
        )
        if deltas:
            followers = [Client(server, code, c.token, deltas=True) for c in clients]
            for c in clients:
                await c.close()
            clients = followers
            for c in clients:
                await c.open()
        watcher = Client(server, code, deltas=deltas)
        await watcher.open()
        await play([*clients, watcher], random.Random(5))
        for c in [*clients, watcher]:
            await c.close()
        return code, [*clients, watcher]

    code, clients = asyncio.run(main())
    doc = server.get(f"/api/tables/{code}/games/1/history").json()
    game = sabacc.new_game(
        doc["variant"], players=doc["players"], seed=doc["seed"], **doc["options"]
    )
    deck = type(game).info.deck
    unique = {code for code, n in Counter(c.code for c in deck.cards).items() if n == 1}
    viewers: list[int | None] = [0, 1, 2, 3, None]
    obs_at: list[dict[int | None, Any]] = []
    hidden_at: list[dict[int | None, set[str]]] = []

    def hidden_from(viewer: int) -> set[str]:
        # The engine's own list of places a seat cannot see (other hands, draw pile, Moon...).
        return {pile[i].code for pile, i in game._hidden_slots(viewer)} & unique

    def snapshot() -> None:
        obs_at.append({v: json.loads(json.dumps(game.observation(v))) for v in viewers})
        per_seat = [hidden_from(s) for s in range(game.n)]
        in_hands = {
            c.code for s in range(game.n) for c in game.hands[s] if c.id not in game.public_ids[s]
        }
        spectator = set.intersection(*per_seat) | (in_hands & unique)
        hidden_at.append({**dict(enumerate(per_seat)), None: spectator})

    snapshot()
    for entry in doc["actions"]:
        game.apply(entry["action"], seat=entry["seat"])
        snapshot()
    assert game.is_over

    checked = 0
    for client in clients:
        seat = client.messages[0]["seat"] if client.messages[0]["type"] == "welcome" else None
        events: list[Any] = []
        for raw in client.messages:
            assert "seed" not in _keys(raw, set()), "the seed is never sent during a game"
            if raw["type"] == "delta" and raw["game_no"] == 1:
                # what a delta carries is checked as sent, before any rebuilding
                sent = {k: v for k, v in raw.get("game", {}).items() if k != "last_hand"}
                strings = _strings([sent, raw.get("game_rows"), raw.get("table")], set())
                leaked = strings & hidden_at[raw["version"]][seat]
                assert not leaked, f"a delta to seat {seat} carried hidden cards {leaked}"
        if deltas:
            assert sum(1 for m in client.messages if m["type"] == "delta") > 30
        for msg in client.states:
            if msg["game"] is None or msg["game_no"] != 1:
                continue
            assert msg["you"]["seat"] == seat
            version = msg["version"]
            assert msg["game"] == obs_at[version][seat], f"seat {seat} at version {version}"
            # No other seat's hidden card outside the showdown record and the event log.
            visible = {k: v for k, v in msg["game"].items() if k != "last_hand"}
            strings = _strings(visible, set()) | _strings(msg["table"], set())
            leaked = strings & hidden_at[version][seat]
            assert not leaked, f"seat {seat} was sent hidden cards {leaked} (version {version})"
            events.extend(msg["events"])
            checked += 1
        # Each event as the seat may see it, with its line rendered from that view only.
        expected = events_json(game.events, game.names, viewer=seat, variant=game.info)
        if deltas:  # connected once the game had begun: from the start of that hand
            assert events[0]["type"] == "hand_started"
            expected = expected[len(expected) - len(events) :]
        assert events == expected[: len(events)]
        assert len(events) == len(expected), "every event reached every client"
        for ev in events:
            if ev.get("seat") is not None and ev["seat"] != seat and ev["type"] == "dealt":
                assert ev["cards"] is None
    assert checked > 50
