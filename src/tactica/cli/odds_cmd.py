"""``tactica odds SCENARIO --attacker ID --target ID``: the exact outcome of one attack."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from tactica.cli.app import app
from tactica.cli.common import console, parse_rulings, print_json
from tactica.errors import IllegalActionError, TacticaError
from tactica.odds import OddsReport
from tactica.scenario import load_scenario


def _bar(p: float, width: int = 30) -> str:
    return "█" * round(p * width)


def print_report(report: OddsReport) -> None:
    console.print(f"[bold]{report.action}[/bold]")
    for reason in report.reasons:
        console.print(f"  {reason}")
    for name, dist in report.distributions.items():
        table = Table(title=name.replace("_", " "), title_justify="left")
        table.add_column("value", justify="right")
        table.add_column("p", justify="right")
        table.add_column("exact", justify="right")
        table.add_column("")
        for value, p in dist.items():
            table.add_row(str(value), f"{float(p):.4f}", f"{p}", _bar(float(p)))
        console.print(table)
    for name, value in report.numbers.items():
        console.print(f"{name.replace('_', ' ')}: {float(value):.4f} ({value})")


def _table(ruleset: Any, state: Any, attacker: str | None) -> list[dict[str, Any]]:
    rows = []
    units = [attacker] if attacker else list(ruleset.unit_ids(state))
    for uid in units:
        for option in ruleset.attack_options(state, uid):
            report = ruleset.odds(state, option.unit, option.target, option.weapon)
            rows.append({"attacker": option.unit, "weapon": option.weapon,
                         "target": option.target, **report.to_dict()})
    return rows


@app.command()
def odds(
    scenario: Annotated[Path, typer.Argument(help="A scenario file.")],
    attacker: Annotated[str | None, typer.Option("--attacker", "-a", help="Attacking unit id.")] = None,
    target: Annotated[str | None, typer.Option("--target", "-t", help="Target unit id.")] = None,
    weapon: Annotated[str | None, typer.Option("--weapon", "-w", help="Weapon name (default: the best).")] = None,
    table: Annotated[bool, typer.Option("--table", help="Every weapon against every enemy it can target.")] = False,
    rulings: Annotated[list[str] | None, typer.Option("--rulings", "-r", help="Override a ruling: ID=OPTION (repeatable).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    defend: Annotated[bool, typer.Option("--defend", help="The target defends (for games with a defence reaction).")] = False,
) -> None:
    """The exact outcome distribution of an attack in the scenario's starting position."""
    sc = load_scenario(scenario)
    if rulings:
        sc = sc.with_rulings(parse_rulings(rulings))
    state = sc.new_state()
    rs: Any = sc.ruleset
    if not hasattr(rs, "odds"):
        raise TacticaError(f"{sc.ruleset.meta.title} has no odds yet")
    known = set(rs.unit_ids(state))
    # A target may be a comma-separated list (several targets of one multi-target action).
    named = [("--attacker", attacker)] + [("--target", t.strip())
                                           for t in (target or "").split(",") if t.strip()]
    for opt, value in named:
        if value is not None and value not in known:
            raise TacticaError(f"{opt}: no unit {value!r} in {scenario} "
                               f"(units: {', '.join(sorted(known))})")
    if table:
        rows = _table(rs, state, attacker)
        if json_out:
            print_json(rows)
            return
        t = Table(title=f"{sc.name}: every attack", title_justify="left")
        for col in ("attacker", "weapon", "target", "cover", "expected damage",
                    "P(out of action)"):
            t.add_column(col, justify="right" if col[0] in "eP" else "left")
        for row in rows:
            t.add_row(row["attacker"], row["weapon"], row["target"],
                      "yes" if row.get("cover") else "no", f"{row['expected_damage']:.3f}",
                      f"{row['p_out_of_action']:.3f}")
        console.print(t)
        if not rows:
            console.print("no unit can attack anyone from where it stands")
        return
    if attacker is None or target is None:
        raise TacticaError("give --attacker and --target (or --table)")
    try:
        report = rs.odds(state, attacker, target, weapon, **({"defend": True} if defend else {}))
    except IllegalActionError as exc:
        raise TacticaError(str(exc)) from None
    if json_out:
        print_json(report.to_dict())
    else:
        print_report(report)
