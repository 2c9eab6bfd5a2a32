"""The ``expert`` level's bot (private: players pick the level, never this module): ``sharp``'s
rules with ``wily``'s constants (:data:`WILY`). The lab (:mod:`sabacc.lab.sharp`) registers the
same code with the experiments' constants (``sharp``, ``shark``, ``shrewd``, ``canny``).

``sharp``: exact hand odds, value betting, and a model of each opponent's betting.

The strongest cheap player we measured (benchmarks/bots-lab.md, "The strongest bot"). It
decides from its observation only:

* **Cards.** The card action with the best expected hand quality, the expectation taken
  exactly over the values the seat has not seen (the variant's bot model, as the heuristic).
* **How strong is my hand against this opponent?** ``p``, the model's chance to beat one
  opponent's final hand (cards still to come and a Sabacc Shift included), is *conditioned on
  what each opponent did this hand*: every bet or raise an opponent made narrows its range
  towards strong hands (``p`` is raised to a power that grows with its aggression), as much as
  that opponent's aggression has meant strength. An opponent who bets or raises at almost every
  decision it is seen at (a maniac) is believed much less than one who rarely does.
* **Opponent model.** For each seat it keeps counts of the betting actions it has seen (bet or
  raise, call, check, junk), from the ``last_action`` of the seats in each observation, across
  the hands of a game, with a prior of a few ordinary actions. From them: how often the seat is
  aggressive (credibility of its bets) and how often it folds (room for bluffs).
  Heads-up, the prior also holds a share of *wild* players who bet or raise all in whatever
  they hold (``Params.wild_prior``): against a fresh aggressor ``p`` is a mixture of the
  narrowed and the unnarrowed chance, weighted by the posterior that it is wild, so an unknown
  shover's first all-in is not believed fully (issue 36); a check or call from it ends that.
* **Betting.** Value bets and raises sized to the pot when ``p`` (against every live opponent)
  is high, thinner against players who rarely fold; calls when ``p`` beats the pot odds by a
  margin; junks otherwise. Bluffs only against players seen folding often, never against a
  calling station.

Decisions take well under a millisecond (no search), so the bot meets the ≤ 1 s budget by
three orders of magnitude; the benchmark (``benchmarks/bench_bots.py``) measures it against every
bot we have and the reference opponents of :mod:`sabacc.lab.reference`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise
from sabacc.core.errors import OptionError
from sabacc.engine.bots import View
from sabacc.engine.observation import Observation
from sabacc.services.bots import _multiway as multiway
from sabacc.services.bots.base import check_turn, register_bot
from sabacc.services.bots.policy import _model, policy_action, view_from_observation

AGGRESSIVE = ("bet", "raise")


@dataclass
class Seen:
    """What one opponent has been seen doing (a prior of ordinary play included)."""

    aggressive: float = 1.0
    calls: float = 2.0
    checks: float = 2.0
    folds: float = 1.0
    #: Bets among the times it spoke with no bet to face (bet or check), prior included:
    #: a fresh opponent opens a quarter of the time, as the population we play does.
    opens: float = 1.0
    passes: float = 3.0
    #: Raises among the times it faced a bet (raise, call or junk), prior included.
    raises: float = 1.0
    answers: float = 5.0
    #: Of the opens, the large bets (at least ``Params.big_bet`` of the pot before them),
    #: prior included: a fresh opponent's large bets are rare, so fully believed.
    big_opens: float = 0.25
    #: Junks among the times it was seen answering a bet (it owed chips), prior included.
    faced_folds: float = 1.0
    faced: float = 3.0

    @property
    def total(self) -> float:
        return self.aggressive + self.calls + self.checks + self.folds

    @property
    def aggression(self) -> float:
        return self.aggressive / self.total

    @property
    def open_rate(self) -> float:
        """How often it bets when nobody has (counted over every hand seen)."""
        return self.opens / (self.opens + self.passes)

    @property
    def big_open_rate(self) -> float:
        """How often it bets large when nobody has (``Params.big_bet``)."""
        return self.big_opens / (self.opens + self.passes)

    @property
    def small_open_rate(self) -> float:
        """How often it bets small when nobody has."""
        return (self.opens - self.big_opens) / (self.opens + self.passes)

    @property
    def raise_rate(self) -> float:
        """How often it raises when facing a bet."""
        return self.raises / (self.raises + self.answers)

    @property
    def faced_fold_rate(self) -> float:
        """How often it junks when it owes chips to a bet."""
        return self.faced_folds / self.faced

    @property
    def fold_rate(self) -> float:
        """Folds among the times it answered (call, raise or junk)."""
        return self.folds / (self.folds + self.calls + self.aggressive)


@dataclass(frozen=True)
class Params:
    """The sharp bot's constants (measured, benchmarks/bots-lab.md)."""

    #: How much an opponent's actions of this hand count towards its aggression (earlier hands
    #: count fully).
    within: float = 0.3
    #: Extra exponent on p per credible bet or raise an opponent made this hand.
    narrowing: float = 1.0
    #: The narrowing is multiplied by this while card phases are still to come (hands change
    #: a lot before the last round, so an early bet says less about the final hand).
    early: float = 1.0
    #: The narrowing grows as ``credibility ** cred_power``: above 1, a player whose raises
    #: come often (a maniac) is believed even less than in proportion.
    cred_power: float = 1.0
    #: At most this much extra exponent per opponent (however many times it raised).
    cap: float = 99.0
    #: When above 0: the narrowing used when a single opponent was aggressive this hand
    #: (several aggressors keep ``narrowing``, shared among them).
    solo: float = 0.0
    #: How often a player who bets only for value would bet or raise: an opponent this
    #: aggressive or less is fully believed, one twice as aggressive half as much.
    honest: float = 0.17
    #: Below this credibility, an aggressor is expected to keep raising: the call is priced
    #: as if the stacks will go in.
    escalates: float = 0.6
    #: Call when p beats the pot odds by this much.
    call_margin: float = 0.02
    #: Bet for value above this p (against every live opponent).
    value: float = 0.56
    #: Raise for value above this p.
    raise_value: float = 0.72
    #: Value bets are ``bet_base + bet_slope * p`` of the pot; raises ``raise_base + p``.
    bet_base: float = 0.4
    bet_slope: float = 0.6
    raise_base: float = 0.5
    #: Bluff rate (with a hand below ``probe_floor``) per unit of the opponents' fold rate above
    #: ``bluff_floor`` (the product of the live opponents' fold rates).
    bluff: float = 2.0
    bluff_floor: float = 0.4
    #: A small bet (a third of the pot) when nobody has bet this hand and p is above
    #: ``probe_floor``, this often: it takes pots from players who fold too much.
    probe: float = 1.0
    probe_floor: float = 0.15
    #: Above 0: the *profile* model. Each bet an opponent made this hand narrows its range by
    #: ``profile × min(1, open_honest / its open rate) ** profile_power``, each raise by
    #: ``profile × min(1, raise_honest / its raise rate) ** profile_power`` (the rates counted
    #: across the game's hands), and a call is priced as if the stacks go in only against an
    #: aggressor who raises more than ``wild_raises`` of the bets it faces. 0: ``sharp``'s
    #: one-number credibility (``honest``, ``escalates``).
    profile: float = 0.0
    #: Above 0: the profile model's ``profile`` when more than one opponent is still in the hand.
    profile_many: float = 0.0
    #: 0: the profile model only heads-up (while one opponent is left in the hand); with more,
    #: ``sharp``'s one-number credibility and escalation.
    multiway: float = 1.0
    #: Above 0: the profile model only at tables of at most this many players (seats not out
    #: of the game); at bigger ones ``sharp``'s model throughout.
    table_max: float = 0.0
    #: The profile model's power of the credibility ratios (0: ``cred_power``, which is then
    #: also ``sharp``'s model's power).
    profile_power: float = 0.0
    open_honest: float = 0.3
    raise_honest: float = 0.2
    wild_raises: float = 0.5
    #: Above 0 (the profile model heads-up): bet sizes read. A bet of at least this fraction
    #: of the pot before it is *large*; the large and the small bets each get their own
    #: counted opening rate and credibility (``open_honest`` over it), and a large bet narrows
    #: ``big_weight`` times as much. 0: every bet alike (``open_rate``).
    big_bet: float = 0.0
    big_weight: float = 1.0
    #: Multi-way levers (:mod:`sabacc.services.bots._multiway`; the defaults are ``sharp``'s
    #: play): the exponent of ``q`` for a live opponent who has not been aggressive this hand
    #: while two or more are in; how often to bet a third of the pot with a hand below
    #: ``probe_floor`` when acting last after checks with two or more opponents in, if the
    #: product of their counted fold rates is at least ``mw_steal_floor``.
    mw_passive: float = 1.0
    mw_steal: float = 0.0
    mw_steal_floor: float = 0.0
    #: 1: the steal also when opponents are still to speak after the bot (not only last);
    #: its size, a share of the pot.
    mw_steal_anywhere: float = 0.0
    mw_steal_size: float = 0.34
    #: Above 0: steal only while this bot's own opening bets into several opponents have taken
    #: the pot at once at least this often (counted across the game's hands, a prior of 1 in
    #: 3; :class:`~sabacc.services.bots._multiway.BetRecord`).
    mw_learn: float = 0.0
    #: Above 0: steal only when the live opponents' counted opening rates average at least
    #: this (players who bet often and fold to bets; passive callers open rarely).
    mw_open_floor: float = 0.0
    #: The record's prior: one bet that took the pot in this many.
    mw_prior: float = 3.0
    #: Above 0: the prior share of *wild* players (who bet or raise, all in, at every decision
    #: whatever they hold) among fresh opponents. Against each live opponent ``p`` is then the
    #: mixture ``m q + (1 - m) q^power``, ``m`` the posterior that this seat is wild given the
    #: aggressive and passive actions counted so far (a wild seat is aggressive always, up to
    #: ``wild_slip`` a passive action; an ordinary one aggressive ``wild_honest`` of the time),
    #: so an unknown player's first shove is not believed fully and its cost stays bounded;
    #: one check or call from it and the posterior collapses to the ordinary model. Only where
    #: the profile model decides (heads-up). 0: off.
    wild_prior: float = 0.0
    wild_honest: float = 0.25
    wild_slip: float = 0.05
    #: Above 0: ``table_max`` compares the most players the game has had (not those left), so
    #: a game that started multi-way keeps ``sharp``'s model when eliminations leave two.
    mw_widest: float = 0.0


class SharpBot:
    """See the module docstring."""

    def __init__(self, seed: int | None = None, params: Params | None = None) -> None:
        self.name = "sharp"
        self.rng = random.Random(seed)
        self.params = params or Params()
        self.seen: dict[int, Seen] = {}
        self._hand: tuple[Any, Any] = (None, None)
        self._last: dict[int, str] = {}
        self._hand_aggr: dict[int, int] = {}
        self._hand_actions: dict[int, int] = {}
        self._hand_bets: dict[int, int] = {}
        self._hand_big: dict[int, int] = {}
        self._live: set[int] = set()
        self._players = 0
        self._widest = 0
        self.opening = multiway.BetRecord(1.0, self.params.mw_prior)

    # ------------------------------------------------------------------ reading the table
    def _observe(self, obs: Observation) -> None:
        """Count each opponent's new betting action (its ``last_action`` changed)."""
        hand = (obs["hand"], obs["dealer"])
        me = obs["seat"]
        if hand != self._hand:
            self._answer_of_last_hand(obs)
            self._folds_of_last_hand(obs)
            self._hand = hand
            self._last = {}
            self._hand_aggr = {}
            self._hand_actions = {}
            self._hand_bets = {}
            self._hand_big = {}
            self._live = set()
        self._players = sum(1 for s in obs["seats"] if s["status"] != "out")
        self._widest = max(self._widest, self._players)
        self._live |= {
            s["seat"]
            for s in obs["seats"]
            if s["seat"] != me and s["status"] in ("active", "all_in")
        }
        for s in obs["seats"]:
            seat = s["seat"]
            text = s["last_action"] or ""
            if seat == me or not text or self._last.get(seat) == text:
                continue
            self._last[seat] = text
            word = text.split(" ")[0]
            seen = self.seen.setdefault(seat, Seen())
            self._hand_actions[seat] = self._hand_actions.get(seat, 0) + 1
            if word in ("raise", "call") or (
                word in ("junk", "fold") and s["round_bet"] < obs["betting"]["current_bet"]
            ):
                seen.faced += 1
                if word in ("junk", "fold"):
                    seen.faced_folds += 1
            if word == "bet" or word == "check":
                if word == "bet":
                    seen.opens += 1
                else:
                    seen.passes += 1
            elif word in ("raise", "call", "junk", "fold"):
                if word == "raise":
                    seen.raises += 1
                else:
                    seen.answers += 1
            if word in AGGRESSIVE:
                seen.aggressive += 1
                self._hand_aggr[seat] = self._hand_aggr.get(seat, 0) + 1
                if word == "bet":
                    self._hand_bets[seat] = self._hand_bets.get(seat, 0) + 1
                    if self._is_big(text, obs):
                        seen.big_opens += 1
                        self._hand_big[seat] = self._hand_big.get(seat, 0) + 1
            elif word == "call":
                seen.calls += 1
            elif word == "check":
                seen.checks += 1
            elif word in ("junk", "fold"):
                seen.folds += 1

    def _is_big(self, text: str, obs: Observation) -> bool:
        """Whether a bet (``"bet N"``, just seen) was large: at least ``big_bet`` of the pot
        before it (the pot seen now, less the bet)."""
        if self.params.big_bet <= 0:
            return False
        try:
            amount = int(text.split(" ")[1])
        except (IndexError, ValueError):
            return False
        before = int(obs.get("pots", {}).get("main", 0)) - amount
        return amount >= self.params.big_bet * max(1, before)

    def _answer_of_last_hand(self, obs: Observation) -> None:
        """Whether a pending opening bet of the last hand took the pot at once (the hand ended
        with everyone else junked, this seat the winner)."""
        pending = self.opening.pending
        if pending is None:
            return
        last = obs.get("last_hand")
        if not last or last.get("hand") != pending:
            self.opening.pending = None
            return
        me = obs["seat"]
        won = last.get("reason") == "all_junked" and any(
            me in pot.get("winners", []) for pot in last.get("pots", [])
        )
        self.opening.answered(pending, won)

    def _folds_of_last_hand(self, obs: Observation) -> None:
        """Count the junks this seat did not see: a hand that ended when the others junked
        (or a showdown the seat was not in) tells who left it, from ``last_hand``."""
        last = obs.get("last_hand")
        if not last or last.get("hand") != self._hand[0] or not self._live:
            return
        stayed = {int(s) for s in last.get("hands", {})}
        for pot in last.get("pots", []):
            stayed |= set(pot.get("winners", []))
        for seat in self._live - stayed:
            if self._last.get(seat, "").split(" ")[0] not in ("junk", "fold"):
                self.seen.setdefault(seat, Seen()).folds += 1

    def credibility(self, seat: int) -> float:
        """How much this opponent's bets mean strength (1 fully, 0 not at all), from how often
        it was aggressive: in earlier hands, and in this hand's raises; this hand's bets count
        only ``within`` as much (a player betting every round of one hand is more often strong
        than wild; one raising every bet is more often wild)."""
        seen = self.seen.get(seat, Seen())
        discount = (1.0 - self.params.within) * self._hand_bets.get(seat, 0)
        aggressive = seen.aggressive - discount
        total = seen.total - discount
        return min(1.0, self.params.honest * total / max(aggressive, 1e-9))

    # ------------------------------------------------------------------ deciding
    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        check_turn(observation, legal)
        self._observe(observation)
        if len(legal) == 1:
            return legal[0]
        # A decision later in the hand of a pending opening bet: somebody answered it.
        self.opening.answered(observation["hand"], False)
        view = view_from_observation(observation, legal)
        betting = view.legal.bet is not None or view.legal.raise_ is not None
        betting = betting or view.phase == "betting"
        model = _model(view.variant)
        if not betting or model.choose(view, self.rng) is not None:
            return policy_action(view, self.rng)
        if model.folds_hopeless(view):
            junk = next((a for a in legal if type(a) is Junk), None)
            if junk is not None:
                return junk
        action = self.bet(view, observation, legal)
        quiet = not any(self._hand_aggr.values())
        if type(action) is Bet and quiet and len(self._live_opponents(observation)) > 1:
            self.opening.opened(observation["hand"])
        return action

    @staticmethod
    def _live_opponents(obs: Observation) -> list[int]:
        """The other seats still in the hand (active or all in)."""
        me = obs["seat"]
        return [
            s["seat"]
            for s in obs["seats"]
            if s["seat"] != me and s["status"] in ("active", "all_in")
        ]

    def win_chance(self, view: View, obs: Observation) -> tuple[float, list[int]]:
        """p against every live opponent, each conditioned on its bets this hand; and the
        live opponents."""
        q = _model(view.variant).win_chance(view)
        q = min(0.999, max(0.001, q))
        live = self._live_opponents(obs)
        # Several aggressors in one hand are less likely all to be strong than one: the
        # narrowing is shared among them.
        aggressors = max(1, sum(1 for s in live if self._hand_aggr.get(s, 0)))
        narrowing = self.params.narrowing / aggressors
        if aggressors == 1 and self.params.solo > 0:
            narrowing = self.params.solo
        if view.round < view.rounds:
            narrowing *= self.params.early
        profiled = self._profiled(len(live))
        if profiled:
            scale = self.params.profile
            if len(live) > 1 and self.params.profile_many > 0:
                scale = self.params.profile_many
            narrowing *= scale / self.params.narrowing
        p = 1.0
        for seat in live:
            aggr = self._hand_aggr.get(seat, 0)
            if profiled:
                bets = self._hand_bets.get(seat, 0)
                cb, cr = self.bet_credibility(seat)
                k = self.params.profile_power or self.params.cred_power
                if self.params.big_bet > 0:  # bets weighed by their size's own credibility
                    big = self._hand_big.get(seat, 0)
                    small, large = self.size_credibility(seat)
                    weight = self.params.big_weight
                    believed = (bets - big) * small**k + big * weight * large**k
                else:
                    believed = bets * cb**k
                extra = narrowing * (believed + (aggr - bets) * cr**k)
            else:
                extra = narrowing * aggr * self.credibility(seat) ** self.params.cred_power
            power = 1.0 + min(self.params.cap, extra)
            if self.params.mw_passive != 1.0:
                power = multiway.passive_power(power, aggr, len(live), self.params.mw_passive)
            m = self.wild_share(seat) if aggr and profiled else 0.0
            p *= m * q + (1.0 - m) * q**power
        return p, live

    def wild_share(self, seat: int) -> float:
        """The posterior that this opponent is a wild player (``Params.wild_prior``): Bayes
        over its counted actions beyond the prior's, each aggressive one as likely from a wild
        player as ever, each passive one ``wild_slip`` as likely."""
        prm = self.params
        if prm.wild_prior <= 0:
            return 0.0
        seen = self.seen.get(seat, Seen())
        fresh = Seen()
        aggressive = max(0.0, seen.aggressive - fresh.aggressive)
        passive = max(0.0, (seen.total - seen.aggressive) - (fresh.total - fresh.aggressive))
        wild = prm.wild_prior * prm.wild_slip**passive
        honest = (1.0 - prm.wild_prior) * prm.wild_honest**aggressive
        honest *= (1.0 - prm.wild_honest) ** passive
        return float(wild / (wild + honest))

    def bet_credibility(self, seat: int) -> tuple[float, float]:
        """The profile model's credibility of this opponent's bets and of its raises (1: as
        strong as an honest player's, less the more often it bets or raises)."""
        seen = self.seen.get(seat, Seen())
        prm = self.params
        return (
            min(1.0, prm.open_honest / seen.open_rate),
            min(1.0, prm.raise_honest / seen.raise_rate),
        )

    def size_credibility(self, seat: int) -> tuple[float, float]:
        """With bet sizes read (``big_bet``): the credibility of this opponent's small bets
        and of its large ones, each from its own counted rate."""
        seen = self.seen.get(seat, Seen())
        honest = self.params.open_honest
        return (
            min(1.0, honest / max(seen.small_open_rate, 1e-9)),
            min(1.0, honest / max(seen.big_open_rate, 1e-9)),
        )

    def _profiled(self, opponents: int) -> bool:
        """Whether the profile model decides against this many live opponents (at this
        table)."""
        prm = self.params
        players = self._widest if prm.mw_widest > 0 else self._players
        if prm.profile <= 0 or (prm.table_max > 0 and players > prm.table_max):
            return False
        return opponents <= 1 or prm.multiway > 0

    def wild(self, seat: int, opponents: int = 1) -> bool:
        """An aggressor this hand who is expected to keep raising (``opponents``: how many are
        still in the hand)."""
        if not self._hand_aggr.get(seat, 0):
            return False
        if self._profiled(opponents):
            return self.seen.get(seat, Seen()).raise_rate > self.params.wild_raises
        return self.credibility(seat) < self.params.escalates

    def bet(self, view: View, obs: Observation, legal: Sequence[Action]) -> Action:
        prm = self.params
        p, live = self.win_chance(view, obs)
        pot = max(1, view.pot)
        unit = max(1, view.unit)
        fold_rate = 1.0
        for seat in live:
            fold_rate *= self.seen.get(seat, Seen()).fold_rate
        lg = view.legal

        def find(kind: type) -> Action | None:
            return next((a for a in legal if type(a) is kind), None)

        def sized(kind: type, span: tuple[int, int] | None, want: int) -> Action | None:
            if span is None:
                return None
            lo, hi = span
            amount = min(hi, max(lo, want))
            return Bet(amount) if kind is Bet else Raise(amount)

        if view.to_call > 0:
            odds = view.to_call / (pot + view.to_call)
            wild = [s for s in live if self.wild(s, len(live))]
            if wild:
                stacks = {s["seat"]: s["stack"] + s["committed"] for s in obs["seats"]}
                me = obs["seat"]
                mine = stacks[me] if me is not None else view.stack
                rest = sum(min(stacks[s], mine) for s in wild)
                odds = min(odds, mine / (mine + rest + 1))
            if p > prm.raise_value + 0.3 * odds:
                r = sized(Raise, lg.raise_, max(unit, int(pot * (prm.raise_base + p))))
                if r is not None:
                    return r
            call = find(Call)
            if call is not None and p >= odds + prm.call_margin:
                return call
            return find(Junk) or call or legal[0]
        if p > prm.value:
            b = sized(Bet, lg.bet, max(unit, int(pot * (prm.bet_base + prm.bet_slope * p))))
            if b is not None:
                return b
        quiet = not any(self._hand_aggr.get(s, 0) for s in live)
        if quiet and p > prm.probe_floor and self.rng.random() < prm.probe:
            b = sized(Bet, lg.bet, max(unit, pot // 3))
            if b is not None:
                return b
        if (
            prm.mw_steal > 0
            and quiet
            and len(live) > 1
            and p <= prm.probe_floor
            and obs["seat"] is not None
            and (
                prm.mw_steal_anywhere > 0
                or multiway.acts_last(obs["seat"], obs["dealer"], len(obs["seats"]), live)
            )
            and multiway.steal_pays(
                {s: self.seen.get(s, Seen()).faced_fold_rate for s in live},
                live,
                prm.mw_steal_floor,
            )
            and (prm.mw_learn <= 0 or self.opening.rate >= prm.mw_learn)
            and (
                prm.mw_open_floor <= 0
                or sum(self.seen.get(s, Seen()).open_rate for s in live) / len(live)
                >= prm.mw_open_floor
            )
            and self.rng.random() < prm.mw_steal
        ):
            b = sized(Bet, lg.bet, max(unit, int(pot * prm.mw_steal_size)))
            if b is not None:
                self.opening.steals += 1
                return b
        if (
            p <= prm.probe_floor
            and fold_rate > prm.bluff_floor
            and self.rng.random() < prm.bluff * (fold_rate - prm.bluff_floor)
        ):
            b = sized(Bet, lg.bet, max(unit, pot // 2))
            if b is not None:
                return b
        return find(Check) or find(Call) or legal[0]


#: ``shrewd``'s constants: ``sharp``'s with the *profile* model (each opponent's bets believed
#: fully up to a counted opening rate of 40%, its raises up to a raise rate of 30%, and as the
#: fifth power of the ratio above, both counted across the hands of the game; each credible bet
#: or raise narrows twice as much as ``sharp``'s; calls priced as if the stacks go in only
#: against a seat raising more than 40% of the bets it faces), heads-up only: at a table of
#: three or more it plays ``sharp`` (measured: the profile model lost there). Chosen by
#: same-seeds duplicate A/B runs of 10-hand games (benchmarks/bots-lab.md, "Multi-hand games").
SHREWD = Params(
    profile=2.0,
    profile_power=5.0,
    wild_raises=0.4,
    open_honest=0.4,
    raise_honest=0.3,
    table_max=2.0,
)


#: The multi-way steal ``wily`` plays at a table of three or more (``canny``'s, in the lab).
STEAL: dict[str, float] = {
    "mw_steal": 1.0,
    "mw_steal_anywhere": 1.0,
    "mw_prior": 4.0,
    "mw_learn": 0.15,
    "mw_steal_size": 0.2,
    "mw_widest": 1.0,
}


def register_constants(name: str, constants: Params) -> None:
    """Register ``name`` as ``sharp`` with other constants (``make_bot(name, seed, **params)``
    overrides any of them)."""

    def make(seed: int | None = None, arg: str | None = None, **params: Any) -> SharpBot:
        if arg is not None:
            raise OptionError(f"the {name} bot takes no parameter after a colon")
        try:
            bot = SharpBot(seed, replace(constants, **params) if params else constants)
        except TypeError as exc:
            raise OptionError(f"{name} bot: {exc}") from None
        bot.name = name
        return bot

    register_bot(name, make)


#: ``wily``'s constants (the ``expert`` level): ``shrewd``'s, with bet sizes read (issue 19,
#: round four). A bet of at least 70% of the pot before it is *large*; an opponent's large and
#: small bets each get their own counted opening rate, and each is believed fully up to a rate
#: of 25% (as the fifth power of the ratio above): ``sharp``'s value bets (70-100% of the pot)
#: are rare and believed, its third-of-the-pot probes frequent and not. Chosen by same-seeds
#: duplicate A/B runs of 10-hand games heads-up (benchmarks/bots-lab.md, "Bet sizes read:
#: `wily`"). At a table of three or more it plays ``canny``'s multi-way steal (``STEAL``:
#: ``sharp`` with the steal), measured stronger than ``sharp`` there; the steal needs two
#: opponents in, and the bet sizes are read heads-up only, so ``wily`` is move for move the
#: heads-up bot its proof played at two seats and ``canny`` at three or more (tested).
WILY = replace(SHREWD, big_bet=0.7, open_honest=0.25, wild_prior=0.3, **STEAL)


register_constants("wily", WILY)
