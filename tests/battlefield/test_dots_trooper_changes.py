"""A lattice whose troopers change keeps its map as checked and its trooper-free derived data
(the hot path of a battle: every step a trooper takes makes a new lattice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.battlefield.dots.fast import lattice_arrays
from tactica.battlefield.dots.lattice import DotLattice
from tactica.engine.errors import MapError
from tactica.engine.maps import load_map

STREET = Path(__file__).parents[2] / "examples" / "skirmishers" / "street-map.yaml"


def test_moving_a_trooper_gives_the_lattice_a_fresh_build_would() -> None:
    lat = load_map(STREET)
    assert isinstance(lat, DotLattice)
    moved = lat.move_occupant("A", (3, 6)).with_pose("B", prone=True).without_occupant("C")
    fresh = DotLattice(lat.cols, lat.rows, lat.level_names, dict(lat.floors),
                       dict(lat.features), dict(lat.stairs), dict(moved.troopers),
                       dict(moved.sides), lat.buildings, lat.name)
    assert moved == fresh and hash(moved) == hash(fresh)
    assert moved.features is lat.features              # the map's part is shared, not rebuilt
    assert moved.occupant_at(moved.trooper("A").dot) == "A"
    assert lat.locate("A") != moved.locate("A")        # the original is untouched


def test_trooper_free_derived_data_is_kept_and_the_rest_rebuilt() -> None:
    lat = load_map(STREET)
    assert isinstance(lat, DotLattice)
    before = lattice_arrays(lat)
    moved = lat.move_occupant("A", (3, 6))
    assert "fast-base-arrays" in moved.memo and not any(
        k.startswith("fast-arrays") for k in moved.memo)
    after = lattice_arrays(moved)
    assert (after.codes != before.codes).sum() == 2    # A's old dot and its new one
    assert moved.sight_report("A", "W").to_dict() == DotLattice(
        lat.cols, lat.rows, lat.level_names, dict(lat.floors), dict(lat.features),
        dict(lat.stairs), dict(moved.troopers), dict(moved.sides), lat.buildings,
        lat.name).sight_report("A", "W").to_dict()


def test_troopers_are_still_checked() -> None:
    lat = load_map(STREET)
    assert isinstance(lat, DotLattice)
    with pytest.raises(MapError, match="share dot"):
        lat.move_occupant("A", lat.locate("B"))
    with pytest.raises(MapError, match="no dot"):
        lat.move_occupant("A", (0, 0, 1))
