"""Explosives: hand grenades and satchel charges, thrown, resolved at the end of the turn,
scattering on a miss, blasting by ring."""

from __future__ import annotations

import pytest
from ski_builders import advance, of, ready, soldier, take, trooper

from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.explosives import throw_cost

pytestmark = pytest.mark.both_engines

FIELD = """
A . . . . . . .
 . . . . . . . .
. . . . . B . .
 . . . . . . . .
"""
GRENADIER = {"active": "hand-grenade"}


def thrown(b, at: str, *, stairwell: bool = False,  # type: ignore[no-untyped-def]
           unit: str = "A", explosive: str = "hand-grenade") -> r.ExplosiveThrown:
    if b.state.active != unit:
        take(b, r.Activate(unit))
    return of(take(b, r.Throw(unit, explosive, at, stairwell)), r.ExplosiveThrown)[0]


def done(b) -> None:  # type: ignore[no-untyped-def]
    """A's activation is over (it may have ended by itself, its AP spent)."""
    if b.state.active == "A":
        take(b, r.EndActivation("A"))


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_grenade_thrown_4_dots_costs_4_ap_at_target_number_4() -> None:
    """Worked example (derived): 4 dots, 4 AP, target number 4; thrown prone 8 AP and target
    number 8 (SKI-5)."""
    b = ready(FIELD.replace(". . . . . . . .\n", ". . . . . . . .\n", 1),
              A=trooper("red", **GRENADIER), B=trooper("blue"))
    e = thrown(b, "4,0")
    assert (e.ap, e.tn) == (4, 4)
    prone = ready(FIELD, A=trooper("red", prone=True, **GRENADIER), B=trooper("blue"))
    e = thrown(prone, "4,0")
    assert (e.ap, e.tn) == (8, 8)
    minus = ready(FIELD, rulings={"SKI-38": "minus-one"},
                  A=trooper("red", prone=True, **GRENADIER), B=trooper("blue"))
    e = thrown(minus, "4,0")
    assert (e.ap, e.tn) == (8, 7)                          # a prone thrower's -1 (SKI-38)
    before = ready(FIELD, rulings={"SKI-5": "before-doubling"},
                   A=trooper("red", prone=True, **GRENADIER), B=trooper("blue"))
    e = thrown(before, "4,0")
    assert (e.ap, e.tn) == (8, 4)


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_satchel_charge_costs_2_ap_per_dot_and_takes_the_secondary_slot() -> None:
    b = ready(FIELD, A=trooper("red", secondary="satchel-charge", active="satchel-charge"),
              B=trooper("blue"))
    assert soldier(b, "A").ammo("satchel-charge") == 1
    assert throw_cost(b.state, "A", "satchel-charge", 3) == (6, 6)
    take(b, r.Activate("A"))
    targets = {a.at for a in b.legal_actions() if isinstance(a, r.Throw)}
    assert "4,0" in targets and "5,0" not in targets         # 8 AP: 4 dots at most


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_after_a_throw_the_trooper_switches_back_for_0_ap_and_may_not_establish_an_arc() -> None:
    b = ready(FIELD, A=trooper("red", **GRENADIER), B=trooper("blue"))
    take(b, r.Activate("A"))
    events = take(b, r.Throw("A", "hand-grenade", "2,0"))
    (back,) = of(events, r.WeaponChanged)
    assert back.weapon == "rifle" and back.ap == 0
    assert soldier(b, "A").ammo("hand-grenade") == 3
    assert not [a for a in b.legal_actions() if isinstance(a, r.EstablishArc)]


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_explosives_go_off_at_the_end_of_the_sides_turn_by_ring() -> None:
    """A grenade on B's dot: B takes 6X (its own start cell), a trooper next to it 3X, two dots
    away 1X (SKI-22: each its own roll)."""
    b = ready(FIELD.replace(". . . . . B . .", ". . . . C B D ."),
              A=trooper("red", **GRENADIER), B=trooper("blue"), C=trooper("blue"),
              D=trooper("blue"))
    e = thrown(b, "5,2")
    assert b.state.tokens and soldier(b, "B").hp == 10
    done(b)
    events = advance(b, rolls=[[6, 6], [5, 5], [5, 5], [6, 6]])
    (boom,) = of(events, r.ExplosiveResolved)
    assert boom.hit and boom.landing == "5,2" and e.tn <= 12
    lethal = {h.unit: h.lethal for h in of(events, r.Hit)}
    assert lethal == {"B": 6, "C": 3, "D": 3}
    assert not b.state.tokens


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_one_start_roll_for_the_whole_explosion_under_the_other_reading_ski_22() -> None:
    b = ready(FIELD.replace(". . . . . B . .", ". . . . C B . ."), rulings={"SKI-22": "one-roll"},
              A=trooper("red", **GRENADIER), B=trooper("blue"), C=trooper("blue"))
    thrown(b, "5,2")
    done(b)
    events = advance(b, rolls=[[6, 6], [4, 4]])
    assert {h.start for h in of(events, r.Hit)} == {8}


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_miss_scatters_one_dot_in_the_rolled_direction_ski_6() -> None:
    b = ready(FIELD, A=trooper("red", **GRENADIER), B=trooper("blue"))
    thrown(b, "5,2")
    done(b)
    events = advance(b, rolls=[[1, 1], [4], [6, 6]])          # 4: west
    (boom,) = of(events, r.ExplosiveResolved)
    assert not boom.hit and boom.landing == "4,2" and "west" in boom.note
    assert of(events, r.Hit)[0].lethal == 3                     # B is now 1 dot away


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_scatter_through_an_impassable_obstacle_stays_on_the_dot() -> None:
    wall = [{"between": [[5, 2], [6, 2]], "kind": "high-wall"}]
    b2 = ready(FIELD, features=wall, A=trooper("red", **GRENADIER), B=trooper("blue"))
    thrown(b2, "5,2")
    done(b2)
    events = advance(b2, rolls=[[1, 1], [1], [6, 6]])          # 1: east, into the wall
    assert of(events, r.ExplosiveResolved)[0].landing == "5,2"


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_scatter_distance_of_1d6_dots_under_the_other_reading_ski_6() -> None:
    b = ready(FIELD, rulings={"SKI-6": "d6-dots"}, A=trooper("red", **GRENADIER),
              B=trooper("blue"))
    thrown(b, "5,2")
    done(b)
    events = advance(b, rolls=[[1, 1], [4], [3]])
    assert of(events, r.ExplosiveResolved)[0].landing == "2,2" and not of(events, r.Hit)


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_an_explosive_scattering_off_the_map_is_lost_or_stays_ski_33() -> None:
    for ruling, landing in (("lost", None), ("stays", "7,2")):
        b = ready(FIELD.replace(". . . . . B . .", ". . . . . . . B"),
                  rulings={"SKI-33": ruling}, A=trooper("red", **GRENADIER),
                  B=trooper("blue"))
        thrown(b, "7,2")
        done(b)
        rolls = [[1, 1], [1]] + ([[6, 6]] if landing else [])
        events = advance(b, rolls=rolls)
        assert of(events, r.ExplosiveResolved)[0].landing == landing


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_an_obstacle_shelters_and_a_low_wall_shelters_a_prone_trooper() -> None:
    walls = [{"between": [[5, 2], [6, 2]], "kind": "high-wall"},
             {"between": [[5, 2], [4, 2]], "kind": "low-wall"}]
    b = ready(FIELD.replace(". . . . . B . .", ". . . . C B D ."), features=walls,
              A=trooper("red", **GRENADIER), B=trooper("blue"), C=trooper("blue", prone=True),
              D=trooper("blue"))
    thrown(b, "5,2")
    done(b)
    events = advance(b, rolls=[[6, 6], [6, 6]])
    # C lies behind the low wall, D stands behind the high wall: only B is hit.
    assert [h.unit for h in of(events, r.Hit)] == ["B"]


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_stairwell_throw_costs_3_ap_down_any_number_of_levels() -> None:
    b = ready("A . . .\n . . . .", upper=[". . - -", "B . - -"], stairs=[[0, 0]],
              A=trooper("red", **GRENADIER, at=[1, 0], level="second"),
              B=trooper("blue", at=[0, 0]))
    take(b, r.Activate("A"))
    throws = {(a.at, a.stairwell) for a in b.legal_actions() if isinstance(a, r.Throw)}
    assert ("0,0", True) in throws and ("0,0@1", True) in throws
    e = thrown(b, "0,0", stairwell=True)
    assert (e.ap, e.tn) == (3, 3)


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_miss_through_an_upper_window_falls_and_scatters_from_the_ground_ski_39() -> None:
    """A grenade thrown from the street at a first-floor room through its window misses: it
    scatters from the dot before the window, which has no floor up there: the ground below."""
    house = [{"name": "House", "from": [4, 0], "to": [6, 2], "floors": 2,
              "windows": [{"at": [4, 1], "towards": "west", "level": "first"}]}]
    b = ready(". . . . . . .\n . . . . . . .\n. . . . . . .", buildings=house,
              A=trooper("red", active="hand-grenade", at=[1, 1]),
              B=trooper("blue", at=[5, 1], level="first"))
    e = thrown(b, "5,1@1")
    assert e.origin == "3,1"
    done(b)
    events = advance(b, rolls=[[1, 1], [4], [6, 6]])         # a miss; 4: west, next to A
    assert of(events, r.ExplosiveResolved)[0].landing == "2,1"
