"""``tactica simulate SCENARIO --battles N --seed S``: whole battles, win rates with intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from tactica.cli.app import app
from tactica.cli.common import console, err_console, parse_rulings, print_json
from tactica.cli.output import CsvOpt, ExactOpt, MarkdownOpt, PrecisionOpt, show_tables
from tactica.errors import TacticaError
from tactica.scenario import load_scenario
from tactica.simulate import SimulationReport, simulate
from tactica.tables import NumberFormat
from tactica.views import simulation_tables


def _parse_policies(values: list[str] | None) -> dict[str, str] | str:
    if not values:
        return "greedy"
    if len(values) == 1 and "=" not in values[0]:
        return values[0]
    out: dict[str, str] = {}
    for item in values:
        side, sep, name = item.partition("=")
        if not sep:
            raise TacticaError(f"--policy: expected NAME or SIDE=NAME, got {item!r}")
        out[side.strip()] = name.strip()
    return out


def _print(report: SimulationReport) -> None:
    data = report.to_dict()
    t = Table(title=f"{report.scenario}: {report.battles} battles, seed {report.seed}",
              title_justify="left")
    t.add_column("side")
    t.add_column("policy")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    t.add_column("95% interval", justify="right")
    for side in report.sides:
        w = data["win_rate"][side]
        t.add_row(side, report.policies[side], str(report.wins[side]), f"{w['p']:.3f}",
                  f"{w['ci95'][0]:.3f} - {w['ci95'][1]:.3f}")
    d = data["draw_rate"]
    t.add_row("draw", "", str(report.draws), f"{d['p']:.3f}",
              f"{d['ci95'][0]:.3f} - {d['ci95'][1]:.3f}")
    console.print(t)
    r = data["rounds"]
    console.print(f"rounds: mean {r['mean']:.2f}, sd {r['sd']:.2f}, min {r['min']}, max {r['max']}")
    u = Table(title="units", title_justify="left")
    for col in ("unit", "side", "survival", "95% interval", "damage dealt", "damage taken"):
        u.add_column(col, justify="left" if col in ("unit", "side") else "right")
    for uid, row in data["units"].items():
        u.add_row(uid, row["side"], f"{row['survival']:.3f}",
                  f"{row['survival_ci95'][0]:.3f} - {row['survival_ci95'][1]:.3f}",
                  f"{row['damage_dealt_mean']:.2f}", f"{row['damage_taken_mean']:.2f}")
    console.print(u)
    defaults = {r.id: r.default for r in report.declared_rulings}
    changed = {k: v for k, v in report.rulings.items() if defaults.get(k) != v}
    console.print("rulings: " + (", ".join(f"{k}={v}" for k, v in changed.items())
                                 or "all defaults"))


@app.command(name="simulate")
def simulate_cmd(
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    battles: Annotated[int, typer.Option("--battles", "-n", min=1, max=10_000_000, help="How many battles.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same numbers.")] = 0,
    policy: Annotated[list[str] | None, typer.Option("--policy", "-p", help="greedy or random, or SIDE=NAME (repeatable).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-j", min=1, help="Processes (default: every core).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    precision: PrecisionOpt = 1,
    exact: ExactOpt = False,
) -> None:
    """Play whole battles with seeded dice; win rates with 95% confidence intervals."""
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    policies = _parse_policies(policy)
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=err_console, transient=True,
        disable=not err_console.is_terminal,
    ) as bar:
        task = bar.add_task("battles", total=battles)
        report = simulate(sc, battles=battles, seed=seed, policies=policies, workers=workers,
                          progress=lambda n: bar.advance(task, n))
    styled = csv is not None or markdown or precision != 1 or exact
    if json_out:
        print_json(report.to_dict())
    elif not styled:
        _print(report)
    if styled:
        show_tables(simulation_tables(report), NumberFormat(precision, exact), csv=csv,
                    markdown=markdown, quiet=json_out)
