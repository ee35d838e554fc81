"""The main job of ``tactica demo``: one scenario from odds to simulation to a ruling compared.

Uses the Nebulia Operations firefight shipped inside the package, so it needs no file.
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from tactica.cli.common import console
from tactica.cli.odds_cmd import print_report
from tactica.scenario import Scenario, load_scenario
from tactica.simulate import SimulationReport, simulate

__all__ = ["FIREFIGHT", "run_demo"]

#: The embedded scenario (the same file as ``examples/nebulia/firefight.yaml``).
FIREFIGHT = Path(__file__).resolve().parent.parent / "rulesets/nebulia/scenarios/firefight.yaml"


def _simulate(scenario: Scenario, battles: int, seed: int, label: str) -> SimulationReport:
    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task(label, total=battles)
        return simulate(scenario, battles=battles, seed=seed,
                        progress=lambda n: bar.advance(task, n))


def _win_row(report: SimulationReport, side: str) -> str:
    p, (lo, hi) = report.win_rate(side)
    return f"{p:.3f} ({lo:.3f}-{hi:.3f})"


def run_demo(*, battles: int, seed: int) -> None:
    """Print the map, the odds of every opening attack, one attack in detail, a simulation,
    and the same simulation under another reading of the cover rule."""
    start = time.perf_counter()
    sc = load_scenario(FIREFIGHT)
    state = sc.new_state()
    rs = sc.ruleset
    console.print(f"[bold]tactica demo[/bold]: {rs.meta.title}, {sc.name}\n")
    console.print(sc.battlefield.preview())
    console.print()

    table = Table(title="Every attack possible from the opening positions (exact)",
                  title_justify="left")
    for col in ("attacker", "weapon", "target", "cover", "expected damage", "P(out of action)"):
        table.add_column(col, justify="right" if col[0] in "eP" else "left")
    best = None
    for uid in rs.unit_ids(state):  # type: ignore[attr-defined]
        for option in rs.attack_options(state, uid):  # type: ignore[attr-defined]
            report = rs.odds(state, option.unit, option.target,  # type: ignore[attr-defined]
                             option.weapon)
            n = report.numbers
            table.add_row(option.unit, option.weapon, option.target,
                          "yes" if report.extra.get("cover") else "no",
                          f"{float(n['expected_damage']):.3f}",
                          f"{float(n['p_out_of_action']):.3f}")
            if report.extra.get("cover") and best is None:
                best = report
    console.print(table)
    if best is not None:
        console.print()
        print_report(best)
    console.print()

    base = _simulate(sc, battles, seed, "simulating")
    variant_choice = {"NEB-6": "characteristic"}
    variant = _simulate(sc.with_rulings(variant_choice, where="demo"), battles, seed,
                        "simulating NEB-6=characteristic")
    cmp = Table(title=f"{battles} battles each, greedy against greedy, seed {seed}: "
                      "win rate (95% interval)", title_justify="left")
    cmp.add_column("side")
    cmp.add_column("NEB-6=die (default)", justify="right")
    cmp.add_column("NEB-6=characteristic", justify="right")
    for side in base.sides:
        cmp.add_row(side, _win_row(base, side), _win_row(variant, side))
    cmp.add_row("draw", f"{base.draws / base.battles:.3f}",
                f"{variant.draws / variant.battles:.3f}")
    cmp.add_row("mean rounds", f"{sum(base.rounds) / len(base.rounds):.2f}",
                f"{sum(variant.rounds) / len(variant.rounds):.2f}")
    console.print(cmp)
    console.print(f"\ndone in {time.perf_counter() - start:.1f} s. Next: "
                  "tactica play examples/nebulia/firefight.yaml --log fight.jsonl")
