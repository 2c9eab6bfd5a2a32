"""The tournament director's errors: each names what was refused; nothing changed when raised."""

from __future__ import annotations

from sabacc.core.errors import SabaccError


class TournamentError(SabaccError, ValueError):
    """Base of every refusal of the tournament director (the event is left unchanged)."""


class ScheduleError(TournamentError):
    """A level schedule that cannot be played: no levels, an option a level may not set, a
    value the variant refuses, a length that is not positive, hands mixed with minutes."""


class ConfigError(TournamentError):
    """An event's settings that do not fit together (format, table size, points, counts)."""


class RegistrationClosed(TournamentError):
    """A registration (or a re-entry) after registration closed, or before it opened."""


class UnknownPlayer(TournamentError):
    """A player or entry the event does not know."""


class TableFull(TournamentError):
    """A move to a table with no free seat."""


class NotAllowed(TournamentError):
    """A rebuy, add-on, re-entry or move the event's settings or its state do not allow now."""


class EventStateError(TournamentError):
    """A step out of order: a hand report before the start, a second start, a report for a
    table that is not playing, a hand report whose chips do not add up."""
