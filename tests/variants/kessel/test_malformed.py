"""Kessel's malformed action arguments (outside audit, issue 30), on both engines.

``PlayToken("target_tariff", 1.0)`` used to pass as the legal seat-1 play (``1.0 == 1``): the
reference engine spent the token and then crashed with a bare ``TypeError``, the compiled one
played it, and both recorded ``token target_tariff 1.0``, a history that no longer replays. A
``True`` target played on seat 1, ``ChoosePrime(4.0)`` was taken and recorded as ``prime 4.0``,
and a ``"1"`` target was refused for the wrong reason. Each is now refused before any change with
the same message on both engines; the generic sweep over every variant is
tests/engine/test_malformed_actions.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import sabacc
from sabacc.core.actions import Action, Bet
from sabacc.core.errors import IllegalActionError
from sabacc.engine.protocol import GameProtocol
from sabacc.variants import compiled
from sabacc.variants.coruscant_shift.actions import Keep
from sabacc.variants.kessel.actions import (
    ChooseImpostor,
    ChoosePrime,
    Draw,
    PlayToken,
    parse_kessel_action,
    token_action,
)
from sabacc.variants.kessel.tokens import TARGETED
from sabacc.variants.spike_family.actions import Discard, Swap

ENGINES = ["python", "compiled"] if compiled.available("kessel") else ["python"]
TOKENS = "target_tariff,target_audit,exhaustion,direct_transaction,prime_sabacc,refund"


def pair(seed: int = 3, **options: Any) -> list[GameProtocol]:
    """The same 3-player game on every engine, every player holding :data:`TOKENS`."""
    options.setdefault("shift_tokens", TOKENS)
    return [
        sabacc.new_game("kessel", players=3, seed=seed, engine=e, **options)  # type: ignore[call-overload]
        for e in ENGINES
    ]


def fingerprint(game: GameProtocol) -> dict[str, Any]:
    return {
        "observations": [json.dumps(game.observation(s), sort_keys=True) for s in range(game.n)],
        "history": game.history(),
        "legal": [str(a) for a in game.legal_actions()],
        "stacks": list(game.stacks),
        "state": game.full_state(),
    }


def refused(games: list[GameProtocol], action: object) -> str:
    """``action`` is refused alike on every engine, nothing changes; the message."""
    messages = []
    for game in games:
        before = fingerprint(game)
        assert game.is_legal(action) is False  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError) as exc:
            game.apply(action)  # type: ignore[arg-type]
        assert fingerprint(game) == before
        messages.append(str(exc.value))
    assert len(set(messages)) == 1, messages
    return messages[0]


def apply_all(games: list[GameProtocol], action: Action | str) -> None:
    for game in games:
        game.apply(action)


def replays(game: GameProtocol) -> None:
    history = json.loads(json.dumps(game.history()))
    again = sabacc.replay(history)
    assert again.history()["actions"] == history["actions"]
    assert list(again.stacks) == list(game.stacks)


def seat_one_targetable() -> list[GameProtocol]:
    """A game where the player to act may aim a token at seat 1 (so 1.0 and True would pass)."""
    for seed in range(40):
        games = pair(seed)
        if games[0].current_player != 1:
            assert games[0].is_legal(PlayToken("target_tariff", 1))
            return games
    raise AssertionError("no seed starts with another seat than 1")


@pytest.mark.parametrize("name", sorted(TARGETED))
@pytest.mark.parametrize("target", [1.0, True, "1", np.float64(1.0), None, [1], b"1"], ids=repr)
def test_a_target_that_is_not_a_seat_number_is_refused(name: str, target: object) -> None:
    games = seat_one_targetable()
    message = refused(games, PlayToken(name, target))  # type: ignore[arg-type]
    if target is None:
        assert "needs a target seat" in message
    else:
        assert message == f"token {name}: the target must be a seat number (int), got {target!r}"
    for game in games:  # the token is still held and can be played on seat 1
        assert name in game.observation(game.current_player)["my_tokens"]
    apply_all(games, "token target_tariff 1")
    for game in games:
        assert game.history()["actions"][-1]["action"] == "token target_tariff 1"
        replays(game)


def test_the_reported_case_leaves_a_replayable_game() -> None:
    games = seat_one_targetable()
    message = refused(games, PlayToken("target_tariff", 1.0))  # type: ignore[arg-type]
    assert message == "token target_tariff: the target must be a seat number (int), got 1.0"
    for game in games:
        replays(game)
        assert all("1.0" not in a["action"] for a in game.history()["actions"])


def test_a_numpy_integer_target_is_the_seat() -> None:
    games = seat_one_targetable()
    for game in games:
        game.apply(PlayToken("target_tariff", np.int64(1)))  # type: ignore[arg-type]
        assert game.history()["actions"][-1]["action"] == "token target_tariff 1"
        replays(game)
    assert games[0].full_state() == games[-1].full_state()


def test_a_token_name_must_be_text() -> None:
    games = pair()
    assert refused(games, PlayToken(5)) == (  # type: ignore[arg-type]
        "token: the token must be a token name (str), got 5"
    )


@pytest.mark.parametrize("target", [-1, 3, 99, 2**70, -(2**70)])
def test_out_of_range_seats_say_so(target: int) -> None:
    games = seat_one_targetable()
    message = refused(games, PlayToken("target_tariff", target))
    assert message.startswith(f"seat {target} is not another player in this round")


def test_text_targets_must_be_seat_numbers() -> None:
    games = seat_one_targetable()
    for text in ("token target_tariff 1.0", "token target_tariff one", "token target_tariff -1"):
        assert "the target is a seat number" in refused(games, text)


def test_the_interned_token_actions_keep_their_types() -> None:
    """``token_action`` caches by type: asking for a ``True`` target first must not make the
    seat-1 play a ``True`` one (``True == 1``, same hash)."""
    odd = token_action("exhaustion", True)
    assert token_action("exhaustion", 1) is not odd
    assert type(token_action("exhaustion", 1).target) is int


def die_decision(kind: type[Action]) -> list[GameProtocol]:
    """Both engines at a decision where ``kind`` (ChoosePrime or ChooseImpostor) is legal."""
    for seed in range(300):
        games = pair(seed, impostors=3)
        rng = random.Random(seed)
        for _ in range(80):
            ref = games[0]
            if ref.is_over:
                break
            legal = ref.legal_actions()
            if any(type(a) is kind for a in legal):
                return games
            prime = [a for a in legal if str(a) == "token prime_sabacc"]
            apply_all(games, prime[0] if prime and kind is ChoosePrime else rng.choice(legal))
    raise AssertionError(f"no {kind.__name__} decision reached")


@pytest.mark.parametrize("kind", [ChoosePrime, ChooseImpostor])
@pytest.mark.parametrize("value", [4.0, True, "4", np.float64(4.0), None, 4.5], ids=repr)
def test_a_die_choice_must_be_a_whole_number(kind: type[Action], value: object) -> None:
    games = die_decision(kind)
    choice = next(a for a in games[0].legal_actions() if type(a) is kind)
    die = choice.value  # type: ignore[attr-defined]
    bad = kind(float(die) if value == 4.0 else value)  # type: ignore[call-arg]
    message = refused(games, bad)
    shown = bad.value  # type: ignore[attr-defined]
    assert message == f"{kind.kind}: the value must be a die value 1-6 (int), got {shown!r}"
    apply_all(games, choice)
    for game in games:
        assert game.history()["actions"][-1]["action"] == f"{kind.kind} {die}"
        replays(game)
    assert games[0].observation(0) == games[-1].observation(0)


@pytest.mark.parametrize("kind", [ChoosePrime, ChooseImpostor])
def test_a_numpy_die_choice_is_the_value(kind: type[Action]) -> None:
    games = die_decision(kind)
    choice = next(a for a in games[0].legal_actions() if type(a) is kind)
    for game in games:
        game.apply(kind(np.int8(choice.value)))  # type: ignore[call-arg, attr-defined]
        assert game.history()["actions"][-1]["action"] == str(choice)
        replays(game)


@pytest.mark.parametrize("source", [1, None, "moon", ("sand",), b"sand"], ids=repr)
def test_a_draw_names_its_pile(source: object) -> None:
    message = refused(pair(), Draw(source))  # type: ignore[arg-type]
    assert message.startswith(f"draw {source!r}: draw from where?")


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Bet(2.5), "bet 2.5: the amount must be a whole number of credits"),  # type: ignore[arg-type]
        (Swap("draw", 1.0), "swap draw 1.0: the card value must be a whole number"),  # type: ignore[arg-type]
        (Discard("4"), "discard '4': the card value must be a whole number"),  # type: ignore[arg-type]
        (Keep(("½",)), "keep ('½',): '½' is not a card"),
    ],
)
def test_the_core_actions_are_checked_too(action: Action, reason: str) -> None:
    """Kessel plays none of them, but a malformed one is refused as malformed (it used to
    crash formatting its own text)."""
    assert refused(pair(), action).startswith(reason)


def test_parsing_an_action_object_checks_it() -> None:
    with pytest.raises(IllegalActionError, match="seat number"):
        parse_kessel_action(PlayToken("exhaustion", 2.0))  # type: ignore[arg-type]
    assert parse_kessel_action(PlayToken("exhaustion", np.int32(2))) == PlayToken("exhaustion", 2)  # type: ignore[arg-type]
