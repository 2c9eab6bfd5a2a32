"""Screens over the table: the rules (``?``), the settings before a game, the final standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

import sabacc
from sabacc.apps.tui.config import TableConfig, bot_text, option_text, parse_bots, parse_option_text
from sabacc.apps.tui.view import standings_lines
from sabacc.core.errors import SabaccError

KEY_HELP = """\
Keys at the table
  s stand / pass      g gain / draw        d swap with the discard top
  e swap with draw    m swap with Moon     x discard (over the hand cap)
  c check / call      b bet   r raise      j junk (fold)
  1-9 pick a card     esc cancel           enter next hand
Bet sizing: ←/→ one unit, ↓/↑ five units, m min, h half pot, p pot, a all-in,
  digits type an amount, backspace deletes, enter confirms, esc cancels.
Anywhere: ? these rules, h odds hints (↑ improve, S sabacc), n new game, q quit.
Mouse: click a button, or a card when asked to pick one.
"""


def reflow(text: str) -> str:
    """Join hard-wrapped lines into paragraphs, so the rules wrap to the screen's width.

    A line break is kept after a line ending a sentence (``.``/``:``) and before a list item.
    """
    out: list[str] = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            out.append("")
            continue
        starts_item = line.startswith(("- ", "* ", "• ")) or raw.startswith("  ")
        if out and out[-1] and not starts_item and not out[-1].endswith((".", ":")):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return "\n".join(out)


class RulesScreen(ModalScreen[None]):
    """The rules of the variant being played, and the keys."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical {
        width: 90%; max-width: 100; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RulesScreen #rules-title { text-style: bold; height: 1; }
    RulesScreen #rules-close { height: 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
    ]

    def __init__(self, title: str, rules: str, *, heading: str = "rules") -> None:
        super().__init__()
        self.rules_title = title
        self.rules = rules
        self.heading = heading

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.rules_title}: {self.heading}", id="rules-title")
            with VerticalScroll(id="rules-scroll"):
                yield Static(Text(reflow(self.rules)), id="rules-text")
                yield Static(Text("\n" + KEY_HELP, style="cyan"), id="rules-keys")
            yield Static("↑/↓ scroll · esc or enter closes · ? shows the rules", id="rules-close")

    def action_close(self) -> None:
        self.dismiss(None)


class SettingsScreen(ModalScreen[TableConfig | None]):
    """Variant, players, bots and options before a game. Enter or ``Start`` begins it."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical {
        width: 78; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SettingsScreen .row { height: 1; }
    SettingsScreen .row Label { width: 11; }
    SettingsScreen .row Input, SettingsScreen .row Select { width: 1fr; }
    SettingsScreen #settings-title { text-style: bold; height: 1; margin-bottom: 1; }
    SettingsScreen #settings-help {
        color: $text-muted; height: auto; max-height: 4; margin-top: 1; overflow: hidden;
    }
    SettingsScreen #settings-error { color: $error; height: auto; max-height: 2; }
    SettingsScreen #settings-buttons { height: 1; margin-top: 1; }
    SettingsScreen #settings-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "start", "Start"),
    ]

    def __init__(self, config: TableConfig, *, can_cancel: bool = True) -> None:
        super().__init__()
        self.config = config
        self.can_cancel = can_cancel

    def compose(self) -> ComposeResult:
        cfg = self.config
        names = sabacc.variant_names()
        try:
            current = sabacc.variant(cfg.variant).name
        except SabaccError:
            current = names[0]
        with Vertical():
            yield Static("New game: settings", id="settings-title")
            with Horizontal(classes="row"):
                yield Label("Variant")
                yield Select(
                    [(sabacc.variant(n).title, n) for n in names],
                    value=current,
                    allow_blank=False,
                    compact=True,
                    id="variant",
                )
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select(
                    self._player_options(current),
                    value=cfg.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            with Horizontal(classes="row"):
                yield Label("Your name")
                yield Input(cfg.name, compact=True, id="name")
            with Horizontal(classes="row"):
                yield Label("Bots")
                yield Input(bot_text(cfg.bots), compact=True, id="bots")
            with Horizontal(classes="row"):
                yield Label("Seed")
                yield Input(
                    "" if cfg.seed is None else str(cfg.seed),
                    placeholder="blank: random",
                    compact=True,
                    id="seed",
                )
            with Horizontal(classes="row"):
                yield Label("Bot delay")
                yield Input(f"{cfg.bot_delay:g}", placeholder="seconds", compact=True, id="delay")
            with Horizontal(classes="row"):
                yield Label("Options")
                yield Input(
                    option_text(cfg.options),
                    placeholder="name=value, ... (house rules)",
                    compact=True,
                    id="options",
                )
            yield Static(self._help_text(current), id="settings-help")
            yield Static("", id="settings-error")
            with Horizontal(id="settings-buttons"):
                start = Button("⏎ Start", variant="primary", compact=True, id="start")
                yield start
                yield Button("esc Cancel", compact=True, id="cancel")

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    def _player_options(self, variant: str) -> list[tuple[str, int]]:
        info = sabacc.variant(variant).info
        return [(str(n), n) for n in range(info.min_players, info.max_players + 1)]

    def _help_text(self, variant: str) -> Text:
        v = sabacc.variant(variant)
        opts = v.options
        names = ", ".join(opts.names())
        bots = ", ".join(_bot_names())
        return Text(f"Bots: {bots}.\nOptions ({v.title}): {names}.")

    @on(Select.Changed, "#variant")
    def _variant_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str):
            return
        players = self.query_one("#players", Select)
        value = players.value
        options = self._player_options(event.value)
        players.set_options(options)
        allowed = [n for _, n in options]
        players.value = value if value in allowed else allowed[0]
        self.query_one("#settings-help", Static).update(self._help_text(event.value))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

    def read_config(self) -> TableConfig:
        """The settings as entered; raises :class:`SabaccError` (or ValueError) if invalid."""
        variant = self.query_one("#variant", Select).value
        players = self.query_one("#players", Select).value
        seed_text = self.query_one("#seed", Input).value.strip()
        delay_text = self.query_one("#delay", Input).value.strip() or "0"
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise ValueError(f"seed {seed_text!r} must be a whole number") from None
        try:
            delay = max(0.0, float(delay_text))
        except ValueError:
            raise ValueError(f"bot delay {delay_text!r} must be a number of seconds") from None
        config = TableConfig(
            variant=str(variant),
            players=int(players) if isinstance(players, int) else self.config.players,
            bots=parse_bots(self.query_one("#bots", Input).value),
            name=self.query_one("#name", Input).value.strip() or "You",
            seed=seed,
            options=parse_option_text(self.query_one("#options", Input).value),
            bot_delay=delay,
        )
        config.build()  # validate everything now, so errors show here
        return config

    def action_start(self) -> None:
        try:
            config = self.read_config()
        except (SabaccError, ValueError) as exc:
            self.query_one("#settings-error", Static).update(f"✗ {exc}")
            return
        self.dismiss(config)

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.dismiss(None)
        else:
            self.app.exit()


def _bot_names() -> list[str]:
    from sabacc.services.bots import base

    names = getattr(base, "bot_names", None)
    if callable(names):
        try:
            return list(names())
        except Exception:  # pragma: no cover - a half-installed optional bot
            pass
    return sorted(base.BOTS)


class ConfirmQuitScreen(ModalScreen[bool]):
    """Asked before quitting a game in progress: ``y``/enter quits, ``n``/esc plays on."""

    DEFAULT_CSS = """
    ConfirmQuitScreen { align: center middle; }
    ConfirmQuitScreen > Vertical {
        width: 52; height: auto; border: thick $warning; background: $surface; padding: 0 1;
    }
    ConfirmQuitScreen #quit-buttons { height: 1; margin-top: 1; }
    ConfirmQuitScreen #quit-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Quit"),
        Binding("q", "answer(True)", "Quit", show=False),
        Binding("n", "answer(False)", "Play on"),
        Binding("escape", "answer(False)", "Play on", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="quit-question")
            with Horizontal(id="quit-buttons"):
                yield Button("y Quit", variant="warning", compact=True, id="yes")
                yield Button("n Play on", compact=True, id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class GameOverScreen(ModalScreen[str]):
    """Final standings. Returns ``"again"``, ``"setup"`` or ``"quit"``."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical {
        width: 64; height: auto; border: thick $success; background: $surface; padding: 0 1;
    }
    GameOverScreen #over-title { text-style: bold; margin-bottom: 1; }
    GameOverScreen #over-buttons { height: 1; margin-top: 1; }
    GameOverScreen #over-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose('again')", "Play again"),
        Binding("n", "choose('setup')", "New game"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "choose('quit')", "Quit", show=False),
    ]

    def __init__(self, outcome: Mapping[str, Any], names: Sequence[str], human: int | None) -> None:
        super().__init__()
        self.outcome = dict(outcome)
        self.names = list(names)
        self.human = human

    def compose(self) -> ComposeResult:
        lines = standings_lines(self.outcome, self.names, self.human)
        body = Text("\n").join(lines)
        hands = int(self.outcome.get("hands_played") or 0)
        played = f"{hands} hand" if hands == 1 else f"{hands} hands"
        with Vertical():
            yield Static(f"Game over after {played}: final standings", id="over-title")
            yield Static(body, id="standings")
            with Horizontal(id="over-buttons"):
                yield Button("⏎ Play again", variant="primary", compact=True, id="again")
                yield Button("n New game", compact=True, id="setup")
                yield Button("q Quit", compact=True, id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id:
            self.dismiss(event.button.id)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
