"""Distances on the tile grid, decided exactly, and the checks of the grid's options."""

from __future__ import annotations

import math
from typing import Final

from tactica.battlefield.grid.sight import Tile
from tactica.engine.errors import MapError

__all__ = ["METRICS", "distance", "is_within"]

#: Distance metrics for the cover range, default first.
METRICS: Final = ("chebyshev", "manhattan", "euclidean")


def _choice(option: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise MapError(f"{option}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MapError(f"{name}: expected a whole number, got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise MapError(f"{name}: expected a whole number, got {value!r}") from None
    if not low <= number <= high:
        raise MapError(f"{name}: expected {low}..{high}, got {number}")
    return number


def distance(a: Tile, b: Tile, metric: str = "chebyshev") -> int | float:
    """Distance between two tiles: ``chebyshev`` and ``manhattan`` in steps, ``euclidean``
    between tile centres (an int when it is whole).

    >>> [distance((0, 0), (3, 4), m) for m in ("chebyshev", "manhattan", "euclidean")]
    [4, 7, 5]
    """
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    metric = _choice("metric", metric, METRICS)
    if metric == "chebyshev":
        return max(dx, dy)
    if metric == "manhattan":
        return dx + dy
    d2 = dx * dx + dy * dy
    root = math.isqrt(d2)
    return root if root * root == d2 else math.sqrt(d2)


def is_within(a: Tile, b: Tile, limit: int, metric: str = "chebyshev") -> bool:
    """Whether ``distance(a, b, metric) <= limit``, decided exactly (squares for euclidean)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    metric = _choice("metric", metric, METRICS)
    if metric == "chebyshev":
        return max(dx, dy) <= limit
    if metric == "manhattan":
        return dx + dy <= limit
    return limit >= 0 and dx * dx + dy * dy <= limit * limit
