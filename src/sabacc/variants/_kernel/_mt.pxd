# cython: language_level=3
"""The seeded RNG every compiled core shares: a bit-exact C port of CPython's Mersenne Twister
(``random.Random``) and of the draws the reference engines make on it.

A compiled core reaches the reference engine's states for the same seed only if it draws the
same numbers in the same order, so each primitive here mirrors one CPython call exactly:
``mt_seed`` is ``random.Random(seed)`` for an int, ``mt_next`` is ``getrandbits(32)``,
``mt_random`` is ``random()``, ``mt_below`` is ``_randbelow(n)`` (so ``randrange(n)``),
``mt_shuffle`` is ``shuffle()`` and ``mt_shuffle_sorted`` is the engine's
:meth:`~sabacc.engine.game.Game._shuffled` (a stable sort by one ``random()`` key per card).

Everything is ``cdef inline`` so that a core ``cimport``\\ s it with no call across modules.
A core keeps one ``MT`` made by ``mt_init_genrand(&base, 19650218)`` and passes it to
``mt_seed``: every ``init_by_array`` starts from that state, computed once per module.
"""

from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset

cdef enum:
    MT_N = 624
    MT_M = 397
    MT_INIT = 19650218      # init_by_array starts from init_genrand(MT_INIT)
    MT_MAX_CARDS = 128      # the most cards mt_shuffle_sorted sorts at once
    MT_MAX_KEY = 64         # seed words: seeds up to 2048 bits

ctypedef struct MT:
    uint32_t mt[MT_N]
    int mti


cdef inline void mt_init_genrand(MT* r, uint32_t s) noexcept nogil:
    """CPython's ``init_genrand(s)``."""
    cdef int i
    r.mt[0] = s
    for i in range(1, MT_N):
        r.mt[i] = <uint32_t>(<uint32_t>1812433253 * (r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) + <uint32_t>i)
    r.mti = MT_N


cdef inline void mt_init_by_array(MT* r, const MT* base, uint32_t* key, int klen) noexcept nogil:
    """CPython's ``init_by_array(key)``; ``base`` is ``init_genrand(MT_INIT)``, computed once.

    Each step reads the word the step before wrote (``mt[i - 1]``, or ``mt[0]`` after a wrap,
    which is a copy of it): it is carried in ``prev``, a register, rather than read back from
    the array, which would put a store-to-load round trip in this chain of 1,247 dependent
    steps (the seeding is most of a new game's time). A one-word key (seeds below 2**32) has
    its own first loop, with the key word in a register."""
    cdef int i = 1, j = 0, k
    cdef uint32_t prev, kw
    memcpy(r, base, sizeof(MT))
    prev = r.mt[0]
    if klen == 1:  # MT_N steps: i = 1 .. MT_N - 1, the wrap, then i = 1 once more
        kw = key[0]
        for i in range(1, MT_N):
            prev = <uint32_t>((r.mt[i] ^ ((prev ^ (prev >> 30)) * <uint32_t>1664525)) + kw)
            r.mt[i] = prev
        r.mt[0] = prev
        prev = <uint32_t>((r.mt[1] ^ ((prev ^ (prev >> 30)) * <uint32_t>1664525)) + kw)
        r.mt[1] = prev
        i = 2
    else:
        k = MT_N if MT_N > klen else klen
        while k > 0:
            prev = <uint32_t>((r.mt[i] ^ ((prev ^ (prev >> 30)) * <uint32_t>1664525))
                              + key[j] + <uint32_t>j)
            r.mt[i] = prev
            i += 1
            j += 1
            if i >= MT_N:
                r.mt[0] = prev
                i = 1
            if j >= klen:
                j = 0
            k -= 1
    k = MT_N - 1
    while k > 0:
        prev = <uint32_t>((r.mt[i] ^ ((prev ^ (prev >> 30)) * <uint32_t>1566083941))
                          - <uint32_t>i)
        r.mt[i] = prev
        i += 1
        if i >= MT_N:
            r.mt[0] = prev
            i = 1
        k -= 1
    r.mt[0] = <uint32_t>0x80000000


cdef inline uint32_t mt_next(MT* r) noexcept nogil:
    """``getrandbits(32)``: the next 32-bit output (regenerating the 624 words when used up)."""
    cdef uint32_t y
    cdef int kk
    if r.mti >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (r.mt[kk] & <uint32_t>0x80000000) | (r.mt[kk + 1] & <uint32_t>0x7fffffff)
            r.mt[kk] = r.mt[kk + MT_M] ^ (y >> 1) ^ ((y & 1) * <uint32_t>0x9908b0df)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (r.mt[kk] & <uint32_t>0x80000000) | (r.mt[kk + 1] & <uint32_t>0x7fffffff)
            r.mt[kk] = r.mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((y & 1) * <uint32_t>0x9908b0df)
        y = (r.mt[MT_N - 1] & <uint32_t>0x80000000) | (r.mt[0] & <uint32_t>0x7fffffff)
        r.mt[MT_N - 1] = r.mt[MT_M - 1] ^ (y >> 1) ^ ((y & 1) * <uint32_t>0x9908b0df)
        r.mti = 0
    y = r.mt[r.mti]
    r.mti += 1
    y ^= y >> 11
    y ^= (y << 7) & <uint32_t>0x9d2c5680
    y ^= (y << 15) & <uint32_t>0xefc60000
    y ^= y >> 18
    return y


cdef inline double mt_random(MT* r) noexcept nogil:
    """``random()``."""
    cdef uint32_t a = mt_next(r) >> 5
    cdef uint32_t b = mt_next(r) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef inline uint32_t mt_below(MT* r, uint32_t n) noexcept nogil:
    """``_randbelow(n)`` (so ``randrange(n)``) for 0 < n < 2**32: ``k = n.bit_length()`` bits
    drawn until below ``n``."""
    cdef int k = 0
    cdef uint32_t m = n, v
    while m:
        k += 1
        m >>= 1
    v = mt_next(r) >> (32 - k)
    while v >= n:
        v = mt_next(r) >> (32 - k)
    return v


cdef inline int mt_die(MT* r) noexcept nogil:
    """``randrange(6) + 1``: ``_randbelow(6)`` draws 3 bits until below 6."""
    cdef uint32_t v = mt_next(r) >> 29
    while v >= 6:
        v = mt_next(r) >> 29
    return <int>v + 1


cdef inline int mt_seed(MT* r, const MT* base, object seed) except -1:
    """Seed as ``random.Random(seed)`` does for an int: the 32-bit words of ``abs(seed)``."""
    cdef uint32_t key[MT_MAX_KEY]
    cdef int klen = 0
    if type(seed) is int and 0 <= seed <= 0xFFFFFFFF:  # one word: no big-number arithmetic
        key[0] = <uint32_t>seed
        mt_init_by_array(r, base, key, 1)
        return 0
    n = abs(int(seed))
    if n == 0:
        key[0] = 0
        klen = 1
    while n:
        if klen >= MT_MAX_KEY:
            from sabacc.core.errors import OptionError

            raise OptionError("seed is too large (at most 2048 bits)")
        key[klen] = <uint32_t>(n & 0xFFFFFFFF)
        klen += 1
        n >>= 32
    mt_init_by_array(r, base, key, klen)
    return 0


cdef inline void mt_shuffle(MT* r, signed char* items, int n) noexcept nogil:
    """``shuffle(items)`` on ``n`` one-byte items (card ids): CPython's Fisher-Yates from the end,
    ``j = _randbelow(i + 1)``."""
    cdef int i, j
    cdef signed char t
    for i in range(n - 1, 0, -1):
        j = <int>mt_below(r, <uint32_t>(i + 1))
        t = items[i]
        items[i] = items[j]
        items[j] = t


cdef inline void mt_shuffle_sorted(MT* r, signed char* cards, int count) noexcept nogil:
    """The engine's ``Game._shuffled``: a stable sort by one ``random()`` key per card, in order
    (``count`` <= ``MT_MAX_CARDS``).

    A ``random()`` value is ``(a * 2**26 + b) / 2**53``: the 53-bit integer ``a * 2**26 + b``
    orders the cards exactly as the float does. The cards are spread into 64 buckets by its top
    6 bits (a counting sort: stable), then an insertion sort (stable) fixes the few inversions
    left inside buckets: the same order as a stable sort of the floats, in linear time.
    """
    cdef uint64_t keys[MT_MAX_CARDS]
    cdef uint64_t sorted_keys[MT_MAX_CARDS]
    cdef signed char sorted_cards[MT_MAX_CARDS]
    cdef int start[65]
    cdef uint64_t k
    cdef signed char c
    cdef int i, j
    cdef uint32_t a, b
    memset(start, 0, sizeof(start))
    for i in range(count):
        a = mt_next(r) >> 5
        b = mt_next(r) >> 6
        k = (<uint64_t>a << 26) | b
        keys[i] = k
        start[(k >> 47) + 1] += 1
    for i in range(64):
        start[i + 1] += start[i]
    for i in range(count):
        j = start[keys[i] >> 47]
        start[keys[i] >> 47] = j + 1
        sorted_keys[j] = keys[i]
        sorted_cards[j] = cards[i]
    for i in range(count):  # insertion sort: only inversions inside a bucket are left
        k = sorted_keys[i]
        c = sorted_cards[i]
        j = i - 1
        while j >= 0 and sorted_keys[j] > k:
            sorted_keys[j + 1] = sorted_keys[j]
            cards[j + 1] = cards[j]
            j -= 1
        sorted_keys[j + 1] = k
        cards[j + 1] = c


# ------------------------------------------------------------------ random.sample (a card draft)
cdef extern from "math.h":
    double _mt_log "log"(double x) nogil
    double _mt_ceil "ceil"(double x) nogil


cdef inline int mt_sample_indices(MT* r, int n, int k, int* out) noexcept nogil:
    """``sample(range(n), k)`` as CPython 3.11 draws it: the indices of the population items
    picked, in order (0 <= k <= n <= 64). A pool when ``n`` is small for ``k``, else a set of
    indices drawn again until new, as CPython chooses (``setsize``)."""
    cdef int pool[64]
    cdef char selected[64]
    cdef int i, j
    cdef double setsize = 21
    if k > 5:
        # 4 ** ceil(log(k * 3, 4)): math.log(x, base) is log(x) / log(base)
        setsize += 4.0 ** _mt_ceil(_mt_log(k * 3.0) / _mt_log(4.0))
    if n <= setsize:
        for i in range(n):
            pool[i] = i
        for i in range(k):
            j = <int>mt_below(r, <uint32_t>(n - i))
            out[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        memset(selected, 0, sizeof(selected))
        for i in range(k):
            j = <int>mt_below(r, <uint32_t>n)
            while selected[j]:
                j = <int>mt_below(r, <uint32_t>n)
            selected[j] = 1
            out[i] = j
    return k
