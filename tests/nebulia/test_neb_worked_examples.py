"""The worked examples of rules/nebulia-operations.md, with scripted dice.

Each test plays the example inside a real battle (the attack is an action applied to a battle),
so the whole path from sight to damage is exercised, not only the dice helpers.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from neb_builders import attack, attack_ready, attacked, op

from tactica import odds_of
from tactica.engine.chance import run_exact
from tactica.engine.scenario import load_scenario
from tactica.rulesets.nebulia.records import Attack, Attacked

pytestmark = pytest.mark.both_engines

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "nebulia"

OPEN = """
A.........
..........
.......B..
"""

# A crate on 7,1 stops the top-right line: 3 of 4 lines clear, 7 tiles away: in cover.
CRATE = """
A.........
.......#..
.......B..
"""


def test_accuracy_4_dice_3_5_1_0_make_two_hits() -> None:
    # 3 <= 4 hits, 5 > 4 misses, 1 always hits, 0 always misses.
    battle = attack_ready(OPEN, A=op("red", accuracy=4, dice=4), B=op("blue", defense=5))
    events = attack(battle, "A", "B", to_hit=[3, 5, 1, 0], armor=[0, 0])
    result = attacked(events)
    assert (result.hits, result.saves, result.damage) == (2, 0, 2)


def test_armor_3_two_hits_dice_3_4_without_cover_one_save() -> None:
    battle = attack_ready(OPEN, A=op("red", accuracy=6, dice=2), B=op("blue", armor=3))
    result = attacked(attack(battle, "A", "B", to_hit=[1, 2], armor=[3, 4]))
    assert result.cover is False
    assert (result.hits, result.saves, result.damage) == (2, 1, 1)


def test_armor_3_two_hits_dice_3_4_in_cover_both_save() -> None:
    battle = attack_ready(CRATE, A=op("red", accuracy=6, dice=2), B=op("blue", armor=3))
    result = attacked(attack(battle, "A", "B", to_hit=[1, 2], armor=[3, 4]))
    assert result.cover is True  # 4 - 1 = 3 <= 3 also saves
    assert (result.hits, result.saves, result.damage) == (2, 2, 0)


def test_within_three_tiles_no_cover_with_two_clear_lines() -> None:
    # B is 3 tiles away (Chebyshev); the wall on 2,0 leaves only two lines clear.
    tiles = """
    A.#.
    ...B
    """
    battle = attack_ready(tiles, A=op("red", dice=2), B=op("blue", armor=3))
    result = attacked(attack(battle, "A", "B", to_hit=[1, 1], armor=[3, 4]))
    assert result.cover is False
    assert result.saves == 1  # the 4 does not save: no cover modifier


def test_within_three_tiles_no_cover_with_three_clear_lines() -> None:
    tiles = """
    A.#.
    ....
    ...B
    """
    battle = attack_ready(tiles, A=op("red", dice=2), B=op("blue", armor=3))
    result = attacked(attack(battle, "A", "B", to_hit=[1, 1], armor=[3, 4]))
    assert result.cover is False
    assert result.saves == 1


@pytest.mark.reference_only  # exact odds, no step played
def test_one_die_accuracy_6_against_armor_3_out_of_cover_is_exactly_0_42() -> None:
    battle = attack_ready(OPEN, A=op("red", accuracy=6), B=op("blue", armor=3, defense=1))
    dist = run_exact(battle.ruleset.resolve(battle.state, Attack("A", "rifle", "B")),
                     events=True)
    damage = dist.map(lambda value_events: next(
        e.damage for e in value_events[1] if isinstance(e, Attacked)))
    assert damage.p(1) == Fraction(42, 100)
    report = odds_of(battle.ruleset, battle.state, "A", "B")
    assert report.numbers["p_out_of_action"] == Fraction(21, 50)
    assert report.numbers["p_hit_each_die"] == Fraction(6, 10)
    assert report.numbers["p_save_each_die"] == Fraction(3, 10)


@pytest.mark.reference_only  # exact odds, no step played
def test_the_same_attack_in_cover_beyond_three_tiles_is_exactly_0_36() -> None:
    battle = attack_ready(CRATE, A=op("red", accuracy=6), B=op("blue", armor=3, defense=1))
    report = odds_of(battle.ruleset, battle.state, "A", "B")
    assert report.extra["cover"] is True
    assert report.numbers["p_save_each_die"] == Fraction(4, 10)  # faces 1-4 with cover
    assert report.numbers["p_out_of_action"] == Fraction(36, 100)


@pytest.mark.reference_only  # exact odds, no step played
def test_the_duel_examples_give_0_42_and_0_36() -> None:
    for name, expected in (("duel.yaml", Fraction(21, 50)), ("duel-cover.yaml", Fraction(9, 25))):
        sc = load_scenario(EXAMPLES / name)
        report = odds_of(sc.ruleset, sc.new_state(), "A", "B")
        assert report.numbers["p_out_of_action"] == expected, name

