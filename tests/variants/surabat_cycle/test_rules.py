"""Surabat Cycle rules (docs/rules.md §3, seed 001): scripted hands on a stacked deck.

The helpers here stack the deck by setting the game's piles directly (``arrange``) and fix the
spike dice (``fix_dice``); they are reused by ``test_surabat_props.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import sabacc
from sabacc.core.cards import Card, signed
from sabacc.core.events import (
    Acted,
    BlindDraw,
    CardDiscarded,
    CardTaken,
    Flipped,
    PotAwarded,
    Reshuffled,
)
from sabacc.variants.corellian_spike.rules import SPIKE_DECK
from sabacc.variants.surabat_cycle.rules import MoonPlaced, SurabatGame, SurabatOptions
from tests.support import check_cards, check_credits, snapshot

# ------------------------------------------------------------------------------------ helpers


def new(players: int = 3, seed: int = 1, **options: Any) -> SurabatGame:
    game = sabacc.new_game("surabat", players=players, seed=seed, **options)
    assert isinstance(game, SurabatGame)
    return game


def _codes(text: str | Sequence[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def arrange(
    game: SurabatGame,
    hands: dict[int, str] | None = None,
    *,
    sun: str = "",
    moon: str = "",
    draw_top: str = "",
    discard: str = "",
    muck: str = "",
) -> int:
    """Stack the current hand: the given cards go where named, the rest into the draw deck.

    ``draw_top`` lists the next cards drawn, first drawn first. Hands not named keep their size
    with cards from the bottom of the draw deck. Moon cards are placed by the dealer (known to
    nobody); every per-seat knowledge record is cleared. Returns the event count, to check
    event streams from there on (events before it describe the cards as really dealt).
    """
    free: dict[str, list[Card]] = {}
    for card in SPIKE_DECK.cards:
        free.setdefault(card.code, []).append(card)

    def take(text: str) -> list[Card]:
        out = []
        for code in _codes(text):
            if not free.get(code):
                raise AssertionError(f"{code} used twice or unknown")
            out.append(free[code].pop(0))
        return out

    hands = hands or {}
    named = {s: take(t) for s, t in hands.items()}
    sun_cards, moon_cards = take(sun), take(moon)
    top, disc, mk = take(draw_top), take(discard), take(muck)
    rest = [c for c in SPIKE_DECK.cards if c in {x for cs in free.values() for x in cs}]
    for s in range(game.n):
        if s in named:
            game.hands[s] = named[s]
        else:
            size = len(game.hands[s])
            game.hands[s] = rest[:size]
            rest = rest[size:]
    game.sun = sun_cards
    game.moon = moon_cards
    game.moon_owner = [None] * len(moon_cards)
    game.draw = rest + top[::-1]
    game.discard = disc
    game.muck = mk
    game.public_ids = [set() for _ in range(game.n)]
    game.seen = [set() for _ in range(game.n)]
    game._legal = None
    check_cards(game)
    return len(game.events)


def fix_dice(game: SurabatGame, doubles: bool) -> None:
    """Make the next spike roll doubles (a Sabacc Shift) or not."""
    for k in range(1000):
        r = random.Random(k)
        if (r.randrange(6) == r.randrange(6)) == doubles:
            game.rng = random.Random(k)
            return
    raise AssertionError("unreachable")


def play(game: SurabatGame, *actions: str) -> None:
    for a in actions:
        game.apply(a)
        check_credits(game)
        check_cards(game)


def passive(game: SurabatGame) -> str:
    """Stand in the card phase, check (or call) in betting."""
    legal = [str(a) for a in game.legal_actions()]
    for a in ("stand", "check", "call"):
        if a in legal:
            return a
    return legal[0]  # a forced discard


def finish_card_phase(game: SurabatGame) -> None:
    while game.phase == "card":
        game.apply("stand")


def finish_betting(game: SurabatGame) -> None:
    while game.phase == "betting":
        game.apply(passive(game))


def obs_json(game: SurabatGame, viewer: int | None) -> str:
    obs: dict[str, Any] = dict(game.observation(viewer))
    obs.pop("last_hand", None)
    return json.dumps(obs)


def events_json(game: SurabatGame, viewer: int | None, since: int = 0) -> str:
    return json.dumps([e.to_dict() for e in game.events_for(viewer, since)])


def known(game: SurabatGame, viewer: int | None, seat: int) -> list[str]:
    return list(game.observation(viewer)["seats"][seat]["known_cards"])


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


# ------------------------------------------------------------------------------------ registry


@pytest.mark.parametrize("name", ["surabat_cycle", "surabat", "surabat-cycle", "Surabat Cycle"])
def test_names_and_aliases(name: str) -> None:
    game = sabacc.new_game(name, players=2, seed=3)
    assert isinstance(game, SurabatGame)
    assert game.variant == "surabat_cycle"
    assert "surabat_cycle" in sabacc.variant_names()


def test_rules_text_mentions_the_array() -> None:
    text = sabacc.variant("surabat").rules_text
    for word in ("Sun", "Moon", "Cycle", "discard stack", "500", "4 with two players"):
        assert word in text


def test_defaults_of_section_3() -> None:
    opts = SurabatOptions()
    assert (opts.buy_in, opts.ante, opts.sabacc_ante, opts.hand_cap) == (500, 5, 5, 5)
    assert opts.rounds is None
    assert opts.changed() == {}
    game = new(4)
    assert game.stacks == [490] * 4
    assert game.pot_total() == 20 and game.sabacc_pot == 20
    assert game.observation(None)["betting"]["unit"] == 5
    assert "rounds" in SurabatOptions.help and "hand_cap" in SurabatOptions.help


def test_options_validate() -> None:
    with pytest.raises(sabacc.OptionError):
        new(2, rounds=0)
    with pytest.raises(sabacc.OptionError):
        new(2, hand_cap=1)
    with pytest.raises(sabacc.OptionError):
        new(2, moons=3)
    assert new(2, rounds="none").options.rounds is None
    assert new(2, rounds="2").options.rounds == 2


# ------------------------------------------------------------------------------------ the array


@pytest.mark.parametrize("players", [2, 5, 8])
def test_setup_array_and_deal(players: int) -> None:
    game = new(players, seed=11)
    assert len(game.sun) == 3 and len(game.moon) == 2
    assert all(len(h) == 2 for h in game.hands)
    assert len(game.draw) == 62 - 3 - 2 - 2 * players
    assert game.discard == [] and game.muck == []  # no flip: Surabat has no discard top
    flips = [e for e in game.events if isinstance(e, Flipped)]
    assert [(e.card, e.pile) for e in flips] == [(c.code, "sun") for c in game.sun]
    primes = [e for e in game.events if isinstance(e, MoonPlaced)]
    assert [(e.seat, e.card, e.reason) for e in primes] == [
        (None, c.code, "prime") for c in game.moon
    ]
    for viewer in [*range(players), None]:
        obs = game.observation(viewer)
        assert obs["sun"] == codes(game.sun)
        assert obs["moon_count"] == 2 and obs["moon_known"] == [None, None]
        assert (obs["round"], obs["starting_player"]) == (1, 1)
        assert obs["rounds"] == (4 if players == 2 else players)
        assert obs["discard_pile"] == [] and obs["discard_stack"] == 0
        ev = events_json(game, viewer)
        for card in game.moon:
            if card.code != "0" and all(card.id != c.id for c in game.sun):
                assert f'"{card.code}"' not in ev
                assert f'"{card.code}"' not in obs_json(game, viewer)


def test_sun_restock_when_the_last_card_is_taken() -> None:
    game = new(3)
    arrange(
        game,
        {1: "+1s +2s", 2: "+3s +4s", 0: "+5s +6s"},
        sun="-9c",
        moon="-1t -2t",
        draw_top="+7c +8c +9c +10c",
    )
    play(game, "gain -9")
    # Restocked at once, before the next player acts, from the draw deck's top.
    assert codes(game.sun) == ["+7c", "+8c", "+9c"]
    assert game.current_player == 2
    assert game.observation(2)["sun"] == ["+7c", "+8c", "+9c"]
    tail = [e for e in game.events[-4:] if isinstance(e, Flipped)]
    assert [(e.card, e.pile) for e in tail] == [("+7c", "sun"), ("+8c", "sun"), ("+9c", "sun")]
    # Taking two of three does not restock; taking the third does.
    play(game, "gain +8", "gain +7")
    assert codes(game.sun) == ["+9c"]
    finish_betting_and_spike(game)
    assert codes(game.sun) == ["+9c", "+10c"]  # the Cycle phase added one


def finish_betting_and_spike(game: SurabatGame) -> None:
    fix_dice(game, doubles=False)
    finish_betting(game)


def test_sun_restock_by_successive_gains() -> None:
    game = new(3)
    arrange(game, sun="+1c +2c +3c", moon="-1t -2t", draw_top="-4c -5c -6c")
    play(game, "gain +1", "gain +2")
    assert codes(game.sun) == ["+3c"]
    play(game, "gain +3")
    assert codes(game.sun) == ["-4c", "-5c", "-6c"]
    assert game.phase == "betting"


def test_gain_takes_the_named_sun_card_publicly() -> None:
    game = new(3)
    arrange(game, {1: "+1s +2s"}, sun="+4c -3c +4t", moon="-1t -2t")
    legal = [str(a) for a in game.legal_actions()]
    assert legal == ["stand", "gain -3", "gain +4", "swap moon +1", "swap moon +2"]
    play(game, "gain +4")
    assert codes(game.hands[1]) == ["+1s", "+2s", "+4t"]  # the newest copy of that value
    assert codes(game.sun) == ["+4c", "-3c"]
    for viewer in (0, 2, None):
        assert known(game, viewer, 1) == ["+4t"]
    taken = [e for e in game.events if isinstance(e, CardTaken)][-1]
    assert taken.visible_to(0) == taken and taken.card == "+4t"
    assert game.observation(0)["seats"][1]["last_action"] == "gain +4"


def test_gain_fee_and_swap_fee_are_paid_to_the_hand_pot() -> None:
    game = new(3, gain_fee=1, swap_fee=2)
    pot = game.pot_total()
    play(game, f"gain {signed(game.sun[0].value)}")
    assert game.pot_total() == pot + 1 and game.stacks[1] == 489
    play(game, f"swap moon {signed(game.hands[2][0].value)}")
    assert game.pot_total() == pot + 3 and game.stacks[2] == 488


# ------------------------------------------------------------------------------------ hand cap


def test_forced_discard_at_the_cap() -> None:
    game = new(3)
    arrange(game, {1: "+1c +2c +3c +4c +5c", 2: "-1c -2c"}, sun="-6c +7c -8c", moon="0 0")
    assert "gain -6" in [str(a) for a in game.legal_actions()]  # gain is legal at the cap
    play(game, "gain -6")
    assert game.phase == "discard" and game.current_player == 1
    assert len(game.hands[1]) == 6
    assert [str(a) for a in game.legal_actions()] == [
        "discard -6",
        "discard +1",
        "discard +2",
        "discard +3",
        "discard +4",
        "discard +5",
    ]
    before = snapshot(game)
    for bad in ("stand", "gain +7", "swap moon +1", "check", "discard +9", "discard -1"):
        assert not game.is_legal(bad)
        with pytest.raises(sabacc.IllegalActionError):
            game.apply(bad)
        assert snapshot(game) == before
    with pytest.raises(sabacc.IllegalActionError):
        game.apply("discard +3", seat=2)
    assert snapshot(game) == before
    play(game, "discard +3")
    assert codes(game.hands[1]) == ["+1c", "+2c", "+4c", "+5c", "-6c"]
    assert codes(game.discard) == ["+3c"]
    assert game.phase == "card" and game.current_player == 2
    for viewer in (0, 2, None):
        obs = game.observation(viewer)
        assert obs["discard_pile"] == ["+3c"] and obs["discard_stack"] == 1
        assert obs["seats"][1]["known_cards"] == ["-6c"]
    acts = [e for e in game.events if isinstance(e, Acted)][-2:]
    assert [(a.seat, a.public) for a in acts] == [(1, "gain -6"), (1, "discard +3")]
    assert isinstance(game.events[-1], CardDiscarded) and game.events[-1].card == "+3c"


def test_discarding_the_gained_card_and_no_discard_below_the_cap() -> None:
    game = new(3)
    arrange(game, {1: "+1c +2c +3c +4c", 2: "+1t +2t +3t +4t +5t"}, sun="-6c +7c -8c", moon="0 0")
    play(game, "gain -6")  # 4 -> 5 cards: no discard
    assert game.phase == "card" and game.current_player == 2
    play(game, "gain +7", "discard +7")  # the card just gained may go straight back out
    assert codes(game.hands[2]) == ["+1t", "+2t", "+3t", "+4t", "+5t"]
    assert codes(game.discard) == ["+7c"]
    assert known(game, 0, 2) == []


def test_hand_cap_option() -> None:
    game = new(3, hand_cap=3)
    arrange(game, {1: "+1c +2c"}, sun="-6c +7c -8c", moon="0 0")
    play(game, "gain -6")
    assert game.current_player == 2 and game.phase == "card"
    play(game, "stand", "stand")
    finish_betting_and_spike(game)
    assert game.round == 2 and game.current_player == 2
    play(game, "stand", "stand")
    assert game.current_player == 1
    play(game, "gain +7")
    assert game.phase == "discard" and len(game.hands[1]) == 4


# ------------------------------------------------------------------------------------ the Moon


def test_moon_swap_and_what_each_seat_observes() -> None:
    """A (seat 1) swaps +4c onto the Moon; B (seat 2) takes it; C (seat 0) sees neither card."""
    game = new(3)
    since = arrange(
        game,
        {1: "+4c -5c", 2: "-7s +8s", 0: "+9t -10t"},
        sun="+1c +2c +3c",
        moon="-2t +6t",
        draw_top="+2s +3s",
    )
    play(game, "swap moon +4")
    assert codes(game.hands[1]) == ["-5c", "+6t"]
    assert codes(game.moon) == ["-2t", "+4c"] and game.moon_owner == [None, 1]
    obs = {v: game.observation(v) for v in (0, 1, 2, None)}
    assert obs[1]["moon_known"] == [None, "+4c"]
    for v in (0, 2, None):
        assert obs[v]["moon_known"] == [None, None]
        assert obs[v]["moon_count"] == 2
        assert obs[v]["seats"][1]["known_cards"] == []
        assert obs[v]["seats"][1]["last_action"] == "swap moon"
        for code in ("+4c", "+6t", "-5c"):
            assert f'"{code}"' not in obs_json(game, v)
            assert f'"{code}"' not in events_json(game, v, since)
    acted = next(e for e in game.events[since:] if isinstance(e, Acted))
    assert acted.visible_to(0) == Acted(1, "swap moon", None)
    assert acted.visible_to(1).action == "swap moon +4"  # type: ignore[attr-defined]
    assert '"+4c"' in events_json(game, 1, since) and '"+6t"' in events_json(game, 1, since)

    play(game, "swap moon -7")  # B takes the +4c that A put there
    assert codes(game.hands[2]) == ["+8s", "+4c"]
    assert codes(game.moon) == ["-2t", "-7s"] and game.moon_owner == [None, 2]
    assert known(game, 1, 2) == ["+4c"]  # A knows B holds it
    assert known(game, 0, 2) == [] and known(game, None, 2) == []
    assert game.observation(1)["moon_known"] == [None, None]
    assert game.observation(2)["moon_known"] == [None, "-7s"]
    assert game.observation(2)["you"]["cards"] == ["+8s", "+4c"]
    for v in (0, None):
        assert '"+4c"' not in obs_json(game, v) and '"-7s"' not in obs_json(game, v)
    assert '"-7s"' not in obs_json(game, 1) and '"-7s"' not in events_json(game, 1, since)

    play(game, "stand")
    finish_betting_and_spike(game)
    # Cycle: a face-up Sun card and a face-down Moon card nobody knows, on top of B's -7s.
    assert codes(game.sun) == ["+1c", "+2c", "+3c", "+2s"]
    assert codes(game.moon) == ["-2t", "-7s", "+3s"] and game.moon_owner == [None, 2, None]
    assert game.observation(2)["moon_known"] == [None, "-7s", None]
    for v in (0, 1, None):
        assert game.observation(v)["moon_known"] == [None, None, None]
    cycle = [e for e in game.events if isinstance(e, MoonPlaced) and e.reason == "cycle"]
    views = [cycle[0].visible_to(v) for v in (0, 1, 2, None)]
    assert len(cycle) == 1 and all(isinstance(e, MoonPlaced) and e.card is None for e in views)
    assert known(game, 1, 2) == ["+4c"]  # knowledge survives the round end

    # Round 2 starts with seat 2 (B): B puts another card on the Moon, so A loses track of +4c.
    assert game.current_player == 2
    play(game, "swap moon +8")
    assert known(game, 1, 2) == []
    assert game.observation(2)["moon_known"] == [None, "-7s", "+8s"]


def test_a_moon_swap_hides_cards_gained_from_the_sun() -> None:
    game = new(3)
    arrange(game, {1: "+1c +2c", 2: "+1t +2t"}, sun="+5c +6c +7c", moon="-1t -2t")
    play(game, "gain +5")
    assert known(game, 0, 1) == ["+5c"]
    play(game, "stand", "stand")
    finish_betting_and_spike(game)
    play(game, "stand", "stand")  # round 2: seats 2, 0, then 1
    assert game.current_player == 1
    play(game, "swap moon +1")  # others cannot tell whether the +5c went face down
    for v in (0, 2, None):
        assert known(game, v, 1) == []
    assert known(game, 1, 1) == []  # the base observation's own seat entry is unchanged


def test_dealer_moon_card_taken_is_known_only_to_the_taker() -> None:
    game = new(2)
    since = arrange(game, {1: "+1c +2c", 0: "+3c +4c"}, sun="+5c +6c +7c", moon="-1t -2t")
    play(game, "swap moon +1")
    assert "-2t" in codes(game.hands[1])
    assert known(game, 0, 1) == [] and game.seen == [set(), set()]
    assert '"-2t"' not in obs_json(game, 0) and '"-2t"' not in events_json(game, 0, since)
    assert '"-2t"' in obs_json(game, 1)


def test_taking_back_your_own_moon_card() -> None:
    game = new(2, rounds=2)
    arrange(game, {1: "+1c +2c", 0: "+3c +4c"}, sun="+5c +6c +7c", moon="-1t -2t")
    game.draw, rest = [], game.draw  # no cards for the Cycle phase: the Moon top stays
    game.apply("swap moon +1")
    game.apply("stand")
    finish_betting_and_spike(game)
    game.draw = rest
    assert codes(game.moon) == ["-1t", "+1c"]
    play(game, "stand", "swap moon +2")  # round 2: seat 0 first, then seat 1
    assert "+1c" in codes(game.hands[1]) and game.seen == [set(), set()]
    assert game.observation(1)["moon_known"] == [None, "+2c"]


def test_moon_swap_illegal_without_the_card() -> None:
    game = new(3)
    arrange(game, {1: "+1c +2c"}, sun="+5c +6c +7c", moon="-1t -2t")
    before = snapshot(game)
    for bad in ("swap moon +3", "swap draw +1", "swap discard +1", "gain", "gain +1", "discard +1"):
        with pytest.raises(sabacc.IllegalActionError):
            game.apply(bad)
        assert snapshot(game) == before


# ------------------------------------------------------------------------------------ rounds


def play_hand_passively(
    game: SurabatGame,
) -> tuple[list[int | None], list[int | None], list[int]]:
    """Stand/check through a hand; returns the starting players, first bettors, rounds seen."""
    starts: list[int | None] = []
    bettors: list[int | None] = []
    rounds: list[int] = []
    hand = game.hand_no
    last_phase, last_round = "", 0
    while game.hand_no == hand and not game.is_over:
        if game.round != last_round:
            starts.append(game.current_player)
            rounds.append(game.round)
            assert game.observation(None)["starting_player"] == game.current_player
        if game.phase == "betting" and last_phase != "betting":
            bettors.append(game.current_player)
        last_round, last_phase = game.round, game.phase
        game.apply(passive(game))
    return starts, bettors, rounds


@pytest.mark.parametrize(("players", "rounds"), [(2, 4), (3, 3), (4, 4), (6, 6), (8, 8)])
def test_round_count(players: int, rounds: int) -> None:
    game = new(players, seed=5)
    assert game.observation(0)["rounds"] == rounds
    starts, bettors, seen = play_hand_passively(game)
    assert seen == list(range(1, rounds + 1))
    cycles = [e for e in game.events if isinstance(e, MoonPlaced) and e.reason == "cycle"]
    assert len(cycles) == rounds
    # Round 1 starts left of the dealer (seat 0); the start moves one seat clockwise a round.
    expected = [(1 + r) % players for r in range(rounds)]
    assert starts == expected
    assert bettors == expected  # the betting phase starts from the round's starting player


def test_rounds_option_overrides_the_count() -> None:
    game = new(3, rounds=5)
    starts, _, seen = play_hand_passively(game)
    assert seen == [1, 2, 3, 4, 5] and starts == [1, 2, 0, 1, 2]


def test_second_hand_starts_left_of_the_new_dealer() -> None:
    game = new(3, seed=8)
    play_hand_passively(game)
    assert game.dealer == 1
    starts, _, _ = play_hand_passively(game)
    assert starts == [2, 0, 1]


def test_junked_starting_seat_passes_the_start_left() -> None:
    game = new(3, seed=2)
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    play(game, "check", "junk")  # seat 2, round 2's starting seat, junks
    while game.phase == "betting":
        game.apply(passive(game))
    assert game.round == 2 and game.current_player == 0
    assert game.observation(None)["starting_player"] == 0
    finish_card_phase(game)
    assert game.phase == "betting" and game.current_player == 0


def test_cycle_phase_adds_one_card_to_each_pile() -> None:
    game = new(3)
    arrange(game, sun="+1c +2c +3c", moon="-1t -2t", draw_top="+9c -9c")
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    finish_betting(game)
    assert codes(game.sun) == ["+1c", "+2c", "+3c", "+9c"]
    assert codes(game.moon) == ["-1t", "-2t", "-9c"]
    for v in (0, 1, 2, None):
        obs = game.observation(v)
        assert obs["sun"][-1] == "+9c" and obs["moon_count"] == 3
        assert '"-9c"' not in obs_json(game, v)


# ------------------------------------------------------------------------------------ spike


def test_sabacc_shift_discards_to_the_stack_without_a_flip() -> None:
    game = new(3)
    arrange(
        game,
        {1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"},
        sun="-1c -2c -3c",
        moon="-4c -5c",
        draw_top="+1t +2t +3t +4t +5t +6t +7t -7t +8t",
    )
    play(game, "gain -1")  # seat 1 now holds three cards
    finish_card_phase(game)
    fix_dice(game, doubles=True)
    finish_betting(game)
    # Shift: everyone discards face up onto the discard stack, dealt the same number anew from
    # the dealer's left; nothing is flipped afterwards.
    assert sorted(codes(game.discard)) == sorted(["+1c", "+2c", "-1c", "+3c", "+4c", "+5c", "+6c"])
    assert [len(h) for h in game.hands] == [2, 3, 2]
    assert codes(game.hands[1]) == ["+1t", "+2t", "+3t"]
    assert codes(game.hands[2]) == ["+4t", "+5t"]
    assert codes(game.hands[0]) == ["+6t", "+7t"]
    assert codes(game.sun) == ["-2c", "-3c", "-7t"] and codes(game.moon)[-1] == "+8t"
    assert known(game, 0, 1) == []
    obs = game.observation(0)
    assert obs["discard_stack"] == 7 and obs["dice"][0] == obs["dice"][1]
    assert not [e for e in game.events if isinstance(e, Flipped) and e.pile == "discard"]


def test_junked_hand_goes_face_down_into_the_discard_stack() -> None:
    game = new(3)
    since = arrange(
        game, {1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"}, sun="-1c -2c -3c", moon="-4c -5c"
    )
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    play(game, "junk")
    assert codes(game.muck) == ["+1c", "+2c"] and game.hands[1] == []
    for v in (0, 2, None):
        obs = game.observation(v)
        assert obs["discard_pile"] == [] and obs["mucked"] == 2 and obs["discard_stack"] == 2
        assert '"+1c"' not in obs_json(game, v) and '"+1c"' not in events_json(game, v, since)


def test_reshuffle_of_the_whole_discard_stack() -> None:
    game = new(3)
    arrange(
        game,
        {1: "+1c +2c", 2: "+3c +4c", 0: "+5c +6c"},
        sun="-1c -2c -3c",
        moon="-4c -5c",
        discard="+7c +8c +9c",
        muck="-7c -8c",
    )
    keep = game.draw[-1]
    others = game.draw[:-1]
    game.draw = [keep]
    game.muck += others  # every other card is in the stack, face down
    check_cards(game)
    stack = len(game.discard) + len(game.muck)
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    since = len(game.events)
    finish_betting(game)
    # Cycle: the Sun takes the last draw card; the Moon's card needs a reshuffle of everything.
    assert game.sun[-1] == keep
    shuffles = [e for e in game.events[since:] if isinstance(e, Reshuffled)]
    assert [e.cards for e in shuffles] == [stack]
    assert game.discard == [] and game.muck == []
    assert len(game.draw) == stack - 1
    check_cards(game)


def test_restock_reshuffles_when_the_deck_is_empty() -> None:
    game = new(3)
    arrange(game, {1: "+1c +2c"}, sun="-1c", moon="-4c -5c", discard="+7c")
    game.muck, game.draw = game.draw, []
    play(game, "gain -1")
    assert len(game.sun) == 3 and game.discard == [] and game.muck == []
    assert isinstance(game.events[-4], Reshuffled)


def test_nothing_left_to_draw() -> None:
    """With the draw deck and the discard stack empty, the Sun cannot restock and the Cycle
    phase adds nothing (hand_cap 8, eight players: 64 > 62 cards)."""
    game = new(3)
    arrange(game, {1: "+1c +2c"}, sun="-1c", moon="-4c -5c")
    game.moon += game.draw
    game.moon_owner += [None] * len(game.draw)
    game.draw = []
    play(game, "gain -1")
    assert game.sun == [] and "gain" not in " ".join(str(a) for a in game.legal_actions())
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    moon = len(game.moon)
    finish_betting(game)
    assert game.sun == [] and len(game.moon) == moon


# ------------------------------------------------------------------------------------ showdown


def showdown(hands: dict[int, str], players: int = 2) -> SurabatGame:
    game = new(players, rounds=1)
    arrange(game, hands, sun="+10c +10t +10s", moon="-10c -10t")
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    finish_betting(game)
    assert game.hand_no == 2
    return game


def test_showdown_zero_takes_both_pots() -> None:
    game = showdown({1: "+4c -4t", 0: "+1c +2c"})
    result = game.hand_results[-1]
    assert [(p.pot, p.amount, p.winners) for p in result.pots] == [
        ("main", 10, (1,)),
        ("sabacc", 10, (1,)),
    ]
    assert result.hands[1][1] is not None and result.hands[1][1].name == "Sabacc"
    assert game.stacks == [480, 500]  # 490 + 20 for the winner; both anted 10 into hand 2


def test_showdown_closest_to_zero_takes_the_hand_pot_only() -> None:
    game = showdown({1: "+1c +2c", 0: "-1c -3c"})
    result = game.hand_results[-1]
    assert [(p.pot, p.winners) for p in result.pots] == [("main", (1,))]
    assert result.carried == {"sabacc": 10}
    assert game.sabacc_pot == 20  # carried, plus hand 2's antes


def test_showdown_uses_spike_ranks_and_tie_breakers() -> None:
    # Both total 0; Yee-Haa (a Sylop and a pair) beats a plain pair.
    game = showdown({1: "+4c -4t", 0: "+3c -3t 0"})
    assert game.hand_results[-1].pots[0].winners == (0,)
    # Nulrhek: equal distance, the positive total wins.
    game = showdown({1: "-1c -2c", 0: "+1c +2c"})
    assert game.hand_results[-1].pots[0].winners == (0,)
    awarded = [e for e in game.events if isinstance(e, PotAwarded)]
    assert awarded[-1].seats == (0,)


# ------------------------------------------------------------------------------------ API


def test_replay_reproduces_the_state() -> None:
    rng = random.Random(4)
    game = new(4, seed=99, game_end="hands:2")
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(rng.choice(legal[:12]))
        if rng.random() < 0.05:
            again = sabacc.replay(game.history())
            assert again.full_state() == game.full_state()
            assert again.observation(1) == game.observation(1)
            assert [e.to_dict() for e in again.events] == [e.to_dict() for e in game.events]
    again = sabacc.replay(game.history())
    assert again.full_state() == game.full_state() and again.outcome == game.outcome
    assert json.loads(json.dumps(game.history())) == game.history()


def test_history_keeps_moon_swaps_but_observations_do_not() -> None:
    game = new(2, seed=3)
    text = f"swap moon {signed(game.hands[1][0].value)}"
    game.apply(text)
    assert game.history()["actions"][0] == {"seat": 1, "action": text}
    assert game.observation(0)["seats"][1]["last_action"] == "swap moon"


def test_card_locations_cover_every_pile() -> None:
    game = new(3)
    arrange(game, sun="+1c", moon="-1t -2t", discard="+9c", muck="-9c +8c")
    locs = game.card_locations()
    assert len(locs) == 62 and len({c.id for c in locs}) == 62
    counts = Counter(c.code for c in locs)
    assert counts["0"] == 2 and counts["+9c"] == 1 and counts["-9c"] == 1


def test_clone_is_independent() -> None:
    game = new(3, seed=21)
    arrange(game, {1: "+1c +2c", 2: "+3c +4c"}, sun="+5c +6c +7c", moon="-1t -2t")
    play(game, "swap moon +1", "swap moon +3")  # seat 1 now knows seat 2 holds +1c
    assert game.seen[1]
    before = snapshot(game)
    twin = game.clone()
    assert isinstance(twin, SurabatGame)
    twin.apply("gain +5")  # seat 0
    twin.apply("check")  # seat 1
    twin.apply("junk")  # seat 2: seat 1 forgets the +1c it knew seat 2 held
    assert twin.seen[1] == set() and game.seen[1]
    while not twin.is_over and twin.hand_no == 1:
        twin.apply(passive(twin))
    assert snapshot(game) == before
    twin2 = game.clone(log=False)
    twin2.apply("stand")
    assert snapshot(game) == before


def test_array_is_set_before_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 001: the dealer sets the Sun and Moon piles, then deals (from the deck's top)."""
    monkeypatch.setattr(SurabatGame, "_shuffled", lambda self, cards: list(cards))
    game = new(3)
    deck = list(SPIKE_DECK.cards)  # unshuffled: the top is the last card
    assert game.sun == deck[-3:][::-1]
    assert game.moon == deck[-5:-3][::-1]
    # Two cards each, one at a time from the dealer's left: seats 1, 2, 0, 1, 2, 0.
    dealt = deck[-11:-5][::-1]
    assert game.hands[1] == [dealt[0], dealt[3]]
    assert game.hands[2] == [dealt[1], dealt[4]]
    assert game.hands[0] == [dealt[2], dealt[5]]


def test_junked_hands_alone_are_reshuffled_when_needed() -> None:
    game = new(3)
    arrange(game, {1: "+1c +2c"}, sun="-1c", moon="-4c -5c")
    game.muck, game.draw = game.draw, []  # the stack holds only face-down junked cards
    play(game, "gain -1")
    assert len(game.sun) == 3 and game.muck == []


def test_discarding_a_sylop_drops_the_one_others_know_about() -> None:
    """Seat 2 holds two Sylops, one of them put on the Moon by seat 1 (who knows it). Discarding
    "0" must discard the known one: keeping it would tell seat 1 that seat 2 had another."""
    game = new(3, hand_cap=2)
    since = arrange(game, {1: "0 +1c", 2: "0 +2c", 0: "+3c +4c"}, sun="+5c +6c +7c", moon="-1t")
    play(game, "swap moon 0", "swap moon +2")
    assert codes(game.hands[2]) == ["0", "0"] and known(game, 1, 2) == ["0"]
    play(game, "stand")
    finish_betting_and_spike(game)
    play(game, "gain +5")  # round 2 starts with seat 2: at the cap, so discard
    play(game, "discard 0")
    assert codes(game.hands[2]) == ["0", "+5c"]
    assert known(game, 1, 2) == ["+5c"]
    assert game.seen[1] == set()
    assert '"+2c"' not in events_json(game, 1, since)  # seat 2's Moon card stays secret


def test_true_tie_blind_draw_from_the_draw_deck() -> None:
    game = new(2, rounds=1)
    arrange(
        game,
        {1: "+1c +2c", 0: "+1t +2t"},
        sun="+10c +10t +10s",
        moon="-10c -10t",
        draw_top="+9c -9c +3c -5c",  # the Cycle phase takes +9c and -9c
    )
    finish_card_phase(game)
    fix_dice(game, doubles=False)
    finish_betting(game)
    draws = [(e.seat, e.card) for e in game.events if isinstance(e, BlindDraw)]
    assert draws == [(1, "+3c"), (0, "-5c")]
    assert game.hand_results[-1].pots[0].winners == (1,)
