"""Input validation at the engine boundary, the same on every engine (outside audit, issue 12).

An action's amount or card value must be a plain whole number: ``Bet(2.5)``, ``Bet(True)``,
``Bet("5")``, ``Bet(None)``, NumPy floats, ``Swap("draw", 6.0)`` are refused with
:class:`IllegalActionError` (never ``TypeError`` or a formatting crash) and leave the state as
it was; NumPy integers are converted to ``int``. Seats may be NumPy integers too. A seed is a
whole number, or ``None`` for a random one that the history records.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.actions import Action, Bet, Raise
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.protocol import GameProtocol
from sabacc.variants import compiled
from sabacc.variants.spike_family.actions import Discard, Gain, Swap

ENGINES: list[tuple[str, str]] = [
    ("corellian_spike", "python"),
    ("classic", "python"),
    ("surabat_cycle", "python"),
]
if compiled.available():
    ENGINES.append(("corellian_spike", "compiled"))
IDS = [f"{v}-{e}" for v, e in ENGINES]


def new(variant: str, engine: str, seed: Any = 5, players: int = 3) -> GameProtocol:
    game: GameProtocol = sabacc.new_game(variant, players=players, seed=seed, engine=engine)  # type: ignore[call-overload]
    return game


def fingerprint(game: GameProtocol) -> dict[str, Any]:
    return {"state": game.full_state(), "history": game.history(), "count": game.action_count}


def to_betting(game: GameProtocol, want: Callable[[GameProtocol], bool]) -> None:
    """Play the first legal non-junk action until ``want(game)``."""
    for _ in range(500):
        if want(game):
            return
        legal = [a for a in game.legal_actions() if a.kind != "junk"]
        game.apply(legal[0])
    raise AssertionError("never reached the wanted decision")


def can_bet(game: GameProtocol) -> bool:
    return game.legal().bet is not None


def can_raise(game: GameProtocol) -> bool:
    return game.legal().raise_ is not None


def refused(game: GameProtocol, action: Any, match: str | None = None) -> str:
    before = fingerprint(game)
    assert game.is_legal(action) is False
    with pytest.raises(IllegalActionError, match=match) as exc:
        game.apply(action)
    assert fingerprint(game) == before
    return str(exc.value)


BAD_AMOUNTS: list[Any] = [2.5, 1.0, True, False, "5", None, np.float64(2.0), np.float32(1.5), []]


@pytest.mark.parametrize("variant,engine", ENGINES, ids=IDS)
class TestAmounts:
    @pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
    def test_bad_bet_amounts_are_illegal_actions(
        self, variant: str, engine: str, amount: Any
    ) -> None:
        game = new(variant, engine)
        to_betting(game, can_bet)
        message = refused(game, Bet(amount), "whole number of credits")
        assert message.startswith(f"bet {amount!r}")

    @pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
    def test_bad_raise_amounts_are_illegal_actions(
        self, variant: str, engine: str, amount: Any
    ) -> None:
        game = new(variant, engine, players=2)
        to_betting(game, can_bet)
        game.apply(Bet(game.legal().bet[0]))
        to_betting(game, can_raise)
        refused(game, Raise(amount), "whole number of credits")

    def test_numpy_integers_are_converted(self, variant: str, engine: str) -> None:
        game = new(variant, engine)
        to_betting(game, can_bet)
        low = game.legal().bet[0]
        twin = new(variant, engine)
        to_betting(twin, can_bet)
        assert game.is_legal(Bet(np.int64(low)))  # type: ignore[arg-type]
        game.apply(Bet(np.int64(low)), seat=np.int64(game.current_player))  # type: ignore[arg-type]
        twin.apply(Bet(low))
        assert game.history() == twin.history()
        assert game.full_state() == twin.full_state()
        json.dumps(game.observation(0))
        json.dumps(game.history())
        assert all(type(s) is int for s in game.stacks)

    def test_whole_number_text_still_parses(self, variant: str, engine: str) -> None:
        game = new(variant, engine)
        to_betting(game, can_bet)
        low = game.legal().bet[0]
        assert game.is_legal(f"bet {low}")
        refused(game, f"bet {low}.5", "not a whole number")


@pytest.mark.parametrize("variant,engine", ENGINES, ids=IDS)
class TestCardValues:
    @pytest.mark.parametrize("value", [6.0, 2.5, True, "3", None, np.float64(-1.0)], ids=repr)
    def test_bad_swap_values(self, variant: str, engine: str, value: Any) -> None:
        game = new(variant, engine)
        message = refused(game, Swap("draw", value), "card value must be a whole number")
        assert message.startswith(f"swap draw {value!r}")
        refused(game, Swap("discard", value), "card value")
        refused(game, Swap("moon", value), "card value")

    @pytest.mark.parametrize("value", [2.0, False, "1", np.float64(3.0)], ids=repr)
    def test_bad_gain_and_discard_values(self, variant: str, engine: str, value: Any) -> None:
        game = new(variant, engine)
        refused(game, Gain(value), "card value")
        refused(game, Discard(value), "card value")

    def test_numpy_card_values_are_converted(self, variant: str, engine: str) -> None:
        def can_swap(g: GameProtocol) -> bool:
            return any(isinstance(a, Swap) for a in g.legal_actions())

        game, twin = new(variant, engine), new(variant, engine)
        rng = random.Random(1)
        while not can_swap(game):  # seeded random play (both games alike) to a swap
            legal = [a for a in game.legal_actions() if a.kind not in ("junk", "call hand")]
            action = rng.choice(legal)
            game.apply(action)
            twin.apply(action)
        action = next(a for a in game.legal_actions() if isinstance(a, Swap))
        game.apply(Swap(action.source, np.int8(action.value)))  # type: ignore[arg-type]
        twin.apply(action)
        assert game.history() == twin.history()


@pytest.mark.parametrize("variant,engine", ENGINES, ids=IDS)
class TestSeats:
    def test_numpy_seat_works_like_an_int(self, variant: str, engine: str) -> None:
        game = new(variant, engine)
        seat = game.current_player
        assert seat is not None
        action = game.legal_actions()[0]
        other = (seat + 1) % game.n
        before = fingerprint(game)
        with pytest.raises(IllegalActionError, match="turn"):
            game.apply(action, seat=np.int64(other))  # type: ignore[arg-type]
        assert fingerprint(game) == before
        game.apply(action, seat=np.int32(seat))  # type: ignore[arg-type]
        assert game.action_count == 1

    @pytest.mark.parametrize("seat", [True, False, 0.0, "0", -1, 99, np.float64(0)], ids=repr)
    def test_bad_seats_are_refused(self, variant: str, engine: str, seat: Any) -> None:
        game = new(variant, engine)
        action = game.legal_actions()[0]
        before = fingerprint(game)
        with pytest.raises(IllegalActionError, match="no such seat"):
            game.apply(action, seat=seat)
        assert fingerprint(game) == before


@pytest.mark.parametrize("variant,engine", ENGINES, ids=IDS)
class TestSeeds:
    @pytest.mark.parametrize("seed", [1.5, 7.0, True, "7", np.float64(3.0), [1]], ids=repr)
    def test_non_integer_seeds_are_option_errors(
        self, variant: str, engine: str, seed: Any
    ) -> None:
        with pytest.raises(OptionError, match="seed"):
            new(variant, engine, seed=seed)

    def test_numpy_integer_seed_is_the_same_seed(self, variant: str, engine: str) -> None:
        game = new(variant, engine, seed=np.int64(12))
        assert type(game.seed) is int and game.seed == 12
        assert game.full_state() == new(variant, engine, seed=12).full_state()

    def test_no_seed_is_drawn_recorded_and_replays(self, variant: str, engine: str) -> None:
        game = new(variant, engine, seed=None)
        assert type(game.seed) is int
        for _ in range(6):
            if game.is_over:
                break
            game.apply(game.legal_actions()[-1])
        history = json.loads(json.dumps(game.history()))
        again = sabacc.replay(history, engine=engine)  # type: ignore[call-overload]
        assert again.full_state() == game.full_state()


class TestReplaySeeds:
    @pytest.mark.parametrize("seed", [None, 1.5, "7", True])
    def test_a_history_without_an_integer_seed_does_not_replay(self, seed: Any) -> None:
        history = sabacc.new_game("spike", players=2, seed=1).history()
        history["seed"] = seed
        with pytest.raises(sabacc.HistoryError):
            sabacc.replay(history)


@pytest.mark.parametrize("variant,engine", ENGINES, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(
    amount=st.floats(allow_nan=True)
    | st.booleans()
    | st.text(max_size=3)
    | st.none()
    | st.builds(np.float64, st.floats(-5, 5))
)
def test_any_non_integer_amount_is_refused(variant: str, engine: str, amount: Any) -> None:
    game = new(variant, engine)
    to_betting(game, can_bet)
    for action in (Bet(amount), Raise(amount)):
        before = fingerprint(game)
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert game.is_legal(action) is False
        assert fingerprint(game) == before


def test_both_spike_engines_refuse_with_the_same_message() -> None:
    if not compiled.available():
        pytest.skip("the compiled core is not built")
    ref, core = new("spike", "python"), new("spike", "compiled")
    to_betting(ref, can_bet)
    to_betting(core, can_bet)
    bad: list[Action] = [Bet(2.5), Bet(True), Bet("5"), Bet(None), Raise(1.5)]  # type: ignore[arg-type]
    bad += [Swap("draw", 6.0), Gain(2.0), Discard(True)]  # type: ignore[arg-type]
    for action in bad:
        with pytest.raises(IllegalActionError) as a:
            ref.apply(action)
        with pytest.raises(IllegalActionError) as b:
            core.apply(action)
        assert str(a.value) == str(b.value)
