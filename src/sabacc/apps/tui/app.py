"""The full-screen terminal table: one human (seat 0) against bots, keyboard first.

The table draws the human's observation only (plus the event log as that seat saw it), offers
exactly the legal actions as keys and buttons (:mod:`sabacc.apps.tui.controls`), and lets bots
act after a short visible delay. It is assembled from one module per reason to change: the
session state (:mod:`~sabacc.apps.tui.state`), the game loop (:mod:`~sabacc.apps.tui.loop`),
the input (:mod:`~sabacc.apps.tui.keys`) and the drawing (:mod:`~sabacc.apps.tui.layout`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from sabacc.apps.tui import hints as odds_hints
from sabacc.apps.tui.config import TableConfig
from sabacc.apps.tui.keys import KeyInput
from sabacc.apps.tui.layout import TableLayout
from sabacc.apps.tui.loop import TurnLoop, decide
from sabacc.apps.tui.screens import SettingsScreen
from sabacc.core.errors import SabaccError
from sabacc.engine.game import Game
from sabacc.services.bots import Bot
from sabacc.services.messages import LANGUAGES
from sabacc.services.render import vocabulary

__all__ = ["SabaccApp", "TableScreen", "decide", "run"]


class TableScreen(KeyInput, TurnLoop, TableLayout):
    """The table: its session, game loop, input and drawing (one module each), and its keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("h", "hints", "Odds hints"),
        Binding("n", "new_game", "New game"),
        Binding("L", "language", "日本語"),
        Binding("q", "quit", "Quit"),
    ]
    #: The footer's words by action (``ui.*`` keys); ``L``'s says the other language.
    BINDING_WORDS: ClassVar[dict[str, str]] = {
        "rules": "ui.rules",
        "hints": "ui.odds_hints",
        "new_game": "ui.new_game",
        "quit": "ui.quit",
        "language": "ui.other_language",
    }

    def localize_bindings(self) -> None:
        """The footer in the table's language."""
        v = vocabulary(None, self.lang)
        for key, bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [
                dataclasses.replace(b, description=v.text(self.BINDING_WORDS[b.action]))
                if b.action in self.BINDING_WORDS
                else b
                for b in bindings
            ]
        self.refresh_bindings()

    def on_mount(self) -> None:
        self.localize_bindings()

    def action_language(self) -> None:
        """``L``: English ⇄ Japanese, everything on screen said again."""
        languages = list(LANGUAGES)
        self.set_language(languages[(languages.index(self.lang) + 1) % len(languages)])

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #too-small {
        display: none; height: 1fr; width: 1fr; content-align: center middle;
        color: $warning; text-style: bold;
    }
    TableScreen.too-small > * { display: none; }
    TableScreen.too-small > #too-small { display: block; }
    #topbar { height: 1; background: $panel; }
    #top { width: 1fr; }
    #top-right { width: auto; color: $text-muted; padding-left: 1; }
    #opponents {
        height: auto;
        grid-size: 3;
        grid-rows: 4;
        grid-gutter: 0 1;
    }
    #middle { height: 1fr; }
    #left { width: 1fr; }
    #centre {
        height: 1fr;
        padding: 0 1;
        overflow-y: auto;
    }
    #centre-text { height: auto; }
    #piles { height: auto; }
    .pile { width: auto; height: auto; margin-right: 2; }
    .pile-label { width: auto; color: $text-muted; }
    .pile CardsView { height: 5; }
    TableScreen.crowded .pile CardsView { height: 1; }
    #you {
        height: auto;
        border: round $primary-lighten-1;
        border-title-style: bold;
        padding: 0 1;
    }
    #you.to-act { border: double $warning; border-title-color: $warning; }
    #you { border-subtitle-align: left; border-subtitle-color: $text; }
    #you-row { height: 5; }
    #hand { height: 5; }
    #side-hand { width: auto; max-width: 30; height: 5; padding: 0 0 0 1; display: none; }
    #you-summary { height: auto; }
    TableScreen.roomy #you-row, TableScreen.roomy #hand, TableScreen.roomy #side-hand {
        height: 7;
    }
    TableScreen.roomy .pile CardsView { height: 7; }
    TableScreen.roomy.crowded .pile CardsView { height: 1; }
    TableScreen.roomy #log { max-width: 72; }
    #log {
        width: 40%;
        min-width: 32;
        max-width: 64;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
    }
    """


class SabaccApp(App[None]):
    """``sabacc play``: the full-screen table. ``setup=True`` opens the settings first."""

    TITLE = "Sabacc"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        config: TableConfig | None = None,
        *,
        game: Game | None = None,
        bots: Mapping[int, Bot] | None = None,
        setup: bool = False,
        hints: bool = False,
        lang: str = "en",
        intro: bool = False,
    ) -> None:
        super().__init__()
        self.config = config or TableConfig()
        self.intro = intro  # show the variant's "how to win" over the first game
        self._initial = (game, dict(bots or {}))
        self.setup = setup
        self.table = TableScreen()
        self.table.show_hints = hints and odds_hints.available()
        self.table.lang = lang
        #: Every game started in this session, in order (``sabacc play --save`` keeps them all).
        self.games: list[Game] = []

    @property
    def game(self) -> Game | None:
        """The game at the table (the last one started)."""
        return self.table.game

    def _seat(self, game: Game, bots: Mapping[int, Bot], config: TableConfig) -> None:
        self.games.append(game)
        self.table.start(game, bots, config)

    async def on_mount(self) -> None:
        await self.push_screen(self.table)
        game, bots = self._initial
        if self.setup:
            self.open_settings(can_cancel=False)
        elif game is not None:
            self._seat(game, bots, self.config)
        else:
            self.new_game(self.config)
        if self.intro and not self.setup:
            self.table.show_intro()

    def new_game(self, config: TableConfig) -> None:
        """Start a game from ``config`` (settings are validated before this is called)."""
        try:
            game, bots = config.build()
        except SabaccError as exc:
            self.notify(str(exc), severity="error")
            self.open_settings(can_cancel=self.table.game is not None)
            return
        self.config = config
        self._seat(game, bots, config)

    def open_settings(self, *, can_cancel: bool = True) -> None:
        def chosen(config: TableConfig | None) -> None:
            if config is not None:
                self.new_game(config)

        screen = SettingsScreen(self.config, can_cancel=can_cancel, lang=self.table.lang)
        self.push_screen(screen, callback=chosen)


def run(
    config: TableConfig | None = None, *, setup: bool = False, hints: bool = False
) -> Game | None:
    """Run the terminal table until the user quits; returns the last game played."""
    app = SabaccApp(config, setup=setup, hints=hints)
    app.run()
    return app.game
