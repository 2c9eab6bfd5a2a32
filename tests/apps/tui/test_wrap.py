"""The log wraps by cell width, Japanese included: a line breaks between Japanese characters,
not only at spaces (Rich's wrap left half-empty lines), and keeps the line-breaking rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from sabacc.apps.tui import SabaccApp, TableConfig
from sabacc.apps.tui.wrap import NO_END, NO_START, CellLog, wrap_cells
from tests.apps.tui.helpers import settle

LINE = (
    "あなたは 2 クレジットをメインポットにアンティ、ランは 2 クレジットをメインポットにアンティ"
    "（合計 4）"
)


def test_a_japanese_line_fills_each_line_it_wraps_to() -> None:
    lines = wrap_cells(Text(LINE), 30)
    assert "".join(x.plain.replace(" ", "") for x in lines) == LINE.replace(" ", "")
    for line in lines[:-1]:
        assert 26 <= cell_len(line.plain) <= 30, [x.plain for x in lines]
    for line in lines[1:]:
        assert line.plain[0] not in NO_START
    for line in lines[:-1]:
        assert line.plain[-1] not in NO_END


def test_english_still_wraps_at_spaces_and_styles_are_kept() -> None:
    text = Text("Ann bets 5 credits into the main pot")
    text.stylize("bold", 4, 8)  # "bets"
    lines = wrap_cells(text, 12)
    assert [x.plain for x in lines] == ["Ann bets 5", "credits into", "the main pot"]
    assert lines[0].spans and lines[0].spans[0].start == 4


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="あいうカナ漢字、。（）ab1 ", min_size=0, max_size=80),
    st.integers(min_value=2, max_value=40),
)
def test_wrapped_lines_fit_and_lose_nothing_but_spaces(plain: str, width: int) -> None:
    lines = wrap_cells(Text(plain), width)
    assert all(cell_len(x.plain) <= width for x in lines)
    assert "".join(x.plain for x in lines).replace(" ", "") == plain.replace(" ", "")


@pytest.mark.asyncio
async def test_the_table_log_wraps_japanese_by_cell_width() -> None:
    config = TableConfig(variant="spike", players=4, seed=1, bot_delay=0)
    app = SabaccApp(config, lang="ja")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = app.table.query_one("#log", CellLog)
        width = log.scrollable_content_region.width
        before = len(log.lines)
        log.write(Text(LINE * 2))
        await pilot.pause()
        shown = [strip.text.rstrip() for strip in log.lines[before:]]
        assert len(shown) >= 2
        for line in shown[:-1]:
            assert cell_len(line) >= width - 4, (width, shown)  # kinsoku moves up to 2 chars
