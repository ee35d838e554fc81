"""Properties of grid sight on random small maps, and independent oracles for the geometry.

Oracles: a rational parametric clipper written here (for all three policies; ``inset`` with a
concrete, small enough epsilon) and shapely (``touch`` and ``interior``), tile by tile.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, box

from tactica.battlefield.grid.sight import (
    Segment,
    Tile,
    corner_segments,
    lines_of_sight,
    segment_meets_tile,
)
from tactica.battlefield.grid.tiles import BLOCKER_RULES, METRICS, POLICIES, TileGrid

Point = tuple[Fraction, Fraction]
# Coordinates stay below 16 here; any eps below 1/1024 decides every comparison like an
# infinitesimal (see clip below), 10**-6 is far below that.
EPS = Fraction(1, 10**6)


def clip(p: Point, q: Point, tile: Tile, *, closed: bool) -> bool:
    """Does the segment p-q meet tile's square (closed) or its interior (open)? Fractions."""
    lo_t, hi_t = Fraction(0), Fraction(1)
    for axis in (0, 1):
        lo, hi = tile[axis], tile[axis] + 1
        d = q[axis] - p[axis]
        if d == 0:
            inside = lo <= p[axis] <= hi if closed else lo < p[axis] < hi
            if not inside:
                return False
            continue
        a, b = (lo - p[axis]) / d, (hi - p[axis]) / d
        lo_t, hi_t = max(lo_t, min(a, b)), min(hi_t, max(a, b))
    return lo_t <= hi_t if closed else lo_t < hi_t


def moved(seg: Segment, policy: str) -> tuple[Point, Point]:
    e = EPS if policy == "inset" else Fraction(0)
    sx, sy = seg.inset
    return (
        (seg.start[0] + e * sx, seg.start[1] + e * sy),
        (seg.end[0] + e * sx, seg.end[1] + e * sy),
    )


def oracle_meets(seg: Segment, tile: Tile, policy: str) -> bool:
    p, q = moved(seg, policy)
    return clip(p, q, tile, closed=policy == "touch")


def oracle_squeezes(seg: Segment, blockers: set[Tile], own: set[Tile]) -> set[tuple[Tile, Tile]]:
    """Lattice points exactly on the moved line with both tiles it does not enter blocking."""
    p, q = moved(seg, "inset")
    d = (q[0] - p[0], q[1] - p[1])
    out = set()
    xs = range(min(seg.start[0], seg.end[0]) - 1, max(seg.start[0], seg.end[0]) + 2)
    ys = range(min(seg.start[1], seg.end[1]) - 1, max(seg.start[1], seg.end[1]) + 2)
    for lx in xs:
        for ly in ys:
            r = (lx - p[0], ly - p[1])
            if d[0] * r[1] - d[1] * r[0] != 0:
                continue
            t = (r[0] * d[0] + r[1] * d[1]) / (d[0] ** 2 + d[1] ** 2)
            if not 0 <= t <= 1:
                continue
            around = [(lx - 1, ly - 1), (lx, ly - 1), (lx - 1, ly), (lx, ly)]
            sides = [a for a in around if not clip(p, q, a, closed=False)]
            assert len(sides) == 2
            if all(s in blockers and s not in own for s in sides):
                out.add((min(sides), max(sides)))
    return out


@st.composite
def queries(draw: st.DrawFn, max_size: int = 7) -> tuple[TileGrid, Tile, Tile]:
    """A random map with terrain only, and two different tiles; the second is often on a
    45-degree line or a straight line from the first (the hard cases)."""
    w = draw(st.integers(2, max_size))
    h = draw(st.integers(1, max_size))
    tiles = [(x, y) for y in range(h) for x in range(w)]
    a = draw(st.sampled_from(tiles))
    aligned = [t for t in tiles if t != a and (
        abs(t[0] - a[0]) == abs(t[1] - a[1]) or t[0] == a[0] or t[1] == a[1])]
    others = [t for t in tiles if t != a]
    pick_aligned = bool(aligned) and draw(st.booleans())
    b = draw(st.sampled_from(aligned if pick_aligned else others))
    density = draw(st.sampled_from([0.15, 0.3, 0.5]))
    blockers = {t for t in tiles if draw(st.floats(0, 1)) < density}
    return TileGrid(w, h, frozenset(blockers)), a, b


def bits(grid: TileGrid, a: Tile, b: Tile, policy: str) -> list[bool]:
    return [line.is_clear for line in grid.sight(a, b, policy=policy).lines]


@settings(max_examples=300, deadline=None)
@given(queries(), st.sampled_from(POLICIES))
def test_sight_is_symmetric(q: tuple[TileGrid, Tile, Tile], policy: str) -> None:
    grid, a, b = q
    # Corner i from A to B is the same segment as corner i from B to A.
    assert bits(grid, a, b, policy) == bits(grid, b, a, policy)


@settings(max_examples=300, deadline=None)
@given(queries(), st.sampled_from(POLICIES), st.data())
def test_removing_a_blocker_never_blocks_a_line(
    q: tuple[TileGrid, Tile, Tile], policy: str, data: st.DataObject
) -> None:
    grid, a, b = q
    if not grid.blockers:
        return
    gone = data.draw(st.sampled_from(sorted(grid.blockers)))
    before = bits(grid, a, b, policy)
    after = bits(grid.without_blocker(gone), a, b, policy)
    assert all(y or not x for x, y in zip(before, after, strict=True))
    assert sum(after) >= sum(before)


@settings(max_examples=300, deadline=None)
@given(queries(), st.sampled_from(POLICIES))
def test_every_tile_decision_matches_the_rational_oracle(
    q: tuple[TileGrid, Tile, Tile], policy: str
) -> None:
    grid, a, b = q
    own = {a, b}
    blockers = set(grid.blockers)
    result = lines_of_sight(a, b, blockers, policy)
    for seg, line in zip(corner_segments(a, b), result, strict=True):
        expected = {
            t for t in blockers if t not in own and oracle_meets(seg, t, policy)
        }
        assert set(line.blocked_by) == expected
        squeezed = oracle_squeezes(seg, blockers, own) if policy == "inset" else set()
        assert set(line.squeezed_between) == squeezed


def _degenerate(seg: Segment) -> bool:
    """Along a grid line or through a lattice point between its ends."""
    (px, py), (qx, qy) = seg.start, seg.end
    dx, dy = qx - px, qy - py
    return dx == 0 or dy == 0 or np.gcd(abs(dx), abs(dy)) > 1


@settings(max_examples=300, deadline=None)
@given(queries())
def test_touch_and_interior_agree_with_shapely(q: tuple[TileGrid, Tile, Tile]) -> None:
    grid, a, b = q
    checked = 0
    for seg in corner_segments(a, b):
        if _degenerate(seg):
            continue
        line = LineString([seg.start, seg.end])
        for x in range(-1, grid.width + 1):
            for y in range(-1, grid.height + 1):
                square = box(x, y, x + 1, y + 1)
                assert segment_meets_tile(seg, (x, y), "touch") == line.intersects(square)
                inside = line.relate_pattern(square, "T********")
                assert segment_meets_tile(seg, (x, y), "interior") == inside
                checked += 1
    assert checked or all(_degenerate(s) for s in corner_segments(a, b))


@settings(max_examples=150, deadline=None)
@given(queries(max_size=5))
def test_shapely_agrees_on_degenerate_lines_too(q: tuple[TileGrid, Tile, Tile]) -> None:
    """With integer coordinates GEOS decides exactly, so edges and lattice points agree too."""
    grid, a, b = q
    for seg in corner_segments(a, b):
        line = LineString([seg.start, seg.end])
        for x in range(-1, grid.width + 1):
            for y in range(-1, grid.height + 1):
                square = box(x, y, x + 1, y + 1)
                assert segment_meets_tile(seg, (x, y), "touch") == line.intersects(square)
                inside = line.relate_pattern(square, "T********")
                assert segment_meets_tile(seg, (x, y), "interior") == inside


@st.composite
def battle_maps(draw: st.DrawFn) -> TileGrid:
    """A random map with terrain, 2-8 occupants and two or three sides."""
    w = draw(st.integers(2, 12))
    h = draw(st.integers(1, 12))
    tiles = [(x, y) for y in range(h) for x in range(w)]
    n = draw(st.integers(2, min(8, len(tiles))))
    chosen = draw(st.permutations(tiles))
    placed = {"ABCDEFGH"[i]: chosen[i] for i in range(n)}
    rest = chosen[n:]
    density = draw(st.sampled_from([0.0, 0.1, 0.3]))
    blockers = frozenset(t for t in rest if draw(st.floats(0, 1)) < density)
    side_names = ["red", "blue", "green"][: draw(st.integers(2, 3))]
    sides = {oid: draw(st.sampled_from(side_names)) for oid in placed}
    return TileGrid(w, h, blockers, placed, sides)


@settings(max_examples=150, deadline=None)
@given(battle_maps(), st.sampled_from(POLICIES), st.sampled_from(METRICS),
       st.sampled_from(BLOCKER_RULES))
def test_batch_path_equals_reference(grid: TileGrid, policy: str, metric: str, rule: str) -> None:
    ids = list(grid.occupants)
    pairs = [(a, b) for a in ids for b in ids if a != b]
    reference = [grid.sight(a, b, policy=policy, metric=metric, blockers=rule) for a, b in pairs]
    want = [sum(1 << i for i, ln in enumerate(s.lines) if not ln.is_clear) for s in reference]
    batches = (
        grid.sight_all(policy=policy, metric=metric, blockers=rule),
        grid.sight_many(pairs, policy=policy, metric=metric, blockers=rule),
    )
    for batch in batches:
        assert batch.blocked.tolist() == want
        assert batch.clear_lines.tolist() == [s.clear_lines for s in reference]
        assert batch.visible.tolist() == [s.is_visible for s in reference]
        assert batch.cover.tolist() == [s.is_in_cover for s in reference]
        assert batch.distance.tolist() == [s.distance for s in reference]


@settings(max_examples=100, deadline=None)
@given(queries(max_size=9), st.sampled_from(POLICIES))
def test_batch_path_on_tile_arrays(q: tuple[TileGrid, Tile, Tile], policy: str) -> None:
    grid, a, b = q
    batch = grid.sight_many(np.array([[a, b], [b, a]]), policy=policy)
    want = sum(1 << i for i, ok in enumerate(bits(grid, a, b, policy)) if not ok)
    assert batch.blocked.tolist() == [want, want]


def test_batch_path_from_many_threads_at_once() -> None:
    """Threads growing the same offset table concurrently still get the reference answers."""
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(3)
    w, h = 23, 19  # a grid shape no other test uses, so its table starts empty
    cells = [(x, y) for y in range(h) for x in range(w)]
    order = rng.permutation(len(cells))
    blockers = frozenset(cells[i] for i in order[:40])
    grids = []
    for k in range(4):
        spots = [cells[i] for i in order[40 + 6 * k: 46 + 6 * k]]
        grids.append(TileGrid(w, h, blockers, dict(zip("ABCDEF", spots, strict=True))))

    def check(grid: TileGrid) -> bool:
        ids = list(grid.occupants)
        want = [sum(1 << i for i, ln in enumerate(grid.sight(a, b).lines) if not ln.is_clear)
                for a in ids for b in ids if a != b]
        return bool(grid.sight_all().blocked.tolist() == want)

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(check, grids * 3))
