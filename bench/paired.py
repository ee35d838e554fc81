"""Benchmark: how many battles a paired comparison saves against two independent runs.

Plays ``--battles`` battles of a scenario under both readings of a ruling (default: the
Nebulia firefight, NEB-6=die,characteristic) with common random numbers
(:func:`tactica.analysis.simulate.compare`). For each outcome (a side's win, a draw) the paired
difference's variance per battle is ``var(d)``; two independent runs of ``n`` battles each
would have ``p1(1-p1) + p2(1-p2)`` instead (their covariance is 0). Battles needed for a 95%
interval of half width ``w`` on the difference: ``(1.96/w)² · variance`` per variant, for each
method; the ratio of the two is the saving. Run with ``python bench/paired.py``.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from tactica.analysis.simulate import compare
from tactica.engine.scenario import load_scenario

__all__ = ["main"]

FIREFIGHT = Path(__file__).resolve().parents[1] / "examples" / "nebulia" / "firefight.yaml"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--scenario", type=Path, default=FIREFIGHT)
    parser.add_argument("--compare", default="NEB-6=die,characteristic")
    parser.add_argument("--battles", type=int, default=2000, help="battles per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--width", type=float, default=0.02, help="target half width")
    args = parser.parse_args(argv)
    sc = load_scenario(args.scenario)
    t0 = time.perf_counter()
    report = compare(sc, args.compare, battles=args.battles, seed=args.seed,
                     workers=args.workers)
    seconds = time.perf_counter() - t0
    n = report.battles
    z = 1.959963984540054
    print(f"{report.scenario}: {args.compare}, {n} battles per variant, seed {args.seed} "
          f"({seconds:.0f} s)")
    head = (f"{'outcome':<10} {'p first':>8} {'p second':>9} {'diff':>8} {'var paired':>11} "
            f"{'var indep':>10} {'n paired':>9} {'n indep':>9} {'saving':>7}")
    print(head)
    print("-" * len(head))
    for o in report.outcomes:
        first, second = report.reports
        p1 = _rate(first, o)
        p2 = _rate(second, o)
        total = report.paired.sums[0][o]
        squares = report.paired.squares[0][o]
        var_paired = (squares - total * total / n) / (n - 1)
        var_indep = p1 * (1 - p1) + p2 * (1 - p2)
        need_paired = math.ceil((z / args.width) ** 2 * var_paired)
        need_indep = math.ceil((z / args.width) ** 2 * var_indep)
        saving = var_indep / var_paired if var_paired > 0 else float("inf")
        print(f"{o:<10} {p1:>8.3f} {p2:>9.3f} {total / n:>+8.3f} {var_paired:>11.4f} "
              f"{var_indep:>10.4f} {need_paired:>9} {need_indep:>9} {saving:>6.1f}x")
    print(f"n paired / n indep: battles per variant for a 95% half width of {args.width} on "
          "the difference (each method plays them under both variants)")
    return 0


def _rate(report: object, outcome: str) -> float:
    from tactica.analysis.simulate import SimulationReport

    assert isinstance(report, SimulationReport)
    if outcome == "draw":
        return report.draws / report.battles
    return report.wins[outcome] / report.battles


if __name__ == "__main__":
    raise SystemExit(main())
