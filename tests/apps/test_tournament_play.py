"""Offline events in the terminal (``sabacc play --tournament``): the human's table as the
seat sees it, the director's feed with its reasons, re-entry, the final standings."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console
from typer.testing import CliRunner

import sabacc
from sabacc.apps.cli import app
from sabacc.apps.tournament_play import offline_event
from sabacc.services.tournament import Level, Schedule, check_schedule

#: A seed whose event busts the human while re-entry is open (the event is seeded).
SEED = 0


def short_levels(variant: str = "corellian_spike") -> Schedule:
    info = sabacc.variant(variant).info
    return check_schedule(info, [Level(dict(v), hands=3) for v in info.levels.schedule])


def answers(reenter: bool = False) -> tuple[Callable[[str], str], list[str]]:
    """The human's answers: the first option every time; yes to a re-entry if asked."""
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        if "Re-enter" in question or "再エントリー" in question:
            return "y" if reenter else "n"
        if "(y/n)" in question:
            return "n"
        return "1"

    return ask, asked


def test_a_multi_table_event_shows_the_table_moves_levels_and_standings() -> None:
    out = io.StringIO()
    ask, asked = answers()
    director = offline_event(
        "mtt",
        "corellian_spike",
        9,
        ["easy"],
        seed=4,
        table_size=4,
        schedule=short_levels(),
        console=Console(file=out, width=200),
        ask=ask,
    )
    text = out.getvalue()
    assert director.state.finished
    assert "Seat draw: 3 table(s)" in text and "Level 2: Ante 2 · Sabacc ante 2" in text
    assert "Bot 1 (easy)" in text  # the seat draw discloses every bot's level
    assert "Next: level 2 in" in text or "Next: level 3 in" in text
    assert "You are dealt" in text and "Your options" in text  # the human's seat, its cards
    assert "antes 1 to the main pot" in text  # chip movements at the human's table
    assert "balancing (table sizes within one)" in text or "breaks" in text
    assert "Final table, seats redrawn" in text
    assert "is out in place" in text
    assert any("Your action" in q for q in asked)
    rows = director.standings()
    assert {r.name for r in rows} >= {"You", "Bot 1"}
    assert next(r for r in rows if r.name == "You").bot is None


def test_a_busted_human_may_re_enter_in_japanese() -> None:
    out = io.StringIO()
    ask, asked = answers(reenter=True)
    event = offline_event(
        "mtt",
        "kessel",
        6,
        ["easy"],
        seed=SEED,
        table_size=3,
        schedule=short_levels("kessel"),
        reentries=1,
        late_levels=6,
        console=Console(file=out, width=200),
        ask=ask,
        lang="ja",
    )
    text = out.getvalue()
    assert "座席抽選" in text and "順位" in text
    you = next(p for p, info in event.state.players.items() if info["name"] == "You")
    assert any("Re-enter" in q or "再エントリー" in q for q in asked)
    assert len(event.state.entries_of(you)) == 2
    assert "再エントリー" in text


def test_the_play_command_runs_a_sit_and_go() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "--tournament", "sng", "-p", "3", "--seed", "1", "--variant", "kessel"],
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    assert "Seat draw: 1 table(s)" in result.output
    bad = CliRunner().invoke(app, ["play", "--tournament", "swiss"])
    assert bad.exit_code == 2 and "sng or mtt" in bad.output
