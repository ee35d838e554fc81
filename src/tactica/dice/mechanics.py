"""The dice of the five games and the common pool mechanics, as exact :class:`Dist` values.

Pools are rolled as one distribution: the number of successes of ``n`` dice is one
:class:`Dist` with ``n + 1`` outcomes (binomial weights as big integers), keeping the highest
``k`` of ``n`` dice is computed from the order statistics without listing the rolls, and a
random number of rolls (hits, then damage per hit) is one polynomial evaluation.

>>> d10_target_successes(1, 6).p(1)
Fraction(3, 5)
>>> thin(d10_target_successes(1, 6), d10_success_chance(3, fails=True)).p(1)
Fraction(21, 50)
>>> keep_highest(4, die(6), 3).mean()
Fraction(15869, 1296)
>>> read_percentile(0, 0), read_percentile(4, 2)
(100, 42)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from tactica.dice.bigsum import binomial_weights
from tactica.dice.dist import Dist
from tactica.dice.poly import pack, unpack, width_for
from tactica.engine.errors import DiceError

__all__ = [
    "STEP_SIZES",
    "bernoulli",
    "binomial",
    "count_successes",
    "d10_faces",
    "d10_success_chance",
    "d10_target_successes",
    "d20",
    "d100",
    "dice",
    "die",
    "keep_highest",
    "keep_lowest",
    "opposed",
    "percentile_pair",
    "random_rolls",
    "read_percentile",
    "step_die",
    "step_down",
    "thin",
    "two_d6",
]

T = TypeVar("T")

#: The die sizes of a step-die ladder (d4 < d6 < d8 < d10 < d12), as in Arc's armor dice.
STEP_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12)


def _count(n: object, what: str) -> int:
    if type(n) is not int or n < 0:
        raise DiceError(f"{what} must be a non-negative integer, got {n!r}")
    return n


def _int_dist(d: object, what: str) -> Dist[int]:
    if not isinstance(d, Dist) or not d.is_integer():
        raise DiceError(f"{what} must be a Dist of integers, got {d!r}")
    return d


# ---------------------------------------------------------------------- single dice


def die(sides: int) -> Dist[int]:
    """A fair die with faces ``1..sides``."""
    if type(sides) is not int or sides < 1:
        raise DiceError(f"a die needs a positive whole number of sides, got {sides!r}")
    return Dist._raw(tuple(range(1, sides + 1)), (1,) * sides, sides, True)


def dice(n: int, sides: int) -> Dist[int]:
    """The sum of ``n`` dice with faces ``1..sides`` (``NdS``)."""
    return die(sides).repeat_sum(_count(n, "number of dice"))


def d10_faces() -> Dist[int]:
    """A D10 with faces ``0..9`` (read with 0 as a failure, as roll-under pools do)."""
    return Dist._raw(tuple(range(10)), (1,) * 10, 10, True)


def two_d6() -> Dist[int]:
    """The sum of two six-sided dice."""
    return die(6).repeat_sum(2)


def d20() -> Dist[int]:
    """A twenty-sided die (Arc)."""
    return die(20)


def d100() -> Dist[int]:
    """Percentile dice read as one number ``1..100`` (``00`` with ``0`` reads 100)."""
    return die(100)


def step_die(size: int) -> Dist[int]:
    """A die of the step ladder ``d4..d12`` (see :data:`STEP_SIZES`)."""
    if size not in STEP_SIZES:
        raise DiceError(f"no step die d{size}: expected one of {', '.join(map(str, STEP_SIZES))}")
    return die(size)


def step_down(size: int, steps: int = 1) -> int | None:
    """The die size ``steps`` steps down the ladder, or ``None`` once it is gone."""
    if size not in STEP_SIZES:
        raise DiceError(f"no step die d{size}: expected one of {', '.join(map(str, STEP_SIZES))}")
    i = STEP_SIZES.index(size) - _count(steps, "steps")
    return STEP_SIZES[i] if i >= 0 else None


def percentile_pair() -> Dist[tuple[int, int]]:
    """Percentile dice kept apart: ``(tens, units)``, each ``0..9``."""
    pairs = tuple((t, u) for t in range(10) for u in range(10))
    return Dist._raw(pairs, (1,) * 100, 100, True)


def read_percentile(tens: int, units: int) -> int:
    """Read percentile dice as ``1..100``: ``10 * tens + units``, except ``00`` and ``0`` is 100."""
    for name, v in (("tens", tens), ("units", units)):
        if type(v) is not int or not 0 <= v <= 9:
            raise DiceError(f"the {name} die reads 0-9, got {v!r}")
    return 10 * tens + units or 100


# ---------------------------------------------------------------------- successes


def _probability(p: Fraction | int) -> Fraction:
    try:
        fp = p if type(p) is Fraction else Fraction(p)
    except (TypeError, ValueError) as exc:
        raise DiceError(f"a probability must be a Fraction or an int, got {p!r}") from exc
    if not 0 <= fp.numerator <= fp.denominator:
        raise DiceError(f"a probability must be between 0 and 1, got {p}")
    return fp


def bernoulli(p: Fraction | int) -> Dist[int]:
    """1 with probability ``p``, else 0."""
    return binomial(1, p)


#: Up to this many trials the binomial weights are computed term by term; above it, by the
#: ratio of consecutive weights (one small product and one exact division each).
_DIRECT_BINOMIAL = 12


def _binomial_weights(n: int, s: int, f: int) -> Dist[int]:
    """``n`` trials with success weight ``s`` and failure weight ``f`` (coprime, both > 0)."""
    if n <= _DIRECT_BINOMIAL:
        f_pows = [1]
        for _ in range(n):
            f_pows.append(f_pows[-1] * f)
        coeffs = []
        c, s_pow = 1, 1
        for j in range(n + 1):
            coeffs.append(c * s_pow * f_pows[n - j])
            s_pow *= s
            c = c * (n - j) // (j + 1)
    else:
        coeffs = binomial_weights(n, s, f)
    # gcd(s, f) = 1, so the weights s**n and f**n are coprime: nothing to reduce.
    return Dist._raw(tuple(range(n + 1)), tuple(coeffs), (s + f) ** n, True)


def binomial(n: int, p: Fraction | int) -> Dist[int]:
    """The number of successes of ``n`` independent trials of probability ``p``."""
    n = _count(n, "number of trials")
    fp = _probability(p)
    s, f = fp.numerator, fp.denominator - fp.numerator
    if n == 0 or s == 0:
        return Dist.constant(0)
    if f == 0:
        return Dist.constant(n)
    return _binomial_weights(n, s, f)


def count_successes(n: int, die: Dist[T], is_success: Callable[[T], bool]) -> Dist[int]:
    """The number of dice of ``n`` that succeed, as one distribution over ``0..n``."""
    n = _count(n, "number of dice")
    s = sum(w for o, w in zip(die.outcomes, die.weights, strict=True) if is_success(o))
    return binomial(n, Fraction(s, die.total))


def d10_success_chance(target: int, modifier: int = 0, *, fails: bool = False) -> Fraction:
    """Chance that one roll-under D10 succeeds (``fails=True``: that it fails).

    A face succeeds when ``face + modifier <= target``; the natural face decides the automatic
    results: 1 always succeeds and 0 always fails (whatever the modifier).
    """
    for name, v in (("target", target), ("modifier", modifier)):
        if type(v) is not int:
            raise DiceError(f"the {name} must be an integer, got {v!r}")
    # face 1 always, faces 2..9 when face <= target - modifier, face 0 never
    good = 1 + min(8, max(0, target - modifier - 1))
    return Fraction(10 - good if fails else good, 10)


def d10_target_successes(n: int, target: int, modifier: int = 0) -> Dist[int]:
    """Successes of ``n`` roll-under D10s (faces 0-9) at ``face + modifier <= target``.

    Face 1 always succeeds and face 0 always fails, whatever the modifier.
    """
    return binomial(_count(n, "number of dice"), d10_success_chance(target, modifier))


# ---------------------------------------------------------------------- keeping dice


def keep_highest(n: int, die: Dist[int], k: int) -> Dist[int]:
    """The sum of the highest ``k`` of ``n`` independent rolls of ``die``.

    Counts by the ``k``-th highest value ``v``: ``j < k`` dice above ``v`` (any values above),
    the other ``n - j`` at or below ``v`` with at least ``k - j`` equal to ``v``. Each term is a
    power of the "above v" part of the die, packed into one big integer.
    """
    n = _count(n, "number of dice")
    k = _count(k, "number of dice kept")
    d = _int_dist(die, "the die")
    if k > n:
        raise DiceError(f"cannot keep {k} of {n} dice")
    if k == 0:
        return Dist.constant(0)
    if len(d) == 1:
        return d.repeat_sum(k)
    if k == n:
        return d.repeat_sum(n)
    lo, dense = d._dense()
    m = len(dense)
    width = width_for(d.total**n)
    bits = 8 * width
    packed = pack(dense, width)
    # With j dice above v, the other n - j dice are all <= v and at least k - j equal v. Their
    # number of ways T(n - j, k - j), T(r, m) = sum over q >= m of C(r, q) wv**q below**(r - q),
    # follows T(r + 1, m + 1) = upto * T(r, m) - below * C(r, m) * wv**m * below**(r - m),
    # where r - m = n - k stays fixed: k steps per face, from j = k - 1 down to j = 0.
    spread = n - k
    choose_n = [math.comb(n, j) for j in range(k)]
    acc = 0
    below = 0  # weight of faces below v
    ways = [0] * k
    for e, wv in enumerate(dense):
        if not wv:
            continue
        upto = below + wv
        below_spread = below**spread
        t = upto * upto**spread - below * below_spread  # T(spread + 1, 1)
        binom, wv_m = spread + 1, wv  # C(r, m) and wv**m for r = spread + 1, m = 1
        ways[k - 1] = t
        for step in range(1, k):
            t = upto * t - below * binom * wv_m * below_spread
            binom = binom * (spread + 1 + step) // (1 + step)
            wv_m *= wv
            ways[k - 1 - step] = t
        cut = bits * (e + 1)
        above = (packed >> cut) << cut
        power = 1  # above ** j
        for j in range(k):
            if ways[j]:
                acc += (power * (choose_n[j] * ways[j])) << (bits * (k - j) * e)
            if j + 1 < k:
                power *= above
                if not power:
                    break
        below = upto
    coeffs = unpack(acc, width, (m - 1) * k + 1)
    return Dist._from_dense(lo * k, coeffs)


def keep_lowest(n: int, die: Dist[int], k: int) -> Dist[int]:
    """The sum of the lowest ``k`` of ``n`` independent rolls of ``die``."""
    d = _int_dist(die, "the die")
    result: Dist[int] = -keep_highest(n, -d, k)
    return result


def keep_scored(
    n: int, die: Dist[int], k: int, score: Callable[[int], int], *, highest: bool = True
) -> Dist[int]:
    """The sum of ``score(v)`` over the highest (or lowest) ``k`` of ``n`` rolls of ``die``.

    :func:`keep_highest` with a score per kept die: ``score = lambda v: int(v >= 5)`` counts
    the kept dice showing 5 or more. Same counting by the ``k``-th kept value as there, with
    the dice above it packed by their score instead of their value.

    >>> keep_scored(4, die(6), 3, lambda v: int(v >= 5)).p(3)
    Fraction(1, 9)
    """
    n = _count(n, "number of dice")
    k = _count(k, "number of dice kept")
    d = _int_dist(die, "the die")
    if k > n:
        raise DiceError(f"cannot keep {k} of {n} dice")
    if not highest:
        d = -d
        original = score

        def score(v: int) -> int:
            return original(-v)

    if k == 0:
        return Dist.constant(0)
    outcomes = d.outcomes
    scores = [score(v) for v in outcomes]
    g_lo = min(scores)
    rel = [s - g_lo for s in scores]
    width = width_for(d.total**n)
    bits = 8 * width
    m = len(outcomes)
    # above[e]: the faces above face e, packed by score
    above = [0] * m
    for e in range(m - 2, -1, -1):
        above[e] = above[e + 1] + (d.weights[e + 1] << (bits * rel[e + 1]))
    spread = n - k
    choose_n = [math.comb(n, j) for j in range(k)]
    acc = 0
    below = 0
    ways = [0] * k
    for e, wv in enumerate(d.weights):
        upto = below + wv
        below_spread = below**spread
        t = upto * upto**spread - below * below_spread
        binom, wv_m = spread + 1, wv
        ways[k - 1] = t
        for step in range(1, k):
            t = upto * t - below * binom * wv_m * below_spread
            binom = binom * (spread + 1 + step) // (1 + step)
            wv_m *= wv
            ways[k - 1 - step] = t
        power = 1
        for j in range(k):
            if ways[j]:
                acc += (power * (choose_n[j] * ways[j])) << (bits * (k - j) * rel[e])
            if j + 1 < k:
                power *= above[e]
                if not power:
                    break
        below = upto
    coeffs = unpack(acc, width, k * max(rel) + 1)
    return Dist._from_dense(g_lo * k, coeffs)


# ---------------------------------------------------------------------- compound rolls


def random_rolls(count: Dist[int], each: Dist[int]) -> Dist[int]:
    """Roll ``count``, then that many independent rolls of ``each``, and sum them.

    Evaluates ``sum_n P(count = n) * each**n`` by Horner's rule on packed polynomials, so
    equal totals merge at every step (hits, then damage per hit).
    """
    c = _int_dist(count, "the count")
    e = _int_dist(each, "each roll")
    if c.outcomes[0] < 0:
        raise DiceError(f"the number of rolls cannot be negative: {c.outcomes[0]}")
    top_n = c.outcomes[-1]
    if top_n == 0:
        return Dist.constant(0)
    lo_e, dense_e = e._dense()
    hi_e = e.outcomes[-1]
    shift = min(lo_e, 0)  # every roll is shifted up by -shift so exponents are >= 0
    slot = max(hi_e, 0) - shift  # highest exponent of one roll (or of "no roll")
    t = e.total
    width = width_for(c.total * t**top_n)
    bits = 8 * width
    f_poly = pack(dense_e, width) << (bits * (lo_e - shift))
    # A few small weights (a die, a save): shifted additions beat one lopsided product.
    terms = [(c_w, bits * (o - shift)) for o, c_w in zip(e.outcomes, e.weights, strict=True)]
    sparse = len(terms) <= 12 and e.total < (1 << 30)
    g_poly = t << (bits * -shift)  # a roll not made: value 0, weight t (common denominator)
    lo_c, dense_c = c._dense()
    acc = dense_c[-1]
    g_pow = 1
    for i in range(top_n - 1, -1, -1):
        g_pow *= g_poly
        if sparse:
            acc = sum([(acc * c_w if c_w != 1 else acc) << sh for c_w, sh in terms])
        else:
            acc *= f_poly
        w = dense_c[i - lo_c] if i >= lo_c else 0
        if w:
            acc += w * g_pow
    coeffs = unpack(acc, width, top_n * slot + 1)
    return Dist._from_dense(top_n * shift, coeffs)


#: Up to this many items, :func:`thin` sums binomial rows directly instead of using Horner.
_DIRECT_THIN = 12


def thin(count: Dist[int], p_keep: Fraction | int) -> Dist[int]:
    """Keep each of ``count`` items independently with probability ``p_keep``.

    The binomial thinning of a count: one save per hit, the unsaved hits remain.
    """
    c = _int_dist(count, "the count")
    fp = _probability(p_keep)
    keep, denom = fp.numerator, fp.denominator
    lose = denom - keep
    if c.outcomes[0] < 0:
        raise DiceError(f"the number of items cannot be negative: {c.outcomes[0]}")
    if keep == 0:
        return Dist.constant(0)
    if lose == 0:
        return c
    top = c.outcomes[-1]
    if top > _DIRECT_THIN:
        return random_rolls(c, Dist._raw((0, 1), (lose, keep), denom, True))
    # sum over h of P(count = h) * (lose + keep*z)**h, on the common denominator denom**top
    coeffs = [0] * (top + 1)
    for h, w in zip(c.outcomes, c.weights, strict=True):
        scale = w * denom ** (top - h)
        binom = 1
        for i in range(h + 1):
            coeffs[i] += scale * binom * keep**i * lose ** (h - i)
            binom = binom * (h - i) // (i + 1)
    return Dist._from_dense(0, coeffs)


def opposed(a: Dist[Any], b: Dist[Any]) -> Dist[int]:
    """Compare independent rolls: 1 if ``a`` is higher, 0 on a tie, -1 if ``b`` is higher."""
    return a.opposed(b)
