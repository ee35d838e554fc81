"""Benchmark: what preparing each game's compiled kernel costs, per example and at the bounds.

A kernel is prepared once per scenario and process before its first battle (its tables built
from the reference); this measures that preparation in a fresh process per scenario (CPU time
of the child, :func:`time.process_time`, so the caches of one row never help another), beside
the kernel's first battle (which builds what it looks up on the way), its next battles and
the reference's (each in a fresh process too), and how many battles pay the preparation and
the first battle back. Rows: every example of the five games, then the largest fights the bounds
allow of the games whose preparation grows with the map (a Skirmishers lattice of 50 x 50
dots, the Unhex nightclub copied seven times: 56 areas, 49 characters). Then, at the bounds,
what a whole run costs (``simulate`` of 20 and of 5 battles on 2 workers, CPU of the process
and its workers) with kernels and without (``TACTICA_KERNELS=0``): the kernels of a run are
prepared once, before the workers fork, and a run too short to pay them back is left to the
reference.

Run with ``python bench/preparation.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from tactica.engine.ruleset import example_scenarios, rulesets
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping

__all__ = ["main", "measure", "run_cpu"]

_HERE = Path(__file__).resolve().parent


def _skirmishers_field(size: int) -> Scenario:
    """Two troopers a side in opposite corners of an open ``size`` x ``size`` lattice."""
    grid = [["."] * size for _ in range(size)]
    grid[0][0], grid[2][1] = "A", "C"
    grid[size - 1][size - 1], grid[size - 3][size - 2] = "B", "D"
    text = "\n".join((" " if r % 2 else "") + " ".join(row) for r, row in enumerate(grid))
    kit = {"A": "rifle", "C": "smg", "B": "rifle", "D": "smg"}
    return scenario_from_mapping(
        {"game": "skirmishers", "name": f"{size} x {size}", "max_rounds": 30,
         "map": {"kind": "dots", "levels": {"ground": text + "\n"}},
         "units": {u: {"side": "red" if u in "AC" else "blue", "primary": w}
                   for u, w in kit.items()}},
        source=f"field-{size}.yaml", base_dir=_HERE)


def _bounds() -> list[tuple[str, Scenario]]:
    sys.path.insert(0, str(_HERE))
    import scaling_unhex

    unhex = scaling_unhex.scaled(scaling_unhex._largest(), 7)
    return [("skirmishers 50 x 50 dots", _skirmishers_field(50)),
            (f"unhex {len(unhex.data['map']['areas'])} areas", unhex)]


def measure(scenario: Scenario, engine: str, seed: int = 1, battles: int = 3
            ) -> dict[str, Any]:
    """CPU seconds in this process (call it in a fresh one): with ``engine`` "kernel", the
    kernel's preparation, its first battle (which builds what it looks up on the way: the
    lines of sight of a Skirmishers map) and the mean of the next ``battles``; with
    "reference", the mean of ``battles`` battles by the reference."""
    from tactica.analysis.sim.kernels import prepared_kernel
    from tactica.analysis.sim.play import play_battle
    from tactica.engine.policies import default_policy
    from tactica.engine.ruleset import NotCovered

    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = {s: default_policy(scenario.ruleset) for s in sides}
    if engine == "reference":
        start = time.process_time()
        for index in range(battles):
            play_battle(scenario, policies, seed, index)
        return {"battle": (time.process_time() - start) / battles}
    start = time.process_time()
    kernel = prepared_kernel(scenario)
    prepared = time.process_time() - start
    if isinstance(kernel, NotCovered):
        return {"prepare": prepared, "reason": kernel.reason}
    start = time.process_time()
    kernel.play(policies, seed, 0, 20_000)
    first = time.process_time() - start
    start = time.process_time()
    for index in range(1, battles + 1):
        kernel.play(policies, seed, index, 20_000)
    return {"prepare": prepared, "first": first,
            "battle": (time.process_time() - start) / battles}


def run_cpu(scenario: Scenario, battles: int, workers: int, kernels: str | None
            ) -> dict[str, Any]:
    """CPU seconds of ``simulate(scenario, battles, workers)`` in this process and its
    workers (call it in a fresh one), with ``TACTICA_KERNELS`` set to ``kernels`` (``None``:
    unset, the engine chooses), and who played."""
    from tactica.analysis.simulate import simulate

    if kernels is None:
        os.environ.pop("TACTICA_KERNELS", None)
    else:
        os.environ["TACTICA_KERNELS"] = kernels
    start = time.process_time()
    report = simulate(scenario, battles=battles, seed=1, workers=workers)
    own = time.process_time() - start
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"cpu": own + children.ru_utime + children.ru_stime, "engine": report.engine}


def _child(scenario: Scenario, engine: str, out: Any, run: tuple[int, int] | None) -> None:
    if run is None:
        out.put(measure(scenario, engine))
    else:
        out.put(run_cpu(scenario, run[0], run[1], None if engine == "auto" else engine))


def _fresh(scenario: Scenario, engine: str, run: tuple[int, int] | None = None
           ) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=_child, args=(scenario, engine, out, run))
    proc.start()
    found: dict[str, Any] = out.get()
    proc.join()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-bounds", action="store_true", help="only the examples")
    args = parser.parse_args(argv)
    rows: list[tuple[str, Scenario]] = []
    for ruleset in rulesets():
        for path in example_scenarios(ruleset):
            rows.append((f"{ruleset.meta.name} {path.stem}", load_scenario(path)))
    if not args.no_bounds:
        rows += _bounds()
    print(f"{'scenario':<34} {'prepare':>8} {'1st kernel':>10} {'kernel':>8} "
          f"{'reference':>9} {'pays back':>10}")
    for name, scenario in rows:
        k = _fresh(scenario, "kernel")
        if "reason" in k:
            print(f"{name:<34} {k['prepare']:>7.3f}s  reference plays: {k['reason']}")
            continue
        r = _fresh(scenario, "reference")
        # battles the run needs before the kernel's preparation and first battle are paid
        saved = r["battle"] - k["battle"]
        extra = k["prepare"] + k["first"] - k["battle"]
        back = f"{max(extra, 0.0) / saved:>9.1f}" if saved > 0 else "    never"
        print(f"{name:<34} {k['prepare']:>7.3f}s {k['first']:>9.3f}s {k['battle']:>7.4f}s "
              f"{r['battle']:>8.3f}s {back}")
    if not args.no_bounds:
        print(f"\n{'a run on 2 workers':<34} {'battles':>7} {'kernels':>8} {'without':>8}  "
              f"who played with kernels")
        for name, scenario in _bounds():
            for battles in (20, 5):
                on = _fresh(scenario, "auto", (battles, 2))
                off = _fresh(scenario, "0", (battles, 2))
                engine = on["engine"]
                who = (f"kernel {engine['kernel']}, reference {engine['reference']}"
                       + (f" ({'; '.join(engine['reasons'])})" if engine["reasons"] else ""))
                print(f"{name:<34} {battles:>7} {on['cpu']:>7.2f}s {off['cpu']:>7.2f}s  {who}")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
