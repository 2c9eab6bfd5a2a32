"""Every credit movement is told, with its reason, in every view of every variant: the plain
prompt (``sabacc play --plain``), ``sabacc replay`` and the full-screen table's log.

A credit movement is an event that moves credits or chips: antes, payments (bets, calls, fees,
penalties, Kessel's draw costs and tariffs), pots awarded, bets returned, and the variant's own
(Kessel's chips moved by a token, a loser's pot and penalty). Each must have a line of its
own, or be said with the amount by the action line it joins ("Bot 1 calls 4").
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import RichLog
from typer.testing import CliRunner

import sabacc
from sabacc.apps.cli import app as cli_app
from sabacc.apps.play import PlainTable
from sabacc.apps.tui import SabaccApp, TableConfig
from sabacc.apps.tui.view import colour_cards
from sabacc.core import events as ev
from sabacc.engine.game import Game
from sabacc.services.bots import decide, make_bot
from sabacc.services.render import render_log
from tests.apps.tui.helpers import play_until

CORE_MOVES = (ev.Paid, ev.Anted, ev.PotAwarded, ev.BetReturned)


def _moves(game: Game, event: ev.Event) -> bool:
    fields = event.to_dict()
    return isinstance(event, (*CORE_MOVES, *game.info.penalty_events)) or (
        "amount" in fields and "seat" in fields
    )


def _played(variant: str, seed: int = 3, hands: int = 3) -> Game:
    game = sabacc.new_game(variant, players=3, seed=seed, game_end=f"hands:{hands}")
    assert isinstance(game, Game)
    bots = [make_bot("heuristic", s) for s in range(3)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game), seat=seat)
    return game


def _credit_lines(game: Game, viewer: int | None, *, everything: bool = False) -> list[str]:
    """The line saying each credit movement (its own, or the action line it joins), as
    ``viewer`` sees the game (``everything``: every card shown, as ``sabacc replay`` does)."""
    shown = list(game.events) if everything else [e.visible_to(viewer) for e in game.events]
    lines = render_log(shown, game.names, viewer=viewer, variant=game.info)
    out: list[str] = []
    moved = 0
    for i, event in enumerate(shown):
        if not _moves(game, event):
            continue
        moved += 1
        line = lines[i]
        if line is None:  # a bet or call said by its action: the amount is in that line
            line = lines[i + 1]
            assert line is not None
        amount = event.to_dict().get("amount", event.to_dict().get("penalty"))
        if amount is not None:
            assert str(amount) in line, (event, line)
        out.append(line)
    assert moved, "a played game moves credits"
    return out


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_every_credit_movement_is_told_by_the_plain_prompt_and_replay(
    variant: str, tmp_path: Path
) -> None:
    game = _played(variant)
    out = io.StringIO()
    PlainTable(
        sabacc.replay(game.history()),
        human=0,
        bots={},
        console=Console(file=out, width=400, color_system=None),
    ).show_events()
    told = out.getvalue()
    for line in _credit_lines(game, 0):
        assert line in told, line
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game.history()))
    res = CliRunner().invoke(cli_app, ["replay", str(saved)], env={"COLUMNS": "400"})
    assert res.exit_code == 0, res.output
    for line in _credit_lines(game, None, everything=True):
        assert line in res.stdout, line


@pytest.mark.asyncio
@pytest.mark.parametrize("variant", sabacc.variant_names())
async def test_every_credit_movement_of_a_hand_is_in_the_table_log(variant: str) -> None:
    app = SabaccApp(TableConfig(variant=variant, players=3, seed=5, bot_delay=0))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await play_until(pilot, "review") == "review"
        game = app.game
        assert game is not None
        hand = game.hand_results[0].hand
        logged = {text.plain for text in app.table.log_lines}
        assert app.table.query_one("#log", RichLog).lines
        shown = [e.visible_to(0) for e in game.events]
        lines = render_log(shown, game.names, viewer=0, variant=game.info)
        current = 0
        checked = 0
        for i, event in enumerate(shown):
            if isinstance(event, ev.HandStarted):
                current = event.hand
            if current != hand or not _moves(game, event):
                continue
            line = lines[i] if lines[i] is not None else lines[i + 1]
            assert line is not None
            assert colour_cards(variant, line).plain in logged, line
            checked += 1
        assert checked
