"""The zone graph against every range, cover and sight example of the Unhex seed and rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.battlefield.base import Battlefield
from tactica.battlefield.zones.graph import ZoneGraph
from tactica.engine.errors import MapError
from tactica.engine.validation import load_yaml

NIGHTCLUB = Path(__file__).parents[2] / "examples" / "unhex" / "nightclub.yaml"


@pytest.fixture(scope="module")
def club() -> ZoneGraph:
    return ZoneGraph.from_mapping(load_yaml(NIGHTCLUB), source=str(NIGHTCLUB))


def test_is_a_battlefield(club: ZoneGraph) -> None:
    assert isinstance(club, Battlefield)
    assert club.kind == "zones"
    assert hash(club) == hash(ZoneGraph.from_mapping(club.to_mapping()))


# -- range (seed, Range) --------------------------------------------------------------------


def test_range_entrance_to_dance_floor_is_one(club: ZoneGraph) -> None:
    assert club.range_between("Entrance", "Dance Floor") == 1


def test_range_entrance_to_catwalk_is_two(club: ZoneGraph) -> None:
    # Only over the dashed Dance Floor - Catwalk line: UNH-1 default counts it.
    assert club.range_between("Entrance", "Catwalk") == 2


def test_range_to_someone_moving_between_catwalk_and_dance_floor_is_one(club: ZoneGraph) -> None:
    assert club.range_between("Entrance", ("Catwalk", "Dance Floor")) == 1
    assert club.range_between("Entrance", "Catwalk>Dance Floor") == 1
    report = club.sight_report("Entrance", "Catwalk > Dance Floor")
    assert report.distance == 1 and report.target == "Catwalk>Dance Floor"


def test_range_zero_in_own_area_and_when_moving_out_of_it(club: ZoneGraph) -> None:
    assert club.range_between("Bar", "Bar") == 0
    assert club.range_between("Bar", "Bar>Kitchen") == 0


# -- cover (seed, Cover) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "target", "cover"),
    [
        ("Dance Floor", "Bar", True),  # the mark at the Bar end of Dance Floor - Bar
        ("Catwalk", "Bar", False),  # the dashed line carries no mark
        ("Bar", "Dance Floor", False),  # the mark is at the attacker's end
        ("DJ Booth", "Bar", True),  # one of the two shortest paths ends with a mark at the Bar
    ],
)
def test_seed_cover_examples(club: ZoneGraph, attacker: str, target: str, cover: bool) -> None:
    report = club.sight_report(attacker, target)
    assert report.visible
    assert report.in_cover is cover and report.cover == int(cover)


def test_dj_booth_and_bar_both_have_cover_against_each_other(club: ZoneGraph) -> None:
    # DJ Booth -> Bar: two shortest paths, DJ Booth > Catwalk > Bar (no mark counted: the
    # DJ Booth mark is the attacker's own) and DJ Booth > Dance Floor > Bar (one mark, at the
    # Bar): visible, and the second path gives the Bar cover.
    forward = club.sight_report("DJ Booth", "Bar")
    assert (forward.visible, forward.cover) == (True, True)
    assert [p["areas"] for p in forward.details["paths"]] == [
        ["DJ Booth", "Catwalk", "Bar"],
        ["DJ Booth", "Dance Floor", "Bar"],
    ]
    assert [p["target_cover"] for p in forward.details["paths"]] == [False, True]
    # Bar -> DJ Booth: both paths end with the mark at the DJ Booth (on Catwalk - DJ Booth and
    # on Dance Floor - DJ Booth), one mark counted each: visible, the DJ Booth has cover.
    backward = club.sight_report("Bar", "DJ Booth")
    assert (backward.visible, backward.cover) == (True, True)
    assert [p["cover_marks_counted"] for p in backward.details["paths"]] == [1, 1]
    assert all(p["target_cover"] for p in backward.details["paths"])


def test_no_cover_at_range_zero_even_when_boxed_in(club: ZoneGraph) -> None:
    # Melee is range 0, so this is also "no cover against melee".
    report = club.sight_report("DJ Booth", "DJ Booth")
    assert (report.visible, report.cover, report.distance) == (True, False, 0)


def test_no_cover_while_moving(club: ZoneGraph) -> None:
    assert club.sight_report("Dance Floor", "Bar").cover
    moving = club.sight_report("Dance Floor", "Bar>Kitchen")
    assert moving.visible and not moving.cover
    assert any("no cover while moving" in r for r in moving.reasons)
    assert moving.details["moving"] == {"source": None, "target": ["Bar", "Kitchen"]}


# -- line of sight (seed, Line of Sight) ----------------------------------------------------


def test_alley_sees_kitchen_not_bar(club: ZoneGraph) -> None:
    assert club.sight_report("Alley", "Kitchen").visible
    bar = club.sight_report("Alley", "Bar")
    assert not bar.visible
    (path,) = bar.details["paths"]
    assert path["areas"] == ["Alley", "Kitchen", "Bar"]
    assert [m["at"] for m in path["marks"] if m["counted"]] == ["Kitchen", "Kitchen"]


def test_pool_tables_sees_bar_not_kitchen(club: ZoneGraph) -> None:
    bar = club.sight_report("Pool Tables", "Bar")
    assert bar.visible
    (path,) = bar.details["paths"]
    # The Pool Tables mark is at the attacker's own area: not counted.
    assert [(m["at"], m["counted"]) for m in path["marks"]] == [
        ("Pool Tables", False),
        ("Bar", True),
    ]
    kitchen = club.sight_report("Pool Tables", "Kitchen")
    assert not kitchen.visible
    assert kitchen.details["paths"][0]["cover_marks_counted"] == 2


def test_dj_booth_sees_dj_booth(club: ZoneGraph) -> None:
    assert club.sight_report("DJ Booth", "DJ Booth").visible


def test_catwalk_and_dance_floor_see_each_other_but_cannot_move_directly(club: ZoneGraph) -> None:
    assert club.sight_report("Catwalk", "Dance Floor").visible
    assert club.sight_report("Dance Floor", "Catwalk").visible
    assert not club.can_move("Catwalk", "Dance Floor")
    assert not club.can_move("Dance Floor", "Catwalk")
    assert club.move_path("Catwalk", "Dance Floor") == ("Catwalk", "DJ Booth", "Dance Floor")


def test_the_literal_count_is_not_always_symmetric(club: ZoneGraph) -> None:
    # A consequence of "not including your area": from the Kitchen its own mark on Bar - Kitchen
    # is skipped (one mark counted, at the Bar), from the Dance Floor it is not (two marks).
    for far in ("Dance Floor", "Entrance"):
        assert club.sight_report("Kitchen", far, symmetry="literal").visible
        back = club.sight_report(far, "Kitchen", symmetry="literal")
        assert not back.visible
        assert any("one-way by the literal count" in r and "symmetry=literal" in r
                   for r in back.reasons)


def test_sight_is_symmetric_by_default_whoever_is_seen_sees_back(club: ZoneGraph) -> None:
    # "I advise against making a one-way line of sight": symmetry=either (the default).
    for far in ("Dance Floor", "Entrance"):
        there, back = club.sight_report("Kitchen", far), club.sight_report(far, "Kitchen")
        assert there.visible and back.visible
        assert back.cover == 1  # the Kitchen's mark on Bar - Kitchen still gives it cover
        assert any("symmetric by ruling (symmetry=either" in r for r in back.reasons)
        assert back.details["pairs"][0]["one_way"] is True


def test_symmetry_both_denies_sight_the_count_gives_one_way(club: ZoneGraph) -> None:
    assert not club.sight_report("Kitchen", "Dance Floor", symmetry="both").visible
    assert not club.sight_report("Dance Floor", "Kitchen", symmetry="both").visible


def test_every_pair_of_nightclub_areas_sees_both_ways_or_neither(club: ZoneGraph) -> None:
    for mode in ("either", "both"):
        for a in club.areas:
            for b in club.areas:
                assert (club.sight_report(a, b, symmetry=mode).visible
                        == club.sight_report(b, a, symmetry=mode).visible), (mode, a, b)


def test_report_to_dict_has_the_evidence(club: ZoneGraph) -> None:
    data = club.sight_report("Alley", "Bar").to_dict()
    assert {"visible", "cover", "range", "paths", "options", "from", "to"} <= set(data)
    assert data["range"] == 2 and data["distance"] == 2
    assert data["options"] == {"sight_only_range": "yes", "blocked_if": "any",
                               "closed_doors": "block", "x_lines": "veto",
                               "symmetry": "either"}
    mark = data["paths"][0]["marks"][0]
    assert mark == {"between": ["Alley", "Kitchen"], "at": "Kitchen", "counted": True}
    assert "blocks sight" in club.sight_report("Alley", "Bar").explain()


# -- the readings a game chooses (sight options) ----------------------------------------------


def test_unh1_no_dashed_lines_do_not_count_for_range_but_still_carry_sight(club: ZoneGraph) -> None:
    assert club.range_between("Entrance", "Catwalk", sight_only_range="no") == 3
    assert club.range_between("Catwalk", "Dance Floor", sight_only_range="no") == 2
    report = club.sight_report("Catwalk", "Dance Floor", sight_only_range="no")
    assert report.visible and report.distance == 2
    assert report.details["paths"][0]["areas"] == ["Catwalk", "Dance Floor"]


def test_unh2_every_sees_through_when_one_shortest_path_is_clear(club: ZoneGraph) -> None:
    # DJ Booth -> Kitchen: over the Catwalk one mark counts (at the Kitchen), over the Dance
    # Floor two (at the Bar and at the Kitchen).
    default = club.sight_report("DJ Booth", "Kitchen")
    assert [p["cover_marks_counted"] for p in default.details["paths"]] == [1, 2]
    assert not default.visible
    every = club.sight_report("DJ Booth", "Kitchen", blocked_if="every")
    assert every.visible and every.cover
    assert every.details["options"]["blocked_if"] == "every"


def test_unknown_option_or_value_lists_the_allowed_ones(club: ZoneGraph) -> None:
    with pytest.raises(MapError, match=r"unknown sight option 'policy'.*blocked_if \(any\|every"):
        club.sight_report("Bar", "Alley", policy="touch")
    with pytest.raises(MapError, match=r"blocked_if: expected one of any, every"):
        club.sight_report("Bar", "Alley", blocked_if="some")
    with pytest.raises(MapError, match="sight_only_range"):
        club.range_between("Bar", "Alley", sight_only_range="maybe")


def test_unknown_area_suggests_close_names(club: ZoneGraph) -> None:
    with pytest.raises(MapError, match=r"unknown area 'Dj Booth'.*did you mean 'DJ Booth'"):
        club.sight_report("Dj Booth", "Bar")


def test_moving_between_areas_without_a_connection_is_refused(club: ZoneGraph) -> None:
    with pytest.raises(MapError, match="no connection joins them"):
        club.sight_report("Bar", "Alley>Entrance")
    with pytest.raises(MapError, match="no connection joins them"):
        club.place(("Bar", "Bar"))


def test_shortest_paths_are_remembered_within_their_bound(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Sight between two areas is asked for again and again: a map remembers the shortest
    paths it found, at most PATHS_KEPT area names in all (then it forgets them and starts
    again), and answers the same either way."""
    from tactica.battlefield.zones import graph as zone_graph

    areas = [f"R{i}" for i in range(30)]
    links = [{"between": [areas[i], areas[i + 1]]} for i in range(29)]
    links += [{"between": [areas[i], areas[(i * 7 + 3) % 30]]} for i in range(0, 30, 2)
              if (i * 7 + 3) % 30 not in (i, i + 1, i - 1)]
    g = ZoneGraph.from_mapping({"kind": "zones", "areas": areas, "connections": links})
    fresh = {(a, b): g.sight_report(a, b) for a in areas[::3] for b in areas[::4]}
    assert g._paths and g._paths_held[0] <= zone_graph.PATHS_KEPT
    monkeypatch.setattr(zone_graph, "PATHS_KEPT", 40)
    again = ZoneGraph.from_mapping({"kind": "zones", "areas": areas, "connections": links})
    for (a, b), report in fresh.items():
        assert again.sight_report(a, b) == report
        assert again._paths_held[0] <= 40
