"""`sabacc play`: full screen on a terminal, the plain prompt otherwise or with --plain."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from sabacc.apps import cli
from sabacc.apps.tui import SabaccApp, TableConfig


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[SabaccApp]:
    """Record full-screen runs instead of taking over the terminal."""
    started: list[SabaccApp] = []

    def fake_run(self: SabaccApp, *args: Any, **kwargs: Any) -> None:
        started.append(self)

    monkeypatch.setattr(SabaccApp, "run", fake_run)
    return started


def test_not_a_terminal_gets_the_plain_prompt(runs: list[SabaccApp]) -> None:
    result = CliRunner().invoke(cli.app, ["play", "--seed", "1", "-p", "2"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Your options" in result.output and "Game abandoned" in result.output
    assert runs == []


def test_a_terminal_gets_the_full_screen_table(
    runs: list[SabaccApp], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(cli, "_full_screen_possible", lambda: True)
    save = tmp_path / "game.json"
    args = ["play", "-v", "surabat", "-p", "3", "--seed", "5", "--bots", "random"]
    args += ["--bot-delay", "0.2", "--setup", "--name", "Lando", "--save", str(save), "--hints"]
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 0, result.output
    (app,) = runs
    config = app.config
    assert (config.variant, config.players, config.seed, config.bots) == (
        "surabat_cycle",
        3,
        5,
        ("random",),
    )
    assert config.bot_delay == 0.2 and config.name == "Lando" and app.setup
    assert app.table.show_hints
    assert save.exists()


def test_plain_flag_wins_on_a_terminal(
    runs: list[SabaccApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "_full_screen_possible", lambda: True)
    result = CliRunner().invoke(cli.app, ["play", "--plain", "--seed", "1"], input="q\n")
    assert result.exit_code == 0 and "Your options" in result.output
    assert runs == []


def test_bad_settings_fail_before_the_table(
    runs: list[SabaccApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "_full_screen_possible", lambda: True)
    result = CliRunner().invoke(cli.app, ["play", "-p", "9"])
    assert result.exit_code == 2 and runs == []


def test_save_keeps_every_game_of_a_session(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """Play again at the full-screen table: --save writes every game, and replay tells each."""
    import json

    import sabacc

    def fake_run(self: SabaccApp, *args: Any, **kwargs: Any) -> None:
        game, _ = self._initial
        assert game is not None
        self.games.append(game)  # the first game, then a rematch
        self.games.append(sabacc.new_game("spike", players=2, seed=9))

    monkeypatch.setattr(SabaccApp, "run", fake_run)
    monkeypatch.setattr(cli, "_full_screen_possible", lambda: True)
    save = tmp_path / "session.json"
    result = CliRunner().invoke(cli.app, ["play", "-p", "2", "--seed", "1", "--save", str(save)])
    assert result.exit_code == 0, result.output
    saved = json.loads(save.read_text())
    assert isinstance(saved, list) and [h["seed"] for h in saved] == [1, 9]
    told = CliRunner().invoke(cli.app, ["replay", str(save)])
    assert told.exit_code == 0, told.output
    assert "Game 1 of 2" in told.output and "Game 2 of 2" in told.output


def test_the_default_game_is_three_orbits() -> None:
    game, _ = TableConfig(players=4, seed=1).build()
    assert game.options.hand_limit == 12
    game, _ = TableConfig(players=3, seed=1, options={"game_end": "orbit"}).build()
    assert game.options.game_end == "orbit"
