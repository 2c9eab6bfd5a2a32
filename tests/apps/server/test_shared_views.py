"""The state messages built from the shared per-seat views are exactly each viewer's own:
its own observation and its own events, whatever the others were sent first."""

from __future__ import annotations

import asyncio
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.apps.server import messages
from sabacc.apps.server.auth import hash_token
from sabacc.apps.server.connection import Connection
from sabacc.apps.server.settings import Settings
from sabacc.apps.server.table import Table
from sabacc.services.render import events_json
from sabacc.services.store import SeatRecord
from sabacc.variants.registry import variant_names


def _table(variant: str, players: int, seed: int) -> tuple[Table, list[Connection]]:
    tokens = [f"token-{i}" for i in range(players)]
    seats = [
        SeatRecord(position=i, kind="human", name=f"P{i}", token_hash=hash_token(tokens[i]))
        for i in range(players)
    ]
    table = Table(
        id=1, code="ABCDEF", name="t", variant=variant, options={}, turn_timer=0.0,
        listed=False, host_hash=hash_token(tokens[0]), status="playing", games_played=1,
        created_at=0.0, seats=seats,
    )  # fmt: skip
    table.game = sabacc.new_game(variant, players=[f"P{i}" for i in range(players)], seed=seed)
    conns = []
    for token in [*tokens, None, None]:  # every seat and two spectators
        conn = Connection(Settings(), table)
        conn.token_hash = hash_token(token) if token else None
        conn.ready = True
        table.conns.add(conn)
        conns.append(conn)
    return table, conns


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(variant_names()),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    order=st.randoms(use_true_random=False),
)
def test_each_connection_gets_its_own_view(
    variant: str, seed: int, players: int, order: random.Random
) -> None:
    async def play() -> None:
        table, conns = _table(variant, players, seed)
        game = table.game
        assert game is not None
        rng = random.Random(seed)
        sent = {id(c): 0 for c in conns}
        for _ in range(60):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            table.touch()
            # a random subset of the connections is sent the state now, in a random order
            for conn in order.sample(conns, order.randint(1, len(conns))):
                start = sent[id(conn)] if conn.game_no == table.games_played else 0
                msg = json.loads(messages.state(conn, 0.0))
                seat = conn.seat
                assert msg["game"] == json.loads(json.dumps(game.observation(seat)))
                want = events_json(game.events[start:], game.names, viewer=seat, variant=game.info)
                assert msg["events"] == json.loads(json.dumps(want))
                sent[id(conn)] = len(game.events)

    asyncio.run(play())


def test_a_connection_that_arrives_after_the_views_were_built_gets_its_own() -> None:
    """The first state of a point observes every connection's seat at once; a connection that
    arrives later at that point (the first spectator, a player reconnecting) is observed then,
    and the others' views stay theirs."""
    table, conns = _table("corellian_spike", 3, 11)
    game = table.game
    assert game is not None
    seated = conns[:2]  # seats 0 and 1 connected; seat 2 and the spectators not yet
    table.conns = set(seated)
    rng = random.Random(4)
    for _ in range(25):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        table.touch()
        for conn in seated:
            assert json.loads(messages.state(conn, 0.0))["game"] == json.loads(
                json.dumps(game.observation(conn.seat))
            )
        assert ("obs", None) not in table.views and ("obs", 2) not in table.views
        late = [conns[2], conns[3]]  # seat 2 reconnects; a spectator arrives
        table.conns |= set(late)
        for conn in [*late, *seated]:
            msg = json.loads(messages.state(conn, 0.0))
            assert msg["game"] == json.loads(json.dumps(game.observation(conn.seat)))
            if conn.seat is None:
                assert "you" not in msg["game"]
        table.conns -= set(late)
        for conn in late:
            conn.game_no = -1  # next time it comes back it is sent the hand from its start
        if game.is_over:
            break
