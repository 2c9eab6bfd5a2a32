"""Level schedules: what a level sets, how long it lasts (hands or minutes), the breaks.

A variant declares what rises (:class:`sabacc.engine.variant.LevelPlan`); a schedule is a
list of :class:`Level`, each the values of some of those options and its length, checked
against the variant (:func:`check_schedule`). Levels run by hands (the event's hands: every
table plays one hand per event hand) or by minutes (a clock the caller passes in; the
director never reads the system clock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sabacc.core.errors import OptionError
from sabacc.engine.variant import LevelPlan, VariantInfo
from sabacc.services.tournament.errors import ScheduleError

#: The Sabacc For Charity points table: places 1 to 6.
S4C_POINTS: tuple[int, ...] = (100, 64, 36, 21, 12, 5)


@dataclass(frozen=True)
class Level:
    """One level: its option values, its length (``hands`` or ``minutes``), and the break
    that follows it (``break_minutes``; by hands, ``break_minutes`` is only announced)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    hands: int | None = None
    minutes: float | None = None
    break_minutes: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"options": dict(self.options)}
        if self.hands is not None:
            out["hands"] = self.hands
        if self.minutes is not None:
            out["minutes"] = self.minutes
        if self.break_minutes:
            out["break_minutes"] = self.break_minutes
        return out


@dataclass(frozen=True)
class Schedule:
    """The levels in order; the last lasts until the event ends."""

    levels: tuple[Level, ...]

    @property
    def by_minutes(self) -> bool:
        return self.levels[0].minutes is not None

    def level_at(self, hands: int, minutes: float = 0.0) -> int:
        """The level (0-based) in play after ``hands`` event hands, or at ``minutes`` on the
        event clock (breaks count as time: a level starts after the break before it)."""
        spent = 0.0
        for index, level in enumerate(self.levels[:-1]):
            length = level.minutes if self.by_minutes else level.hands
            assert length is not None
            spent += length
            if (minutes if self.by_minutes else hands) < spent:
                return index
            if self.by_minutes:
                spent += level.break_minutes  # during the break, the level is the last one
                if minutes < spent:
                    return index
        return len(self.levels) - 1

    def in_break(self, minutes: float) -> bool:
        """Whether the clock at ``minutes`` is inside a break (levels by minutes only)."""
        if not self.by_minutes:
            return False
        spent = 0.0
        for level in self.levels[:-1]:
            assert level.minutes is not None
            spent += level.minutes
            if spent <= minutes < spent + level.break_minutes:
                return True
            spent += level.break_minutes
        return False

    def to_list(self) -> list[dict[str, Any]]:
        return [level.to_dict() for level in self.levels]


def default_schedule(
    info: VariantInfo,
    *,
    hands: int | None = None,
    minutes: float | None = None,
    break_every: int = 0,
    break_minutes: float = 10.0,
) -> Schedule:
    """The variant's declared schedule, each level ``hands`` long (default: the variant's
    ``hands_per_level``) or ``minutes`` long; a break after every ``break_every`` levels."""
    plan = info.levels
    if minutes is None and hands is None:
        hands = plan.hands_per_level
    levels = []
    for i, values in enumerate(plan.schedule):
        pause = break_minutes if break_every and (i + 1) % break_every == 0 else 0.0
        levels.append(Level(dict(values), hands=hands, minutes=minutes, break_minutes=pause))
    return check_schedule(info, levels)


def check_schedule(info: VariantInfo, levels: Sequence[Level]) -> Schedule:
    """``levels`` as a :class:`Schedule` for ``info``'s variant, or :class:`ScheduleError`."""
    if not levels:
        raise ScheduleError("a schedule needs at least one level")
    plan: LevelPlan = info.levels
    by_minutes = levels[0].minutes is not None
    for number, level in enumerate(levels, 1):
        if (level.minutes is not None) == (level.hands is not None):
            raise ScheduleError(f"level {number}: give its length in hands or in minutes")
        if (level.minutes is not None) != by_minutes:
            raise ScheduleError(f"level {number}: every level is by hands or every one by minutes")
        length = level.minutes if by_minutes else level.hands
        if (
            isinstance(length, bool)
            or not isinstance(length, int | float)
            or length <= 0
            or (not by_minutes and not isinstance(length, int))
        ):
            raise ScheduleError(f"level {number}: its length {length!r} must be positive")
        if level.break_minutes < 0:
            raise ScheduleError(f"level {number}: a break cannot be negative")
        unknown = sorted(set(level.options) - set(plan.options))
        if unknown:
            raise ScheduleError(
                f"level {number}: {info.title} levels set {', '.join(plan.options)}, "
                f"not {', '.join(unknown)}"
            )
        try:
            info.options_type.from_mapping(dict(level.options))
        except OptionError as exc:
            raise ScheduleError(f"level {number}: {exc}") from None
    return Schedule(tuple(levels))


def ante_cost(info: VariantInfo, options: Mapping[str, Any]) -> int:
    """What a seat must hold to be dealt a hand at a level with these option values: the sum
    of the variant's declared ante options (Kessel: 0, a seat is out only without chips)."""
    defaults = info.options_type()
    total = 0
    for name in info.levels.antes:
        value = options.get(name, getattr(defaults, name))
        total += int(value) if isinstance(value, int) and not isinstance(value, bool) else 0
    return total
