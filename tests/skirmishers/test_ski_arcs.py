"""Firing arcs and reaction fire (the infantry combat chapter's firing arcs and resolving
fire, rulings SKI-3, SKI-8 and SKI-18)."""

from __future__ import annotations

import pytest
from ski_builders import of, ready, soldier, take, trooper

from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import HOLD, holds_dot

pytestmark = pytest.mark.both_engines

LANE = """
A . . . . . . B
 . . . . . . . .
. . . . . . . .
"""
MISS = [1, 1]
HIT = [6, 6]


def arc_shots(primary: str, width: int) -> tuple[int, int]:
    b = ready(LANE, A=trooper("red", primary), B=trooper("blue"))
    take(b, r.Activate("A"))
    (e,) = of(take(b, r.EstablishArc("A", width, 0 if width == 60 else 15)), r.ArcEstablished)
    return e.shots, e.ap


def test_arc_sizes_shots_and_ap() -> None:
    """Worked example (quoted): a 60 degree arc has 2 base shots: a pistol (x2) gets 4, an SMG
    (x3) gets 6. 30 degrees: 1 shot, 2 AP; 60: 2 shots, 4 AP; 150: 4 shots, 6 AP."""
    assert arc_shots("pistol", 60) == (4, 4)
    assert arc_shots("smg", 60) == (6, 4)
    assert arc_shots("rifle", 30) == (1, 2)
    assert arc_shots("rifle", 60) == (2, 4)
    assert arc_shots("rifle", 150) == (4, 6)


@pytest.mark.reference_only  # no step played after the set-up
def test_an_arc_may_point_any_way_and_its_edges_are_included_ski_8() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    arc = soldier(b, "B").arc
    assert arc is not None
    vertex = b.state.lattice.trooper("B").dot
    on_edge = (vertex[0] - 1, vertex[1] - 1)     # exactly 30 degrees off the axis (north-west)
    assert holds_dot(b.state, vertex, arc, on_edge)
    assert not holds_dot(b.state, vertex, arc, (vertex[0], vertex[1] - 1))  # 60 degrees off


def test_an_enemy_activating_in_an_arc_may_be_shot_before_it_moves() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    events = take(b, r.Activate("A"), rolls=[HIT, [3, 4]], decisions=["B"])
    (shot,) = of(events, r.ShotFired)
    assert (shot.unit, shot.target, shot.hit, shot.how) == ("B", "A", True, "arc")
    assert soldier(b, "A").hp == 3 and b.state.active == "A"
    assert soldier(b, "B").arc is not None and soldier(b, "B").arc.shots == 1


def test_the_firer_may_hold_its_fire_and_keep_its_shots() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    events = take(b, r.Activate("A"), decisions=[HOLD])
    assert not of(events, r.ShotFired) and soldier(b, "B").arc.shots == 2


def test_each_dot_entered_in_an_arc_draws_one_shot_per_firer_ski_18() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", "smg", arc=60, bearing=180))
    take(b, r.Activate("A"), decisions=[HOLD])
    events = take(b, r.Move("A", "3,0"), rolls=[MISS, MISS, MISS], decisions=["B", "B", "B"])
    assert [e.to for e in of(events, r.Stepped)] == ["1,0", "2,0", "3,0"]
    assert len(of(events, r.ShotFired)) == 3 and soldier(b, "B").arc.shots == 3


def test_once_per_arc_entry_under_the_other_reading_ski_18() -> None:
    b = ready(LANE, rulings={"SKI-18": "arc-entry"}, A=trooper("red"),
              B=trooper("blue", "smg", arc=60, bearing=180))
    take(b, r.Activate("A"), rolls=[MISS], decisions=["B"])
    events = take(b, r.Move("A", "3,0"))
    assert not of(events, r.ShotFired)


def test_every_firer_whose_arc_holds_the_mover_may_fire_in_any_order() -> None:
    b = ready(LANE.replace(". . . . . . . .\n", ". . . . . . . C\n", 1),
              A=trooper("red"), B=trooper("blue", arc=60, bearing=180),
              C=trooper("blue", arc=60, bearing=180))
    events = take(b, r.Activate("A"), rolls=[MISS, MISS], decisions=["C", "B"])
    assert [e.unit for e in of(events, r.ShotFired)] == ["C", "B"]


def test_an_arc_is_removed_once_its_shots_are_spent() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", arc=30, bearing=195))
    take(b, r.Activate("A"), rolls=[MISS], decisions=["B"])
    assert soldier(b, "B").arc is None


@pytest.mark.reference_only  # no step played after the set-up
def test_a_side_removes_its_arcs_at_the_start_of_its_turn() -> None:
    b = ready(LANE, first="blue", A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    assert soldier(b, "B").arc is None
    assert any(isinstance(e, r.ArcsRemoved) and e.units == ("B",) for e in b.events())


def test_a_mover_put_out_of_action_stops_at_once() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", "smg", arc=60, bearing=180))
    take(b, r.Activate("A"), decisions=[HOLD])
    events = take(b, r.Move("A", "3,0"), rolls=[HIT, [1, 2]], decisions=["B"])
    assert [e.to for e in of(events, r.Stepped)] == ["1,0"]
    assert of(events, r.OutOfAction) and not soldier(b, "A").in_action
    assert b.state.place("A").col == 1


def test_a_mover_who_loses_ap_goes_on_as_far_as_its_new_ap_reach() -> None:
    """A is hit on its second dot down to 2 HP (5 AP): it has 3 AP left, so the move stops
    after three more dots (the SMG's three shots of a 30 degree arc are spent on the way)."""
    b = ready("A . . . . . . . . . . B\n . . . . . . . . . . . .",
              A=trooper("red"), B=trooper("blue", "smg", arc=30, bearing=195))
    take(b, r.Activate("A"), decisions=[HOLD])
    events = take(b, r.Move("A", "8,0"), rolls=[HIT, [2, 3], MISS, MISS],
                  decisions=[HOLD, "B", "B", "B"])
    assert [e.hp for e in of(events, r.Hit)] == [2]
    assert [e.to for e in of(events, r.Stepped)] == ["1,0", "2,0", "3,0", "4,0", "5,0"]
    assert of(events, r.MoveHalted) and soldier(b, "A").ap_spent == 5


def test_a_mover_whose_new_ap_no_longer_cover_the_ap_spent_falls_prone_and_stops_ski_3() -> None:
    b = ready("A . . . . . . . . . . B\n . . . . . . . . . . . .",
              A=trooper("red"), B=trooper("blue", "smg", arc=30, bearing=195))
    take(b, r.Activate("A"), decisions=[HOLD])
    events = take(b, r.Move("A", "8,0"), rolls=[HIT, [2, 3]],
                  decisions=[HOLD, HOLD, HOLD, HOLD, HOLD, "B"])
    assert [e.to for e in of(events, r.Stepped)][-1] == "6,0"      # 6 AP spent, 5 left
    assert of(events, r.FellProne) and soldier(b, "A").prone and b.state.active is None


def test_standing_up_in_an_arc_draws_fire_from_firers_that_did_not_fire_on_this_dot() -> None:
    b = ready(LANE.replace(". . . . . . . .\n", ". . . . . . . C\n", 1),
              A=trooper("red", prone=True), B=trooper("blue", arc=60, bearing=180),
              C=trooper("blue", arc=60, bearing=180))
    take(b, r.Activate("A"), rolls=[MISS], decisions=["B", HOLD])
    events = take(b, r.StandUp("A"), rolls=[MISS], decisions=["C"])
    assert [e.unit for e in of(events, r.ShotFired)] == ["C"]


def test_changing_level_on_the_same_dot_triggers_again_ski_18() -> None:
    b = ready("A . . . . B\n . . . . . .", upper=[". - - - - -"],
              stairs=[[0, 0]], A=trooper("red"), B=trooper("blue", "smg", arc=150,
                                                            bearing=195))
    take(b, r.Activate("A"), rolls=[MISS], decisions=["B"])
    events = take(b, r.Move("A", "0,0@1"), rolls=[MISS], decisions=["B"])
    assert [e.to for e in of(events, r.Stepped)] == ["0,0@1"]
    assert len(of(events, r.ShotFired)) == 1


def test_nothing_fires_at_an_enemy_out_of_sight() -> None:
    wall = [{"between": [[5, 0], [6, 0]], "kind": "high-wall"}]
    b = ready(LANE, features=wall, A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    assert not of(take(b, r.Activate("A")), r.ShotFired)
