# The Spike family's discard pile: a face-up pile whose top card stays when the rest is shuffled
# back into the draw pile, and a swap that gives up a publicly known copy of a value first; the
# r_* hooks of a variant that plays it, included by its core after _spike_family.pxi
# (docs/engines.md lists which). A variant with another discard pile defines these itself.

cdef inline bint r_can_draw(State* st, Opts* o) noexcept nogil:
    return st.ndraw > 0 or st.ndiscard > 1 or st.nmuck > 0  # the discard top stays

cdef inline void r_reshuffle(State* st, Opts* o) noexcept nogil:
    g_reshuffle_under_top(st, o)

cdef inline signed char r_take_from_hand(State* st, Opts* o, int s, int value) noexcept nogil:
    return g_take_known_first(st, o, s, value)
