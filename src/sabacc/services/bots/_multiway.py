"""Multi-way play for the ``sharp`` family: what changes when two or more opponents are in.

``sharp`` prices a hand against several opponents as the product of its chances against each
(``p = q1 * q2 * ...``), as if every live opponent will be at the showdown, and bets, calls and
probes on that ``p`` with its heads-up thresholds. At a table of four that is very tight: most
opponents who have not bet will junk before the showdown, and the bot folds and checks hands a
multi-way pot pays for. These levers (:class:`~sabacc.services.bots._expert.Params` fields named
``mw_*``, all off by default so ``sharp`` and ``shrewd`` play as before) change the multi-way
decisions only, each chosen by a same-deals A/B (benchmarks/bots-lab.md, "Multi-way play"):

* ``mw_passive``: the exponent of ``q`` for a live opponent who has not bet or raised this hand,
  while two or more opponents are in (1: ``sharp``'s product; below 1: it is counted as only
  partly certain to be at the showdown).
* ``mw_steal``: with nobody's bet this hand, two or more opponents in and a hand below the probe
  floor, bet ``mw_steal_size`` of the pot this often: only when acting last after checks, or
  anywhere (``mw_steal_anywhere``); only while the live opponents' counted rates of junking
  when they owe chips multiply to at least ``mw_steal_floor``, and (``mw_learn``) while this
  bot's own opening bets into several opponents have taken the pot at once at least that often
  (:class:`BetRecord`, from a prior of one in ``mw_prior``); and (``mw_open_floor``) when the
  live opponents' counted opening rates average at least that.

``canny`` (``expert.CANNY``) is ``shrewd`` with the steal anywhere, a fifth of the pot, learnt
at 15% from a prior of one in four: measured, the record is the one signal that tells a
table of ``sharp`` (whose multi-way junks let a fifth of such bets take the pot at once) from
one of callers (the heuristic, the reference stations: none), at the cost of three failed
steals a game against callers.

The functions take plain values, not the bot, so the module depends on nothing above it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def acting_order(dealer: int, seats: int, live: Sequence[int]) -> list[int]:
    """``live`` seats in betting order: from the dealer's left round to the dealer."""
    return sorted(live, key=lambda s: (s - dealer - 1) % seats)


def acts_last(me: int, dealer: int, seats: int, live: Sequence[int]) -> bool:
    """Whether ``me`` is the last of the seats still in (``live`` opponents and itself) to speak
    in a betting round: with nothing to call, every other one has checked."""
    order = acting_order(dealer, seats, [*live, me])
    return order[-1] == me


def passive_power(power: float, aggressive: int, opponents: int, passive_weight: float) -> float:
    """The exponent of one opponent's ``q`` in ``p``: its narrowed ``power`` if it was
    aggressive this hand or the hand is heads-up, else ``passive_weight`` (1 for ``sharp``)."""
    if aggressive or opponents < 2:
        return power
    return power * passive_weight


def steal_pays(fold_rates: Mapping[int, float], live: Sequence[int], floor: float) -> bool:
    """Whether the live opponents, from their counted fold rates, fold often enough together
    (the product of their rates at least ``floor``) for a small bet with nothing to pay."""
    together = 1.0
    for seat in live:
        together *= fold_rates.get(seat, 0.25)
    return together >= floor


class BetRecord:
    """How the table answered this bot's own opening bets into two or more opponents (nobody
    had bet that hand): how many were made and how many took the pot at once (every opponent
    junked before the bot spoke again). The table's answer to a bet does not depend on the
    bettor's hidden hand, so value bets, probes and steals all count; the record is kept
    across the hands of a game, with a prior of ``prior_wins`` in ``prior_bets``."""

    def __init__(self, prior_wins: float = 1.0, prior_bets: float = 3.0) -> None:
        self.wins = prior_wins
        self.bets = prior_bets
        #: The hand number of an opening bet not yet answered.
        self.pending: int | None = None
        #: How many steals the bot made (bets with a hand below its probe floor).
        self.steals = 0

    @property
    def rate(self) -> float:
        """The chance, as counted, that an opening bet into several opponents takes the pot."""
        return self.wins / self.bets

    def opened(self, hand: int) -> None:
        """The bot just made an opening bet into several opponents in hand ``hand``."""
        self.pending = hand

    def answered(self, hand: int, won_at_once: bool) -> None:
        """The next thing the bot saw after its pending bet (its next decision in the same
        hand, or the result of that hand): the bet took the pot at once, or it did not."""
        if self.pending is None or self.pending != hand:
            return
        self.pending = None
        self.bets += 1
        if won_at_once:
            self.wins += 1
