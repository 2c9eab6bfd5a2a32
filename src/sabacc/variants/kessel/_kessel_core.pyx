"""The compiled Kessel Sabacc engine: the rules of :mod:`sabacc.variants.kessel.rules` on C arrays,
for simulation, search and reinforcement learning.

Same rules, same options, same seeded RNG (the shared bit-exact Mersenne Twister of
``_mt.pxd``, drawn in the reference engine's order: the first starting player, the token draft,
the two family shuffles of each round, reshuffles, dice), the same action objects and the same
checks: for a seed and a list of actions it reaches exactly the state the pure-Python
:class:`~sabacc.variants.kessel.rules.KesselGame` reaches (``tests/variants/kessel/test_core.py``
plays both in lockstep). It keeps no event log: ``apply`` returns ``None``; the action log and
a compact record of each finished round are kept, from which :attr:`KesselCore.hand_results`
builds the reference engine's ``HandResult`` objects on first use, and
``sabacc.replay(core.history())`` rebuilds the events on the reference engine when wanted.

The hot path (``legal``, ``legal_actions``, ``is_legal``, ``apply``, the decision and the state
fields, ``payoffs``, ``clone``) is C; ``observation``, ``seat_view``, ``determinize`` and the
cold members build the reference engine's Python values from the C state.
"""

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.object cimport PyObject

from sabacc.variants._kernel._mt cimport (
    MT, MT_INIT, mt_below, mt_die, mt_init_by_array, mt_init_genrand, mt_sample_indices, mt_seed,
    mt_shuffle_sorted,
)

from collections.abc import Mapping as _Mapping
import random as _random

from sabacc.core.actions import STAND
from sabacc.core.errors import IllegalActionError, OptionError
from sabacc.engine.betting import Legal, NO_ACTIONS, Pot, split_amount
from sabacc.engine.game import (
    HISTORY_FORMAT, HISTORY_VERSION, GameOutcome, HandResult, PotResult, illegal_message,
    resolve_seed, seat_number,
)
from sabacc.engine.observe import (
    ObservationSnapshot, check_viewer, observe, observe_many, public_rows,
)
from sabacc.variants.kessel.rules import KesselGame, KesselOptions, kessel_part, shown_value
from sabacc.variants.kessel.actions import (
    DISCARD_DRAWN, DRAWS, DRAW_SOURCES, IMPOSTOR_CHOICES, KEEP, PRIME_CHOICES, Draw, PlayToken,
    parse_kessel_action, token_action,
)
from sabacc.variants.kessel.hands import Rules, hand_value, kessel_deck
from sabacc.variants.kessel.rl import kessel_extra
from sabacc.variants.kessel.tokens import TARGETED, TOKENS

DEF MAXP = 6
DEF MAXC = 48       # two families of at most 18 + 3 + 3 cards
DEF NTOK = 16
DEF MAXL = 64       # legal actions at one decision (at most 1 + 4 + 12 + 4 * 5)

DEF PH_SETUP = 0
DEF PH_TURN = 1
DEF PH_DRAW = 2
DEF PH_IMPOSTOR = 3
DEF PH_PRIME = 4
DEF PH_OVER = 5
DEF PH_BETWEEN = 6  # a held table between rounds (pause_between_hands, seat changes)

DEF TM_NONE = 0
DEF TM_DRAFT = 1
DEF TM_LIST = 2

# Action codes: stand, the four draws, keep, discard, impostor 1-6, prime 1-6, then the tokens:
# TOK0 + token * 8 + (target + 1), target -1 meaning none.
DEF A_STAND = 0
DEF A_DRAW = 1      # + source index (DRAW_SOURCES order)
DEF A_KEEP = 5
DEF A_DISCARD = 6
DEF A_IMP = 6       # + value 1-6
DEF A_PRIME = 12    # + value 1-6
DEF TOK0 = 20
DEF NCODES = 148

# Token indices (TOKENS order).
DEF T_FREE_DRAW = 0
DEF T_REFUND = 1
DEF T_EXTRA_REFUND = 2
DEF T_EMBEZZLEMENT = 3
DEF T_GENERAL_TARIFF = 4
DEF T_TARGET_TARIFF = 5
DEF T_GENERAL_AUDIT = 6
DEF T_TARGET_AUDIT = 7
DEF T_MAJOR_FRAUD = 8
DEF T_MARKDOWN = 9
DEF T_COOK = 10
DEF T_PRIME = 11
DEF T_IMMUNITY = 12
DEF T_EXHAUSTION = 13
DEF T_DIRECT = 14
DEF T_EMBARGO = 15

# Piles: the two draw piles, then the two discard piles (bottom first).
DEF P_SAND_DRAW = 0
DEF P_BLOOD_DRAW = 1
DEF P_SAND_DISCARD = 2
DEF P_BLOOD_DISCARD = 3

# Hand key categories (kessel_hands: greater is better).
DEF K_PURE = 4
DEF K_PRIME = 3
DEF K_SABACC = 2
DEF K_PLAIN = 1

_PHASES = ("setup", "turn", "draw", "impostor", "prime", "over", "between_hands")
_REASONS = ("", "all_stood", "turns")

ctypedef struct Opts:
    int chips
    int turns
    int early_end
    int hand_limit      # 0: none (last_standing)
    int tok_mode
    int nlist
    signed char list_tok[NTOK]
    int fam             # cards per family
    int ncards
    signed char val[MAXC]   # 1-6, 0 a Sylop, -1 an Impostor

ctypedef struct Rec:        # the last finished round, for its HandResult
    int hand_no
    int dealer
    int reason
    int norder
    signed char order[MAXP]
    signed char cards[MAXP][2]
    signed char dice[MAXP][2]   # the die each card was given (0: none)
    int pot[MAXP]
    int pen[MAXP]           # -1: a best hand (took its pot back)
    int net[MAXP]
    signed char rules[4]    # major_fraud, markdown, cook_the_books, prime (0: none)

ctypedef struct State:
    MT rng
    int n
    int stacks[MAXP]
    int committed[MAXP]
    int hand_start[MAXP]
    signed char out[MAXP]
    signed char in_hand[MAXP]
    int hand_no
    int dealer
    int house
    int to_act          # -1: nobody
    int phase
    int over
    signed char hand[MAXP][2]
    int hlen[MAXP]
    uint64_t pub[MAXP]
    uint64_t seen[MAXP]
    signed char pile[4][MAXC]
    int plen[4]
    int drawn           # -1: none
    int drawn_from      # -1, or the DRAW_SOURCES index
    signed char order[MAXP]
    int norder
    int pos
    int turn
    signed char stood[MAXP]
    signed char stood_now[MAXP]
    signed char embargoed[MAXP]
    signed char immune[MAXP]
    int must_stand
    int token_now
    int free_draw
    signed char rules[4]
    signed char chosen[MAXC]    # 0: no die chosen
    signed char pend_seat[2 * MAXP]
    signed char pend_card[2 * MAXP]
    int npend
    int has_dice
    int dice0
    int dice1
    int end_reason
    signed char tleft[MAXP][NTOK]
    int ntleft[MAXP]
    signed char tused[MAXP][NTOK]
    int ntused[MAXP]
    unsigned char legal[MAXL]
    int nlegal
    int legal_ok
    int rounds_done
    Rec rec
    # a custom table's (the kernel's _CoreBase), last: the hot fields keep their offsets
    int hold            # stop between rounds
    int vacant          # the empty seats' mask


cdef MT _MT_BASE
mt_init_genrand(&_MT_BASE, MT_INIT)

cdef int _TARGETED[NTOK]
for _t in range(NTOK):
    _TARGETED[_t] = TOKENS[_t] in TARGETED


def _build_actions():
    acts = [None] * NCODES
    acts[A_STAND] = STAND
    for i, src in enumerate(DRAW_SOURCES):
        acts[A_DRAW + i] = DRAWS[src]
    acts[A_KEEP] = KEEP
    acts[A_DISCARD] = DISCARD_DRAWN
    for v in range(1, 7):
        acts[A_IMP + v] = IMPOSTOR_CHOICES[v]
        acts[A_PRIME + v] = PRIME_CHOICES[v]
    for t, name in enumerate(TOKENS):
        if name in TARGETED:
            for target in range(MAXP):
                acts[TOK0 + t * 8 + target + 1] = token_action(name, target)
        else:
            acts[TOK0 + t * 8] = token_action(name)
    return tuple(acts)


cdef tuple _ACTS = _build_actions()
cdef dict _CODE_BY_ID = {id(a): i for i, a in enumerate(_ACTS) if a is not None}
cdef PyObject* _ACT_PTR[NCODES]  # borrowed: _ACTS keeps them alive
for _i in range(NCODES):
    _ACT_PTR[_i] = <PyObject*>_ACTS[_i]
cdef dict _CODE = {a: i for i, a in enumerate(_ACTS) if a is not None}
cdef tuple _STRS = tuple(str(a) if a is not None else None for a in _ACTS)
cdef dict _TOKEN_INDEX = {name: i for i, name in enumerate(TOKENS)}
cdef tuple _DEFAULT_NAMES = tuple(
    tuple(f"Player {i + 1}" for i in range(n)) if n >= 2 else None for n in range(MAXP + 1)
)


cdef inline int _seed(MT* r, object seed) except -1:
    """``random.Random(seed)``: mt_seed, with the words of a seed below 2**64 split in C."""
    cdef uint64_t v
    cdef uint32_t key[2]
    if type(seed) is int and -(2**63) < seed < 2**63:
        v = <uint64_t>(seed if seed >= 0 else -seed)
        key[0] = <uint32_t>v
        key[1] = <uint32_t>(v >> 32)
        mt_init_by_array(r, &_MT_BASE, key, 2 if key[1] else 1)
        return 0
    return mt_seed(r, &_MT_BASE, seed)


cdef inline int _code_of(object action) except -2:
    """The code of a Kessel action, or -1 for any other action (never legal here)."""
    cdef object c = _CODE_BY_ID.get(id(action))
    if c is not None and _ACTS[<int>c] is action:
        return <int>c
    try:
        c = _CODE.get(action)
    except TypeError:  # an unhashable field: not one of ours
        return -1
    return -1 if c is None else <int>c


# ------------------------------------------------------------------ options
cdef object _last_options = None
cdef Opts _last_opts
cdef tuple _last_cards = ()


cdef void _read_options(Opts* o, object options) except *:
    memset(o, 0, sizeof(Opts))
    o.chips = options.chips
    o.turns = options.turns
    o.early_end = 1 if options.early_end else 0
    limit = options.hand_limit
    o.hand_limit = 0 if limit is None else limit
    setting = options.shift_tokens
    if setting == "none":
        o.tok_mode = TM_NONE
    elif setting == "draft":
        o.tok_mode = TM_DRAFT
    else:
        o.tok_mode = TM_LIST
        names = setting.split(",")
        o.nlist = len(names)
        for i, name in enumerate(names):
            o.list_tok[i] = _TOKEN_INDEX[name]
    deck = kessel_deck(options.impostors, options.sylops)
    o.ncards = len(deck.cards)
    o.fam = o.ncards // 2
    for c in deck.cards:
        o.val[c.id] = c.value


# ------------------------------------------------------------------ the rules, on C state
cdef inline int g_suit(Opts* o, int card) noexcept nogil:
    return 0 if card < o.fam else 1


cdef inline int g_resolved(State* st, Opts* o, int card) noexcept nogil:
    """A card's value before Sylop resolution; -1 for an Impostor with no die yet."""
    cdef int v = o.val[card]
    if v != -1:
        return v
    if st.rules[0]:
        return 6
    return st.chosen[card] if st.chosen[card] else -1


cdef inline int g_rank(State* st, int a, int b) noexcept nogil:
    """kessel_hands._rank as one int key (greater is better)."""
    cdef int diff, low
    if a == 0 and not st.rules[1]:
        a = b
    elif b == 0 and not st.rules[1]:
        b = a
    if a == b:
        if st.rules[3] and a == st.rules[3]:
            return K_PRIME * 4096 + 32 * 64 + 32
        return K_SABACC * 4096 + ((a if st.rules[2] else -a) + 32) * 64 + 32
    diff = a - b if a > b else b - a
    low = a if a < b else b
    return K_PLAIN * 4096 + (32 - diff) * 64 + (32 - low)


cdef int g_key(State* st, Opts* o, int sand, int blood) noexcept nogil:
    """The key of the hand (sand, blood) under this round's rules and dice (hand_value)."""
    cdef int a, b, x, y, k, best = -1
    if o.val[sand] == 0 and o.val[blood] == 0:
        return K_PURE * 4096 + 32 * 64 + 32
    a = g_resolved(st, o, sand)
    b = g_resolved(st, o, blood)
    for x in range(1, 7):
        if a != -1 and x > 1:
            break
        for y in range(1, 7):
            if b != -1 and y > 1:
                break
            k = g_rank(st, a if a != -1 else x, b if b != -1 else y)
            if k > best:
                best = k
    return best


cdef inline int g_penalty(int key) noexcept nogil:
    """1 for a Sabacc (Pure, Prime or plain), else the difference."""
    if key // 4096 >= K_SABACC:
        return 1
    return 32 - (key // 64) % 64


cdef inline int g_take_top(State* st, int p) noexcept nogil:
    st.plen[p] -= 1
    return st.pile[p][st.plen[p]]


cdef void g_discard_card(State* st, Opts* o, int card) noexcept nogil:
    cdef int p = P_SAND_DISCARD + g_suit(o, card)
    cdef int s
    cdef uint64_t bit = (<uint64_t>1) << card
    st.pile[p][st.plen[p]] = card
    st.plen[p] += 1
    for s in range(st.n):
        st.seen[s] &= ~bit


cdef int g_take_from_draw(State* st, Opts* o, int fam) noexcept nogil:
    """The top of a family's draw pile, refilled first if empty (the discards but the top)."""
    cdef int d = fam, x = P_SAND_DISCARD + fam, top, i, k
    if st.plen[d] == 0:
        top = st.pile[x][st.plen[x] - 1]
        k = st.plen[x] - 1
        for i in range(k):
            st.pile[d][i] = st.pile[x][i]
        mt_shuffle_sorted(&st.rng, st.pile[d], k)
        st.plen[d] = k
        st.pile[x][0] = top
        st.plen[x] = 1
    return g_take_top(st, d)


cdef int g_to_pot(State* st, int s, int amount) noexcept nogil:
    if amount > st.stacks[s]:
        amount = st.stacks[s]
    if amount <= 0:
        return 0
    st.stacks[s] -= amount
    st.committed[s] += amount
    return amount


cdef void g_reset_hand_state(State* st, Opts* o) noexcept nogil:
    cdef int s, p
    for s in range(st.n):
        st.hlen[s] = 0
        st.pub[s] = 0
        st.seen[s] = 0
        st.in_hand[s] = 0
        st.committed[s] = 0
        st.hand_start[s] = st.stacks[s]
        st.stood[s] = 0
        st.stood_now[s] = 0
        st.embargoed[s] = 0
        st.immune[s] = 0
    for p in range(4):
        st.plen[p] = 0
    st.drawn = -1
    st.drawn_from = -1
    st.norder = 0
    st.pos = 0
    st.turn = 0
    st.must_stand = 0
    st.token_now = 0
    st.free_draw = 0
    memset(st.rules, 0, sizeof(st.rules))
    memset(st.chosen, 0, sizeof(st.chosen))
    st.npend = 0
    st.has_dice = 0
    st.end_reason = 0


cdef void g_begin_player_turn(State* st, int seat) noexcept nogil:
    st.phase = PH_TURN
    st.to_act = seat
    st.token_now = 0
    st.free_draw = 0
    st.must_stand = st.embargoed[seat]
    st.embargoed[seat] = 0


cdef void g_deal_tokens(State* st, Opts* o, int s) noexcept nogil:
    """Seat ``s``'s shift tokens for the game (``deal_tokens``: the draft draws them now), none
    played yet: every seat at the first round, a seat joined later when it sits down."""
    cdef int i
    cdef int idx[NTOK]
    st.ntused[s] = 0
    if o.tok_mode == TM_NONE:
        st.ntleft[s] = 0
    elif o.tok_mode == TM_DRAFT:
        mt_sample_indices(&st.rng, NTOK, 3, idx)
        for i in range(3):
            st.tleft[s][i] = idx[i]
        st.ntleft[s] = 3
    else:
        for i in range(o.nlist):
            st.tleft[s][i] = o.list_tok[i]
        st.ntleft[s] = o.nlist


cdef void g_start_hand(State* st, Opts* o) noexcept nogil:
    """Eliminate players without chips, check the game end, rotate the start, deal."""
    cdef int s, i, nalive = 0, step, k, first = st.hand_no == 0
    cdef signed char sand[MAXC]
    cdef signed char blood[MAXC]
    cdef int idx[NTOK]
    cdef int ns, nb
    if first:
        st.dealer = <int>mt_below(&st.rng, <uint32_t>st.n)
        for s in range(st.n):
            g_deal_tokens(st, o, s)
    for s in range(st.n):
        if not st.out[s] and st.stacks[s] == 0:
            st.out[s] = 1
    for s in range(st.n):
        if not st.out[s]:
            nalive += 1
    if nalive < 2 or (o.hand_limit and st.hand_no >= o.hand_limit):
        st.over = 1
        st.to_act = -1
        st.phase = PH_OVER
        return
    if not first:
        step = 1
        while st.out[(st.dealer + step) % st.n]:
            step += 1
        st.dealer = (st.dealer + step) % st.n
    st.hand_no += 1
    g_reset_hand_state(st, o)
    for s in range(st.n):
        if not st.out[s]:
            st.in_hand[s] = 1
    # deal
    for i in range(o.fam):
        sand[i] = i
        blood[i] = o.fam + i
    mt_shuffle_sorted(&st.rng, sand, o.fam)
    mt_shuffle_sorted(&st.rng, blood, o.fam)
    ns = o.fam
    nb = o.fam
    k = 0
    for i in range(st.n):
        s = (st.dealer + i) % st.n
        if st.in_hand[s]:
            st.order[k] = s
            k += 1
    st.norder = k
    for i in range(k):
        s = st.order[i]
        ns -= 1
        nb -= 1
        st.hand[s][0] = sand[ns]
        st.hand[s][1] = blood[nb]
        st.hlen[s] = 2
    ns -= 1
    nb -= 1
    st.pile[P_SAND_DISCARD][0] = sand[ns]
    st.plen[P_SAND_DISCARD] = 1
    st.pile[P_BLOOD_DISCARD][0] = blood[nb]
    st.plen[P_BLOOD_DISCARD] = 1
    for i in range(ns):
        st.pile[P_SAND_DRAW][i] = sand[i]
    st.plen[P_SAND_DRAW] = ns
    for i in range(nb):
        st.pile[P_BLOOD_DRAW][i] = blood[i]
    st.plen[P_BLOOD_DRAW] = nb
    st.turn = 1
    st.pos = 0
    g_begin_player_turn(st, st.order[0])


cdef void g_roll(State* st, int seat) noexcept nogil:
    st.dice0 = mt_die(&st.rng)
    st.dice1 = mt_die(&st.rng)
    st.has_dice = 1
    st.to_act = seat


cdef void g_payout(State* st, Opts* o) noexcept nogil:
    cdef int keys[MAXP]
    cdef int i, s, best = -1, pot, pen, c
    cdef Rec* r = &st.rec
    for i in range(st.norder):
        s = st.order[i]
        keys[i] = g_key(st, o, st.hand[s][0], st.hand[s][1])
        if keys[i] > best:
            best = keys[i]
    r.hand_no = st.hand_no
    r.dealer = st.dealer
    r.reason = st.end_reason
    r.norder = st.norder
    memcpy(r.rules, st.rules, sizeof(r.rules))
    for i in range(st.norder):
        s = st.order[i]
        r.order[i] = s
        for c in range(2):
            r.cards[i][c] = st.hand[s][c]
            r.dice[i][c] = st.chosen[st.hand[s][c]]
        pot = st.committed[s]
        r.pot[i] = pot
        if keys[i] == best:
            st.stacks[s] += pot
            r.pen[i] = -1
            continue
        pen = g_penalty(keys[i])
        if pen > st.stacks[s]:
            pen = st.stacks[s]
        st.stacks[s] -= pen
        st.house += pot + pen
        r.pen[i] = pen
    for s in range(st.n):
        st.committed[s] = 0
        r.net[s] = st.stacks[s] - st.hand_start[s]
    st.has_dice = 0
    st.rounds_done += 1
    st.to_act = -1
    if st.hold:
        st.phase = PH_BETWEEN
    else:
        g_start_hand(st, o)


cdef void g_next_impostor(State* st, Opts* o) noexcept nogil:
    if st.npend:
        st.phase = PH_IMPOSTOR
        g_roll(st, st.pend_seat[0])
        return
    g_payout(st, o)


cdef void g_reveal(State* st, Opts* o, int reason) noexcept nogil:
    cdef int i, s, c
    st.end_reason = reason
    for i in range(st.norder):
        s = st.order[i]
        st.pub[s] = ((<uint64_t>1) << st.hand[s][0]) | ((<uint64_t>1) << st.hand[s][1])
    if not st.rules[0]:
        st.npend = 0
        for i in range(st.norder):
            s = st.order[i]
            for c in range(st.hlen[s]):
                if o.val[st.hand[s][c]] == -1:
                    st.pend_seat[st.npend] = s
                    st.pend_card[st.npend] = st.hand[s][c]
                    st.npend += 1
    g_next_impostor(st, o)


cdef void g_next_turn(State* st, Opts* o) noexcept nogil:
    cdef int i, all_stood
    st.pos += 1
    if st.pos >= st.norder:
        if o.early_end:
            all_stood = 1
            for i in range(st.norder):
                if not st.stood_now[st.order[i]]:
                    all_stood = 0
                    break
            if all_stood:
                g_reveal(st, o, 1)
                return
        if st.turn >= o.turns:
            g_reveal(st, o, 2)
            return
        st.turn += 1
        st.pos = 0
        for i in range(st.n):
            st.stood_now[i] = 0
    g_begin_player_turn(st, st.order[st.pos])


cdef void g_compute_legal(State* st, Opts* o) noexcept nogil:
    cdef int seat = st.to_act, k = 0, i, j, t, other, v
    cdef int sd = st.plen[P_SAND_DISCARD], bd = st.plen[P_BLOOD_DISCARD]
    if st.legal_ok:
        return
    if st.phase == PH_TURN:
        st.legal[k] = A_STAND
        k += 1
        if not st.must_stand and (st.stacks[seat] >= 1 or st.free_draw):
            if st.plen[P_SAND_DRAW] or sd >= 2:
                st.legal[k] = A_DRAW
                k += 1
            if st.plen[P_BLOOD_DRAW] or bd >= 2:
                st.legal[k] = A_DRAW + 1
                k += 1
            if sd:
                st.legal[k] = A_DRAW + 2
                k += 1
            if bd:
                st.legal[k] = A_DRAW + 3
                k += 1
        if not st.token_now:
            for i in range(st.ntleft[seat]):
                t = st.tleft[seat][i]
                if not _TARGETED[t]:
                    st.legal[k] = TOK0 + t * 8
                    k += 1
                    continue
                for j in range(st.norder):
                    other = st.order[j]
                    if other == seat or st.immune[other]:
                        continue
                    if t == T_TARGET_AUDIT and not st.stood[other]:
                        continue
                    st.legal[k] = TOK0 + t * 8 + other + 1
                    k += 1
    elif st.phase == PH_DRAW:
        st.legal[0] = A_KEEP
        st.legal[1] = A_DISCARD
        k = 2
    else:
        v = A_IMP if st.phase == PH_IMPOSTOR else A_PRIME
        if st.dice0 == st.dice1:
            st.legal[0] = v + st.dice0
            k = 1
        elif st.dice0 < st.dice1:
            st.legal[0] = v + st.dice0
            st.legal[1] = v + st.dice1
            k = 2
        else:
            st.legal[0] = v + st.dice1
            st.legal[1] = v + st.dice0
            k = 2
    st.nlegal = k
    st.legal_ok = 1


cdef inline int g_has_legal(State* st, int code) noexcept nogil:
    cdef int i
    for i in range(st.nlegal):
        if st.legal[i] == code:
            return 1
    return 0


cdef void g_play_token(State* st, Opts* o, int seat, int t, int target) noexcept nogil:
    cdef int i, j, o_, back, nxt, card
    cdef int others[MAXP]
    cdef int nothers = 0
    cdef signed char tmp[2]
    cdef int tmpn
    cdef uint64_t tmpp
    # tokens_left.remove(name); tokens_used.append(name)
    for i in range(st.ntleft[seat]):
        if st.tleft[seat][i] == t:
            for j in range(i, st.ntleft[seat] - 1):
                st.tleft[seat][j] = st.tleft[seat][j + 1]
            st.ntleft[seat] -= 1
            break
    st.tused[seat][st.ntused[seat]] = t
    st.ntused[seat] += 1
    st.token_now = 1
    for i in range(st.norder):
        o_ = st.order[i]
        if o_ != seat and not st.immune[o_]:
            others[nothers] = o_
            nothers += 1
    if t == T_FREE_DRAW:
        st.free_draw = 1
    elif t == T_REFUND or t == T_EXTRA_REFUND:
        back = 2 if t == T_REFUND else 3
        if back > st.committed[seat]:
            back = st.committed[seat]
        st.committed[seat] -= back
        st.stacks[seat] += back
    elif t == T_EMBEZZLEMENT:
        for i in range(nothers):
            o_ = others[i]
            if st.committed[o_] > 0:
                st.committed[o_] -= 1
                st.committed[seat] += 1
    elif t == T_GENERAL_TARIFF:
        for i in range(nothers):
            g_to_pot(st, others[i], 1)
    elif t == T_GENERAL_AUDIT:
        for i in range(nothers):
            if st.stood[others[i]]:
                g_to_pot(st, others[i], 2)
    elif t == T_TARGET_TARIFF:
        g_to_pot(st, target, 2)
    elif t == T_TARGET_AUDIT:
        g_to_pot(st, target, 3)
    elif t == T_MAJOR_FRAUD:
        st.rules[0] = 1
    elif t == T_MARKDOWN:
        st.rules[1] = 1
    elif t == T_COOK:
        st.rules[2] = 1
    elif t == T_PRIME:
        g_roll(st, seat)
        st.phase = PH_PRIME
    elif t == T_IMMUNITY:
        st.immune[seat] = 1
        st.must_stand = 0
        st.embargoed[seat] = 0
    elif t == T_EXHAUSTION:
        for i in range(st.hlen[target]):
            g_discard_card(st, o, st.hand[target][i])
        st.pub[target] = 0
        card = g_take_from_draw(st, o, 0)
        st.hand[target][0] = card
        st.hand[target][1] = g_take_from_draw(st, o, 1)
        st.hlen[target] = 2
    elif t == T_DIRECT:
        memcpy(tmp, st.hand[seat], 2)
        memcpy(st.hand[seat], st.hand[target], 2)
        memcpy(st.hand[target], tmp, 2)
        tmpn = st.hlen[seat]
        st.hlen[seat] = st.hlen[target]
        st.hlen[target] = tmpn
        tmpp = st.pub[seat]
        st.pub[seat] = st.pub[target]
        st.pub[target] = tmpp
        for i in range(st.hlen[target]):
            st.seen[seat] |= (<uint64_t>1) << st.hand[target][i]
        for i in range(st.hlen[seat]):
            st.seen[target] |= (<uint64_t>1) << st.hand[seat][i]
    else:  # embargo
        if st.pos + 1 < st.norder:
            nxt = st.order[st.pos + 1]
        elif st.turn < o.turns:
            nxt = st.order[0]
        else:
            nxt = -1
        if nxt >= 0 and nxt != seat and not st.immune[nxt]:
            st.embargoed[nxt] = 1


cdef void g_perform(State* st, Opts* o, int seat, int code) noexcept nogil:
    cdef int fam, card, old, idx, shown, i
    st.legal_ok = 0
    if code >= TOK0:
        g_play_token(st, o, seat, (code - TOK0) // 8, (code - TOK0) % 8 - 1)
    elif code == A_STAND:
        st.stood[seat] = 1
        st.stood_now[seat] = 1
        g_next_turn(st, o)
    elif code < A_KEEP:  # a draw
        if not st.free_draw:
            g_to_pot(st, seat, 1)
        st.free_draw = 0
        fam = (code - A_DRAW) % 2
        if code - A_DRAW >= 2:
            card = g_take_top(st, P_SAND_DISCARD + fam)
        else:
            card = g_take_from_draw(st, o, fam)
        st.drawn = card
        st.drawn_from = code - A_DRAW
        st.phase = PH_DRAW
    elif code == A_KEEP or code == A_DISCARD:
        card = st.drawn
        shown = st.drawn_from >= 2
        st.drawn = -1
        st.drawn_from = -1
        if code == A_DISCARD:
            g_discard_card(st, o, card)
        else:
            idx = g_suit(o, card)
            old = st.hand[seat][idx]
            st.hand[seat][idx] = card
            st.pub[seat] &= ~((<uint64_t>1) << old)
            if shown:
                st.pub[seat] |= (<uint64_t>1) << card
            g_discard_card(st, o, old)
        g_next_turn(st, o)
    elif code > A_PRIME:
        st.rules[3] = code - A_PRIME
        st.has_dice = 0
        st.phase = PH_TURN
    else:  # an Impostor's die
        card = st.pend_card[0]
        for i in range(st.npend - 1):
            st.pend_seat[i] = st.pend_seat[i + 1]
            st.pend_card[i] = st.pend_card[i + 1]
        st.npend -= 1
        st.chosen[card] = code - A_IMP
        st.has_dice = 0
        g_next_impostor(st, o)


# ------------------------------------------------------------------ the Python class
# The members every core reads the same way from its C state (n, the decision, payoffs and
# outcome, the action log, the per-seat money): one source for all cores, a base class
# compiled against this module's State.
include "sabacc/variants/_kernel/_core_protocol.pxi"


cdef class KesselCore(_CoreBase):
    """A game of Kessel Sabacc on the compiled engine (see the module docstring).

    ``KesselCore(options, seed=7, players=4)``, or ``sabacc.new_game("kessel",
    engine="compiled")``.
    """

    # (the options, seed, names, last actions, finished rounds' results and the decision's
    # Legal: the kernel's _CoreBase; a "hand" there is a round here)
    cdef list _records        # each finished round's Rec, as bytes (see _build_result)
    cdef int _nrecords
    cdef tuple _cards         # the deck's Card objects, by id

    _game_type = KesselGame
    _options_type = KesselOptions

    def __init__(self, options=None, *, seed=None, players=4, log=False, stacks=None,
                 pause_between_hands=False):
        cdef int s, n
        global _last_options, _last_opts, _last_cards
        n = self._begin(options, seed, players, stacks, pause_between_hands)
        options = self.options
        seed = self.seed
        self._records = []
        self._nrecords = 0
        if options is _last_options or options == _last_options:  # frozen: reuse the conversion
            memcpy(&self.o, &_last_opts, sizeof(Opts))
        else:
            _read_options(&self.o, options)
            memcpy(&_last_opts, &self.o, sizeof(Opts))
            _last_options = options
            _last_cards = tuple(kessel_deck(options.impostors, options.sylops).cards)
        self._cards = _last_cards
        memset(&self.st, 0, sizeof(State))
        _seed(&self.st.rng, seed)
        self.st.n = n
        for s in range(n):
            self.st.stacks[s] = self.o.chips
        self.st.to_act = -1
        self.st.phase = PH_SETUP
        if self._seating is not None:
            self._seat_stacks()
        g_reset_hand_state(&self.st, &self.o)
        g_start_hand(&self.st, &self.o)

    # ------------------------------------------------------------------ public protocol
    def legal(self):
        """The legal actions in compact form (:class:`~sabacc.engine.betting.Legal`)."""
        if self.st.over or self.st.to_act < 0:
            return NO_ACTIONS
        if self._legal_obj is None:
            self._legal_obj = Legal(tuple(self._fixed_list()))
        return self._legal_obj

    cdef list _fixed_list(self):
        cdef int i
        g_compute_legal(&self.st, &self.o)
        return [_ACTS[self.st.legal[i]] for i in range(self.st.nlegal)]

    def legal_actions(self):
        """Every legal action for ``current_player``."""
        if self.st.over or self.st.to_act < 0:
            return []
        return self._fixed_list()

    def is_legal(self, action):
        cdef int code
        try:
            parsed = parse_kessel_action(action)
        except IllegalActionError:
            return False
        if self.st.over or self.st.to_act < 0:
            return False
        code = _code_of(parsed)
        if code < 0:
            return False
        g_compute_legal(&self.st, &self.o)
        return bool(g_has_legal(&self.st, code))

    def apply(self, action, seat=None):
        """Apply the current player's action and run the game on to the next decision.

        Raises :class:`~sabacc.core.errors.IllegalActionError` (state unchanged) for an illegal or
        malformed action, or when ``seat`` is given and is not the current player.
        """
        cdef int actor, code = -1, i
        cdef State* st = &self.st
        cdef PyObject* ptr = <PyObject*>action
        if seat is None and not st.over and st.to_act >= 0:
            # The fast path: one of the action objects legal_actions() gives, found by identity
            # among the legal codes (legal, so no message to build).
            g_compute_legal(st, &self.o)
            for i in range(st.nlegal):
                if _ACT_PTR[st.legal[i]] == ptr:
                    code = st.legal[i]
                    break
            if code >= 0:
                actor = st.to_act
                self._legal_obj = None
                self._seats.append(actor)
                self._acts.append(action)
                g_perform(st, &self.o, actor, code)
                self._last[actor] = action
                if st.rounds_done != self._nrecords:
                    self._round_ended()
                return None
        cdef object c = _CODE_BY_ID.get(id(action))
        if c is not None and _ACTS[<int>c] is action:  # one of the cached action objects
            code = <int>c
        else:  # text, or an action object to check (parse_kessel_action: both engines alike)
            action = parse_kessel_action(action)
            code = _code_of(action)
        actor = self._actor(seat)
        g_compute_legal(&self.st, &self.o)
        if code < 0 or not g_has_legal(&self.st, code):
            raise IllegalActionError(self._illegal_message(action))
        self._legal_obj = None
        self._seats.append(actor)
        self._acts.append(action)
        g_perform(&self.st, &self.o, actor, code)
        self._last[actor] = action
        if self.st.rounds_done != self._nrecords:
            self._round_ended()
        return None

    cdef void _round_ended(self) except *:
        """Log the round the last action ended; then a held table's pause or table changes
        (the kernel's ``_hand_ended``), or the new round's last actions start empty."""
        self._records.append((<char*>&self.st.rec)[:sizeof(Rec)])
        self._nrecords += 1
        if self.st.phase == PH_BETWEEN:
            self._hand_ended()
        elif not self.st.over:
            self._last = [None] * self.st.n

    cdef str _illegal_message(self, object action):
        """The reference engine's message (KesselGame._illegal_message)."""
        legal = self.legal()
        actor = self.st.to_act
        message = illegal_message(action, legal, _PHASES[self.st.phase], self.names[actor])
        reason = None
        if type(action) is PlayToken:
            reason = self._token_refusal(actor, action)
        elif type(action) is Draw and self.st.phase == PH_TURN:
            if self.st.must_stand:
                reason = "an Embargo is on you: you must stand this turn"
            elif self.st.stacks[actor] == 0 and not self.st.free_draw:
                reason = "you have no chips left: you must stand"
        if reason is None:
            return message
        return f"{reason}; " + message.split("; ", 1)[1]

    cdef object _token_refusal(self, int seat, object action):
        name, target = action.token, action.target
        if self.st.phase != PH_TURN:
            return "a token is played at the start of your turn, before you stand or draw"
        left = self._tokens_left(seat)
        if name in self._tokens_used(seat) and name not in left:
            return f"you have already played {name} (each token is played once per game)"
        if name not in left:
            return f"you do not hold {name}"
        if self.st.token_now:
            return "you have played a token this turn already (one per turn)"
        if name not in TARGETED:
            return f"{name} takes no target" if target is not None else None
        order = self.order
        if target is None:
            return f"{name} needs a target seat, e.g. 'token {name} {order[len(order) - 1]}'"
        if target == seat or target not in order:
            return f"seat {target} is not another player in this round"
        if self.st.immune[<int>target]:
            return f"{self.names[target]} is immune to other players' tokens this round"
        if name == "target_audit" and not self.st.stood[<int>target]:
            return f"{self.names[target]} has not stood this round (Target Audit needs that)"
        return None

    cdef long long _buy_in(self) noexcept:
        """Each seat's starting stack (``payoffs`` is the stack less this)."""
        return self.o.chips

    def clone(self, *, reseed=None, log=None):
        """An independent copy; ``reseed`` gives it a fresh RNG seeded with that int instead of
        continuing this game's stream."""
        cdef KesselCore new = KesselCore.__new__(KesselCore)
        memcpy(&new.st, &self.st, sizeof(State))
        memcpy(&new.o, &self.o, sizeof(Opts))
        new._copy_logs(self.options, self.seed, self.names, self._seats, self._acts, self._last,
                       self._results)
        new._records = list(self._records)
        new._nrecords = self._nrecords
        new._cards = self._cards
        new._legal_obj = self._legal_obj
        if self._seating is not None:
            new._seating = self._seating.copy()
        if reseed is not None:
            _seed(&new.st.rng, reseed)
        return new

    def __reduce__(self):
        """Pickling (process pools, ``copy.deepcopy``): the C state as bytes, with the logs."""
        return (_restore, (
            (<char*>&self.st)[:sizeof(State)], self.options, self.seed, self.names,
            self._seats, self._acts, self._last, self._records, self._results, self._seating,
        ))

    def total_credits(self):
        """Stacks plus every pot plus the chips lost: constant through a game (conservation)."""
        return sum(self.stacks) + self.pot_total() + self.st.house

    def pot_total(self):
        return sum(self.committed)

    # ------------------------------------------------------------------ state, read-only copies
    @property
    def folded(self):
        return [False] * self.st.n

    @property
    def acted(self):
        return [False] * self.st.n

    @property
    def round_bet(self):
        return [0] * self.st.n

    @property
    def dealer(self):
        return self.st.dealer

    @property
    def orbit_steps(self):
        return 0

    @property
    def phase(self):
        return _PHASES[self.st.phase]

    @property
    def cur_bet(self):
        return 0

    @property
    def raises(self):
        return 0

    @property
    def dead(self):
        return 0

    @property
    def sabacc_pot(self):
        return 0

    @property
    def carry(self):
        return 0

    @property
    def house(self):
        return self.st.house

    @property
    def bet_unit(self):
        return 1

    @property
    def rounds(self):
        return None  # as the reference engine: Kessel's rounds are not betting rounds

    @property
    def hands(self):
        cards = self._cards
        return [
            [cards[self.st.hand[s][i]] for i in range(self.st.hlen[s])] for s in range(self.st.n)
        ]

    cdef set _mask_set(self, uint64_t mask):
        cdef int i
        return {i for i in range(self.o.ncards) if (mask >> i) & 1}

    @property
    def public_ids(self):
        return [self._mask_set(self.st.pub[s]) for s in range(self.st.n)]

    @property
    def seen(self):
        return [self._mask_set(self.st.seen[s]) for s in range(self.st.n)]

    cdef tuple _codes(self, int p):
        """The codes of pile ``p``'s cards, bottom first."""
        cdef int i
        cards = self._cards
        return tuple([cards[self.st.pile[p][i]].code for i in range(self.st.plen[p])])

    cdef list _pile(self, int p):
        cdef int i
        cards = self._cards
        return [cards[self.st.pile[p][i]] for i in range(self.st.plen[p])]

    @property
    def sand_draw(self):
        return self._pile(P_SAND_DRAW)

    @property
    def blood_draw(self):
        return self._pile(P_BLOOD_DRAW)

    @property
    def sand_discard(self):
        return self._pile(P_SAND_DISCARD)

    @property
    def blood_discard(self):
        return self._pile(P_BLOOD_DISCARD)

    @property
    def drawn(self):
        return [] if self.st.drawn < 0 else [self._cards[self.st.drawn]]

    @property
    def drawn_from(self):
        return None if self.st.drawn_from < 0 else DRAW_SOURCES[self.st.drawn_from]

    @property
    def order(self):
        return [self.st.order[i] for i in range(self.st.norder)]

    @property
    def pos(self):
        return self.st.pos

    @property
    def turn(self):
        return self.st.turn

    @property
    def stood(self):
        return [bool(self.st.stood[s]) for s in range(self.st.n)]

    @property
    def stood_now(self):
        return [bool(self.st.stood_now[s]) for s in range(self.st.n)]

    @property
    def embargoed(self):
        return [bool(self.st.embargoed[s]) for s in range(self.st.n)]

    @property
    def immune(self):
        return [bool(self.st.immune[s]) for s in range(self.st.n)]

    @property
    def must_stand(self):
        return bool(self.st.must_stand)

    @property
    def token_now(self):
        return bool(self.st.token_now)

    @property
    def free_draw(self):
        return bool(self.st.free_draw)

    @property
    def rules(self):
        r = self.st.rules
        return Rules(bool(r[0]), bool(r[1]), bool(r[2]), r[3] if r[3] else None)

    @property
    def chosen(self):
        cdef int i
        return {i: self.st.chosen[i] for i in range(self.o.ncards) if self.st.chosen[i]}

    @property
    def pending(self):
        cdef int i
        return [(self.st.pend_seat[i], self.st.pend_card[i]) for i in range(self.st.npend)]

    @property
    def dice(self):
        return (self.st.dice0, self.st.dice1) if self.st.has_dice else None

    @property
    def end_reason(self):
        return _REASONS[self.st.end_reason]

    cdef list _tokens_left(self, int s):
        cdef int i
        return [TOKENS[self.st.tleft[s][i]] for i in range(self.st.ntleft[s])]

    cdef list _tokens_used(self, int s):
        cdef int i
        return [TOKENS[self.st.tused[s][i]] for i in range(self.st.ntused[s])]

    @property
    def tokens_left(self):
        return [self._tokens_left(s) for s in range(self.st.n)]

    @property
    def tokens_used(self):
        return [self._tokens_used(s) for s in range(self.st.n)]

    @property
    def rng(self):
        """A ``random.Random`` in this game's RNG state (a copy: drawing from it changes
        nothing here), as the reference engine's ``rng`` would be."""
        cdef int i
        words = tuple([self.st.rng.mt[i] for i in range(624)]) + (self.st.rng.mti,)
        r = _random.Random()
        r.setstate((3, words, None))
        return r

    @property
    def last_action(self):
        return [None if a is None else str(a) for a in self._last]

    def card_locations(self):
        """Every card of the deck, wherever it is now: the hands, then the piles."""
        cards = [c for h in self.hands for c in h]
        for p in range(4):
            cards.extend(self._pile(p))
        cards.extend(self.drawn)
        return cards

    def pots(self):
        """Each player's round pot, which only that player can win back."""
        return [Pot(self.st.committed[s], (s,)) for s in self.order]

    def evaluate(self, cards):
        """The value of a hand under this round's token rules and Impostor choices."""
        return hand_value(list(cards), self.rules, self.chosen)

    # ------------------------------------------------------------------ hand results
    cdef object _build_result(self, bytes data):
        cdef Rec r
        cdef int i
        memcpy(&r, <char*>data, sizeof(Rec))
        k = r.norder
        hand, dealer, reason = r.hand_no, r.dealer, r.reason
        order = [r.order[i] for i in range(k)]
        cards = [(r.cards[i][0], r.cards[i][1]) for i in range(k)]
        dice = [(r.dice[i][0], r.dice[i][1]) for i in range(k)]
        pots = [r.pot[i] for i in range(k)]
        pens = [r.pen[i] for i in range(k)]
        net = tuple([r.net[i] for i in range(self.st.n)])
        rules = (r.rules[0], r.rules[1], r.rules[2], r.rules[3])
        deck = self._cards
        rule = Rules(bool(rules[0]), bool(rules[1]), bool(rules[2]), rules[3] if rules[3] else None)
        results = []
        hands = {}
        for i, s in enumerate(order):
            held = [deck[c] for c in cards[i]]
            chosen = {c: d for c, d in zip(cards[i], dice[i]) if d}
            hands[s] = (tuple(c.code for c in held), hand_value(held, rule, chosen))
            pot = pots[i]
            if pens[i] < 0:
                shares = tuple(split_amount(pot, [s]))
                results.append(PotResult(f"round {s}", pot, (s,), shares, "own pot back"))
            else:
                results.append(PotResult(f"round {s}", pot, (), (), f"lost; penalty {pens[i]}"))
        return HandResult(hand, dealer, _REASONS[reason], tuple(results), hands, {}, net)

    @property
    def hand_results(self):
        """The reference engine's ``HandResult`` of every finished round (built on first use)."""
        while len(self._results) < len(self._records):
            self._results.append(self._build_result(self._records[len(self._results)]))
        return list(self._results)

    @property
    def hand_nets(self):
        return [(r.hand, r.dealer, r.reason, r.net) for r in self.hand_results]

    # ------------------------------------------------------------------ observation
    cdef str _status(self, int s):
        if self.st.out[s]:
            return "out"
        if not self.st.in_hand[s]:
            return "waiting"
        return "all_in" if self.st.stacks[s] == 0 else "active"

    cdef list _known(self, object viewer, int s):
        cdef uint64_t known = self.st.pub[s]
        cdef int i
        if viewer is not None and viewer != s:
            known |= self.st.seen[<int>viewer]
        cards = self._cards
        return [
            cards[self.st.hand[s][i]]
            for i in range(self.st.hlen[s])
            if (known >> self.st.hand[s][i]) & 1
        ]

    cdef list _hand(self, int s):
        cdef int i
        return [self._cards[self.st.hand[s][i]] for i in range(self.st.hlen[s])]

    cdef tuple _values(self):
        """:func:`sabacc.variants.kessel.rules.kessel_part`'s values (the snapshot's ``part``,
        as :meth:`KesselGame._observation_values` gives them)."""
        cdef State* st = &self.st
        cdef int n = st.n, s, i
        cards = self._cards
        r = st.rules
        return (
            st.turn, self.o.turns, self._codes(P_SAND_DISCARD), self._codes(P_BLOOD_DISCARD), st.plen[P_SAND_DRAW], st.plen[P_BLOOD_DRAW],
            None if st.drawn < 0 else cards[st.drawn],
            None if st.drawn_from < 0 else DRAW_SOURCES[st.drawn_from],
            None if st.to_act < 0 else st.to_act, bool(st.free_draw),
            Rules(bool(r[0]), bool(r[1]), bool(r[2]), r[3] if r[3] else None),
            (st.dice0, st.dice1) if st.has_dice else None,
            tuple([st.order[i] for i in range(st.norder)]),
            tuple([(i, st.chosen[i]) for i in range(self.o.ncards) if st.chosen[i]]),
            st.house,
            tuple([tuple(self._tokens_left(s)) for s in range(n)]),
            tuple([tuple(self._tokens_used(s)) for s in range(n)]),
            tuple([bool(st.stood[s]) for s in range(n)]),
            tuple([bool(st.immune[s]) for s in range(n)]),
            tuple([
                bool(st.embargoed[s]) or (s == st.to_act and bool(st.must_stand))
                for s in range(n)
            ]),
        )

    cdef tuple _shown(self, int s, uint64_t known):
        """Seat ``s``'s cards whose bit is set in ``known``, in hand order."""
        cdef int i
        cards = self._cards
        return tuple([
            cards[self.st.hand[s][i]]
            for i in range(self.st.hlen[s])
            if (known >> self.st.hand[s][i]) & 1
        ])

    def observation(self, seat):
        """The reference engine's observation (KesselGame.observation): the one builder's
        (:func:`sabacc.engine.observe.observe`) from :meth:`observation_snapshot`."""
        seat = check_viewer(seat, self.st.n)
        snap = self.observation_snapshot()
        return observe(snap, self._observation_part(), seat, self._kept_rows(snap))

    def observations(self, viewers):
        """``{viewer: observation(viewer)}`` for several viewers (as Game.observations)."""
        n = self.st.n
        wanted = [check_viewer(v, n) for v in viewers]
        return observe_many(self.observation_snapshot(), self._observation_part(), wanted)

    def observation_snapshot(self):
        """This state's :class:`~sabacc.engine.observe.ObservationSnapshot`, equal to the
        reference engine's in the same state."""
        cdef State* st = &self.st
        cdef int n = st.n, s
        cdef bint any_seen = False
        snap = self._cached_snapshot()
        if snap is not None:
            return snap
        for s in range(n):
            if st.seen[s]:
                any_seen = True
        seen = (
            tuple([frozenset(self._mask_set(st.seen[s])) for s in range(n)]) if any_seen else ()
        )
        results = self.hand_results if self._records else None
        return self._keep_snapshot(ObservationSnapshot(
            "kessel", self.options, tuple(self.names), st.hand_no, _PHASES[st.phase],
            st.dealer, self.current_player, bool(st.over),
            tuple([st.stacks[s] for s in range(n)]),
            tuple([st.committed[s] for s in range(n)]),
            (0,) * n,
            tuple([self._status(s) for s in range(n)]),
            tuple(self.last_action),
            tuple([tuple(self._hand(s)) for s in range(n)]),
            tuple([self._shown(s, st.pub[s]) for s in range(n)]),
            seen, self.pot_total(), 0, tuple(self.pots()), 0, "none", 1,
            self.legal(), results[len(results) - 1] if results else None,
            self.outcome if st.over else None, self._values(),
        ))

    cdef object _seat_part(self, int seat):
        """``kessel_part`` for ``seat``: from this state's snapshot when one was made (a table
        asks the observations and the seat views of one state), else from the C state."""
        snap = self._cached_snapshot()
        if snap is not None:
            return kessel_part(snap.part, snap.hands, snap.dealer, snap.phase, seat)
        return kessel_part(self._values(), self.hands, self.st.dealer, _PHASES[self.st.phase],
                           seat)

    def seat_view(self, int seat):
        """What :meth:`observation` shows ``seat`` for the RL encoder (Game.seat_view)."""
        cdef int n = self.st.n, k, s, status
        if not 0 <= seat < n:
            raise IndexError(f"no seat {seat} at a {n}-seat table")
        last = self.last_action
        rows = []
        for k in range(n):
            s = (seat + k) % n
            if self.st.out[s]:
                status = 4
            elif not self.st.in_hand[s]:
                status = 3
            elif self.st.stacks[s] == 0:
                status = 1
            else:
                status = 0
            known = self._known(seat, s)
            rows.append((
                self.st.stacks[s], self.st.committed[s], 0, self.st.hlen[s], status, last[s],
                bytes([c.id for c in known]) if known else b"",
            ))
        own = self._hand(seat)
        dice = (self.st.dice0, self.st.dice1) if self.st.has_dice else None
        total = shown_value(own, self.rules, tuple(self.chosen.items()), _PHASES[self.st.phase],
                            dice, self.current_player == seat).total if len(own) == 2 else 0
        return (
            _PHASES[self.st.phase],
            self.pot_total(),
            0,
            0,
            (self.st.dealer - seat + n) % n,
            bytes([c.id for c in own]),
            total,
            tuple(rows),
            kessel_extra(self._seat_part(seat), seat, n),
        )

    def full_state(self):
        """Every hidden card too (KesselGame.full_state): for debugging and tests only."""
        cdef int i
        st = self.st
        return {
            "hands": [[c.code for c in h] for h in self.hands],
            "sand_draw": [c.code for c in self.sand_draw],
            "blood_draw": [c.code for c in self.blood_draw],
            "sand_discard": [c.code for c in self.sand_discard],
            "blood_discard": [c.code for c in self.blood_discard],
            "drawn": [c.code for c in self.drawn],
            "tokens_left": self.tokens_left,
            "seen": [sorted(k) for k in self.seen],
            "state": [
                self.st.pos,
                self.st.turn,
                self.stood,
                self.stood_now,
                self.embargoed,
                bool(self.st.must_stand),
                bool(self.st.token_now),
                self.pending,
                sorted(self.chosen.items()),
            ],
            "observation": self.observation(None),
        }

    # ------------------------------------------------------------------ from a reference game
    @staticmethod
    def from_game(game):
        """A core in exactly the state of the reference ``KesselGame`` (its RNG's state too), so
        that it goes on as the game would: what search bots sample their worlds from."""
        cdef KesselCore new = KesselCore.__new__(KesselCore)
        cdef State* st = &new.st
        cdef int s, i, p
        if not isinstance(game, KesselGame):
            raise OptionError("KesselCore.from_game takes a KesselGame")
        version, words, _gauss = game.rng.getstate()
        options = game.options
        new.options = options
        new.seed = game.seed
        new.names = list(game.names)
        _read_options(&new.o, options)
        new._cards = tuple(kessel_deck(options.impostors, options.sylops).cards)
        memset(st, 0, sizeof(State))
        for i in range(624):
            st.rng.mt[i] = words[i]
        st.rng.mti = words[624]
        n = game.n
        st.n = n
        for s in range(n):
            st.stacks[s] = game.stacks[s]
            st.committed[s] = game.committed[s]
            st.hand_start[s] = game.hand_start_stacks[s]
            st.out[s] = game.out[s]
            st.in_hand[s] = game.in_hand[s]
            st.hlen[s] = len(game.hands[s])
            for i in range(st.hlen[s]):
                st.hand[s][i] = game.hands[s][i].id
            st.pub[s] = _mask(game.public_ids[s])
            st.seen[s] = _mask(game.seen[s])
            st.stood[s] = game.stood[s]
            st.stood_now[s] = game.stood_now[s]
            st.embargoed[s] = game.embargoed[s]
            st.immune[s] = game.immune[s]
            st.ntleft[s] = len(game.tokens_left[s])
            for i, name in enumerate(game.tokens_left[s]):
                st.tleft[s][i] = _TOKEN_INDEX[name]
            st.ntused[s] = len(game.tokens_used[s])
            for i, name in enumerate(game.tokens_used[s]):
                st.tused[s][i] = _TOKEN_INDEX[name]
        st.hand_no = game.hand_no
        st.dealer = game.dealer
        st.house = game.house
        st.to_act = -1 if game.to_act is None else game.to_act
        st.phase = _PHASES.index(game.phase)
        st.over = game.over
        for p, pile in enumerate((game.sand_draw, game.blood_draw, game.sand_discard,
                                  game.blood_discard)):
            st.plen[p] = len(pile)
            for i in range(len(pile)):
                st.pile[p][i] = pile[i].id
        st.drawn = game.drawn[0].id if game.drawn else -1
        st.drawn_from = -1 if game.drawn_from is None else DRAW_SOURCES.index(game.drawn_from)
        st.norder = len(game.order)
        for i in range(st.norder):
            st.order[i] = game.order[i]
        st.pos = game.pos
        st.turn = game.turn
        st.must_stand = game.must_stand
        st.token_now = game.token_now
        st.free_draw = game.free_draw
        rules = game.rules
        st.rules[0] = rules.major_fraud
        st.rules[1] = rules.markdown
        st.rules[2] = rules.cook_the_books
        st.rules[3] = rules.prime or 0
        for card, die in game.chosen.items():
            st.chosen[card] = die
        st.npend = len(game.pending)
        for i in range(st.npend):
            st.pend_seat[i] = game.pending[i][0]
            st.pend_card[i] = game.pending[i][1]
        st.has_dice = game.dice is not None
        if game.dice is not None:
            st.dice0, st.dice1 = game.dice
        st.end_reason = _REASONS.index(game.end_reason)
        new._seats = [seat for seat, _ in game.actions]
        new._acts = [parse_kessel_action(text) for _, text in game.actions]
        new._last = [None if t is None else parse_kessel_action(t) for t in game.last_action]
        new._results = list(game.hand_results)
        new._records = [None] * len(new._results)  # their HandResults are in _results already
        new._nrecords = len(new._results)
        st.rounds_done = new._nrecords
        new._legal_obj = None
        new._copy_seating(game._seating)
        return new

    # ------------------------------------------------------------------ search
    def determinize(self, int viewer, rng):
        """As KesselGame.determinize: the same RNG calls, the same world."""
        cdef KesselCore new = self.clone(reseed=rng.getrandbits(64))
        cdef State* st = &new.st
        cdef uint64_t known = st.seen[viewer]
        cdef int s, i, c, p, fam
        # Hidden places, in the reference's order: (kind, a, b) with kind 0 a hand (seat, index),
        # 1 a draw pile (pile, index), 2 the drawn card; and each place's family.
        places = []
        for s in range(st.n):
            if s == viewer:
                continue
            for i in range(st.hlen[s]):
                c = st.hand[s][i]
                if not (st.pub[s] >> c) & 1 and not (known >> c) & 1:
                    places.append((0, s, i, i))
        for p in (P_SAND_DRAW, P_BLOOD_DRAW):
            for i in range(st.plen[p]):
                c = st.pile[p][i]
                if not (known >> c) & 1:
                    places.append((1, p, i, p))
        if st.drawn >= 0 and st.to_act != viewer and st.drawn_from < 2:
            places.append((2, 0, 0, st.drawn_from % 2))
        unseen = []
        for kind, a, b, _ in places:
            if kind == 0:
                unseen.append(st.hand[a][b])
            elif kind == 1:
                unseen.append(st.pile[a][b])
            else:
                unseen.append(st.drawn)
        for fam in range(2):
            mine = [pl for pl in places if pl[3] == fam]
            ids = sorted(c for c in unseen if g_suit(&new.o, c) == fam)
            rng.shuffle(ids)
            for (kind, a, b, _), c in zip(mine, ids, strict=True):
                if kind == 0:
                    st.hand[a][b] = c
                elif kind == 1:
                    st.pile[a][b] = c
                else:
                    st.drawn = c
        if new.o.tok_mode == TM_DRAFT:
            for s in range(st.n):
                if s != viewer and st.ntleft[s]:
                    used = new._tokens_used(s)
                    pool = [t for t in TOKENS if t not in used]
                    picked = rng.sample(pool, st.ntleft[s])
                    for i, name in enumerate(picked):
                        st.tleft[s][i] = _TOKEN_INDEX[name]
        st.legal_ok = 0
        new._legal_obj = None
        return new


cdef uint64_t _mask(object ids) except? 0:
    cdef uint64_t m = 0
    for i in ids:
        m |= (<uint64_t>1) << <int>i
    return m


def _restore(bytes state, options, seed, names, seats, acts, last, records, results,
             seating=None):
    cdef KesselCore new = KesselCore.__new__(KesselCore)
    memcpy(&new.st, <char*>state, sizeof(State))
    _read_options(&new.o, options)
    new._copy_logs(options, seed, names, seats, acts, last, results)
    new._records = list(records)
    new._nrecords = len(records)
    new._cards = tuple(kessel_deck(options.impostors, options.sylops).cards)
    new.st.legal_ok = 0
    if seating is not None:
        new._seating = seating.copy()
    return new


def sample_indices(seed, int n, int k):
    """``random.Random(seed).sample(range(n), k)`` drawn by the core's C port (for tests)."""
    cdef MT r
    cdef int out[64]
    cdef int i
    if not 0 <= k <= n <= 64:
        raise ValueError("0 <= k <= n <= 64")
    mt_seed(&r, &_MT_BASE, seed)
    mt_sample_indices(&r, n, k, out)
    return [out[i] for i in range(k)]


def random_games_in_c(options, int players, int games, int first_seed=0):
    """``games`` whole random-play games played entirely in C (seeds ``first_seed``...; uniform
    choices from a second Mersenne Twister seeded 1): returns (actions, rounds). What the rules
    cost without the Python protocol calls (benchmarks/bench_engine.py's loop adds those)."""
    cdef State st
    cdef Opts o
    cdef MT pick
    cdef long long actions = 0, rounds = 0
    cdef int g, s
    _read_options(&o, KesselOptions.from_mapping(options or {}))
    _seed(&pick, 1)
    for g in range(games):
        memset(&st, 0, sizeof(State))
        _seed(&st.rng, first_seed + g)
        st.n = players
        for s in range(players):
            st.stacks[s] = o.chips
        st.to_act = -1
        g_reset_hand_state(&st, &o)
        with nogil:
            g_start_hand(&st, &o)
            while not st.over:
                g_compute_legal(&st, &o)
                g_perform(&st, &o, st.to_act, st.legal[mt_below(&pick, <uint32_t>st.nlegal)])
                actions += 1
        rounds += st.hand_no
    return actions, rounds


# ------------------------------------------------------------------ search worlds
# What Kessel's determinised search (variants/kessel/search.py, the ``ismcts`` bot) plays on: a
# round in the core's own State, stepped by the core's own rules (g_compute_legal, g_perform),
# never a copy of the round. Apart from the rest of the core so that it reads as one piece.

#: The round's ranking rules as a Rules object, by _rules_index (the search's heuristic reads
#: them; built once, not per decision).
cdef tuple _RULES_BY_INDEX = tuple(
    Rules(bool(i & 1), bool(i & 2), bool(i & 4), (i >> 3) or None) for i in range(64)
)
cdef tuple _FAMS = ("s", "b")
DEF SEARCH_MAX_STEPS = 400  # a rollout ends with its round; this bounds a runaway one


cdef inline int _rules_index(State* st) noexcept nogil:
    return st.rules[0] | (st.rules[1] << 1) | (st.rules[2] << 2) | (st.rules[3] << 3)


cdef inline void _seed_u64(MT* r, uint64_t v) noexcept nogil:
    """``random.Random(v)`` for a seed below 2**64 (the search's seeds: getrandbits(64))."""
    cdef uint32_t key[2]
    key[0] = <uint32_t>v
    key[1] = <uint32_t>(v >> 32)
    mt_init_by_array(r, &_MT_BASE, key, 2 if key[1] else 1)


cdef inline object _top_kind(State* st, Opts* o, int p):
    return o.val[st.pile[p][st.plen[p] - 1]] if st.plen[p] else None


cdef class KesselSearchWorld:
    """One seat's view of a Kessel round for search: the round in the core's C state, its
    rollouts stepped by the core's rules, its rollout policy a heuristic given as plain calls.

    ``KesselSearchWorld(game, viewer, policy)`` copies ``game`` (a ``KesselGame`` or a
    ``KesselCore`` in a round: phase ``turn``, ``draw``, ``impostor`` or ``prime``) as
    ``viewer`` is to imagine it; :meth:`sample` deals what ``viewer`` has not seen anew (each
    family within itself, and under the ``draft`` the other players' unplayed tokens),
    making the calls of the reference's ``search_sampler`` on the caller's ``rng``.
    :meth:`rollout` plays an action and the rest of the round by the policy for every seat on
    a copy whose RNG is ``random.Random(seed)``: the dice and reshuffles of a reference game
    cloned with ``reseed=seed``. The round ends at the payout (the world's game has one round
    left to play), and a world never starts another.

    ``policy`` is three callables on plain values (``sabacc.variants.kessel.search.POLICY``):
    ``card(a, b, sand_top, blood_top, drawn, drawn_fam, pot, k, rules, counts, free, mask)``
    gives ``(action, score, stand)`` (``kessel.bot.best_card_action``); ``token(situation,
    tokens, order, score, stand)`` a token action or None; ``choose(situation, legal)`` the
    action at a die choice; ``situation`` is the tuple of ``kessel.bot.Situation``'s fields.
    """

    cdef State st
    cdef Opts o
    cdef int viewer
    cdef object card_fn
    cdef object token_fn
    cdef object choose_fn
    cdef tuple counts
    cdef object options
    cdef list places      # per family: [(kind, a, b)]: 0 a hand (seat, index), 1 a draw pile
                          # (pile, index), 2 the drawn card; the reference sampler's order
    cdef list ids         # per family: the unseen cards, sorted by (kind, id)
    cdef list secret      # (seat, count, pool of token names) of hidden unplayed tokens

    def __init__(self, game, int viewer, policy):
        cdef KesselCore core
        cdef State* st = &self.st
        cdef int s, i, c, p, fam
        cdef uint64_t known
        if isinstance(game, KesselCore):
            core = game
        else:
            core = KesselCore.from_game(game)
        memcpy(&self.st, &core.st, sizeof(State))
        memcpy(&self.o, &core.o, sizeof(Opts))
        if st.over or st.to_act < 0 or not PH_TURN <= st.phase <= PH_PRIME:
            raise OptionError("a search world is made from a game in a round")
        if not 0 <= viewer < st.n:
            raise IndexError(f"no seat {viewer!r} at this {st.n}-seat table")
        self.o.hand_limit = st.hand_no  # after this round's payout the world's game is over
        st.hold = 0  # nor does a custom table's pause or seat change stop it before that
        self.viewer = viewer
        self.card_fn, self.token_fn, self.choose_fn = policy
        self.options = core.options
        self.counts = (3, 3, 3, 3, 3, 3, self.options.impostors, self.options.sylops)
        known = st.seen[viewer]
        self.places = [[], []]
        self.ids = [[], []]
        for fam in range(2):
            where = self.places[fam]
            unseen = []
            for s in range(st.n):
                if s == viewer or not st.hlen[s]:
                    continue
                c = st.hand[s][fam]
                if not (st.pub[s] >> c) & 1 and not (known >> c) & 1:
                    where.append((0, s, fam))
                    unseen.append(c)
            for i in range(st.plen[fam]):
                where.append((1, fam, i))
                unseen.append(st.pile[fam][i])
            if st.drawn >= 0 and st.to_act != viewer and st.drawn_from < 2 and st.drawn_from == fam:
                where.append((2, 0, 0))
                unseen.append(st.drawn)
            self.ids[fam] = [card for _, card in sorted([(self.o.val[c], c) for c in unseen])]
        self.secret = []
        if self.o.tok_mode == TM_DRAFT:
            for s in range(st.n):
                if s != viewer and st.ntleft[s]:
                    used = {st.tused[s][i] for i in range(st.ntused[s])}
                    pool = [name for t, name in enumerate(TOKENS) if t not in used]
                    self.secret.append((s, st.ntleft[s], pool))
        st.legal_ok = 0

    def sample(self, rng):
        """A world as the viewer might imagine it: the unseen cards dealt anew from ``rng``
        (a ``random.Random``), with the calls of the reference sampler: ``getrandbits(64)``,
        one ``shuffle`` per family, one ``sample`` per player's hidden tokens."""
        cdef KesselSearchWorld w = KesselSearchWorld.__new__(KesselSearchWorld)
        cdef int fam, kind, a, b, i
        memcpy(&w.st, &self.st, sizeof(State))
        memcpy(&w.o, &self.o, sizeof(Opts))
        w.viewer = self.viewer
        w.card_fn, w.token_fn, w.choose_fn = self.card_fn, self.token_fn, self.choose_fn
        w.counts = self.counts
        w.options = self.options
        w.places, w.ids, w.secret = self.places, self.ids, self.secret
        rng.getrandbits(64)  # the reference sampler's world seed (its rollouts seed their own)
        for fam in range(2):
            cards = list(self.ids[fam])
            rng.shuffle(cards)
            for (kind, a, b), card in zip(self.places[fam], cards):
                if kind == 0:
                    w.st.hand[a][b] = card
                elif kind == 1:
                    w.st.pile[a][b] = card
                else:
                    w.st.drawn = card
        for s, count, pool in self.secret:
            for i, name in enumerate(rng.sample(pool, count)):
                w.st.tleft[<int>s][i] = _TOKEN_INDEX[name]
        w.st.legal_ok = 0
        return w

    # ------------------------------------------------------------------ the rollout policy
    cdef tuple _situation(self, State* st, int seat):
        """``kessel.bot.Situation``'s fields for ``seat``: its own cards (an Impostor with a
        chosen die as that value), the discard tops, the card it drew, chips, the rules and
        the public token facts."""
        cdef Opts* o = &self.o
        cdef int n = st.n, s, i, ca = st.hand[seat][0], cb = st.hand[seat][1]
        mine = st.drawn >= 0 and st.to_act == seat
        return (
            seat,
            st.chosen[ca] if st.chosen[ca] else o.val[ca],
            st.chosen[cb] if st.chosen[cb] else o.val[cb],
            _top_kind(st, o, P_SAND_DISCARD),
            _top_kind(st, o, P_BLOOD_DISCARD),
            o.val[st.drawn] if mine else None,
            _FAMS[st.drawn_from & 1] if mine else None,
            [st.stacks[s] for s in range(n)],
            [st.committed[s] for s in range(n)],
            [st.order[i] for i in range(st.norder)],
            _RULES_BY_INDEX[_rules_index(st)],
            self.counts,
            st.turn,
            o.turns,
            [bool(st.stood[s]) for s in range(n)],
            [bool(st.immune[s]) for s in range(n)],
            [st.ntleft[s] for s in range(n)],
            bool(st.free_draw),
        )

    cdef int _policy_code(self, State* st) except -1:
        """The policy's action for the player to act, as its code."""
        cdef Opts* o = &self.o
        cdef int seat = st.to_act, mask = 0, i, c
        g_compute_legal(st, o)
        if st.phase != PH_TURN and st.phase != PH_DRAW:
            legal = [_ACTS[st.legal[i]] for i in range(st.nlegal)]
            return self._checked(st, self.choose_fn(self._situation(st, seat), legal))
        for i in range(st.nlegal):
            c = st.legal[i]
            if c <= A_DISCARD:
                mask |= 1 << c
        draw = st.phase == PH_DRAW
        action, score, stand = self.card_fn(
            o.val[st.hand[seat][0]],
            o.val[st.hand[seat][1]],
            _top_kind(st, o, P_SAND_DISCARD),
            _top_kind(st, o, P_BLOOD_DISCARD),
            o.val[st.drawn] if draw else None,
            _FAMS[st.drawn_from & 1] if draw else None,
            st.committed[seat],
            st.norder - 1 if st.norder > 2 else 1,
            _RULES_BY_INDEX[_rules_index(st)],
            self.counts,
            bool(st.free_draw),
            mask,
        )
        if not draw and not st.token_now and st.ntleft[seat]:
            token = self.token_fn(
                self._situation(st, seat),
                [TOKENS[st.tleft[seat][i]] for i in range(st.ntleft[seat])],
                [st.order[i] for i in range(st.norder)],
                score,
                stand,
            )
            if token is not None:
                action = token
        return self._checked(st, action)

    cdef int _checked(self, State* st, object action) except -1:
        """The code of ``action`` (given, or the policy's), which must be legal: the rules step
        codes unchecked, so a mistake is an error, never a corrupt world."""
        cdef int code = _code_of(action)
        if code < 0 or not g_has_legal(st, code):
            raise IllegalActionError(f"{action} is not legal in this search world")
        return code

    cdef int _code_for(self, State* st, object action) except -1:
        """The code of a legal ``action`` for the player to act (IllegalActionError else)."""
        if st.over or st.to_act < 0:
            raise IllegalActionError(f"{action}: the round in this search world is over")
        g_compute_legal(st, &self.o)
        return self._checked(st, action)

    def rollout(self, int seat, action, seed):
        """Play ``action`` for the player to act, then the rest of the round by the policy for
        every seat, with the dice and reshuffles of ``random.Random(seed)``. Returns ``seat``'s
        chip change from now to the round's payout, and the number of actions played."""
        cdef State w
        cdef int steps = 1, before
        memcpy(&w, &self.st, sizeof(State))
        _seed_u64(&w.rng, <uint64_t>seed)
        before = w.stacks[seat]
        g_perform(&w, &self.o, w.to_act, self._code_for(&w, action))
        while not w.over and steps < SEARCH_MAX_STEPS:
            g_perform(&w, &self.o, w.to_act, self._policy_code(&w))
            steps += 1
        return float(w.stacks[seat] - before), steps

    # ------------------------------------------------------------------ stepping (tests)
    def reseed(self, seed):
        """Draw this world's dice and reshuffles from ``random.Random(seed)`` from now on."""
        _seed_u64(&self.st.rng, <uint64_t>seed)

    def legal_actions(self):
        """The legal actions, in the engine's order ([] once the round is paid out)."""
        cdef int i
        if self.st.over or self.st.to_act < 0:
            return []
        g_compute_legal(&self.st, &self.o)
        return [_ACTS[self.st.legal[i]] for i in range(self.st.nlegal)]

    def apply(self, action):
        """Play a legal ``action`` for the player to act (what a rollout does at each step)."""
        g_perform(&self.st, &self.o, self.st.to_act, self._code_for(&self.st, action))

    def policy_action(self):
        """The policy's action for the player to act (a rollout's step)."""
        return _ACTS[self._policy_code(&self.st)]

    @property
    def round_over(self):
        """Whether the round is paid out (the end of every rollout)."""
        return bool(self.st.over)

    def as_core(self):
        """A ``KesselCore`` in this world's state, without its game's logs (to read its
        fields: ``hands``, ``sand_draw``, ``stacks``... as the engine's attributes)."""
        cdef KesselCore core = KesselCore.__new__(KesselCore)
        memcpy(&core.st, &self.st, sizeof(State))
        memcpy(&core.o, &self.o, sizeof(Opts))
        core._copy_logs(self.options, 0, [f"Player {s + 1}" for s in range(self.st.n)], [], [],
                        [None] * self.st.n, [])
        core._records = []
        core._nrecords = 0
        core._cards = tuple(kessel_deck(self.options.impostors, self.options.sylops).cards)
        core._legal_obj = None
        return core


cdef inline void core_seat_joined(_CoreBase game, int seat) noexcept:
    """A player who sits down between rounds is dealt shift tokens as the others were at the
    start (``KesselGame._seat_joined``)."""
    g_deal_tokens(&(<KesselCore>game).st, &(<KesselCore>game).o, seat)
