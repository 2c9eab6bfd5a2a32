# cython: language_level=3
"""The compiled classic sabacc engine: the rules of :mod:`sabacc.variants.classic.rules` on C arrays,
for simulation, search and reinforcement learning.

Same rules, same options, same seeded RNG (the shared bit-exact Mersenne Twister of
:mod:`sabacc.variants._kernel._mt` and the reference engine's calls on it: ``shuffle`` of the deck,
``randrange(6) + 1`` for the shift die, ``randrange(len(hand))`` for the card a shift takes,
``shuffle`` of the lost cards), the same action objects and the same checks: for a seed and a
list of actions it reaches exactly the state the pure-Python :class:`ClassicGame` reaches, and
its :meth:`ClassicCore.history` replays on it (``tests/variants/classic/test_core.py`` plays
both in lockstep). What it leaves out is the per-event log: ``apply`` returns ``None``; the
action log, per-hand nets and the outcome are kept, and ``sabacc.replay(core.history())``
rebuilds the full event log on demand. Each hand end keeps a compact record (each pot result:
amount, winner mask and the code of its reason; the hands revealed as card ids; the sudden
demise cards), from which :attr:`ClassicCore.hand_results` builds the reference engine's
:class:`~sabacc.engine.game.HandResult` objects on first use.

Every action is validated as in the reference engine: an illegal or malformed action raises
:class:`~sabacc.core.errors.IllegalActionError` and leaves the state as it was.
"""

from libc.stdint cimport uint32_t
from libc.string cimport memcpy, memset

from sabacc.variants._kernel._mt cimport MT, MT_INIT, MT_N, mt_below, mt_die, mt_init_genrand, mt_seed
from sabacc.variants._kernel._mt cimport mt_shuffle

import random as _random
from collections.abc import Mapping as _Mapping

from sabacc.variants.classic.actions import CALL_HAND, CallHand
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.betting import Legal, NO_ACTIONS, Pot
from sabacc.engine.game import (
    HISTORY_FORMAT, HISTORY_VERSION, GameOutcome, HandResult, PotResult, illegal_message,
    resolve_seed, seat_number,
)
from sabacc.variants.classic.rules import (
    CLASSIC_DECK, ClassicGame, ClassicOptions, evaluate_classic, exchange_action,
)

#: Classic's one text parser (built from its declared action kinds).
cdef object parse_action = ClassicGame.info.parse_action

DEF MAXP = 8
DEF NC = 76
DEF MAXH = 76        # a hand can in principle take every card of the deck
DEF MAXR = MAXP + 2  # pot results of one hand: main, side pots, sabacc

DEF PH_SETUP = 0
DEF PH_BETTING = 1
DEF PH_SHIFTING = 2
DEF PH_CALLING = 3
DEF PH_DRAWING = 4
DEF PH_SHOWDOWN = 5
DEF PH_OVER = 6
DEF PH_BETWEEN = 7   # a held table between hands (pause_between_hands, seat changes)

DEF GE_ORBIT = 0
DEF GE_LAST = 1
DEF GE_HANDS = 2

DEF A_STAND = 0
DEF A_GAIN = 1
DEF A_SWAP = 2
DEF A_CHECK = 3
DEF A_CALL = 4
DEF A_BET = 5
DEF A_RAISE = 6
DEF A_JUNK = 7
DEF A_CALL_HAND = 8

# Hand ends (HandResult.reason)
DEF REC_ALL_JUNKED = 0
DEF REC_CALLED = 1
DEF REC_FORCED = 2

# Why a pot went to its winners (PotResult.reason)
DEF W_JUNKED = 0      # everyone else junked
DEF W_BEST = 1        # best hand: {name of s1}
DEF W_NO_CARDS = 2    # tie on {s1}, split (no cards left for sudden demise)
DEF W_ALL_BOMBED = 3  # tie on {s1}, all bombed out in sudden demise: split
DEF W_DEMISE_WON = 4  # tie on {s1}, sudden demise won with {s2 after its demise card}
DEF W_STILL_TIED = 5  # tie on {s1}, sudden demise still tied: split with {s2 ...}
DEF W_NONE = 6        # no valid hand (no winners)

_PHASES = ("setup", "betting", "shifting", "calling", "drawing", "showdown", "over",
           "between_hands")
_REASONS = ("all_junked", "called", "forced_call")

ctypedef struct Opts:
    long long ante
    long long sab_amount
    int sab_always
    long long start
    long long bet_limit
    int max_raises
    long long fold_fee
    int shift_faces
    int min_turns
    int max_orbits
    int exchange_at_two
    int absolute
    int game_end
    int hand_limit      # -1: none
    int final_split

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
    signed char discards[NC]
    int ndisc
    int turn            # -1 before the first turn
    int orbit
    signed char queue[MAXP]   # the calling phase's seats still to ask: queue[qpos:qlen]
    int qlen
    int qpos
    int caller          # -1: none
    int last_roll       # 0: none this hand
    char last_shift
    char anteing
    char sab_was_empty
    # the current decision (valid while legal_ok)
    char legal_ok
    char to_call_pos    # betting: there is something to call (CALL, else CHECK)
    long long bet_lo
    long long bet_hi    # 0: no bet
    long long raise_lo
    long long raise_hi  # 0: no raise
    char can_gain
    char can_swap
    # the record of the hand that ended during the last action (valid while rec_done)
    char rec_done
    char rec_reason
    int rec_hand
    int rec_dealer
    long long rec_net[MAXP]
    int rec_nres
    signed char rec_pot[MAXR]      # 0 main, k side k, -1 sabacc
    long long rec_amount[MAXR]
    int rec_mask[MAXR]
    signed char rec_why[MAXR]
    signed char rec_s1[MAXR]
    signed char rec_s2[MAXR]
    int rec_nshown
    signed char rec_shown_seat[MAXP]
    int rec_shown_len[MAXP]
    signed char rec_shown[MAXP][MAXH]
    signed char rec_demise[MAXP]   # each seat's sudden-demise card, -1: none
    long long rec_carry
    long long rec_sabacc_left
    # a custom table's (the kernel's _CoreBase), last: the hot fields keep their offsets
    char hold           # stop between hands
    int vacant          # the empty seats' mask

include "sabacc/variants/_kernel/_core_table.pxi"

cdef signed char VAL[NC]
cdef int _i
for _i in range(NC):
    VAL[_i] = CLASSIC_DECK.cards[_i].value

cdef tuple _CARDS = tuple(CLASSIC_DECK.cards)
cdef tuple _CODES = tuple(c.code for c in CLASSIC_DECK.cards)
cdef tuple _VALUES = tuple(c.value for c in CLASSIC_DECK.cards)

include "sabacc/variants/_kernel/_core_actions.pxi"

cdef object _CallHand = CallHand
# exchange actions by value + 17 (values -17..15)
cdef tuple _EXCHANGE = tuple(exchange_action(v) for v in range(-17, 16))
cdef tuple _CALLING = (CALL_HAND, STAND)
cdef object _LEGAL_CALLING = Legal(_CALLING)

cdef MT _MT_BASE  # init_genrand(19650218), where every init_by_array starts
mt_init_genrand(&_MT_BASE, MT_INIT)

_DEFAULT_NAMES = [None, None] + [tuple(f"Player {i + 1}" for i in range(n))
                                 for n in range(2, MAXP + 1)]
cdef object _last_options = None
cdef Opts _last_opts


#: The largest credit amount (buy-in, antes, bet limit, fold fee) and count (raises, orbits,
#: hands) the core's C integers take; larger options play on the reference engine only.
MAX_CREDITS = 2**40
MAX_COUNT = 2**31 - 1


cdef void _read_options(Opts* o, object options) except *:
    limit = options.hand_limit
    for name, value, top in (
        ("buy_in", options.starting_stack, MAX_CREDITS),
        ("ante", options.ante, MAX_CREDITS),
        ("sabacc_ante_amount", options.sabacc_ante_amount, MAX_CREDITS),
        ("bet_limit", options.bet_limit, MAX_CREDITS),
        ("fold_fee", options.fold_fee, MAX_CREDITS),
        ("max_raises", options.max_raises, MAX_COUNT),
        ("min_turns_before_call", options.min_turns_before_call, MAX_COUNT),
        ("max_orbits", options.max_orbits, MAX_COUNT),
        ("max_hands", 0 if limit is None else limit, MAX_COUNT),
    ):
        if value > top:
            raise OptionError(
                f"option {name}={value}: the compiled classic core takes at most {top} "
                "(use engine='python')"
            )
    o.ante = options.ante
    o.sab_amount = options.sabacc_ante_amount
    o.sab_always = options.sabacc_ante == "always"
    o.start = options.starting_stack
    o.bet_limit = options.bet_limit
    o.max_raises = options.max_raises
    o.fold_fee = options.fold_fee
    o.shift_faces = options.shift_faces
    o.min_turns = options.min_turns_before_call
    o.max_orbits = options.max_orbits
    o.exchange_at_two = bool(options.allow_exchange_at_two)
    o.absolute = options.scoring == "absolute"
    o.game_end = (GE_ORBIT if options.game_end == "orbit"
                  else GE_LAST if options.game_end == "last_standing" else GE_HANDS)
    o.hand_limit = -1 if limit is None else limit
    o.final_split = options.final_pot == "split"


cdef inline bint _well_formed(object action) except -1:
    """Whether ``action`` is a classic action object with plain-int fields: the fast path of
    ``apply`` and ``is_legal``. Anything else goes through ``parse_action``."""
    cdef int form = _shared_form(action)
    if form >= 0:
        return form
    t = type(action)
    if t is _Gain:
        return action.value is None
    return t is _CallHand


cdef inline int _mod(int a, int n) noexcept nogil:
    cdef int r = a % n
    return r + n if r < 0 else r


# ---------------------------------------------------------------------------------- hands
cdef int hand_key(signed char* cards, int size, int absolute) noexcept nogil:
    """``evaluate_classic``'s key packed in one int (greater is better, equal is a tie):
    ``tier * 10000 + (a + 100) * 10 + b``; tier 0 is a bomb out, 2 and 3 the special hands."""
    cdef int total = 0, i, v, zero = 0, two = 0, three = 0
    for i in range(size):
        v = VAL[cards[i]]
        total += v
        if v == 0:
            zero += 1
        elif v == 2:
            two += 1
        elif v == 3:
            three += 1
    if size == 3 and zero == 1 and two == 1 and three == 1:
        return 30000 + 1000
    if total > 23 or total < -23 or total == 0:
        return 0
    if total == 23:
        return 20000 + 1010
    if absolute:
        if total == -23:
            return 20000 + 1000
        if total > 0:
            return 10000 + (total + 100) * 10 + 1
        return 10000 + (100 - total) * 10
    return 10000 + (total + 100) * 10


cdef inline bint key_bomb(int key) noexcept nogil:
    return key < 10000


cdef inline bint key_special(int key) noexcept nogil:
    return key >= 20000


# ---------------------------------------------------------------------------------- the rules, in C
cdef inline bint g_live(State* st, int s) noexcept nogil:
    return st.in_hand[s] and not st.folded[s]


cdef void g_ante_due(State* st, Opts* o, long long* main, long long* sab) noexcept nogil:
    cdef bint empty
    main[0] = o.ante
    if o.sab_always:
        sab[0] = o.sab_amount
        return
    empty = st.sab_was_empty if st.anteing else st.sabacc_pot == 0
    sab[0] = o.sab_amount if empty else 0


cdef bint g_can_ante(State* st, Opts* o, int s) noexcept nogil:
    cdef long long main, sab
    g_ante_due(st, o, &main, &sab)
    return st.stacks[s] >= main + sab and st.stacks[s] > 0


cdef void g_reset_hand_state(State* st) noexcept nogil:
    g_reset_seats(st)
    st.ndraw = 0
    st.ndisc = 0
    st.turn = -1
    st.orbit = 0
    st.qlen = 0
    st.qpos = 0
    st.caller = -1
    st.last_roll = 0
    st.last_shift = 0
    st.anteing = 1
    st.sab_was_empty = st.sabacc_pot == 0


cdef void g_start_hand(State* st, Opts* o) noexcept nogil:
    """Eliminate who cannot ante, check game end, rotate the button, ante and deal."""
    cdef int s, i, k
    cdef int order[MAXP]
    cdef long long main, sab
    cdef int alive_mask = g_next_hand(st, o)
    if not alive_mask:  # the game is over
        return
    g_reset_hand_state(st)
    st.dead = st.carry
    st.carry = 0
    k = g_odd_order(st, alive_mask, order)
    for i in range(k):
        s = order[i]
        g_ante_due(st, o, &main, &sab)
        st.in_hand[s] = 1
        g_pay(st, s, main, 0)
        g_pay(st, s, sab, 1)
    # _start_hand_variant: shuffle, deal two cards each from the dealer's left
    st.anteing = 0
    for i in range(NC):
        st.draw[i] = <signed char>i
    mt_shuffle(&st.rng, st.draw, NC)
    st.ndraw = NC
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
    g_deal_round(st, order, k, 2)
    st.turn = order[0]
    g_begin_turn(st, o)


cdef bint g_needs_to_act(State* st, int s) noexcept nogil:
    if not st.in_hand[s] or st.folded[s] or st.stacks[s] == 0:
        return False
    return st.round_bet[s] < st.cur_bet or not st.acted[s]


cdef int g_next_bettor(State* st, int start, bint inclusive) noexcept nogil:
    cdef int i, s
    for i in range(0 if inclusive else 1, st.n + 1):
        s = (start + i) % st.n
        if g_needs_to_act(st, s):
            return s
    return -1


cdef void g_begin_turn(State* st, Opts* o) noexcept nogil:
    cdef int s, nxt
    g_open_betting(st)  # _open_betting
    nxt = g_next_bettor(st, st.turn, True)
    st.to_act = nxt
    st.legal_ok = 0
    if nxt < 0:
        g_shift_phase(st, o)


cdef void g_shift_phase(State* st, Opts* o) noexcept nogil:
    cdef int roll
    st.phase = PH_SHIFTING
    st.to_act = -1
    roll = mt_die(&st.rng)
    st.last_roll = roll
    st.last_shift = roll <= o.shift_faces
    if st.last_shift:
        g_shift(st)
    g_begin_calling(st, o)


cdef void g_shift(State* st) noexcept nogil:
    """Each active player loses a random card; the lost cards are shuffled and dealt back one
    each from the dealer's left."""
    cdef int order[MAXP]
    cdef signed char pool[MAXP]
    cdef int k = g_order_from(st, (st.dealer + 1) % st.n, order)
    cdef int i, j, s, idx
    for i in range(k):
        s = order[i]
        idx = <int>mt_below(&st.rng, <uint32_t>st.hlen[s])
        pool[i] = st.hands[s][idx]
        for j in range(idx, st.hlen[s] - 1):
            st.hands[s][j] = st.hands[s][j + 1]
        st.hlen[s] -= 1
    mt_shuffle(&st.rng, pool, k)
    for i in range(k):
        s = order[i]
        st.hands[s][st.hlen[s]] = pool[i]
        st.hlen[s] += 1


cdef void g_begin_calling(State* st, Opts* o) noexcept nogil:
    cdef int order[MAXP]
    cdef int k, i
    st.qlen = 0
    st.qpos = 0
    if st.orbit >= o.min_turns:
        k = g_order_from(st, (st.turn + 1) % st.n, order)
        for i in range(k):
            if order[i] != st.turn:
                st.queue[st.qlen] = <signed char>order[i]
                st.qlen += 1
    g_next_caller(st, o)


cdef void g_next_caller(State* st, Opts* o) noexcept nogil:
    if st.qpos < st.qlen:
        st.phase = PH_CALLING
        st.to_act = st.queue[st.qpos]
        st.qpos += 1
    else:
        g_begin_drawing(st, o)


cdef void g_begin_drawing(State* st, Opts* o) noexcept nogil:
    cdef int t = st.turn
    if st.folded[t] or not st.ndraw:
        g_end_turn(st, o)
        return
    st.phase = PH_DRAWING
    st.to_act = t


cdef void g_end_turn(State* st, Opts* o) noexcept nogil:
    cdef int t = st.turn, nxt = t, i, s
    for i in range(1, st.n + 1):
        s = (t + i) % st.n
        if st.in_hand[s] and not st.folded[s]:
            nxt = s
            break
    if _mod(st.dealer - t, st.n) < _mod(nxt - t, st.n):
        st.orbit += 1  # the turn passed the dealer: an orbit is complete
    if st.orbit >= o.max_orbits:
        g_showdown(st, o, -1)
        return
    st.turn = nxt
    g_begin_turn(st, o)


cdef bint g_others_can_bet(State* st, int s) noexcept nogil:
    cdef int x
    for x in range(st.n):
        if x != s and st.in_hand[x] and not st.folded[x] and st.stacks[x] > 0:
            return True
    return False


cdef void g_compute_legal(State* st, Opts* o) noexcept nogil:
    cdef int s = st.to_act
    cdef long long stack, to_call, hi
    if st.legal_ok:
        return
    st.legal_ok = 1
    st.bet_hi = 0
    st.raise_hi = 0
    st.can_gain = 0
    st.can_swap = 0
    st.to_call_pos = 0
    if st.phase == PH_BETTING:
        stack = st.stacks[s]
        to_call = st.cur_bet - st.round_bet[s]
        if to_call <= 0:
            if s == st.turn and st.cur_bet == 0 and g_others_can_bet(st, s):
                st.bet_lo = 1
                st.bet_hi = o.bet_limit if o.bet_limit < stack else stack
            return
        st.to_call_pos = 1
        if (st.raises < o.max_raises and stack > to_call and not st.acted[s]
                and g_others_can_bet(st, s)):
            hi = stack - to_call
            st.raise_lo = 1
            st.raise_hi = o.bet_limit if o.bet_limit < hi else hi
    elif st.phase == PH_DRAWING:
        if st.ndraw:
            st.can_gain = 1
            st.can_swap = st.hlen[s] >= 3 or o.exchange_at_two


cdef void g_perform(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    """Carry out a legal action and run on to the next decision."""
    cdef int i, idx
    cdef signed char given
    cdef bint done
    st.rec_done = 0
    st.allin_last[s] = 0
    if st.phase == PH_BETTING:
        done = g_betting_act(st, o, s, kind, arg)
        if g_all_junked_win(st, o):
            return
        if done:
            g_shift_phase(st, o)
    elif st.phase == PH_CALLING:
        if kind == A_CALL_HAND:
            g_showdown(st, o, s)
        else:
            g_next_caller(st, o)
    else:
        if kind == A_GAIN:
            st.ndraw -= 1
            st.hands[s][st.hlen[s]] = st.draw[st.ndraw]
            st.hlen[s] += 1
        elif kind == A_SWAP:
            idx = 0
            for i in range(st.hlen[s]):
                if VAL[st.hands[s][i]] == arg:
                    idx = i
                    break
            given = st.hands[s][idx]
            for i in range(idx, st.hlen[s] - 1):
                st.hands[s][i] = st.hands[s][i + 1]
            st.discards[st.ndisc] = given
            st.ndisc += 1
            st.ndraw -= 1
            st.hands[s][st.hlen[s] - 1] = st.draw[st.ndraw]
        g_end_turn(st, o)


cdef bint g_betting_act(State* st, Opts* o, int s, int kind, long long amount) noexcept nogil:
    """A betting action; True when the betting round is over."""
    cdef int i, nxt
    if kind != A_JUNK:
        g_wager(st, s, kind, amount, 1)  # the unit is 1
    else:  # junk: the fold fee to the sabacc pot, the cards out of play
        st.folded[s] = 1
        g_pay(st, s, o.fold_fee, 1)
        for i in range(st.hlen[s]):
            st.discards[st.ndisc] = st.hands[s][i]
            st.ndisc += 1
        st.hlen[s] = 0
    if g_nlive(st) > 1:
        nxt = g_next_bettor(st, s, False)
        st.to_act = nxt
        if nxt >= 0:
            return False
    g_return_uncalled(st)
    return True


cdef bint g_all_junked_win(State* st, Opts* o) noexcept nogil:
    cdef int s, winner = -1, k = 0
    cdef long long amount
    for s in range(st.n):
        if st.in_hand[s] and not st.folded[s]:
            winner = s
            k += 1
    if k != 1:
        return False
    amount = g_pot_total(st)
    g_award(st, amount, 1 << winner)
    st.rec_nres = 1
    st.rec_pot[0] = 0
    st.rec_amount[0] = amount
    st.rec_mask[0] = 1 << winner
    st.rec_why[0] = W_JUNKED
    st.rec_nshown = 0
    g_finish_hand(st, o, REC_ALL_JUNKED)
    return True


cdef struct Decision:
    int mask      # the winners
    int why
    int s1
    int s2


cdef struct Showdown:
    int keys[MAXP]          # every live seat's hand value before sudden demise
    signed char demise[MAXP]
    int ndec
    int dec_key[MAXR + 1]
    Decision dec[MAXR + 1]


cdef Decision g_winners(State* st, Opts* o, Showdown* sd, int seats) noexcept nogil:
    """The winners of a pot contested by ``seats`` (``winners`` in ClassicGame._showdown)."""
    cdef Decision d
    cdef int s, valid = 0, tied = 0, best = -1, ntied = 0, i, one = -1
    for s in range(st.n):
        if seats >> s & 1 and not key_bomb(sd.keys[s]):
            valid |= 1 << s
            if sd.keys[s] > best:
                best = sd.keys[s]
    if not valid:
        d.mask = 0
        d.why = W_NONE
        d.s1 = -1
        d.s2 = -1
        return d
    for s in range(st.n):
        if valid >> s & 1 and sd.keys[s] == best:
            tied |= 1 << s
            ntied += 1
            one = s
    if ntied == 1:
        d.mask = tied
        d.why = W_BEST
        d.s1 = one
        d.s2 = -1
        return d
    for i in range(sd.ndec):
        if sd.dec_key[i] == tied:
            return sd.dec[i]
    d = g_sudden_demise(st, o, sd, tied)
    sd.dec_key[sd.ndec] = tied
    sd.dec[sd.ndec] = d
    sd.ndec += 1
    return d


cdef Decision g_sudden_demise(State* st, Opts* o, Showdown* sd, int tied) noexcept nogil:
    """Each tied seat gets one more card (at most one per hand); the best valid hand wins."""
    cdef Decision d
    cdef int order[MAXP]
    cdef int k = g_odd_order(st, tied, order)
    cdef int i, s, need = 0, best = -1, key, valid = 0, ws = 0, nws = 0, first = -1
    cdef int after[MAXP]
    d.s1 = order[0]
    d.s2 = -1
    for i in range(k):
        if sd.demise[order[i]] < 0:
            need += 1
    if need > st.ndraw:
        d.mask = tied
        d.why = W_NO_CARDS
        return d
    for i in range(k):
        s = order[i]
        if sd.demise[s] < 0:
            st.ndraw -= 1
            sd.demise[s] = st.draw[st.ndraw]
            st.hands[s][st.hlen[s]] = st.draw[st.ndraw]
            st.hlen[s] += 1
    for i in range(k):
        s = order[i]
        key = hand_key(st.hands[s], st.hlen[s], o.absolute)
        after[s] = key
        if not key_bomb(key):
            valid |= 1 << s
            if key > best:
                best = key
    if not valid:
        d.mask = tied
        d.why = W_ALL_BOMBED
        return d
    for i in range(k):
        s = order[i]
        if valid >> s & 1 and after[s] == best:
            ws |= 1 << s
            nws += 1
            if first < 0:
                first = s
    d.mask = ws
    d.why = W_DEMISE_WON if nws == 1 else W_STILL_TIED
    d.s2 = first
    return d


cdef void g_showdown(State* st, Opts* o, int caller) noexcept nogil:
    cdef Showdown sd
    cdef long long amounts[MAXR]
    cdef int masks[MAXR]
    cdef Decision plan[MAXR]
    cdef Decision overall
    cdef int order[MAXP]
    cdef int k, npots, i, s, bombed = 0, pot_winners = 0, nres = 0, live = 0
    cdef long long hand_pot, amount
    cdef bint special
    st.phase = PH_SHOWDOWN
    st.to_act = -1
    st.caller = caller
    k = g_order_from(st, (st.dealer + 1) % st.n, order)
    hand_pot = g_pot_total(st)
    sd.ndec = 0
    st.rec_nshown = k
    for s in range(MAXP):
        sd.demise[s] = -1
        sd.keys[s] = 0
    for i in range(k):
        s = order[i]
        sd.keys[s] = hand_key(st.hands[s], st.hlen[s], o.absolute)
        if key_bomb(sd.keys[s]):
            bombed |= 1 << s
        st.rec_shown_seat[i] = <signed char>s
        st.rec_shown_len[i] = st.hlen[s]
        memcpy(st.rec_shown[i], st.hands[s], st.hlen[s])
    npots = g_build_pots(st, amounts, masks)
    for i in range(npots):
        plan[i] = g_winners(st, o, &sd, masks[i])
        pot_winners |= plan[i].mask
    for i in range(k):
        live |= 1 << order[i]
    overall = g_winners(st, o, &sd, live)
    special = overall.mask != 0 and key_special(sd.keys[g_first(overall.mask)])
    for i in range(k):
        s = order[i]
        if bombed >> s & 1:
            g_pay(st, s, hand_pot, 1)
    if caller >= 0 and not bombed >> caller & 1 and not pot_winners >> caller & 1:
        g_pay(st, caller, hand_pot, 1)
    for i in range(npots):
        if plan[i].mask:
            g_award(st, amounts[i], plan[i].mask)
            st.rec_pot[nres] = i
            st.rec_amount[nres] = amounts[i]
            st.rec_mask[nres] = plan[i].mask
            st.rec_why[nres] = plan[i].why
            st.rec_s1[nres] = plan[i].s1
            st.rec_s2[nres] = plan[i].s2
            nres += 1
        elif amounts[i]:
            st.carry += amounts[i]
    if special and st.sabacc_pot:
        amount = st.sabacc_pot
        st.sabacc_pot = 0
        g_award(st, amount, overall.mask)
        st.rec_pot[nres] = -1
        st.rec_amount[nres] = amount
        st.rec_mask[nres] = overall.mask
        st.rec_why[nres] = overall.why
        st.rec_s1[nres] = overall.s1
        st.rec_s2[nres] = overall.s2
        nres += 1
    st.rec_nres = nres
    for s in range(MAXP):
        st.rec_demise[s] = sd.demise[s]
    g_finish_hand(st, o, REC_CALLED if caller >= 0 else REC_FORCED)


cdef inline int g_first(int mask) noexcept nogil:
    cdef int s = 0
    while not mask >> s & 1:
        s += 1
    return s


cdef void g_finish_hand(State* st, Opts* o, int reason) noexcept nogil:
    """Record the hand's result, then start the next hand (or end the game)."""
    g_close_hand(st)
    st.rec_reason = reason
    if st.hold:
        st.phase = PH_BETWEEN
    else:
        g_start_hand(st, o)


# ---------------------------------------------------------------------------------- the game
# The members every core reads the same way from its C state (n, the decision, payoffs and
# outcome, the action log, the per-seat money): one source for all cores, a base class
# compiled against this module's State.
include "sabacc/variants/_kernel/_core_protocol.pxi"
include "sabacc/variants/_kernel/_core_betting.pxi"


cdef class ClassicCore(_BettingCore):
    """A game of classic sabacc on the compiled engine (see the module docstring).

    ``ClassicCore(options, seed=7, players=4)``, or
    ``sabacc.new_game("classic", engine="compiled")``.
    """

    # _hand_data (the kernel's _BettingCore): each finished hand's (results, shown, demise
    # cards, carried main, carried sabacc).

    _game_type = ClassicGame
    _options_type = ClassicOptions

    def __init__(self, options=None, *, seed=None, players=4, log=False, stacks=None,
                 pause_between_hands=False):
        cdef Opts* o = &self.o
        cdef State* st = &self.st
        cdef int s
        cdef long long main, sab
        self._open(options, seed, players, stacks, pause_between_hands)
        g_reset_hand_state(st)
        for s in range(st.n):
            if g_can_ante(st, o, s):
                break
        else:
            g_ante_due(st, o, &main, &sab)
            self._cannot_ante(main, sab)
        g_start_hand(st, o)

    # ------------------------------------------------------------------ public protocol
    def legal_actions(self):
        """Every legal action for ``current_player``, each bet/raise size listed."""
        cdef State* st = &self.st
        if st.over or st.to_act < 0:
            return []
        g_compute_legal(st, &self.o)
        if st.phase == PH_BETTING:
            return self._betting_list()
        return self._fixed_list()  # a new list each call: nothing kept, nothing copied

    def is_legal(self, action):
        try:
            parsed = action if _well_formed(action) else parse_action(action)
        except IllegalActionError:
            return False
        if self.st.over or self.st.to_act < 0:
            return False
        g_compute_legal(&self.st, &self.o)
        return self._contains(parsed)

    def apply(self, action, seat=None):
        """Apply the current player's action and run the game on to the next decision.

        Raises :class:`~sabacc.core.errors.IllegalActionError` (state unchanged) for an illegal or
        malformed action, or when ``seat`` is given and is not the current player.
        """
        cdef int actor
        if not _well_formed(action):
            action = parse_action(action)
        return self._play(action, self._actor(seat))

    # ------------------------------------------------------------------ state, read-only copies
    @property
    def turn(self):
        """The seat whose turn it is (-1 before the first turn of a hand)."""
        return self.st.turn

    @property
    def orbit(self):
        """Orbits of turns completed this hand."""
        return self.st.orbit

    @property
    def call_queue(self):
        """The seats still to ask in this calling phase."""
        return [<int>self.st.queue[i] for i in range(self.st.qpos, self.st.qlen)]

    @property
    def caller(self):
        return None if self.st.caller < 0 else self.st.caller

    @property
    def last_roll(self):
        return self.st.last_roll or None

    @property
    def last_shift(self):
        return bool(self.st.last_shift)

    @property
    def public_ids(self):
        """Cards everybody saw go into each hand: none in classic (every card is dealt or
        drawn face down)."""
        return [set() for _ in range(self.st.n)]

    @property
    def discards(self):
        return [_CARDS[self.st.discards[i]] for i in range(self.st.ndisc)]

    @property
    def last_action(self):
        """Each seat's last action this hand as the table saw it (``"call (all-in)"``,
        ``"exchange"``...)."""
        cdef int s
        out = []
        for s in range(self.st.n):
            a = self._last[s]
            out.append(None if a is None else self._public_text(s, a))
        return out

    cdef str _public_text(self, int s, object a):
        t = type(a)
        if t is _Swap:
            return "exchange"
        if self.st.allin_last[s]:
            return "call (all-in)" if t is _Call else f"{a} (all-in)"
        return str(a)

    def card_locations(self):
        """Every card of the deck, wherever it is now (for conservation checks)."""
        return [c for h in self.hands for c in h] + self.draw + self.discards

    def pots(self):
        """The main pot and side pots as they stand (as :meth:`Game.pots`)."""
        cdef long long amounts[MAXR]
        cdef int masks[MAXR]
        cdef int k = g_build_pots(&self.st, amounts, masks)
        cdef int i, s
        out = []
        for i in range(k):
            out.append(Pot(amounts[i], tuple([s for s in range(self.st.n) if masks[i] >> s & 1])))
        return out

    def evaluate(self, cards):
        return ClassicGame.info.evaluator(self.options, list(cards))

    @property
    def rounds(self):
        """Rounds per hand: ``None``, classic hands run until called (:attr:`Game.rounds`)."""
        return None

    @property
    def bet_unit(self):
        """The minimum bet and raise increment (:attr:`Game.bet_unit`): 1 credit."""
        return 1

    # ------------------------------------------------------------------ legality
    cdef list _fixed_list(self):
        cdef list out
        cdef char seen[33]
        cdef int i, v, s
        cdef State* st = &self.st
        if st.phase == PH_BETTING:
            return list(_CALL_JUNK if st.to_call_pos else _CHECK_JUNK)
        if st.phase == PH_CALLING:
            return list(_CALLING)
        out = [_STAND]
        if st.can_gain:
            out.append(_GAIN)
            if st.can_swap:
                memset(seen, 0, sizeof(seen))
                s = st.to_act
                for i in range(st.hlen[s]):
                    seen[VAL[st.hands[s][i]] + 17] = 1
                for v in range(33):
                    if seen[v]:
                        out.append(_EXCHANGE[v])
        return out

    cdef bint _contains(self, object action) except -1:
        cdef State* st = &self.st
        cdef int s = st.to_act, i, form
        t = type(action)
        if st.phase == PH_BETTING:
            return self._betting_contains(action)
        if st.phase == PH_CALLING:
            return t is _CallHand or t is _Stand
        form = self._stand_or_gain(action)
        if form >= 0:
            return form
        if t is _Swap:
            a = action.value
            if (not st.can_swap or action.source != "draw" or not isinstance(a, int)
                    or isinstance(a, bool) or not -17 <= a <= 15):
                return False
            return g_holds(st, s, a)
        return False

    cdef void _perform(self, int s, object action) except *:
        """Play a legal action object through the C rules, then log the hand it ended."""
        cdef int kind
        cdef long long arg = 0
        t = type(action)
        if t is _Stand:
            kind = A_STAND
        elif t is _Gain:
            kind = A_GAIN
        elif t is _Swap:
            kind = A_SWAP
            arg = action.value
        elif t is _CallHand:
            kind = A_CALL_HAND
        else:
            kind = _betting_code(action, &arg)
        self._run(s, kind, arg)

    cdef void _log_hand(self) except *:
        """Log the hand that just ended: its nets in ``hand_nets``, and its pots' results, the
        hands shown and the sudden-demise cards (``State.rec_*``) in ``_hand_data``."""
        cdef State* st = &self.st
        cdef int i
        self._log_nets(_REASONS[st.rec_reason])
        results = tuple([
            (st.rec_pot[i], st.rec_amount[i], st.rec_mask[i], st.rec_why[i], st.rec_s1[i],
             st.rec_s2[i])
            for i in range(st.rec_nres)
        ])
        shown = tuple([
            (<int>st.rec_shown_seat[i], (<char*>st.rec_shown[i])[:st.rec_shown_len[i]])
            for i in range(st.rec_nshown)
        ])
        demise = (<char*>st.rec_demise)[:st.n] if st.rec_reason != REC_ALL_JUNKED else None
        self._hand_data.append((results, shown, demise, st.rec_carry, st.rec_sabacc_left))

    # ------------------------------------------------------------------ results, observation
    cdef object _build_result(self, int index):
        """The :class:`HandResult` of finished hand ``index``, from its compact record."""
        hand, dealer, reason, net = self.hand_nets[index]
        results, shown, demise, carry, sab_left = self._hand_data[index]
        scoring = self.options.scoring
        n = self.st.n
        hands = {}
        cards_of = {}
        values = {}
        for s, cards in shown:
            value = evaluate_classic([_VALUES[c] for c in cards], scoring)
            values[s] = value
            cards_of[s] = cards
            hands[s] = (tuple([_CODES[c] for c in cards]), value)
        pots = []
        for pot, amount, mask, why, s1, s2 in results:
            name = "main" if pot == 0 else "sabacc" if pot < 0 else f"side {pot}"
            if why == W_JUNKED:
                text = "everyone else junked"
            elif why == W_BEST:
                text = f"best hand: {values[s1].name}"
            else:
                tied = values[s1].name
                if why == W_NO_CARDS:
                    text = f"tie on {tied}, split (no cards left for sudden demise)"
                elif why == W_ALL_BOMBED:
                    text = f"tie on {tied}, all bombed out in sudden demise: split"
                else:
                    after = evaluate_classic(
                        [_VALUES[c] for c in cards_of[s2]] + [_VALUES[demise[s2]]], scoring
                    )
                    verdict = "won" if why == W_DEMISE_WON else "still tied: split"
                    text = f"tie on {tied}, sudden demise {verdict} with {after.name}"
            order = [(dealer + 1 + i) % n for i in range(n)]
            winners = tuple([s for s in order if mask >> s & 1])
            k = len(winners)
            base, odd = divmod(amount, k)
            pots.append(PotResult(name, amount, winners,
                                  tuple([base + (1 if i < odd else 0) for i in range(k)]), text))
        carried = {}
        if carry:
            carried["main"] = carry
        if sab_left:
            carried["sabacc"] = sab_left
        return HandResult(hand, dealer, reason, tuple(pots), hands, carried, net)

    # ------------------------------------------------------------------ compact view (RL)
    # ------------------------------------------------------------------ search (bots)
    @staticmethod
    def from_game(game):
        """A compiled copy of a reference :class:`ClassicGame`'s current state, RNG state and
        action log included: it goes on exactly as ``game`` would (for search bots, which
        sample and play out many worlds from one position)."""
        cdef ClassicCore new
        cdef State* st
        cdef int s, i, n
        if type(game) is not ClassicGame or game._subdeck is not None:
            raise OptionError("from_game copies a classic sabacc game of the reference engine "
                              "(with the whole deck)")
        if type(game.rng) is not _random.Random:
            raise OptionError("from_game needs a game on a plain seeded random.Random")
        new = ClassicCore.__new__(ClassicCore)
        st = &new.st
        new.options = game.options
        new.seed = game.seed
        new.names = list(game.names)
        new._seats = [s for s, _ in game.actions]
        new._acts = [parse_action(a) for _, a in game.actions]
        results = list(game.hand_results)
        new.hand_nets = [(r.hand, r.dealer, r.reason, tuple(r.net)) for r in results]
        new._results = results
        new._hand_data = [None] * len(results)
        new._legal_obj = None
        _read_options(&new.o, game.options)
        version, internal, gauss = game.rng.getstate()
        _copy_table(st, game, internal)
        n = st.n
        last = []
        for s in range(n):
            hand = game.hands[s]
            st.hlen[s] = _put_ids(st.hands[s], hand)
            text = game.last_action[s]
            if text is None:
                last.append(None)
            elif text == "exchange":  # the public text of an exchange (its value is private)
                last.append(_EXCHANGE[17])
            else:
                st.allin_last[s] = text.endswith(" (all-in)")
                last.append(parse_action(text[: len(text) - 9] if st.allin_last[s] else text))
        new._last = last
        st.ndraw = _put_ids(st.draw, game.draw)
        st.ndisc = _put_ids(st.discards, game.discards)
        st.turn = game.turn
        st.orbit = game.orbit
        st.qlen = len(game.call_queue)
        for i, s in enumerate(game.call_queue):
            st.queue[i] = s
        st.caller = -1 if game.caller is None else game.caller
        st.last_roll = game.last_roll or 0
        st.last_shift = game.last_shift
        st.anteing = game._anteing
        st.sab_was_empty = game._sabacc_was_empty
        new._copy_seating(game._seating)
        return new

    def determinize(self, int viewer, rng):
        """A copy of this state as ``viewer`` might imagine it, exactly as
        :meth:`Game.determinize` draws it from ``rng`` (same calls, same result): the other
        seats' cards, the deck and the out-of-play pile are shuffled and dealt back into the
        same places; the copy gets a fresh RNG seeded from ``rng``. Like the reference's
        (``clone(log=False)``), the copy starts with an empty action log."""
        if not 0 <= viewer < self.st.n:
            raise IndexError(f"no seat {viewer} at this {self.st.n}-seat table")
        cdef ClassicCore new = self.clone(reseed=rng.getrandbits(64))
        cdef State* st = &new.st
        cdef int s, i, k = 0
        cdef signed char* places[NC]
        cdef signed char items[NC]
        cdef MT r
        new._seats = []
        new._acts = []
        for s in range(st.n):
            if s == viewer:
                continue
            for i in range(st.hlen[s]):
                places[k] = &st.hands[s][i]
                k += 1
        for i in range(st.ndraw):
            places[k] = &st.draw[i]
            k += 1
        for i in range(st.ndisc):
            places[k] = &st.discards[i]
            k += 1
        cards = sorted([places[i][0] for i in range(k)])  # forget where they were
        if type(rng) is _random.Random:
            version, internal, gauss = rng.getstate()
            for i in range(MT_N):
                r.mt[i] = <uint32_t>internal[i]
            r.mti = internal[MT_N]
            for i in range(k):
                items[i] = <signed char>cards[i]
            mt_shuffle(&r, items, k)
            rng.setstate((version, tuple([r.mt[i] for i in range(MT_N)]) + (r.mti,), gauss))
            cards = [items[i] for i in range(k)]
        else:
            rng.shuffle(cards)
        new._deal_back(cards, places, k)
        return new


# ---------------------------------------------------------------------------------- the kernel's hooks
# (what the kernel's _BettingCore calls where the cores differ; see _core_betting.pxi)

cdef object core_make_legal(_BettingCore game):
    if game.st.phase == PH_CALLING:
        return _LEGAL_CALLING
    return game._legal_of(tuple((<ClassicCore>game)._fixed_list()))

cdef inline object core_build_result(_BettingCore game, int index):
    return (<ClassicCore>game)._build_result(index)

cdef inline bint core_contains(_BettingCore game, object action) except -1:
    return (<ClassicCore>game)._contains(action)

cdef inline void core_decided(_BettingCore game) noexcept:
    pass  # nothing is built per decision beyond the Legal

cdef inline void core_perform(_BettingCore game, int actor, object action) except *:
    (<ClassicCore>game)._perform(actor, action)

cdef inline void core_log_hand(_BettingCore game) except *:
    (<ClassicCore>game)._log_hand()

cdef inline void core_clone_decision(_BettingCore game, _BettingCore new) noexcept:
    pass  # nothing is built per decision beyond the Legal

cdef inline void core_copied(_BettingCore new) noexcept:
    pass

cdef inline object core_view_last(_BettingCore game, int s, object action):
    return (<ClassicCore>game)._public_text(s, action)

cdef inline bytes core_view_known(State* st, int s, int seat, int k):
    return b""  # every card is dealt or drawn face down

cdef inline void core_hidden_piles(_BettingCore game, dict state) except *:
    cdef State* st = &game.st
    cdef int i
    state["out"] = [_CODES[st.discards[i]] for i in range(st.ndisc)]

cdef tuple core_view_extra(_BettingCore game, int seat):
    """``(turn offset or -1, orbit, max orbits, calls open, raises, max raises, deck size,
    out-of-play size, last roll shifted)`` (:data:`sabacc.variants.classic.rules.CLASSIC_FEATURES`
    reads it)."""
    cdef State* st = &game.st
    cdef int n = st.n
    return ((st.turn - seat + n) % n if 0 <= st.turn < n else -1, st.orbit, game.o.max_orbits,
             st.orbit >= game.o.min_turns, st.raises, game.o.max_raises, st.ndraw, st.ndisc,
             bool(st.last_shift))

cdef inline tuple core_public(State* st, int s):
    return ()  # every card is dealt or drawn face down

cdef inline tuple core_seen(State* st):
    return ()

cdef inline object core_structure(_BettingCore self):
    return "limit"

cdef inline object core_unit(_BettingCore self):
    return 1

cdef tuple r_part(_BettingCore self):
    """:func:`sabacc.variants.classic.rules.classic_extra`'s values: the turn and orbit, the
    call, the limits, the deck, the dice."""
    cdef State* st = &self.st
    return (
        st.turn, st.orbit, self.o.max_orbits, st.orbit >= self.o.min_turns, self.o.bet_limit,
        st.raises, self.o.max_raises, st.ndraw, st.ndisc, st.last_roll or None,
        bool(st.last_shift), None if st.caller < 0 else st.caller,
    )


cdef inline void core_seat_joined(_CoreBase game, int seat) noexcept:
    """A joined seat has no per-game state in classic sabacc (its hand state is dealt)."""
