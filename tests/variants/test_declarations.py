"""What each variant declares to the apps (``VariantInfo``) is true of its games.

Apps draw piles, count rounds, size bets, name pot winners and offer options from these
declarations instead of knowing the variant, so each one is checked against the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import sabacc
from sabacc.core.errors import OptionError
from sabacc.core.options import OptionSpec
from sabacc.engine.game import Game
from sabacc.services.bots import decide, make_bot
from sabacc.variants.registry import lookup

VARIANTS = sabacc.variant_names()


def _played(variant: str, seed: int, players: int = 3, **options: Any) -> list[Game]:
    """Snapshots (clones) of a seeded game played by heuristic bots, one per decision."""
    game = sabacc.new_game(variant, players=players, seed=seed, **options)
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(players)]
    states = []
    for _ in range(400):
        if game.is_over:
            break
        states.append(game.clone())
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game), seat=seat)
    states.append(game)
    return states


@pytest.mark.parametrize("variant", VARIANTS)
def test_declared_piles_are_in_every_observation(variant: str) -> None:
    info = lookup(variant)
    assert info.piles, "a variant declares its piles"
    for game in _played(variant, seed=3)[::7]:
        obs = game.observation(0)
        for pile in info.piles:
            value = obs[pile.key]
            if pile.face_up:
                assert isinstance(value, list) and all(isinstance(c, str) for c in value)
            else:
                assert isinstance(value, int) and value >= 0
                if pile.known_key is not None:
                    assert len(obs[pile.known_key]) == value


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_declared_rounds_and_bet_unit_match_the_game(variant: str, players: int) -> None:
    info = lookup(variant)
    names = info.options_type.names()
    choices: list[dict[str, Any]] = [
        {},
        {"ante": 3} if "ante" in names else {},
        {"ante": 2, "min_bet": 4} if "min_bet" in names else {},
    ]
    for options in choices:
        game = sabacc.new_game(variant, players=players, seed=1, **options)
        obs = game.observation(0)
        assert info.rounds(game.options, players) == obs.get("rounds")
        assert info.bet_unit(game.options) == obs["betting"]["unit"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_pot_rules_name_who_takes_each_pot(variant: str) -> None:
    # At every showdown of seeded games, a pot besides the main one goes to the main pot's
    # winners exactly when their hands satisfy the pot's declared rule.
    info = lookup(variant)
    if info.pots[0].per_seat:
        _check_per_seat_pots(variant)
        return
    assert info.pots[0].pot == "main"
    side_rules = list(info.pots[1:])
    showdowns = 0
    taken = set()
    for seed in range(12):
        final = _played(variant, seed=seed)[-1]
        for result in final.hand_results:
            main = next((p for p in result.pots if p.pot == "main"), None)
            if result.reason not in ("showdown", "called", "forced_call") or main is None:
                continue
            hands = [result.hands[s][1] for s in main.winners]
            if any(h is None for h in hands):
                continue
            showdowns += 1
            for rule in side_rules:
                won = {s for p in result.pots if p.pot == rule.pot for s in p.winners}
                for seat, hand in zip(main.winners, hands, strict=True):
                    assert hand is not None
                    assert (seat in won) == rule.takes(hand), (seed, result.hand, rule.pot)
                    taken.add(seat in won)
    assert showdowns > 0
    assert taken == ({True, False} if side_rules else set())  # both directions were seen


def _check_per_seat_pots(variant: str) -> None:
    # One pot per seat ("<pot> <seat>"): at every showdown, each seat's own pot goes back to it
    # exactly when its hand is a best one and satisfies the rule; nobody else ever takes it.
    info = lookup(variant)
    assert len(info.pots) == 1, "a per-seat pot is the only pot"
    rule = info.pots[0]
    taken = set()
    for seed in range(12):
        for result in _played(variant, seed=seed)[-1].hand_results:
            values = {s: h for s, (_cards, h) in result.hands.items() if h is not None}
            if not values:
                continue
            best = max(values.values())
            for pot in result.pots:
                name, seat = pot.pot.rsplit(" ", 1)
                assert name == rule.pot and int(seat) in values, pot
                s = int(seat)
                won = values[s] == best and rule.takes(values[s])
                assert pot.winners == ((s,) if won else ()), (seed, result.hand, pot)
                taken.add(won)
    assert taken == {True, False}


@pytest.mark.parametrize(
    ("variant", "cards", "takes"),
    [
        ("spike", "+4 -4", True),
        ("spike", "+4 -3", False),
        ("surabat", "0 0", True),
        ("classic", "0 2 3", True),
        ("classic", "11s 12t", True),
        ("classic", "11s 11t", False),
    ],
)
def test_sabacc_pot_rule(variant: str, cards: str, takes: bool) -> None:
    v = sabacc.variant(variant)
    rule = v.info.pot_rule("sabacc")
    assert rule is not None and rule.takes(v.evaluate(cards)) is takes


def _specs(variant: str) -> list[OptionSpec]:
    return lookup(variant).options_type.specs()


@pytest.mark.parametrize("variant", VARIANTS)
def test_option_specs_describe_what_is_accepted(variant: str) -> None:
    options_type = lookup(variant).options_type
    defaults = options_type()
    specs = _specs(variant)
    assert [s.name for s in specs] == options_type.names()
    for spec in specs:
        assert spec.default == getattr(defaults, spec.name)
        assert spec.help, f"{spec.name} has no help text"
        if spec.kind == "choice":
            for choice in spec.choices:
                assert getattr(options_type.from_mapping({spec.name: choice}), spec.name) == choice
            with pytest.raises(OptionError, match="must be one of"):
                options_type.from_mapping({spec.name: "no-such-choice"})
        if spec.kind == "int" and spec.minimum is not None:
            options_type.from_mapping({spec.name: spec.minimum})
            with pytest.raises(OptionError):
                options_type.from_mapping({spec.name: spec.minimum - 1})
        if spec.kind == "int" and spec.maximum is not None:
            options_type.from_mapping({spec.name: spec.maximum})
            with pytest.raises(OptionError, match="or less"):
                options_type.from_mapping({spec.name: spec.maximum + 1})
        if spec.optional:
            assert getattr(options_type.from_mapping({spec.name: "none"}), spec.name) is None
        assert spec.to_dict()["choices"] == list(spec.choices)


def test_enum_options_are_choices() -> None:
    specs = {s.name: s for s in _specs("spike")}
    assert specs["betting"].describe() == "one of no_limit | pot_limit | fixed"
    assert specs["hand_cap"].describe() == "2..8"
    assert specs["min_bet"].describe() == "none or >= 1"
    assert specs["betting"].choices == ("no_limit", "pot_limit", "fixed")
    assert specs["true_tie"].choices == ("blind_draw", "split")
    assert specs["hand_cap"].minimum == 2 and specs["hand_cap"].maximum == 8
    classic = {s.name: s for s in _specs("classic")}
    assert classic["sabacc_ante"].choices == ("if_empty", "always")
    assert classic["scoring"].choices == ("signed", "absolute")
    assert classic["allow_exchange_at_two"].kind == "bool"


def test_a_bool_option_refuses_other_values() -> None:
    with pytest.raises(OptionError, match="true or false"):
        sabacc.variant("classic", allow_exchange_at_two=1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_card_art_and_compiled_core_are_declared(variant: str) -> None:
    info = lookup(variant)
    assert info.card_art, "a variant ships its card art"
    art = (Path(sabacc.variants.__file__).parent / info.card_art).read_text("utf-8")
    for export in ("cardHTML", "displayCode", "formatTotal"):  # what cards.js calls
        assert f"export function {export}(" in art
    if info.compiled is not None:
        try:
            core = info.compiled()
        except ImportError:
            pytest.skip("the compiled core is not built")
        game = core(info.options_type(), seed=5, players=3)
        ref = info.game_type(info.options_type(), seed=5, players=3)
        assert game.observation(0) == ref.observation(0)
