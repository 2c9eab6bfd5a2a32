"""Swiss and Arena: pairing by standing without repeats, byes, place points, streaks."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sabacc.services.tournament import (
    EventConfig,
    EventStateError,
    RegistrationClosed,
    SeriesDirector,
    series_standings,
)
from sabacc.services.tournament.series import balanced_sizes


def swiss(players: int, rounds: int = 3, size: int = 4, seed: int = 0) -> SeriesDirector:
    director = SeriesDirector(EventConfig(format="swiss", rounds=rounds, table_size=size), seed)
    for i in range(players):
        director.register(f"P{i + 1}", bot="easy")
    director.start()
    return director


def finish_round(director: SeriesDirector, tables: dict[int, list[str]]) -> None:
    for table, seats in tables.items():  # the lower id wins: a fixed, known order
        order = sorted(seats, key=lambda p: int(p[1:]))
        director.report_game(table, [[p] for p in order], 10)


def test_balanced_sizes() -> None:
    assert balanced_sizes(10, 4) == [4, 3, 3]
    assert balanced_sizes(8, 4) == [4, 4]
    assert balanced_sizes(5, 2) == [2, 2, 1]


def test_swiss_avoids_repeat_opponents_while_it_can() -> None:
    director = swiss(8, rounds=3, size=2)
    met: set[frozenset[str]] = set()
    for _ in range(3):
        tables = director.next_round()
        for seats in tables.values():
            pair = frozenset(seats)
            assert pair not in met
            met.add(pair)
        finish_round(director, tables)
    director.finish()
    rows = director.standings()
    assert rows[0].player == "p1" and rows[0].wins == 3
    assert rows[0].points == 300


def test_swiss_groups_by_standing() -> None:
    director = swiss(8, rounds=2, size=2)
    finish_round(director, director.next_round())
    winners = {g["places"][0][0] for g in director.state.games}
    assert len(winners) == 4
    tables = director.next_round()
    # the round-one winners meet each other in round two, the losers each other
    for seats in tables.values():
        assert (seats[0] in winners) == (seats[1] in winners)


def test_an_odd_field_gets_one_bye_each_round_to_a_new_player() -> None:
    director = swiss(5, rounds=3, size=2)
    byes = []
    for _ in range(3):
        tables = director.next_round()
        byes.extend(director.state.rounds[-1]["byes"])
        finish_round(director, tables)
    assert len(byes) == 3 and len(set(byes)) == 3
    rows = {r.player: r for r in director.standings()}
    assert all(rows[p].points >= 100 for p in byes)


def test_series_refusals_change_nothing() -> None:
    director = swiss(4, rounds=1, size=2)
    with pytest.raises(RegistrationClosed):
        director.register("Late")
    tables = director.next_round()
    with pytest.raises(EventStateError):
        director.next_round()  # the round is not reported yet
    table, seats = next(iter(tables.items()))
    events = list(director.events)
    with pytest.raises(EventStateError):
        director.report_game(table, [[seats[0]]], 3)  # a player missing
    with pytest.raises(EventStateError):
        director.report_game(table, [[seats[0]], [seats[0]]], 3)
    assert director.events == events


def test_arena_streaks_add_the_bonus() -> None:
    log: list[dict[str, Any]] = [
        {"type": "registered", "player": "a", "name": "A", "bot": None},
        {"type": "registered", "player": "b", "name": "B", "bot": None},
    ]
    log += [{"type": "game", "table": t, "places": [["a"], ["b"]], "hands": 5} for t in (1, 2, 3)]
    log.append({"type": "game", "table": 4, "places": [["b"], ["a"]], "hands": 5})
    rows = {r.player: r for r in series_standings(log, (100, 64), streak_bonus=25)}
    # A: 100, 100+25, 100+25, 64 ; B: 64 x3, 100 (no streak)
    assert rows["a"].points == 414 and rows["a"].wins == 3
    assert rows["b"].points == 292


def test_ties_in_a_game_share_the_places_points() -> None:
    log: list[dict[str, Any]] = [
        {"type": "registered", "player": p, "name": p.upper(), "bot": "easy"} for p in "abc"
    ]
    log.append({"type": "game", "table": 1, "places": [["a"], ["b", "c"]], "hands": 5})
    rows = {r.player: r for r in series_standings(log, (100, 64, 36))}
    assert rows["b"].points == rows["c"].points == 50
    assert rows["b"].place == rows["c"].place == 2


def test_arena_seats_waiting_players_until_its_time_is_up() -> None:
    director = SeriesDirector(EventConfig(format="arena", duration_hands=20, table_size=3))
    for name in itertools.islice((f"P{i}" for i in range(7)), 7):
        director.register(name)
    director.start()
    tables = director.seat_waiting(0)
    assert sorted(len(s) for s in tables.values()) == [2, 2, 3]
    table, seats = next(iter(tables.items()))
    director.report_game(table, [[p] for p in seats], 8)
    assert director.seat_waiting(8)  # the freed players play again at once
    assert director.seat_waiting(25) == {}


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 20),
    size=st.integers(2, 6),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 1000),
)
def test_swiss_rounds_seat_everyone_once(players: int, size: int, rounds: int, seed: int) -> None:
    director = swiss(players, rounds=rounds, size=size, seed=seed)
    rng = random.Random(seed)
    for _ in range(rounds):
        tables = director.next_round()
        byes = director.state.rounds[-1]["byes"]
        seated = [p for seats in tables.values() for p in seats]
        assert sorted(seated + byes) == sorted(director.state.players)  # once each
        sizes = [len(s) for s in tables.values()]
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2 and max(sizes) <= size
        assert len(byes) <= 1
        for table, seats in tables.items():
            order = seats[:]
            rng.shuffle(order)
            director.report_game(table, [[p] for p in order], 5)
    director.finish()
    rows = director.standings()
    assert sorted(r.player for r in rows) == sorted(director.state.players)
    replayed = series_standings(list(director.events), director.config.points)
    assert [r.to_dict() for r in replayed] == [r.to_dict() for r in rows]
    again = swiss(players, rounds=rounds, size=size, seed=seed)
    assert again.next_round() == {int(t): s for t, s in director.state.rounds[0]["tables"].items()}
