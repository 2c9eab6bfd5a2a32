"""The server's stored games convert to the hand-history format (hand_history.from_record, the
``/api/tables/{code}/games/{n}/history`` export), and the export validates."""

from __future__ import annotations

import random

import pytest

import sabacc
from sabacc.services import hand_history
from sabacc.services.store import ActionRecord, SeatRecord, Store
from sabacc.variants.registry import variant_names

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(hand_history.schema())


def _store_game(store: Store, variant: str, seed: int) -> tuple[sabacc.Game, set[int]]:
    """A whole game of ``variant`` played and stored as the server stores it; the indices of
    the actions marked played by the turn timer."""
    names = ["Ann", "R2-D2", "Ben"]
    table = store.create_table(
        code="ABC234",
        name="Test",
        variant=variant,
        options={"game_end": "hands:1"},
        turn_timer=30.0,
        listed=True,
        host_hash="h" * 64,
        seats=[
            SeatRecord(0, "human", name="Ann", token_hash="a" * 64),
            SeatRecord(1, "bot", bot="heuristic", name="R2-D2"),
            SeatRecord(2, "human", name="Ben", token_hash="b" * 64),
        ],
    )
    game = sabacc.new_game(variant, players=names, seed=seed, game_end="hands:1")
    rec = store.start_game(
        table.id,
        number=1,
        variant=variant,
        options={"game_end": "hands:1"},
        seed=seed,
        players=names,
        seat_tokens=["a" * 64, None, "b" * 64],
        bots=[None, "heuristic", None],
        stacks=list(game.stacks),
        hands=game.hand_no,
    )
    rng = random.Random(seed)
    autos: set[int] = set()
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        hand = game.hand_no
        game.apply(rng.choice(game.legal_actions()[:6]), seat=seat)
        idx = len(game.actions) - 1
        if rng.random() < 0.2:
            autos.add(idx)
        outcome = game.outcome
        store.record_action(
            table.id,
            rec.id,
            ActionRecord(idx, seat, game.actions[-1][1], hand, auto=idx in autos),
            stacks=list(game.stacks),
            hands=game.hand_no,
            result=outcome.to_dict() if outcome else None,
        )
    return game, autos


@pytest.mark.parametrize("variant", variant_names())
def test_a_stored_game_exports_as_a_valid_history(variant: str, tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        game, autos = _store_game(store, variant, seed=7)
        table_id = store.table_id("ABC234")
        assert table_id is not None
        rec = store.load_game(table_id, 1)
        assert rec is not None
        doc = hand_history.from_record(rec, table="ABC234")
    finally:
        store.close()
    assert not list(VALIDATOR.iter_errors(doc))
    assert hand_history.validate(doc) == []
    assert {i for i, a in enumerate(doc["actions"]) if a.get("auto")} == autos
    assert doc["meta"]["source"] == "sabacc-server" and doc["meta"]["table"] == "ABC234"
    assert doc["meta"]["game"] == 1 and doc["meta"]["finished_at"] is not None
    assert doc["meta"]["bots"] == [None, "heuristic", None]
    assert doc["result"] == game.outcome.to_dict()  # type: ignore[union-attr]
    assert sabacc.replay(doc).full_state() == game.full_state()
