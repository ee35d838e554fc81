"""Benchmark: how the Last Odyssey kernel's cost per battle grows with the size of the fight.

The largest example (by characters; ``--scenario`` picks another) is played as it is (1x), and
with every side's rows repeated twice (2x) and four times (4x): the same characters, renamed
``Cop 1 #2`` and so on, in the same rows, so a fight twice the size has twice the characters
on each side, in front and behind. Each size is played by the compiled kernel, both sides with
the same policy, for ``--seconds`` of CPU time (at most ``--battles`` battles); the table gives
ms per battle, steps per battle, ms per step and the growth of each against 1x. A step is one
action or automatic step: a fight twice the size has about twice the turns, and each turn
values about twice the targets, so the cost per battle may grow up to about 4x for 2x (the
greedy policy values every target of every action) while the cost per step grows about 2x.

The game itself allows at most 30 characters in a battle (``docs/limits.md``): the 4x fight of
a 10-character example has 40, so this benchmark lifts that limit for its own scenarios only.
``--reference`` also times the Python reference on a few battles of each size.

Run with ``python bench/scaling_last_odyssey.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.analysis.simulate import DEFAULT_MAX_STEPS, play_battle
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping

__all__ = ["grown", "main"]


def grown(scenario: Scenario, times: int) -> Scenario:
    """``scenario`` with every side's rows repeated ``times`` times (copies renamed ``#k``)."""
    data: dict[str, Any] = dict(scenario.data)
    if times == 1:
        return scenario
    sides = data["map"]["sides"]
    units = data["units"]
    new_sides: dict[str, dict[str, list[str]]] = {}
    new_units: dict[str, Any] = {}
    for side, rows in sides.items():
        new_sides[side] = {"front": [], "back": []}
        for k in range(1, times + 1):
            for row in ("front", "back"):
                for uid in rows.get(row, []):
                    name = uid if k == 1 else f"{uid} #{k}"
                    new_sides[side][row].append(name)
                    new_units[name] = units[uid]
    data["map"] = {**data["map"], "sides": new_sides}
    data["units"] = new_units
    data["name"] = f"{data.get('name', 'fight')} x{times}"
    lod = sys.modules[type(get_ruleset("last-odyssey")).__module__]
    limit = lod.MAX_CHARACTERS
    lod.MAX_CHARACTERS = max(limit, len(new_units))  # this benchmark's scenarios only
    try:
        return scenario_from_mapping(data, source=f"{Path(scenario.source).stem}-x{times}.yaml",
                                     base_dir=scenario.base_dir)
    finally:
        lod.MAX_CHARACTERS = limit


def _timed(scenario: Scenario, policy: str, seconds: float, battles: int, seed: int,
           reference: bool) -> tuple[int, float, int]:
    """(battles, CPU seconds, steps) of the kernel (or the reference) on ``scenario``."""
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = dict.fromkeys(sides, policy)
    kernel = prepared_kernel(scenario)
    if isinstance(kernel, NotCovered):
        raise SystemExit(f"{scenario.source}: the kernel does not cover it: {kernel.reason}")
    for i in range(3):  # warm up
        kernel.play(policies, seed, battles + i, DEFAULT_MAX_STEPS)
    n = steps = 0
    t0 = time.process_time()
    while n < battles and (time.process_time() - t0 < seconds or n == 0):
        if reference:
            result = play_battle(scenario, policies, seed, n)
        else:
            played = kernel.play(policies, seed, n, DEFAULT_MAX_STEPS)
            assert not isinstance(played, NotCovered)
            result = played
        steps += result.steps
        n += 1
    return n, time.process_time() - t0, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--scenario", type=Path, default=None,
                        help="the fight to grow (default: the largest example)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--policies", nargs="+", default=["greedy", "random"])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    parser.add_argument("--battles", type=int, default=3000, help="at most this many per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", action="store_true",
                        help="also time the Python reference (a few battles per size)")
    args = parser.parse_args(argv)
    if args.scenario is not None:
        base = load_scenario(args.scenario)
    else:
        examples = [load_scenario(p) for p in example_scenarios(get_ruleset("last-odyssey"))]
        base = max(examples, key=lambda s: len(s.new_state().fighters))
    print(f"Last Odyssey kernel, {Path(base.source).name} grown (CPU time, one core)")
    head = (f"{'policy':<7} {'size':>4} {'chars':>5} {'battles':>7} {'ms/battle':>10} "
            f"{'steps/b':>8} {'us/step':>8} {'growth/b':>9} {'growth/step':>11}"
            + (f" {'ref ms/b':>9}" if args.reference else ""))
    print(head)
    print("-" * len(head))
    for policy in args.policies:
        first: tuple[float, float] | None = None
        for size in args.sizes:
            sc = grown(base, size)
            chars = len(sc.new_state().fighters)
            n, spent, steps = _timed(sc, policy, args.seconds, args.battles, args.seed, False)
            per_battle = 1000 * spent / n
            per_step = 1e6 * spent / max(1, steps)
            if first is None:
                first = (per_battle, per_step)
            line = (f"{policy:<7} {size:>3}x {chars:>5} {n:>7} {per_battle:>10.4f} "
                    f"{steps / n:>8.1f} {per_step:>8.2f} {per_battle / first[0]:>8.2f}x "
                    f"{per_step / first[1]:>10.2f}x")
            if args.reference:
                rn, rspent, _ = _timed(sc, policy, min(args.seconds, 5.0), 40, args.seed, True)
                line += f" {1000 * rspent / rn:>9.2f}"
            print(line, flush=True)
    print("growth: against the 1x row of the same policy (per battle, and per step)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
