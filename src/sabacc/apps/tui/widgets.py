"""The table's widgets. Each one is fed plain data (parts of an observation) and draws it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from sabacc.apps.tui.view import CARD_SIZE, card_back_lines, card_lines, chip, join_columns

CARD_WIDTH = 7
CARD_GAP = 1


class SeatView(Static):
    """An opponent's seat: name, dealer button and to-act mark in the border, two lines inside."""

    DEFAULT_CSS = """
    SeatView {
        height: 4;
        border: round $panel-lighten-2;
        padding: 0 1;
        border-title-style: bold;
    }
    SeatView.to-act { border: round $warning; border-title-color: $warning; }
    SeatView.gone { color: $text-muted; border: round $panel; }
    SeatView.winner { border: round $success; }
    """


@dataclass
class _Span:
    start: int
    end: int
    index: int


class CardsView(Widget):
    """A row of face-up cards, drawn as cards when there is room, else as chips.

    Each card carries its index (1-based) in the top border: the key that picks it. Clicking a
    card posts :class:`CardsView.Picked`.
    """

    DEFAULT_CSS = """
    CardsView { height: 5; width: 1fr; }
    """

    class Picked(Message):
        """A card of this row was clicked."""

        def __init__(self, view: CardsView, index: int) -> None:
            super().__init__()
            self.view = view
            self.index = index

        @property
        def control(self) -> CardsView:
            return self.view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.variant = ""
        self.codes: list[str] = []
        self.highlight: set[int] = set()
        self.numbered = True
        self.empty_text = ""
        self.backs = 0
        self.kept = 0
        self._spans: list[_Span] = []

    def show(
        self,
        variant: str,
        codes: Sequence[str],
        *,
        highlight: set[int] | None = None,
        numbered: bool = True,
        empty_text: str = "",
        backs: int = 0,
        kept: int = 0,
    ) -> None:
        """Draw ``codes`` (the first ``kept`` of them marked as kept) and ``backs`` face-down
        cards after them."""
        self.variant = variant
        self.codes = list(codes)
        self.highlight = set(highlight or ())
        self.numbered = numbered
        self.empty_text = empty_text
        self.backs = backs
        self.kept = kept
        self.refresh()

    def render(self) -> RenderResult:
        width = self.size.width or 80
        n = len(self.codes) + self.backs
        self._spans = []
        if not n:
            return Text(self.empty_text, style="dim italic")
        # Big cards when the row is tall enough for them and they all fit, else normal ones.
        for big in (True, False):
            card_width, card_height = CARD_SIZE[big]
            step = card_width + CARD_GAP
            if n * step - CARD_GAP > width or self.size.height < card_height:
                continue
            columns = []
            for i, code in enumerate(self.codes):
                columns.append(
                    card_lines(
                        self.variant,
                        code,
                        index=i + 1 if self.numbered else None,
                        highlight=i in self.highlight,
                        big=big,
                        kept=i < self.kept,
                    )
                )
                self._spans.append(_Span(i * step, i * step + card_width, i))
            for j in range(self.backs):  # a face-down card is clickable too (a draw pile)
                k = len(self.codes) + j
                self._spans.append(_Span(k * step, k * step + card_width, k))
            columns.extend(card_back_lines(big) for _ in range(self.backs))
            return join_columns(columns, CARD_GAP, card_width)
        # Not enough room: one line of numbered chips.
        text = Text()
        for i, code in enumerate(self.codes):
            if i:
                text.append(" ")
            start = text.cell_len
            if self.numbered:
                style = "bold reverse yellow" if i in self.highlight else "bold"
                text.append(str(i + 1), style=style)
            text.append_text(chip(self.variant, code))
            if i < self.kept:
                text.append("✓", style="bold green")
            self._spans.append(_Span(start, text.cell_len, i))
        if self.backs:
            text.append(" " + "▮" * self.backs, style="blue")
        return text

    def index_at(self, x: int) -> int | None:
        for span in self._spans:
            if span.start <= x < span.end:
                return span.index
        return None

    def on_click(self, event: events.Click) -> None:
        index = self.index_at(event.x)
        if index is not None:
            event.stop()
            self.post_message(self.Picked(self, index))


class KeyButton(Button):
    """A one-line button exactly as wide as its caption (no side padding)."""

    def get_content_width(self, container: Size, viewport: Size) -> int:
        label = self.label
        plain = label if isinstance(label, str) else label.plain
        return max((cell_len(line) for line in plain.splitlines()), default=0)


class ActionBar(Widget):
    """A prompt line and a row of buttons, each showing the key that does the same."""

    DEFAULT_CSS = """
    ActionBar { height: 2; padding: 0 1; }
    ActionBar #prompt { height: 1; }
    ActionBar Horizontal { height: 1; }
    ActionBar Button {
        width: auto;
        min-width: 0;
        margin-right: 1;
        height: 1;
        padding: 0;
    }
    ActionBar Button.-hidden { display: none; }
    """

    SLOTS = 16

    class Chosen(Message):
        """A button of the bar was clicked: the same as pressing ``key``."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys: dict[str, str] = {}  # button id -> key

    def compose(self) -> ComposeResult:
        yield Static(id="prompt")
        with Horizontal():
            for i in range(self.SLOTS):
                button = KeyButton("", id=f"act-{i}", compact=True, classes="-hidden")
                button.can_focus = False
                button.styles.line_pad = 0
                yield button

    def show(self, prompt: Text | str, entries: Sequence[tuple[str, str, str | Text]]) -> None:
        """``entries``: (key, key shown, label) per button, in order."""
        self.query_one("#prompt", Static).update(prompt)
        self.keys = {}
        captions = [self._caption(shown, label, roomy=True) for _, shown, label in entries]
        room = (self.size.width or 80) - 2
        if sum(c.cell_len + 1 for c in captions) > room:  # wide labels (Japanese): no padding
            captions = [self._caption(shown, label, roomy=False) for _, shown, label in entries]
        for i in range(self.SLOTS):
            button = self.query_one(f"#act-{i}", Button)
            if i < len(entries):
                key = entries[i][0]
                self.keys[f"act-{i}"] = key
                button.label = captions[i]
                button.remove_class("-hidden")
                button.refresh(layout=True)
            else:
                button.add_class("-hidden")

    @staticmethod
    def _caption(shown: str, label: str | Text, *, roomy: bool) -> Text:
        """`` k  label `` (or, when the row is short of room, ``k label``)."""
        pad = " " if roomy else ""
        caption = Text()
        caption.append(f"{pad}{shown}{pad}", style="bold reverse")
        if label:
            caption.append(" ")
            caption.append_text(label if isinstance(label, Text) else Text(label))
            caption.append(pad)
        return caption

    def button_for(self, key: str) -> Button | None:
        """The visible button that does what ``key`` does."""
        for button_id, k in self.keys.items():
            if k == key:
                return self.query_one(f"#{button_id}", Button)
        return None

    def labels(self) -> list[str]:
        """The visible buttons' captions, in order."""
        return [str(self.query_one(f"#{b}", Button).label) for b in self.keys]

    @property
    def prompt(self) -> str:
        return str(self.query_one("#prompt", Static).render())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        key = self.keys.get(event.button.id or "")
        if key:
            self.post_message(self.Chosen(key))
