"""The rows battlefield of Last Odyssey: melee needs the front row, advancing, the map file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica.battlefield.base import Battlefield
from tactica.battlefield.rows import Rows, Side
from tactica.engine.errors import MapError
from tactica.engine.maps import map_kind, to_svg
from tactica.engine.validation import load_yaml

STREET = Path(__file__).parents[2] / "examples" / "last-odyssey" / "street-fight.yaml"


def rows(party: str, enemies: str) -> Rows:
    """Rows from ``"front names / back names"`` per side, comma separated."""

    def side(name: str, text: str) -> Side:
        front, _, back = text.partition("/")
        split = lambda part: tuple(n.strip() for n in part.split(",") if n.strip())  # noqa: E731
        return Side(name, split(front), split(back))

    return Rows((side("party", party), side("enemies", enemies)))


@pytest.fixture
def street() -> Rows:
    return Rows.from_mapping(load_yaml(STREET), source=str(STREET))


def test_example_loads_and_is_a_battlefield(street: Rows) -> None:
    assert isinstance(street, Battlefield) and street.kind == "rows"
    assert street.side("enemies").front == ("Cop 1", "Cop 2")
    assert street.row_of("Lark") == "back" and street.side_of("Arsonist") == "enemies"
    assert Rows.from_mapping(street.to_mapping()) == street
    assert isinstance(map_kind("rows", source="x").load(street.to_mapping(), "x"), Rows)



def test_moving_between_rows() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    moved = r.with_moved("Bo", "front")
    assert moved.side("party") == Side("party", ("Ada", "Bo"), ())
    assert moved.row_of("Bo") == "front"
    assert r.with_moved("Ada", "front") is r
    assert r.row_of("Bo") == "back"  # immutable
    with pytest.raises(MapError, match="expected 'front' or 'back'"):
        r.with_moved("Bo", "middle")  # type: ignore[arg-type]





def test_sight_report_everyone_sees_no_cover() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    front = r.sight_report("Ada", "Cop")
    assert (front.visible, front.cover, front.distance) == (True, 0, 1)
    back = r.sight_report("Bo", "Shaman").to_dict()
    assert back["visible"] and not back["cover"] and back["distance"] == 3
    assert back["rows"]["Shaman"] == {"side": "enemies", "row": "back"}
    assert r.sight_report("Ada", "Bo").distance == 1
    assert r.sight_report("Ada", "Ada").distance == 0
    assert "Bo stands in the back row of party" in r.sight_report("Bo", "Cop").explain()
    with pytest.raises(MapError, match="rows take no options"):
        r.sight_report("Ada", "Cop", policy="touch")
    with pytest.raises(MapError, match="unknown character or row 'Zed'"):
        r.sight_report("Ada", "Zed")


def test_adding_and_removing_characters() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    assert r.without("Cop").side("enemies") == Side("enemies", (), ("Shaman",))
    summoned = r.with_character("Eidolon", "party", "back")
    assert summoned.side("party").back == ("Bo", "Eidolon")
    with pytest.raises(MapError, match="already on the field"):
        r.with_character("Cop", "party")


def test_preview_is_a_small_table(street: Rows) -> None:
    text = street.without("Cop 1").without("Cop 2").preview()
    assert text.splitlines() == [
        "Street fight",
        "side     back                  | front",
        "party    Lark, Moss            | Rook, Vesper",
        "enemies  Hover Drone, Arsonist | - (empty: may be advanced on)",
    ]


def test_svg_puts_front_rows_in_the_middle(street: Rows) -> None:
    svg = to_svg(street, sight=street.sight_report("Rook", "Cop 1"))
    assert svg.startswith("<svg") and svg.endswith("</svg>\n")
    order = [svg.index(f">{n}</text>") for n in ("Lark", "Rook", "Cop 1", "Hover Drone")]
    xs = [float(svg[:i].rsplit('<text x="', 1)[1].split('"')[0]) for i in order]
    assert xs == sorted(xs)  # back | front || front | back
    assert "row distance 1" in svg
    assert svg == to_svg(street, sight=street.sight_report("Rook", "Cop 1"))  # pure


def bad(**change: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": "rows",
        "sides": {"party": {"front": ["Ada"]}, "enemies": {"back": ["Cop"]}},
    }
    data.update(change)
    return data


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            bad(sides={"party": {"front": ["Ada"]}}),
            "sides: Dictionary should have at least 2 items",
        ),
        (bad(sides={"a": {"front": ["X"]}, "b": {"back": ["X"]}}), "sides.b.back[0]: 'X' already"),
        (bad(sides={"a": {"front": ["X"], "middle": ["Y"]}, "b": {}}), "sides.a.middle"),
        (bad(sides={"a": {"front": [" X"]}, "b": {}}), "sides.a.front[0]: expected a name"),
        (bad(sides={"a": {"front": "X"}, "b": {}}), "sides.a.front"),
        (bad(kind="zones"), "kind: Input should be 'rows'"),
        (bad(rows=2), "rows: Extra inputs are not permitted"),
    ],
)
def test_file_errors_name_the_field(data: dict[str, Any], expected: str) -> None:
    with pytest.raises(MapError, match=r"^fight\.yaml: ") as err:
        Rows.from_mapping(data, source="fight.yaml")
    assert expected in str(err.value)


def test_building_in_code_is_checked() -> None:
    with pytest.raises(MapError, match="needs at least two sides"):
        Rows((Side("a", ("A",)),))
    with pytest.raises(MapError, match="'A' stands in more than one place"):
        Rows((Side("a", ("A",)), Side("b", (), ("A",))))


def test_the_battlefield_vocabulary() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    assert r.occupants["Bo"] == "party:back" and r.locate("Cop") == "enemies:front"
    assert r.neighbours("Ada") == ("party:back",)
    path = r.path("Bo", "party:front")
    assert path is not None and path.cost == 1 and path.entered == ("party:front",)
    assert r.path("Ada", "Cop") is None and r.levels() == ()
    assert r.with_all_in_front("enemies").side("enemies").front == ("Shaman", "Cop")


def test_a_side_named_with_a_colon_holds_its_places() -> None:
    """A place is written side:row: found by the fuzzer (a side named 'goblins:' crashed)."""
    rows = Rows.from_mapping({"kind": "rows", "sides": {"police": {"front": ["Cop"]},
                                                        "goblins:": {"front": ["Goblin"]}}})
    assert rows.locate("Goblin") == "goblins::front"
    assert rows.distance("Cop", "Goblin") == 1
    assert rows.sight_report("Cop", "Goblin").visible
