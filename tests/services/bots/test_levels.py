"""Difficulty levels: each names a real bot and budget, and make_bot accepts them."""

from __future__ import annotations

import pytest

from sabacc.core.errors import OptionError
from sabacc.services.bots import (
    DEFAULT_LEVEL,
    LEVELS,
    HeuristicBot,
    IsmctsBot,
    bots_for,
    level_names,
    make_bot,
)


def test_levels_map_to_bots_and_budgets() -> None:
    assert level_names() == ["easy", "normal", "hard"]
    assert DEFAULT_LEVEL == "easy"
    assert isinstance(make_bot("easy", 1), HeuristicBot)
    normal, hard = make_bot("normal", 1), make_bot("Hard", 1)
    assert isinstance(normal, IsmctsBot) and isinstance(hard, IsmctsBot)
    assert normal.playouts < hard.playouts
    for level in LEVELS.values():
        assert set(level.about) == {"en", "ja"}


def test_bots_for_resolves_levels_and_keeps_bot_names() -> None:
    assert bots_for("easy, random") == ("heuristic", "random")
    assert bots_for("hard") == ("ismcts:800",)
    assert bots_for("") == ("heuristic",)
    with pytest.raises(OptionError):
        bots_for("easy,,hard")
