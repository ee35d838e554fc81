"""The main job of ``tactica demo``: one scenario from odds to simulation to a ruling compared.

Which scenario (one shipped inside the package, so it needs no file) and which ruling are read
from ``demo.yaml`` beside this module.
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from tactica.analysis.attacks import attack_rows
from tactica.analysis.simulate import ComparisonReport, compare
from tactica.cli.common import console
from tactica.cli.odds_cmd import print_report
from tactica.cli.simulate_cmd import print_comparison
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import odds_hooks
from tactica.engine.scenario import Scenario, load_scenario
from tactica.engine.validation import load_yaml

__all__ = ["DEMO", "DEMO_BATTLES", "demo_comparison", "demo_scenario", "demo_verdict",
           "run_demo"]

#: What the demo shows (a scenario path relative to this file, and a ruling id).
DEMO = Path(__file__).resolve().with_name("demo.yaml")
#: Battles under each reading: enough that the verdict does not hang on the seed (the demo's
#: ruling moves each side's win rate by about 20 points; at 2,000 battles its interval is
#: about +-2.2 points, and a test finds the same verdict over five seeds).
DEMO_BATTLES = 2_000


def demo_scenario() -> tuple[Path, str]:
    """The demo's scenario file and the ruling it compares."""
    data = load_yaml(DEMO, error=TacticaError)
    if not isinstance(data, dict) or not {"scenario", "compare"} <= set(data):
        raise TacticaError(f"{DEMO}: expected 'scenario' and 'compare'")
    return (DEMO.parent / str(data["scenario"])).resolve(), str(data["compare"])


def demo_comparison(battles: int, seed: int, *, workers: int | None = None
                    ) -> ComparisonReport:
    """The demo's comparison without the screen: its ruling's default against its first other
    reading over ``battles`` battles."""
    path, ruling_id = demo_scenario()
    sc = load_scenario(path)
    ruling = next(r for r in sc.rulings.declared() if r.id == ruling_id)
    other = next(o for o in ruling.options if o != ruling.default)
    return compare(sc, f"{ruling.id}={ruling.default},{other}", battles=battles, seed=seed,
                   workers=workers)


def demo_verdict(report: ComparisonReport) -> str:
    """What the comparison says of each side, in one line: ``X-6=b against X-6=a: red higher
    (+2.6 pts, +-1.0), blue lower (-2.5 pts, +-1.0)``."""
    parts = []
    for side in report.sides:
        d = report.paired_difference(1, side)
        half = max(d.high - d.difference, d.difference - d.low)
        parts.append(f"{side} {d.verdict} ({d.difference * 100:+.1f} pts, +-{half * 100:.1f})")
    return f"{report.labels[1]} against {report.labels[0]}: " + ", ".join(parts)


def _compare(scenario: Scenario, spec: str, battles: int, seed: int) -> ComparisonReport:
    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task(f"simulating {spec}", total=battles)
        return compare(scenario, spec, battles=battles, seed=seed,
                       progress=lambda done, planned: bar.update(task, completed=done,
                                                                 total=planned))


def run_demo(*, battles: int, seed: int) -> None:
    """Print the map, the odds of every opening attack, one attack in detail, a simulation,
    and the same battles under another reading of a ruling, paired, with its verdict."""
    start = time.perf_counter()
    path, ruling_id = demo_scenario()
    sc = load_scenario(path)
    state = sc.new_state()
    rs = sc.ruleset
    console.print(Text.assemble(("tactica demo", "bold"), f": {rs.meta.title}, {sc.name}\n"))
    if sc.battlefield is not None:
        console.print(sc.battlefield.preview())
        console.print()

    table = Table(title="Every attack possible from the opening positions (exact)",
                  title_justify="left")
    for col in ("attacker", "weapon", "target", "cover", "expected damage", "P(out of action)"):
        table.add_column(col, justify="right" if col[0] in "eP" else "left")
    best = None
    for row in attack_rows(rs, state, None, {}):
        table.add_row(row["attacker"], row["weapon"], row["target"],
                      "yes" if row.get("cover") else "no",
                      f"{row['expected_damage']:.3f}", f"{row['p_out_of_action']:.3f}")
        if row.get("cover") and best is None:
            hooks = odds_hooks(rs)
            action = hooks.odds_action(state, row["attacker"], (row["target"],), row["weapon"])
            best = hooks.odds(state, action)
    console.print(table)
    if best is not None:
        console.print()
        print_report(best)
    console.print()

    ruling = next(r for r in sc.rulings.declared() if r.id == ruling_id)
    other = next(o for o in ruling.options if o != ruling.default)
    report = _compare(sc, f"{ruling.id}={ruling.default},{other}", battles, seed)
    console.print(f"{ruling.id}: {ruling.question}")
    console.print(f"{battles} battles each, greedy against greedy, seed {seed}: every battle "
                  "is played under both readings with the same dice (common random numbers)")
    print_comparison(report)
    console.print(f"verdict: {demo_verdict(report)}")
    console.print(f"\ndone in {time.perf_counter() - start:.1f} s. Next: "
                  "tactica games, then tactica play SCENARIO --log fight.jsonl")
