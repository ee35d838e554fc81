"""Armor and damage: armor dice per damage type, DT, hits absorbed without a roll, a die
dropping a step (ARC-4, ARC-5), massive damage and the 15 against a d6 (ARC-16, Bobby's
example), unarmored hits summed, death from one attack (ARC-8), wound dice (ARC-7),
unconscious at 0 and dead at -CON, finishing the turn (ARC-24)."""

from __future__ import annotations

from typing import Any

import pytest
from arc_builders import RIFLE, duel, gunner, of_type, shoot, started

from tactica.engine.battle import ScriptedDice
from tactica.engine.chance import run_scripted
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.armor import add_wounds, raise_step, remove_steps, wound_die
from tactica.rulesets.arc.records import (
    ArmorWorn,
    Attack,
    Attacked,
    Died,
    EndTurn,
    Falling,
    Fell,
    Wounded,
)
from tactica.rulesets.arc.state import ArcState
from tactica.rulesets.arc.steps import end_turn

pytestmark = pytest.mark.both_engines

ONE_HIT = 5   # the rifle (spread 4) rolling 5: +1º, one hit


def armored(armor: list[Any], **extra: Any) -> dict[str, Any]:
    return gunner("blue", guns=12, armor=armor, **extra)


def apply(state: ArcState, events: list[Any]) -> None:
    for e in events:
        ARC.apply_event(state, e)


# -- Bobby and the hit of 15 against a d6 (ARC-16) -----------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_bobby_takes_14_at_least_twice_his_armor_so_it_is_destroyed_and_8_gets_through() -> None:
    bobby = {"side": "blue", "character": "bobby"}
    state = duel(b=bobby, rulings={"ARC-16": "massive"}).new_state()
    assert state.fighters["Bar"].health == 18 and state.fighters["Bar"].armor == (6,)
    trace = shoot(state, "Foo", "Bar", [ONE_HIT, [6, 6, 2]])
    worn = of_type(trace.events, ArmorWorn)[0]
    assert worn.destroyed and worn.armor == (0,)
    wounded = of_type(trace.events, Wounded)[0]
    assert (wounded.amount, wounded.health) == (8, 10)          # 14 - 6 = 8: 10 health left
    assert wounded.added == (8,)


@pytest.mark.reference_only  # no step played after the set-up
def test_the_seeds_reading_a_hit_of_15_against_a_d6_only_drops_it_a_step() -> None:
    state = duel(b=armored([{"die": "d6", "against": ["ballistic"]}])).new_state()
    trace = shoot(state, "Foo", "Bar", [ONE_HIT, [6, 6, 3]])
    assert of_type(trace.events, ArmorWorn)[0].armor == (4,)
    assert not of_type(trace.events, Wounded)


@pytest.mark.reference_only  # no step played after the set-up
def test_the_source_example_reading_the_same_hit_destroys_the_d6_and_9_gets_through() -> None:
    state = duel(b=armored([{"die": "d6", "against": ["ballistic"]}]),
                 rulings={"ARC-16": "massive"}).new_state()
    trace = shoot(state, "Foo", "Bar", [ONE_HIT, [6, 6, 3]])
    assert of_type(trace.events, ArmorWorn)[0].armor == (0,)
    wounded = of_type(trace.events, Wounded)[0]
    assert wounded.amount == 9 and wounded.added == (10,)


# -- armor dice, DT and hits ---------------------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_a_hit_that_cannot_beat_dt_is_absorbed_without_a_roll() -> None:
    knife_like = {**RIFLE, "damage": "1d6"}
    state = duel(gunner("red", weapons=[knife_like]),
                 armored([{"die": "d6", "against": ["ballistic"]}])).new_state()
    trace = shoot(state, "Foo", "Bar", [16])          # 3 hits, no damage roll at all
    worn = of_type(trace.events, ArmorWorn)[0]
    assert worn.absorbed == 3 and worn.armor == (6,)
    assert len(trace.records) == 1


@pytest.mark.reference_only  # no step played after the set-up
def test_armor_protects_only_against_its_damage_types() -> None:
    state = duel(b=armored([{"die": "d12", "against": ["melee"]}])).new_state()
    trace = shoot(state, "Foo", "Bar", [ONE_HIT, [1, 2, 3]])
    assert of_type(trace.events, Wounded)[0].amount == 6
    assert not of_type(trace.events, ArmorWorn)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_hit_at_or_under_dt_is_absorbed_and_one_over_drops_a_die() -> None:
    plates = [{"die": "d8", "against": ["ballistic"]}, {"die": "d4", "against": ["ballistic"]}]
    state = duel(b=armored(plates)).new_state()
    trace = shoot(state, "Foo", "Bar", [8, [4, 4, 4], [6, 6, 1]])   # 12 = DT: absorbed; 13
    worn = of_type(trace.events, ArmorWorn)[0]
    assert (worn.absorbed, worn.degraded, worn.armor) == (1, 1, (6, 4))


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_4_the_lowest_die_drops_instead() -> None:
    plates = [{"die": "d8", "against": ["ballistic"]}, {"die": "d4", "against": ["ballistic"]}]
    state = duel(b=armored(plates), rulings={"ARC-4": "lowest"}).new_state()
    trace = shoot(state, "Foo", "Bar", [ONE_HIT, [6, 6, 1]])
    assert of_type(trace.events, ArmorWorn)[0].armor == (8, 0)


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_5_only_hits_after_the_last_die_is_gone_reach_health() -> None:
    state = duel(b=armored([{"die": "d4", "against": ["ballistic"]}])).new_state()
    trace = shoot(state, "Foo", "Bar", [16, [2, 2, 2], [1, 1, 1, 2, 2, 2]])
    assert of_type(trace.events, ArmorWorn)[0].armor == (0,)
    wounded = of_type(trace.events, Wounded)[0]
    assert wounded.amount == 9 and wounded.added == (6, 4)    # the two hits after it: 3 and 6
    assert "hits 2-3 damage (6d6 together)" in trace.records[-1].label


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_5_penetrates_the_hit_that_beats_dt_wears_the_armor_and_hurts_in_full() -> None:
    """ARC-5 ``penetrates``: the seed's hits 'that deal less damage than sum of the target's
    armor deal no damage', so a hit over it does; the damage chapter's penetrating hit adds a
    wound die."""
    plates = [{"die": "d6", "against": ["ballistic"]}]
    state = duel(b=armored(plates), rulings={"ARC-5": "penetrates"}).new_state()
    trace = shoot(state, "Foo", "Bar", [8, [2, 2, 3], [1, 1, 2]])   # 2 hits
    worn = of_type(trace.events, ArmorWorn)[0]
    assert (worn.absorbed, worn.degraded, worn.armor) == (1, 1, (4,))     # 7 > 6, then 4 <= 4
    wounded = of_type(trace.events, Wounded)[0]
    assert (wounded.amount, wounded.added) == (7, (8,))                   # the 7 reaches health
    state = duel(b=armored(plates), rulings={"ARC-5": "no"}).new_state()
    trace = shoot(state, "Foo", "Bar", [8, [2, 2, 3], [1, 1, 2]])
    assert of_type(trace.events, ArmorWorn)[0].armor == (4,)
    assert not of_type(trace.events, Wounded)


@pytest.mark.reference_only  # no step played after the set-up
def test_unarmored_three_hits_of_2d4_are_rolled_as_6d4_and_subtracted_at_once() -> None:
    gun = {**RIFLE, "damage": "2d4"}
    state = duel(gunner("red", weapons=[gun])).new_state()
    trace = shoot(state, "Foo", "Bar", [16, [1, 2, 3, 4, 4, 4]])
    assert "6d4 together" in trace.records[-1].label
    wounded = of_type(trace.events, Wounded)
    assert len(wounded) == 1 and wounded[0].amount == 18
    assert wounded[0].added == (8, 8, 4)


# -- wound dice (ARC-7) --------------------------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize(("damage", "size"), [(1, 4), (4, 4), (5, 6), (6, 6), (7, 8), (8, 8),
                                              (9, 10), (11, 10), (12, 12), (40, 12)])
def test_each_hit_to_health_adds_a_wound_die_by_its_damage(damage: int, size: int) -> None:
    assert wound_die(damage) == size


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_7_step_one_step_per_penetrating_hit_and_a_new_d4_after_d12() -> None:
    assert add_wounds((), (12, 4, 4), "step") == (8,)
    assert add_wounds((12,), (4,), "step") == (12, 4)
    assert raise_step((12, 12)) == (12, 12, 4)
    state = duel(rulings={"ARC-7": "step"}).new_state()
    trace = shoot(state, "Foo", "Bar", [16, [1, 1, 1, 2, 2, 2, 1, 2, 1]])
    assert of_type(trace.events, Wounded)[0].wounds == (8,)


@pytest.mark.reference_only  # no step played after the set-up
def test_removing_wound_steps_takes_the_smallest_die_first_or_the_largest() -> None:
    assert remove_steps((8, 4), 1, smallest_first=True) == (8,)
    assert remove_steps((8, 4), 1, smallest_first=False) == (6, 4)
    assert remove_steps((6,), 5, smallest_first=True) == ()


# -- falling and dying ----------------------------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_8_damage_over_maximum_health_in_one_attack_kills() -> None:
    state = duel().new_state()                      # Bar: 18 health
    trace = shoot(state, "Foo", "Bar", [8, [6, 6, 6, 1, 1, 1]])     # 2 hits: 21
    died = of_type(trace.events, Died)
    assert died and died[0].reason.startswith("one attack")


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_8_at_least_also_kills_at_exactly_maximum_health() -> None:
    for ruling, expected in (("exceeds", Fell), ("at-least", Died)):
        state = duel(rulings={"ARC-8": ruling, "ARC-24": "at-once"}).new_state()
        trace = shoot(state, "Foo", "Bar", [8, [6, 6, 1, 1, 2, 2]])  # 18: health 0
        assert of_type(trace.events, Wounded)[0].health == 0
        assert of_type(trace.events, expected), ruling


@pytest.mark.reference_only  # no step played after the set-up
def test_at_or_under_minus_con_a_character_dies() -> None:
    state = duel(rulings={"ARC-24": "at-once"}).new_state()     # Bar: 18 health, CON 8
    apply(state, shoot(state, "Foo", "Bar", [8, [6, 6, 1, 1, 1, 1]]).events)   # 16: 2 left
    assert state.fighters["Bar"].conscious
    trace = shoot(state, "Foo", "Bar", [ONE_HIT, [3, 3, 4]])                   # 10: -8
    died = of_type(trace.events, Died)
    assert died and "at or under -CON" in died[0].reason
    apply(state, trace.events)
    assert state.fighters["Bar"].dead and not state.fighters["Bar"].in_action


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_24_at_once_hurt_in_its_own_turn_a_character_finishes_it_then_falls() -> None:
    state = duel(rulings={"ARC-24": "at-once"}).new_state()
    state.phase, state.queue = "round", ("Bar", "Foo")
    state.fighters["Bar"].ap = 5
    trace = shoot(state, "Foo", "Bar", [8, [6, 6, 1, 1, 2, 2]], evade=False)  # 18: 0 health
    assert of_type(trace.events, Falling) and not of_type(trace.events, Fell)
    apply(state, trace.events)
    assert state.fighters["Bar"].in_action and state.active == "Bar"
    end = run_scripted(end_turn(state, "Bar"), world=ARC, state=state)
    assert of_type(end.events, Fell)


@pytest.mark.reference_only  # no step played after the set-up
def test_arc_24_the_seeds_round_end_nobody_falls_before_the_wound_dice() -> None:
    """The seed, step 6: once all combatants have acted, roll the wound dice; characters at
    or below 0 health fall unconscious, at or below -CON die (the default)."""
    state = duel().new_state()
    trace = shoot(state, "Foo", "Bar", [8, [6, 6, 1, 1, 2, 2]])
    assert not of_type(trace.events, Fell) and not of_type(trace.events, Died)
    assert of_type(trace.events, Attacked)[0].hits == 2


@pytest.mark.reference_only  # a wound roll: the kernel cannot be scripted there
def test_arc_24_at_0_health_a_character_still_acts_until_the_round_ends_then_falls() -> None:
    battle = started(duel(), [1, 20])                  # Foo first, then Bar
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([8, [6, 6, 1, 1, 2, 2]]),
                 policies={"blue": _NoEvade()})
    assert battle.state.fighters["Bar"].health == 0
    battle.apply(EndTurn("Foo"), dice=ScriptedDice([]))
    assert battle.state.active == "Bar" and battle.state.fighters["Bar"].in_action
    battle.apply(EndTurn("Bar"), dice=ScriptedDice([]))
    battle.advance(dice=ScriptedDice([[1, 1]]))         # Bar's wound dice (d12, d6): 2
    assert battle.state.fighters["Bar"].conscious
    battle.advance(dice=ScriptedDice([]))               # the end of the round
    assert not battle.state.fighters["Bar"].conscious
    assert not battle.state.fighters["Bar"].dead        # -2: above -CON (-8)


class _NoEvade:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return False
