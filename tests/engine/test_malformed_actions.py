"""Malformed action arguments, thrown at every variant on both engines (outside audit, issue 30).

Every action kind of the library (every :class:`~sabacc.core.actions.Action` subclass with
fields: the core's and the variants' own) is built with arguments of the wrong type (floats,
NaN, bools, strings, None, bytes, Decimals, Fractions, lists...), well-typed arguments that are
out of range (negative, huge) and near misses of the legal actions (``1.0``, ``True``, ``"1"``
for a legal ``1``: they compare and hash equal to it), and applied at a random reachable state
of every variant, on the reference engine and on the compiled core in lockstep. Also their text
forms. An argument of the wrong type is always refused; a well-typed one unless it is legal.
A refusal is an :class:`IllegalActionError` with the same message on both engines, ``is_legal``
says False on both, and nothing changes: every seat's observation, the history, the legal
actions, the chips. The two engines then still agree (the same history, the same observations).

NumPy integers are not malformed (they are converted to ``int``: tests/engine/test_validation.py).
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError
from sabacc.engine.protocol import GameProtocol
from sabacc.variants import compiled
from sabacc.variants.registry import lookup

VARIANTS = ("corellian_spike", "surabat_cycle", "coruscant_shift", "kessel", "classic")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def action_kinds() -> list[type[Action]]:
    """Every action class of the library that has fields (arguments to get wrong): the
    classes its modules name (``dataclass(slots=True)`` leaves the class it replaced among the
    subclasses too)."""
    out: list[type[Action]] = []
    todo: list[type[Action]] = [Action]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        named = getattr(sys.modules[cls.__module__], cls.__name__, None) is cls
        if named and cls.__module__.startswith("sabacc.") and dataclasses.fields(cls):
            out.append(cls)
    return sorted(out, key=lambda c: (c.__module__, c.__name__))


KINDS = action_kinds()

#: Field annotations this test knows how to get wrong; a new kind with another field type
#: fails :func:`test_every_field_type_is_covered` until it is added here.
FIELD_TYPES = ("int", "int | None", "str", "tuple[str, ...]")


def well_typed(annotation: str, value: object) -> bool:
    """Whether ``value`` has the field's declared type exactly (a bool is not an int)."""
    if annotation == "int":
        return type(value) is int
    if annotation == "int | None":
        return value is None or type(value) is int
    if annotation == "str":
        return type(value) is str
    assert annotation == "tuple[str, ...]", annotation
    return type(value) is tuple and all(type(c) is str for c in value)


def well_formed(action: Action) -> bool:
    return all(well_typed(str(f.type), getattr(action, f.name)) for f in dataclasses.fields(action))


# ------------------------------------------------------------------ arguments
WRONG_TYPES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-8, 8).map(float),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
    st.binary(max_size=3),
    st.integers(-8, 8).map(lambda v: [v]),
    st.integers(-8, 8).map(lambda v: (v,)),
    st.integers(-8, 8).map(Decimal),
    st.integers(-8, 8).map(Fraction),
    st.integers(-8, 8).map(complex),
    st.floats(-8, 8).map(np.float64),
    st.just(float("nan")),
    st.just({}),
    st.builds(object),
)
INTS = st.one_of(
    st.integers(-20, 20),
    st.integers(min_value=2**31 - 2, max_value=2**200),
    st.integers(min_value=-(2**200), max_value=-(2**31) + 2),
)
WORDS = st.sampled_from(
    ["sand", "blood", "sand discard", "draw", "discard", "moon", "target_tariff", "refund", ""]
)
CARDS = st.one_of(
    st.sampled_from(["+5c", "-3", "0", "1", "+9t", "-0", "5 c", "+", "-", "", " ", "1e3", "½"]),
    st.text(max_size=4),
)
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "int": st.one_of(WRONG_TYPES, INTS),
    "int | None": st.one_of(WRONG_TYPES, INTS),
    "str": st.one_of(WRONG_TYPES, WORDS, st.text(max_size=8)),
    "tuple[str, ...]": st.one_of(
        WRONG_TYPES,
        st.lists(CARDS, max_size=4).map(tuple),
        st.lists(CARDS, min_size=1, max_size=3),  # a list, not a tuple
        st.lists(st.one_of(CARDS, WRONG_TYPES), min_size=1, max_size=3).map(tuple),
    ),
}


@st.composite
def any_kind(draw: st.DrawFn) -> Action:
    """An action of any kind with each field drawn from that field type's values."""
    cls = draw(st.sampled_from(KINDS))
    values = {f.name: draw(VALUES[str(f.type)]) for f in dataclasses.fields(cls)}
    return cls(**values)


def near_misses(action: Action) -> list[Action]:
    """``action`` (a legal one) with one field swapped for a value that compares (or reads)
    like it but is of the wrong type (``1.0``, ``True``, ``"1"``, ``Decimal(1)``...), or for
    a list of cards to keep, one that names something that is not a card."""
    out: list[Action] = []
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        alts: list[Any] = []
        if type(value) is int:
            alts = [float(value), str(value), np.float64(value), Decimal(value), Fraction(value)]
            alts += [complex(value), [value]]
            if value in (0, 1):
                alts.append(bool(value))
        elif type(value) is str:
            alts = [value.encode(), [value], None, (value,)]
        elif type(value) is tuple:
            alts = [list(value), " ".join(value), (*value, ""), ("½",), (" ",), ("+",)]
            numbers = [c.rstrip(LETTERS) for c in value]
            alts.append(tuple(int(c) for c in numbers if c.lstrip("+-").isdigit()))
            alts.append(tuple(float(c) for c in numbers if c.lstrip("+-").isdigit()))
        out.extend(dataclasses.replace(action, **{f.name: alt}) for alt in alts)
    return out


TEXT_WORDS = st.one_of(
    st.sampled_from(["1.0", "4.0", "true", "none", "nan", "-1", "99", "2.5", "1e3", "½", "x"]),
    st.integers(-(2**70), 2**70).map(str),
    st.text(alphabet=st.characters(codec="ascii"), max_size=4),
)
TEXT_HEADS = st.sampled_from(
    ["bet", "raise", "gain", "discard", "swap draw", "swap discard", "swap moon", "keep",
     "draw", "impostor", "prime", "token target_tariff", "token target_audit", "token refund",
     "token", "exchange"]
)  # fmt: skip
TEXTS = st.builds(lambda h, w: f"{h} {' '.join(w)}", TEXT_HEADS, st.lists(TEXT_WORDS, max_size=2))


# ------------------------------------------------------------------ games
def engines(variant: str) -> list[str]:
    return ["python", "compiled"] if compiled.available(variant) else ["python"]


def fingerprint(game: GameProtocol) -> dict[str, Any]:
    """What a refused action must leave as it was."""
    return {
        "observations": [json.dumps(game.observation(s), sort_keys=True) for s in range(game.n)],
        "history": game.history(),
        "legal": [str(a) for a in game.legal_actions()],
        "stacks": list(game.stacks),
        "state": game.full_state(),
        "count": game.action_count,
        "over": game.is_over,
    }


def reach(variant: str, seed: int, players: int, steps: int) -> list[GameProtocol]:
    """The variant's games on every engine, played ``steps`` random legal actions in lockstep."""
    games: list[GameProtocol] = [
        sabacc.new_game(variant, players=players, seed=seed, engine=e)  # type: ignore[call-overload]
        for e in engines(variant)
    ]
    rng = random.Random(seed)
    ref = games[0]
    for _ in range(steps):
        if ref.is_over:
            break
        act = rng.choice(ref.legal_actions())
        for game in games:
            game.apply(act)
    return games


def throw(games: list[GameProtocol], action: object) -> None:
    """``action`` is legal on every engine or on none; if not, each refuses it with the same
    message and changes nothing."""
    verdicts = [game.is_legal(action) for game in games]  # type: ignore[arg-type]
    assert len(set(verdicts)) == 1, (action, verdicts)
    malformed = isinstance(action, Action) and not well_formed(action)
    if verdicts[0]:
        assert not malformed, f"{action!r} is of the wrong type but legal"
        return
    messages = []
    for game in games:
        before = fingerprint(game)
        with pytest.raises(IllegalActionError) as refused:
            game.apply(action)  # type: ignore[arg-type]
        assert fingerprint(game) == before, action
        messages.append(str(refused.value))
    assert len(set(messages)) == 1, (action, messages)


def assert_engines_agree(games: list[GameProtocol]) -> None:
    ref = games[0]
    for game in games[1:]:
        assert game.history() == ref.history()
        for seat in range(ref.n):
            assert game.observation(seat) == ref.observation(seat), seat


def players_of(variant: str) -> st.SearchStrategy[int]:
    info = lookup(variant)
    return st.integers(info.min_players, min(info.max_players, 4))


HYPO = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ------------------------------------------------------------------ tests
def test_every_field_type_is_covered() -> None:
    names = {c.__name__ for c in KINDS}
    assert {"Bet", "Raise", "Gain", "Swap", "Discard", "Keep", "PlayToken", "ChoosePrime"} <= names
    for cls in KINDS:
        for f in dataclasses.fields(cls):
            assert str(f.type) in FIELD_TYPES, (cls, f.name, f.type)


@pytest.mark.parametrize("variant", VARIANTS)
@HYPO
@given(data=st.data(), seed=st.integers(0, 2**32), steps=st.integers(0, 90))
def test_malformed_arguments_are_refused_alike(
    variant: str, data: st.DataObject, seed: int, steps: int
) -> None:
    games = reach(variant, seed, data.draw(players_of(variant), "players"), steps)
    legal = games[0].legal_actions()
    misses = [m for a in legal for m in near_misses(a)]
    thrown: list[object] = data.draw(st.lists(any_kind(), min_size=1, max_size=6), "actions")
    if misses:
        thrown += data.draw(st.lists(st.sampled_from(misses), max_size=4), "near misses")
    thrown += data.draw(st.lists(TEXTS, max_size=3), "texts")
    for action in thrown:
        throw(games, action)
    assert_engines_agree(games)
    if not games[0].is_over:  # and they play on alike
        act = random.Random(seed).choice(games[0].legal_actions())
        for game in games:
            game.apply(act)
        assert_engines_agree(games)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_near_miss_of_every_legal_action_is_refused(variant: str) -> None:
    """Along a few seeded games, at every decision: each legal action's every near miss."""
    for seed in range(2):
        games = reach(variant, seed, lookup(variant).min_players + 1, 0)
        rng = random.Random(seed)
        for _ in range(120):
            ref = games[0]
            if ref.is_over:
                break
            legal = ref.legal_actions()
            for action in legal[:12]:
                for miss in near_misses(action):
                    throw(games, miss)
            act = rng.choice(legal)
            for game in games:
                game.apply(act)
        assert_engines_agree(games)
