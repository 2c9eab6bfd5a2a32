"""The plain prompt's table summary reads the observation's own keys (schema-checked)."""

from __future__ import annotations

from rich.console import Console

import sabacc
from sabacc.apps.play import PlainTable


def _shown(variant: str) -> str:
    game = sabacc.new_game(variant, players=2, seed=3)
    console = Console(record=True, width=200, color_system=None)
    table = PlainTable(game, human=0, bots={}, console=console)
    table.show_state(game.observation(0))
    return console.export_text()


def test_surabat_shows_the_sun_and_the_moon() -> None:
    text = _shown("surabat")
    assert "sun " in text
    assert "moon 2 face down" in text  # the Moon pile's size (it was never shown)
    assert "round 1/4" in text


def test_spike_shows_the_discard_top() -> None:
    text = _shown("spike")
    assert "discard top" in text and "moon" not in text
