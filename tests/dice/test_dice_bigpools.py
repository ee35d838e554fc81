"""Big pools exactly: the weight recurrences against packed powers, icepool and closed forms."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.dice import Dist, binomial, die, estimate_cost, evaluate, power_sum
from tactica.dice.bigsum import binomial_weights, extreme
from tactica.engine.errors import DiceError

FAST = settings(max_examples=80, deadline=None, derandomize=True)


def oracle(d: Any) -> dict[int, Fraction]:
    denom = d.denominator()
    return {int(o): Fraction(q, denom) for o, q in d.items() if q}


dice_tables = st.dictionaries(st.integers(-6, 9), st.integers(1, 7), min_size=1, max_size=6)


@FAST
@given(dice_tables, st.integers(0, 40))
def test_power_sum_equals_the_packed_power(table: dict[int, int], n: int) -> None:
    d = Dist.from_weights(table)
    assert power_sum(d, n) == d.repeat_sum(n)


@pytest.mark.parametrize(
    "weights",
    [[1] * 6, [1] * 20, [1, 0, 1], [2, 1, 2], [3, 1, 4, 1, 5], [1, 1], [5, 2]],
    ids=["d6", "d20", "gap", "symmetric", "uneven", "coin", "biased"],
)
@pytest.mark.parametrize("n", [50, 300])
def test_every_recurrence_matches_the_packed_power(weights: list[int], n: int) -> None:
    d = Dist.from_weights({i: w for i, w in enumerate(weights) if w})
    assert power_sum(d, n) == d.repeat_sum(n)


def test_thousand_d6_exactly() -> None:
    d = evaluate("1000d6")
    assert len(d) == 5001 and d.total == 6**1000
    assert d.mean() == 3500 and d.variance() == Fraction(1000 * 35, 12)
    assert d.p(1000) == Fraction(1, 6**1000) and d.weight(3500) == d.weights[2500]
    assert sum(d.weights) == d.total
    # one coefficient by inclusion-exclusion: C(k-1, n-1) terms of (1-z^6)^n / (1-z)^n
    k = 1000 + 2000
    direct = sum(
        (-1) ** j * math.comb(1000, j) * math.comb(k - 6 * j - 1000 + 999, 999)
        for j in range(0, (k - 1000) // 6 + 1)
    )
    assert d.weight(3000) == direct


def test_moderate_pools_match_icepool() -> None:
    assert evaluate("200d6").to_dict() == oracle(200 @ icepool.d6)
    assert evaluate("60d10cs>=7").to_dict() == oracle(60 @ (icepool.d10 >= 7))
    assert evaluate("40dF").to_dict() == oracle(40 @ icepool.Die([-1, 0, 1]))


def test_success_counts_of_big_pools_are_binomial() -> None:
    assert evaluate("500d10cs>=7") == binomial(500, Fraction(2, 5))
    big = evaluate("10000d6cs>=5")
    assert len(big) == 10001 and big.mean() == Fraction(10000, 3)
    assert big.p(0) == Fraction(2, 3) ** 10000
    assert binomial_weights(5, 2, 3) == [243, 810, 1080, 720, 240, 32]


def test_ten_thousand_dice_within_the_size_guard() -> None:
    d = evaluate("10000d6")
    assert len(d) == 50001 and d.mean() == 35000
    assert d.weights[:3] == (1, 10000, 10000 * 10001 // 2)
    for text in ("10000d10", "10001d6", "10000d20"):
        with pytest.raises(DiceError):
            estimate_cost(text) if text == "10001d6" else evaluate(text)


def test_highest_and_lowest_of_many_dice() -> None:
    top = extreme(2000, die(100), highest=True)
    assert top.p(1) == Fraction(1, 100**2000)
    assert top.p(100) == 1 - Fraction(99, 100) ** 2000
    low = evaluate("9100d3kl")
    assert low.p(3) == Fraction(1, 3**9100) and low.p(1) == 1 - Fraction(2, 3) ** 9100
