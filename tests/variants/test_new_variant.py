"""The executable guide to adding a variant: a toy variant, registered here, through every generic
suite.

*Target Spike* is Corellian Spike aiming at a ``target`` total (an option, default +5) instead
of 0: the hand closest to the target wins, and only a hand exactly on target takes the sabacc
pot (its OWN declared pot rule, which the engine's one showdown honours). Everything it is lives
in its record (:class:`~sabacc.engine.variant.VariantInfo`); its game class adds nothing but its
observation type. The record is registered for this module's tests and unregistered after.

What a new variant must give, as these tests show: a record that :func:`register` accepts (its
own names, observation type and RL env name, text for everything it declares in every
language), games that keep the engine's invariants and replay, lines with no raw message key in
either language, and a place in the CLI, the plain prompt, the RL environments and the web
lobby with no file outside its package.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test
from rich.console import Console
from typer.testing import CliRunner

import sabacc
import sabacc.apps.rl
from sabacc.apps.cli import app as cli_app
from sabacc.apps.play import PlainTable
from sabacc.apps.server.app import create_app
from sabacc.apps.server.settings import Settings
from sabacc.core.cards import Card
from sabacc.core.hands import HandValue
from sabacc.core.options import Options
from sabacc.engine.bots import BotModel
from sabacc.engine.game import Game
from sabacc.engine.text import GlossaryEntry, VariantText
from sabacc.engine.variant import OddsModel, PotRule, TrueTie, VariantInfo
from sabacc.services.bots import decide, make_bot
from sabacc.services.explain import explain_hand
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import render_log, vocabulary_json
from sabacc.variants.corellian_spike.rules import (
    SPIKE_FEATURES,
    SpikeGame,
    SpikeObservation,
    SpikeOptions,
)
from sabacc.variants.registry import (
    VariantRecordError,
    check_record,
    lookup,
    register,
    unregister,
)
from tests.test_properties import SETTINGS, configs, invariants, play

NAME = "target_spike"


# ---------------------------------------------------------------------------- the toy variant
@dataclass(frozen=True)
class TargetOptions(SpikeOptions):
    """Corellian Spike's options and the total to aim at."""

    help: ClassVar[dict[str, str]] = {
        **SpikeOptions.help,
        "target": "the total to aim at (-10 to +10)",
    }
    bounds: ClassVar[dict[str, tuple[int, int | None]]] = {
        **SpikeOptions.bounds,
        "target": (-10, 10),
    }

    target: int = 5


class TargetObservation(SpikeObservation):
    """A Target Spike observation: Corellian Spike's (a record's observation type is its own)."""


class TargetGame(SpikeGame):
    """A game of Target Spike: Corellian Spike's game; the record says the rest."""

    options: TargetOptions
    observation_type: ClassVar[type] = TargetObservation


def evaluate_target(options: Options, cards: list[Card]) -> HandValue:
    """Closer to the target first (on target is rank 1), then over it rather than under, then
    more cards."""
    target = getattr(options, "target", 5)
    total = sum(c.value for c in cards)
    distance = abs(total - target)
    return HandValue(
        (-distance, int(total > target), len(cards)),
        "On target" if distance == 0 else "Off target",
        total,
        1 if distance == 0 else 2,
        len(cards),
    )


def on_target(hand: HandValue) -> bool:
    """The toy's own pot rule: only a hand exactly on target takes the sabacc pot."""
    return hand.rank == 1


_OWN_TEXT = {
    "en": {
        "option.target": "Target total",
        "tiebreak.closer_to_target": "the total closer to the target wins",
        "tiebreak.over_target": "a total over the target beats one under it",
    },
    "ja": {
        "option.target": "目標の合計",
        "tiebreak.closer_to_target": "合計が目標に近いほうが勝ち",
        "tiebreak.over_target": "目標を上回る合計が下回る合計に勝つ",
        "hand.On target": "オン・ターゲット",
        "hand.Off target": "オフ・ターゲット",
        "summary": "目標の合計を狙うコレリアン・スパイク。",
        "rules": "目標の合計にいちばん近い手が勝ち。ちょうど目標ならサバックポットも取る。",
        "help.target": "狙う合計（-10〜+10）",
    },
}


def _text() -> VariantText:
    spike = lookup("corellian_spike").text
    return VariantText(
        messages={lang: {**spike.messages.get(lang, {}), **_OWN_TEXT[lang]} for lang in LANGUAGES},
        keys=spike.keys,
        glossary={
            "en": (
                GlossaryEntry("On target", "the total is the target", "+3 +2 (target +5)"),
                GlossaryEntry("Off target", "any other total: closest wins", "+4 (target +5)"),
            ),
            "ja": (
                GlossaryEntry("オン・ターゲット", "合計が目標ちょうど", "+3 +2（目標 +5）"),
                GlossaryEntry("オフ・ターゲット", "それ以外：近いほうが勝ち", "+4（目標 +5）"),
            ),
        },
    )


def toy_record(**changes: Any) -> VariantInfo:
    """The toy's record (``changes`` replace fields: the broken records below)."""
    spike = lookup("corellian_spike")
    info = VariantInfo(
        name=NAME,
        title="Target Spike",
        aliases=("target-spike",),
        deck=spike.deck,
        options_type=TargetOptions,
        game_type=TargetGame,
        evaluator=evaluate_target,
        summary="Corellian Spike aiming at a target total.",
        rules_text="The hand closest to the target total wins; on target, the sabacc pot too.",
        piles=spike.piles,
        actions=spike.actions,
        fields=spike.fields,
        pots=(
            PotRule("main", "the best hand", lambda hand: True),
            PotRule("sabacc", "the best hand, if it is on target", on_target, sabacc=True),
        ),
        rounds=spike.rounds,
        odds=OddsModel(),
        bot=BotModel(),
        card_art=spike.card_art,
        text=_text(),
        tiebreaks=("closer_to_target", "over_target", "more_cards"),
        true_ties=spike.true_ties,
        true_tie_option="true_tie",
        rl_spec=dataclasses.replace(SPIKE_FEATURES, env_name="target", ranks=2),
        chance=spike.chance,
    )
    return dataclasses.replace(info, **changes)


@pytest.fixture(scope="module", autouse=True)
def toy() -> Iterator[VariantInfo]:
    """Target Spike, registered for this module's tests."""
    info = register(toy_record())
    TargetGame.info = info
    try:
        yield info
    finally:
        unregister(NAME)


def _bot_game(seed: int, players: int = 3, **options: Any) -> Game:
    """A Target Spike game played to its end by heuristic bots."""
    game = sabacc.new_game(NAME, players=players, seed=seed, **options)
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game), seat=seat)
    return game


# ---------------------------------------------------------------------------- the record
def test_the_record_is_registered_under_its_names(toy: VariantInfo) -> None:
    assert lookup("target-spike") is toy
    assert NAME in sabacc.variant_names()
    assert type(sabacc.new_game(NAME, players=2, seed=1)) is TargetGame


@pytest.mark.parametrize(
    ("changes", "fault"),
    [
        ({"name": "corellian_spike"}, "'corellian_spike' is already registered"),
        ({"aliases": ("spike",)}, "the name 'spike' is already 'corellian_spike'"),
        ({"game_type": SpikeGame}, "observation type SpikeObservation is already"),
        ({"rl_spec": SPIKE_FEATURES}, "RL environment name 'spike' is already"),
        ({"tiebreaks": ("closeness",)}, "no en text for tiebreak.closeness"),
        ({"tiebreaks": ("closeness",)}, "no ja text for tiebreak.closeness"),
        ({"true_ties": (TrueTie("coin", "a coin toss"),)}, "'coin' is not the engine's"),
        ({"true_tie_option": "tie"}, "true_tie_option 'tie' is not one of its options"),
        ({"pots": ()}, "no pot"),
        ({"pots": (PotRule("jackpot", "x", on_target),)}, "must be the hand pot"),
        (
            {"pots": (PotRule("main", "x", on_target), PotRule("bonus", "y", on_target))},
            "keeps only the 'sabacc' pot",
        ),
        (
            {
                "options_type": dataclasses.make_dataclass(
                    "O", [("gold", int, 1)], bases=(TargetOptions,), frozen=True
                )
            },
            "option.gold",
        ),
        (
            {"text": dataclasses.replace(_text(), glossary={"en": _text().glossary["en"]})},
            "its ja glossary does not name and define each of its 2 hands",
        ),
    ],
)
def test_a_broken_record_is_refused_naming_what_is_wrong(
    changes: dict[str, Any], fault: str
) -> None:
    broken = toy_record(**{"name": "broken_toy", "aliases": (), **changes})
    assert any(fault in f for f in check_record(broken)), check_record(broken)
    with pytest.raises(VariantRecordError, match=re.escape(fault)):
        register(broken)
    assert "broken_toy" not in sabacc.variant_names()


def test_a_card_dealing_tie_break_needs_cards_from_the_game() -> None:
    class Bare(Game):
        observation_type: ClassVar[type] = dict

    broken = toy_record(name="bare_toy", aliases=(), game_type=Bare, rl_spec=None)
    assert any("'blind_draw' deals cards" in f for f in check_record(broken))


# ---------------------------------------------------------------------------- the engine
def test_the_showdown_honours_the_toys_own_pot_rule() -> None:
    # The sabacc pot goes with an on-target winner, never with a total of 0 (Spike's rule).
    on, zero = 0, 0
    for seed in range(12):
        game = _bot_game(seed, game_end="hands:4")
        for result in game.hand_results:
            if result.reason != "showdown":
                continue
            main = next(p for p in result.pots if p.pot == "main")
            value = result.hands[main.winners[0]][1]
            assert value is not None
            won = any(p.pot == "sabacc" for p in result.pots)
            assert won == (value.total == 5)
            on += won
            zero += value.total == 0
    assert on > 0 and zero > 0


@pytest.mark.parametrize("target", [-7, 0, 9])
def test_the_target_option_moves_the_goal(target: int) -> None:
    game = sabacc.new_game(NAME, players=2, seed=3, target=target)
    assert game.evaluate(game.deck.parse_cards(f"{target:+d}" if target else "0")).rank == 1
    assert lookup(NAME).rounds(game.options, 2) == game.rounds == 3


@SETTINGS
@given(data=st.data())
def test_engine_invariants_hold_after_every_action(data: st.DataObject) -> None:
    cfg = data.draw(configs([NAME]))
    game, _ = play(cfg, check=invariants)
    assert game.is_over and sum(game.payoffs) == -game.house


@SETTINGS
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_a_game_replays_from_its_history(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = sabacc.new_game(NAME, players=players, seed=seed, game_end="hands:2")
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    again = sabacc.replay(game.history())
    assert again.history() == game.history()
    assert again.observation(0) == game.observation(0)


# ---------------------------------------------------------------------------- words
#: A message key shown raw (``tiebreak.closeness``, ``hand.On target``, ``phase.card``...).
RAW_KEY = re.compile(r"\b(tiebreak|hand|phase|label|option|reason|paid|did|explain)\.[A-Za-z_]")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_is_in_words_in_both_languages(lang: str) -> None:
    lines: list[str] = []
    for seed in range(6):
        game = _bot_game(seed, game_end="hands:3")
        logged = render_log(game.events, game.names, viewer=0, lang=lang, variant=game.info)
        lines += [line for line in logged if line]
        for result in game.hand_results:
            lines += explain_hand(
                game.info, result, game.names, game.events_for(0), viewer=0, lang=lang
            )
    assert lines
    raw = [line for line in lines if RAW_KEY.search(line) or "{" in line]
    assert not raw, raw[:5]
    # the web client's terms: templates ("call {amount}"), but never a raw key
    terms = vocabulary_json(NAME)
    words = [
        w for part in ("labels", "phases", "piles", "facts") for w in terms[part][lang].values()
    ]
    words += [entry["name"] for entry in terms["glossary"][lang]]
    assert not [w for w in words if RAW_KEY.search(w)]


def test_a_close_call_is_explained_by_the_toys_own_tie_break() -> None:
    info = lookup(NAME)
    options = TargetOptions()
    four = evaluate_target(
        options, list(sabacc.new_game(NAME, players=2, seed=1).deck.parse_cards("+4"))
    )
    two = evaluate_target(
        options, list(sabacc.new_game(NAME, players=2, seed=1).deck.parse_cards("+2"))
    )
    from sabacc.services.explain import deciding_tiebreak

    assert deciding_tiebreak(info, four, two) == "closer_to_target"


# ---------------------------------------------------------------------------- the apps
runner = CliRunner()


def test_cli_hand_odds_and_simulate() -> None:
    hand = runner.invoke(cli_app, ["hand", "-v", NAME, "+3", "+2"])
    assert hand.exit_code == 0, hand.output
    assert "On target" in hand.stdout
    moved = runner.invoke(cli_app, ["hand", "-v", NAME, "-o", "target=-2", "+3", "+2"])
    assert moved.exit_code == 0 and "Off target" in moved.stdout
    odds = runner.invoke(cli_app, ["odds", "-v", NAME, "--cards", "2"])
    assert odds.exit_code == 0, odds.output
    assert "On target" in odds.stdout
    sim = runner.invoke(
        cli_app,
        ["simulate", "-v", NAME, "-b", "heuristic,random", "-n", "20", "-w", "1", "-q", "--json"],
    )
    assert sim.exit_code == 0, sim.output


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plain_prompt_shows_a_hand(lang: str) -> None:
    game = sabacc.new_game(NAME, players=3, seed=5)
    out = io.StringIO()
    table = PlainTable(
        game,
        human=0,
        bots={1: make_bot("heuristic", seed=1), 2: make_bot("random", seed=2)},
        console=Console(file=out, width=160, color_system=None),
        hints=True,
        lang=lang,
    )
    for _ in range(30):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        obs = game.observation(seat)
        if seat == 0:
            table.show_state(obs)
            table.show_hints(obs)
        game.apply(decide(table.bots.get(seat) or make_bot("random", seed=3), game), seat=seat)
        table.show_events()
    text = out.getvalue()
    assert text and not RAW_KEY.search(text), text[:2000]


def test_the_pettingzoo_environment_passes_api_test() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo.test.api_test")
    env = sabacc.apps.rl.env(NAME, 3)
    assert env.metadata["name"] == "sabacc_target_v1"
    api_test(env, num_cycles=100)


def test_the_web_lobby_lists_it(tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'lobby.db'}")
    with TestClient(create_app(settings)) as client:
        catalogue = client.get("/api/variants").json()
    text = str(catalogue)
    assert NAME in text and "Target Spike" in text
