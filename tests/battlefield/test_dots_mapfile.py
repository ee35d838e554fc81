"""Dot lattice map files: what loads, the friendlier forms, located errors, the map kind, and the
checks the command line relies on (``tactica sight`` and ``tactica map`` go through these)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from tactica.battlefield.base import Battlefield
from tactica.battlefield.dots.geometry import offset_to_axial, side_between
from tactica.battlefield.dots.lattice import DotLattice, DotPlace
from tactica.battlefield.dots.mapfile import dots_from_mapping
from tactica.engine.errors import MapError
from tactica.engine.maps import load_map, map_from_mapping, map_kind, to_svg

EXAMPLES = Path(__file__).parents[2] / "examples" / "skirmishers"

BRIEF = """\
kind: dots
levels:
  ground: |
    A . . . B
     . . . . .
    . . . . .
features:
  - {between: [[1, 0], [2, 0]], kind: low-wall}
  - {between: [[3, 0], [3, 1]], kind: high-wall}
"""


def load(data: dict[str, Any]) -> DotLattice:
    return dots_from_mapping(data, source="m.yaml")


def side(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int, int]:
    return side_between(offset_to_axial(*a), offset_to_axial(*b))


def test_the_smallest_map(tmp_path: Path) -> None:
    f = tmp_path / "m.yaml"
    f.write_text(BRIEF, encoding="utf-8")
    lat = load_map(f)
    assert isinstance(lat, DotLattice) and isinstance(lat, Battlefield)
    assert (lat.cols, lat.rows, lat.levels(), lat.level_names) == (5, 3, (), ("ground",))
    assert dict(lat.occupants) == {"A": DotPlace(0, 0), "B": DotPlace(4, 0)}
    assert lat.features == {(0, side((1, 0), (2, 0))): "low-wall",
                            (0, side((3, 0), (3, 1))): "high-wall"}
    assert lat.locate("3,1") == DotPlace(3, 1) and str(lat.locate("B")) == "4,0"
    assert lat.distance("A", "B") == 4
    assert lat.neighbours("A") == (DotPlace(1, 0), DotPlace(0, 1))


def test_the_brief_checks_through_the_public_api() -> None:
    """A at (0,0), B at (4,0), a trooper at (2,0): cover 1; prone: 0; a high wall between
    (1,0) and (2,0): not visible. ``--json`` gives visible, cover, range and reasons."""
    lat = load_map(EXAMPLES / "lane-trooper.yaml")
    report = lat.sight_report("A", "B").to_dict()
    assert (report["visible"], report["cover"], report["range"]) == (True, 1, 4)
    assert isinstance(report["reasons"], list) and report["reasons"]
    json.dumps(report)
    assert lat.sight_report("A", "B", prone="X").cover == 0
    assert isinstance(lat, DotLattice)
    walled = lat.with_feature((1, 0), (2, 0), "high-wall")
    assert walled.sight_report("A", "B").visible is False


def test_unknown_sight_option_names_the_known_ones() -> None:
    lat = load_map(EXAMPLES / "lane.yaml")
    with pytest.raises(MapError, match=r"unknown sight option 'policy'.*tangent"):
        lat.sight_report("A", "B", policy="inset")
    with pytest.raises(MapError, match="tangent: expected one of clear, counts"):
        lat.sight_report("A", "B", tangent="maybe")
    with pytest.raises(MapError, match="prone: no trooper 'Q'"):
        lat.sight_report("A", "B", prone="Q")
    with pytest.raises(MapError, match="to itself"):
        lat.sight_report("A", "0,0")


def test_range_band_and_options_in_the_report() -> None:
    lat = load_map(EXAMPLES / "lane.yaml")
    d = lat.sight_report("A", "B", short="3", long=10).to_dict()
    assert d["band"] == "long" and d["range"] == 4
    assert lat.sight_report("A", "B", short=5).details["band"] == "short"
    assert lat.sight_report("A", "B", range_steps="minus-one").details["range"] == 3


#: The map files among the Skirmishers examples (the others are scenarios holding a map).
MAP_FILES = sorted(p for p in EXAMPLES.glob("*.yaml") if "\nkind: dots" in "\n" + p.read_text())


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_examples_load_and_draw(path: Path) -> None:
    lat = load_map(path)
    assert isinstance(lat, DotLattice)
    svg = to_svg(lat)
    assert svg.startswith("<?xml") and "</svg>" in svg
    assert lat.preview().startswith(lat.name)


def test_street_map_has_a_two_floor_house() -> None:
    lat = load_map(EXAMPLES / "street-map.yaml")
    assert isinstance(lat, DotLattice)
    assert lat.levels() == ("ground", "first")
    assert len(lat.troopers) == 8
    assert sorted(set(lat.sides.values())) == ["blue", "red"]
    house = lat.buildings[0]
    assert house.floors == 2 and len(house.dots) == 8 * 7
    assert lat.locate("Y").level == 1
    kinds = set(lat.features.values())
    assert {"wall", "door", "window", "low-wall", "fence", "vegetation", "high-wall",
            "tree", "furniture"} <= kinds
    assert lat.stairs[offset_to_axial(14, 9)].high == 1
    # The first-floor window at (15, 6) faces east; the ground one too.
    for lvl in (0, 1):
        assert lat.features[(lvl, side((15, 6), (16, 6)))] == "window"
    # The man at the first-floor window sees the prone one behind the fence.
    r = lat.sight_report("Y", "C", prone="C")
    assert r.visible and r.details["levels"] == ["first", "ground"]
    assert r.details["range"] == r.details["steps"] + 1


def test_friendly_forms() -> None:
    lat = load({
        "kind": "dots",
        "levels": {"ground": ". . . . . .\n . . . . . .\n. . . . . .\n . . . . . .",
                   "upper": None},
        "walls": [{"kind": "low-wall", "along": [[1, 3], [3, 3]], "side": "north"},
                  {"kind": "high-wall", "along": [[4, 0], [4, 3]], "side": "east"}],
        "buildings": [{"name": "Hut", "from": [0, 0], "to": [1, 1], "floors": 2,
                       "doors": [[[1, 1], [2, 1]]],
                       "windows": [{"at": [0, 1], "towards": "south-east", "level": "upper"}],
                       "ladders": [[0, 0]]}],
        "troopers": {"U": {"at": [1, 0], "level": "upper", "side": "red", "prone": True}},
    })
    assert lat.levels() == ("ground", "upper")
    north = {s for (lvl, s), k in lat.features.items() if k == "low-wall"}
    assert north == {side((c, 3), n) for c in (1, 2, 3) for n in ((c, 2), (c + 1, 2))}
    east = {s for (lvl, s), k in lat.features.items() if k == "high-wall"}
    assert side((4, 1), (5, 1)) in east and side((4, 1), (5, 2)) in east
    assert side((4, 0), (5, 0)) in east and len(east) == 7
    assert lat.features[(0, side((1, 1), (2, 1)))] == "door"
    assert lat.features[(1, side((1, 1), (2, 1)))] == "wall"
    assert lat.features[(1, side((0, 1), (1, 2)))] == "window"
    assert lat.stairs[offset_to_axial(0, 0)].kind == "ladder"
    assert lat.trooper("U").prone and lat.sides["U"] == "red"


def test_a_feature_replaces_a_wall_but_two_features_conflict() -> None:
    base = {"kind": "dots", "levels": {"ground": ". . .\n . . ."},
            "walls": [{"kind": "wall", "along": [[1, 0], [1, 1]], "side": "east"}],
            "features": [{"between": [[1, 0], [2, 0]], "kind": "door"}]}
    assert load(base).features[(0, side((1, 0), (2, 0)))] == "door"
    base["features"].append({"between": [[2, 0], [1, 0]], "kind": "window"})
    with pytest.raises(MapError, match=r"features\[1\]: the side between 1,0 and 2,0 already "
                                       r"has a door"):
        load(base)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "dots", "levels": {"ground": "A . .\n. . ."}},
         r"m.yaml: levels.ground: row 2, column 1: expected a space between dots, got '\.' "
         r"\(odd rows are shifted"),
        ({"kind": "dots", "levels": {"ground": "A . .\n . ."}},
         "row 2 has 2 dots, expected 3"),
        ({"kind": "dots", "levels": {"ground": "A . A"}}, "trooper 'A' appears twice"),
        ({"kind": "dots", "levels": {"ground": "A # ."}},
         r"row 1, column 3 \(dot 1,0\): unknown character '#'"),
        ({"kind": "dots", "levels": {"ground": ". . ."},
          "features": [{"between": [[0, 0], [2, 0]], "kind": "low-wall"}]},
         r"m.yaml: features\[0\]: dots 0,0 and 2,0 are not adjacent"),
        ({"kind": "dots", "levels": {"ground": ". . ."},
          "features": [{"between": [[0, 0], [1, 0]], "kind": "moat"}]},
         r"features\[0\].kind: unknown feature kind 'moat' \(known: low-wall"),
        ({"kind": "dots", "levels": {"ground": ". . ."},
          "features": [{"between": [[0, 0], [1, 0]], "kind": "wall", "level": "roof"}]},
         r"features\[0\].level: unknown level 'roof'"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "sides": {"Q": "red"}},
         r"sides.Q: no trooper 'Q'"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "buildings": [
            {"from": [0, 0], "to": [1, 0], "doors": [[[1, 0], [0, 0]]]}]},
         r"buildings\[0\].doors\[0\]: the side between 0,0 and 1,0 is not on the outline"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "buildings": [
            {"from": [0, 0], "to": [5, 0]}]},
         r"buildings\[0\].to: dot 5,0 is off the 3x1 map \(columns 0 to 2, rows 0 to 0\)"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "buildings": [
            {"from": [-1, 0], "to": [1, 0]}]}, r"buildings\[0\].from: dot -1,0 is off the"),
        ({"kind": "dots", "levels": {"ground": ". . ."},
          "walls": [{"kind": "wall", "along": [[0, 0], [10**9, 0]], "side": "north"}]},
         r"walls\[0\].along: dot 1000000000,0 is off the 3x1 map"),
        ({"kind": "dots", "levels": {"ground": ". . .\n . . ."},
          "walls": [{"kind": "wall", "along": [[0, 0], [2, 0]], "side": "north"}]},
         r"walls\[0\].side: the wall along \[\[0, 0\], \[2, 0\]\] on its north side is on the "
         r"edge of the map"),
        ({"kind": "dots", "levels": {"ground": ". . ."},
          "features": [{"between": [[2, 0], [3, 0]], "kind": "wall"}]},
         r"features\[0\].between: dot 3,0 is off the 3x1 map"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "stairs": [{"at": [0, 7]}]},
         r"stairs\[0\].at: dot 0,7 is off the 3x1 map"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "troopers": {"Q": {"at": [-5, 0]}}},
         r"troopers.Q.at: dot -5,0 is off the 3x1 map"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "buildings": [
            {"from": [0, 0], "to": [1, 0], "floors": 10**8}]},
         r"buildings\[0\].floors: Input should be less than or equal to 10"),
        ({"kind": "dots", "levels": {f"l{i}": ". . ." for i in range(11)}},
         r"levels: Dictionary should have at most 10 items"),
        ({"kind": "dots", "levels": {"ground": "\n".join([". " * 101] * 2)}},
         r"levels.ground: the level is 101 x 2 dots; a dot map has at most 100 x 100"),
        ({"kind": "dots", "levels": {"ground": ". . .", "first": "\n".join(["."] * 101)}},
         r"levels.first: the level is 1 x 101 dots; a dot map has at most 100 x 100"),
        ({"kind": "dots", "levels": {"ground": ". . ."}, "tiles": "..."},
         r"m.yaml: tiles: Extra inputs are not permitted"),
        ({"kind": "dots", "levels": {"ground": ". . .", "first": ". . . ."}},
         r"levels.first: row 1 has 4 dots, but the ground has only 3"),
        ({"kind": "dots", "levels": {"ground": ". . .\n . . ."},
          "walls": [{"kind": "wall", "along": [[0, 0], [2, 1]], "side": "north"}]},
         r"walls\[0\]: along .* a wall runs along one row"),
    ],
)
def test_errors_name_the_file_and_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(MapError, match=message):
        load(data)


def test_registered_as_a_map_kind() -> None:
    assert map_kind("dots").name == "dots"
    lat = map_from_mapping({"kind": "dots", "levels": {"ground": "A . B"}}, source="inline")
    assert isinstance(lat, DotLattice)


def test_lattice_is_an_immutable_value() -> None:
    lat = load({"kind": "dots", "levels": {"ground": "A . B\n . . ."}})
    moved = lat.move_occupant("A", "1,1")
    assert lat.locate("A") == DotPlace(0, 0) and moved.locate("A") == DotPlace(1, 1)
    assert lat.with_occupant("C", (2, 1), side="blue").sides == {"C": "blue"}
    assert lat.without_occupant("B").occupants.keys() == {"A"}
    assert pickle.loads(pickle.dumps(lat)) == lat
    assert hash(lat) == hash(pickle.loads(pickle.dumps(lat)))
    with pytest.raises(MapError, match="share dot 2,0"):
        lat.move_occupant("A", "2,0")
    with pytest.raises(MapError, match="no trooper 'Z'"):
        lat.locate("Z")
    with pytest.raises(MapError, match="not a dot on the map"):
        lat.locate("7,0")
