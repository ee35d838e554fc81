"""``tactica simulate SCENARIO``: whole battles, win rates with intervals, paired comparisons.

``--battles N`` plays N battles; ``--precision W`` plays rounds of battles until every interval
shown has a half width of at most W (up to ``--max-battles``). ``--compare KEY=A,B`` plays each
battle under every variant (a ruling's readings, or values of a field of the scenario) with
common random numbers and reports the paired differences. Long runs show their progress (a bar
on a terminal, a line every few seconds otherwise); Ctrl-C stops at once and prints what was
done, with exit code 130.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tactica.analysis import ctrl_c
from tactica.analysis.simulate import ComparisonReport, SimulationReport, compare, simulate
from tactica.cli.app import app
from tactica.cli.common import console, err_console, parse_rulings, print_json
from tactica.cli.output import CsvOpt, DecimalsOpt, ExactOpt, MarkdownOpt, show_tables
from tactica.cli.progress import ProgressLine, progress_shown
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import Column, NumberFormat, Table

__all__ = ["ProgressLine", "comparison_print_tables", "print_comparison", "print_report",
           "report_tables", "simulate_cmd"]


#: Why a simulation refuses --exact.
EXACT_REFUSED = ("--exact: win rates from battles are estimates with intervals, not exact "
                 "fractions (exact odds: tactica odds, matrix, sweep --odds)")


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


def _rate(rate: dict[str, Any], fmt: NumberFormat) -> str:
    lo, hi = rate["ci95"]
    return fmt.p_interval(rate["p"], lo, hi)


def report_tables(report: SimulationReport, fmt: NumberFormat | None = None
                  ) -> tuple[Table, Table]:
    """The terminal tables of one scenario's simulation: the sides' win rates, each unit."""
    fmt = fmt or NumberFormat()  # the number format of every table (percentages, 1 decimal)
    data = report.to_dict()
    sides = Table(f"{report.scenario}: {report.battles} battles, seed {report.seed}",
                  [Column("side"), Column("policy"), Column("wins", "int"),
                   Column("win rate", "p"), Column("95% interval", right=True)], [])
    for side in report.sides:
        w = data["win_rate"][side]
        sides.rows.append([side, report.policies[side], report.wins[side], w["p"],
                           _ci_p(w["ci95"], fmt)])
    d = data["draw_rate"]
    sides.rows.append(["draw", "", report.draws, d["p"], _ci_p(d["ci95"], fmt)])
    units = Table("units", [Column("unit"), Column("side"), Column("survival", "p"),
                            Column("95% interval", right=True),
                            Column("damage dealt", "num"), Column("damage taken", "num")],
                  [[uid, row["side"], row["survival"], _ci_p(row["survival_ci95"], fmt),
                    row["damage_dealt_mean"], row["damage_taken_mean"]]
                   for uid, row in data["units"].items()])
    return sides, units


def _ci_p(ci: list[float | None], fmt: NumberFormat) -> str:
    lo, hi = ci
    return f"{fmt.p(lo)} - {fmt.p(hi)}" if lo is not None and hi is not None else "-"


def _say(text: str) -> None:
    console.print(text, markup=False, highlight=False)


def print_report(report: SimulationReport) -> None:
    """The tables of one scenario's simulation (a long layout on a narrow terminal)."""
    data = report.to_dict()
    fmt = NumberFormat()
    sides, units = report_tables(report, fmt)
    show_tables([sides], fmt)
    if data["unfinished"]:
        _say(f"unfinished: {data['unfinished']} battles were stopped at the step "
             "budget (neither a win nor a draw)")
    r = data["rounds"]
    _say(f"rounds: mean {r['mean']:.2f}, sd {r['sd']:.2f}, min {r['min']}, max {r['max']}")
    show_tables([units], fmt)
    defaults = {r.id: r.default for r in report.declared_rulings}
    changed = {k: v for k, v in report.rulings.items() if defaults.get(k) != v}
    _say("rulings: " + (", ".join(f"{k}={v}" for k, v in changed.items()) or "all defaults"))
    _print_precision(report.precision)
    _say(report.engine_line())


def _print_precision(precision: Any) -> None:
    if precision:
        state = "reached" if precision["reached"] else "NOT reached (the cap came first)"
        console.print(f"precision: every interval's half width <= {precision['target']:g}: "
                      f"{state}; widest {precision['widest']}")


def comparison_print_tables(report: ComparisonReport,
                            fmt: NumberFormat | None = None) -> list[Table]:
    """The terminal tables of a paired comparison: each variant's rates with their 95%
    intervals (``34.0% (31.0-37.0%)``), then per later variant the paired differences in
    percentage points (``+12.2 pts``) with their 95% intervals and verdicts."""
    fmt = fmt or NumberFormat()
    data = report.to_dict()
    rates = Table(f"{report.scenario}: {report.battles} battles under each variant "
                  f"(common random numbers), seed {report.seed}: win rate (95% interval)",
                  [Column("outcome"), *(Column(label, right=True) for label in report.labels)],
                  [])
    figures = [data["variants"][label] for label in report.labels]
    for side in report.sides:
        rates.rows.append([f"{side} wins", *(_rate(v["win_rate"][side], fmt)
                                             for v in figures)])
    rates.rows.append(["draw", *(_rate(v["draw_rate"], fmt) for v in figures)])
    rates.rows.append(["mean rounds", *(f"{v['rounds']['mean']:.2f}" for v in figures)])
    out = [rates]
    for row in data["paired"]:
        d = Table(f"{row['variant']} minus {row['against']}, battle by battle: "
                  "paired difference (95% interval)",
                  [Column("outcome"), Column("difference", "pts"),
                   Column("95% interval", right=True), Column("verdict", right=True)], [])
        for outcome in report.outcomes:
            cell = row[outcome]
            lo, hi = cell["ci95"]
            d.rows.append([f"{outcome} wins" if outcome != "draw" else "draw",
                           cell["difference"], fmt.pts_interval(lo, hi), cell["verdict"]])
        out.append(d)
    return out


def print_comparison(report: ComparisonReport) -> None:
    """The tables of a paired comparison: each variant's rates, then the differences."""
    show_tables(comparison_print_tables(report), NumberFormat())
    for note in report.notes():
        _say(note)
    _print_precision(report.precision)
    _say(report.engine_line())


@app.command(name="simulate")
def simulate_cmd(
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    battles: Annotated[int | None, typer.Option("--battles", "-n", min=1, max=10_000_000, help="How many battles (default 1000; per variant with --compare).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same numbers.")] = 0,
    policy: Annotated[list[str] | None, typer.Option("--policy", "-p", help="greedy, random or first-option (default: the game's own, greedy where it has a valuation part; tactica games --json lists them), or SIDE=NAME (repeatable).")] = None,
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
    if exact:
        raise TacticaError(EXACT_REFUSED)
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
    with progress_shown("simulate", total=n or max_battles) as progress:
        if compare_spec is not None:
            report = compare(sc, compare_spec, progress=progress, **options)
        else:
            report = simulate(sc, progress=progress, **options)
    styled = csv is not None or markdown or decimals != 1 or exact
    if json_out:
        print_json(report.to_dict())
    elif styled:
        pass
    elif isinstance(report, ComparisonReport):
        print_comparison(report)
    else:
        print_report(report)
    if styled:
        from tactica.analysis.notebook import comparison_tables
        from tactica.analysis.views import simulation_tables

        tables = (comparison_tables(report) if isinstance(report, ComparisonReport)
                  else simulation_tables(report))
        show_tables(tables, NumberFormat(decimals, exact), csv=csv, markdown=markdown,
                    quiet=json_out)
    if report.interrupted:
        err_console.print(f"interrupted: {report.battles} battles were finished; the figures "
                          "above are theirs")
        ctrl_c.mark_reported()
        raise typer.Exit(ctrl_c.EXIT_CODE)
