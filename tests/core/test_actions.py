"""Player actions and their text form (sabacc/core/actions.py and the variants' own), parsed by
each variant's parser, which its declared action kinds build (sabacc/engine/actions.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc import parse_action
from sabacc.core.actions import CALL, CHECK, JUNK, STAND, Bet, Call, Check, Junk, Raise, Stand
from sabacc.variants.classic.actions import CALL_HAND, CallHand
from sabacc.variants.spike_family.actions import GAIN, Discard, Gain, Swap

values = st.integers(-17, 23)
amounts = st.integers(0, 10**6)


def _in(variant: str, action: st.SearchStrategy[sabacc.Action]) -> st.SearchStrategy[Case]:
    return st.tuples(st.just(variant), action)


Case = tuple[str, sabacc.Action]
#: (variant, one of its actions).
actions = st.one_of(
    _in("spike", st.sampled_from([STAND, GAIN, CHECK, CALL, JUNK])),
    _in("classic", st.sampled_from([STAND, GAIN, CALL_HAND])),
    _in("surabat", st.builds(Gain, values)),
    _in("spike", st.builds(Swap, st.sampled_from(["discard", "draw"]), values)),
    _in("surabat", st.builds(Swap, st.just("moon"), values)),
    _in("surabat", st.builds(Discard, values)),
    _in("spike", st.builds(Bet, amounts)),
    _in("classic", st.builds(Raise, amounts)),
)


@given(actions)
@settings(max_examples=500, deadline=None)
def test_text_round_trip(case: Case) -> None:
    variant, action = case
    text = str(action)
    assert parse_action(text, variant) == action
    assert parse_action(text.upper(), variant) == action
    assert parse_action(f"  {text}  ".replace(" ", "   "), variant) == action
    assert action.to_json() == text


@given(actions)
def test_parse_action_passes_actions_through(case: Case) -> None:
    variant, action = case
    assert parse_action(action, variant) is action


@pytest.mark.parametrize(
    ("variant", "text", "action"),
    [
        ("spike", "stand", Stand()),
        ("classic", "pass", Stand()),
        ("spike", "gain", Gain()),
        ("classic", "draw", Gain()),
        ("surabat", "gain +3", Gain(3)),
        ("surabat", "gain -3", Gain(-3)),
        ("surabat", "gain 0", Gain(0)),
        ("spike", "swap discard -3", Swap("discard", -3)),
        ("spike", "swap draw +4", Swap("draw", 4)),
        ("spike", "swap draw +4c", Swap("draw", 4)),  # stave letters are accepted and ignored
        ("spike", "swap discard -10t", Swap("discard", -10)),
        ("surabat", "swap moon +4s", Swap("moon", 4)),
        ("classic", "exchange 7f", Swap("draw", 7)),
        ("surabat", "discard +4", Discard(4)),
        ("spike", "check", Check()),
        ("classic", "call", Call()),
        ("spike", "bet 5", Bet(5)),
        ("surabat", "raise 3", Raise(3)),
        ("spike", "junk", Junk()),
        ("coruscant", "fold", Junk()),
        ("classic", "call hand", CallHand()),
        ("classic", "CALL   HAND", CallHand()),
    ],
)
def test_parse(variant: str, text: str, action: sabacc.Action) -> None:
    assert parse_action(text, variant) == action


@pytest.mark.parametrize(
    ("variant", "text"),
    [
        ("spike", "swap moon +4"),  # Surabat's Moon
        ("spike", "gain +3"),  # Surabat's Sun
        ("spike", "keep 0"),  # Coruscant's selection
        ("spike", "call hand"),  # classic's
        ("kessel", "gain"),
        ("kessel", "discard +4"),
        ("surabat", "swap draw +4"),
    ],
)
def test_a_variant_parses_only_its_own_actions(variant: str, text: str) -> None:
    # One parser per variant, built from its declared kinds: another variant's action is not
    # one of its actions.
    with pytest.raises(sabacc.IllegalActionError):
        parse_action(text, variant)


def test_the_swap_hint_names_the_variants_own_sources() -> None:
    with pytest.raises(sabacc.IllegalActionError) as spike:
        parse_action("swap hand +4", "spike")
    assert "say 'swap discard <card>' or 'swap draw <card>'" in str(spike.value)
    with pytest.raises(sabacc.IllegalActionError) as surabat:
        parse_action("swap hand +4", "surabat")
    assert "say 'swap moon <card>'" in str(surabat.value)


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
        parse_action(text, "surabat" if text.startswith(("discard", "gain")) else "spike")
    assert hint in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("thing", [None, 3, 4.5, ["stand"], b"stand"])
def test_non_text(thing: object) -> None:
    with pytest.raises(sabacc.IllegalActionError, match="must be text or an Action"):
        parse_action(thing)  # type: ignore[arg-type]


@given(st.text(max_size=20), st.sampled_from(sabacc.variant_names()))
@settings(max_examples=300, deadline=None)
def test_parse_never_crashes(text: str, variant: str) -> None:
    try:
        action = parse_action(text, variant)
    except sabacc.IllegalActionError:
        return
    assert parse_action(str(action), variant) == action


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
