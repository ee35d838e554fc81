"""Many sight queries at once on a dot lattice, vectorised with numpy.

What a sight line meets depends only on the offset between its two dots, so each offset's dots
and cell sides (with their flags, :func:`~tactica.battlefield.dots.geometry.line_geometry`) are
computed once and stored as offsets into the lattice's flat arrays: one array of feature codes
per level over every cell side, one array of trooper poses per level over every dot. A batch is
then a handful of numpy gathers: the codes along every pair's line, the few hits among them, and
per-pair sums (``bincount``) of cover and blocks for each way round (a hair to the right, a hair
to the left). The rules are those of :func:`tactica.battlefield.dots.sight.evaluate`, written
again over arrays; the answers are identical (the tests and ``bench/sight.py`` check it).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tactica.battlefield.dots.features import FEATURE_KINDS
from tactica.battlefield.dots.geometry import (
    DOT_NEAR,
    DOT_ON,
    DOT_TANGENT,
    SIDE_LEFT,
    SIDE_NEAR,
    SIDE_OWN,
    SIDE_RIGHT,
    SIDE_TARGET,
    SIDE_TOUCH,
    line_geometry,
    offset_to_axial,
)
from tactica.battlefield.dots.sight import SightOptions
from tactica.engine.caching import Cache
from tactica.engine.errors import MapError

if TYPE_CHECKING:
    from tactica.battlefield.dots.lattice import DotLattice

__all__ = ["DotSightBatch", "LatticeArrays", "lattice_arrays", "sight_all", "sight_many"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
U8Array = npt.NDArray[np.uint8]

_PAD = 2
_KINDS = list(FEATURE_KINDS)
# A code per slot: 0 nothing, 1.. a feature kind (FEATURE_KINDS order), 16 standing, 17 prone.
_STANDING, _PRONE = 16, 17
_BLOCKS = np.zeros(32, dtype=np.bool_)
_COVER = np.zeros(32, dtype=np.bool_)
_SOLID = np.zeros(32, dtype=np.bool_)
for _i, _k in enumerate(_KINDS, start=1):
    _BLOCKS[_i] = FEATURE_KINDS[_k].blocks_sight
    _COVER[_i] = FEATURE_KINDS[_k].cover > 0
    _SOLID[_i] = FEATURE_KINDS[_k].solid


@dataclass(frozen=True)
class DotSightBatch:
    """The answers of a batch, one entry per pair: ``visible``, ``cover`` (0 when not
    visible), ``range`` (-1: no walkable path) and ``steps``."""

    visible: BoolArray
    cover: IntArray
    range: IntArray
    steps: IntArray


@dataclass(frozen=True)
class LatticeArrays:
    """A lattice as one flat array over a padded axial box ``width`` x ``height``: per level
    and dot four slots, the feature codes of its sides 0, 1, 2 (east, south-east, south-west)
    and the pose of the trooper on it."""

    width: int
    height: int
    qmin: int
    codes: U8Array  # (levels * cells * 4)
    regions: IntArray  # (levels * cells): floor region, -1 none
    stairs_low: IntArray  # (cells): lowest level joined by stairs, -1 none
    stairs_high: IntArray

    @property
    def cells(self) -> int:
        """Dots in the padded box."""
        return self.width * self.height

    def index(self, q: IntArray, r: IntArray) -> IntArray:
        """The cell index of axial dots."""
        out: IntArray = (r + _PAD) * self.width + (q - self.qmin + _PAD)
        return out


def lattice_arrays(lat: DotLattice, prone: frozenset[str] = frozenset()) -> LatticeArrays:
    """The arrays of a lattice, with ``prone`` troopers lying down too (cached on the lattice).

    The map's part (features, floors, stairs) is built once and kept when only the troopers
    change (``fast-base-arrays``); the troopers' poses are written on a copy of it."""
    key = f"fast-arrays-{sorted(prone)}"
    found = lat.memo.get(key)
    if found is not None:
        assert isinstance(found, LatticeArrays)
        return found
    base = _base_arrays(lat)
    codes = base.codes.copy()
    cells = base.cells
    for tid, t in lat.troopers.items():
        lying = t.prone or tid in prone
        q, r = t.dot
        at = (r + _PAD) * base.width + (q - base.qmin + _PAD)
        codes[(t.level * cells + at) * 4 + 3] = _PRONE if lying else _STANDING
    arrays = LatticeArrays(base.width, base.height, base.qmin, codes, base.regions,
                           base.stairs_low, base.stairs_high)
    lat.memo[key] = arrays
    return arrays


def _base_arrays(lat: DotLattice) -> LatticeArrays:
    """The arrays of the map without its troopers (cached, kept across trooper changes)."""
    found = lat.memo.get("fast-base-arrays")
    if found is not None:
        assert isinstance(found, LatticeArrays)
        return found
    qmin = -((lat.rows - 1) // 2)
    width = lat.cols - qmin + 2 * _PAD
    height = lat.rows + 2 * _PAD
    cells = width * height
    levels = len(lat.level_names)

    def idx(q: int, r: int) -> int:
        return (r + _PAD) * width + (q - qmin + _PAD)

    codes = np.zeros(levels * cells * 4, dtype=np.uint8)
    for (lvl, (q, r, k)), kind in lat.features.items():
        codes[(lvl * cells + idx(q, r)) * 4 + k] = _KINDS.index(kind) + 1
    regions = np.full(levels * cells, -1, dtype=np.int64)
    for r in range(lat.rows):
        for c in range(lat.cols):
            dot = offset_to_axial(c, r)
            for lvl in range(levels):
                regions[lvl * cells + idx(*dot)] = lat.floor_region(dot, lvl)
    low = np.full(cells, -1, dtype=np.int64)
    high = np.full(cells, -1, dtype=np.int64)
    for dot, st in lat.stairs.items():
        low[idx(*dot)], high[idx(*dot)] = st.low, st.high
    arrays = LatticeArrays(width, height, qmin, codes, regions, low, high)
    lat.memo["fast-base-arrays"] = arrays
    return arrays


class _View(NamedTuple):
    slot: IntArray  # per offset id: its index in the lists below, -1 unknown
    start: IntArray
    length: IntArray
    near_start: IntArray
    near_length: IntArray
    rel: IntArray
    flag: U8Array


class _Table:
    """Every offset's sides and dots, for one box shape, as flat arrays of relative slots
    (``cell * 4 + k``: ``k`` 0..2 a side, 3 the dot) and flags: all of them, then again those
    within one dot of the target. Grown on demand, under a lock, by appending only."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.span = 2 * width + 1
        self.lock = threading.Lock()
        self.slot = np.full(self.span * (2 * height + 1), -1, dtype=np.int64)
        self.start: list[int] = []
        self.length: list[int] = []
        self.near_start: list[int] = []
        self.near_length: list[int] = []
        # the arrays grow by doubling (each growth copies at most once what it holds): the
        # views are their filled part, so a view handed out earlier stays valid
        self._offsets = np.zeros((4, 64), dtype=np.int64)  # start, length, near start, near length
        self._rel = np.zeros(1024, dtype=np.int64)
        self._flag = np.zeros(1024, dtype=np.uint8)
        self.rel = self._rel[:0]
        self.flag = self._flag[:0]
        self.view: _View | None = None

    def offset_ids(self, dq: IntArray, dr: IntArray) -> IntArray:
        out: IntArray = (dr + self.height) * self.span + (dq + self.width)
        return out

    def lookup(self, ids: IntArray) -> _View:
        with self.lock:
            missing = np.unique(ids[self.slot[ids] < 0])
            if missing.size or self.view is None:
                self._grow(missing.tolist())
            assert self.view is not None
            return self.view

    def _grow(self, ids: list[int]) -> None:
        w = self.width
        rel: list[int] = []
        flag: list[int] = []
        base = self.rel.size
        for oid in ids:
            dq, dr = oid % self.span - w, oid // self.span - self.height
            self.slot[oid] = len(self.start)
            entries: list[tuple[int, int, bool]] = []
            if (dq, dr) != (0, 0):
                geo = line_geometry(dq, dr)
                entries = [((r * w + q) * 4 + k, f, bool(f & SIDE_NEAR))
                           for q, r, k, f in geo.sides]
                entries += [((r * w + q) * 4 + 3, f, bool(f & DOT_NEAR)) for q, r, f in geo.dots]
            self.start.append(base + len(rel))
            self.length.append(len(entries))
            rel.extend(e[0] for e in entries)
            flag.extend(e[1] for e in entries)
            near = [e for e in entries if e[2]]
            self.near_start.append(base + len(rel))
            self.near_length.append(len(near))
            rel.extend(e[0] for e in near)
            flag.extend(e[1] for e in near)
        used, added = base + len(rel), len(rel)
        if used > self._rel.size:
            size = max(used, 2 * self._rel.size)
            self._rel = np.concatenate([self._rel[:base], np.zeros(size - base, np.int64)])
            self._flag = np.concatenate([self._flag[:base], np.zeros(size - base, np.uint8)])
        if added:
            self._rel[base:used] = rel
            self._flag[base:used] = flag
        self.rel, self.flag = self._rel[:used], self._flag[:used]
        n, done = len(self.start), self.view.start.size if self.view is not None else 0
        if n > self._offsets.shape[1]:
            grown = np.zeros((4, max(n, 2 * self._offsets.shape[1])), dtype=np.int64)
            grown[:, :done] = self._offsets[:, :done]
            self._offsets = grown
        for row, values in enumerate((self.start, self.length, self.near_start,
                                      self.near_length)):
            self._offsets[row, done:n] = values[done:n]
        self.view = _View(self.slot, self._offsets[0, :n], self._offsets[1, :n],
                          self._offsets[2, :n], self._offsets[3, :n], self.rel, self.flag)


_TABLES: Cache[tuple[int, int], _Table] = Cache("dots.sight-tables", maxsize=64)
_TABLES_LOCK = threading.Lock()


def _table(width: int, height: int) -> _Table:
    with _TABLES_LOCK:
        found = _TABLES.get((width, height))
        if found is None:
            found = _TABLES.put((width, height), _Table(width, height))
        return found


_SCRATCH = threading.local()


def _scratch(total: int) -> tuple[IntArray, IntArray, IntArray, U8Array]:
    """Per-thread work arrays of at least ``total`` entries, reused between batches."""
    bufs = getattr(_SCRATCH, "bufs", None)
    if bufs is None or bufs[0].size < total:
        size = max(total, 1 << 16, 2 * (bufs[0].size if bufs is not None else 0))
        bufs = (np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
                np.empty(size, dtype=np.int64), np.empty(size, dtype=np.uint8))
        _SCRATCH.bufs = bufs
    pos, at, idx, code = bufs
    return pos[:total], at[:total], idx[:total], code[:total]


def _gather(
    view: _View, codes: U8Array, start: IntArray, length: IntArray, base: IntArray
) -> tuple[IntArray, U8Array, U8Array]:
    """For each pair ``i`` (every ``length[i] >= 1``), read ``codes[base[i] + rel[j]]`` over
    its entries ``j``; return the nonzero ones as ``(pair, flag, code)``."""
    ends = np.cumsum(length)
    first = ends - length
    pos, at, idx, code = _scratch(int(ends[-1]))
    pos.fill(1)
    pos[0] = start[0]
    pos[first[1:]] = start[1:] - start[:-1] - length[:-1] + 1
    np.cumsum(pos, out=pos)
    at.fill(0)
    at[0] = base[0]
    at[first[1:]] = np.diff(base)
    np.cumsum(at, out=at)
    np.take(view.rel, pos, out=idx)
    np.add(idx, at, out=idx)
    np.take(codes, idx, out=code)
    hit = np.flatnonzero(code)
    pair = np.searchsorted(first, hit, side="right") - 1
    return pair, view.flag[pos[hit]], code[hit]


def batch(
    lat: DotLattice,
    src: IntArray,
    dst: IntArray,
    la: IntArray,
    lb: IntArray,
    pa: BoolArray,
    pb: BoolArray,
    opts: SightOptions,
) -> DotSightBatch:
    """Sight for pairs given as axial dots ``src``/``dst`` (shape ``(n, 2)``), levels and poses
    (the dots differ, or the levels do)."""
    arr = lattice_arrays(lat, opts.prone)
    n = src.shape[0]
    cells = arr.cells
    dq, dr = dst[:, 0] - src[:, 0], dst[:, 1] - src[:, 1]
    steps = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    high = np.maximum(la, lb)
    cross = la != lb
    s_idx = arr.index(src[:, 0], src[:, 1])
    table = _table(arr.width, arr.height)
    ids = table.offset_ids(dq, dr)
    view = table.lookup(ids)
    slot = view.slot[ids]
    moving = np.flatnonzero(steps > 0)
    if moving.size == n:
        moving = np.arange(n)
    # Everything on the line, on the higher trooper's level.
    if moving.size:
        hp, hf, hc = _gather(view, arr.codes, view.start[slot[moving]],
                             view.length[slot[moving]], (high[moving] * cells + s_idx[moving]) * 4)
        hp = moving[hp]
    else:
        hp, hf, hc = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8),
                      np.zeros(0, dtype=np.uint8))
    hl = high[hp]
    # Between levels, the target's level too when lower, within one dot of the target.
    low_target = np.flatnonzero(cross & (lb < la) & (steps > 0))
    if low_target.size:
        sel = low_target[view.near_length[slot[low_target]] > 0]
        if sel.size:
            p2, f2, c2 = _gather(view, arr.codes, view.near_start[slot[sel]],
                                 view.near_length[slot[sel]], (lb[sel] * cells + s_idx[sel]) * 4)
            p2 = sel[p2]
            hl = np.concatenate([hl, lb[p2]])
            hp, hf, hc = (np.concatenate([hp, p2]), np.concatenate([hf, f2]),
                          np.concatenate([hc, c2]))
    fa, fb = pa[hp], pb[hp]
    counts = opts.tangent == "counts"
    # Features.
    is_side = hc < _STANDING
    own = is_side & ((hf & SIDE_OWN) > 0) & (hl == la[hp])
    tcell = is_side & ((hf & SIDE_TARGET) > 0) & (hl == lb[hp])
    if opts.prone_low == "firer":
        prone_hit = (fa & fb) | ((fa | fb) & own)
    else:
        prone_hit = (fa & fb) | (fa & own) | (fb & tcell)
    blocks = is_side & (_BLOCKS[hc] | (_SOLID[hc] & prone_hit))
    covers = is_side & _COVER[hc] & ~blocks & ~own
    in_r = (hf & (SIDE_TOUCH if counts else SIDE_RIGHT)) > 0
    in_l = (hf & (SIDE_TOUCH if counts else SIDE_LEFT)) > 0
    # Troopers: on the line, and not prone under a standing firer's line.
    on_line = ~is_side & ((hf & (DOT_ON | (DOT_TANGENT if counts else 0))) > 0)
    counted = on_line & ~((hc == _PRONE) & ~fa)
    if opts.intervening == "block":
        blocks = blocks | counted
    else:
        covers = covers | counted
    every = ~is_side
    blocked_r = np.bincount(hp[blocks & (in_r | every)], minlength=n) > 0
    blocked_l = np.bincount(hp[blocks & (in_l | every)], minlength=n) > 0
    cover_r = np.bincount(hp[covers & (in_r | every)], minlength=n)
    cover_l = np.bincount(hp[covers & (in_l | every)], minlength=n)
    visible = ~blocked_r | ~blocked_l
    cover = np.where(blocked_r, cover_l, np.where(blocked_l, cover_r,
                                                  np.minimum(cover_r, cover_l)))
    if bool(cross.any()):
        d_idx = arr.index(dst[:, 0], dst[:, 1])
        up_idx = np.where(la > lb, s_idx, d_idx)
        low_idx = np.where(la > lb, d_idx, s_idx)
        region_up = arr.regions[high * cells + up_idx]
        region_low = arr.regions[high * cells + low_idx]
        under = cross & (region_up >= 0) & (region_up == region_low)
        same = cross & (steps == 0)
        joined = same & (arr.stairs_low[s_idx] >= 0) & (
            arr.stairs_low[s_idx] <= np.minimum(la, lb)) & (arr.stairs_high[s_idx] >= high)
        if opts.floors == "block":
            visible = np.where(same, joined, visible & ~under)
        else:
            visible = visible | same
        cover = np.where(same, 0, cover)
    cover = np.where(visible, cover, 0).astype(np.int64)
    rng = _ranges(lat, src, dst, la, lb, steps, opts)
    return DotSightBatch(visible.astype(np.bool_), cover, rng, steps.astype(np.int64))


def _ranges(lat: DotLattice, src: IntArray, dst: IntArray, la: IntArray, lb: IntArray,
            steps: IntArray, opts: SightOptions) -> IntArray:
    if opts.range_steps == "lattice":
        base = steps.copy()
    elif opts.range_steps == "minus-one":
        base = np.maximum(steps - 1, 0)
    else:
        from tactica.battlefield.dots.move import walk_steps

        found = [
            walk_steps(lat, ((a[0], a[1]), x), ((b[0], b[1]), y))
            for a, b, x, y in zip(src.tolist(), dst.tolist(), la.tolist(), lb.tolist(),
                                  strict=True)
        ]
        base = np.array([-1 if f is None else f for f in found], dtype=np.int64)
    if opts.range_levels == "add":
        base = np.where(base >= 0, base + np.abs(la - lb), base)
    out: IntArray = base.astype(np.int64)
    return out


def _ends(
    lat: DotLattice, refs: Sequence[str], opts: SightOptions, *, remember: bool = False
) -> tuple[IntArray, IntArray, BoolArray]:
    """The dots, levels and poses of references (``remember``: cache them on the lattice, for
    the short id lists of :func:`sight_all`)."""
    key = f"fast-ends-{tuple(refs)}-{sorted(opts.prone)}"
    if remember:
        found = lat.memo.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
    from tactica.battlefield.dots.sight import resolve_end

    cache: dict[str, Any] = {}
    ends = []
    for ref in refs:
        end = cache.get(ref)
        if end is None:
            end = cache[ref] = resolve_end(lat, ref, opts)
        ends.append(end)
    out = (np.array([e.dot for e in ends], dtype=np.int64).reshape(-1, 2),
           np.array([e.level for e in ends], dtype=np.int64),
           np.array([e.prone for e in ends], dtype=np.bool_))
    if remember:
        lat.memo[key] = out
    return out


def sight_many(
    lat: DotLattice, pairs: Sequence[tuple[str, str]], **options: Any
) -> DotSightBatch:
    """Sight for many ``(source, target)`` references (trooper ids or dots) at once."""
    opts = SightOptions.parse(options, lat)
    flat = [ref for pair in pairs for ref in pair]
    dots, levels, prone = _ends(lat, flat, opts)
    src, dst = dots[0::2], dots[1::2]
    la, lb = levels[0::2], levels[1::2]
    if bool(np.any((src == dst).all(axis=1) & (la == lb))):
        raise MapError("sight from a dot to itself is not defined")
    return batch(lat, src, dst, la, lb, prone[0::2], prone[1::2], opts)


def sight_all(
    lat: DotLattice, ids: Sequence[str] | None = None, **options: Any
) -> DotSightBatch:
    """Sight for every ordered pair of different troopers (all, or ``ids``), in the order
    ``[(a, b) for a in ids for b in ids if a != b]``."""
    opts = SightOptions.parse(options, lat)
    names = list(lat.troopers) if ids is None else list(ids)
    dots, levels, prone = _ends(lat, names, opts, remember=True)
    a, b = np.nonzero(~np.eye(len(names), dtype=np.bool_))
    return batch(lat, dots[a], dots[b], levels[a], levels[b], prone[a], prone[b], opts)
