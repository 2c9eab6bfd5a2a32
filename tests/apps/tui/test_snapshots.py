"""Snapshots of the table at 80×24 with fixed seeds and scripted bots (pytest-textual-snapshot).

Regenerate after a deliberate change of the look with ``pytest tests/tui --snapshot-update``
and check the SVGs under ``tests/apps/tui/__snapshots__`` by eye.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from tests.apps.tui.helpers import play_until, scripted_app, settle


def test_start_of_hand(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)

    assert snap_compare(scripted_app(seed=1), terminal_size=(80, 24), run_before=run_before)


def test_betting_with_bet_sizing_open(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("s")  # stand: on to the betting phase
        await settle(pilot)
        await pilot.press("r", "p", "right")  # raise: pot size, one more

    assert snap_compare(scripted_app(seed=1), terminal_size=(80, 24), run_before=run_before)


def test_showdown_summary(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await play_until(pilot, "review", prefer="cs")

    assert snap_compare(scripted_app(seed=1), terminal_size=(80, 24), run_before=run_before)


def test_surabat_sun_pick(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("g")  # which Sun card?

    app = scripted_app(variant="surabat_cycle", players=3, seed=2)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
