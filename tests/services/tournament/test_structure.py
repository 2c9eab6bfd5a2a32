"""Level schedules: each variant's declared default, and the checks on a given one."""

from __future__ import annotations

import pytest

import sabacc
from sabacc.services.tournament import Level, ScheduleError, check_schedule, default_schedule
from sabacc.services.tournament.structure import ante_cost


@pytest.mark.parametrize("name", sabacc.variant_names())
def test_every_variant_declares_a_playable_schedule(name: str) -> None:
    info = sabacc.variant(name).info
    schedule = default_schedule(info)
    assert len(schedule.levels) >= 5
    for level in schedule.levels:
        assert set(level.options) <= set(info.levels.options)
        options = info.options_type.from_mapping(dict(level.options))
        assert ante_cost(info, level.options) <= options.starting_stack
    costs = [ante_cost(info, level.options) for level in schedule.levels]
    assert costs == sorted(costs)  # antes never fall


def test_levels_by_hands_and_by_minutes() -> None:
    info = sabacc.variant("corellian_spike").info
    by_hands = default_schedule(info, hands=10)
    assert [by_hands.level_at(h) for h in (0, 9, 10, 19, 20)] == [0, 0, 1, 1, 2]
    assert by_hands.level_at(10**6) == len(by_hands.levels) - 1
    by_minutes = default_schedule(info, minutes=15, break_every=2, break_minutes=5)
    assert by_minutes.level_at(0, 14.9) == 0
    assert by_minutes.level_at(0, 15) == 1
    assert by_minutes.level_at(0, 30) == 1  # the break after level 2 comes before level 3
    assert by_minutes.in_break(32) and not by_minutes.in_break(36)
    assert by_minutes.level_at(0, 35) == 2


@pytest.mark.parametrize(
    ("levels", "words"),
    [
        ([], "at least one level"),
        ([Level({"ante": 1})], "in hands or in minutes"),
        ([Level({"ante": 1}, hands=5, minutes=3)], "in hands or in minutes"),
        ([Level({"ante": 1}, hands=5), Level({"ante": 2}, minutes=3)], "every level"),
        ([Level({"ante": 1}, hands=0)], "must be positive"),
        ([Level({"ante": 1}, hands=5, break_minutes=-1)], "negative"),
        ([Level({"rounds": 2}, hands=5)], "not rounds"),
        ([Level({"ante": -3}, hands=5)], "level 1"),
    ],
)
def test_an_invalid_schedule_is_refused(levels: list[Level], words: str) -> None:
    info = sabacc.variant("corellian_spike").info
    with pytest.raises(ScheduleError, match=words):
        check_schedule(info, levels)


def test_kessel_levels_set_chips_and_a_round_cap_not_antes() -> None:
    info = sabacc.variant("kessel").info
    schedule = default_schedule(info)
    assert {"chips", "game_end"} == set(info.levels.options)
    assert all(ante_cost(info, level.options) == 0 for level in schedule.levels)
    caps = [level.options["game_end"] for level in schedule.levels[1:]]
    assert all(cap.startswith("rounds:") for cap in caps)
    with pytest.raises(ScheduleError, match="ante"):
        check_schedule(info, [Level({"ante": 2}, hands=4)])
