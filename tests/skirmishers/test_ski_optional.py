"""The optional rules (scenario switches, off by default) and the rulings that change a
battle's course: movement fire, advanced body armor, SKI-3, SKI-25, SKI-29, SKI-31, SKI-36."""

from __future__ import annotations

import pytest
from ski_builders import advance, of, ready, soldier, take, trooper

from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.movement import DROP_PRONE, STAY_UP

pytestmark = pytest.mark.both_engines

LANE = """
A . . . . B
 . . . . . .
"""


def test_movement_fire_costs_2_ap_at_plus_2_and_the_target_may_drop_prone() -> None:
    off = ready(LANE, A=trooper("red"), B=trooper("blue"))
    take(off, r.Activate("A"))
    assert not [a for a in off.legal_actions() if isinstance(a, r.MovementFire)]
    b = ready(LANE, optional=["movement-fire"], A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    assert r.MovementFire("A", "B") in b.legal_actions()
    events = take(b, r.MovementFire("A", "B"), rolls=[[1, 1]], decisions=[DROP_PRONE])
    assert of(events, r.PoseChanged)[0].ap == 0 and soldier(b, "B").prone
    (shot,) = of(events, r.ShotFired)
    assert shot.tn == 6 + 2 + 1 and shot.how == "movement"     # +2, and B prone 5 dots away
    a = soldier(b, "A")
    assert (a.ap_spent, a.move_spent) == (2, 2)


def test_movement_fire_outside_the_8_ap_cap_under_the_other_reading_ski_36() -> None:
    b = ready(LANE, optional=["movement-fire"], rulings={"SKI-36": "apart"},
              A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    take(b, r.MovementFire("A", "B"), rolls=[[1, 1]], decisions=[STAY_UP])
    a = soldier(b, "A")
    assert (a.ap_spent, a.move_spent) == (2, 0)


def test_advanced_body_armor_protects_cells_instead_of_its_own_cells() -> None:
    b = ready(LANE, optional=["advanced-armor"], A=trooper("red", armor="standard"),
              B=trooper("blue", arc=60, bearing=180))
    assert soldier(b, "A").armor_left == 0 and b.state.max_ap(soldier(b, "A")) == 6
    events = take(b, r.Activate("A"), rolls=[[6, 6], [4, 4]], decisions=["B"])
    (hit,) = of(events, r.Hit)
    assert hit.marks == "..////....." and hit.hp == 10     # 8 7 6 5 protected: \ only


@pytest.mark.reference_only  # no step played after the set-up
def test_destroyed_body_armor_keeps_or_lifts_its_ap_change_ski_25() -> None:
    stays = ready(LANE, A=trooper("red", armor="basic", armor_left=0), B=trooper("blue"))
    assert stays.state.max_ap(soldier(stays, "A")) == 7
    lifted = ready(LANE, rulings={"SKI-25": "lifted"},
                   A=trooper("red", armor="basic", armor_left=0), B=trooper("blue"))
    assert lifted.state.max_ap(soldier(lifted, "A")) == 8


def test_falling_prone_as_written_any_hit_on_a_trooper_who_spent_less_ski_3() -> None:
    b = ready(LANE, rulings={"SKI-3": "as-written"}, A=trooper("red"),
              B=trooper("blue", arc=60, bearing=180))
    events = take(b, r.Activate("A"), rolls=[[6, 6], [6, 6]], decisions=["B"])
    assert of(events, r.FellProne) and soldier(b, "A").prone
    default = ready(LANE, A=trooper("red"), B=trooper("blue", arc=60, bearing=180))
    events = take(default, r.Activate("A"), rolls=[[6, 6], [6, 6]], decisions=["B"])
    assert not of(events, r.FellProne)


def test_troopers_out_of_action_lie_on_their_dot_or_are_removed_ski_31() -> None:
    for ruling, on_map in (("lie", True), ("removed", False)):
        b = ready(LANE, rulings={"SKI-31": ruling}, A=trooper("red"),
                  B=trooper("blue", arc=60, bearing=180))
        take(b, r.Activate("A"), rolls=[[6, 6], [1, 2]], decisions=["B"])
        assert not soldier(b, "A").in_action
        assert ("A" in b.state.lattice.troopers) is on_map


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_an_explosives_target_number_at_the_throw_or_at_resolution_ski_29() -> None:
    """A throws at 4,0; then C steps onto the line: under 'resolution' the cover counts."""
    for ruling, extra in (("throw", 0), ("resolution", 1)):
        b = ready("A . . . . B\n . C . . . .", rulings={"SKI-29": ruling},
                  A=trooper("red", active="hand-grenade"), C=trooper("red"), B=trooper("blue"))
        take(b, r.Activate("A"))
        (thrown,) = of(take(b, r.Throw("A", "hand-grenade", "4,0")), r.ExplosiveThrown)
        take(b, r.EndActivation("A"))
        take(b, r.Activate("C"))
        take(b, r.Move("C", "2,0"))
        take(b, r.EndActivation("C"))
        events = advance(b, rolls=[[6, 6], [6, 6], [6, 6]])      # B 1 dot away, C 2
        assert of(events, r.ExplosiveResolved)[0].tn == thrown.tn + extra


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_throw_up_one_level_from_the_stairs() -> None:
    b = ready("A . . .\n . . . .", upper=[". B . .".replace("B", ".")], stairs=[[0, 0]],
              A=trooper("red", active="hand-grenade"), B=trooper("blue", at=[3, 1]))
    take(b, r.Activate("A"))
    throws = {(a.at, a.stairwell) for a in b.legal_actions() if isinstance(a, r.Throw)}
    assert ("0,0@1", True) in throws
    (e,) = of(take(b, r.Throw("A", "hand-grenade", "0,0@1", True)), r.ExplosiveThrown)
    assert e.ap == 3
