# The Spike family's compiled core: what the family's variants share (the card tables, the C state, options, antes, betting, side pots, the spike dice, showdown,
# the action log and the Python protocol, on the kernel in sabacc/variants/_kernel), written
# once. It is not a module of its own: each variant's core module (``_<variant>_core.pyx`` in its
# package) includes it first and then defines its own rules as the ``r_*`` functions below, which
# this file calls where the family's variants differ. So every core is compiled with its own
# rules in place (the C compiler inlines them: no run-time branch on the variant, no indirect
# call), and this file names no variant.
#
# What a variant's core module defines (docs/engines.md, "The compiled cores"):
#   C rules (State* st, Opts* o, ...; nogil, noexcept):
#     r_read_options(o, options)      its options beyond the family's (fees, cap, rounds...)
#     r_card_legal(st, o, s)          the flags of a card decision (g_clear_legal first)
#     r_can_draw(st, o)               whether a card can be drawn (what reshuffles)
#     r_reshuffle(st, o)              the discards back into the draw pile
#     r_take_from_hand(st, o, s, v)   which copy of a value leaves a hand
#     r_ante(st, o), r_hand_ante(st, o)   the ante a seat must cover / this hand's ante
#     r_reset_hand(st, o)             its own per-hand state
#     r_deal(st, o)                   the deal, on to the first decision
#     r_card_order(st, o, order)      the seats of a card phase, in turn
#     r_betting_start(st, o)          where a betting round starts
#     r_card_act(st, o, s, kind, arg) a card action, on to the next decision
#     r_on_junk(st, o, s)             what a junk changes beyond the muck
#     r_after_betting(st, o)          after a betting round (dice, its phases, next round)
#     r_after_shift(st, o)            the end of a Sabacc Shift
#     r_strength(st, cards, size)     a hand's packed strength (greater is better)
#   Python-facing rules (on the SpikeFamilyCore):
#     r_card_actions, r_card_list, r_card_contains, r_card_kind   the card decisions' actions
#     r_listed, r_clone_listed, r_forget_listed   actions the core builds per decision
#     r_public_text, r_hidden_last    what the table sees of an action
#     r_evaluate, r_shown_value, r_you_hand   hand values in results and observations
#     r_observe, r_view_kind, r_view_extra    its part of the observation and the seat view
#     r_hidden_piles                  its hidden piles, for determinize
# and then its public class, a subclass of SpikeFamilyCore setting _game_type and _options_type.

from libc.stdint cimport uint32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.object cimport PyObject, PyObject_GenericSetAttr
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM
from cpython.list cimport PyList_GET_ITEM

from sabacc.variants._kernel._mt cimport (
    MT, MT_INIT, MT_N, mt_below, mt_die, mt_init_genrand, mt_next, mt_random, mt_seed,
    mt_shuffle_sorted,
)

import random as _random
from collections.abc import Mapping as _Mapping

from sabacc.variants.spike_family.actions import Discard, swap_action
from sabacc.variants.spike_family.deck import SPIKE_DECK
from sabacc.engine.betting import Legal, NO_ACTIONS, Pot
from sabacc.engine.game import (
    HISTORY_FORMAT, HISTORY_VERSION, GameOutcome, HandResult, PotResult, illegal_message,
    options_bet_unit, resolve_seed, seat_number,
)
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.variants.spike_family.hands import evaluate_spike
from sabacc.variants.spike_family.deck import SPIKE_STAVES

DEF MAXP = 8
DEF NC = 62
DEF MAXH = 16

DEF PH_SETUP = 0
DEF PH_CARD = 1
DEF PH_BETTING = 2
DEF PH_SPIKE = 3
DEF PH_SHOWDOWN = 4
DEF PH_OVER = 5
# The phases a family member's rules add (each variant's core sets and reads its own):
DEF PH_DISCARD = 6    # a forced discard over the hand cap
DEF PH_CYCLE = 7      # the dealer adds cards to the table's piles between rounds
DEF PH_SELECTION = 8  # the players select the cards they keep
DEF PH_SHIFT = 9      # unselected cards discarded, everyone draws back up
DEF PH_BETWEEN = 10   # a held table between hands (pause_between_hands, seat changes)


DEF GE_ORBIT = 0
DEF GE_LAST = 1
DEF GE_HANDS = 2

DEF A_STAND = 0
DEF A_GAIN = 1
DEF A_SWAP_DISCARD = 2
DEF A_SWAP_DRAW = 3
DEF A_CHECK = 4
DEF A_CALL = 5
DEF A_BET = 6
DEF A_RAISE = 7
DEF A_JUNK = 8
DEF A_SUN_GAIN = 9      # gain <value> from a face-up pile
DEF A_SWAP_MOON = 10    # swap <value> with a face-down pile's top
DEF A_DISCARD = 11      # discard <value> (over the hand cap)
DEF A_KEEP = 12         # keep a subset (arg: the mask of unkept positions to add)

DEF REC_SHOWDOWN = 0
DEF REC_ALL_JUNKED = 1

DEF BS_NO_LIMIT = 0
DEF BS_POT_LIMIT = 1
DEF BS_FIXED = 2

_PHASES = ("setup", "card", "betting", "spike", "showdown", "over", "discard", "cycle",
           "selection", "shift", "between_hands")
#: Seat statuses of :meth:`SpikeFamilyCore.seat_view`, as the reference ``observation`` names them.
SEAT_STATUSES = ("active", "all_in", "junked", "waiting", "out")
_STRUCTURES = {"no_limit": BS_NO_LIMIT, "pot_limit": BS_POT_LIMIT, "fixed": BS_FIXED}

ctypedef struct Opts:
    long long ante
    long long sab_ante
    long long start
    long long unit
    long long gain_fee
    long long swap_fee
    int game_end
    int hand_limit      # -1: none
    int final_split
    int rounds
    int structure
    int max_raises      # -1: unlimited
    int hand_cap
    int tie_split
    int rising_ante     # the ante rises every hand
    int fixed_target    # the target option is set (else a die decides)
    int target_value
    int fixed_suit      # 0-2 (circle, triangle, square), -1: a die decides

ctypedef struct State:
    MT rng
    int n
    long long stacks[MAXP]
    char out[MAXP]
    int hand_no
    int dealer
    int orbit_steps
    long long sabacc_pot
    long long carry
    long long house
    int to_act          # -1: nobody
    int phase
    char over
    # the hand
    signed char hands[MAXP][MAXH]
    int hlen[MAXP]
    char pub[NC]        # the card is publicly known in its holder's hand
    char in_hand[MAXP]
    char folded[MAXP]
    char acted[MAXP]
    char allin_last[MAXP]   # the seat's last action put it all-in (for its public text)
    long long committed[MAXP]
    long long round_bet[MAXP]
    long long hand_start[MAXP]
    long long dead
    long long cur_bet
    int raises
    signed char draw[NC]
    int ndraw
    signed char discard[NC]
    int ndiscard
    signed char muck[NC]
    int nmuck
    int round
    signed char queue[MAXP]
    int qlen
    int qpos
    int d1
    int d2
    # the current decision (valid while legal_ok)
    char legal_ok
    char can_gain
    char can_swap_discard
    char can_swap_draw
    char to_call_pos    # betting: there is something to call (CALL, else CHECK)
    long long bet_lo
    long long bet_hi    # 0: no bet
    long long raise_lo
    long long raise_hi  # 0: no raise
    signed char last_kind[MAXP]  # LAST_ACTIONS index of each seat's last action this hand (-1)
    # the record of the hand that ended during the last action (valid while rec_done)
    char rec_done
    char rec_reason     # REC_SHOWDOWN or REC_ALL_JUNKED
    int rec_hand
    int rec_dealer
    long long rec_net[MAXP]
    int rec_npots       # the main pot, then the side pots
    long long rec_amount[MAXP + 2]
    int rec_mask[MAXP + 2]   # winners
    char rec_sab        # the sabacc pot was won
    long long rec_sab_amount
    int rec_sab_mask
    int rec_nshown      # showdown: the hands revealed, from the dealer's left
    signed char rec_shown_seat[MAXP]
    int rec_shown_len[MAXP]
    signed char rec_shown[MAXP][MAXH]
    long long rec_carry
    long long rec_sabacc_left
    # Face-up and face-down table piles and private knowledge (their rules: the variant's)
    signed char sun[NC]         # face up; the newest card last
    int nsun
    signed char moon[NC]        # face down; the top last
    signed char moon_owner[NC]  # who put each Moon card there (-1: the dealer)
    int nmoon
    uint64_t seen[MAXP]         # seen[v]: cards in other hands v alone knows about (bit = id)
    signed char round_seats[MAXP]  # seats dealt in, from the dealer's left
    int nround
    int starting        # the round's starting player (-1: none)
    char can_swap_moon
    # A per-hand ante, target and selections (their rules: the variant's)
    long long hand_ante # this hand's ante (rises with rising_ante)
    int target
    int suit            # 0-2: circle, triangle, square
    int selection       # 1, 2 during a selection phase
    int kept_n[MAXP]    # each seat's kept cards are the first kept_n of its hand
    int rec_target
    int rec_suit
    # a custom table's (the kernel's _CoreBase), last: the hot fields keep their offsets
    char hold           # stop between hands
    int vacant          # the empty seats' mask

include "sabacc/variants/_kernel/_core_table.pxi"

#: The action codes' index in the RL features' last-action slots
#: (sabacc.engine.features.LAST_ACTIONS_V1: stand, gain, swap, discard, check, call, bet, raise,
#: junk, call hand).
cdef signed char LAST_KIND[13]
LAST_KIND[:] = [0, 1, 2, 2, 4, 5, 6, 7, 8, 1, 2, 3, -1]
_LAST_KIND_OF = {"stand": 0, "gain": 1, "swap": 2, "discard": 3, "check": 4, "call": 5, "bet": 6,
                 "raise": 7, "junk": 8}
cdef signed char VAL[NC]
cdef int _i
for _i in range(NC):
    VAL[_i] = SPIKE_DECK.cards[_i].value
_CARDS = tuple(SPIKE_DECK.cards)
cdef tuple _CODES = tuple(c.code for c in SPIKE_DECK.cards)
cdef tuple _VALUES = tuple(c.value for c in SPIKE_DECK.cards)
_SUIT_NAMES = ("circle", "triangle", "square")
cdef signed char SUITIDX[NC]  # 0-2 by _SUIT_NAMES, -1: a Sylop (counts as any suit)
for _i in range(NC):
    SUITIDX[_i] = (-1 if SPIKE_DECK.cards[_i].suit is None
                   else _SUIT_NAMES.index(SPIKE_STAVES[SPIKE_DECK.cards[_i].suit]))
#: Each card's place in the canonical card order (value, then code): a Keep lists its cards so.
cdef int CRANK[NC]
for _i, _c in enumerate(sorted(SPIKE_DECK.cards, key=lambda c: (c.value, c.code))):
    CRANK[_c.id] = _i

include "sabacc/variants/_kernel/_core_actions.pxi"

cdef object _Discard = Discard

cdef tuple _SWAP_DISCARD = tuple(swap_action("discard", v) for v in range(-10, 11))
cdef tuple _SWAP_DRAW = tuple(swap_action("draw", v) for v in range(-10, 11))


# ---------------------------------------------------------------------------------- the RNG
# The Mersenne Twister primitives are shared by every compiled core (sabacc/variants/_kernel/_mt.pxd).

cdef MT _MT_BASE  # init_genrand(19650218), where every init_by_array starts
mt_init_genrand(&_MT_BASE, <uint32_t>MT_INIT)


DEF SEED_GROUP = 16  # = G in sabacc_spike_seed_rows

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #define SABACC_RESTRICT __restrict
    #else
    #define SABACC_RESTRICT restrict
    #endif
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
    __attribute__((target_clones("avx2", "default")))
    #endif
    void sabacc_spike_seed_rows(uint32_t *SABACC_RESTRICT t, const uint32_t *SABACC_RESTRICT base,
                                const uint32_t *SABACC_RESTRICT k0,
                                const uint32_t *SABACC_RESTRICT k1) {
        /* t[624][16]: init_by_array of 16 keys of one or two words from init_genrand(19650218)
           (base), then the first regeneration; column g is generator g (see mt_seed_group). */
        enum { N = 624, M = 397, G = 16 };  /* = SEED_GROUP */
        int i = 1, it, g;
        uint32_t y;
        for (it = 0; it < N; it++)
            for (g = 0; g < G; g++) t[it * G + g] = base[it];
        for (it = 0; it < N; it++) {
            if (it & 1) {
                for (g = 0; g < G; g++) {
                    uint32_t p = t[(i - 1) * G + g];
                    t[i * G + g] = (t[i * G + g] ^ ((p ^ (p >> 30)) * 1664525u)) + k1[g];
                }
            } else {
                for (g = 0; g < G; g++) {
                    uint32_t p = t[(i - 1) * G + g];
                    t[i * G + g] = (t[i * G + g] ^ ((p ^ (p >> 30)) * 1664525u)) + k0[g];
                }
            }
            if (++i >= N) {
                for (g = 0; g < G; g++) t[g] = t[(N - 1) * G + g];
                i = 1;
            }
        }
        for (it = 0; it < N - 1; it++) {
            for (g = 0; g < G; g++) {
                uint32_t p = t[(i - 1) * G + g];
                t[i * G + g] = (t[i * G + g] ^ ((p ^ (p >> 30)) * 1566083941u)) - (uint32_t)i;
            }
            if (++i >= N) {
                for (g = 0; g < G; g++) t[g] = t[(N - 1) * G + g];
                i = 1;
            }
        }
        for (g = 0; g < G; g++) t[g] = 0x80000000u;
        for (it = 0; it < N - M; it++)
            for (g = 0; g < G; g++) {
                y = (t[it * G + g] & 0x80000000u) | (t[(it + 1) * G + g] & 0x7fffffffu);
                t[it * G + g] = t[(it + M) * G + g] ^ (y >> 1) ^ ((y & 1u) * 0x9908b0dfu);
            }
        for (; it < N - 1; it++)
            for (g = 0; g < G; g++) {
                y = (t[it * G + g] & 0x80000000u) | (t[(it + 1) * G + g] & 0x7fffffffu);
                t[it * G + g] = t[(it + M - N) * G + g] ^ (y >> 1) ^ ((y & 1u) * 0x9908b0dfu);
            }
        for (g = 0; g < G; g++) {
            y = (t[(N - 1) * G + g] & 0x80000000u) | (t[g] & 0x7fffffffu);
            t[(N - 1) * G + g] = t[(M - 1) * G + g] ^ (y >> 1) ^ ((y & 1u) * 0x9908b0dfu);
        }
    }
    """
    void sabacc_spike_seed_rows(uint32_t* t, const uint32_t* base, const uint32_t* k0,
                                const uint32_t* k1) noexcept nogil



cdef void mt_seed_group(MT** rs, const uint64_t* seeds, int count) noexcept nogil:
    """``mt_seed_u64(rs[g], seeds[g])`` for ``count`` <= SEED_GROUP generators at once.

    ``init_by_array`` is a chain of dependent steps; one seed at a time it is bound by their
    latency. Here the chains of 16 seeds advance side by side (the compiler vectorises the
    inner loops over the group; with GCC on x86-64 glibc, an AVX2 copy is also compiled and
    chosen at run time where the CPU has it), each step the same as in ``mt_init_by_array``:
    with a key of one or two words, the word added at step ``j`` is ``key[j % klen] + j % klen``.
    The first
    draw of a fresh generator regenerates its words: that is done here too, side by side (the
    state is then that of ``random.Random(seed)`` after its first ``getrandbits(32)`` call
    regenerated, with ``mti = 0``: the same stream).
    """
    cdef uint32_t t[MT_N][SEED_GROUP]
    cdef uint32_t k0[SEED_GROUP]
    cdef uint32_t k1[SEED_GROUP]
    cdef int it, g
    cdef uint64_t seed
    for g in range(SEED_GROUP):
        seed = seeds[g] if g < count else 0
        k0[g] = <uint32_t>seed
        k1[g] = <uint32_t>(seed >> 32) + 1 if seed >> 32 else <uint32_t>seed
    sabacc_spike_seed_rows(&t[0][0], _MT_BASE.mt, k0, k1)
    for it in range(MT_N):  # row by row: one cache line of t at a time
        for g in range(count):
            rs[g].mt[it] = t[it][g]
    for g in range(count):
        rs[g].mti = 0


def seed_group_sample(seeds):
    """The Mersenne Twister states ``mt_seed_group`` makes for up to 16 seeds (for tests)."""
    cdef MT rs[SEED_GROUP]
    cdef MT* ptrs[SEED_GROUP]
    cdef uint64_t keys[SEED_GROUP]
    cdef int g, count = len(seeds)
    memset(keys, 0, sizeof(keys))
    if count > SEED_GROUP:
        raise ValueError("at most 16 seeds")
    for g in range(count):
        ptrs[g] = &rs[g]
        keys[g] = seeds[g]
    mt_seed_group(ptrs, keys, count)
    return [tuple([rs[g].mt[i] for i in range(MT_N)] + [rs[g].mti]) for g in range(count)]


cdef void shuffle_like_python(object rng, list items) except *:
    """``rng.shuffle(items)`` for a plain :class:`random.Random`, done on a C copy of its
    Mersenne Twister state (same draws, same result), the state then written back."""
    cdef MT r
    cdef int i, j, n = len(items)
    version, internal, gauss = rng.getstate()
    for i in range(MT_N):
        r.mt[i] = <uint32_t>internal[i]
    r.mti = internal[MT_N]
    for i in range(n - 1, 0, -1):
        j = mt_below(&r, i + 1)
        items[i], items[j] = items[j], items[i]
    rng.setstate((version, tuple([r.mt[i] for i in range(MT_N)]) + (r.mti,), gauss))


def shuffle_sample(rng, items):
    """Shuffle a list as ``rng.shuffle`` does, through the compiled path (for tests)."""
    shuffle_like_python(rng, items)


# ---------------------------------------------------------------------------------- hands
cdef int64_t strength(signed char* cards, int size) noexcept nogil:
    """The Spike hand key of :func:`sabacc.variants.spike_family.hands.evaluate_spike`, packed into one integer.

    The 8 fields of the key tuple, each offset to 0..255, in one byte each (most significant
    first): comparing the integers compares the key tuples.
    """
    cdef int counts[21]
    cdef int absolute[11]
    cdef int pairs[10]
    cdef int triples[10]
    cdef int quads[10]
    cdef int npairs = 0, ntrip = 0, nquad = 0
    cdef int i, m, pos, total = 0, possum = 0, maxpos = 0, sylops, rank = 12, p1 = 0, p2 = 0
    cdef int present[10]
    cdef int npresent = 0
    cdef int done = 0
    memset(counts, 0, sizeof(counts))
    for i in range(size):
        counts[VAL[cards[i]] + 10] += 1
    for m in range(1, 11):
        pos = counts[10 + m]
        if pos:
            possum += m * pos
            maxpos = m
        total += m * (pos - counts[10 - m])
    if total:
        return pack(13, 0, 0, -total if total > 0 else total, 1 if total > 0 else 0, size,
                    possum, maxpos)
    sylops = counts[10]
    if size == 2 and sylops == 2:
        return pack(1, 0, 0, 0, 0, size, possum, maxpos)
    if size == 5 and counts[20] == 2 and counts[0] == 2 and sylops == 1:
        return pack(2, 0, 0, 0, 0, size, possum, maxpos)
    for m in range(1, 11):
        absolute[m] = counts[10 + m] + counts[10 - m]
        if absolute[m] >= 2:
            pairs[npairs] = m
            npairs += 1
        if absolute[m] >= 3:
            triples[ntrip] = m
            ntrip += 1
        if absolute[m] >= 4:
            quads[nquad] = m
            nquad += 1
        if absolute[m]:
            present[npresent] = m
            npresent += 1
    if size == 5 and sylops == 1 and nquad:
        rank = 3
        p1 = quads[0]
    elif sylops and npairs:
        rank = 4
        p1 = pairs[0]
    else:
        if size == 5 and not sylops and ntrip:
            for i in range(ntrip):
                for m in range(npairs):
                    if pairs[m] != triples[i]:
                        rank = 5
                        p1 = triples[i]
                        p2 = pairs[m]
                        done = 1
                        break
                if done:
                    break
        if not done:
            if size == 4 and nquad:
                rank = 6
                p1 = quads[0]
            elif size == 5 and (
                (counts[11] == 1 and counts[12] == 1 and counts[13] == 1 and counts[14] == 1
                 and counts[0] == 1)
                or (counts[9] == 1 and counts[8] == 1 and counts[7] == 1 and counts[6] == 1
                    and counts[20] == 1)
            ):
                rank = 7
            elif (size == 4 and not sylops and npresent == 4
                  and present[3] - present[0] == 3):
                rank = 8
                p1 = present[0]
            elif ntrip:
                rank = 9
                p1 = triples[0]
            elif npairs >= 2:
                rank = 10
                p1 = pairs[0]
                p2 = pairs[1]
            elif npairs:
                rank = 11
                p1 = pairs[0]
    return pack(rank, p1, p2, 0, 0, size, possum, maxpos)


cdef inline int64_t pack(int rank, int p1, int p2, int dist, int positive, int size, int possum,
                         int maxpos) noexcept nogil:
    cdef int64_t k = 13 - rank
    k = k * 256 + (10 - p1)
    k = k * 256 + (10 - p2)
    k = k * 256 + (dist + 100)
    k = k * 256 + positive
    k = k * 256 + size
    k = k * 256 + possum
    k = k * 256 + maxpos
    return k


def spike_strength(values):
    """The packed key of a hand of card values (for tests: it orders hands as ``evaluate_spike``
    does). Values are -10..10, at most 16 cards; the cards are taken from the deck by value."""
    cdef signed char cards[MAXH]
    cdef int n = 0
    cdef int used[NC]
    memset(used, 0, sizeof(used))
    for v in values:
        if n >= MAXH:
            raise ValueError("at most 16 cards")
        for i in range(NC):
            if not used[i] and VAL[i] == v:
                used[i] = 1
                cards[n] = <signed char>i
                n += 1
                break
        else:
            raise ValueError(f"no card of value {v!r} left in the deck")
    if n == 0:
        raise ValueError("a hand needs at least one card")
    return strength(cards, n)


def rng_sample(seed, int draws):
    """``[random(), randrange(6) + 1, ...]`` alternating, from the compiled RNG (for tests)."""
    cdef MT r
    mt_seed(&r, &_MT_BASE, seed)
    out = []
    for _ in range(draws):
        out.append(mt_random(&r))
        out.append(mt_die(&r))
    return out


# ---------------------------------------------------------------------------------- the game
_DEFAULT_NAMES = [None, None] + [tuple(f"Player {i + 1}" for i in range(n))
                                 for n in range(2, MAXP + 1)]
cdef object _last_options = None
cdef Opts _last_opts


cdef inline void f_append_values(list out, const int* present, tuple actions) except *:
    """Append ``actions[v]`` (a table of one action per card value -10..10, by value + 10) for
    each value ``present[v]`` marks: a card decision's list, in value order."""
    cdef int v
    for v in range(21):
        if present[v]:
            out.append(actions[v])

cdef inline void f_read_card_options(Opts* o, object options) except *:
    """The card fees, rounds (0: one per seat dealt in) and hand cap of a variant that has them."""
    o.gain_fee = options.gain_fee
    o.swap_fee = options.swap_fee
    o.rounds = 0 if options.rounds is None else options.rounds
    o.hand_cap = options.hand_cap

cdef void _read_options(Opts* o, object options) except *:
    """The options every family member has; the variant's own (card fees, hand cap, rounds,
    ante and target rules) are read by its ``r_read_options``."""
    o.ante = options.ante
    o.sab_ante = options.sabacc_ante
    o.start = options.starting_stack
    o.unit = options_bet_unit(options)  # the reference engine's rule
    o.rising_ante = o.fixed_target = o.target_value = 0
    o.fixed_suit = -1
    o.game_end = (GE_ORBIT if options.game_end == "orbit"
                  else GE_LAST if options.game_end == "last_standing" else GE_HANDS)
    limit = options.hand_limit
    o.hand_limit = -1 if limit is None else limit
    o.final_split = options.final_pot == "split"
    o.structure = _STRUCTURES[options.betting]
    o.max_raises = -1 if options.max_raises is None else options.max_raises
    o.tie_split = options.true_tie == "split"
    r_read_options(o, options)


cdef inline bint _well_formed(object action) except -1:
    """Whether ``action`` is a Spike action object with plain-int fields: the fast path of
    ``apply`` and ``is_legal``. Anything else goes through the variant's parser, the reference
    engine's one boundary (text, whole-number amounts and card values)."""
    cdef int form = _shared_form(action)
    if form >= 0:
        return form
    t = type(action)
    if t is _Gain:
        return action.value is None or type(action.value) is int
    return t is _Discard and type(action.value) is int


cdef inline int _lowest_seat(int mask) noexcept:
    cdef int s = 0
    while not mask >> s & 1:
        s += 1
    return s


# ---------------------------------------------------------------------------------- the rules, in C
# Every rule of the game as a C function on a State and its Opts (no Python objects, no GIL):
# the cores and the batched environment play through them. Where the family members' rules
# differ, these call the variant's ``r_*`` functions (its core module defines them).

cdef void g_compute_legal(State* st, Opts* o) noexcept nogil:
    cdef int s = st.to_act
    cdef long long stack, to_call
    cdef long long lo, hi
    if st.legal_ok or s < 0:
        return
    st.legal_ok = 1
    if st.phase != PH_BETTING:  # a card decision: the variant's rules
        r_card_legal(st, o, s)
        return
    g_clear_legal(st)
    stack = st.stacks[s]
    to_call = st.cur_bet - st.round_bet[s]
    if to_call <= 0:
        if st.cur_bet > 0:
            g_raise_range(st, o, s, 0, stack)
        elif g_size_range(st, o, stack, g_pot_total(st), &lo, &hi):
            st.bet_lo = lo
            st.bet_hi = hi
        return
    st.to_call_pos = 1
    g_raise_range(st, o, s, to_call, stack)

cdef inline void g_clear_legal(State* st) noexcept nogil:
    """No bet, raise or card action allowed yet (the decision's flags, before they are set)."""
    st.bet_hi = st.raise_hi = 0
    st.can_gain = st.can_swap_discard = st.can_swap_draw = 0
    st.to_call_pos = 0

cdef bint g_size_range(State* st, Opts* o, long long stack_after_call, long long pot_after_call,
                      long long* lo, long long* hi) noexcept nogil:
    cdef long long unit = o.unit if o.unit > 1 else 1
    cdef long long high
    if stack_after_call <= 0:
        return False
    if o.structure == BS_FIXED:
        high = unit
    elif o.structure == BS_POT_LIMIT:
        high = unit if unit > pot_after_call else pot_after_call
    else:
        high = stack_after_call
    if high > stack_after_call:
        high = stack_after_call
    lo[0] = unit if unit < stack_after_call else stack_after_call
    if o.structure == BS_FIXED and stack_after_call >= unit:
        lo[0] = unit
    hi[0] = high
    return True

cdef void g_raise_range(State* st, Opts* o, int s, long long to_call, long long stack) noexcept nogil:
    cdef long long lo, hi
    cdef int x, others = 0
    if st.acted[s]:
        return
    if o.max_raises >= 0 and st.raises >= o.max_raises:
        return
    for x in range(st.n):
        if x != s and st.in_hand[x] and not st.folded[x] and st.stacks[x] > 0:
            others += 1
    if not others:
        return
    if g_size_range(st, o, stack - to_call, g_pot_total(st) + to_call, &lo, &hi):
        st.raise_lo = lo
        st.raise_hi = hi

# ------------------------------------------------------------------ helpers
cdef inline bint g_can_draw(State* st, Opts* o) noexcept nogil:
    """A card can be drawn (the variant's reshuffle rule says what goes back in)."""
    return r_can_draw(st, o)

cdef inline int g_rounds(State* st, Opts* o) noexcept nogil:
    """Rounds of this hand: the option, else one per seat dealt in, 4 with two."""
    cdef int k
    if o.rounds > 0:
        return o.rounds
    k = st.nround if st.nround else st.n
    return 4 if k == 2 else k

cdef bint g_can_ante(State* st, Opts* o, int s) noexcept nogil:
    return st.stacks[s] >= r_ante(st, o) + o.sab_ante and st.stacks[s] > 0

cdef signed char g_draw(State* st, Opts* o) noexcept nogil:
    """The draw top (reshuffling first if the pile is empty); -1 if no card is left."""
    if st.ndraw == 0:
        g_reshuffle(st, o)
        if st.ndraw == 0:
            return -1
    st.ndraw -= 1
    return st.draw[st.ndraw]

cdef inline void g_reshuffle(State* st, Opts* o) noexcept nogil:
    """The discards go back into the draw pile, shuffled (which of them: the variant's rule)."""
    r_reshuffle(st, o)

cdef inline void g_reshuffle_under_top(State* st, Opts* o) noexcept nogil:
    """The discard pile but its top card, and the muck, shuffled into the draw pile."""
    cdef int k = 0, i
    for i in range(st.ndiscard - 1):
        st.draw[k] = st.discard[i]
        k += 1
    for i in range(st.nmuck):
        st.draw[k] = st.muck[i]
        k += 1
    if st.ndiscard > 0:
        st.discard[0] = st.discard[st.ndiscard - 1]
        st.ndiscard = 1
    st.nmuck = 0
    mt_shuffle_sorted(&st.rng, st.draw, k)
    st.ndraw = k

cdef inline signed char g_take_from_hand(State* st, Opts* o, int s, int value) noexcept nogil:
    """Remove a card of ``value`` from seat ``s``'s hand (which copy: the variant's rule)."""
    return r_take_from_hand(st, o, s, value)

cdef inline signed char g_take_known_first(State* st, Opts* o, int s, int value) noexcept nogil:
    """Remove a card of ``value``: a publicly known copy first, else the first copy."""
    cdef int i, idx = -1
    cdef signed char c
    for i in range(st.hlen[s]):
        c = st.hands[s][i]
        if VAL[c] == value:
            if st.pub[c]:
                idx = i
                break
            if idx < 0:
                idx = i
    c = st.hands[s][idx]
    for i in range(idx, st.hlen[s] - 1):
        st.hands[s][i] = st.hands[s][i + 1]
    st.hlen[s] -= 1
    st.pub[c] = 0
    return c

cdef void g_clear_hand(State* st, Opts* o, int s, signed char* dest, int* ndest) noexcept nogil:
    cdef int i
    cdef signed char c
    for i in range(st.hlen[s]):
        c = st.hands[s][i]
        dest[ndest[0]] = c
        ndest[0] += 1
        st.pub[c] = 0
    st.hlen[s] = 0

# ------------------------------------------------------------------ hand lifecycle
cdef void g_reset_hand_state(State* st, Opts* o) noexcept nogil:
    cdef int s
    g_reset_seats(st)
    memset(st.pub, 0, sizeof(st.pub))
    st.ndraw = st.ndiscard = st.nmuck = 0
    st.round = 0
    st.qlen = st.qpos = 0
    st.d1 = st.d2 = 0
    for s in range(st.n):
        st.last_kind[s] = -1
    r_reset_hand(st, o)

cdef void g_start_hand(State* st, Opts* o) noexcept nogil:
    cdef int s, k, i
    cdef int order[MAXP]
    cdef long long ante = r_hand_ante(st, o)
    cdef int alive_mask = g_next_hand(st, o)
    if not alive_mask:  # the game is over
        return
    g_reset_hand_state(st, o)
    st.dead = st.carry
    st.carry = 0
    k = g_odd_order(st, alive_mask, order)
    for i in range(k):
        s = order[i]
        st.in_hand[s] = 1
        g_pay(st, s, ante, 0)
        g_pay(st, s, o.sab_ante, 1)
    # deal: the whole deck, shuffled
    for i in range(NC):
        st.draw[i] = <signed char>i
    mt_shuffle_sorted(&st.rng, st.draw, NC)
    st.ndraw = NC
    r_deal(st, o)

cdef void g_begin_card_phase(State* st, Opts* o) noexcept nogil:
    cdef int order[MAXP]
    cdef int k, i
    st.phase = PH_CARD
    k = r_card_order(st, o, order)
    for i in range(k):
        st.queue[i] = <signed char>order[i]
    st.qlen = k
    st.qpos = 0
    g_next_card_turn(st, o)

cdef void g_next_card_turn(State* st, Opts* o) noexcept nogil:
    st.legal_ok = 0
    if st.qpos < st.qlen:
        st.to_act = st.queue[st.qpos]
        st.qpos += 1
    else:
        g_begin_betting(st, o)

cdef void g_begin_betting(State* st, Opts* o) noexcept nogil:
    g_open_betting(st)
    st.legal_ok = 0
    st.to_act = g_next_bettor(st, o, r_betting_start(st, o), 1)
    if st.to_act < 0:
        g_spike_phase(st, o)

cdef bint g_needs_to_act(State* st, Opts* o, int s) noexcept nogil:
    cdef int x, k = 0
    if not st.in_hand[s] or st.folded[s] or st.stacks[s] == 0:
        return False
    if st.round_bet[s] < st.cur_bet:
        return True
    if st.acted[s]:
        return False
    for x in range(st.n):
        if st.in_hand[x] and not st.folded[x] and st.stacks[x] > 0:
            k += 1
    return k > 1

cdef int g_next_bettor(State* st, Opts* o, int start, bint inclusive) noexcept nogil:
    cdef int i, s
    for i in range(0 if inclusive else 1, st.n + 1):
        s = (start + i) % st.n
        if g_needs_to_act(st, o, s):
            return s
    return -1

cdef void g_perform(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    """Play seat ``s``'s action ``kind`` (an ``A_*`` code; ``arg``: the swapped card value or
    the bet/raise amount), already checked legal, and run on to the next decision."""
    cdef bint done
    st.legal_ok = 0
    st.allin_last[s] = 0
    st.last_kind[s] = LAST_KIND[kind]
    if st.phase == PH_BETTING:
        done = g_betting_act(st, o, s, kind, arg)
        if g_all_junked_win(st, o):
            return
        if done:
            g_spike_phase(st, o)
        return
    r_card_act(st, o, s, kind, arg)

cdef inline void g_gain_or_swap(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    """Gain (a fee, the draw top) or swap a card of value ``arg`` with the discard top (seen
    by all) or the draw top, for the fees; the turn passes on."""
    cdef signed char taken, given
    if kind == A_GAIN:
        g_pay(st, s, o.gain_fee, 2)
        taken = g_draw(st, o)
        st.hands[s][st.hlen[s]] = taken
        st.hlen[s] += 1
    elif kind == A_SWAP_DISCARD or kind == A_SWAP_DRAW:
        g_pay(st, s, o.swap_fee, 2)
        if kind == A_SWAP_DISCARD:
            st.ndiscard -= 1
            taken = st.discard[st.ndiscard]
            given = g_take_from_hand(st, o, s, <int>arg)
            st.hands[s][st.hlen[s]] = taken
            st.hlen[s] += 1
            st.pub[taken] = 1
            st.discard[st.ndiscard] = given
            st.ndiscard += 1
        else:
            given = g_take_from_hand(st, o, s, <int>arg)
            taken = g_draw(st, o)
            st.hands[s][st.hlen[s]] = taken
            st.hlen[s] += 1
            st.discard[st.ndiscard] = given
            st.ndiscard += 1
    g_next_card_turn(st, o)

cdef bint g_betting_act(State* st, Opts* o, int s, int kind, long long amount) noexcept nogil:
    if kind != A_JUNK:
        g_wager(st, s, kind, amount, o.unit)
    else:  # junk: the hand is mucked face down
        st.folded[s] = 1
        r_on_junk(st, o, s)
        g_clear_hand(st, o, s, st.muck, &st.nmuck)
    if g_nlive(st) > 1:
        st.to_act = g_next_bettor(st, o, s, 0)
        if st.to_act >= 0:
            return False
    else:
        st.to_act = -1
    g_return_uncalled(st)
    return True

cdef bint g_all_junked_win(State* st, Opts* o) noexcept nogil:
    cdef int s, winner = -1
    cdef long long amount
    if g_nlive(st) != 1:
        return False
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            winner = s
    amount = g_pot_total(st)
    g_award(st, amount, 1 << winner)
    st.rec_reason = REC_ALL_JUNKED
    st.rec_npots = 1
    st.rec_amount[0] = amount
    st.rec_mask[0] = 1 << winner
    st.rec_sab = 0
    st.rec_nshown = 0
    g_finish_hand(st, o)
    return True

cdef inline void g_spike_phase(State* st, Opts* o) noexcept nogil:
    """After a betting round: the variant's rules (the spike dice, its own phases), then the
    next round or the showdown."""
    r_after_betting(st, o)

cdef inline void g_roll_spike_dice(State* st, Opts* o) noexcept nogil:
    """The spike dice: doubles make a Sabacc Shift."""
    st.phase = PH_SPIKE
    st.to_act = -1
    st.d1 = mt_die(&st.rng)
    st.d2 = mt_die(&st.rng)
    if st.d1 == st.d2:
        g_sabacc_shift(st, o)

cdef inline void g_next_round(State* st, Opts* o) noexcept nogil:
    """The next round's card phase, or the showdown after the last round."""
    if st.round < g_rounds(st, o):
        st.round += 1
        g_begin_card_phase(st, o)
    else:
        g_showdown(st, o)

cdef void g_sabacc_shift(State* st, Opts* o) noexcept nogil:
    cdef int order[MAXP]
    cdef int sizes[MAXP]
    cdef int k, i, j, s
    cdef signed char c
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
    for i in range(k):
        s = order[i]
        sizes[i] = st.hlen[s]
        g_clear_hand(st, o, s, st.discard, &st.ndiscard)
    for i in range(k):
        s = order[i]
        for j in range(sizes[i]):
            c = g_draw(st, o)
            if c < 0:  # more cards in hands than the deck holds (8 seats at hand_cap 8)
                break
            st.hands[s][st.hlen[s]] = c
            st.hlen[s] += 1
    r_after_shift(st, o)

cdef inline void g_flip_discard(State* st, Opts* o) noexcept nogil:
    """The draw top, if any, face up on the discard pile."""
    cdef signed char c = g_draw(st, o)
    if c >= 0:
        st.discard[st.ndiscard] = c
        st.ndiscard += 1

cdef void g_showdown(State* st, Opts* o) noexcept nogil:
    cdef int64_t values[MAXP]
    cdef long long amounts[MAXP + 2]
    cdef int masks[MAXP + 2]
    cdef int dec_key[MAXP + 4]
    cdef int dec_val[MAXP + 4]
    cdef int ndec = 0
    cdef int npots, i, s, live = 0, overall, best_seat = -1
    cdef int totals[MAXP]
    cdef int order[MAXP]
    cdef int j, total, k, won
    st.phase = PH_SHOWDOWN
    st.to_act = -1
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            live |= 1 << s
            values[s] = r_strength(st, st.hands[s], st.hlen[s])
            total = 0
            for j in range(st.hlen[s]):
                total += VAL[st.hands[s][j]]
            totals[s] = total
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
    st.rec_nshown = k
    for i in range(k):  # the revealed hands, for hand_results
        s = order[i]
        st.rec_shown_seat[i] = <signed char>s
        st.rec_shown_len[i] = st.hlen[s]
        memcpy(st.rec_shown[i], st.hands[s], st.hlen[s])
    npots = g_build_pots(st, amounts, masks)
    st.rec_npots = npots
    for i in range(npots):
        won = g_winners(st, o, masks[i], values, dec_key, dec_val, &ndec)
        g_award(st, amounts[i], won)
        st.rec_amount[i] = amounts[i]
        st.rec_mask[i] = won
    overall = g_winners(st, o, live, values, dec_key, dec_val, &ndec)
    for s in range(st.n):
        if overall >> s & 1:
            best_seat = s
            break
    st.rec_sab = 0
    if totals[best_seat] == 0 and st.sabacc_pot:
        st.rec_sab = 1
        st.rec_sab_amount = st.sabacc_pot
        st.rec_sab_mask = overall
        g_award(st, st.sabacc_pot, overall)
        st.sabacc_pot = 0
    st.rec_reason = REC_SHOWDOWN
    g_finish_hand(st, o)

cdef int g_winners(State* st, Opts* o, int seats, int64_t* values, int* dec_key, int* dec_val,
                  int* ndec) noexcept nogil:
    cdef int s, tied = 0, i
    cdef int64_t best = -1
    for s in range(st.n):
        if seats >> s & 1 and values[s] > best:
            best = values[s]
    for s in range(st.n):
        if seats >> s & 1 and values[s] == best:
            tied |= 1 << s
    if tied & (tied - 1) == 0:
        return tied
    for i in range(ndec[0]):
        if dec_key[i] == tied:
            return dec_val[i]
    dec_key[ndec[0]] = tied
    dec_val[ndec[0]] = g_break_true_tie(st, o, tied)
    ndec[0] += 1
    return dec_val[ndec[0] - 1]

cdef int g_break_true_tie(State* st, Opts* o, int tied) noexcept nogil:
    cdef int order[MAXP]
    cdef int drawn[MAXP]
    cdef int k, i, s, best, keep, v, closeness
    cdef signed char c
    if o.tie_split:
        return tied
    k = g_odd_order(st, tied, order)
    while k > 1:
        if not g_can_draw(st, o):
            break
        best = -1
        for i in range(k):
            if not g_can_draw(st, o):
                return g_mask_of(st, o, order, k)
            c = g_draw(st, o)
            st.discard[st.ndiscard] = c
            st.ndiscard += 1
            v = VAL[c]
            closeness = (10 - (v if v >= 0 else -v)) * 2 + (1 if v > 0 else 0)
            drawn[i] = closeness
            if closeness > best:
                best = closeness
        keep = 0
        for i in range(k):
            if drawn[i] == best:
                order[keep] = order[i]
                keep += 1
        k = keep
    return g_mask_of(st, o, order, k)

cdef inline int g_mask_of(State* st, Opts* o, int* seats, int k) noexcept nogil:
    cdef int i, m = 0
    for i in range(k):
        m |= 1 << seats[i]
    return m

cdef void g_finish_hand(State* st, Opts* o) noexcept nogil:
    """End the hand: complete its record (the rest was written by the caller) and start the
    next one."""
    g_close_hand(st)
    st.rec_target = st.target
    st.rec_suit = st.suit
    if st.hold:
        st.phase = PH_BETWEEN
    else:
        g_start_hand(st, o)

include "sabacc/variants/_kernel/_core_protocol.pxi"
include "sabacc/variants/_kernel/_core_betting.pxi"


cdef class SpikeFamilyCore(_BettingCore):
    """The compiled core of a Spike-family game (see the module docstring): the state, the
    protocol and the rules every family member shares. Each variant's core module compiles
    this file with its own rules (the ``r_*`` functions) and subclasses this class once, as
    its public core.
    """

    # _hand_data (the kernel's _BettingCore): each finished hand's (pots, sabacc, shown,
    # carried main, carried sabacc, target, suit). ``pots``: ((amount, winner mask), ...) for
    # the main pot then each side pot; ``sabacc``: (amount, winner mask) if the sabacc pot was
    # won, else None; ``shown``: ((seat, card ids as bytes), ...) of the showdown's hands from
    # the dealer's left, None when everyone else junked.
    cdef list _legal_list

    def __init__(self, options=None, *, seed=None, players=4, log=False, stacks=None,
                 pause_between_hands=False):
        cdef Opts* o = &self.o
        cdef State* st = &self.st
        cdef int s
        self._open(options, seed, players, stacks, pause_between_hands)
        self._legal_list = None
        st.hand_ante = o.ante
        g_reset_hand_state(st, o)
        for s in range(st.n):
            if g_can_ante(st, o, s):
                break
        else:
            self._cannot_ante(o.ante, o.sab_ante)
        g_start_hand(st, o)

    # ------------------------------------------------------------------ public protocol
    def legal_actions(self):
        """Every legal action for ``current_player``, each bet/raise size listed."""
        if self.st.over or self.st.to_act < 0:
            return []
        self._compute_legal()
        if self.st.phase == PH_BETTING:
            return self._betting_list()  # a new list each call: nothing kept, nothing copied
        return r_card_actions(self)

    def is_legal(self, action):
        try:
            parsed = action if _well_formed(action) else self._game_type.info.parse_action(action)
        except IllegalActionError:
            return False
        if self.st.over or self.st.to_act < 0:
            return False
        self._compute_legal()
        return self._contains(parsed)

    def apply(self, action, seat=None):
        """Apply the current player's action and run the game on to the next decision.

        Raises :class:`~sabacc.core.errors.IllegalActionError` (state unchanged) for an illegal or
        malformed action, or when ``seat`` is given and is not the current player.
        """
        return self._apply(action, seat)

    cdef object _apply(self, object action, object seat):
        """``apply``, callable from a subclass's ``apply`` without a Python-level call."""
        cdef int actor
        if not _well_formed(action) and not r_listed(self, action):
            # (an action this core listed for this decision is well formed)
            action = self._game_type.info.parse_action(action)
        return self._play(action, self._actor(seat))

    # ------------------------------------------------------------------ state, read-only copies
    @property
    def round(self):
        return self.st.round

    @property
    def last_dice(self):
        return (self.st.d1, self.st.d2) if self.st.d1 else None

    @property
    def public_ids(self):
        return [{<int>self.st.hands[s][i] for i in range(self.st.hlen[s])
                 if self.st.pub[self.st.hands[s][i]]} for s in range(self.st.n)]

    @property
    def discard(self):
        return [_CARDS[self.st.discard[i]] for i in range(self.st.ndiscard)]

    @property
    def muck(self):
        return [_CARDS[self.st.muck[i]] for i in range(self.st.nmuck)]

    @property
    def last_action(self):
        """Each seat's last action this hand as the table saw it (``"call (all-in)"``...)."""
        out = []
        for s in range(self.st.n):
            a = self._last[s]
            if a is None:
                out.append(None)
                continue
            text = r_public_text(self, s, a)  # what the variant hides of it, if anything
            if text is not None:
                out.append(text)
            elif self.st.allin_last[s]:
                out.append("call (all-in)" if type(a) is _Call else f"{a} (all-in)")
            else:
                out.append(str(a))
        return out

    def card_locations(self):
        """Every card of the deck, wherever it is now (for conservation checks)."""
        return [c for h in self.hands for c in h] + self.draw + self.discard + self.muck

    def pots(self):
        """The main pot and side pots as they stand (as :meth:`Game.pots`)."""
        cdef long long amounts[MAXP + 2]
        cdef int masks[MAXP + 2]
        cdef int k = self._build_pots(amounts, masks)
        cdef int i, s
        out = []
        for i in range(k):
            eligible = []
            for s in range(self.st.n):
                if masks[i] >> s & 1:
                    eligible.append(s)
            out.append(Pot(amounts[i], tuple(eligible)))
        return out

    def evaluate(self, cards):
        return r_evaluate(self, cards)

    def hand_strength(self, seat):
        """The packed strength of a seat's hand (greater is better; see :func:`spike_strength`),
        or None if it holds no card. Raises IndexError for a seat not at this table."""
        if type(seat) is not int or not 0 <= seat < self.st.n:
            raise IndexError(f"no seat {seat!r} at this {self.st.n}-seat table")
        if not self.st.hlen[seat]:
            return None
        return r_strength(&self.st, self.st.hands[seat], self.st.hlen[seat])

    # ------------------------------------------------------------------ legality
    cdef list _fixed_list(self):
        if self.st.phase == PH_BETTING:
            return list(_CALL_JUNK if self.st.to_call_pos else _CHECK_JUNK)
        return r_card_list(self)

    cdef bint _contains(self, object action) except -1:
        cdef State* st = &self.st
        if st.phase == PH_BETTING:
            return self._betting_contains(action)
        return r_card_contains(self, action)

    # ------------------------------------------------------------------ the rules (C functions)
    cdef inline int _build_pots(self, long long* amounts, int* masks) noexcept:
        return g_build_pots(&self.st, amounts, masks)

    cdef void _perform(self, int s, object action) except *:
        """Play a legal action object through the C rules, then log the hand it ended."""
        cdef int kind
        cdef long long arg = 0
        kind = _betting_code(action, &arg)
        if kind < 0:  # a card action: the variant's
            kind = r_card_kind(self, action, &arg)
        self._run(s, kind, arg)

    cdef void _log_hand(self) except *:
        """Append the finished hand's record (``State.rec_*``) to ``hand_nets`` and
        ``_hand_data``."""
        cdef State* st = &self.st
        cdef int i
        self._log_nets("showdown" if st.rec_reason == REC_SHOWDOWN else "all_junked")
        pots = tuple([(st.rec_amount[i], st.rec_mask[i]) for i in range(st.rec_npots)])
        if st.rec_reason == REC_SHOWDOWN:
            shown = tuple([
                (<int>st.rec_shown_seat[i], (<char*>st.rec_shown[i])[:st.rec_shown_len[i]])
                for i in range(st.rec_nshown)
            ])
            sab_won = (st.rec_sab_amount, st.rec_sab_mask) if st.rec_sab else None
        else:
            shown = None
            sab_won = None
        self._hand_data.append(
            (pots, sab_won, shown, st.rec_carry, st.rec_sabacc_left, st.rec_target, st.rec_suit)
        )
    # ------------------------------------------------------------------ results, observation
    cdef object _pot_result(self, str pot, long long amount, int mask, int dealer, str reason):
        """The :class:`PotResult` of an award: winners in odd-credit order, odd credits first."""
        cdef int order[MAXP]
        cdef int n = self.st.n, i, k = 0, s
        cdef long long base, odd
        for i in range(n):
            s = (dealer + 1 + i) % n
            if mask >> s & 1:
                order[k] = s
                k += 1
        if k == 0:  # nobody to win it (as Game._award: no shares)
            return PotResult(pot, amount, (), (), reason)
        base = amount // k
        odd = amount % k
        return PotResult(
            pot,
            amount,
            tuple([order[i] for i in range(k)]),
            tuple([base + (1 if i < odd else 0) for i in range(k)]),
            reason,
        )

    cdef object _build_result(self, int index):
        """The :class:`HandResult` of finished hand ``index``, from its compact record."""
        hand, dealer, reason, net = self.hand_nets[index]
        pots, sab_won, shown, carry, sab_left, target, suit = self._hand_data[index]
        results = []
        hands = {}
        if shown is None:  # everyone else junked
            amount, mask = pots[0]
            results.append(self._pot_result("main", amount, mask, dealer, "everyone else junked"))
        else:
            values = {}
            for s, cards in shown:
                value = r_shown_value(cards, target, suit)
                values[s] = value
                hands[s] = (tuple([_CODES[c] for c in cards]), value)
            for i, (amount, mask) in enumerate(pots):
                name = "main" if i == 0 else f"side {i}"
                best = values[_lowest_seat(mask)]
                results.append(
                    self._pot_result(name, amount, mask, dealer, f"best hand: {best.name}")
                )
            if sab_won is not None:
                amount, mask = sab_won
                best = values[_lowest_seat(mask)]
                results.append(
                    self._pot_result("sabacc", amount, mask, dealer, f"won with {best.name}")
                )
        carried = {}
        if carry:
            carried["main"] = carry
        if sab_left:
            carried["sabacc"] = sab_left
        return HandResult(hand, dealer, reason, tuple(results), hands, carried, net)

    # ------------------------------------------------------------------ compact view (RL)
    # ------------------------------------------------------------------ search (bots)
    @property
    def rounds(self):
        """Rounds per hand (:attr:`Game.rounds`)."""
        return g_rounds(&self.st, &self.o)

    @property
    def bet_unit(self):
        """The minimum bet and raise increment (:attr:`Game.bet_unit`)."""
        return self.o.unit

    def determinize(self, int viewer, rng):
        """A copy of this state as ``viewer`` might imagine it, exactly as
        :meth:`Game.determinize` draws it from ``rng`` (same calls, same result): the other
        seats' hidden cards, the draw pile and the muck are shuffled and dealt back into the
        same places; the copy gets a fresh RNG seeded from ``rng``. Like the reference's
        (``clone(log=False)``), the copy starts with an empty action log."""
        cdef SpikeFamilyCore new = self.clone(reseed=rng.getrandbits(64))
        cdef State* st = &new.st
        new._seats = []
        new._acts = []
        cdef int s, i, k = 0
        cdef signed char* places[NC]
        cdef signed char c
        if not 0 <= viewer < st.n:
            raise IndexError(f"no seat {viewer} at this {st.n}-seat table")
        cdef uint64_t seen = st.seen[viewer]
        cards = []
        for s in range(st.n):
            if s == viewer:
                continue
            for i in range(st.hlen[s]):
                c = st.hands[s][i]
                if not st.pub[c] and not seen >> c & 1:
                    places[k] = &st.hands[s][i]
                    k += 1
                    cards.append(c)
        for i in range(st.ndraw):
            places[k] = &st.draw[i]
            k += 1
            cards.append(st.draw[i])
        for i in range(st.nmuck):
            places[k] = &st.muck[i]
            k += 1
            cards.append(st.muck[i])
        k = r_hidden_piles(st, viewer, places, k, cards)  # the variant's hidden piles
        cards.sort()  # forget where they were
        if type(rng) is _random.Random:
            shuffle_like_python(rng, cards)
        else:
            rng.shuffle(cards)
        new._deal_back(cards, places, k)
        new._legal_list = None
        r_forget_listed(new)  # and the actions built for the old state
        return new


# ---------------------------------------------------------------------------------- the kernel's hooks
# (what the kernel's _BettingCore calls where the cores differ; see _core_betting.pxi)

cdef inline void core_seat_joined(_CoreBase game, int seat) noexcept:
    """A joined seat has no per-game state in the Spike family (its hand state is dealt)."""

cdef inline object core_make_legal(_BettingCore game):
    return game._legal_of(tuple((<SpikeFamilyCore>game)._fixed_list()))

cdef inline object core_build_result(_BettingCore game, int index):
    return (<SpikeFamilyCore>game)._build_result(index)

cdef inline bint core_contains(_BettingCore game, object action) except -1:
    return (<SpikeFamilyCore>game)._contains(action)

cdef inline void core_decided(_BettingCore game) noexcept:
    (<SpikeFamilyCore>game)._legal_list = None

cdef inline void core_perform(_BettingCore game, int actor, object action) except *:
    (<SpikeFamilyCore>game)._perform(actor, action)

cdef inline void core_log_hand(_BettingCore game) except *:
    (<SpikeFamilyCore>game)._log_hand()

cdef inline void core_clone_decision(_BettingCore game, _BettingCore new) noexcept:
    (<SpikeFamilyCore>new)._legal_list = (<SpikeFamilyCore>game)._legal_list
    r_clone_listed(<SpikeFamilyCore>game, <SpikeFamilyCore>new)  # the variant's, built for it

cdef inline void core_copied(_BettingCore new) noexcept:
    (<SpikeFamilyCore>new)._legal_list = None
    r_forget_listed(<SpikeFamilyCore>new)  # and the actions built for the old state

cdef inline object core_view_last(_BettingCore game, int s, object action):
    return r_view_kind(action)

cdef bytes core_view_known(State* st, int s, int seat, int k):
    """Seat ``s``'s card ids seat ``seat`` may know (``k``: ``s``'s place from ``seat``)."""
    cdef uint64_t seen = st.seen[seat]
    cdef char buf[NC]
    cdef int i, m = 0
    cdef signed char c
    for i in range(st.hlen[s]):
        c = st.hands[s][i]
        if st.pub[c] or (seen and k and seen >> c & 1):
            buf[m] = c
            m += 1
    return buf[:m]

cdef inline void core_hidden_piles(_BettingCore game, dict state) except *:
    cdef State* st = &game.st
    cdef int i
    state["muck"] = [_CODES[st.muck[i]] for i in range(st.nmuck)]

cdef inline tuple core_view_extra(_BettingCore game, int seat):
    return r_view_extra(<SpikeFamilyCore>game, seat)

cdef tuple core_public(State* st, int s):
    """The cards of seat ``s``'s hand everybody saw go in, in hand order."""
    cdef int i
    cdef signed char c
    cdef list shown = []
    for i in range(st.hlen[s]):
        c = st.hands[s][i]
        if st.pub[c]:
            shown.append(_CARDS[c])
    return tuple(shown)

cdef tuple core_seen(State* st):
    """Per seat, the ids of other hands' cards it alone saw go in; () when no seat saw any."""
    cdef int s, c
    cdef bint any_seen = False
    for s in range(st.n):
        if st.seen[s]:
            any_seen = True
    if not any_seen:
        return ()
    return tuple([frozenset([c for c in range(NC) if st.seen[s] >> c & 1]) for s in range(st.n)])

cdef inline object core_structure(_BettingCore self):
    return str(self.options.betting)

cdef inline object core_unit(_BettingCore self):
    return self.o.unit


cdef inline void _copy_reference(SpikeFamilyCore new, object game) except *:
    """Copy what a reference Spike-family game shares with every core (the table, the hand's
    Spike state, the RNG and the logs) into ``new`` (from_game of the subclasses): the fields a
    snapshot has, read by the same code as ``from_snapshot``."""
    _version, internal, gauss = game.rng.getstate()
    if gauss is not None:  # pragma: no cover - the engine never draws Gaussians
        raise ValueError("the game's RNG holds a Gaussian draw the core cannot keep")
    _fill_core(new, game, internal, [[c.id for c in hand] for hand in game.hands],
               [c.id for c in game.draw], [c.id for c in game.discard],
               [c.id for c in game.muck])
    new._copy_seating(game._seating)


cdef void _fill_core(SpikeFamilyCore new, object src, object rng_state, object hands, object draw,
                     object discard, object muck) except *:
    """Set ``new`` to the state ``src`` describes: a :class:`SpikeSnapshot` or a reference
    Spike-family game, whose fields of the same names (``SpikeSnapshot``'s) are read here;
    the cards (per-seat ``hands`` and the piles, bottom first) come as card ids, the RNG as
    the 624 words and the index. A subclass's own state is set by its ``from_game``."""
    cdef State* st = &new.st
    cdef int s, i, n
    new.options = src.options
    new.seed = src.seed
    new.names = list(src.names)
    new._seats = [s for s, _ in src.actions]
    new._acts = [new._game_type.info.parse_action(a) for _, a in src.actions]
    results = src.hand_results
    new.hand_nets = [(r.hand, r.dealer, r.reason, tuple(r.net)) for r in results]
    new._results = list(results)
    new._hand_data = [None] * len(results)
    new._legal_obj = None
    new._legal_list = None
    r_forget_listed(new)  # and the actions built for the old state
    _read_options(&new.o, src.options)
    _copy_table(st, src, rng_state)
    n = st.n
    last = []
    for s in range(n):
        public = src.public_ids[s]
        st.hlen[s] = len(hands[s])
        for i, c in enumerate(hands[s]):
            st.hands[s][i] = c
            st.pub[c] = c in public
        text = src.last_action[s]
        st.last_kind[s] = -1
        if text is None:
            last.append(None)
        else:
            st.allin_last[s] = text.endswith(" (all-in)")
            hidden = r_hidden_last(text)  # what the table saw of a hidden action, if one
            if hidden is not None:
                last.append(hidden)
            else:
                last.append(new._game_type.info.parse_action(
                    text[: len(text) - 9] if st.allin_last[s] else text))
            st.last_kind[s] = _LAST_KIND_OF.get(last[s].kind, -1)
    new._last = last
    st.ndraw = len(draw)
    for i, c in enumerate(draw):
        st.draw[i] = c
    st.ndiscard = len(discard)
    for i, c in enumerate(discard):
        st.discard[i] = c
    st.nmuck = len(muck)
    for i, c in enumerate(muck):
        st.muck[i] = c
    st.round = src.round
    st.qlen = len(src.card_queue)
    st.qpos = 0
    for i, s in enumerate(src.card_queue):
        st.queue[i] = s
    if src.last_dice is not None:
        st.d1, st.d2 = src.last_dice

