"""``tactica report SCENARIO|SWEEP.parquet -o report.html``: one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tactica.analysis.report import scenario_report, sweep_report, write_report
from tactica.cli.app import app
from tactica.cli.common import err_console, parse_rulings
from tactica.cli.output import DecimalsOpt, ExactOpt
from tactica.cli.progress import progress_shown
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import NumberFormat


@app.command()
def report(
    source: Annotated[Path, typer.Argument(metavar="SCENARIO|SWEEP.parquet", help="A scenario file, or a sweep written by 'tactica sweep -o'.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")] = Path("report.html"),
    battles: Annotated[int, typer.Option("--battles", "-n", min=0, max=1_000_000, help="Simulated battles of a scenario (0: none).")] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the simulation.")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", "-j", min=1, help="Processes (default: 1).")] = 1,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    effects: Annotated[int, typer.Option("--effects", min=0, max=1_000_000, help="Battles of a section on the effect of every ruling's other readings (tactica effects; 0: none).")] = 0,
    decimals: DecimalsOpt = 1,
    exact: ExactOpt = False,
) -> None:
    """One self-contained HTML page for a scenario (map, rulings, odds, plots, simulation) or a
    sweep (what it varied, its tables and plots), to send to a co-author."""
    fmt = NumberFormat(decimals, exact)
    try:
        found = source.is_file()
    except (OSError, ValueError):  # a name too long for a path
        found = False
    if not found:
        raise TacticaError(f"{str(source)[:80]}: no such file")
    if source.suffix.lower() == ".parquet":
        if rulings:
            raise TacticaError("--rulings: a sweep's rulings are those it ran with")
        if effects:
            raise TacticaError("--effects: for a scenario (a sweep's points are its own)")
        text = sweep_report(source, fmt=fmt)
    else:
        sc = load_scenario(source)
        if rulings:
            sc = sc.with_rulings(parse_rulings(rulings))
        with progress_shown("report") as progress:
            text = scenario_report(sc, battles=battles, seed=seed, workers=workers, fmt=fmt,
                                   effects=effects, progress=progress)
    write_report(text, output)
    err_console.print(f"report written to {output}")
