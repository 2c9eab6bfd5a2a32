"""The freezeout director (cantina game, Sit & Go, multi-table): pure and seeded.

It keeps the event's log (:mod:`sabacc.services.tournament.state`) and decides everything a
tournament director decides: the seat and button draw, levels, busts and their places, table
balancing and breaking, the final-table redraw, hand-for-hand, rebuys, add-ons, re-entries
and late registration. It plays no cards: whoever runs the tables (the simulator, the terminal
game, a server) reports each table's hand with :meth:`Director.report_hand` and closes the
event hand with :meth:`Director.end_hand`. Each method checks its input first and raises a
:class:`~sabacc.services.tournament.errors.TournamentError` having changed nothing.

Event hands: every table plays one hand per event hand (hand-for-hand all the time), so busts
in one event hand, at any tables, are ranked together by their stacks when it started.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from sabacc.services.sim import derive_seed
from sabacc.services.tournament.config import FREEZEOUTS, EventConfig
from sabacc.services.tournament.errors import (
    ConfigError,
    EventStateError,
    NotAllowed,
    RegistrationClosed,
    TableFull,
    UnknownPlayer,
)
from sabacc.services.tournament.standings import Row, freezeout_standings
from sabacc.services.tournament.state import EventState
from sabacc.services.tournament.structure import ante_cost


class Director:
    """One freezeout event: register players, :meth:`start`, then per event hand
    :meth:`report_hand` for each table and :meth:`end_hand`. ``events`` is the log."""

    def __init__(self, config: EventConfig, seed: int = 0) -> None:
        self.config = config.resolved()
        if self.config.format not in FREEZEOUTS:
            raise ConfigError(f"format {self.config.format!r} is not a freezeout")
        self.info = self.config.info
        self.seed = seed
        self.rng = random.Random(derive_seed(seed, "tournament draw"))
        self.events: list[dict[str, Any]] = []
        self.state = EventState()
        self._starts: dict[str, int] = {}  # this event hand's starting stacks
        self._out: set[str] = set()  # entries a table could not deal in this event hand
        self._reported: set[int] = set()

    # ---------------------------------------------------------------- the log
    def _emit(self, event: dict[str, Any]) -> None:
        self.state.apply(event)
        self.events.append(event)

    @property
    def size(self) -> int:
        assert self.config.table_size is not None
        return self.config.table_size

    @property
    def stack(self) -> int:
        assert self.config.starting_stack is not None
        return self.config.starting_stack

    def level_options(self, level: int | None = None) -> dict[str, Any]:
        """The options of games at ``level`` (default: the level in play)."""
        return self.config.level_options(self.state.level if level is None else level)

    def ante(self) -> int:
        """What a seat must hold to be dealt in at the level in play."""
        return ante_cost(self.info, self.level_options())

    # ---------------------------------------------------------------- registration
    def registration_open(self) -> bool:
        s = self.state
        if s.finished:
            return False
        if not s.started:
            return self.config.seats is None or len(s.entries) < self.config.seats
        return self.config.format == "mtt" and s.level < self.config.late_until_level

    def register(self, name: str, bot: str | None = None) -> str:
        """Register a player (``bot``: its level, disclosed) with one entry; returns the
        player id. After the start (late registration) the entry sits at the shortest table.
        A Sit & Go or cantina game starts itself when its seats fill."""
        if not isinstance(name, str) or not name.strip():
            raise NotAllowed(f"a player's name must be some text, not {name!r}")
        if not self.registration_open():
            raise RegistrationClosed("registration is closed")
        if any(p["name"] == name for p in self.state.players.values()):
            raise NotAllowed(f"{name!r} is already registered")
        player = f"p{len(self.state.players) + 1}"
        self._emit({"type": "registered", "player": player, "name": name, "bot": bot})
        self._add_entry(player)
        if (
            not self.state.started
            and self.config.seats is not None
            and len(self.state.entries) == self.config.seats
        ):
            self.start()
        return player

    def fill_with_bots(self, level: str = "easy") -> list[str]:
        """Fill a Sit & Go's empty seats with bots of ``level`` (after the wait the organiser
        chose); the event starts when they fill."""
        if self.state.started or self.config.seats is None:
            raise NotAllowed("only a Sit & Go or cantina game waiting for players takes bots")
        added = []
        number = 1
        while not self.state.started:
            name = f"Bot {number} ({level})"
            number += 1
            if any(p["name"] == name for p in self.state.players.values()):
                continue
            added.append(self.register(name, bot=level))
        return added

    def _add_entry(self, player: str) -> str:
        number = len(self.state.entries_of(player)) + 1
        entry = player if number == 1 else f"{player}#{number}"
        event: dict[str, Any] = {
            "type": "entry",
            "entry": entry,
            "player": player,
            "number": number,
            "stack": self.stack,
        }
        if self.state.started:
            open_tables = [t for t, seats in self.state.tables.items() if len(seats) < self.size]
            if open_tables:
                event["table"] = min(open_tables, key=lambda t: (len(self.state.tables[t]), t))
            else:
                table = self.state.next_table
                self._emit({"type": "table_opened", "table": table})
                event["table"] = table
            self._emit(event)
            self._balance()
        else:
            self._emit(event)
        return entry

    def reenter(self, player: str) -> str:
        """A busted player's new entry (late registration must be open; ``reentries`` caps
        them); returns the entry id."""
        if player not in self.state.players:
            raise UnknownPlayer(f"no player {player!r}")
        entries = self.state.entries_of(player)
        if any(e.id in self.state.chips for e in entries):
            raise NotAllowed(f"{self.state.players[player]['name']} is still in")
        if len(entries) > self.config.reentries:
            raise NotAllowed(f"no re-entry left ({self.config.reentries} allowed)")
        if not self.registration_open() or not self.state.started:
            raise RegistrationClosed("re-entry is closed with late registration")
        return self._add_entry(player)

    # ---------------------------------------------------------------- chips
    def can_rebuy(self, entry: str) -> bool:
        s = self.state
        return (
            entry in s.chips
            and s.started
            and s.level < self.config.rebuy_until_level
            and s.chips[entry] <= self.stack
        )

    def rebuy(self, entry: str) -> int:
        """A rebuy of the starting stack for an entry at or below it, while rebuys are open
        (through level ``rebuy_until_level``); returns the credits added."""
        self._known(entry)
        if not self.can_rebuy(entry):
            raise NotAllowed(f"no rebuy for {entry} now")
        self._emit({"type": "chips", "entry": entry, "amount": self.stack, "kind": "rebuy"})
        return self.stack

    def can_add_on(self, entry: str) -> bool:
        s = self.state
        return (
            self.config.add_on
            and entry in s.chips
            and s.started
            and s.level == self.config.rebuy_until_level - 1
            and not s.entries[entry].add_on
        )

    def add_on(self, entry: str) -> int:
        """The one add-on of an entry, during the last rebuy level."""
        self._known(entry)
        if not self.can_add_on(entry):
            raise NotAllowed(f"no add-on for {entry} now")
        self._emit({"type": "chips", "entry": entry, "amount": self.stack, "kind": "add_on"})
        return self.stack

    def _known(self, entry: str) -> None:
        if entry not in self.state.entries:
            raise UnknownPlayer(f"no entry {entry!r}")

    # ---------------------------------------------------------------- the start
    def start(self, clock: float = 0.0) -> dict[int, list[str]]:
        """The seeded, published seat and button draw (the first seat deals first)."""
        s = self.state
        if s.started:
            raise EventStateError("the event has started already")
        entries = list(s.entries)
        if len(entries) < 2:
            raise EventStateError("an event needs at least 2 entries")
        if self.config.format == "cantina" and len(entries) > self.size:
            raise ConfigError(f"a cantina game is one table of at most {self.size}")
        self.rng.shuffle(entries)
        count = math.ceil(len(entries) / self.size)
        tables: dict[int, list[str]] = {t + 1: [] for t in range(count)}
        for i, entry in enumerate(entries):
            tables[i % count + 1].append(entry)
        self._emit({"type": "started", "tables": tables, "clock": clock})
        self._emit({"type": "level", "level": 0, "tick": 0})
        self._hand_for_hand()
        return {t: seats[:] for t, seats in tables.items()}

    # ---------------------------------------------------------------- the hands
    def playing_tables(self) -> list[int]:
        """The tables that play the next event hand (two players or more)."""
        s = self.state
        if not s.started or s.finished:
            return []
        return [t for t, seats in sorted(s.tables.items()) if len(seats) >= 2]

    def report_hand(
        self,
        table: int,
        before: Mapping[str, int],
        after: Mapping[str, int],
        pot: int = 0,
        out: tuple[str, ...] = (),
        next_dealer: str | None = None,
    ) -> None:
        """One table's hand of this event hand: every seated entry's stack before (its stack
        now, with its rebuys) and after, the credits left in the table's pots, the entries the
        table could not deal in (``out``: they bust), and who deals next. Credits that left
        play in the hand (Kessel's lost pots) are what does not add up, never more."""
        s = self.state
        if not s.started or s.finished:
            raise EventStateError("no event hand is being played")
        if table not in s.tables or table in self._reported:
            raise EventStateError(f"table {table} is not playing this event hand")
        seated = set(s.tables[table])
        if set(before) != seated or set(after) != seated:
            raise EventStateError(f"table {table}: report every seated entry before and after")
        if any(before[e] != s.chips[e] for e in seated):
            raise EventStateError(f"table {table}: stacks before differ from the event's")
        if any(not isinstance(v, int) or v < 0 for v in after.values()) or pot < 0:
            raise EventStateError(f"table {table}: stacks and pots are credits, 0 or more")
        lost = sum(before.values()) + s.pots.get(table, 0) - sum(after.values()) - pot
        if lost < 0:
            raise EventStateError(f"table {table}: {-lost} credits came from nowhere")
        if not set(out) <= seated or (next_dealer is not None and next_dealer not in seated):
            raise EventStateError(f"table {table}: out and next dealer are seated entries")
        self._reported.add(table)
        for entry in seated:
            self._starts[entry] = before[entry]
        self._out.update(out)
        self._emit(
            {
                "type": "hand",
                "tick": s.tick + 1,
                "table": table,
                "before": dict(before),
                "after": dict(after),
                "pot": pot,
                "lost": lost,
                "next_dealer": next_dealer,
            }
        )

    def end_hand(self, clock: float | None = None) -> list[dict[str, Any]]:
        """Close the event hand: rank its busts, move to the level the clock (or the count of
        event hands) is at, break and balance tables, and finish the event if it is over.
        Returns the events it made."""
        s = self.state
        if not s.started or s.finished:
            raise EventStateError("no event hand is being played")
        mark = len(self.events)
        tick = s.tick + 1
        self._emit({"type": "tick", "tick": tick})
        schedule = self.config.schedule
        assert schedule is not None
        level = schedule.level_at(tick, clock or 0.0)
        cost = ante_cost(self.info, self.config.level_options(level))
        busted = [
            e for e in s.chips if e in self._out or s.chips[e] == 0 or s.chips[e] < max(1, cost)
        ]
        if busted:
            starts = {e: self._starts.get(e, s.chips[e]) for e in busted}
            order = sorted(busted, key=lambda e: (-starts[e], e))
            self._emit(
                {
                    "type": "bust",
                    "tick": tick,
                    "entries": [{"entry": e, "start": starts[e]} for e in order],
                }
            )
        self._starts.clear()
        self._out.clear()
        self._reported.clear()
        if level != s.level:
            for table in sorted(s.tables):
                self._close_pot(table, "level")
            self._emit({"type": "level", "level": level, "tick": tick})
            previous = schedule.levels[level - 1]
            if previous.break_minutes:
                self._emit({"type": "break", "after": level - 1, "minutes": previous.break_minutes})
        if self._over(tick):
            for table in sorted(s.tables):
                self._close_pot(table, "end")
            self._emit({"type": "finished", "tick": tick, "level": s.level})
            return self.events[mark:]
        self._break_tables()
        self._balance()
        self._hand_for_hand()
        return self.events[mark:]

    def _over(self, tick: int) -> bool:
        s = self.state
        if len(s.chips) <= 1:
            return True
        if self.config.orbits is not None:
            return tick >= self.config.orbits * len(s.entries)
        return False

    # ---------------------------------------------------------------- tables
    def close_pot(self, table: int, reason: str = "move") -> None:
        """Settle the pots left on ``table`` because whoever plays it closes its game (a
        table that cannot seat an arriving player in its game starts another)."""
        if table not in self.state.tables:
            raise UnknownPlayer(f"no table {table}")
        if reason not in ("move", "director", "restart"):
            raise NotAllowed(
                f"a table's game closes by a move, a ruling or a restart, not {reason!r}"
            )
        self._close_pot(table, reason)

    def _close_pot(self, table: int, reason: str) -> None:
        """Settle the pots left on ``table`` (its game closes) by ``pot_at_close``."""
        s = self.state
        amount = s.pots.get(table, 0)
        if not amount:
            return
        seats = self._from_dealer(table)
        shares: dict[str, int] = {}
        if self.config.pot_at_close == "split" and seats:
            each, odd = divmod(amount, len(seats))
            shares = {e: each + (1 if i < odd else 0) for i, e in enumerate(seats)}
        self._emit(
            {
                "type": "pot_closed",
                "table": table,
                "amount": amount,
                "shares": shares,
                "reason": reason,
            }
        )

    def _from_dealer(self, table: int) -> list[str]:
        """The table's entries in seat order from the next dealer."""
        seats = self.state.tables.get(table, [])
        dealer = self.state.next_dealer.get(table)
        start = seats.index(dealer) if dealer in seats else 0
        return seats[start:] + seats[:start]

    def mover(self, table: int) -> str:
        """The entry balancing moves from ``table``: the seat the variant declares
        (``next_dealer`` by default, or ``last_dealer``)."""
        order = self._from_dealer(table)
        if self.info.levels.moving_seat == "last_dealer":
            return order[-1]
        return order[0]

    def move(self, entry: str, to: int, reason: str = "director") -> None:
        """Move an entry to another table (a director's ruling; balancing uses it too)."""
        s = self.state
        self._known(entry)
        if entry not in s.table_of:
            raise NotAllowed(f"{entry} is not seated")
        if to not in s.tables:
            raise UnknownPlayer(f"no table {to}")
        if len(s.tables[to]) >= self.size:
            raise TableFull(f"table {to} is full ({self.size} seats)")
        source = s.table_of[entry]
        if source == to:
            raise NotAllowed(f"{entry} sits at table {to} already")
        self._emit({"type": "moved", "entry": entry, "from": source, "to": to, "reason": reason})

    def break_table(self, table: int) -> None:
        """A director breaks ``table`` now: its pots settle, its players (from its next
        dealer round) each take a seat at the then smallest other table, and it closes.
        Refused (nothing changed) if it is the last table or the others cannot seat them."""
        s = self.state
        if table not in s.tables:
            raise UnknownPlayer(f"no table {table}")
        others = [t for t in s.tables if t != table]
        if not others:
            raise NotAllowed(f"table {table} is the last table")
        room = sum(self.size - len(s.tables[t]) for t in others)
        if room < len(s.tables[table]):
            raise TableFull(f"the other tables have {room} free seats, not {len(s.tables[table])}")
        self._close_pot(table, "director")
        for entry in self._from_dealer(table):
            to = min(others, key=lambda t: (len(s.tables[t]), t))
            self.move(entry, to, "break")
        self._emit({"type": "table_closed", "table": table, "reason": "director"})
        self._balance()

    def _break_tables(self) -> None:
        s = self.state
        alive = len(s.chips)
        needed = max(1, math.ceil(alive / self.size))
        while len(s.tables) > needed:
            if needed == 1:
                self._final_redraw()
                return
            table = max(s.tables, key=lambda t: (-len(s.tables[t]), t))
            self._close_pot(table, "break")
            for entry in self._from_dealer(table):
                others = [t for t in s.tables if t != table]
                to = min(others, key=lambda t: (len(s.tables[t]), t))
                self.move(entry, to, "break")
            self._emit({"type": "table_closed", "table": table, "reason": "break"})

    def _final_redraw(self) -> None:
        s = self.state
        for table in sorted(s.tables):
            self._close_pot(table, "final")
        seats = [e for t in sorted(s.tables) for e in s.tables[t]]
        self.rng.shuffle(seats)
        final = s.next_table
        old = sorted(s.tables)
        self._emit({"type": "redraw", "table": final, "seats": seats})
        for table in old:
            self._emit({"type": "table_closed", "table": table, "reason": "final"})

    def _balance(self) -> None:
        s = self.state
        while len(s.tables) > 1:
            big = min(s.tables, key=lambda t: (-len(s.tables[t]), t))
            small = min(s.tables, key=lambda t: (len(s.tables[t]), t))
            if len(s.tables[big]) - len(s.tables[small]) <= 1:
                return
            self.move(self.mover(big), small, "balance")

    def _hand_for_hand(self) -> None:
        s = self.state
        on = len(s.tables) > 1 and len(s.chips) <= len(self.config.points) + 1
        if on != s.hand_for_hand:
            self._emit({"type": "hand_for_hand", "on": on})

    # ---------------------------------------------------------------- results
    def standings(self) -> list[Row]:
        return freezeout_standings(self.events, self.config.points, self.config.min_players)

    @property
    def counts(self) -> bool:
        """Whether the event counts (enough entries: ``min_players``)."""
        return len(self.state.entries) >= self.config.min_players
