"""Benchmark: how the cost of an Arc battle in the compiled kernel grows with the fight.

The largest Arc example, the warehouse (a 14 x 7 grid, six characters), is played as it is
(1x), tiled twice side by side (2x: a 28 x 7 grid, twelve characters) and tiled two by two
(4x: 28 x 14, twenty-four characters): each copy keeps the crates, the oil and the characters
of the original, renamed, on the same sides. For each size and policy the kernel plays the
same battles (after a few warm-up battles) and the script prints its milliseconds per battle,
the steps per battle, the cost per step, and the growth against the size before. Times are
CPU time of this process (:func:`time.process_time`).

Run with ``python bench/scaling_arc.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import yaml

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.engine.ruleset import NotCovered, PreparedKernel, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, scenario_from_mapping

__all__ = ["main", "tiled"]

_IDS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _example() -> tuple[dict[str, Any], Path]:
    path = next(p for p in example_scenarios(get_ruleset("arc")) if p.stem == "warehouse")
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    return data, path.parent


def tiled(across: int, down: int) -> Scenario:
    """The warehouse tiled ``across`` x ``down`` times (every copy's characters renamed)."""
    data, base = _example()
    rows = data["map"]["tiles"].strip("\n").split("\n")
    w, h = len(rows[0]), len(rows)
    grid = [["."] * (w * across) for _ in range(h * down)]
    units: dict[str, Any] = {}
    rough: list[str] = []
    taken = 0
    for cy in range(down):
        for cx in range(across):
            renamed: dict[str, str] = {}
            for y, row in enumerate(rows):
                for x, ch in enumerate(row):
                    gx, gy = cx * w + x, cy * h + y
                    if ch in data["units"]:
                        new = _IDS[taken]
                        taken += 1
                        renamed[ch] = new
                        grid[gy][gx] = new
                        unit = dict(data["units"][ch])
                        unit.pop("name", None)
                        units[new] = unit
                    else:
                        grid[gy][gx] = ch
            for square in data.get("rough", []):
                x, y = (int(v) for v in square.split(","))
                rough.append(f"{cx * w + x},{cy * h + y}")
    out = {key: value for key, value in data.items() if key not in ("map", "units", "rough")}
    out["name"] = f"warehouse x{across * down}"
    out["map"] = {"kind": "grid", "tiles": "\n".join("".join(r) for r in grid) + "\n"}
    out["units"] = units
    out["rough"] = rough
    return scenario_from_mapping(out, source=f"warehouse-x{across * down}.yaml", base_dir=base)


def _time(kernel: PreparedKernel, sides: tuple[str, ...], policy: str, battles: int,
          warmup: int, seed: int) -> tuple[float, float]:
    policies = dict.fromkeys(sides, policy)
    for i in range(warmup):
        kernel.play(policies, seed, battles + i, 20_000)
    steps = 0
    start = time.process_time()
    for i in range(battles):
        result = kernel.play(policies, seed, i, 20_000)
        if isinstance(result, NotCovered):
            raise SystemExit(f"not covered: {result.reason}")
        steps += result.steps
    seconds = time.process_time() - start
    return seconds / battles, steps / battles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--battles", type=int, default=300, help="timed battles per row")
    parser.add_argument("--warmup", type=int, default=20, help="untimed battles first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policies", nargs="+", default=["greedy", "random"])
    args = parser.parse_args(argv)
    sizes = {1: (1, 1), 2: (2, 1), 4: (2, 2)}
    print(f"{'size':>5} {'policy':>7} {'units':>5} {'map':>7} {'ms/battle':>10} "
          f"{'steps':>7} {'us/step':>8} {'growth':>7}")
    for policy in args.policies:
        before: float | None = None
        for size, (across, down) in sizes.items():
            sc = tiled(across, down)
            kernel = prepared_kernel(sc)
            if isinstance(kernel, NotCovered):
                print(f"{size:>4}x not covered: {kernel.reason}")
                return 1
            state = sc.new_state()
            sides = sc.ruleset.sides_of(state)
            per, steps = _time(kernel, sides, policy, args.battles, args.warmup, args.seed)
            grid = state.grid
            growth = "" if before is None else f"{per / before:6.2f}x"
            print(f"{size:>4}x {policy:>7} {len(state.fighters):>5} "
                  f"{grid.width:>3}x{grid.height:<3} {per * 1000:>10.3f} {steps:>7.1f} "
                  f"{per / steps * 1e6:>8.2f} {growth:>7}")
            before = per
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
