"""Roll to hit: one D10 per weapon die, at or under accuracy; 1 always hits, 0 never (NEB-1)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from neb_builders import attack, attack_ready, attacked, op

from tactica.engine.battle import ScriptedDice
from tactica.engine.chance import Roll
from tactica.engine.errors import ScriptError
from tactica.engine.events import Rolled
from tactica.rulesets.nebulia.records import Attack

pytestmark = pytest.mark.both_engines

OPEN = "A......B"


def hits(faces: list[int], accuracy: int, *, rulings: dict[str, str] | None = None) -> int:
    """The hits of one attack whose to-hit dice show ``faces`` (armor dice all fail)."""
    battle = attack_ready(OPEN, rulings=rulings, A=op("red", accuracy=accuracy, dice=len(faces)),
                          B=op("blue", defense=50))
    expected = _expected_hits(faces, accuracy, rulings)
    miss = 10 if (rulings or {}).get("NEB-1") == "one-to-ten" else 0
    events = attack(battle, "A", "B", to_hit=faces, armor=[miss] * expected if expected else None)
    return attacked(events).hits


def _expected_hits(faces: list[int], accuracy: int, rulings: dict[str, str] | None) -> int:
    ten = (rulings or {}).get("NEB-1") == "one-to-ten"
    count = 0
    for f in faces:
        face = 0 if ten and f == 10 else f
        count += face == 1 or (face != 0 and face <= accuracy)
    return count


def hit_roll(accuracy: int, dice: int, *, rulings: dict[str, str] | None = None) -> Roll[int]:
    battle = attack_ready(OPEN, rulings=rulings, A=op("red", accuracy=accuracy, dice=dice),
                          B=op("blue"))
    step = battle.ruleset.resolve(battle.state, Attack("A", "rifle", "B"))
    assert isinstance(step, Roll) and step.label == "to hit"
    return step


@pytest.mark.parametrize("accuracy", [0, 1, 4, 6, 9, 10])
def test_a_face_hits_at_or_under_accuracy(accuracy: int) -> None:
    for face in range(10):
        expected = face == 1 or (face != 0 and face <= accuracy)
        assert hits([face], accuracy) == int(expected), (face, accuracy)


def test_one_always_hits_and_zero_always_misses() -> None:
    assert hits([1], 0) == 1
    assert hits([0], 10) == 0


def test_each_weapon_die_is_one_d10() -> None:
    assert hits([1, 2, 3, 4, 5], 3) == 3
    roll = hit_roll(5, 3)
    assert len(roll.dice) == 3
    with pytest.raises(ScriptError, match="is 3 dice: type 3 faces"):
        roll.value_from_faces([1, 2])


def test_the_roll_is_logged_with_its_faces() -> None:
    battle = attack_ready(OPEN, A=op("red", accuracy=4, dice=4), B=op("blue", defense=9))
    attack(battle, "A", "B", to_hit=[3, 5, 1, 0], armor=[9, 9])
    rolled = [e for e in battle.log if isinstance(e, Rolled)]
    assert rolled == [Rolled("to hit", 2, (3, 5, 1, 0)), Rolled("armor", 0, (9, 9))]


def test_no_hit_means_no_armor_roll() -> None:
    battle = attack_ready(OPEN, A=op("red", accuracy=4, dice=2), B=op("blue"))
    result = attacked(attack(battle, "A", "B", to_hit=[0, 7]))
    assert (result.hits, result.saves, result.damage) == (0, 0, 0)
    assert [e.label for e in battle.log if isinstance(e, Rolled)] == ["to hit"]


@pytest.mark.reference_only  # exact odds, no step played
@pytest.mark.parametrize("accuracy", range(11))
def test_the_pool_is_one_roll_whose_distribution_is_binomial(accuracy: int) -> None:
    roll = hit_roll(accuracy, 3)
    p = Fraction(max(1, min(accuracy, 9)), 10)
    for k in range(4):
        assert roll.dist.p(k) == comb(3, k) * p**k * (1 - p) ** (3 - k)


@pytest.mark.reference_only  # exact odds, no step played
def test_reading_faces_agrees_with_the_distribution() -> None:
    roll = hit_roll(5, 2)
    counts = [roll.value_from_faces(f) for f in itertools.product(range(10), repeat=2)]
    for k in range(3):
        assert Fraction(counts.count(k), 100) == roll.dist.p(k)


def test_neb1_one_to_ten_reads_the_ten_as_zero() -> None:
    ten = {"NEB-1": "one-to-ten"}
    assert hits([10], 9, rulings=ten) == 0
    assert hits([1], 0, rulings=ten) == 1
    assert hits([9], 9, rulings=ten) == 1
    roll = hit_roll(6, 1, rulings=ten)
    assert roll.dice[0].outcomes == tuple(range(1, 11))
    assert roll.dist == hit_roll(6, 1).dist  # same odds, different display
    with pytest.raises(ScriptError, match="cannot show 0"):
        roll.value_from_faces([0])


@pytest.mark.reference_only  # the reference refuses the faces before any step
def test_an_impossible_face_is_refused_and_the_state_is_unchanged() -> None:
    battle = attack_ready(OPEN, A=op("red"), B=op("blue"))
    before = battle.ruleset.copy_state(battle.state)
    with pytest.raises(ScriptError, match="cannot show 11"):
        battle.apply(Attack("A", "rifle", "B"), dice=ScriptedDice([[11]]))
    assert battle.state == before
