"""Attacks: the skill, aiming (ARC-13), the attack's AP (ARC-14), degrees by spread, hits =
min(degree, rof) (ARC-3), the rifle's 9d6 and the SMG's 8d4, jams (ARC-10), rounds and
reloads (ARC-22, ARC-23), swaps."""

from __future__ import annotations

import pytest
from arc_builders import RIFLE, SMG, duel, gunner, of_type, shoot, started

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.chance import run_scripted
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.actions import legal_actions
from tactica.rulesets.arc.attack import aim_modifier, attack_plan, useful_aims
from tactica.rulesets.arc.records import (
    APSpent,
    Attack,
    Attacked,
    EndTurn,
    Jammed,
    Loaded,
    Reload,
    RoundsFired,
    Swap,
    Swapped,
    Wounded,
)

pytestmark = pytest.mark.both_engines


@pytest.mark.reference_only  # no step played after the set-up
def test_the_rifle_example_plus_4_degrees_is_3_hits_rolled_as_9d6() -> None:
    state = duel().new_state()
    faces = [1, 1, 1, 2, 2, 2, 1, 2, 1]
    trace = shoot(state, "Foo", "Bar", [16, faces])
    attacked = of_type(trace.events, Attacked)[0]
    assert (attacked.target_number, attacked.increment) == (16, 4)
    assert attacked.success and attacked.degree == 4 and attacked.hits == 3
    damage = trace.records[-1]
    assert damage.faces == tuple(faces) and "9d6 together" in damage.label
    wounded = of_type(trace.events, Wounded)[0]
    assert wounded.amount == 13 and wounded.health == 5
    assert wounded.added == (6, 4, 4)          # hits of 3, 6 and 4: d4, d6, d4 (ARC-7)


@pytest.mark.reference_only  # no step played after the set-up
def test_the_smg_example_plus_4_degrees_is_4_hits_rolled_as_8d4() -> None:
    state = duel(gunner("red", weapons=[SMG])).new_state()
    trace = shoot(state, "Foo", "Bar", [12, [1] * 8], aim=2)   # -2 + 2 aimed: target 16
    attacked = of_type(trace.events, Attacked)[0]
    assert attacked.degree == 4 and attacked.hits == 4          # min(4, rof 8)
    assert "8d4 together" in trace.records[-1].label
    assert of_type(trace.events, Wounded)[0].amount == 8


@pytest.mark.reference_only  # no step played after the set-up
def test_a_failed_attack_ends_the_action() -> None:
    trace = shoot(duel().new_state(), "Foo", "Bar", [17])
    attacked = of_type(trace.events, Attacked)[0]
    assert not attacked.success and attacked.hits == 0
    assert not of_type(trace.events, Wounded)


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_3_a_0_degree_success_lands_one_hit_or_none() -> None:
    trace = shoot(duel().new_state(), "Foo", "Bar", [3, [2, 2, 2]])
    assert of_type(trace.events, Attacked)[0].hits == 1
    trace = shoot(duel(rulings={"ARC-3": "no-hit"}).new_state(), "Foo", "Bar", [3])
    assert of_type(trace.events, Attacked)[0].hits == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_a_1_always_hits_and_a_20_always_misses() -> None:
    weak = duel(gunner("red", guns=0)).new_state()
    assert of_type(shoot(weak, "Foo", "Bar", [1, [1, 1, 1]]).events, Attacked)[0].success
    strong = duel(gunner("red", guns=25)).new_state()
    assert not of_type(shoot(strong, "Foo", "Bar", [20]).events, Attacked)[0].success


# -- aiming and the cost of an attack -----------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_13_aiming_adds_to_the_unaimed_penalty_up_to_the_maximum() -> None:
    state = duel(gunner("red", weapons=[SMG])).new_state()
    smg = state.fighters["Foo"].weapon
    assert [aim_modifier(smg, a, state.rulings) for a in range(6)] == [-2, -1, 0, 1, 2, 2]
    assert useful_aims(smg, state.rulings) == (0, 1, 2, 3, 4)
    other = duel(gunner("red", weapons=[SMG]), rulings={"ARC-13": "remove-first"}).new_state()
    assert [aim_modifier(smg, a, other.rulings) for a in range(5)] == [-2, 0, 1, 2, 2]
    assert useful_aims(smg, other.rulings) == (0, 1, 2, 3)
    plan = attack_plan(state, Attack("Foo", "Bar", "smg", 3))
    assert plan.check.target == 17 and plan.cost == 4


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_14_an_attack_costs_one_ap_or_two_and_a_fractional_rof_its_denominator() -> None:
    state = duel().new_state()
    assert attack_plan(state, Attack("Foo", "Bar", "rifle")).cost == 1
    two = duel(rulings={"ARC-14": "two"}).new_state()
    assert attack_plan(two, Attack("Foo", "Bar", "rifle", 1)).cost == 3
    bolt = duel(gunner("red", weapons=["anti-materiel-bolt-action"])).new_state()
    w = bolt.fighters["Foo"].weapon
    assert attack_plan(bolt, Attack("Foo", "Bar", w.name)).cost == 4
    trace = shoot(bolt, "Foo", "Bar", [12, [1] * 6])     # +2º, but at most one hit
    assert of_type(trace.events, Attacked)[0].hits == 1


def test_attacks_need_the_ap_and_a_battle_charges_them() -> None:
    sc = duel(gunner("red", weapons=[SMG]))
    battle = started(sc, [1, 19])          # Foo succeeds, Bar fails: Foo first
    state = battle.state
    assert state.active == "Foo" and state.fighters["Foo"].ap == 5
    attacks = [a for a in legal_actions(state, "Foo") if isinstance(a, Attack)]
    assert max(a.aim for a in attacks) == 4       # aim 4 + 1 AP = 5 AP
    battle.apply(Attack("Foo", "Bar", "smg", 4), dice=ScriptedDice([9, [1] * 6]),
                 policies={"blue": _never_evade()})
    spent = of_type(battle.events(), APSpent)
    assert spent[0].ap == 5 and spent[0].left == 0


class _never_evade:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return False


# -- jams, rounds, reloads, swaps ---------------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_10_a_20_threatens_a_jam_and_a_second_d20_at_20_jams_the_pistol() -> None:
    state = duel(gunner("red", weapons=["pistol"])).new_state()
    trace = shoot(state, "Foo", "Bar", [20, 20])
    assert of_type(trace.events, Jammed)
    trace = shoot(state, "Foo", "Bar", [20, 19])
    assert not of_type(trace.events, Jammed)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_jam_is_threatened_on_a_hit_too() -> None:
    gun = {**RIFLE, "failure": [16, 18]}
    state = duel(gunner("red", weapons=[gun])).new_state()
    trace = shoot(state, "Foo", "Bar", [16, 18, [1] * 9])
    assert of_type(trace.events, Attacked)[0].hits == 3 and of_type(trace.events, Jammed)
    ARC.apply_event(state, of_type(trace.events, Jammed)[0])
    assert not state.fighters["Foo"].can_fire()


@pytest.mark.reference_only  # no step played after the set-up
def test_a_jammed_gun_cannot_attack_until_a_reload_clears_it() -> None:
    sc = duel(gunner("red", weapons=[{**RIFLE, "failure": [20, 20], "capacity": 30,
                                      "reload": 2}]))
    battle = started(sc, [19, 20])
    ARC.apply_event(battle.state, Jammed("Foo", "rifle"))
    battle = Battle(ARC, battle.state)
    actions = legal_actions(battle.state, "Foo")
    assert not any(isinstance(a, Attack) for a in actions)
    assert Reload("Foo", "rifle") in actions
    battle.apply(Reload("Foo", "rifle"), dice=ScriptedDice([]))
    assert of_type(battle.events(), Loaded)[-1].rounds == 30
    assert battle.state.fighters["Foo"].can_fire() and battle.state.fighters["Foo"].ap == 3


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_22_an_attack_fires_up_to_rof_rounds_and_hits_are_capped_by_them() -> None:
    gun = {**RIFLE, "capacity": 10}
    state = duel(gunner("red", weapons=[gun])).new_state()
    trace = shoot(state, "Foo", "Bar", [16, [1] * 9])
    assert of_type(trace.events, RoundsFired)[0].left == 7
    ARC.apply_event(state, Loaded("Foo", "rifle", 2))
    trace = shoot(state, "Foo", "Bar", [16, [1] * 6])
    assert of_type(trace.events, Attacked)[0].hits == 2
    one = duel(gunner("red", weapons=[gun]), rulings={"ARC-22": "one"}).new_state()
    trace = shoot(one, "Foo", "Bar", [16, [1] * 9])
    assert of_type(trace.events, RoundsFired)[0].left == 9
    assert of_type(trace.events, Attacked)[0].hits == 3


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_23_the_pistols_1d12_magazine_is_rolled_at_the_start_or_full() -> None:
    sc = duel(gunner("red", weapons=["pistol"]))
    battle = started(sc, [1, 7, 19])          # Foo's d20, its magazine, Bar's d20
    assert battle.state.fighters["Foo"].rounds_of("Pistol") == 7
    full = duel(gunner("red", weapons=["pistol"]), rulings={"ARC-23": "maximum"})
    battle = started(full, [1, 19])
    assert battle.state.fighters["Foo"].rounds_of("Pistol") == 12


def test_a_reload_of_a_die_magazine_rolls_the_die() -> None:
    sc = duel(gunner("red", weapons=["pistol"]))
    battle = started(sc, [19, 1, 20])
    battle.apply(Attack("Foo", "Bar", "Pistol"), dice=ScriptedDice([17]),
                 policies={"blue": _never_evade()})
    assert not battle.state.fighters["Foo"].can_fire()
    battle.apply(Reload("Foo", "Pistol"), dice=ScriptedDice([[9]]))
    assert battle.state.fighters["Foo"].rounds_of("Pistol") == 9


def test_swapping_costs_the_new_weapons_swap_ap() -> None:
    sc = duel(gunner("red", weapons=[RIFLE, "pistol-concealable"]))
    battle = started(sc, [19, 20])
    battle.apply(Swap("Foo", "Pistol, concealable"), dice=ScriptedDice([]))
    assert of_type(battle.events(), Swapped)[0].weapon == "Pistol, concealable"
    assert battle.state.fighters["Foo"].ap == 4       # 5 AP less the concealable's 1


def test_a_turn_ends_when_the_ap_run_out_and_whoever_acts_next_takes_over() -> None:
    battle = started(duel(), [19, 20])
    for _ in range(4):
        battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([17]),
                     policies={"blue": _never_evade()})
    assert battle.state.active == "Foo" and battle.state.fighters["Foo"].ap == 1
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([17]),
                 policies={"blue": _never_evade()})
    assert battle.state.active == "Bar"
    assert EndTurn("Bar") in battle.legal_actions()


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("take", [True, False])
def test_taking_1_is_offered_at_a_target_of_20_or_more(take: bool) -> None:
    sc = duel(gunner("red", guns=20))
    battle = started(sc, [2, 19])
    actions = battle.legal_actions()
    assert Attack("Foo", "Bar", "rifle", 0, True) in actions
    trace = run_scripted(ARC.resolve(battle.state, Attack("Foo", "Bar", "rifle", 0, take)),
                         rolls=[[2, 2, 2]] if take else [8, [2, 2, 2] * 2],
                         decisions=[False], world=ARC, state=battle.state)
    attacked = of_type(trace.events, Attacked)[0]
    assert (attacked.how, attacked.degree) == (("take 1", 0) if take else ("", 2))


@pytest.mark.reference_only  # no step played after the set-up
def test_a_jammed_gun_without_a_magazine_is_cleared_by_a_reload() -> None:
    sc = duel(gunner("red", weapons=[{**RIFLE, "failure": [20, 20], "reload": 3}]))
    battle = started(sc, [19, 20])
    ARC.apply_event(battle.state, Jammed("Foo", "rifle"))
    battle = Battle(ARC, battle.state)
    battle.apply(Reload("Foo", "rifle"), dice=ScriptedDice([]))
    foo = battle.state.fighters["Foo"]
    assert foo.can_fire() and foo.rounds_of("rifle") is None and foo.ap == 2
