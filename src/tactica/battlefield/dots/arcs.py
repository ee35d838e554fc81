"""Firing arcs on a dot lattice, decided exactly at the edges.

An arc has its vertex on a dot, an axis and a width. A dot is inside when the bearing from the
vertex to its centre lies within half the width of the axis, *edges included*; the vertex itself
is not in its own arc, and the arc has no length limit (range and sight limit it).

Bearings are degrees clockwise from east as seen on the page (0 east, 60 south-east, 90 south,
270 north), the same order as the six directions. The axis is either a ``bearing`` (any real
number of degrees, given exactly as an int, a Fraction, a decimal string or a float's exact
value) or ``toward`` a dot.

Exactness. The bearing of a lattice direction is a multiple of 30 degrees or irrational in
degrees (a rational number of degrees whose tangent lies in ``sqrt(3) * Q`` is a multiple of 30,
by Niven's theorem). So an edge that is a multiple of 30 degrees is a lattice direction and is
compared with integer determinants; any other edge passes through no dot, and which side a dot
lies on is settled by interval arithmetic in Fractions, refined until the interval excludes 0
(it always ends). With ``toward``, the width must be a multiple of 30 degrees: the cosine of half
the width then lies in ``Q(sqrt(3))`` and the test ``cos(angle) >= cos(half width)`` is decided
with integers.

>>> in_arc((0, 0), (1, 1), bearing=0, width=60)     # exactly on the 30-degree edge
True
>>> in_arc((0, 0), (2, 1), bearing=0, width=30)     # 19.1 degrees off the axis
False
>>> in_arc((0, 0), (2, 1), toward=(1, 0), width=60)
True
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Final

from tactica.battlefield.dots.geometry import Axial, det, dot2, norm
from tactica.engine.errors import MapError

__all__ = ["Degrees", "as_degrees", "bearing_value", "in_arc", "lattice_bearing"]

#: A bearing or width in degrees, exactly.
Degrees = Fraction | int | float | str

# The lattice direction of every multiple of 30 degrees (clockwise from east on the page).
_AXES: Final[dict[int, Axial]] = {
    0: (1, 0), 30: (1, 1), 60: (0, 1), 90: (-1, 2), 120: (-1, 1), 150: (-2, 1),
    180: (-1, 0), 210: (-1, -1), 240: (0, -1), 270: (1, -2), 300: (1, -1), 330: (2, -1),
}


def as_degrees(value: object, *, name: str = "bearing") -> Fraction:
    """A number of degrees as an exact Fraction (floats by their exact binary value)."""
    if isinstance(value, bool):
        raise MapError(f"{name}: expected a number of degrees, got {value!r}")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise MapError(f"{name}: expected a number of degrees, got {value!r}")


def bearing_value(degrees: Fraction | float) -> int | float:
    """A bearing as records keep it: degrees clockwise from east turned into [0, 360), an int
    when whole, else a float (``37.5`` stays 37.5, ``-90`` is 270).

    >>> bearing_value(Fraction(75, 2)), bearing_value(-90), bearing_value(720.0)
    (37.5, 270, 0)
    """
    turn = Fraction(degrees) % 360
    return int(turn) if turn.denominator == 1 else float(turn)


def lattice_bearing(v: Axial) -> int | None:
    """The bearing of an axial vector when it is a multiple of 30 degrees, else None."""
    for deg, axis in _AXES.items():
        if det(axis, v) == 0 and dot2(axis, v) > 0:
            return deg
    return None


def _sign(x: int | Fraction) -> int:
    return (x > 0) - (x < 0)


@functools.lru_cache(maxsize=64)
def _pi(bits: int) -> tuple[Fraction, Fraction]:
    """Rational bounds on pi within ``2**-bits`` (Machin's formula, alternating series)."""
    tol = Fraction(1, 1 << (bits + 8))

    def atan_inv(n: int) -> tuple[Fraction, Fraction]:
        total, k, term = Fraction(0), 0, Fraction(1, n)
        while True:
            total += term / (2 * k + 1) * (-1) ** k
            k += 1
            term /= n * n
            if term / (2 * k + 1) < tol:
                nxt = term / (2 * k + 1) * (-1) ** k
                return (min(total, total + nxt), max(total, total + nxt))

    a_lo, a_hi = atan_inv(5)
    b_lo, b_hi = atan_inv(239)
    return 16 * a_lo - 4 * b_hi, 16 * a_hi - 4 * b_lo


def _sin_cos(deg: Fraction, bits: int) -> tuple[Fraction, Fraction, Fraction]:
    """``(sin, cos, error)``: both within ``error`` of the true values for ``deg`` degrees."""
    pi_lo, pi_hi = _pi(bits)
    x = deg * pi_lo / 180
    spread = abs(deg) * (pi_hi - pi_lo) / 180  # sin and cos are 1-Lipschitz
    s, c, term, k = Fraction(0), Fraction(0), Fraction(1), 0
    tol = Fraction(1, 1 << (bits + 8))
    # term = x**k / k!
    while True:
        if k % 4 == 0:
            c += term
        elif k % 4 == 1:
            s += term
        elif k % 4 == 2:
            c -= term
        else:
            s -= term
        k += 1
        term = term * x / k
        if k > 2 * abs(x) + 2 and abs(term) < tol:
            break
    return s, c, abs(term) * 2 + spread


def _sqrt3(bits: int) -> tuple[Fraction, Fraction]:
    scale = 1 << bits
    root = math.isqrt(3 * scale * scale)
    return Fraction(root, scale), Fraction(root + 1, scale)


def _side_of_edge(edge: Fraction, v: Axial) -> int:
    """The sign of ``sin(bearing(v) - edge)``: +1 when ``v`` lies clockwise of the edge
    (within half a turn), -1 anticlockwise, 0 on the edge's line."""
    turn = edge % 360
    if turn.denominator == 1 and int(turn) % 30 == 0:
        return _sign(det(_AXES[int(turn)], v))
    q, r = v
    # sin(phi - e) is proportional to cos(e) * sqrt(3) * r - sin(e) * (2q + r).
    rad = math.radians(float(turn))
    approx = math.cos(rad) * math.sqrt(3) * r - math.sin(rad) * (2 * q + r)
    if abs(approx) > 1e-9 * (abs(r) * 2 + abs(2 * q + r) + 1):
        return 1 if approx > 0 else -1
    bits = 64
    while True:
        s, c, err = _sin_cos(turn if turn <= 180 else turn - 360, bits)
        lo3, hi3 = _sqrt3(bits)
        terms = [c * lo3 * r, c * hi3 * r]
        a = min(terms) - (err * hi3 * abs(r)) - s * (2 * q + r) - err * abs(2 * q + r)
        b = max(terms) + (err * hi3 * abs(r)) - s * (2 * q + r) + err * abs(2 * q + r)
        if a > 0:
            return 1
        if b < 0:
            return -1
        bits *= 2


def _sign_q3(a: Fraction, b: Fraction) -> int:
    """The sign of ``a + b * sqrt(3)``, exactly."""
    if a >= 0 and b >= 0:
        return 0 if a == 0 and b == 0 else 1
    if a <= 0 and b <= 0:
        return -1
    if a > 0:
        return _sign(a * a - 3 * b * b)
    return _sign(3 * b * b - a * a)


# cos(w) for w a multiple of 30 degrees, as (a, b) meaning a + b * sqrt(3).
_COS30: Final = {
    0: (Fraction(1), Fraction(0)), 30: (Fraction(0), Fraction(1, 2)),
    60: (Fraction(1, 2), Fraction(0)), 90: (Fraction(0), Fraction(0)),
    120: (Fraction(-1, 2), Fraction(0)), 150: (Fraction(0), Fraction(-1, 2)),
    180: (Fraction(-1), Fraction(0)),
}


def _within_toward(axis: Axial, v: Axial, width: Fraction) -> bool:
    """Whether the angle between ``axis`` and ``v`` is at most ``width / 2``."""
    if width >= 360:
        return True
    if width.denominator != 1 or int(width) % 30:
        raise MapError(f"width: an arc toward a dot needs a multiple of 30 degrees, got "
                       f"{width}; give a bearing instead")
    w = int(width)
    a, b = _COS30[w if w <= 180 else 360 - w]
    # cos(h)^2 = (1 + cos w) / 2, with h = w / 2; cos h >= 0 when w <= 180.
    c2a, c2b = (1 + a) / 2, b / 2
    p = Fraction(dot2(axis, v), 2)
    n = norm(axis) * norm(v)
    # p**2 - c2 * n, in Q(sqrt 3).
    diff = _sign_q3(p * p - c2a * n, -c2b * n)
    if w <= 180:
        return p >= 0 and diff >= 0
    return p >= 0 or diff <= 0


def in_arc(
    vertex: Axial, dot: Axial, *, width: Degrees, bearing: Degrees | None = None,
    toward: Axial | None = None,
) -> bool:
    """Whether ``dot`` lies in the arc with its vertex on ``vertex`` (axial dots), ``width``
    degrees wide around ``bearing`` or around the direction ``toward`` a dot."""
    w = as_degrees(width, name="width")
    if not 0 < w <= 360:
        raise MapError(f"width: expected more than 0 and at most 360 degrees, got {w}")
    if (bearing is None) == (toward is None):
        raise MapError("an arc needs either a bearing or a dot to point toward")
    v = (dot[0] - vertex[0], dot[1] - vertex[1])
    if v == (0, 0):
        return False
    if toward is not None:
        axis = (toward[0] - vertex[0], toward[1] - vertex[1])
        if axis == (0, 0):
            raise MapError("an arc cannot point toward its own vertex")
        return _within_toward(axis, v, w)
    theta = as_degrees(bearing, name="bearing")
    if w == 360:
        return True
    first, last = theta - w / 2, theta + w / 2
    if w <= 180:
        return _side_of_edge(first, v) >= 0 and _side_of_edge(last, v) <= 0
    return not (_side_of_edge(last, v) > 0 and _side_of_edge(first, v) < 0)
