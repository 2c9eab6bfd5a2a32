# Included (at module level) by the compiled cores with betting rounds (docs/engines.md lists
# which): the shared action classes and the interned
# action objects, as module constants (a C global's read, not a module dictionary lookup), which
# the kernel's betting code and each core's rules compare and hand out by identity.

from sabacc.core.actions import CALL, CHECK, JUNK, STAND
from sabacc.core.actions import Bet, Call, Check, Junk, Raise, Stand
from sabacc.variants.spike_family.actions import GAIN, Gain, Swap
from sabacc.engine import betting as _betting

cdef object _Stand = Stand
cdef object _Gain = Gain
cdef object _Swap = Swap
cdef object _Check = Check
cdef object _Call = Call
cdef object _Bet = Bet
cdef object _Raise = Raise
cdef object _Junk = Junk

cdef object _STAND = STAND
cdef object _GAIN = GAIN
cdef object _BETS = _betting._BETS
cdef object _RAISES = _betting._RAISES
cdef tuple _CHECK_JUNK = (CHECK, JUNK)
cdef tuple _CALL_JUNK = (CALL, JUNK)


cdef inline int _betting_code(object action, long long* arg):
    """The action code (the module's ``A_*``) of a betting action object, its amount in
    ``arg``; -1 for any other action."""
    t = type(action)
    if t is _Check:
        return A_CHECK
    if t is _Call:
        return A_CALL
    if t is _Bet:
        arg[0] = action.amount
        return A_BET
    if t is _Raise:
        arg[0] = action.amount
        return A_RAISE
    if t is _Junk:
        return A_JUNK
    return -1


cdef inline int _shared_form(object action) except -2:
    """Whether a shared action object has plain-int fields (1) or not (0): the fast path of
    ``apply`` and ``is_legal``; -1 for a class the core checks itself (a gain, its own
    actions). Anything not well formed goes through the variant's parser."""
    t = type(action)
    if t is _Bet or t is _Raise:
        return type(action.amount) is int
    if t is _Swap:
        return type(action.value) is int
    if t is _Stand or t is _Check or t is _Call or t is _Junk:
        return 1
    return -1
