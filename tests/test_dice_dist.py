"""The exact distribution type: construction, algebra, statistics, sampling."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.dice import Dist, binomial, die, uniform_below
from tactica.engine.errors import DiceError

FAST = settings(max_examples=60, deadline=None, derandomize=True)

weight_tables = st.dictionaries(
    st.integers(-20, 20), st.integers(0, 10**6), min_size=1, max_size=8
).filter(lambda t: any(t.values()))
small_dists = weight_tables.map(Dist.from_weights)


def brute_sum(a: Dist[int], b: Dist[int]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (x, px), (y, py) in product(a.items(), b.items()):
        out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


# ---------------------------------------------------------------------- construction


def test_from_weights_normalises_sorts_and_drops_zeros() -> None:
    d = Dist.from_weights({3: 4, 1: 2, 2: 0, 5: 6})
    assert d.outcomes == (1, 3, 5)
    assert d.weights == (1, 2, 3)
    assert d.total == 6
    assert d.p(3) == Fraction(1, 3)
    assert d.p(2) == 0 and d.p("absent") == 0 and d.p([1]) == 0


@pytest.mark.parametrize("table", [{1: -1}, {1: 1.5}, {1: Fraction(1, 2)}, {}, {1: 0}], ids=repr)
def test_from_weights_rejects_bad_weights(table: dict[int, object]) -> None:
    with pytest.raises(DiceError):
        Dist.from_weights(table)  # type: ignore[arg-type]


def test_from_probs_is_exact_and_checks_the_sum() -> None:
    d = Dist.from_probs({"hit": Fraction(1, 3), "miss": Fraction(2, 3)})
    assert d.p("hit") == Fraction(1, 3)
    assert Dist.from_probs({7: 1}) == Dist.constant(7)
    with pytest.raises(DiceError, match="sum to 1/2"):
        Dist.from_probs({1: Fraction(1, 2)})
    with pytest.raises(DiceError, match="Fraction or int"):
        Dist.from_probs({1: 0.5, 2: 0.5})  # type: ignore[dict-item]


def test_constant_uniform_and_direct_construction() -> None:
    assert Dist.constant("x").to_dict() == {"x": 1}
    coin = Dist.uniform(["h", "t", "t"])
    assert coin.p("t") == Fraction(2, 3)
    with pytest.raises(DiceError):
        Dist.uniform([])
    with pytest.raises(TypeError):
        Dist()


def test_unordered_outcomes_keep_working_where_order_is_not_needed() -> None:
    d = Dist.from_weights({"a": 1, 2: 1, None: 2})
    assert not d.is_ordered
    assert d.p(None) == Fraction(1, 2)
    assert d == Dist.from_weights({None: 2, 2: 1, "a": 1})
    assert hash(d) == hash(Dist.from_weights({None: 2, 2: 1, "a": 1}))
    with pytest.raises(DiceError, match="comparable"):
        d.at_least(1)


# ---------------------------------------------------------------------- access, equality


def test_access_and_float_view() -> None:
    d = die(6) + die(6)
    assert len(d) == 11 and 7 in d and 13 not in d
    assert next(d.items()) == (2, Fraction(1, 36))
    assert d.pf(7) == pytest.approx(1 / 6)
    probs = d.probs_float()
    assert probs.dtype == np.float64 and probs.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError):
        probs[0] = 1.0


def test_equality_and_hash_are_on_normalised_content() -> None:
    a = Dist.from_weights({1: 2, 2: 2})
    b = Dist.uniform([1, 2])
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Dist.constant(1)}) == 2
    assert a != Dist.from_weights({1: 1, 2: 2})
    assert a != "not a dist"


def test_immutable_picklable_and_repr() -> None:
    d = die(4)
    with pytest.raises(AttributeError):
        d._total = 3
    with pytest.raises(AttributeError):
        del d._total
    assert pickle.loads(pickle.dumps(d)) == d
    assert repr(d) == "Dist({1: 1/4, 2: 1/4, 3: 1/4, 4: 1/4})"
    assert "(20 outcomes)" in repr(die(20))


# ---------------------------------------------------------------------- algebra


def test_map_merges_and_bind_mixes() -> None:
    parity = die(6).map(lambda v: v % 2)
    assert parity == Dist.uniform([0, 1])
    # roll a d4, then that many d6: E = 2.5 * 3.5
    mixed = die(4).bind(lambda n: die(6).repeat_sum(n))
    assert mixed.mean() == Fraction(35, 4)
    with pytest.raises(DiceError, match="returning a Dist"):
        die(2).bind(lambda n: n)  # type: ignore[arg-type, return-value]


def test_arithmetic_with_constants_and_dists() -> None:
    d6 = die(6)
    assert (d6 + 2).outcomes == (3, 4, 5, 6, 7, 8)
    assert (2 + d6) == (d6 + 2)
    assert (10 - d6).outcomes == (4, 5, 6, 7, 8, 9)
    assert (-d6).outcomes == (-6, -5, -4, -3, -2, -1)
    assert (d6 * 3).outcomes == (3, 6, 9, 12, 15, 18) == (3 * d6).outcomes
    assert (d6 * -1) == -d6
    assert (d6 * 0) == Dist.constant(0)
    assert (d6 - d6).to_dict() == brute_sum(d6, -d6)
    assert (d6 * d6).p(36) == Fraction(1, 36)
    assert (d6 + Fraction(1, 2)).outcomes[0] == Fraction(3, 2)


def test_sparse_and_non_integer_sums_take_the_generic_path() -> None:
    far = Dist.from_weights({0: 1, 10**9: 1})
    assert (far + far).to_dict() == brute_sum(far, far)
    halves = Dist.uniform([Fraction(1, 2), Fraction(3, 2)])
    assert (halves + halves).p(2) == Fraction(1, 2)
    assert halves.repeat_sum(3).mean() == 3


def test_repeat_sum_condition_opposed_max_min() -> None:
    d6 = die(6)
    assert d6.repeat_sum(0) == Dist.constant(0)
    assert d6.repeat_sum(1) == d6
    assert d6.repeat_sum(3) == d6 + d6 + d6
    assert Dist.constant(2).repeat_sum(5) == Dist.constant(10)
    with pytest.raises(DiceError):
        d6.repeat_sum(-1)
    assert d6.condition(lambda v: v > 4) == Dist.uniform([5, 6])
    with pytest.raises(DiceError, match="probability 0"):
        d6.condition(lambda v: v > 6)
    duel = die(20).opposed(die(20))
    assert duel.to_dict() == {-1: Fraction(19, 40), 0: Fraction(1, 20), 1: Fraction(19, 40)}
    assert d6.max_of(d6).p(6) == Fraction(11, 36)
    assert d6.min_of(d6).p(1) == Fraction(11, 36)


@FAST
@given(small_dists, small_dists)
def test_sum_matches_brute_force(a: Dist[int], b: Dist[int]) -> None:
    assert (a + b).to_dict() == brute_sum(a, b)
    assert (a - b).to_dict() == brute_sum(a, -b)


@FAST
@given(small_dists, st.integers(0, 6))
def test_repeat_sum_matches_iterated_addition(d: Dist[int], n: int) -> None:
    expected = Dist.constant(0)
    for _ in range(n):
        expected = expected + d
    assert d.repeat_sum(n) == expected


@FAST
@given(small_dists, small_dists)
def test_opposed_matches_brute_force(a: Dist[int], b: Dist[int]) -> None:
    expected = a.combine(b, lambda x, y: (x > y) - (x < y))
    assert a.opposed(b) == expected


# ---------------------------------------------------------------------- exactness


@FAST
@given(small_dists)
def test_probabilities_sum_to_exactly_one_and_float_view_agrees(d: Dist[int]) -> None:
    assert sum(p for _, p in d.items()) == 1
    exact = [float(p) for _, p in d.items()]
    assert d.probs_float().tolist() == exact
    assert all(0 < p <= 1 for _, p in d.items())
    assert math.gcd(*d.weights) == 1 and sum(d.weights) == d.total


def test_big_integer_weights_stay_exact() -> None:
    pool = binomial(100, Fraction(3, 10))
    assert pool.total == 10**100
    assert sum(p for _, p in pool.items()) == 1
    assert pool.p(100) == Fraction(3**100, 10**100)
    assert pool.probs_float().sum() == pytest.approx(1.0, abs=1e-12)
    assert pool.mean() == 30 and pool.variance() == 21


# ---------------------------------------------------------------------- statistics


def test_statistics_of_a_d6_and_2d6() -> None:
    d6 = die(6)
    assert d6.mean() == Fraction(7, 2)
    assert d6.variance() == Fraction(35, 12)
    assert d6.sd() == pytest.approx(math.sqrt(35 / 12))
    two = d6 + d6
    assert two.at_least(7) == Fraction(7, 12)
    assert two.at_least(1) == 1 and two.at_least(13) == 0
    assert two.at_most(7) == Fraction(7, 12)
    assert two.at_most(1) == 0 and two.at_most(99) == 1
    assert two.at_least(Fraction(15, 2)) == Fraction(5, 12)
    assert two.at_least_table()[0] == (2, Fraction(1))
    assert two.at_most_table()[-1] == (12, Fraction(1))
    assert two.percentile(Fraction(1, 2)) == 7
    assert two.percentile(0) == 2 and two.percentile(1) == 12
    assert two.percentile(0.03) == 3
    for bad in (-0.1, 1.5, "x"):
        with pytest.raises(DiceError):
            two.percentile(bad)  # type: ignore[arg-type]
    with pytest.raises(DiceError, match="not a number"):
        Dist.uniform(["a", "b"]).mean()


@FAST
@given(small_dists)
def test_tables_are_consistent(d: Dist[int]) -> None:
    for v, p in d.at_least_table():
        assert p == d.at_least(v) == 1 - d.at_most(v - 1)
    assert d.percentile(1) == d.outcomes[-1]
    mean = sum(v * p for v, p in d.items())
    assert d.mean() == mean
    assert d.variance() == sum((v - mean) ** 2 * p for v, p in d.items())


# ---------------------------------------------------------------------- sampling


def test_uniform_below_is_in_range_and_covers_big_totals() -> None:
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 6, 2**63 + 1, 2**64, 2**64 + 1, 10**40):
        draws = [uniform_below(rng, n) for _ in range(50)]
        assert all(0 <= u < n for u in draws)
    draws = [uniform_below(rng, 10**40) for _ in range(2000)]
    assert sum(u >= 5 * 10**39 for u in draws) == pytest.approx(1000, abs=150)
    with pytest.raises(DiceError):
        uniform_below(rng, 0)


def test_sampling_is_seeded_and_in_the_support() -> None:
    d = die(6) + die(6)
    a = [d.sample(np.random.default_rng(7)) for _ in range(3)]
    assert len(set(a)) == 1
    rng = np.random.default_rng(7)
    draws = [d.sample(rng) for _ in range(500)]
    assert set(draws) <= set(d.outcomes)
    assert Dist.constant("x").sample(rng) == "x"
    many = d.sample_many(np.random.default_rng(3), (4, 5))
    assert many.shape == (4, 5) and many.dtype == np.int64
    assert np.array_equal(many, d.sample_many(np.random.default_rng(3), (4, 5)))
    assert die(6).sample_many(rng, 10, dtype=np.int8).dtype == np.int8
    assert Dist.constant(3).sample_many(rng, 4).tolist() == [3, 3, 3, 3]
    tuples = Dist.uniform([(0, 1), (1, 0)]).sample_many(rng, 3)
    assert tuples.dtype == object and tuples[0] in {(0, 1), (1, 0)}


@pytest.mark.parametrize(
    "dist",
    [
        die(6),
        die(6) + die(6),
        Dist.from_weights({-3: 1, 0: 5, 7: 2}),
        binomial(10, Fraction(1, 3)),  # total 3**10: a large lookup table
        binomial(40, Fraction(3, 10)),  # total 10**40: exact big-integer path
        Dist.from_weights({0: 2**40, 1: 1}),  # total above the table limit
    ],
    ids=["d6", "2d6", "weighted", "binomial-3^10", "binomial-10^40", "skewed"],
)
def test_sampled_means_converge_within_a_few_standard_errors(dist: Dist[int]) -> None:
    rng = np.random.default_rng(20240601)
    mean = float(dist.mean())
    size = 4000 if dist.total > 2**63 else 200_000
    se = dist.sd() / math.sqrt(size)
    bulk = dist.sample_many(rng, size).astype(float).mean()
    assert abs(bulk - mean) <= 4 * se + 1e-12
    singles = [dist.sample(rng) for _ in range(3000)]
    assert abs(float(np.mean(singles)) - mean) <= 4 * dist.sd() / math.sqrt(3000) + 1e-12


def test_sampled_frequencies_follow_the_weights() -> None:
    d = Dist.from_weights({"a": 1, "b": 2, "c": 7})
    draws = d.sample_many(np.random.default_rng(5), 100_000)
    for outcome, p in d.items():
        freq = float(np.mean(draws == outcome))
        se = math.sqrt(float(p) * (1 - float(p)) / 100_000)
        assert abs(freq - float(p)) <= 4 * se
