"""Exact sampling from integer weights: one draw or many, with a seeded numpy Generator.

Every draw picks an integer exactly uniform in ``[0, total)`` and maps it through the
cumulative weights, so the chance of each outcome is exactly ``weight / total`` (no float
rounding), whatever the size of ``total``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import numpy as np
import numpy.typing as npt

from tactica.engine.errors import DiceError

__all__ = ["Sampler", "uniform_below"]

_MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64
_INT64_MAX = (1 << 63) - 1
#: Totals up to this size are sampled in bulk through a lookup table (one entry per unit).
_TABLE_LIMIT = 1 << 16


def uniform_below(rng: np.random.Generator, n: int) -> int:
    """An exactly uniform integer in ``[0, n)`` drawn from ``rng``'s raw 64-bit stream.

    Uses Lemire's multiply-and-reject method for ``n <= 2**64`` and plain rejection on
    concatenated 64-bit words above that, so any total (even ``10**100``) is exact.
    """
    if n <= 1:
        if n == 1:
            return 0
        raise DiceError(f"cannot draw below {n}")
    bg = rng.bit_generator
    if n <= _TWO64:
        m = int(bg.random_raw()) * n
        low = m & _MASK64
        if low < n:
            threshold = (_TWO64 - n) % n
            while low < threshold:
                m = int(bg.random_raw()) * n
                low = m & _MASK64
        return m >> 64
    bits = (n - 1).bit_length()
    words = (bits + 63) // 64
    excess = words * 64 - bits
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | int(bg.random_raw())
        x >>= excess
        if x < n:
            return x


def values_array(outcomes: Sequence[Any], is_integer: bool) -> npt.NDArray[Any]:
    """Outcomes as a read-only numpy array: int64 when they fit, else objects."""
    if is_integer and outcomes[0] >= -_INT64_MAX and outcomes[-1] <= _INT64_MAX:
        arr = np.array(outcomes, dtype=np.int64)
    else:
        arr = np.empty(len(outcomes), dtype=object)
        for i, o in enumerate(outcomes):
            arr[i] = o
    arr.setflags(write=False)
    return arr


class Sampler:
    """Draws outcomes of one distribution; built once per distribution and cached there."""

    __slots__ = ("_contiguous", "_cum", "_cum_array", "_table", "_total", "_values", "_weights")

    def __init__(self, values: npt.NDArray[Any], weights: Sequence[int], total: int) -> None:
        self._values = values
        self._weights = weights
        self._total = total
        self._cum = list(accumulate(weights))
        n = len(weights)
        self._contiguous = (
            total == n and values.dtype == np.int64 and int(values[-1]) == int(values[0]) + n - 1
        )
        self._table: npt.NDArray[Any] | None = None
        self._cum_array: npt.NDArray[np.int64] | None = None

    def index(self, rng: np.random.Generator) -> int:
        """The index of one exact draw."""
        return bisect_right(self._cum, uniform_below(rng, self._total))

    def many(
        self,
        rng: np.random.Generator,
        size: int | tuple[int, ...],
        dtype: npt.DTypeLike | None,
    ) -> npt.NDArray[Any]:
        """``size`` exact draws (see :meth:`tactica.dice.Dist.sample_many`)."""
        values, total = self._values, self._total
        if len(self._weights) == 1:
            return np.full(size, values[0], dtype=dtype if dtype is not None else values.dtype)
        if self._contiguous:
            lo = int(values[0])
            out: npt.NDArray[Any] = rng.integers(
                lo, lo + total, size=size, dtype=np.dtype(dtype or np.int64)
            )
            return out
        if total <= _TABLE_LIMIT:
            if self._table is None:
                self._table = np.repeat(values, self._weights)
            u_dtype = np.uint8 if total <= 256 else np.uint16
            picked = self._table[rng.integers(0, total, size=size, dtype=u_dtype)]
        elif total <= _INT64_MAX:
            if self._cum_array is None:
                self._cum_array = np.array(self._cum, dtype=np.int64)
            u = rng.integers(0, total, size=size, dtype=np.int64)
            picked = values[np.searchsorted(self._cum_array, u, side="right")]
        else:
            flat = int(np.prod(size))
            idx = np.fromiter(
                (self.index(rng) for _ in range(flat)), dtype=np.int64, count=flat
            ).reshape(size)
            picked = values[idx]
        result: npt.NDArray[Any] = picked if dtype is None else picked.astype(dtype)
        return result
