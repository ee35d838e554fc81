"""Benchmark: how the cost of a Skirmishers battle in the compiled kernel grows with the fight.

The largest example (the street fight: 24 x 16 dots, 4 against 4) is measured beside fights
1x, 2x and 4x its size: a generated field of about the same area per trooper (``--scale`` k:
4k troopers a side on a map of about k times the street fight's dots), with low walls,
furniture and trees scattered by a seeded generator, both squads armed as the street fight's
(rifles, SMGs, pistols; the pack's grenades and knife). Each row plays ``--battles`` battles
(both sides the same policy) through the kernel after a few warm-up battles, and prints the
kernel's ms per battle, the steps per battle and the growth against the 1x row: per battle
and per step (a battle of a bigger fight is longer, so the cost per step says whether each
decision grows faster than the fight). CPU time of this process (:func:`time.process_time`).

Run with ``python bench/scaling_skirmishers.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.engine.ruleset import NotCovered
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping

__all__ = ["field", "main", "measure"]

_STREET = Path(__file__).resolve().parent.parent / "examples" / "skirmishers" / \
    "street-fight.yaml"
_IDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_KIT = [{"primary": "rifle", "secondary": "pistol"}, {"primary": "smg"},
        {"primary": "smg", "armor": "basic"}, {"primary": "rifle"}]
_FEATURES = ("low-wall", "furniture", "tree", "fence")


def field(scale: int, seed: int = 1) -> Scenario:
    """A generated fight ``scale`` times the street fight: 4 x ``scale`` troopers a side on
    about ``scale`` times its dots (24 x 16)."""
    pick = random.Random(seed * 100 + scale)
    factor = scale ** 0.5
    cols, rows = min(50, round(24 * factor)), min(50, round(16 * factor))
    grid = [["."] * cols for _ in range(rows)]
    units: dict[str, Any] = {}
    per_side = 4 * scale
    for side, (lo, hi) in (("red", (0, cols // 4)), ("blue", (cols - cols // 4, cols))):
        for k in range(per_side):
            while True:
                c, r = pick.randrange(lo, hi), pick.randrange(rows)
                if grid[r][c] == ".":
                    break
            uid = _IDS[len(units)]
            grid[r][c] = uid
            units[uid] = {"side": side, **_KIT[k % len(_KIT)]}
    text = "\n".join((" " if r % 2 else "") + " ".join(row) for r, row in enumerate(grid))
    features, used = [], set()
    for _ in range(cols * rows // 25):
        c, r = pick.randrange(cols - 1), pick.randrange(rows)
        if (c, r) not in used:
            used.add((c, r))
            features.append({"between": [[c, r], [c + 1, r]], "kind": pick.choice(_FEATURES)})
    data = {
        "game": "skirmishers", "name": f"Field x{scale}", "max_rounds": 8,
        "map": {"kind": "dots", "name": f"Field x{scale}", "levels": {"ground": text + "\n"},
                "features": features},
        "units": units,
    }
    return scenario_from_mapping(data, source=f"field-x{scale}.yaml", base_dir=_STREET.parent)


def measure(sc: Scenario, policy: str, battles: int, warmup: int, seed: int
            ) -> tuple[float, float]:
    """``(kernel ms per battle, steps per battle)`` over ``battles`` battles."""
    prepared = prepared_kernel(sc)
    if isinstance(prepared, NotCovered):
        raise SystemExit(f"{sc.source}: not covered by the kernel: {prepared.reason}")
    sides = sc.ruleset.sides_of(sc.new_state())
    policies = dict.fromkeys(sides, policy)
    for i in range(warmup):
        prepared.play(policies, seed, 10_000 + i, 20_000)
    steps = 0
    t0 = time.process_time()
    for i in range(battles):
        result = prepared.play(policies, seed, i, 20_000)
        if isinstance(result, NotCovered):
            raise SystemExit(f"battle {i} not covered: {result.reason}")
        steps += result.steps
    seconds = time.process_time() - t0
    return 1000 * seconds / battles, steps / battles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=100, help="battles per row")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policies", nargs="+", default=["greedy", "random"])
    args = parser.parse_args(argv)
    fights = [("street-fight (example)", load_scenario(_STREET))]
    fights += [(f"field x{k}", field(k, args.seed)) for k in (1, 2, 4)]
    print("Skirmishers kernel: cost per battle as the fight grows (CPU time, one core)")
    head = (f"{'fight':<24} {'dots':>9} {'troopers':>8} {'policy':<7} {'ms/battle':>10} "
            f"{'steps/b':>8} {'x per battle':>12} {'x per step':>10}")
    print(head)
    print("-" * len(head))
    for policy in args.policies:
        base: tuple[float, float] | None = None
        for name, sc in fights:
            lat = sc.battlefield
            size = f"{lat.cols}x{lat.rows}"  # type: ignore[attr-defined]
            ms, steps = measure(sc, policy, args.battles, args.warmup, args.seed)
            if name == "field x1":
                base = (ms, steps)
            growth = ("" if base is None else
                      f"{ms / base[0]:>11.2f}x {ms / steps / (base[0] / base[1]):>9.2f}x")
            troopers = len(sc.new_state().troopers)
            print(f"{name:<24} {size:>9} {troopers:>8} {policy:<7} {ms:>10.3f} {steps:>8.1f} "
                  f"{growth}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
