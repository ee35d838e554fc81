"""``tactica odds SCENARIO --attacker ID --target ID``: the exact outcome of one action.

The tables come from the game's :class:`~tactica.engine.odds.OddsReport`, whatever the game. Options
that only some games have (``--defend`` in a game with a defence reaction) are declared by the
game (``meta.odds_options``); an option the game does not have is a clear error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from tactica.analysis.attacks import attack_rows
from tactica.analysis.plots import dist_plot
from tactica.analysis.views import attack_table, odds_tables
from tactica.cli.app import app
from tactica.cli.common import console, parse_rulings, print_json
from tactica.cli.output import (
    CsvOpt,
    DecimalsOpt,
    ExactOpt,
    MarkdownOpt,
    PlotOpt,
    save_plot,
    show_tables,
)
from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import OddsValue, RulesetMeta, odds_hooks
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import Column, NumberFormat
from tactica.presentation.tables import Table as DataTable

__all__ = ["parse_game_options", "print_report", "report_tables"]


def _bar(p: float, width: int = 30) -> str:
    return "█" * round(p * width)


def report_tables(report: OddsReport) -> list[DataTable]:
    """The terminal tables of an odds report: each distribution, its probabilities as
    decimals and exact fractions, with a bar."""
    out = []
    for name, dist in report.distributions.items():
        out.append(DataTable(name.replace("_", " "),
                             [Column("value", right=True), Column("p", right=True),
                              Column("exact", right=True), Column("")],
                             [[str(value), f"{float(p):.4f}", f"{p}", _bar(float(p))]
                              for value, p in dist.items()]))
    return out


def print_report(report: OddsReport) -> None:
    """The report as tables: the reasons, each distribution, the headline numbers (each
    table in a long layout on a narrow terminal)."""
    console.print(report.action, style="bold", markup=False, highlight=False)
    for reason in report.reasons:
        console.print(f"  {reason}", markup=False, highlight=False)
    show_tables(report_tables(report), NumberFormat())
    for name, value in report.numbers.items():
        console.print(f"{name.replace('_', ' ')}: {float(value):.4f} ({value})")
        if report.why.get(name):
            console.print(f"  why: {report.why[name]}", markup=False, highlight=False)


def parse_game_options(meta: RulesetMeta, args: Sequence[str]) -> dict[str, OddsValue]:
    """The game's own odds options from the words typer did not know (``--defend``,
    ``--aim 2``, ``--aim=2``); anything else is a TacticaError naming what the game has."""
    declared = {o.name: o for o in meta.odds_options}
    have = ", ".join(f"--{o.name}" for o in meta.odds_options) or "none"
    out: dict[str, OddsValue] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise TacticaError(f"unexpected argument {word!r}")
        name, eq, value = word[2:].partition("=")
        option = declared.get(name)
        if option is None:
            raise TacticaError(f"--{name}: {meta.title} has no such odds option "
                               f"(its odds options: {have})")
        if not option.takes_value:
            if eq:
                raise TacticaError(f"--{name} takes no value, got {value!r}")
            out[name] = True
            continue
        if not eq:
            if not words or words[0].startswith("--"):
                raise TacticaError(f"--{name}: a value is required")
            value = words.pop(0)
        if option.choices and value not in option.choices:
            raise TacticaError(f"--{name}: expected one of {', '.join(option.choices)}, "
                               f"got {value!r}")
        out[name] = value
    return out


#: What the short headings of ``odds --table`` stand for (the table fits 80 columns).
ATTACK_NOTE = "E(dmg): expected damage; P(out): P(out of action)"


def _print_table(title: str, rows: list[dict[str, Any]]) -> None:
    cols = [Column("attacker"), Column("weapon"), Column("target"), Column("cover"),
            *(Column(c, right=True) for c in ("P(hit)", "E(dmg)", "P(out)"))]
    body = []
    for row in rows:
        cover = row.get("cover")
        shown = "-" if cover is None else ("yes" if cover else "no")
        p_hit = f"{row['p_hit']:.3f}" if "p_hit" in row else "-"
        body.append([row["attacker"], row["weapon"], row["target"], shown, p_hit,
                     f"{row['expected_damage']:.3f}", f"{row['p_out_of_action']:.3f}"])
    show_tables([DataTable(title, cols, body, [ATTACK_NOTE] if rows else [])], NumberFormat())
    if not rows:
        console.print("no unit can attack anyone from where it stands")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def odds(
    ctx: typer.Context,
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    attacker: Annotated[str | None, typer.Option("--attacker", "-a", help="Acting unit id.")] = None,
    target: Annotated[str | None, typer.Option("--target", "-t", help="Target unit id (several, comma separated, for an action on several targets).")] = None,
    weapon: Annotated[str | None, typer.Option("--weapon", "-w", help="Weapon or ability (default: the game's choice, e.g. the best weapon).")] = None,
    table: Annotated[bool, typer.Option("--table", help="Every action of every unit (or of --attacker) against every target it can reach (or --target).")] = False,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 1,
    exact: ExactOpt = False,
    plot: PlotOpt = None,
) -> None:
    """The exact outcome distribution of an action in the scenario's starting position.

    A game may declare options of its own (see 'tactica games'), such as --defend when the
    target may defend; they go after the others."""
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    rs = sc.ruleset
    hooks = odds_hooks(rs)
    options = parse_game_options(rs.meta, ctx.args)
    state = sc.new_state()
    known = [u.id for u in rs.units(state)]
    targets = tuple(t.strip() for t in (target or "").split(",") if t.strip())
    for opt, value in [("--attacker", attacker), *(("--target", t) for t in targets)]:
        if value is not None and value not in known:
            raise TacticaError(f"{opt}: no unit {value!r} in {scenario} "
                               f"(units: {', '.join(known)})")
    fmt = NumberFormat(decimals, exact)
    styled = csv is not None or markdown or decimals != 1 or exact
    if table:
        if len(targets) > 1:
            raise TacticaError("--table takes one --target (the attacks on that unit)")
        rows = attack_rows(rs, state, attacker, options,
                           target=targets[0] if targets else None)
        if json_out:
            print_json(rows)
        elif not styled:
            _print_table(f"{sc.name}: every attack", rows)
        if styled:
            show_tables([attack_table(f"{sc.name}: every attack", rows)], fmt, csv=csv,
                        markdown=markdown, quiet=json_out)
        return
    if attacker is None or not targets:
        raise TacticaError("give --attacker and --target (or --table)")
    try:
        action = hooks.odds_action(state, attacker, targets, weapon)
        report = hooks.odds(state, action, **options)
    except IllegalActionError as exc:
        raise TacticaError(str(exc)) from None
    if json_out:
        print_json(report.to_dict())
    elif not styled:
        print_report(report)
    if styled:
        show_tables(odds_tables(report), fmt, csv=csv, markdown=markdown, quiet=json_out)
    if plot is not None and report.distributions:
        name, dist = next(iter(report.distributions.items()))
        from tactica.analysis.reversals import open_and_cover

        far = report.extra.get("range", report.extra.get("distance"))
        both = (open_and_cover(sc, attacker, targets[0], weapon, far)
                if len(targets) == 1 and isinstance(far, int) and "cover" in report.extra
                else None)
        if both:  # the same attack in the open and in cover, on one plot
            from tactica.analysis.plots import dists_plot

            save_plot(dists_plot(both, title=f"{report.action}: in the open and in cover",
                                 xlabel=name.replace("_", " ")), plot)
        else:
            save_plot(dist_plot(dist, title=report.action, xlabel=name.replace("_", " ")),
                      plot)
