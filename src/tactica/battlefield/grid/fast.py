"""Many sight queries at once on a tile grid, vectorised with numpy.

The geometry of the four lines between two tiles depends only on their offset ``(dx, dy)``, so
for each offset and contact policy the tiles that can stop each line are computed once, exactly
(:func:`offset_geometry`, cached), as offsets from the source tile. Each tile carries a 4-bit mask
of the lines it stops. A batch of pairs is then a few numpy gathers into a padded boolean
blocker array and one ``bitwise_or.reduceat`` per pair: bit ``i`` of the result is set when line
``i`` (:data:`~tactica.battlefield.grid.sight.CORNER_NAMES` order) is blocked. The squeeze rule
of ``inset`` (two diagonal blockers around one lattice point) is a second, usually tiny, list of
tile pairs per offset.

The answers are identical to :meth:`TileGrid.sight <tactica.battlefield.grid.tiles.TileGrid.sight>`;
the tests and ``bench/sight.py`` check it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tactica.battlefield.grid.sight import (
    POLICIES,
    Tile,
    corner_segments,
    segment_meets_tile,
    squeeze_points,
    touched_tiles,
)
from tactica.engine.errors import MapError

if TYPE_CHECKING:
    from tactica.battlefield.grid.tiles import TileGrid

__all__ = [
    "OffsetGeometry",
    "SightBatch",
    "batch_sight",
    "grid_sight_all",
    "grid_sight_many",
    "offset_geometry",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
U8Array = npt.NDArray[np.uint8]
# Clear lines for each 4-bit "blocked" mask.
_CLEAR = np.array([4 - bin(m).count("1") for m in range(16)], dtype=np.int8)


@dataclass(frozen=True)
class OffsetGeometry:
    """The tiles that can stop the lines from ``(0, 0)`` to ``(dx, dy)`` under one policy.

    ``singles``: ``(rx, ry, mask)``, a blocker on tile ``(rx, ry)`` stops the lines in ``mask``.
    ``pairs``: ``(ax, ay, bx, by, mask)``, blockers on *both* tiles stop the lines in ``mask``.
    """

    singles: tuple[tuple[int, int, int], ...]
    pairs: tuple[tuple[int, int, int, int, int], ...]


@functools.lru_cache(maxsize=1 << 14)
def offset_geometry(policy: str, dx: int, dy: int) -> OffsetGeometry:
    """The exact blocking geometry of the offset ``(dx, dy)`` (translation invariant, cached)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown sight policy {policy!r}")
    if dy < 0 or (dy == 0 and dx < 0):
        # Corner i from B back to A is the same segment with the same inset direction, so
        # the geometry of (dx, dy) is that of (-dx, -dy) seen from the other end.
        other = offset_geometry(policy, -dx, -dy)
        return OffsetGeometry(
            tuple(sorted((x + dx, y + dy, m) for x, y, m in other.singles)),
            tuple(sorted((ax + dx, ay + dy, bx + dx, by + dy, m)
                         for ax, ay, bx, by, m in other.pairs)),
        )
    own = {(0, 0), (dx, dy)}
    singles: dict[Tile, int] = {}
    pairs: dict[tuple[Tile, Tile], int] = {}
    for seg in corner_segments((0, 0), (dx, dy)):
        bit = 1 << seg.corner
        for t in touched_tiles(seg):
            if t not in own and segment_meets_tile(seg, t, policy):
                singles[t] = singles.get(t, 0) | bit
        if policy == "inset":
            for _, a, b in squeeze_points(seg):
                if a not in own and b not in own:
                    key = (min(a, b), max(a, b))
                    pairs[key] = pairs.get(key, 0) | bit
    return OffsetGeometry(
        tuple((x, y, m) for (x, y), m in sorted(singles.items())),
        tuple((a[0], a[1], b[0], b[1], m) for (a, b), m in sorted(pairs.items())),
    )


class _Lookup(NamedTuple):
    start: IntArray
    length: IntArray
    rel: IntArray
    mask: U8Array
    pstart: IntArray
    plen: IntArray
    prel_a: IntArray
    prel_b: IntArray
    pmask: U8Array
    has_pairs: bool


class _FlatTable:
    """Offset geometry of one grid shape and policy as flat arrays, grown on demand.

    Tiles are indexed in a grid padded by one tile on every side (lines may touch tiles just
    outside the map, which never block), so a relative tile is one integer offset. Every
    offset's list starts with a mask-0 entry, so no list is empty.
    """

    def __init__(self, width: int, height: int, policy: str) -> None:
        self.width, self.height, self.policy = width, height, policy
        self.stride = width + 2
        n = (2 * width - 1) * (2 * height - 1)
        self.start = np.full(n, -1, dtype=np.int64)
        self.length = np.zeros(n, dtype=np.int64)
        self.pstart = np.full(n, -1, dtype=np.int64)
        self.plen = np.zeros(n, dtype=np.int64)
        self.rel = np.zeros(0, dtype=np.int64)
        self.mask = np.zeros(0, dtype=np.uint8)
        self.prel_a = np.zeros(0, dtype=np.int64)
        self.prel_b = np.zeros(0, dtype=np.int64)
        self.pmask = np.zeros(0, dtype=np.uint8)
        self.has_pairs = False
        self.lock = threading.Lock()

    def offset_ids(self, dx: IntArray, dy: IntArray) -> IntArray:
        ids: IntArray = (dy + self.height - 1) * (2 * self.width - 1) + (dx + self.width - 1)
        return ids

    def lookup(self, ids: IntArray) -> _Lookup:
        """The entries of the offsets ``ids`` (computed first if new), as one consistent view.

        Growing happens under a lock and only appends, so a view taken under the lock stays
        valid for its own offsets while other threads grow the table.
        """
        with self.lock:
            self._ensure(ids)
            return _Lookup(
                self.start[ids], self.length[ids], self.rel, self.mask,
                self.pstart[ids], self.plen[ids], self.prel_a, self.prel_b, self.pmask,
                self.has_pairs,
            )

    def _ensure(self, ids: IntArray) -> None:
        missing = np.unique(ids[self.start[ids] < 0])
        if missing.size == 0:
            return
        rel: list[int] = []
        mask: list[int] = []
        prel_a: list[int] = []
        prel_b: list[int] = []
        pmask: list[int] = []
        base, pbase = self.rel.size, self.prel_a.size
        span = 2 * self.width - 1
        s = self.stride
        for oid in missing.tolist():
            dx, dy = oid % span - (self.width - 1), oid // span - (self.height - 1)
            geo = offset_geometry(self.policy, dx, dy)
            self.start[oid] = base + len(rel)
            self.length[oid] = 1 + len(geo.singles)
            rel.append(0)
            mask.append(0)
            for x, y, m in geo.singles:
                rel.append(y * s + x)
                mask.append(m)
            self.pstart[oid] = pbase + len(prel_a)
            self.plen[oid] = 1 + len(geo.pairs)
            prel_a.append(0)
            prel_b.append(0)
            pmask.append(0)
            for ax, ay, bx, by, m in geo.pairs:
                prel_a.append(ay * s + ax)
                prel_b.append(by * s + bx)
                pmask.append(m)
                self.has_pairs = True
        self.rel = np.concatenate([self.rel, np.array(rel, dtype=np.int64)])
        self.mask = np.concatenate([self.mask, np.array(mask, dtype=np.uint8)])
        self.prel_a = np.concatenate([self.prel_a, np.array(prel_a, dtype=np.int64)])
        self.prel_b = np.concatenate([self.prel_b, np.array(prel_b, dtype=np.int64)])
        self.pmask = np.concatenate([self.pmask, np.array(pmask, dtype=np.uint8)])


@functools.lru_cache(maxsize=64)
def _flat_table(width: int, height: int, policy: str) -> _FlatTable:
    return _FlatTable(width, height, policy)


_SCRATCH = threading.local()


def _scratch(total: int) -> tuple[IntArray, IntArray, IntArray, BoolArray, BoolArray, U8Array]:
    """Per-thread work arrays of at least ``total`` entries (reused, so a batch allocates only
    its small per-pair arrays)."""
    bufs = getattr(_SCRATCH, "bufs", None)
    if bufs is None or bufs[0].size < total:
        size = max(total, 1 << 16, 2 * (bufs[0].size if bufs is not None else 0))
        bufs = (
            np.empty(size, dtype=np.intp),
            np.empty(size, dtype=np.intp),
            np.empty(size, dtype=np.intp),
            np.empty(size, dtype=np.bool_),
            np.empty(size, dtype=np.bool_),
            np.empty(size, dtype=np.uint8),
        )
        _SCRATCH.bufs = bufs
    pos, at, tmp, hit, hit_b, bits = bufs
    return pos[:total], at[:total], tmp[:total], hit[:total], hit_b[:total], bits[:total]


def _or_lines(
    flat: BoolArray,
    origin: IntArray,
    starts: IntArray,
    lengths: IntArray,
    rel: IntArray,
    mask: U8Array,
    rel_b: IntArray | None = None,
) -> U8Array:
    """For each pair ``i``: OR of ``mask[j]`` over its entries ``j`` in
    ``[starts[i], starts[i] + lengths[i])`` whose tile ``origin[i] + rel[j]`` blocks (and, with
    ``rel_b``, whose tile ``origin[i] + rel_b[j]`` blocks too). Every length is at least 1."""
    ends = np.cumsum(lengths)
    first = ends - lengths
    pos, at, tmp, hit, hit_b, bits = _scratch(int(ends[-1]))
    # pos: the ranges side by side, as a running sum of steps (1 inside a range).
    pos.fill(1)
    pos[0] = starts[0]
    pos[first[1:]] = starts[1:] - starts[:-1] - lengths[:-1] + 1
    np.cumsum(pos, out=pos)
    # at: each pair's origin repeated over its range, the same way.
    at.fill(0)
    at[0] = origin[0]
    at[first[1:]] = np.diff(origin)
    np.cumsum(at, out=at)
    np.take(rel, pos, out=tmp, mode="clip")
    np.add(tmp, at, out=tmp)
    np.take(flat, tmp, out=hit, mode="clip")
    if rel_b is not None:
        np.take(rel_b, pos, out=tmp, mode="clip")
        np.add(tmp, at, out=tmp)
        np.take(flat, tmp, out=hit_b, mode="clip")
        np.logical_and(hit, hit_b, out=hit)
    np.take(mask, pos, out=bits, mode="clip")
    np.multiply(bits, hit, out=bits)
    out: U8Array = np.bitwise_or.reduceat(bits, first)
    return out


@dataclass(frozen=True)
class SightBatch:
    """The answers of a batch of sight queries, one entry per pair.

    ``blocked`` holds a 4-bit mask per pair (bit ``i`` set: the line of corner ``i`` is blocked);
    ``distance`` uses the batch's metric (float for euclidean).
    """

    blocked: npt.NDArray[np.uint8]
    clear_lines: npt.NDArray[np.int8]
    visible: BoolArray
    cover: BoolArray
    distance: npt.NDArray[Any]


def batch_sight(
    blocking: BoolArray,
    layer: IntArray | None,
    source: IntArray,
    target: IntArray,
    *,
    policy: str = "inset",
    metric: str = "chebyshev",
    min_clear: int = 2,
    cover_range: int = 3,
) -> SightBatch:
    """Sight for the pairs ``source[i] -> target[i]`` (arrays of shape ``(n, 2)`` of ``x, y``).

    ``blocking`` has shape ``(layers, height, width)``: which tiles block, per attacker layer
    (one layer unless blockers depend on the attacker's side); ``layer[i]`` picks the layer of
    pair ``i`` (None: layer 0). The source and target tiles never block their own lines.
    """
    if policy not in POLICIES:
        raise MapError(f"policy: expected one of {', '.join(POLICIES)}, got {policy!r}")
    layers, height, width = blocking.shape
    src = np.asarray(source, dtype=np.int64).reshape(-1, 2)
    dst = np.asarray(target, dtype=np.int64).reshape(-1, 2)
    n = src.shape[0]
    dx = dst[:, 0] - src[:, 0]
    dy = dst[:, 1] - src[:, 1]
    if n and bool(np.any((dx == 0) & (dy == 0))):
        raise MapError("sight from a tile to itself is not defined")
    adx, ady = np.abs(dx), np.abs(dy)
    dist: npt.NDArray[Any]
    if metric == "chebyshev":
        dist = np.maximum(adx, ady)
        near = dist <= cover_range
    elif metric == "manhattan":
        dist = adx + ady
        near = dist <= cover_range
    elif metric == "euclidean":
        d2 = adx * adx + ady * ady
        dist = np.sqrt(d2)
        near = d2 <= cover_range * cover_range
    else:
        raise MapError(f"metric: expected one of chebyshev, manhattan, euclidean, got {metric!r}")
    blocked = np.zeros(n, dtype=np.uint8)
    if n:
        table = _flat_table(width, height, policy)
        view = table.lookup(table.offset_ids(dx, dy))
        padded = np.zeros((layers, height + 2, width + 2), dtype=np.bool_)
        padded[:, 1:-1, 1:-1] = blocking
        flat = padded.reshape(-1)
        origin = (src[:, 1] + 1) * table.stride + (src[:, 0] + 1)
        if layer is not None:
            origin = origin + np.asarray(layer, dtype=np.int64) * ((height + 2) * table.stride)
        blocked = _or_lines(flat, origin, view.start, view.length, view.rel, view.mask)
        if view.has_pairs:
            blocked |= _or_lines(flat, origin, view.pstart, view.plen, view.prel_a, view.pmask,
                                 view.prel_b)
    clear = _CLEAR[blocked]
    visible = clear >= min_clear
    return SightBatch(
        blocked=blocked,
        clear_lines=clear,
        visible=visible,
        cover=visible & (clear < 4) & ~near,
        distance=dist,
    )


def _blocking_layers(
    grid: TileGrid, attackers: Sequence[Tile], rule: str, sides: Mapping[str, str] | None
) -> tuple[BoolArray, IntArray | None]:
    """The blocker arrays and, for ``foes``, each attacker's layer (one layer per side)."""
    if rule == "all":
        key = "fast-blocking-all"
        cached = grid.memo.get(key)
        if cached is None:
            cached = _to_array(grid, [grid.sight_blockers((0, 0))])
            grid.memo[key] = cached
        return cached, None
    index: dict[Tile, int] = {}
    sets: list[frozenset[Tile]] = []
    by_set: dict[frozenset[Tile], int] = {}
    chosen = []
    for tile in attackers:
        if tile not in index:
            tiles = grid.sight_blockers(tile, blockers=rule, sides=sides)
            index[tile] = by_set.setdefault(tiles, len(by_set))
            if len(by_set) > len(sets):
                sets.append(tiles)
        chosen.append(index[tile])
    return _to_array(grid, sets or [grid.blockers]), np.array(chosen, dtype=np.int64)


def _to_array(grid: TileGrid, sets: Sequence[frozenset[Tile]]) -> BoolArray:
    blocking = np.zeros((len(sets), grid.height, grid.width), dtype=np.bool_)
    for i, tiles in enumerate(sets):
        if tiles:
            xs, ys = zip(*tiles, strict=True)
            blocking[i, list(ys), list(xs)] = True
    return blocking


def _options(policy: str, metric: str, blockers: str) -> tuple[str, str, str]:
    from tactica.battlefield.grid.metrics import METRICS, _choice
    from tactica.battlefield.grid.tiles import BLOCKER_RULES

    return (
        _choice("policy", policy, POLICIES),
        _choice("metric", metric, METRICS),
        _choice("blockers", blockers, BLOCKER_RULES),
    )


def grid_sight_many(
    grid: TileGrid,
    pairs: Sequence[tuple[str | Tile, str | Tile]] | npt.NDArray[np.integer[Any]],
    *,
    policy: str = "inset",
    metric: str = "chebyshev",
    blockers: str = "all",
    sides: Mapping[str, str] | None = None,
) -> SightBatch:
    """Sight for many pairs on ``grid``: a sequence of ``(source, target)`` occupant ids or
    tiles, or an integer array of shape ``(n, 2, 2)`` (``[[sx, sy], [tx, ty]]`` per pair)."""
    policy, metric, rule = _options(policy, metric, blockers)
    if isinstance(pairs, np.ndarray):
        arr = np.asarray(pairs, dtype=np.int64).reshape(-1, 2, 2)
        src, dst = arr[:, 0, :], arr[:, 1, :]
        for tiles in (src, dst):
            bad = ~((tiles[:, 0] >= 0) & (tiles[:, 0] < grid.width)
                    & (tiles[:, 1] >= 0) & (tiles[:, 1] < grid.height))
            if bool(bad.any()):
                grid.tile(tuple(tiles[int(np.argmax(bad))].tolist()))  # raises MapError
        attackers: list[Tile] = [] if rule == "all" else [(int(x), int(y)) for x, y in src]
    else:
        resolved: dict[str | Tile, Tile] = {}
        flat: list[Tile] = []
        for pair in pairs:
            for ref in pair:
                tile = resolved.get(ref)
                if tile is None:
                    tile = resolved[ref] = grid.tile(ref)
                flat.append(tile)
        arr = np.array(flat, dtype=np.int64).reshape(-1, 2, 2)
        src, dst = arr[:, 0, :], arr[:, 1, :]
        attackers = flat[0::2]
    blocking, layer = _blocking_layers(grid, attackers, rule, sides)
    return batch_sight(blocking, layer, src, dst, policy=policy, metric=metric)


def grid_sight_all(
    grid: TileGrid,
    ids: Sequence[str] | None = None,
    *,
    policy: str = "inset",
    metric: str = "chebyshev",
    blockers: str = "all",
    sides: Mapping[str, str] | None = None,
) -> SightBatch:
    """Sight for every ordered pair of different occupants (all of them, or ``ids``), in the
    order ``[(a, b) for a in ids for b in ids if a != b]``."""
    policy, metric, rule = _options(policy, metric, blockers)
    names = list(grid.occupants) if ids is None else list(ids)
    tiles = np.array([grid.tile_of(i) for i in names], dtype=np.int64).reshape(-1, 2)
    n = len(names)
    a, b = np.nonzero(~np.eye(n, dtype=np.bool_))
    attackers = [] if rule == "all" else [grid.tile_of(names[i]) for i in a.tolist()]
    blocking, layer = _blocking_layers(grid, attackers, rule, sides)
    return batch_sight(blocking, layer, tiles[a], tiles[b], policy=policy, metric=metric)
