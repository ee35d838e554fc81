"""The dice expression language: parsing, evaluation, error messages and size limits."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.dice import (
    Dist,
    d100,
    dice,
    die,
    estimate_cost,
    evaluate,
    keep_highest,
    keep_lowest,
    parse,
    roll,
)
from tactica.dice.expr import MAX_WORK, Chain, Compare, Const, DiceTerm, Neg, RandomRoll
from tactica.dice.pool import Cond, Count, Faces, Keep, PoolSpec
from tactica.engine.errors import DiceError

FUZZ = settings(max_examples=300, deadline=None, derandomize=True)


def oracle(d: Any) -> dict[Any, Fraction]:
    denom = d.denominator()
    out: dict[Any, Fraction] = {}
    for o, q in d.items():
        key = int(o) if isinstance(o, bool) else o
        if q:
            out[key] = out.get(key, Fraction(0)) + Fraction(q, denom)
    return out


# ---------------------------------------------------------------------- parsing


def roll_(n: int, sides: int, keep: Keep | None = None, count: Count | None = None) -> DiceTerm:
    return DiceTerm(n, PoolSpec(Faces.plain(sides), keep=keep, count=count))


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("2d6+1", Chain(roll_(2, 6), (("+", Const(1)),))),
        ("d6", roll_(1, 6)),
        ("D%", DiceTerm(1, PoolSpec(Faces.percent()))),
        ("4d6kh3", roll_(4, 6, Keep("kh", 3))),
        ("4d6k3", roll_(4, 6, Keep("kh", 3))),
        ("2d20kh", roll_(2, 20, Keep("kh", 1))),
        ("4d6KL1", roll_(4, 6, Keep("kl", 1))),
        ("-d4", Neg(roll_(1, 4))),
        ("+3", Const(3)),
        ("(1d4)d6", RandomRoll(roll_(1, 4), Faces.plain(6))),
        ("2*d6", Chain(Const(2), (("*", roll_(1, 6)),))),
        ("(2d6)>=8", Compare(">=", roll_(2, 6), Const(8))),
        ("(2d6)=7", Compare("==", roll_(2, 6), Const(7))),
        ("2d6+0>=8", Compare(">=", Chain(roll_(2, 6), (("+", Const(0)),)), Const(8))),
        ("3d6>=4", roll_(3, 6, count=Count(Cond(">=", 4)))),
        ("6d6>4", roll_(6, 6, count=Count(Cond(">=", 4)))),
        ("6d6cs>4", roll_(6, 6, count=Count(Cond(">=", 5)))),
        ("1-2-3", Chain(Const(1), (("-", Const(2)), ("-", Const(3))))),
        ("1+2*3", Chain(Const(1), (("+", Chain(Const(2), (("*", Const(3)),))),))),
        ("(1-2)-3", Chain(Chain(Const(1), (("-", Const(2)),)), (("-", Const(3)),))),
    ],
)
def test_parse_builds_the_expected_tree(text: str, tree: Any) -> None:
    assert parse(text) == tree
    assert parse(str(tree)) == tree


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" 4D6 kh3 + ( 1d4 - 1 ) * 2 ", "4d6kh3 + (1d4 - 1) * 2"),
        ("1-(2-3)", "1 - (2 - 3)"),
        ("-(d6+1)", "-(1d6 + 1)"),
        ("((2d6)>=8)+((2d6)>=8)", "((2d6) >= 8) + ((2d6) >= 8)"),
        ("(d4+1)d%", "(1d4 + 1)d%"),
        ("(1-2)-3", "(1 - 2) - 3"),
        ("6d6 > 4 f 1", "6d6cs>=4df1"),
        ("2d10r<2!>9kh1", "2d10rr<=2x>=9kh1"),
        ("max(d20, d20)+min(1,d4) / 2u", "max(1d20, 1d20) + min(1, 1d4) / 2u"),
    ],
)
def test_canonical_text_round_trips(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical
    assert parse(canonical) == parse(text)


# ---------------------------------------------------------------------- evaluation


def test_the_examples_of_the_language() -> None:
    assert evaluate("2d6+1") == dice(2, 6) + 1
    assert evaluate("3d10").outcomes[:2] == (3, 4) and evaluate("3d10").outcomes[-1] == 30
    assert evaluate("d6") == die(6)
    assert evaluate("4d6kh3") == keep_highest(4, die(6), 3)
    assert evaluate("4d6kl1") == keep_lowest(4, die(6), 1)
    assert evaluate("d%") == d100()
    assert evaluate("3d6-1d4") == dice(3, 6) - dice(1, 4)
    assert evaluate("(2d6)") == dice(2, 6)
    assert evaluate("7") == Dist.constant(7)
    assert evaluate("0d6") == Dist.constant(0)
    assert evaluate("2*d6").outcomes == (2, 4, 6, 8, 10, 12)
    assert evaluate("d6*d6").p(36) == Fraction(1, 36)
    assert evaluate("-d6+7") == die(6)
    assert evaluate("4d6kh0") == Dist.constant(0)


@pytest.mark.parametrize(
    ("text", "ice"),
    [
        ("(2d6)>=8", 2 @ icepool.d6 >= 8),
        ("(2d6)<=8", 2 @ icepool.d6 <= 8),
        ("(2d6)>8", 2 @ icepool.d6 > 8),
        ("(2d6)<8", 2 @ icepool.d6 < 8),
        ("(2d6)==7", 2 @ icepool.d6 == 7),
        ("(2d6)!=7", 2 @ icepool.d6 != 7),
        ("2d6+1>=8", 2 @ icepool.d6 + 1 >= 8),
        ("1+2d6>=8", 2 @ icepool.d6 + 1 >= 8),
        ("2d6>=d8+2", 2 @ icepool.d6 >= icepool.d8 + 2),
        ("d20+5>=d20+3", icepool.d20 + 5 >= icepool.d20 + 3),
        ("(1d4)d6", icepool.d4 @ icepool.d6),
        ("3d6-1d4", 3 @ icepool.d6 - icepool.d4),
        ("4d6kh3", icepool.d6.highest(4, 3)),
        ("5d10kl2+1", icepool.d10.lowest(5, 2) + 1),
    ],
)
def test_expressions_match_icepool(text: str, ice: Any) -> None:
    assert evaluate(text).to_dict() == oracle(ice)


def test_comparisons_are_zero_or_one_and_can_be_summed() -> None:
    hit = evaluate("(2d6)>=8")
    assert hit.outcomes == (0, 1) and hit.p(1) == Fraction(5, 12)
    assert evaluate("d6>=1") == Dist.constant(1)
    two = evaluate("(d20>=11)+(d20>=11)")
    assert two.to_dict() == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_roll_and_dist_method() -> None:
    import numpy as np

    rng = np.random.default_rng(3)
    values = {roll("2d6+1", rng) for _ in range(200)}
    assert values <= set(range(3, 14)) and len(values) > 5
    assert parse("d8").dist() == die(8)


# ---------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d6+)", "unexpected ')' at column 5 in '2d6+)'"),
        ("", "empty dice expression"),
        ("   ", "empty dice expression"),
        ("2d", "unexpected end at column 3 in '2d'; a die needs sides"),
        ("2d6 +", "unexpected end at column 6"),
        ("d0", "a die needs 1 to 1000000 sides, got 0 at column 2"),
        ("4d6kh5", "cannot keep 5 of 4 dice at column 4"),
        ("2x6", "unexpected 'x' at column 2"),
        ("2d6 & 1", "unexpected '&' at column 5"),
        ("2d6y", "unknown word 'y' at column 4"),
        ("(2d6", "unexpected end at column 5 in '(2d6'; expected ')'"),
        ("2d6)", "unexpected ')' at column 4"),
        ("(2d6)>=8>=1", "comparisons do not chain; use parentheses"),
        ("2d6 3", "unexpected '3' at column 5"),
        ("1234567890", "number 1234567890 at column 1"),
        ("d²", "unexpected '²' at column 2"),
        ("(" * 200 + "1" + ")" * 200, "nested too deeply"),
        ("-" * 500 + "1", "nested too deeply"),
        ("1+" * 600 + "1", "too long"),
    ],
)
def test_errors_name_the_input_and_the_column(text: str, message: str) -> None:
    with pytest.raises(DiceError) as info:
        evaluate(text)
    assert message in str(info.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(DiceError, match="must be text"):
        parse(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1000000d1000000", "too many dice: 1000000"),
        ("10001d6", "too many dice: 10001"),
        ("d1000000+d1000000", "too many outcomes"),
        ("d1000*d1000", "too many outcomes"),
        ("1000d1000", "too many outcomes"),
        ("10000d20", "too large"),
        ("150d1000kh2", "too large to compute exactly"),
        ("(d6-4)d6", "can be negative"),
        ("(10d2000)d6", "too many dice"),
    ],
)
def test_oversized_expressions_fail_before_computing(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        estimate_cost(text) if "too many" in message else evaluate(text)


def test_cost_bounds_contain_the_result() -> None:
    for text in ("2d6+1", "4d6kh3", "(1d4)d6", "3d6-1d4", "d6*d6", "-d4*3", "2d6>=d8+2"):
        cost = estimate_cost(text)
        dist = evaluate(text)
        assert cost.lo <= dist.outcomes[0] and dist.outcomes[-1] <= cost.hi
        assert len(dist) <= cost.outcomes
        assert cost.work < MAX_WORK


def test_large_but_allowed_expressions_compute() -> None:
    d = evaluate("100d10")
    assert len(d) == 901 and d.mean() == 550
    huge = evaluate("999999999*999999999*999999999*d6+d6*999999999")
    assert len(huge) == 36 and huge.outcomes[0] == 999999999**3 + 999999999


# ---------------------------------------------------------------------- fuzzing

dice_alphabet = st.text(alphabet="0123456789dDkhlFrxocsfmianpu%+-*/(){},<>=! ", max_size=30)


def _parse_or_error(text: str) -> None:
    try:
        node = parse(text)
        cost = estimate_cost(node)
    except DiceError:
        return
    if cost.work < 1e7:
        try:
            dist = evaluate(node)
        except DiceError:
            return
        assert sum(p for _, p in dist.items()) == 1


@FUZZ
@given(st.text(max_size=40))
def test_arbitrary_text_never_crashes(text: str) -> None:
    _parse_or_error(text)


@FUZZ
@given(dice_alphabet)
def test_dice_like_text_never_crashes(text: str) -> None:
    _parse_or_error(text)


small_exprs = st.recursive(
    st.one_of(
        st.integers(0, 12).map(str),
        st.builds(lambda n, s: f"{n}d{s}", st.integers(0, 4), st.integers(1, 8)),
        st.builds(lambda s: f"4d{s}kh2", st.integers(1, 6)),
        st.builds(lambda s, t: f"3d{s}cs>={t}", st.integers(1, 6), st.integers(0, 7)),
        st.builds(lambda s, t: f"2d{s}r{t}!!", st.integers(3, 6), st.integers(1, 2)),
        st.builds(lambda s: f"2d{s}xo", st.integers(2, 6)),
    ),
    lambda inner: st.one_of(
        st.builds(lambda a, b: f"({a})+({b})", inner, inner),
        st.builds(lambda a, b: f"({a})-({b})", inner, inner),
        st.builds(lambda a: f"-({a})", inner),
        st.builds(lambda a, b: f"({a})>=({b})", inner, inner),
        st.builds(lambda a, b: f"max({a},{b})", inner, inner),
        st.builds(lambda a: f"({a})/2u", inner),
    ),
    max_leaves=5,
)


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@settings(max_examples=80, deadline=None, derandomize=True)
@given(small_exprs)
def test_cost_bounds_hold_and_text_round_trips(text: str) -> None:
    node = parse(text)
    assert parse(str(node)) == node
    cost = estimate_cost(node)
    dist = evaluate(node)
    assert cost.lo <= dist.outcomes[0] and dist.outcomes[-1] <= cost.hi
    assert len(dist) <= cost.outcomes
    assert sum(p for _, p in dist.items()) == 1
