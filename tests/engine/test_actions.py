"""Declared action kinds and shown fields (sabacc/engine/actions.py): the parser they build, and
that every variant's declarations cover what its games do."""

from __future__ import annotations

import random

import pytest

import sabacc
from sabacc.core.actions import STAND, Bet
from sabacc.engine.actions import (
    COMMON_FIELDS,
    SHARED_KINDS,
    ActionParser,
    Control,
    Field,
)
from sabacc.variants.registry import lookup
from sabacc.variants.spike_family.actions import GAIN_KIND, SWAP_DRAW_KIND, Swap


def test_a_kinds_head_is_its_literal_words() -> None:
    assert SWAP_DRAW_KIND.head == ("swap", "draw")
    assert lookup("classic").action_kind("call_hand").head == ("call", "hand")  # type: ignore[union-attr]
    assert lookup("kessel").action_kind("token").head == ("token",)  # type: ignore[union-attr]


def test_every_parser_reads_the_shared_kinds() -> None:
    # A parser of one kind still reads stand and betting: a variant without betting refuses
    # "bet 2" as not allowed now, not as unknown.
    parse = ActionParser([GAIN_KIND])
    assert parse("pass") is STAND and parse("bet 2") == Bet(2)
    assert [k.name for k in parse.kinds] == ["gain"]  # declared kinds only
    with pytest.raises(sabacc.IllegalActionError, match="unknown action 'swap draw \\+4'"):
        parse("swap draw +4")


def test_kind_of_tells_kinds_sharing_a_class_apart() -> None:
    surabat = lookup("surabat").parser
    assert surabat.kind_of(Swap("moon", 3)).name == "swap_moon"  # type: ignore[union-attr]
    assert surabat.kind_of(Swap("draw", 3)) is None  # Spike's swap: not Surabat's
    assert surabat.kind_of(surabat("gain +3")).name == "gain_sun"  # type: ignore[union-attr]


def test_a_field_says_how_it_is_shown() -> None:
    with pytest.raises(ValueError, match="show is one of"):
        Field("sun", "sideways")
    info = lookup("surabat")
    assert info.field_show("sun") == "pile" and info.field_show("nothing") is None
    assert info.placed_fields >= COMMON_FIELDS and "sun" in info.placed_fields


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_the_declarations_cover_every_legal_action(variant: str) -> None:
    # Every action a game lists is of one declared kind, its text reads back through the
    # variant's parser, and every observation key is common or declared (or worded by the
    # variant as a fact of its own, or laid out by its TableDisplay).
    info = lookup(variant)
    parser = info.parser
    shared = {kind.name for kind in SHARED_KINDS}
    for seed in range(3):
        game = sabacc.new_game(variant, players=3, seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            legal = game.legal_actions()
            for action in legal:
                kind = parser.kind_of(action)
                assert kind is not None, f"{variant}: {action} has no declared kind"
                assert kind.name in shared or kind in info.actions
                assert parser(str(action)) == action
            game.apply(rng.choice(legal) if legal else "check")


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_card_and_pile_kinds_name_their_piles(variant: str) -> None:
    info = lookup(variant)
    keys = {p.key for p in info.piles}
    names = {p.name for p in info.piles}
    for kind in info.actions:
        if kind.pile:
            assert kind.pile in keys, f"{kind.name}: no pile {kind.pile!r}"
        if kind.control is Control.PILE:  # a pile's card or the pile itself: a declared pile
            assert kind.source in names, f"{kind.name}: no pile named {kind.source!r}"
