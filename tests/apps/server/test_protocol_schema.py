"""The WebSocket protocol's published JSON Schema (docs/protocol.md): current with the typed
messages, and every message of real games of every variant valid against it, both ways.

A real ``sabacc serve`` on loopback; at a table of each variant, a player (whole states) and a
spectator (deltas) against a bot play a short game to its end and a new game's start; they
ping, chat and send refused messages too, so every kind of server message is seen.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")

from sabacc.apps.server.outgoing import SERVER_TYPES  # noqa: E402
from sabacc.apps.server.protocol import CLIENT_TYPES  # noqa: E402
from sabacc.apps.server.schema import published, schemas  # noqa: E402
from sabacc.variants.registry import variant_names  # noqa: E402
from tests.apps.server.helpers import (  # noqa: E402
    UNLIMITED,
    Client,
    ServerProcess,
    finished,
    play,
    random_choice,
)

DOC = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


class Recorder(Client):
    """A client that keeps what it sends, too."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.sent: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any] | str) -> None:
        self.sent.append(json.loads(message) if isinstance(message, str) else message)
        await super().send(message)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose bots act at once."""
    db = tmp_path_factory.mktemp("schema") / "sabacc.db"
    srv = ServerProcess(db, extra=[*UNLIMITED, "--bot-delay", "0"]).start()
    yield srv
    srv.stop()


def _validator(side: str) -> Any:
    doc = published(DOC.read_text(encoding="utf-8"))
    schema = doc[side]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_published_schemas_are_the_generated_ones() -> None:
    """docs/protocol.md publishes exactly what the models generate (else: run
    ``python scripts/gen_protocol_schema.py``)."""
    doc = published(DOC.read_text(encoding="utf-8"))
    assert set(doc) == {"client", "server"}
    assert doc == json.loads(json.dumps(schemas())), "run python scripts/gen_protocol_schema.py"


def test_the_schemas_refuse_what_the_protocol_does_not_say() -> None:
    server, client = _validator("server"), _validator("client")
    assert not server.is_valid({"type": "pong", "id": 1, "extra": True})
    assert not server.is_valid({"type": "welcome", "protocol": 1})
    assert not server.is_valid({"type": "gossip"})
    assert not client.is_valid({"type": "action"})
    assert client.is_valid({"type": "action", "action": "stand", "version": 3})


async def _traffic(server: ServerProcess, variant: str, rng: random.Random) -> list[Recorder]:
    """A short game of ``variant`` (player against a bot, a spectator with deltas) to its end
    and the next game's start; the clients, with every message they received."""
    created = server.create(
        variant=variant,
        seats=["human", "bot:easy"],
        player_name="Ann",
        options={"game_end": "rounds:2" if variant == "kessel" else "hands:2"},
        turn_timer=0,
    )
    player = Recorder(server, created["code"], created["token"])
    watcher = Recorder(server, created["code"], deltas=True)
    await player.open()
    await watcher.open()
    await player.send({"type": "ping", "id": 7})
    await player.send({"type": "chat", "text": "good luck"})
    await watcher.error_reply({"type": "action", "action": "stand"})
    await player.error_reply({"type": "nonsense"})
    await play([player, watcher], rng, until=finished, timeout=240, choose=random_choice)
    await player.send({"type": "new_game"})
    await player.wait_for(lambda m: m["type"] == "state" and m["game_no"] == 2)
    await watcher.drain(0.3)
    await player.close()
    await watcher.close()
    return [player, watcher]


def test_real_traffic_of_every_variant_follows_the_schema(quick: ServerProcess) -> None:
    async def run() -> list[Recorder]:
        games = [
            _traffic(quick, variant, random.Random(i)) for i, variant in enumerate(variant_names())
        ]
        return [c for pair in await asyncio.gather(*games) for c in pair]

    clients = asyncio.run(run())
    server = _validator("server")
    seen: set[str] = set()
    for c in clients:
        for raw in c.raw:
            message = json.loads(raw)
            problems = [e.message for e in server.iter_errors(message)]
            assert not problems, (message.get("type"), problems[:3], raw[:300])
            seen.add(message["type"])
    assert seen == set(SERVER_TYPES), seen
    # what the clients sent follows the client schema, but the message sent to be refused
    client = _validator("client")
    sent = [m for c in clients for m in c.sent]
    refused = [m for m in sent if not client.is_valid(m)]
    assert refused == [{"type": "nonsense"}] * len(variant_names()), refused
    kinds = {m["type"] for m in sent} - {"nonsense"}
    assert kinds == {"hello", "ping", "chat", "action", "new_game"}, kinds
    assert kinds <= set(CLIENT_TYPES)
