"""Properties of dot lattice geometry and sight on random maps.

The integer tables of :mod:`tactica.battlefield.dots.geometry` agree with the Fraction reference
of :mod:`tactica.battlefield.dots.reference` (a real translation instead of signs), sight is
symmetric between two standing troopers on one level, removing a feature never adds cover, and
the single query, the batch and the reference give identical answers.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.battlefield.dots.arcs import in_arc
from tactica.battlefield.dots.features import FEATURE_KINDS
from tactica.battlefield.dots.geometry import (
    DIRECTIONS,
    dot_incidence,
    line_geometry,
    offset_to_axial,
    side_between,
    side_contact,
)
from tactica.battlefield.dots.lattice import DotLattice, Stairs, Trooper
from tactica.battlefield.dots.reference import ref_dot_flags, ref_side_flags, reference_sight

IDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
OPTION_SETS: list[dict[str, Any]] = [
    {}, {"tangent": "counts"}, {"intervening": "block"}, {"prone_low": "firer"},
    {"floors": "ignore", "range_levels": "ignore"}, {"range_steps": "walk"},
]


def test_tables_match_the_reference_for_every_short_offset() -> None:
    for bq in range(-5, 6):
        for br in range(-5, 6):
            if (bq, br) == (0, 0):
                continue
            g = line_geometry(bq, br)
            dots = {(q, r): f & 3 for q, r, f in g.dots}
            sides = {(q, r, k): f & 7 for q, r, k, f in g.sides}
            for q in range(min(0, bq, bq + br) - 3, max(0, bq, bq + br) + 4):
                for r in range(min(0, br) - 2, max(0, br) + 3):
                    assert ref_dot_flags((0, 0), (bq, br), (q, r)) == dots.get((q, r), 0)
                    for k in range(3):
                        expected = ref_side_flags((0, 0), (bq, br), (q, r, k))
                        assert expected == sides.get((q, r, k), 0), ((bq, br), (q, r, k))


@settings(max_examples=200, deadline=None)
@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-3, 3), st.integers(-3, 3),
       st.floats(0, 1), st.integers(0, 2))
def test_single_predicates_match_the_reference(
    bq: int, br: int, dq: int, dr: int, t: float, k: int
) -> None:
    if (bq, br) == (0, 0):
        return
    # A dot near a random point of the segment.
    p = (round(bq * t) + dq, round(br * t) + dr)
    assert dot_incidence((bq, br), p) == ref_dot_flags((0, 0), (bq, br), p)
    assert side_contact((bq, br), (*p, k)) == ref_side_flags((0, 0), (bq, br), (*p, k))


@st.composite
def lattices(draw: st.DrawFn, *, levels: bool = True) -> DotLattice:
    cols, rows = draw(st.integers(3, 8)), draw(st.integers(2, 7))
    dots = [offset_to_axial(c, r) for r in range(rows) for c in range(cols)]
    on_map = set(dots)
    upper = frozenset(draw(st.sets(st.sampled_from(dots), max_size=len(dots) // 2))) \
        if levels else frozenset()
    features: dict[tuple[int, tuple[int, int, int]], str] = {}
    for _ in range(draw(st.integers(0, 25))):
        d = draw(st.sampled_from(dots))
        dq, dr = DIRECTIONS[draw(st.integers(0, 5))]
        n = (d[0] + dq, d[1] + dr)
        if n not in on_map:
            continue
        lvl = 1 if upper and (d in upper or n in upper) and draw(st.booleans()) else 0
        features[(lvl, side_between(d, n))] = draw(st.sampled_from(sorted(FEATURE_KINDS)))
    troopers: dict[str, Trooper] = {}
    used: set[tuple[tuple[int, int], int]] = set()
    for tid in IDS[: draw(st.integers(2, 7))]:
        lvl = 1 if upper and draw(st.booleans()) else 0
        d = draw(st.sampled_from(sorted(upper) if lvl else dots))
        if (d, lvl) in used:
            continue
        used.add((d, lvl))
        troopers[tid] = Trooper(d, lvl, draw(st.booleans()))
    stairs = {d: Stairs("stairs", 0, 1) for d in sorted(upper)[:1]}
    names = ("ground", "first") if upper else ("ground",)
    return DotLattice(cols, rows, names, {1: upper} if upper else {}, features, stairs,
                      troopers)


def _pairs(lat: DotLattice) -> list[tuple[str, str]]:
    ids = list(lat.troopers)
    return [(a, b) for a in ids for b in ids if a != b]


@settings(max_examples=120, deadline=None)
@given(lattices(), st.sampled_from(OPTION_SETS))
def test_single_batch_and_reference_agree(lat: DotLattice, options: dict[str, Any]) -> None:
    pairs = _pairs(lat)
    if not pairs:
        return
    batch = lat.sight_many(pairs, **options)
    every = lat.sight_all(**options)
    for i, (a, b) in enumerate(pairs):
        one = lat.sight(a, b, **options)
        ref = reference_sight(lat, a, b, **options)
        got = (bool(batch.visible[i]), int(batch.cover[i]),
               None if batch.range[i] < 0 else int(batch.range[i]))
        assert got == (one.visible, one.cover, one.range) == (ref.visible, ref.cover, ref.range)
        assert bool(every.visible[i]) == one.visible and int(every.cover[i]) == one.cover


@settings(max_examples=150, deadline=None)
@given(lattices(levels=False), st.sampled_from(["clear", "counts"]),
       st.sampled_from(["cover", "block"]))
def test_sight_is_symmetric_between_standing_troopers_on_one_level(
    lat: DotLattice, tangent: str, intervening: str
) -> None:
    standing = lat
    for tid in lat.troopers:
        standing = standing.with_pose(tid, prone=False)
    for a, b in _pairs(standing):
        there = standing.sight(a, b, tangent=tangent, intervening=intervening)
        back = standing.sight(b, a, tangent=tangent, intervening=intervening)
        assert there.visible == back.visible, (a, b)


@settings(max_examples=150, deadline=None)
@given(lattices(), st.sampled_from(OPTION_SETS[:4]), st.data())
def test_removing_a_feature_never_adds_cover(
    lat: DotLattice, options: dict[str, Any], data: st.DataObject
) -> None:
    if not lat.features:
        return
    lvl, side = data.draw(st.sampled_from(sorted(lat.features)))
    fewer = DotLattice(lat.cols, lat.rows, lat.level_names, lat.floors,
                       {k: v for k, v in lat.features.items() if k != (lvl, side)},
                       lat.stairs, lat.troopers)
    pairs = _pairs(lat)
    if not pairs:
        return
    before, after = lat.sight_many(pairs, **options), fewer.sight_many(pairs, **options)
    for i in range(len(pairs)):
        if before.visible[i]:
            assert after.visible[i], pairs[i]
            assert after.cover[i] <= before.cover[i], pairs[i]


@settings(max_examples=300, deadline=None)
@given(st.integers(-12, 12), st.integers(-12, 12), st.floats(-720, 720),
       st.sampled_from([30, 60, 150, 200]))
def test_arcs_agree_with_floats_away_from_the_edges(
    q: int, r: int, bearing: float, width: int
) -> None:
    if (q, r) == (0, 0):
        return
    angle = math.degrees(math.atan2(r * math.sqrt(3) / 2, q + r / 2))
    off = (angle - bearing + 180) % 360 - 180
    if abs(abs(off) - width / 2) < 1e-6:
        return
    assert in_arc((0, 0), (q, r), bearing=bearing, width=width) == (abs(off) <= width / 2)
    assert in_arc((0, 0), (q, r), bearing=bearing + 360, width=width) == (abs(off) <= width / 2)


@settings(max_examples=200, deadline=None)
@given(st.integers(-12, 12), st.integers(-12, 12), st.integers(-12, 12), st.integers(-12, 12),
       st.sampled_from([30, 60, 90, 150, 180, 240]))
def test_arcs_toward_a_dot_agree_with_floats(
    q: int, r: int, tq: int, tr: int, width: int
) -> None:
    if (q, r) == (0, 0) or (tq, tr) == (0, 0):
        return

    def angle(a: int, b: int) -> float:
        return math.degrees(math.atan2(b * math.sqrt(3) / 2, a + b / 2))

    off = abs((angle(q, r) - angle(tq, tr) + 180) % 360 - 180)
    if abs(off - width / 2) < 1e-6:
        return
    assert in_arc((0, 0), (q, r), toward=(tq, tr), width=width) == (off <= width / 2)


@settings(max_examples=100, deadline=None)
@given(lattices(), st.data())
def test_paths_cost_what_reachable_says(lat: DotLattice, data: st.DataObject) -> None:
    tid = data.draw(st.sampled_from(sorted(lat.troopers)))
    reach = lat.reachable(tid)
    for place, cost in reach.items():
        assert 0 <= cost <= 8
        path = lat.path(tid, str(place))
        assert path is not None and path.cost == cost == sum(path.steps)
        assert len(path.places) == len(path.steps) + 1
