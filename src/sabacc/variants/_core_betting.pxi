# Included (at module level, after _core_protocol.pxi) by the compiled cores with betting
# rounds (_classic_core, _spike_core): each seat's betting state from the C state (fields
# n, folded, acted, round_bet) and a betting decision's legal list (fields to_call_pos,
# bet_lo/bet_hi, raise_lo/raise_hi; the module's _CALL_JUNK, _CHECK_JUNK, _BETS, _RAISES).
# Kessel Sabacc has no betting rounds and keeps its own constants.

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
