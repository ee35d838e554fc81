"""``tactica matrix GAME|SCENARIO``: every weapon of some profiles against some targets, at
chosen ranges and cover, in exact odds, without writing a scenario."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tactica.analysis.matrix import (
    VALUES,
    matchup_matrix,
    matchup_targets,
    parse_numbers,
    scenario_profiles,
)
from tactica.cli.app import app
from tactica.cli.common import parse_rulings, print_json
from tactica.cli.odds_cmd import parse_game_options
from tactica.cli.output import (
    CsvOpt,
    DecimalsOpt,
    ExactOpt,
    MarkdownOpt,
    PlotOpt,
    save_plot,
    show_tables,
)
from tactica.cli.progress import progress_shown
from tactica.engine.errors import TacticaError
from tactica.engine.game import Matchups
from tactica.engine.ruleset import get_ruleset, matchup_hooks
from tactica.engine.scenario import Scenario, load_scenario
from tactica.presentation.tables import NumberFormat


def _is_file(source: str) -> bool:
    try:
        return Path(source).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL: a game's name then
        return False


def _names(values: list[str] | None) -> list[str]:
    return [n.strip() for v in values or [] for n in v.split(",") if n.strip()]


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def matrix(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="GAME|SCENARIO", help="A game (its content packs' profiles) or a scenario file (its units, rulings and packs).")],
    attacker: Annotated[list[str] | None, typer.Option("--attacker", "-a", help="Attacking profiles or unit ids, comma separated (default: all).")] = None,
    target: Annotated[list[str] | None, typer.Option("--target", "-t", help="Target profiles or unit ids, comma separated (default: the game's distinct targets, or all).")] = None,
    weapon: Annotated[list[str] | None, typer.Option("--weapon", "-w", help="Only these weapons or abilities, comma separated.")] = None,
    ranges: Annotated[str | None, typer.Option("--range", help="Ranges in the game's measure: 1-20, 1,5,10 or 0-20/5 (default: the game's).")] = None,
    cover: Annotated[str, typer.Option("--cover", help="Cover levels: 0 in the open, 1 the game's cover; e.g. 0,1.")] = "0",
    value: Annotated[str | None, typer.Option("--value", help="The number in each cell: p_out_of_action, expected_damage, expected_damage_per_ap or p_hit (default: p_out_of_action, or expected_damage where no single attack can take a target out).")] = None,
    per_roll: Annotated[bool, typer.Option("--per-roll", help="Value a single roll, not a whole attack action (a firing arc's shots).")] = False,
    long: Annotated[bool, typer.Option("--long", help="One row per cell with every number.")] = False,
    content: Annotated[list[Path] | None, typer.Option("--content", help="More content packs (repeatable).")] = None,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    exact: ExactOpt = False,
    plot: PlotOpt = None,
    difference: Annotated[str | None, typer.Option("--difference", help="A difference view: 'cover' (each cell in cover minus in the open) or ID=A,B (each cell under reading B minus reading A of a ruling).")] = None,
) -> None:
    """Exact odds of every weapon of some profiles against every target profile, at chosen
    ranges and cover set through the game's own geometry; --plot draws a heat map.

    A game's own odds options (see 'tactica games') go after the others."""
    if value is not None and value not in VALUES:
        raise TacticaError(f"--value: expected one of {', '.join(VALUES)}, got {value!r}")
    fmt = NumberFormat(precision=decimals, exact=exact)
    scenario: Scenario | None = None
    if source.endswith((".yaml", ".yml")) or _is_file(source):
        scenario = load_scenario(Path(source))
        ruleset = scenario.ruleset
        everyone = list(scenario_profiles(scenario))
        targets = everyone
    else:
        ruleset = get_ruleset(source, where="GAME")
        everyone = list(matchup_hooks(ruleset).profiles(list(content or [])))
        targets = list(matchup_targets(ruleset, [p.resolve() for p in content or []]))
    options = parse_game_options(ruleset.meta, ctx.args)
    hooks = matchup_hooks(ruleset)
    range_list: list[int | None] = (
        list(hooks.ranges) if isinstance(hooks, Matchups) else [None]) if ranges is None \
        else list(parse_numbers(ranges, what="--range"))
    covers: list[int | None] = list(parse_numbers(cover, what="--cover"))
    chosen = parse_rulings(rulings)
    before = None
    with progress_shown("matrix", unit="matchups") as progress:
        if difference is not None:
            if difference == "cover":
                covers = list(dict.fromkeys([0, *covers, 1]))
            else:
                rid, eq, readings = difference.partition("=")
                pair = [r.strip() for r in readings.split(",")]
                if not eq or len(pair) != 2 or not all(pair):
                    raise TacticaError(f"--difference: expected 'cover' or ID=A,B (a ruling "
                                       f"and two of its options), got {difference!r}")
                before = matchup_matrix(
                    scenario if scenario is not None else ruleset,
                    _names(attacker) or everyone, _names(target) or targets,
                    ranges=range_list, covers=covers, rulings={**chosen, rid.strip(): pair[0]},
                    content=[p.resolve() for p in content or []], means=_names(weapon),
                    options=options, per_roll=per_roll, progress=progress)
                chosen = {**chosen, rid.strip(): pair[1]}
        result = matchup_matrix(
            scenario if scenario is not None else ruleset,
            _names(attacker) or everyone, _names(target) or targets,
            ranges=range_list, covers=covers, rulings=chosen,
            content=[p.resolve() for p in content or []], means=_names(weapon),
            options=options, per_roll=per_roll, progress=progress)
    notes = result.notes
    if value is None:
        value = "p_out_of_action"
        if not long and not any(c.p_out_of_action for c in result.cells):
            value = "expected_damage"
            notes = (*notes, "no single attack here can take a target out of action: the "
                             "cells show expected damage (--value p_out_of_action for the "
                             "zeros)")
    result = type(result)(result.game, result.cells, result.rulings, notes, fmt)
    table = result.long_table() if long else result.table(value)
    if difference is not None:
        from tactica.analysis.matrix import difference_table

        what = None
        if before is not None:
            rid, _, readings = difference.partition("=")
            a, b = (r.strip() for r in readings.split(","))
            what = (f"{result.game}: {VALUES[value]}, {rid.strip()}={b} minus "
                    f"{rid.strip()}={a}")
        table = difference_table(result, before, value, what=what or "")
        table.notes += list(result.notes)
    show_tables([table], fmt, csv=csv, markdown=markdown, quiet=json_out)
    if json_out:
        print_json(result.to_dict())
    if plot is not None:
        from tactica.analysis.plots import matrix_heatmap

        save_plot(matrix_heatmap(result, value=value), plot)
