"""An event's settings (:class:`EventConfig`) and their checks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sabacc.core.errors import SabaccError
from sabacc.engine.variant import VariantInfo
from sabacc.services.tournament.errors import ConfigError
from sabacc.services.tournament.structure import S4C_POINTS, Schedule, default_schedule

#: The formats: the three freezeouts (one game to the last player: ``cantina``, ``sng``,
#: ``mtt``) and the two series of games (``swiss``, ``arena``).
FREEZEOUTS: tuple[str, ...] = ("cantina", "sng", "mtt")
SERIES: tuple[str, ...] = ("swiss", "arena")
FORMATS: tuple[str, ...] = FREEZEOUTS + SERIES
#: What happens to pots left on a table when its game closes (a level change, a table break,
#: the final redraw, the end): ``split`` among the table's players still in, or ``house``
#: (out of play). A player moving in or out does not close it.
POT_POLICIES: tuple[str, ...] = ("split", "house")


@dataclass(frozen=True)
class EventConfig:
    """Everything an event is played by. Defaults fit a demanding cantina night; every field
    is checked by :meth:`resolved` (a :class:`ConfigError` names the first problem).

    ``table_size``: seats per table (default: 8, or the variant's most, and 4 in a series);
    ``starting_stack``: each entry's credits (default: the variant's, as its first level sets
    it); ``points``: place points, first place first (default S4C); ``min_players``: fewer
    entries and the event does not count (no points); ``late_until_level``: registration stays
    open to the end of that level (0: closes at the start); ``reentries``: entries a player may
    add after busting; ``rebuy_until_level``: rebuys allowed to the end of that level (0: none);
    ``add_on``: one add-on per entry during the last rebuy level; ``pot_at_close``: see
    :data:`POT_POLICIES`; ``orbits``: a cantina game's cap in orbits (None: last standing);
    ``rounds``: Swiss rounds; ``duration_hands`` / ``duration_minutes``: the Arena's length;
    ``streak_bonus``: Arena points added to each win that continues a streak of wins;
    ``charity``: the total the organiser entered, shown in the report; ``seats``: a Sit &
    Go's seats (default: one table's), it starts when they fill; ``game_hands``: a series
    game's cap in hands (its places then by stacks) where the level sets no round cap.
    """

    format: str = "sng"
    variant: str = "corellian_spike"
    options: Mapping[str, Any] = field(default_factory=dict)
    schedule: Schedule | None = None
    table_size: int | None = None
    starting_stack: int | None = None
    points: tuple[int, ...] = S4C_POINTS
    min_players: int = 2
    late_until_level: int = 0
    reentries: int = 0
    rebuy_until_level: int = 0
    add_on: bool = False
    pot_at_close: str = "split"
    orbits: int | None = None
    rounds: int = 3
    duration_hands: int | None = None
    duration_minutes: float | None = None
    streak_bonus: int = 25
    charity: float | None = None
    seats: int | None = None
    game_hands: int = 60

    @property
    def info(self) -> VariantInfo:
        import sabacc

        try:
            return sabacc.variant(self.variant).info
        except SabaccError as exc:
            raise ConfigError(str(exc)) from None

    def resolved(self) -> EventConfig:
        """This config with every default filled in and checked; :class:`ConfigError` else."""
        info = self.info
        if self.format not in FORMATS:
            raise ConfigError(f"format {self.format!r}: must be one of {', '.join(FORMATS)}")
        if self.pot_at_close not in POT_POLICIES:
            raise ConfigError(f"pot_at_close {self.pot_at_close!r}: split or house")
        schedule = self.schedule or default_schedule(info)
        size = self.table_size
        if size is None:
            size = min(4 if self.format in SERIES else 8, info.max_players)
        if not info.min_players <= size <= info.max_players:
            raise ConfigError(
                f"table_size {size}: {info.title} tables seat {info.min_players}-{info.max_players}"
            )
        try:
            options = info.options_type.from_mapping(
                {**dict(self.options), **schedule.levels[0].options}
            )
        except SabaccError as exc:
            raise ConfigError(str(exc)) from None
        stack = self.starting_stack
        if stack is None:
            stack = int(options.starting_stack)
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
            raise ConfigError(f"starting_stack {stack!r}: a whole number, at least 1")
        if not self.points or any(p < 0 for p in self.points):
            raise ConfigError("points: at least one place, none negative")
        if list(self.points) != sorted(self.points, reverse=True):
            raise ConfigError("points: a better place never scores less")
        for name in ("min_players", "late_until_level", "reentries", "rebuy_until_level"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{name} {value!r}: a whole number, 0 or more")
        if self.add_on and not self.rebuy_until_level:
            raise ConfigError("add_on: comes at the end of the rebuys (set rebuy_until_level)")
        if self.format == "cantina" and size < self.min_players:
            raise ConfigError(f"a cantina game of {size} seats cannot reach {self.min_players}")
        if self.orbits is not None and (self.orbits < 1 or self.format != "cantina"):
            raise ConfigError("orbits: a cantina game's cap, at least 1")
        seats = self.seats
        if self.format in ("sng", "cantina") and seats is None:
            seats = size
        if seats is not None and seats < 2:
            raise ConfigError(f"seats {seats}: at least 2")
        if self.format == "cantina" and seats is not None and seats > size:
            raise ConfigError(f"a cantina game is one table: at most {size} seats")
        if self.rounds < 1:
            raise ConfigError("rounds: at least 1")
        duration_hands, duration_minutes = self.duration_hands, self.duration_minutes
        if self.format == "arena":
            if duration_hands is None and duration_minutes is None:
                duration_hands = 240
            if (duration_hands or 0) < 0 or (duration_minutes or 0) < 0:
                raise ConfigError("an Arena lasts a positive number of hands or minutes")
        if self.game_hands < 1:
            raise ConfigError("game_hands: at least 1")
        if self.streak_bonus < 0:
            raise ConfigError("streak_bonus: 0 or more")
        return replace(
            self,
            schedule=schedule,
            table_size=size,
            starting_stack=stack,
            duration_hands=duration_hands,
            duration_minutes=duration_minutes,
            seats=seats,
        )

    def level_options(self, level: int) -> dict[str, Any]:
        """The options of a game played at ``level`` (0-based): the house rules, then the
        level's values."""
        assert self.schedule is not None
        return {**dict(self.options), **self.schedule.levels[level].options}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": self.format,
            "variant": self.variant,
            "options": dict(self.options),
            "schedule": self.schedule.to_list() if self.schedule else None,
        }
        for name in (
            "table_size",
            "starting_stack",
            "min_players",
            "late_until_level",
            "reentries",
            "rebuy_until_level",
            "add_on",
            "pot_at_close",
            "orbits",
            "rounds",
            "duration_hands",
            "duration_minutes",
            "streak_bonus",
            "charity",
            "seats",
            "game_hands",
        ):
            out[name] = getattr(self, name)
        out["points"] = list(self.points)
        return out
