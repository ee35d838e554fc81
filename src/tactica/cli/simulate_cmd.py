"""``tactica simulate SCENARIO``: whole battles, win rates with intervals, paired comparisons.

``--battles N`` plays N battles; ``--precision W`` plays rounds of battles until every interval
shown has a half width of at most W (up to ``--max-battles``). ``--compare KEY=A,B`` plays each
battle under every variant (a ruling's readings, or values of a field of the scenario) with
common random numbers and reports the paired differences. Long runs show their progress (a bar
on a terminal, a line every few seconds otherwise); Ctrl-C stops at once and prints what was
done, with exit code 130.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from tactica.analysis.simulate import ComparisonReport, SimulationReport, compare, simulate
from tactica.cli.app import app
from tactica.cli.common import console, err_console, parse_rulings, print_json
from tactica.cli.output import CsvOpt, DecimalsOpt, ExactOpt, MarkdownOpt, show_tables
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario

__all__ = ["ProgressLine", "print_comparison", "print_report", "simulate_cmd"]


def _parse_policies(values: list[str] | None) -> dict[str, str] | str | None:
    if not values:
        return None  # the game's default
    if len(values) == 1 and "=" not in values[0]:
        return values[0]
    out: dict[str, str] = {}
    for item in values:
        side, sep, name = item.partition("=")
        if not sep:
            raise TacticaError(f"--policy: expected NAME or SIDE=NAME, got {item!r}")
        out[side.strip()] = name.strip()
    return out


def _ci(ci: list[float | None]) -> str:
    lo, hi = ci
    return f"{lo:.3f} - {hi:.3f}" if lo is not None and hi is not None else "-"


def _rate_cell(rate: dict[str, Any]) -> str:
    lo, hi = rate["ci95"]
    return f"{rate['p']:.3f} ({lo:.2f}-{hi:.2f})"


def _signed(ci: list[float | None]) -> str:
    lo, hi = ci
    return f"[{lo:+.3f}, {hi:+.3f}]" if lo is not None and hi is not None else "-"


def print_report(report: SimulationReport) -> None:
    """The tables of one scenario's simulation."""
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
                  _ci(w["ci95"]))
    d = data["draw_rate"]
    t.add_row("draw", "", str(report.draws), f"{d['p']:.3f}", _ci(d["ci95"]))
    console.print(t)
    if data["unfinished"]:
        console.print(f"unfinished: {data['unfinished']} battles were stopped at the step "
                      "budget (neither a win nor a draw)")
    r = data["rounds"]
    console.print(f"rounds: mean {r['mean']:.2f}, sd {r['sd']:.2f}, min {r['min']}, max {r['max']}")
    u = Table(title="units", title_justify="left")
    for col in ("unit", "side", "survival", "95% interval", "damage dealt", "damage taken"):
        u.add_column(col, justify="left" if col in ("unit", "side") else "right")
    for uid, row in data["units"].items():
        u.add_row(uid, row["side"], f"{row['survival']:.3f}", _ci(row["survival_ci95"]),
                  f"{row['damage_dealt_mean']:.2f}", f"{row['damage_taken_mean']:.2f}")
    console.print(u)
    defaults = {r.id: r.default for r in report.declared_rulings}
    changed = {k: v for k, v in report.rulings.items() if defaults.get(k) != v}
    console.print("rulings: " + (", ".join(f"{k}={v}" for k, v in changed.items())
                                 or "all defaults"))
    _print_precision(report.precision)
    console.print(report.engine_line(), markup=False, highlight=False)


def _print_precision(precision: Any) -> None:
    if precision:
        state = "reached" if precision["reached"] else "NOT reached (the cap came first)"
        console.print(f"precision: every interval's half width <= {precision['target']:g}: "
                      f"{state}; widest {precision['widest']}")


def print_comparison(report: ComparisonReport) -> None:
    """The tables of a paired comparison: each variant's rates, then the differences."""
    data = report.to_dict()
    t = Table(title=f"{report.scenario}: {report.battles} battles under each variant "
                    f"(common random numbers), seed {report.seed}: win rate (95% interval)",
              title_justify="left")
    t.add_column("outcome")
    for label in report.labels:
        t.add_column(label, justify="right")
    figures = [data["variants"][label] for label in report.labels]
    for side in report.sides:
        t.add_row(f"{side} wins", *(_rate_cell(v["win_rate"][side]) for v in figures))
    t.add_row("draw", *(_rate_cell(v["draw_rate"]) for v in figures))
    t.add_row("mean rounds", *(f"{v['rounds']['mean']:.2f}" for v in figures))
    console.print(t)
    for row in data["paired"]:
        d = Table(title=f"{row['variant']} minus {row['against']}, battle by battle: "
                        "paired difference (95% interval)", title_justify="left")
        for col in ("outcome", "difference", "95% interval", "significant"):
            d.add_column(col, justify="left" if col == "outcome" else "right")
        for outcome in report.outcomes:
            cell = row[outcome]
            name = f"{outcome} wins" if outcome != "draw" else "draw"
            d.add_row(name, f"{cell['difference']:+.3f}", _signed(cell["ci95"]),
                      "yes" if cell["significant"] else "no")
        console.print(d)
    _print_precision(report.precision)
    console.print(report.engine_line(), markup=False, highlight=False)


class ProgressLine:
    """Progress off a terminal: a line on standard error every ``every`` seconds (battles
    done, rate, time left)."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self.start = time.monotonic()
        self.last = self.start

    def __call__(self, done: int, planned: int) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        left = (planned - done) / rate if rate > 0 else float("inf")
        err_console.print(f"simulate: {done}/{planned} battles, {rate:.1f}/s, "
                          f"{_duration(left)} left")


def _duration(seconds: float) -> str:
    if seconds == float("inf"):
        return "unknown time"
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


@app.command(name="simulate")
def simulate_cmd(
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    battles: Annotated[int | None, typer.Option("--battles", "-n", min=1, max=10_000_000, help="How many battles (default 1000; per variant with --compare).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same numbers.")] = 0,
    policy: Annotated[list[str] | None, typer.Option("--policy", "-p", help="greedy, random or first-option (default: the game's own, greedy where it has a policy part; tactica games --json lists them), or SIDE=NAME (repeatable).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    compare_spec: Annotated[str | None, typer.Option("--compare", "-c", help="Compare variants on the same battles: RULING=A,B (ABC-6=die,characteristic) or a field PATH=A,B (units.A.defense=2,3).")] = None,
    precision: Annotated[float | None, typer.Option("--precision", help="Play until every interval's half width is at most this (e.g. 0.01), up to --max-battles.")] = None,
    max_battles: Annotated[int, typer.Option("--max-battles", min=1, max=10_000_000, help="The cap of a run to a --precision.")] = 100_000,
    workers: Annotated[int | None, typer.Option("--workers", "-j", min=1, help="Local processes (default: every core).")] = None,
    executor: Annotated[str, typer.Option("--executor", help="process (a local pool) or dask (a Dask cluster, with --scheduler).")] = "process",
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="The Dask scheduler's address (tcp://host:8786).")] = None,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="Steps after which a battle is stopped and counted unfinished.")] = 20_000,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    exact: ExactOpt = False,
) -> None:
    """Play whole battles with seeded dice; win rates with 95% confidence intervals."""
    if precision is not None and battles is not None:
        raise TacticaError("give --battles or --precision, not both")
    if executor == "dask" and not scheduler:
        raise TacticaError("--executor dask needs --scheduler ADDRESS (such as tcp://127.0.0.1:8786)")
    if scheduler and executor != "dask":
        raise TacticaError("--scheduler is for --executor dask")
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    policies = _parse_policies(policy)
    n = battles if battles is not None else (None if precision is not None else 1000)
    options: dict[str, Any] = dict(battles=n, seed=seed, policies=policies, workers=workers,
                                   precision=precision, max_battles=max_battles,
                                   executor=executor, scheduler=scheduler, max_steps=max_steps)
    report: SimulationReport | ComparisonReport
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=err_console, transient=True,
        disable=not err_console.is_terminal,
    ) as bar:
        task = bar.add_task("battles", total=n or max_battles)
        line = None if err_console.is_terminal else ProgressLine()

        def progress(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned)
            if line is not None:
                line(done, planned)

        if compare_spec is not None:
            report = compare(sc, compare_spec, progress=progress, **options)
        else:
            report = simulate(sc, progress=progress, **options)
    styled = csv is not None or markdown or decimals != 1 or exact
    if json_out:
        print_json(report.to_dict())
    elif styled and isinstance(report, SimulationReport):
        pass
    elif isinstance(report, ComparisonReport):
        print_comparison(report)
    else:
        print_report(report)
    if styled:
        if not isinstance(report, SimulationReport):
            raise TacticaError("--csv, --markdown, --decimals and --exact: for a comparison use "
                               "--json (its tables come as JSON)")
        from tactica.analysis.views import simulation_tables
        from tactica.presentation.tables import NumberFormat

        show_tables(simulation_tables(report), NumberFormat(decimals, exact), csv=csv,
                    markdown=markdown, quiet=json_out)
    if report.interrupted:
        err_console.print(f"interrupted: {report.battles} battles were finished; the figures "
                          "above are theirs")
        raise typer.Exit(130)
