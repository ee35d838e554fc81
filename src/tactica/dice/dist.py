"""Exact finite distributions: :class:`Dist`.

A :class:`Dist` is an immutable, hashable finite distribution. It stores its outcomes (sorted
when they are comparable) and positive **integer weights** reduced by their gcd, so two equal
distributions have identical content and probabilities are exact fractions ``w / total``. A
float view (numpy) is derived from the same weights, and sampling draws an exact integer in
``[0, total)`` so sampled frequencies follow the exact weights.

Sums of independent integer rolls use Kronecker substitution (see :mod:`tactica.dice.poly`):
the weights of each roll are packed into one big integer, and one big-integer product or power
convolves them, which keeps 100-die pools and ten-fold sums fast and exact.

>>> d6 = Dist.uniform(range(1, 7))
>>> two = d6 + d6
>>> two.p(7)
Fraction(1, 6)
>>> two.at_least(10)
Fraction(1, 6)
>>> (d6 - 1).outcomes
(0, 1, 2, 3, 4, 5)
>>> d6.map(lambda v: v % 2).p(0)
Fraction(1, 2)
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from operator import itemgetter
from typing import Any, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

from tactica.dice.poly import pack, unpack, width_for
from tactica.dice.sampling import Sampler, values_array
from tactica.dice.stats import DistStats
from tactica.engine.errors import DiceError

__all__ = ["Dist"]

T = TypeVar("T")
U = TypeVar("U")
V = TypeVar("V")

_REPR_ITEMS = 12


def _is_int(value: object) -> bool:
    return type(value) is int


class Dist(DistStats[T]):
    """An immutable finite distribution with exact integer weights.

    Build one with :meth:`from_weights`, :meth:`from_probs`, :meth:`constant` or
    :meth:`uniform` (or a helper in :mod:`tactica.dice`), never by calling ``Dist`` directly.
    Outcomes must be hashable; they are kept sorted when they are mutually comparable.
    Statistics and cumulative tables come from :class:`~tactica.dice.stats.DistStats`.
    """

    __slots__ = ("_memo", "_ordered", "_outcomes", "_total", "_weights")

    _outcomes: tuple[T, ...]
    _weights: tuple[int, ...]
    _total: int
    _ordered: bool
    _memo: dict[str, Any]

    def __init__(self) -> None:
        raise TypeError("use Dist.from_weights, Dist.from_probs, Dist.constant or Dist.uniform")

    # ------------------------------------------------------------------ construction

    @classmethod
    def _raw(
        cls, outcomes: tuple[T, ...], weights: tuple[int, ...], total: int, ordered: bool
    ) -> Dist[T]:
        """Trusting constructor: normalised, positive, gcd-reduced weights in final order."""
        self = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(self, "_outcomes", outcomes)
        setattr_(self, "_weights", weights)
        setattr_(self, "_total", total)
        setattr_(self, "_ordered", ordered)
        setattr_(self, "_memo", {})
        return self

    @classmethod
    def _from_table(cls, table: Mapping[T, int]) -> Dist[T]:
        """Normalise a table of non-negative integer weights (zero weights are dropped)."""
        items = [(o, w) for o, w in table.items() if w]
        if not items:
            raise DiceError("a distribution needs at least one outcome with positive weight")
        try:
            items.sort(key=itemgetter(0))
            ordered = True
        except TypeError:
            ordered = False
        weights = [w for _, w in items]
        g = math.gcd(*weights)
        if g != 1:
            weights = [w // g for w in weights]
        return cls._raw(tuple(o for o, _ in items), tuple(weights), sum(weights), ordered)

    @classmethod
    def _from_dense(cls, lo: int, coeffs: Sequence[int], *, reduce: bool = True) -> Dist[int]:
        """An integer distribution from dense weights of ``lo, lo+1, ...`` (zeros skipped)."""
        if 0 in coeffs:
            outcomes = tuple([lo + i for i, w in enumerate(coeffs) if w])
            weights = [w for w in coeffs if w]
            if not weights:
                raise DiceError("a distribution needs at least one outcome with positive weight")
        else:
            outcomes = tuple(range(lo, lo + len(coeffs)))
            weights = list(coeffs)
        if reduce:
            g = math.gcd(*weights)
            if g != 1:
                weights = [w // g for w in weights]
        return Dist._raw(outcomes, tuple(weights), sum(weights), True)

    @classmethod
    def from_weights(cls, mapping: Mapping[T, int]) -> Dist[T]:
        """A distribution from outcome -> non-negative integer weight (zeros are dropped)."""
        for o, w in mapping.items():
            if type(w) is not int or w < 0:
                raise DiceError(
                    f"weight of {o!r} must be a non-negative integer, got {w!r} "
                    "(use Dist.from_probs for fractions)"
                )
        return cls._from_table(mapping)

    @classmethod
    def from_probs(cls, mapping: Mapping[T, Fraction | int]) -> Dist[T]:
        """A distribution from outcome -> exact probability; they must sum to exactly 1."""
        probs: list[Fraction] = []
        for o, p in mapping.items():
            if not isinstance(p, Fraction | int) or isinstance(p, bool) or p < 0:
                raise DiceError(
                    f"probability of {o!r} must be a non-negative Fraction or int, got {p!r}"
                )
            probs.append(Fraction(p))
        total = sum(probs, Fraction(0))
        if total != 1:
            raise DiceError(f"probabilities sum to {total}, not 1")
        denom = math.lcm(*(p.denominator for p in probs))
        table: dict[T, int] = {}
        for o, p in zip(mapping, probs, strict=True):
            table[o] = table.get(o, 0) + p.numerator * (denom // p.denominator)
        return cls._from_table(table)

    @classmethod
    def constant(cls, value: T) -> Dist[T]:
        """The distribution that always gives ``value``."""
        hash(value)
        return cls._raw((value,), (1,), 1, True)

    @classmethod
    def uniform(cls, values: Iterable[T]) -> Dist[T]:
        """Each listed value equally likely (a value listed twice is twice as likely)."""
        table: dict[T, int] = {}
        for v in values:
            table[v] = table.get(v, 0) + 1
        if not table:
            raise DiceError("Dist.uniform needs at least one value")
        return cls._from_table(table)

    # ------------------------------------------------------------------ immutability

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Dist is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Dist is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Dist._raw, (self._outcomes, self._weights, self._total, self._ordered))

    # ------------------------------------------------------------------ access

    @property
    def outcomes(self) -> tuple[T, ...]:
        """The possible outcomes (sorted when comparable)."""
        return self._outcomes

    @property
    def weights(self) -> tuple[int, ...]:
        """Positive integer weights, aligned with :attr:`outcomes`, reduced by their gcd."""
        return self._weights

    @property
    def total(self) -> int:
        """The sum of the weights: probabilities are ``weight / total``."""
        return self._total

    @property
    def is_ordered(self) -> bool:
        """Whether the outcomes are mutually comparable (and therefore sorted)."""
        return self._ordered

    def __len__(self) -> int:
        return len(self._outcomes)

    def __contains__(self, value: object) -> bool:
        return value in self._index()

    def items(self) -> Iterator[tuple[T, Fraction]]:
        """``(outcome, exact probability)`` pairs in outcome order."""
        total = self._total
        for o, w in zip(self._outcomes, self._weights, strict=True):
            yield o, Fraction(w, total)

    def to_dict(self) -> dict[T, Fraction]:
        """Outcome -> exact probability."""
        return dict(self.items())

    def _index(self) -> dict[T, int]:
        index: dict[T, int] | None = self._memo.get("index")
        if index is None:
            index = {o: i for i, o in enumerate(self._outcomes)}
            self._memo["index"] = index
        return index

    def weight(self, value: object) -> int:
        """The integer weight of ``value`` (0 if absent)."""
        try:
            i = self._index().get(cast(T, value))
        except TypeError:  # unhashable: cannot be an outcome
            return 0
        return 0 if i is None else self._weights[i]

    def p(self, value: object) -> Fraction:
        """The exact probability of ``value`` (0 if absent)."""
        return Fraction(self.weight(value), self._total)

    def pf(self, value: object) -> float:
        """The probability of ``value`` as a float (correctly rounded)."""
        return self.weight(value) / self._total

    def probs_float(self) -> npt.NDArray[np.float64]:
        """Probabilities as a read-only float64 array aligned with :attr:`outcomes`."""
        arr: npt.NDArray[np.float64] | None = self._memo.get("probs")
        if arr is None:
            total = self._total
            arr = np.array([w / total for w in self._weights], dtype=np.float64)
            arr.setflags(write=False)
            self._memo["probs"] = arr
        return arr

    # ------------------------------------------------------------------ equality

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        if self is other:
            return True
        if self._ordered and other._ordered:
            return self._weights == other._weights and self._outcomes == other._outcomes
        return dict(zip(self._outcomes, self._weights, strict=True)) == dict(
            zip(other._outcomes, other._weights, strict=True)
        )

    def __hash__(self) -> int:
        h: int | None = self._memo.get("hash")
        if h is None:
            pairs = zip(self._outcomes, self._weights, strict=True)
            h = hash(tuple(pairs)) if self._ordered else hash(frozenset(pairs))
            self._memo["hash"] = h
        return h

    def __repr__(self) -> str:
        shown = [
            f"{o!r}: {Fraction(w, self._total)}"
            for o, w in zip(self._outcomes[:_REPR_ITEMS], self._weights, strict=False)
        ]
        if len(self._outcomes) > _REPR_ITEMS:
            shown.append(f"... ({len(self._outcomes)} outcomes)")
        return "Dist({" + ", ".join(shown) + "})"

    # ------------------------------------------------------------------ comparisons

    def _compare(self, other: Dist[Any] | int | Fraction,
                 test: Callable[[Any, Any], bool]) -> Dist[int]:
        if isinstance(other, Dist):
            return self.combine(other, lambda a, b: int(test(a, b)))
        return self.map(lambda a: int(test(a, other)))

    def __ge__(self, other: Dist[Any] | int | Fraction) -> Dist[int]:
        """The comparison's truth as a distribution: 1 when it holds, 0 when it does not (as
        the dice language's ``2d6>=8``); ``(d >= 8).p(1)`` is its probability. ``==`` still
        compares two distributions."""
        return self._compare(other, lambda a, b: a >= b)

    def __gt__(self, other: Dist[Any] | int | Fraction) -> Dist[int]:
        """1 where the outcome is greater, else 0 (see :meth:`__ge__`)."""
        return self._compare(other, lambda a, b: a > b)

    def __le__(self, other: Dist[Any] | int | Fraction) -> Dist[int]:
        """1 where the outcome is at most ``other``, else 0 (see :meth:`__ge__`)."""
        return self._compare(other, lambda a, b: a <= b)

    def __lt__(self, other: Dist[Any] | int | Fraction) -> Dist[int]:
        """1 where the outcome is less, else 0 (see :meth:`__ge__`)."""
        return self._compare(other, lambda a, b: a < b)

    # ------------------------------------------------------------------ notebooks

    def _repr_html_(self) -> str:
        from tactica.analysis.views import dist_table, html_of

        return html_of([dist_table(self)])

    def to_pandas(self) -> Any:
        """A pandas DataFrame: ``value``, ``p`` and ``p_exact`` (needs pandas)."""
        from tactica.analysis.views import dist_frame

        return dist_frame(self)

    # ------------------------------------------------------------------ algebra

    def map(self, f: Callable[[T], U]) -> Dist[U]:
        """The distribution of ``f(outcome)``; equal results are merged."""
        table: dict[U, int] = {}
        get = table.get
        for o, w in zip(self._outcomes, self._weights, strict=True):
            r = f(o)
            table[r] = get(r, 0) + w
        return Dist._from_table(table)

    def bind(self, f: Callable[[T], Dist[U]]) -> Dist[U]:
        """The mixture: roll this, then roll ``f(outcome)``; equal results are merged."""
        subs = [f(o) for o in self._outcomes]
        for s in subs:
            if not isinstance(s, Dist):
                raise DiceError(f"bind needs a function returning a Dist, got {s!r}")
        common = math.lcm(*(s._total for s in subs))
        table: dict[U, int] = {}
        get = table.get
        for w, s in zip(self._weights, subs, strict=True):
            scale = w * (common // s._total)
            for o, sw in zip(s._outcomes, s._weights, strict=True):
                table[o] = get(o, 0) + scale * sw
        return Dist._from_table(table)

    def combine(self, other: Dist[U], f: Callable[[T, U], V]) -> Dist[V]:
        """The distribution of ``f(a, b)`` for independent rolls ``a`` of this, ``b`` of other."""
        table: dict[V, int] = {}
        get = table.get
        pairs = list(zip(other._outcomes, other._weights, strict=True))
        for a, wa in zip(self._outcomes, self._weights, strict=True):
            for b, wb in pairs:
                r = f(a, b)
                table[r] = get(r, 0) + wa * wb
        return Dist._from_table(table)

    def is_integer(self) -> bool:
        """Whether every outcome is a plain ``int`` (the fast convolution path)."""
        flag: bool | None = self._memo.get("is_int")
        if flag is None:
            flag = all(map(_is_int, self._outcomes))
            self._memo["is_int"] = flag
        return flag

    def _dense(self) -> tuple[int, list[int]]:
        """``(lo, weights of lo..hi)`` of an integer distribution, zeros included."""
        outcomes = cast(tuple[int, ...], self._outcomes)
        lo = outcomes[0]
        span = outcomes[-1] - lo + 1
        if span == len(outcomes):
            return lo, list(self._weights)
        dense = [0] * span
        for o, w in zip(outcomes, self._weights, strict=True):
            dense[o - lo] = w
        return lo, dense

    def _convolve(self, other: Dist[Any]) -> Dist[int]:
        """Sum of independent integer rolls (exact; Kronecker product when dense enough)."""
        a = cast(Dist[int], self)
        b = cast(Dist[int], other)
        na, nb = len(a._outcomes), len(b._outcomes)
        if na == 1:
            return b._shift(a._outcomes[0])
        if nb == 1:
            return a._shift(b._outcomes[0])
        span = a._outcomes[-1] - a._outcomes[0] + b._outcomes[-1] - b._outcomes[0] + 1
        if span > 4 * na * nb + 64:
            return a.combine(b, _add)
        lo_a, da = a._dense()
        lo_b, db = b._dense()
        width = width_for(a._total * b._total)
        coeffs = unpack(pack(da, width) * pack(db, width), width, span)
        # Gauss's lemma: the product of two primitive polynomials is primitive.
        return Dist._from_dense(lo_a + lo_b, coeffs, reduce=False)

    def _shift(self: Dist[Any], k: Any) -> Dist[Any]:
        if k == 0:
            return self
        return Dist._raw(
            tuple(o + k for o in self._outcomes), self._weights, self._total, self._ordered
        )

    @overload
    def __add__(self: Dist[int], other: Dist[int] | int) -> Dist[int]: ...
    @overload
    def __add__(self, other: Dist[Any] | int | Fraction) -> Dist[Any]: ...
    def __add__(self, other: Dist[Any] | int | Fraction) -> Dist[Any]:
        """Sum of independent rolls, or every outcome shifted by a constant."""
        if isinstance(other, Dist):
            if self.is_integer() and other.is_integer():
                return self._convolve(other)
            return self.combine(other, _add)
        if isinstance(other, int | Fraction):
            return self._shift(other)
        return NotImplemented

    def __radd__(self, other: int | Fraction) -> Dist[Any]:
        if isinstance(other, int | Fraction):
            return self._shift(other)
        return NotImplemented

    def __neg__(self) -> Dist[Any]:
        """Every outcome negated."""
        outs = cast(tuple[Any, ...], self._outcomes)
        if self._ordered:
            return Dist._raw(
                tuple(-o for o in reversed(outs)), self._weights[::-1], self._total, True
            )
        return Dist._raw(tuple(-o for o in outs), self._weights, self._total, False)

    @overload
    def __sub__(self: Dist[int], other: Dist[int] | int) -> Dist[int]: ...
    @overload
    def __sub__(self, other: Dist[Any] | int | Fraction) -> Dist[Any]: ...
    def __sub__(self, other: Dist[Any] | int | Fraction) -> Dist[Any]:
        """Difference of independent rolls, or every outcome shifted down by a constant."""
        if isinstance(other, Dist):
            if self.is_integer() and other.is_integer():
                return self._convolve(-other)
            return self.combine(other, _sub)
        if isinstance(other, int | Fraction):
            return self._shift(-other)
        return NotImplemented

    def __rsub__(self, other: int | Fraction) -> Dist[Any]:
        if isinstance(other, int | Fraction):
            return (-self)._shift(other)
        return NotImplemented

    @overload
    def __mul__(self: Dist[int], other: Dist[int] | int) -> Dist[int]: ...
    @overload
    def __mul__(self, other: Dist[Any] | int | Fraction) -> Dist[Any]: ...
    def __mul__(self, other: Dist[Any] | int | Fraction) -> Dist[Any]:
        """Product of independent rolls, or every outcome scaled by a constant."""
        if isinstance(other, Dist):
            return self.combine(other, _mul)
        if isinstance(other, int | Fraction):
            return self.scale(other)
        return NotImplemented

    def __rmul__(self, other: int | Fraction) -> Dist[Any]:
        if isinstance(other, int | Fraction):
            return self.scale(other)
        return NotImplemented

    def scale(self, k: int | Fraction) -> Dist[Any]:
        """Every outcome multiplied by the constant ``k``."""
        if k == 0:
            return Dist.constant(self._outcomes[0] * cast(Any, 0))
        outs = cast(tuple[Any, ...], self._outcomes)
        if k < 0 and self._ordered:
            return Dist._raw(
                tuple(o * k for o in reversed(outs)), self._weights[::-1], self._total, True
            )
        return Dist._raw(tuple(o * k for o in outs), self._weights, self._total, self._ordered)

    def repeat_sum(self, n: int) -> Dist[Any]:
        """The sum of ``n`` independent rolls (``n = 0`` gives the constant 0)."""
        if type(n) is not int or n < 0:
            raise DiceError(f"repeat_sum needs a non-negative integer count, got {n!r}")
        if n == 0:
            return Dist.constant(0)
        if n == 1:
            return self
        if self.is_integer():
            if len(self._outcomes) == 1:
                return Dist.constant(cast(int, self._outcomes[0]) * n)
            lo, dense = self._dense()
            width = width_for(self._total**n)
            span = (len(dense) - 1) * n + 1
            coeffs = unpack(pow(pack(dense, width), n), width, span)
            return Dist._from_dense(lo * n, coeffs, reduce=False)
        result: Dist[Any] | None = None
        base: Dist[Any] = self
        while True:
            if n & 1:
                result = base if result is None else result + base
            n >>= 1
            if not n:
                break
            base = base + base
        assert result is not None
        return result

    def condition(self, pred: Callable[[T], bool]) -> Dist[T]:
        """The distribution given that ``pred(outcome)`` holds."""
        kept = [(o, w) for o, w in zip(self._outcomes, self._weights, strict=True) if pred(o)]
        if not kept:
            raise DiceError("cannot condition on an event of probability 0")
        weights = [w for _, w in kept]
        g = math.gcd(*weights)
        if g != 1:
            weights = [w // g for w in weights]
        return Dist._raw(tuple(o for o, _ in kept), tuple(weights), sum(weights), self._ordered)

    def opposed(self, other: Dist[Any]) -> Dist[int]:
        """Compare independent rolls: 1 if this is higher, 0 on a tie, -1 if other is higher."""
        self._require_order("opposed")
        other._require_order("opposed")
        b_outs = other._outcomes
        b_cum = other._cumulative()
        tb = other._total
        gt = eq = lt = 0
        for a, w in zip(self._outcomes, self._weights, strict=True):
            i = bisect_left(b_outs, a)
            j = bisect_right(b_outs, a, lo=i)
            below = b_cum[i - 1] if i else 0
            upto = b_cum[j - 1] if j else 0
            gt += w * below
            eq += w * (upto - below)
            lt += w * (tb - upto)
        return Dist._from_table({-1: lt, 0: eq, 1: gt})

    def max_of(self, other: Dist[T]) -> Dist[T]:
        """The higher of independent rolls of this and ``other``."""
        return self.combine(other, cast(Callable[[T, T], T], max))

    def min_of(self, other: Dist[T]) -> Dist[T]:
        """The lower of independent rolls of this and ``other``."""
        return self.combine(other, cast(Callable[[T, T], T], min))

    # ------------------------------------------------------------------ sampling

    def _sampler(self) -> Sampler:
        sampler: Sampler | None = self._memo.get("sampler")
        if sampler is None:
            values = values_array(self._outcomes, self.is_integer())
            sampler = Sampler(values, self._weights, self._total)
            self._memo["sampler"] = sampler
        return sampler

    def sample(self, rng: np.random.Generator) -> T:
        """One exact draw (the chance of each outcome is exactly its weight / total)."""
        if len(self._outcomes) == 1:
            return self._outcomes[0]
        return self._outcomes[self._sampler().index(rng)]

    def sample_many(
        self,
        rng: np.random.Generator,
        size: int | tuple[int, ...],
        *,
        dtype: npt.DTypeLike | None = None,
    ) -> npt.NDArray[Any]:
        """``size`` independent exact draws as a numpy array (int64 for integer outcomes).

        ``dtype`` narrows the result (e.g. ``np.int8`` for dice faces) and speeds up the
        common cases. Fair dice over consecutive integers are drawn directly; totals up to
        2**16 use one small random integer and a table lookup per draw; totals below 2**63 a
        binary search; larger totals draw exact big integers one by one (slow, still exact).
        """
        return self._sampler().many(rng, size, dtype)


def _add(a: Any, b: Any) -> Any:
    return a + b


def _sub(a: Any, b: Any) -> Any:
    return a - b


def _mul(a: Any, b: Any) -> Any:
    return a * b
