"""Benchmark: tactica's exact dice core against icepool, side by side in one process.

Run with ``.venv/bin/python bench/dice.py`` (``--quick`` for a faster, noisier run).

For every query both libraries compute the full exact answer (a tactica ``Dist`` and an icepool
``Die``, or a table of exact fractions), the answers are checked to be equal outside the timed
region, and the median time per query over repeated runs is printed with the ratio
``icepool time / tactica time`` (targets: at least 5x on every query).

Caching, honestly: tactica keeps no distribution between calls (every run builds its
distributions from scratch; a distribution only memoises tables on itself). For expression
text it caches the parse and the size check of the last 512 texts (immutable syntax trees; the
analogue of icepool's expressions being Python code compiled once), never a result. icepool
caches dice and pool evaluations internally, so its repeated runs are *warm*; the ratio uses
that warm median, the conservative choice. The first call of each library (cold) is printed too.

Dice expressions (issue 15): every new modifier is computed from its text by
``tactica.dice.evaluate`` and checked equal to icepool's answer (explosions at the same depth);
the five target expressions must be at least 5x faster than icepool.

Sampling throughput is measured on one core in dice per second (target 50 million): fair dice
drawn straight into small integers, and whole pools drawn from their exact success
distribution (each pool result counting as its number of dice).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import numpy as np

from tactica.dice import (
    Dist,
    d10_success_chance,
    d10_target_successes,
    dice,
    die,
    evaluate,
    keep_highest,
    thin,
    two_d6,
)

RATIO_TARGET = 5.0
SAMPLING_TARGET = 50e6


# ---------------------------------------------------------------------- the two sides


def nebulia_die(target: int, modifier: int = 0, *, fails: bool = False) -> Any:
    """icepool: one Nebulia D10 as 1 (success) / 0, faces 0-9, natural 1 and 0 decide."""
    faces = [f == 1 or (f != 0 and f + modifier <= target) for f in range(10)]
    return icepool.Die([int(ok != fails) for ok in faces])


def exact(answer: Any) -> Any:
    """Either library's answer as plain data (outcome -> Fraction), for the equality check."""
    if isinstance(answer, Dist):
        return answer.to_dict()
    if isinstance(answer, icepool.Die):
        denom = answer.denominator()
        return {o: Fraction(q, denom) for o, q in answer.items() if q}
    if isinstance(answer, list):
        return [exact(a) for a in answer]
    if isinstance(answer, dict):
        return {k: exact(v) for k, v in answer.items()}
    return answer


def successes_query(n: int) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """Successes of n D10 at every target 0..10 (a designer's whole table)."""

    def mine() -> list[Dist[int]]:
        return [d10_target_successes(n, t) for t in range(11)]

    def theirs() -> list[Any]:
        return [n @ nebulia_die(t) for t in range(11)]

    return mine, theirs


def target_table_query() -> tuple[Callable[[], Any], Callable[[], Any]]:
    """P(2D6 + modifier >= target) for every target 2..14 and modifier -3..+3 (91 cells)."""

    def mine() -> dict[tuple[int, int], Fraction]:
        base = two_d6()
        return {(m, t): base.at_least(t - m) for m in range(-3, 4) for t in range(2, 15)}

    def theirs() -> dict[tuple[int, int], Fraction]:
        base = 2 @ icepool.d6
        out = {}
        for m in range(-3, 4):
            shifted = base + m
            for t in range(2, 15):
                out[m, t] = Fraction(shifted.probability(">=", t))
        return out

    return mine, theirs


def hits_saves_query(n: int) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """n D10 to hit at accuracy 6, then one armor D10 per hit saving at 3: unsaved hits."""

    def mine() -> Dist[int]:
        hits = d10_target_successes(n, 6)
        return thin(hits, d10_success_chance(3, fails=True))

    def theirs() -> Any:
        return (n @ nebulia_die(6)) @ nebulia_die(3, fails=True)

    return mine, theirs


def keep_query() -> tuple[Callable[[], Any], Callable[[], Any]]:
    """4d6, keep the highest 3."""
    return lambda: keep_highest(4, die(6), 3), lambda: icepool.d6.highest(4, 3)


def ten_3d6_query() -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The sum of ten 3d6."""
    return lambda: dice(3, 6).repeat_sum(10), lambda: 10 @ (3 @ icepool.d6)


def expression_queries() -> list[tuple[str, int, Callable[[], Any], bool]]:
    """``(text, explode depth, icepool's answer, is a target)`` for the dice language."""
    d6, d10, d20 = icepool.d6, icepool.d10, icepool.d20

    def count(die: Any, test: Callable[[int], bool]) -> Any:
        return die.map(lambda v: int(test(v)))

    return [
        ("1000d6", 20, lambda: 1000 @ d6, True),
        ("100d10cs>=7", 20, lambda: 100 @ (d10 >= 7), True),
        ("4d6x", 3, lambda: 4 @ d6.explode(depth=3), True),
        ("2d20kh", 20, lambda: d20.highest(2, 1), True),
        ("8d6r1", 20, lambda: 8 @ d6.reroll([1], depth="inf"), True),
        ("500d10cs>=7", 20, lambda: 500 @ (d10 >= 7), False),
        ("4d6dl1", 20, lambda: d6.highest(4, 3), False),
        ("6d6cs>=5", 20, lambda: 6 @ count(d6, lambda v: v >= 5), False),
        ("6d6>4f1", 20, lambda: 6 @ d6.map(lambda v: -1 if v == 1 else int(v >= 4)), False),
        ("6d6cf<=1", 20, lambda: 6 @ count(d6, lambda v: v <= 1), False),
        ("3d6x>=5", 5, lambda: 3 @ d6.explode([5, 6], depth=5), False),
        ("3d6!!", 9, lambda: 3 @ d6.explode(depth=9), False),
        ("4d6xo", 1, lambda: 4 @ d6.explode(depth=1), False),
        ("4d6xkh3", 3, lambda: d6.explode_to_pool(4, depth=3).highest(3).sum(), False),
        ("4d6ro1", 20, lambda: 4 @ d6.reroll([1], depth=1), False),
        ("4d6r<=2", 20, lambda: 4 @ d6.reroll([1, 2], depth="inf"), False),
        ("4d6min2max5", 20, lambda: 4 @ d6.clip(2, 5), False),
        ("4dF", 20, lambda: 4 @ icepool.Die([-1, 0, 1]), False),
        ("3d{0,0,1,1,2}", 20, lambda: 3 @ icepool.Die([0, 0, 1, 1, 2]), False),
        ("3d6/2u", 20, lambda: (3 @ d6).map(lambda v: -((-v) // 2)), False),
        ("max(d20, d20+2)", 20, lambda: icepool.highest(d20, d20 + 2), False),
    ]


# ---------------------------------------------------------------------- timing


def per_call(fn: Callable[[], Any], repeats: int, budget: float) -> float:
    """Median seconds per call over ``repeats`` runs of enough calls to fill ``budget``."""
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    inner = max(1, math.ceil(budget / once))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def cold(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def fmt_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.2f} ms"
    return f"{seconds * 1e6:8.1f} us"


def run_exact(repeats: int, budget: float) -> bool:
    queries: list[tuple[str, tuple[Callable[[], Any], Callable[[], Any]]]] = [
        *((f"successes of {n} D10, targets 0-10", successes_query(n)) for n in (1, 5, 20, 100)),
        ("2D6+mod >= target, 13x7 table", target_table_query()),
        *((f"hits then saves, {n} D10", hits_saves_query(n)) for n in (1, 5, 20, 100)),
        ("4d6 keep highest 3", keep_query()),
        ("sum of ten 3d6", ten_3d6_query()),
    ]
    header = (
        f"{'query':36} {'tactica':>11} {'icepool':>11} {'ratio':>7}   "
        f"{'tactica 1st':>11} {'icepool 1st':>11}  equal"
    )
    print("Exact odds (median per query; icepool warm, tactica uncached)")
    print(header)
    print("-" * len(header))
    ok = True
    for name, (mine, theirs) in queries:
        t_cold, a = cold(mine)
        i_cold, b = cold(theirs)
        assert exact(a) == exact(b), f"{name}: tactica and icepool disagree"
        t = per_call(mine, repeats, budget)
        i = per_call(theirs, repeats, budget)
        ratio = i / t
        ok &= ratio >= RATIO_TARGET
        flag = "" if ratio >= RATIO_TARGET else "  < target"
        print(
            f"{name:36} {fmt_time(t)} {fmt_time(i)} {ratio:6.1f}x   "
            f"{fmt_time(t_cold)} {fmt_time(i_cold)}  yes{flag}"
        )
    return ok


def run_expressions(repeats: int, budget: float) -> bool:
    header = (
        f"{'expression':22} {'tactica':>11} {'icepool':>11} {'ratio':>7}   "
        f"{'tactica 1st':>11} {'icepool 1st':>11}  equal"
    )
    print()
    print("Dice expressions from text (median per query; icepool warm)")
    print(header)
    print("-" * len(header))
    ok = True
    for text, depth, theirs, targeted in expression_queries():

        def mine(text: str = text, depth: int = depth) -> Dist[int]:
            return evaluate(text, explode_depth=depth)

        t_cold, a = cold(mine)
        i_cold, b = cold(theirs)
        assert exact(a) == exact(b), f"{text}: tactica and icepool disagree"
        t = per_call(mine, repeats, budget)
        i = per_call(theirs, repeats, budget)
        ratio = i / t
        flag = ""
        if targeted:
            ok &= ratio >= RATIO_TARGET
            flag = "  (target)" if ratio >= RATIO_TARGET else "  < target"
        explodes = "x" in text.replace("max", "") or "!" in text
        shown = f"{text} (depth {depth})" if explodes else text
        print(
            f"{shown:22} {fmt_time(t)} {fmt_time(i)} {ratio:6.1f}x   "
            f"{fmt_time(t_cold)} {fmt_time(i_cold)}  yes{flag}"
        )
    return ok


# ---------------------------------------------------------------------- sampling


def throughput(fn: Callable[[], int], repeats: int) -> float:
    """Median dice per second of ``fn`` (which returns how many dice it rolled)."""
    fn()
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        n = fn()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def run_sampling(repeats: int, size: int) -> bool:
    rng = np.random.default_rng(12345)
    d6, d10 = die(6), Dist.uniform(range(10))
    pool = d10_target_successes(10, 4)
    two = two_d6()

    def raw_d6() -> int:
        faces = d6.sample_many(rng, size, dtype=np.int8)
        assert abs(float(faces.mean()) - 3.5) < 0.01
        return size

    def raw_d10_successes() -> int:
        faces = d10.sample_many(rng, size, dtype=np.int8)
        hits = int(np.count_nonzero((faces == 1) | ((faces != 0) & (faces <= 4))))
        assert abs(hits / size - 0.4) < 0.01
        return size

    def pools() -> int:
        count = size // 10
        results = pool.sample_many(rng, count, dtype=np.int8)
        assert abs(float(results.mean()) - 4.0) < 0.05
        return count * 10

    def two_d6_sums() -> int:
        count = size // 2
        two.sample_many(rng, count, dtype=np.int8)
        return count * 2

    def single_draws() -> int:
        count = 20_000
        for _ in range(count):
            two.sample(rng)
        return count * 2

    rows: list[tuple[str, Callable[[], int], bool]] = [
        ("d6 faces into int8", raw_d6, True),
        ("D10 faces, then successes counted", raw_d10_successes, True),
        ("10-D10 pool results from the exact pool", pools, False),
        ("2D6 sums from the exact distribution", two_d6_sums, False),
        ("2D6 single exact draws (Dist.sample)", single_draws, False),
    ]
    print()
    print("Sampling on one core (dice per second; a pool or 2D6 result counts its dice)")
    ok = True
    for name, fn, targeted in rows:
        rate = throughput(fn, repeats)
        mark = ""
        if targeted:
            ok &= rate >= SAMPLING_TARGET
            mark = "  (target 50M)" if rate >= SAMPLING_TARGET else "  < target 50M"
        print(f"  {name:44} {rate / 1e6:9.1f} M dice/s{mark}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller samples")
    args = parser.parse_args(argv)
    # icepool sums 1000 dice by recursion, one level per die (with a cache per level)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    repeats, budget, size = (3, 0.005, 2_000_000) if args.quick else (7, 0.02, 10_000_000)
    print(f"icepool {icepool.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    print()
    exact_ok = run_exact(repeats, budget)
    expressions_ok = run_expressions(repeats, budget)
    sampling_ok = run_sampling(repeats, size)
    print()
    verdict = "yes" if exact_ok else "NO"
    print(f"exact odds >= {RATIO_TARGET:.0f}x icepool on every query: {verdict}")
    verdict = "yes" if expressions_ok else "NO"
    print(f"dice expressions >= {RATIO_TARGET:.0f}x icepool on every target: {verdict}")
    print(f"sampling >= 50M dice/s: {'yes' if sampling_ok else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
