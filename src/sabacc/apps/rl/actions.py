"""The fixed discrete action space of a variant: index <-> :class:`~sabacc.core.actions.Action`.

Every variant gets one table, the same for every seat and every decision. Its first entries are
the "fixed" actions (no size): each declared action kind's RL slots
(:attr:`ActionKind.slots <sabacc.engine.actions.ActionKind.slots>`), in the order the variant
lists its kinds; then a subset kind's slots; then one entry per bet size and one per raise size:

=========================  ===================================================================
``corellian_spike``        stand, check, call, junk, gain, swap discard <v> (v = -10..+10),
                           swap draw <v>, bet <size>..., raise <size>...
``surabat_cycle``          stand, check, call, junk, gain <v> (a Sun card), swap moon <v>,
                           discard <v>, bet <size>..., raise <size>...
``classic``                stand, check, call, junk, call hand, gain, swap draw <v> (v = each of
                           the 23 card values), bet <size>..., raise <size>...
``coruscant_shift``        check, call, junk, keep #1..#31, bet <size>..., raise <size>...
=========================  ===================================================================

**Subsets** (a kind whose control is a subset: "choose a subset of your cards"). Its declared
``subsets`` (the most subsets one decision lists) are its slots; index ``keep #j`` is the
``j``-th action of that kind in the decision's legal list, in the variant's order (Coruscant
Shift: by the binary mask of hand positions, so with five distinct cards ``keep #j`` keeps the
cards whose positions are the bits of ``j``).

``stand``, ``check``, ``call`` come first on purpose: the lowest legal index is always the
passive choice (stand, check, call), which is what the environments play for an illegal index
(``illegal_action="fallback"``) and for a seat whose agent hit ``max_cycles``.

**Bet sizes.** Bets and raises are discretised. A size is

* ``"min"``: the smallest legal amount; ``"max"``: the largest (all-in under no-limit);
* a float ``f``: ``f`` times the pot, rounded, then clipped into the legal range. The pot is
  the main pot (every stake of the hand so far); for a raise it is the main pot after the call
  (the poker "pot-sized raise"), and a raise amount is the increment over the current bet;
* an int ``k``: exactly ``k`` credits, legal only when ``k`` is inside the legal range.

Defaults: Spike and Surabat ``("min", 0.5, 1.0, 2.0, "max")``; classic, whose bets are 1 to
``bet_limit`` credits, every exact amount ``1..bet_limit`` (when ``bet_limit`` <= 10).

An index is legal (mask 1) exactly when the action it decodes to is legal. Two bet indices may
decode to the same action (half pot and pot, when the pot is small): both are legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from sabacc.core.actions import Action, Bet, Raise
from sabacc.core.errors import OptionError
from sabacc.core.options import Options
from sabacc.engine.actions import Control
from sabacc.engine.betting import Legal
from sabacc.engine.observation import Observation
from sabacc.engine.variant import VariantInfo
from sabacc.variants.registry import lookup

BetSize = str | float | int
Mask = npt.NDArray[np.int8]

#: Default bet/raise sizes of the no-limit Spike family.
DEFAULT_SIZES: tuple[BetSize, ...] = ("min", 0.5, 1.0, 2.0, "max")


def default_bet_sizes(variant: str, options: Options) -> tuple[BetSize, ...]:
    """The default sizes for a variant (its RL feature spec's ``bet_sizes``; see the module
    docstring)."""
    spec = lookup(variant).rl_spec
    if spec is not None and spec.bet_sizes is not None:
        return spec.bet_sizes(options)
    return DEFAULT_SIZES


def _check_size(size: object) -> BetSize:
    if isinstance(size, bool):
        raise OptionError(f"bet size {size!r}: use 'min', 'max', a pot fraction or credits")
    if isinstance(size, str):
        text = size.strip().lower()
        if text in ("min", "max"):
            return text
        if text in ("all_in", "allin", "all-in"):
            return "max"
        try:
            return _check_size(float(text) if "." in text else int(text))
        except ValueError:
            raise OptionError(
                f"bet size {size!r}: use 'min', 'max', a pot fraction (0.5) or credits (3)"
            ) from None
    if isinstance(size, int):
        if size < 1:
            raise OptionError(f"bet size {size}: an exact amount must be at least 1 credit")
        return size
    if isinstance(size, float):
        if not size > 0:
            raise OptionError(f"bet size {size}: a pot fraction must be positive")
        return size
    raise OptionError(f"bet size {size!r}: use 'min', 'max', a pot fraction or credits")


def _size_label(size: BetSize) -> str:
    if isinstance(size, str):
        return size
    if isinstance(size, float):
        return f"{size:g}pot"
    return str(size)


class ActionTable:
    """The index <-> action mapping of one variant (see the module docstring).

    ``labels[i]`` names index ``i`` (``"swap draw -3"``, ``"bet 0.5pot"``, ``"raise max"``).
    """

    def __init__(self, info: VariantInfo, options: Options, bet_sizes: Sequence[Any] | None = None):
        self.variant = info.name
        values = sorted(set(info.deck.values))
        self.values: tuple[int, ...] = tuple(values)
        fixed: list[Action] = []
        keep_slots = 0
        subset_kinds = [kind for kind in info.actions if kind.control is Control.SUBSET]
        if len(subset_kinds) > 1:
            raise OptionError(f"{info.name}: the action table holds one subset kind at most")
        #: The subset kind's class (its actions fill the ``keep #j`` slots), if any.
        self.subset_type: type[Action] | None = subset_kinds[0].cls if subset_kinds else None
        for kind in info.actions:
            if kind.control is Control.SUBSET:
                keep_slots = kind.subsets
            elif kind.slots is not None:
                fixed.extend(kind.slots(values, options))
        self.fixed: tuple[Action, ...] = tuple(fixed)
        self.fixed_index: dict[Action, int] = {a: i for i, a in enumerate(fixed)}
        self.keep_base = len(fixed)
        self.keep_slots = keep_slots
        raw = default_bet_sizes(info.name, options) if bet_sizes is None else bet_sizes
        sizes = tuple(_check_size(s) for s in raw)
        if not sizes and bet_sizes is not None:  # a variant without betting declares none
            raise OptionError("bet_sizes: give at least one size")
        self.sizes: tuple[BetSize, ...] = sizes
        self.bet_base = len(fixed) + keep_slots
        self.raise_base = self.bet_base + len(sizes)
        self.n = self.raise_base + len(sizes)
        self.labels: tuple[str, ...] = tuple(
            [str(a) for a in fixed]
            + [f"keep #{j + 1}" for j in range(keep_slots)]
            + [f"bet {_size_label(s)}" for s in sizes]
            + [f"raise {_size_label(s)}" for s in sizes]
        )
        # Per size: (kind, number) with kind 0 = min, 1 = max, 2 = pot fraction, 3 = exact.
        self._size_code: tuple[tuple[int, float], ...] = tuple(
            (0, 0.0)
            if s == "min"
            else (1, 0.0)
            if s == "max"
            else (2, float(s))
            if isinstance(s, float)
            else (3, float(s))
            for s in sizes
        )
        self._clipped = tuple(j for j, (kind, _) in enumerate(self._size_code) if kind != 3)
        self._exact = tuple((j, int(x)) for j, (kind, x) in enumerate(self._size_code) if kind == 3)
        self._zero = bytearray(self.n)
        self._by_id: dict[int, tuple[Action, int]] = {}

    def __len__(self) -> int:
        return self.n

    @property
    def size_codes(self) -> tuple[tuple[int, float], ...]:
        """Each bet size as ``(kind, number)``: kind 0 = min, 1 = max, 2 = pot fraction
        ``number``, 3 = exactly ``number`` credits (what compiled engines decode)."""
        return self._size_code

    def describe(self) -> list[str]:
        """``"<index>: <label>"`` for every index (for docs and debugging)."""
        return [f"{i}: {label}" for i, label in enumerate(self.labels)]

    # ------------------------------------------------------------------ sizes
    def amount(self, j: int, lo: int, hi: int, pot: int) -> int | None:
        """The amount of size ``j`` for legal range ``[lo, hi]`` and pot ``pot`` (None: illegal)."""
        kind, x = self._size_code[j]
        if kind == 0:
            return lo
        if kind == 1:
            return hi
        if kind == 2:
            amt = int(x * pot + 0.5)
            return lo if amt < lo else hi if amt > hi else amt
        k = int(x)
        return k if lo <= k <= hi else None

    # ------------------------------------------------------------------ masks
    def scan(self, legal: Legal) -> tuple[bytearray, dict[int, Action]]:
        """The mask of ``legal`` as a bytearray of 0/1, and its fixed actions by index (the
        very objects of ``legal.fixed``, which the engine then recognises by identity)."""
        m = self._zero[:]
        found: dict[int, Action] = {}
        by_id = self._by_id
        keeps = 0
        subset = self.subset_type
        for action in legal.fixed:
            if type(action) is subset:
                if keeps >= self.keep_slots:
                    raise KeyError(f"{action}: more subsets than the {self.variant} table holds")
                m[self.keep_base + keeps] = 1
                found[self.keep_base + keeps] = action
                keeps += 1
                continue
            hit = by_id.get(id(action))
            if hit is not None and hit[0] is action:
                i = hit[1]
            else:  # hashing a dataclass is slow: remember interned actions by identity
                j = self.fixed_index.get(action)
                if j is None:
                    raise KeyError(f"{action} is missing from the {self.variant} action table")
                if len(by_id) > 4096:  # only non-interned actions can fill it
                    by_id.clear()
                by_id[id(action)] = (action, j)  # holding the action keeps its id unique
                i = j
            m[i] = 1
            found[i] = action
        # min, max and pot fractions are clipped into the range: only exact sizes can miss it.
        for rng, base in ((legal.bet, self.bet_base), (legal.raise_, self.raise_base)):
            if rng is None:
                continue
            lo, hi = rng
            for j in self._clipped:
                m[base + j] = 1
            for j, k in self._exact:
                if lo <= k <= hi:
                    m[base + j] = 1
        return m, found

    def mask(self, legal: Legal) -> Mask:
        """The action mask (int8, 1 = legal) of a decision whose legal actions are ``legal``.

        Whether a sized index is legal depends only on the legal range, never on the pot: a
        pot fraction is clipped into the range, so it is legal whenever betting is.
        """
        return np.frombuffer(self.scan(legal)[0], dtype=np.int8)

    def decode(self, index: int, legal: Legal, pot: int, to_call: int) -> Action | None:
        """The action of ``index`` at this decision, or ``None`` if it is not legal."""
        if self.keep_base <= index < self.bet_base:
            keeps = [a for a in legal.fixed if type(a) is self.subset_type]
            j = index - self.keep_base
            return keeps[j] if j < len(keeps) else None
        if 0 <= index < self.keep_base:
            action = self.fixed[index]
            return action if action in legal.fixed else None
        if self.bet_base <= index < self.raise_base:
            if legal.bet is None:
                return None
            lo, hi = legal.bet
            amt = self.amount(index - self.bet_base, lo, hi, pot)
            return None if amt is None else Bet(amt)
        if self.raise_base <= index < self.n:
            if legal.raise_ is None:
                return None
            lo, hi = legal.raise_
            amt = self.amount(index - self.raise_base, lo, hi, pot + to_call)
            return None if amt is None else Raise(amt)
        return None

    def fixed_index_of(self, action: Action, legal: Legal) -> int:
        """The one index of a fixed legal action (a subset: its keep slot in ``legal``)."""
        if type(action) is self.subset_type:
            keeps = [a for a in legal.fixed if type(a) is self.subset_type]
            return self.keep_base + keeps.index(action)
        return self.fixed_index[action]

    def encode(self, action: Action, legal: Legal, pot: int, to_call: int) -> list[int]:
        """Every index that decodes to ``action`` at this decision (empty: not representable)."""
        return [i for i in range(self.n) if self.decode(i, legal, pot, to_call) == action]

    # ------------------------------------------------------------------ from an observation
    @staticmethod
    def situation(observation: Observation) -> tuple[Legal, int, int]:
        """``(legal, pot, to_call)`` from a JSON observation (what a bot is given)."""
        parse = lookup(observation["variant"]).parse_action
        spec = observation["legal"]
        bet = spec["bet"]
        raise_ = spec["raise"]
        legal = Legal(
            tuple(parse(a) for a in spec["actions"]),
            (bet[0], bet[1]) if bet else None,
            (raise_[0], raise_[1]) if raise_ else None,
        )
        return legal, observation["pots"]["main"], observation["betting"]["to_call"]

    def mask_from_observation(self, observation: Observation) -> Mask:
        """The mask of the seat's decision in a JSON observation (all zeros: not its turn)."""
        return self.mask(self.situation(observation)[0])
