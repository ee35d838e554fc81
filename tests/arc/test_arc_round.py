"""The round: surprise (ARC-18), initiative (AGI x 2, the swap of one attribute, ARC-1's
order, the d10 first turn), speed as AP, holding a turn, the wound dice at the end of the round
(ARC-12), initiative not re-rolled."""

from __future__ import annotations

from typing import Any

import pytest
from arc_builders import RIFLE, LabelledDice, duel, example, gunner, make, started

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.ruleset import Automatic, ChooseAction, Finished
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.attack import attack_plan
from tactica.rulesets.arc.records import (
    Attack,
    Bled,
    EndTurn,
    Hold,
    InitiativeRolled,
    RoundBegan,
    Wounded,
)

pytestmark = pytest.mark.both_engines


def five(rulings: dict[str, str] | None = None) -> Any:
    fast = {"initiative": {"target": 8}}
    slow = {"initiative": {"target": 2}}
    return make({"A": gunner("red", **fast), "B": gunner("red", **fast),
                 "C": gunner("blue", **slow), "D": gunner("blue", **slow),
                 "E": gunner("blue", **slow)}, rulings=rulings)


@pytest.mark.reference_only  # no step played after the set-up
def test_the_initiative_chapters_example_a_b_succeed_then_d_c_e() -> None:
    battle = started(five(), [6, 5, 4, 3, 7])
    rolled = next(e for e in battle.events() if isinstance(e, InitiativeRolled))
    assert rolled.order == ("A", "B", "D", "C", "E")
    assert rolled.d10 == ("A", "B")
    assert battle.state.queue == ("A", "B", "D", "C", "E")


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_1_successes_take_turns_in_ascending_degree_then_failures_descending() -> None:
    """The seed: 'Characters who succeed take turns in ascending DoS/failures descending
    DoS' (the default): B's 3 (+0º) goes before A's 6 (+1º); D's 3 and E's 4 (-0º)
    before C's 7 (-1º)."""
    battle = started(five(), [6, 3, 7, 3, 4])
    assert battle.state.order == ("B", "A", "D", "E", "C")


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_1_roll_successes_by_the_highest_roll_then_failures_by_the_lowest() -> None:
    for ruling, order in (("seed", ("B", "A", "D", "E", "C")),
                          ("roll", ("A", "B", "D", "E", "C"))):
        battle = started(five({"ARC-1": ruling}), [6, 3, 7, 3, 4])
        assert battle.state.order == order, ruling


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_17_equal_places_keep_the_scenario_order() -> None:
    battle = started(five(), [6, 6, 4, 4, 4])
    assert battle.state.order == ("A", "B", "C", "D", "E")


@pytest.mark.reference_only  # no step played after the set-up
def test_initiative_rolls_against_agi_x_2_or_agi_plus_a_swapped_attribute() -> None:
    sc = example("pistol-duel.yaml")
    state = sc.new_state()
    assert state.fighters["Francis"].profile.initiative == 7       # AGI 3 + DEX 4
    assert state.fighters["Jane"].profile.initiative == 10         # AGI 5 x 2


@pytest.mark.reference_only  # no step played after the set-up
def test_speed_is_the_rounds_ap() -> None:
    sc = example("pistol-duel.yaml")
    battle = started(sc, [3, 6, 4, 6])       # each initiative, then that one's magazine
    began = next(e for e in battle.events() if isinstance(e, RoundBegan))
    assert dict(began.ap) == {"Francis": 6, "Jane": 6}    # AGI 3: 6•0; AGI 5: 6•4


@pytest.mark.reference_only  # a wound roll: the kernel cannot be scripted there
def test_a_successful_initiative_rolls_a_d10_on_the_first_turn_only() -> None:
    swapper = gunner("red", attributes={"AGI": 4, "DEX": 4}, initiative={"swap": "DEX"})
    sc = duel(swapper)                  # AGI + DEX: its Guns checks (DEX x 2) get the d10
    battle = started(sc, [1, 20])
    dice = LabelledDice(5, [1, 1, 1])
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=dice, policies={"blue": _No()})
    assert "on a d10" in dice.asked[0][0]
    battle.apply(EndTurn("Foo"), dice=ScriptedDice([]))
    battle.apply(EndTurn("Bar"), dice=ScriptedDice([]))
    battle.advance(dice=ScriptedDice([[1]]))              # Bar's wound die
    battle.advance(dice=ScriptedDice([]))                 # end of round 1
    battle.advance(dice=ScriptedDice([]))                 # round 2
    dice = LabelledDice(17)
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=dice, policies={"blue": _No()})
    assert "on a d20" in dice.asked[0][0]


@pytest.mark.reference_only  # no step played after the set-up
def test_the_d10_is_only_for_checks_that_involve_agi_or_the_attribute_swapped_in() -> None:
    """'A character who succeeds rolls d10 instead of d20 on its first turn's checks' that
    involve AGI: Small Guns is DEX x 2 (a d20), Melee DEX + AGI (a d10)."""
    knife = {"name": "knife", "damage": "1d6", "type": "melee", "spread": 5, "rof": 1,
             "melee": True}
    sc = duel(gunner("red", weapons=[RIFLE, knife], attributes={"AGI": 4, "DEX": 4}))
    battle = started(sc, [1, 20])
    assert "Foo" in battle.state.d10
    plan = attack_plan(battle.state, Attack("Foo", "Bar", "rifle"))
    assert plan.check.sides == 20
    plan = attack_plan(battle.state, Attack("Foo", "Bar", "knife"))
    assert plan.check.sides == 10
    assert battle.state.fighters["Foo"].profile.involves("evade")
    assert not battle.state.fighters["Foo"].profile.involves("medicine")


def test_a_turn_may_be_held_until_after_a_later_characters() -> None:
    battle = started(duel(), [19, 20])
    assert Hold("Foo", "Bar") in battle.legal_actions()
    battle.apply(Hold("Foo", "Bar"), dice=ScriptedDice([]))
    assert battle.state.queue == ("Bar", "Foo") and battle.state.active == "Bar"
    battle.apply(Attack("Bar", "Foo", "rifle"), dice=ScriptedDice([17]),
                 policies={"red": _No()})
    assert not any(isinstance(a, Hold) for a in battle.legal_actions())
    battle.apply(EndTurn("Bar"), dice=ScriptedDice([]))
    assert battle.state.active == "Foo" and battle.state.fighters["Foo"].ap == 5


@pytest.mark.reference_only  # a wound roll: the kernel cannot be scripted there
def test_arc_12_wound_dice_are_rolled_at_the_end_of_the_round() -> None:
    battle = started(duel(), [19, 20])
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([5, [1, 1, 2]]),
                 policies={"blue": _No()})
    assert battle.state.fighters["Bar"].wounds == (4,)
    battle.apply(EndTurn("Foo"), dice=ScriptedDice([]))
    assert not any(isinstance(e, Bled) for e in battle.events())
    battle.apply(EndTurn("Bar"), dice=ScriptedDice([]))
    assert isinstance(battle.pending, Automatic)
    battle.advance(dice=ScriptedDice([[3]]))
    assert isinstance(battle.pending, Automatic) and battle.pending.label == "end of round 1"
    bled = next(e for e in battle.events() if isinstance(e, Bled))
    assert (bled.unit, bled.amount, bled.health) == ("Bar", 3, 11)


@pytest.mark.reference_only  # a wound roll: the kernel cannot be scripted there
def test_arc_12_turn_the_wound_dice_roll_at_the_end_of_the_wounded_ones_turn() -> None:
    battle = started(duel(rulings={"ARC-12": "turn"}), [19, 20])
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([5, [1, 1, 2]]),
                 policies={"blue": _No()})
    battle.apply(EndTurn("Foo"), dice=ScriptedDice([]))
    battle.apply(EndTurn("Bar"), dice=ScriptedDice([[2]]))
    assert [e.amount for e in battle.events() if isinstance(e, Bled)] == [2]


def test_initiative_is_not_rolled_again_and_the_order_holds() -> None:
    battle = started(duel(), [19, 20])
    for _ in range(2):
        battle.apply(EndTurn(battle.state.active or ""), dice=ScriptedDice([]))
    battle.advance(dice=ScriptedDice([]))          # end of round 1 (nobody bleeds)
    assert battle.pending.label == "round 2"        # type: ignore[union-attr]
    battle.advance(dice=ScriptedDice([]))          # no initiative roll asked
    assert battle.state.round == 2 and battle.state.active == "Foo"


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_18_the_surprised_side_takes_no_turn_in_round_1() -> None:
    battle = started(duel(surprise="blue"), [20, 1])
    assert battle.state.queue == ("Bar",)
    other = started(duel(surprise="blue", rulings={"ARC-18": "unaware"}), [20, 1])
    assert other.state.queue == ("Bar", "Foo")


def test_the_battle_ends_when_one_side_is_out_of_action() -> None:
    battle = started(duel(), [19, 20])
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([8, [6, 6, 6, 6, 6, 6]]),
                 policies={"blue": _No()})
    assert any(isinstance(e, Wounded) for e in battle.events())
    pending = battle.pending
    assert isinstance(pending, Finished) and pending.winner == "red"
    status = {u.id: u for u in ARC.units(battle.state)}
    assert not status["Bar"].in_action and status["Bar"].details.get("dead")


@pytest.mark.reference_only  # no step played after the set-up
def test_a_battle_starts_with_initiative() -> None:
    battle = Battle(ARC, duel().new_state())
    assert isinstance(battle.pending, Automatic)
    assert battle.pending.label == "initiative of Foo"
    battle.advance(dice=ScriptedDice([19]))
    assert battle.pending.label == "initiative of Bar"         # type: ignore[union-attr]
    battle.advance(dice=ScriptedDice([20]))
    assert battle.pending.label == "initiative order"          # type: ignore[union-attr]
    battle.advance(dice=ScriptedDice([]))
    assert isinstance(battle.pending, ChooseAction) and battle.pending.side == "red"


class _No:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return False
