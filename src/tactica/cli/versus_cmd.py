"""``tactica versus GAME --red 4xsmg --blue 4xrifle --range 10``: two squads set up through the
game's own geometry, played as whole battles both ways round (each squad moving first)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from tactica.analysis.matrix import parse_numbers
from tactica.analysis.versus import versus
from tactica.cli.app import app
from tactica.cli.common import parse_rulings, print_json
from tactica.cli.output import CsvOpt, DecimalsOpt, MarkdownOpt, PlotOpt, save_plot, show_tables
from tactica.cli.progress import progress_shown
from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import get_ruleset
from tactica.presentation.tables import NumberFormat, write_text


@app.command("versus")
def versus_cmd(
    game: Annotated[str, typer.Argument(metavar="GAME", help="A game that sets up squad matchups (another is refused with the list of those that do).")],
    red: Annotated[str, typer.Option("--red", help="The red squad: 4xsmg, 2xsmg+2xrifle, rifle (profiles as tactica matrix lists them).")],
    blue: Annotated[str, typer.Option("--blue", help="The blue squad, written as --red.")],
    ranges: Annotated[str | None, typer.Option("--range", help="How far apart the squads stand, in the game's measure: 10, or several: 4,10,16 or 4-16/4 (default: the game's).")] = None,
    battles: Annotated[int, typer.Option("--battles", "-n", min=1, max=1_000_000, help="Battles each way round, at each range.")] = 500,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same numbers.")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", "-j", min=1, help="Local processes (default: every core).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    content: Annotated[list[Path] | None, typer.Option("--content", help="More content packs (repeatable).")] = None,
    one_way: Annotated[bool, typer.Option("--one-way", help="Only red moving first (no swapped run).")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    plot: PlotOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="Refused: whole battles give estimates with intervals, not exact fractions.")] = False,
) -> None:
    """Two squads set up through the game's own geometry and played as whole battles, each
    squad moving first in turn; each squad's win rate with its 95% interval, and which wins more.

    Whole battles give estimates with intervals, so --exact is refused."""
    if exact:
        from tactica.cli.simulate_cmd import EXACT_REFUSED

        raise TacticaError(EXACT_REFUSED)
    ruleset = get_ruleset(game, where="GAME")
    range_list: list[int | None] = [None] if ranges is None else list(
        parse_numbers(ranges, what="--range"))  # each game says which ranges it takes
    with progress_shown("versus") as progress:
        report = versus(ruleset, red, blue, ranges=range_list, battles=battles, seed=seed,
                        rulings=parse_rulings(rulings), workers=workers,
                        content=[p.resolve() for p in content or []], swap=not one_way,
                        progress=progress)
    fmt = NumberFormat(precision=decimals)
    report = dataclasses.replace(report, fmt=fmt)
    if csv is not None:
        write_text(csv, report.csv_table().to_csv(fmt))
    show_tables([report.table()], fmt, markdown=markdown, quiet=json_out)
    if json_out:
        print_json(report.to_dict())
    if plot is not None:
        from tactica.analysis.plots import versus_plot

        save_plot(versus_plot(report), plot)
