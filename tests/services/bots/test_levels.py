"""Difficulty levels: each names a real bot and budget, and make_bot accepts them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import sabacc
from sabacc.core.errors import OptionError
from sabacc.lab import SharpBot
from sabacc.services.bots import (
    DEFAULT_LEVEL,
    LEVELS,
    HeuristicBot,
    IsmctsBot,
    bots_for,
    level_names,
    make_bot,
)
from sabacc.services.bots.base import LevelBot


def test_levels_map_to_bots_and_budgets() -> None:
    assert level_names() == ["easy", "normal", "hard", "expert"]
    assert DEFAULT_LEVEL == "easy"
    spike = sabacc.variant("spike").info
    assert isinstance(make_bot("easy", 1, spike).bot, HeuristicBot)  # type: ignore[attr-defined]
    normal, hard = make_bot("normal", 1, "spike"), make_bot("Hard", 1, spike)
    assert isinstance(normal, LevelBot) and isinstance(hard, LevelBot)
    assert isinstance(normal.bot, IsmctsBot) and isinstance(hard.bot, IsmctsBot)
    assert normal.bot.playouts < hard.bot.playouts
    assert hard.name == "hard"  # a level's bot is known by its level
    assert isinstance(make_bot("expert", 1, spike).bot, SharpBot)  # type: ignore[attr-defined]
    for level in LEVELS.values():
        assert set(level.about) == {"en", "ja"}


def test_bots_for_resolves_levels_and_keeps_bot_names() -> None:
    assert bots_for("easy, random") == ("heuristic", "random")
    assert bots_for("hard") == ("ismcts:800",)
    assert bots_for("") == ("heuristic",)
    with pytest.raises(OptionError):
        bots_for("easy,,hard")


def test_a_variant_maps_a_slow_level_to_its_own_budget() -> None:
    """Kessel's and Coruscant's searches are slower: their bot models give ``hard`` fewer
    worlds; a variant without a mapping keeps the generic bot."""
    import sabacc
    from sabacc.services.bots.levels import resolve_level

    for name in ("kessel", "coruscant_shift"):
        info = sabacc.variant(name).info
        assert bots_for("hard, normal, random", info) == ("ismcts:200", "ismcts:32", "random")
        bot = make_bot(resolve_level("hard", info), 1)
        assert isinstance(bot, IsmctsBot) and bot.playouts == 200
        level = make_bot("hard", 1, info)
        assert isinstance(level, LevelBot) and isinstance(level.bot, IsmctsBot)
        assert level.bot.playouts == 200
    assert bots_for("hard", sabacc.variant("spike").info) == ("ismcts:800",)
    assert bots_for("", sabacc.variant("kessel").info) == ("heuristic",)


def test_the_bot_api_refuses_a_finished_game_and_another_seats_turn() -> None:
    import sabacc
    from sabacc.core.errors import NotToActError
    from sabacc.services.bots import decide

    game = sabacc.new_game("spike", players=2, seed=3, log=False, game_end="hands:1")
    seat = game.current_player
    assert seat is not None
    other = 1 - seat
    for name in ("sharp", "heuristic", "ref-rule"):
        bot = make_bot(name, 1)
        with pytest.raises(NotToActError, match=f"seat {other} is not to act"):
            decide(bot, game, other)
    # Called directly with another seat's view, the new bots refuse too.
    for name in ("sharp", "ref-station"):
        with pytest.raises(NotToActError, match="not to act"):
            make_bot(name, 1).act(game.observation(other), game.legal_actions())
        with pytest.raises(NotToActError, match="spectator"):
            make_bot(name, 1).act(game.observation(None), game.legal_actions())
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    for name in ("sharp", "ismcts:4", "ref-zero"):
        with pytest.raises(NotToActError, match="the game is over"):
            decide(make_bot(name, 1), game)
    with pytest.raises(NotToActError, match="the game is over"):
        make_bot("sharp", 1).act(game.observation(0), [])


ROOT = Path(__file__).resolve().parents[3]


def _script(name: str) -> Any:
    """A script of ``scripts/`` loaded as a module (they are not part of the package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_published_ratings_are_the_ones_the_measured_ladder_gives() -> None:
    """scripts/ratings.py computes each level's rating from the committed benchmark; the
    numbers in LEVELS (shown in docs/bots.md and docs/community.md) must be those."""
    ratings = _script("ratings")
    report = json.loads(ratings.RESULTS.read_text())
    assert ROOT / "benchmarks" / "results" / "bench_bots_expert.json" == ratings.RESULTS
    ladder = report["ladder"]
    assert [step["levels"] for step in ladder] == [
        [high, low] for low, high in zip(level_names(), level_names()[1:], strict=False)
    ]
    # each step was played by the bots the levels name (the harder level first)
    assert [step["lineup"] for step in ladder] == [
        [LEVELS[high].bot, LEVELS[low].bot] for high, low in (s["levels"] for s in ladder)
    ]
    measured = ratings.ratings(ladder)
    assert {name: level.rating for name, level in LEVELS.items()} == measured
    assert measured["easy"] == 1000


def test_the_published_strength_tables_are_the_committed_benchmark() -> None:
    """docs/bots.md's matrix and ladder tables are rendered from the committed report
    (scripts/bot_tables.py): a figure there is a measured one."""
    tables = _script("bot_tables")
    report = json.loads(tables.RESULTS.read_text())
    # the report is the expert's, at the game length players meet, at both table sizes
    assert {m["lineup"][0] for m in report["matrix"]} == {LEVELS["expert"].bot}
    assert {m["players"] for m in report["matrix"]} == {2, 4}
    assert {m["game_hands"] for m in report["matrix"] + report["ladder"]} == {10}
    opponents = {m["opponent"] for m in report["matrix"]}
    assert {(o, n) for o in opponents for n in (2, 4)} == {
        (m["opponent"], m["players"]) for m in report["matrix"]
    }
    assert {"sharp", "heuristic", "ismcts:32", "ismcts:800", "ref-rule"} <= opponents
    # docs/bots.md says the expert beats every one of them at both table sizes
    assert [m["opponent"] for m in report["matrix"] if m["bots"][0]["ci95"][0] <= 0] == []
    assert tables.FILES == (ROOT / "docs" / "bots.md",)
    for path in tables.FILES:
        text = path.read_text()
        assert tables.render(text, report) == text, (
            f"{path.name}: run scripts/bot_tables.py --write"
        )
        assert tables.matrix_table(report) in text
        assert tables.ladder_table(report) in text
    # docs/community.md's bots' fixed ratings are the levels' published ones
    community = tables.COMMUNITY.read_text()
    assert tables.render(community, report) == community
    assert f"| `expert` (`{LEVELS['expert'].bot}`) | {LEVELS['expert'].rating} |" in community
