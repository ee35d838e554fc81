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

Memory is bounded whatever the map (docs/limits.md): an operator's tile stops lines from few
source tiles, so its masks are kept sparse (the sources it touches and their masks, not a
mask for every tile of the map); the remembered answers of a target are bounded in bytes
(:data:`MEMO_BYTES`, :data:`VALUES_BYTES`); and the targets kept, over every table of the
process, are bounded in bytes too (:data:`TARGETS_BYTES`), the least recently used going first.
On a 64 x 64 map a full mask per tile took 16 MB a target and a greedy battle of 62 operators
7.5 GB, growing battle after battle.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tactica.battlefield.grid.fast import offset_geometry

__all__ = ["MEMO_BYTES", "TARGETS_BYTES", "VALUES_BYTES", "SightTable", "TargetSight",
           "sight_table"]

Tile = tuple[int, int]
U8 = npt.NDArray[np.uint8]
Bool = npt.NDArray[np.bool_]

_CLEAR = np.array([4 - bin(m).count("1") for m in range(16)], dtype=np.int8)
#: Combined answers kept per target tile before the oldest half is dropped: at most 4096, and
#: at most this many bytes of them (a 64 x 64 map keeps 256).
_MEMO_LIMIT = 4096
MEMO_BYTES = 2 * 1024 * 1024
#: A policy's values kept per target tile (at most 4096, and at most this many bytes).
VALUES_BYTES = 4 * 1024 * 1024
#: The targets kept over every table of the process, in bytes (their masks, and the most their
#: remembered answers may take); the least recently used go first.
TARGETS_BYTES = 384 * 1024 * 1024

#: A blocker's masks: the source tiles whose lines it touches (indices) and their masks.
Sparse = tuple[npt.NDArray[np.int32], U8]


@dataclass
class TargetSight:
    """Sight from every source tile (index ``y * width + x``) to one target tile."""

    static: U8
    singles: dict[Tile, Sparse]
    pairs: dict[tuple[Tile, Tile], Sparse]
    near: Bool
    relevant: frozenset[Tile]
    steps: npt.NDArray[np.int64]
    """King steps (Chebyshev distance) from every tile to the target."""
    memo: dict[tuple[Tile, ...], tuple[Bool, Bool]] = field(default_factory=dict)
    #: Values a policy derived from :meth:`visible_cover`, by the operators' key and its own.
    values: dict[tuple[object, ...], npt.NDArray[np.float64]] = field(default_factory=dict)

    @property
    def memo_limit(self) -> int:
        """The combined answers kept (each two masks of the map's tiles)."""
        return max(8, min(_MEMO_LIMIT, MEMO_BYTES // (2 * len(self.static))))

    @property
    def values_limit(self) -> int:
        """The policy's values kept (each a float per tile of the map)."""
        return max(8, min(_MEMO_LIMIT, VALUES_BYTES // (8 * len(self.static))))

    def nbytes(self) -> int:
        """The most this target takes: its masks, and its remembered answers at their
        bounds."""
        n = len(self.static)
        fixed = self.static.nbytes + self.near.nbytes + self.steps.nbytes
        fixed += sum(i.nbytes + m.nbytes + 64 for i, m in self.singles.values())
        fixed += sum(i.nbytes + m.nbytes + 96 for i, m in self.pairs.values())
        return fixed + self.memo_limit * 2 * n + self.values_limit * 8 * n

    def remember(self, key: tuple[object, ...], value: npt.NDArray[np.float64]
                 ) -> npt.NDArray[np.float64]:
        """Keep a policy's ``value`` under ``key`` (within :attr:`values_limit`)."""
        if len(self.values) >= self.values_limit:
            self.values.clear()
        self.values[key] = value
        return value

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
                    mask[single[0]] |= single[1]
            for (a, b), (where, m) in self.pairs.items():
                if a in blockers and b in blockers:
                    mask[where] |= m
            clear = _CLEAR[mask]
            visible = clear >= min_clear
            cover = visible & (clear < 4) & ~self.near
            limit = self.memo_limit
            if len(self.memo) >= limit:
                for old in list(self.memo)[: max(1, limit // 2)]:
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
        """Sight from every tile to ``tile`` (kept within :data:`TARGETS_BYTES`)."""
        found = self._targets.get(tile)
        if found is None:
            found = self._targets[tile] = self._build(tile)
            _KEPT[(id(self), tile)] = (self, found.nbytes())
            _trim()
        else:
            _KEPT.move_to_end((id(self), tile), last=True)
        return found

    def forget(self, tile: Tile) -> None:
        """Drop the target ``tile`` (it is built again when asked for)."""
        self._targets.pop(tile, None)

    def _inside(self, t: Tile) -> bool:
        return 0 <= t[0] < self.width and 0 <= t[1] < self.height

    def _build(self, target: Tile) -> TargetSight:
        w, n = self.width, self.width * self.height
        static = np.zeros(n, dtype=np.uint8)
        singles: dict[Tile, dict[int, int]] = {}
        pairs: dict[tuple[Tile, Tile], dict[int, int]] = {}
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
                        got = singles.setdefault(t, {})
                        got[i] = got.get(i, 0) | m
                for ax, ay, bx, by, m in geo.pairs:
                    a, b = (sx + ax, sy + ay), (sx + bx, sy + by)
                    if not (self._inside(a) and self._inside(b)):
                        continue
                    wa, wb = a in walls, b in walls
                    if wa and wb:
                        static[i] |= m
                    elif wa or wb:
                        t = b if wa else a
                        got = singles.setdefault(t, {})
                        got[i] = got.get(i, 0) | m
                    else:
                        key = (min(a, b), max(a, b))
                        got = pairs.setdefault(key, {})
                        got[i] = got.get(i, 0) | m
        relevant = frozenset(singles) | frozenset(t for ab in pairs for t in ab)
        return TargetSight(static, {t: _sparse(d) for t, d in singles.items()},
                           {k: _sparse(d) for k, d in pairs.items()}, near, relevant, steps)


def _sparse(masks: dict[int, int]) -> Sparse:
    return (np.fromiter(masks.keys(), dtype=np.int32, count=len(masks)),
            np.fromiter(masks.values(), dtype=np.uint8, count=len(masks)))


#: Every target kept, by table and tile, least recently used first, with its bytes.
_KEPT: OrderedDict[tuple[int, Tile], tuple[SightTable, int]] = OrderedDict()


def _trim() -> None:
    """Drop the least recently used targets until those kept fit :data:`TARGETS_BYTES` (the
    one just built stays)."""
    total = sum(b for _, b in _KEPT.values())
    while total > TARGETS_BYTES and len(_KEPT) > 1:
        (_, tile), (table, size) = _KEPT.popitem(last=False)
        table.forget(tile)
        total -= size


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
