"""Damage and out of action: each unsaved hit removes the weapon's damage from defense; at 0
the operator is out of action and removed from the map (NEB-8); the last side standing wins."""

from __future__ import annotations

import numpy as np
import pytest
from neb_builders import attack, attack_ready, attacked, battle_of, op, scenario

from tactica.engine.battle import SampledDice, ScriptedDice
from tactica.engine.events import BattleEnded
from tactica.engine.policies import RandomPolicy
from tactica.engine.ruleset import Finished
from tactica.engine.stats import battle_stats
from tactica.rulesets.nebulia import NEBULIA
from tactica.rulesets.nebulia.records import (
    ActivationEnded,
    Attack,
    Attacked,
    Damaged,
    Move,
    OutOfAction,
)

pytestmark = pytest.mark.both_engines

OPEN = "A....B"


def test_each_unsaved_hit_removes_the_weapons_damage() -> None:
    battle = attack_ready(OPEN, A=op("red", dice=3, damage=2), B=op("blue", defense=5))
    events = attack(battle, "A", "B", to_hit=[1, 1, 1], armor=[1, 0, 9])
    assert events == [
        Attacked("A", "rifle", "B", False, 3, 1, 4),
        Damaged("B", 4, "A", 1),
        ActivationEnded("A"),
    ]
    assert battle.state.ops["B"].defense == 1
    assert not battle.state.ops["B"].out


def test_no_damage_no_damage_event() -> None:
    battle = attack_ready(OPEN, A=op("red"), B=op("blue", defense=2))
    events = attack(battle, "A", "B", to_hit=[1], armor=[1])
    assert [type(e) for e in events] == [Attacked, ActivationEnded]
    assert battle.state.ops["B"].defense == 2


def test_a_weapon_of_damage_zero_never_hurts() -> None:
    battle = attack_ready(OPEN, A=op("red", damage=0), B=op("blue", defense=1))
    events = attack(battle, "A", "B", to_hit=[1], armor=[0])
    assert attacked(events).damage == 0
    assert not any(isinstance(e, Damaged) for e in events)


def test_defense_zero_is_out_of_action_and_removed_from_the_map() -> None:
    battle = attack_ready("A.B.C", A=op("red", damage=3), B=op("blue", defense=2),
                          C=op("blue"))
    events = attack(battle, "A", "B", to_hit=[1], armor=[0])
    # The attack dealt 3 (the attacked event says so); B could only lose the 2 it had.
    assert attacked(events).damage == 3
    assert events[1:3] == [Damaged("B", 2, "A", 0), OutOfAction("B")]
    state = battle.state
    assert state.ops["B"].out and state.ops["B"].defense == 0  # never below 0
    assert "B" not in state.grid.occupants
    assert state.grid.occupant_at((2, 0)) is None
    assert "B" not in state.ready
    # B no longer blocks A's sight of C; nobody may target or move B.
    blue_moves = battle.legal_actions()
    assert blue_moves and all(m.unit == "C" for m in blue_moves)
    ops = NEBULIA.odds.choices(state, "A")
    assert [c.action for c in ops] == [Attack("A", "rifle", "C")]


def test_the_last_operator_out_ends_the_battle() -> None:
    battle = attack_ready(OPEN, A=op("red"), B=op("blue", defense=1))
    attack(battle, "A", "B", to_hit=[1], armor=[0])
    assert battle.is_over and battle.winner == "red"
    pending = battle.pending
    assert isinstance(pending, Finished) and "the only side left in action: red" in pending.reason
    assert battle.legal_actions() == ()
    ended = [e for e in battle.log if isinstance(e, BattleEnded)]
    assert ended == [BattleEnded("red", pending.reason)]


def test_damage_accumulates_and_is_counted_in_the_stats() -> None:
    sc = scenario("A...B", {"A": op("red", move=0), "B": op("blue", defense=3, move=0)})
    battle = battle_of(sc)
    # NEB-11: red starts round 1, blue round 2.
    for order in (("A", "B"), ("B", "A")):
        battle.advance(dice=ScriptedDice([]))
        for unit in order:
            here = battle.state.ops[unit].pos
            battle.apply(Move(unit, here), dice=ScriptedDice([]))
            if unit == "A":
                battle.apply(Attack("A", "rifle", "B"), dice=ScriptedDice([[1], [0]]))
            else:
                battle.apply(Attack("B", "rifle", "A"), dice=ScriptedDice([[0]]))
    assert battle.state.ops["B"].defense == 1
    stats = battle_stats(battle.ruleset, battle.state, battle.events()).to_dict()
    assert stats["rounds"] == 2
    assert stats["units"]["A"] == {"side": "red", "survived": True, "defense": 2,
                                   "damage_dealt": 2, "damage_taken": 0, "moves": 2}
    assert stats["units"]["B"]["damage_taken"] == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_damage_never_heals_in_a_random_battle(seed: int) -> None:
    sc = scenario(
        """
        A..#...1
        B.....#2
        C..#...3
        """,
        {"A": op("red", dice=2), "B": op("red"), "C": op("red", defense=3),
         "1": op("blue"), "2": op("blue", dice=3, accuracy=4), "3": op("blue")},
    )
    battle = battle_of(sc)
    rng = np.random.default_rng(seed)
    policies = {"red": RandomPolicy(battle.ruleset), "blue": RandomPolicy(battle.ruleset)}
    dice = SampledDice(rng)
    seen = {o.id: o.defense for o in battle.state.ops.values()}
    while not battle.is_over:
        battle.step(policies, dice=dice, rng=rng)
        for o in battle.state.ops.values():
            assert 0 <= o.defense <= seen[o.id]
            assert o.out == (o.defense == 0)
            seen[o.id] = o.defense
