"""Every worked example of the rule file, played in a battle with scripted dice.

(The same examples are checked rule by rule in the other files; here each is one battle step,
as a game master would type the dice.)
"""

from __future__ import annotations

from typing import Any

import pytest
from arc_builders import RIFLE, SMG, duel, gunner, make, of_type, started

from tactica.engine.battle import ScriptedDice
from tactica.engine.rulings import Rulings
from tactica.rulesets.arc.checks import read_check
from tactica.rulesets.arc.records import ArmorWorn, Attack, Attacked, Wounded
from tactica.rulesets.arc.rulings import RULINGS

pytestmark = pytest.mark.both_engines


class Never:
    def choose(self, decision: Any, state: Any, rng: Any) -> Any:
        return False


class Always:
    def choose(self, decision: Any, state: Any, rng: Any) -> Any:
        return True


def test_the_rifle_3d6_spread_4_rof_3_at_16_is_plus_4_degrees_3_hits_9d6() -> None:
    battle = started(duel(), [19, 20])
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([16, [1] * 9]),
                 policies={"blue": Never()})
    attacked = of_type(battle.events(), Attacked)[0]
    assert (attacked.degree, attacked.hits) == (4, 3)
    assert of_type(battle.events(), Wounded)[0].amount == 9


def test_the_smg_2d4_spread_3_rof_8_at_plus_4_degrees_is_4_hits_8d4() -> None:
    battle = started(duel(gunner("red", weapons=[{**SMG, "accuracy": [0, 0]}])), [19, 20])
    battle.apply(Attack("Foo", "Bar", "smg"), dice=ScriptedDice([12, [2] * 8]),
                 policies={"blue": Never()})
    assert of_type(battle.events(), Attacked)[0].hits == 4
    assert of_type(battle.events(), Wounded)[0].amount == 16


def test_the_three_contests_of_foo_and_bar() -> None:
    for spread, rolls, hit in ((5, [4, 13, [1] * 3], True), (3, [10, 12, [1] * 9], True),
                               (8, [15, 12], False)):
        sc = duel(gunner("red", weapons=[{**RIFLE, "spread": spread}]))
        battle = started(sc, [19, 20])
        battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice(rolls),
                     policies={"blue": Always()})
        attacked = of_type(battle.events(), Attacked)[0]
        assert attacked.evade is not None and attacked.evaded is not hit, spread


@pytest.mark.reference_only  # no step played after the set-up
def test_the_degrees_of_gus_tuck_the_sheriff_and_robin_hood() -> None:
    r = Rulings(RULINGS)
    assert read_check(9, 8, 5, r).degree == -1
    assert [read_check(roll, 22, 5, r, combat=False).degree for roll in (2, 15, 20)] == \
        [0, 3, 4]


@pytest.mark.reference_only  # no step played after the set-up
def test_the_initiative_order_a_b_d_c_e() -> None:
    fast, slow = {"initiative": {"target": 8}}, {"initiative": {"target": 2}}
    sc = make({"A": gunner("red", **fast), "B": gunner("red", **fast),
               "C": gunner("blue", **slow), "D": gunner("blue", **slow),
               "E": gunner("blue", **slow)})
    assert started(sc, [6, 5, 4, 3, 7]).state.order == ("A", "B", "D", "C", "E")


def test_bobby_18_health_and_armor_6_takes_14_and_has_10_left() -> None:
    sc = duel(b={"side": "blue", "character": "bobby"}, rulings={"ARC-16": "massive"})
    battle = started(sc, [19, 20, 5])            # Foo, then Bobby's d20 and his pistol's die
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([5, [6, 6, 2]]),
                 policies={"blue": Never()})
    assert of_type(battle.events(), ArmorWorn)[0].destroyed
    assert battle.state.fighters["Bar"].health == 10


def test_three_unarmored_hits_of_2d4_are_one_roll_of_6d4() -> None:
    battle = started(duel(gunner("red", weapons=[{**RIFLE, "damage": "2d4"}])), [19, 20])
    battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([16, [4] * 6]),
                 policies={"blue": Never()})
    assert [e.amount for e in of_type(battle.events(), Wounded)] == [24]
