"""The heuristic bot's knowledge of Surabat Cycle: Corellian Spike's
(:class:`~sabacc.variants.spike_family.bot.SpikeBot`) with the Sun and Moon piles."""

from __future__ import annotations

from typing import Any

from sabacc.variants.spike_family.bot import SpikeBot


class SurabatBot(SpikeBot):
    """Surabat Cycle: the Sun cards, and the Moon top where this seat put it there."""

    def _public(self, game: Any, seat: int) -> tuple[int | None, tuple[int, ...], int | None]:
        moon = game.moon
        moon_top = moon[-1].value if moon and game.moon_owner[-1] == seat else None
        return None, tuple(c.value for c in game.sun), moon_top
