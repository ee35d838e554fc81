"""Evade: declared before the attack roll, 1 AP or 1 speed (ARC-19), the degree comparison and
the refund (ARC-6), the contested rolls of the source."""

from __future__ import annotations

import pytest
from arc_builders import RIFLE, duel, gunner, of_type, shoot, started

from tactica.engine.battle import ScriptedDice
from tactica.engine.chance import DecisionRecord, RollRecord
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.attack import can_evade
from tactica.rulesets.arc.records import APRefunded, APSpent, Attack, Attacked, EndTurn

pytestmark = pytest.mark.both_engines


def _in_round(rulings: dict[str, str] | None = None, **foo: object) -> tuple[object, object]:
    sc = duel(gunner("red", weapons=[{**RIFLE, "spread": 8}], **foo), rulings=rulings)
    battle = started(sc, [19, 20])                 # both fail: Foo (19) before Bar (20)
    return sc, battle


@pytest.mark.reference_only  # no step played after the set-up
def test_the_evade_is_declared_before_the_attack_roll_and_costs_1_ap() -> None:
    state = duel().new_state()
    state.fighters["Bar"].ap = 3
    trace = shoot(state, "Foo", "Bar", [17, 13], evade=None, decisions=[True])
    assert isinstance(trace.records[0], DecisionRecord) and trace.records[0].choice is True
    assert isinstance(trace.records[1], RollRecord) and "attacks" in trace.records[1].label
    assert "evades" in trace.records[2].label
    spent = next(e for e in of_type(trace.events, APSpent) if e.unit == "Bar")
    assert (spent.ap, spent.left, spent.borrowed) == (1, 2, 0)


@pytest.mark.reference_only  # no step played after the set-up
def test_foo_guns_16_rolls_4_bar_evade_12_rolls_13_so_foo_hits() -> None:
    state = duel().new_state()
    state.fighters["Bar"].ap = 3
    trace = shoot(state, "Foo", "Bar", [4, 13, [1, 1, 1]], evade=True)
    attacked = of_type(trace.events, Attacked)[0]
    assert attacked.evade == (False, -2) and not attacked.evaded and attacked.hits == 1
    assert not of_type(trace.events, APRefunded)


@pytest.mark.reference_only  # no step played after the set-up
def test_foo_3_degrees_against_bar_2_so_foo_hits() -> None:
    state = duel(gunner("red", weapons=[{**RIFLE, "spread": 3}])).new_state()
    state.fighters["Bar"].ap = 3
    trace = shoot(state, "Foo", "Bar", [10, 12, [1] * 9], evade=True)
    attacked = of_type(trace.events, Attacked)[0]
    assert (attacked.degree, attacked.evade) == (3, (True, 2)) and attacked.hits == 3


@pytest.mark.reference_only  # no step played after the set-up
def test_foo_1_degree_against_bar_2_so_the_attack_misses_and_the_ap_comes_back() -> None:
    state = duel(gunner("red", weapons=[{**RIFLE, "spread": 8}])).new_state()
    state.fighters["Bar"].ap = 3
    trace = shoot(state, "Foo", "Bar", [15, 12], evade=True)
    attacked = of_type(trace.events, Attacked)[0]
    assert attacked.degree == 1 and attacked.evaded and attacked.hits == 0
    refund = of_type(trace.events, APRefunded)[0]
    assert (refund.unit, refund.ap, refund.left) == ("Bar", 1, 3)


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_6_any_success_evades_even_a_higher_degree() -> None:
    state = duel(rulings={"ARC-6": "any-success"}).new_state()
    state.fighters["Bar"].ap = 3
    trace = shoot(state, "Foo", "Bar", [16, 2], evade=True)
    assert of_type(trace.events, Attacked)[0].evaded


def test_a_reaction_is_paid_from_the_rounds_ap_before_the_characters_turn() -> None:
    _, battle = _in_round()
    state = battle.state
    assert state.active == "Foo" and state.fighters["Bar"].ap == 5
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([17, 18]),
                 policies={"blue": _Evade()})
    assert battle.state.fighters["Bar"].ap == 4


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_arc_19_with_no_ap_left_an_evade_costs_next_rounds_speed() -> None:
    _, battle = _in_round()
    battle.state.fighters["Bar"].ap = 0
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([17, 18]),
                 policies={"blue": _Evade()})
    bar = battle.state.fighters["Bar"]
    assert bar.debt == 1
    spent = next(e for e in of_type(battle.events(), APSpent) if e.unit == "Bar")
    assert spent.borrowed == 1
    while battle.state.round == 1:                 # to round 2: Bar has 1 AP less
        p = battle.pending
        if hasattr(p, "actions"):
            battle.apply(EndTurn(battle.state.active or ""), dice=ScriptedDice([]))
        else:
            battle.advance(dice=ScriptedDice([]))
    assert battle.state.fighters["Bar"].ap == 4 and battle.state.fighters["Bar"].debt == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_19_none_no_ap_no_evade() -> None:
    _, battle = _in_round({"ARC-19": "none"})
    battle.state.fighters["Bar"].ap = 0
    assert not can_evade(battle.state, battle.state.fighters["Bar"])


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_20_until_turn_ends_an_evade_rolls_the_d10_too() -> None:
    for ruling, sides in (("own-turn", 20), ("until-turn-ends", 10)):
        sc = duel(rulings={"ARC-20": ruling})
        battle = started(sc, [1, 12])       # Foo succeeds at +0º, Bar at +2º: Foo first
        assert battle.state.active == "Foo" and "Bar" in battle.state.d10
        trace = shoot(battle.state, "Foo", "Bar", [9, 5, [1] * 6], evade=True)
        assert of_type(trace.events, Attacked)[0].die == 20    # Guns: DEX, not AGI
        assert f"on a d{sides}" in trace.records[1].label, ruling


@pytest.mark.reference_only  # no step played after the set-up
def test_the_surprised_cannot_evade_in_round_1() -> None:
    sc = duel(surprise="red")
    battle = started(sc, [19, 20])
    assert not can_evade(battle.state, battle.state.fighters["Bar"])
    assert can_evade(battle.state, battle.state.fighters["Foo"]) or \
        battle.state.fighters["Foo"].ap > 0
    assert ARC.sides_of(battle.state) == ("red", "blue")


class _Evade:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return True


@pytest.mark.reference_only  # no step played after the set-up
def test_a_turrets_fixed_3_degrees_need_an_evade_of_3_degrees() -> None:
    turret = {"name": "turret gun", "damage": "2d6", "spread": 3, "rof": 3,
              "hardware_degree": 3}
    state = duel(gunner("red", weapons=[turret]), gunner("blue", evade=16)).new_state()
    state.fighters["Bar"].ap = 3
    trace = shoot(state, "Foo", "Bar", [10, [1] * 6], evade=True)       # +2º: 3 hits
    attacked = of_type(trace.events, Attacked)[0]
    assert (attacked.how, attacked.degree, attacked.hits) == ("fixed", 3, 3)
    assert len(trace.records) == 2                                     # no attack roll
    trace = shoot(state, "Foo", "Bar", [15], evade=True)                # +3º: evaded
    assert of_type(trace.events, Attacked)[0].evaded
