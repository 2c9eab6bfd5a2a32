# Included (at module level) by every compiled core module (_classic_core, _kessel_core, and
# the Spike family's three through _spike_family.pxi): the base class of its core, compiled against that module's own ``State``
# struct, whose field names the cores share (n, over, to_act, hand_no, stacks, out,
# in_hand, committed, hand_start). It holds the C state and the action log and defines the
# protocol members every core reads the same way; a core overrides ``_buy_in`` (its
# starting stack). (Cython allows ``include`` only at module level, not in a class body,
# hence a base class.) The wheel needs only the built extensions; the sdist carries this
# file to build them.

cdef class _CoreBase:
    """The state and the shared protocol members of a compiled core (not used alone)."""

    cdef State st
    cdef list _seats  # action log: seat of each action
    cdef list _acts   # action log: the action objects

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
