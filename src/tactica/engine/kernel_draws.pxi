# Native draws shared by the compiled simulation kernels (included by each game's _kernel.pyx).
#
# * Keyed dice: tactica.engine.streams.KeyedDice draws every roll from 64-bit words of BLAKE2b of
#   the roll's key, fed to the distribution's exact sampler (tactica.dice.sampling.uniform_below
#   and Sampler.index). _Dice.draw does the same natively; blake2b_word is tested against
#   hashlib.
# * Policy generators: a side's numpy Generator (tactica.analysis.sim.play.policy_generator,
#   default_rng([s, i, 1, k])) is numpy's SeedSequence and PCG64, and ``integers(n)`` its
#   bounded method: all three natively (pcg64_from_words, pcg64_integer), tested against numpy.

from libc.string cimport memset, memcpy

cdef extern from *:
    """
    #include <stdint.h>
    typedef unsigned __int128 tactica_u128;
    static inline uint64_t tactica_mul_hi(uint64_t a, uint64_t b, uint64_t *lo) {
        tactica_u128 m = (tactica_u128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    """
    uint64_t tactica_mul_hi(uint64_t a, uint64_t b, uint64_t *lo) nogil


# ---------------------------------------------------------------------------------------------
# BLAKE2b (RFC 7693), digest of 8 bytes with a 16-byte salt: hashlib.blake2b(data,
# digest_size=8, salt=counter.to_bytes(16, "little")) of tactica.engine.streams._Words.random_raw.

cdef uint64_t[8] _IV = [
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL]

cdef uint8_t[12][16] _SIGMA = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3]]


cdef inline uint64_t _rotr(uint64_t x, int n) noexcept nogil:
    return (x >> n) | (x << (64 - n))


cdef inline uint64_t _load64(const uint8_t *p) noexcept nogil:
    cdef uint64_t v = 0
    cdef int i
    for i in range(8):
        v |= (<uint64_t>p[i]) << (8 * i)
    return v


cdef void _compress(uint64_t *h, const uint8_t *block, uint64_t t, bint last) noexcept nogil:
    cdef uint64_t v[16]
    cdef uint64_t m[16]
    cdef int i, r
    cdef const uint8_t *s
    for i in range(16):
        m[i] = _load64(block + 8 * i)
    for i in range(8):
        v[i] = h[i]
        v[i + 8] = _IV[i]
    v[12] ^= t
    if last:
        v[14] = ~v[14]
    for r in range(12):
        s = _SIGMA[r]
        _g(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
        _g(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
        _g(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
        _g(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
        _g(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
        _g(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
        _g(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
        _g(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
    for i in range(8):
        h[i] ^= v[i] ^ v[i + 8]


cdef inline void _g(uint64_t *v, int a, int b, int c, int d, uint64_t x,
                    uint64_t y) noexcept nogil:
    v[a] = v[a] + v[b] + x
    v[d] = _rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = _rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 63)


cdef uint64_t _blake2b_word(const uint8_t *data, int n, uint64_t counter) noexcept nogil:
    """The first 8 bytes (little-endian) of BLAKE2b-64 of ``data`` salted with ``counter``
    (16 bytes little-endian: the high 8 are zero for any counter below 2**64)."""
    cdef uint64_t h[8]
    cdef uint8_t block[128]
    cdef int i, done = 0, take
    for i in range(8):
        h[i] = _IV[i]
    h[0] ^= 0x01010008ULL  # digest 8 bytes, no key, fanout 1, depth 1
    h[4] ^= counter        # salt, first 8 bytes
    while n - done > 128:
        _compress(h, data + done, <uint64_t>(done + 128), False)
        done += 128
    take = n - done
    memset(block, 0, 128)
    memcpy(block, data + done, take)
    _compress(h, block, <uint64_t>n, True)
    return h[0]


def blake2b_word(bytes data, uint64_t counter):
    """The reference's keyed word (for the tests that compare it with hashlib)."""
    return _blake2b_word(<const uint8_t *>data, len(data), counter)


class _KeyWords:
    """The keyed words of one roll (engine.streams._Words), for a draw too wide for 64 bits."""

    __slots__ = ("key", "count")

    def __init__(self, bytes key):
        self.key = key
        self.count = 0

    def random_raw(self):
        word = _blake2b_word(<const uint8_t *>self.key, len(self.key), self.count)
        self.count += 1
        return word


class KeyedRng:
    """Stands for the generator a roll of the reference draws from (engine.streams'
    _KeyedGenerator): a kernel draws a roll whose total weight needs more than 64 bits with
    the reference's own exact sampler (Dist.sample: several words, Python's integers) on the
    same key, so the roll is the reference's."""

    __slots__ = ("bit_generator",)

    def __init__(self, bytes key):
        self.bit_generator = _KeyWords(key)


# ---------------------------------------------------------------------------------------------
# Exact draws: tactica.dice.sampling.uniform_below and Sampler.index, fed by keyed words.

DEF KEY_MAX = 1024   # prefix (<= 64) + slot (<= 900, checked by kernel.py) + count digits
DEF MAX_POOL_OUTCOMES = 128

# Raised by a kernel's ``Kernel(tables)`` when the scenario passes one of its fixed limits
# (its module's ``LIMITS``): the message names the limit, ``prepare`` answers it as
# NotCovered and the reference plays (engine.kernels.built_kernel).
from tactica.engine.kernels import Uncovered as KernelLimit

cdef struct Pool:
    int n              # outcomes
    uint64_t total
    uint64_t cum[MAX_POOL_OUTCOMES]
    int outcome[MAX_POOL_OUTCOMES]


cdef inline int key_digits(uint8_t *key, int n, int64_t v) noexcept nogil:
    """Write ``str(v)`` (``v >= 0``) at ``key[n:]``, the count that ends a roll's key; the
    key's new length."""
    cdef char tmp[24]
    cdef int digits = 0, i
    if v == 0:
        tmp[0] = 48
        digits = 1
    while v > 0:
        tmp[digits] = 48 + v % 10
        v //= 10
        digits += 1
    for i in range(digits):
        key[n + i] = tmp[digits - 1 - i]
    return n + digits


cdef inline uint64_t keyed_below(const uint8_t *key, int n, uint64_t total) noexcept nogil:
    """uniform_below(total) on the keyed words of ``key[:n]`` (Lemire's multiply-and-reject
    on 64-bit words): the high word, an integer below ``total``."""
    cdef uint64_t count = 0, word, lo, hi, threshold
    word = _blake2b_word(key, n, count)
    count += 1
    hi = tactica_mul_hi(word, total, &lo)
    if lo < total:
        threshold = (0 - total) % total
        while lo < threshold:
            word = _blake2b_word(key, n, count)
            count += 1
            hi = tactica_mul_hi(word, total, &lo)
    return hi


cdef class _Dice:
    """The keyed dice of one battle (tactica.engine.streams.KeyedDice)."""
    cdef uint8_t key[KEY_MAX]
    cdef int prefix_len

    cdef int set_prefix(self, bytes prefix) except -1:
        if len(prefix) > 64:
            raise ValueError("key prefix too long")
        memcpy(self.key, <const uint8_t *>prefix, len(prefix))
        self.prefix_len = len(prefix)
        return 0

    cdef object draw_wide(self, bytes slot, int k, object dist):
        """One roll of ``dist`` (a Dist whose total weight needs more than 64 bits) keyed
        ``prefix + slot + str(k)``, with the reference's own exact sampler on that key."""
        key = bytes(self.key[:self.prefix_len]) + slot + str(k).encode()
        return dist.sample(KeyedRng(key))

    cdef int draw(self, const uint8_t *slot, int slot_len, int k, Pool *pool) noexcept nogil:
        """One roll of ``pool`` keyed ``prefix + slot + str(k)`` (KeyedDice.roll)."""
        cdef int n = self.prefix_len, i
        cdef uint64_t hi, total = pool.total
        memcpy(self.key + n, slot, slot_len)
        n = key_digits(self.key, n + slot_len, k)
        if pool.n == 1:  # Dist.sample: a single outcome draws nothing
            return pool.outcome[0]
        if total <= 1:
            return pool.outcome[0]
        hi = keyed_below(self.key, n, total)
        # Sampler.index: bisect_right over the cumulative weights
        for i in range(pool.n):
            if pool.cum[i] > hi:
                return pool.outcome[i]
        return pool.outcome[pool.n - 1]




# numpy's SeedSequence (pool of 4 words) and PCG64 (XSL-RR 128/64), natively: a policy
# generator default_rng([s, i, 1, k]) without making it in Python. pcg64_integer is tested
# against numpy's Generator.integers for many seeds.

cdef extern from *:
    """
    typedef unsigned __int128 tactica_pcg128;
    typedef struct { tactica_pcg128 state, inc; int has_uint32; uint32_t uinteger; } tactica_pcg64;
    static const tactica_pcg128 TACTICA_PCG_MULT =
        (((tactica_pcg128)2549297995355413924ULL) << 64) + 4865540595714422341ULL;
    static inline uint64_t tactica_pcg64_next64(tactica_pcg64 *g) {
        uint64_t hi, lo; unsigned rot;
        g->state = g->state * TACTICA_PCG_MULT + g->inc;
        hi = (uint64_t)(g->state >> 64); lo = (uint64_t)g->state;
        rot = (unsigned)(g->state >> 122);
        lo ^= hi;
        return (lo >> rot) | (lo << ((- rot) & 63));
    }
    static inline uint32_t tactica_pcg64_next32(tactica_pcg64 *g) {
        uint64_t next;
        if (g->has_uint32) { g->has_uint32 = 0; return g->uinteger; }
        next = tactica_pcg64_next64(g);
        g->has_uint32 = 1; g->uinteger = (uint32_t)(next >> 32);
        return (uint32_t)(next & 0xffffffffULL);
    }
    static inline void tactica_pcg64_seed(tactica_pcg64 *g, const uint64_t *v) {
        tactica_pcg128 s = (((tactica_pcg128)v[0]) << 64) + v[1];
        tactica_pcg128 i = (((tactica_pcg128)v[2]) << 64) + v[3];
        g->state = 0; g->inc = (i << 1) | 1;
        g->state = g->state * TACTICA_PCG_MULT + g->inc;
        g->state += s;
        g->state = g->state * TACTICA_PCG_MULT + g->inc;
        g->has_uint32 = 0; g->uinteger = 0;
    }
    """
    ctypedef struct tactica_pcg64:
        pass
    uint32_t tactica_pcg64_next32(tactica_pcg64 *g) nogil
    void tactica_pcg64_seed(tactica_pcg64 *g, const uint64_t *v) nogil


cdef inline uint32_t _hashmix(uint32_t value, uint32_t *hash_const) noexcept nogil:
    value ^= hash_const[0]
    hash_const[0] *= 0x931e8875U
    value *= hash_const[0]
    value ^= value >> 16
    return value


cdef inline uint32_t _mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t result = 0xca01f9ddU * x - 0x4973f715U * y
    result ^= result >> 16
    return result


cdef int pcg64_from_words(tactica_pcg64 *g, const uint32_t *entropy, int n) noexcept nogil:
    """PCG64(SeedSequence(entropy)): numpy's mix_entropy over a pool of 4 words, then
    generate_state(4, uint64), then PCG64's seeding."""
    cdef uint32_t pool[4]
    cdef uint32_t hash_const = 0x43b0d7e5U, data
    cdef uint32_t state32[8]
    cdef uint64_t state[4]
    cdef int i, i_src, i_dst
    for i in range(4):
        pool[i] = _hashmix(entropy[i] if i < n else 0, &hash_const)
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = _mix(pool[i_dst], _hashmix(pool[i_src], &hash_const))
    for i_src in range(4, n):
        for i_dst in range(4):
            pool[i_dst] = _mix(pool[i_dst], _hashmix(entropy[i_src], &hash_const))
    hash_const = 0x8b51f9ddU
    for i in range(8):
        data = pool[i % 4]
        data ^= hash_const
        hash_const *= 0x58f38dedU
        data *= hash_const
        data ^= data >> 16
        state32[i] = data
    for i in range(4):
        state[i] = (<uint64_t>state32[2 * i]) | ((<uint64_t>state32[2 * i + 1]) << 32)
    tactica_pcg64_seed(g, state)
    return 0


cdef int entropy_words(object values, uint32_t *out, int room) except -2:
    """numpy's _coerce_to_uint32_array of non-negative ints: each as its little-endian 32-bit
    words (0 as one word); -1 when they do not fit in ``room`` words."""
    cdef int n = 0
    for v in values:
        if v == 0:
            if n >= room:
                return -1
            out[n] = 0
            n += 1
        while v > 0:
            if n >= room:
                return -1
            out[n] = <uint32_t>(v & 0xFFFFFFFF)
            v >>= 32
            n += 1
    return n


cdef int pcg64_integer(tactica_pcg64 *g, int n) noexcept nogil:
    """Generator.integers(n) for 1 <= n < 2**32 (see bounded_integer)."""
    cdef uint32_t rng = <uint32_t>(n - 1), rng_excl = <uint32_t>n, threshold, leftover
    cdef uint64_t m
    if n <= 1:
        return 0
    m = <uint64_t>tactica_pcg64_next32(g) * rng_excl
    leftover = <uint32_t>(m & 0xFFFFFFFFULL)
    if leftover < rng_excl:
        threshold = <uint32_t>((0xFFFFFFFFUL - rng) % rng_excl)
        while leftover < threshold:
            m = <uint64_t>tactica_pcg64_next32(g) * rng_excl
            leftover = <uint32_t>(m & 0xFFFFFFFFULL)
    return <int>(m >> 32)


def policy_integers(list entropy, list ns):
    """``[default_rng(entropy).integers(n) for n in ns]``, natively (for the tests)."""
    cdef tactica_pcg64 g
    cdef uint32_t words[16]
    cdef int count = entropy_words(entropy, words, 16)
    if count < 0:
        raise ValueError("entropy too large")
    pcg64_from_words(&g, words, count)
    return [pcg64_integer(&g, n) for n in ns]


# -- the greedy policy's candidates (engine/policies.py GreedyPolicy.choose) -------------------

cdef inline int greedy_ties(const double *values, int n, int *top) noexcept nogil:
    """The options GreedyPolicy.choose draws among: every index whose value is within 1e-12
    of the best, in order, written to ``top``; returns how many (at least 1 when n >= 1)."""
    cdef int k, ntop = 0
    cdef double best = values[0]
    for k in range(1, n):
        if values[k] > best:
            best = values[k]
    for k in range(n):
        if values[k] >= best - 1e-12:
            top[ntop] = k
            ntop += 1
    return ntop


# ---------------------------------------------------------------------------------------------
# Scripted dice: a kernel started from a given state draws given outcomes instead of keyed
# words (the per-rule tests that run on both engines, tactica.testing.both). Each draw takes the
# next outcome of the script, in order (an outcome, or with ``by_index`` its place among the
# roll's outcomes), and records what the kernel asked: the roll's slot, its count, every outcome
# the roll can give with its weight, and the outcome taken (or its place). An outcome the
# roll cannot give, or a script that runs out, is an error (check() raises ScriptError after the
# step): never another value in its place.

from tactica.engine.errors import ScriptError as KernelScriptError


cdef class _ScriptedDice(_Dice):
    """Given outcomes in order, in place of the keyed dice of a battle."""
    cdef list script
    cdef int taken
    cdef public list rolls
    cdef public object error

    cdef bint by_index

    def __init__(self, list script, bint by_index=False):
        self.script = list(script)
        self.taken = 0
        self.rolls = []
        self.error = None
        self.by_index = by_index

    cdef object take(self, bytes slot, int k, list outcomes, list weights):
        """The next scripted outcome of a roll that can give ``outcomes`` (with ``weights``),
        or ``outcomes[0]`` with :attr:`error` set when the script cannot answer it."""
        if self.error is not None:
            return outcomes[0]
        if self.taken >= len(self.script):
            self.error = f"no scripted outcome left for roll {slot.decode()}{k}"
            return outcomes[0]
        value = self.script[self.taken]
        self.taken += 1
        if self.by_index:  # the outcome's place in the roll's outcomes
            if not isinstance(value, int) or not 0 <= value < len(outcomes):
                self.error = (f"scripted outcome number {value!r} for roll {slot.decode()}{k}"
                              f" is not one of its {len(outcomes)}")
                return outcomes[0]
            self.rolls.append((slot, k, tuple(outcomes), tuple(weights), value))
            return outcomes[value]
        if value not in outcomes:
            self.error = (f"scripted outcome {value!r} for roll {slot.decode()}{k} is not one "
                          f"it can give ({', '.join(map(repr, outcomes))})")
            return outcomes[0]
        self.rolls.append((slot, k, tuple(outcomes), tuple(weights), value))
        return value

    cdef int draw(self, const uint8_t *slot, int slot_len, int k, Pool *pool) noexcept nogil:
        cdef int i
        cdef uint64_t previous = 0
        with gil:
            outcomes, weights = [], []
            for i in range(pool.n):
                outcomes.append(pool.outcome[i])
                weights.append(pool.cum[i] - previous)
                previous = pool.cum[i]
            return self.take((<const char *>slot)[:slot_len], k, outcomes, weights)

    cdef object draw_wide(self, bytes slot, int k, object dist):
        return self.take(slot, k, list(dist.outcomes), list(dist.weights))

    def check(self):
        """Raise ScriptError when a draw of the step could not be answered."""
        if self.error is not None:
            raise KernelScriptError(self.error)

    def check_done(self):
        """Raise ScriptError when outcomes are left over after the run."""
        self.check()
        if self.taken < len(self.script):
            raise KernelScriptError("scripted outcomes left over after the run: "
                                    f"{self.script[self.taken:]!r}")
