"""Line wrapping by cell width that also breaks between Japanese characters.

Rich wraps text at spaces only, so a Japanese line (which has few spaces, only around numbers
and names) broke at its spaces and left half-empty lines. :func:`wrap_cells` may break at a
space or between two characters where either is wide (CJK), except before closing punctuation
or small kana and after opening brackets (the usual line-breaking rules, kinsoku), and folds
a run too long for the width at the width. Styles are kept. :class:`CellLog` is the log that
wraps its lines so, on every write and every re-wrap after a resize.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual.widgets import RichLog

__all__ = ["CellLog", "CellWrapped", "wrap_cells"]

#: Characters a line must not start with (closing punctuation, small kana, the long vowel).
NO_START = frozenset(
    "、。，．,.)）]」』】〕〉》！？!?：；:;ー…‥・ゃゅょっゎャュョッヮぁぃぅぇぉァィゥェォ％%"
)
#: Characters a line must not end with (opening brackets).
NO_END = frozenset("(（[「『【〔〈《")


def _wide(ch: str) -> bool:
    return cell_len(ch) > 1


def break_points(plain: str) -> list[int]:
    """The offsets in ``plain`` where a new line may start."""
    out = []
    for i in range(1, len(plain)):
        a, b = plain[i - 1], plain[i]
        if b == " ":
            continue
        if a == " " or ((_wide(a) or _wide(b)) and b not in NO_START and a not in NO_END):
            out.append(i)
    return out


def _spans(plain: str, width: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each wrapped line of ``plain`` (one paragraph) at ``width`` cells."""
    points = break_points(plain)
    start = 0
    while cell_len(plain[start:].rstrip()) > width:
        best = None
        for p in points:
            if p <= start:
                continue
            if cell_len(plain[start:p].rstrip()) > width:
                break
            best = p
        if best is None:  # nothing fits: fold the run at the width
            end, used = start, 0
            while end < len(plain) and used + cell_len(plain[end]) <= width:
                used += cell_len(plain[end])
                end += 1
            best = max(end, start + 1)
        yield start, best
        start = best
    yield start, len(plain)


def wrap_cells(text: Text, width: int) -> list[Text]:
    """``text`` wrapped to ``width`` cells: its lines (styles kept, trailing spaces dropped)."""
    width = max(1, width)
    out: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        plain = paragraph.plain
        for start, end in _spans(plain, width):
            line = paragraph[start:end]
            line.rstrip()
            out.append(line)
    return out


class CellWrapped:
    """A Rich renderable of ``text`` wrapped by :func:`wrap_cells` at the width it is given."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((cell_len(line) for line in self.text.plain.split("\n")), default=1)
        return Measurement(1, max(1, widest))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in wrap_cells(self.text, options.max_width):
            line.end = "\n"
            line.no_wrap = True
            yield line


class CellLog(RichLog):
    """A :class:`RichLog` whose text lines wrap by :func:`wrap_cells` (Japanese too)."""

    def _make_renderable(self, content: Any) -> Any:
        if isinstance(content, str):
            content = Text(content)
        if isinstance(content, Text) and self.wrap:
            return CellWrapped(content)
        return super()._make_renderable(content)
