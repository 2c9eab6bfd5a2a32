"""`sabacc play`: full screen on a terminal, the plain prompt otherwise or with --plain."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from sabacc.apps import cli
from sabacc.apps.tui import SabaccApp


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
