# Included (at module level) by every compiled core module: the base class of its core,
# compiled against that module's own ``State`` struct, whose field names the cores share (n,
# over, to_act, hand_no, stacks, out, in_hand, committed, hand_start), and ``Opts``; the module
# defines ``MAXP``, ``_DEFAULT_NAMES`` and imports the engine's names used here. It holds the C state and the action log and defines the
# protocol members every core reads the same way; a core overrides ``_buy_in`` (its
# starting stack). (Cython allows ``include`` only at module level, not in a class body,
# hence a base class.) The wheel needs only the built extensions; the sdist carries this
# file to build them.

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

    cdef int _begin(self, object options, object seed, object players) except -1:
        """The table's part of ``__init__``: the options (the core's options type, or a
        mapping the reference engine's own code parses and checks), the seats (a count or the
        names), the seed (the reference engine's rule: whole numbers, None = random) and empty
        logs; returns the number of seats. The C state is the caller's."""
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
        if type(seed) is not int:
            seed = resolve_seed(seed)
        self._copy_logs(options, seed, names, [], [], [None] * n, [])
        return n

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
            "players": list(self.names),
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
