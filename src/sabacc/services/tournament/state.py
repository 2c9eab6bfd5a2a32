"""The state of an event as a fold of its event log (:class:`EventState`).

Every change the director makes is an event (a plain dict, JSON as it is); the state is what
applying them in order gives, so an event's log replays it exactly and the standings are a
pure function of the log (:mod:`sabacc.services.tournament.standings`). The director checks a
change before it emits the event; :meth:`EventState.apply` trusts the log.

The events: ``registered`` (a player: name, bot level or none), ``entry`` (an entry of a
player: its stack, its table if seated), ``started`` (the seat draw: tables in seat order,
the first seat dealing first), ``level`` and ``break``, ``hand`` (one table's hand: stacks
before and after, pots left on the table, credits that left play, the next dealer), ``bust``
(the entries out in one event hand, with their stacks when it started), ``chips`` (a rebuy or
an add-on), ``moved`` (balancing, breaking), ``table_closed``, ``redraw`` (the final table),
``pot_closed`` (a table's pots when its game closed: shares, or the house), ``hand_for_hand``,
``game`` and ``bye`` (a series' results), ``round`` (a series' table draw) and ``finished``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Entry:
    """One entry of a player (a re-entry is another): ``number`` counts the player's entries."""

    id: str
    player: str
    number: int
    stack: int
    rebuys: int = 0
    add_on: bool = False


@dataclass
class EventState:
    """What the log says now (see the module docstring)."""

    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    entries: dict[str, Entry] = field(default_factory=dict)
    chips: dict[str, int] = field(default_factory=dict)  # entries still in
    tables: dict[int, list[str]] = field(default_factory=dict)  # seat order, first deals first
    table_of: dict[str, int] = field(default_factory=dict)
    next_dealer: dict[int, str] = field(default_factory=dict)
    pots: dict[int, int] = field(default_factory=dict)  # credits left on a table's pots
    busts: list[dict[str, Any]] = field(default_factory=list)  # {entry, tick, start, rest}
    closed_tables: list[int] = field(default_factory=list)
    next_table: int = 1
    started: bool = False
    finished: bool = False
    tick: int = 0  # event hands played
    level: int = 0
    hand_for_hand: bool = False
    bought: int = 0  # credits brought: entries, rebuys, add-ons
    house: int = 0  # credits out of play by the pot policy
    lost: int = 0  # credits that left play in the hands (Kessel's lost pots)
    retired: int = 0  # what busted entries held (less than an ante)
    games: list[dict[str, Any]] = field(default_factory=list)  # series results
    byes: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def replay(cls, events: Iterable[Mapping[str, Any]]) -> EventState:
        state = cls()
        for event in events:
            state.apply(event)
        return state

    def entries_of(self, player: str) -> list[Entry]:
        return [e for e in self.entries.values() if e.player == player]

    def alive(self) -> list[str]:
        """Entries still in, in entry order."""
        return list(self.chips)

    def in_play(self) -> int:
        """Every credit still in play: stacks and pots on tables."""
        return sum(self.chips.values()) + sum(self.pots.values())

    def accounted(self) -> int:
        """Where every credit brought went: in play, the house, lost in hands, retired."""
        return self.in_play() + self.house + self.lost + self.retired

    def apply(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        handler = getattr(self, "_on_" + kind, None)
        if handler is None:
            raise ValueError(f"unknown tournament event {kind!r}")
        handler(event)

    # ---------------------------------------------------------------- the handlers
    def _on_registered(self, e: Mapping[str, Any]) -> None:
        self.players[e["player"]] = {"name": e["name"], "bot": e.get("bot")}

    def _on_entry(self, e: Mapping[str, Any]) -> None:
        entry = Entry(e["entry"], e["player"], e["number"], e["stack"])
        self.entries[entry.id] = entry
        self.chips[entry.id] = entry.stack
        self.bought += entry.stack
        table = e.get("table")
        if table is not None:
            self._seat(entry.id, table)

    def _seat(self, entry: str, table: int) -> None:
        self.tables.setdefault(table, []).append(entry)
        self.table_of[entry] = table
        self.next_table = max(self.next_table, table + 1)

    def _on_started(self, e: Mapping[str, Any]) -> None:
        self.started = True
        for table, seats in e["tables"].items():
            for entry in seats:
                self._seat(entry, int(table))

    def _on_level(self, e: Mapping[str, Any]) -> None:
        self.level = e["level"]

    def _on_break(self, e: Mapping[str, Any]) -> None:
        return None

    def _on_hand(self, e: Mapping[str, Any]) -> None:
        table = e["table"]
        for entry, stack in e["after"].items():
            self.chips[entry] = stack
        self.pots[table] = e["pot"]
        self.lost += e["lost"]
        if e.get("next_dealer"):
            self.next_dealer[table] = e["next_dealer"]

    def _on_tick(self, e: Mapping[str, Any]) -> None:
        self.tick = e["tick"]

    def _on_bust(self, e: Mapping[str, Any]) -> None:
        for out in e["entries"]:
            entry = out["entry"]
            self.busts.append({"entry": entry, "tick": e["tick"], "start": out["start"]})
            self.retired += self.chips.pop(entry)
            table = self.table_of.pop(entry, None)
            if table is not None:
                self.tables[table].remove(entry)

    def _on_chips(self, e: Mapping[str, Any]) -> None:
        entry = self.entries[e["entry"]]
        self.chips[entry.id] += e["amount"]
        self.bought += e["amount"]
        if e["kind"] == "add_on":
            entry.add_on = True
        else:
            entry.rebuys += 1

    def _on_moved(self, e: Mapping[str, Any]) -> None:
        entry = e["entry"]
        self.tables[e["from"]].remove(entry)
        self._seat(entry, e["to"])

    def _on_table_opened(self, e: Mapping[str, Any]) -> None:
        self.tables[e["table"]] = []
        self.next_table = max(self.next_table, e["table"] + 1)

    def _on_table_closed(self, e: Mapping[str, Any]) -> None:
        table = e["table"]
        assert not self.tables.get(table), "a table closes empty"
        self.tables.pop(table, None)
        self.pots.pop(table, None)
        self.next_dealer.pop(table, None)
        self.closed_tables.append(table)

    def _on_redraw(self, e: Mapping[str, Any]) -> None:
        for old in list(self.tables):
            for entry in self.tables[old]:
                self.table_of.pop(entry)
            self.tables[old] = []
        for entry in e["seats"]:
            self._seat(entry, e["table"])

    def _on_pot_closed(self, e: Mapping[str, Any]) -> None:
        table = e["table"]
        self.pots[table] = self.pots.get(table, 0) - e["amount"]
        for entry, share in e["shares"].items():
            self.chips[entry] += share
        if not e["shares"]:
            self.house += e["amount"]

    def _on_hand_for_hand(self, e: Mapping[str, Any]) -> None:
        self.hand_for_hand = e["on"]

    def _on_round(self, e: Mapping[str, Any]) -> None:
        self.rounds.append(dict(e))
        for table in e["tables"]:
            self.next_table = max(self.next_table, int(table) + 1)

    def _on_game(self, e: Mapping[str, Any]) -> None:
        self.games.append(dict(e))

    def _on_bye(self, e: Mapping[str, Any]) -> None:
        self.byes.append(dict(e))

    def _on_finished(self, e: Mapping[str, Any]) -> None:
        self.finished = True
