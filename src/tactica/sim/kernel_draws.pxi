# Native draws shared by the compiled simulation kernels (included by each game's _kernel.pyx).
#
# * Keyed dice: tactica.sim.streams.KeyedDice draws every roll from 64-bit words of BLAKE2b of
#   the roll's key, fed to the distribution's exact sampler (tactica.dice.sampling.uniform_below
#   and Sampler.index). _Dice.draw does the same natively; blake2b_word is tested against
#   hashlib.
# * Policy generators: a side's numpy Generator (tactica.sim.play.policy_generator) is made by
#   numpy, and ``generator.integers(n)`` is drawn through numpy's bit generator C interface
#   with the same bounded method (bounded_integer).

from libc.string cimport memset, memcpy
from cpython.pycapsule cimport PyCapsule_GetPointer

cdef extern from *:
    """
    #include <stdint.h>
    /* numpy's bit generator interface (numpy/random/bitgen.h, a stable C API). */
    typedef struct tactica_bitgen {
        void *state;
        uint64_t (*next_uint64)(void *st);
        uint32_t (*next_uint32)(void *st);
        double (*next_double)(void *st);
        uint64_t (*next_raw)(void *st);
    } tactica_bitgen_t;
    typedef unsigned __int128 tactica_u128;
    static inline uint64_t tactica_mul_hi(uint64_t a, uint64_t b, uint64_t *lo) {
        tactica_u128 m = (tactica_u128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    """
    ctypedef struct tactica_bitgen_t:
        void *state
        uint64_t (*next_uint64)(void *st) nogil
        uint32_t (*next_uint32)(void *st) nogil
    uint64_t tactica_mul_hi(uint64_t a, uint64_t b, uint64_t *lo) nogil


# ---------------------------------------------------------------------------------------------
# BLAKE2b (RFC 7693), digest of 8 bytes with a 16-byte salt: hashlib.blake2b(data,
# digest_size=8, salt=counter.to_bytes(16, "little")) of tactica.sim.streams._Words.random_raw.

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


# ---------------------------------------------------------------------------------------------
# Exact draws: tactica.dice.sampling.uniform_below and Sampler.index, fed by keyed words.

DEF KEY_MAX = 1024   # prefix (<= 64) + slot (<= 900, checked by kernel.py) + count digits
DEF MAX_POOL_OUTCOMES = 128

cdef struct Pool:
    int n              # outcomes
    uint64_t total
    uint64_t cum[MAX_POOL_OUTCOMES]
    int outcome[MAX_POOL_OUTCOMES]


cdef class _Dice:
    """The keyed dice of one battle (tactica.sim.streams.KeyedDice)."""
    cdef uint8_t key[KEY_MAX]
    cdef int prefix_len

    cdef int set_prefix(self, bytes prefix) except -1:
        if len(prefix) > 64:
            raise ValueError("key prefix too long")
        memcpy(self.key, <const uint8_t *>prefix, len(prefix))
        self.prefix_len = len(prefix)
        return 0

    cdef int draw(self, const uint8_t *slot, int slot_len, int k, Pool *pool) noexcept nogil:
        """One roll of ``pool`` keyed ``prefix + slot + str(k)`` (KeyedDice.roll)."""
        cdef int n = self.prefix_len, digits = 0, i
        cdef char tmp[24]
        cdef uint64_t count = 0, word, lo, hi, threshold, total = pool.total
        memcpy(self.key + n, slot, slot_len)
        n += slot_len
        if k == 0:
            tmp[0] = 48
            digits = 1
        while k > 0:
            tmp[digits] = 48 + k % 10
            k //= 10
            digits += 1
        for i in range(digits):
            self.key[n + i] = tmp[digits - 1 - i]
        n += digits
        if pool.n == 1:  # Dist.sample: a single outcome draws nothing
            return pool.outcome[0]
        # uniform_below(total), Lemire's multiply-and-reject on 64-bit words
        if total <= 1:
            return pool.outcome[0]
        word = _blake2b_word(self.key, n, count)
        count += 1
        hi = tactica_mul_hi(word, total, &lo)
        if lo < total:
            threshold = (0 - total) % total
            while lo < threshold:
                word = _blake2b_word(self.key, n, count)
                count += 1
                hi = tactica_mul_hi(word, total, &lo)
        # Sampler.index: bisect_right over the cumulative weights
        for i in range(pool.n):
            if pool.cum[i] > hi:
                return pool.outcome[i]
        return pool.outcome[pool.n - 1]



cdef int bounded_integer(object capsule, int n) except -1:
    """``generator.integers(n)`` for ``n`` below 2**32, from the generator's bit generator
    capsule: Lemire's bounded 32-bit method, as numpy's random_bounded_uint64_fill for a range
    below 2**32 (``n`` 1 draws nothing)."""
    cdef tactica_bitgen_t *bg
    cdef uint32_t rng = <uint32_t>(n - 1), rng_excl = <uint32_t>n, threshold, leftover
    cdef uint64_t m
    if n <= 1:
        return 0
    bg = <tactica_bitgen_t *>PyCapsule_GetPointer(capsule, "BitGenerator")
    m = <uint64_t>bg.next_uint32(bg.state) * rng_excl
    leftover = <uint32_t>(m & 0xFFFFFFFFULL)
    if leftover < rng_excl:
        threshold = <uint32_t>((0xFFFFFFFFUL - rng) % rng_excl)
        while leftover < threshold:
            m = <uint64_t>bg.next_uint32(bg.state) * rng_excl
            leftover = <uint32_t>(m & 0xFFFFFFFFULL)
    return <int>(m >> 32)
