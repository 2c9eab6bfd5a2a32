"""Player actions and their text form (sabacc/core/actions.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.core.actions import (
    CALL,
    CALL_HAND,
    CHECK,
    GAIN,
    JUNK,
    STAND,
    Bet,
    Call,
    CallHand,
    Check,
    Discard,
    Gain,
    Junk,
    Raise,
    Stand,
    Swap,
    parse_action,
)

values = st.integers(-17, 23)
amounts = st.integers(0, 10**6)

actions = st.one_of(
    st.just(STAND),
    st.just(GAIN),
    st.just(CHECK),
    st.just(CALL),
    st.just(JUNK),
    st.just(CALL_HAND),
    st.builds(Gain, values),
    st.builds(Swap, st.sampled_from(["discard", "draw", "moon"]), values),
    st.builds(Discard, values),
    st.builds(Bet, amounts),
    st.builds(Raise, amounts),
)


@given(actions)
@settings(max_examples=500, deadline=None)
def test_text_round_trip(action: sabacc.Action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action
    assert parse_action(f"  {text}  ".replace(" ", "   ")) == action
    assert action.to_json() == text


@given(actions)
def test_parse_action_passes_actions_through(action: sabacc.Action) -> None:
    assert parse_action(action) is action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("stand", Stand()),
        ("pass", Stand()),
        ("gain", Gain()),
        ("draw", Gain()),
        ("gain +3", Gain(3)),
        ("gain -3", Gain(-3)),
        ("gain 0", Gain(0)),
        ("swap discard -3", Swap("discard", -3)),
        ("swap draw +4", Swap("draw", 4)),
        ("swap draw +4c", Swap("draw", 4)),  # stave letters are accepted and ignored
        ("swap discard -10t", Swap("discard", -10)),
        ("swap moon +4s", Swap("moon", 4)),
        ("exchange 7f", Swap("draw", 7)),
        ("discard +4", Discard(4)),
        ("check", Check()),
        ("call", Call()),
        ("bet 5", Bet(5)),
        ("raise 3", Raise(3)),
        ("junk", Junk()),
        ("fold", Junk()),
        ("call hand", CallHand()),
        ("CALL   HAND", CallHand()),
    ],
)
def test_parse(text: str, action: sabacc.Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Swap("draw", 4), "swap draw +4"),
        (Swap("discard", -3), "swap discard -3"),
        (Swap("draw", 0), "swap draw 0"),
        (Gain(), "gain"),
        (Gain(2), "gain +2"),
        (Bet(12), "bet 12"),
        (Raise(1), "raise 1"),
        (CallHand(), "call hand"),
        (Discard(-1), "discard -1"),
    ],
)
def test_text_form(action: sabacc.Action, text: str) -> None:
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "unknown action"),
        ("fly", "'fly'"),
        ("bet", "'bet'"),
        ("bet five", "'five' is not a whole number"),
        ("raise 2.5", "'2.5' is not a whole number"),
        ("bet 1 2", "'bet 1 2'"),
        ("swap +4", "'swap +4'"),
        ("swap hand +4", "swap from where"),
        ("swap draw four", "'four' is not a card value"),
        ("discard x", "is not a card value"),
        ("gain gain", "is not a card value"),
        ("stand now", "'stand now'"),
    ],
)
def test_malformed_text(text: str, hint: str) -> None:
    with pytest.raises(sabacc.IllegalActionError) as info:
        parse_action(text)
    assert hint in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("thing", [None, 3, 4.5, ["stand"], b"stand"])
def test_non_text(thing: object) -> None:
    with pytest.raises(sabacc.IllegalActionError, match="must be text or an Action"):
        parse_action(thing)  # type: ignore[arg-type]


@given(st.text(max_size=20))
@settings(max_examples=300, deadline=None)
def test_parse_never_crashes(text: str) -> None:
    try:
        action = parse_action(text)
    except sabacc.IllegalActionError:
        return
    assert parse_action(str(action)) == action


def test_actions_are_hashable_values() -> None:
    assert {Bet(1), Bet(1), Raise(1)} == {Bet(1), Raise(1)}
    assert Swap("draw", 4) == Swap("draw", 4) != Swap("discard", 4)
    assert Gain() != Gain(0)
    with pytest.raises(AttributeError):
        Bet(1).amount = 2  # type: ignore[misc]


def test_legal_actions_text_round_trips_in_a_game() -> None:
    g = sabacc.new_game("spike", players=3, seed=2)
    for _ in range(40):
        if g.is_over:
            break
        for a in g.legal_actions():
            assert parse_action(str(a)) == a
            assert g.is_legal(str(a))
        g.apply(g.legal_actions()[-1] if g.phase == "card" else "check")
