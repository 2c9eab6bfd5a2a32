# cython: language_level=3
"""The compiled Corellian Spike engine: the rules of :mod:`sabacc.variants.corellian_spike.rules`
on C arrays, for simulation, search and reinforcement learning.

Same rules, same options, same seeded RNG (a bit-exact port of CPython's Mersenne Twister and
of the reference engine's calls on it), same action objects and the same checks: for a seed and
a list of actions it reaches exactly the state the pure-Python :class:`SpikeGame` reaches, and
its :meth:`SpikeCore.history` replays on it (the tests play both in lockstep). What it leaves
out is the per-event log: ``apply`` returns ``None``; the action log, per-hand nets and the
outcome are kept, and ``sabacc.replay(core.history())`` rebuilds the full event log on demand.
Each hand end also keeps a compact record (pots and their winners, the hands revealed at a
showdown as card ids, what was carried), from which :attr:`SpikeCore.hand_results` builds the
reference engine's :class:`~sabacc.engine.game.HandResult` objects on first use; and
:meth:`SpikeCore.observation` gives the reference engine's JSON observation, so bots and other
front ends can play on the core.

Every action is validated as in the reference engine: an illegal or malformed action raises
:class:`~sabacc.core.errors.IllegalActionError` and leaves the state as it was.
"""

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
from operator import index as _index

from sabacc.core.actions import CALL, CHECK, JUNK, STAND
from sabacc.core.actions import Action, Bet, Call, Check, Junk, Raise, Stand
from sabacc.variants.spike_family.actions import GAIN, Discard, Gain, Swap, swap_action
from sabacc.variants.coruscant_shift.actions import Keep
from sabacc.variants.spike_family.deck import SPIKE_DECK
from sabacc.engine import betting as _betting
from sabacc.engine.betting import Legal, NO_ACTIONS, Pot
from sabacc.engine.observation import SCHEMA_VERSION
from sabacc.engine.game import (
    HISTORY_FORMAT, HISTORY_VERSION, GameOutcome, HandResult, PotResult, illegal_message,
    options_bet_unit, resolve_seed, seat_number,
)
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.variants.spike_family.hands import evaluate_spike
from sabacc.variants.corellian_spike.rules import SpikeGame, SpikeOptions
from sabacc.variants.spike_family.snapshot import SpikeSnapshot
from sabacc.variants.spike_family.deck import SPIKE_STAVES
from sabacc.variants.coruscant_shift.rules import (
    SILVER_DIE, CoruscantGame, CoruscantOptions, ante_increment, evaluate_target,
)
from sabacc.variants.surabat_cycle.rules import SurabatGame, SurabatOptions, discard_action, gain_action

DEF MAXP = 8
DEF NC = 62
DEF MAXH = 16

DEF PH_SETUP = 0
DEF PH_CARD = 1
DEF PH_BETTING = 2
DEF PH_SPIKE = 3
DEF PH_SHOWDOWN = 4
DEF PH_OVER = 5
DEF PH_DISCARD = 6  # Surabat Cycle: the forced discard over the hand cap
DEF PH_CYCLE = 7    # Surabat Cycle: the dealer adds a Sun and a Moon card
DEF PH_SELECTION = 8  # Coruscant Shift: the first or second selection
DEF PH_SHIFT = 9      # Coruscant Shift: unselected cards discarded, everyone draws back up

DEF V_SPIKE = 0     # Opts.variant: the rules the C functions play
DEF V_SURABAT = 1
DEF V_CORUSCANT = 2
DEF HAND_SIZE = 5   # Coruscant Shift's deal and draw-up
DEF MAXH_KEEP = 8   # Coruscant Shift: most cards a selection chooses among (5 in play)

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
DEF A_SUN_GAIN = 9      # Surabat Cycle: gain <value> from the Sun pile
DEF A_SWAP_MOON = 10    # Surabat Cycle: swap moon <value>
DEF A_DISCARD = 11      # Surabat Cycle: discard <value> (over the hand cap)
DEF A_KEEP = 12         # Coruscant Shift: keep (arg: the mask of unkept positions to add)

DEF REC_SHOWDOWN = 0
DEF REC_ALL_JUNKED = 1

DEF BS_NO_LIMIT = 0
DEF BS_POT_LIMIT = 1
DEF BS_FIXED = 2

_PHASES = ("setup", "card", "betting", "spike", "showdown", "over", "discard", "cycle",
           "selection", "shift")
#: Seat statuses of :meth:`SpikeCore.seat_view`, as the reference ``observation`` names them.
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
    int variant         # V_SPIKE, V_SURABAT or V_CORUSCANT (the rules that differ branch on it)
    int rising_ante     # Coruscant Shift: the ante rises every hand
    int fixed_target    # Coruscant Shift: the target option is set (else the gold die)
    int target_value
    int fixed_suit      # Coruscant Shift: 0-2 (circle, triangle, square), -1: the silver die

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
    # Surabat Cycle's array and knowledge (empty in Corellian Spike)
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
    # Coruscant Shift
    long long hand_ante # this hand's ante (rises with rising_ante)
    int target
    int suit            # 0-2: circle, triangle, square
    int selection       # 1, 2 during a selection phase
    int kept_n[MAXP]    # each seat's kept cards are the first kept_n of its hand
    int rec_target
    int rec_suit

#: The action codes' index in sabacc.apps.rl.features.LAST_ACTIONS (stand, gain, swap, discard,
#: check, call, bet, raise, junk, call hand).
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
cdef int GOLD[6]
GOLD[:] = [0, 0, 5, -5, 10, -10]
#: Each card's place in the canonical card order (value, then code): a Keep lists its cards so.
cdef int CRANK[NC]
for _i, _c in enumerate(sorted(SPIKE_DECK.cards, key=lambda c: (c.value, c.code))):
    CRANK[_c.id] = _i
#: The index of the lowest set bit of each nonzero mask of up to MAXH_KEEP bits.
cdef unsigned char LOWBIT[1 << MAXH_KEEP]
LOWBIT[0] = 0
for _i in range(1, 1 << MAXH_KEEP):
    LOWBIT[_i] = 0 if _i & 1 else LOWBIT[_i >> 1] + 1

cdef object _Stand = Stand
cdef object _Gain = Gain
cdef object _Swap = Swap
cdef object _Check = Check
cdef object _Call = Call
cdef object _Bet = Bet
cdef object _Raise = Raise
cdef object _Junk = Junk
cdef object _Discard = Discard
cdef object _SurabatOptions = SurabatOptions
cdef object _CoruscantOptions = CoruscantOptions
cdef object _Keep = Keep

# Coruscant Shift's Keep objects come from one pool shared by every game in the process: a
# decision's Keep for the hand positions ``full`` (a mask of at most MAXH_KEEP positions) is
# taken from ``_POOL[full]``, POOL_GENS objects. A pooled Keep that nothing but the pool refers
# to (reference count 1: no list, action log, caller or other game holds it) is rewritten in
# place (its codes tuple too, when nothing else holds that either), which no one can see;
# otherwise the next free generation is used, or a new Keep takes the place of the oldest one
# (which lives on for whoever holds it). A slot's Keeps all have popcount(full) cards, so a
# tuple is rewritten item by item. So the pool never holds more than POOL_SLOTS Keeps, and in
# random play (the caller holding the previous decision's list while asking for the next) the
# Keeps it rewrites are the ones of a few decisions ago: warm in the cache, nothing allocated.
DEF POOL_GENS = 4
DEF POOL_SLOTS = (1 << MAXH_KEEP) * POOL_GENS
cdef PyObject* _POOL[1 << MAXH_KEEP][POOL_GENS]  # owned references, or NULL
memset(_POOL, 0, sizeof(_POOL))
cdef unsigned char _POOL_NEXT[1 << MAXH_KEEP]    # the generation a new Keep replaces next
memset(_POOL_NEXT, 0, sizeof(_POOL_NEXT))
cdef Py_ssize_t _POOL_REUSED = 0
cdef Py_ssize_t _POOL_BUILT = 0
# Behind the pool, for callers that hold every Keep they were given (so that all of a slot's
# generations are taken): every subset of one or two cards has a Keep of its own in _SMALL,
# built once and kept (NCANON * NCANON + NCANON = 3,782 slots, the two Sylops, one code,
# counted as one card), and is given again; larger subsets are then built anew.
DEF NCANON = 61  # card ids 0-59, and 60 for either Sylop
DEF SMALL_SLOTS = NCANON * NCANON + NCANON
cdef list _SMALL = [None] * SMALL_SLOTS

cdef extern from *:
    """
    #include "structmember.h"
    /* A new instance of a type, as object.__new__(t) makes it for a class without arguments. */
    static PyObject* sabacc_alloc(PyObject* t) {
        return ((PyTypeObject*)t)->tp_alloc((PyTypeObject*)t, 0);
    }
    /* The byte offset of a slot (a member descriptor of a __slots__ class), or -1. */
    static Py_ssize_t sabacc_slot_offset(PyObject* descr) {
        if (Py_TYPE(descr) != &PyMemberDescr_Type) return -1;
        PyMemberDef* m = ((PyMemberDescrObject*)descr)->d_member;
        return m->type == T_OBJECT_EX ? m->offset : -1;
    }
    /* The slot at ``offset`` of ``o`` (borrowed; NULL if unset). */
    static PyObject* sabacc_slot_get(PyObject* o, Py_ssize_t offset) {
        return *(PyObject**)((char*)o + offset);
    }
    /* Set the slot at ``offset`` of ``o`` to ``v`` (a new reference is taken, the old one
       released). */
    static void sabacc_slot_set(PyObject* o, Py_ssize_t offset, PyObject* v) {
        PyObject** at = (PyObject**)((char*)o + offset);
        PyObject* old = *at;
        Py_INCREF(v);
        *at = v;
        Py_XDECREF(old);
    }
    static Py_ssize_t sabacc_refcnt(PyObject* o) { return Py_REFCNT(o); }
    static PyObject* sabacc_newref(PyObject* o) { Py_INCREF(o); return o; }
    static void sabacc_xdecref(PyObject* o) { Py_XDECREF(o); }
    static Py_ssize_t sabacc_tuple_size(PyObject* t) { return PyTuple_GET_SIZE(t); }
    /* Item ``i`` of the tuple ``t`` (which nothing else refers to) becomes ``v``. */
    static void sabacc_tuple_put(PyObject* t, Py_ssize_t i, PyObject* v) {
        PyObject* old = PyTuple_GET_ITEM(t, i);
        Py_INCREF(v);
        PyTuple_SET_ITEM(t, i, v);
        Py_DECREF(old);
    }
    """
    object sabacc_alloc(object t)
    Py_ssize_t sabacc_slot_offset(object descr)
    PyObject* sabacc_slot_get(PyObject* o, Py_ssize_t offset)
    void sabacc_slot_set(PyObject* o, Py_ssize_t offset, object v)
    Py_ssize_t sabacc_refcnt(PyObject* o)
    PyObject* sabacc_newref(object o)
    void sabacc_xdecref(PyObject* o)
    Py_ssize_t sabacc_tuple_size(PyObject* t)
    void sabacc_tuple_put(PyObject* t, Py_ssize_t i, PyObject* v)


#: Where a Keep keeps its ``cards`` (its ``__slots__`` member), written directly; -1 when
#: ``Keep`` is not a slotted class (then the generic attribute setter is used, and pooled Keeps
#: are never rewritten).
cdef Py_ssize_t _KEEP_CARDS = sabacc_slot_offset(Keep.__dict__["cards"])


def keep_cache_info():
    """The Coruscant core's shared Keeps, the pool and the small table behind it: ``(slots,
    filled, reused, built)`` (a Keep rewritten in place or given again, a Keep allocated)."""
    cdef Py_ssize_t i, g, filled = 0
    for i in range(1 << MAXH_KEEP):
        for g in range(POOL_GENS):
            if _POOL[i][g] != NULL:
                filled += 1
    for o in _SMALL:
        if o is not None:
            filled += 1
    return POOL_SLOTS + SMALL_SLOTS, filled, _POOL_REUSED, _POOL_BUILT


def keep_cache_clear():
    """Empty the shared Keep pool and small table (and the counters); Keeps held elsewhere live
    on."""
    global _POOL_REUSED, _POOL_BUILT
    cdef Py_ssize_t i, g
    cdef PyObject* o
    for i in range(1 << MAXH_KEEP):
        _POOL_NEXT[i] = 0
        for g in range(POOL_GENS):
            o = _POOL[i][g]
            _POOL[i][g] = NULL
            sabacc_xdecref(o)
    for i in range(SMALL_SLOTS):
        _SMALL[i] = None
    _POOL_REUSED = 0
    _POOL_BUILT = 0


cdef inline object _codes_tuple(const signed char* cards, int m):
    """The tuple of the codes of the ``m`` card ids ``cards``."""
    cdef int i
    cdef object code
    codes = PyTuple_New(m)
    for i in range(m):
        code = _CODES[cards[i]]
        Py_INCREF(code)
        PyTuple_SET_ITEM(codes, i, code)
    return codes


cdef inline object _new_keep(const signed char* cards, int m):
    """``Keep(codes)`` of the ``m`` card ids ``cards`` (in the canonical order), made without
    the frozen dataclass's ``__init__``."""
    codes = _codes_tuple(cards, m)
    keep = sabacc_alloc(_Keep)
    if _KEEP_CARDS >= 0:
        sabacc_slot_set(<PyObject*>keep, _KEEP_CARDS, codes)
    else:
        PyObject_GenericSetAttr(keep, "cards", codes)
    return keep


cdef inline bint _rewrite_keep(PyObject* keep, const signed char* cards, int m) noexcept:
    """Make the Keep ``keep``, which nothing but its table slot refers to, the Keep of the ``m``
    card ids ``cards``, in place (its codes tuple too when nothing else holds that either and
    it has ``m`` items). Nobody can see the change: no other reference exists. False when
    ``keep`` is shared (or its slot layout unknown): build a new one."""
    cdef PyObject* codes
    cdef int i
    if _KEEP_CARDS < 0 or sabacc_refcnt(keep) != 1:
        return False
    codes = sabacc_slot_get(keep, _KEEP_CARDS)
    if codes != NULL and sabacc_refcnt(codes) == 1 and sabacc_tuple_size(codes) == m:
        for i in range(m):  # the code strings are held by _CODES: swapping them frees nothing
            sabacc_tuple_put(codes, i, PyTuple_GET_ITEM(_CODES, cards[i]))
        return True
    sabacc_slot_set(keep, _KEEP_CARDS, _codes_tuple(cards, m))
    return True


cdef inline object _small_keep(const signed char* cards, int m):
    """The Keep of one or two card ids (in the canonical order) from ``_SMALL``, built the first
    time and kept for the process: for callers that hold every Keep they are given (the RL mask
    cache does), so that the pool's generations are all taken."""
    cdef Py_ssize_t h
    cdef int a = cards[0] if VAL[cards[0]] else NCANON - 1, b
    cdef PyObject* found
    if m == 1:
        h = NCANON * NCANON + a
    else:
        b = cards[1] if VAL[cards[1]] else NCANON - 1
        h = a * NCANON + b if a < b else b * NCANON + a
    found = PyList_GET_ITEM(_SMALL, h)
    if found is not <PyObject*>None:
        return <object>found
    keep = _new_keep(cards, m)
    _SMALL[h] = keep
    return keep


cdef inline object _pooled_keep(int full, const signed char* cards, int m):
    """The Keep of the ``m`` card ids ``cards`` (in the canonical order) at the hand positions
    ``full``, from the pool: a pooled one nobody else holds, rewritten, or a new one."""
    global _POOL_REUSED, _POOL_BUILT
    cdef int g
    cdef PyObject* o
    for g in range(POOL_GENS):
        o = _POOL[full][g]
        if o == NULL:
            break
        if _rewrite_keep(o, cards, m):
            _POOL_REUSED += 1
            return <object>o
    else:  # every generation held elsewhere (by callers that keep listed actions)
        if m <= 2:  # a Keep of one or two cards is always in the small table
            _POOL_REUSED += 1
            return _small_keep(cards, m)
        g = _POOL_NEXT[full]  # the oldest is replaced (its holders keep it)
        _POOL_NEXT[full] = <unsigned char>((g + 1) % POOL_GENS)
    _POOL_BUILT += 1
    keep = _new_keep(cards, m)
    o = _POOL[full][g]
    _POOL[full][g] = sabacc_newref(keep)
    sabacc_xdecref(o)
    return keep


cdef object _STAND = STAND
cdef object _GAIN = GAIN
cdef object _CHECK = CHECK
cdef object _CALL = CALL
cdef object _JUNK = JUNK
cdef object _BETS = _betting._BETS
cdef object _RAISES = _betting._RAISES
cdef tuple _SWAP_DISCARD = tuple(swap_action("discard", v) for v in range(-10, 11))
cdef tuple _SWAP_DRAW = tuple(swap_action("draw", v) for v in range(-10, 11))
cdef tuple _SWAP_MOON = tuple(swap_action("moon", v) for v in range(-10, 11))
cdef tuple _GAINS = tuple(gain_action(v) for v in range(-10, 11))
cdef tuple _DISCARDS = tuple(discard_action(v) for v in range(-10, 11))
cdef tuple _CHECK_JUNK = (CHECK, JUNK)
cdef tuple _CALL_JUNK = (CALL, JUNK)


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


cdef void _read_options(Opts* o, object options) except *:
    o.ante = options.ante
    o.sab_ante = options.sabacc_ante
    o.start = options.starting_stack
    o.unit = options_bet_unit(options)  # the reference engine's rule
    if type(options) is _CoruscantOptions:  # no card fees, hand cap or round option
        o.variant = V_CORUSCANT
        o.gain_fee = o.swap_fee = 0
        o.rounds = 2
        o.hand_cap = 16
        o.rising_ante = options.rising_ante
        o.fixed_target = options.target is not None
        o.target_value = 0 if options.target is None else options.target
        o.fixed_suit = -1 if options.target_suit == "roll" else _SUIT_NAMES.index(
            options.target_suit
        )
        o.game_end = (GE_ORBIT if options.game_end == "orbit"
                      else GE_LAST if options.game_end == "last_standing" else GE_HANDS)
        limit = options.hand_limit
        o.hand_limit = -1 if limit is None else limit
        o.final_split = options.final_pot == "split"
        o.structure = _STRUCTURES[options.betting]
        o.max_raises = -1 if options.max_raises is None else options.max_raises
        o.tie_split = options.true_tie == "split"
        return
    o.rising_ante = o.fixed_target = o.target_value = 0
    o.fixed_suit = -1
    o.gain_fee = options.gain_fee
    o.swap_fee = options.swap_fee
    o.game_end = (GE_ORBIT if options.game_end == "orbit"
                  else GE_LAST if options.game_end == "last_standing" else GE_HANDS)
    limit = options.hand_limit
    o.hand_limit = -1 if limit is None else limit
    o.final_split = options.final_pot == "split"
    o.variant = V_SURABAT if type(options) is _SurabatOptions else V_SPIKE
    o.rounds = 0 if options.rounds is None else options.rounds  # 0: Surabat's automatic count
    o.structure = _STRUCTURES[options.betting]
    o.max_raises = -1 if options.max_raises is None else options.max_raises
    o.hand_cap = options.hand_cap
    o.tie_split = options.true_tie == "split"


cdef inline bint _well_formed(object action) except -1:
    """Whether ``action`` is a Spike action object with plain-int fields: the fast path of
    ``apply`` and ``is_legal``. Anything else goes through the variant's parser, the reference
    engine's one boundary (text, whole-number amounts and card values)."""
    t = type(action)
    if t is _Bet or t is _Raise:
        return type(action.amount) is int
    if t is _Swap:
        return type(action.value) is int
    if t is _Gain:
        return action.value is None or type(action.value) is int
    if t is _Discard:
        return type(action.value) is int
    return t is _Stand or t is _Check or t is _Call or t is _Junk


cdef inline int _lowest_seat(int mask) noexcept:
    cdef int s = 0
    while not mask >> s & 1:
        s += 1
    return s


# ---------------------------------------------------------------------------------- the rules, in C
# Every rule of the game as a C function on a State and its Opts (no Python objects, no GIL):
# SpikeCore and SpikeVector both play through them.

cdef void g_compute_legal(State* st, Opts* o) noexcept nogil:
    cdef int s = st.to_act
    cdef long long stack, to_call
    cdef long long lo, hi
    cdef bint cd
    if st.legal_ok or s < 0:
        return
    st.legal_ok = 1
    if o.variant == V_CORUSCANT and st.phase != PH_BETTING:  # the subsets: built in Python
        return
    st.bet_hi = st.raise_hi = 0
    st.can_gain = st.can_swap_discard = st.can_swap_draw = 0
    st.to_call_pos = 0
    stack = st.stacks[s]
    if o.variant == V_SURABAT and st.phase != PH_BETTING:
        st.can_gain = st.nsun > 0 and stack >= o.gain_fee
        st.can_swap_moon = st.nmoon > 0 and stack >= o.swap_fee
        return
    if st.phase == PH_CARD:
        cd = g_can_draw(st, o)
        st.can_gain = st.hlen[s] < o.hand_cap and stack >= o.gain_fee and cd
        if stack >= o.swap_fee and st.hlen[s]:
            st.can_swap_discard = st.ndiscard > 0
            st.can_swap_draw = cd
        return
    to_call = st.cur_bet - st.round_bet[s]
    if to_call <= 0:
        if st.cur_bet > 0:
            g_raise_range(st, o, s, 0, stack)
        elif g_size_range(st, o, stack, g_pot_total(st, o), &lo, &hi):
            st.bet_lo = lo
            st.bet_hi = hi
        return
    st.to_call_pos = 1
    g_raise_range(st, o, s, to_call, stack)

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
    if g_size_range(st, o, stack - to_call, g_pot_total(st, o) + to_call, &lo, &hi):
        st.raise_lo = lo
        st.raise_hi = hi

# ------------------------------------------------------------------ helpers
cdef inline long long g_pot_total(State* st, Opts* o) noexcept nogil:
    cdef long long t = st.dead
    cdef int s
    for s in range(st.n):
        t += st.committed[s]
    return t

cdef inline bint g_can_draw(State* st, Opts* o) noexcept nogil:
    if o.variant == V_SURABAT:  # the whole discard stack reshuffles
        return st.ndraw > 0 or st.ndiscard > 0 or st.nmuck > 0
    return st.ndraw > 0 or st.ndiscard > 1 or st.nmuck > 0

cdef inline int g_rounds(State* st, Opts* o) noexcept nogil:
    """Rounds of this hand: the option, else (Surabat) one per seat dealt in, 4 with two."""
    cdef int k
    if o.rounds > 0:
        return o.rounds
    k = st.nround if st.nround else st.n
    return 4 if k == 2 else k

cdef inline int g_nlive(State* st, Opts* o) noexcept nogil:
    cdef int s, k = 0
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            k += 1
    return k

cdef bint g_can_ante(State* st, Opts* o, int s) noexcept nogil:
    if o.variant == V_CORUSCANT:
        return st.stacks[s] >= st.hand_ante + o.sab_ante and st.stacks[s] > 0
    return st.stacks[s] >= o.ante + o.sab_ante and st.stacks[s] > 0

cdef int g_order_from(State* st, Opts* o, int start, int* out) noexcept nogil:
    """Live seats clockwise from ``start``; returns how many."""
    cdef int i, s, k = 0
    for i in range(st.n):
        s = (start + i) % st.n
        if st.in_hand[s] and not st.folded[s]:
            out[k] = s
            k += 1
    return k

cdef int g_odd_order(State* st, Opts* o, int mask, int* out) noexcept nogil:
    """The seats of ``mask`` from the dealer's left (odd-credit order); returns how many."""
    cdef int i, s, k = 0
    for i in range(st.n):
        s = (st.dealer + 1 + i) % st.n
        if mask >> s & 1:
            out[k] = s
            k += 1
    return k

cdef long long g_pay(State* st, Opts* o, int s, long long amount, int where) noexcept nogil:
    """Stack -> pot (where: 0 main/committed, 1 sabacc, 2 dead); returns what was paid."""
    if amount > st.stacks[s]:
        amount = st.stacks[s]
    if amount <= 0:
        return 0
    st.stacks[s] -= amount
    if where == 1:
        st.sabacc_pot += amount
    elif where == 0:
        st.committed[s] += amount
    else:
        st.dead += amount
    return amount

cdef void g_award(State* st, Opts* o, long long amount, int mask) noexcept nogil:
    cdef int order[MAXP]
    cdef int k = g_odd_order(st, o, mask, order)
    cdef long long base, odd
    cdef int i
    if k == 0:
        return
    base = amount // k
    odd = amount % k
    for i in range(k):
        st.stacks[order[i]] += base + (1 if i < odd else 0)

cdef signed char g_draw(State* st, Opts* o) noexcept nogil:
    """The draw top (reshuffling first if the pile is empty); -1 if no card is left."""
    if st.ndraw == 0:
        g_reshuffle(st, o)
        if st.ndraw == 0:
            return -1
    st.ndraw -= 1
    return st.draw[st.ndraw]

cdef void g_reshuffle(State* st, Opts* o) noexcept nogil:
    cdef int k = 0, i
    if o.variant == V_SURABAT:  # the whole discard stack: face-up discards, then junked hands
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
        return
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

cdef signed char g_take_from_hand(State* st, Opts* o, int s, int value) noexcept nogil:
    """Remove a card of ``value``: a publicly known copy first, else the first copy."""
    cdef int i, idx = -1
    cdef signed char c
    if o.variant == V_SURABAT:
        return s_take_from_hand(st, o, s, value)
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
    for s in range(st.n):
        st.hlen[s] = 0
        st.in_hand[s] = 0
        st.folded[s] = 0
        st.committed[s] = 0
        st.round_bet[s] = 0
        st.acted[s] = 0
        st.allin_last[s] = 0
        st.hand_start[s] = st.stacks[s]
    memset(st.pub, 0, sizeof(st.pub))
    st.dead = 0
    st.cur_bet = 0
    st.raises = 0
    st.ndraw = st.ndiscard = st.nmuck = 0
    st.round = 0
    st.qlen = st.qpos = 0
    st.d1 = st.d2 = 0
    for s in range(st.n):
        st.last_kind[s] = -1
    if o.variant == V_SURABAT:
        st.nsun = st.nmoon = st.nround = 0
        st.starting = -1
        for s in range(MAXP):
            st.seen[s] = 0
    elif o.variant == V_CORUSCANT:
        st.selection = 0
        for s in range(MAXP):
            st.kept_n[s] = 0

cdef void g_start_hand(State* st, Opts* o) noexcept nogil:
    cdef int s, nalive = 0, first_alive = -1, step, k, i, r
    cdef int order[MAXP]
    cdef int alive_mask = 0
    cdef bint first = st.hand_no == 0
    cdef long long ante = o.ante
    if o.variant == V_CORUSCANT:
        if o.rising_ante and st.hand_no > 0:
            k = 0
            for s in range(st.n):
                if not st.out[s] and st.stacks[s] > 0:
                    k += 1
            st.hand_ante += 5 if k == 2 else 3 if k == 3 else 2 if k == 4 else 1
        ante = st.hand_ante
    for s in range(st.n):
        if not st.out[s] and not g_can_ante(st, o, s):
            st.out[s] = 1
    for s in range(st.n):
        if not st.out[s]:
            nalive += 1
            alive_mask |= 1 << s
            if first_alive < 0:
                first_alive = s
    if nalive < 2 or (o.hand_limit >= 0 and st.hand_no >= o.hand_limit):
        g_end_game(st, o)
        return
    if not first:
        step = 1
        while st.out[(st.dealer + step) % st.n]:
            step += 1
        st.orbit_steps += step
        st.dealer = (st.dealer + step) % st.n
        if o.game_end == GE_ORBIT and st.orbit_steps >= st.n:
            g_end_game(st, o)
            return
    elif st.out[st.dealer]:
        st.dealer = first_alive
    st.hand_no += 1
    g_reset_hand_state(st, o)
    st.dead = st.carry
    st.carry = 0
    k = g_odd_order(st, o, alive_mask, order)
    for i in range(k):
        s = order[i]
        st.in_hand[s] = 1
        g_pay(st, o, s, ante, 0)
        g_pay(st, o, s, o.sab_ante, 1)
    # deal: the whole deck, shuffled
    for i in range(NC):
        st.draw[i] = <signed char>i
    mt_shuffle_sorted(&st.rng, st.draw, NC)
    st.ndraw = NC
    if o.variant == V_SURABAT:
        s_deal(st, o)
        return
    if o.variant == V_CORUSCANT:
        c_deal(st, o)
        return
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
    for r in range(2):
        for i in range(k):
            s = order[i]
            st.ndraw -= 1
            st.hands[s][st.hlen[s]] = st.draw[st.ndraw]
            st.hlen[s] += 1
    st.ndraw -= 1
    st.discard[0] = st.draw[st.ndraw]
    st.ndiscard = 1
    st.round = 1
    g_begin_card_phase(st, o)

cdef void g_begin_card_phase(State* st, Opts* o) noexcept nogil:
    cdef int order[MAXP]
    cdef int k, i, start
    st.phase = PH_CARD
    if o.variant == V_SURABAT:
        # The start rotates among the seats dealt in; a junked seat passes it to its left.
        start = st.round_seats[(st.round - 1) % st.nround]
        k = g_order_from(st, o, start, order)
        st.starting = order[0] if k else start
    else:
        k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
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
    cdef int s
    st.phase = PH_BETTING
    for s in range(st.n):
        st.round_bet[s] = 0
        st.acted[s] = 0
    st.cur_bet = 0
    st.raises = 0
    st.legal_ok = 0
    if o.variant == V_SURABAT:
        st.to_act = g_next_bettor(
            st, o, st.starting if st.starting >= 0 else st.round_seats[0], 1
        )
    else:
        st.to_act = g_next_bettor(st, o, (st.dealer + 1) % st.n, 1)
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
    cdef signed char taken, given
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
    if o.variant == V_SURABAT:
        if s_card_act(st, o, s, kind, arg):
            g_next_card_turn(st, o)
        return
    if o.variant == V_CORUSCANT:
        c_select(st, o, s, <int>arg)
        c_next_selection(st, o)
        return
    if kind == A_GAIN:
        g_pay(st, o, s, o.gain_fee, 2)
        taken = g_draw(st, o)
        st.hands[s][st.hlen[s]] = taken
        st.hlen[s] += 1
    elif kind == A_SWAP_DISCARD or kind == A_SWAP_DRAW:
        g_pay(st, o, s, o.swap_fee, 2)
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
    cdef long long paid, to_call
    cdef int i
    if kind == A_CHECK:
        st.acted[s] = 1
    elif kind == A_CALL:
        paid = g_pay(st, o, s, st.cur_bet - st.round_bet[s], 0)
        st.round_bet[s] += paid
        st.acted[s] = 1
        st.allin_last[s] = st.stacks[s] == 0
    elif kind == A_BET or kind == A_RAISE:
        to_call = st.cur_bet - st.round_bet[s]
        paid = g_pay(st, o, s, to_call + amount, 0)
        st.round_bet[s] += paid
        if amount >= o.unit:
            for i in range(st.n):
                st.acted[i] = 0
        if kind == A_RAISE:
            st.raises += 1
        st.cur_bet = st.round_bet[s]
        st.acted[s] = 1
        st.allin_last[s] = st.stacks[s] == 0
    else:  # junk: the hand is mucked face down
        st.folded[s] = 1
        if o.variant == V_SURABAT:
            s_forget(st, s_hand_mask(st, s))
        g_clear_hand(st, o, s, st.muck, &st.nmuck)
    if g_nlive(st, o) > 1:
        st.to_act = g_next_bettor(st, o, s, 0)
        if st.to_act >= 0:
            return False
    else:
        st.to_act = -1
    g_return_uncalled(st, o)
    return True

cdef void g_return_uncalled(State* st, Opts* o) noexcept nogil:
    cdef int s, top = -1
    cdef long long others = 0, excess
    if not st.cur_bet:
        return
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            if top < 0 or st.committed[s] > st.committed[top]:
                top = s
    if top < 0:
        return
    for s in range(st.n):
        if s != top and st.committed[s] > others:
            others = st.committed[s]
    excess = st.committed[top] - others
    if excess > st.round_bet[top]:
        excess = st.round_bet[top]
    if excess > 0:
        st.committed[top] -= excess
        st.round_bet[top] -= excess
        st.stacks[top] += excess

cdef bint g_all_junked_win(State* st, Opts* o) noexcept nogil:
    cdef int s, winner = -1
    cdef long long amount
    if g_nlive(st, o) != 1:
        return False
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            winner = s
    amount = g_pot_total(st, o)
    g_award(st, o, amount, 1 << winner)
    st.rec_reason = REC_ALL_JUNKED
    st.rec_npots = 1
    st.rec_amount[0] = amount
    st.rec_mask[0] = 1 << winner
    st.rec_sab = 0
    st.rec_nshown = 0
    g_finish_hand(st, o)
    return True

cdef void g_spike_phase(State* st, Opts* o) noexcept nogil:
    if o.variant == V_CORUSCANT:  # no spike dice: the shift, or the second selection
        if st.round == 1:
            c_shift(st, o)
        else:
            c_begin_selection(st, o, 2)
        return
    st.phase = PH_SPIKE
    st.to_act = -1
    st.d1 = mt_die(&st.rng)
    st.d2 = mt_die(&st.rng)
    if st.d1 == st.d2:
        g_sabacc_shift(st, o)
    if o.variant == V_SURABAT:  # the Cycle phase: a Sun card, a Moon card
        st.phase = PH_CYCLE
        st.to_act = -1
        s_add_sun(st, o)
        s_add_moon(st, o)
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
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
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
    if o.variant == V_SURABAT:  # nothing flipped after a shift; all private knowledge goes
        for s in range(MAXP):
            st.seen[s] = 0
        return
    c = g_draw(st, o)
    if c >= 0:
        st.discard[st.ndiscard] = c
        st.ndiscard += 1

# ------------------------------------------------------------------ Surabat Cycle's own rules
# (sabacc.variants.surabat_cycle.rules.SurabatGame's overrides, on the same State)
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
    cdef int k, i, r, s
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
    for i in range(k):
        st.round_seats[i] = <signed char>order[i]
    st.nround = k
    for i in range(SUN_SIZE):
        s_add_sun(st, o)
    for i in range(MOON_SIZE):
        s_add_moon(st, o)
    for r in range(2):
        for i in range(k):
            s = order[i]
            st.ndraw -= 1
            st.hands[s][st.hlen[s]] = st.draw[st.ndraw]
            st.hlen[s] += 1
    st.round = 1
    g_begin_card_phase(st, o)

cdef signed char s_take_from_hand(State* st, Opts* o, int s, int value) noexcept nogil:
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
        g_pay(st, o, s, o.gain_fee, 2)
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
        g_pay(st, o, s, o.swap_fee, 2)
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

# ------------------------------------------------------------------ Coruscant Shift's own rules
# (sabacc.variants.coruscant_shift.rules.CoruscantGame's overrides)
cdef int64_t c_strength(State* st, signed char* cards, int size) noexcept nogil:
    """evaluate_target's key (closer to the target, more of the target suit (Sylops count),
    higher total, higher positive card), packed into one integer."""
    cdef int i, v, total = 0, suited = 0, best = 0, distance
    cdef signed char c
    for i in range(size):
        c = cards[i]
        v = VAL[c]
        total += v
        if SUITIDX[c] < 0 or SUITIDX[c] == st.suit:
            suited += 1
        if v > best:
            best = v
    distance = total - st.target
    if distance < 0:
        distance = -distance
    return ((<int64_t>(255 - distance)) << 24) | (suited << 16) | ((total + 128) << 8) | best

cdef void c_deal(State* st, Opts* o) noexcept nogil:
    """Five cards each from the dealer's left, then the gold and silver dice."""
    cdef int order[MAXP]
    cdef int k, i, r, s, gold, silver
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
    for r in range(HAND_SIZE):
        for i in range(k):
            s = order[i]
            st.ndraw -= 1
            st.hands[s][st.hlen[s]] = st.draw[st.ndraw]
            st.hlen[s] += 1
    gold = GOLD[mt_die(&st.rng) - 1]
    silver = (mt_die(&st.rng) - 1) % 3
    st.target = o.target_value if o.fixed_target else gold
    st.suit = o.fixed_suit if o.fixed_suit >= 0 else silver
    st.round = 1
    c_begin_selection(st, o, 1)

cdef void c_begin_selection(State* st, Opts* o, int which) noexcept nogil:
    cdef int order[MAXP]
    cdef int k, i
    st.selection = which
    st.phase = PH_SELECTION
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
    for i in range(k):
        st.queue[i] = <signed char>order[i]
    st.qlen = k
    st.qpos = 0
    c_next_selection(st, o)

cdef void c_next_selection(State* st, Opts* o) noexcept nogil:
    st.legal_ok = 0
    if st.qpos < st.qlen:
        st.to_act = st.queue[st.qpos]
        st.qpos += 1
    elif st.selection == 1:
        g_begin_betting(st, o)
    else:
        g_showdown(st, o)

cdef void c_set_aside(State* st, Opts* o, int s) noexcept nogil:
    """Discard the seat's unselected cards face down."""
    cdef int i, k = st.kept_n[s]
    cdef signed char c
    for i in range(k, st.hlen[s]):
        c = st.hands[s][i]
        st.muck[st.nmuck] = c
        st.nmuck += 1
        st.pub[c] = 0
    if st.hlen[s] > k:
        st.hlen[s] = k

cdef void c_select(State* st, Opts* o, int s, int mask) noexcept nogil:
    """Keep the kept cards plus the unkept ones at the positions of ``mask`` (bit i: the i-th
    card after the kept ones): kept cards first, then the new ones, then the rest."""
    cdef signed char picked[MAXH]
    cdef signed char left[MAXH]
    cdef int i, np = 0, nl = 0, k = st.kept_n[s]
    for i in range(k, st.hlen[s]):
        if mask >> (i - k) & 1:
            picked[np] = st.hands[s][i]
            np += 1
        else:
            left[nl] = st.hands[s][i]
            nl += 1
    for i in range(np):
        st.hands[s][k + i] = picked[i]
    for i in range(nl):
        st.hands[s][k + np + i] = left[i]
    st.kept_n[s] = k + np
    if st.selection == 2:
        c_set_aside(st, o, s)

cdef void c_shift(State* st, Opts* o) noexcept nogil:
    """Unselected cards are discarded; everyone draws back up to five; the second betting."""
    cdef int order[MAXP]
    cdef int k, i, j, need, s
    st.phase = PH_SHIFT
    st.to_act = -1
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
    for i in range(k):
        c_set_aside(st, o, order[i])
    for i in range(k):
        s = order[i]
        need = HAND_SIZE - st.hlen[s]
        for j in range(need):
            if g_can_draw(st, o):
                st.hands[s][st.hlen[s]] = g_draw(st, o)
                st.hlen[s] += 1
    st.round = 2
    g_begin_betting(st, o)

cdef int g_build_pots(State* st, Opts* o, long long* amounts, int* masks) noexcept nogil:
    """Main and side pots at the all-in levels (as :func:`build_pots`); returns how many."""
    cdef long long levels[MAXP + 1]
    cdef long long level, prev = 0, amount, top = -1, c, lo, plo, leftover = 0, x
    cdef int nlev = 0, npots = 0, s, i, j, elig
    cdef int live = 0, capped = 0
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            live |= 1 << s
            if st.committed[s] > top:
                top = st.committed[s]
            if st.stacks[s] == 0:
                capped |= 1 << s
    if not live:
        amounts[0] = g_pot_total(st, o)
        masks[0] = 0
        return 1
    for s in range(st.n):  # distinct levels of the all-in seats, plus the top level
        if capped >> s & 1:
            levels[nlev] = st.committed[s]
            nlev += 1
    levels[nlev] = top
    nlev += 1
    for i in range(1, nlev):  # sort ascending
        x = levels[i]
        j = i - 1
        while j >= 0 and levels[j] > x:
            levels[j + 1] = levels[j]
            j -= 1
        levels[j + 1] = x
    for i in range(nlev):
        level = levels[i]
        if i and level == levels[i - 1]:
            continue
        amount = 0
        for s in range(st.n):
            c = st.committed[s]
            lo = c if c < level else level
            plo = c if c < prev else prev
            amount += lo - plo
        elig = 0
        for s in range(st.n):
            if live >> s & 1 and (st.committed[s] >= level or not capped >> s & 1):
                elig |= 1 << s
        if npots and masks[npots - 1] == elig:
            amounts[npots - 1] += amount
        elif amount > 0 or not npots:
            amounts[npots] = amount
            masks[npots] = elig
            npots += 1
        prev = level
    for s in range(st.n):
        if st.committed[s] > prev:
            leftover += st.committed[s] - prev
    amounts[npots - 1] += leftover
    amounts[0] += st.dead
    return npots

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
            if o.variant == V_CORUSCANT:
                values[s] = c_strength(st, st.hands[s], st.hlen[s])
            else:
                values[s] = strength(st.hands[s], st.hlen[s])
            total = 0
            for j in range(st.hlen[s]):
                total += VAL[st.hands[s][j]]
            totals[s] = total
    k = g_order_from(st, o, (st.dealer + 1) % st.n, order)
    st.rec_nshown = k
    for i in range(k):  # the revealed hands, for hand_results
        s = order[i]
        st.rec_shown_seat[i] = <signed char>s
        st.rec_shown_len[i] = st.hlen[s]
        memcpy(st.rec_shown[i], st.hands[s], st.hlen[s])
    npots = g_build_pots(st, o, amounts, masks)
    st.rec_npots = npots
    for i in range(npots):
        won = g_winners(st, o, masks[i], values, dec_key, dec_val, &ndec)
        g_award(st, o, amounts[i], won)
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
        g_award(st, o, st.sabacc_pot, overall)
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
    k = g_odd_order(st, o, tied, order)
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
    cdef int s
    st.rec_done = 1
    st.rec_hand = st.hand_no
    st.rec_dealer = st.dealer
    for s in range(st.n):
        st.rec_net[s] = st.stacks[s] - st.hand_start[s]
    st.rec_carry = st.carry
    st.rec_sabacc_left = st.sabacc_pot
    st.rec_target = st.target
    st.rec_suit = st.suit
    for s in range(st.n):
        st.committed[s] = 0
    st.dead = 0
    st.to_act = -1
    g_start_hand(st, o)

cdef void g_end_game(State* st, Opts* o) noexcept nogil:
    cdef int s, alive = 0
    cdef long long leftover = st.sabacc_pot + st.carry
    if leftover:
        for s in range(st.n):
            if not st.out[s]:
                alive |= 1 << s
        if not alive:
            alive = (1 << st.n) - 1
        if o.final_split:
            g_award(st, o, leftover, alive)
        else:
            st.house += leftover
        st.sabacc_pot = 0
        st.carry = 0
    st.over = 1
    st.to_act = -1
    st.phase = PH_OVER



# The members every core reads the same way from its C state (n, the decision, payoffs and
# outcome, the action log, the per-seat money): one source for all cores, a base class
# compiled against this module's State.
include "sabacc/variants/_kernel/_core_protocol.pxi"
include "sabacc/variants/_kernel/_core_betting.pxi"


cdef class SpikeCore(_BettingCore):
    """A game of Corellian Spike on the compiled engine (see the module docstring).

    ``SpikeCore(options, seed=7, players=4)``, or ``sabacc.new_game("spike", engine="compiled")``.
    """

    cdef Opts o
    cdef readonly object options
    cdef readonly object seed
    cdef readonly list names
    cdef list _last           # last action object of each seat, this hand
    cdef readonly list hand_nets  # (hand, dealer, reason, net per seat) of each finished hand
    # What each finished hand's HandResult needs beyond its hand_nets entry, in compact form:
    # (pots, sabacc, shown, carried main, carried sabacc). ``pots``: ((amount, winner mask),
    # ...) for the main pot then each side pot; ``sabacc``: (amount, winner mask) if the sabacc
    # pot was won, else None; ``shown``: ((seat, card ids as bytes), ...) of the showdown's
    # hands from the dealer's left, None when everyone else junked. None for a hand copied from
    # a snapshot by from_snapshot or from_game (its HandResult is in _results already).
    cdef list _hand_data
    cdef list _results        # HandResult of the first len(_results) hands, built lazily
    cdef object _legal_obj
    cdef list _legal_list
    # Coruscant Shift: the last legal Keep list built, the positions each one adds, and the
    # action count it was built at (valid for the decision at that count only)
    cdef list _keeps
    cdef unsigned char _keep_masks[1 << MAXH_KEEP]
    cdef Py_ssize_t _keeps_at

    #: The reference engine's game class whose rules this core plays (its options type and
    #: VariantInfo come with it); a subclass for another Spike-family variant sets its own.
    _game_type = SpikeGame
    _options_type = SpikeOptions

    def __init__(self, options=None, *, seed=None, players=4, log=False):
        cdef Opts* o = &self.o
        cdef State* st = &self.st
        cdef int s, n
        global _last_options, _last_opts
        cls = type(self)
        options_type = cls._options_type
        if type(options) is options_type:  # the common case, first: no Mapping check
            pass
        elif options is None or isinstance(options, _Mapping):
            # Parsed and validated by the reference engine's own code, once.
            options = options_type.from_mapping(options or {})
        else:
            raise OptionError(
                f"{cls.__name__} takes {options_type.__name__} "
                f"({cls._game_type.info.title} only)"
            )
        if type(players) is int:
            n = players
            names = _DEFAULT_NAMES[n] if 2 <= n <= MAXP else None
        else:
            names = [str(p) for p in players]
            n = len(names)
        if not 2 <= n <= MAXP or names is None:
            info = cls._game_type.info
            raise OptionError(
                f"{info.title} is played by {info.min_players}-{info.max_players} players, "
                f"not {n}"
            )
        if type(seed) is not int:  # the reference engine's rule: whole numbers, None = random
            seed = resolve_seed(seed)
        self.options = options
        self.seed = seed
        self.names = list(names)
        self._seats = []
        self._acts = []
        self.hand_nets = []
        self._hand_data = []
        self._results = []
        self._legal_obj = None
        self._legal_list = None
        memset(st, 0, sizeof(State))
        if options is _last_options:  # options are frozen: reuse the last conversion
            memcpy(o, &_last_opts, sizeof(Opts))
        else:
            _read_options(o, options)
            memcpy(&_last_opts, o, sizeof(Opts))
            _last_options = options
        mt_seed(&st.rng, &_MT_BASE, seed)
        st.n = n
        for s in range(n):
            st.stacks[s] = o.start
        st.to_act = -1
        st.phase = PH_SETUP
        st.hand_ante = o.ante
        g_reset_hand_state(st, o)
        self._last = [None] * n
        for s in range(n):
            if g_can_ante(st, o, s):
                break
        else:
            raise OptionError(
                f"buy_in={o.start} cannot cover the antes ({o.ante} + {o.sab_ante})"
            )
        g_start_hand(st, o)

    # ------------------------------------------------------------------ public protocol
    @property
    def variant(self):
        return self._game_type.info.name

    @property
    def info(self):
        return self._game_type.info

    def legal(self):
        """The legal actions in compact form (:class:`~sabacc.engine.betting.Legal`)."""
        if self.st.over or self.st.to_act < 0:
            return NO_ACTIONS
        if self._legal_obj is None:
            self._compute_legal()
            self._legal_obj = self._make_legal()
        return self._legal_obj

    def legal_actions(self):
        """Every legal action for ``current_player``, each bet/raise size listed."""
        if self.st.over or self.st.to_act < 0:
            return []
        self._compute_legal()
        if self.st.phase == PH_BETTING:
            return self._betting_list()  # a new list each call: nothing kept, nothing copied
        if self.o.variant != V_CORUSCANT:
            return self._fixed_list()
        if self._legal_list is None:  # the decision's Keeps, kept (apply finds them by identity)
            self._legal_list = self._fixed_list()
        return list(self._legal_list)

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
        if not _well_formed(action) and (
            type(action) is not _Keep or self._keep_index(action, len(self._acts)) < 0
        ):  # a Keep this core listed for this decision is well formed
            action = self._game_type.info.parse_action(action)
        if self.st.over:
            raise IllegalActionError("the game is over: no more actions")
        actor = self.st.to_act
        if seat is not None:
            number = seat if type(seat) is int and 0 <= seat < self.st.n else seat_number(
                seat, self.st.n
            )
            if number is None:
                raise IllegalActionError(
                    f"no such seat {seat!r}: it is {self.names[actor]}'s turn"
                )
            if number != actor:
                raise IllegalActionError(
                    f"it is not {self.names[number]}'s turn: {self.names[actor]} is to act"
                )
        self._compute_legal()
        if not self._contains(action):
            raise IllegalActionError(
                illegal_message(action, self.legal(), _PHASES[self.st.phase], self.names[actor])
            )
        self.st.legal_ok = 0
        self._legal_obj = None
        self._legal_list = None
        self._seats.append(actor)
        self._acts.append(action)
        self._last[actor] = action
        self._perform(actor, action)
        return None

    cdef long long _buy_in(self) noexcept:
        """Each seat's starting stack (``payoffs`` is the stack less this)."""
        return self.o.start

    def history(self):
        """The versioned hand-history document; :func:`sabacc.replay` rebuilds the game."""
        outcome = self.outcome
        return {
            "format": HISTORY_FORMAT,
            "version": HISTORY_VERSION,
            "variant": self._game_type.info.name,
            "options": self.options.changed(),
            "seed": self.seed,
            "players": list(self.names),
            "actions": [{"seat": s, "action": str(a)} for s, a in zip(self._seats, self._acts)],
            "result": outcome.to_dict() if outcome else None,
        }

    def clone(self, *, reseed=None, log=None):
        """An independent copy; ``reseed`` gives it a fresh RNG seeded with that int instead of
        continuing this game's stream."""
        cdef SpikeCore new = _assemble(
            type(self), &self.st, &self.o, self.options, self.seed, self.names, self._seats, self._acts,
            self._last, self.hand_nets, self._hand_data, self._results,
        )
        new.st.legal_ok = self.st.legal_ok  # the same decision: its legal actions still hold
        new._legal_obj = self._legal_obj
        new._legal_list = self._legal_list
        if self._keeps is not None:  # Coruscant Shift: this decision's Keeps and their masks
            new._keeps = self._keeps
            new._keeps_at = self._keeps_at
            memcpy(new._keep_masks, self._keep_masks, sizeof(self._keep_masks))
        if reseed is not None:
            mt_seed(&new.st.rng, &_MT_BASE, reseed)
        return new

    def __reduce__(self):
        """Pickling (process pools, Ray, ``copy.deepcopy``): the C state as bytes, with the
        Python-side logs. A pickle is read back by the same build of sabacc."""
        return (_restore, (
            (<char*>&self.st)[:sizeof(State)], (<char*>&self.o)[:sizeof(Opts)],
            self.options, self.seed, self.names, self._seats, self._acts, self._last,
            self.hand_nets, self._hand_data, self._results, type(self),
        ))

    def total_credits(self):
        """Stacks plus every pot plus the house: constant through a game (conservation)."""
        return sum(self.stacks) + self.pot_total() + self.st.sabacc_pot + self.st.carry + self.st.house

    def pot_total(self):
        """Credits in the current hand's main pot (antes, bets, fees, carried main pot)."""
        return self._pot_total()

    # ------------------------------------------------------------------ state, read-only copies
    @property
    def dealer(self):
        return self.st.dealer

    @property
    def orbit_steps(self):
        return self.st.orbit_steps

    @property
    def phase(self):
        return _PHASES[self.st.phase]

    @property
    def round(self):
        return self.st.round

    @property
    def cur_bet(self):
        return self.st.cur_bet

    @property
    def raises(self):
        return self.st.raises

    @property
    def dead(self):
        return self.st.dead

    @property
    def sabacc_pot(self):
        return self.st.sabacc_pot

    @property
    def carry(self):
        return self.st.carry

    @property
    def house(self):
        return self.st.house

    @property
    def last_dice(self):
        return (self.st.d1, self.st.d2) if self.st.d1 else None

    @property
    def hands(self):
        return [[_CARDS[self.st.hands[s][i]] for i in range(self.st.hlen[s])]
                for s in range(self.st.n)]

    @property
    def public_ids(self):
        return [{<int>self.st.hands[s][i] for i in range(self.st.hlen[s])
                 if self.st.pub[self.st.hands[s][i]]} for s in range(self.st.n)]

    @property
    def draw(self):
        return [_CARDS[self.st.draw[i]] for i in range(self.st.ndraw)]

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
            elif type(a) is _Swap and a.source == "moon":  # which card went is not shown
                out.append("swap moon")
            elif type(a) is _Keep:  # how many, not which
                out.append(f"kept {self.st.kept_n[s]}")
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
        if self.o.variant == V_CORUSCANT:  # against this hand's target
            return evaluate_target(list(cards), self.st.target, _SUIT_NAMES[self.st.suit])
        return SpikeGame.info.evaluator(self.options, list(cards))

    def hand_strength(self, seat):
        """The packed strength of a seat's hand (greater is better; see :func:`spike_strength`),
        or None if it holds no card. Raises IndexError for a seat not at this table."""
        if type(seat) is not int or not 0 <= seat < self.st.n:
            raise IndexError(f"no seat {seat!r} at this {self.st.n}-seat table")
        if not self.st.hlen[seat]:
            return None
        if self.o.variant == V_CORUSCANT:  # the whole hand against this hand's target
            return c_strength(&self.st, self.st.hands[seat], self.st.hlen[seat])
        return strength(self.st.hands[seat], self.st.hlen[seat])

    # ------------------------------------------------------------------ legality
    cdef list _fixed_list(self):
        cdef list out
        cdef int seen[21]
        cdef int i, v, s
        if self.st.phase == PH_BETTING:
            return list(_CALL_JUNK if self.st.to_call_pos else _CHECK_JUNK)
        if self.o.variant == V_SURABAT:
            return self._surabat_fixed_list()
        if self.o.variant == V_CORUSCANT:
            if self._keeps is not None and self._keeps_at == len(self._acts):
                return self._keeps  # built for this decision already
            return self._coruscant_keeps()
        out = [_STAND]
        if self.st.can_gain:
            out.append(_GAIN)
        if self.st.can_swap_discard or self.st.can_swap_draw:
            memset(seen, 0, sizeof(seen))
            s = self.st.to_act
            for i in range(self.st.hlen[s]):
                seen[VAL[self.st.hands[s][i]] + 10] = 1
            if self.st.can_swap_discard:
                for v in range(21):
                    if seen[v]:
                        out.append(_SWAP_DISCARD[v])
            if self.st.can_swap_draw:
                for v in range(21):
                    if seen[v]:
                        out.append(_SWAP_DRAW[v])
        return out

    cdef list _surabat_fixed_list(self):
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
            for v in range(21):
                if sun[v]:
                    out.append(_GAINS[v])
        if self.st.can_swap_moon:
            for v in range(21):
                if seen[v]:
                    out.append(_SWAP_MOON[v])
        return out

    cdef list _coruscant_keeps(self):
        """The legal Keep actions, in the reference's order (by the mask of hand positions;
        each subset once: two Sylops make two masks the same subset, the first is listed).
        The list is kept (with each Keep's mask) for the decision; callers copy it.

        A subset's cards in the canonical order come from its mask of canonical ranks (bit r:
        the r-th card of the hand in that order), made from the mask of the subset without its
        lowest position, and read lowest rank first (``LOWBIT``): no per-position test."""
        cdef State* st = &self.st
        cdef int s = st.to_act, n = st.hlen[s], k = st.kept_n[s], free, mask, i, j, x, m, r
        cdef int order[MAXH]
        cdef signed char by_rank[MAXH]  # the hand's cards in the canonical order
        cdef signed char sorted_cards[MAXH]
        cdef unsigned char rank_bit[MAXH]  # a position's bit in a rank mask
        cdef unsigned char ranks[1 << MAXH_KEEP]  # each free-position mask's rank mask
        cdef uint64_t bits[MAXH]
        cdef uint64_t keys[1 << MAXH_KEEP]   # each free-position mask's subset key
        cdef uint64_t listed[1 << MAXH_KEEP]  # the keys listed so far (with two free Sylops)
        cdef uint64_t kept_key = 0
        cdef int nkeys = 0, dup, free_sylops = 0, kept_ranks = 0
        cdef signed char c
        for i in range(n):  # insertion sort of positions by the canonical card order
            x = i
            j = i - 1
            while j >= 0 and CRANK[st.hands[s][order[j]]] > CRANK[st.hands[s][x]]:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = x
        for i in range(n):
            rank_bit[order[i]] = <unsigned char>(1 << i)
            by_rank[i] = st.hands[s][order[i]]
        for i in range(k):
            kept_ranks |= rank_bit[i]
        free = n - k
        ranks[0] = 0
        for mask in range(1, 1 << free):  # a mask's: the mask without its lowest bit's, + it
            j = LOWBIT[mask]
            ranks[mask] = ranks[mask & (mask - 1)] | rank_bit[k + j]
        for i in range(k, n):
            if VAL[st.hands[s][i]] == 0:
                free_sylops += 1
        if free_sylops >= 2:  # only two free Sylops make two masks the same subset
            for i in range(n):  # a card's bit in the subset key: the Sylops (one code) counted
                c = st.hands[s][i]
                bits[i] = ((<uint64_t>1) << 62) if VAL[c] == 0 else ((<uint64_t>1) << c)
                if i < k:
                    kept_key += bits[i]
            keys[0] = kept_key
            for mask in range(1, 1 << free):
                keys[mask] = keys[mask & (mask - 1)] + bits[k + LOWBIT[mask]]
        self._keeps = None  # the last decision's Keeps: this game no longer holds them
        cdef list out = []
        for mask in range(1 if k == 0 else 0, 1 << free):
            if free_sylops >= 2:
                dup = 0
                for j in range(nkeys):
                    if listed[j] == keys[mask]:
                        dup = 1
                        break
                if dup:
                    continue
                listed[nkeys] = keys[mask]
            self._keep_masks[nkeys] = <unsigned char>mask
            nkeys += 1
            m = 0
            r = kept_ranks | ranks[mask]
            while r:
                sorted_cards[m] = by_rank[LOWBIT[r]]
                m += 1
                r &= r - 1
            out.append(_pooled_keep(((1 << k) - 1) | (mask << k), sorted_cards, m))
        self._keeps = out
        self._keeps_at = len(self._acts)
        return out

    cdef inline Py_ssize_t _keep_index(self, object action, Py_ssize_t at) noexcept:
        """The place of ``action`` (by identity) in the Keep list built at action count ``at``,
        or -1."""
        cdef list keeps = self._keeps
        cdef Py_ssize_t j
        if keeps is None or self._keeps_at != at:
            return -1
        for j in range(len(keeps)):
            if <PyObject*>keeps[j] is <PyObject*>action:
                return j
        return -1

    cdef int _keep_mask(self, object action) except -1:
        """The positions (after the kept cards) a legal Keep adds, as the reference picks them
        (the kept cards' codes first, then each wanted code at its first place in the rest)."""
        cdef State* st = &self.st
        cdef int s = st.to_act, k = st.kept_n[s], i, mask = 0
        cdef Py_ssize_t j = self._keep_index(action, len(self._acts) - 1)
        if j >= 0:
            return self._keep_masks[j]
        wanted = list(action.cards)
        for i in range(k):
            wanted.remove(_CODES[st.hands[s][i]])
        for i in range(k, st.hlen[s]):
            code = _CODES[st.hands[s][i]]
            if code in wanted:
                wanted.remove(code)
                mask |= 1 << (i - k)
        return mask

    cdef bint _surabat_contains(self, object action) except -1:
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
        if not isinstance(a, int) or isinstance(a, bool):
            return False
        for i in range(st.hlen[s]):
            if VAL[st.hands[s][i]] == a:
                return True
        return False

    cdef object _make_legal(self):
        fixed = tuple(self._fixed_list())
        if self.st.phase != PH_BETTING:
            return Legal(fixed)
        bet = (self.st.bet_lo, self.st.bet_hi) if self.st.bet_hi else None
        raise_ = (self.st.raise_lo, self.st.raise_hi) if self.st.raise_hi else None
        return Legal(fixed, bet, raise_)

    cdef bint _contains(self, object action) except -1:
        cdef State* st = &self.st
        cdef int s = st.to_act, i
        cdef long long v
        t = type(action)
        if st.phase == PH_BETTING:
            if t is _Check:
                return not st.to_call_pos
            if t is _Call:
                return st.to_call_pos
            if t is _Junk:
                return True
            if t is _Bet:
                a = action.amount
                if not isinstance(a, int) or isinstance(a, bool) or not st.bet_hi:
                    return False
                return st.bet_lo <= a <= st.bet_hi  # compared as Python ints: any size
            if t is _Raise:
                a = action.amount
                if not isinstance(a, int) or isinstance(a, bool) or not st.raise_hi:
                    return False
                return st.raise_lo <= a <= st.raise_hi
            return False
        if self.o.variant == V_SURABAT:
            return self._surabat_contains(action)
        if self.o.variant == V_CORUSCANT:
            if t is not _Keep:
                return False
            if self._legal_list is None:
                self._legal_list = self._fixed_list()
            for a in self._legal_list:
                if a is action:
                    return True
            return action in self._legal_list
        if t is _Stand:
            return True
        if t is _Gain:
            return action.value is None and st.can_gain
        if t is _Swap:
            a = action.value
            if not isinstance(a, int) or isinstance(a, bool) or not -10 <= a <= 10:
                return False
            src = action.source
            if src == "discard":
                if not st.can_swap_discard:
                    return False
            elif src == "draw":
                if not st.can_swap_draw:
                    return False
            else:
                return False
            v = a
            for i in range(st.hlen[s]):
                if VAL[st.hands[s][i]] == v:
                    return True
        return False

    # ------------------------------------------------------------------ the rules (C functions)
    cdef inline void _compute_legal(self) noexcept:
        g_compute_legal(&self.st, &self.o)

    cdef inline long long _pot_total(self) noexcept:
        return g_pot_total(&self.st, &self.o)

    cdef inline int _build_pots(self, long long* amounts, int* masks) noexcept:
        return g_build_pots(&self.st, &self.o, amounts, masks)

    cdef void _perform(self, int s, object action) except *:
        """Play a legal action object through the C rules, then log the hand it ended."""
        cdef State* st = &self.st
        cdef int kind
        cdef long long arg = 0
        cdef int hand = st.hand_no
        t = type(action)
        if t is _Stand:
            kind = A_STAND
        elif t is _Gain:
            if action.value is None:
                kind = A_GAIN
            else:
                kind = A_SUN_GAIN
                arg = action.value
        elif t is _Swap:
            src = action.source
            kind = (A_SWAP_DISCARD if src == "discard" else A_SWAP_DRAW if src == "draw"
                    else A_SWAP_MOON)
            arg = action.value
        elif t is _Discard:
            kind = A_DISCARD
            arg = action.value
        elif t is _Keep:
            kind = A_KEEP
            arg = self._keep_mask(action)
        elif t is _Check:
            kind = A_CHECK
        elif t is _Call:
            kind = A_CALL
        elif t is _Bet:
            kind = A_BET
            arg = action.amount
        elif t is _Raise:
            kind = A_RAISE
            arg = action.amount
        else:
            kind = A_JUNK
        st.rec_done = 0
        g_perform(st, &self.o, s, kind, arg)
        if st.rec_done:
            self._log_hand()
        if st.hand_no != hand:
            self._last = [None] * st.n

    cdef void _log_hand(self) except *:
        """Append the finished hand's record (``State.rec_*``) to ``hand_nets`` and
        ``_hand_data``."""
        cdef State* st = &self.st
        cdef int s, i
        self.hand_nets.append(
            (st.rec_hand, st.rec_dealer,
             "showdown" if st.rec_reason == REC_SHOWDOWN else "all_junked",
             tuple([st.rec_net[s] for s in range(st.n)]))
        )
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
                if self.o.variant == V_CORUSCANT:
                    value = evaluate_target([_CARDS[c] for c in cards], target, _SUIT_NAMES[suit])
                else:
                    value = evaluate_spike([_VALUES[c] for c in cards])
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

    cdef object _last_result(self):
        """The last finished hand's :class:`HandResult` (None before the first hand ends)."""
        cdef int i
        if not self._hand_data:
            return None
        for i in range(len(self._results), len(self._hand_data)):
            self._results.append(self._build_result(i))
        return self._results[len(self._results) - 1]

    @property
    def hand_results(self):
        """The typed result of every finished hand, equal to the reference engine's
        :attr:`Game.hand_results`: built on first use from the compact record each hand end
        keeps (pots and winners, the revealed hands' card ids, what was carried), then cached.
        A new list each time (the results themselves are immutable)."""
        self._last_result()
        return list(self._results)

    def observation(self, seat):
        """What ``seat`` may know, as a JSON-serialisable dict (None: a spectator's view):
        equal to the reference engine's :meth:`Game.observation` in every state, ``last_hand``,
        ``legal``, side pots, ``you`` and ``outcome`` included. Raises IndexError for a seat
        not at this table (the reference engine reads a negative seat from the end)."""
        cdef State* st = &self.st
        cdef int n = st.n, s, i, me = -1
        cdef signed char c
        cdef long long to_call = 0, total = 0
        cdef uint64_t seen
        if seat is not None:
            if isinstance(seat, bool) or not hasattr(seat, "__index__"):
                raise IndexError(f"no seat {seat!r} at this {n}-seat table")
            seat = _index(seat)  # an int (a NumPy integer is taken too)
            if not 0 <= seat < n:
                raise IndexError(f"no seat {seat!r} at this {n}-seat table")
            me = seat
        current = self.current_player
        legal = self.legal() if me >= 0 and me == st.to_act and not st.over else NO_ACTIONS
        last = self.last_action
        seats = []
        seen = st.seen[me] if me >= 0 else 0  # Surabat: cards this seat alone saw go in
        for s in range(n):
            known = []
            for i in range(st.hlen[s]):
                c = st.hands[s][i]
                if st.pub[c] or (seen and s != me and seen >> c & 1):
                    known.append(_CODES[c])
            if st.out[s]:
                status = "out"
            elif not st.in_hand[s]:
                status = "waiting"
            elif st.folded[s]:
                status = "junked"
            elif st.stacks[s] == 0:
                status = "all_in"
            else:
                status = "active"
            seats.append(
                {
                    "seat": s,
                    "name": self.names[s],
                    "stack": st.stacks[s],
                    "committed": st.committed[s],
                    "round_bet": st.round_bet[s],
                    "cards": st.hlen[s],
                    "known_cards": known,
                    "status": status,
                    "dealer": s == st.dealer,
                    "last_action": last[s],
                }
            )
        if me >= 0 and st.phase == PH_BETTING:
            to_call = st.cur_bet - st.round_bet[me]
            if to_call < 0:
                to_call = 0
        result = self._last_result()
        obs = {
            "schema_version": SCHEMA_VERSION,
            "variant": self._game_type.info.name,
            "seat": seat,
            "hand": st.hand_no,
            "phase": _PHASES[st.phase],
            "dealer": st.dealer,
            "current_player": current,
            "is_over": bool(st.over),
            "seats": seats,
            "pots": {
                "main": self._pot_total(),
                "sabacc": st.sabacc_pot,
                "side": [{"amount": p.amount, "eligible": list(p.eligible)} for p in self.pots()],
            },
            "betting": {
                "current_bet": st.cur_bet,
                "to_call": to_call,
                "structure": str(self.options.betting),
                "unit": self.o.unit,
            },
            "legal": legal.to_dict(),
            "last_hand": None if result is None else result.to_dict(),
        }
        if me >= 0:
            codes = []
            values = []
            for i in range(st.hlen[me]):
                c = st.hands[me][i]
                codes.append(_CODES[c])
                values.append(VAL[c])
                total += VAL[c]
            obs["you"] = {
                "cards": codes,
                "values": values,
                "total": total,
                "hand": (evaluate_spike(values).to_dict()
                         if values and self.o.variant != V_CORUSCANT else None),
            }
        if self.o.variant == V_CORUSCANT:
            # A junked hand is empty but its kept count stays (as in the reference).
            k = min(st.kept_n[me], st.hlen[me]) if me >= 0 else 0
            if me >= 0 and (st.kept_n[me] or st.hlen[me]):
                kept = [_CARDS[st.hands[me][i]] for i in range(k if st.kept_n[me] else st.hlen[me])]
                obs["you"]["hand"] = evaluate_target(
                    kept, st.target, _SUIT_NAMES[st.suit]
                ).to_dict()
            obs["round"] = st.round
            obs["rounds"] = 2
            obs["target"] = st.target
            obs["target_suit"] = _SUIT_NAMES[st.suit]
            obs["kept_counts"] = [st.kept_n[s] for s in range(n)]
            obs["kept"] = [_CODES[st.hands[me][i]] for i in range(k)]
            obs["draw_pile"] = st.ndraw
            obs["mucked"] = st.nmuck
            obs["discard_top"] = _CODES[st.discard[st.ndiscard - 1]] if st.ndiscard else None
            obs["discard_pile"] = [_CODES[st.discard[i]] for i in range(st.ndiscard)]
            obs["dice"] = None
            if st.over:
                obs["outcome"] = self.outcome.to_dict()
            return obs
        if self.o.variant == V_SURABAT:
            obs["round"] = st.round
            obs["rounds"] = g_rounds(st, &self.o)
            obs["starting_player"] = None if st.starting < 0 else st.starting
            obs["hand_cap"] = self.o.hand_cap
            obs["sun"] = [_CODES[st.sun[i]] for i in range(st.nsun)]
            obs["moon_count"] = st.nmoon
            obs["moon_known"] = [
                _CODES[st.moon[i]] if me >= 0 and st.moon_owner[i] == me else None
                for i in range(st.nmoon)
            ]
            obs["discard_pile"] = [_CODES[st.discard[i]] for i in range(st.ndiscard)]
            obs["discard_stack"] = st.ndiscard + st.nmuck
            obs["mucked"] = st.nmuck
            obs["draw_pile"] = st.ndraw
            obs["dice"] = [st.d1, st.d2] if st.d1 else None
            if st.over:
                obs["outcome"] = self.outcome.to_dict()
            return obs
        obs["round"] = st.round
        obs["rounds"] = self.o.rounds
        obs["discard_top"] = _CODES[st.discard[st.ndiscard - 1]] if st.ndiscard else None
        obs["discard_pile"] = [_CODES[st.discard[i]] for i in range(st.ndiscard)]
        obs["draw_pile"] = st.ndraw
        obs["mucked"] = st.nmuck
        obs["dice"] = [st.d1, st.d2] if st.d1 else None
        if st.over:
            obs["outcome"] = self.outcome.to_dict()
        return obs

    def full_state(self):
        """Every hidden card too (as :meth:`Game.full_state`): for debugging and tests only."""
        cdef State* st = &self.st
        cdef int s, i
        return {
            "hands": [[_CODES[st.hands[s][i]] for i in range(st.hlen[s])] for s in range(st.n)],
            "draw": [_CODES[st.draw[i]] for i in range(st.ndraw)],
            "muck": [_CODES[st.muck[i]] for i in range(st.nmuck)],
            "observation": self.observation(None),
        }

    # ------------------------------------------------------------------ compact view (RL)
    def seat_view(self, int seat):
        """The reference engine's :meth:`Game.seat_view` (the compact view the RL encoder
        reads; layout in :mod:`sabacc.engine.features`) in one call: ``(phase, main pot,
        sabacc pot, current bet, dealer offset, own card ids, own total, seats, extra)``, each
        seat ``(stack, committed, round bet, card count, status, last, known)`` from ``seat``
        clockwise, ``last`` the ``kind`` (first word) of its last action this hand, and
        ``extra`` Spike's ``(round, rounds, draw size, muck size, last dice doubles, discard
        ids)`` (:data:`sabacc.variants.corellian_spike.rules.SPIKE_FEATURES` reads it).
        """
        cdef State* st = &self.st
        cdef int n = st.n
        cdef int k, s, i, m, status, total = 0
        cdef signed char c
        cdef char buf[NC]
        if not 0 <= seat < n:
            raise IndexError(f"no seat {seat} at a {n}-seat table")
        seats = []
        cdef uint64_t seen = st.seen[seat]
        for k in range(n):
            s = seat + k
            if s >= n:
                s -= n
            if st.out[s]:
                status = 4
            elif not st.in_hand[s]:
                status = 3
            elif st.folded[s]:
                status = 2
            elif st.stacks[s] == 0:
                status = 1
            else:
                status = 0
            a = self._last[s]
            m = 0
            for i in range(st.hlen[s]):
                c = st.hands[s][i]
                if st.pub[c] or (seen and k and seen >> c & 1):
                    buf[m] = c
                    m += 1
            seats.append((st.stacks[s], st.committed[s], st.round_bet[s], st.hlen[s], status,
                          None if a is None else "kept" if type(a) is _Keep else a.kind,
                          buf[:m]))
        for i in range(st.hlen[seat]):
            total += VAL[st.hands[seat][i]]
        if self.o.variant == V_CORUSCANT:
            extra = (
                st.round, st.target, _SUIT_NAMES[st.suit],
                (<char*>st.hands[seat])[:min(st.kept_n[seat], st.hlen[seat])],
                tuple([st.kept_n[(seat + k) % n] for k in range(n)]), st.ndraw, st.nmuck,
            )
        elif self.o.variant == V_SURABAT:
            extra = (
                st.round, g_rounds(st, &self.o),
                -1 if st.starting < 0 else (st.starting - seat + n) % n,
                (<char*>st.sun)[:st.nsun], st.nmoon,
                tuple([st.moon[i] if st.moon_owner[i] == seat else -1 for i in range(st.nmoon)]),
                (<char*>st.discard)[:st.ndiscard], st.ndraw, st.nmuck,
                st.d1 != 0 and st.d1 == st.d2,
            )
        else:
            extra = (st.round, self.o.rounds, st.ndraw, st.nmuck, st.d1 != 0 and st.d1 == st.d2,
                     (<char*>st.discard)[:st.ndiscard])
        return (
            _PHASES[st.phase], self._pot_total(), st.sabacc_pot, st.cur_bet,
            (st.dealer - seat + n) % n, (<char*>st.hands[seat])[:st.hlen[seat]], total,
            tuple(seats), extra,
        )

    # ------------------------------------------------------------------ search (bots)
    @property
    def rounds(self):
        """Rounds per hand (:attr:`Game.rounds`)."""
        return g_rounds(&self.st, &self.o)

    @property
    def bet_unit(self):
        """The minimum bet and raise increment (:attr:`Game.bet_unit`)."""
        return self.o.unit

    @staticmethod
    def from_game(game):
        """A compiled copy of a reference :class:`SpikeGame`'s current state, RNG state and
        action log included: it goes on exactly as ``game`` would (for search bots, which
        sample and play out many worlds from one position). Goes through the public seam:
        ``SpikeCore.from_snapshot(game.snapshot())``."""
        if type(game) is not SpikeGame:
            raise OptionError("from_game copies a Corellian Spike game of the reference engine")
        return SpikeCore.from_snapshot(game.snapshot())

    @staticmethod
    def from_snapshot(snapshot):
        """A core in the state a :class:`~sabacc.variants.spike_family.snapshot.SpikeSnapshot`
        describes (taken from either engine): it goes on exactly as the game it was taken from.
        Raises ``ValueError`` for a snapshot no engine can hold (see ``SpikeSnapshot.validate``).
        """
        cdef SpikeCore new = SpikeCore.__new__(SpikeCore)
        if type(snapshot) is not SpikeSnapshot or type(snapshot.options) is not SpikeOptions:
            raise TypeError("from_snapshot takes a SpikeSnapshot of a Corellian Spike game")
        snapshot.validate()
        _fill_core(new, snapshot, snapshot.rng_state, snapshot.hands, snapshot.draw,
                   snapshot.discard, snapshot.muck)
        return new

    def snapshot(self):
        """This game's whole state as a :class:`~sabacc.variants.spike_family.snapshot.SpikeSnapshot`
        (plain data, RNG state and logs included), which ``SpikeGame.from_snapshot`` and
        :meth:`from_snapshot` rebuild."""
        cdef State* st = &self.st
        cdef int n = st.n, s, i
        return SpikeSnapshot(
            options=self.options,
            seed=self.seed,
            names=tuple(self.names),
            rng_state=tuple([st.rng.mt[i] for i in range(MT_N)] + [st.rng.mti]),
            stacks=tuple([st.stacks[s] for s in range(n)]),
            out=tuple([bool(st.out[s]) for s in range(n)]),
            hand_no=st.hand_no,
            dealer=st.dealer,
            orbit_steps=st.orbit_steps,
            sabacc_pot=st.sabacc_pot,
            carry=st.carry,
            house=st.house,
            to_act=None if st.to_act < 0 else st.to_act,
            phase=_PHASES[st.phase],
            over=bool(st.over),
            hands=tuple([tuple([st.hands[s][i] for i in range(st.hlen[s])]) for s in range(n)]),
            public_ids=tuple([
                frozenset([st.hands[s][i] for i in range(st.hlen[s]) if st.pub[st.hands[s][i]]])
                for s in range(n)
            ]),
            in_hand=tuple([bool(st.in_hand[s]) for s in range(n)]),
            folded=tuple([bool(st.folded[s]) for s in range(n)]),
            acted=tuple([bool(st.acted[s]) for s in range(n)]),
            committed=tuple([st.committed[s] for s in range(n)]),
            round_bet=tuple([st.round_bet[s] for s in range(n)]),
            hand_start_stacks=tuple([st.hand_start[s] for s in range(n)]),
            last_action=tuple(self.last_action),
            dead=st.dead,
            cur_bet=st.cur_bet,
            raises=st.raises,
            draw=tuple([st.draw[i] for i in range(st.ndraw)]),
            discard=tuple([st.discard[i] for i in range(st.ndiscard)]),
            muck=tuple([st.muck[i] for i in range(st.nmuck)]),
            round=st.round,
            card_queue=tuple([st.queue[i] for i in range(st.qpos, st.qlen)]),
            last_dice=(st.d1, st.d2) if st.d1 else None,
            actions=tuple(self.actions),
            hand_results=tuple(self.hand_results),
        )

    def determinize(self, int viewer, rng):
        """A copy of this state as ``viewer`` might imagine it, exactly as
        :meth:`Game.determinize` draws it from ``rng`` (same calls, same result): the other
        seats' hidden cards, the draw pile and the muck are shuffled and dealt back into the
        same places; the copy gets a fresh RNG seeded from ``rng``. Like the reference's
        (``clone(log=False)``), the copy starts with an empty action log."""
        cdef SpikeCore new = self.clone(reseed=rng.getrandbits(64))
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
        for i in range(st.nmoon):  # Surabat: the Moon cards this seat did not put there
            if st.moon_owner[i] != viewer:
                places[k] = &st.moon[i]
                k += 1
                cards.append(st.moon[i])
        cards.sort()  # forget where they were
        if type(rng) is _random.Random:
            shuffle_like_python(rng, cards)
        else:
            rng.shuffle(cards)
        for i in range(k):
            places[i][0] = <signed char>cards[i]
        st.legal_ok = 0
        new._legal_obj = None
        new._legal_list = None
        new._keeps = None  # and the Keeps built for the old state
        return new


def _restore(bytes state, bytes opts, options, seed, names, seats, acts, last, hand_nets,
             hand_data, results, cls=SpikeCore):
    """Rebuild a pickled :class:`SpikeCore` (see ``SpikeCore.__reduce__``)."""
    if len(state) != sizeof(State) or len(opts) != sizeof(Opts):
        raise ValueError("this SpikeCore was pickled by another build of sabacc")
    if not issubclass(cls, SpikeCore):
        raise TypeError("not a compiled Spike-family core")
    return _assemble(cls, <State*><char*>state, <Opts*><char*>opts, options, seed, names, seats, acts,
                     last, hand_nets, hand_data, results)


cdef SpikeCore _assemble(type cls, State* st, Opts* o, options, seed, names, seats, acts, last,
                         hand_nets, hand_data, results):
    """A core with a copy of this C state and options and copies of the Python-side logs; its
    legal actions are computed afresh (``clone`` and unpickling share it)."""
    cdef SpikeCore new = cls.__new__(cls)
    memcpy(&new.st, st, sizeof(State))
    memcpy(&new.o, o, sizeof(Opts))
    new.st.legal_ok = 0
    new.options = options
    new.seed = seed
    new.names = list(names)
    new._seats = list(seats)
    new._acts = list(acts)
    new._last = list(last)
    new.hand_nets = list(hand_nets)
    new._hand_data = list(hand_data)
    new._results = list(results)
    new._legal_obj = None
    new._legal_list = None
    new._keeps = None  # and the Keeps built for the old state
    return new


cdef void _copy_reference(SpikeCore new, object game) except *:
    """Copy what a reference Spike-family game shares with every core (the table, the hand's
    Spike state, the RNG and the logs) into ``new`` (from_game of the subclasses): the fields a
    snapshot has, read by the same code as ``from_snapshot``."""
    _version, internal, gauss = game.rng.getstate()
    if gauss is not None:  # pragma: no cover - the engine never draws Gaussians
        raise ValueError("the game's RNG holds a Gaussian draw the core cannot keep")
    _fill_core(new, game, internal, [[c.id for c in hand] for hand in game.hands],
               [c.id for c in game.draw], [c.id for c in game.discard],
               [c.id for c in game.muck])


cdef void _fill_core(SpikeCore new, object src, object rng_state, object hands, object draw,
                     object discard, object muck) except *:
    """Set ``new`` to the state ``src`` describes: a :class:`SpikeSnapshot` or a reference
    Spike-family game, whose fields of the same names (``SpikeSnapshot``'s) are read here;
    the cards (per-seat ``hands`` and the piles, bottom first) come as card ids, the RNG as
    the 624 words and the index. The state of a subclass's variant is its ``from_game``'s."""
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
    new._keeps = None  # and the Keeps built for the old state
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
            if text == "swap moon":  # the table is not shown which card went (Surabat)
                last.append(_SWAP_MOON[10])
            elif text.startswith("kept "):  # nor which cards were kept (Coruscant)
                last.append(_Keep(()))
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


# ---------------------------------------------------------------------------------- Surabat Cycle
cdef class SurabatCore(SpikeCore):
    """A game of Surabat Cycle on the compiled engine: :class:`SpikeCore`'s C rules with
    ``Opts.variant = V_SURABAT`` (the Sun and Moon piles, the forced discard, the rotating
    start, the Cycle phase, the whole discard stack reshuffled, who saw which Moon card), the
    reference being :class:`~sabacc.variants.surabat_cycle.rules.SurabatGame`.

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
        st.nsun = len(game.sun)
        for i, card in enumerate(game.sun):
            st.sun[i] = card.id
        st.nmoon = len(game.moon)
        for i, card in enumerate(game.moon):
            st.moon[i] = card.id
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


# ---------------------------------------------------------------------------------- Coruscant Shift
cdef class CoruscantCore(SpikeCore):
    """A game of Coruscant Shift on the compiled engine: :class:`SpikeCore`'s C rules with
    ``Opts.variant = V_CORUSCANT`` (five cards, the gold and silver dice, the two selections,
    the shift, two betting rounds, the rising ante, the kept set's value against the target),
    the reference being :class:`~sabacc.variants.coruscant_shift.rules.CoruscantGame`.

    ``CoruscantCore(options, seed=7, players=4)``, or
    ``sabacc.new_game("coruscant", engine="compiled")``. Keep actions naming cards by value
    only (``keep -3 +5 0``) are resolved by the reference's own ``_resolve``.
    """

    _game_type = CoruscantGame
    _options_type = CoruscantOptions

    def apply(self, action, seat=None):
        return self._apply(_resolve_keep(self, action), seat)

    def is_legal(self, action):
        try:
            return SpikeCore.is_legal(self, _resolve_keep(self, action))
        except IllegalActionError:
            return False

    @property
    def kept_n(self):
        return [self.st.kept_n[s] for s in range(self.st.n)]

    @property
    def target(self):
        return self.st.target

    @property
    def target_suit(self):
        return _SUIT_NAMES[self.st.suit]

    @property
    def selection(self):
        return self.st.selection

    @property
    def hand_ante(self):
        return self.st.hand_ante

    def snapshot(self):
        raise TypeError("snapshot() covers Corellian Spike, not Coruscant Shift")

    @staticmethod
    def from_snapshot(snapshot):
        raise TypeError("from_snapshot rebuilds a Corellian Spike game from SpikeOptions")

    @staticmethod
    def from_game(game):
        """A compiled copy of a reference :class:`CoruscantGame`'s current state, RNG state and
        logs included: it goes on exactly as ``game`` would."""
        cdef CoruscantCore new = CoruscantCore.__new__(CoruscantCore)
        cdef State* st = &new.st
        cdef int s
        if type(game) is not CoruscantGame:
            raise OptionError("from_game copies a Coruscant Shift game of the reference engine")
        _copy_reference(new, game)
        for s in range(st.n):
            st.kept_n[s] = game.kept_n[s]
        st.target = 0 if game.target is None else game.target
        st.suit = _SUIT_NAMES.index(game.target_suit) if game.target_suit else 0
        st.selection = game.selection
        st.hand_ante = getattr(game, "hand_ante", game.options.ante)
        return new


_CORUSCANT_RESOLVE = CoruscantGame._resolve


cdef object _resolve_keep(SpikeCore game, object action):
    """The reference's reading of a keep (value-only cards resolved against the hand). One of
    the current legal Keep objects is itself (the reference's own legal actions resolve to
    themselves), so it skips the reading."""
    cdef list legal
    if type(action) is _Keep:
        legal = game._legal_list
        if legal is not None:
            for a in legal:
                if a is action:
                    return action
    elif type(action) is not str:
        return action
    return _CORUSCANT_RESOLVE(game, action)


# ---------------------------------------------------------------------------------- many games
# SpikeVector plays B games at once on the C rules above, with no Python per game: the batch
# reset and step loops run without the GIL, reading action indices from and writing
# observations, rewards and masks into caller-owned buffers. The Python side
# (sabacc.apps.rl.vector.VectorEnv) owns the NumPy arrays, and hands in the observation encoder
# (sabacc.apps.rl.features) and the action table (sabacc.apps.rl.actions), whose layouts are
# read here, so the vectors and indices are those of the scalar environments.

DEF MAXA = 128
DEF PREFETCH_AHEAD = 2  # games ahead whose state the batch loop asks the cache for

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define SABACC_PREFETCH(p) __builtin_prefetch((const void*)(p), 1, 3)
    #else
    #define SABACC_PREFETCH(p) ((void)0)
    #endif
    """
    void SABACC_PREFETCH(const void* p) noexcept nogil
DEF MAXSIZES = 32

ctypedef struct VecCfg:
    int n
    int game_episode    # rewards include the final_pot split at the end of a game
    long long start
    # the action table
    int nact
    int bet_base
    int raise_base
    int nsizes
    signed char act_kind[MAXA]
    signed char act_val[MAXA]
    signed char act_slot[MAXA]  # swaps: value + 10; other kinds: 21 (see vec_mask)
    int size_kind[MAXSIZES]     # 0 min, 1 max, 2 pot fraction, 3 exact credits
    double size_x[MAXSIZES]
    # the observation layout
    int obs_size
    int o_card
    int o_betting
    int o_values
    int o_size
    int o_rank
    int nranks
    int o_pots
    int o_seats
    int per_seat
    int o_round
    int o_top
    int o_pile
    int o_piles
    double buy
    double deck
    double total_scale


cpdef uint64_t next_seed(uint64_t seed) noexcept nogil:
    """The seed of a slot's next episode after one seeded ``seed`` (SplitMix64's output for
    the state ``seed``): ``SpikeVector`` auto-resets a finished game with it."""
    cdef uint64_t z = seed + <uint64_t>0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


def action_code(action):
    """``(kind, value)`` of a Spike action object for :class:`SpikeVector`'s action table."""
    t = type(action)
    if t is _Stand:
        return A_STAND, 0
    if t is _Gain and action.value is None:
        return A_GAIN, 0
    if t is _Swap and action.source in ("discard", "draw"):
        return (A_SWAP_DISCARD if action.source == "discard" else A_SWAP_DRAW), action.value
    if t is _Check:
        return A_CHECK, 0
    if t is _Call:
        return A_CALL, 0
    if t is _Junk:
        return A_JUNK, 0
    raise ValueError(f"{action!r} is not a fixed Corellian Spike action")


cdef void vec_deal(State* st, Opts* o, VecCfg* cfg) noexcept nogil:
    """A fresh game on an RNG just seeded, as ``SpikeCore(options, seed=..., players=n)``
    starts it (the RNG comes first in the State and is kept)."""
    cdef int s
    memset((<char*>st) + sizeof(MT), 0, sizeof(State) - sizeof(MT))
    st.n = cfg.n
    for s in range(cfg.n):
        st.stacks[s] = o.start
    st.to_act = -1
    st.phase = PH_SETUP
    g_reset_hand_state(st, o)
    g_start_hand(st, o)


cdef inline bint vec_holds(State* st, int s, int value) noexcept nogil:
    cdef int i
    for i in range(st.hlen[s]):
        if VAL[st.hands[s][i]] == value:
            return True
    return False


cdef inline long long vec_amount(VecCfg* cfg, int j, long long lo, long long hi,
                                 long long pot) noexcept nogil:
    """``ActionTable.amount``: the amount of size ``j`` (-1: not legal)."""
    cdef int kind = cfg.size_kind[j]
    cdef long long amt
    if kind == 0:
        return lo
    if kind == 1:
        return hi
    if kind == 2:
        amt = <long long>(cfg.size_x[j] * pot + 0.5)
        return lo if amt < lo else hi if amt > hi else amt
    amt = <long long>cfg.size_x[j]
    return amt if lo <= amt <= hi else -1


cdef bint vec_decode(State* st, Opts* o, VecCfg* cfg, long long idx, int* kind,
                     long long* arg) noexcept nogil:
    """The action of index ``idx`` at the current decision (False: not legal)."""
    cdef int k, s = st.to_act
    cdef long long amt, pot
    cdef bint card = st.phase == PH_CARD
    g_compute_legal(st, o)
    if idx < 0 or idx >= cfg.nact:
        return False
    if idx < cfg.bet_base:
        k = cfg.act_kind[idx]
        kind[0] = k
        arg[0] = cfg.act_val[idx]
        if k == A_STAND:
            return card
        if k == A_GAIN:
            return card and st.can_gain
        if k == A_SWAP_DISCARD:
            return card and st.can_swap_discard and vec_holds(st, s, cfg.act_val[idx])
        if k == A_SWAP_DRAW:
            return card and st.can_swap_draw and vec_holds(st, s, cfg.act_val[idx])
        if card:
            return False
        if k == A_CHECK:
            return not st.to_call_pos
        if k == A_CALL:
            return st.to_call_pos
        return k == A_JUNK
    pot = g_pot_total(st, o)
    if idx < cfg.raise_base:
        if not st.bet_hi:
            return False
        amt = vec_amount(cfg, <int>(idx - cfg.bet_base), st.bet_lo, st.bet_hi, pot)
        kind[0] = A_BET
    else:
        if not st.raise_hi:
            return False
        amt = vec_amount(cfg, <int>(idx - cfg.raise_base), st.raise_lo, st.raise_hi,
                         pot + st.cur_bet - st.round_bet[s])
        kind[0] = A_RAISE
    if amt < 0:
        return False
    arg[0] = amt
    return True


cdef void vec_mask(State* st, Opts* o, VecCfg* cfg, signed char* m) noexcept nogil:
    """Write the action mask of the current decision (the legality ``vec_decode`` checks),
    without a branch per index: a fixed index is legal when its kind is and, for a swap, the
    hand holds its value (``act_slot``: the value's slot in ``seen``, or the always-set one)."""
    cdef int i, j, s = st.to_act
    cdef signed char seen[22]
    cdef signed char allow[9]
    cdef bint card = st.phase == PH_CARD
    cdef signed char bet_ok, raise_ok
    g_compute_legal(st, o)
    memset(seen, 0, sizeof(seen))
    seen[21] = 1
    for i in range(st.hlen[s]):
        seen[VAL[st.hands[s][i]] + 10] = 1
    allow[A_STAND] = card
    allow[A_GAIN] = card and st.can_gain
    allow[A_SWAP_DISCARD] = card and st.can_swap_discard
    allow[A_SWAP_DRAW] = card and st.can_swap_draw
    allow[A_CHECK] = not card and not st.to_call_pos
    allow[A_CALL] = not card and st.to_call_pos
    allow[A_JUNK] = not card
    allow[A_BET] = allow[A_RAISE] = 0
    for i in range(cfg.bet_base):
        m[i] = allow[cfg.act_kind[i]] & seen[cfg.act_slot[i]]
    bet_ok = st.bet_hi != 0
    raise_ok = st.raise_hi != 0
    for j in range(cfg.nsizes):
        if cfg.size_kind[j] == 3:
            m[cfg.bet_base + j] = bet_ok and vec_amount(cfg, j, st.bet_lo, st.bet_hi, 0) >= 0
            m[cfg.raise_base + j] = raise_ok and vec_amount(
                cfg, j, st.raise_lo, st.raise_hi, 0) >= 0
        else:
            m[cfg.bet_base + j] = bet_ok
            m[cfg.raise_base + j] = raise_ok


cdef int vec_lowest(VecCfg* cfg, signed char* m) noexcept nogil:
    """The lowest legal index of a mask (the passive action)."""
    cdef int i
    for i in range(cfg.nact):
        if m[i]:
            return i
    return -1


cdef void vec_obs(State* st, Opts* o, VecCfg* cfg, float* f) noexcept nogil:
    """The current player's observation vector: ``ObservationEncoder.encode_view`` of its
    ``seat_view`` (sabacc.apps.rl.features; the same float32 values)."""
    cdef int me = st.to_act, n = st.n, k, s, i, b, status, la, rank, total = 0
    cdef int per = cfg.per_seat
    cdef signed char c
    cdef long long to_call
    cdef double buy = cfg.buy
    memset(f, 0, cfg.obs_size * sizeof(float))
    if st.phase == PH_CARD:
        f[cfg.o_card] = 1.0
    elif st.phase == PH_BETTING:
        f[cfg.o_betting] = 1.0
    if st.hlen[me]:
        for i in range(st.hlen[me]):
            c = st.hands[me][i]
            f[cfg.o_values + VAL[c] + 10] += 1.0
            total += VAL[c]
        f[cfg.o_size] = st.hlen[me]
        rank = 13 - <int>(strength(st.hands[me], st.hlen[me]) >> 56)
        f[cfg.o_rank + (rank if rank < cfg.nranks else cfg.nranks) - 1] = 1.0
        f[cfg.o_size + 1] = <float>(<double>total / cfg.total_scale)
    b = cfg.o_pots
    f[b] = <float>(<double>g_pot_total(st, o) / buy)
    f[b + 1] = <float>(<double>st.sabacc_pot / buy)
    f[b + 2] = <float>(<double>st.cur_bet / buy)
    if st.phase == PH_BETTING:
        to_call = st.cur_bet - st.round_bet[me]
        if to_call > 0:
            f[b + 3] = <float>(<double>to_call / buy)
    f[b + 4] = <float>(<double>o.unit / buy)
    b = cfg.o_seats
    f[b + ((st.dealer - me + n) % n) * per + 9] = 1.0
    for k in range(n):
        s = me + k
        if s >= n:
            s -= n
        f[b] = <float>(<double>st.stacks[s] / buy)
        f[b + 1] = <float>(<double>st.committed[s] / buy)
        f[b + 2] = <float>(<double>st.round_bet[s] / buy)
        f[b + 3] = st.hlen[s]
        if st.out[s]:
            status = 4
        elif not st.in_hand[s]:
            status = 3
        elif st.folded[s]:
            status = 2
        elif st.stacks[s] == 0:
            status = 1
        else:
            status = 0
        f[b + 4 + status] = 1.0
        la = st.last_kind[s]
        if la >= 0:
            f[b + 10 + la] = 1.0
        for i in range(st.hlen[s]):
            c = st.hands[s][i]
            if st.pub[c]:
                f[b + 20 + VAL[c] + 10] += 1.0
        b += per
    f[cfg.o_round] = <float>(<double>st.round / o.rounds)
    if st.round >= o.rounds:
        f[cfg.o_round + 1] = 1.0
    if st.ndiscard:
        f[cfg.o_top + VAL[st.discard[st.ndiscard - 1]] + 10] = 1.0
        for i in range(st.ndiscard):
            f[cfg.o_pile + VAL[st.discard[i]] + 10] += 1.0
    f[cfg.o_piles] = <float>(<double>st.ndraw / cfg.deck)
    f[cfg.o_piles + 1] = <float>(<double>st.nmuck / cfg.deck)
    if st.d1 != 0 and st.d1 == st.d2:
        f[cfg.o_piles + 2] = 1.0


cdef void vec_reseed(State* games, uint64_t* seeds, int* which, int count) noexcept nogil:
    """Seed the RNG of ``games[which[i]]`` with ``seeds[which[i]]``, 16 at a time."""
    cdef MT* rs[SEED_GROUP]
    cdef uint64_t keys[SEED_GROUP]
    cdef int i, g, m
    i = 0
    while i < count:
        m = count - i if count - i < SEED_GROUP else SEED_GROUP
        for g in range(m):
            rs[g] = &games[which[i + g]].rng
            keys[g] = seeds[which[i + g]]
        mt_seed_group(rs, keys, m)
        i += m


cdef class SpikeVector:
    """``num_envs`` heads-up-or-more Corellian Spike games on C arrays, stepped together.

    The engine of :class:`sabacc.apps.rl.vector.VectorEnv` (use that: it owns the NumPy
    buffers, builds the layouts and checks the arguments). ``reset`` and ``step`` take and fill
    C-contiguous buffers (any buffer-protocol object of the right type and shape) and run
    without the GIL: per game, decode the index (an illegal one plays the lowest legal index:
    the passive action), apply it through the same C rules as :class:`SpikeCore`, pay the hand
    nets as rewards, reset a finished game with :func:`next_seed` of its seed, and write the
    next decision's observation, mask and player.
    """

    cdef State* games
    cdef uint64_t* seeds
    cdef long long* paid
    cdef int* which
    cdef Opts o
    cdef VecCfg cfg
    cdef readonly int num_envs
    cdef readonly long long illegal_count
    cdef readonly object options

    def __cinit__(self):
        self.games = NULL
        self.seeds = NULL
        self.paid = NULL
        self.which = NULL

    def __init__(self, int num_envs, options, int players, bint game_episode, table, encoder):
        """``table``: the RL :class:`~sabacc.apps.rl.actions.ActionTable` whose indices
        ``step`` takes; ``encoder``: the :class:`~sabacc.apps.rl.features.ObservationEncoder`
        whose vectors it writes (Spike's layout: its block offsets are read here)."""
        cdef VecCfg* cfg = &self.cfg
        cdef int i
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if type(options) is not SpikeOptions:
            raise OptionError("SpikeVector takes SpikeOptions")
        SpikeCore(options, seed=0, players=players)  # the reference checks: players, buy-in
        if tuple(encoder.values) != tuple(range(-10, 11)) or encoder.n != players:
            raise ValueError("the encoder is not a Corellian Spike encoder for this table")
        fixed = [action_code(a) for a in table.fixed]
        sizes = list(table.size_codes)
        start = {name: at for name, at, _ in encoder.blocks()}
        layout = {
            **start,
            "size": encoder.size,
            "card": start["phase"] + encoder.phase_index["card"],
            "betting": start["phase"] + encoder.phase_index["betting"],
            "ranks": encoder.ranks,
            "per_seat": encoder.offsets["seats"][1] // players,
            "buy_in": encoder.buy_in,
            "deck": encoder.deck_size,
            "total_scale": encoder.total_scale,
        }
        if len(fixed) + 2 * len(sizes) > MAXA or len(sizes) > MAXSIZES:
            raise ValueError("the action table is too large for the compiled vector engine")
        _read_options(&self.o, options)
        self.options = options
        self.num_envs = num_envs
        memset(cfg, 0, sizeof(VecCfg))
        cfg.n = players
        cfg.game_episode = game_episode
        cfg.start = self.o.start
        cfg.nact = len(fixed) + 2 * len(sizes)
        cfg.bet_base = len(fixed)
        cfg.raise_base = len(fixed) + len(sizes)
        cfg.nsizes = len(sizes)
        for i, (kind, value) in enumerate(fixed):
            cfg.act_kind[i] = kind
            cfg.act_val[i] = value
            cfg.act_slot[i] = value + 10 if kind in (A_SWAP_DISCARD, A_SWAP_DRAW) else 21
        for i, (kind, x) in enumerate(sizes):
            cfg.size_kind[i] = kind
            cfg.size_x[i] = x
        cfg.obs_size = layout["size"]
        cfg.o_card = layout["card"]
        cfg.o_betting = layout["betting"]
        cfg.o_values = layout["hand_values"]
        cfg.o_size = layout["hand_size"]
        cfg.o_rank = layout["hand_rank"]
        cfg.nranks = layout["ranks"]
        cfg.o_pots = layout["pots"]
        cfg.o_seats = layout["seats"]
        cfg.per_seat = layout["per_seat"]
        cfg.o_round = layout["round"]
        cfg.o_top = layout["discard_top"]
        cfg.o_pile = layout["discard_pile"]
        cfg.o_piles = layout["piles"]
        cfg.buy = layout["buy_in"]
        cfg.deck = layout["deck"]
        cfg.total_scale = layout["total_scale"]
        self.games = <State*>PyMem_Malloc(num_envs * sizeof(State))
        self.seeds = <uint64_t*>PyMem_Malloc(num_envs * sizeof(uint64_t))
        self.paid = <long long*>PyMem_Malloc(num_envs * MAXP * sizeof(long long))
        self.which = <int*>PyMem_Malloc(num_envs * sizeof(int))
        if self.games == NULL or self.seeds == NULL or self.paid == NULL or self.which == NULL:
            raise MemoryError()
        memset(self.games, 0, num_envs * sizeof(State))
        memset(self.seeds, 0, num_envs * sizeof(uint64_t))
        memset(self.paid, 0, num_envs * MAXP * sizeof(long long))

    def __dealloc__(self):
        PyMem_Free(self.games)
        PyMem_Free(self.seeds)
        PyMem_Free(self.paid)
        PyMem_Free(self.which)

    @property
    def observation_size(self):
        return self.cfg.obs_size

    @property
    def num_actions(self):
        return self.cfg.nact

    def reset(self, const uint64_t[::1] seeds, float[:, ::1] obs, signed char[:, ::1] mask,
              signed char[::1] player):
        """Deal game ``b`` with ``seeds[b]``, for every ``b``; write each first decision."""
        cdef int b, B = self.num_envs
        cdef State* st
        self._check(seeds.shape[0], obs, mask, player)
        with nogil:
            for b in range(B):
                self.seeds[b] = seeds[b]
                self.which[b] = b
            vec_reseed(self.games, self.seeds, self.which, B)
            for b in range(B):
                st = &self.games[b]
                memset(&self.paid[b * MAXP], 0, MAXP * sizeof(long long))
                vec_deal(st, &self.o, &self.cfg)
                vec_obs(st, &self.o, &self.cfg, &obs[b, 0])
                vec_mask(st, &self.o, &self.cfg, &mask[b, 0])
                player[b] = <signed char>st.to_act

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, float[:, ::1] rewards,
             unsigned char[::1] terminated, signed char[:, ::1] mask, signed char[::1] player):
        """Play ``actions[b]`` in game ``b`` for every ``b`` (see the class docstring)."""
        cdef int b, s, kind, low, i, nfin = 0, B = self.num_envs, n = self.cfg.n
        cdef Py_ssize_t hot, off
        cdef char* line
        cdef long long arg, illegal = 0
        cdef long long* paid
        cdef State* st
        cdef Opts* o = &self.o
        cdef VecCfg* cfg = &self.cfg
        self._check(actions.shape[0], obs, mask, player)
        if rewards.shape[0] != B or rewards.shape[1] != n or terminated.shape[0] != B:
            raise ValueError("rewards must be (num_envs, players) and terminated (num_envs,)")
        hot = <Py_ssize_t>(<char*>&self.games[0].rec_done - <char*>&self.games[0].n)
        with nogil:
            for b in range(B):
                if b + PREFETCH_AHEAD < B:  # a game's hot fields span ~15 cache lines
                    line = <char*>&self.games[b + PREFETCH_AHEAD].n
                    for off in range(0, hot, 64):
                        SABACC_PREFETCH(line + off)
                st = &self.games[b]
                paid = &self.paid[b * MAXP]
                if not vec_decode(st, o, cfg, actions[b], &kind, &arg):
                    illegal += 1
                    vec_mask(st, o, cfg, &mask[b, 0])
                    low = vec_lowest(cfg, &mask[b, 0])
                    vec_decode(st, o, cfg, low, &kind, &arg)
                st.rec_done = 0
                g_perform(st, o, st.to_act, kind, arg)
                for s in range(n):
                    rewards[b, s] = 0.0
                if st.rec_done:
                    for s in range(n):
                        rewards[b, s] = <float>st.rec_net[s]
                        paid[s] += st.rec_net[s]
                terminated[b] = st.over
                if st.over:
                    if cfg.game_episode:
                        for s in range(n):  # what the final_pot split handed back, if any
                            rewards[b, s] += <float>(st.stacks[s] - cfg.start - paid[s])
                    for s in range(n):
                        paid[s] = 0
                    self.seeds[b] = next_seed(self.seeds[b])
                    self.which[nfin] = b
                    nfin += 1
                    continue
                vec_obs(st, o, cfg, &obs[b, 0])
                vec_mask(st, o, cfg, &mask[b, 0])
                player[b] = <signed char>st.to_act
            # auto-reset: the finished games, their RNGs seeded side by side
            vec_reseed(self.games, self.seeds, self.which, nfin)
            for i in range(nfin):
                b = self.which[i]
                st = &self.games[b]
                vec_deal(st, o, cfg)
                vec_obs(st, o, cfg, &obs[b, 0])
                vec_mask(st, o, cfg, &mask[b, 0])
                player[b] = <signed char>st.to_act
        self.illegal_count += illegal

    cdef void _check(self, Py_ssize_t rows, float[:, ::1] obs, signed char[:, ::1] mask,
                     signed char[::1] player) except *:
        cdef int B = self.num_envs
        if rows != B or obs.shape[0] != B or mask.shape[0] != B or player.shape[0] != B:
            raise ValueError(f"every array must have num_envs={B} rows")
        if obs.shape[1] != self.cfg.obs_size or mask.shape[1] != self.cfg.nact:
            raise ValueError("obs must be (num_envs, observation_size), mask (num_envs, actions)")

    def sample_into(self, uint64_t key, const signed char[:, ::1] mask, int64_t[::1] out):
        """A uniformly random legal index of every game's ``mask`` into ``out``: game ``b``
        draws ``next_seed(key + b)`` and takes the ``floor(u * count)``-th legal index, ``u``
        the draw's top 53 bits as a fraction (the same for the same key and masks)."""
        cdef int b, i, k, count, B = self.num_envs, A = self.cfg.nact
        cdef uint64_t r
        if mask.shape[0] != B or mask.shape[1] != A or out.shape[0] != B:
            raise ValueError("mask must be (num_envs, actions) and out (num_envs,)")
        with nogil:
            for b in range(B):
                count = 0
                for i in range(A):
                    count += mask[b, i] != 0
                out[b] = -1
                if count == 0:
                    continue
                r = next_seed(key + <uint64_t>b)
                k = <int>((<double>(r >> 11) * (1.0 / 9007199254740992.0)) * count)
                for i in range(A):
                    if mask[b, i]:
                        if k == 0:
                            out[b] = i
                            break
                        k -= 1

    def seeds_into(self, uint64_t[::1] out):
        """Write each game's episode seed (what ``SpikeCore(seed=...)`` replays) into ``out``."""
        cdef int b
        if out.shape[0] != self.num_envs:
            raise ValueError(f"out must have num_envs={self.num_envs} rows")
        for b in range(self.num_envs):
            out[b] = self.seeds[b]

    def state(self, int b):
        """Game ``b``'s state as plain data (the fields of :class:`SpikeSnapshot` that the
        C state holds: cards as ids, bottom first), for tests and debugging."""
        cdef State* st
        cdef int s, i, n
        if not 0 <= b < self.num_envs:
            raise IndexError(f"no game {b} in a batch of {self.num_envs}")
        st = &self.games[b]
        n = st.n
        return {
            "rng_state": tuple([st.rng.mt[i] for i in range(MT_N)] + [st.rng.mti]),
            "stacks": tuple([st.stacks[s] for s in range(n)]),
            "out": tuple([bool(st.out[s]) for s in range(n)]),
            "hand_no": st.hand_no,
            "dealer": st.dealer,
            "sabacc_pot": st.sabacc_pot,
            "carry": st.carry,
            "house": st.house,
            "to_act": None if st.to_act < 0 else st.to_act,
            "phase": _PHASES[st.phase],
            "over": bool(st.over),
            "hands": tuple([tuple([st.hands[s][i] for i in range(st.hlen[s])]) for s in range(n)]),
            "public_ids": tuple([
                frozenset([st.hands[s][i] for i in range(st.hlen[s]) if st.pub[st.hands[s][i]]])
                for s in range(n)
            ]),
            "in_hand": tuple([bool(st.in_hand[s]) for s in range(n)]),
            "folded": tuple([bool(st.folded[s]) for s in range(n)]),
            "committed": tuple([st.committed[s] for s in range(n)]),
            "round_bet": tuple([st.round_bet[s] for s in range(n)]),
            "dead": st.dead,
            "cur_bet": st.cur_bet,
            "raises": st.raises,
            "draw": tuple([st.draw[i] for i in range(st.ndraw)]),
            "discard": tuple([st.discard[i] for i in range(st.ndiscard)]),
            "muck": tuple([st.muck[i] for i in range(st.nmuck)]),
            "round": st.round,
            "last_dice": (st.d1, st.d2) if st.d1 else None,
        }
