"""Chance mode: every random event of a game as an explicit chance node with its exact outcomes.

The reference engine draws all its randomness from one seeded ``random.Random`` (``Game.rng``),
through four primitives: :meth:`Game._shuffled` (a whole pile), ``rng.shuffle``,
``rng.randrange`` (dice, a random card of a hand, the starting seat) and ``rng.sample`` (Kessel's
shift-token draft). Every one of them reduces to a sequence of *uniform choices among k*
(Python's ``_randbelow(k)``): a shuffle of ``L`` cards is ``L - 1`` of them (Fisher-Yates from the
top of the pile, so the first outcomes are the first cards dealt), a die is one.

* :class:`ChanceSource` is an RNG that takes those choices from a list of outcomes and, when the
  list runs out, stops the engine by raising :class:`ChanceNeeded` with the :class:`ChanceNode`
  (kind, number of outcomes, their labels). It has no continuous randomness.
* :class:`ChanceGame` is a game in chance mode: the decision points of the reference engine,
  and between them the chance nodes (``is_chance_node()``, ``chance_outcomes()`` with exact
  :class:`~fractions.Fraction` probabilities, ``apply_chance(outcome)``). A step that needs
  chance (the deal, or an action whose consequences roll dice or draw from a shuffled pile) is
  replayed from the state before it with the outcomes chosen so far; the engine stays pure and
  unchanged.
* :class:`RecordingRandom` is the seeded RNG (it draws exactly what ``random.Random(seed)``
  draws, so a game on it is the seeded game) that also records each draw as those outcomes: a
  chance-mode game fed them reaches the same states (``tests/apps/rl/test_chance.py``).

The seeded mode stays the default: a game built without ``rng=`` is exactly what it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from sabacc.core.actions import Action
from sabacc.core.cards import Card
from sabacc.core.errors import IllegalActionError

if TYPE_CHECKING:
    from sabacc.core.options import Options
    from sabacc.engine.game import Game
    from sabacc.engine.variant import VariantInfo

ChanceKind = Literal["shuffle", "roll", "sample"]


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """One kind of random event a variant has (declared in ``VariantInfo.chance``).

    ``kind``: ``"shuffle"`` (a pile is shuffled: one chance node per card, each outcome a card),
    ``"roll"`` (a uniform choice among ``sides``: a die; ``sides=None`` when the count varies,
    such as a random card of a hand or a starting seat) or ``"sample"`` (a draw without
    replacement from a list that is not cards). ``what`` says when it happens.
    """

    kind: ChanceKind
    what: str
    sides: int | None = None

    def covers(self, node: ChanceNode) -> bool:
        return self.kind == node.kind and (self.sides is None or self.sides == node.size)


@dataclass(frozen=True, slots=True)
class ChanceNode:
    """A chance node: ``size`` outcomes ``0..size-1``, each of probability ``1/size``."""

    kind: ChanceKind
    size: int
    labels: tuple[str, ...]

    def outcomes(self) -> list[tuple[int, Fraction]]:
        """Every outcome with its exact probability."""
        p = Fraction(1, self.size)
        return [(i, p) for i in range(self.size)]


class ChanceNeeded(Exception):
    """Raised by :class:`ChanceSource` when the engine needs an outcome not yet chosen."""

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(f"a chance outcome is needed: {node.kind} of {node.size}")
        self.node = node


class ChanceSource(random.Random):
    """An RNG whose uniform choices are given (``feed``); it raises :class:`ChanceNeeded` when
    they run out. ``shuffle``, ``randrange``, ``sample`` and ``Game._shuffled`` (through
    :meth:`shuffled`) work; ``random()`` (continuous) does not exist in chance mode."""

    def __init__(self, feed: Sequence[int] = (), *, fixed_rolls: bool = False) -> None:
        super().__init__(0)
        self.feed = list(feed)
        self.pos = 0
        self._context: tuple[ChanceKind, Sequence[Any] | None] = ("roll", None)
        #: A reduced game: every roll is fixed (the k-th of a step shows face ``k % sides``:
        #: the Spike dice 1 and 2, never doubles) instead of a chance node.
        self.fixed_rolls = fixed_rolls
        self._rolls = 0

    def _randbelow(self, n: int) -> int:
        if self.fixed_rolls and self._context[0] == "roll":
            self._rolls += 1
            return (self._rolls - 1) % n
        if self.pos < len(self.feed):
            value = self.feed[self.pos]
            if not 0 <= value < n:
                raise IllegalActionError(f"chance outcome {value} is not in 0..{n - 1}")
            self.pos += 1
            self._context = ("roll", None)
            return value
        kind, items = self._context
        if items is not None:
            labels = tuple(str(x) for x in items[:n])
        elif kind == "roll":
            labels = tuple(f"{i + 1} of {n}" for i in range(n))
        else:
            labels = tuple(f"#{i}" for i in range(n))
        raise ChanceNeeded(ChanceNode(kind, n, labels))

    def random(self) -> float:
        raise TypeError("chance mode has no continuous randomness: use shuffled() or randrange()")

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher-Yates from the end (the top of a pile), exactly as ``random.shuffle``."""
        for i in reversed(range(1, len(x))):
            self._context = ("shuffle", x)
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        """A shuffled copy (what ``Game._shuffled`` returns in chance mode)."""
        out = list(cards)
        self.shuffle(out)
        return out

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        self._context = ("sample", None)
        chosen: list[Any] = super().sample(population, k, counts=counts)
        return chosen


class RecordingRandom(random.Random):
    """``random.Random(seed)`` that also records every draw as chance outcomes (:attr:`outcomes`)
    in the order a :class:`ChanceSource` consumes them. Games on it are the seeded games."""

    def __init__(self, seed: int) -> None:
        self.outcomes: list[int] = []
        super().__init__(seed)

    def _randbelow(self, n: int) -> int:
        value: int = super()._randbelow(n)  # type: ignore[misc]
        self.outcomes.append(value)
        return value

    def shuffled(self, cards: Sequence[Card]) -> list[Card]:
        """The seeded engine's shuffle (sorting by random keys), recorded as the Fisher-Yates
        choices that give the same order."""
        rand = self.random
        out = sorted(cards, key=lambda _: rand())
        x = list(cards)
        where = {id(c): k for k, c in enumerate(x)}
        for i in reversed(range(1, len(x))):
            j = where[id(out[i])]
            self.outcomes.append(j)
            x[i], x[j] = x[j], x[i]
            where[id(x[i])] = i
            where[id(x[j])] = j
        return out


class ChanceGame:
    """A game of ``info`` in chance mode (see the module docstring).

    At a chance node ``current_player`` is ``None`` and :meth:`chance_outcomes` lists the
    outcomes; at a decision it is the seat to act, as in the reference engine; ``game`` is the
    reference engine's state at the last completed step (``None`` only before the deal is
    complete). ``cards`` plays with a subset of the variant's deck (the solver sub-games).
    """

    def __init__(
        self,
        info: VariantInfo,
        options: Options,
        players: int,
        *,
        cards: Sequence[Card] | None = None,
        fixed_rolls: bool = False,
    ) -> None:
        self.info = info
        self.fixed_rolls = fixed_rolls
        self.options = options
        self.players = players
        self.cards = tuple(cards) if cards is not None else None
        self.game: Game | None = None
        self.node: ChanceNode | None = None
        self._action: Action | None = None  # the action being resolved (None: the deal)
        self._feed: list[int] = []
        #: Every step so far: ``(-1, outcome)`` for chance, ``(seat, action text)`` for actions.
        self.history: list[tuple[int, int | str]] = []
        self._resolve()

    # ------------------------------------------------------------------ stepping
    def _make(self, source: ChanceSource) -> Game:
        if self._action is None:
            return self.info.game_type(
                self.options,
                seed=0,
                players=self.players,
                log=False,
                rng=source,
                cards=self.cards,
            )
        assert self.game is not None
        game = self.game.clone(log=False)
        game.rng = source
        game.apply(self._action)
        return game

    def _resolve(self) -> None:
        source = ChanceSource(self._feed, fixed_rolls=self.fixed_rolls)
        try:
            game = self._make(source)
        except ChanceNeeded as need:
            self.node = need.node
            return
        if source.pos != len(self._feed):  # pragma: no cover - the engine is deterministic
            raise RuntimeError("a replayed step used fewer chance outcomes than it was given")
        self.node = None
        self.game = game
        self._action = None
        self._feed = []

    def is_chance_node(self) -> bool:
        return self.node is not None

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The outcomes of the chance node with their exact probabilities."""
        if self.node is None:
            raise IllegalActionError("not a chance node")
        return self.node.outcomes()

    def apply_chance(self, outcome: int) -> None:
        if self.node is None:
            raise IllegalActionError("not a chance node")
        if not 0 <= outcome < self.node.size:
            raise IllegalActionError(f"chance outcome {outcome} is not in 0..{self.node.size - 1}")
        self._feed.append(outcome)
        self.history.append((-1, outcome))
        self._resolve()

    @property
    def current_player(self) -> int | None:
        """The seat to act (None at a chance node and once the game is over)."""
        if self.node is not None or self.game is None:
            return None
        return self.game.current_player

    @property
    def is_over(self) -> bool:
        return self.node is None and self.game is not None and self.game.is_over

    def legal_actions(self) -> list[Action]:
        if self.node is not None or self.game is None:
            return []
        return self.game.legal_actions()

    def apply(self, action: Action | str) -> None:
        """Apply the current player's action (then chance nodes may follow)."""
        if self.node is not None or self.game is None:
            raise IllegalActionError("a chance outcome is due, not an action")
        game = self.game
        act = game.parse_action(action)
        seat = game.current_player
        if seat is None or not game.is_legal(act):
            raise IllegalActionError(f"{act} is not legal now")
        self._action = act
        self._feed = []
        self.history.append((seat, str(act)))
        self._resolve()

    @property
    def pending(self) -> Action | None:
        """The action whose chance outcomes are being chosen (None: none, or the deal)."""
        return self._action

    # ------------------------------------------------------------------ search
    def clone(self) -> ChanceGame:
        new = object.__new__(ChanceGame)
        new.__dict__.update(self.__dict__)  # ``game`` is never changed in place: shared
        new._feed = self._feed[:]
        new.history = self.history[:]
        return new

    def resample(self, viewer: int, rng: random.Random) -> ChanceGame:
        """A state ``viewer`` cannot tell from this one: what it cannot see is re-dealt
        (``Game.determinize``); the chance outcomes being chosen, if any, are kept."""
        new = self.clone()
        if self.game is not None:
            det = self.game.determinize(viewer, rng)
            det.rng = ChanceSource(fixed_rolls=self.fixed_rolls)
            new.game = det
        if new.node is not None and new.game is not None:
            new._resolve()
        return new


def play_recorded(
    info: VariantInfo,
    options: Options,
    players: int,
    seed: int,
    choose: Callable[[Game], Action],
    *,
    cards: Sequence[Card] | None = None,
    max_actions: int = 10_000,
) -> tuple[Game, list[Action], list[int]]:
    """Play a seeded game (``choose`` picks each action) on a :class:`RecordingRandom`; return
    it, the actions and the chance outcomes it drew (for determinism tests and tools)."""
    rng = RecordingRandom(seed)
    game = info.game_type(options, seed=seed, players=players, log=False, rng=rng, cards=cards)
    actions: list[Action] = []
    while not game.is_over and len(actions) < max_actions:
        action = choose(game)
        actions.append(action)
        game.apply(action)
    return game, actions, rng.outcomes
