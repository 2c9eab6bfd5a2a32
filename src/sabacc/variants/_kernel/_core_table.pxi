# Included (at module level) by the compiled cores with pots and betting rounds (_classic_core,
# and the Spike family's three through _spike_family.pxi): the table's C rules they share, on
# the module's own ``State`` (fields n, dealer, stacks, in_hand, folded, committed, round_bet,
# dead, sabacc_pot, cur_bet) and ``MAXP``: the pot, the live seats, the turn and odd-credit
# orders, paying in, awarding a pot, returning an uncalled bet. Compiled into each core, so a C
# compiler inlines them there.

cdef inline long long g_pot_total(State* st) noexcept nogil:
    """Credits in the main pot: the dead money and every seat's commitment."""
    cdef long long t = st.dead
    cdef int s
    for s in range(st.n):
        t += st.committed[s]
    return t

cdef inline int g_nlive(State* st) noexcept nogil:
    """Seats still in the hand (dealt in, not junked)."""
    cdef int s, k = 0
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            k += 1
    return k

cdef int g_order_from(State* st, int start, int* out) noexcept nogil:
    """Live seats clockwise from ``start`` (inclusive); returns how many."""
    cdef int i, s, k = 0
    for i in range(st.n):
        s = (start + i) % st.n
        if st.in_hand[s] and not st.folded[s]:
            out[k] = s
            k += 1
    return k

cdef int g_odd_order(State* st, int mask, int* out) noexcept nogil:
    """The seats of ``mask`` from the dealer's left (the odd-credit order); returns how many."""
    cdef int i, s, k = 0
    for i in range(st.n):
        s = (st.dealer + 1 + i) % st.n
        if mask >> s & 1:
            out[k] = s
            k += 1
    return k

cdef long long g_pay(State* st, int s, long long amount, int where) noexcept nogil:
    """Up to ``amount`` from a stack into a pot (0 main, 1 sabacc, 2 dead); what was paid."""
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

cdef void g_award(State* st, long long amount, int mask) noexcept nogil:
    """``amount`` split among the seats of ``mask``, the odd credits from the dealer's left."""
    cdef int order[MAXP]
    cdef int k = g_odd_order(st, mask, order)
    cdef long long base, odd
    cdef int i
    if k == 0:
        return
    base = amount // k
    odd = amount % k
    for i in range(k):
        st.stacks[order[i]] += base + (1 if i < odd else 0)

cdef void g_return_uncalled(State* st) noexcept nogil:
    """The part of the top commitment nobody matched goes back to its seat."""
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
