"""Grid map files: what loads, and the errors that name the file, the field, row and column."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from tactica.battlefield.grid.mapfile import grid_from_mapping
from tactica.battlefield.grid.tiles import TileGrid
from tactica.engine.errors import MapError
from tactica.engine.maps import load_map, map_from_mapping

EXAMPLES = Path(__file__).parents[2] / "examples" / "nebulia"


def load(data: Any) -> TileGrid:
    return grid_from_mapping(data, source="m.yaml")


def test_minimal_map() -> None:
    g = load({"kind": "grid", "tiles": "A...#....\n....#..B.\n"})
    assert (g.width, g.height) == (9, 2)
    assert g.blockers == {(4, 0), (4, 1)}
    assert dict(g.occupants) == {"A": (0, 0), "B": (7, 1)}
    assert g.to_text() == "A...#....\n....#..B."


def test_rows_as_a_list_name_and_sides() -> None:
    g = load({"kind": "grid", "name": "Duel", "tiles": ["A.#", "..B"],
              "sides": {"A": "red", "B": "blue"}})
    assert g.name == "Duel"
    assert dict(g.sides) == {"A": "red", "B": "blue"}


def test_registered_as_map_kind() -> None:
    bf = map_from_mapping({"kind": "grid", "tiles": "A.#B"}, source="inline")
    assert isinstance(bf, TileGrid)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_example_maps_load(path: Path) -> None:
    from tactica.engine.validation import load_yaml

    data = load_yaml(path)
    if "map" in data:
        data = data["map"]
    if data.get("kind") == "grid":
        assert isinstance(map_from_mapping(data, source=str(path)), TileGrid)


def test_load_map_file(tmp_path: Path) -> None:
    f = tmp_path / "m.yaml"
    f.write_text("kind: grid\ntiles: |\n  A..\n  .#B\n", encoding="utf-8")
    g = load_map(f)
    assert isinstance(g, TileGrid) and g.tile_of("B") == (2, 1)


@pytest.mark.parametrize(
    ("data", "messages"),
    [
        (
            {"kind": "grid", "tiles": "A...\n..\n...B"},
            ["m.yaml: tiles: row 2 has 2 tiles, expected 4 (the width of row 1)"],
        ),
        (
            {"kind": "grid", "tiles": "A.?.\n..!B"},
            ["m.yaml: tiles: row 1, column 3 (tile 2,0): unknown character '?'",
             "m.yaml: tiles: row 2, column 3 (tile 2,1): unknown character '!'"],
        ),
        (
            {"kind": "grid", "tiles": "A..\n.A."},
            ["m.yaml: tiles: row 2, column 2 (tile 1,1): occupant 'A' appears twice "
             "(first at row 1, column 1)"],
        ),
        ({"kind": "grid", "tiles": "\n  \n"}, ["m.yaml: tiles: the map is empty"]),
        ({"kind": "grid", "tiles": []}, ["m.yaml: tiles: the map is empty"]),
        ({"kind": "grid"}, ["m.yaml: tiles: Field required"]),
        ({"kind": "grid", "tiles": 5}, ["m.yaml: tiles: Value error, expected the map's rows "
                                        "as text (tiles: |) or as a list of row strings, got 5"]),
        ({"kind": "grid", "tiles": ["A.", 3]}, ["m.yaml: tiles: Value error"]),
        ({"kind": "grid", "tiles": "AB", "legend": {}}, ["m.yaml: legend: Extra inputs"]),
        (
            {"kind": "grid", "tiles": "AB", "sides": {"A": "red", "C": "blue"}},
            ["m.yaml: sides.C: no occupant 'C' on the map (occupants: A, B)"],
        ),
        ({"kind": "grid", "tiles": "AB", "sides": {"A": 3}}, ["m.yaml: sides.A"]),
    ],
)
def test_errors_name_file_field_row_and_column(data: Any, messages: list[str]) -> None:
    with pytest.raises(MapError) as err:
        load(data)
    for message in messages:
        assert message in str(err.value)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(MapError) as err:
        load({"kind": "grid", "tiles": "A?\nA..\n"})
    text = str(err.value)
    assert "unknown character '?'" in text
    assert "row 2 has 3 tiles" in text
    assert "occupant 'A' appears twice" in text
    assert len(text.split("\n")) == 3


def test_wrong_kind_and_not_a_mapping() -> None:
    with pytest.raises(MapError, match="kind: expected one of"):
        map_from_mapping({"kind": "hexes", "tiles": "A"}, source="m.yaml")
    with pytest.raises(MapError, match=r"m\.yaml: expected a mapping"):
        map_from_mapping(["A.B"], source="m.yaml")


def test_from_text_dedents_and_ignores_blank_edges() -> None:
    g = TileGrid.from_text("""

        A.#
        ..B

    """)
    assert g.to_text() == "A.#\n..B"


def test_grid_is_an_immutable_hashable_value() -> None:
    g = TileGrid.from_text("A.#\n..B", sides={"A": "red", "B": "blue"})
    moved = g.move_occupant("A", (1, 0))
    assert g.tile_of("A") == (0, 0) and moved.tile_of("A") == (1, 0)
    assert g != moved
    assert moved.move_occupant("A", (0, 0)) == g
    assert hash(moved.move_occupant("A", (0, 0))) == hash(g)
    assert pickle.loads(pickle.dumps(g)) == g
    with pytest.raises(TypeError):
        g.occupants["C"] = (1, 1)  # type: ignore[index]
    with pytest.raises(AttributeError):
        g.width = 3  # type: ignore[misc]
    added = g.with_occupant("C", (1, 1))
    assert added.occupant_at((1, 1)) == "C" and g.occupant_at((1, 1)) is None
    removed = added.without_occupant("A")
    assert "A" not in removed.occupants and "A" not in removed.sides
    assert {g, moved.move_occupant("A", (0, 0))} == {g}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda g: g.with_occupant("A", (1, 1)), "already on the map"),
        (lambda g: g.with_occupant("C", (2, 0)), "stands on blocking terrain"),
        (lambda g: g.with_occupant("C", (2, 1)), "share tile 2,1"),
        (lambda g: g.with_occupant("CD", (1, 1)), "expected one letter or digit"),
        (lambda g: g.move_occupant("A", (5, 5)), "outside the 3x2 grid"),
        (lambda g: g.move_occupant("Z", (1, 1)), "no occupant 'Z'"),
        (lambda g: g.without_occupant("Z"), "no occupant 'Z'"),
        (lambda g: g.with_blocker((3, 0)), "outside the 3x2 grid"),
    ],
)
def test_bad_changes_raise_map_errors(change: Any, message: str) -> None:
    g = TileGrid.from_text("A.#\n..B")
    with pytest.raises(MapError, match=message):
        change(g)


def test_preview() -> None:
    g = TileGrid.from_text("A.#\n..B", name="Tiny", sides={"A": "red"})
    assert g.preview() == "\n".join([
        "Tiny: grid 3x2, 2 occupants",
        "  012",
        "0 A.#",
        "1 ..B",
        "A (red) at 0,0",
        "B at 2,1",
    ])


def test_preview_of_a_wide_map_numbers_tens() -> None:
    g = TileGrid(12, 1, occupants={"A": (11, 0)})
    lines = g.preview().split("\n")
    assert lines[1] == "  0         1 "
    assert lines[2] == "  012345678901"
