"""Whole events of bots on the engines: every format and variant ends, conserves its chips
and replays from its seed."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.services.tournament import EventConfig, Level, check_schedule
from sabacc.services.tournament.simulate import EventSpec, simulate_event


def fast(variant: str, fmt: str, **settings: object) -> EventConfig:
    """An event with short levels (4 hands) so that it ends quickly."""
    info = sabacc.variant(variant).info
    levels = [Level(dict(v), hands=4) for v in info.levels.schedule]
    return EventConfig(
        format=fmt,
        variant=variant,
        schedule=check_schedule(info, levels),
        **settings,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("variant", sabacc.variant_names())
def test_a_sit_and_go_of_bots_plays_to_one_winner(variant: str) -> None:
    report = simulate_event(EventSpec(fast(variant, "sng"), 4), seed=2)
    rows = report["standings"]
    assert sorted(r["place"] for r in rows) == [1, 2, 3, 4] or rows[0]["place"] == 1
    assert sum(1 for r in rows if r["chips"]) == 1 and rows[0]["chips"]
    state = report["log"]
    assert state[-1]["type"] == "finished"
    assert all(r["bust_hand"] for r in rows[1:])


def test_a_multi_table_event_moves_breaks_and_redraws() -> None:
    report = simulate_event(EventSpec(fast("corellian_spike", "mtt", table_size=5), 14), seed=4)
    kinds = [e["type"] for e in report["tables"]]
    assert kinds[0] == "started" and "moved" in kinds and "redraw" in kinds
    assert len(report["standings"]) == 14
    busts = [b["entry"] for b in report["busts"]]
    assert len(busts) == len(set(busts)) == 13
    # a move keeps the tables' games (and their sabacc pots) going: they join and leave
    log = report["log"]
    moves = [e for e in log if e["type"] == "moved" and e["reason"] == "balance"]
    closed_by_moves = [e for e in log if e["type"] == "pot_closed" and e["reason"] == "move"]
    assert moves and len(closed_by_moves) < len(moves)


def test_rebuys_and_add_ons_reach_the_tables() -> None:
    config = fast("corellian_spike", "mtt", table_size=4, rebuy_until_level=8, add_on=True)
    report = simulate_event(EventSpec(config, 8, rebuy=True), seed=1)
    chips = [e for e in report["log"] if e["type"] == "chips"]
    assert {e["kind"] for e in chips} == {"rebuy", "add_on"}
    winner = report["standings"][0]
    bought = 8 * 100 + sum(e["amount"] for e in chips)
    assert winner["chips"] <= bought


def test_the_same_seed_plays_the_same_event() -> None:
    spec = EventSpec(fast("kessel", "mtt", table_size=4), 9)
    assert simulate_event(spec, 3)["log"] == simulate_event(spec, 3)["log"]
    assert simulate_event(spec, 3)["log"] != simulate_event(spec, 4)["log"]


@pytest.mark.parametrize("variant", ["corellian_spike", "kessel", "coruscant_shift"])
@pytest.mark.parametrize("fmt", ["swiss", "arena"])
def test_series_of_bots(variant: str, fmt: str) -> None:
    config = fast(variant, fmt, rounds=2, duration_hands=30, game_hands=20)
    report = simulate_event(EventSpec(config, 6, engine="auto"), seed=5)
    rows = report["standings"]
    assert len(rows) == 6 and rows[0]["place"] == 1
    assert all(r["games"] >= 1 for r in rows)
    games = [e for e in report["log"] if e["type"] == "game"]
    for game in games:
        assert sum(len(group) for group in game["places"]) in (2, 3, 4)


def test_a_cantina_game_with_a_charity_total() -> None:
    config = fast("corellian_spike", "cantina", orbits=2, charity=250.0)
    report = simulate_event(EventSpec(config, 5), seed=0)
    assert report["hands"] <= 10 and report["charity"] == 250.0
    assert [r["points"] for r in report["standings"]][:1] == [100]


def test_many_seeds_give_the_same_reports_on_local_processes() -> None:
    from sabacc.services.tournament.simulate import run_seeds, structure_report

    spec = EventSpec(fast("corellian_spike", "sng"), 4)
    serial = run_seeds(spec, [1, 2, 3])
    pooled = run_seeds(spec, [1, 2, 3], workers=2)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in serial]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in pooled]
    summary = structure_report(serial)
    assert summary["events"] == 3 and summary["bots"]["easy"]["wins"] == 3


def test_late_entries_join_the_running_tables() -> None:
    from sabacc.services.tournament import Director, Players, run_freezeout
    from sabacc.services.tournament.runner import Watcher

    config = fast("corellian_spike", "mtt", table_size=4, late_until_level=3)
    director = Director(config, 3)
    for i in range(8):
        director.register(f"Bot {i + 1}", bot="easy")
    director.start()
    late: list[str] = []

    def arrive(events: list[dict[str, object]]) -> None:
        if director.state.tick in (2, 5) and director.registration_open():
            late.append(director.register(f"Late {len(late) + 1}", bot="easy"))

    levels = {f"p{i}": "easy" for i in range(1, 20)}
    run_freezeout(director, Players(3, levels), watch=Watcher(events=arrive))
    assert len(late) == 2 and director.state.finished
    hands = [e for e in director.events if e["type"] == "hand"]
    assert all(any(p in h["before"] for h in hands) for p in late)  # they played
    assert director.state.accounted() == director.state.bought == 10 * 100


def test_levels_by_minutes_follow_the_clock_passed_in() -> None:
    from sabacc.services.tournament import Director, Players, run_freezeout

    info = sabacc.variant("corellian_spike").info
    levels = [Level(dict(v), minutes=10) for v in info.levels.schedule]
    config = EventConfig(format="sng", schedule=check_schedule(info, levels), seats=4)
    director = Director(config, 1)
    for i in range(4):
        director.register(f"Bot {i + 1}", bot="easy")
    run_freezeout(
        director, Players(1, {f"p{i}": "easy" for i in range(1, 5)}), minutes_per_hand=2.5
    )
    changes = [e["tick"] for e in director.events if e["type"] == "level"]
    assert changes[:3] == [0, 4, 8]  # 10 minutes a level, 2.5 minutes a hand
