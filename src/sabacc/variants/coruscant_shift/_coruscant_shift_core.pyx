# cython: language_level=3
"""The compiled Coruscant Shift engine: the rules of :mod:`sabacc.variants.coruscant_shift.rules`
on C arrays (see :mod:`sabacc.variants.corellian_spike._corellian_spike_core` for what a
compiled core keeps and leaves out).

The Spike family's shared core (``sabacc/variants/spike_family/_spike_family.pxi``) compiled
with Coruscant Shift's own rules below (the ``r_*`` functions the family file calls), and its
public class :class:`CoruscantCore`.
"""

include "sabacc/variants/spike_family/_spike_family.pxi"
include "sabacc/variants/spike_family/_spike_discard_pile.pxi"
include "sabacc/variants/spike_family/_spike_dealer_start.pxi"

from sabacc.variants.coruscant_shift.actions import Keep
from sabacc.variants.coruscant_shift.rules import CoruscantGame, CoruscantOptions, evaluate_target

DEF HAND_SIZE = 5   # the deal and the draw-up
DEF MAXH_KEEP = 8   # most cards a selection chooses among (5 in play)

cdef object _Keep = Keep
cdef int GOLD[6]
GOLD[:] = [0, 0, 5, -5, 10, -10]
#: The index of the lowest set bit of each nonzero mask of up to MAXH_KEEP bits.
cdef unsigned char LOWBIT[1 << MAXH_KEEP]
LOWBIT[0] = 0
for _i in range(1, 1 << MAXH_KEEP):
    LOWBIT[_i] = 0 if _i & 1 else LOWBIT[_i >> 1] + 1

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


# ---------------------------------------------------------------------------------- the rules, in C
# Coruscant Shift's rules where the family's differ (the ``r_*`` hooks the family file calls),
# and its own (the ``c_*`` functions: sabacc.variants.coruscant_shift.rules.CoruscantGame's
# overrides).

cdef void r_read_options(Opts* o, object options) except *:
    o.gain_fee = o.swap_fee = 0  # no card fees, hand cap or round option
    o.rounds = 2
    o.hand_cap = 16
    o.rising_ante = options.rising_ante
    o.fixed_target = options.target is not None
    o.target_value = 0 if options.target is None else options.target
    o.fixed_suit = -1 if options.target_suit == "roll" else _SUIT_NAMES.index(
        options.target_suit
    )

cdef inline void r_card_legal(State* st, Opts* o, int s) noexcept nogil:
    pass  # a selection: the Keep subsets are built in Python (r_card_list)

cdef inline long long r_ante(State* st, Opts* o) noexcept nogil:
    return st.hand_ante

cdef long long r_hand_ante(State* st, Opts* o) noexcept nogil:
    """This hand's ante: it rises every hand after the first with ``rising_ante``."""
    cdef int s, k = 0
    if o.rising_ante and st.hand_no > 0:
        for s in range(st.n):
            if not st.out[s] and st.stacks[s] > 0:
                k += 1
        st.hand_ante += 5 if k == 2 else 3 if k == 3 else 2 if k == 4 else 1
    return st.hand_ante

cdef inline void r_reset_hand(State* st, Opts* o) noexcept nogil:
    cdef int s
    st.selection = 0
    for s in range(MAXP):
        st.kept_n[s] = 0

cdef inline void r_deal(State* st, Opts* o) noexcept nogil:
    c_deal(st, o)

cdef inline void r_card_act(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    c_select(st, o, s, <int>arg)  # a Keep: arg is the mask of positions it adds
    c_next_selection(st, o)

cdef inline void r_on_junk(State* st, Opts* o, int s) noexcept nogil:
    pass  # a junked hand is mucked face down, nothing more

cdef inline void r_after_betting(State* st, Opts* o) noexcept nogil:
    if st.round == 1:  # no spike dice: the shift, or the second selection
        c_shift(st, o)
    else:
        c_begin_selection(st, o, 2)

cdef inline void r_after_shift(State* st, Opts* o) noexcept nogil:
    g_flip_discard(st, o)  # (no spike dice: the Sabacc Shift does not happen here)

cdef int64_t r_strength(State* st, signed char* cards, int size) noexcept nogil:
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
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
    g_deal_round(st, order, k, HAND_SIZE)
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
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
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
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
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


# ---------------------------------------------------------------------------------- the rules, for Python
# (the hooks SpikeFamilyCore's Python-facing members call)

cdef list r_card_actions(SpikeFamilyCore self):
    if self._legal_list is None:  # the decision's Keeps, kept (apply finds them by identity)
        self._legal_list = self._fixed_list()
    return list(self._legal_list)

cdef inline bint r_listed(SpikeFamilyCore self, object action) except -1:
    """A Keep this core listed for this decision is well formed."""
    return type(action) is _Keep and (<CoruscantCore>self)._keep_index(action, len(self._acts)) >= 0

cdef void r_clone_listed(SpikeFamilyCore self, SpikeFamilyCore new) noexcept:
    """This decision's Keeps and their masks."""
    cdef CoruscantCore me = <CoruscantCore>self, copy = <CoruscantCore>new
    if me._keeps is not None:
        copy._keeps = me._keeps
        copy._keeps_at = me._keeps_at
        memcpy(copy._keep_masks, me._keep_masks, sizeof(me._keep_masks))

cdef inline void r_forget_listed(SpikeFamilyCore new) noexcept:
    (<CoruscantCore>new)._keeps = None

cdef inline object r_public_text(SpikeFamilyCore self, int s, object action):
    if type(action) is _Keep:  # how many, not which
        return f"kept {self.st.kept_n[s]}"
    return None

cdef inline object r_hidden_last(str text):
    return _Keep(()) if text.startswith("kept ") else None  # nor which cards were kept

cdef object r_evaluate(SpikeFamilyCore self, object cards):
    return evaluate_target(list(cards), self.st.target, _SUIT_NAMES[self.st.suit])

cdef list r_card_list(SpikeFamilyCore self):
    cdef CoruscantCore me = <CoruscantCore>self
    if me._keeps is not None and me._keeps_at == len(self._acts):
        return me._keeps  # built for this decision already
    return me._build_keeps()

cdef bint r_card_contains(SpikeFamilyCore self, object action) except -1:
    if type(action) is not _Keep:
        return False
    if self._legal_list is None:
        self._legal_list = self._fixed_list()
    for a in self._legal_list:
        if a is action:
            return True
    return action in self._legal_list

cdef int r_card_kind(SpikeFamilyCore self, object action, long long* arg) except -1:
    arg[0] = (<CoruscantCore>self)._keep_mask(action)
    return A_KEEP

cdef inline object r_shown_value(object cards, int target, int suit):
    return evaluate_target([_CARDS[c] for c in cards], target, _SUIT_NAMES[suit])

cdef tuple r_part(_BettingCore self):
    """:func:`sabacc.variants.coruscant_shift.rules.coruscant_extra`'s values."""
    cdef State* st = &self.st
    cdef int s, i
    return (
        st.round, st.target, _SUIT_NAMES[st.suit], tuple([st.kept_n[s] for s in range(st.n)]),
        st.ndraw, st.nmuck, tuple([_CODES[st.discard[i]] for i in range(st.ndiscard)]),
    )

cdef inline object r_view_kind(object action):
    return "kept" if type(action) is _Keep else action.kind

cdef tuple r_view_extra(SpikeFamilyCore self, int seat):
    cdef State* st = &self.st
    cdef int n = st.n, k
    return (
        st.round, st.target, _SUIT_NAMES[st.suit],
        (<char*>st.hands[seat])[:min(st.kept_n[seat], st.hlen[seat])],
        tuple([st.kept_n[(seat + k) % n] for k in range(n)]), st.ndraw, st.nmuck,
    )

cdef inline int r_hidden_piles(State* st, int viewer, signed char** places, int k,
                               list cards) noexcept:
    return k  # no pile beyond the draw and the muck is hidden

# ---------------------------------------------------------------------------------- the core
cdef class CoruscantCore(SpikeFamilyCore):
    """A game of Coruscant Shift on the compiled engine: the Spike family's core with this
    module's rules (five cards, the gold and silver dice, the two selections, the shift, two
    betting rounds, the rising ante, the kept set's value against the target), the reference
    being :class:`~sabacc.variants.coruscant_shift.rules.CoruscantGame`.

    ``CoruscantCore(options, seed=7, players=4)``, or
    ``sabacc.new_game("coruscant", engine="compiled")``. Keep actions naming cards by value
    only (``keep -3 +5 0``) are resolved by the reference's own ``_resolve``.
    """

    # The last legal Keep list built, the positions each one adds, and the action count it
    # was built at (valid for the decision at that count only)
    cdef list _keeps
    cdef unsigned char _keep_masks[1 << MAXH_KEEP]
    cdef Py_ssize_t _keeps_at

    _game_type = CoruscantGame
    _options_type = CoruscantOptions

    def apply(self, action, seat=None):
        return self._apply(_resolve_keep(self, action), seat)

    cdef list _build_keeps(self):
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

    def is_legal(self, action):
        try:
            return SpikeFamilyCore.is_legal(self, _resolve_keep(self, action))
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


cdef object _resolve_keep(SpikeFamilyCore game, object action):
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
