# Included (at module level, after _core_protocol.pxi) by the compiled cores with betting
# rounds (_classic_core, the Spike family's): each seat's betting state from the C state (fields
# n, folded, acted, round_bet) and a betting decision's legal list (fields to_call_pos,
# bet_lo/bet_hi, raise_lo/raise_hi; the module's _CALL_JUNK, _CHECK_JUNK, _BETS, _RAISES),
# and the copy of those fields, the table's and the RNG's from a described state (from_game,
# from_snapshot). Kessel Sabacc has no betting rounds and keeps its own constants.

from cpython.list cimport PyList_New, PyList_SET_ITEM, PyList_GET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.object cimport PyObject

cdef class _BettingCore(_CoreBase):
    """A compiled core with betting rounds (not used alone)."""

    cdef list _betting_list(self):
        """A betting decision's legal actions (after the C state's legal computation): check
        or call, junk, then every bet size and every raise size, the interned objects put in
        one list of the right length."""
        cdef State* st = &self.st
        cdef Py_ssize_t nb = 0, nr = 0, i, at = 2
        cdef PyObject* item
        cdef tuple fixed = _CALL_JUNK if st.to_call_pos else _CHECK_JUNK
        if st.bet_hi:
            if st.bet_hi >= len(_BETS):
                _betting._grow(st.bet_hi)
            nb = st.bet_hi - st.bet_lo + 1
        if st.raise_hi:
            if st.raise_hi >= len(_RAISES):
                _betting._grow(st.raise_hi)
            nr = st.raise_hi - st.raise_lo + 1
        cdef list out = PyList_New(2 + nb + nr)
        for i in range(2):
            item = PyTuple_GET_ITEM(fixed, i)
            Py_INCREF(<object>item)
            PyList_SET_ITEM(out, i, <object>item)
        cdef list sizes = _BETS
        for i in range(nb):
            item = PyList_GET_ITEM(sizes, st.bet_lo + i)
            Py_INCREF(<object>item)
            PyList_SET_ITEM(out, at, <object>item)
            at += 1
        sizes = _RAISES
        for i in range(nr):
            item = PyList_GET_ITEM(sizes, st.raise_lo + i)
            Py_INCREF(<object>item)
            PyList_SET_ITEM(out, at, <object>item)
            at += 1
        return out

    @property
    def folded(self):
        return [bool(self.st.folded[s]) for s in range(self.st.n)]

    @property
    def acted(self):
        return [bool(self.st.acted[s]) for s in range(self.st.n)]

    @property
    def round_bet(self):
        return [self.st.round_bet[s] for s in range(self.st.n)]


cdef void _copy_table(State* st, object src, object rng_state) except *:
    """Set the fields of ``st`` every betting core has from ``src``, a reference game or a
    snapshot (attributes of the reference's names): the RNG (``rng_state``: the 624 words and
    the index), the seats' money and betting state (``stacks``, ``out``, ``in_hand``,
    ``folded``, ``acted``, ``committed``, ``round_bet``, ``hand_start_stacks``) and the
    table's (``hand_no``, ``dealer``, ``orbit_steps``, ``sabacc_pot``, ``carry``, ``house``,
    ``to_act``, ``phase`` by the module's ``_PHASES``, ``over``, ``dead``, ``cur_bet``,
    ``raises``). ``st`` is zeroed first; ``n`` is ``len(src.names)``. The hands, piles, last
    actions and the variant's own state are the caller's."""
    cdef int s, i
    memset(st, 0, sizeof(State))
    for i in range(MT_N):
        st.rng.mt[i] = <uint32_t>rng_state[i]
    st.rng.mti = rng_state[MT_N]
    st.n = len(src.names)
    for s in range(st.n):
        st.stacks[s] = src.stacks[s]
        st.out[s] = src.out[s]
        st.in_hand[s] = src.in_hand[s]
        st.folded[s] = src.folded[s]
        st.acted[s] = src.acted[s]
        st.committed[s] = src.committed[s]
        st.round_bet[s] = src.round_bet[s]
        st.hand_start[s] = src.hand_start_stacks[s]
    st.hand_no = src.hand_no
    st.dealer = src.dealer
    st.orbit_steps = src.orbit_steps
    st.sabacc_pot = src.sabacc_pot
    st.carry = src.carry
    st.house = src.house
    st.to_act = -1 if src.to_act is None else src.to_act
    st.phase = _PHASES.index(src.phase)
    st.over = src.over
    st.dead = src.dead
    st.cur_bet = src.cur_bet
    st.raises = src.raises
