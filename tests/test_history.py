"""Hand histories (Game.history) and sabacc.replay."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import sabacc
from sabacc.engine.game import Game
from tests.support import choose_small, snapshot


def played(seed: int = 3, steps: int | None = None, **options: Any) -> Game:
    g = sabacc.new_game("spike", players=["Han", "Lando", "Qi'ra"], seed=seed, **options)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.apply(choose_small(rng, g))
        n += 1
    return g


def roundtrip(doc: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(doc))
    return out


class TestDocument:
    def test_fields(self) -> None:
        g = played(rounds=2, gain_fee=1)
        h = g.history()
        assert set(h) == {
            "format",
            "version",
            "variant",
            "options",
            "seed",
            "players",
            "actions",
            "result",
        }
        assert h["format"] == "sabacc-history" and h["version"] == 1
        assert h["variant"] == "corellian_spike"
        assert h["options"] == {"rounds": 2, "gain_fee": 1}  # only what differs from defaults
        assert h["seed"] == 3
        assert h["players"] == ["Han", "Lando", "Qi'ra"]
        assert h["actions"] == [{"seat": s, "action": a} for s, a in g.actions]
        assert all(sabacc.parse_action(a["action"]) for a in h["actions"])
        assert h["result"] == g.outcome.to_dict()  # type: ignore[union-attr]
        assert h["result"]["payoffs"] == g.payoffs
        assert roundtrip(h) == h

    def test_unfinished_game_has_no_result(self) -> None:
        h = played(steps=7).history()
        assert h["result"] is None and len(h["actions"]) == 7

    def test_history_is_a_copy(self) -> None:
        g = played(steps=5)
        h = g.history()
        h["actions"].clear()
        h["players"].append("x")
        assert len(g.actions) == 5 and len(g.names) == 3


class TestReplay:
    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_rebuilds_the_exact_final_state(self, seed: int) -> None:
        g = played(seed=seed, betting="pot_limit", swap_fee=1)
        r = sabacc.replay(roundtrip(g.history()))
        assert r.is_over
        assert r.stacks == g.stacks
        assert r.full_state() == g.full_state()
        assert r.events == g.events
        assert r.actions == g.actions
        assert r.hand_results == g.hand_results
        assert r.names == g.names and r.seed == g.seed
        assert r.options == g.options
        assert r.history() == g.history()

    def test_replays_an_unfinished_game_and_plays_on(self) -> None:
        g = played(seed=4, steps=25)
        r = sabacc.replay(roundtrip(g.history()))
        assert snapshot(r) == snapshot(g)
        rng1, rng2 = random.Random(8), random.Random(8)
        while not g.is_over:
            g.apply(choose_small(rng1, g))
            r.apply(choose_small(rng2, r))
        assert r.events == g.events and r.payoffs == g.payoffs

    @pytest.mark.parametrize("k", [0, 1, 5, 17, 40])
    def test_upto(self, k: int) -> None:
        g = played(seed=5)
        assert len(g.actions) > 40
        r = sabacc.replay(g.history(), upto=k)
        ref = sabacc.new_game("spike", players=g.names, seed=g.seed)
        for seat, action in g.actions[:k]:
            ref.apply(action, seat=seat)
        assert len(r.actions) == k
        assert snapshot(r) == snapshot(ref)
        assert r.events == ref.events

    def test_on_step_sees_every_intermediate_state(self) -> None:
        g = played(seed=5)
        seen: list[tuple[int, int, dict[str, Any]]] = []

        def step(game: Game, applied: int) -> None:
            seen.append((applied, len(game.actions), snapshot(game)))

        r = sabacc.replay(g.history(), upto=30, on_step=step)
        assert [n for n, _, _ in seen] == list(range(31))
        assert all(n == done for n, done, _ in seen)
        for n in (0, 1, 13, 30):
            assert seen[n][2] == snapshot(sabacc.replay(g.history(), upto=n))
        assert seen[-1][2] == snapshot(r)

    def test_upto_beyond_the_end_replays_everything(self) -> None:
        g = played(seed=5)
        r = sabacc.replay(g.history(), upto=10**6)
        assert r.is_over and r.stacks == g.stacks

    def test_replay_ignores_the_result_field(self) -> None:
        g = played(seed=6)
        h = g.history()
        h["result"] = {"stacks": [1, 2, 3]}
        assert sabacc.replay(h).stacks == g.stacks

    def test_options_given_as_text(self) -> None:
        g = played(seed=2, rounds=1)
        h = g.history()
        h["options"] = {"rounds": "1"}
        assert sabacc.replay(h).stacks == g.stacks

    def test_alias_variant_name(self) -> None:
        g = played(seed=2)
        h = g.history()
        h["variant"] = "spike"
        assert sabacc.replay(h).stacks == g.stacks


def broken(change: Any) -> dict[str, Any]:
    h = copy.deepcopy(played(seed=7, steps=12).history())
    change(h)
    return h


class TestErrors:
    @pytest.mark.parametrize(
        ("change", "match"),
        [
            (lambda h: h.update(version=2), "version"),
            (lambda h: h.update(version="1"), "version"),
            (lambda h: h.pop("version"), "version"),
            (lambda h: h.update(format="chess-pgn"), "format"),
            (lambda h: h.pop("format"), "format"),
            (lambda h: h.pop("variant"), "malformed"),
            (lambda h: h.pop("players"), "malformed"),
            (lambda h: h.pop("seed"), "malformed"),
            (lambda h: h.update(seed="seven"), "malformed"),
            (lambda h: h.update(seed=None), "malformed"),
            (lambda h: h.update(variant="pazaak"), "unknown variant"),
            (lambda h: h.update(options={"nope": 1}), "unknown option"),
            (lambda h: h.update(options={"rounds": 0}), "rounds"),
            (lambda h: h.update(players=["solo"]), "2-8"),
            (lambda h: h.update(players=5), "malformed"),
            (lambda h: h.update(actions=5), "malformed"),
            (lambda h: h["actions"].insert(0, {"seat": 1, "action": "check"}), "action 1"),
            (lambda h: h["actions"].insert(0, {"seat": 2, "action": "stand"}), "turn"),
            (lambda h: h["actions"].insert(0, {"seat": 1, "action": "dance"}), "dance"),
            (lambda h: h["actions"].insert(0, {"seat": 1}), "action 1"),
            (lambda h: h["actions"].insert(0, {"action": "stand"}), "action 1"),
            (lambda h: h["actions"].insert(0, "stand"), "action 1"),
            pytest.param(
                lambda h: h["actions"].insert(0, {"seat": "x", "action": "stand"}),
                "action 1",
                id="seat-not-a-number",
            ),
            (lambda h: h["actions"].append({"seat": 0, "action": "bet 100000"}), "action 13"),
        ],
    )
    def test_history_error(self, change: Any, match: str) -> None:
        with pytest.raises(sabacc.HistoryError, match=match) as info:
            sabacc.replay(broken(change))
        assert isinstance(info.value, ValueError)

    @pytest.mark.parametrize("doc", [None, [], "history", 3, b"{}"])
    def test_not_an_object(self, doc: Any) -> None:
        with pytest.raises(sabacc.HistoryError):
            sabacc.replay(doc)

    def test_seat_must_match(self) -> None:
        g = played(seed=7, steps=12)
        h = g.history()
        h["actions"][3]["seat"] = (h["actions"][3]["seat"] + 1) % 3
        with pytest.raises(sabacc.HistoryError, match="action 4"):
            sabacc.replay(h)

    def test_actions_after_game_over(self) -> None:
        g = played(seed=7)
        h = g.history()
        h["actions"].append({"seat": 0, "action": "stand"})
        with pytest.raises(sabacc.HistoryError, match="over"):
            sabacc.replay(h)


def test_replay_without_the_event_log_reaches_the_same_state() -> None:
    h = played(seed=5, rounds=2).history()
    quiet = sabacc.replay(h, log=False)
    loud = sabacc.replay(h)
    assert quiet.events == [] and loud.events
    assert quiet.full_state() == loud.full_state() and quiet.history() == h
