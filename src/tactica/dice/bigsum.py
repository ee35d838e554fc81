"""Big pools exactly: sums of many independent rolls by linear recurrences on the weights.

The weights of the sum of ``n`` rolls of a die with weights ``q_0..q_m`` (outcomes
``lo, lo+g, ..., lo+m*g``) are the coefficients of ``P = Q**n``. Packing ``Q`` into one big
integer and raising it to the ``n``-th power (:mod:`tactica.dice.poly`) is fast for small
pools, but its cost grows with the square of the result's size in bits. The identity
``Q * P' = n * Q' * P`` (J. C. P. Miller's recurrence) gives each coefficient from the ``m``
before it with small-integer products and one exact division::

    p_k = sum(q_i * ((n + 1) * i - k) * p_(k - i) for i in 1..m) / (k * q_0)

For a fair die ``Q = (1 - z**s) / (1 - z)`` and the recurrence needs three terms whatever the
number of sides; for two outcomes it is the binomial ratio ``p_(j+1) = p_j * (n-j) s / ((j+1) f)``.
Symmetric dice give symmetric sums, so only half the coefficients are computed.
Everything stays in Python integers: exact, with no floating point anywhere.

>>> from tactica.dice.mechanics import die
>>> power_sum(die(6), 3).p(10)
Fraction(1, 8)
>>> power_sum(die(6), 1000).mean()
Fraction(3500, 1)
>>> extreme(2, die(20), highest=True).p(20)
Fraction(39, 400)
"""

from __future__ import annotations

import math

from tactica.dice.cost import mul_work, slot_bits
from tactica.dice.dist import Dist
from tactica.engine.errors import DiceError

__all__ = [
    "binomial_weights",
    "extreme",
    "power_sum",
    "power_sum_work",
    "recurrence_work",
]

#: Work units (about a nanosecond) per 30-bit digit of one small-by-big product and addition.
_DIGIT_WORK = 4.0
#: Fixed work of one recurrence term (interpreter overhead).
_TERM_WORK = 120.0


def recurrence_work(span: int, terms: int, result_bits: float, symmetric: bool) -> float:
    """Estimated work of a weight recurrence: ``span`` coefficients of ``terms`` terms each."""
    digits = max(result_bits / 30.0, 1.0)
    computed = span / 2 if symmetric else span
    return computed * ((terms + 1) * (digits * _DIGIT_WORK + _TERM_WORK))


def _kronecker_work(span: int, result_bits: float) -> float:
    packed = span * slot_bits(result_bits)
    return 1.5 * mul_work(packed / 2, packed / 2)


def power_sum_work(
    outcomes: int, span_steps: int, uniform: bool, symmetric: bool, n: int, die_bits: float
) -> float:
    """Estimated work of :func:`power_sum` for ``n`` rolls of a die (the cheaper method).

    ``outcomes`` is the die's number of outcomes, ``span_steps`` its highest exponent ``m``
    (outcomes ``lo..lo+m*g``), ``die_bits`` log2 of its total weight.
    """
    if n <= 1 or outcomes <= 1:
        return 0.0
    span = span_steps * n + 1
    bits = n * die_bits
    terms = 1 if outcomes == 2 and span_steps == 1 else 3 if uniform else outcomes - 1
    return min(_kronecker_work(span, bits), recurrence_work(span, terms, bits, symmetric))


def binomial_weights(n: int, s: int, f: int) -> list[int]:
    """``C(n, j) * s**j * f**(n-j)`` for ``j = 0..n`` by the ratio recurrence (``s, f > 0``)."""
    weights = [0] * (n + 1)
    x = f**n
    weights[0] = x
    for j in range(n):
        x = x * ((n - j) * s) // ((j + 1) * f)
        weights[j + 1] = x
    return weights


def _uniform_weights(s: int, n: int) -> list[int]:
    """Coefficients of ``(1 + z + ... + z**(s-1))**n`` (three-term recurrence, symmetric)."""
    span = (s - 1) * n + 1
    half = span // 2
    p = [1]
    append = p.append
    s1 = s * (n + 1)
    x = 1
    for k in range(1, min(s, half + 1)):  # below s sides the sum is a binomial coefficient
        x = x * (k - 1 + n) // k
        append(x)
    if s <= half:
        append(((s - 1 + n) * p[s - 1] - (s1 - s)) // s)
    for k in range(s + 1, half + 1):
        a = k - 1 + n
        append((a * p[k - 1] - (s1 - k) * p[k - s] + (s1 - a) * p[k - s - 1]) // k)
    rest = p[: span - half - 1]
    rest.reverse()
    return p + rest


def _miller_weights(q: list[int], n: int, symmetric: bool) -> list[int]:
    """Coefficients of ``(sum q_i z**i)**n`` by Miller's recurrence (``q[0] > 0``)."""
    m = len(q) - 1
    span = m * n + 1
    p = [0] * span
    q0 = q[0]
    p[0] = q0**n
    terms = [(i, qi) for i, qi in enumerate(q) if i and qi]
    n1 = n + 1
    last = span // 2 if symmetric else span - 1
    for k in range(1, last + 1):
        acc = 0
        for i, qi in terms:
            if i > k:
                break
            acc += qi * (n1 * i - k) * p[k - i]
        p[k] = acc // (k * q0)
    if symmetric:
        for k in range(last + 1, span):
            p[k] = p[span - 1 - k]
    return p


def _stride(outcomes: tuple[int, ...]) -> int:
    g = 0
    lo = outcomes[0]
    for o in outcomes:
        g = math.gcd(g, o - lo)
    return g or 1


def power_sum(die: Dist[int], n: int) -> Dist[int]:
    """The sum of ``n`` independent rolls of an integer distribution, exactly.

    Chooses the cheapest exact method: a packed big-integer power for small results, the
    binomial ratio for two outcomes, the three-term recurrence for fair dice, and Miller's
    recurrence otherwise (see the module notes).
    """
    if type(n) is not int or n < 0:
        raise DiceError(f"the number of rolls must be a non-negative integer, got {n!r}")
    if not die.is_integer():
        raise DiceError(f"power_sum needs a Dist of integers, got {die!r}")
    if n <= 1 or len(die) == 1:
        return die.repeat_sum(n)
    outcomes = die.outcomes
    lo, g = outcomes[0], _stride(outcomes)
    m = (outcomes[-1] - lo) // g
    q = [0] * (m + 1)
    for o, w in zip(outcomes, die.weights, strict=True):
        q[(o - lo) // g] = w
    symmetric = q == q[::-1]
    uniform = len(outcomes) == m + 1 and all(w == q[0] for w in q)
    bits = n * math.log2(die.total)
    span = m * n + 1
    terms = 1 if m == 1 else 3 if uniform else len(outcomes) - 1
    if _kronecker_work(span, bits) < recurrence_work(span, terms, bits, symmetric):
        return die.repeat_sum(n)
    if m == 1:
        coeffs = binomial_weights(n, q[1], q[0])
    elif uniform:
        coeffs = _uniform_weights(m + 1, n)
    else:
        coeffs = _miller_weights(q, n, symmetric)
    values = range(lo * n, lo * n + g * span, g)
    # The die's weights are coprime, so (Gauss's lemma) the weights of its powers are too.
    if 0 in coeffs:  # a die with gaps cannot make every total
        kept = [(v, c) for v, c in zip(values, coeffs, strict=True) if c]
        return Dist._raw(tuple(v for v, _ in kept), tuple(c for _, c in kept), die.total**n, True)
    return Dist._raw(tuple(values), tuple(coeffs), die.total**n, True)


def extreme(n: int, die: Dist[int], *, highest: bool) -> Dist[int]:
    """The highest (or lowest) of ``n`` independent rolls: ``F(v)**n - F(v-)**n`` per value,
    where ``F`` is the weight of the values up to ``v`` (from ``v`` up, for the lowest)."""
    if n < 1:
        raise DiceError(f"the highest or lowest of {n} rolls is undefined")
    weights = die.weights if highest else die.weights[::-1]
    out: list[int] = []
    upto = prev = 0
    for w in weights:
        upto += w
        now = upto**n
        out.append(now - prev)
        prev = now
    if not highest:
        out.reverse()
    g = math.gcd(*out)
    if g != 1:
        out = [w // g for w in out]
    return Dist._raw(die.outcomes, tuple(out), sum(out), True)
