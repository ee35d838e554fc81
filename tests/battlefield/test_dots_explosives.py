"""The geometry of explosives on the dot lattice: rings by steps plus levels, shelter behind
obstacles (and, for prone troopers, low solid obstructions and windows), floors, scatter."""

from __future__ import annotations

import pytest

from tactica.battlefield.dots.blast import blast, blast_rings, scatter, scatter_origin
from tactica.battlefield.dots.lattice import DotLattice, DotPlace
from tactica.engine.errors import MapError


def hits(lat: DotLattice, centre: str, **kw: object) -> dict[str, tuple[int, bool]]:
    return {h.oid: (h.ring, h.sheltered) for h in blast(lat, centre, **kw)}  # type: ignore[arg-type]


def test_rings_by_steps() -> None:
    lat = DotLattice.from_text("A B C D\n . E . .")
    # E at (1,1) is two steps from A: A's neighbours below are (0,1) and, west of it, none.
    assert hits(lat, "A") == {"A": (0, False), "B": (1, False), "E": (2, False),
                              "C": (2, False)}
    assert hits(lat, "A", radius=3)["D"] == (3, False)
    rings = blast_rings(lat, "0,0", radius=1)
    assert rings == {DotPlace(0, 0): 0, DotPlace(1, 0): 1, DotPlace(0, 1): 1}


def test_shelter_behind_walls_and_for_prone_troopers() -> None:
    lat = DotLattice.from_text(
        ". A . B C", features=[((1, 0), (2, 0), "high-wall"), ((3, 0), (4, 0), "low-wall")])
    assert hits(lat, "2,0") == {"B": (1, False), "A": (1, True), "C": (2, False)}
    assert hits(lat, "2,0", prone=frozenset("C"))["C"] == (2, True)
    window = lat.with_feature((3, 0), (4, 0), "window")
    assert hits(window, "2,0", prone=frozenset("C"))["C"] == (2, True)
    hedge = lat.with_feature((3, 0), (4, 0), "vegetation")
    assert hits(hedge, "2,0", prone=frozenset("C"))["C"] == (2, False)
    why = blast(lat, "2,0")[1].reasons
    assert any("high wall between 1,0 and 2,0" in r for r in why)


def test_blast_through_floors_and_up_the_stairs() -> None:
    lat = DotLattice.from_text("A . . .", upper=["U V . W"], stairs=[(2, 0)])
    # Floors do not stop blast: each level is one dot further.
    assert hits(lat, "0,0") == {"A": (0, False), "U": (1, False), "V": (2, False)}
    # Floors block except at stairs: from A's dot, up the stairs at (2,0), then back.
    assert hits(lat, "0,0", floors="block", radius=5) == {
        "A": (0, False), "V": (4, False), "U": (5, False), "W": (4, False)}
    assert hits(lat, "2,0", floors="block") == {"A": (2, False), "V": (2, False),
                                                "W": (2, False)}
    with pytest.raises(MapError, match="floors: expected one of pass, block"):
        blast(lat, "0,0", floors="sometimes")


@pytest.mark.parametrize(
    ("roll", "landing", "direction"),
    [(1, (3, 2), "east"), (2, (2, 3), "south-east"), (3, (1, 3), "south-west"),
     (4, (1, 2), "west"), (5, (1, 1), "north-west"), (6, (2, 1), "north-east")],
)
def test_scatter_directions(roll: int, landing: tuple[int, int], direction: str) -> None:
    lat = DotLattice.from_text(". . . .\n . . . .\n. . . .\n . . . .")
    s = scatter(lat, "2,2", roll)
    assert (s.landing.col, s.landing.row) == landing and s.direction == direction and s.moved


def test_scatter_stops_at_an_obstacle_and_drops_from_upper_floors() -> None:
    lat = DotLattice.from_text(". . . .", upper=[". . - -"],
                               features=[((2, 0), (3, 0), "wall")])
    assert scatter(lat, "1,0", 1, distance=3).moved is False
    assert scatter(lat, "1,0", 1).landing == DotPlace(2, 0)
    up = scatter(lat, "1,0@1", 1)
    assert up.landing == DotPlace(2, 0, 0) and "drops to ground" in up.reason
    off = scatter(lat, "0,0", 4)
    assert not off.on_map and off.landing == DotPlace(-1, 0)
    with pytest.raises(MapError, match="scatter roll: expected 1 to 6"):
        scatter(lat, "0,0", 7)


def test_scatter_from_the_dot_before_a_window() -> None:
    lat = DotLattice.from_text("A . . . T .", features=[((2, 0), (3, 0), "window"),
                                                        ((4, 0), (5, 0), "window")])
    assert scatter_origin(lat, "A", "T") == DotPlace(2, 0)
    assert scatter_origin(lat, "A", "1,0") == DotPlace(1, 0)
    # A window on the thrower's own cell does not count.
    assert scatter_origin(lat, "T", "0,0") == DotPlace(3, 0)
    assert scatter_origin(lat.without_feature((2, 0), (3, 0)), "T", "0,0") == DotPlace(0, 0)


def test_a_dot_named_as_a_dot_has_no_pose_for_sight() -> None:
    """Explosives target a dot: the low wall next to prone C blocks a line to C, not a line to
    C's dot, which it only covers (+1); the vectorised batch agrees."""
    lat = DotLattice.from_text("A . . C", features=[((2, 0), (3, 0), "low-wall")])
    lat = lat.with_pose("C", prone=True)
    to_c, to_dot = lat.sight("A", "C"), lat.sight("A", "3,0")
    assert not to_c.visible
    assert to_dot.visible and to_dot.cover == 1
    batch = lat.sight_many([("A", "C"), ("A", "3,0")])
    assert batch.visible.tolist() == [False, True] and int(batch.cover[1]) == 1
