"""Statistics and cumulative tables of a distribution, mixed into :class:`~tactica.dice.Dist`.

Everything here is exact: means and variances are fractions, and ``at_least``/``at_most`` read
prefix sums of the integer weights. The tables are memoised on the distribution itself.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from fractions import Fraction
from itertools import accumulate
from typing import Any, Generic, TypeVar, cast

from tactica.engine.errors import DiceError

__all__ = ["DistStats"]

T = TypeVar("T")


def _numeric(value: object) -> int | Fraction:
    if type(value) is int:
        return value
    try:
        return Fraction(cast(Any, value))
    except (TypeError, ValueError) as exc:
        raise DiceError(f"outcome {value!r} is not a number") from exc


class DistStats(Generic[T]):
    """Exact statistics over ``_outcomes`` / ``_weights`` / ``_total`` (see ``Dist``)."""

    __slots__ = ()

    _outcomes: tuple[T, ...]
    _weights: tuple[int, ...]
    _total: int
    _ordered: bool
    _memo: dict[str, Any]

    def mean(self) -> Fraction:
        """The exact expected value (numeric outcomes)."""
        s = sum(w * _numeric(o) for o, w in zip(self._outcomes, self._weights, strict=True))
        return Fraction(s) / self._total

    def variance(self) -> Fraction:
        """The exact variance (numeric outcomes)."""
        s1: int | Fraction = 0
        s2: int | Fraction = 0
        for o, w in zip(self._outcomes, self._weights, strict=True):
            x = _numeric(o)
            s1 += w * x
            s2 += w * x * x
        t = self._total
        return Fraction(s2 * t - s1 * s1) / (t * t)

    def sd(self) -> float:
        """The standard deviation as a float."""
        return math.sqrt(self.variance())

    def _require_order(self, what: str) -> None:
        if not self._ordered:
            raise DiceError(f"{what} needs comparable outcomes, got {self._outcomes[:3]!r}...")

    def _cumulative(self) -> list[int]:
        """Prefix sums of the weights (the last one is the total)."""
        cum: list[int] | None = self._memo.get("cum")
        if cum is None:
            cum = list(accumulate(self._weights))
            self._memo["cum"] = cum
        return cum

    def cumulative_weights(self) -> tuple[int, ...]:
        """Prefix sums of :attr:`weights`: P(outcome <= outcomes[i]) is ``cum[i] / total``.

        Integer-only, so reading a few cumulative probabilities of a big pool does not build
        a fraction for every outcome.
        """
        return tuple(self._cumulative())

    def _tail_probs(self) -> list[Fraction]:
        fr: list[Fraction] | None = self._memo.get("tail")
        if fr is None:
            total = self._total
            fr = [Fraction(total - c, total) for c in [0, *self._cumulative()[:-1]]]
            self._memo["tail"] = fr
        return fr

    def _head_probs(self) -> list[Fraction]:
        fr: list[Fraction] | None = self._memo.get("head")
        if fr is None:
            total = self._total
            fr = [Fraction(c, total) for c in self._cumulative()]
            self._memo["head"] = fr
        return fr

    def at_least(self, x: Any) -> Fraction:
        """P(outcome >= x)."""
        self._require_order("at_least")
        i = bisect_left(self._outcomes, x)
        return self._tail_probs()[i] if i < len(self._outcomes) else Fraction(0)

    def at_most(self, x: Any) -> Fraction:
        """P(outcome <= x)."""
        self._require_order("at_most")
        i = bisect_right(self._outcomes, x)
        return self._head_probs()[i - 1] if i else Fraction(0)

    def at_least_table(self) -> list[tuple[T, Fraction]]:
        """``(v, P(outcome >= v))`` for every outcome ``v``."""
        self._require_order("at_least_table")
        return list(zip(self._outcomes, self._tail_probs(), strict=True))

    def at_most_table(self) -> list[tuple[T, Fraction]]:
        """``(v, P(outcome <= v))`` for every outcome ``v``."""
        self._require_order("at_most_table")
        return list(zip(self._outcomes, self._head_probs(), strict=True))

    def percentile(self, q: Fraction | float | int) -> T:
        """The smallest outcome whose cumulative probability is at least ``q`` (0 <= q <= 1)."""
        self._require_order("percentile")
        try:
            fq = Fraction(q)
        except (TypeError, ValueError) as exc:
            raise DiceError(f"percentile needs a number between 0 and 1, got {q!r}") from exc
        if not 0 <= fq <= 1:
            raise DiceError(f"percentile needs a number between 0 and 1, got {q!r}")
        need = -((-fq.numerator * self._total) // fq.denominator)  # ceil(q * total)
        return self._outcomes[bisect_left(self._cumulative(), need)]
