"""Screens over the table: the rules (``?``), the settings before a game, the final standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

import sabacc
from sabacc.apps.play import DEFAULT_ORBITS
from sabacc.apps.tui.config import TableConfig, parse_bots
from sabacc.apps.tui.view import standings_lines
from sabacc.core.errors import SabaccError
from sabacc.core.options import OptionSpec
from sabacc.services.bots import LEVELS
from sabacc.services.bots.levels import levels_note, offered_bots
from sabacc.services.house_rules import COUNTED, choice_help, choice_label, option_help
from sabacc.services.render import Vocabulary, vocabulary

#: The key list under the rules (English; the table's language from ``ui.key_help``).
KEY_HELP = vocabulary(None, "en").text("ui.key_help")


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

    def __init__(
        self, title: str, rules: str, *, heading: str | None = None, lang: str = "en"
    ) -> None:
        super().__init__()
        self.v = vocabulary(None, lang)
        self.rules_title = title
        self.rules = rules
        self.heading = heading or self.v.text("ui.rules_heading")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.rules_title}: {self.heading}", id="rules-title")
            with VerticalScroll(id="rules-scroll"):
                yield Static(Text(reflow(self.rules)), id="rules-text")
                yield Static(Text("\n" + self.v.text("ui.key_help"), style="cyan"), id="rules-keys")
            yield Static(self.v.text("ui.rules_close"), id="rules-close")

    def action_close(self) -> None:
        self.dismiss(None)


class SettingsScreen(ModalScreen[TableConfig | None]):
    """Variant, players, bots and the variant's house rules before a game. Enter or ``Start``
    begins it.

    Each house rule is a labelled control drawn from its :class:`~sabacc.core.options.OptionSpec`
    (never typed as ``name=value``): a dropdown of its choices in words (on/off for a yes-no
    rule) or of its presets (with a number box for one taking a number, ``hands:N``), a
    checkbox per item of a multi-valued rule (each with its one-line effect), or a number box
    with its range as the placeholder, checked on Start. A blank box keeps the default; only
    rules changed from their default are passed to the game.
    """

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical {
        width: 78; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SettingsScreen .row { height: 1; }
    SettingsScreen .row Label { width: 22; }
    SettingsScreen .row Input, SettingsScreen .row Select { width: 1fr; }
    SettingsScreen .row Input.count { width: 10; }
    SettingsScreen .row Input.count.-off { display: none; }
    SettingsScreen .item { height: 1; }
    SettingsScreen .item Checkbox { width: 1fr; }
    SettingsScreen #settings-title { text-style: bold; height: 1; margin-bottom: 1; }
    SettingsScreen #rules-heading { height: 1; margin-top: 1; color: $accent; text-style: bold; }
    SettingsScreen #house-rules { height: auto; max-height: 8; }
    SettingsScreen #settings-help {
        color: $text-muted; height: auto; max-height: 2; overflow: hidden;
    }
    SettingsScreen #settings-error { color: $error; height: auto; max-height: 2; }
    SettingsScreen #settings-buttons { height: 1; margin-top: 1; }
    SettingsScreen #settings-buttons Button { margin-right: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "start", "Start"),
    ]

    def __init__(self, config: TableConfig, *, can_cancel: bool = True, lang: str = "en") -> None:
        super().__init__()
        self.config = config
        self.can_cancel = can_cancel
        self.lang = lang
        self.v = vocabulary(None, lang)
        self._rules_for = ""  # the variant whose house rules are shown
        self._specs: dict[str, OptionSpec] = {}

    def compose(self) -> ComposeResult:
        cfg = self.config
        v = self.v
        names = sabacc.variant_names()
        try:
            current = sabacc.variant(cfg.variant).name
        except SabaccError:
            current = names[0]
        with Vertical():
            yield Static(v.text("ui.settings_title"), id="settings-title")
            with Horizontal(classes="row"):
                yield Label(v.text("ui.variant"))
                yield Select(
                    [(sabacc.variant(n).title, n) for n in names],
                    value=current,
                    allow_blank=False,
                    compact=True,
                    id="variant",
                )
            with Horizontal(classes="row"):
                yield Label(v.text("ui.players"))
                yield Select(
                    self._player_options(current),
                    value=cfg.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            with Horizontal(classes="row"):
                yield Label(v.text("ui.your_name"))
                yield Input(cfg.name, compact=True, id="name")
            with Horizontal(classes="row"):
                yield Label(v.text("ui.bots"))
                choices = self._bot_choices(cfg.bots)
                yield Select(
                    choices, value=choices[0][1] if len(cfg.bots) != 1 else cfg.bots[0],
                    allow_blank=False, compact=True, id="bots",
                )  # fmt: skip
            with Horizontal(classes="row"):
                yield Label(v.text("ui.seed"))
                yield Input(
                    "" if cfg.seed is None else str(cfg.seed),
                    placeholder=v.text("ui.seed_blank"),
                    compact=True,
                    id="seed",
                )
            with Horizontal(classes="row"):
                yield Label(v.text("ui.bot_delay"))
                yield Input(
                    f"{cfg.bot_delay:g}", placeholder=v.text("ui.seconds"), compact=True, id="delay"
                )
            yield Static(id="rules-heading")
            yield VerticalScroll(id="house-rules")
            yield Static("", id="settings-help")
            yield Static("", id="settings-error")
            with Horizontal(id="settings-buttons"):
                yield Button(v.text("ui.start"), variant="primary", compact=True, id="start")
                yield Button(v.text("ui.cancel"), compact=True, id="cancel")

    async def on_mount(self) -> None:
        variant = self.query_one("#variant", Select).value
        await self._show_house_rules(str(variant), self.config.options)
        self.query_one("#start", Button).focus()

    def _player_options(self, variant: str) -> list[tuple[str, int]]:
        info = sabacc.variant(variant).info
        return [(str(n), n) for n in range(info.min_players, info.max_players + 1)]

    def _bot_choices(self, current: Sequence[str]) -> list[tuple[str, str]]:
        """The difficulty levels (with what each means), then ``random``: what players are
        offered (a level's implementation is private); a custom list from the command line
        (``--bots hard,random``) first when there is one."""
        out: list[tuple[str, str]] = []
        if len(current) > 1:
            text = ",".join(current)
            out.append((self.v.text("ui.bot_list", bots=", ".join(current)), text))
        for level in LEVELS.values():
            about = level.about.get(self.lang) or level.about["en"]
            out.append((self.v.text("ui.level", level=level.name, about=about), level.name))
        out.extend((name, name) for name in offered_bots() if name not in LEVELS)
        return out

    # ------------------------------------------------------------ house rules
    def option_label(self, name: str) -> str:
        key = f"option.{name}"
        return self.v.text(key) if self.v.has(key) else name.replace("_", " ").capitalize()

    def _choice_label(self, option: str, value: Any) -> str:
        info = sabacc.variant(self._rules_for).info if self._rules_for else None
        return choice_label(info, option, value, self.lang)

    def _range_text(self, spec: OptionSpec) -> str:
        low, high = spec.minimum, spec.maximum
        if low is not None and high is not None:
            text = self.v.text("ui.range", low=low, high=high)
        elif low is not None:
            text = self.v.text("ui.at_least", low=low)
        else:
            text = ""
        return self.v.text("ui.or_none", range=text) if spec.optional and text else text

    def _placeholder(self, spec: OptionSpec) -> str:
        if spec.name == "game_end":  # sabacc play's own default length
            players = self.query_one("#players", Select).value
            n = players if isinstance(players, int) else self.config.players
            return self.v.text("ui.default_length", orbits=DEFAULT_ORBITS, hands=DEFAULT_ORBITS * n)
        shown = "none" if spec.default is None else spec.default
        parts = [self._range_text(spec)] if spec.kind == "int" else []
        parts.append(self.v.text("ui.default", value=shown))
        return " · ".join(p for p in parts if p)

    async def _show_house_rules(self, variant: str, values: Mapping[str, str]) -> None:
        """One labelled control per house rule of ``variant``, set from ``values``."""
        if variant == self._rules_for:
            return
        self._rules_for = variant
        info = sabacc.variant(variant).info
        self._specs = {spec.name: spec for spec in info.options_type.specs()}
        self.query_one("#rules-heading", Static).update(
            self.v.text("ui.house_rules", variant=info.title)
        )
        box = self.query_one("#house-rules", VerticalScroll)
        await box.remove_children()
        note = levels_note(info, self.lang)
        if note:  # a variant whose levels play fewer distinct bots says so, above its rules
            await box.mount(Static(note, id="levels-note"))
        rows: list[tuple[Horizontal, list[Widget]]] = []
        for spec in self._specs.values():
            controls = self._control(spec, values.get(spec.name))
            rows.append((Horizontal(classes="row"), [Label(self.option_label(spec.name))]))
            rows[-1][1].extend(controls[:2] if spec.kind != "multi" else controls[:1])
            if spec.kind == "multi":  # one checkbox a line under the dropdown
                rows.extend((Horizontal(classes="item"), [c]) for c in controls[1:])
        for row, widgets in rows:
            await box.mount(row)
            await row.mount(*widgets)

    def _control(self, spec: OptionSpec, value: str | None) -> list[Widget]:
        """The widgets of one house rule: its dropdown or box, then a preset's number box or
        a multi-valued rule's checkboxes."""
        wid = f"opt-{spec.name}"
        if spec.kind in ("choice", "bool"):
            if spec.kind == "bool":
                choices = [(self.v.text("ui.on"), "true"), (self.v.text("ui.off"), "false")]
                default = "true" if spec.default else "false"
            else:
                choices = [(self._choice_label(spec.name, c), str(c)) for c in spec.choices]
                default = str(spec.default)
            allowed = [c for _, c in choices]
            current = str(value).lower() if spec.kind == "bool" and value else value
            return [
                Select(
                    choices, value=current if current in allowed else default,
                    allow_blank=False, compact=True, id=wid,
                )
            ]  # fmt: skip
        if spec.presets:
            return self._preset_control(spec, "" if value is None else str(value))
        return [
            Input(
                "" if value is None else str(value),
                placeholder=self._placeholder(spec),
                compact=True,
                id=wid,
            )
        ]

    def _preset_control(self, spec: OptionSpec, value: str) -> list[Widget]:
        """A dropdown of the presets in words (the first entry keeps the default), and a
        number box for a preset taking a number, or a checkbox per item (multi-valued)."""
        wid = f"opt-{spec.name}"
        if spec.name == "game_end":  # sabacc play's own default length
            default = self._placeholder(spec)
        else:
            default = self._choice_label(spec.name, spec.default)
        choices = [(self.v.text("ui.default_choice", value=default), "")]
        choices += [(self._choice_label(spec.name, p), p) for p in spec.presets]
        head, _, count = value.rpartition(":")
        counted = f"{head}{COUNTED}" if count.isdigit() else ""
        if spec.kind == "multi":
            choices.append((self.v.text("ui.multi_list"), "list"))
            picked = [] if not value or value in spec.presets else value.split(",")
            current = value if value in spec.presets else ("list" if picked else "")
            info = sabacc.variant(self._rules_for).info
            boxes: list[Widget] = []
            for item in spec.items:
                effect = choice_help(info, spec.name, item, self.lang)
                text = self._choice_label(spec.name, item) + (f" · {effect}" if effect else "")
                boxes.append(Checkbox(text, item in picked, compact=True, id=f"{wid}-item-{item}"))
            return [Select(choices, value=current, allow_blank=False, compact=True, id=wid), *boxes]
        current = counted if counted in spec.presets else (value if value in spec.presets else "")
        widgets: list[Widget] = [
            Select(choices, value=current, allow_blank=False, compact=True, id=wid)
        ]
        if any(p.endswith(COUNTED) for p in spec.presets):
            box = Input(
                count if counted else "", placeholder=self.v.text("ui.count"),
                type="integer", compact=True, id=f"{wid}-n", classes="count",
            )  # fmt: skip
            box.set_class(not current.endswith(COUNTED), "-off")
            widgets.append(box)
        return widgets

    @on(Select.Changed)
    def _preset_changed(self, event: Select.Changed) -> None:
        """A preset taking a number shows its number box."""
        wid = event.select.id or ""
        try:
            box = self.query_one(f"#{wid}-n", Input)
        except NoMatches:
            return
        box.set_class(not str(event.value).endswith(COUNTED), "-off")

    @on(Checkbox.Changed)
    def _item_ticked(self, event: Checkbox.Changed) -> None:
        """Ticking an item of a multi-valued rule chooses the list."""
        wid = event.checkbox.id or ""
        if "-item-" in wid:
            self.query_one(f"#{wid.split('-item-')[0]}", Select).value = "list"

    def house_rules(self) -> dict[str, str]:
        """The house rules as set, those changed from their default only; raises ValueError
        naming the rule for a number that is not one or out of its range."""
        out: dict[str, str] = {}
        for name, spec in self._specs.items():
            try:
                widget = self.query_one(f"#opt-{name}")
            except NoMatches:  # pragma: no cover - the rows are being rebuilt
                continue
            if isinstance(widget, Select) and spec.presets:
                value = str(widget.value)
                if value == "list":
                    picked = [
                        item for item in spec.items
                        if self.query_one(f"#opt-{name}-item-{item}", Checkbox).value
                    ]  # fmt: skip
                    value = ",".join(picked) or "none"
                elif value.endswith(COUNTED):
                    box = self.query_one(f"#opt-{name}-n", Input)
                    count = box.value.strip()
                    if not count.isdigit() or int(count) < 1:
                        box.focus()
                        label = f"{self.option_label(name)} ({self._choice_label(name, value)})"
                        message = self.v.text("ui.bad_number", label=label, value=count)
                        raise ValueError(message)
                    value = value[: -len(COUNTED)] + f":{int(count)}"
                if value:
                    out[name] = value
                continue
            if isinstance(widget, Select):
                value = str(widget.value)
                default = str(spec.default).lower() if spec.kind == "bool" else str(spec.default)
                if value != default:
                    out[name] = value
                continue
            assert isinstance(widget, Input)
            text = widget.value.strip()
            if not text:
                continue
            if spec.kind == "int" and not (spec.optional and text.lower() == "none"):
                label = self.option_label(name)
                try:
                    number = int(text)
                except ValueError:
                    widget.focus()
                    message = self.v.text("ui.bad_number", label=label, value=text)
                    raise ValueError(message) from None
                low, high = spec.minimum, spec.maximum
                if (low is not None and number < low) or (high is not None and number > high):
                    widget.focus()
                    bounds = self._range_text(spec)
                    message = self.v.text(
                        "ui.out_of_range", label=label, value=number, range=bounds
                    )
                    raise ValueError(message)
            out[name] = text
        return out

    def _help_for(self, widget: Widget | None) -> Text:
        wid = widget.id or "" if widget is not None else ""
        if not wid.startswith("opt-"):
            return Text("")
        name, _, item = wid[4:].partition("-item-")
        spec = self._specs.get(name.removesuffix("-n"))
        if spec is None:
            return Text("")
        info = sabacc.variant(self._rules_for).info
        if item:  # a multi-valued rule's item: its name and effect
            text = Text(f"{self._choice_label(spec.name, item)}: ", style="bold")
            text.append(choice_help(info, spec.name, item, self.lang))
            return text
        text = Text(f"{self.option_label(spec.name)}: ", style="bold")
        text.append(option_help(info, spec, self.lang))
        return text

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.query_one("#settings-help", Static).update(self._help_for(event.widget))

    @on(Select.Changed, "#variant")
    async def _variant_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str):
            return
        players = self.query_one("#players", Select)
        value = players.value
        options = self._player_options(event.value)
        players.set_options(options)
        allowed = [n for _, n in options]
        players.value = value if value in allowed else allowed[0]
        keep = self.house_rules_or_empty() if event.value == self.config.variant else {}
        await self._show_house_rules(event.value, keep or self.config.options)

    def house_rules_or_empty(self) -> dict[str, str]:
        try:
            return self.house_rules()
        except ValueError:
            return {}

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
            raise ValueError(self.v.text("ui.bad_seed", value=seed_text)) from None
        try:
            delay = max(0.0, float(delay_text))
        except ValueError:
            raise ValueError(self.v.text("ui.bad_delay", value=delay_text)) from None
        config = TableConfig(
            variant=str(variant),
            players=int(players) if isinstance(players, int) else self.config.players,
            bots=parse_bots(str(self.query_one("#bots", Select).value)),
            name=self.query_one("#name", Input).value.strip() or "You",
            seed=seed,
            options=self.house_rules(),
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

    def __init__(self, question: str, lang: str = "en") -> None:
        super().__init__()
        self.question = question
        self.v = vocabulary(None, lang)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="quit-question")
            with Horizontal(id="quit-buttons"):
                yield Button(
                    f"y {self.v.text('ui.quit')}", variant="warning", compact=True, id="yes"
                )
                yield Button(f"n {self.v.text('ui.play_on')}", compact=True, id="no")

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

    def __init__(
        self,
        outcome: Mapping[str, Any],
        names: Sequence[str],
        human: int | None,
        vocab: Vocabulary | None = None,
    ) -> None:
        super().__init__()
        self.outcome = dict(outcome)
        self.names = list(names)
        self.human = human
        self.v = vocab or vocabulary(None, "en")

    def compose(self) -> ComposeResult:
        v = self.v
        lines = standings_lines(self.outcome, self.names, self.human, v)
        body = Text("\n").join(lines)
        hands = int(self.outcome.get("hands_played") or 0)
        played = v.text("ui.hands_played.one") if hands == 1 else v.text("ui.hands_played", n=hands)
        with Vertical():
            yield Static(v.text("ui.game_over_title", played=played), id="over-title")
            yield Static(body, id="standings")
            with Horizontal(id="over-buttons"):
                again = f"⏎ {v.text('ui.play_again')}"
                yield Button(again, variant="primary", compact=True, id="again")
                yield Button(f"n {v.text('ui.new_game')}", compact=True, id="setup")
                yield Button(f"q {v.text('ui.quit')}", compact=True, id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id:
            self.dismiss(event.button.id)

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
