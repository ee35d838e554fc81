"""The geometry of explosives on a dot lattice: blast rings, shelter, scatter.

Blast
    The explosion's centre is a dot on a level. A trooper is in ring ``k`` when its lattice
    steps from the centre plus its difference in levels is ``k`` (0: on the centre dot); rings
    beyond ``radius`` are not reached. Impassable obstacles on the straight segment from the
    centre dot to the trooper's dot shelter it, and for a prone trooper also low solid
    obstructions (low walls, furniture, fences, windows). The segment is the sight segment of
    :mod:`~tactica.battlefield.dots.geometry` and the ``tangent`` option reads touching cases the
    same way (``clear``: the blast gets through if it gets through a hair to either side). The
    features of the centre's level and of the trooper's level count. ``floors``: ``pass``
    (floors do not stop blast) or ``block`` (another level is reached only through a dot with
    stairs or a ladder joining both levels, the steps to it and from it both counted).
Scatter
    A 1D6 roll gives the direction: 1 east, then clockwise (2 south-east, 3 south-west, 4 west,
    5 north-west, 6 north-east). The explosive moves ``distance`` dots that way; if the path
    crosses an impassable obstacle it does not scatter at all. A landing dot without a floor at
    the explosive's level drops to the highest level below that has one (the ground at worst);
    a landing dot off the map is reported as such.
Through a window
    A missed throw through a window scatters from the first dot before the window along the
    line (:func:`scatter_origin`): the dot on the thrower's side of the first window the segment
    crosses, not counting a window on the thrower's own cell.

>>> from tactica.battlefield.dots.lattice import DotLattice
>>> lat = DotLattice.from_text("G . A . B", features=[((2, 0), (3, 0), "high-wall")])
>>> [(h.oid, h.ring, h.sheltered) for h in blast(lat, "1,0")]
[('A', 1, False), ('G', 1, False)]
>>> [(h.oid, h.ring, h.sheltered) for h in blast(lat, "3,0", radius=2)]
[('B', 1, False), ('A', 1, True)]
>>> scatter(lat, "1,0", 1).landing, scatter(lat, "2,0", 1).moved
(DotPlace(col=2, row=0, level=0), False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from tactica.battlefield.dots.features import FEATURE_KINDS
from tactica.battlefield.dots.geometry import (
    DIRECTION_NAMES,
    DIRECTIONS,
    SIDE_LEFT,
    SIDE_OWN,
    SIDE_RIGHT,
    SIDE_TOUCH,
    Axial,
    line_geometry,
    near_side_of,
    offset_to_axial,
    side_between,
    side_dots,
    steps,
)
from tactica.engine.errors import MapError

if TYPE_CHECKING:
    from tactica.battlefield.dots.lattice import DotLattice, DotPlace

__all__ = ["FLOOR_RULES", "BlastHit", "Scatter", "blast", "blast_rings", "scatter",
           "scatter_origin"]

#: Blast through floors, default first.
FLOOR_RULES: Final = ("pass", "block")
_TANGENT: Final = ("clear", "counts")

Spot = tuple[Axial, int]


@dataclass(frozen=True)
class BlastHit:
    """A trooper within the blast: its ring (steps plus levels from the centre), whether an
    obstacle shelters it, and why."""

    oid: str
    place: DotPlace
    ring: int
    sheltered: bool
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Scatter:
    """Where a scattering explosive lands: ``origin`` (where it scattered from), the rolled
    ``direction``, the ``landing`` place, whether it ``moved`` and whether it is on the map."""

    origin: DotPlace
    roll: int
    direction: str
    landing: DotPlace
    moved: bool
    on_map: bool
    reason: str


def _spot(lat: DotLattice, ref: str | DotPlace) -> Spot:
    p = lat.locate(ref)
    return offset_to_axial(p.col, p.row), p.level


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise MapError(f"{name}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


def _blocker(lat: DotLattice, a: Axial, b: Axial, levels: set[int], prone: bool,
             tangent: str) -> str | None:
    """What stops blast on the segment a-b (None: nothing), decided both ways round."""
    if a == b:
        return None
    geo = line_geometry(b[0] - a[0], b[1] - a[1])
    passes = (SIDE_RIGHT, SIDE_LEFT) if tangent == "clear" else (SIDE_TOUCH,)
    stopped: dict[int, str] = {}
    for q, r, k, flags in geo.sides:
        side = (a[0] + q, a[1] + r, k)
        for lvl in sorted(levels):
            kind = lat.features.get((lvl, side))
            if kind is None:
                continue
            fk = FEATURE_KINDS[kind]
            if fk.blocks_sight or (prone and fk.solid):
                ends = " and ".join(lat.describe(d) for d in side_dots(side))
                for p in passes:
                    if flags & p and p not in stopped:
                        stopped[p] = f"{fk.label} between {ends}"
    if all(p in stopped for p in passes):
        return stopped[passes[0]]
    return None


def _routes(lat: DotLattice, centre: Spot, spot: Spot, floors: str) -> list[tuple[int, Axial]]:
    """``(ring, via)`` for each way the blast may take to ``spot`` (via: the stairs dot, or the
    centre's dot when it goes straight)."""
    (c, lc), (d, lt) = centre, spot
    levels = abs(lc - lt)
    if floors == "pass" or lc == lt:
        return [(steps(c, d) + levels, c)]
    out = []
    for dot, st in lat.stairs.items():
        if st.low <= min(lc, lt) and st.high >= max(lc, lt):
            out.append((steps(c, dot) + levels + steps(dot, d), dot))
    return sorted(out)


def blast(
    lat: DotLattice, centre: str | DotPlace, *, radius: int = 2, floors: str = "pass",
    tangent: str = "clear", prone: frozenset[str] = frozenset(),
) -> tuple[BlastHit, ...]:
    """Every trooper within ``radius`` rings of an explosion at ``centre``, nearest first (then
    by id), each with its shelter and the reasons. ``prone`` adds troopers lying down."""
    floors = _choice("floors", floors, FLOOR_RULES)
    tangent = _choice("tangent", tangent, _TANGENT)
    origin = _spot(lat, centre)
    hits: list[BlastHit] = []
    for oid, t in lat.troopers.items():
        lying = t.prone or oid in prone
        routes = [rv for rv in _routes(lat, origin, (t.dot, t.level), floors) if rv[0] <= radius]
        if not routes:
            continue
        best: BlastHit | None = None
        for ring, via in routes:
            reasons = [f"ring {ring}: {steps(origin[0], t.dot)} steps + "
                       f"{abs(origin[1] - t.level)} levels from the centre"]
            if via != origin[0]:
                reasons[0] = f"ring {ring}: through the stairs at {lat.describe(via)}"
                why = (_blocker(lat, origin[0], via, {origin[1]}, lying, tangent)
                       or _blocker(lat, via, t.dot, {t.level}, lying, tangent))
            else:
                why = _blocker(lat, origin[0], t.dot, {origin[1], t.level}, lying, tangent)
            if why:
                reasons.append(f"sheltered by the {why}" + (" (prone)" if lying else ""))
            hit = BlastHit(oid, lat.place(t.dot, t.level), ring, why is not None, tuple(reasons))
            if best is None or (best.sheltered and not hit.sheltered):
                best = hit
        assert best is not None
        hits.append(best)
    return tuple(sorted(hits, key=lambda h: (h.ring, h.sheltered, h.oid)))


def blast_rings(
    lat: DotLattice, centre: str | DotPlace, *, radius: int = 2, floors: str = "pass",
) -> dict[DotPlace, int]:
    """Every dot (on every level) within ``radius`` rings of the centre, with its ring;
    shelter is not considered."""
    floors = _choice("floors", floors, FLOOR_RULES)
    origin = _spot(lat, centre)
    out: dict[DotPlace, int] = {}
    for lvl in range(len(lat.level_names)):
        for row in range(lat.rows):
            for col in range(lat.cols):
                dot = offset_to_axial(col, row)
                if not lat.has_dot(dot, lvl):
                    continue
                routes = _routes(lat, origin, (dot, lvl), floors)
                if routes and routes[0][0] <= radius:
                    out[lat.place(dot, lvl)] = routes[0][0]
    return out


def scatter(
    lat: DotLattice, origin: str | DotPlace, roll: int, *, distance: int = 1,
) -> Scatter:
    """Where an explosive scattering from ``origin`` lands for a 1D6 ``roll``."""
    if not isinstance(roll, int) or not 1 <= roll <= 6:
        raise MapError(f"scatter roll: expected 1 to 6, got {roll!r}")
    if distance < 0:
        raise MapError(f"scatter distance: expected 0 or more dots, got {distance}")
    start, level = _spot(lat, origin)
    dq, dr = DIRECTIONS[roll - 1]
    name = DIRECTION_NAMES[roll - 1]
    here = start
    for _ in range(distance):
        nxt = (here[0] + dq, here[1] + dr)
        kind = lat.features.get((level, side_between(here, nxt)))
        if kind is not None and FEATURE_KINDS[kind].blocks_sight:
            place = lat.place(start, level)
            return Scatter(place, roll, name, place, False, True,
                           f"{FEATURE_KINDS[kind].label} between {lat.describe(here)} and "
                           f"{lat.describe(nxt)}: the explosive does not scatter")
        here = nxt
    land = level
    while land > 0 and not lat.has_dot(here, land):
        land -= 1
    on_map = lat.on_map(here)
    reason = f"scatters {distance} dot{'s' if distance != 1 else ''} {name}"
    if land != level:
        reason += f", no floor on level {lat.level_name(level)} there: it drops to " \
                  f"{lat.level_name(land)}"
    if not on_map:
        reason += ", off the map"
    return Scatter(lat.place(start, level), roll, name, lat.place(here, land),
                   here != start, on_map, reason)


def scatter_origin(
    lat: DotLattice, thrower: str | DotPlace, target: str | DotPlace, *, tangent: str = "clear",
) -> DotPlace:
    """Where a missed throw from ``thrower`` at ``target`` scatters from: the target dot, or,
    when the segment passes through a window (on the thrower's or the target's level, not on
    the thrower's own cell), the dot just before the first such window."""
    tangent = _choice("tangent", tangent, _TANGENT)
    (a, la), (b, lb) = _spot(lat, thrower), _spot(lat, target)
    if a != b:
        geo = line_geometry(b[0] - a[0], b[1] - a[1])
        need = SIDE_RIGHT | SIDE_LEFT if tangent == "clear" else SIDE_TOUCH
        for q, r, k, flags in geo.sides:
            if flags & need != need or flags & SIDE_OWN:
                continue
            side = (a[0] + q, a[1] + r, k)
            for lvl in sorted({la, lb}):
                if lat.features.get((lvl, side)) == "window":
                    rel = near_side_of((b[0] - a[0], b[1] - a[1]), (q, r, k))
                    before = (a[0] + rel[0], a[1] + rel[1])
                    return lat.place(before, lvl)
    return lat.place(b, lb)
