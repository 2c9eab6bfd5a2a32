"""The series director: Swiss and Arena events, each a series of whole games. Pure, seeded.

Swiss: ``rounds`` rounds; each round the players are grouped by standing into tables (sizes
within one), avoiding opponents met before; a player left alone takes a bye (the points of a
win), never twice while another has had none. Arena: for a fixed duration (event hands or
clock minutes), waiting players are seated as soon as two or more wait, grouped by standing;
a game ends at its table's own end (last standing or the level's round cap). Games are played
elsewhere and reported with :meth:`SeriesDirector.report_game`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from sabacc.services.sim import derive_seed
from sabacc.services.tournament.config import SERIES, EventConfig
from sabacc.services.tournament.errors import (
    ConfigError,
    EventStateError,
    NotAllowed,
    RegistrationClosed,
)
from sabacc.services.tournament.standings import Row, series_standings
from sabacc.services.tournament.state import EventState


def balanced_sizes(count: int, size: int) -> list[int]:
    """``count`` players over the fewest tables of at most ``size``, sizes within one."""
    tables = math.ceil(count / size)
    return [count // tables + (1 if i < count % tables else 0) for i in range(tables)]


class SeriesDirector:
    """A Swiss or Arena event (see the module docstring); ``events`` is the log."""

    def __init__(self, config: EventConfig, seed: int = 0) -> None:
        self.config = config.resolved()
        if self.config.format not in SERIES:
            raise ConfigError(f"format {self.config.format!r} is not a series")
        self.info = self.config.info
        self.seed = seed
        self.rng = random.Random(derive_seed(seed, "tournament draw"))
        self.events: list[dict[str, Any]] = []
        self.state = EventState()
        self.seated: dict[int, list[str]] = {}  # tables whose game is in play
        self.round = 0
        self.clock_hands = 0

    def _emit(self, event: dict[str, Any]) -> None:
        self.state.apply(event)
        self.events.append(event)

    @property
    def size(self) -> int:
        assert self.config.table_size is not None
        return self.config.table_size

    def register(self, name: str, bot: str | None = None) -> str:
        """Register a player before the start; returns the player id."""
        if self.state.started or self.state.finished:
            raise RegistrationClosed("registration is closed")
        if not isinstance(name, str) or not name.strip():
            raise NotAllowed(f"a player's name must be some text, not {name!r}")
        if any(p["name"] == name for p in self.state.players.values()):
            raise NotAllowed(f"{name!r} is already registered")
        player = f"p{len(self.state.players) + 1}"
        self._emit({"type": "registered", "player": player, "name": name, "bot": bot})
        return player

    def start(self, clock: float = 0.0) -> None:
        if self.state.started:
            raise EventStateError("the event has started already")
        if len(self.state.players) < 2:
            raise EventStateError("an event needs at least 2 players")
        self._emit({"type": "started", "tables": {}, "clock": clock})

    def standings(self) -> list[Row]:
        return series_standings(self.events, self.config.points, self._bonus())

    def _bonus(self) -> int:
        return self.config.streak_bonus if self.config.format == "arena" else 0

    def level_options(self, level: int) -> dict[str, Any]:
        return self.config.level_options(level)

    # ---------------------------------------------------------------- grouping
    def _met(self) -> dict[str, set[str]]:
        met: dict[str, set[str]] = {p: set() for p in self.state.players}
        for game in self.state.games:
            table = [p for group in game["places"] for p in group]
            for p in table:
                met[p].update(q for q in table if q != p)
        return met

    def _by_standing(self, players: Sequence[str]) -> list[str]:
        place = {row.player: row.place for row in self.standings()}
        keyed = sorted(players)
        draws = {p: self.rng.random() for p in keyed}
        return sorted(keyed, key=lambda p: (place[p], draws[p]))

    def _group(self, players: list[str]) -> list[list[str]]:
        """Tables of ``players`` (best first), by standing, avoiding repeat opponents."""
        met = self._met()
        rest = players[:]
        tables = []
        for size in balanced_sizes(len(rest), self.size):
            table = [rest.pop(0)]
            while len(table) < size:
                pick = min(
                    range(len(rest)),
                    key=lambda i: (sum(1 for q in table if q in met[rest[i]]), i),
                )
                table.append(rest.pop(pick))
            tables.append(table)
        return tables

    def _open_tables(self, groups: list[list[str]]) -> dict[int, list[str]]:
        first = self.state.next_table
        tables = {first + i: group for i, group in enumerate(groups)}
        self.seated.update(tables)
        return tables

    # ---------------------------------------------------------------- Swiss
    def next_round(self) -> dict[int, list[str]]:
        """Draw the next Swiss round's tables (and byes); every game of the previous round
        must be reported first."""
        s = self.state
        if self.config.format != "swiss" or not s.started or s.finished:
            raise EventStateError("no Swiss round to draw")
        if self.seated:
            raise EventStateError("the round's games are not all reported")
        if self.round >= self.config.rounds:
            raise EventStateError("every round has been played")
        self.round += 1
        order = self._by_standing(list(s.players))
        byes: list[str] = []
        if len(order) % self.size and balanced_sizes(len(order), self.size)[-1] < 2:
            had = {b["player"] for b in s.byes}
            bye = next((p for p in reversed(order) if p not in had), order[-1])
            order.remove(bye)
            byes.append(bye)
        level = min(self.round - 1, len(self.config.schedule.levels) - 1)  # type: ignore[union-attr]
        tables = self._open_tables(self._group(order))
        self._emit(
            {
                "type": "round",
                "round": self.round,
                "level": level,
                "tables": {t: g[:] for t, g in tables.items()},
                "byes": byes,
            }
        )
        for player in byes:
            self._emit(
                {
                    "type": "bye",
                    "player": player,
                    "round": self.round,
                    "points": self.config.points[0],
                }
            )
        return tables

    # ---------------------------------------------------------------- Arena
    def arena_open(self, hands: int, clock: float = 0.0) -> bool:
        """Whether the Arena still seats new tables at this time."""
        c = self.config
        if c.duration_minutes is not None:
            return clock < c.duration_minutes
        return hands < (c.duration_hands or 0)

    def seat_waiting(self, hands: int, clock: float = 0.0) -> dict[int, list[str]]:
        """Seat the Arena's waiting players (two or more) at new tables, by standing; the
        level is the one the event clock is at."""
        s = self.state
        if self.config.format != "arena" or not s.started or s.finished:
            raise EventStateError("no Arena is running")
        if not self.arena_open(hands, clock):
            return {}
        busy = {p for group in self.seated.values() for p in group}
        waiting = [p for p in s.players if p not in busy]
        if len(waiting) < 2:
            return {}
        assert self.config.schedule is not None
        level = self.config.schedule.level_at(hands, clock)
        tables = self._open_tables(self._group(self._by_standing(waiting)))
        self._emit(
            {
                "type": "round",
                "hands": hands,
                "level": level,
                "tables": {t: g[:] for t, g in tables.items()},
                "byes": [],
            }
        )
        return tables

    # ---------------------------------------------------------------- results
    def report_game(self, table: int, places: Sequence[Sequence[str]], hands: int) -> None:
        """A table's game over: its places (groups of tied players, best first)."""
        if table not in self.seated:
            raise EventStateError(f"table {table} has no game in play")
        flat = [p for group in places for p in group]
        if sorted(flat) != sorted(self.seated[table]) or any(not g for g in places):
            raise EventStateError(f"table {table}: place every player of the table once")
        del self.seated[table]
        self._emit(
            {"type": "game", "table": table, "places": [list(g) for g in places], "hands": hands}
        )

    def finish(self) -> None:
        """End the event (every game reported)."""
        if self.seated:
            raise EventStateError("games are still in play")
        if self.state.finished:
            raise EventStateError("the event is over already")
        self._emit({"type": "finished", "round": self.round})
