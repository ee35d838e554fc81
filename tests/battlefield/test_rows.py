"""The rows battlefield of Last Odyssey: melee needs the front row, advancing, the map file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica.battlefield.base import Battlefield
from tactica.battlefield.rows import Rows, Side
from tactica.errors import MapError
from tactica.maps import map_kind, to_svg
from tactica.validation import load_yaml

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


def test_melee_needs_the_user_in_front_and_reaches_only_the_front() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    assert r.can_make_melee("Ada") and not r.can_make_melee("Bo")
    assert r.can_receive_melee("Cop") and not r.can_receive_melee("Shaman")
    assert r.can_melee("Ada", "Cop")
    assert not r.can_melee("Ada", "Shaman")
    assert not r.can_melee("Bo", "Cop")


def test_moving_between_rows() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    moved = r.with_moved("Bo", "front")
    assert moved.side("party") == Side("party", ("Ada", "Bo"), ())
    assert moved.can_make_melee("Bo")
    assert r.with_moved("Ada", "front") is r
    assert r.row_of("Bo") == "back"  # immutable
    with pytest.raises(MapError, match="expected 'front' or 'back'"):
        r.with_moved("Bo", "middle")  # type: ignore[arg-type]


def test_advance_makes_the_whole_empty_fronted_side_count_as_front_row() -> None:
    r = rows("Ada / Bo", " / Shaman, Prankster")
    assert r.needs_advance() == ("enemies",)
    assert not r.can_receive_melee("Shaman")
    advanced = r.advance("party")
    assert advanced.can_receive_melee("Shaman") and advanced.can_receive_melee("Prankster")
    # They count as front row for everything, so they may use melee too ...
    assert advanced.can_make_melee("Shaman")
    # ... while the advancing side is unchanged: Bo is still in the back.
    assert not advanced.can_make_melee("Bo")
    assert advanced.needs_advance() == ()
    # LOD-9: afterwards they are ordinary front-row characters and may Move back.
    assert not advanced.with_moved("Shaman", "back").can_receive_melee("Shaman")


def test_advance_errors_say_why() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    with pytest.raises(MapError, match="sides to advance on: none"):
        r.advance("party")
    with pytest.raises(
        MapError, match=r"cannot advance on 'enemies': its front row is not empty \(Cop\)"
    ):
        r.advance("party", on="enemies")
    with pytest.raises(MapError, match="unknown side 'heroes'"):
        r.advance("heroes")
    both_empty = rows(" / Bo", " / Shaman")
    assert both_empty.needs_advance() == ("party", "enemies")
    assert both_empty.advance("party").side("enemies").front == ("Shaman",)
    assert both_empty.advance("enemies").side("party").front == ("Bo",)


def test_more_than_two_sides_need_on_when_ambiguous() -> None:
    r = Rows((Side("a", ("A",)), Side("b", (), ("B",)), Side("c", (), ("C",))))
    with pytest.raises(MapError, match="say on which side; sides to advance on: b, c"):
        r.advance("a")
    assert r.advance("a", on="c").can_receive_melee("C")


def test_sight_report_everyone_sees_no_cover_melee_in_details() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    front = r.sight_report("Ada", "Cop")
    assert (front.visible, front.cover, front.distance) == (True, False, 1)
    assert front.details["melee"] == {
        "source_can_make": True,
        "target_can_receive": True,
        "possible": True,
    }
    back = r.sight_report("Bo", "Shaman").to_dict()
    assert back["visible"] and not back["cover"] and back["distance"] == 3
    assert back["melee"]["possible"] is False and back["ranged"] is True
    assert back["rows"]["Shaman"] == {"side": "enemies", "row": "back"}
    assert r.sight_report("Ada", "Bo").distance == 1
    assert r.sight_report("Ada", "Ada").distance == 0
    assert "no melee from the back row" in r.sight_report("Bo", "Cop").explain()
    with pytest.raises(MapError, match="rows take no options"):
        r.sight_report("Ada", "Cop", policy="touch")
    with pytest.raises(MapError, match="unknown character 'Zed'"):
        r.sight_report("Ada", "Zed")


def test_adding_and_removing_characters() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    assert r.without("Cop").needs_advance() == ("enemies",)
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
    assert "melee possible" in svg
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
