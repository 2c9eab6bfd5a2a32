"""Corellian Spike on the compiled core behind the environments: the same episodes as on the
reference engine.

Both engines play the same seeded episodes in lockstep, with the same actions (random legal
indices, some illegal ones, missing parallel actions): every observation vector (of every agent,
to act or not), mask, reward, termination, truncation, info, rendering and fallback count must be
identical, and so must the hand nets and the final stacks. Several table sizes, both episode
modes and a spread of options (betting structures, fees, hand cap, blind-draw or split ties,
knock-outs, the final-pot rule, ``max_cycles``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import sabacc
import sabacc.apps.rl
from sabacc.apps.rl import TableCore
from sabacc.core.errors import OptionError
from sabacc.engine.game import Game
from sabacc.variants.compiled import resolve_engine
from sabacc.variants.corellian_spike.rules import SpikeGame
from tests.apps.rl.conftest import needs_compiled
from tests.support import variant_without_core

pytestmark = needs_compiled

ENGINES = ("python", "compiled")

#: (players, episode, keywords): table sizes 2-8, both episode modes, a spread of options (and
#: exact bet sizes, whose masks depend on the legal range).
CASES: list[tuple[int, str, dict[str, Any]]] = [
    (2, "hand", {}),
    (3, "game", {"game_end": "hands:3"}),
    (4, "hand", {"rounds": 2, "betting": "pot_limit", "bet_sizes": ("min", 2, 5, 0.75, "max")}),
    (4, "game", {"buy_in": 12, "ante": 2, "min_bet": 3, "final_pot": "house"}),  # knock-outs
    (5, "game", {"game_end": "hands:4", "betting": "fixed", "max_raises": 2}),
    (6, "hand", {"gain_fee": 1, "swap_fee": 2, "hand_cap": 4, "true_tie": "split"}),
    (8, "hand", {"hand_cap": 8, "rounds": 4}),  # long hands: reshuffles of the discard pile
]
IDS = [
    "2p-hand",
    "3p-game-3hands",
    "4p-hand-pot_limit-exact_sizes",
    "4p-game-short_stacks-house",
    "5p-game-fixed-2raises",
    "6p-hand-fees-cap4-split",
    "8p-hand-cap8-4rounds",
]


def _same_obs(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape
        np.testing.assert_array_equal(a[key], b[key])


def _pick(obs: dict[str, Any], rng: random.Random, n_actions: int, illegal: float) -> int:
    """A random legal index, or now and then any index (illegal ones fall back)."""
    if rng.random() < illegal:
        return rng.randrange(n_actions + 3)
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def _same_games(ref: Any, fast: Any) -> None:
    """The final states of the two engines' games agree."""
    assert isinstance(ref, Game) and not isinstance(fast, Game)
    nets = [(r.hand, r.dealer, r.reason, r.net) for r in ref.hand_results]
    assert fast.hand_nets == nets
    assert fast.stacks == ref.stacks
    assert fast.payoffs == ref.payoffs
    assert fast.actions == ref.actions


@pytest.mark.parametrize(("players", "episode", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("max_cycles", [None, 3])
def test_aec_episodes_are_identical(
    players: int, episode: str, options: dict[str, Any], max_cycles: int | None
) -> None:
    ref, fast = (
        sabacc.apps.rl.env(
            "corellian_spike",
            players,
            episode=episode,
            max_cycles=max_cycles,
            render_mode="ansi",
            engine=engine,
            **options,
        )
        for engine in ENGINES
    )
    assert ref.unwrapped.core.engine == "python"
    assert fast.unwrapped.core.engine == "compiled"
    n_actions = int(ref.action_space("player_0").n)
    rng = random.Random(f"aec-{players}-{episode}-{max_cycles}")
    steps = 0
    for seed in range(12 if episode == "game" else 25):
        ref.reset(seed=seed)
        fast.reset(seed=seed)
        for agent in ref.agent_iter():
            assert fast.agent_selection == agent
            assert fast.agents == ref.agents
            for a in ref.possible_agents:
                _same_obs(ref.observe(a), fast.observe(a))
            obs, reward, terminated, truncated, info = ref.last()
            fobs, freward, fterminated, ftruncated, finfo = fast.last()
            _same_obs(obs, fobs)
            assert (freward, fterminated, ftruncated, finfo) == (
                reward,
                terminated,
                truncated,
                info,
            )
            assert fast.rewards == ref.rewards
            assert fast._cumulative_rewards == ref._cumulative_rewards
            assert fast.terminations == ref.terminations
            assert fast.truncations == ref.truncations
            assert fast.infos == ref.infos
            assert fast.render() == ref.render()
            action = None if terminated or truncated else _pick(obs, rng, n_actions, 0.05)
            ref.step(action)
            fast.step(action)
            steps += 1
        assert fast.agents == ref.agents == []
        assert fast.rewards == ref.rewards
        assert fast.render() == ref.render()
        rcore, fcore = ref.unwrapped.core, fast.unwrapped.core
        assert fcore.shift == rcore.shift
        assert fcore.illegal_count == rcore.illegal_count
        assert fcore.hand_nets() == rcore.hand_nets()
        _same_games(rcore.game, fcore.game)
    assert steps > 100
    assert ref.unwrapped.core.illegal_count > 0  # the fallback was exercised


@pytest.mark.parametrize(("players", "episode", "options"), CASES, ids=IDS)
def test_parallel_episodes_are_identical(
    players: int, episode: str, options: dict[str, Any]
) -> None:
    ref, fast = (
        sabacc.apps.rl.parallel_env(
            "corellian_spike",
            players,
            episode=episode,
            max_cycles=40,
            render_mode="ansi",
            engine=engine,
            **options,
        )
        for engine in ENGINES
    )
    n_actions = int(ref.action_space("player_0").n)
    rng = random.Random(f"parallel-{players}-{episode}")
    for seed in range(8):
        robs, rinfos = ref.reset(seed=seed)
        fobs, finfos = fast.reset(seed=seed)
        while True:
            assert fobs.keys() == robs.keys() and finfos == rinfos
            for a in robs:
                _same_obs(robs[a], fobs[a])
            assert fast.render() == ref.render()
            if not ref.agents:
                break
            actions: dict[str, Any] = {}
            for a in ref.agents:
                if robs[a]["action_mask"].any() and rng.random() < 0.9:
                    actions[a] = _pick(robs[a], rng, n_actions, 0.05)
                elif rng.random() < 0.5:  # ignored (not to act), or the passive action
                    actions[a] = rng.randrange(n_actions)
            robs, rrew, rterm, rtrunc, rinfos = ref.step(actions)
            fobs, frew, fterm, ftrunc, finfos = fast.step(actions)
            assert (frew, fterm, ftrunc) == (rrew, rterm, rtrunc)
            assert fast.agents == ref.agents
        _same_games(ref.core.game, fast.core.game)


@pytest.mark.parametrize(("players", "episode", "options"), CASES, ids=IDS)
def test_table_core_views_are_identical(
    players: int, episode: str, options: dict[str, Any]
) -> None:
    """Every seat's vector at every decision (and after the end), through ``observe``, the
    encoder's public ``encode`` (which dispatches on the engine) and against the reference
    game's own JSON observation; the decision (legal actions, pot, to call, mask)."""
    ref, fast = (
        TableCore("corellian_spike", players, episode=episode, engine=e, **options) for e in ENGINES
    )
    enc = fast.encoder
    rng = random.Random(f"core-{players}-{episode}")
    for seed in range(6):
        ref.reset(seed)
        fast.reset(seed)
        while True:
            rgame, fgame = ref.game, fast.game
            assert isinstance(rgame, Game)
            for seat in range(players):
                vec = fast.observe(seat)
                np.testing.assert_array_equal(vec, ref.observe(seat))
                np.testing.assert_array_equal(vec, enc.encode(fgame, seat, fast.unit))
                reference = enc.encode_observation(rgame.observation(seat))
                np.testing.assert_array_equal(vec, reference)
                np.testing.assert_array_equal(fast.mask(seat), ref.mask(seat))
            if fast.over:
                break
            (rlegal, rpot, rcall, rmask), (flegal, fpot, fcall, fmask) = (
                ref.decision(),
                fast.decision(),
            )
            assert (flegal, fpot, fcall) == (rlegal, rpot, rcall)
            np.testing.assert_array_equal(fmask, rmask)
            legal = np.flatnonzero(rmask)
            index = int(legal[rng.randrange(len(legal))])
            assert fast.apply_index(index) == ref.apply_index(index)
            assert fast.hand_ended == ref.hand_ended
        _same_games(ref.game, fast.game)


def test_engine_option() -> None:
    assert resolve_engine("auto", "spike") == "compiled"
    assert resolve_engine("auto", "classic") == "compiled"
    assert resolve_engine("auto", "surabat_cycle") == "compiled"
    assert resolve_engine("python", "corellian_spike") == "python"
    assert sabacc.apps.rl.env("corellian_spike", 2).unwrapped.core.engine == "compiled"
    assert sabacc.apps.rl.parallel_env("spike", 2).core.engine == "compiled"
    assert sabacc.apps.rl.env("classic", 2).unwrapped.core.engine == "compiled"
    assert TableCore("corellian_spike", 2, engine="python").engine == "python"
    with variant_without_core() as name, pytest.raises(OptionError, match="only, not Coreless"):
        sabacc.apps.rl.env(name, 2, engine="compiled")
    with pytest.raises(OptionError, match="engine='turbo'"):
        sabacc.apps.rl.parallel_env("corellian_spike", 2, engine="turbo")
    # The Gymnasium environment too: its bots read the core's observation() (test_gym.py).
    assert sabacc.apps.rl.SabaccGymEnv("corellian_spike").core.engine == "compiled"
    assert (
        sabacc.apps.rl.SabaccGymEnv("corellian_spike", engine="compiled").core.engine == "compiled"
    )
    assert sabacc.apps.rl.SabaccGymEnv("corellian_spike", engine="python").core.engine == "python"
    with pytest.raises(OptionError, match="engine='turbo'"):
        sabacc.apps.rl.SabaccGymEnv("corellian_spike", engine="turbo")


def test_seat_view_matches_the_reference_state() -> None:
    """The compact view the encoder reads: the compiled core's equals the reference engine's
    (``last`` is the first word of the reference's text), which matches the game's own lists."""
    from sabacc.engine.observation import SEAT_STATUSES

    rng = random.Random(7)
    statuses: set[int] = set()
    kinds: set[str | None] = set()
    known_seen = 0
    for seed, players in [(s, p) for s in range(3) for p in (2, 5)]:
        # Short stacks: all-in and knocked-out seats too.
        ref = sabacc.new_game("spike", players=players, seed=seed, log=False, buy_in=15)
        assert isinstance(ref, SpikeGame)
        fast = sabacc.new_game("spike", players=players, seed=seed, engine="compiled", buy_in=15)
        for _ in range(400):
            if ref.over:
                break
            for seat in range(players):
                view = fast.seat_view(seat)
                rview = ref.seat_view(seat)
                phase, pot, sab, cur, dealer, own, total, seats, extra = view
                assert (*view[:7], extra) == (*rview[:7], rview[8])
                assert [(*row[:5], row[6]) for row in seats] == [
                    (*row[:5], row[6]) for row in rview[7]
                ]
                assert [row[5] for row in seats] == [
                    None if row[5] is None else row[5].split(" ")[0] for row in rview[7]
                ]
                assert (phase, pot, sab, cur) == (
                    ref.phase,
                    ref.pot_total(),
                    ref.sabacc_pot,
                    ref.cur_bet,
                )
                rnd, rounds, ndraw, nmuck, doubles, discard = extra
                assert (rnd, rounds, ndraw, nmuck) == (
                    ref.round,
                    ref.options.rounds,
                    len(ref.draw),
                    len(ref.muck),
                )
                dice = ref.last_dice
                assert doubles == (dice is not None and dice[0] == dice[1])
                assert (seat + dealer) % players == ref.dealer
                assert list(own) == [c.id for c in ref.hands[seat]]
                assert total == sum(c.value for c in ref.hands[seat])
                assert list(discard) == [c.id for c in ref.discard]
                assert len(seats) == players
                for k, (stack, committed, round_bet, ncards, status, last, known) in enumerate(
                    seats
                ):
                    s = (seat + k) % players
                    assert (stack, committed, round_bet, ncards) == (
                        ref.stacks[s],
                        ref.committed[s],
                        ref.round_bet[s],
                        len(ref.hands[s]),
                    )
                    assert SEAT_STATUSES[status] == ref._status(s)
                    public = [c.id for c in ref.hands[s] if c.id in ref.public_ids[s]]
                    assert list(known) == public
                    statuses.add(status)
                    kinds.add(last)
                    known_seen += bool(known)
            action = rng.choice(ref.legal_actions())
            ref.apply(action)
            fast.apply(action)
    with pytest.raises(IndexError):
        fast.seat_view(players)
    with pytest.raises(IndexError):
        ref.seat_view(players)
    # Every status Spike has ("waiting" is for variants that deal some seats out), every kind
    # of last action, and cards seen going into hands were visited.
    assert statuses == {0, 1, 2, 4}
    assert kinds == {None, "stand", "gain", "swap", "check", "call", "bet", "raise", "junk"}
    assert known_seen > 0
