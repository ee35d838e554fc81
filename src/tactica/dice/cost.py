"""Size limits of dice expressions, estimated from the syntax tree before anything is rolled.

Each node of a parsed expression reports a :class:`Cost`: bounds on its integer outcomes, on
the number of outcomes and on the bits of its total weight, and an estimate of the big-integer
work of its subtree in units of roughly a nanosecond (Karatsuba for large products). Nodes
above :data:`MAX_OUTCOMES` are refused as soon as they are costed, and whole expressions above
:data:`MAX_WORK` before evaluation, so ``1000000d1000000`` fails at once with a clear message.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tactica.engine.errors import DiceError

__all__ = [
    "MAX_BITS",
    "MAX_DICE",
    "MAX_OUTCOMES",
    "MAX_SIDES",
    "MAX_VALUE",
    "MAX_WORK",
    "PER_OUTCOME",
    "Cost",
    "arith_cost",
    "div_cost",
    "make_cost",
    "mul_work",
    "slot_bits",
]

#: Most dice in one ``NdS`` term.
MAX_DICE = 10_000
#: Most sides of one die.
MAX_SIDES = 1_000_000
#: Most outcomes of any intermediate distribution.
MAX_OUTCOMES = 200_000
#: Estimated work limit (roughly nanoseconds of big-integer arithmetic; about a second).
MAX_WORK = 1e9
#: Work of building one outcome of a distribution, in work units.
PER_OUTCOME = 300.0
#: Most bits of exact weights in one distribution (outcomes x bits per weight; 256 MiB).
MAX_BITS = 2**31
#: Largest magnitude of any value (beyond it means and deviations no longer fit a float).
MAX_VALUE = 10**100

_BIG_SPAN = 10**15  # spans are clamped here so float estimates never overflow


@dataclass(frozen=True, slots=True)
class Cost:
    """Upper bounds computed from the syntax tree alone, before any dice are computed.

    ``lo``/``hi`` bound the integer outcomes, ``outcomes`` bounds their number,
    ``weight_bits`` bounds log2 of the total weight, and ``work`` estimates the big-integer
    arithmetic of the whole subtree (units of roughly a nanosecond).
    """

    lo: int
    hi: int
    outcomes: int
    weight_bits: float
    work: float

    @property
    def span(self) -> int:
        """``hi - lo + 1``, clamped to a large bound."""
        return min(self.hi - self.lo + 1, _BIG_SPAN)

    @property
    def packed_bits(self) -> float:
        """Size of the distribution packed as one big integer (span x slot width)."""
        return self.span * slot_bits(self.weight_bits)


def slot_bits(weight_bits: float) -> float:
    """Bits per packed slot for weights below ``2**weight_bits`` (as :mod:`poly` rounds them)."""
    need = weight_bits + 1
    for width in (8, 16, 32, 64):
        if need <= width:
            return float(width)
    return float(math.ceil(need / 8) * 8)


def mul_work(bits_a: float, bits_b: float) -> float:
    """Estimated cost of multiplying two big integers (schoolbook, then Karatsuba)."""
    da = max(bits_a / 30.0, 1.0)
    db = max(bits_b / 30.0, 1.0)
    small, large = min(da, db), max(da, db)
    if small < 70:
        return small * large
    return float((large / small) * small**1.585 * 4.0)


def make_cost(lo: int, hi: int, bound: int, bits: float, work: float, what: object) -> Cost:
    """A :class:`Cost`, refusing any node with more than :data:`MAX_OUTCOMES` outcomes."""
    top = max(-lo, hi)
    if top > MAX_VALUE:
        digits = int(top.bit_length() * math.log10(2))
        raise DiceError(
            f"{str(what)!r} reaches values of about 10^{digits}, too large to compute "
            f"(at most 10^{round(math.log10(MAX_VALUE))})"
        )
    n = min(hi - lo + 1, bound)
    if n > MAX_OUTCOMES:
        shown = f"{n}" if n < _BIG_SPAN else "astronomically many"
        raise DiceError(
            f"{str(what)!r} has too many outcomes to compute exactly: up to {shown} "
            f"(at most {MAX_OUTCOMES})"
        )
    if n * bits > MAX_BITS:
        raise DiceError(
            f"{str(what)!r} is too large to hold exactly: about {n * bits / 8e6:.0f} MB of "
            f"exact weights (at most {MAX_BITS / 8e6:.0f} MB); use fewer dice or fewer sides"
        )
    return Cost(lo, hi, n, bits, work)


def arith_cost(op: str, a: Cost, b: Cost, what: object) -> Cost:
    """Cost of ``a op b`` for independent operands with costs ``a`` and ``b``."""
    work = a.work + b.work
    pairs = a.outcomes * b.outcomes
    bits = a.weight_bits + b.weight_bits
    if op == "*":
        corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        lo, hi = min(corners), max(corners)
    elif op == "+":
        lo, hi = a.lo + b.lo, a.hi + b.hi
    else:
        lo, hi = a.lo - b.hi, a.hi - b.lo
    span = min(hi - lo + 1, _BIG_SPAN)
    if a.outcomes == 1 or b.outcomes == 1:
        work += min(span, pairs) * PER_OUTCOME
    elif op == "*" or span > 4 * pairs + 64:
        work += pairs * PER_OUTCOME
    else:
        slot = slot_bits(bits)  # the slots hold the product's weights
        work += mul_work(a.span * slot, b.span * slot) + span * PER_OUTCOME
    return make_cost(lo, hi, pairs, bits, work, what)


def div_cost(a: Cost, b: Cost, what: object) -> Cost:
    """Cost of ``a / b`` rounded (down or up) for independent operands."""
    pairs = a.outcomes * b.outcomes
    work = a.work + b.work + min(pairs, 10**15) * PER_OUTCOME
    top = max(abs(a.lo), abs(a.hi))
    if b.lo <= 0 <= b.hi:
        lo, hi = -top - 1, top + 1
    else:
        quotients = [x // y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        lo, hi = min(quotients), max(quotients) + 1
    return make_cost(lo, hi, pairs, a.weight_bits + b.weight_bits, work, what)
