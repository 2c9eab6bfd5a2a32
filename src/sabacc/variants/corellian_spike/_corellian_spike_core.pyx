# cython: language_level=3
"""The compiled Corellian Spike engine: the rules of :mod:`sabacc.variants.corellian_spike.rules`
on C arrays, for simulation, search and reinforcement learning.

It is the Spike family's shared core (``sabacc/variants/spike_family/_spike_family.pxi``: the
state, antes, betting, pots, showdown and the Python protocol, on the kernel in
``sabacc/variants/_kernel``) compiled with Corellian Spike's own rules below (the ``r_*``
functions the family file calls where the family's variants differ), and its public class
:class:`SpikeCore`. The batched environment's :class:`SpikeVector` plays the same C rules with
no Python per game.

Same rules, same options, same seeded RNG (a bit-exact port of CPython's Mersenne Twister and
of the reference engine's calls on it), same action objects and the same checks: for a seed and
a list of actions it reaches exactly the state the pure-Python :class:`SpikeGame` reaches, and
its :meth:`SpikeCore.history` replays on it (the tests play both in lockstep). What it leaves
out is the per-event log: ``apply`` returns ``None``; the action log, per-hand nets and the
outcome are kept, and ``sabacc.replay(core.history())`` rebuilds the full event log on demand.
Each hand end also keeps a compact record (pots and their winners, the hands revealed at a
showdown as card ids, what was carried), from which :attr:`SpikeCore.hand_results` builds the
reference engine's :class:`~sabacc.engine.game.HandResult` objects on first use; and
:meth:`SpikeCore.observation` gives the reference engine's JSON observation, so bots and other
front ends can play on the core.

Every action is validated as in the reference engine: an illegal or malformed action raises
:class:`~sabacc.core.errors.IllegalActionError` and leaves the state as it was.
"""

include "sabacc/variants/spike_family/_spike_family.pxi"
include "sabacc/variants/spike_family/_spike_discard_pile.pxi"
include "sabacc/variants/spike_family/_spike_dealer_start.pxi"
include "sabacc/variants/spike_family/_spike_fresh_actions.pxi"
include "sabacc/variants/spike_family/_spike_values.pxi"

from sabacc.variants.corellian_spike.rules import SpikeGame, SpikeOptions
from sabacc.variants.spike_family.snapshot import SpikeSnapshot


# ---------------------------------------------------------------------------------- the rules, in C
# Corellian Spike's rules where the family's differ (the ``r_*`` hooks the family file calls).

cdef inline void r_read_options(Opts* o, object options) except *:
    f_read_card_options(o, options)

cdef inline void r_card_legal(State* st, Opts* o, int s) noexcept nogil:
    """Stand; gain under the hand cap; swap with the discard top or the draw top."""
    cdef long long stack = st.stacks[s]
    cdef bint cd
    g_clear_legal(st)
    if st.phase == PH_CARD:
        cd = g_can_draw(st, o)
        st.can_gain = st.hlen[s] < o.hand_cap and stack >= o.gain_fee and cd
        if stack >= o.swap_fee and st.hlen[s]:
            st.can_swap_discard = st.ndiscard > 0
            st.can_swap_draw = cd

cdef inline long long r_ante(State* st, Opts* o) noexcept nogil:
    return o.ante

cdef inline long long r_hand_ante(State* st, Opts* o) noexcept nogil:
    return o.ante

cdef inline void r_reset_hand(State* st, Opts* o) noexcept nogil:
    pass  # nothing beyond the family's hand state

cdef void r_deal(State* st, Opts* o) noexcept nogil:
    """Two cards each from the dealer's left, the discard pile's first card, the first round."""
    cdef int order[MAXP]
    cdef int k = g_order_from(st, (st.dealer + 1) % st.n, order)
    g_deal_round(st, order, k, 2)
    st.ndraw -= 1
    st.discard[0] = st.draw[st.ndraw]
    st.ndiscard = 1
    st.round = 1
    g_begin_card_phase(st, o)

cdef inline void r_card_act(State* st, Opts* o, int s, int kind, long long arg) noexcept nogil:
    g_gain_or_swap(st, o, s, kind, arg)

cdef inline void r_on_junk(State* st, Opts* o, int s) noexcept nogil:
    pass  # a junked hand is mucked face down, nothing more

cdef inline void r_after_betting(State* st, Opts* o) noexcept nogil:
    g_roll_spike_dice(st, o)
    g_next_round(st, o)

cdef inline void r_after_shift(State* st, Opts* o) noexcept nogil:
    g_flip_discard(st, o)



# ---------------------------------------------------------------------------------- the rules, for Python
# (the hooks SpikeFamilyCore's Python-facing members call)

cdef inline object r_public_text(SpikeFamilyCore self, int s, object action):
    return None  # every action is shown as it is

cdef inline object r_hidden_last(str text):
    return None

cdef list r_card_list(SpikeFamilyCore self):
    cdef list out = [_STAND]
    cdef int seen[21]
    cdef int i, s
    if self.st.can_gain:
        out.append(_GAIN)
    if self.st.can_swap_discard or self.st.can_swap_draw:
        memset(seen, 0, sizeof(seen))
        s = self.st.to_act
        for i in range(self.st.hlen[s]):
            seen[VAL[self.st.hands[s][i]] + 10] = 1
        if self.st.can_swap_discard:
            f_append_values(out, seen, _SWAP_DISCARD)
        if self.st.can_swap_draw:
            f_append_values(out, seen, _SWAP_DRAW)
    return out

cdef bint r_card_contains(SpikeFamilyCore self, object action) except -1:
    cdef State* st = &self.st
    cdef int s = st.to_act
    cdef int form = self._stand_or_gain(action)
    if form >= 0:
        return form
    t = type(action)
    if t is _Swap:
        a = action.value
        if not isinstance(a, int) or isinstance(a, bool) or not -10 <= a <= 10:
            return False
        src = action.source
        if src == "discard":
            if not st.can_swap_discard:
                return False
        elif src == "draw":
            if not st.can_swap_draw:
                return False
        else:
            return False
        return g_holds(st, s, a)
    return False

cdef int r_card_kind(SpikeFamilyCore self, object action, long long* arg) except -1:
    t = type(action)
    if t is _Stand:
        return A_STAND
    if t is _Gain:
        return A_GAIN
    arg[0] = action.value
    return A_SWAP_DISCARD if action.source == "discard" else A_SWAP_DRAW

cdef tuple r_part(_BettingCore self):
    """:func:`sabacc.variants.corellian_spike.rules.spike_extra`'s values."""
    cdef State* st = &self.st
    cdef int i
    return (
        st.round, self.o.rounds, tuple([_CODES[st.discard[i]] for i in range(st.ndiscard)]),
        st.ndraw, st.nmuck, (st.d1, st.d2) if st.d1 else None,
    )

cdef inline object r_view_kind(object action):
    return action.kind

cdef inline tuple r_view_extra(SpikeFamilyCore self, int seat):
    """``(round, rounds, draw size, muck size, last dice doubles, discard ids)``
    (:data:`sabacc.variants.corellian_spike.rules.SPIKE_FEATURES` reads it)."""
    cdef State* st = &self.st
    return (st.round, self.o.rounds, st.ndraw, st.nmuck, st.d1 != 0 and st.d1 == st.d2,
            (<char*>st.discard)[:st.ndiscard])

cdef inline int r_hidden_piles(State* st, int viewer, signed char** places, int k,
                               list cards) noexcept:
    return k  # no pile beyond the draw and the muck is hidden


# ---------------------------------------------------------------------------------- the core
cdef class SpikeCore(SpikeFamilyCore):
    """A game of Corellian Spike on the compiled engine (see the module docstring).

    ``SpikeCore(options, seed=7, players=4)``, or ``sabacc.new_game("spike", engine="compiled")``.
    """

    _game_type = SpikeGame
    _options_type = SpikeOptions

    @staticmethod
    def from_game(game):
        """A compiled copy of a reference :class:`SpikeGame`'s current state, RNG state and
        action log included: it goes on exactly as ``game`` would (for search bots, which
        sample and play out many worlds from one position). Goes through the public seam:
        ``SpikeCore.from_snapshot(game.snapshot())``."""
        cdef SpikeCore new
        if type(game) is not SpikeGame:
            raise OptionError("from_game copies a Corellian Spike game of the reference engine")
        if not game.custom_table:
            return SpikeCore.from_snapshot(game.snapshot())
        new = SpikeCore.__new__(SpikeCore)  # seats a snapshot does not describe: the fields
        _copy_reference(new, game)
        return new

    @staticmethod
    def from_snapshot(snapshot):
        """A core in the state a :class:`~sabacc.variants.spike_family.snapshot.SpikeSnapshot`
        describes (taken from either engine): it goes on exactly as the game it was taken from.
        Raises ``ValueError`` for a snapshot no engine can hold (see ``SpikeSnapshot.validate``).
        """
        cdef SpikeCore new = SpikeCore.__new__(SpikeCore)
        if type(snapshot) is not SpikeSnapshot or type(snapshot.options) is not SpikeOptions:
            raise TypeError("from_snapshot takes a SpikeSnapshot of a Corellian Spike game")
        snapshot.validate()
        _fill_core(new, snapshot, snapshot.rng_state, snapshot.hands, snapshot.draw,
                   snapshot.discard, snapshot.muck)
        return new

    def snapshot(self):
        """This game's whole state as a :class:`~sabacc.variants.spike_family.snapshot.SpikeSnapshot`
        (plain data, RNG state and logs included), which ``SpikeGame.from_snapshot`` and
        :meth:`from_snapshot` rebuild."""
        cdef State* st = &self.st
        cdef int n = st.n, s, i
        return SpikeSnapshot(
            options=self.options,
            seed=self.seed,
            names=tuple(self.names),
            rng_state=tuple([st.rng.mt[i] for i in range(MT_N)] + [st.rng.mti]),
            stacks=tuple([st.stacks[s] for s in range(n)]),
            out=tuple([bool(st.out[s]) for s in range(n)]),
            hand_no=st.hand_no,
            dealer=st.dealer,
            orbit_steps=st.orbit_steps,
            sabacc_pot=st.sabacc_pot,
            carry=st.carry,
            house=st.house,
            to_act=None if st.to_act < 0 else st.to_act,
            phase=_PHASES[st.phase],
            over=bool(st.over),
            hands=tuple([tuple([st.hands[s][i] for i in range(st.hlen[s])]) for s in range(n)]),
            public_ids=tuple([
                frozenset([st.hands[s][i] for i in range(st.hlen[s]) if st.pub[st.hands[s][i]]])
                for s in range(n)
            ]),
            in_hand=tuple([bool(st.in_hand[s]) for s in range(n)]),
            folded=tuple([bool(st.folded[s]) for s in range(n)]),
            acted=tuple([bool(st.acted[s]) for s in range(n)]),
            committed=tuple([st.committed[s] for s in range(n)]),
            round_bet=tuple([st.round_bet[s] for s in range(n)]),
            hand_start_stacks=tuple([st.hand_start[s] for s in range(n)]),
            last_action=tuple(self.last_action),
            dead=st.dead,
            cur_bet=st.cur_bet,
            raises=st.raises,
            draw=tuple([st.draw[i] for i in range(st.ndraw)]),
            discard=tuple([st.discard[i] for i in range(st.ndiscard)]),
            muck=tuple([st.muck[i] for i in range(st.nmuck)]),
            round=st.round,
            card_queue=tuple([st.queue[i] for i in range(st.qpos, st.qlen)]),
            last_dice=(st.d1, st.d2) if st.d1 else None,
            actions=tuple(self.actions),
            hand_results=tuple(self.hand_results),
        )


# observations, rewards and masks into caller-owned buffers. The Python side
# (sabacc.apps.rl.vector.VectorEnv) owns the NumPy arrays, and hands in the observation encoder
# (sabacc.apps.rl.features) and the action table (sabacc.apps.rl.actions), whose layouts are
# read here, so the vectors and indices are those of the scalar environments.

DEF MAXA = 128
DEF PREFETCH_AHEAD = 2  # games ahead whose state the batch loop asks the cache for

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define SABACC_PREFETCH(p) __builtin_prefetch((const void*)(p), 1, 3)
    #else
    #define SABACC_PREFETCH(p) ((void)0)
    #endif
    """
    void SABACC_PREFETCH(const void* p) noexcept nogil
DEF MAXSIZES = 32

ctypedef struct VecCfg:
    int n
    int game_episode    # rewards include the final_pot split at the end of a game
    long long start
    # the action table
    int nact
    int bet_base
    int raise_base
    int nsizes
    signed char act_kind[MAXA]
    signed char act_val[MAXA]
    signed char act_slot[MAXA]  # swaps: value + 10; other kinds: 21 (see vec_mask)
    int size_kind[MAXSIZES]     # 0 min, 1 max, 2 pot fraction, 3 exact credits
    double size_x[MAXSIZES]
    # the observation layout
    int obs_size
    int o_card
    int o_betting
    int o_values
    int o_size
    int o_rank
    int nranks
    int o_pots
    int o_seats
    int per_seat
    int o_round
    int o_top
    int o_pile
    int o_piles
    double buy
    double deck
    double total_scale


cpdef uint64_t next_seed(uint64_t seed) noexcept nogil:
    """The seed of a slot's next episode after one seeded ``seed`` (SplitMix64's output for
    the state ``seed``): ``SpikeVector`` auto-resets a finished game with it."""
    cdef uint64_t z = seed + <uint64_t>0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


def action_code(action):
    """``(kind, value)`` of a Spike action object for :class:`SpikeVector`'s action table."""
    t = type(action)
    if t is _Stand:
        return A_STAND, 0
    if t is _Gain and action.value is None:
        return A_GAIN, 0
    if t is _Swap and action.source in ("discard", "draw"):
        return (A_SWAP_DISCARD if action.source == "discard" else A_SWAP_DRAW), action.value
    if t is _Check:
        return A_CHECK, 0
    if t is _Call:
        return A_CALL, 0
    if t is _Junk:
        return A_JUNK, 0
    raise ValueError(f"{action!r} is not a fixed Corellian Spike action")


cdef void vec_deal(State* st, Opts* o, VecCfg* cfg) noexcept nogil:
    """A fresh game on an RNG just seeded, as ``SpikeCore(options, seed=..., players=n)``
    starts it (the RNG comes first in the State and is kept)."""
    cdef int s
    memset((<char*>st) + sizeof(MT), 0, sizeof(State) - sizeof(MT))
    st.n = cfg.n
    for s in range(cfg.n):
        st.stacks[s] = o.start
    st.to_act = -1
    st.phase = PH_SETUP
    g_reset_hand_state(st, o)
    g_start_hand(st, o)


cdef inline long long vec_amount(VecCfg* cfg, int j, long long lo, long long hi,
                                 long long pot) noexcept nogil:
    """``ActionTable.amount``: the amount of size ``j`` (-1: not legal)."""
    cdef int kind = cfg.size_kind[j]
    cdef long long amt
    if kind == 0:
        return lo
    if kind == 1:
        return hi
    if kind == 2:
        amt = <long long>(cfg.size_x[j] * pot + 0.5)
        return lo if amt < lo else hi if amt > hi else amt
    amt = <long long>cfg.size_x[j]
    return amt if lo <= amt <= hi else -1


cdef bint vec_decode(State* st, Opts* o, VecCfg* cfg, long long idx, int* kind,
                     long long* arg) noexcept nogil:
    """The action of index ``idx`` at the current decision (False: not legal)."""
    cdef int k, s = st.to_act
    cdef long long amt, pot
    cdef bint card = st.phase == PH_CARD
    g_compute_legal(st, o)
    if idx < 0 or idx >= cfg.nact:
        return False
    if idx < cfg.bet_base:
        k = cfg.act_kind[idx]
        kind[0] = k
        arg[0] = cfg.act_val[idx]
        if k == A_STAND:
            return card
        if k == A_GAIN:
            return card and st.can_gain
        if k == A_SWAP_DISCARD:
            return card and st.can_swap_discard and g_holds(st, s, cfg.act_val[idx])
        if k == A_SWAP_DRAW:
            return card and st.can_swap_draw and g_holds(st, s, cfg.act_val[idx])
        if card:
            return False
        if k == A_CHECK:
            return not st.to_call_pos
        if k == A_CALL:
            return st.to_call_pos
        return k == A_JUNK
    pot = g_pot_total(st)
    if idx < cfg.raise_base:
        if not st.bet_hi:
            return False
        amt = vec_amount(cfg, <int>(idx - cfg.bet_base), st.bet_lo, st.bet_hi, pot)
        kind[0] = A_BET
    else:
        if not st.raise_hi:
            return False
        amt = vec_amount(cfg, <int>(idx - cfg.raise_base), st.raise_lo, st.raise_hi,
                         pot + st.cur_bet - st.round_bet[s])
        kind[0] = A_RAISE
    if amt < 0:
        return False
    arg[0] = amt
    return True


cdef void vec_mask(State* st, Opts* o, VecCfg* cfg, signed char* m) noexcept nogil:
    """Write the action mask of the current decision (the legality ``vec_decode`` checks),
    without a branch per index: a fixed index is legal when its kind is and, for a swap, the
    hand holds its value (``act_slot``: the value's slot in ``seen``, or the always-set one)."""
    cdef int i, j, s = st.to_act
    cdef signed char seen[22]
    cdef signed char allow[9]
    cdef bint card = st.phase == PH_CARD
    cdef signed char bet_ok, raise_ok
    g_compute_legal(st, o)
    memset(seen, 0, sizeof(seen))
    seen[21] = 1
    for i in range(st.hlen[s]):
        seen[VAL[st.hands[s][i]] + 10] = 1
    allow[A_STAND] = card
    allow[A_GAIN] = card and st.can_gain
    allow[A_SWAP_DISCARD] = card and st.can_swap_discard
    allow[A_SWAP_DRAW] = card and st.can_swap_draw
    allow[A_CHECK] = not card and not st.to_call_pos
    allow[A_CALL] = not card and st.to_call_pos
    allow[A_JUNK] = not card
    allow[A_BET] = allow[A_RAISE] = 0
    for i in range(cfg.bet_base):
        m[i] = allow[cfg.act_kind[i]] & seen[cfg.act_slot[i]]
    bet_ok = st.bet_hi != 0
    raise_ok = st.raise_hi != 0
    for j in range(cfg.nsizes):
        if cfg.size_kind[j] == 3:
            m[cfg.bet_base + j] = bet_ok and vec_amount(cfg, j, st.bet_lo, st.bet_hi, 0) >= 0
            m[cfg.raise_base + j] = raise_ok and vec_amount(
                cfg, j, st.raise_lo, st.raise_hi, 0) >= 0
        else:
            m[cfg.bet_base + j] = bet_ok
            m[cfg.raise_base + j] = raise_ok


cdef int vec_lowest(VecCfg* cfg, signed char* m) noexcept nogil:
    """The lowest legal index of a mask (the passive action)."""
    cdef int i
    for i in range(cfg.nact):
        if m[i]:
            return i
    return -1


cdef void vec_obs(State* st, Opts* o, VecCfg* cfg, float* f) noexcept nogil:
    """The current player's observation vector: ``ObservationEncoder.encode_view`` of its
    ``seat_view`` (sabacc.apps.rl.features; the same float32 values)."""
    cdef int me = st.to_act, n = st.n, k, s, i, b, la, rank, total = 0
    cdef int per = cfg.per_seat
    cdef signed char c
    cdef long long to_call
    cdef double buy = cfg.buy
    memset(f, 0, cfg.obs_size * sizeof(float))
    if st.phase == PH_CARD:
        f[cfg.o_card] = 1.0
    elif st.phase == PH_BETTING:
        f[cfg.o_betting] = 1.0
    if st.hlen[me]:
        for i in range(st.hlen[me]):
            c = st.hands[me][i]
            f[cfg.o_values + VAL[c] + 10] += 1.0
            total += VAL[c]
        f[cfg.o_size] = st.hlen[me]
        rank = 13 - <int>(strength(st.hands[me], st.hlen[me]) >> 56)
        f[cfg.o_rank + (rank if rank < cfg.nranks else cfg.nranks) - 1] = 1.0
        f[cfg.o_size + 1] = <float>(<double>total / cfg.total_scale)
    b = cfg.o_pots
    f[b] = <float>(<double>g_pot_total(st) / buy)
    f[b + 1] = <float>(<double>st.sabacc_pot / buy)
    f[b + 2] = <float>(<double>st.cur_bet / buy)
    if st.phase == PH_BETTING:
        to_call = st.cur_bet - st.round_bet[me]
        if to_call > 0:
            f[b + 3] = <float>(<double>to_call / buy)
    f[b + 4] = <float>(<double>o.unit / buy)
    b = cfg.o_seats
    f[b + ((st.dealer - me + n) % n) * per + 9] = 1.0
    for k in range(n):
        s = me + k
        if s >= n:
            s -= n
        f[b] = <float>(<double>st.stacks[s] / buy)
        f[b + 1] = <float>(<double>st.committed[s] / buy)
        f[b + 2] = <float>(<double>st.round_bet[s] / buy)
        f[b + 3] = st.hlen[s]
        f[b + 4 + g_seat_status(st, s)] = 1.0
        la = st.last_kind[s]
        if la >= 0:
            f[b + 10 + la] = 1.0
        for i in range(st.hlen[s]):
            c = st.hands[s][i]
            if st.pub[c]:
                f[b + 20 + VAL[c] + 10] += 1.0
        b += per
    f[cfg.o_round] = <float>(<double>st.round / o.rounds)
    if st.round >= o.rounds:
        f[cfg.o_round + 1] = 1.0
    if st.ndiscard:
        f[cfg.o_top + VAL[st.discard[st.ndiscard - 1]] + 10] = 1.0
        for i in range(st.ndiscard):
            f[cfg.o_pile + VAL[st.discard[i]] + 10] += 1.0
    f[cfg.o_piles] = <float>(<double>st.ndraw / cfg.deck)
    f[cfg.o_piles + 1] = <float>(<double>st.nmuck / cfg.deck)
    if st.d1 != 0 and st.d1 == st.d2:
        f[cfg.o_piles + 2] = 1.0


cdef void vec_reseed(State* games, uint64_t* seeds, int* which, int count) noexcept nogil:
    """Seed the RNG of ``games[which[i]]`` with ``seeds[which[i]]``, 16 at a time."""
    cdef MT* rs[SEED_GROUP]
    cdef uint64_t keys[SEED_GROUP]
    cdef int i, g, m
    i = 0
    while i < count:
        m = count - i if count - i < SEED_GROUP else SEED_GROUP
        for g in range(m):
            rs[g] = &games[which[i + g]].rng
            keys[g] = seeds[which[i + g]]
        mt_seed_group(rs, keys, m)
        i += m


cdef class SpikeVector:
    """``num_envs`` heads-up-or-more Corellian Spike games on C arrays, stepped together.

    The engine of :class:`sabacc.apps.rl.vector.VectorEnv` (use that: it owns the NumPy
    buffers, builds the layouts and checks the arguments). ``reset`` and ``step`` take and fill
    C-contiguous buffers (any buffer-protocol object of the right type and shape) and run
    without the GIL: per game, decode the index (an illegal one plays the lowest legal index:
    the passive action), apply it through the same C rules as :class:`SpikeCore`, pay the hand
    nets as rewards, reset a finished game with :func:`next_seed` of its seed, and write the
    next decision's observation, mask and player.
    """

    cdef State* games
    cdef uint64_t* seeds
    cdef long long* paid
    cdef int* which
    cdef Opts o
    cdef VecCfg cfg
    cdef readonly int num_envs
    cdef readonly long long illegal_count
    cdef readonly object options

    def __cinit__(self):
        self.games = NULL
        self.seeds = NULL
        self.paid = NULL
        self.which = NULL

    def __init__(self, int num_envs, options, int players, bint game_episode, table, encoder):
        """``table``: the RL :class:`~sabacc.apps.rl.actions.ActionTable` whose indices
        ``step`` takes; ``encoder``: the :class:`~sabacc.apps.rl.features.ObservationEncoder`
        whose vectors it writes (Spike's layout: its block offsets are read here)."""
        cdef VecCfg* cfg = &self.cfg
        cdef int i
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if type(options) is not SpikeOptions:
            raise OptionError("SpikeVector takes SpikeOptions")
        SpikeCore(options, seed=0, players=players)  # the reference checks: players, buy-in
        if tuple(encoder.values) != tuple(range(-10, 11)) or encoder.n != players:
            raise ValueError("the encoder is not a Corellian Spike encoder for this table")
        fixed = [action_code(a) for a in table.fixed]
        sizes = list(table.size_codes)
        start = {name: at for name, at, _ in encoder.blocks()}
        layout = {
            **start,
            "size": encoder.size,
            "card": start["phase"] + encoder.phase_index["card"],
            "betting": start["phase"] + encoder.phase_index["betting"],
            "ranks": encoder.ranks,
            "per_seat": encoder.offsets["seats"][1] // players,
            "buy_in": encoder.buy_in,
            "deck": encoder.deck_size,
            "total_scale": encoder.total_scale,
        }
        if len(fixed) + 2 * len(sizes) > MAXA or len(sizes) > MAXSIZES:
            raise ValueError("the action table is too large for the compiled vector engine")
        _read_options(&self.o, options)
        self.options = options
        self.num_envs = num_envs
        memset(cfg, 0, sizeof(VecCfg))
        cfg.n = players
        cfg.game_episode = game_episode
        cfg.start = self.o.start
        cfg.nact = len(fixed) + 2 * len(sizes)
        cfg.bet_base = len(fixed)
        cfg.raise_base = len(fixed) + len(sizes)
        cfg.nsizes = len(sizes)
        for i, (kind, value) in enumerate(fixed):
            cfg.act_kind[i] = kind
            cfg.act_val[i] = value
            cfg.act_slot[i] = value + 10 if kind in (A_SWAP_DISCARD, A_SWAP_DRAW) else 21
        for i, (kind, x) in enumerate(sizes):
            cfg.size_kind[i] = kind
            cfg.size_x[i] = x
        cfg.obs_size = layout["size"]
        cfg.o_card = layout["card"]
        cfg.o_betting = layout["betting"]
        cfg.o_values = layout["hand_values"]
        cfg.o_size = layout["hand_size"]
        cfg.o_rank = layout["hand_rank"]
        cfg.nranks = layout["ranks"]
        cfg.o_pots = layout["pots"]
        cfg.o_seats = layout["seats"]
        cfg.per_seat = layout["per_seat"]
        cfg.o_round = layout["round"]
        cfg.o_top = layout["discard_top"]
        cfg.o_pile = layout["discard_pile"]
        cfg.o_piles = layout["piles"]
        cfg.buy = layout["buy_in"]
        cfg.deck = layout["deck"]
        cfg.total_scale = layout["total_scale"]
        self.games = <State*>PyMem_Malloc(num_envs * sizeof(State))
        self.seeds = <uint64_t*>PyMem_Malloc(num_envs * sizeof(uint64_t))
        self.paid = <long long*>PyMem_Malloc(num_envs * MAXP * sizeof(long long))
        self.which = <int*>PyMem_Malloc(num_envs * sizeof(int))
        if self.games == NULL or self.seeds == NULL or self.paid == NULL or self.which == NULL:
            raise MemoryError()
        memset(self.games, 0, num_envs * sizeof(State))
        memset(self.seeds, 0, num_envs * sizeof(uint64_t))
        memset(self.paid, 0, num_envs * MAXP * sizeof(long long))

    def __dealloc__(self):
        PyMem_Free(self.games)
        PyMem_Free(self.seeds)
        PyMem_Free(self.paid)
        PyMem_Free(self.which)

    @property
    def observation_size(self):
        return self.cfg.obs_size

    @property
    def num_actions(self):
        return self.cfg.nact

    def reset(self, const uint64_t[::1] seeds, float[:, ::1] obs, signed char[:, ::1] mask,
              signed char[::1] player):
        """Deal game ``b`` with ``seeds[b]``, for every ``b``; write each first decision."""
        cdef int b, B = self.num_envs
        cdef State* st
        self._check(seeds.shape[0], obs, mask, player)
        with nogil:
            for b in range(B):
                self.seeds[b] = seeds[b]
                self.which[b] = b
            vec_reseed(self.games, self.seeds, self.which, B)
            for b in range(B):
                st = &self.games[b]
                memset(&self.paid[b * MAXP], 0, MAXP * sizeof(long long))
                vec_deal(st, &self.o, &self.cfg)
                vec_obs(st, &self.o, &self.cfg, &obs[b, 0])
                vec_mask(st, &self.o, &self.cfg, &mask[b, 0])
                player[b] = <signed char>st.to_act

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, float[:, ::1] rewards,
             unsigned char[::1] terminated, signed char[:, ::1] mask, signed char[::1] player):
        """Play ``actions[b]`` in game ``b`` for every ``b`` (see the class docstring)."""
        cdef int b, s, kind, low, i, nfin = 0, B = self.num_envs, n = self.cfg.n
        cdef Py_ssize_t hot, off
        cdef char* line
        cdef long long arg, illegal = 0
        cdef long long* paid
        cdef State* st
        cdef Opts* o = &self.o
        cdef VecCfg* cfg = &self.cfg
        self._check(actions.shape[0], obs, mask, player)
        if rewards.shape[0] != B or rewards.shape[1] != n or terminated.shape[0] != B:
            raise ValueError("rewards must be (num_envs, players) and terminated (num_envs,)")
        hot = <Py_ssize_t>(<char*>&self.games[0].rec_done - <char*>&self.games[0].n)
        with nogil:
            for b in range(B):
                if b + PREFETCH_AHEAD < B:  # a game's hot fields span ~15 cache lines
                    line = <char*>&self.games[b + PREFETCH_AHEAD].n
                    for off in range(0, hot, 64):
                        SABACC_PREFETCH(line + off)
                st = &self.games[b]
                paid = &self.paid[b * MAXP]
                if not vec_decode(st, o, cfg, actions[b], &kind, &arg):
                    illegal += 1
                    vec_mask(st, o, cfg, &mask[b, 0])
                    low = vec_lowest(cfg, &mask[b, 0])
                    vec_decode(st, o, cfg, low, &kind, &arg)
                st.rec_done = 0
                g_perform(st, o, st.to_act, kind, arg)
                for s in range(n):
                    rewards[b, s] = 0.0
                if st.rec_done:
                    for s in range(n):
                        rewards[b, s] = <float>st.rec_net[s]
                        paid[s] += st.rec_net[s]
                terminated[b] = st.over
                if st.over:
                    if cfg.game_episode:
                        for s in range(n):  # what the final_pot split handed back, if any
                            rewards[b, s] += <float>(st.stacks[s] - cfg.start - paid[s])
                    for s in range(n):
                        paid[s] = 0
                    self.seeds[b] = next_seed(self.seeds[b])
                    self.which[nfin] = b
                    nfin += 1
                    continue
                vec_obs(st, o, cfg, &obs[b, 0])
                vec_mask(st, o, cfg, &mask[b, 0])
                player[b] = <signed char>st.to_act
            # auto-reset: the finished games, their RNGs seeded side by side
            vec_reseed(self.games, self.seeds, self.which, nfin)
            for i in range(nfin):
                b = self.which[i]
                st = &self.games[b]
                vec_deal(st, o, cfg)
                vec_obs(st, o, cfg, &obs[b, 0])
                vec_mask(st, o, cfg, &mask[b, 0])
                player[b] = <signed char>st.to_act
        self.illegal_count += illegal

    cdef void _check(self, Py_ssize_t rows, float[:, ::1] obs, signed char[:, ::1] mask,
                     signed char[::1] player) except *:
        cdef int B = self.num_envs
        if rows != B or obs.shape[0] != B or mask.shape[0] != B or player.shape[0] != B:
            raise ValueError(f"every array must have num_envs={B} rows")
        if obs.shape[1] != self.cfg.obs_size or mask.shape[1] != self.cfg.nact:
            raise ValueError("obs must be (num_envs, observation_size), mask (num_envs, actions)")

    def sample_into(self, uint64_t key, const signed char[:, ::1] mask, int64_t[::1] out):
        """A uniformly random legal index of every game's ``mask`` into ``out``: game ``b``
        draws ``next_seed(key + b)`` and takes the ``floor(u * count)``-th legal index, ``u``
        the draw's top 53 bits as a fraction (the same for the same key and masks)."""
        cdef int b, i, k, count, B = self.num_envs, A = self.cfg.nact
        cdef uint64_t r
        if mask.shape[0] != B or mask.shape[1] != A or out.shape[0] != B:
            raise ValueError("mask must be (num_envs, actions) and out (num_envs,)")
        with nogil:
            for b in range(B):
                count = 0
                for i in range(A):
                    count += mask[b, i] != 0
                out[b] = -1
                if count == 0:
                    continue
                r = next_seed(key + <uint64_t>b)
                k = <int>((<double>(r >> 11) * (1.0 / 9007199254740992.0)) * count)
                for i in range(A):
                    if mask[b, i]:
                        if k == 0:
                            out[b] = i
                            break
                        k -= 1

    def seeds_into(self, uint64_t[::1] out):
        """Write each game's episode seed (what ``SpikeCore(seed=...)`` replays) into ``out``."""
        cdef int b
        if out.shape[0] != self.num_envs:
            raise ValueError(f"out must have num_envs={self.num_envs} rows")
        for b in range(self.num_envs):
            out[b] = self.seeds[b]

    def state(self, int b):
        """Game ``b``'s state as plain data (the fields of :class:`SpikeSnapshot` that the
        C state holds: cards as ids, bottom first), for tests and debugging."""
        cdef State* st
        cdef int s, i, n
        if not 0 <= b < self.num_envs:
            raise IndexError(f"no game {b} in a batch of {self.num_envs}")
        st = &self.games[b]
        n = st.n
        return {
            "rng_state": tuple([st.rng.mt[i] for i in range(MT_N)] + [st.rng.mti]),
            "stacks": tuple([st.stacks[s] for s in range(n)]),
            "out": tuple([bool(st.out[s]) for s in range(n)]),
            "hand_no": st.hand_no,
            "dealer": st.dealer,
            "sabacc_pot": st.sabacc_pot,
            "carry": st.carry,
            "house": st.house,
            "to_act": None if st.to_act < 0 else st.to_act,
            "phase": _PHASES[st.phase],
            "over": bool(st.over),
            "hands": tuple([tuple([st.hands[s][i] for i in range(st.hlen[s])]) for s in range(n)]),
            "public_ids": tuple([
                frozenset([st.hands[s][i] for i in range(st.hlen[s]) if st.pub[st.hands[s][i]]])
                for s in range(n)
            ]),
            "in_hand": tuple([bool(st.in_hand[s]) for s in range(n)]),
            "folded": tuple([bool(st.folded[s]) for s in range(n)]),
            "committed": tuple([st.committed[s] for s in range(n)]),
            "round_bet": tuple([st.round_bet[s] for s in range(n)]),
            "dead": st.dead,
            "cur_bet": st.cur_bet,
            "raises": st.raises,
            "draw": tuple([st.draw[i] for i in range(st.ndraw)]),
            "discard": tuple([st.discard[i] for i in range(st.ndiscard)]),
            "muck": tuple([st.muck[i] for i in range(st.nmuck)]),
            "round": st.round,
            "last_dice": (st.d1, st.d2) if st.d1 else None,
        }
