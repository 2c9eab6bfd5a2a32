# Included (at module level, after _core_protocol.pxi and _core_table.pxi) by the compiled cores
# with betting rounds (docs/engines.md lists which): their base class ``_BettingCore``, with what they share beyond the protocol members: the
# options and logs, each seat's betting state from the C state (fields n, folded, acted,
# round_bet), a betting decision's legal list (fields to_call_pos, bet_lo/bet_hi,
# raise_lo/raise_hi; the module's _CALL_JUNK, _CHECK_JUNK, _BETS, _RAISES), the table's
# read-only state, the history document, the seat check of ``apply``, the hand results and the
# observation; and the copy of the table's and the RNG's fields from a described state
# (from_game, from_snapshot). A core without betting rounds keeps its own constants.
#
# What the including module defines besides its ``State``, ``Opts``, ``_read_options``,
# ``_last_options``/``_last_opts``, ``_MT_BASE``, ``_DEFAULT_NAMES``, ``_PHASES``, ``_CODES``,
# ``_CARDS`` and ``VAL`` (the ``core_*`` functions this base class calls where cores differ):
#   g_compute_legal(st, o)              the current decision's legal flags (C)
#   core_make_legal(self)               the decision's Legal (most: self._legal_of(...))
#   core_contains(self, action)         whether a parsed action is legal now
#   core_decided(self)                  forget what was built for the decision just taken
#   core_perform(self, actor, action)   play a legal action and run on to the next decision
#   g_perform(st, o, s, kind, arg)      play action code ``kind`` (C), setting ``st.rec_done``
#                                       when a hand ended; core_log_hand(self) then logs it
#   core_clone_decision(self, new), core_copied(new)   a copy's per-decision state
#   core_hidden_piles(self, state)      full_state's hidden piles beyond the draw
#   core_view_last(self, s, action), core_view_known(st, s, seat, k), core_view_extra(self,
#                                       seat)   a seat view's last action, known ids and extra
#   core_build_result(self, index)      finished hand ``index``'s HandResult
#   core_public(st, s), core_seen(st)   the cards of seat ``s``'s hand everybody saw go in (a
#                                       tuple of Cards); per seat the card ids it alone saw go
#                                       into other hands (a tuple of frozensets, () for none)
#   core_structure(self), core_unit(self)   the observation's betting structure and unit
#   r_part(self)                        the variant's values of an observation snapshot, in the
#                                       layout its reference game's ``observation_extra`` reads

from cpython.list cimport PyList_New, PyList_SET_ITEM, PyList_GET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.object cimport PyObject

from sabacc.engine.observation import SEAT_STATUSES
from sabacc.engine.observe import (
    ObservationSnapshot, check_viewer, observe, observe_many, public_rows,
)

cdef class _BettingCore(_CoreBase):
    """A compiled core with betting rounds (not used alone)."""

    cdef readonly list hand_nets  # (hand, dealer, reason, net per seat) of each finished hand
    # What each finished hand's HandResult needs beyond its hand_nets entry, in the core's
    # compact form (core_build_result reads it); None for a hand copied from a reference game
    # or a snapshot (its HandResult is in _results already).
    cdef list _hand_data

    cdef inline void _compute_legal(self) noexcept:
        g_compute_legal(&self.st, &self.o)

    cdef inline long long _pot_total(self) noexcept:
        return g_pot_total(&self.st)

    cdef long long _buy_in(self) noexcept:
        """Each seat's starting stack (``payoffs`` is the stack less this)."""
        return self.o.start

    cdef void _open(self, object options, object seed, object players, object stacks=None,
                    object pause=False) except *:
        """The shared part of ``__init__``: the table (``_begin``, with a setup's ``stacks``
        and ``pause``), empty hand logs, and the C state: the options read into ``o`` (the last
        conversion reused for the same frozen options), the RNG seeded, the stacks, no hand
        yet."""
        cdef Opts* o = &self.o
        cdef State* st = &self.st
        cdef int s, n
        global _last_options, _last_opts
        n = self._begin(options, seed, players, stacks, pause)
        options = self.options
        seed = self.seed
        self.hand_nets = []
        self._hand_data = []
        memset(st, 0, sizeof(State))
        if options is _last_options:  # options are frozen: reuse the last conversion
            memcpy(o, &_last_opts, sizeof(Opts))
        else:
            _read_options(o, options)
            memcpy(&_last_opts, o, sizeof(Opts))
            _last_options = options
        mt_seed(&st.rng, &_MT_BASE, seed)
        st.n = n
        for s in range(n):
            st.stacks[s] = o.start
        st.to_act = -1
        st.phase = PH_SETUP
        if self._seating is not None:
            self._seat_stacks()

    cdef object _play(self, object action, int actor):
        """The rest of ``apply`` once ``action`` is parsed and ``actor`` checked: refuse an
        illegal action (state unchanged), log it, play it."""
        self._compute_legal()
        if not core_contains(self, action):
            raise IllegalActionError(
                illegal_message(action, self.legal(), _PHASES[self.st.phase], self.names[actor])
            )
        self.st.legal_ok = 0
        self._legal_obj = None
        core_decided(self)
        self._seats.append(actor)
        self._acts.append(action)
        self._last[actor] = action
        core_perform(self, actor, action)
        return None

    cdef bint _betting_contains(self, object action) except -1:
        """Whether a parsed action is legal at this betting decision."""
        cdef State* st = &self.st
        t = type(action)
        if t is _Check:
            return not st.to_call_pos
        if t is _Call:
            return st.to_call_pos
        if t is _Junk:
            return True
        if t is _Bet:
            a = action.amount
            if not isinstance(a, int) or isinstance(a, bool) or not st.bet_hi:
                return False
            return st.bet_lo <= a <= st.bet_hi  # compared as Python ints: any size
        if t is _Raise:
            a = action.amount
            if not isinstance(a, int) or isinstance(a, bool) or not st.raise_hi:
                return False
            return st.raise_lo <= a <= st.raise_hi
        return False

    cdef void _run(self, int s, int kind, long long arg) except *:
        """Play seat ``s``'s action code ``kind`` (``arg``: its amount or card) through the C
        rules, then log the hand it ended."""
        cdef State* st = &self.st
        cdef int hand = st.hand_no
        st.rec_done = 0
        g_perform(st, &self.o, s, kind, arg)
        if st.rec_done:
            core_log_hand(self)
        if st.phase == PH_BETWEEN:  # a held table's hand end (st.hold)
            self._hand_ended()
        if st.hand_no != hand:
            self._last = [None] * st.n

    cdef void _log_nets(self, str reason) except *:
        """Append the hand that just ended (``State.rec_*``) to ``hand_nets``: its number, its
        dealer, ``reason`` and each seat's net."""
        cdef State* st = &self.st
        cdef int s
        self.hand_nets.append(
            (st.rec_hand, st.rec_dealer, reason, tuple([st.rec_net[s] for s in range(st.n)]))
        )

    def clone(self, *, reseed=None, log=None):
        """An independent copy; ``reseed`` gives it a fresh RNG seeded with that int instead of
        continuing this game's stream."""
        cdef _BettingCore new = _assemble(
            type(self), &self.st, &self.o, self.options, self.seed, self.names, self._seats,
            self._acts, self._last, self.hand_nets, self._hand_data, self._results,
            self._seating,
        )
        new.st.legal_ok = self.st.legal_ok  # the same decision: its legal actions still hold
        new._legal_obj = self._legal_obj
        core_clone_decision(self, new)
        if reseed is not None:
            mt_seed(&new.st.rng, &_MT_BASE, reseed)
        return new

    def __reduce__(self):
        """Pickling (process pools, Ray, ``copy.deepcopy``): the C state as bytes, with the
        Python-side logs. A pickle is read back by the same build of sabacc."""
        return (_restore, (
            (<char*>&self.st)[:sizeof(State)], (<char*>&self.o)[:sizeof(Opts)],
            self.options, self.seed, self.names, self._seats, self._acts, self._last,
            self.hand_nets, self._hand_data, self._results, type(self), self._seating,
        ))

    def full_state(self):
        """Every hidden card too (as :meth:`Game.full_state`): for debugging and tests only."""
        cdef State* st = &self.st
        cdef int s, i
        state = {
            "hands": [[_CODES[st.hands[s][i]] for i in range(st.hlen[s])] for s in range(st.n)],
            "draw": [_CODES[st.draw[i]] for i in range(st.ndraw)],
        }
        core_hidden_piles(self, state)
        state["observation"] = self.observation(None)
        return state

    def seat_view(self, int seat):
        """The reference engine's :meth:`Game.seat_view` (the compact view the RL encoder
        reads; layout in :mod:`sabacc.engine.features`) in one call: ``(phase, main pot,
        sabacc pot, current bet, dealer offset, own card ids, own total, seats, extra)``, each
        seat ``(stack, committed, round bet, card count, status, last, known ids)`` from
        ``seat`` clockwise (``last``: the core's text of its last action this hand), and
        ``extra`` the core's own (``core_view_extra``)."""
        cdef State* st = &self.st
        cdef int n = st.n
        cdef int k, s, i, total = 0
        if not 0 <= seat < n:
            raise IndexError(f"no seat {seat} at a {n}-seat table")
        seats = []
        for k in range(n):
            s = seat + k
            if s >= n:
                s -= n
            a = self._last[s]
            seats.append((st.stacks[s], st.committed[s], st.round_bet[s], st.hlen[s],
                          g_seat_status(st, s),
                          None if a is None else core_view_last(self, s, a),
                          core_view_known(st, s, seat, k)))
        for i in range(st.hlen[seat]):
            total += VAL[st.hands[seat][i]]
        return (
            _PHASES[st.phase], self._pot_total(), st.sabacc_pot, st.cur_bet,
            (st.dealer - seat + n) % n, (<char*>st.hands[seat])[:st.hlen[seat]], total,
            tuple(seats), core_view_extra(self, seat),
        )

    def legal(self):
        """The legal actions in compact form (:class:`~sabacc.engine.betting.Legal`)."""
        if self.st.over or self.st.to_act < 0:
            return NO_ACTIONS
        if self._legal_obj is None:
            self._compute_legal()
            self._legal_obj = core_make_legal(self)
        return self._legal_obj

    cdef void _deal_back(self, object cards, signed char** places, int k) except *:
        """``determinize``'s end: the shuffled ``cards`` dealt back into the ``k`` hidden
        ``places``; the copy's decision is computed afresh."""
        cdef int i
        for i in range(k):
            places[i][0] = <signed char>cards[i]
        self.st.legal_ok = 0
        self._legal_obj = None

    cdef int _stand_or_gain(self, object action) except -2:
        """At a card decision: whether a stand (always) or a gain from the draw (when the
        decision allows one) is legal, 1 or 0; -1 for another action."""
        t = type(action)
        if t is _Stand:
            return 1
        if t is _Gain:
            return action.value is None and self.st.can_gain
        return -1

    cdef object _legal_of(self, tuple fixed):
        """The Legal of this decision: ``fixed`` (its listed actions), with the bet and raise
        ranges in a betting phase."""
        if self.st.phase != PH_BETTING:
            return Legal(fixed)
        bet = (self.st.bet_lo, self.st.bet_hi) if self.st.bet_hi else None
        raise_ = (self.st.raise_lo, self.st.raise_hi) if self.st.raise_hi else None
        return Legal(fixed, bet, raise_)

    def total_credits(self):
        """Stacks plus every pot plus the house: constant through a game (conservation)."""
        return (sum(self.stacks) + self._pot_total() + self.st.sabacc_pot + self.st.carry
                + self.st.house)

    def pot_total(self):
        """Credits in the current hand's main pot (antes, bets, fees, carried main pot)."""
        return self._pot_total()

    # ------------------------------------------------------------------ state, read-only copies
    @property
    def dealer(self):
        return self.st.dealer

    @property
    def orbit_steps(self):
        return self.st.orbit_steps

    @property
    def phase(self):
        return _PHASES[self.st.phase]

    @property
    def cur_bet(self):
        return self.st.cur_bet

    @property
    def raises(self):
        return self.st.raises

    @property
    def dead(self):
        return self.st.dead

    @property
    def sabacc_pot(self):
        return self.st.sabacc_pot

    @property
    def carry(self):
        return self.st.carry

    @property
    def house(self):
        return self.st.house

    @property
    def hands(self):
        return [[_CARDS[self.st.hands[s][i]] for i in range(self.st.hlen[s])]
                for s in range(self.st.n)]

    @property
    def draw(self):
        return [_CARDS[self.st.draw[i]] for i in range(self.st.ndraw)]

    # ------------------------------------------------------------------ results, observation
    cdef object _last_result(self):
        """The last finished hand's :class:`HandResult` (None before the first hand ends)."""
        cdef int i
        if not self._hand_data:
            return None
        for i in range(len(self._results), len(self._hand_data)):
            self._results.append(core_build_result(self, i))
        return self._results[len(self._results) - 1]

    @property
    def hand_results(self):
        """The typed result of every finished hand, equal to the reference engine's
        :attr:`Game.hand_results`: built on first use from the compact record each hand end
        keeps, then cached. A new list each time (the results themselves are immutable)."""
        self._last_result()
        return list(self._results)

    def observation(self, seat):
        """What ``seat`` may know, as a JSON-serialisable dict (None: a spectator's view):
        made by the one builder (:func:`sabacc.engine.observe.observe`) from
        :meth:`observation_snapshot` with the reference game's declared part, so equal to
        :meth:`Game.observation` in every state. Raises IndexError for a seat not at this table
        (the reference engine reads a negative seat from the end)."""
        seat = check_viewer(seat, self.st.n)
        snap = self.observation_snapshot()
        return observe(snap, self._observation_part(), seat, self._kept_rows(snap))

    def observations(self, viewers):
        """``{viewer: observation(viewer)}`` for several viewers at once (as
        :meth:`Game.observations`: the parts every viewer sees alike made once and shared)."""
        n = self.st.n
        wanted = [check_viewer(v, n) for v in viewers]
        return observe_many(self.observation_snapshot(), self._observation_part(), wanted)

    def observation_snapshot(self):
        """This state's :class:`~sabacc.engine.observe.ObservationSnapshot` (equal to the
        reference engine's in the same state): the table from the C state, every hand's cards,
        the cards each hand shows everybody (``core_public``) and those a seat alone saw
        (``core_seen``), and the variant's values (``r_part``)."""
        cdef State* st = &self.st
        cdef int n = st.n, s, i
        cdef list hands, public
        cdef tuple hand
        snap = self._cached_snapshot()
        if snap is not None:
            return snap
        hands = PyList_New(n)
        public = PyList_New(n)
        for s in range(n):
            hand = tuple([_CARDS[st.hands[s][i]] for i in range(st.hlen[s])])
            Py_INCREF(hand)
            PyList_SET_ITEM(hands, s, hand)
            shown = core_public(st, s)
            Py_INCREF(shown)
            PyList_SET_ITEM(public, s, shown)
        return self._keep_snapshot(ObservationSnapshot(
            self._game_type.info.name, self.options, tuple(self.names), st.hand_no,
            _PHASES[st.phase], st.dealer, self.current_player, bool(st.over),
            tuple([st.stacks[s] for s in range(n)]),
            tuple([st.committed[s] for s in range(n)]),
            tuple([st.round_bet[s] for s in range(n)]),
            tuple([SEAT_STATUSES[g_seat_status(st, s)] for s in range(n)]),
            tuple(self.last_action), tuple(hands), tuple(public), core_seen(st),
            self._pot_total(), st.sabacc_pot, tuple(self.pots()), st.cur_bet,
            core_structure(self), core_unit(self), self.legal(), self._last_result(),
            self.outcome if st.over else None, r_part(self),
        ))

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


def _restore(bytes state, bytes opts, options, seed, names, seats, acts, last, hand_nets,
             hand_data, results, cls, seating=None):
    """Rebuild a pickled core (see ``_BettingCore.__reduce__``)."""
    if len(state) != sizeof(State) or len(opts) != sizeof(Opts):
        raise ValueError(f"this {cls.__name__} was pickled by another build of sabacc")
    if not issubclass(cls, _BettingCore):
        raise TypeError(f"{cls!r} is not a compiled core of this module")
    return _assemble(cls, <State*><char*>state, <Opts*><char*>opts, options, seed, names, seats,
                     acts, last, hand_nets, hand_data, results, seating)


cdef _BettingCore _assemble(type cls, State* st, Opts* o, options, seed, names, seats, acts,
                            last, hand_nets, hand_data, results, seating):
    """A core with a copy of this C state and options and copies of the Python-side logs; its
    legal actions are computed afresh (``clone`` and unpickling share it)."""
    cdef _BettingCore new = cls.__new__(cls)
    memcpy(&new.st, st, sizeof(State))
    memcpy(&new.o, o, sizeof(Opts))
    new.st.legal_ok = 0
    new._copy_logs(options, seed, names, seats, acts, last, results)
    new.hand_nets = list(hand_nets)
    new._hand_data = list(hand_data)
    if seating is not None:
        new._seating = seating.copy()
    core_copied(new)
    return new


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
