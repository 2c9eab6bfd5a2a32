"""Tournaments: the director (pure, seeded), its formats and the runner playing its tables.

* :class:`Director`: a freezeout (cantina game, Sit & Go, multi-table): seat and button
  draw, levels, busts, balancing, breaking, the final redraw, rebuys, add-ons, re-entries;
* :class:`SeriesDirector`: Swiss and Arena, series of whole games;
* :func:`freezeout_standings`, :func:`series_standings`: standings from an event's log;
* :func:`run_freezeout`, :func:`run_series`: play an event's tables on the engines;
* :func:`simulate_event`, :func:`structure_report`: ``sabacc tournament simulate``.

See docs/tournaments.md.
"""

from __future__ import annotations

from sabacc.services.tournament.config import FORMATS, FREEZEOUTS, SERIES, EventConfig
from sabacc.services.tournament.director import Director
from sabacc.services.tournament.errors import (
    ConfigError,
    EventStateError,
    NotAllowed,
    RegistrationClosed,
    ScheduleError,
    TableFull,
    TournamentError,
    UnknownPlayer,
)
from sabacc.services.tournament.runner import Players, run_freezeout, run_series
from sabacc.services.tournament.series import SeriesDirector
from sabacc.services.tournament.standings import (
    Row,
    freezeout_standings,
    series_standings,
)
from sabacc.services.tournament.structure import (
    S4C_POINTS,
    Level,
    Schedule,
    check_schedule,
    default_schedule,
)

__all__ = [
    "FORMATS",
    "FREEZEOUTS",
    "S4C_POINTS",
    "SERIES",
    "ConfigError",
    "Director",
    "EventConfig",
    "EventStateError",
    "Level",
    "NotAllowed",
    "Players",
    "RegistrationClosed",
    "Row",
    "Schedule",
    "ScheduleError",
    "SeriesDirector",
    "TableFull",
    "TournamentError",
    "UnknownPlayer",
    "check_schedule",
    "default_schedule",
    "freezeout_standings",
    "run_freezeout",
    "run_series",
    "series_standings",
]
