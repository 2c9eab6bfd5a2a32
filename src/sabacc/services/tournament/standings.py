"""Standings: a pure function of an event's log (and its points table).

A freezeout ranks entries: those still in by their chips, then the busted, the later bust
first and, in one event hand, the bigger stack when that hand started; equal keys share the
places and the mean of their points. A player's row is their best entry. A series (Swiss,
Arena) adds each player's place points per game, byes and streak bonuses; Swiss breaks
equal points by wins, then by the opponents' points (Buchholz).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sabacc.services.tournament.state import EventState


def shared_points(points: Sequence[int], first: int, count: int) -> float:
    """The points each of ``count`` players tied for places ``first``.. get: the mean of
    those places' points (places past the table score 0)."""
    total = sum(points[p - 1] if p - 1 < len(points) else 0 for p in range(first, first + count))
    return round(total / count, 2)


def ranked(keys: Sequence[tuple[Any, ...]]) -> list[tuple[int, int]]:
    """For keys sorted best first: each one's (place, tied count); equal keys share a place."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1] == keys[i]:
            j += 1
        out.extend([(i + 1, j - i + 1)] * (j - i + 1))
        i = j + 1
    return out


@dataclass
class Row:
    """One player's line of the standings."""

    place: int
    player: str
    name: str
    bot: str | None
    points: float
    entries: int = 1
    chips: int | None = None  # still in: the chips held
    bust_hand: int | None = None  # the event hand the best entry busted in
    games: int = 0
    wins: int = 0
    tiebreak: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "place": self.place,
            "player": self.player,
            "name": self.name,
            "bot": self.bot,
            "points": self.points,
            "entries": self.entries,
            "chips": self.chips,
            "bust_hand": self.bust_hand,
        }
        if self.games:
            out.update(games=self.games, wins=self.wins, tiebreak=self.tiebreak)
        return out


def entry_places(state: EventState, points: Sequence[int], counts: bool) -> dict[str, Row]:
    """Every entry's row (place, points) in a freezeout, keyed by entry id."""
    keyed: list[tuple[tuple[Any, ...], str]] = []
    for entry, chips in state.chips.items():
        keyed.append(((0, -chips), entry))
    for bust in state.busts:
        keyed.append(((1, -bust["tick"], -bust["start"]), bust["entry"]))
    keyed.sort(key=lambda k: k[0])
    places = ranked([k for k, _ in keyed])
    busted = {b["entry"]: b["tick"] for b in state.busts}
    rows: dict[str, Row] = {}
    for (_, entry), (place, tied) in zip(keyed, places, strict=True):
        player = state.entries[entry].player
        info = state.players[player]
        rows[entry] = Row(
            place,
            player,
            info["name"],
            info["bot"],
            shared_points(points, place, tied) if counts else 0.0,
            chips=state.chips.get(entry),
            bust_hand=busted.get(entry),
        )
    return rows


def freezeout_standings(
    events: Iterable[Mapping[str, Any]], points: Sequence[int], min_players: int = 2
) -> list[Row]:
    """A freezeout's standings (a player's best entry; its number of entries)."""
    state = EventState.replay(events)
    counts = len(state.entries) >= min_players
    rows = entry_places(state, points, counts)
    best: dict[str, Row] = {}
    for row in sorted(rows.values(), key=lambda r: r.place):
        if row.player not in best:
            row.entries = len(state.entries_of(row.player))
            best[row.player] = row
    return sorted(best.values(), key=lambda r: (r.place, r.name))


def game_points(points: Sequence[int], places: Sequence[Sequence[str]]) -> dict[str, float]:
    """Each player's place points from one game's places (groups of tied players, best
    first)."""
    out: dict[str, float] = {}
    first = 1
    for group in places:
        share = shared_points(points, first, len(group))
        for player in group:
            out[player] = share
        first += len(group)
    return out


def series_standings(
    events: Iterable[Mapping[str, Any]], points: Sequence[int], streak_bonus: int = 0
) -> list[Row]:
    """A Swiss or Arena event's standings: place points per game, byes, streak bonuses
    (each win that continues a run of wins adds ``streak_bonus``), tie-breaks."""
    state = EventState.replay(events)
    total = {p: 0.0 for p in state.players}
    wins = {p: 0 for p in state.players}
    games = {p: 0 for p in state.players}
    streak = {p: 0 for p in state.players}
    opponents: dict[str, list[str]] = {p: [] for p in state.players}
    for game in state.games:
        got = game_points(points, game["places"])
        winners = set(game["places"][0]) if len(game["places"][0]) == 1 else set()
        table = [p for group in game["places"] for p in group]
        for player, pts in got.items():
            games[player] += 1
            opponents[player].extend(q for q in table if q != player)
            if player in winners:
                wins[player] += 1
                streak[player] += 1
                if streak[player] > 1:
                    pts += streak_bonus
            else:
                streak[player] = 0
            total[player] += pts
    for bye in state.byes:
        total[bye["player"]] += bye["points"]
    buchholz = {p: round(sum(total[q] for q in opponents[p]), 2) for p in state.players}
    order = sorted(
        state.players, key=lambda p: (-total[p], -wins[p], -buchholz[p], state.players[p]["name"])
    )
    keys = [(-round(total[p], 2), -wins[p], -buchholz[p]) for p in order]
    rows = []
    for player, (place, _tied) in zip(order, ranked(keys), strict=True):
        info = state.players[player]
        rows.append(
            Row(
                place,
                player,
                info["name"],
                info["bot"],
                round(total[player], 2),
                games=games[player],
                wins=wins[player],
                tiebreak=buchholz[player],
            )
        )
    return rows
