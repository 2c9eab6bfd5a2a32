# Included (at module level, after _core_protocol.pxi) by the compiled cores with betting
# rounds (_classic_core, _spike_core): each seat's betting state from the C state (fields
# n, folded, acted, round_bet). Kessel Sabacc has no betting rounds and keeps its own
# constants.

cdef class _BettingCore(_CoreBase):
    """A compiled core with betting rounds (not used alone)."""

    @property
    def folded(self):
        return [bool(self.st.folded[s]) for s in range(self.st.n)]

    @property
    def acted(self):
        return [bool(self.st.acted[s]) for s in range(self.st.n)]

    @property
    def round_bet(self):
        return [self.st.round_bet[s] for s in range(self.st.n)]
