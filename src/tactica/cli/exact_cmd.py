"""``tactica exact SCENARIO``: the exact chance that each side wins the whole fight.

Every state the fight can reach under the policies given is searched once (equal states
merged), up to ``--max-states`` distinct states; past that budget one line says how far it got
and what to try instead. ``--compare KEY=A,B`` gives each variant's exact odds and their exact
differences. Long searches show their progress on standard error; Ctrl-C stops at once (exit
code 130).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tactica.analysis import ctrl_c
from tactica.analysis.exact import (
    DEFAULT_MAX_STATES,
    ExactComparison,
    FightOdds,
    exact_compare,
    exact_fight,
)
from tactica.analysis.exact_views import (
    comparison_tables,
    fight_plot,
    fight_tables,
    without_fractions,
)
from tactica.cli.app import app
from tactica.cli.common import console, err_console, parse_rulings, print_json
from tactica.cli.output import (
    CsvOpt,
    DecimalsOpt,
    ExactOpt,
    MarkdownOpt,
    PlotOpt,
    save_plot,
    show_tables,
)
from tactica.cli.simulate_cmd import _parse_policies
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import NumberFormat

__all__ = ["exact_cmd"]


def _progress(states: int, seconds: float) -> None:
    err_console.print(f"exact: {states:,} states searched in {seconds:.0f}s",
                      markup=False, highlight=False)


@app.command(name="exact")
def exact_cmd(
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    policy: Annotated[list[str] | None, typer.Option("--policy", "-p", help="greedy, random or first-option (default: the game's own), or SIDE=NAME (repeatable); each played as the chance of each of its choices (greedy's ties shared equally).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    compare_spec: Annotated[str | None, typer.Option("--compare", "-c", help="Exact odds under each variant and their exact difference: RULING=A,B (a ruling and two of its readings) or a field PATH=A,B (units.A.defense=2,3).")] = None,
    max_states: Annotated[int, typer.Option("--max-states", min=1, max=2_000_000, help="The budget of distinct states searched (the default answers in about a minute; at most 2,000,000, about 6 GB).")] = DEFAULT_MAX_STATES,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    exact: ExactOpt = False,
    plot: PlotOpt = None,
) -> None:
    """The exact chance that each side wins the whole fight, of a draw and of an unfinished
    fight, with the exact distributions of rounds and survivors, under the policies given."""
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    policies = _parse_policies(policy)
    if plot is not None and compare_spec is not None:
        raise TacticaError("--plot draws one fight: leave out --compare")
    report: FightOdds | ExactComparison
    try:
        if compare_spec is not None:
            report = exact_compare(sc, compare_spec, policies=policies, max_states=max_states,
                                   progress=_progress)
        else:
            report = exact_fight(sc, policies=policies, max_states=max_states,
                                 progress=_progress)
    except KeyboardInterrupt:
        err_console.print("interrupted: the exact search was stopped before the fight was "
                          "done; nothing to show", markup=False, highlight=False)
        ctrl_c.mark_reported()
        raise typer.Exit(ctrl_c.EXIT_CODE) from None
    fmt = NumberFormat(precision=decimals, exact=exact)
    if isinstance(report, ExactComparison):
        tables = comparison_tables(report)
        notes = report.notes()
    else:
        tables = fight_tables(report)
        notes = []
    if exact:  # every chance is a fraction already
        tables = without_fractions(tables)
    show_tables(tables, fmt, csv=csv, markdown=markdown, quiet=json_out)
    if json_out:
        print_json(report.to_dict())
    else:
        for note in notes:
            console.print(note, markup=False, highlight=False)
    if plot is not None and isinstance(report, FightOdds):
        save_plot(fight_plot(report), plot)
