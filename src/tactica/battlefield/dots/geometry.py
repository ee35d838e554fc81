"""Exact geometry of the dot lattice: coordinates, cells and their sides, and sight segments.

Dots stand 1 spacing apart in a triangular pattern; each has 6 neighbours. Two frames are used:

*offset* ``(col, row)``
    what map files and people use: ``row`` counts down from the top, ``col`` to the right, and
    odd rows are shifted half a spacing to the right.
*axial* ``(q, r)``
    what the geometry uses: the dot's centre is ``q * e1 + r * e2`` with ``e1 = (1, 0)`` and
    ``e2 = (1/2, sqrt(3)/2)`` (``y`` grows downward, as on the page). ``r = row`` and
    ``q = col - row // 2``.

In the axial frame every quantity a sight decision needs is an integer:

* the squared length of ``(a, b)`` is ``a*a + a*b + b*b``;
* twice the dot product of ``(a, b)`` and ``(c, d)`` is ``2ac + ad + bc + 2bd``;
* the determinant ``a*d - b*c`` is the signed area up to the positive factor ``sqrt(3)/2``.

A dot's *cell* is its Voronoi cell, a regular hexagon whose six sides lie halfway to the six
neighbours; its corners are the centroids of three mutually adjacent dots, so scaling the axial
frame by 3 makes every corner an integer point. Nothing in this module uses a float.

The six directions, clockwise on the page from east, are numbered 0 to 5:

>>> [DIRECTION_NAMES[k] for k in range(6)]
['east', 'south-east', 'south-west', 'west', 'north-west', 'north-east']
>>> offset_to_axial(1, 2), axial_to_offset(0, 2)
((0, 2), (1, 2))
>>> steps((0, 0), (3, -1)), steps((0, 0), (2, 2))
(3, 4)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Final

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "DOT_NEAR",
    "DOT_ON",
    "DOT_TANGENT",
    "SIDE_LEFT",
    "SIDE_NEAR",
    "SIDE_OWN",
    "SIDE_RIGHT",
    "SIDE_TARGET",
    "SIDE_TOUCH",
    "Axial",
    "LineGeometry",
    "Side",
    "axial_to_offset",
    "det",
    "dot2",
    "dot_incidence",
    "line_geometry",
    "near_side_of",
    "norm",
    "offset_to_axial",
    "side_between",
    "side_contact",
    "side_corners3",
    "side_dots",
    "sides_of",
    "steps",
]

#: A dot in the axial frame.
Axial = tuple[int, int]
#: A cell side, canonically ``(q, r, k)``: the side between dot ``(q, r)`` and its neighbour in
#: direction ``k`` (0 east, 1 south-east, 2 south-west); the other three directions are the
#: same sides seen from the other dot.
Side = tuple[int, int, int]

#: The six neighbour directions, clockwise on the page from east.
DIRECTIONS: Final[tuple[Axial, ...]] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
#: Their names, in the same order.
DIRECTION_NAMES: Final = (
    "east", "south-east", "south-west", "west", "north-west", "north-east",
)

#: Dot flags of a line: strictly closer than half a spacing; exactly half a spacing; within
#: one step of the target dot.
DOT_ON: Final = 1
DOT_TANGENT: Final = 2
DOT_NEAR: Final = 4

#: Side flags of a line. ``SIDE_RIGHT``/``SIDE_LEFT``: crossed by the segment moved a hair to
#: the firer's right / left; ``SIDE_TOUCH``: the closed segment meets the closed side at all.
#: ``SIDE_OWN``: a side of the firer's cell; ``SIDE_TARGET``: of the target's cell;
#: ``SIDE_NEAR``: one of its two dots is the target's or next to it.
SIDE_RIGHT: Final = 1
SIDE_LEFT: Final = 2
SIDE_TOUCH: Final = 4
SIDE_OWN: Final = 8
SIDE_TARGET: Final = 16
SIDE_NEAR: Final = 32


def offset_to_axial(col: int, row: int) -> Axial:
    """The axial dot of map coordinates ``(col, row)`` (odd rows shifted right)."""
    return (col - row // 2, row)


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """The map coordinates ``(col, row)`` of an axial dot."""
    return (q + r // 2, r)


def steps(a: Axial, b: Axial) -> int:
    """Lattice steps between two dots (adjacent: 1), whatever lies between."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def norm(v: Axial) -> int:
    """The squared length of an axial vector (spacing 1)."""
    return v[0] * v[0] + v[0] * v[1] + v[1] * v[1]


def dot2(u: Axial, v: Axial) -> int:
    """Twice the dot product of two axial vectors."""
    return 2 * u[0] * v[0] + u[0] * v[1] + u[1] * v[0] + 2 * u[1] * v[1]


def det(u: Axial, v: Axial) -> int:
    """The determinant of two axial vectors; positive when ``v`` lies clockwise of ``u`` on the
    page (to the right of someone looking along ``u``)."""
    return u[0] * v[1] - u[1] * v[0]


def side_between(a: Axial, b: Axial) -> Side:
    """The canonical side between two adjacent dots (ValueError if they are not adjacent)."""
    d = (b[0] - a[0], b[1] - a[1])
    if d not in DIRECTIONS:
        raise ValueError(f"dots {a} and {b} are not adjacent")
    k = DIRECTIONS.index(d)
    if k < 3:
        return (a[0], a[1], k)
    return (b[0], b[1], k - 3)


def side_dots(side: Side) -> tuple[Axial, Axial]:
    """The two dots a side lies between."""
    q, r, k = side
    dq, dr = DIRECTIONS[k]
    return (q, r), (q + dq, r + dr)


def sides_of(dot: Axial) -> tuple[Side, ...]:
    """The six sides of a dot's cell, in direction order (east first, clockwise)."""
    q, r = dot
    return tuple(side_between(dot, (q + dq, r + dr)) for dq, dr in DIRECTIONS)


def side_corners3(side: Side) -> tuple[Axial, Axial]:
    """The two corners of a side in the axial frame scaled by 3 (integer points)."""
    q, r, k = side
    d, before, after = DIRECTIONS[k], DIRECTIONS[k - 1], DIRECTIONS[(k + 1) % 6]
    return (
        (3 * q + d[0] + before[0], 3 * r + d[1] + before[1]),
        (3 * q + d[0] + after[0], 3 * r + d[1] + after[1]),
    )


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def dot_incidence(b: Axial, p: Axial) -> int:
    """How dot ``p`` lies on the segment from ``(0, 0)`` to ``b`` (both endpoints excluded):
    :data:`DOT_ON` when strictly closer than half a spacing, :data:`DOT_TANGENT` at exactly
    half a spacing, 0 otherwise.

    The distance from ``p`` to the line is ``sqrt(3) |D| / (2 sqrt(L))`` with ``D = det(b, p)``
    and ``L = norm(b)``, so "closer than 1/2" is ``3 D^2 < L``. A dot whose foot falls outside
    the segment is at least one spacing from both ends, so only ``0 < proj < L`` matters.

    >>> dot_incidence((4, 0), (2, 0)), dot_incidence((1, 1), (1, 0)), dot_incidence((4, 1), (1, 1))
    (1, 2, 0)
    """
    if p == (0, 0) or p == b:
        return 0
    length = norm(b)
    proj = dot2(p, b)
    if not 0 < proj < 2 * length:
        return 0
    area = det(b, p)
    lhs = 3 * area * area
    if lhs < length:
        return DOT_ON
    return DOT_TANGENT if lhs == length else 0


def side_contact(b: Axial, side: Side) -> int:
    """How the segment from ``(0, 0)`` to ``b`` meets a cell side: a mask of
    :data:`SIDE_TOUCH` (the closed segment meets the closed side), :data:`SIDE_RIGHT` and
    :data:`SIDE_LEFT` (the segment moved a hair to the firer's right, resp. left, crosses the
    side from one cell into the other).

    A segment through a corner of the side, or running along it, touches it; moved a hair it
    either crosses it or misses it, and which depends on the direction. A proper crossing
    through the side's interior survives both moves.

    >>> side_contact((4, 0), (1, 0, 0)) == SIDE_TOUCH | SIDE_RIGHT | SIDE_LEFT
    True
    >>> side_contact((1, 1), (1, 0, 2)) == SIDE_TOUCH   # runs along it
    True
    """
    b3 = (3 * b[0], 3 * b[1])
    c1, c2 = side_corners3(side)
    s1, s2 = _sign(det(b3, c1)), _sign(det(b3, c2))
    if s1 == 0 and s2 == 0:
        full = dot2(b3, b3)
        inside = all(0 < dot2(c, b3) < full for c in (c1, c2))
        return SIDE_TOUCH if inside else 0
    if s1 * s2 > 0:
        return 0
    edge = (c2[0] - c1[0], c2[1] - c1[1])
    sa = _sign(det(edge, (-c1[0], -c1[1])))
    sb = _sign(det(edge, (b3[0] - c1[0], b3[1] - c1[1])))
    if sa * sb >= 0:
        return 0
    flags = SIDE_TOUCH
    # Moved to the right (toward positive determinants), a corner on the line falls to the
    # left of the moved line, and the other way round.
    right = [s if s else -1 for s in (s1, s2)]
    left = [s if s else 1 for s in (s1, s2)]
    if right[0] != right[1]:
        flags |= SIDE_RIGHT
    if left[0] != left[1]:
        flags |= SIDE_LEFT
    return flags


def near_side_of(b: Axial, side: Side) -> Axial:
    """Of the two dots of a side the segment from ``(0, 0)`` to ``b`` meets, the one on the
    firer's side of it (the dot the line leaves when it crosses)."""
    c1, c2 = side_corners3(side)
    edge = (c2[0] - c1[0], c2[1] - c1[1])
    own = _sign(det(edge, (-c1[0], -c1[1])))
    first, second = side_dots(side)
    p3 = (3 * first[0] - c1[0], 3 * first[1] - c1[1])
    return first if _sign(det(edge, p3)) == own else second


@dataclass(frozen=True)
class LineGeometry:
    """Everything the segment from dot ``(0, 0)`` to dot ``target`` meets, relative to the
    firer's dot (translate by the firer's dot to use it).

    ``dots``: ``(q, r, flags)`` with :data:`DOT_ON`/:data:`DOT_TANGENT` and :data:`DOT_NEAR`.
    ``sides``: ``(q, r, k, flags)`` with the contact flags of :func:`side_contact` and the
    position flags :data:`SIDE_OWN`, :data:`SIDE_TARGET`, :data:`SIDE_NEAR`. Both lists are
    sorted along the line (then by coordinates), so reasons read from the firer outward.
    """

    target: Axial
    dots: tuple[tuple[int, int, int], ...]
    sides: tuple[tuple[int, int, int, int], ...]


def _candidates(b: Axial) -> list[Axial]:
    """Every dot within one spacing of the line through the segment's extent, and a margin."""
    bq, br = b
    length = norm(b)
    # |D| <= k  <=>  distance to the line <= 1 (3 D^2 <= 4 L).
    k = math.isqrt(4 * length // 3) + 1
    out: list[Axial] = []
    for r in range(min(0, br) - 2, max(0, br) + 3):
        if br != 0:
            ends = ((bq * r - k) // br, (bq * r + k) // br)
            qs = range(min(ends) - 1, max(ends) + 2)
        elif 3 * (bq * r) ** 2 <= 4 * length:
            qs = range(min(0, bq) - 2, max(0, bq) + 3)
        else:
            continue
        for q in qs:
            p = (q, r)
            area = det(b, p)
            proj = dot2(p, b)
            if 3 * area * area <= 4 * length and -4 * length <= proj <= 6 * length:
                out.append(p)
    return out


def _along(b: Axial, p: Axial) -> int:
    return dot2(p, b)


@functools.lru_cache(maxsize=1 << 15)
def line_geometry(bq: int, br: int) -> LineGeometry:
    """The dots and sides met by the segment from ``(0, 0)`` to ``(bq, br)`` (cached; the
    geometry of a sight line depends only on the offset between its two dots).

    >>> g = line_geometry(4, 0)
    >>> [(q, r) for q, r, f in g.dots if f & DOT_ON]
    [(1, 0), (2, 0), (3, 0)]
    >>> len([s for s in g.sides if s[3] & SIDE_RIGHT])
    4
    """
    b = (bq, br)
    if b == (0, 0):
        raise ValueError("a sight line needs two different dots")
    near_b = {b, *((bq + dq, br + dr) for dq, dr in DIRECTIONS)}
    cands = _candidates(b)
    dots: list[tuple[int, int, int, int]] = []
    sides: dict[Side, int] = {}
    for p in cands:
        inc = dot_incidence(b, p)
        if inc:
            dots.append((_along(b, p), p[0], p[1], inc | (DOT_NEAR if p in near_b else 0)))
        for k in range(3):
            side = (p[0], p[1], k)
            if side in sides:
                continue
            flags = side_contact(b, side)
            if not flags:
                continue
            ends = side_dots(side)
            if (0, 0) in ends:
                flags |= SIDE_OWN
            if b in ends:
                flags |= SIDE_TARGET
            if ends[0] in near_b or ends[1] in near_b:
                flags |= SIDE_NEAR
            sides[side] = flags

    def side_order(item: tuple[Side, int]) -> tuple[int, int, int, int]:
        (q, r, k), _ = item
        c1, c2 = side_corners3((q, r, k))
        mid = (c1[0] + c2[0], c1[1] + c2[1])
        return (dot2(mid, b), q, r, k)

    return LineGeometry(
        target=b,
        dots=tuple((q, r, f) for _, q, r, f in sorted(dots)),
        sides=tuple((q, r, k, f) for (q, r, k), f in sorted(sides.items(), key=side_order)),
    )
