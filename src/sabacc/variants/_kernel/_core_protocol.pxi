# Included (at module level) by every compiled core module: the base class of its core,
# compiled against that module's own ``State`` struct, whose field names the cores share (n,
# over, to_act, hand_no, stacks, out, in_hand, committed, hand_start), and ``Opts``; the module
# defines ``MAXP``, ``_DEFAULT_NAMES`` and imports the engine's names used here. It holds the C state and the action log and defines the
# protocol members every core reads the same way; a core overrides ``_buy_in`` (its
# starting stack). It also holds the table's seats between hands (given stacks, joins, leaves,
# rebuys, pauses: :mod:`sabacc.engine.seating`, the one source of their checks and
# bookkeeping, shared with the reference engine): the module's ``State`` has ``hold`` and
# ``vacant`` (the empty seats' mask) fields and a ``PH_BETWEEN`` phase (``"between_hands"``), where its hand end stops instead of
# dealing the next hand while ``hold`` is set (only a custom table sets it), and the module
# defines ``g_start_hand(st, o)`` and ``core_seat_joined(game, seat)`` (a joined seat's
# per-game state). (Cython allows ``include`` only at module level, not in a class body,
# hence a base class.) The wheel needs only the built extensions; the sdist carries this
# file to build them.

from sabacc.engine import seating as _table
from sabacc.engine.seating import Seating as _Seating, check_stacks as _check_stacks


cdef int _put_ids(signed char* pile, object cards) except -1:
    """Write the ids of ``cards`` (Card objects, bottom first) into ``pile``; returns how many
    (a pile copied from a reference game)."""
    cdef int i = 0
    for card in cards:
        pile[i] = card.id
        i += 1
    return i


cdef class _CoreBase:
    """The state and the shared protocol members of a compiled core (not used alone)."""

    cdef State st
    cdef Opts o
    cdef list _seats  # action log: seat of each action
    cdef list _acts   # action log: the action objects
    cdef readonly object options
    cdef readonly object seed
    cdef readonly list names
    cdef list _last           # last action object of each seat, this hand
    cdef list _results        # HandResult of the first len(_results) hands, built lazily
    cdef object _legal_obj
    # The observation snapshot of the state after the first _snap_at actions (None: none yet):
    # the state changes only through apply, which logs one action, so it stands until then.
    cdef object _snap
    cdef Py_ssize_t _snap_at
    # The seat bookkeeping of a custom table (sabacc.engine.seating.Seating), None for a plain
    # game: the same object the reference engine keeps, read by the same functions.
    cdef public object _seating
    # The spectator's rows of _snap's observations (observe's ``rows``, made at the first
    # observation of this state and kept: each viewer's then costs copies only); None: not yet.
    cdef object _rows
    cdef object _part  # the reference game's ObservationPart (None: not looked up yet)

    cdef inline object _cached_snapshot(self):
        """The snapshot made at this state, if one was (None otherwise)."""
        if self._snap is not None and self._snap_at == len(self._acts):
            return self._snap
        return None

    cdef inline object _keep_snapshot(self, object snap):
        if self._seating is not None:  # a custom table: its empty seats marked
            snap = _table.mark_vacant(snap, self._seating)
        self._snap = snap
        self._snap_at = len(self._acts)
        self._rows = None
        return snap

    cdef object _observation_part(self):
        """The reference game's :class:`~sabacc.engine.observe.ObservationPart`."""
        part = self._part
        if part is None:
            part = self._part = self._game_type.observation_part()
        return part

    cdef object _kept_rows(self, object snap):
        """The public rows to pass to ``observe`` with ``snap`` (this state's snapshot)."""
        rows = self._rows
        if rows is None:
            rows = self._rows = public_rows(snap)
        return rows

    #: The reference engine's game class whose rules this core plays (its options type and
    #: VariantInfo come with it): the core's public class sets them.
    _game_type = None
    _options_type = None

    @property
    def variant(self):
        return self._game_type.info.name

    @property
    def info(self):
        return self._game_type.info

    cdef int _begin(self, object options, object seed, object players, object stacks=None,
                    object pause=False) except -1:
        """The table's part of ``__init__``: the options (the core's options type, or a
        mapping the reference engine's own code parses and checks), the seats (a count or the
        names), the setup (``stacks``, ``pause``: checked as the reference engine does), the
        seed (the reference engine's rule: whole numbers, None = random) and empty logs;
        returns the number of seats. The C state is the caller's (``_seat_stacks`` then sets a
        setup's stacks)."""
        cdef int n
        cls = type(self)
        options_type = cls._options_type
        if type(options) is options_type:  # the common case, first: no Mapping check
            pass
        elif options is None or isinstance(options, _Mapping):
            # Parsed and validated by the reference engine's own code, once.
            options = options_type.from_mapping(options or {})
        else:
            raise OptionError(
                f"{cls.__name__} takes {options_type.__name__} "
                f"({cls._game_type.info.title} only)"
            )
        if type(players) is int:
            n = players
            names = _DEFAULT_NAMES[n] if 2 <= n <= MAXP else None
        else:
            names = [str(p) for p in players]
            n = len(names)
        if not 2 <= n <= MAXP or names is None:
            info = cls._game_type.info
            raise OptionError(
                f"{info.title} is played by {info.min_players}-{info.max_players} players, "
                f"not {n}"
            )
        start = None
        if stacks is not None or pause is not False:
            start = _check_stacks(stacks, n) if stacks is not None else None
            if type(pause) is not bool:
                raise OptionError(f"pause_between_hands={pause!r}: must be True or False")
        if type(seed) is not int:
            seed = resolve_seed(seed)
        self._copy_logs(options, seed, names, [], [], [None] * n, [])
        self._seating = None
        if start is not None or pause:
            buy_in = options.starting_stack
            stacks = list(start) if start is not None else [buy_in] * n
            self._seating = _Seating(tuple(names), stacks[:], [0] * n, [False] * n, sum(stacks),
                                     stacks=start, pause=pause)
        return n

    cdef void _seat_stacks(self) except *:
        """A setup's given stacks into the C state (after the caller's plain stacks), and the
        hand end held for a game that pauses between hands."""
        cdef int s
        seating = self._seating
        if seating is None:
            return
        if seating.stacks is not None:
            for s in range(self.st.n):
                self.st.stacks[s] = seating.stacks[s]
        self.st.hold = seating.pause

    cdef void _cannot_ante(self, object main, object sab) except *:
        """Refuse a table whose stacks cannot cover the first antes (the reference message)."""
        seating = self._seating
        start = None if seating is None else seating.stacks
        given = f"stacks={list(start)}" if start else f"buy_in={self.options.starting_stack}"
        raise OptionError(f"{given} cannot cover the antes ({main} + {sab})")

    # ------------------------------------------------------------------ seats between hands
    def join(self, name, stack, *, seat=None):
        """Seat a new player with ``stack`` credits from the next hand; returns the seat (as
        :meth:`Game.join`: same checks, same messages)."""
        chosen = _table.join(self, name, stack, seat)
        self.st.hold = 1
        return chosen

    def leave(self, seat):
        """The player at ``seat`` leaves after the hand in play (as :meth:`Game.leave`)."""
        _table.leave(self, seat)
        self.st.hold = 1

    def rebuy(self, seat, amount, reason="rebuy"):
        """Add ``amount`` credits to ``seat``'s stack before the next hand (as
        :meth:`Game.rebuy`)."""
        _table.rebuy(self, seat, amount, reason)
        self.st.hold = 1

    def deal(self):
        """Start the next hand of a game paused between hands, after the table changes asked
        for (as :meth:`Game.deal`; ``None``: the core keeps no event log)."""
        _table.check_deal(self, self.st.phase == PH_BETWEEN and not self.st.over)
        _table.request(self, {"op": "deal"})
        self._next_hand()
        return None

    def apply_table(self, entry):
        """Carry out one entry of a history's ``table`` list (as :meth:`Game.apply_table`)."""
        _table.apply_entry(self, entry)

    @property
    def pending_changes(self):
        """The table changes asked for that take effect before the next hand (copies)."""
        return [dict(e) for e in _table.pending_ops(self)]

    @property
    def table_log(self):
        """Every table operation asked for, with ``at``: the history's ``table`` list."""
        return [dict(e) for e in self._seating.log] if self._seating is not None else []

    @property
    def custom_table(self):
        """Whether this game has given stacks, pauses between hands or table changes."""
        return self._seating is not None

    @property
    def vacant(self):
        """Per seat: whether it is empty (its player left and nobody took it since)."""
        if self._seating is None:
            return [False] * self.st.n
        return list(self._seating.vacant)

    def credits_at_table(self):
        """Every credit brought to the table less what leaving players took away."""
        seating = self._seating
        if seating is None:
            return self.options.starting_stack * self.st.n
        return seating.brought - seating.taken

    cdef void _hand_ended(self) except *:
        """After an action whose hand end stopped at ``PH_BETWEEN`` (the table held): stay
        paused between hands, or seat the changes asked for and deal the next hand."""
        if not self._seating.pause:
            self._next_hand()

    cdef void _next_hand(self) except *:
        """Carry out the pending table changes on the C state (through the reference engine's
        bookkeeping, :func:`sabacc.engine.seating.settle`) and deal the next hand."""
        cdef State* st = &self.st
        cdef int s, old = st.n
        seating = self._seating
        pending = seating.pending
        if pending:
            if any(e["op"] == "join" and e["seat"] >= old for e in pending):
                self.hand_results  # built now: they read the seat count they ended with
            seating.pending = []
            stacks = [st.stacks[s] for s in range(old)]
            out = [bool(st.out[s]) for s in range(old)]
            _table.settle(seating, pending, self.names, stacks, out)
            st.n = len(stacks)
            st.vacant = 0
            for s in range(st.n):
                st.stacks[s] = stacks[s]
                st.out[s] = out[s]
                if seating.vacant[s]:
                    st.vacant |= 1 << s
            for entry in pending:
                if entry["op"] == "join":
                    core_seat_joined(self, entry["seat"])
        st.hold = seating.pause
        hand = st.hand_no
        g_start_hand(st, &self.o)
        if st.hand_no != hand:  # a new hand: its last actions start empty
            self._last = [None] * st.n
        else:  # the game ended: the last hand's actions stand, new seats have none
            self._last.extend([None] * (st.n - len(self._last)))
        self._legal_obj = None
        self._snap = None
        st.legal_ok = 0

    cdef void _copy_seating(self, object seating) except *:
        """Take a copy of ``seating`` (a game's, or None), its hand end held as it is."""
        cdef int s
        if seating is None:
            self._seating = None
            self.st.hold = 0
            return
        self._seating = seating.copy()
        self.st.hold = bool(seating.pause or seating.pending)
        self.st.vacant = 0
        for s in range(self.st.n):
            if seating.vacant[s]:
                self.st.vacant |= 1 << s

    cdef void _copy_logs(self, object options, object seed, object names, object seats,
                         object acts, object last, object results) except *:
        """Set the options, seed and names and copies of the action log, the last actions and
        the finished hands' results (a new core, a copy, an unpickled one); no legal actions
        are known yet."""
        self.options = options
        self.seed = seed
        self.names = list(names)
        self._seats = list(seats)
        self._acts = list(acts)
        self._last = list(last)
        self._results = list(results)
        self._legal_obj = None

    cdef int _actor(self, object seat) except -1:
        """The seat to act, checking that the game goes on and that ``seat`` (None: anyone) is
        that seat (``apply``'s checks before the action's own)."""
        cdef int actor
        if self.st.over:
            raise IllegalActionError("the game is over: no more actions")
        actor = self.st.to_act
        if actor < 0:
            if self.st.phase == PH_BETWEEN:
                raise IllegalActionError("the hand is over: deal() starts the next one")
            raise IllegalActionError("nobody is to act")  # pragma: no cover - always a decision
        if seat is not None:
            number = seat if type(seat) is int and 0 <= seat < self.st.n else seat_number(
                seat, self.st.n
            )
            if number is None:
                raise IllegalActionError(
                    f"no such seat {seat!r}: it is {self.names[actor]}'s turn"
                )
            if number != actor:
                raise IllegalActionError(
                    f"it is not {self.names[number]}'s turn: {self.names[actor]} is to act"
                )
        return actor

    def history(self):
        """The versioned hand-history document; :func:`sabacc.replay` rebuilds the game."""
        outcome = self.outcome
        return {
            "format": HISTORY_FORMAT,
            "version": HISTORY_VERSION,
            "variant": self._game_type.info.name,
            "options": self.options.changed(),
            "seed": self.seed,
            "players": list(self._seating.players if self._seating is not None else self.names),
            **_table.history_entries(self._seating),
            "actions": [{"seat": s, "action": str(a)} for s, a in zip(self._seats, self._acts)],
            "result": outcome.to_dict() if outcome else None,
        }

    cdef long long _buy_in(self) noexcept:
        """Each seat's starting stack (``payoffs`` is the stack less this)."""
        return 0

    @property
    def n(self):
        return self.st.n

    @property
    def num_players(self):
        return self.st.n

    @property
    def current_player(self):
        return None if self.st.over or self.st.to_act < 0 else self.st.to_act

    @property
    def to_act(self):
        return None if self.st.to_act < 0 else self.st.to_act

    @property
    def is_over(self):
        return bool(self.st.over)

    @property
    def over(self):
        return bool(self.st.over)

    @property
    def payoffs(self):
        if self._seating is not None:
            return _table.payoffs(self._seating, self.stacks)
        return [self.st.stacks[s] - self._buy_in() for s in range(self.st.n)]

    @property
    def outcome(self):
        if not self.st.over:
            return None
        stacks = self.stacks
        standings = tuple(sorted(range(self.st.n), key=lambda s: (-stacks[s], s)))
        return GameOutcome(tuple(stacks), tuple(self.payoffs), standings, self.st.hand_no)

    @property
    def actions(self):
        """The action log: ``(seat, action text)`` pairs, as :attr:`Game.actions`."""
        return [(s, str(a)) for s, a in zip(self._seats, self._acts)]

    @property
    def action_count(self):
        return len(self._acts)

    @property
    def stacks(self):
        return [self.st.stacks[s] for s in range(self.st.n)]

    @property
    def out(self):
        return [bool(self.st.out[s]) for s in range(self.st.n)]

    @property
    def in_hand(self):
        return [bool(self.st.in_hand[s]) for s in range(self.st.n)]

    @property
    def committed(self):
        return [self.st.committed[s] for s in range(self.st.n)]

    @property
    def hand_start_stacks(self):
        return [self.st.hand_start[s] for s in range(self.st.n)]

    @property
    def hand_no(self):
        return self.st.hand_no
