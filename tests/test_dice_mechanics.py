"""The games' dice and pool mechanics, checked exactly against icepool (a test-only oracle)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from tactica.dice import (
    Dist,
    bernoulli,
    binomial,
    count_successes,
    d10_faces,
    d10_success_chance,
    d10_target_successes,
    d20,
    d100,
    dice,
    die,
    evaluate,
    keep_highest,
    keep_lowest,
    opposed,
    percentile_pair,
    random_rolls,
    read_percentile,
    step_die,
    step_down,
    thin,
    two_d6,
)
from tactica.engine.errors import DiceError


def oracle(d: Any) -> dict[Any, Fraction]:
    """An icepool Die as outcome -> exact probability (booleans read as 0/1)."""
    denom = d.denominator()
    out: dict[Any, Fraction] = {}
    for o, q in d.items():
        key = int(o) if isinstance(o, bool) else o
        if q:
            out[key] = out.get(key, Fraction(0)) + Fraction(q, denom)
    return out


def as_icepool(d: Dist[int]) -> Any:
    return icepool.Die(dict(zip(d.outcomes, d.weights, strict=True)))


def nebulia_face_succeeds(face: int, target: int, modifier: int) -> bool:
    return face == 1 or (face != 0 and face + modifier <= target)


def nebulia_icepool(target: int, modifier: int, *, fails: bool = False) -> Any:
    return icepool.Die(
        [int(nebulia_face_succeeds(f, target, modifier) != fails) for f in range(10)]
    )


# ---------------------------------------------------------------------- single dice


def test_single_dice() -> None:
    assert die(6).outcomes == (1, 2, 3, 4, 5, 6)
    assert d10_faces().outcomes == tuple(range(10))
    assert d20() == die(20)
    assert two_d6().to_dict() == oracle(2 @ icepool.d6)
    assert d100().to_dict() == oracle(icepool.d100)
    for bad in (0, -3, 2.5):
        with pytest.raises(DiceError, match="sides"):
            die(bad)  # type: ignore[arg-type]


def test_step_dice() -> None:
    assert step_die(8) == die(8)
    assert step_down(12) == 10 and step_down(6, 2) is None and step_down(4) is None
    with pytest.raises(DiceError, match="expected one of 4, 6, 8, 10, 12"):
        step_die(7)
    with pytest.raises(DiceError):
        step_down(5)


def test_percentile_dice_read_00_with_0_as_100() -> None:
    assert read_percentile(0, 0) == 100
    assert read_percentile(0, 7) == 7
    assert read_percentile(9, 9) == 99
    pair = percentile_pair()
    assert len(pair) == 100 and pair.p((0, 0)) == Fraction(1, 100)
    assert pair.map(lambda tu: read_percentile(*tu)) == d100()
    for bad in ((10, 0), (0, -1), (1.0, 2)):
        with pytest.raises(DiceError, match="0-9"):
            read_percentile(*bad)


@pytest.mark.parametrize("level", [1, 5, 50, 99, 100])
def test_percentile_roll_under_matches_icepool(level: int) -> None:
    mine = d100().map(lambda v: int(v <= level))
    assert mine.to_dict() == oracle(icepool.d100 <= level)


# ---------------------------------------------------------------------- sums


@pytest.mark.parametrize(("n", "sides"), [(1, 6), (2, 6), (3, 10), (10, 6), (7, 20), (25, 4)])
def test_sums_of_dice_match_icepool(n: int, sides: int) -> None:
    assert dice(n, sides).to_dict() == oracle(n @ icepool.d(sides))


@pytest.mark.parametrize("modifier", range(-3, 4))
def test_two_d6_plus_modifier_against_every_target(modifier: int) -> None:
    base = two_d6()
    shifted = base + modifier
    ice = 2 @ icepool.d6 + modifier
    for target in range(2, 15):
        expected = oracle(ice >= target).get(1, Fraction(0))
        assert base.at_least(target - modifier) == expected
        assert shifted.at_least(target) == expected
        assert evaluate(f"2d6{modifier:+d}>={target}").p(1) == expected


def test_sum_of_ten_3d6_and_differences_match_icepool() -> None:
    assert dice(3, 6).repeat_sum(10).to_dict() == oracle(10 @ (3 @ icepool.d6))
    assert (dice(3, 6) - dice(1, 4)).to_dict() == oracle(3 @ icepool.d6 - icepool.d4)


# ---------------------------------------------------------------------- keeping dice


@pytest.mark.parametrize("sides", [2, 4, 6])
@pytest.mark.parametrize("n", range(1, 6))
def test_keep_highest_and_lowest_match_icepool(n: int, sides: int) -> None:
    for k in range(n + 1):
        ice = icepool.d(sides)
        assert keep_highest(n, die(sides), k).to_dict() == oracle(ice.highest(n, k)), (n, k)
        assert keep_lowest(n, die(sides), k).to_dict() == oracle(ice.lowest(n, k)), (n, k)


def test_keep_highest_of_an_uneven_die_with_gaps_and_negatives() -> None:
    weights = {-2: 1, 0: 3, 5: 2, 6: 1}
    mine, ice = Dist.from_weights(weights), icepool.Die(weights)
    for n in range(1, 6):
        for k in range(n + 1):
            assert keep_highest(n, mine, k).to_dict() == oracle(ice.highest(n, k))
            assert keep_lowest(n, mine, k).to_dict() == oracle(ice.lowest(n, k))


def test_keep_highest_classics() -> None:
    assert keep_highest(4, die(6), 3).mean() == Fraction(15869, 1296)
    assert keep_highest(2, die(20), 1).to_dict() == oracle(icepool.d20.highest(2, 1))
    assert keep_highest(10, die(10), 3).to_dict() == oracle(icepool.d10.highest(10, 3))
    assert keep_highest(0, die(6), 0) == Dist.constant(0)
    with pytest.raises(DiceError, match="cannot keep 3 of 2"):
        keep_highest(2, die(6), 3)
    with pytest.raises(DiceError, match="integers"):
        keep_highest(2, Dist.uniform(["a", "b"]), 1)  # type: ignore[list-item]


# ---------------------------------------------------------------------- successes


@pytest.mark.parametrize("target", [-1, 0, 1, 2, 5, 8, 9, 10, 11])
@pytest.mark.parametrize("modifier", [-2, -1, 0, 1])
def test_nebulia_successes_match_icepool(target: int, modifier: int) -> None:
    ice_die = nebulia_icepool(target, modifier)
    for n in (0, 1, 2, 5, 20):
        mine = d10_target_successes(n, target, modifier)
        expected = oracle(n @ ice_die) if n else {0: Fraction(1)}
        assert mine.to_dict() == expected, (n, target, modifier)
        generic = count_successes(
            n, d10_faces(), lambda f: nebulia_face_succeeds(f, target, modifier)
        )
        assert generic == mine


def test_nebulia_one_and_zero_rules_at_the_edges() -> None:
    # target 0: only the natural 1 succeeds; target 9 or more: everything but the 0
    assert d10_success_chance(0) == Fraction(1, 10)
    assert d10_success_chance(-5, -3) == Fraction(1, 10)
    assert d10_success_chance(9) == Fraction(9, 10)
    assert d10_success_chance(10, -5) == Fraction(9, 10)
    assert d10_success_chance(3, -1) == Fraction(4, 10)  # cover: 4 - 1 = 3 saves
    assert d10_success_chance(3, fails=True) == Fraction(7, 10)
    with pytest.raises(DiceError, match="target"):
        d10_success_chance(2.5)  # type: ignore[arg-type]


def test_hundred_dice_pool_matches_icepool() -> None:
    mine = d10_target_successes(100, 4)
    assert len(mine) == 101 and mine.total == 5**100  # 4/10 reduces to 2/5
    assert mine.to_dict() == oracle(100 @ nebulia_icepool(4, 0))


def test_binomial_and_bernoulli_edges() -> None:
    assert binomial(0, Fraction(1, 2)) == Dist.constant(0)
    assert binomial(5, 0) == Dist.constant(0)
    assert binomial(5, 1) == Dist.constant(5)
    assert bernoulli(Fraction(1, 4)).to_dict() == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    for bad in (Fraction(-1, 2), Fraction(3, 2)):
        with pytest.raises(DiceError, match="between 0 and 1"):
            bernoulli(bad)
    with pytest.raises(DiceError, match="non-negative"):
        binomial(-1, Fraction(1, 2))
    assert count_successes(3, die(6), lambda v: v >= 5).to_dict() == oracle(3 @ (icepool.d6 >= 5))


# ---------------------------------------------------------------------- compound rolls


@pytest.mark.parametrize("n", [1, 2, 5, 20])
@pytest.mark.parametrize(("accuracy", "armor", "cover"), [(6, 3, 0), (4, 3, -1), (0, 9, 0)])
def test_hits_then_saves_match_icepool(n: int, accuracy: int, armor: int, cover: int) -> None:
    hits = d10_target_successes(n, accuracy)
    unsaved = thin(hits, d10_success_chance(armor, cover, fails=True))
    ice = (n @ nebulia_icepool(accuracy, 0)) @ nebulia_icepool(armor, cover, fails=True)
    assert unsaved.to_dict() == oracle(ice)


def test_the_nebulia_worked_example() -> None:
    hits = d10_target_successes(1, 6)
    damage = thin(hits, d10_success_chance(3, fails=True))
    assert damage.p(1) == Fraction(42, 100)


def test_random_number_of_rolls_matches_icepool() -> None:
    count = {0: 1, 2: 3, 3: 1}
    for each in ({-1: 1, 0: 2, 4: 1}, {-3: 1, -1: 2}, {3: 1, 5: 2}, {0: 1}):
        mine = random_rolls(Dist.from_weights(count), Dist.from_weights(each))
        assert mine.to_dict() == oracle(icepool.Die(count) @ icepool.Die(each)), each
    assert random_rolls(die(4), die(6)).to_dict() == oracle(icepool.d4 @ icepool.d6)
    assert random_rolls(Dist.constant(0), die(6)) == Dist.constant(0)
    with pytest.raises(DiceError, match="negative"):
        random_rolls(Dist.uniform([-1, 1]), die(6))


def test_opposed_rolls_match_icepool() -> None:
    for a, b in ((die(20), die(20)), (two_d6(), die(12)), (dice(3, 6), die(20) + 1)):
        ice = as_icepool(a) - as_icepool(b)
        sign = ice.map(lambda d: (d > 0) - (d < 0))
        assert opposed(a, b).to_dict() == oracle(sign)


def test_highest_and_lowest_of_two_match_icepool() -> None:
    assert die(8).max_of(die(6)).to_dict() == oracle(icepool.highest(icepool.d8, icepool.d6))
    assert die(8).min_of(die(6)).to_dict() == oracle(icepool.lowest(icepool.d8, icepool.d6))


def test_thinning_edges_and_both_methods_agree() -> None:
    hits = d10_target_successes(3, 6)
    assert thin(hits, 0) == Dist.constant(0)
    assert thin(hits, 1) == hits
    with pytest.raises(DiceError, match="negative"):
        thin(Dist.uniform([-1, 2]), Fraction(1, 2))
    with pytest.raises(DiceError, match="Fraction or an int"):
        thin(hits, "half")  # type: ignore[arg-type]
    # Small counts sum binomial rows directly, large ones use Horner's rule: same answers.
    for top in (11, 12, 13, 30):
        count = Dist.from_weights({0: 1, top // 2: 2, top: 3})
        direct = random_rolls(count, bernoulli(Fraction(2, 7)))
        assert thin(count, Fraction(2, 7)) == direct
        expected = oracle(as_icepool(count) @ icepool.Die({0: 5, 1: 2}))
        assert direct.to_dict() == expected
