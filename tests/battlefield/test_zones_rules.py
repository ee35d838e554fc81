"""Zone graph rules beyond the nightclub: one-way lines, doors, X lines, moving characters."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.battlefield.zones.graph import Connection, ZoneGraph
from tactica.engine.errors import MapError

_LINE = re.compile(r"^(\w+) (\|?)(--|\.\.|->|xx)(\|?) (\w+)(?: door=(open|closed))?$")
_TYPES = {"--": "solid", "..": "dashed", "->": "one-way", "xx": "blocked"}


def zones(*lines: str) -> ZoneGraph:
    """A zone map from lines like ``"A --| B"`` (a cover mark at B), ``"A .. B"`` (dashed),
    ``"A -> B"`` (one way), ``"A xx B"`` (X line), ``"A -- B door=closed"``."""
    areas: list[str] = []
    conns: list[dict[str, object]] = []
    for line in lines:
        m = _LINE.match(line)
        assert m, line
        a, left, kind, right, b, door = m.groups()
        areas += [x for x in (a, b) if x not in areas]
        item: dict[str, object] = {"between": [a, b], "type": _TYPES[kind]}
        item["cover"] = [x for x, on in ((a, left), (b, right)) if on]
        if door:
            item["door"] = door
        conns.append(item)
    return ZoneGraph.from_mapping({"kind": "zones", "areas": areas, "connections": conns})


# -- one-way ----------------------------------------------------------------------------------


def test_one_way_moves_only_forward_but_sees_both_ways() -> None:
    g = zones("Roof -> Street", "Street -- Shop")
    assert g.neighbors_for_move("Roof") == ("Street",)
    assert g.neighbors_for_move("Street") == ("Shop",)
    assert g.move_path("Roof", "Shop") == ("Roof", "Street", "Shop")
    assert g.move_path("Shop", "Roof") is None
    assert g.sight_report("Street", "Roof").visible
    assert g.sight_report("Roof", "Street").visible
    assert g.range_between("Shop", "Roof") == 2


# -- doors ------------------------------------------------------------------------------------


def test_closed_door_stops_movement_and_by_default_sight() -> None:
    g = zones("Hall -- Vault door=closed")
    assert not g.can_move("Hall", "Vault")
    assert g.move_path("Hall", "Vault") is None
    report = g.sight_report("Hall", "Vault")
    assert not report.visible and report.distance == 1  # range still counts the door
    # UNH-9 alternative: a closed door only stops movement.
    assert g.sight_report("Hall", "Vault", closed_doors="see").visible
    opened = g.with_door("Vault", "Hall", "open")
    assert opened.can_move("Hall", "Vault") and opened.sight_report("Hall", "Vault").visible
    assert g.connection("Hall", "Vault") == Connection("Hall", "Vault", door="closed")


def test_sight_goes_around_a_closed_door() -> None:
    g = zones("A -- B door=closed", "A -- C", "C -- D", "D -- B")
    report = g.sight_report("A", "B")
    assert report.visible and report.distance == 1
    assert report.details["paths"][0]["areas"] == ["A", "C", "D", "B"]


def test_with_door_needs_a_door() -> None:
    g = zones("A -- B")
    with pytest.raises(MapError, match="no door between 'A' and 'B'"):
        g.with_door("A", "B", "open")


# -- X lines ----------------------------------------------------------------------------------


def test_x_line_vetoes_sight_between_its_two_areas_whatever_the_path() -> None:
    # A and C would see each other over B (no marks); the X line says they do not.
    g = zones("A -- B", "B -- C", "A xx C")
    report = g.sight_report("A", "C")
    assert not report.visible
    assert any("X line" in r for r in report.reasons)
    assert report.distance == 2  # the X line never counts toward range
    assert not g.can_move("A", "C")
    # Other pairs are not affected, and UNH-10 "edge" only removes the line itself.
    assert g.sight_report("A", "B").visible
    assert g.sight_report("A", "C", x_lines="edge").visible


def test_x_line_alone_gives_neither_sight_nor_range() -> None:
    g = zones("A xx B")
    report = g.sight_report("A", "B", x_lines="edge")
    assert not report.visible
    assert report.details["range"] is None and report.to_dict()["distance"] is None
    assert g.range_between("A", "B") is None


# -- marks and paths --------------------------------------------------------------------------


def test_marks_at_the_attackers_end_do_not_count_but_the_targets_do() -> None:
    g = zones("A |--| B", "B --| C")
    ac = g.sight_report("A", "C")  # B (on A-B) and C (on B-C): two counted
    assert not ac.visible
    ca = g.sight_report("C", "A")  # C is the attacker's own; B and A count: two
    assert not ca.visible
    ab = g.sight_report("A", "B")  # adjacent: only the B mark counts
    assert ab.visible and ab.cover


def test_cover_from_any_shortest_path() -> None:
    g = zones("A -- B", "B -- D", "A -- C", "C --| D")
    report = g.sight_report("A", "D")
    assert report.visible and report.cover
    assert [p["target_cover"] for p in report.details["paths"]] == [False, True]


# -- moving characters (UNH-8) ----------------------------------------------------------------


def test_moving_attacker_uses_the_nearer_end() -> None:
    g = zones("A -- B", "B -- C", "C --| D")
    report = g.sight_report("A>B", "D")
    assert report.distance == 2
    assert report.details["pairs"] == [{"from": "B", "to": "D", "visible": True, "cover": True}]
    assert report.cover  # the target is standing still


def test_equal_ends_are_both_judged_and_either_gives_sight() -> None:
    # From M, X and Y are both at range 1; X is behind a closed door, Y is in plain sight.
    g = zones("M -- X door=closed", "M -- Y", "X xx Y")
    report = g.sight_report("M", "X>Y")
    assert report.distance == 1
    assert [(p["to"], p["visible"]) for p in report.details["pairs"]] == [("X", False), ("Y", True)]
    assert report.visible and not report.cover


def test_both_moving() -> None:
    g = zones("A -- B", "B -- C", "C -- D")
    assert g.range_between("A>B", "C>D") == 1
    assert g.sight_report("A>B", "B>C").distance == 0


# -- properties -------------------------------------------------------------------------------

_NAMES = ["A", "B", "C", "D", "E", "F"]


@st.composite
def graphs(draw: st.DrawFn) -> ZoneGraph:
    n = draw(st.integers(2, 6))
    areas = _NAMES[:n]
    pairs = [(a, b) for i, a in enumerate(areas) for b in areas[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    conns = []
    for a, b in chosen:
        kind = draw(st.sampled_from(["solid", "solid", "dashed", "one-way", "blocked"]))
        marks = (
            frozenset() if kind == "blocked" else frozenset(draw(st.sets(st.sampled_from([a, b]))))
        )
        door = (
            draw(st.sampled_from([None, "open", "closed"]))
            if kind in ("solid", "one-way")
            else None
        )
        conns.append(Connection(a, b, kind, door, marks))  # type: ignore[arg-type]
    return ZoneGraph(areas=tuple(areas), connections=tuple(conns))


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_range_is_symmetric_and_own_area_always_seen(g: ZoneGraph, data: st.DataObject) -> None:
    a = data.draw(st.sampled_from(g.areas))
    b = data.draw(st.sampled_from(g.areas))
    assert g.range_between(a, b) == g.range_between(b, a)
    own = g.sight_report(a, a)
    assert own.visible and not own.cover and own.distance == 0
    report = g.sight_report(a, b)
    assert not report.cover or report.visible
    assert g.sight_report(a, b, blocked_if="every").visible >= report.visible


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_adding_a_cover_mark_never_reveals_a_target(g: ZoneGraph, data: st.DataObject) -> None:
    open_lines = [c for c in g.connections if c.type != "blocked"]
    if not open_lines:
        return
    conn = data.draw(st.sampled_from(open_lines))
    end = data.draw(st.sampled_from(conn.ends))
    marked = Connection(conn.a, conn.b, conn.type, conn.door, conn.cover | {end})
    g2 = ZoneGraph(g.areas, tuple(marked if c is conn else c for c in g.connections))
    a = data.draw(st.sampled_from(g.areas))
    b = data.draw(st.sampled_from(g.areas))
    for rule in ("any", "every"):
        assert (
            g2.sight_report(a, b, blocked_if=rule).visible
            <= g.sight_report(a, b, blocked_if=rule).visible
        )


@settings(max_examples=100, deadline=None)
@given(graphs())
def test_move_paths_follow_movable_connections(g: ZoneGraph) -> None:
    for a in g.areas:
        for b in g.areas:
            path = g.move_path(a, b)
            if path is not None:
                assert path[0] == a and path[-1] == b
                assert all(g.can_move(u, v) for u, v in pairwise(path))
