# Included (at module level) by the compiled cores with pots and betting rounds (docs/engines.md
# lists which): the table's C rules they share, on the module's own ``State`` and ``Opts`` (the
# fields named below) and ``MAXP``, ``GE_ORBIT``, ``PH_OVER``, ``PH_BETTING`` and the ``A_*``
# action codes: the pot, the live seats, the turn and odd-credit orders, paying in, awarding a
# pot, returning an uncalled bet, the next hand's button, the deal, the game's end. Compiled
# into each core, so a C compiler inlines them there. The module defines ``g_can_ante(st, o,
# s)`` (whether a seat can pay this hand's antes), which ``g_next_hand`` calls.

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

cdef void g_reset_seats(State* st) noexcept nogil:
    """Every seat's hand state, and the pot's bets, cleared for a new hand."""
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
    st.dead = 0
    st.cur_bet = 0
    st.raises = 0

cdef int g_next_hand(State* st, Opts* o) noexcept nogil:
    """The seats who cannot ante go out; the game ends (too few seats left, the hand limit, the
    orbit played) or the button moves to the next seat still in and a hand begins: returns the
    mask of the seats dealt in, 0 when the game ended."""
    cdef int s, nalive = 0, first_alive = -1, step
    cdef int alive_mask = 0
    cdef bint first = st.hand_no == 0
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
        return 0
    if not first:
        step = 1
        while st.out[(st.dealer + step) % st.n]:
            step += 1
        st.orbit_steps += step
        st.dealer = (st.dealer + step) % st.n
        if o.game_end == GE_ORBIT and st.orbit_steps >= st.n:
            g_end_game(st, o)
            return 0
    elif st.out[st.dealer]:
        st.dealer = first_alive
    st.hand_no += 1
    return alive_mask

cdef void g_deal_round(State* st, int* order, int k, int cards) noexcept nogil:
    """``cards`` cards each to the seats of ``order``, one at a time around, off the draw top
    (a fresh deck: no reshuffle)."""
    cdef int r, i, s
    for r in range(cards):
        for i in range(k):
            s = order[i]
            st.ndraw -= 1
            st.hands[s][st.hlen[s]] = st.draw[st.ndraw]
            st.hlen[s] += 1

cdef void g_end_game(State* st, Opts* o) noexcept nogil:
    """The game is over: what is left in the sabacc pot and carried goes to the seats still in,
    else to every seat not empty (``final_split``), or to the house."""
    cdef int s, alive = 0
    cdef long long leftover = st.sabacc_pot + st.carry
    if leftover:
        for s in range(st.n):
            if not st.out[s]:
                alive |= 1 << s
        if not alive:
            alive = ((1 << st.n) - 1) & ~st.vacant
        if o.final_split and alive:
            g_award(st, leftover, alive)
        else:
            st.house += leftover
        st.sabacc_pot = 0
        st.carry = 0
    st.over = 1
    st.to_act = -1
    st.phase = PH_OVER

cdef void g_open_betting(State* st) noexcept nogil:
    """A betting round opens: no bets, nobody has acted."""
    cdef int s
    st.phase = PH_BETTING
    for s in range(st.n):
        st.round_bet[s] = 0
        st.acted[s] = 0
    st.cur_bet = 0
    st.raises = 0

cdef void g_wager(State* st, int s, int kind, long long amount, long long unit) noexcept nogil:
    """Seat ``s`` checks, calls, bets or raises ``amount`` (the module's ``A_*`` codes); a full
    bet or raise (``unit`` or more) reopens the action."""
    cdef long long paid, to_call
    cdef int i
    if kind == A_CHECK:
        st.acted[s] = 1
    elif kind == A_CALL:
        paid = g_pay(st, s, st.cur_bet - st.round_bet[s], 0)
        st.round_bet[s] += paid
        st.acted[s] = 1
        st.allin_last[s] = st.stacks[s] == 0
    else:
        to_call = st.cur_bet - st.round_bet[s]
        paid = g_pay(st, s, to_call + amount, 0)
        st.round_bet[s] += paid
        if amount >= unit:
            for i in range(st.n):
                st.acted[i] = 0
        if kind == A_RAISE:
            st.raises += 1
        st.cur_bet = st.round_bet[s]
        st.acted[s] = 1
        st.allin_last[s] = st.stacks[s] == 0

cdef int g_build_pots(State* st, long long* amounts, int* masks) noexcept nogil:
    """``Game.pots()``: the main pot and side pots, split at the all-in seats' levels (as
    :func:`sabacc.engine.betting.build_pots` with ``all_in``); returns how many."""
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
        amounts[0] = g_pot_total(st)
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

cdef void g_close_hand(State* st) noexcept nogil:
    """The hand is over (its pots awarded): its record's common part (``rec_done``, the hand,
    the dealer, each seat's net, what is carried) and the pot cleared; the caller completes
    the record and starts the next hand."""
    cdef int s
    st.rec_done = 1
    st.rec_hand = st.hand_no
    st.rec_dealer = st.dealer
    st.rec_carry = st.carry
    st.rec_sabacc_left = st.sabacc_pot
    for s in range(st.n):
        st.rec_net[s] = st.stacks[s] - st.hand_start[s]
        st.committed[s] = 0
    st.dead = 0
    st.to_act = -1

cdef inline int g_seat_status(State* st, int s) noexcept nogil:
    """Seat ``s``'s status code in the seat view and the RL features: 0 active, 1 all-in,
    2 junked, 3 waiting (not dealt in), 4 out."""
    if st.out[s]:
        return 4
    if not st.in_hand[s]:
        return 3
    if st.folded[s]:
        return 2
    if st.stacks[s] == 0:
        return 1
    return 0

cdef inline bint g_holds(State* st, int s, int value) noexcept nogil:
    """Whether seat ``s`` holds a card of ``value`` (the module's ``VAL`` by card id)."""
    cdef int i
    for i in range(st.hlen[s]):
        if VAL[st.hands[s][i]] == value:
            return True
    return False
