"""The freezeout director: registration, the draw, busts and places, chips, moves, refusals."""

from __future__ import annotations

import copy
import random

import pytest

from sabacc.services.tournament import (
    ConfigError,
    Director,
    EventConfig,
    EventStateError,
    NotAllowed,
    RegistrationClosed,
    TableFull,
    UnknownPlayer,
)
from tests.services.tournament.fake import play_event_hand


def mtt(players: int, seed: int = 0, **settings: object) -> Director:
    director = Director(EventConfig(format="mtt", **settings), seed)  # type: ignore[arg-type]
    for i in range(players):
        director.register(f"P{i + 1}", bot="easy")
    return director


def unchanged(director: Director, call: object, error: type[Exception]) -> None:
    """``call`` raises ``error`` and leaves the log and state as they were."""
    events = copy.deepcopy(director.events)
    tables = copy.deepcopy(director.state.tables)
    chips = dict(director.state.chips)
    with pytest.raises(error):
        call()  # type: ignore[operator]
    assert director.events == events
    assert director.state.tables == tables and director.state.chips == chips


def test_the_seat_draw_is_seeded_published_and_balanced() -> None:
    a, b, c = mtt(20, seed=5), mtt(20, seed=5), mtt(20, seed=6)
    tables = a.start()
    assert tables == b.start() and tables != c.start()
    assert sorted(len(s) for s in tables.values()) == [6, 7, 7]
    assert sorted(e for s in tables.values() for e in s) == sorted(a.state.entries)
    started = next(e for e in a.events if e["type"] == "started")
    assert started["tables"] == tables


def test_a_sit_and_go_starts_when_its_seats_fill_and_bots_fill_them() -> None:
    director = Director(EventConfig(format="sng", seats=6))
    director.register("Ann")
    director.register("Ben")
    assert not director.state.started
    added = director.fill_with_bots("normal")
    assert len(added) == 4 and director.state.started
    bots = [p for p in director.state.players.values() if p["bot"]]
    assert {p["bot"] for p in bots} == {"normal"} and len(bots) == 4
    unchanged(director, lambda: director.register("Cid"), RegistrationClosed)


def test_late_registration_until_level_k_then_closed() -> None:
    director = mtt(9, late_until_level=1)
    director.start()
    rng = random.Random(1)
    late = director.register("Late")
    assert director.state.table_of[late]  # seated at once
    sizes = [len(s) for s in director.state.tables.values()]
    assert max(sizes) - min(sizes) <= 1
    while director.state.level == 0 and not director.state.finished:
        play_event_hand(director, rng)
        director.end_hand()
    unchanged(director, lambda: director.register("Too late"), RegistrationClosed)


def test_reentry_rebuy_and_add_on_follow_the_settings() -> None:
    director = mtt(4, late_until_level=2, reentries=1, rebuy_until_level=1, add_on=True)
    director.start()
    entry = next(iter(director.state.chips))
    player = director.state.entries[entry].player
    unchanged(director, lambda: director.reenter(player), NotAllowed)  # still in
    director.rebuy(entry)
    assert director.state.chips[entry] == 200
    unchanged(director, lambda: director.rebuy(entry), NotAllowed)  # above the starting stack
    director.add_on(entry)
    unchanged(director, lambda: director.add_on(entry), NotAllowed)  # once
    # bust the entry: it may re-enter once
    table = director.state.table_of[entry]
    seated = director.state.tables[table]
    before = {e: director.state.chips[e] for e in seated}
    after = dict(before)
    other = next(e for e in seated if e != entry)
    after[other] += after[entry]
    after[entry] = 0
    director.report_hand(table, before, after)
    director.end_hand()
    assert entry not in director.state.chips
    second = director.reenter(player)
    assert second == f"{player}#2" and director.state.chips[second] == 100
    assert director.state.accounted() == director.state.bought


def test_a_move_to_a_full_table_is_refused_and_changes_nothing() -> None:
    director = mtt(16, table_size=8)
    director.start()
    entry = director.state.tables[1][0]
    unchanged(director, lambda: director.move(entry, 2), TableFull)
    unchanged(director, lambda: director.move(entry, 9), UnknownPlayer)
    unchanged(director, lambda: director.move("nobody", 2), UnknownPlayer)


def test_bad_reports_are_refused_and_change_nothing() -> None:
    director = mtt(6)
    director.start()
    seated = director.state.tables[1]
    before = {e: director.state.chips[e] for e in seated}
    richer = {**before, seated[0]: before[seated[0]] + 5}
    unchanged(director, lambda: director.report_hand(1, before, richer), EventStateError)
    unchanged(director, lambda: director.report_hand(1, richer, richer), EventStateError)
    unchanged(director, lambda: director.report_hand(7, before, before), EventStateError)
    unchanged(director, lambda: director.start(), EventStateError)
    director.report_hand(1, before, before)
    unchanged(director, lambda: director.report_hand(1, before, before), EventStateError)


def test_simultaneous_busts_rank_by_starting_stack_and_ties_share_points() -> None:
    director = Director(EventConfig(format="cantina"), 0)
    for name in ("A", "B", "C", "D"):
        director.register(name)
    director.start()
    seated = list(director.state.tables[1])
    # give the four stacks 100, 100, 150, 50 then bust three of them in one hand
    a, b, c, d = seated
    director.report_hand(1, {e: 100 for e in seated}, {a: 100, b: 100, c: 150, d: 50})
    director.end_hand()
    before = {a: 100, b: 100, c: 150, d: 50}
    director.report_hand(1, before, {a: 0, b: 0, c: 400, d: 0})
    events = director.end_hand()
    assert director.state.finished
    rows = {r.player: r for r in director.standings()}
    place = {e: rows[director.state.entries[e].player] for e in seated}
    assert place[c].place == 1 and place[c].points == 100
    assert place[a].place == place[b].place == 2
    assert place[a].points == place[b].points == (64 + 36) / 2
    assert place[d].place == 4 and place[d].points == 21
    bust = next(e for e in events if e["type"] == "bust")
    assert {x["entry"] for x in bust["entries"]} == {a, b, d}


def test_a_cantina_game_counts_only_with_enough_players() -> None:
    director = Director(EventConfig(format="cantina", min_players=5, seats=3), 0)
    for name in ("A", "B", "C"):
        director.register(name)
    assert director.state.started and not director.counts
    rng = random.Random(3)
    while not director.state.finished:
        play_event_hand(director, rng)
        director.end_hand()
    assert all(row.points == 0 for row in director.standings())


def test_a_cantina_game_ends_after_its_orbits_ranked_by_chips() -> None:
    director = Director(EventConfig(format="cantina", orbits=2, seats=4), 0)
    for name in ("A", "B", "C", "D"):
        director.register(name)
    ticks = 0
    while not director.state.finished:
        seated = director.state.tables[1]
        before = {e: director.state.chips[e] for e in seated}
        after = dict(before)
        after[seated[0]] += 1
        after[seated[1]] -= 1
        director.report_hand(1, before, after)
        director.end_hand()
        ticks += 1
    assert ticks == 8
    rows = director.standings()
    chips = [r.chips or 0 for r in rows]
    assert chips == sorted(chips, reverse=True)


def test_config_errors_are_specific() -> None:
    with pytest.raises(ConfigError, match="format"):
        Director(EventConfig(format="poker"))
    with pytest.raises(ConfigError, match="table_size"):
        Director(EventConfig(format="mtt", variant="kessel", table_size=8))
    with pytest.raises(ConfigError, match="points"):
        Director(EventConfig(points=(10, 20)))
    with pytest.raises(ConfigError, match="add_on"):
        Director(EventConfig(add_on=True))
    with pytest.raises(ConfigError, match="swiss"):
        Director(EventConfig(format="swiss"))


def test_a_table_keeps_its_pots_across_moves_until_its_game_closes() -> None:
    director = mtt(9, table_size=5, pot_at_close="split")
    director.start()
    assert [len(s) for s in director.state.tables.values()] == [5, 4]
    seated = list(director.state.tables[1])
    before = {e: director.state.chips[e] for e in seated}
    after = {e: v - 2 for e, v in before.items()}
    director.report_hand(1, before, after, pot=10)  # 10 credits stay in table 1's pots
    director.end_hand()
    entry = director.state.tables[1][0]
    director.move(entry, 2)
    assert director.state.table_of[entry] == 2
    assert director.state.pots[1] == 10  # a move does not close the game
    unchanged(director, lambda: director.close_pot(1, "level"), NotAllowed)
    unchanged(director, lambda: director.close_pot(9), UnknownPlayer)
    director.close_pot(1, "move")
    closed = director.events[-1]
    assert closed["type"] == "pot_closed" and closed["amount"] == 10
    assert sum(closed["shares"].values()) == 10 and director.state.pots[1] == 0
    assert director.state.accounted() == director.state.bought


def test_a_director_cannot_break_a_table_the_others_cannot_seat() -> None:
    """The director breaks a table itself as soon as the others can seat its players, so a
    director's break is refused (nothing changed) until then, and always at the last table."""
    director = mtt(18, table_size=6)
    director.start()
    rng = random.Random(3)
    for _ in range(3):
        unchanged(director, lambda: director.break_table(min(director.state.tables)), TableFull)
        play_event_hand(director, rng)
        director.end_hand()
    unchanged(director, lambda: director.break_table(99), UnknownPlayer)
    last = mtt(3, table_size=4)
    last.start()
    unchanged(last, lambda: last.break_table(1), NotAllowed)
