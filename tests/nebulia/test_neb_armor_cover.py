"""Armor roll: one D10 per hit, at or under armor saves, 1 always, 0 never; cover's -1 (NEB-6),
on the die (default) or on the characteristic."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from neb_builders import attack, attack_ready, attacked, op

from tactica import odds_of
from tactica.engine.chance import run_exact
from tactica.rulesets.nebulia.records import Attack, Attacked

pytestmark = pytest.mark.both_engines

OPEN = """
A.........
..........
.......B..
"""
CRATE = """
A.........
.......#..
.......B..
"""
DIE = {"NEB-6": "die"}
CHARACTERISTIC = {"NEB-6": "characteristic"}


def saves(faces: list[int], armor: int, *, cover: bool,
          rulings: dict[str, str] | None = None) -> int:
    battle = attack_ready(CRATE if cover else OPEN, rulings=rulings,
                          A=op("red", dice=len(faces)), B=op("blue", armor=armor, defense=50))
    result = attacked(attack(battle, "A", "B", to_hit=[1] * len(faces), armor=faces))
    assert result.cover is cover
    assert result.damage == result.hits - result.saves
    return result.saves


@pytest.mark.parametrize("armor", [0, 2, 3, 5, 9])
def test_out_of_cover_a_face_saves_at_or_under_armor(armor: int) -> None:
    for face in range(10):
        expected = face == 1 or (face != 0 and face <= armor)
        for reading in (DIE, CHARACTERISTIC):  # NEB-6 only matters in cover
            assert saves([face], armor, cover=False, rulings=reading) == int(expected)


@pytest.mark.parametrize("armor", [0, 2, 3, 5, 9])
def test_in_cover_the_die_reading_takes_one_off_the_die(armor: int) -> None:
    for face in range(10):
        expected = face == 1 or (face != 0 and face - 1 <= armor)
        assert saves([face], armor, cover=True, rulings=DIE) == int(expected), (face, armor)


@pytest.mark.parametrize("armor", [0, 2, 3, 5, 9])
def test_in_cover_the_characteristic_reading_takes_one_off_the_armor(armor: int) -> None:
    for face in range(10):
        expected = face == 1 or (face != 0 and face <= armor - 1)
        assert saves([face], armor, cover=True, rulings=CHARACTERISTIC) == int(expected)


def test_the_natural_one_and_zero_decide_whatever_the_modifier() -> None:
    assert saves([1], 0, cover=True, rulings=DIE) == 1
    assert saves([1], 0, cover=True, rulings=CHARACTERISTIC) == 1
    assert saves([0], 9, cover=True, rulings=DIE) == 0
    assert saves([0], 10, cover=False) == 0


def test_two_hits_3_and_4_against_armor_3_under_both_readings() -> None:
    assert saves([3, 4], 3, cover=False) == 1
    assert saves([3, 4], 3, cover=True, rulings=DIE) == 2
    assert saves([3, 4], 3, cover=True, rulings=CHARACTERISTIC) == 0


def test_one_armor_die_per_hit() -> None:
    battle = attack_ready(OPEN, A=op("red", accuracy=5, dice=4), B=op("blue", defense=9))
    # 3 hits (2, 5, 1), so exactly three armor dice are rolled.
    result = attacked(attack(battle, "A", "B", to_hit=[2, 5, 1, 8], armor=[2, 7, 0]))
    assert (result.hits, result.saves, result.damage) == (3, 1, 2)


@pytest.mark.reference_only  # exact odds, no step played
def test_odds_per_reading() -> None:
    for rulings, p_save in ((DIE, Fraction(4, 10)), (CHARACTERISTIC, Fraction(2, 10))):
        battle = attack_ready(CRATE, rulings=rulings, A=op("red"),
                              B=op("blue", armor=3, defense=1))
        report = odds_of(battle.ruleset, battle.state, "A", "B")
        assert report.numbers["p_save_each_die"] == p_save
        assert report.numbers["p_out_of_action"] == Fraction(6, 10) * (1 - p_save)


def _p(target: int, modifier: int = 0) -> Fraction:
    return Fraction(sum(1 for f in range(10) if f == 1 or (f != 0 and f + modifier <= target)), 10)


@pytest.mark.reference_only  # exact odds, no step played
@pytest.mark.parametrize(
    ("dice", "accuracy", "armor", "cover", "reading"),
    [(1, 6, 3, False, "die"), (3, 4, 3, True, "die"), (3, 4, 3, True, "characteristic"),
     (5, 7, 0, True, "die"), (2, 9, 9, True, "characteristic"), (4, 0, 5, False, "die")],
)
def test_exact_damage_of_an_attack_is_the_binomial_closed_form(
    dice: int, accuracy: int, armor: int, cover: bool, reading: str
) -> None:
    battle = attack_ready(CRATE if cover else OPEN, rulings={"NEB-6": reading},
                          A=op("red", accuracy=accuracy, dice=dice, damage=2),
                          B=op("blue", armor=armor, defense=50))
    process = battle.ruleset.resolve(battle.state, Attack("A", "rifle", "B"))
    got = run_exact(process, events=True).map(
        lambda ve: next(e.damage for e in ve[1] if isinstance(e, Attacked)))
    save = (_p(armor, -1) if reading == "die" else _p(armor - 1)) if cover else _p(armor)
    q = _p(accuracy) * (1 - save)
    for k in range(dice + 1):
        assert got.p(2 * k) == comb(dice, k) * q**k * (1 - q) ** (dice - k)
    assert sum(p for _, p in got.items()) == 1
