"""Benchmark: how the cost of an Unhex battle in the compiled kernel grows with the fight.

The largest Unhex example (the nightclub fight: 8 areas, 7 characters) is played as it is,
then as a fight 2x and 4x its size: the nightclub's map copied side by side (each copy's
alley opens on the next copy's entrance) with every copy's characters in it, so there are
2x and 4x the areas and the characters, and the teams meet across the copies. Each size is
played by the kernel (both sides greedy, then both random) for a few seconds of CPU; the
table gives ms per battle, steps per battle and the growth of ms per battle against the 1x
fight. Battles grow longer with more characters (more actions and rounds), so the cost per
step is shown too: it is what should grow no faster than the work of one step (linear in the
characters and areas for the legal actions, quadratic at most for the greedy valuation, which
weighs every character against every foe).

Run with ``python bench/scaling_unhex.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.analysis.simulate import DEFAULT_MAX_STEPS
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping

__all__ = ["main", "scaled"]


def _largest() -> Scenario:
    paths = example_scenarios(get_ruleset("unhex"))
    scenarios = [load_scenario(p) for p in paths]
    return max(scenarios, key=lambda s: (len(s.data["units"]), len(s.data["map"]["areas"])))


def scaled(base: Scenario, copies: int) -> Scenario:
    """``base`` with its map and characters copied ``copies`` times side by side."""
    data: dict[str, Any] = dict(base.data)
    game_map = dict(data["map"])
    areas: list[str] = list(game_map["areas"])

    def named(area: str, k: int) -> str:
        return area if k == 0 else f"{area} {k + 1}"

    new_areas = [named(a, k) for k in range(copies) for a in areas]
    connections = []
    for k in range(copies):
        for c in game_map["connections"]:
            link = dict(c)
            link["between"] = [named(a, k) for a in c["between"]]
            if "cover" in c:
                link["cover"] = [named(a, k) for a in c["cover"]]
            connections.append(link)
        if k:
            connections.append({"between": [named("Alley", k - 1), named("Entrance", k)]})
    game_map["areas"] = new_areas
    game_map["connections"] = connections
    game_map.pop("layout", None)
    data["map"] = game_map
    units = {}
    for k in range(copies):
        for uid, unit in data["units"].items():
            copy = dict(unit)
            copy["at"] = named(unit["at"], k)
            units[uid if k == 0 else f"{uid} {k + 1}"] = copy
    data["units"] = units
    data["exits"] = [named(e, k) for k in range(copies) for e in data.get("exits", [])]
    return scenario_from_mapping(data, source=f"{Path(base.source).stem}-x{copies}.yaml",
                                 base_dir=base.base_dir)


def _time(scenario: Scenario, policy: str, seconds: float, seed: int) -> tuple[float, float, int]:
    kernel = prepared_kernel(scenario)
    if isinstance(kernel, NotCovered):
        raise SystemExit(f"{scenario.source}: the kernel does not play it: {kernel.reason}")
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = dict.fromkeys(sides, policy)
    battles = steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds or battles == 0:
        result = kernel.play(policies, seed, battles, DEFAULT_MAX_STEPS)
        assert not isinstance(result, NotCovered), result
        steps += result.steps
        battles += 1
    spent = time.process_time() - t0
    return 1000 * spent / battles, 1e6 * spent / steps, steps // battles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args(argv)
    base = _largest()
    print(f"{'fight':<24} {'policy':<7} {'areas':>5} {'chars':>5} {'ms/battle':>10} "
          f"{'steps':>6} {'us/step':>8} {'growth':>7}")
    for policy in ("greedy", "random"):
        first: float | None = None
        for size in args.sizes:
            sc = scaled(base, size) if size > 1 else base
            ms, us_step, steps = _time(sc, policy, args.seconds, args.seed)
            first = ms if first is None else first
            print(f"{Path(sc.source).name:<24} {policy:<7} {len(sc.data['map']['areas']):>5} "
                  f"{len(sc.data['units']):>5} {ms:>10.3f} {steps:>6} {us_step:>8.2f} "
                  f"{ms / first:>6.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
