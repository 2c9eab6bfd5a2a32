"""A compact Kessel Sabacc round for search (the ``ismcts`` bot): determinized worlds and
heuristic rollouts on plain lists, many times faster than cloning and playing a
:class:`~sabacc.variants.kessel.rules.KesselGame`.

A :class:`KesselWorld` holds one round as the engine plays it, with cards reduced to their
kinds (1-6, the Impostor -1, the Sylop 0; the family is the pile or the hand position) and no
event log: the turn order, stocks, round pots, piles, the drawn card, the token state (who
stood, Embargo, Immunity, Free Draw, the ranking rules, unplayed tokens) and the reveal (dice,
Impostor choices). Its transitions mirror ``KesselGame`` rule for rule, including the RNG
calls (a reshuffle sorts by one ``random()`` per card, a roll is two ``randrange(6)``), so a
world copied from a game with the game's RNG state plays exactly as the game does
(``tests/variants/kessel/test_search.py`` plays both side by side, Hypothesis-driven). A world
stops at the end of its round (``phase == "end"``), the horizon of a search rollout.

:func:`search_sampler` is what :meth:`KesselBot.search_sampler
<sabacc.variants.kessel.bot.KesselBot.search_sampler>` hands the search: worlds consistent with
one seat's information, sampling the cards it has not seen (each family within itself: a
place's family is public) and, under the ``draft``, the other players' unplayed tokens (from
the tokens they have not played, as the draft dealt them). The sampler reads the game once;
each world is a copy with the unseen cards shuffled in, so it depends only on the seat's
information and the ``rng`` given.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from sabacc.core.actions import STAND, Action, Stand
from sabacc.variants.kessel.actions import (
    DISCARD_DRAWN,
    DRAWS,
    IMPOSTOR_CHOICES,
    KEEP,
    PRIME_CHOICES,
    ChooseImpostor,
    ChoosePrime,
    DiscardDrawn,
    Draw,
    Keep,
    PlayToken,
    token_actions,
)
from sabacc.variants.kessel.bot import Situation, best_card_action, best_token, situation_choice
from sabacc.variants.kessel.hands import DIE, IMPOSTOR, SYLOP, Rules, _rank
from sabacc.variants.kessel.tokens import TOKENS

#: Rollouts end with the round; this bounds a runaway one (never reached: a round is finite).
MAX_STEPS = 400
_SOURCES = ("sand", "blood", "sand discard", "blood discard")


@functools.cache
def _key(a: int, b: int, rules: Rules) -> tuple[tuple[int, ...], int]:
    """(rank key, penalty if it loses) of resolved kinds (an unresolved Impostor: its best)."""
    if a == SYLOP and b == SYLOP:
        return (4, 0, 0), 1
    xs = DIE if a == IMPOSTOR else (a,)
    ys = DIE if b == IMPOSTOR else (b,)
    value = max(_rank(x, y, rules) for x in xs for y in ys)
    return value.key, 1 if value.key[0] >= 2 else value.total


class SplitMix:
    """A small seeded generator for search worlds (SplitMix64): seeding a Mersenne Twister per
    rollout would cost more than most rollouts. Offers the two calls the rules make."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def _next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * _UNIT

    def randrange(self, n: int) -> int:
        return ((self._next() >> 11) * n) >> 53


_MASK = (1 << 64) - 1
_UNIT = 1.0 / (1 << 53)


class KesselWorld:
    """One Kessel round on plain lists (see the module docstring)."""

    __slots__ = (
        "chosen",
        "counts",
        "dice",
        "drawn",
        "drawn_from",
        "early_end",
        "embargoed",
        "free_draw",
        "hands",
        "house",
        "immune",
        "must_stand",
        "n",
        "order",
        "pending",
        "phase",
        "piles",
        "pos",
        "pots",
        "rng",
        "rules",
        "seed",
        "stacks",
        "stood",
        "stood_now",
        "to_act",
        "token_now",
        "tokens_left",
        "tokens_used",
        "turn",
        "turns",
    )

    n: int
    order: list[int]
    pos: int
    turn: int
    turns: int
    early_end: bool
    counts: tuple[int, ...]
    stacks: list[int]
    pots: list[int]
    house: int
    hands: list[list[int]]  # [sand kind, blood kind] per seat ([] out of the round)
    piles: list[list[int]]  # sand draw, blood draw, sand discard, blood discard (top last)
    drawn: int | None
    drawn_from: int  # index in _SOURCES, -1: nothing drawn
    stood: list[bool]
    stood_now: list[bool]
    embargoed: list[bool]
    immune: list[bool]
    must_stand: bool
    token_now: bool
    free_draw: bool
    rules: Rules
    tokens_left: list[list[str]]
    tokens_used: list[list[str]]
    phase: str  # "turn", "draw", "impostor", "prime" or "end"
    to_act: int | None
    dice: tuple[int, int] | None
    pending: list[tuple[int, int]]  # (seat, hand position) of Impostors still to choose
    chosen: dict[tuple[int, int], int]
    #: The game's own RNG in an exact copy (:meth:`from_game`); None in a copy made for search,
    #: which rolls and reshuffles with a :class:`SplitMix` seeded by ``seed`` (made on first
    #: use: most rollouts never roll).
    rng: random.Random | SplitMix | None
    seed: int

    # ------------------------------------------------------------------ building
    @classmethod
    def from_game(cls, game: Any) -> KesselWorld:
        """An exact copy of ``game``'s round (a ``KesselGame`` in its ``turn``, ``draw``,
        ``impostor`` or ``prime`` phase), its RNG continuing as the game's would."""
        w = object.__new__(cls)
        n = game.n
        w.n = n
        w.order = list(game.order)
        w.pos = game.pos
        w.turn = game.turn
        w.turns = game.options.turns
        w.early_end = game.options.early_end
        w.counts = (3, 3, 3, 3, 3, 3, game.options.impostors, game.options.sylops)
        w.stacks = list(game.stacks)
        w.pots = list(game.committed)
        w.house = game.house
        w.hands = [[c.value for c in h] for h in game.hands]
        w.piles = [
            [c.value for c in game.sand_draw],
            [c.value for c in game.blood_draw],
            [c.value for c in game.sand_discard],
            [c.value for c in game.blood_discard],
        ]
        w.drawn = game.drawn[0].value if game.drawn else None
        w.drawn_from = _SOURCES.index(game.drawn_from) if game.drawn_from else -1
        w.stood = list(game.stood)
        w.stood_now = list(game.stood_now)
        w.embargoed = list(game.embargoed)
        w.immune = list(game.immune)
        w.must_stand = game.must_stand
        w.token_now = game.token_now
        w.free_draw = game.free_draw
        w.rules = game.rules
        w.tokens_left = [list(t) for t in game.tokens_left]
        w.tokens_used = [list(t) for t in game.tokens_used]
        w.phase = game.phase if not game.over else "end"
        w.to_act = game.to_act
        w.dice = game.dice
        ids = {c.id: (s, i) for s, h in enumerate(game.hands) for i, c in enumerate(h)}
        w.pending = [ids[card_id] for _, card_id in game.pending]
        w.chosen = {ids[card_id]: v for card_id, v in game.chosen.items() if card_id in ids}
        rng = random.Random()
        rng.setstate(game.rng.getstate())
        w.rng = rng
        w.seed = 0
        return w

    def copy(self, seed: int) -> KesselWorld:
        """An independent copy with a fresh RNG seeded by ``seed`` (made when first used)."""
        w = object.__new__(KesselWorld)
        w.n = self.n
        w.order = self.order  # never changed within a round
        w.pos = self.pos
        w.turn = self.turn
        w.turns = self.turns
        w.early_end = self.early_end
        w.counts = self.counts
        w.stacks = self.stacks[:]
        w.pots = self.pots[:]
        w.house = self.house
        w.hands = [h[:] for h in self.hands]
        w.piles = [p[:] for p in self.piles]
        w.drawn = self.drawn
        w.drawn_from = self.drawn_from
        w.stood = self.stood[:]
        w.stood_now = self.stood_now[:]
        w.embargoed = self.embargoed[:]
        w.immune = self.immune[:]
        w.must_stand = self.must_stand
        w.token_now = self.token_now
        w.free_draw = self.free_draw
        w.rules = self.rules
        w.tokens_left = [t[:] for t in self.tokens_left]
        w.tokens_used = [t[:] for t in self.tokens_used]
        w.phase = self.phase
        w.to_act = self.to_act
        w.dice = self.dice
        w.pending = self.pending[:]
        w.chosen = dict(self.chosen)
        w.rng = None
        w.seed = seed
        return w

    def _rand(self) -> random.Random | SplitMix:
        if self.rng is None:
            self.rng = SplitMix(self.seed)
        return self.rng

    # ------------------------------------------------------------------ legal actions
    def legal(self) -> list[Action]:
        """The legal actions, in the engine's order (``KesselGame.legal_actions``)."""
        seat = self.to_act
        phase = self.phase
        if seat is None or phase == "end":
            return []
        if phase == "turn":
            out: list[Action] = [STAND]
            if not self.must_stand and (self.stacks[seat] >= 1 or self.free_draw):
                sd, bd, sx, bx = self.piles
                if sd or len(sx) >= 2:
                    out.append(DRAWS["sand"])
                if bd or len(bx) >= 2:
                    out.append(DRAWS["blood"])
                if sx:
                    out.append(DRAWS["sand discard"])
                if bx:
                    out.append(DRAWS["blood discard"])
            if not self.token_now:
                out.extend(
                    token_actions(seat, self.tokens_left[seat], self.order, self.immune, self.stood)
                )
            return out
        if phase == "draw":
            return [KEEP, DISCARD_DRAWN]
        assert self.dice is not None
        values = sorted(set(self.dice))
        if phase == "impostor":
            return [IMPOSTOR_CHOICES[v] for v in values]
        return [PRIME_CHOICES[v] for v in values]

    # ------------------------------------------------------------------ transitions
    def apply(self, action: Action) -> None:
        """Play a legal ``action`` for the player to act (unchecked: search plays only legal
        actions)."""
        seat = self.to_act
        assert seat is not None
        t = type(action)
        if t is PlayToken:
            assert isinstance(action, PlayToken)
            self._token(seat, action.token, action.target)
        elif t is Stand:
            self.stood[seat] = True
            self.stood_now[seat] = True
            self._next_turn()
        elif t is Draw:
            assert isinstance(action, Draw)
            if not self.free_draw:
                self._to_pot(seat, 1)
            self.free_draw = False
            src = _SOURCES.index(action.source)
            if src >= 2:
                self.drawn = self.piles[src].pop()
            else:
                self.drawn = self._take(src)
            self.drawn_from = src
            self.phase = "draw"
        elif t is Keep or t is DiscardDrawn:
            card = self.drawn
            assert card is not None
            fam = self.drawn_from & 1  # 0 Sand, 1 Blood
            self.drawn = None
            self.drawn_from = -1
            if t is Keep:
                hand = self.hands[seat]
                hand[fam], card = card, hand[fam]
            self.piles[2 + fam].append(card)
            self._next_turn()
        elif t is ChoosePrime:
            assert isinstance(action, ChoosePrime)
            r = self.rules
            self.rules = Rules(r.major_fraud, r.markdown, r.cook_the_books, action.value)
            self.dice = None
            self.phase = "turn"
        else:
            assert isinstance(action, ChooseImpostor)
            where = self.pending.pop(0)
            self.chosen[where] = action.value
            self.dice = None
            self._next_impostor()

    def _begin(self, seat: int) -> None:
        self.phase = "turn"
        self.to_act = seat
        self.token_now = False
        self.free_draw = False
        self.must_stand = self.embargoed[seat]
        self.embargoed[seat] = False

    def _next_turn(self) -> None:
        self.pos += 1
        order = self.order
        if self.pos >= len(order):
            if self.early_end and all(self.stood_now[s] for s in order):
                self._reveal()
                return
            if self.turn >= self.turns:
                self._reveal()
                return
            self.turn += 1
            self.pos = 0
            self.stood_now = [False] * self.n
        self._begin(order[self.pos])

    def _take(self, fam: int) -> int:
        """The top of a family's draw pile, refilled first if empty (discards but the top)."""
        draw, discard = self.piles[fam], self.piles[2 + fam]
        if not draw:
            top = discard.pop()
            rand = self._rand().random
            pool = sorted(discard, key=lambda _: rand())
            discard[:] = [top]
            draw.extend(pool)
        return draw.pop()

    def _to_pot(self, seat: int, amount: int) -> None:
        amount = min(amount, self.stacks[seat])
        if amount > 0:
            self.stacks[seat] -= amount
            self.pots[seat] += amount

    def _roll(self, seat: int) -> None:
        rand = self._rand().randrange
        self.dice = (rand(6) + 1, rand(6) + 1)
        self.to_act = seat

    def _token(self, seat: int, name: str, target: int | None) -> None:
        self.tokens_left[seat].remove(name)
        self.tokens_used[seat].append(name)
        self.token_now = True
        others = [o for o in self.order if o != seat and not self.immune[o]]
        pots = self.pots
        if name == "free_draw":
            self.free_draw = True
        elif name in ("refund", "extra_refund"):
            back = min(2 if name == "refund" else 3, pots[seat])
            pots[seat] -= back
            self.stacks[seat] += back
        elif name == "embezzlement":
            for o in others:
                if pots[o] > 0:
                    pots[o] -= 1
                    pots[seat] += 1
        elif name == "general_tariff":
            for o in others:
                self._to_pot(o, 1)
        elif name == "general_audit":
            for o in others:
                if self.stood[o]:
                    self._to_pot(o, 2)
        elif name in ("target_tariff", "target_audit"):
            assert target is not None
            self._to_pot(target, 2 if name == "target_tariff" else 3)
        elif name in ("major_fraud", "markdown", "cook_the_books"):
            r = self.rules
            self.rules = Rules(
                r.major_fraud or name == "major_fraud",
                r.markdown or name == "markdown",
                r.cook_the_books or name == "cook_the_books",
                r.prime,
            )
        elif name == "prime_sabacc":
            self._roll(seat)
            self.phase = "prime"
        elif name == "immunity":
            self.immune[seat] = True
            self.must_stand = False
            self.embargoed[seat] = False
        elif name == "exhaustion":
            assert target is not None
            hand = self.hands[target]
            self.piles[2].append(hand[0])
            self.piles[3].append(hand[1])
            self.hands[target] = [self._take(0), self._take(1)]
        elif name == "direct_transaction":
            assert target is not None
            hands = self.hands
            hands[seat], hands[target] = hands[target], hands[seat]
        else:  # embargo
            if self.pos + 1 < len(self.order):
                nxt: int | None = self.order[self.pos + 1]
            else:
                nxt = self.order[0] if self.turn < self.turns else None
            if nxt is not None and nxt != seat and not self.immune[nxt]:
                self.embargoed[nxt] = True

    def _reveal(self) -> None:
        if not self.rules.major_fraud:
            self.pending = [
                (s, i) for s in self.order for i in (0, 1) if self.hands[s][i] == IMPOSTOR
            ]
        self._next_impostor()

    def _next_impostor(self) -> None:
        if self.pending:
            self.phase = "impostor"
            self._roll(self.pending[0][0])
            return
        self._payout()

    def _resolved(self, s: int, i: int) -> int:
        v = self.hands[s][i]
        if v != IMPOSTOR:
            return v
        if self.rules.major_fraud:
            return 6
        return self.chosen.get((s, i), IMPOSTOR)

    def _payout(self) -> None:
        rules = self.rules
        keys = {s: _key(self._resolved(s, 0), self._resolved(s, 1), rules) for s in self.order}
        best = max(k for k, _ in keys.values())
        for s in self.order:
            key, pen = keys[s]
            if key == best:
                self.stacks[s] += self.pots[s]
            else:
                pen = min(pen, self.stacks[s])
                self.stacks[s] -= pen
                self.house += self.pots[s] + pen
            self.pots[s] = 0
        self.dice = None
        self.phase = "end"
        self.to_act = None

    # ------------------------------------------------------------------ search
    def situation(self, seat: int) -> Situation:
        """What ``seat`` knows, as the heuristic reads it (its own hand, the discard tops, the
        card it drew, chips, rules and public token facts; never another hand)."""
        sand_top = self.piles[2][-1] if self.piles[2] else None
        blood_top = self.piles[3][-1] if self.piles[3] else None
        hand = self.hands[seat]
        mine = self.to_act == seat and self.drawn is not None
        return Situation(
            me=seat,
            # An Impostor whose die is chosen counts as that value.
            a=self.chosen.get((seat, 0), hand[0]) if hand else None,
            b=self.chosen.get((seat, 1), hand[1]) if hand else None,
            sand_top=sand_top,
            blood_top=blood_top,
            drawn=self.drawn if mine else None,
            drawn_fam=("s", "b")[self.drawn_from & 1] if mine else None,
            stacks=self.stacks,
            pots=self.pots,
            alive=self.order,
            rules=self.rules,
            counts=self.counts,
            turn=self.turn,
            turns=self.turns,
            stood=self.stood,
            immune=self.immune,
            tokens_left=[len(t) for t in self.tokens_left],
            free=self.free_draw,
        )

    def _choice(self, seat: int) -> Action:
        """The heuristic's action for ``seat`` (the player to act): the cached card part, then
        any token that beats it (the same choice as :func:`situation_choice` on
        :meth:`situation` and :meth:`legal`)."""
        phase = self.phase
        if phase != "draw" and phase != "turn":
            return situation_choice(self.situation(seat), self.legal())
        piles = self.piles
        if phase == "draw":
            mask = 0b1100000
            drawn, fam = self.drawn, ("s", "b")[self.drawn_from & 1]
        else:
            mask = 1
            drawn, fam = None, None
            if not self.must_stand and (self.stacks[seat] >= 1 or self.free_draw):
                sd, bd, sx, bx = piles
                mask |= (
                    (2 if sd or len(sx) >= 2 else 0)
                    | (4 if bd or len(bx) >= 2 else 0)
                    | (8 if sx else 0)
                    | (16 if bx else 0)
                )
        hand = self.hands[seat]
        action, score, stand = best_card_action(
            hand[0],
            hand[1],
            piles[2][-1] if piles[2] else None,
            piles[3][-1] if piles[3] else None,
            drawn,
            fam,
            self.pots[seat],
            max(1, len(self.order) - 1),
            self.rules,
            self.counts,
            self.free_draw,
            mask,
        )
        tokens = self.tokens_left[seat]
        if phase == "draw" or self.token_now or not tokens:
            return action
        token = best_token(self.situation(seat), tokens, self.order, score, stand)
        return action if token is None else token

    def rollout(self, seat: int, action: Action, seed: int) -> tuple[float, int]:
        """Play ``action``, then the rest of the round by the heuristic for every seat.

        Returns ``seat``'s chip change from now to the end of the round (stock after the
        payout minus stock now), and the actions played."""
        w = self.copy(seed)
        before = w.stacks[seat]
        w.apply(action)
        steps = 1
        while w.phase != "end" and steps < MAX_STEPS:
            actor = w.to_act
            assert actor is not None
            w.apply(w._choice(actor))
            steps += 1
        return float(w.stacks[seat] - before), steps


def search_sampler(game: Any, seat: int) -> Callable[[random.Random], KesselWorld] | None:
    """Worlds as ``seat`` of ``game`` might imagine them (see the module docstring); None when
    the game has no round in play."""
    if game.over or game.to_act is None or game.phase not in ("turn", "draw", "impostor", "prime"):
        return None
    base = KesselWorld.from_game(game)
    base.rng = None
    known_ids = game.seen[seat]
    # Hidden places: other hands' cards seat has not seen, both draw piles, a card another
    # player drew face down; each family's unseen kinds, in a canonical order.
    places: list[tuple[list[tuple[int, int]], list[int]]] = []
    for fam in (0, 1):
        where: list[tuple[int, int]] = []  # (-1 - pile | seat, index)
        kinds: list[int] = []
        for s in range(game.n):
            if s == seat or not game.hands[s]:
                continue
            card = game.hands[s][fam]
            if card.id not in game.public_ids[s] and card.id not in known_ids:
                where.append((s, fam))
                kinds.append(card.value)
        for i, card in enumerate(game.sand_draw if fam == 0 else game.blood_draw):
            where.append((-1 - fam, i))
            kinds.append(card.value)
        if (
            game.drawn
            and game.to_act != seat
            and not str(game.drawn_from).endswith("discard")
            and _SOURCES.index(game.drawn_from) & 1 == fam
        ):
            where.append((-3, 0))
            kinds.append(game.drawn[0].value)
        kinds.sort()
        places.append((where, kinds))
    draft = game.options.shift_tokens == "draft"
    secret = [
        (s, len(game.tokens_left[s]), [t for t in TOKENS if t not in game.tokens_used[s]])
        for s in range(game.n)
        if draft and s != seat and game.tokens_left[s]
    ]

    def sample(rng: random.Random) -> KesselWorld:
        w = base.copy(rng.getrandbits(64))
        for where, kinds in places:
            cards = kinds[:]
            rng.shuffle(cards)
            for (at, i), kind in zip(where, cards, strict=True):
                if at >= 0:
                    w.hands[at][i] = kind
                elif at == -3:
                    w.drawn = kind
                else:
                    w.piles[-1 - at][i] = kind
        for s, count, pool in secret:
            w.tokens_left[s] = rng.sample(pool, count)
        return w

    return sample
