"""The heuristic bot's knowledge of Surabat Cycle: Corellian Spike's
(:class:`~sabacc.variants.spike_family.bot.SpikeBot`) with the Sun and Moon piles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sabacc.engine.bots import card_value
from sabacc.variants.spike_family.bot import SpikeBot


class SurabatBot(SpikeBot):
    """Surabat Cycle: the Sun cards, and the Moon top where this seat put it there."""

    def _public(self, game: Any, seat: int) -> tuple[int | None, tuple[int, ...], int | None]:
        moon = game.moon
        moon_top = moon[-1].value if moon and game.moon_owner[-1] == seat else None
        return None, tuple(c.value for c in game.sun), moon_top

    def view_extras(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """The Sun's cards, and the Moon's top where this seat knows it (it put it there)."""
        known = observation.get("moon_known") or []
        top = known[-1] if known else None
        return {
            "sun": tuple(card_value(c) for c in observation.get("sun") or []),
            "moon_top": card_value(top) if top else None,
        }
