"""Melee: 5 AP, target number 4, no cover, resolved when the target activates."""

from __future__ import annotations

import pytest
from ski_builders import advance, of, ready, soldier, take, trooper

from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.fire import melee_damage, melee_tn
from tactica.rulesets.skirmishers.melee import melee_weapons

pytestmark = pytest.mark.both_engines

PAIR = """
A B . .
 . . . .
"""


def to_blue_turn(b) -> None:  # type: ignore[no-untyped-def]
    """End A's activation and red's turn."""
    if b.state.active == "A":
        take(b, r.EndActivation("A"))
    advance(b)


@pytest.mark.reference_only  # no step played after the set-up
def test_fists_strike_half_the_current_maximum_ap_at_target_number_4() -> None:
    """Worked example (derived): fists for a trooper whose current maximum is 8 AP: 4
    bludgeoning; melee target number 4."""
    b = ready(PAIR, A=trooper("red"), B=trooper("blue"))
    assert melee_damage(b.state, "A", "fists") == (0, 4)
    assert melee_tn(b.state, "A", "B").tn == 4


@pytest.mark.reference_only  # no step played after the set-up
def test_fists_with_an_odd_maximum_round_down_or_up_ski_19() -> None:
    b = ready(PAIR, A=trooper("red", marks="....X......"), B=trooper("blue"))
    assert b.state.max_ap(soldier(b, "A")) == 7 and melee_damage(b.state, "A", "fists") == (0, 3)
    up = ready(PAIR, rulings={"SKI-19": "up"}, A=trooper("red", marks="....X......"),
               B=trooper("blue"))
    assert melee_damage(up.state, "A", "fists") == (0, 4)


@pytest.mark.reference_only  # no step played after the set-up
def test_melee_ignores_cover_but_not_prone_or_damage() -> None:
    wall = [{"between": [[0, 0], [1, 0]], "kind": "low-wall"}]
    b = ready(PAIR, features=wall, A=trooper("red", marks="....X......"),
              B=trooper("blue", prone=True))
    assert melee_tn(b.state, "A", "B").tn == 4 - 1 + 2


def test_the_weapons_at_hand_fists_the_bayonet_or_the_firearm_as_a_club_ski_28() -> None:
    b = ready(PAIR, A=trooper("red"), B=trooper("blue", "pistol"))
    assert melee_weapons(b.state, "A") == ["fists", "bayonet", "club"]   # rifles carry one
    assert melee_weapons(b.state, "B") == ["fists", "club"]
    assert melee_damage(b.state, "A", "bayonet") == (3, 0)
    assert melee_damage(b.state, "A", "club") == (1, 4)
    take(b, r.Activate("A"))
    take(b, r.ChangeWeapon("A", "knife"))
    assert melee_weapons(b.state, "A") == ["fists", "knife"]


def test_a_melee_attack_costs_5_ap_and_is_rolled_when_the_target_activates() -> None:
    b = ready(PAIR, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    (declared,) = of(take(b, r.Melee("A", "B", "bayonet")), r.MeleeDeclared)
    assert declared.ap == 5 and soldier(b, "A").ap_spent == 5
    assert soldier(b, "B").hp == 10
    to_blue_turn(b)
    events = take(b, r.Activate("B"), rolls=[[2, 2], [3, 4]])
    (rolled,) = of(events, r.MeleeResolved)
    assert rolled.tn == 4 and rolled.hit
    (hit,) = of(events, r.Hit)
    assert hit.lethal == 3 and hit.start == 7 and hit.hp == 4
    assert b.state.melee == ()


def test_the_attack_is_resolved_before_the_target_acts() -> None:
    b = ready(PAIR, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    take(b, r.Melee("A", "B", "club"))
    to_blue_turn(b)
    events = take(b, r.Activate("B"), rolls=[[1, 2]])
    assert of(events, r.MeleeResolved)[0].hit is False
    assert b.state.active == "B"          # now B acts


@pytest.mark.reference_only  # the kernel refuses: C has an explosive active from the start
def test_an_attack_lapses_when_the_attacker_is_out_of_action() -> None:
    """A goes for B; then C's grenade, meant for B, kills A at the end of red's turn: when B
    activates, A's attack lapses."""
    b = ready("A B . .\n . . . .\n. . C .", A=trooper("red"), B=trooper("blue"),
              C=trooper("red", active="hand-grenade"))
    take(b, r.Activate("A"))
    take(b, r.Melee("A", "B", "fists"))
    take(b, r.EndActivation("A"))
    take(b, r.Activate("C"))
    take(b, r.Throw("C", "hand-grenade", "0,0"))
    take(b, r.EndActivation("C"))
    events = advance(b, rolls=[[2, 2], [1, 1], [6, 6]])
    assert of(events, r.OutOfAction)[0].unit == "A" and soldier(b, "A").dead
    assert b.state.melee == ()
    advance(b)
    events = take(b, r.Activate("B"))
    assert not of(events, r.MeleeResolved)
