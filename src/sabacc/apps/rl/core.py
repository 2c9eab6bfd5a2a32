"""The game loop shared by the PettingZoo, parallel and Gymnasium environments.

:class:`TableCore` owns the game of the current episode, the seating of agents, the action
table and the observation encoder; it turns indices into actions and hand results into
rewards. Everything heavy (option parsing, tables, spaces, buffers) is built once, in
``__init__``; ``reset`` only deals a new game.

Episodes (``episode=``):

* ``"hand"`` (default): an episode is one hand, from fresh buy-in stacks (the game is played
  with ``max_hands=1``). Each agent's reward, given when the hand ends, is its seat's ``net``
  in the hand's :class:`~sabacc.HandResult`: the credits it won or lost in the hand, antes
  included. (Pots nobody won stay with the table: the game's ``final_pot`` split is not paid.)
* ``"game"``: an episode is a whole game under the variant's ``game_end`` option (stacks carry
  over from hand to hand). Every agent gets its hand ``net`` as a reward when each hand ends,
  and at the end of the game whatever the ``final_pot`` option hands back, so the rewards of an
  episode add up to the seat's game payoff. A seat knocked out (it cannot ante) terminates.

Reward conventions (``reward=``, the same keyword and meaning in every environment of this
package: PettingZoo, Gymnasium, the vector environment, the research game and OpenSpiel):

* ``"net"`` (default): credits, as the rules move them. A hand's rewards are **not** zero-sum
  where credits leave the players: a sabacc pot nobody won (it carries over, or is lost with a
  one-hand episode), Kessel's lost pots and penalties (the house). Their sum is then negative.
* ``"zero_sum"``: each payment of ``"net"`` minus its mean over the seats, so the rewards of
  every hand (and of the final hand-back) sum to exactly zero: what leaves the players is
  charged to every seat alike. Differences between seats, and so every ranking, are unchanged.

Engines (``engine=``): ``"python"`` plays the reference engine (:class:`sabacc.Game`);
``"compiled"`` plays on the variant's compiled core (:mod:`sabacc.variants.compiled`: the same
states for the same seed and actions, several times faster, rewards from its ``hand_nets``);
``"auto"`` (default) is ``"compiled"`` for a variant with a compiled core when it is built, else
``"python"``. Observations, masks, rewards and seating are identical on both engines for the
same seeds (``tests/apps/rl/test_engines.py``). :attr:`TableCore.game` is the engine's game object;
both have ``observation()``, ``hand_results`` and ``determinize()`` (only the reference engine
keeps a per-event log).

Seating: agent ``player_k`` plays seat ``(k + r) % n``, where ``r`` is drawn at each reset
from the episode seed (``rotate_seats=False``: ``r = 0``). A fresh game always starts with the
dealer button at seat 0, so without rotation an agent would always play the same position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from sabacc.apps.rl.actions import ActionTable, BetSize, Mask
from sabacc.apps.rl.features import ObservationEncoder, Vector
from sabacc.core.actions import Action
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.betting import NO_ACTIONS, Legal
from sabacc.engine.protocol import GameProtocol
from sabacc.variants.compiled import new_compiled_game, resolve_engine
from sabacc.variants.registry import DEFAULT_VARIANT, lookup, rl_env_name

EPISODES = ("hand", "game")
#: The reward conventions (``reward=``): see the module docstring.
REWARDS = ("net", "zero_sum")
#: What an illegal action index does (``illegal_action=``): see :meth:`TableCore.to_action`.
ILLEGAL = ("terminate", "fallback", "raise")


def check_reward(reward: str) -> None:
    """:class:`~sabacc.OptionError` unless ``reward`` is one of :data:`REWARDS`."""
    if reward not in REWARDS:
        raise OptionError(f"reward={reward!r}: must be one of {', '.join(REWARDS)}")


def centred(values: Sequence[float]) -> list[float]:
    """``values`` less their mean: the ``"zero_sum"`` convention's rewards (they sum to 0)."""
    mean = sum(values) / len(values)
    return [v - mean for v in values]


class IllegalIndexError(IllegalActionError):
    """An illegal action index under ``illegal_action="terminate"``: the environment that
    catches it ends the episode (nothing was played)."""


class TableCore:
    """One table of ``num_players`` seats of ``variant`` (see the module docstring)."""

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        num_players: int = 4,
        *,
        episode: str = "hand",
        bet_sizes: Sequence[BetSize] | None = None,
        illegal_action: str = "fallback",
        rotate_seats: bool = True,
        engine: str = "auto",
        reward: str = "net",
        **options: Any,
    ) -> None:
        check_reward(reward)
        if episode not in EPISODES:
            raise OptionError(f"episode={episode!r}: must be one of {', '.join(EPISODES)}")
        if illegal_action not in ILLEGAL:
            raise OptionError(
                f"illegal_action={illegal_action!r}: must be one of {', '.join(ILLEGAL)}"
            )
        info = lookup(variant)
        if not info.min_players <= num_players <= info.max_players:
            raise OptionError(
                f"{info.title} is played by {info.min_players}-{info.max_players} players, "
                f"not {num_players}"
            )
        opts = dict(options)
        if episode == "hand":  # one hand: the safety cap, or the game-end rule where none
            if "max_hands" in info.options_type.names():
                opts["max_hands"] = 1
            else:
                opts["game_end"] = "hands:1"
        self.info = info
        self.variant = info.name
        #: The short name of the environments (from the variant's RL feature spec).
        self.env_name = rl_env_name(info)
        self.engine = resolve_engine(engine, info.name)
        self.compiled = self.engine == "compiled"
        self.options = info.options_type.from_mapping(opts)
        self.n = num_players
        self.episode = episode
        self.reward = reward
        self.zero_sum = reward == "zero_sum"
        self.illegal_action = illegal_action
        self.rotate_seats = rotate_seats
        self.table = ActionTable(info, self.options, bet_sizes)
        self.encoder = ObservationEncoder(info, self.options, num_players)
        probe = info.game_type(self.options, seed=0, players=num_players, log=False)
        betting = probe.observation(0)["betting"]
        self.unit = int(betting["unit"])  # constant for a variant and its options
        self.rng = random.Random()
        self.seeded = False
        self.game: GameProtocol = self._make(0) if self.compiled else probe
        self.shift = 0
        self._results = 0
        self._paid = [0] * num_players  # rewards paid so far this episode, by seat
        self._zero_mask = np.zeros(self.table.n, dtype=np.int8)
        self.illegal_count = 0
        self.hand_ended = False  # whether the last action ended a hand (rewards were paid)
        self._no_rewards = [0.0] * num_players
        self._dkey = -1
        self._fixed: dict[int, Action] = {}
        self._dgame: GameProtocol | None = None
        self._dec: tuple[Legal, int, int, Mask] = (NO_ACTIONS, 0, 0, self._zero_mask)
        self._masks: dict[tuple[Any, ...], tuple[Mask, dict[int, Action], tuple[Action, ...]]] = {}
        self._exact_sizes = bool(self.table._exact)
        self._int8 = np.dtype(np.int8)

    def _make(self, seed: int) -> GameProtocol:
        """A fresh game of this table on the chosen engine."""
        if self.compiled:
            return new_compiled_game(self.options, self.n, seed, variant=self.variant)
        return self.info.game_type(self.options, seed=seed, players=self.n, log=False)

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None) -> None:
        """Deal a new episode. ``seed`` reseeds the episode stream; ``None`` continues it."""
        if seed is not None:
            self.rng.seed(seed)
            self.seeded = True
        elif not self.seeded:
            self.rng.seed(random.SystemRandom().getrandbits(64))
            self.seeded = True
        rng = self.rng
        game_seed = rng.getrandbits(63)
        self.shift = rng.randrange(self.n) if self.rotate_seats else 0
        self.game = self._make(game_seed)
        self._results = 0
        self._paid = [0] * self.n
        self.hand_ended = False

    def seat_of(self, agent: int) -> int:
        return (agent + self.shift) % self.n

    def agent_of(self, seat: int) -> int:
        return (seat - self.shift) % self.n

    @property
    def over(self) -> bool:
        return self.game.over

    def current_seat(self) -> int | None:
        return self.game.current_player

    def out(self, seat: int) -> bool:
        """Whether the seat has been knocked out of the game (it could not ante)."""
        return bool(self.game.out[seat])

    # ------------------------------------------------------------------ observation
    def observe(self, seat: int) -> Vector:
        return self.encoder.encode_view(self.game.seat_view(seat), self.unit)

    def decision(self) -> tuple[Legal, int, int, Mask]:
        """``(legal, pot, to_call, mask)`` of the current decision, computed once per decision.

        ``mask`` is shared with later calls: copy it before handing it out.
        """
        game = self.game
        key = game.action_count
        if key == self._dkey and game is self._dgame:
            return self._dec
        legal = game.legal()
        seat = game.current_player
        if seat is None:
            pot = to_call = 0
            mask = self._zero_mask
            self._fixed = {}
        else:
            to_call = game.cur_bet - game.round_bet[seat]
            if to_call < 0:
                to_call = 0
            pot = game.pot_total()
            # The same legal sets come back again and again: remember their masks, keyed by
            # the identities of the fixed actions (the engines hand out interned objects; the
            # entry holds them, so their ids stay theirs) and by the bet and raise ranges where
            # they matter (only exact sizes depend on the range).
            fixed = legal.fixed
            if self._exact_sizes:
                mkey: tuple[Any, ...] = (*map(id, fixed), legal.bet, legal.raise_)
            else:
                mkey = (*map(id, fixed), legal.bet is None, legal.raise_ is None)
            hit = self._masks.get(mkey)
            if hit is None:
                raw, found = self.table.scan(legal)
                if len(self._masks) > 4096:
                    self._masks.clear()
                hit = self._masks[mkey] = (np.frombuffer(raw, self._int8), found, fixed)
            mask, self._fixed, _ = hit
        self._dec = (legal, pot, to_call, mask)
        self._dkey = key
        self._dgame = game
        return self._dec

    def situation(self) -> tuple[Legal, int, int]:
        """``(legal, pot, to_call)`` of the current decision."""
        legal, pot, to_call, _ = self.decision()
        return legal, pot, to_call

    def mask(self, seat: int) -> Mask:
        """A fresh action mask for ``seat`` (all zeros unless it is to act)."""
        if seat != self.game.current_player:
            return self._zero_mask.copy()
        return self.decision()[3].copy()

    # ------------------------------------------------------------------ acting
    def to_action(self, index: int) -> Action:
        """The action of ``index`` for the current player.

        An illegal index (counted in :attr:`illegal_count`) is replaced by the passive action
        under ``illegal_action="fallback"``, raises :class:`IllegalIndexError` under
        ``"terminate"`` (the environments catch it and end the episode: no check on the legal
        path) and :class:`~sabacc.core.errors.IllegalActionError` under ``"raise"``.
        """
        legal, pot, to_call, mask = self.decision()
        if 0 <= index < self.table.n and mask[index]:
            action = self._fixed.get(index) or self.table.decode(index, legal, pot, to_call)
            assert action is not None
            return action
        self.illegal_count += 1
        if self.illegal_action == "fallback":
            return self.fallback()
        message = f"action index {index} ({self.label(index)}) is not legal now"
        if self.illegal_action == "terminate":
            raise IllegalIndexError(message)
        raise IllegalActionError(message)

    def label(self, index: int) -> str:
        labels = self.table.labels
        return labels[index] if 0 <= index < len(labels) else "out of range"

    def fallback(self) -> Action:
        """The passive action: the lowest legal index (stand, check or call when legal)."""
        legal, pot, to_call, mask = self.decision()
        action = self.table.decode(int(np.argmax(mask)), legal, pot, to_call)
        assert action is not None
        return action

    def apply(self, action: Action) -> list[float]:
        """Apply the current player's action; returns the rewards it caused, by seat."""
        game = self.game
        game.apply(action)
        return self._rewards()

    def apply_index(self, index: int) -> list[float]:
        return self.apply(self.to_action(index))

    def apply_fallback(self) -> list[float]:
        return self.apply(self.fallback())

    def hand_nets(self) -> list[tuple[int, ...]]:
        """The ``net`` of every hand finished so far this episode (credits won or lost, by
        seat): from ``hand_results`` on the reference engine, ``hand_nets`` on the compiled
        one."""
        game: Any = self.game
        if self.compiled:
            return [entry[3] for entry in game.hand_nets]
        return [result.net for result in game.hand_results]

    def _rewards(self) -> list[float]:
        game: Any = self.game
        compiled_game = self.compiled
        results = game.hand_nets if compiled_game else game.hand_results
        rewards = self._no_rewards
        if len(results) == self._results and not (game.over and self.episode == "game"):
            self.hand_ended = False
            return rewards
        self.hand_ended = True
        rewards = [0.0] * self.n
        paid = self._paid
        for result in results[self._results :]:
            for s, net in enumerate(result[3] if compiled_game else result.net):
                rewards[s] += net
                paid[s] += net
        self._results = len(results)
        if game.over and self.episode == "game":
            start = self.options.starting_stack
            for s in range(self.n):
                extra = game.stacks[s] - start - paid[s]  # the final_pot split, if any
                if extra:
                    rewards[s] += extra
                    paid[s] += extra
        if self.zero_sum:
            return centred(rewards)
        return rewards
