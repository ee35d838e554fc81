"""Every dice modifier, exactly against icepool (a test-only oracle) and by its properties.

Explosions are compared at the same depth in both libraries (icepool's ``depth``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest
from dicesim import sample
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.dice import evaluate, parse, truncation
from tactica.engine.errors import DiceError

d6, d10, d20 = icepool.d6, icepool.d10, icepool.d20


def oracle(d: Any) -> dict[int, Fraction]:
    denom = d.denominator()
    out: dict[int, Fraction] = {}
    for o, q in d.items():
        if q:
            key = int(o)
            out[key] = out.get(key, Fraction(0)) + Fraction(q, denom)
    return out


def score(success: Callable[[int], bool], failure: Callable[[int], bool] | None = None) -> Any:
    def f(v: int) -> int:
        if failure is not None and failure(v):
            return -1
        return int(success(v))

    return f


def chain(die: Any, boom: Callable[[int], bool], depth: int, value: Callable[[int], int],
          extra: Callable[[int], int] | None = None) -> Any:
    """icepool: the total of value(roll) over one die's rolls, exploding on boom."""
    extra = extra or value

    def rest(d: int) -> Any:
        if d == 0:
            return die.map(extra)
        return die.map(lambda v: extra(v) + rest(d - 1) if boom(v) else extra(v))

    if depth == 0:
        return die.map(value)
    return die.map(lambda v: value(v) + rest(depth - 1) if boom(v) else value(v))


def kept(n: int, die: Any, k: int, f: Callable[[int], int], highest: bool = True) -> Any:
    pool = die.pool(n)
    sel = pool.highest(k) if highest else pool.lowest(k)
    return sel.expand().map(lambda t: sum(f(v) for v in t))


at_least_5 = score(lambda v: v >= 5)
CASES: list[tuple[str, Any]] = [
    # keep and drop
    ("2d20kh", d20.highest(2, 1)),
    ("2d20kl", d20.lowest(2, 1)),
    ("4d6kh3", d6.highest(4, 3)),
    ("4d6k3", d6.highest(4, 3)),
    ("5d10kl2", d10.lowest(5, 2)),
    ("4d6dl1", d6.highest(4, 3)),
    ("4d6d1", d6.highest(4, 3)),
    ("5d8dh2", icepool.d8.lowest(5, 3)),
    ("3d6kh0", icepool.Die([0])),
    ("3d6dl3", icepool.Die([0])),
    # successes and failures
    ("6d6cs>=5", 6 @ d6.map(at_least_5)),
    ("6d6cs>4", 6 @ d6.map(at_least_5)),
    ("6d6>4", 6 @ d6.map(score(lambda v: v >= 4))),
    ("6d6>=4", 6 @ d6.map(score(lambda v: v >= 4))),
    ("6d6<2", 6 @ d6.map(score(lambda v: v <= 2))),
    ("6d6=6", 6 @ d6.map(score(lambda v: v == 6))),
    ("6d6cs6", 6 @ d6.map(score(lambda v: v == 6))),
    ("6d6cf<=1", 6 @ d6.map(score(lambda v: v <= 1))),
    ("6d6cf<2", 6 @ d6.map(score(lambda v: v <= 1))),
    ("6d6>4f1", 6 @ d6.map(score(lambda v: v >= 4, lambda v: v == 1))),
    ("6d6>4f<2", 6 @ d6.map(score(lambda v: v >= 4, lambda v: v <= 2))),
    ("10d10cs>=8df=1", 10 @ d10.map(score(lambda v: v >= 8, lambda v: v == 1))),
    ("100d10cs>=7", 100 @ d10.map(score(lambda v: v >= 7))),
    ("4d6kh3cs>=5", kept(4, d6, 3, at_least_5)),
    ("5d6kl2cs>=3", kept(5, d6, 2, score(lambda v: v >= 3), highest=False)),
    ("5d6dh1cs<=2df6", kept(5, d6, 4, score(lambda v: v <= 2, lambda v: v == 6), False)),
    ("5d6kh2=3", kept(5, d6, 2, score(lambda v: v == 3))),
    # explosions (depth 3 in both)
    ("4d6x", 4 @ d6.explode(depth=3)),
    ("4d6!", 4 @ d6.explode(depth=3)),
    ("4d6!!", 4 @ d6.explode(depth=3)),
    ("3d6x>=5", 3 @ d6.explode([5, 6], depth=3)),
    ("3d6x>4", 3 @ d6.explode([5, 6], depth=3)),
    ("3d6!>4", 3 @ d6.explode([4, 5, 6], depth=3)),
    ("3d6x5", 3 @ d6.explode([5], depth=3)),
    ("2d10xo", 2 @ d10.explode(depth=1)),
    ("2d6xo>=5", 2 @ d6.explode([5, 6], depth=1)),
    ("d4x1", icepool.d4.explode([1], depth=3)),
    ("3d6!p", 3 @ chain(d6, lambda v: v == 6, 3, lambda v: v, lambda v: v - 1)),
    ("5d10x10cs>=8", 5 @ chain(d10, lambda v: v == 10, 3, score(lambda v: v >= 8))),
    ("5d6!cs6", 5 @ chain(d6, lambda v: v == 6, 3, score(lambda v: v == 6))),
    ("4d6!!cs>=8", 4 @ d6.explode(depth=3).map(score(lambda v: v >= 8))),
    ("4d6!!kh2", d6.explode(depth=3).highest(4, 2)),
    ("4d6xkh3", d6.explode_to_pool(4, depth=3).highest(3).sum()),
    ("2d20!kh", d20.explode_to_pool(2, depth=3).highest(1).sum()),
    ("3d6x>=5kl2", d6.explode_to_pool(3, [5, 6], depth=3).lowest(2).sum()),
    ("4d6x1kh2", d6.explode_to_pool(4, [1], depth=3).highest(2).sum()),
    ("3d6xdl1", d6.explode_to_pool(3, depth=3).expand().map(lambda t: sum(sorted(t)[1:]))),
    ("3d6xodh1", d6.explode_to_pool(3, depth=1).expand().map(lambda t: sum(sorted(t)[:-1]))),
    ("3d6x7kh2", d6.highest(3, 2)),
    ("3d6xkh2cs>=5", d6.explode_to_pool(3, depth=3).highest(2).expand().map(
        lambda t: sum(v >= 5 for v in t))),
    ("3d6!p>=5cs>=5", 3 @ chain(d6, lambda v: v >= 5, 3, score(lambda v: v >= 5),
                                 score(lambda v: v - 1 >= 5))),
    # rerolls (r and rr until the face no longer matches, ro once)
    ("8d6r1", 8 @ d6.reroll([1], depth="inf")),
    ("8d6r", 8 @ d6.reroll([1], depth="inf")),
    ("8d6ro1", 8 @ d6.reroll([1], depth=1)),
    ("4d6r<=2", 4 @ d6.reroll([1, 2], depth="inf")),
    ("4d6r<2", 4 @ d6.reroll([1, 2], depth="inf")),
    ("4d6rr<2", 4 @ d6.reroll([1], depth="inf")),
    ("4d6r1r3", 4 @ d6.reroll([1, 3], depth="inf")),
    ("2d10ro<2", 2 @ d10.reroll([1, 2], depth=1)),
    ("4d6ro1kh3", d6.reroll([1], depth=1).highest(4, 3)),
    ("3d6r1x", 3 @ d6.reroll([1], depth="inf").explode(depth=3)),
    # minimum and maximum per die
    ("4d6min3", 4 @ d6.clip(3, None)),
    ("4d6max4", 4 @ d6.clip(None, 4)),
    ("d20min10max15", d20.clip(10, 15)),
    ("2d6min2x", 2 @ d6.clip(2, None).explode(depth=3)),
    # other dice
    ("4dF", 4 @ icepool.Die([-1, 0, 1])),
    ("4df", 4 @ icepool.Die([-1, 0, 1])),
    ("3d{0,0,1,1,2}", 3 @ icepool.Die([0, 0, 1, 1, 2])),
    ("2d{-2,5,5}kh1", icepool.Die([-2, 5, 5]).highest(2, 1)),
    ("4dFcs>=1", 4 @ icepool.Die([0, 0, 1])),
    ("(d4)dF", icepool.d4 @ icepool.Die([-1, 0, 1])),
    # division and max/min
    ("2d6/2", (2 @ d6).map(lambda v: v // 2)),
    ("2d6/2u", (2 @ d6).map(lambda v: -((-v) // 2))),
    ("(2d6-7)/3", (2 @ d6 - 7).map(lambda v: v // 3)),
    ("(2d6-7)/3u", (2 @ d6 - 7).map(lambda v: -((-v) // 3))),
    ("10/d4", icepool.d4.map(lambda v: 10 // v)),
    ("max(d20, d20)", d20.highest(2, 1)),
    ("min(d20, d20, d20)", d20.lowest(3, 1)),
    ("max(2d6, d12) - min(1, d4)", icepool.highest(2 @ d6, icepool.d12) - 1),
    # the old meaning of a comparison, one level up
    ("(3d6)>=10", 3 @ d6 >= 10),
    ("(6d6cs>=5)>=2", (6 @ d6.map(at_least_5)) >= 2),
]


@pytest.mark.parametrize(("text", "ice"), CASES, ids=[c[0] for c in CASES])
def test_modifiers_match_icepool_exactly(text: str, ice: Any) -> None:
    assert evaluate(text, explode_depth=3).to_dict() == oracle(ice)


def test_default_depth_matches_icepool_at_the_same_depth() -> None:
    assert evaluate("2d6x").to_dict() == oracle(2 @ d6.explode(depth=20))


def test_the_issue_example_counts_successes() -> None:
    assert evaluate("6d6cs>=5").p(2) == Fraction(80, 243)


def test_truncated_mass_is_exact() -> None:
    assert truncation("d6x", explode_depth=3) == Fraction(1, 1296)
    assert truncation("4d6x", explode_depth=3) == 1 - Fraction(1295, 1296) ** 4
    assert truncation("d6x>=5", explode_depth=2) == Fraction(1, 27)
    assert truncation("2d6xo+d4!!", explode_depth=5) == Fraction(1, 4**6)
    assert truncation("(1d6x)d6 + 2d6", explode_depth=0) == Fraction(1, 6)
    assert truncation("6d6cs>=5") == 0
    assert truncation("max(d6!, 3)", explode_depth=1) == Fraction(1, 36)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d6r<=6", "rerolls every face"),
        ("2d6x>=1", "explodes on every value"),
        ("2d6!!>0", "explodes on every value"),
        ("4d6x3kh2", "exploding values all above"),
        ("4d6!pdl1", "cannot drop the lowest after !p"),
        ("4d6kh3r1", "goes before keeping"),
        ("4d6cs>4kh3", "keep or drop once per dice term, before counting"),
        ("4d6kh3kl1", "keep or drop once"),
        ("4d6x!!", "one explosion per dice term"),
        ("4d6r1ro2", "not both"),
        ("2d6df1", "failures (f, df) follow a count"),
        ("2d6cs", "cs needs a target"),
        ("3d6>4f", "f needs a target"),
        ("(2d6)d6kh1", "modifiers need a fixed number of dice"),
        ("4d6dl5", "cannot drop 5 of 4 dice"),
        ("d{1,2", "expected ',' or '}'"),
        ("d{}", "expected a number"),
        ("max 3", "max needs its arguments in parentheses"),
        ("max(1,", "expected a number"),
        ("2d6/(d2-1)", "can be 0"),
        ("6d6>4+2", "ambiguous '>4' after '6d6'"),
        ("2d6>=7", "counts the dice showing 7 or more, which is always 0"),
        ("3d6>0", "which is always 3"),
    ],
)
def test_modifier_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        evaluate(text)


def test_syntax_errors_carry_the_column() -> None:
    with pytest.raises(DiceError) as info:
        parse("4d6kh3r1")
    assert getattr(info.value, "column", None) == 7
    with pytest.raises(DiceError) as info:
        parse("2d6 + 3d6 ? 1")
    assert getattr(info.value, "column", None) == 11


# ---------------------------------------------------------------------- properties

modifier_texts = st.builds(
    lambda n, s, mods: f"{n}d{s}{''.join(mods)}",
    st.integers(0, 4),
    st.sampled_from(["4", "6", "10", "F", "{0,0,1,1,2}", "%"]),
    st.tuples(
        st.sampled_from(["", "r1", "ro<=2", "rr>5", "min2", "max4", "min0"]),
        st.sampled_from(["", "x", "!!", "xo", "!p", "x>=5", "!>3"]),
        st.sampled_from(["", "kh2", "kl1", "dl1", "dh1"]),
        st.sampled_from(["", "cs>=3", "cf<2", "cs>=2df<=1", "cs5"]),
    ),
)


def _exact_or_refused(text: str) -> Any:
    try:
        return evaluate(text, explode_depth=2)
    except DiceError:
        return None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(modifier_texts)
def test_probabilities_sum_to_exactly_one(text: str) -> None:
    dist = _exact_or_refused(text)
    if dist is not None:
        assert sum(p for _, p in dist.items()) == 1
        node = parse(text, explode_depth=2)
        assert parse(str(node), explode_depth=2) == node
        cost = node.cost()
        assert cost.lo <= dist.outcomes[0] and dist.outcomes[-1] <= cost.hi


SAMPLED = [
    "4d6kh3",
    "2d20kl1",
    "6d6cs>=5",
    "6d6>4f1",
    "4d6x",
    "3d6!>=5cs>=5",
    "5d10x10cs>=8df1",
    "3d6!p",
    "4d6!!kh2",
    "4d6xkh3",
    "3d6x>=5dl1cs>=5",
    "8d6r1",
    "6d8ro<=2",
    "4d6min2max5",
    "4dF+2",
    "3d{0,0,1,1,2}",
    "2d6/2u - 3d6/2",
    "max(d20, d12) + min(d8, 3)",
    "(1d4)d6",
    "(2d6)>=8",
]


@pytest.mark.parametrize("text", SAMPLED)
def test_sampled_means_agree_within_four_standard_errors(text: str) -> None:
    node = parse(text, explode_depth=4)
    dist = evaluate(node)
    rng = random.Random(text)
    n = 3000
    mean = sum(sample(rng, node) for _ in range(n)) / n
    se = dist.sd() / math.sqrt(n)
    assert abs(mean - float(dist.mean())) <= 4 * se + 1e-12
