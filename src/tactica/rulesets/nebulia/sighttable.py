"""Sight from every tile of a map to one tile, precomputed per map and kept across battles.

The greedy policy values a move by the attacks it opens: sight from each reachable tile to each
enemy. The walls of a map never change, so for a target tile the lines they stop from every
source tile are computed once (from the same exact offset geometry as the grid's own sight,
:func:`~tactica.battlefield.grid.fast.offset_geometry`), with, for every open tile, the lines an
operator standing there would stop. Sight in a battle is then the walls' mask OR the masks of
the tiles operators stand on: the same answer as
:func:`~tactica.battlefield.grid.fast.batch_sight` (a test compares them on every tile), for a
handful of small array operations. The combined answer is remembered per target and per set of
operators that matter to it, so positions that come back (every battle starts the same way)
cost a dictionary look-up.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tactica.battlefield.grid.fast import offset_geometry

__all__ = ["SightTable", "TargetSight", "sight_table"]

Tile = tuple[int, int]
U8 = npt.NDArray[np.uint8]
Bool = npt.NDArray[np.bool_]

_CLEAR = np.array([4 - bin(m).count("1") for m in range(16)], dtype=np.int8)
#: Combined answers kept per target tile before the oldest half is dropped.
_MEMO_LIMIT = 4096


@dataclass
class TargetSight:
    """Sight from every source tile (index ``y * width + x``) to one target tile."""

    static: U8
    singles: dict[Tile, U8]
    pairs: dict[tuple[Tile, Tile], U8]
    near: Bool
    relevant: frozenset[Tile]
    steps: npt.NDArray[np.int64]
    """King steps (Chebyshev distance) from every tile to the target."""
    memo: dict[tuple[Tile, ...], tuple[Bool, Bool]] = field(default_factory=dict)
    #: Values a policy derived from :meth:`visible_cover`, by the operators' key and its own.
    values: dict[tuple[object, ...], npt.NDArray[np.float64]] = field(default_factory=dict)

    def key_of(self, blockers: frozenset[Tile] | set[Tile] | list[Tile]) -> tuple[Tile, ...]:
        """The operators' tiles that matter to this target (sorted): what
        :meth:`visible_cover` depends on besides the walls."""
        relevant = self.relevant
        return tuple(sorted(t for t in blockers if t in relevant))

    def visible_cover(self, blockers: frozenset[Tile] | set[Tile] | list[Tile],
                      min_clear: int, key: tuple[Tile, ...] | None = None
                      ) -> tuple[Bool, Bool]:
        """Per source tile: visible (at least ``min_clear`` clear lines) and in cover (visible
        with a blocked line, beyond the cover range), with operators on ``blockers`` (walls
        are the table's own; a sorted list of operator tiles is the quickest to look up).
        ``key`` is :meth:`key_of` ``blockers`` when the caller has it."""
        if key is None:
            key = self.key_of(blockers)
        found = self.memo.get(key)
        if found is None:
            mask = self.static.copy()
            for t in key:
                single = self.singles.get(t)
                if single is not None:
                    mask |= single
            for (a, b), m in self.pairs.items():
                if a in blockers and b in blockers:
                    mask |= m
            clear = _CLEAR[mask]
            visible = clear >= min_clear
            cover = visible & (clear < 4) & ~self.near
            if len(self.memo) >= _MEMO_LIMIT:
                for old in list(self.memo)[: _MEMO_LIMIT // 2]:
                    self.memo.pop(old, None)
            found = self.memo[key] = (visible, cover)
        return found


class SightTable:
    """The :class:`TargetSight` of every target tile of one map (built on first use)."""

    def __init__(self, width: int, height: int, walls: frozenset[Tile], policy: str,
                 metric: str, cover_range: int) -> None:
        self.width, self.height, self.walls = width, height, walls
        self.policy, self.metric, self.cover_range = policy, metric, cover_range
        self._targets: dict[Tile, TargetSight] = {}

    def target(self, tile: Tile) -> TargetSight:
        """Sight from every tile to ``tile``."""
        found = self._targets.get(tile)
        if found is None:
            found = self._targets[tile] = self._build(tile)
        return found

    def _inside(self, t: Tile) -> bool:
        return 0 <= t[0] < self.width and 0 <= t[1] < self.height

    def _build(self, target: Tile) -> TargetSight:
        w, n = self.width, self.width * self.height
        static = np.zeros(n, dtype=np.uint8)
        singles: dict[Tile, U8] = {}
        pairs: dict[tuple[Tile, Tile], U8] = {}
        near = np.zeros(n, dtype=np.bool_)
        steps = np.zeros(n, dtype=np.int64)
        walls = self.walls
        tx, ty = target
        for sy in range(self.height):
            for sx in range(w):
                i = sy * w + sx
                dx, dy = tx - sx, ty - sy
                near[i] = _within(dx, dy, self.cover_range, self.metric)
                steps[i] = max(abs(dx), abs(dy))
                if dx == 0 and dy == 0:
                    continue
                geo = offset_geometry(self.policy, dx, dy)
                for rx, ry, m in geo.singles:
                    t = (sx + rx, sy + ry)
                    if not self._inside(t):
                        continue
                    if t in walls:
                        static[i] |= m
                    else:
                        arr = singles.get(t)
                        if arr is None:
                            arr = singles[t] = np.zeros(n, dtype=np.uint8)
                        arr[i] |= m
                for ax, ay, bx, by, m in geo.pairs:
                    a, b = (sx + ax, sy + ay), (sx + bx, sy + by)
                    if not (self._inside(a) and self._inside(b)):
                        continue
                    wa, wb = a in walls, b in walls
                    if wa and wb:
                        static[i] |= m
                    elif wa or wb:
                        t = b if wa else a
                        arr = singles.get(t)
                        if arr is None:
                            arr = singles[t] = np.zeros(n, dtype=np.uint8)
                        arr[i] |= m
                    else:
                        key = (min(a, b), max(a, b))
                        arr = pairs.get(key)
                        if arr is None:
                            arr = pairs[key] = np.zeros(n, dtype=np.uint8)
                        arr[i] |= m
        relevant = frozenset(singles) | frozenset(t for ab in pairs for t in ab)
        return TargetSight(static, singles, pairs, near, relevant, steps)


def _within(dx: int, dy: int, r: int, metric: str) -> bool:
    ax, ay = abs(dx), abs(dy)
    if metric == "manhattan":
        return ax + ay <= r
    if metric == "euclidean":
        return ax * ax + ay * ay <= r * r
    return max(ax, ay) <= r


@functools.lru_cache(maxsize=32)
def sight_table(width: int, height: int, walls: frozenset[Tile], policy: str, metric: str,
                cover_range: int) -> SightTable:
    """The table of one map under one sight policy and metric (kept across battles)."""
    return SightTable(width, height, walls, policy, metric, cover_range)
