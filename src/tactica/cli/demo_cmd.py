"""``tactica demo``: the main job on embedded defaults, or (``--dice``) a tour of the dice core."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from tactica.cli.app import app
from tactica.cli.common import console
from tactica.dice import (
    d10_success_chance,
    d10_target_successes,
    d20,
    evaluate,
    percentile_pair,
    read_percentile,
    thin,
    two_d6,
)

__all__ = ["demo"]


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:6.2f}%"


def _two_d6() -> Table:
    dist = two_d6()
    table = Table(title="2D6 at or above a target number", title_justify="left")
    table.add_column("target", justify="right")
    for mod in (-1, 0, 1):
        table.add_column(f"mod {mod:+d}", justify="right")
    for target in range(4, 13):
        table.add_row(str(target), *(_pct(dist.at_least(target - mod)) for mod in (-1, 0, 1)))
    return table


def _d10_pools() -> Table:
    table = Table(
        title="D10 pools rolled under (0-9; 1 always succeeds, 0 always fails)",
        title_justify="left",
    )
    table.add_column("attack", justify="left")
    for k in range(4):
        table.add_column(f"dmg {k}", justify="right")
    table.add_column("P(dmg >= 1)", justify="right")
    cases = [
        ("1 die, acc 6 / arm 3", 1, 6, 3, 0),
        ("  same, in cover", 1, 6, 3, -1),
        ("3 dice, acc 4 / arm 3", 3, 4, 3, 0),
        ("  same, in cover", 3, 4, 3, -1),
    ]
    for label, n, accuracy, armor, cover in cases:
        hits = d10_target_successes(n, accuracy)
        damage = thin(hits, d10_success_chance(armor, cover, fails=True))
        cells = [_pct(damage.p(k)) if k <= n else "" for k in range(4)]
        table.add_row(label, *cells, str(damage.at_least(1)))
    return table


def _percentile() -> Table:
    level = 50
    pair = percentile_pair()

    def kind(tu: tuple[int, int]) -> str:
        tens, units = tu
        value = read_percentile(tens, units)
        double = tens == units
        if value == 100:
            return "critical failure"
        if value <= level:
            return "critical success" if double or value == level else "success"
        return "critical failure" if double else "failure"

    dist = pair.map(kind)
    table = Table(
        title=f"Percentile dice at level {level} (tens and units read apart; 00+0 = 100)",
        title_justify="left",
    )
    table.add_column("result")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right")
    for name in ("critical success", "success", "failure", "critical failure"):
        table.add_row(name, _pct(dist.p(name)), str(dist.p(name)))
    return table


def _d20_degrees() -> Table:
    target, increment = 12, 5
    degrees = d20().condition(lambda r: r <= target).map(lambda r: r // increment)
    table = Table(
        title=f"d20 roll under {target}, degree = roll // {increment}, given a success "
        f"(P = {d20().at_most(target)})",
        title_justify="left",
    )
    table.add_column("degree", justify="right")
    table.add_column("probability", justify="right")
    for degree, p in degrees.items():
        table.add_row(f"{degree}º", _pct(p))
    return table


def _expressions() -> Table:
    table = Table(title="Dice expressions (tactica dice EXPR)", title_justify="left")
    table.add_column("expression")
    table.add_column("mean", justify="right")
    table.add_column("sd", justify="right")
    table.add_column("P(>= 15)", justify="right")
    for text in ("3d6", "4d6kh3", "2d10+1d4", "(1d4)d6", "3d6-1d4+5"):
        dist = evaluate(text)
        table.add_row(
            text, f"{float(dist.mean()):.3f}", f"{dist.sd():.3f}", _pct(dist.at_least(15))
        )
    return table


def dice_tour() -> None:
    """Print the tour of the five games' dice."""
    console.print(Text.assemble(("The dice of the five games", "bold"),
                                ": exact odds, computed, not sampled.\n"))
    for build in (_two_d6, _d10_pools, _percentile, _d20_degrees, _expressions):
        table = build()
        console.print(str(table.title), style="bold")
        table.title = None
        console.print(table)
        console.print()
    console.print("Try: tactica dice '4d6kh3' --at-least   or   tactica dice '2d6+1>=8' --json")


@app.command()
def demo(
    battles: Annotated[int, typer.Option("--battles", "-n", min=1, help="Battles per simulation.")] = 2_000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the simulations.")] = 1,
    dice: Annotated[bool, typer.Option("--dice", help="Show the tour of the five games' dice instead.")] = False,
) -> None:
    """The main job on embedded defaults: exact odds and a simulation of a 5 vs 5 firefight."""
    if dice:
        dice_tour()
        return
    from tactica.cli.demo_job import run_demo

    run_demo(battles=battles, seed=seed)
