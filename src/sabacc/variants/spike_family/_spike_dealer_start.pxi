# The r_* hooks of a Spike-family variant whose card phases and betting rounds start at the
# dealer's left, included by its core after _spike_family.pxi (docs/engines.md lists which). A
# variant whose start moves otherwise defines these itself.

cdef inline int r_card_order(State* st, Opts* o, int* order) noexcept nogil:
    return g_order_from(st, (st.dealer + 1) % st.n, order)

cdef inline int r_betting_start(State* st, Opts* o) noexcept nogil:
    return (st.dealer + 1) % st.n
