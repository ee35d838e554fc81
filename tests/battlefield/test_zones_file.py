"""Zone map files: loading, round trips, and errors that name the file, the field and the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica.battlefield.zones.graph import ZoneGraph
from tactica.engine.errors import MapError
from tactica.engine.maps import map_kind
from tactica.engine.validation import load_yaml

NIGHTCLUB = Path(__file__).parents[2] / "examples" / "unhex" / "nightclub.yaml"


def load(data: dict[str, Any]) -> ZoneGraph:
    return ZoneGraph.from_mapping(data, source="club.yaml")


def base(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": "zones",
        "areas": ["Bar", "DJ Booth", "Dance Floor"],
        "connections": [{"between": ["Bar", "Dance Floor"], "cover": ["Bar"]}],
    }
    data.update(extra)
    return data


def test_the_nightclub_example_loads_with_its_layout() -> None:
    club = ZoneGraph.from_mapping(load_yaml(NIGHTCLUB), source=str(NIGHTCLUB))
    assert club.name == "Nightclub"
    assert len(club.areas) == 8 and len(club.connections) == 10
    assert set(club.positions()) == set(club.areas)
    dashed = {frozenset(c.ends) for c in club.connections if c.type == "dashed"}
    assert dashed == {frozenset({"Catwalk", "Dance Floor"}), frozenset({"Catwalk", "Bar"})}


def test_kind_zones_is_registered() -> None:
    kind = map_kind("zones", source="club.yaml")
    graph = kind.load(base(), "club.yaml")
    assert isinstance(graph, ZoneGraph)


def test_round_trip_through_the_mapping() -> None:
    club = ZoneGraph.from_mapping(load_yaml(NIGHTCLUB), source=str(NIGHTCLUB))
    assert ZoneGraph.from_mapping(club.to_mapping()) == club
    doors = base(
        connections=[
            {"between": ["Bar", "DJ Booth"], "type": "one-way", "door": "closed", "cover": ["Bar"]},
            {"between": ["Bar", "Dance Floor"], "type": "blocked"},
        ]
    )
    assert load(load(doors).to_mapping()).to_mapping() == load(doors).to_mapping()


def test_every_problem_is_reported_at_once_with_its_field() -> None:
    bad = base(
        areas=["Bar", "Dance Floor", "Bar", "Up>Down"],
        connections=[
            {"between": ["Bar", "Dance Flor"]},
            {"between": ["Dance Floor", "Bar"], "type": "dashed", "door": "open"},
            {"between": ["Bar", "Dance Floor"], "cover": ["Kitchen"]},
            {"between": ["Bar", "Bar"]},
            {"between": ["Bar", "Up>Down"], "type": "blocked", "cover": ["Bar"]},
        ],
    )
    with pytest.raises(MapError) as err:
        load(bad)
    lines = str(err.value).splitlines()
    assert all(line.startswith("club.yaml: ") for line in lines)
    text = str(err.value)
    assert "areas[2]: duplicate area 'Bar' (also areas[0])" in text
    assert "areas[3]: 'Up>Down': area names cannot contain '>'" in text
    assert "connections[0].between[1]: unknown area 'Dance Flor'" in text
    assert "connections[1].door: only solid and one-way connections can have a door" in text
    assert "connections[2].between: duplicate connection 'Bar'-'Dance Floor'" in text
    assert "connections[2].cover[0]: 'Kitchen' is not an end of this connection" in text
    assert "connections[3].between: an area cannot connect to itself ('Bar')" in text
    assert "connections[4].cover: a blocked (X) connection carries no sight" in text


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"connections": [{"between": ["Bar", "DJ Booth"], "type": "wall"}]},
            "connections[0].type",
        ),
        ({"connections": [{"between": ["Bar"]}]}, "connections[0].between"),
        (
            {"connections": [{"between": ["Bar", "DJ Booth"], "door": "ajar"}]},
            "connections[0].door",
        ),
        (
            {"connections": [{"between": ["Bar", "DJ Booth"], "mark": ["Bar"]}]},
            "connections[0].mark",
        ),
        ({"areas": []}, "areas: List should have at least 1 item"),
        ({"kind": "grid"}, "kind: Input should be 'zones'"),
        ({"layout": {"Bar": [0, 0]}}, "layout: no position for 'DJ Booth', 'Dance Floor'"),
        ({"layout": {"Cellar": [0, 0]}}, "layout.Cellar: unknown area"),
        ({"layout": {"Bar": ["left", 0]}}, "layout.Bar[0]"),
    ],
)
def test_schema_errors_name_the_field(change: dict[str, Any], expected: str) -> None:
    with pytest.raises(MapError, match=r"^club\.yaml: ") as err:
        load(base(**change))
    assert expected in str(err.value)


def test_building_in_code_is_checked_too() -> None:
    from tactica.battlefield.zones.graph import Connection

    with pytest.raises(MapError, match="must join two different known areas"):
        ZoneGraph(areas=("A",), connections=(Connection("A", "B"),))
    with pytest.raises(MapError, match="only solid and one-way lines have doors"):
        ZoneGraph(areas=("A", "B"), connections=(Connection("A", "B", "dashed", "open"),))
    with pytest.raises(MapError, match="names cannot contain '>'"):
        ZoneGraph(areas=("Up>Down",))


def test_map_file_loader_when_available(tmp_path: Path) -> None:
    mapfile = pytest.importorskip("tactica.engine.maps")
    try:
        import tactica.battlefield.grid.tiles  # noqa: F401
    except ImportError:
        pytest.skip("the grid kind is not available yet")
    graph = mapfile.load_map(NIGHTCLUB)
    assert isinstance(graph, ZoneGraph)
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: zones\nareas: [A]\nconnections:\n  - {between: [A, B]}\n")
    with pytest.raises(
        MapError, match=r"bad.yaml: connections\[0\].between\[1\]: unknown area 'B'"
    ):
        mapfile.load_map(bad)
