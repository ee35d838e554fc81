"""Every sight and cover statement of rules/nebulia-operations.md on the tile grid.

Maps are drawn in the code: ``A`` looks at ``B``; ``#`` blocks.
"""

from __future__ import annotations

import pytest

from tactica.battlefield.base import Battlefield
from tactica.battlefield.grid.tiles import (
    COVER_RANGE,
    METRICS,
    POLICIES,
    TileGrid,
    distance,
    is_within,
)
from tactica.engine.errors import MapError

# 2 of 4 lines clear (the bottom ones cross (1,1)), distance 3 Chebyshev, 4 Manhattan,
# sqrt(10) euclidean.
NEAR_HALF = TileGrid.from_text("""
    A...
    .#.B
""")
# The same two lines blocked at distance 6.
FAR_HALF = TileGrid.from_text("""
    A......
    ...#..B
""")


def test_grid_is_a_battlefield() -> None:
    assert isinstance(NEAR_HALF, Battlefield)
    assert NEAR_HALF.kind == "grid"


@pytest.mark.parametrize("policy", POLICIES)
def test_four_clear_lines_visible_not_in_cover(policy: str) -> None:
    g = TileGrid.from_text("A.......B")
    s = g.sight("A", "B", policy=policy)
    assert (s.clear_lines, s.is_visible, s.is_in_cover) == (4, True, False)


@pytest.mark.parametrize("policy", POLICIES)
def test_two_clear_lines_visible_in_cover(policy: str) -> None:
    s = FAR_HALF.sight("A", "B", policy=policy)
    assert [line.is_clear for line in s.lines] == [True, True, False, False]
    assert (s.is_visible, s.is_in_cover) == (True, True)


def test_three_clear_lines_visible_in_cover() -> None:
    g = TileGrid.from_text("""
        A#...
        .....
        .....
        .....
        ....B
    """)
    s = g.sight("A", "B")
    assert (s.clear_lines, s.distance, s.is_visible, s.is_in_cover) == (3, 4, True, True)


@pytest.mark.parametrize("clear", [0, 1])
def test_zero_or_one_clear_line_not_visible(clear: int) -> None:
    """NEB-2: fewer than two clear lines is not visible (and so no cover question)."""
    g = TileGrid.from_text("""
        A.......
        ...#....
        .......B
    """)
    # (3,1) stops every line but the top-right one, which passes above it through (3,0).
    s = g.sight("A", "B")
    assert s.clear_lines == 1
    assert not s.is_visible and not s.is_in_cover
    if clear == 0:
        s = g.with_blocker((4, 0)).sight("A", "B")
        assert s.clear_lines == 0
        assert not s.is_visible and not s.is_in_cover


@pytest.mark.parametrize("policy", POLICIES)
def test_within_three_tiles_nobody_benefits_from_cover(policy: str) -> None:
    """Distance 3 or less (Chebyshev): no cover even when only two lines are clear."""
    s = NEAR_HALF.sight("A", "B", policy=policy)
    assert (s.clear_lines, s.distance) == (2, 3)
    assert s.is_visible and not s.is_in_cover
    assert s.within_cover_range


def test_within_three_tiles_with_three_clear_lines() -> None:
    g = TileGrid.from_text("""
        A#..
        ....
        ....
        ...B
    """)
    s = g.sight("A", "B")
    assert (s.clear_lines, s.distance, s.is_visible, s.is_in_cover) == (3, 3, True, False)


@pytest.mark.parametrize(
    ("metric", "dist", "cover"),
    [("chebyshev", 3, False), ("manhattan", 4, True), ("euclidean", 10**0.5, True)],
)
def test_cover_range_metric_ruling(metric: str, dist: float, cover: bool) -> None:
    """NEB-3: how "3 tiles or less" is measured changes who gets cover at offset (3, 1)."""
    s = NEAR_HALF.sight("A", "B", metric=metric)
    assert s.distance == pytest.approx(dist)
    assert s.is_in_cover is cover


def test_euclidean_range_is_decided_exactly() -> None:
    # (2, 2): sqrt(8) <= 3; (3, 1): sqrt(10) > 3; (3, 0): exactly 3, within.
    assert is_within((0, 0), (2, 2), COVER_RANGE, "euclidean")
    assert not is_within((0, 0), (3, 1), COVER_RANGE, "euclidean")
    assert is_within((0, 0), (3, 0), COVER_RANGE, "euclidean")
    assert distance((0, 0), (3, 0), "euclidean") == 3
    assert isinstance(distance((0, 0), (3, 0), "euclidean"), int)


def test_metrics() -> None:
    assert [distance((1, 1), (4, 3), m) for m in METRICS[:2]] == [3, 5]
    assert distance((1, 1), (4, 5), "euclidean") == 5


def test_friend_or_foe_blocks_by_default_and_foes_only_as_an_option() -> None:
    """NEB-5: other operators block, friend or foe; the alternative: only foes block."""
    g = TileGrid.from_text("A..C..B", sides={"A": "red", "C": "red", "B": "blue"})
    assert g.sight("A", "B").clear_lines == 0
    assert g.sight("A", "B", blockers="foes").clear_lines == 4
    foe = g.with_sides({"A": "red", "C": "blue", "B": "blue"})
    assert foe.sight("A", "B", blockers="foes").clear_lines == 0
    # Seen from B, C is a friend: only foes of the attacker block.
    assert foe.sight("B", "A", blockers="foes").clear_lines == 4


def test_foes_rule_needs_the_attackers_side() -> None:
    g = TileGrid.from_text("A..C..B")
    with pytest.raises(MapError, match="needs the attacker's side"):
        g.sight("A", "B", blockers="foes")


def test_terrain_blocks_under_foes_too() -> None:
    g = TileGrid.from_text("A..#..B", sides={"A": "red", "B": "blue"})
    assert g.sight("A", "B", blockers="foes").clear_lines == 0


def test_sight_report_evidence_and_explanation() -> None:
    r = FAR_HALF.sight_report("A", "B")
    d = r.to_dict()
    assert (d["from"], d["to"], d["visible"], d["cover"]) == ("A", "B", True, True)
    assert d["distance"] == 6
    assert d["clear_lines"] == 2
    assert d["policy"] == "inset" and d["metric"] == "chebyshev"
    assert [ln["corner"] for ln in d["lines"]] == [
        "top-left", "top-right", "bottom-right", "bottom-left"
    ]
    assert d["lines"][2] == {
        "corner": "bottom-right",
        "from": [1, 1],
        "to": [7, 2],
        "clear": False,
        "blocked_by": [[3, 1]],
        "squeezed_between": [],
    }
    text = r.explain()
    assert text.startswith("A -> B: visible, in cover")
    assert "bottom-right 1,1 -> 7,2: blocked by terrain at 3,1" in text
    assert "2 lines clear at distance 6 (chebyshev)" in text


def test_sight_report_explains_the_cover_range() -> None:
    text = NEAR_HALF.sight_report("A", "B").explain()
    assert "3 or less: nobody benefits from cover" in text


def test_sight_report_names_occupant_blockers_and_squeezes() -> None:
    g = TileGrid.from_text("""
        A#
        CB
    """)
    text = g.sight_report("A", "B").explain()
    assert "passes exactly between occupant C at 0,1 and terrain at 1,0" in text
    assert "not visible" in text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"policy": "strict"}, "policy: expected one of inset, touch, interior, got 'strict'"),
        ({"metric": "taxi"}, "metric: expected one of chebyshev, manhattan, euclidean"),
        ({"blockers": "none"}, "blockers: expected one of all, foes"),
        ({"range": "5"}, "unknown sight option 'range' for a grid map"),
    ],
)
def test_unknown_options_name_the_option_and_the_choices(
    options: dict[str, str], message: str
) -> None:
    with pytest.raises(MapError, match=message):
        NEAR_HALF.sight_report("A", "B", **options)


def test_places_by_id_or_coordinates() -> None:
    assert NEAR_HALF.sight_report("0,0", "3, 1").distance == 3
    with pytest.raises(MapError, match="no occupant 'Z' on the map"):
        NEAR_HALF.sight_report("A", "Z")
    with pytest.raises(MapError, match="outside the 4x2 grid"):
        NEAR_HALF.sight_report("A", "9,9")
    with pytest.raises(MapError, match="to itself"):
        NEAR_HALF.sight_report("A", "0,0")
