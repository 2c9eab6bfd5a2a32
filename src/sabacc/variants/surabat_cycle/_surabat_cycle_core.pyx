# cython: language_level=3
"""The compiled Surabat Cycle engine: the rules of :mod:`sabacc.variants.surabat_cycle.rules` on
C arrays (see :mod:`sabacc.variants.corellian_spike._corellian_spike_core` for what a compiled
core keeps and leaves out).

The Spike family's shared core (``sabacc/variants/spike_family/_spike_family.pxi``) compiled
with Surabat Cycle's own rules below (the ``r_*`` functions the family file calls), and its
public class :class:`SurabatCore`.
"""

include "sabacc/variants/spike_family/_spike_family.pxi"
include "sabacc/variants/spike_family/_spike_fresh_actions.pxi"
include "sabacc/variants/spike_family/_spike_values.pxi"

from sabacc.variants.spike_family.actions import Discard
from sabacc.variants.surabat_cycle.rules import (
    SurabatGame, SurabatOptions, discard_action, gain_action,
)

cdef tuple _SWAP_MOON = tuple(swap_action("moon", v) for v in range(-10, 11))
cdef tuple _GAINS = tuple(gain_action(v) for v in range(-10, 11))
cdef tuple _DISCARDS = tuple(discard_action(v) for v in range(-10, 11))


# ---------------------------------------------------------------------------------- the rules, in C
# Surabat Cycle's rules where the family's differ (the ``r_*`` hooks the family file calls), and
# its own (the ``s_*`` functions: sabacc.variants.surabat_cycle.rules.SurabatGame's overrides).

cdef inline void r_read_options(Opts* o, object options) except *:
    f_read_card_options(o, options)

cdef inline void r_card_legal(State* st, Opts* o, int s) noexcept nogil:
    """Stand; gain from the Sun pile; swap with the Moon pile's top (a card or discard phase;
    the discard phase's actions are the hand's cards)."""
    cdef long long stack = st.stacks[s]
    g_clear_legal(st)
    st.can_gain = st.nsun > 0 and stack >= o.gain_fee
    st.can_swap_moon = st.nmoon > 0 and stack >= o.swap_fee

cdef inline bint r_can_draw(State* st, Opts* o) noexcept nogil:
    return st.ndraw > 0 or st.ndiscard > 0 or st.nmuck > 0  # the whole discard stack reshuffles

cdef inline long long r_ante(State* st, Opts* o) noexcept nogil:
    return o.ante

cdef inline long long r_hand_ante(State* st, Opts* o) noexcept nogil:
    return o.ante

cdef void r_reshuffle(State* st, Opts* o) noexcept nogil:
    """The whole discard stack: face-up discards, then junked hands."""
    cdef int k = 0, i
    for i in range(st.ndiscard):
        st.draw[k] = st.discard[i]
        k += 1
    for i in range(st.nmuck):
        st.draw[k] = st.muck[i]
        k += 1
    st.ndiscard = 0
    st.nmuck = 0
    mt_shuffle_sorted(&st.rng, st.draw, k)
    st.ndraw = k

cdef inline void r_reset_hand(State* st, Opts* o) noexcept nogil:
    cdef int s
    st.nsun = st.nmoon = st.nround = 0
    st.starting = -1
    for s in range(MAXP):
        st.seen[s] = 0

cdef inline void r_deal(State* st, Opts* o) noexcept nogil:
    s_deal(st, o)

cdef inline int r_card_order(State* st, Opts* o, int* order) noexcept nogil:
    """The start rotates among the seats dealt in; a junked seat passes it to its left."""
    cdef int start = st.round_seats[(st.round - 1) % st.nround]
    cdef int k = g_order_from(st, start, order)
    st.starting = order[0] if k else start
    return k

cdef inline int r_betting_start(State* st, Opts* o) noexcept nogil:
    return st.starting if st.starting >= 0 else st.round_seats[0]

cdef inline void r_card_act(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    if s_card_act(st, o, s, kind, arg):
        g_next_card_turn(st, o)

cdef inline void r_on_junk(State* st, Opts* o, int s) noexcept nogil:
    s_forget(st, s_hand_mask(st, s))

cdef inline void r_after_betting(State* st, Opts* o) noexcept nogil:
    g_roll_spike_dice(st, o)
    st.phase = PH_CYCLE  # the Cycle phase: a Sun card, a Moon card
    st.to_act = -1
    s_add_sun(st, o)
    s_add_moon(st, o)
    g_next_round(st, o)

cdef inline void r_after_shift(State* st, Opts* o) noexcept nogil:
    cdef int s
    for s in range(MAXP):  # nothing flipped after a shift; all private knowledge goes
        st.seen[s] = 0


DEF SUN_SIZE = 3
DEF MOON_SIZE = 2

cdef inline uint64_t s_hand_mask(State* st, int s) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(st.hlen[s]):
        m |= (<uint64_t>1) << st.hands[s][i]
    return m

cdef inline void s_forget(State* st, uint64_t ids) noexcept nogil:
    """Nobody keeps private knowledge of these cards' whereabouts any more."""
    cdef int v
    for v in range(st.n):
        st.seen[v] &= ~ids

cdef void s_add_sun(State* st, Opts* o) noexcept nogil:
    if g_can_draw(st, o):
        st.sun[st.nsun] = g_draw(st, o)
        st.nsun += 1

cdef void s_add_moon(State* st, Opts* o) noexcept nogil:
    if g_can_draw(st, o):
        st.moon[st.nmoon] = g_draw(st, o)
        st.moon_owner[st.nmoon] = -1
        st.nmoon += 1

cdef void s_deal(State* st, Opts* o) noexcept nogil:
    """The array (three Sun cards, two Moon cards), then two cards each from the dealer's left."""
    cdef int order[MAXP]
    cdef int k, i
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
    for i in range(k):
        st.round_seats[i] = <signed char>order[i]
    st.nround = k
    for i in range(SUN_SIZE):
        s_add_sun(st, o)
    for i in range(MOON_SIZE):
        s_add_moon(st, o)
    g_deal_round(st, order, k, 2)
    st.round = 1
    g_begin_card_phase(st, o)

cdef signed char r_take_from_hand(State* st, Opts* o, int s, int value) noexcept nogil:
    """Remove a card of ``value``: a copy everyone knows first, then one somebody knows."""
    cdef int i, v, idx = -1, best = -1, score
    cdef signed char c
    cdef uint64_t bit, anyone = 0
    for v in range(st.n):
        anyone |= st.seen[v]
    for i in range(st.hlen[s]):
        c = st.hands[s][i]
        if VAL[c] != value:
            continue
        if st.pub[c]:
            score = 2
        elif anyone >> c & 1:
            score = 1
        else:
            score = 0
        if score > best:
            idx = i
            best = score
            if score == 2:
                break
    c = st.hands[s][idx]
    for i in range(idx, st.hlen[s] - 1):
        st.hands[s][i] = st.hands[s][i + 1]
    st.hlen[s] -= 1
    st.pub[c] = 0
    bit = (<uint64_t>1) << c
    s_forget(st, bit)
    return c

cdef bint s_card_act(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    """A Card or Discard phase action of Surabat Cycle; False when the same seat must now
    discard (the turn does not move on)."""
    cdef int i, idx = -1, placer
    cdef signed char c, given, taken
    if kind == A_DISCARD:
        c = g_take_from_hand(st, o, s, <int>arg)
        st.discard[st.ndiscard] = c
        st.ndiscard += 1
        st.phase = PH_CARD
        return True
    if kind == A_SUN_GAIN:
        g_pay(st, s, o.gain_fee, 2)
        for i in range(st.nsun):  # the newest copy
            if VAL[st.sun[i]] == arg:
                idx = i
        c = st.sun[idx]
        for i in range(idx, st.nsun - 1):
            st.sun[i] = st.sun[i + 1]
        st.nsun -= 1
        st.hands[s][st.hlen[s]] = c
        st.hlen[s] += 1
        st.pub[c] = 1
        if st.nsun == 0:  # restock at once: the next player has three Sun cards to choose from
            for i in range(SUN_SIZE):
                s_add_sun(st, o)
        if st.hlen[s] > o.hand_cap:
            st.phase = PH_DISCARD  # the same player must discard back to the cap
            return False
        return True
    if kind == A_SWAP_MOON:
        g_pay(st, s, o.swap_fee, 2)
        given = g_take_from_hand(st, o, s, <int>arg)
        # Nobody else can tell which card went face down: they forget what they knew of the hand.
        for i in range(st.hlen[s]):
            st.pub[st.hands[s][i]] = 0
        s_forget(st, s_hand_mask(st, s))
        st.nmoon -= 1
        taken = st.moon[st.nmoon]
        placer = st.moon_owner[st.nmoon]
        st.hands[s][st.hlen[s]] = taken
        st.hlen[s] += 1
        if placer >= 0 and placer != s:
            st.seen[placer] |= (<uint64_t>1) << taken  # who put it there knows where it went
        st.moon[st.nmoon] = given
        st.moon_owner[st.nmoon] = <signed char>s
        st.nmoon += 1
    return True


# ---------------------------------------------------------------------------------- the rules, for Python
# (the hooks SpikeFamilyCore's Python-facing members call)

cdef inline object r_public_text(SpikeFamilyCore self, int s, object action):
    if type(action) is _Swap and action.source == "moon":  # which card went is not shown
        return "swap moon"
    return None

cdef inline object r_hidden_last(str text):
    return _SWAP_MOON[10] if text == "swap moon" else None  # the table saw no card

cdef list r_card_list(SpikeFamilyCore self):
    cdef list out
    cdef int seen[21]
    cdef int sun[21]
    cdef int i, v, s = self.st.to_act
    memset(seen, 0, sizeof(seen))
    for i in range(self.st.hlen[s]):
        seen[VAL[self.st.hands[s][i]] + 10] = 1
    if self.st.phase == PH_DISCARD:
        return [_DISCARDS[v] for v in range(21) if seen[v]]
    out = [_STAND]
    if self.st.can_gain:
        memset(sun, 0, sizeof(sun))
        for i in range(self.st.nsun):
            sun[VAL[self.st.sun[i]] + 10] = 1
        f_append_values(out, sun, _GAINS)
    if self.st.can_swap_moon:
        f_append_values(out, seen, _SWAP_MOON)
    return out

cdef bint r_card_contains(SpikeFamilyCore self, object action) except -1:
    cdef State* st = &self.st
    cdef int s = st.to_act, i
    t = type(action)
    if st.phase == PH_DISCARD:
        if t is not _Discard:
            return False
    elif t is _Stand:
        return True
    elif t is _Gain:
        a = action.value
        if not isinstance(a, int) or isinstance(a, bool) or not st.can_gain:
            return False
        for i in range(st.nsun):
            if VAL[st.sun[i]] == a:
                return True
        return False
    elif t is not _Swap or action.source != "moon" or not st.can_swap_moon:
        return False
    a = action.value
    if not isinstance(a, int) or isinstance(a, bool) or not -10 <= a <= 10:
        return False  # (no card has another value)
    return g_holds(st, s, a)

cdef int r_card_kind(SpikeFamilyCore self, object action, long long* arg) except -1:
    t = type(action)
    if t is _Stand:
        return A_STAND
    arg[0] = action.value
    if t is _Gain:
        return A_SUN_GAIN
    if t is _Swap:
        return A_SWAP_MOON
    return A_DISCARD

cdef tuple r_part(_BettingCore self):
    """:func:`sabacc.variants.surabat_cycle.rules.surabat_extra`'s values."""
    cdef State* st = &self.st
    cdef int i
    return (
        st.round, g_rounds(st, &self.o), None if st.starting < 0 else st.starting,
        self.o.hand_cap, tuple([_CODES[st.sun[i]] for i in range(st.nsun)]),
        tuple([_CODES[st.moon[i]] for i in range(st.nmoon)]),
        tuple([None if st.moon_owner[i] < 0 else st.moon_owner[i] for i in range(st.nmoon)]),
        tuple([_CODES[st.discard[i]] for i in range(st.ndiscard)]), st.nmuck, st.ndraw,
        (st.d1, st.d2) if st.d1 else None,
    )

cdef inline object r_view_kind(object action):
    return action.kind

cdef tuple r_view_extra(SpikeFamilyCore self, int seat):
    cdef State* st = &self.st
    cdef int n = st.n, i
    return (
        st.round, g_rounds(st, &self.o),
        -1 if st.starting < 0 else (st.starting - seat + n) % n,
        (<char*>st.sun)[:st.nsun], st.nmoon,
        tuple([st.moon[i] if st.moon_owner[i] == seat else -1 for i in range(st.nmoon)]),
        (<char*>st.discard)[:st.ndiscard], st.ndraw, st.nmuck,
        st.d1 != 0 and st.d1 == st.d2,
    )

cdef int r_hidden_piles(State* st, int viewer, signed char** places, int k,
                        list cards) except -1:
    """The Moon cards this seat did not put there."""
    cdef int i
    for i in range(st.nmoon):
        if st.moon_owner[i] != viewer:
            places[k] = &st.moon[i]
            k += 1
            cards.append(st.moon[i])
    return k


# ---------------------------------------------------------------------------------- the core
cdef class SurabatCore(SpikeFamilyCore):
    """A game of Surabat Cycle on the compiled engine: the Spike family's core with this
    module's rules (the Sun and Moon piles, the forced discard, the rotating start, the Cycle
    phase, the whole discard stack reshuffled, who saw which Moon card), the reference being
    :class:`~sabacc.variants.surabat_cycle.rules.SurabatGame`.

    ``SurabatCore(options, seed=7, players=4)``, or
    ``sabacc.new_game("surabat", engine="compiled")``.
    """

    _game_type = SurabatGame
    _options_type = SurabatOptions

    @property
    def sun(self):
        return [_CARDS[self.st.sun[i]] for i in range(self.st.nsun)]

    @property
    def moon(self):
        return [_CARDS[self.st.moon[i]] for i in range(self.st.nmoon)]

    @property
    def moon_owner(self):
        return [None if self.st.moon_owner[i] < 0 else <int>self.st.moon_owner[i]
                for i in range(self.st.nmoon)]

    @property
    def seen(self):
        """``seen[v]``: ids of cards in other seats' hands that ``v`` alone knows about."""
        return [{c for c in range(NC) if self.st.seen[v] >> c & 1} for v in range(self.st.n)]

    @property
    def round_seats(self):
        return [<int>self.st.round_seats[i] for i in range(self.st.nround)]

    @property
    def starting_player(self):
        return None if self.st.starting < 0 else self.st.starting

    def card_locations(self):
        """Every card of the deck: the hands, then the draw, Sun, Moon, discard and muck piles."""
        return ([c for h in self.hands for c in h] + self.draw + self.sun + self.moon
                + self.discard + self.muck)

    def full_state(self):
        """Every hidden card too (as :meth:`SurabatGame.full_state`): for debugging and tests."""
        cdef State* st = &self.st
        cdef int s, i
        return {
            "hands": [[_CODES[st.hands[s][i]] for i in range(st.hlen[s])] for s in range(st.n)],
            "draw": [_CODES[st.draw[i]] for i in range(st.ndraw)],
            "sun": [_CODES[st.sun[i]] for i in range(st.nsun)],
            "moon": [_CODES[st.moon[i]] for i in range(st.nmoon)],
            "moon_owner": self.moon_owner,
            "discard": [_CODES[st.discard[i]] for i in range(st.ndiscard)],
            "muck": [_CODES[st.muck[i]] for i in range(st.nmuck)],
            "seen": [sorted(k) for k in self.seen],
            "observation": self.observation(None),
        }

    def snapshot(self):
        """Snapshots (:class:`SpikeSnapshot`) cover Corellian Spike only, as on the reference
        engine: use :meth:`from_game` to copy a reference Surabat game."""
        raise TypeError(f"snapshot() covers Corellian Spike, not {SurabatGame.info.title}")

    @staticmethod
    def from_snapshot(snapshot):
        raise TypeError("from_snapshot rebuilds a Corellian Spike game from SpikeOptions")

    @staticmethod
    def from_game(game):
        """A compiled copy of a reference :class:`SurabatGame`'s current state, RNG state and
        logs included: it goes on exactly as ``game`` would (search bots sample and play out
        many worlds from one position)."""
        cdef SurabatCore new = SurabatCore.__new__(SurabatCore)
        cdef State* st = &new.st
        cdef int s, i
        if type(game) is not SurabatGame:
            raise OptionError("from_game copies a Surabat Cycle game of the reference engine")
        _copy_reference(new, game)
        st.nsun = _put_ids(st.sun, game.sun)
        st.nmoon = _put_ids(st.moon, game.moon)
        for i in range(st.nmoon):
            owner = game.moon_owner[i]
            st.moon_owner[i] = -1 if owner is None else owner
        st.nround = len(game.round_seats)
        for i, s in enumerate(game.round_seats):
            st.round_seats[i] = s
        st.starting = -1 if game.starting_player is None else game.starting_player
        for s in range(st.n):
            for c in game.seen[s]:
                st.seen[s] |= (<uint64_t>1) << <int>c
        return new
