"""Healing in a fight (the actions chapter): the medhypo, bloodfoam, the medkit with a
Medicine check, the bandage; item costs (ARC-25), wound steps (ARC-26, ARC-27)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from arc_builders import gunner, make, of_type, started

from tactica.engine.battle import Battle, ScriptedDice
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.checks import speed_of
from tactica.rulesets.arc.policy import rank_actions
from tactica.rulesets.arc.records import (
    APSpent,
    Checked,
    EndTurn,
    Fell,
    Healed,
    ItemBegun,
    ItemFinished,
    ItemUsed,
    UseItem,
    Woke,
    Wounded,
    WoundsTreated,
)

pytestmark = pytest.mark.both_engines

MEDIC = {"side": "red", "character": "sam", "attributes": {"AGI": 7, "DEX": 4, "CON": 5},
         "items": {"medkit": 1, "medhypo": 1, "bandage": 2, "bloodfoam": 1}}


def ward(rulings: dict[str, str] | None = None) -> Battle[Any]:
    """Sam the medic (7 AP) acts first; Foo is down to 8 health with a d6 and a d4."""
    sc = make({"Sam": MEDIC, "Foo": gunner("red"), "Bar": gunner("blue")}, rulings=rulings)
    battle = started(sc, [18, 19, 20])
    ARC.apply_event(battle.state, Wounded("Foo", 10, "Bar", 8, (6, 4), (6, 4)))
    return Battle(ARC, battle.state)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_medkit_on_someone_else_costs_5_plus_2_ap_and_heals_1d12_plus_degrees() -> None:
    battle = ward()
    assert battle.state.active == "Sam" and battle.state.fighters["Sam"].ap == 7
    battle.apply(UseItem("Sam", "medkit", "Foo"), dice=ScriptedDice([12, [5], [1]]))
    events = battle.events()
    assert of_type(events, APSpent)[-1].ap == 7
    checked = of_type(events, Checked)[0]
    assert (checked.target_number, checked.success, checked.degree) == (14, True, 2)
    healed = of_type(events, Healed)[0]
    assert (healed.amount, healed.health) == (7, 15)          # 1d12 (5) + 2º
    assert of_type(events, WoundsTreated)[0].wounds == ()     # 1d4 (1) + 2º = 3 steps
    assert of_type(events, ItemUsed)[0].left == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_31_by_default_a_failed_medicine_check_has_no_beneficial_effect() -> None:
    """The actions chapter: "If the check fails, the attempt has no beneficial effect", and
    "each degree of failure removes 1 point of HP or adds 1 Wound step". Medicine 3, roll 4:
    failed at -0º; the medkit heals nothing, removes nothing, and adds one wound step."""
    battle = ward()
    sam = battle.state.fighters["Sam"]
    sam.profile = replace(sam.profile, skills=(("medicine", 3),))
    battle.apply(UseItem("Sam", "medkit", "Foo"), dice=ScriptedDice([4, [12], [4]]))
    events = battle.events()
    checked = of_type(events, Checked)[0]
    assert (checked.target_number, checked.success, checked.degree) == (3, False, 0)
    assert not of_type(events, Healed)
    assert battle.state.fighters["Foo"].health == 8
    assert of_type(events, WoundsTreated)[0].wounds == (6, 6)    # (6, 4) + 1 step
    assert battle.state.fighters["Sam"].item_count("medkit") == 0
    battle = ward()                                                # Medicine 14, roll 17
    battle.apply(UseItem("Sam", "bloodfoam", "Foo"), dice=ScriptedDice([17, [4]]))  # -3º
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (8, 8)   # 3 steps added


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_31_signed_a_failed_medkit_adds_its_negative_degrees_so_a_worse_failure_heals_less(
        ) -> None:
    """The medkit 'heals 1d12 + º and removes 1d4 + º wound steps': failing at -3º (17
    against 14) heals 1d12 - 3 and removes 1d4 - 3 steps (``signed``)."""
    battle = ward({"ARC-31": "signed"})
    battle.apply(UseItem("Sam", "medkit", "Foo"), dice=ScriptedDice([17, [5], [4]]))
    events = battle.events()
    assert of_type(events, Checked)[0].degree == -3
    assert of_type(events, Healed)[0].amount == 2                 # 5 - 3
    assert of_type(events, WoundsTreated)[0].wounds == (6,)       # 4 - 3 = 1 step: the d4
    battle = ward({"ARC-31": "signed"})
    battle.apply(UseItem("Sam", "medkit", "Foo"), dice=ScriptedDice([20, [4], [2]]))  # -4º
    assert not of_type(battle.events(), Healed)
    assert battle.state.fighters["Foo"].wounds == (6, 4)
    assert battle.state.fighters["Sam"].item_count("medkit") == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_31_harm_a_failed_medicine_check_raises_one_wound_step_per_degree() -> None:
    battle = ward({"ARC-31": "harm"})
    battle.apply(UseItem("Sam", "medkit", "Foo"), dice=ScriptedDice([17]))       # -3º
    assert not of_type(battle.events(), Healed)
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (8, 8)   # (6, 4) + 3 steps


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_31_flat_a_failed_medicine_check_does_nothing_but_the_item_is_used() -> None:
    battle = ward({"ARC-31": "flat"})
    battle.apply(UseItem("Sam", "medkit", "Foo"), dice=ScriptedDice([17]))
    assert not of_type(battle.events(), Healed)
    assert not of_type(battle.events(), WoundsTreated)
    assert battle.state.fighters["Sam"].item_count("medkit") == 0
    battle = ward({"ARC-31": "flat"})
    battle.apply(UseItem("Sam", "bandage", "Foo"), dice=ScriptedDice([18]))     # -3º
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (6, 6)   # one step only


@pytest.mark.reference_only  # no step played after the set-up
def test_a_medhypo_heals_2d4_without_a_check_up_to_maximum_health() -> None:
    battle = ward()
    battle.apply(UseItem("Sam", "medhypo", "Foo"), dice=ScriptedDice([[4, 4]]))
    assert of_type(battle.events(), APSpent)[-1].ap == 3       # 2 + 1 on someone else
    assert battle.state.fighters["Foo"].health == 16


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_25_an_item_costs_a_plus_b_even_on_oneself_and_other_charges_a_alone() -> None:
    for ruling, cost in (("total", 3), ("other", 2)):
        battle = ward({"ARC-25": ruling})
        ARC.apply_event(battle.state, Wounded("Sam", 5, "Bar", 13, (6,), (6,)))
        battle = Battle(ARC, battle.state)
        battle.apply(UseItem("Sam", "medhypo", "Sam"), dice=ScriptedDice([[1, 1]]))
        assert of_type(battle.events(), APSpent)[-1].ap == cost, ruling


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_25_by_default_a_medhypo_on_oneself_costs_2_plus_1() -> None:
    battle = ward()
    ARC.apply_event(battle.state, Wounded("Sam", 5, "Bar", 13, (6,), (6,)))
    battle = Battle(ARC, battle.state)
    battle.apply(UseItem("Sam", "medhypo", "Sam"), dice=ScriptedDice([[1, 1]]))
    assert of_type(battle.events(), APSpent)[-1].ap == 3


@pytest.mark.reference_only  # no step played after the set-up
def test_bloodfoam_removes_1d4_plus_degrees_wound_steps_smallest_first() -> None:
    battle = ward()
    battle.apply(UseItem("Sam", "bloodfoam", "Foo"), dice=ScriptedDice([5, [1]]))   # +1º
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (4,)   # d4 goes, d6 > d4


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_26_largest_first() -> None:
    battle = ward({"ARC-26": "largest"})
    battle.apply(UseItem("Sam", "bloodfoam", "Foo"), dice=ScriptedDice([5, [1]]))
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (4,)   # d6 > d4 > gone
    battle = ward({"ARC-26": "largest"})
    battle.apply(UseItem("Sam", "bloodfoam", "Foo"), dice=ScriptedDice([2, [1]]))  # +0º
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (4, 4)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_bandage_costs_2_ap_to_take_out_and_4_to_apply_as_in_the_source_example() -> None:
    """The actions chapter: "Dick ... takes out a bandage (2 AP) and attempts to apply it
    (4 AP)": 6 AP in all (ARC-25 ``total``); Sam's 7 AP leave 1."""
    battle = ward()
    assert battle.state.items["bandage"].cost == (2, 4)
    battle.apply(UseItem("Sam", "bandage", "Foo"), dice=ScriptedDice([3]))
    spent = of_type(battle.events(), APSpent)[-1]
    assert (spent.ap, spent.left) == (6, 1)
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (6,)
    battle = slow_ward()
    battle.state.fighters["Sam"].ap = 5                 # 5 AP: a bandage needs speed or a carry
    legal = battle.legal_actions()
    assert UseItem("Sam", "bandage", "Foo") not in legal
    assert UseItem("Sam", "bandage", "Foo", "speed") in legal


@pytest.mark.reference_only  # no step played after the set-up
def test_every_item_of_the_pack_costs_what_the_source_says() -> None:
    """The actions chapter: a medhypo (2 + 1 AP), bloodfoam (2 + 1 AP), a medkit (5 + 2 AP),
    a bandage taken out (2 AP) and applied (4 AP)."""
    items = ward().state.items
    assert {k: items[k].cost for k in items} == {
        "medhypo": (2, 1), "bloodfoam": (2, 1), "medkit": (5, 2), "bandage": (2, 4)}
    assert all("cost" not in items[k].example for k in items)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_failed_bandage_raises_a_wound_step_per_degree_of_failure_a_good_one_removes_one(
        ) -> None:
    battle = ward()                                      # Medicine 14
    battle.apply(UseItem("Sam", "bandage", "Foo"), dice=ScriptedDice([18]))      # -3º
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (8, 8)   # (6, 4) + 3 steps
    battle.apply(UseItem("Sam", "bandage", "Foo", "speed"), dice=ScriptedDice([3]))  # 1 AP left
    assert of_type(battle.events(), WoundsTreated)[-1].wounds == (8, 6)
    battle = ward()
    battle.state.fighters["Sam"].profile = replace(
        battle.state.fighters["Sam"].profile, skills=(("medicine", 2),))
    battle.apply(UseItem("Sam", "bandage", "Foo"), dice=ScriptedDice([4]))       # -0º
    assert of_type(battle.events(), WoundsTreated)[0].wounds == (6, 6)   # at least one


@pytest.mark.reference_only  # no step played after the set-up
def test_healing_an_unconscious_ally_above_0_brings_it_round() -> None:
    battle = ward()
    ARC.apply_event(battle.state, Wounded("Foo", 10, "Bar", -2, (12,), (12, 6, 4)))
    ARC.apply_event(battle.state, Fell("Foo"))
    battle = Battle(ARC, battle.state)
    assert not battle.state.fighters["Foo"].in_action
    assert UseItem("Sam", "medhypo", "Foo") in battle.legal_actions()
    battle.apply(UseItem("Sam", "medhypo", "Foo"), dice=ScriptedDice([[3, 3]]))
    assert of_type(battle.events(), Woke) and battle.state.fighters["Foo"].in_action
    assert battle.state.fighters["Foo"].health == 4


@pytest.mark.reference_only  # no step played after the set-up
def test_nobody_is_treated_who_needs_nothing() -> None:
    sc = make({"Sam": MEDIC, "Foo": gunner("red"), "Bar": gunner("blue")})
    battle = started(sc, [18, 19, 20])
    assert not any(isinstance(a, UseItem) for a in battle.legal_actions())


# -- an item that costs more AP than the turn has (the medkit's 5 + 2 at speed 6) ------------


def slow_ward() -> Battle[Any]:
    """As :func:`ward`, but Sam has AGI 3: speed 6, one AP short of a medkit's 7."""
    battle = ward()
    sam = battle.state.fighters["Sam"]
    sam.profile = replace(sam.profile, speed=speed_of(3))
    sam.ap = 6
    return battle


def _to_sams_next_turn(battle: Battle[Any], wounds: list[Any]) -> None:
    while battle.state.round == 1 or battle.state.phase != "round":
        if hasattr(battle.pending, "actions"):
            battle.apply(EndTurn(battle.state.active or ""), dice=ScriptedDice([]))
        elif battle.pending.label.startswith("wound dice"):
            battle.advance(dice=ScriptedDice([wounds.pop(0)]))
        else:
            battle.advance(dice=ScriptedDice([]))


@pytest.mark.reference_only  # no step played after the set-up
def test_a_medkit_short_of_ap_is_paid_with_speed_and_next_round_has_that_many_ap_fewer(
        ) -> None:
    battle = slow_ward()
    legal = battle.legal_actions()
    assert UseItem("Sam", "medkit", "Foo") not in legal
    assert UseItem("Sam", "medkit", "Foo", "speed") in legal
    battle.apply(UseItem("Sam", "medkit", "Foo", "speed"), dice=ScriptedDice([12, [5], [1]]))
    spent = of_type(battle.events(), APSpent)[-1]
    assert (spent.ap, spent.borrowed, spent.left) == (7, 1, 0)
    assert of_type(battle.events(), Healed)[0].amount == 7          # at once: 1d12 (5) + 2º
    _to_sams_next_turn(battle, [[1]])
    assert battle.state.fighters["Sam"].ap == 5                       # 6 less the 1 of speed


@pytest.mark.reference_only  # no step played after the set-up
def test_a_medkit_short_of_ap_is_carried_into_the_next_turn_and_takes_effect_then() -> None:
    battle = slow_ward()
    battle.apply(UseItem("Sam", "medkit", "Foo", "carry"), dice=ScriptedDice([]))
    events = battle.events()
    assert of_type(events, APSpent)[-1].ap == 6
    assert of_type(events, ItemBegun)[0].owed == 1
    assert not of_type(events, Healed) and battle.state.active == "Foo"
    _to_sams_next_turn(battle, [[1, 1]])                               # Foo bleeds 2: 6
    assert battle.state.active == "Sam"
    battle.advance(dice=ScriptedDice([12, [5], [1]]))                  # the medkit finishes
    events = battle.events()
    assert of_type(events, ItemFinished)[0].lost == ""
    assert of_type(events, Healed)[0].health == 13                     # 6 + 5 + 2º
    assert battle.state.fighters["Sam"].ap == 5                        # 6 less the 1 owed
    assert battle.state.fighters["Sam"].carry is None


@pytest.mark.reference_only  # no step played after the set-up
def test_a_carried_medkit_is_lost_if_its_user_falls_before_finishing_it() -> None:
    battle = slow_ward()
    battle.apply(UseItem("Sam", "medkit", "Foo", "carry"), dice=ScriptedDice([]))
    ARC.apply_event(battle.state, Wounded("Sam", 20, "Bar", -2, (12,), (12,)))
    battle = Battle(ARC, battle.state)
    _to_sams_next_turn(battle, [[1], [1, 1]])       # Sam bleeds first (scenario order)
    assert not battle.state.fighters["Sam"].conscious
    assert battle.state.fighters["Sam"].carry is None
    assert not of_type(battle.events(), Healed)


@pytest.mark.reference_only  # no step played after the set-up
def test_play_words_for_paying_with_speed_and_carrying_over_and_the_computers_choice() -> None:
    battle = slow_ward()
    speed = UseItem("Sam", "medkit", "Foo", "speed")
    carry = UseItem("Sam", "medkit", "Foo", "carry")
    state = battle.state
    assert ARC.describe_action(state, speed) == \
        "Sam uses a Medkit on Foo, paying the AP missing with speed"
    assert ARC.describe_action(state, carry) == \
        "Sam begins a Medkit on Foo, finishing it next turn"
    assert any("1 from speed" in line for line in ARC.explain.action(state, speed))
    legal = battle.legal_actions()
    values = rank_actions(state, legal)
    best = legal[max(range(len(legal)), key=values.__getitem__)]
    assert values[legal.index(speed)] > values[legal.index(carry)]
    assert best in (speed, UseItem("Sam", "medhypo", "Foo"))
    battle.apply(carry, dice=ScriptedDice([]))
    _to_sams_next_turn(battle, [[1, 1]])
    assert battle.pending.label == "Sam finishes the Medkit it began"
