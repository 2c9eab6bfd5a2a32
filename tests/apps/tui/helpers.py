"""Helpers for driving the terminal table with Textual's pilot."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from textual.pilot import Pilot

import sabacc
from sabacc import parse_action
from sabacc.apps.tui import SabaccApp, TableConfig
from sabacc.core.actions import Action
from sabacc.engine.observation import Observation


def make_app(
    variant: str = "corellian_spike", players: int = 4, seed: int = 1, **kw: object
) -> SabaccApp:
    """A table with bots acting at once (no delay), fixed seeds."""
    config = TableConfig(variant=variant, players=players, seed=seed, bot_delay=0, **kw)  # type: ignore[arg-type]
    return SabaccApp(config)


async def settle(pilot: Pilot[None], limit: int = 400) -> str:
    """Wait until the bots have played up to a human decision (or a summary, or game over)."""
    app = pilot.app
    assert isinstance(app, SabaccApp)
    for _ in range(limit):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.table.state != "bots":
            return app.table.state
    raise AssertionError("the bots never stopped")


def screen_text(app: SabaccApp) -> str:
    """What the terminal shows, as plain text (the whole screen, modal screens included)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
    )
    screen = app.screen
    console.print(screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def keys_now(app: SabaccApp) -> list[str]:
    """The keys of the choices the action bar offers."""
    return [c.key for c in app.table.choices]


async def play_until(
    pilot: Pilot[None], target: str, *, prefer: str = "cs", limit: int = 200
) -> str:
    """Press the first available key of ``prefer`` at each decision (Enter on summaries)."""
    app = pilot.app
    assert isinstance(app, SabaccApp)
    state = await settle(pilot)
    for _ in range(limit):
        if state == target or state == "over":
            return state
        if state == "review":
            await pilot.press("enter")
        else:
            keys = keys_now(app)
            key = next((k for k in prefer if k in keys), keys[0])
            await pilot.press(key)
            if app.table.mode == "pick" and app.table.pick is not None:
                await pilot.press(app.table.pick.options[0].key)
            elif app.table.mode == "size":
                await pilot.press("enter")
            elif app.table.mode == "subset":  # keep the first card, or what is kept already
                if not app.table.chosen:
                    await pilot.press("1")
                await pilot.press("enter")
        state = await settle(pilot)
    raise AssertionError(f"never reached {target!r}")


class ScriptedBot:
    """A fixed, simple policy, so snapshots do not move when the real bots get smarter.

    Odd seats take the discard top (or the first Sun card) giving their first card; the others
    stand. In betting, the last seat bets 2 when it can; everyone else checks or calls.
    """

    name = "scripted"

    def __init__(self, seat: int, last: int) -> None:
        self.seat = seat
        self.last = last

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        texts = [str(a) for a in legal]
        if self.seat % 2 == 1:
            for prefix in ("swap discard", "gain +", "gain -", "gain 0"):
                for a in legal:
                    if str(a).startswith(prefix):
                        return a
        if self.seat == self.last and "bet 2" in texts:
            return parse_action("bet 2")
        for word in ("check", "call", "stand", "discard"):
            for a in legal:
                if str(a).startswith(word):
                    return a
        return legal[0]


def scripted_app(variant: str = "corellian_spike", players: int = 4, seed: int = 1) -> SabaccApp:
    """A table whose bots play :class:`ScriptedBot` (for snapshots)."""
    names = ["You", *[f"Bot {i}" for i in range(1, players)]]
    game = sabacc.new_game(variant, players=names, seed=seed)
    bots = {s: ScriptedBot(s, players - 1) for s in range(1, players)}
    config = TableConfig(variant=variant, players=players, seed=seed, bot_delay=0)
    return SabaccApp(config, game=game, bots=bots)
