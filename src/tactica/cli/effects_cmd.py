"""``tactica effects SCENARIO``: every alternative reading of every ruling, paired against the
scenario's own over the same seeded battles, ranked by its effect on each side's win rate."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tactica.analysis import ctrl_c
from tactica.analysis.effects import DEFAULT_MAX_BATTLES, DEFAULT_PRECISION, effects
from tactica.cli.app import app
from tactica.cli.common import err_console, parse_rulings, print_json
from tactica.cli.output import (
    CsvOpt,
    DecimalsOpt,
    MarkdownOpt,
    PlotOpt,
    save_plot,
    show_tables,
)
from tactica.cli.progress import progress_shown
from tactica.cli.simulate_cmd import _parse_policies
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import NumberFormat, write_text


@app.command(name="effects")
def effects_cmd(
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    battles: Annotated[int | None, typer.Option("--battles", "-n", min=1, max=1_000_000, help="A fixed number of battles played under every reading (the same battles for all), instead of --precision.")] = None,
    precision: Annotated[float | None, typer.Option("--precision", help=f"Play until every interval is at most this half width (default {DEFAULT_PRECISION}: +-{DEFAULT_PRECISION * 100:g} pts), or --max-battles.")] = None,
    max_battles: Annotated[int, typer.Option("--max-battles", min=1, max=1_000_000, help="The most battles a run to a precision plays.")] = DEFAULT_MAX_BATTLES,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same numbers.")] = 0,
    policy: Annotated[list[str] | None, typer.Option("--policy", "-p", help="greedy, random or first-option, or SIDE=NAME (repeatable; default: the game's own).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="The baseline's rulings: ID=OPTION (repeatable; default: the scenario's).")] = None,
    only: Annotated[list[str] | None, typer.Option("--ruling", help="Only this ruling's readings (repeatable).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-j", min=1, help="Local processes (default: every core).")] = None,
    executor: Annotated[str, typer.Option("--executor", help="process (a local pool) or dask (a Dask cluster, with --scheduler).")] = "process",
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="The Dask scheduler's address (tcp://host:8786).")] = None,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="Steps after which a battle is stopped and counted unfinished.")] = 20_000,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    plot: PlotOpt = None,
) -> None:
    """Play every alternative reading of every ruling against the scenario's own on the same
    seeded battles, ranked by the change of each side's win rate (paired 95% intervals);
    rulings no battle consulted are listed as such."""
    if executor == "dask" and not scheduler:
        raise TacticaError("--executor dask needs --scheduler ADDRESS (such as tcp://127.0.0.1:8786)")
    if scheduler and executor != "dask":
        raise TacticaError("--scheduler is for --executor dask")
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    if battles is not None and precision is not None:
        raise TacticaError("give --battles or --precision, not both")
    with progress_shown("effects", total=battles) as progress:
        report = effects(sc, battles=battles, precision=precision, max_battles=max_battles,
                         seed=seed, policies=_parse_policies(policy),
                         workers=workers, progress=progress, executor=executor,
                         scheduler=scheduler, max_steps=max_steps, rulings=only)
    fmt = NumberFormat(precision=decimals)
    if csv is not None:
        write_text(csv, report.to_csv())
    if json_out:
        print_json(report.to_dict())
    else:
        show_tables([report.table()], fmt, markdown=markdown)
    if plot is not None:
        save_plot(report.plot(), plot)
    if report.interrupted:
        err_console.print(f"interrupted: {report.battles} battles were finished; the figures "
                          "above are theirs")
        ctrl_c.mark_reported()
        raise typer.Exit(ctrl_c.EXIT_CODE)
