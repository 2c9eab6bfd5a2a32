"""The pure parts of the table: drawing from observations, key-bound choices, bet sizing."""

from __future__ import annotations

import random

import pytest

import sabacc
from sabacc.apps.tui.config import TableConfig, parse_bots
from sabacc.apps.tui.controls import Sizer, build_choices, legal_texts
from sabacc.apps.tui.screens import reflow
from sabacc.apps.tui.view import (
    card_lines,
    card_value,
    colour_cards,
    dice_line,
    info_parts,
    key_facts,
    pile_counts,
    piles,
    result_lines,
    seat_body,
    seat_title,
    standings_lines,
    you_summary,
)
from sabacc.core.actions import Bet, Raise
from sabacc.core.errors import OptionError
from sabacc.services.explain import explain_hand
from sabacc.services.render import render_log, vocabulary
from sabacc.variants.spike_family.actions import Swap


def test_cards_are_drawn_with_value_symbol_and_colour() -> None:
    lines = [line.plain for line in card_lines("corellian_spike", "+10c", index=3)]
    assert lines == ["╭3────╮", "│+10 ●│", "│  ●  │", "│  +10│", "╰─────╯"]
    assert "green" in str(card_lines("corellian_spike", "+7t")[1].spans[0].style)
    assert "red" in str(card_lines("corellian_spike", "-2s")[1].spans[0].style)
    assert [line.plain for line in card_lines("corellian_spike", "0")][2] == "│Sylop│"
    classic = [line.plain for line in card_lines("classic", "12c")]
    assert classic[1] == "│12  ♦│" and classic[2] == "│Cmdr │"
    assert [line.plain for line in card_lines("classic", "-17")][2] == "│Star │"
    assert card_value("-13") == -13 and card_value("+4t") == 4 and card_value("11f") == 11


def test_log_lines() -> None:
    text = colour_cards("corellian_spike", "Bot 1 takes -7t and +3; rolls 3 3")
    coloured = {text.plain[s.start : s.end] for s in text.spans}
    assert coloured == {"-7▲", "+3"}  # written with the stave symbol, as the cards show it
    assert text.plain == "Bot 1 takes -7▲ and +3; rolls 3 3"
    assert colour_cards("classic", "You show 11f 0: total 11").plain == "You show 11♥ 0: total 11"


@pytest.mark.parametrize("variant", ["corellian_spike", "surabat_cycle", "classic"])
def test_every_legal_action_has_a_key_and_nothing_else(variant: str) -> None:
    """Random playouts: the choices reach exactly the legal actions, one key per choice."""
    rng = random.Random(7)
    game = sabacc.new_game(variant, players=3, seed=11)
    for _ in range(150):
        if game.is_over:
            break
        seat = game.current_player
        obs = game.observation(seat)
        choices = build_choices(obs)
        keys = [c.key for c in choices]
        assert len(keys) == len(set(keys))
        legal = game.legal()
        reached = set()
        for c in choices:
            if c.kind == "direct":
                assert c.action is not None and game.is_legal(c.action)
                reached.add(c.action)
            elif c.kind == "pick":
                assert len({o.key for o in c.options}) == len(c.options)
                reached.update(o.action for o in c.options)
            else:
                rng_ = legal.bet if c.size_kind == "bet" else legal.raise_
                assert rng_ == (c.low, c.high)
                assert rng_ is not None
                sizes = range(rng_[0], rng_[1] + 1)
                reached.update(Bet(n) if c.size_kind == "bet" else Raise(n) for n in sizes)
        assert reached == set(game.legal_actions()), legal_texts(choices)
        game.apply(rng.choice(game.legal_actions()))


def test_choices_in_each_phase() -> None:
    game = sabacc.new_game("spike", players=2, seed=1)
    obs = game.observation(game.current_player)
    labels = {c.key: c.label for c in build_choices(obs)}
    assert labels == {
        "s": "stand",
        "g": "gain (draw)",
        "d": "swap with discard",
        "e": "swap with draw",
    }
    swap = next(c for c in build_choices(obs) if c.key == "d")
    assert [o.key for o in swap.options] == ["1", "2"]
    assert all(isinstance(o.action, Swap) and o.where == "hand" for o in swap.options)


def test_sizer_stays_in_range() -> None:
    s = Sizer("raise", 2, 40, unit=2, pot=10, to_call=4)
    assert s.value == 2 and s.presets == {"min": 2, "half": 7, "pot": 14, "max": 40}
    s.step(-1)
    assert s.value == 2
    s.step(5)
    assert s.value == 12
    s.preset("max")
    s.step(1)
    assert s.value == 40 and s.action() == Raise(40)
    s.type_digit("5")
    s.type_digit("0")
    assert s.value == 50 and not s.valid and s.action() is None
    s.backspace()
    assert s.value == 5 and s.action() == Raise(5)
    s.backspace()
    for digit in "120":  # past the maximum's digits: shown out of range, never restarted
        assert s.type_digit(digit)
    assert s.value == 120 and not s.valid and s.action() is None
    s.backspace()
    assert s.value == 12 and s.action() == Raise(12)
    for digit in "3456789":
        s.type_digit(digit)
    assert not s.type_digit("1")  # beyond nine digits a digit is refused, nothing changes
    assert s.value == 123456789 and s.action() is None


def test_observation_parts_for_each_variant() -> None:
    spike = sabacc.new_game("spike", players=2, seed=1).observation(0)
    assert [p.name for p in piles(spike, sabacc.variant("spike").info)] == ["discard"]
    counts = pile_counts(spike)
    assert counts is not None and counts.plain.startswith(f"Draw {spike['draw_pile']}")
    surabat = sabacc.new_game("surabat", players=3, seed=2).observation(0)
    assert [
        (p.name, len(p.codes), p.backs) for p in piles(surabat, sabacc.variant("surabat").info)
    ] == [
        ("sun", 3, 0),
        ("moon", 0, 1),
    ]
    assert "Bot" not in " ".join(info_parts(surabat))  # names come from the seats
    classic = sabacc.new_game("classic", players=3, seed=3).observation(0)
    assert piles(classic, sabacc.variant("classic").info) == []
    assert "no calls yet" in info_parts(classic)
    assert dice_line(classic) is None
    rolled = dict(spike, dice=[3, 3])
    line = dice_line(rolled)
    assert line is not None and line[1] and "⚂ ⚂" in line[0].plain
    unknown = dict(spike, comet_tail=7)
    assert "comet tail 7" in info_parts(unknown)  # keys the table does not know are shown
    assert you_summary(spike).plain.startswith("Total ")
    body = seat_body(spike, spike["seats"][1])
    assert "98 cr" in body.plain and "▮▮" in body.plain


def test_results_and_standings() -> None:
    game = sabacc.new_game("spike", players=2, seed=1)
    while game.hand_no == 1:
        game.apply(game.legal_actions()[0])
    result = game.hand_results[0]
    explained = explain_hand(game.info, result, game.names, game.events_for(0), viewer=0)
    vocab = vocabulary(game.info)
    lines = [t.plain for t in result_lines(result.to_dict(), explained, game.variant, vocab)]
    assert lines[0].startswith("Hand 1 over")
    assert lines[1:] == explained and any("pot" in line for line in lines[1:])
    outcome = {"stacks": [120, 80], "payoffs": [20, -20], "standings": [0, 1], "winners": [0]}
    plain = [t.plain for t in standings_lines(outcome, ["You", "Bot 1"], 0)]
    assert plain[0].startswith("1. You") and "winner" in plain[0] and "-20" in plain[1]


def test_tied_stacks_share_a_place() -> None:
    outcome = {
        "stacks": [90, 120, 90, 100],
        "payoffs": [-10, 20, -10, 0],
        "standings": [1, 3, 0, 2],
        "winners": [1],
    }
    plain = [t.plain for t in standings_lines(outcome, ["You", "A", "B", "C"], 0)]
    assert [line.split(".")[0] for line in plain] == ["1", "2", "3", "3"]


def test_events_without_a_seat_are_described() -> None:
    game = sabacc.new_game("surabat", players=2, seed=2)
    lines = render_log(game.events_for(0), game.names, viewer=0, variant=game.info)
    assert "The dealer puts a card face down on the Moon pile" in lines


def test_config_parsing_and_building() -> None:
    assert parse_bots("Hard, random") == ("hard", "random")  # levels kept by name
    assert parse_bots("") == ("easy",)
    with pytest.raises(OptionError):
        parse_bots("heuristic, nobody")
    game, bots = TableConfig(variant="classic", players=3, seed=9, name="Lando").build()
    assert game.names == ["Lando", "Bot 1", "Bot 2"] and sorted(bots) == [1, 2]
    assert TableConfig(seed=9).again().seed is None


def test_rules_reflow() -> None:
    text = "A line\nwrapped here.\nNew sentence:\n- item one\n- item\ncontinued"
    assert reflow(text) == "A line wrapped here.\nNew sentence:\n- item one\n- item continued"


def test_action_labels_in_the_variants_words_and_language() -> None:
    game = sabacc.new_game("classic", players=2, seed=3)
    obs = game.observation(game.current_player)
    en = {c.label for c in build_choices(obs)}
    ja = {c.label for c in build_choices(obs, "ja")}
    assert "fold" in en and "junk" not in en
    assert "フォールド" in ja


def test_every_variant_says_how_to_win_and_names_its_hands() -> None:
    import sabacc
    from sabacc.services.render import glossary_lines, vocabulary

    for name in sabacc.variant_names():
        for lang in ("en", "ja"):
            vocab = vocabulary(name, lang)
            assert vocab.has_own("howto"), (name, lang)
            assert len(glossary_lines(name, lang)) > 1, (name, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_betting_in_another_players_turn_says_who_acts(lang: str) -> None:
    # Classic said "Bot 1's turn" while you were the one to bet (the turn player draws; the
    # others bet and call in that turn): now it says both.
    game = sabacc.new_game("classic", players=["You", "Bot 1", "Bot 2"], seed=3)
    rng = random.Random(1)
    for _ in range(500):
        obs = game.observation(0)
        if obs["current_player"] == 0 and obs["turn"] != 0:
            break
        game.apply(rng.choice(game.legal_actions()))
    else:
        pytest.fail("no betting in another player's turn")
    v = vocabulary("classic", lang)
    line = " ".join(info_parts(obs, lang))
    assert v.text("ui.whose_turn", who=obs["seats"][obs["turn"]]["name"]) in line
    assert obs["phase"] == "betting"  # said as what is to be done (issue 35, N17)
    assert v.text("ui.you_to_act.betting") in line, line
    mine = game.observation(obs["turn"])  # the turn player sees whose move it is
    other = mine["seats"][obs["current_player"]]["name"]
    assert v.text("ui.to_act.betting", who=other) in " ".join(info_parts(mine, lang))


def test_a_flag_that_is_off_is_not_told_and_a_label_has_its_value() -> None:
    # Kessel's bar said "Your draw is free" while it was not, and "Turn" and "Chips lost"
    # with no number (the turn is in the top bar, the chips lost on the pot line).
    game = sabacc.new_game("kessel", players=3, seed=5)
    obs = dict(game.observation(0))
    assert obs["draw_is_free"] is False
    text = key_facts(obs)
    said = text.plain if text is not None else ""
    v = vocabulary("kessel", "en")
    assert v.text("fact.draw_is_free") not in said
    assert v.text("fact.chips_lost") not in said and v.text("fact.turn") not in said
    obs["draw_is_free"] = True
    text = key_facts(obs)
    assert text is not None and v.text("fact.draw_is_free") in text.plain


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_status_line_says_a_turn_once_and_a_phase_otherwise(lang: str) -> None:
    """Kessel's phase is named like its turn count ("turn 1/3 · Turn" said it twice); a
    phase with its own name (Corellian Spike's betting) is still shown beside the round."""
    from sabacc.apps.tui.view import status_line

    kessel = sabacc.new_game("kessel", players=3, seed=2)
    obs = kessel.observation(kessel.current_player)
    v = vocabulary("kessel", lang)
    line = status_line(obs, "Kessel", lang).plain
    turn = v.text("ui.turn", n=obs["turn"], of=obs["turns"])
    assert turn in line, line
    assert line.casefold().count(v.phase(str(obs["phase"])).casefold()) == 1, line
    spike = sabacc.new_game("corellian_spike", players=3, seed=2)
    obs = spike.observation(spike.current_player)
    line = status_line(obs, "Spike", lang).plain
    assert vocabulary("corellian_spike", lang).phase(str(obs["phase"])) in line, line


def test_pile_counts_are_the_fields_a_variant_declares_counted() -> None:
    # Each counted field (Field.count) in its declared order; a list counted by its length;
    # a variant that declares none has no line.
    classic = sabacc.new_game("classic", players=2, seed=3).observation(0)
    line = pile_counts(classic)
    assert line is not None
    assert line.plain == f"Deck {classic['deck']} · Out of play {classic['out_of_play']}"
    ja = pile_counts(classic, "ja")
    assert ja is not None and "デッキ" in ja.plain
    surabat = sabacc.new_game("surabat", players=3, seed=2).observation(0)
    shown = pile_counts(surabat)
    assert shown is not None and shown.plain.startswith(f"Draw {surabat['draw_pile']}")
    assert "Discard pile" not in shown.plain  # drawn as a pile there, not counted
    assert pile_counts(sabacc.new_game("kessel", players=2, seed=1).observation(0)) is None


def test_an_empty_seat_shows_no_old_name() -> None:
    """A seat whose player left (the observation's ``vacant``) is drawn as an empty seat."""
    game = sabacc.new_game("spike", players=3, seed=2)
    obs = game.observation(0)
    name = obs["seats"][1]["name"]
    seat = {**obs["seats"][1], "status": "out", "vacant": True}
    assert seat_body(obs, seat).plain == "empty seat"
    assert seat_body(obs, seat, lang="ja").plain == "空席"
    assert name not in seat_title(seat, False)
