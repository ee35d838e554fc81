"""Movement in AP: the card's current column, the 8 AP cap, the whole cost table."""

from __future__ import annotations

import pytest
from ski_builders import of, ready, soldier, take, trooper

from tactica.engine.errors import IllegalActionError
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.movement import reachable

pytestmark = pytest.mark.both_engines

ROW = """
A . . . . . . . . . . . B
 . . . . . . . . . . . . .
"""


def moved(b, to: str) -> list[int]:  # type: ignore[no-untyped-def]
    return [e.ap for e in of(take(b, r.Move("A", to)), r.Stepped)]


def test_an_adjacent_dot_with_nothing_between_costs_1_ap() -> None:
    b = ready(ROW, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    assert moved(b, "3,0") == [1, 1, 1] and soldier(b, "A").ap_spent == 3


@pytest.mark.parametrize(("kind", "cost"), [("low-wall", 2), ("fence", 2), ("furniture", 2),
                                            ("vegetation", 2), ("door", 2), ("window", 4)])
def test_crossing_an_obstruction_a_door_or_a_window(kind: str, cost: int) -> None:
    """A wall around A's dot with one opening toward the east: the way out pays for it."""
    walls = [{"between": [[1, 0], [2, 0]], "kind": kind}]
    walls += [{"between": [[1, 0], [x, y]], "kind": "high-wall"}
              for x, y in ((1, 1), (0, 1), (0, 0))]
    b = ready(ROW.replace("A . .", ". A ."), features=walls, A=trooper("red"),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    assert moved(b, "2,0") == [cost]


@pytest.mark.reference_only  # no step played after the set-up
def test_impassable_obstacles_cannot_be_crossed() -> None:
    walls = [{"between": [[0, 0], [1, 0]], "kind": "high-wall"},
             {"between": [[0, 0], [0, 1]], "kind": "high-wall"}]
    b = ready(ROW, features=walls, A=trooper("red"), B=trooper("blue"))
    assert reachable(b.state, "A") == {next(iter(reachable(b.state, "A"))): 0}


def test_changing_level_costs_3_ap_on_the_same_dot() -> None:
    b = ready(ROW, upper=[". - - - - - - - - - - - -"], stairs=[[0, 0]], A=trooper("red"),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    assert moved(b, "0,0@1") == [3]


def test_going_prone_costs_1_standing_up_2_and_moving_prone_costs_double() -> None:
    b = ready(ROW, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    assert of(take(b, r.GoProne("A")), r.PoseChanged)[0].ap == 1
    assert moved(b, "2,0") == [2, 2]
    assert of(take(b, r.StandUp("A")), r.PoseChanged)[0].ap == 2
    assert soldier(b, "A").ap_spent == 7


def test_changing_weapon_costs_3_taking_equipment_6_and_dropping_a_weapon_nothing() -> None:
    b = ready("A C . . B\n . . . . .", A=trooper("red"), C=trooper("red", "smg"),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    assert of(take(b, r.ChangeWeapon("A", "hand-grenade")), r.WeaponChanged)[0].ap == 3
    assert soldier(b, "A").active == "hand-grenade"
    take(b, r.DropWeapon("A", "knife"))
    assert "knife" not in soldier(b, "A").weapons and soldier(b, "A").ap_spent == 3
    b = ready("A C . . B\n . . . . .", A=trooper("red"), C=trooper("red", "smg"),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    (e,) = of(take(b, r.TakeEquipment("A", "C", "smg")), r.EquipmentTaken)
    assert e.ap == 6 and "smg" in soldier(b, "A").weapons and "smg" not in soldier(b, "C").weapons


def test_grenades_may_be_taken_from_a_trooper_out_of_action() -> None:
    b = ready("A C . . B\n . . . . .", A=trooper("red"), C=trooper("red", marks="X.........."),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    take(b, r.TakeEquipment("A", "C", "hand-grenade"))
    assert soldier(b, "A").ammo("hand-grenade") == 8 and soldier(b, "C").ammo("hand-grenade") == 0


def test_the_ap_come_from_the_cards_current_column() -> None:
    """At 5 HP a regular trooper has 7 AP: it reaches 7 dots, not 8."""
    b = ready(ROW, A=trooper("red", marks="....X......"), B=trooper("blue"))
    take(b, r.Activate("A"))
    assert max(reachable(b.state, "A").values()) == 7
    with pytest.raises(IllegalActionError):
        take(b, r.Move("A", "8,0"))


def test_at_most_8_ap_go_to_movement_even_for_an_elite_trooper() -> None:
    """Optional rule experience: elite +2 AP (10), movement still capped at 8; the 2 left may
    establish a 30 degree arc."""
    b = ready(ROW, optional=["experience"], A=trooper("red", experience="elite"),
              B=trooper("blue"))
    a = soldier(b, "A")
    assert b.state.max_ap(a) == 10
    take(b, r.Activate("A"))
    take(b, r.Move("A", "8,0"))
    assert reachable(b.state, "A") == {next(iter(reachable(b.state, "A"))): 0}
    assert r.EstablishArc("A", 30, 15) in b.legal_actions()


@pytest.mark.reference_only  # no step played after the set-up
def test_experience_changes_every_ap_value_only_when_the_optional_rule_is_on() -> None:
    plain = ready(ROW, A=trooper("red", experience="green"), B=trooper("blue"))
    assert plain.state.max_ap(soldier(plain, "A")) == 8
    green = ready(ROW, optional=["experience"], A=trooper("red", experience="green",
                                                           marks="....X......"),
                  B=trooper("blue"))
    assert green.state.max_ap(soldier(green, "A")) == 6


def test_nobody_enters_a_dot_another_trooper_holds() -> None:
    b = ready("A C B\n . . .", A=trooper("red"), C=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    assert r.Move("A", "1,0") not in b.legal_actions()
