"""The fixed-size numeric observation of one seat: one encoder for every variant and engine.

The vector is a function of what the seat's observation (:meth:`sabacc.Game.observation`)
shows and nothing else. Every game, on either engine, gives those facts in one call as a compact
seat view (``game.seat_view(seat)``, :data:`sabacc.engine.features.SeatView`: ints and card-id
bytes); :meth:`ObservationEncoder.encode_view` turns a seat view into the vector, the shared
part here and the variant's own blocks through the variant's RL feature spec
(:class:`sabacc.engine.features.FeatureSpec`, ``VariantInfo.rl_spec``, declared in its module).
:meth:`ObservationEncoder.encode` is ``encode_view(game.seat_view(seat))``;
:meth:`ObservationEncoder.encode_observation` reads the seat view back from a JSON observation
(for bots that get only observations). ``tests/apps/rl`` checks that the view read from the
observation equals the game's in random play of every variant, that both engines give the same
views, and that changing the cards a seat cannot see never changes its vector.

Layout (float32; credits are divided by the buy-in; seats are listed from the observer, then
clockwise). :meth:`ObservationEncoder.blocks` gives the exact offsets for a variant:

==================  =========  ==================================================================
block               size       content
==================  =========  ==================================================================
phase               P          one-hot of the phase (the spec's ``phases``)
hand_values         V          own cards: copies of each card value (V = 21 Spike, 23 classic)
hand_size           1          own card count
hand_total          1          own total / the spec's ``total_scale`` (Spike 10, classic 23)
hand_rank           R          one-hot of the own hand's rank (the spec's ``ranks``)
pots                5          main pot, sabacc pot, current bet, to call, bet unit
seats               n x S      per seat: stack, committed this hand, bet this round, card count,
                               status one-hot (active, all_in, junked, waiting, out), dealer,
                               last action one-hot (the spec's ``last_actions``: stand, gain,
                               swap, discard, check, call, bet, raise, junk, call hand), known
                               cards (copies per value: the cards everybody saw go into that
                               hand, and in Surabat the ones this seat alone knows about);
                               S = 20 + V
variant blocks                 the spec's ``blocks``. Spike: round (round/rounds, last round),
                               discard top one-hot, discard pile counts, draw pile and muck
                               sizes / deck size, "the last spike dice were doubles". Surabat:
                               round, starting player one-hot, Sun counts, Moon size, Moon cards
                               this seat put there (counts, and the top one one-hot), discard
                               pile counts, draw and muck sizes, last dice doubles. Classic: turn
                               player one-hot, orbit / max_orbits, calls open, raises /
                               max_raises, deck and out-of-play sizes / 76, last roll shifted.
==================  =========  ==================================================================
"""

from __future__ import annotations

import array

import numpy as np
import numpy.typing as npt

from sabacc.core.options import Options
from sabacc.engine.features import FeatureSpec, Layout, SeatView, card_ids
from sabacc.engine.observation import SEAT_STATUSES, Observation
from sabacc.engine.protocol import GameProtocol
from sabacc.engine.variant import VariantInfo

Vector = npt.NDArray[np.float32]

STATUSES = SEAT_STATUSES
#: The seat row's features before its last-action one-hot: stack, committed, round bet, card
#: count, the status one-hot and the dealer flag.
_SEAT_HEAD = 4 + len(STATUSES) + 1
_STATUS_INDEX = {s: i for i, s in enumerate(STATUSES)}


def rl_spec(info: VariantInfo) -> FeatureSpec:
    """The variant's RL feature spec (ValueError: the variant declares none)."""
    if info.rl_spec is None:
        raise ValueError(f"no RL observation layout for variant {info.name!r} yet")
    return info.rl_spec


class ObservationEncoder:
    """Builds the numeric observation of a variant for ``num_players`` seats (see module doc)."""

    def __init__(self, info: VariantInfo, options: Options, num_players: int) -> None:
        spec = self.spec = rl_spec(info)
        self.last_actions = spec.last_actions
        #: A seat row's size before its known cards.
        self.seat_fixed = _SEAT_HEAD + len(spec.last_actions.heads)
        self.variant = info.name
        self.n = num_players
        self.options = options
        self._evaluator = info.evaluator
        self.buy_in = float(options.starting_stack)
        self.deck_size = float(len(info.deck))
        self.values: tuple[int, ...] = tuple(sorted(set(info.deck.values)))
        self.nv = len(self.values)
        self.value_index: dict[int, int] = {v: i for i, v in enumerate(self.values)}
        # Card id -> index of its value; card code -> the id of a card with that code (cards
        # sharing a code are alike: JSON observations name cards by code).
        self._vid: list[int] = [0] * len(info.deck)
        self._code_id: dict[str, int] = {}
        for c in info.deck.cards:
            self._vid[c.id] = self.value_index[c.value]
            self._code_id.setdefault(c.code, c.id)
        self.phases = spec.phases
        self.phase_index = {p: i for i, p in enumerate(self.phases)}
        self.ranks = spec.ranks
        self.total_scale = spec.total_scale
        self.status_index = _STATUS_INDEX
        self._last_cache: dict[str | None, int] = {None: -1}
        self._ranks: dict[bytes, int] = {}  # own card ids -> rank (options are fixed)
        self._cards = sorted(info.deck.cards, key=lambda c: c.id)
        self.copies = max(info.deck.value_counts.values())
        nv, n = self.nv, num_players
        blocks: list[tuple[str, int]] = [
            ("phase", len(self.phases)),
            ("hand_values", nv),
            ("hand_size", 1),
            ("hand_total", 1),
            ("hand_rank", self.ranks),
            ("pots", 5),
            ("seats", n * (self.seat_fixed + nv)),
        ]
        sizes = {"seats": n, "values": nv}
        for block in spec.blocks:
            size = sizes[block.size] if isinstance(block.size, str) else block.size
            blocks.append((block.name, size))
        self.offsets: dict[str, tuple[int, int]] = {}
        pos = 0
        for name, size in blocks:
            if name in self.offsets:
                raise ValueError(f"{info.name}: feature block {name!r} declared twice")
            self.offsets[name] = (pos, size)
            pos += size
        self.size = pos
        negative = sum(c.value for c in info.deck.cards if c.value < 0)
        positive = sum(c.value for c in info.deck.cards if c.value > 0)
        self._total_bounds = (negative / self.total_scale, positive / self.total_scale)
        self._per_seat = self.seat_fixed + nv
        self._zero_floats = array.array("f", bytes(4 * pos))
        self._float32 = np.dtype(np.float32)
        self._at_hand_values = self.offsets["hand_values"][0]
        self._at_hand_size = self.offsets["hand_size"][0]  # hand_total follows it
        self._at_hand_rank = self.offsets["hand_rank"][0]
        self._at_pots = self.offsets["pots"][0]
        self._at_seats = self.offsets["seats"][0]
        layout = Layout(
            n=n,
            offsets={name: start for name, (start, _) in self.offsets.items()},
            value_of=self._vid,
            deck_size=self.deck_size,
        )
        self._write_extra = spec.writer(layout)
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
        per = self.seat_fixed + nv
        for k in range(n):
            base = s + k * per
            high[base : base + 3] = float(n)  # credits, in buy-ins: never more than the table
            high[base + 3] = deck
            high[base + self.seat_fixed : base + per] = copies
        named = {"deck": deck, "copies": copies, "seats": float(n)}
        for block in self.spec.blocks:
            hi = named[block.high] if isinstance(block.high, str) else float(block.high)
            span(block.name, block.low, hi)
        return low, high

    # ------------------------------------------------------------------ the encoder
    def encode_view(self, view: SeatView, unit: int) -> Vector:
        """The vector of a seat view (:data:`sabacc.engine.features.SeatView`); ``unit`` is
        the betting unit (``observation["betting"]["unit"]``, constant through a game).

        Every feature is written straight into a ``float32`` buffer (an :class:`array.array`,
        which the returned vector wraps without a copy): no conversion, no scatter.
        """
        phase, pot, sabacc, cur, dealer, own, total, seats, extra = view
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
            rank = self._ranks.get(own)
            if rank is None:  # hands repeat a lot within a game: evaluate each once
                if len(self._ranks) > 50_000:
                    self._ranks.clear()
                cards = self._cards
                rank = self._ranks[own] = self._evaluator(
                    self.options, [cards[c] for c in own]
                ).rank
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
        per, fixed = self._per_seat, self.seat_fixed
        b = self._at_seats
        f[b + dealer * per + _SEAT_HEAD - 1] = 1.0
        for stack, committed, round_bet, ncards, status, kind, known in seats:
            f[b] = stack / buy
            f[b + 1] = committed / buy
            f[b + 2] = round_bet / buy
            f[b + 3] = ncards
            f[b + 4 + status] = 1.0
            la = kinds.get(kind)
            if la is None:
                la = kinds[kind] = self.last_actions.index(kind)
            if la >= 0:
                f[b + _SEAT_HEAD + la] = 1.0
            if known:
                kb = b + fixed
                for c in known:
                    f[kb + vid[c]] += 1.0
            b += per
        self._write_extra(f, extra)
        return np.frombuffer(f, self._float32)

    # ------------------------------------------------------------------ where views come from
    def encode(self, game: GameProtocol, seat: int, unit: int) -> Vector:
        """The vector of ``seat`` in ``game`` (either engine): its :meth:`seat_view` encoded."""
        return self.encode_view(game.seat_view(seat), unit)

    def view_of(self, obs: Observation) -> SeatView:
        """The seat view read back from a seat's JSON observation (``seat`` not None)."""
        ids = self._code_id
        me = obs["seat"]
        if me is None or "you" not in obs:
            raise ValueError("a spectator's observation has no seat view")
        seats = obs["seats"]
        n = len(seats)
        you = obs["you"]
        rows = []
        for k in range(n):
            s = seats[(me + k) % n]
            rows.append(
                (
                    s["stack"],
                    s["committed"],
                    s["round_bet"],
                    s["cards"],
                    _STATUS_INDEX[s["status"]],
                    s["last_action"],
                    card_ids(s["known_cards"], ids),
                )
            )
        return (
            obs["phase"],
            obs["pots"]["main"],
            obs["pots"]["sabacc"],
            obs["betting"]["current_bet"],
            (obs["dealer"] - me) % n,
            card_ids(you["cards"], ids),
            you["total"],
            tuple(rows),
            self.spec.from_observation(obs, ids),
        )

    def encode_observation(self, obs: Observation) -> Vector:
        """The vector from a seat's JSON observation (for bots that get only observations)."""
        return self.encode_view(self.view_of(obs), obs["betting"]["unit"])
