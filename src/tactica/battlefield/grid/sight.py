"""Exact geometry of the four corner-to-corner sight lines between two tiles.

Tile ``(x, y)`` covers the closed square ``[x, x+1] x [y, y+1]``; ``y`` grows downward. A sight
line runs from one corner of the attacker's tile to the *same* corner of the defender's tile, so
the four lines of a query are parallel translates of one another and every endpoint is a lattice
point. Whether a line is stopped by a blocking tile depends on the contact policy:

``inset`` (default)
    Each endpoint is moved an infinitesimal ``eps`` toward the centre of its own tile. Both ends
    of a line sit at the same corner of their tiles, so the whole line is translated by
    ``eps * s`` where ``s`` is the diagonal sign vector pointing into the tile (``(1, 1)`` for
    top-left corners). The moved line blocks on a tile whose *open interior* it enters for every
    small enough ``eps``. Numbers are kept as ``a + b*eps`` and compared lexicographically on
    ``(a, b)``, so the decision is exact. A line parallel to ``s`` (a 45-degree line) is not moved
    off the lattice points it runs through; where such a line passes exactly between two
    diagonally placed blockers it is blocked (it would have to squeeze through a point).
``touch``
    Any contact with a blocker's closed square blocks: running along its edge or grazing its
    corner is enough.
``interior``
    Only entering a blocker's open interior blocks: lines along tile edges and lines through the
    point between two diagonal blockers pass. One consequence: the four lines of a straight shot
    along a row or a column all run along tile edges, so nothing ever blocks such a shot.

All arithmetic is on integers; there is no float and no tolerance anywhere in this module.

The tests check :func:`segment_meets_tile` against an independent rational clipping oracle and
against shapely, and the vectorised batch path of :mod:`tactica.battlefield.grid.fast` against
:func:`lines_of_sight`, which is written for clarity rather than speed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Final

__all__ = [
    "CORNER_NAMES",
    "POLICIES",
    "LineOfSight",
    "Segment",
    "Tile",
    "corner_segments",
    "lines_of_sight",
    "segment_meets_tile",
    "squeeze_points",
    "touched_tiles",
]

#: A tile as ``(column, row)``; also used for lattice points (tile corners).
Tile = tuple[int, int]

#: The contact policies of a line that grazes a blocker, default first.
POLICIES: Final = ("inset", "touch", "interior")

#: Corner names in the fixed order of the four lines (bit ``i`` of a line mask is corner ``i``).
CORNER_NAMES: Final = ("top-left", "top-right", "bottom-right", "bottom-left")

_CORNER_OFFSETS: Final = ((0, 0), (1, 0), (1, 1), (0, 1))
# Direction from each corner toward the centre of its tile, as signs (the inset direction).
_INSET_SIGNS: Final = ((1, 1), (-1, 1), (-1, -1), (1, -1))


@dataclass(frozen=True)
class Segment:
    """One sight line: from ``start`` to ``end`` (lattice points), inset direction ``inset``."""

    corner: int
    start: Tile
    end: Tile
    inset: Tile

    @property
    def corner_name(self) -> str:
        """``"top-left"``, ``"top-right"``, ``"bottom-right"`` or ``"bottom-left"``."""
        return CORNER_NAMES[self.corner]


@dataclass(frozen=True)
class LineOfSight:
    """The verdict on one sight line, with the evidence.

    ``blocked_by`` lists the blocking tiles the line meets (sorted); ``squeezed_between`` lists
    pairs of diagonally placed blockers the line passes exactly between (``inset`` policy only).
    """

    segment: Segment
    blocked_by: tuple[Tile, ...] = ()
    squeezed_between: tuple[tuple[Tile, Tile], ...] = ()

    @property
    def is_clear(self) -> bool:
        """True when nothing stops the line."""
        return not self.blocked_by and not self.squeezed_between

    @property
    def corner_name(self) -> str:
        """The corner the line joins."""
        return self.segment.corner_name


def corner_segments(source: Tile, target: Tile) -> tuple[Segment, ...]:
    """The four lines from each corner of ``source`` to the same corner of ``target``.

    >>> [(s.corner_name, s.start, s.end) for s in corner_segments((0, 0), (2, 1))][:2]
    [('top-left', (0, 0), (2, 1)), ('top-right', (1, 0), (3, 1))]
    """
    (ax, ay), (bx, by) = source, target
    return tuple(
        Segment(i, (ax + ox, ay + oy), (bx + ox, by + oy), _INSET_SIGNS[i])
        for i, (ox, oy) in enumerate(_CORNER_OFFSETS)
    )


def _all_on_one_side(values: list[tuple[int, int]], *, strict: bool) -> bool:
    """True if every ``(a, b)`` (meaning ``a + b*eps``) is >= 0, or every one is <= 0.

    With ``strict`` the test is > 0 / < 0 (used for closed-set contact).
    """
    zero = (0, 0)
    if strict:
        return all(v > zero for v in values) or all(v < zero for v in values)
    return all(v >= zero for v in values) or all(v <= zero for v in values)


def segment_meets_tile(segment: Segment, tile: Tile, policy: str) -> bool:
    """Whether ``segment`` is stopped by a blocker on ``tile`` under ``policy`` (single tile).

    Decided by the separating-axis test on the x axis, the y axis and the line's normal, the only
    axes that can separate a segment from an axis-aligned square. For ``touch`` the closed square
    counts and only strict separation clears; for ``interior`` and ``inset`` the open square
    counts and touching separation clears. For ``inset`` every coordinate carries an ``eps``
    part (the translation ``eps * segment.inset``), compared lexicographically.

    The squeeze rule of ``inset`` involves two tiles at once and is in :func:`squeeze_points`.
    """
    (px, py), (qx, qy) = segment.start, segment.end
    tx, ty = tile
    if policy == "inset":
        sx, sy = segment.inset
    elif policy in ("touch", "interior"):
        sx = sy = 0
    else:
        raise ValueError(f"unknown sight policy {policy!r}")
    strict = policy == "touch"
    # x axis: the segment spans [lo + eps*sx, hi + eps*sx], the tile [tx, tx + 1].
    lo, hi = (px, qx) if px <= qx else (qx, px)
    if _apart((hi, sx), (tx, 0), strict) or _apart((tx + 1, 0), (lo, sx), strict):
        return False
    lo, hi = (py, qy) if py <= qy else (qy, py)
    if _apart((hi, sy), (ty, 0), strict) or _apart((ty + 1, 0), (lo, sy), strict):
        return False
    # Normal axis: cross(d, corner - start - eps*s) for the four corners of the tile.
    dx, dy = qx - px, qy - py
    base = dx * (ty - py) - dy * (tx - px)
    e = -(dx * sy - dy * sx)
    values = [(base, e), (base - dy, e), (base + dx, e), (base + dx - dy, e)]
    return not _all_on_one_side(values, strict=strict)


def _apart(low: tuple[int, int], high: tuple[int, int], strict: bool) -> bool:
    """Whether the value ``low`` lies below ``high`` (strictly for closed sets)."""
    return low < high if strict else low <= high


def squeeze_points(segment: Segment) -> Iterator[tuple[Tile, Tile, Tile]]:
    """Lattice points the inset line still passes through, with the two tiles beside each.

    Only a 45-degree line parallel to its inset direction keeps its lattice points when moved;
    the moved line covers the lattice points from ``start`` to ``end`` except the one at the end
    it was moved away from. At each such point the line enters the two tiles ahead and behind and
    touches only the corners of the other two, given here as ``(point, side_a, side_b)``.

    >>> list(squeeze_points(corner_segments((0, 0), (1, 1))[0]))
    [((1, 1), (1, 0), (0, 1))]
    """
    (px, py), (qx, qy) = segment.start, segment.end
    dx, dy = qx - px, qy - py
    sx, sy = segment.inset
    if dx == 0 or abs(dx) != abs(dy) or dx * sy != dy * sx:
        return
    n = abs(dx)
    ux, uy = dx // n, dy // n
    forward = (ux, uy) == (sx, sy)
    steps = range(1, n + 1) if forward else range(n)
    for k in steps:
        lx, ly = px + k * ux, py + k * uy
        side_a = (lx + (ux - 1) // 2, ly - (uy + 1) // 2)
        side_b = (lx - (ux + 1) // 2, ly + (uy - 1) // 2)
        yield (lx, ly), side_a, side_b


def touched_tiles(segment: Segment) -> Iterator[Tile]:
    """Every tile whose closed square the (unmoved) segment meets, column by column.

    This is exactly the ``touch`` set and a superset of what ``inset`` and ``interior`` can
    block (the moved line of ``inset`` stays within ``eps`` of the segment), so callers filter it
    with :func:`segment_meets_tile`. Integer floor division only.
    """
    (px, py), (qx, qy) = segment.start, segment.end
    if px > qx:
        px, py, qx, qy = qx, qy, px, py
    dx, dy = qx - px, qy - py
    for tx in range(px - 1, qx + 1):
        x_lo, x_hi = max(tx, px), min(tx + 1, qx)
        if dx == 0:
            y_lo_num, y_hi_num, den = min(py, qy), max(py, qy), 1
        else:
            # y(x) = (py*dx + (x - px)*dy) / dx with dx > 0.
            ya = py * dx + (x_lo - px) * dy
            yb = py * dx + (x_hi - px) * dy
            y_lo_num, y_hi_num, den = min(ya, yb), max(ya, yb), dx
        first = -((-y_lo_num) // den) - 1  # ceil(y_lo) - 1
        last = y_hi_num // den  # floor(y_hi)
        for ty in range(first, last + 1):
            yield tx, ty


def lines_of_sight(
    source: Tile,
    target: Tile,
    is_blocker: Callable[[Tile], bool] | Collection[Tile],
    policy: str,
) -> tuple[LineOfSight, ...]:
    """The four sight lines from ``source`` to ``target`` and what stops each of them.

    ``is_blocker`` is a set of blocking tiles or a predicate; the source and target tiles never
    block their own lines. This is the reference implementation: for each line and each blocking
    tile near it, one exact test.

    >>> [line.is_clear for line in lines_of_sight((0, 0), (2, 0), {(1, 1)}, "touch")]
    [True, True, False, False]
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown sight policy {policy!r}")
    if source == target:
        raise ValueError("a tile's sight lines to itself are undefined")
    blocks: Callable[[Tile], bool]
    if callable(is_blocker):
        blocks = is_blocker
    else:
        blocker_set = is_blocker
        blocks = blocker_set.__contains__
    own = {source, target}
    # Blocking tiles in the lines' bounding box, one tile wider on every side.
    x0, x1 = min(source[0], target[0]) - 1, max(source[0], target[0]) + 1
    y0, y1 = min(source[1], target[1]) - 1, max(source[1], target[1]) + 1
    if callable(is_blocker):
        near = [
            (x, y)
            for x in range(x0, x1 + 1)
            for y in range(y0, y1 + 1)
            if (x, y) not in own and blocks((x, y))
        ]
    else:
        near = [
            t for t in is_blocker if x0 <= t[0] <= x1 and y0 <= t[1] <= y1 and t not in own
        ]
    near.sort()
    out = []
    for seg in corner_segments(source, target):
        hit = tuple(t for t in near if segment_meets_tile(seg, t, policy))
        squeezed: tuple[tuple[Tile, Tile], ...] = ()
        if policy == "inset":
            squeezed = tuple(
                (min(a, b), max(a, b))
                for _, a, b in squeeze_points(seg)
                if a not in own and b not in own and blocks(a) and blocks(b)
            )
        out.append(LineOfSight(seg, hit, squeezed))
    return tuple(out)
