"""The fixed-size numeric observation of one seat.

The vector is a function of the seat's JSON observation (:meth:`sabacc.Game.observation`) and
nothing else: :meth:`ObservationEncoder.encode_observation` builds it from that dict. The
environments use :meth:`ObservationEncoder.encode`, a fast path that reads the same facts
straight from the game (the seat's own hand, public piles, stacks and bets) without building
the JSON; ``tests/rl`` checks that both give the same vector in random play of every variant,
and that changing the cards a seat cannot see never changes its vector. On the compiled
Corellian Spike core, :meth:`ObservationEncoder.encode_core` reads the same facts from the
core's compact ``seat_view`` (``tests/apps/rl/test_engines.py``: the same vectors as the reference).

Layout (float32; credits are divided by the buy-in; seats are listed from the observer, then
clockwise). :meth:`ObservationEncoder.blocks` gives the exact offsets for a variant:

==================  =========  ==================================================================
block               size       content
==================  =========  ==================================================================
phase               P          one-hot of the phase (Spike: card, betting; Surabat: card,
                               discard, betting; classic: betting, calling, drawing)
hand_values         V          own cards: copies of each card value (V = 21 Spike, 23 classic)
hand_size           1          own card count
hand_total          1          own total / 10 (classic: / 23)
hand_rank           R          one-hot of the own hand's rank (Spike 13 rows, classic 4)
pots                5          main pot, sabacc pot, current bet, to call, bet unit
seats               n x S      per seat: stack, committed this hand, bet this round, card count,
                               status one-hot (active, all_in, junked, waiting, out), dealer,
                               last action one-hot (stand, gain, swap, discard, check, call,
                               bet, raise, junk, call hand), known cards (copies per value: the
                               cards everybody saw go into that hand, and in Surabat the ones
                               this seat alone knows about); S = 20 + V
variant extras                 Spike: round (round/rounds, last round), discard top one-hot,
                               discard pile counts, draw pile and muck sizes / deck size, "the
                               last spike dice were doubles". Surabat: round, starting player
                               one-hot, Sun counts, Moon size, Moon cards this seat put there
                               (counts, and the top one one-hot), discard pile counts, draw and
                               muck sizes, last dice doubles. Classic: turn player one-hot,
                               orbit / max_orbits, calls open, raises / max_raises, deck and
                               out-of-play sizes / 76, last roll shifted.
==================  =========  ==================================================================
"""

from __future__ import annotations

import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from sabacc.core.options import Options
from sabacc.engine.game import Game
from sabacc.engine.variant import VariantInfo

if TYPE_CHECKING:
    from sabacc.variants._spike_core import SpikeCore

    #: A game on either engine: the reference :class:`Game` or the compiled ``SpikeCore``.
    AnyGame: TypeAlias = Game | SpikeCore
else:
    AnyGame: TypeAlias = Any

Vector = npt.NDArray[np.float32]

PHASES: dict[str, tuple[str, ...]] = {
    "corellian_spike": ("card", "betting"),
    "surabat_cycle": ("card", "discard", "betting"),
    "classic": ("betting", "calling", "drawing"),
}
STATUSES = ("active", "all_in", "junked", "waiting", "out")
LAST_ACTIONS = (
    "stand",
    "gain",
    "swap",
    "discard",
    "check",
    "call",
    "bet",
    "raise",
    "junk",
    "call hand",
)
_FIRST_WORD = {
    "stand": 0,
    "gain": 1,
    "swap": 2,
    "exchange": 2,
    "discard": 3,
    "check": 4,
    "call": 5,
    "bet": 6,
    "raise": 7,
    "junk": 8,
}
_SEAT_FIXED = 4 + len(STATUSES) + 1 + len(LAST_ACTIONS)
_EMPTY: set[int] = set()
_BLOCK_NAMES = (
    "phase",
    "hand_values",
    "hand_size",
    "hand_total",
    "hand_rank",
    "pots",
    "seats",
    "round",
    "discard_top",
    "discard_pile",
    "piles",
    "shift",
    "starting_player",
    "sun",
    "moon",
    "moon_known",
    "moon_top_known",
    "turn",
    "orbit",
    "raises",
)


def last_action_index(text: str | None) -> int:
    """Index in :data:`LAST_ACTIONS` of a seat's public last action text (-1: none)."""
    if not text:
        return -1
    if text.startswith("call hand"):
        return 9
    return _FIRST_WORD.get(text.split(" ", 1)[0], -1)


class ObservationEncoder:
    """Builds the numeric observation of a variant for ``num_players`` seats (see module doc)."""

    def __init__(self, info: VariantInfo, options: Options, num_players: int) -> None:
        if info.name not in PHASES:
            raise ValueError(f"no RL observation layout for variant {info.name!r} yet")
        self.variant = info.name
        self.family = {"corellian_spike": "spike", "surabat_cycle": "surabat"}.get(
            info.name, "classic"
        )
        self.n = num_players
        self.options = options
        self.buy_in = float(options.starting_stack)
        self.deck_size = float(len(info.deck))
        self.values: tuple[int, ...] = tuple(sorted(set(info.deck.values)))
        self.nv = len(self.values)
        self.value_index: dict[int, int] = {v: i for i, v in enumerate(self.values)}
        # Card -> index of its value, by card id (fast path) and by code (JSON path).
        self._vid: list[int] = [0] * len(info.deck)
        for c in info.deck.cards:
            self._vid[c.id] = self.value_index[c.value]
        self._code_vid = {c.code: self.value_index[c.value] for c in info.deck.cards}
        self.phases = PHASES[info.name]
        self.phase_index = {p: i for i, p in enumerate(self.phases)}
        self.ranks = 4 if self.family == "classic" else 13
        self.total_scale = 23.0 if self.family == "classic" else 10.0
        self.status_index = {s: i for i, s in enumerate(STATUSES)}
        self._last_cache: dict[str | None, int] = {None: -1}
        self._ranks: dict[tuple[int, ...], int] = {}  # card ids -> rank (options are fixed)
        self._view_ranks: dict[bytes, int] = {}  # the same, for the compiled core's views
        self._cards = sorted(info.deck.cards, key=lambda c: c.id)
        nv, n = self.nv, num_players
        blocks: list[tuple[str, int]] = [
            ("phase", len(self.phases)),
            ("hand_values", nv),
            ("hand_size", 1),
            ("hand_total", 1),
            ("hand_rank", self.ranks),
            ("pots", 5),
            ("seats", n * (_SEAT_FIXED + nv)),
        ]
        if self.family == "spike":
            blocks += [
                ("round", 2),
                ("discard_top", nv),
                ("discard_pile", nv),
                ("piles", 2),
                ("shift", 1),
            ]
        elif self.family == "surabat":
            blocks += [
                ("round", 2),
                ("starting_player", n),
                ("sun", nv),
                ("moon", 1),
                ("moon_known", nv),
                ("moon_top_known", nv),
                ("discard_pile", nv),
                ("piles", 2),
                ("shift", 1),
            ]
        else:
            blocks += [
                ("turn", n),
                ("orbit", 2),
                ("raises", 1),
                ("piles", 2),
                ("shift", 1),
            ]
        self.offsets: dict[str, tuple[int, int]] = {}
        pos = 0
        for name, size in blocks:
            self.offsets[name] = (pos, size)
            pos += size
        self.size = pos
        self.copies = max(info.deck.value_counts.values())
        negative = sum(c.value for c in info.deck.cards if c.value < 0)
        positive = sum(c.value for c in info.deck.cards if c.value > 0)
        self._total_bounds = (negative / self.total_scale, positive / self.total_scale)
        # Start of each block (-1: not in this variant), for the writer.
        at = {name: start for name, (start, _) in self.offsets.items()}
        o = self._o = {name: at.get(name, -1) for name in _BLOCK_NAMES}
        self._per_seat = _SEAT_FIXED + nv
        # Features that are not small whole numbers (credits, fractions), in writing order;
        # every other feature is a count or a flag, written into a bytearray.
        dense = [o["hand_total"], *range(o["pots"], o["pots"] + 5)]
        for k in range(n):
            seat = o["seats"] + k * self._per_seat
            dense += [seat, seat + 1, seat + 2]
        if self.family == "classic":
            dense += [o["orbit"], o["raises"]]
        else:
            dense += [o["round"]]
        dense += [o["piles"], o["piles"] + 1]
        self._dense = np.array(dense, dtype=np.intp)
        self._zero_bytes = bytearray(pos)
        # The compiled-core path (encode_core) writes floats straight into a copy of this.
        self._zero_floats = array.array("f", bytes(4 * pos))
        self._float32 = np.dtype(np.float32)
        self._at_hand_values = o["hand_values"]
        self._at_hand_size = o["hand_size"]  # hand_total follows it
        self._at_hand_rank = o["hand_rank"]
        self._at_pots = o["pots"]
        self._at_seats = o["seats"]
        self._at_round = o["round"]
        self._at_discard_top = o["discard_top"]
        self._at_discard_pile = o["discard_pile"]
        self._at_piles = o["piles"]  # shift follows it
        self._rounds = getattr(options, "rounds", None) or 1
        self.low, self.high = self._bounds()

    def blocks(self) -> list[tuple[str, int, int]]:
        """``(name, start, size)`` of every block, in order."""
        return [(name, start, size) for name, (start, size) in self.offsets.items()]

    def _bounds(self) -> tuple[Vector, Vector]:
        """Bounds of every feature (the observation space's ``low`` and ``high``)."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        n, nv = self.n, self.nv
        deck = self.deck_size
        copies = float(self.copies)

        def span(name: str, lo: float, hi: float) -> None:
            s, k = self.offsets[name]
            low[s : s + k] = lo
            high[s : s + k] = hi

        span("hand_values", 0.0, copies)
        span("hand_size", 0.0, deck)
        span("hand_total", *self._total_bounds)
        span("pots", 0.0, float(n))
        s, _ = self.offsets["seats"]
        per = _SEAT_FIXED + nv
        for k in range(n):
            base = s + k * per
            high[base : base + 3] = float(n)  # credits, in buy-ins: never more than the table
            high[base + 3] = deck
            high[base + _SEAT_FIXED : base + per] = copies
        for name in ("discard_pile", "sun", "moon_known"):
            if name in self.offsets:
                span(name, 0.0, copies)
        if "moon" in self.offsets:
            span("moon", 0.0, deck)
        return low, high

    # ------------------------------------------------------------------ writer
    def _write(
        self,
        phase: str,
        hand: Sequence[int],
        total: int,
        rank: int | None,
        pots: tuple[int, int, int, int, int],
        stacks: Sequence[int],
        committed: Sequence[int],
        round_bets: Sequence[int],
        ncards: Sequence[int],
        statuses: Sequence[int],
        dealer: int,
        last: Sequence[str | None],
        known: Sequence[Sequence[int] | None],
        me: int,
        extra: tuple[Any, ...],
    ) -> Vector:
        """The vector from the facts of one observation (both encoders end here).

        Cards come as value indices. Counts and flags go into a bytearray (cheap to write,
        converted in one C call); the few credit and fraction features go through
        :attr:`_dense`, in its order.
        """
        f = self._zero_bytes[:]
        o = self._o
        buy = self.buy_in
        p = self.phase_index.get(phase)
        if p is not None:
            f[p] = 1
        base = o["hand_values"]
        for i in hand:
            f[base + i] += 1
        f[o["hand_size"]] = len(hand)
        if rank is not None:
            f[o["hand_rank"] + (rank if rank < self.ranks else self.ranks) - 1] = 1
        dense = [
            total / self.total_scale,
            pots[0] / buy,
            pots[1] / buy,
            pots[2] / buy,
            pots[3] / buy,
            pots[4] / buy,
        ]
        per = self._per_seat
        n = self.n
        cache = self._last_cache
        b = o["seats"]
        for k in range(n):
            s = me + k
            if s >= n:
                s -= n
            dense += (stacks[s] / buy, committed[s] / buy, round_bets[s] / buy)
            f[b + 3] = ncards[s]
            f[b + 4 + statuses[s]] = 1
            if s == dealer:
                f[b + 9] = 1
            text = last[s]
            la = cache.get(text)
            if la is None:
                la = cache[text] = last_action_index(text)
            if la >= 0:
                f[b + 10 + la] = 1
            cards = known[s]
            if cards:
                kb = b + _SEAT_FIXED
                for i in cards:
                    f[kb + i] += 1
            b += per
        fam = self.family
        deck = self.deck_size
        if fam == "spike":
            rnd, rounds, top, pile, draw, muck, shift = extra
            dense += (rnd / rounds, draw / deck, muck / deck)
            if rnd >= rounds:
                f[o["round"] + 1] = 1
            if top is not None:
                f[o["discard_top"] + top] = 1
            base = o["discard_pile"]
            for i in pile:
                f[base + i] += 1
        elif fam == "surabat":
            rnd, rounds, starter, sun, moon, moon_known, pile, draw, muck, shift = extra
            dense += (rnd / rounds, draw / deck, muck / deck)
            if rnd >= rounds:
                f[o["round"] + 1] = 1
            if starter is not None:
                f[o["starting_player"] + (starter - me) % n] = 1
            base = o["sun"]
            for i in sun:
                f[base + i] += 1
            f[o["moon"]] = moon
            base = o["moon_known"]
            for i in moon_known:
                if i >= 0:
                    f[base + i] += 1
            if moon_known and moon_known[-1] >= 0:
                f[o["moon_top_known"] + moon_known[-1]] = 1
            base = o["discard_pile"]
            for i in pile:
                f[base + i] += 1
        else:
            turn, orbit, max_orbits, calls_open, raises, max_raises, ndeck, out, shift = extra
            dense += (
                orbit / max_orbits,
                raises / max_raises if max_raises else 0.0,
                ndeck / deck,
                out / deck,
            )
            if 0 <= turn < n:
                f[o["turn"] + (turn - me) % n] = 1
            if calls_open:
                f[o["orbit"] + 1] = 1
        if shift:
            f[o["shift"]] = 1
        vec = np.frombuffer(f, dtype=np.uint8).astype(np.float32)
        vec[self._dense] = dense
        return vec

    # ------------------------------------------------------------------ from the JSON view
    def encode_observation(self, obs: Mapping[str, Any]) -> Vector:
        """The vector from a seat's JSON observation (the reference definition)."""
        cv = self._code_vid
        me = int(obs["seat"])
        you = obs.get("you") or {}
        values = [int(v) for v in you.get("values", [])]
        hand = [self.value_index[v] for v in values]
        hv = you.get("hand")
        rank = int(hv["rank"]) if hv else None
        pots = (
            int(obs["pots"]["main"]),
            int(obs["pots"]["sabacc"]),
            int(obs["betting"]["current_bet"]),
            int(obs["betting"]["to_call"]),
            int(obs["betting"]["unit"]),
        )
        seats = obs["seats"]
        status_index = self.status_index
        stacks = [int(s["stack"]) for s in seats]
        committed = [int(s["committed"]) for s in seats]
        round_bets = [int(s["round_bet"]) for s in seats]
        ncards = [int(s["cards"]) for s in seats]
        statuses = [status_index[str(s["status"])] for s in seats]
        dealer = next((i for i, s in enumerate(seats) if s["dealer"]), -1)
        last = [s["last_action"] for s in seats]
        known = [[cv[c] for c in s["known_cards"]] for s in seats]
        dice: Sequence[int] = obs.get("dice") or []
        doubles = len(dice) == 2 and dice[0] == dice[1]
        extra: tuple[Any, ...]
        if self.family == "spike":
            top = obs.get("discard_top")
            extra = (
                int(obs["round"]),
                int(obs["rounds"]),
                cv[top] if top is not None else None,
                [cv[c] for c in obs["discard_pile"]],
                int(obs["draw_pile"]),
                int(obs["mucked"]),
                doubles,
            )
        elif self.family == "surabat":
            extra = (
                int(obs["round"]),
                int(obs["rounds"]),
                obs.get("starting_player"),
                [cv[c] for c in obs["sun"]],
                int(obs["moon_count"]),
                [cv[c] if c is not None else -1 for c in obs["moon_known"]],
                [cv[c] for c in obs["discard_pile"]],
                int(obs["draw_pile"]),
                int(obs["mucked"]),
                doubles,
            )
        else:
            extra = (
                int(obs["turn"]),
                int(obs["orbit"]),
                int(obs["max_orbits"]),
                bool(obs["calls_open"]),
                int(obs["raises"]),
                int(obs["max_raises"]),
                int(obs["deck"]),
                int(obs["out_of_play"]),
                bool(obs["shift"]),
            )
        return self._write(
            str(obs["phase"]),
            hand,
            sum(values),
            rank,
            pots,
            stacks,
            committed,
            round_bets,
            ncards,
            statuses,
            dealer,
            last,
            known,
            me,
            extra,
        )

    # ------------------------------------------------------------------ fast path
    def encode(self, game: AnyGame, seat: int, unit: int) -> Vector:
        """The same vector as :meth:`encode_observation` of ``game.observation(seat)``, read
        from the game directly (only what that observation shows). ``unit`` is the betting
        unit (``observation["betting"]["unit"]``, constant through a game).

        This is :meth:`_write` specialised to the game's own lists (no intermediate facts):
        keep the two in step (``tests/apps/rl/test_observation.py`` compares them). The compiled
        Corellian Spike core (:mod:`sabacc.variants.compiled`) is read through :meth:`encode_core`.
        """
        if not isinstance(game, Game):
            return self.encode_core(game, seat, unit)
        g: Any = game
        vid = self._vid
        o = self._o
        buy = self.buy_in
        f = self._zero_bytes[:]
        phase = g.phase
        p = self.phase_index.get(phase)
        if p is not None:
            f[p] = 1
        own = g.hands[seat]
        base = o["hand_values"]
        total = 0
        for c in own:
            f[base + vid[c.id]] += 1
            total += c.value
        f[o["hand_size"]] = len(own)
        if own:
            key = tuple([c.id for c in own])
            rank = self._ranks.get(key)
            if rank is None:  # hands repeat a lot within a game: evaluate each once
                if len(self._ranks) > 50_000:
                    self._ranks.clear()
                rank = self._ranks[key] = game.evaluate(own).rank
            f[o["hand_rank"] + (rank if rank < self.ranks else self.ranks) - 1] = 1
        cur = g.cur_bet
        rb = g.round_bet
        to_call = cur - rb[seat] if phase == "betting" else 0
        dense = [
            total / self.total_scale,
            game.pot_total() / buy,
            g.sabacc_pot / buy,
            cur / buy,
            (to_call if to_call > 0 else 0) / buy,
            unit / buy,
        ]
        stacks = g.stacks
        committed = g.committed
        hands = g.hands
        public = g.public_ids
        out = g.out
        in_hand = g.in_hand
        folded = g.folded
        last = g.last_action
        dealer = g.dealer
        cache = self._last_cache
        n = self.n
        fam = self.family
        seen: set[int] = g.seen[seat] if fam == "surabat" else _EMPTY
        per = self._per_seat
        b = o["seats"]
        for k in range(n):
            s = seat + k
            if s >= n:
                s -= n
            stack = stacks[s]
            dense += (stack / buy, committed[s] / buy, rb[s] / buy)
            hand = hands[s]
            f[b + 3] = len(hand)
            if out[s]:
                f[b + 8] = 1
            elif not in_hand[s]:
                f[b + 7] = 1
            elif folded[s]:
                f[b + 6] = 1
            elif stack == 0:
                f[b + 5] = 1
            else:
                f[b + 4] = 1
            if s == dealer:
                f[b + 9] = 1
            text = last[s]
            if text is not None:
                la = cache.get(text)
                if la is None:
                    la = cache[text] = last_action_index(text)
                if la >= 0:
                    f[b + 10 + la] = 1
            pub = public[s]
            if pub or (seen and k):
                kb = b + _SEAT_FIXED
                for c in hand:
                    if c.id in pub or (k and c.id in seen):
                        f[kb + vid[c.id]] += 1
            b += per
        deck = self.deck_size
        shift = False
        if fam == "spike":
            rnd = g.round
            rounds = self.options.rounds  # type: ignore[attr-defined]
            dense += (rnd / rounds, len(g.draw) / deck, len(g.muck) / deck)
            if rnd >= rounds:
                f[o["round"] + 1] = 1
            discard = g.discard
            if discard:
                f[o["discard_top"] + vid[discard[-1].id]] = 1
                base = o["discard_pile"]
                for c in discard:
                    f[base + vid[c.id]] += 1
            dice = g.last_dice
            shift = dice is not None and dice[0] == dice[1]
        elif fam == "surabat":
            rnd = g.round
            rounds = self.options.rounds  # type: ignore[attr-defined]
            if rounds is None:  # Surabat: one round per player dealt in, 4 with two
                dealt = sum(in_hand) or n
                rounds = 4 if dealt == 2 else dealt
            dense += (rnd / rounds, len(g.draw) / deck, len(g.muck) / deck)
            if rnd >= rounds:
                f[o["round"] + 1] = 1
            starter = g.starting_player
            if starter is not None:
                f[o["starting_player"] + (starter - seat) % n] = 1
            base = o["sun"]
            for c in g.sun:
                f[base + vid[c.id]] += 1
            moon = g.moon
            f[o["moon"]] = len(moon)
            base = o["moon_known"]
            top = -1
            for c, owner in zip(moon, g.moon_owner, strict=True):
                if owner == seat:
                    top = vid[c.id]
                    f[base + top] += 1
                else:
                    top = -1
            if top >= 0:
                f[o["moon_top_known"] + top] = 1
            base = o["discard_pile"]
            for c in g.discard:
                f[base + vid[c.id]] += 1
            dice = g.last_dice
            shift = dice is not None and dice[0] == dice[1]
        else:
            opts: Any = self.options
            orbit = g.orbit
            max_raises = opts.max_raises
            dense += (
                orbit / opts.max_orbits,
                g.raises / max_raises if max_raises else 0.0,
                len(g.draw) / deck,
                len(g.discards) / deck,
            )
            turn = g.turn
            if 0 <= turn < n:
                f[o["turn"] + (turn - seat) % n] = 1
            if orbit >= opts.min_turns_before_call:
                f[o["orbit"] + 1] = 1
            shift = g.last_shift
        if shift:
            f[o["shift"]] = 1
        vec = np.frombuffer(f, dtype=np.uint8).astype(np.float32)
        vec[self._dense] = dense
        return vec

    def encode_core(self, game: SpikeCore, seat: int, unit: int) -> Vector:
        """:meth:`encode` for the compiled Corellian Spike core (``SpikeCore``), read from its
        compact :meth:`~sabacc.variants._spike_core.SpikeCore.seat_view` (ints and card-id bytes,
        seats
        already listed from ``seat``) instead of its list properties. The same vector as
        :meth:`encode` of the reference game in the same state (``tests/apps/rl/test_engines.py``).

        Every feature is written straight into a ``float32`` buffer (an :class:`array.array`,
        which the returned vector wraps without a copy): no conversion, no scatter.
        """
        (
            phase,
            rnd,
            pot,
            sabacc,
            cur,
            ndraw,
            nmuck,
            doubles,
            dealer,
            own,
            total,
            discard,
            seats,
        ) = game.seat_view(seat)
        vid = self._vid
        buy = self.buy_in
        f = self._zero_floats[:]
        p = self.phase_index.get(phase)
        if p is not None:
            f[p] = 1.0
        if own:
            base = self._at_hand_values
            for c in own:
                f[base + vid[c]] += 1.0
            f[self._at_hand_size] = len(own)
            rank = self._view_ranks.get(own)
            if rank is None:
                if len(self._view_ranks) > 50_000:
                    self._view_ranks.clear()
                cards = self._cards
                rank = self._view_ranks[own] = game.evaluate([cards[c] for c in own]).rank
            f[self._at_hand_rank + (rank if rank < self.ranks else self.ranks) - 1] = 1.0
            f[self._at_hand_size + 1] = total / self.total_scale
        b = self._at_pots
        f[b] = pot / buy
        f[b + 1] = sabacc / buy
        f[b + 2] = cur / buy
        if phase == "betting":
            to_call = cur - seats[0][2]
            if to_call > 0:
                f[b + 3] = to_call / buy
        f[b + 4] = unit / buy
        kinds = self._last_cache
        per = self._per_seat
        b = self._at_seats
        f[b + dealer * per + 9] = 1.0
        for stack, committed, round_bet, ncards, status, kind, known in seats:
            f[b] = stack / buy
            f[b + 1] = committed / buy
            f[b + 2] = round_bet / buy
            f[b + 3] = ncards
            f[b + 4 + status] = 1.0
            la = kinds.get(kind)
            if la is None:
                la = kinds[kind] = last_action_index(kind)
            if la >= 0:
                f[b + 10 + la] = 1.0
            if known:
                kb = b + _SEAT_FIXED
                for c in known:
                    f[kb + vid[c]] += 1.0
            b += per
        deck = self.deck_size
        rounds = self._rounds
        b = self._at_round
        f[b] = rnd / rounds
        if rnd >= rounds:
            f[b + 1] = 1.0
        if discard:
            f[self._at_discard_top + vid[discard[-1]]] = 1.0
            base = self._at_discard_pile
            for c in discard:
                f[base + vid[c]] += 1.0
        b = self._at_piles
        f[b] = ndraw / deck
        f[b + 1] = nmuck / deck
        if doubles:
            f[b + 2] = 1.0
        return np.frombuffer(f, self._float32)
