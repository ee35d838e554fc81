"""A plain reference for dot lattice sight: one test per feature and per trooper, in Fractions.

Written for clarity, not speed, and independently of the integer tables of
:mod:`~tactica.battlefield.dots.geometry`: points are rational ``(x, t)`` with the page position
``(x, sqrt(3) * t)``, so squared lengths are ``dx**2 + 3 * dt**2``; a cell side's corners are
the centroids of the side's two dots and each of their two common neighbours (found by search);
"a hair to the right" is a real translation by ``EPS`` perpendicular-ish to the segment, and
crossings are found by solving for the intersection parameters.

``EPS`` is far below every gap that can occur between points of a lattice segment shorter than
1000 spacings (corners and dots have coordinates in sixths, so a point off the line is at least
about ``1 / (36 * length)`` from it), so the translation decides each case exactly like an
infinitesimal. The tests and ``bench/sight.py`` check that both ways give identical answers.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from tactica.battlefield.dots.geometry import (
    DIRECTIONS,
    DOT_NEAR,
    DOT_ON,
    DOT_TANGENT,
    SIDE_LEFT,
    SIDE_NEAR,
    SIDE_OWN,
    SIDE_RIGHT,
    SIDE_TARGET,
    SIDE_TOUCH,
    Axial,
    Side,
    side_dots,
)
from tactica.battlefield.dots.sight import DotSight, SightOptions, evaluate, resolve_end
from tactica.engine.errors import MapError

if TYPE_CHECKING:
    from tactica.battlefield.dots.lattice import DotLattice

__all__ = ["EPS", "Point", "ref_dot_flags", "ref_side_flags", "reference_sight"]

#: A rational point ``(x, t)``; the page position is ``(x, sqrt(3) * t)``.
Point = tuple[Fraction, Fraction]
#: The size of the "hair" by which a segment is moved to decide touching cases.
EPS: Final = Fraction(1, 10**9)


def centre(dot: Axial) -> Point:
    """The centre of an axial dot."""
    q, r = dot
    return Fraction(2 * q + r, 2), Fraction(r, 2)


def _sub(a: Point, b: Point) -> Point:
    return a[0] - b[0], a[1] - b[1]


def _cross(a: Point, b: Point) -> Fraction:
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: Point, b: Point) -> Fraction:
    return a[0] * b[0] + 3 * a[1] * b[1]


def _dist2_to_segment(p: Point, a: Point, b: Point) -> Fraction:
    d = _sub(b, a)
    s = _dot(_sub(p, a), d) / _dot(d, d)
    s = min(Fraction(1), max(Fraction(0), s))
    foot = (a[0] + s * d[0], a[1] + s * d[1])
    off = _sub(p, foot)
    return _dot(off, off)


def ref_dot_flags(a: Axial, b: Axial, p: Axial) -> int:
    """:data:`DOT_ON` / :data:`DOT_TANGENT` of dot ``p`` on the segment ``a``-``b`` (endpoints
    excluded), from the squared distance to the segment compared with 1/4."""
    if p in (a, b):
        return 0
    d2 = _dist2_to_segment(centre(p), centre(a), centre(b))
    quarter = Fraction(1, 4)
    return DOT_ON if d2 < quarter else DOT_TANGENT if d2 == quarter else 0


@functools.lru_cache(maxsize=1 << 16)
def _corners(side: Side) -> tuple[Point, Point]:
    p, n = side_dots(side)
    common = []
    for dq, dr in DIRECTIONS:
        m = (p[0] + dq, p[1] + dr)
        if (m[0] - n[0], m[1] - n[1]) in DIRECTIONS:
            common.append(m)
    assert len(common) == 2
    pts = [centre(p), centre(n)]
    out = []
    for m in common:
        c = centre(m)
        out.append(((pts[0][0] + pts[1][0] + c[0]) / 3, (pts[0][1] + pts[1][1] + c[1]) / 3))
    return out[0], out[1]


def _meets(a: Point, b: Point, c1: Point, c2: Point, *, closed: bool) -> bool:
    d, e, w = _sub(b, a), _sub(c2, c1), _sub(c1, a)
    denom = _cross(d, e)
    if denom == 0:
        if not closed or _cross(w, d) != 0:
            return False
        full = _dot(d, d)
        ends = (_dot(_sub(c1, a), d), _dot(_sub(c2, a), d))
        return max(ends) >= 0 and min(ends) <= full
    s, u = _cross(w, e) / denom, _cross(w, d) / denom
    if closed:
        return 0 <= s <= 1 and 0 <= u <= 1
    return 0 < s < 1 and 0 < u < 1


def ref_side_flags(a: Axial, b: Axial, side: Side) -> int:
    """:data:`SIDE_TOUCH`, :data:`SIDE_RIGHT`, :data:`SIDE_LEFT` of a cell side against the
    segment ``a``-``b``: touching in Fractions, crossing after a real translation by ``EPS``
    toward the firer's right (positive determinants) or left."""
    pa, pb = centre(a), centre(b)
    c1, c2 = _corners(side)
    flags = SIDE_TOUCH if _meets(pa, pb, c1, c2, closed=True) else 0
    if not flags:
        return 0
    d = _sub(pb, pa)
    scale = EPS / max(abs(d[0]), abs(d[1]))
    w = (-d[1] * scale, d[0] * scale)  # _cross(d, w) > 0: toward the right
    for sign, bit in ((1, SIDE_RIGHT), (-1, SIDE_LEFT)):
        ma = (pa[0] + sign * w[0], pa[1] + sign * w[1])
        mb = (pb[0] + sign * w[0], pb[1] + sign * w[1])
        if _meets(ma, mb, c1, c2, closed=False):
            flags |= bit
    return flags


def _near(dot: Axial, target: Axial) -> bool:
    return dot == target or (dot[0] - target[0], dot[1] - target[1]) in DIRECTIONS


def _boxed(a: Axial, b: Axial) -> Any:
    """A quick integer test: can a dot near the segment a-b be this far out? Everything within
    one spacing of the segment lies within 1 of its axial bounding box."""
    qlo, qhi = min(a[0], b[0]) - 1, max(a[0], b[0]) + 1
    rlo, rhi = min(a[1], b[1]) - 1, max(a[1], b[1]) + 1

    def inside(d: Axial) -> bool:
        return qlo <= d[0] <= qhi and rlo <= d[1] <= rhi

    return inside


def reference_sight(lat: DotLattice, source: str, target: str, **options: Any) -> DotSight:
    """Sight by the plain method: every trooper and every feature of the map tested on its own
    against the segment (after a bounding box test), then the same rules as
    :meth:`DotLattice.sight`."""
    opts = SightOptions.parse(options, lat)
    src, dst = resolve_end(lat, source, opts), resolve_end(lat, target, opts)
    if src.dot == dst.dot:
        if src.level == dst.level:
            raise MapError("sight from a dot to itself is not defined")
        return evaluate(lat, src, dst, opts, (), ())
    inside = _boxed(src.dot, dst.dot)
    dots: list[tuple[Axial, int]] = []
    for dot in sorted({t.dot for t in lat.troopers.values()}):
        if not inside(dot):
            continue
        flags = ref_dot_flags(src.dot, dst.dot, dot)
        if flags:
            dots.append((dot, flags | (DOT_NEAR if _near(dot, dst.dot) else 0)))
    sides: list[tuple[Side, int]] = []
    for side in sorted({s for _, s in lat.features}):
        if not all(inside(d) for d in side_dots(side)):
            continue
        flags = ref_side_flags(src.dot, dst.dot, side)
        if not flags:
            continue
        ends = side_dots(side)
        if src.dot in ends:
            flags |= SIDE_OWN
        if dst.dot in ends:
            flags |= SIDE_TARGET
        if any(_near(e, dst.dot) for e in ends):
            flags |= SIDE_NEAR
        sides.append((side, flags))
    return evaluate(lat, src, dst, opts, dots, sides)
