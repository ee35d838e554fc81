"""Movement on the dot lattice: the AP table, the 8 AP cap, prone doubling, levels, and every
place entered on the way."""

from __future__ import annotations

import pytest

from tactica.battlefield.dots.geometry import offset_to_axial
from tactica.battlefield.dots.lattice import DotLattice, DotPlace
from tactica.battlefield.dots.move import walk_steps
from tactica.engine.errors import MapError


def row(*features: tuple[int, str]) -> DotLattice:
    """A . . . . . . . . . with a feature between (i, 0) and (i+1, 0) for each (i, kind)."""
    return DotLattice.from_text("A . . . . . . . . .",
                                features=[((i, 0), (i + 1, 0), k) for i, k in features])


@pytest.mark.parametrize(
    ("kind", "cost"),
    [(None, 1), ("low-wall", 2), ("furniture", 2), ("fence", 2), ("vegetation", 2),
     ("door", 2), ("window", 4)],
)
def test_the_cost_of_one_step(kind: str | None, cost: int) -> None:
    lat = row((0, kind)) if kind else row()
    path = lat.path("A", "1,0")
    assert path is not None and path.cost == cost and path.steps == (cost,)


@pytest.mark.parametrize("kind", ["high-wall", "tree", "wall"])
def test_impassable_obstacles(kind: str) -> None:
    assert DotLattice.from_text("A .", features=[((0, 0), (1, 0), kind)]).path("A", "1,0") \
        is None


def test_the_way_round_when_cheaper_and_every_place_entered() -> None:
    lat = DotLattice.from_text("A . . .\n . . . .", features=[((1, 0), (2, 0), "window")])
    path = lat.path("A", "3,0")
    assert path is not None
    # Through the window: 1 + 4 + 1 = 6; round it through row 1: 1 + 1 + 1 + 1 = 4.
    assert path.cost == 4
    # Ties (same AP, same moves) go to the first found: east first, then clockwise.
    assert [str(p) for p in path.entered] == ["1,0", "1,1", "2,1", "3,0"]


def test_the_eight_ap_cap_and_prone_doubling() -> None:
    lat = row()
    assert lat.path("A", "8,0") is not None and lat.path("A", "9,0") is None
    assert lat.path("A", "9,0", budget=None).cost == 9
    prone = lat.with_pose("A", prone=True)
    assert prone.path("A", "4,0").cost == 8 and prone.path("A", "5,0") is None
    assert lat.path("A", "2,0", prone=True).steps == (2, 2)
    assert max(lat.reachable("A").values()) == 8
    assert len(lat.reachable("A", budget=3)) == 4


def test_troopers_block_dots_and_the_goal_must_be_free() -> None:
    lat = DotLattice.from_text("A X .\n . . .")
    assert lat.path("A", "1,0") is None
    path = lat.path("A", "2,0")
    assert path is not None and DotPlace(1, 0) not in path.places and path.cost == 3
    assert lat.path("A", "0,0").cost == 0


def test_stairs_and_upper_windows() -> None:
    lat = DotLattice.from_text(
        "A . .", upper=[". . -"], stairs=[(0, 0)],
        features=[((1, 0), (2, 0), "window", 1), ((1, 0), (2, 0), "window")],
    )
    path = lat.path("A", "1,0@first")
    assert path is not None
    assert [str(p) for p in path.places] == ["0,0", "0,0@1", "1,0@1"]
    assert path.steps == (3, 1)
    assert lat.path("1,0", "2,0").cost == 4
    with pytest.raises(MapError, match="not a dot with a floor on level first"):
        lat.path("A", "2,0@first")


def test_upper_windows_are_not_crossed() -> None:
    lat = DotLattice.from_text(". . .", upper=["A . ."],
                               features=[((1, 0), (2, 0), "window", 1)])
    assert lat.path("A", "2,0@1") is None
    assert lat.path("A", "1,0@1").cost == 1


def test_walkable_steps_for_range() -> None:
    lat = DotLattice.from_text("A . B\n . . .", features=[((0, 0), (1, 0), "wall"),
                                                          ((1, 0), (2, 0), "wall")])
    a, b = (offset_to_axial(0, 0), 0), (offset_to_axial(2, 0), 0)
    assert walk_steps(lat, a, b) == 3
    assert lat.sight_report("A", "B", range_steps="walk").details["range"] == 3
    shut = lat.with_feature((0, 0), (0, 1), "wall")
    assert walk_steps(shut, a, b) is None
    assert shut.sight_report("A", "B", range_steps="walk").details["range"] is None
