"""The research-grade environment: chance nodes, information states, solver sub-games.

What OpenSpiel, pgx and RLCard users expect, for every variant, on the reference engine in
chance mode (:mod:`sabacc.engine.chance`):

* explicit **chance nodes** with exact outcome distributions (every shuffle, die and random
  pick; outcomes of cards with the same code are merged, since such cards are alike);
* per player an **observation tensor** (the RL encoder's vector, :mod:`sabacc.apps.rl.features`)
  and an **information-state tensor** (that vector and the last ``history`` decisions), each
  with named blocks marked public or private (:meth:`ResearchGame.blocks`), and their strings
  (the information-state string has perfect recall: every observation the player had, and its
  own actions);
* the **fixed action space with masks** of :class:`~sabacc.apps.rl.actions.ActionTable`;
* ``clone()`` and ``resample_from_infostate(player, rng)`` (a state the player cannot tell
  from this one: the hidden cards re-dealt);
* the **solver sub-game**: by default one hand from fresh stacks, heads-up, zero-sum where the
  variant's pots all go to the players (``reward="zero_sum"``: always, the returns less their
  mean; the reward conventions of :mod:`sabacc.apps.rl.core`); ``max_value``/``suits``/
  ``sylops`` play with a part of the deck, ``collapse_chance`` replaces the chance that follows
  the last decision of a hand by its exact expected payoff (the strategic game is unchanged;
  the tree is much smaller).

The OpenSpiel adapter (:mod:`sabacc.apps.rl.openspiel`) is a thin layer over this module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from sabacc.core.cards import Card
from sabacc.core.errors import OptionError
from sabacc.engine.chance import ChanceGame
from sabacc.engine.game import Game
from sabacc.variants.registry import DEFAULT_VARIANT, lookup

from .actions import ActionTable, BetSize
from .core import centred, check_reward
from .features import ObservationEncoder

Vector = npt.NDArray[np.float32]

#: The encoder's own blocks that only the observing seat knows.
PRIVATE_BLOCKS = frozenset({"hand_values", "hand_size", "hand_total", "hand_rank"})


def deck_subset(
    cards: Sequence[Card],
    max_value: int | None = None,
    suits: str | None = None,
    sylops: int | None = None,
) -> list[Card]:
    """The cards of ``cards`` with ``|value| <= max_value``, a suit among ``suits`` (unsuited
    cards stay) and at most ``sylops`` unsuited zero cards (Sylops)."""
    out: list[Card] = []
    zeros = 0
    for c in cards:
        if max_value is not None and abs(c.value) > max_value:
            continue
        if suits is not None and c.suit is not None and c.suit not in suits:
            continue
        if c.suit is None and c.value == 0:
            if sylops is not None and zeros >= sylops:
                continue
            zeros += 1
        out.append(c)
    return out


class ResearchGame:
    """A research game of ``variant`` (see the module docstring); :meth:`new_state` deals."""

    def __init__(
        self,
        variant: str = DEFAULT_VARIANT,
        num_players: int = 2,
        *,
        hands: int | None = 1,
        max_value: int | None = None,
        suits: str | None = None,
        sylops: int | None = None,
        bet_sizes: Sequence[BetSize] | None = None,
        history: int = 16,
        collapse_chance: bool = False,
        rolls: str = "chance",
        reward: str = "net",
        **options: Any,
    ) -> None:
        check_reward(reward)
        info = lookup(variant)
        if rolls not in ("chance", "fixed"):
            raise OptionError(f"rolls={rolls!r}: must be 'chance' or 'fixed'")
        self.fixed_rolls = rolls == "fixed"
        opts = dict(options)
        names = info.options_type.names()
        unused = getattr(info.options_type, "unused", ())
        if hands is not None:
            if "max_hands" in names and "max_hands" not in unused:
                opts.setdefault("max_hands", hands)
            else:
                opts.setdefault("game_end", f"hands:{hands}")
        self.info = info
        self.variant = info.name
        self.options = info.options_type.from_mapping(opts)
        self.n = num_players
        full = info.deck.cards
        cards = None
        if max_value is not None or suits is not None or sylops is not None:
            cards = tuple(deck_subset(full, max_value, suits, sylops))
        self.cards = cards
        probe: Game = info.game_type(
            self.options, seed=0, players=num_players, log=False, cards=cards
        )
        self.deck = probe.deck
        self.unit = probe.bet_unit
        self.table = ActionTable(info, self.options, bet_sizes)
        self.encoder = ObservationEncoder(info, self.options, num_players)
        self.history = history
        self.collapse_chance = collapse_chance
        #: The reward convention (:mod:`sabacc.apps.rl.core`): the returns are the game's
        #: payoffs (``"net"``) or those less their mean (``"zero_sum"``).
        self.reward = reward
        self.zero_sum = reward == "zero_sum" or (
            "final_pot" in names
            and "final_pot" not in unused
            and getattr(self.options, "final_pot", "") == "split"
        )
        self.buy_in = self.options.starting_stack
        private = PRIVATE_BLOCKS | {b.name for b in self.encoder.spec.blocks if b.private}
        self._private = private
        self.observation_size = self.encoder.size
        self._step = self.n + len(self.encoder.spec.last_actions.heads) + len(self.table)
        self.information_state_size = self.encoder.size + history * self._step
        #: The most outcomes a chance node can have (a shuffle of the whole deck, the dice,
        #: the seats, a hand's cards).
        self.max_chance_outcomes = max(len(self.deck), 6, num_players, 16)
        self._collapsed: dict[str, list[float] | None] = {}

    def new_state(self) -> ResearchState:
        return ResearchState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> ResearchGame:
        return self  # shared by its states (nothing in it changes as they play)

    @property
    def num_actions(self) -> int:
        return len(self.table)

    def blocks(self, information_state: bool = False) -> list[tuple[str, int, int, str]]:
        """``(name, start, size, "public" | "private")`` of every block of the tensor."""
        out = [
            (name, start, size, "private" if name in self._private else "public")
            for name, start, size in self.encoder.blocks()
        ]
        if information_state:
            out.append(("history", self.encoder.size, self.history * self._step, "public"))
        return out

    def private_mask(self, information_state: bool = False) -> npt.NDArray[np.bool_]:
        """True where a tensor holds the observer's private information."""
        size = self.information_state_size if information_state else self.observation_size
        mask = np.zeros(size, dtype=bool)
        for _name, start, width, part in self.blocks(information_state):
            if part == "private":
                mask[start : start + width] = True
        return mask


class ResearchState:
    """A state of a :class:`ResearchGame`: a chance node, a decision, or the end."""

    def __init__(self, game: ResearchGame) -> None:
        self.rg = game
        self.cg = ChanceGame(
            game.info, game.options, game.n, cards=game.cards, fixed_rolls=game.fixed_rolls
        )
        n = game.n
        #: Per player: what it saw after every completed step, and its own actions.
        self.traces: list[list[str]] = [[] for _ in range(n)]
        #: Every decision: (seat, action index).
        self.decisions: list[tuple[int, int]] = []
        self._publics: list[int] = []  # public kind of every decision (its last-action slot)
        self._expected: list[float] | None = None
        self._merged: list[tuple[int, Fraction]] | None = None
        self._results = 0
        self._after_step()

    # ------------------------------------------------------------------ stepping
    def _after_step(self) -> None:
        self._merged = None
        if self.cg.is_chance_node():
            if self.rg.collapse_chance and self.cg.game is not None:
                self._expected = self._expectation()
            return
        game = self.cg.game
        assert game is not None
        # What each seat saw: its seat view (everything its observation shows the encoder)
        # and, when a hand has ended, the hand's result as the table saw it (the showdown).
        results = game.hand_results
        shown = repr(results[-1].to_dict()) if len(results) != self._results else ""
        self._results = len(results)
        for p in range(self.rg.n):
            self.traces[p].append(repr(game.seat_view(p)) + shown)

    def _expectation(self) -> list[float] | None:
        """The exact expected payoffs over the chance from here when the game ends with no
        decision left (None when some outcome leads to a decision). Depth first, so a deal
        (a decision after it) is recognised after one path."""
        key = self._key()
        memo = self.rg._collapsed
        if key in memo:
            return memo[key]
        total = [0.0] * self.rg.n
        stack: list[tuple[ChanceGame, float]] = [(self.cg, 1.0)]
        result: list[float] | None = total
        while stack:
            cg, p = stack.pop()
            if cg.is_chance_node():
                for outcome, q in _merge(cg):
                    nxt = cg.clone()
                    nxt.apply_chance(outcome)
                    stack.append((nxt, p * float(q)))
                continue
            game = cg.game
            assert game is not None
            if not game.is_over:
                result = None
                break
            pay = game.payoffs
            for s in range(self.rg.n):
                total[s] += p * pay[s]
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = result
        return result

    def _key(self) -> str:
        """The whole reference state behind this node (every attribute but the logs and the
        RNG), its pending action and the outcomes chosen: equal keys, equal futures."""
        cg = self.cg
        base = cg.game
        assert base is not None
        items = sorted(
            (k, sorted(v) if type(v) is set else v)
            for k, v in base.__dict__.items()
            if k not in _NOT_STATE
        )
        # The order of the cards within a hand changes nothing ahead.
        items = [(k, [sorted(c.id for c in h) for h in v] if k == "hands" else v) for k, v in items]
        return repr((items, str(cg.pending), cg._feed))

    def is_chance_node(self) -> bool:
        return self._expected is None and self.cg.is_chance_node()

    def is_terminal(self) -> bool:
        return self._expected is not None or self.cg.is_over

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The chance node's outcomes with exact probabilities (alike cards merged)."""
        if self._merged is None:
            self._merged = _merge(self.cg)
        return self._merged

    def apply_chance(self, outcome: int) -> None:
        self.cg.apply_chance(outcome)
        self._after_step()

    @property
    def current_player(self) -> int | None:
        """The seat to act; None at a chance node or at the end."""
        if self._expected is not None:
            return None
        return self.cg.current_player

    def _situation(self) -> tuple[Any, int, int]:
        game = self.cg.game
        assert game is not None
        seat = game.current_player
        legal = game.legal()
        to_call = max(0, game.cur_bet - game.round_bet[seat]) if seat is not None else 0
        return legal, game.pot_total(), to_call

    def legal_mask(self) -> npt.NDArray[np.int8]:
        if self.current_player is None:
            return np.zeros(self.rg.num_actions, dtype=np.int8)
        return self.rg.table.mask(self._situation()[0])

    def legal_indices(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.legal_mask())]

    def apply_index(self, index: int) -> None:
        seat = self.current_player
        if seat is None:
            raise OptionError("no decision now: a chance node or the end")
        legal, pot, to_call = self._situation()
        action = self.rg.table.decode(index, legal, pot, to_call)
        if action is None:
            raise OptionError(f"action index {index} is not legal now")
        self.decisions.append((seat, index))
        self.traces[seat].append(f"me:{self.rg.table.labels[index]}")
        self.cg.apply(action)
        self._publics.append(self.rg.encoder.spec.last_actions.index(str(action)))  # public
        self._after_step()

    def action_label(self, index: int) -> str:
        return self.rg.table.labels[index]

    def chance_label(self, outcome: int) -> str:
        node = self.cg.node
        return node.labels[outcome] if node is not None else str(outcome)

    def returns(self) -> list[float]:
        """Each seat's net credits (0 before the end), less their mean under the
        ``"zero_sum"`` reward convention."""
        if self._expected is not None:
            values = list(self._expected)
        elif not self.cg.is_over:
            return [0.0] * self.rg.n
        else:
            game = self.cg.game
            assert game is not None
            values = [float(x) for x in game.payoffs]
        return centred(values) if self.rg.reward == "zero_sum" else values

    # ------------------------------------------------------------------ information
    def _view_game(self) -> Game | None:
        return self.cg.game

    def observation_tensor(self, player: int) -> Vector:
        game = self._view_game()
        if game is None:
            return np.zeros(self.rg.observation_size, dtype=np.float32)
        return np.array(self.rg.encoder.encode_view(game.seat_view(player), self.rg.unit))

    def information_state_tensor(self, player: int) -> Vector:
        rg = self.rg
        out = np.zeros(rg.information_state_size, dtype=np.float32)
        out[: rg.observation_size] = self.observation_tensor(player)
        n = rg.n
        nk = len(rg.encoder.spec.last_actions.heads)
        recent = list(zip(self.decisions, self._publics, strict=True))[-rg.history :]
        for k, ((seat, index), public) in enumerate(recent):
            at = rg.observation_size + k * rg._step
            out[at + (seat - player) % n] = 1.0
            if public >= 0:
                out[at + n + public] = 1.0
            if seat == player:
                out[at + n + nk + index] = 1.0
        return out

    def observation_string(self, player: int) -> str:
        trace = self.traces[player]
        last = next((t for t in reversed(trace) if not t.startswith("me:")), "")
        return f"p{player} {last}" + (" (chance)" if self.cg.is_chance_node() else "")

    def information_state_string(self, player: int) -> str:
        """Perfect recall: every observation ``player`` had and its own actions, in order."""
        tail = ""
        if self.cg.is_chance_node():
            tail = f"|chance {sum(1 for s, _ in self.cg.history if s < 0)}"
            if self.cg.game is None:  # the deal: how far it has gone is all anyone knows
                return f"p{player} deal{tail}"
            tail = f"|pending {len(self.cg._feed)}"
        return f"p{player}|" + "|".join(self.traces[player]) + tail

    # ------------------------------------------------------------------ search
    def clone(self) -> ResearchState:
        new = object.__new__(ResearchState)
        new.__dict__.update(self.__dict__)
        new.cg = self.cg.clone()
        new.traces = [t[:] for t in self.traces]
        new.decisions = self.decisions[:]
        new._publics = self._publics[:]
        new._expected = list(self._expected) if self._expected is not None else None
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> ResearchState:
        return self.clone()

    def resample_from_infostate(self, player: int, rng: random.Random) -> ResearchState:
        """A state with the same information state for ``player``: every card it cannot see
        re-dealt among the places it cannot see (``Game.determinize``)."""
        new = self.clone()
        new.cg = self.cg.resample(player, rng)
        new._merged = None
        if self._expected is not None:  # a collapsed end: the new state's own expectation
            new._expected = new._expectation()
        return new


_NOT_STATE = frozenset(
    {"rng", "events", "actions", "_pending", "_legal", "hand_results", "log", "seed"}
)


def _merge(cg: ChanceGame) -> list[tuple[int, Fraction]]:
    """The chance node's outcomes, those with the same label (alike cards) merged into their
    first one."""
    node = cg.node
    assert node is not None
    first: dict[str, int] = {}
    weight: dict[int, int] = {}
    for i, label in enumerate(node.labels):
        j = first.setdefault(label, i)
        weight[j] = weight.get(j, 0) + 1
    return [(i, Fraction(w, node.size)) for i, w in weight.items()]
