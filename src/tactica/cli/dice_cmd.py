"""``tactica dice EXPR``: the exact distribution of a dice expression, as a table or JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import numpy as np
import typer
from rich.table import Table

from tactica.cli.app import app
from tactica.cli.common import console, print_json
from tactica.cli.output import (
    CsvOpt,
    ExactOpt,
    MarkdownOpt,
    PlotOpt,
    PrecisionOpt,
    save_plot,
    show_tables,
)
from tactica.dice import Compare, Dist, Expr, evaluate, parse
from tactica.errors import DiceError
from tactica.render.plots import dist_plot
from tactica.tables import NumberFormat
from tactica.views import dist_table

__all__ = ["dice_command", "dice_report", "visible_range"]

_BAR_WIDTH = 30
_BLOCKS = " ▏▎▍▌▋▊▉█"
_EXACT_WIDTH = 24


def _bar(p: float, top: float) -> str:
    """A bar proportional to ``p / top`` with eighth-block resolution."""
    eighths = round(p / top * _BAR_WIDTH * 8) if top > 0 else 0
    full, rest = divmod(eighths, 8)
    return "█" * full + (_BLOCKS[rest] if rest else "")


def _percent(p: Fraction) -> str:
    f = float(p) * 100
    if f == 0 or f >= 0.001:
        return f"{f:.3f}%"
    return f"{f:.2e}%"


def _exact(p: Fraction) -> str:
    text = str(p)
    return text if len(text) <= _EXACT_WIDTH else "…"


def visible_range(dist: Dist[Any], max_rows: int) -> tuple[int, int]:
    """Indices ``[i, j)`` of the contiguous block of at most ``max_rows`` outcomes to show.

    Starts at the most likely outcome and grows toward the likelier neighbour, so the rows
    hidden from a long table carry as little probability as a contiguous block allows.
    """
    n = len(dist)
    if max_rows <= 0 or n <= max_rows:
        return 0, n
    w = dist.weights
    i = max(range(n), key=w.__getitem__)
    j = i + 1
    while j - i < max_rows:
        left = w[i - 1] if i > 0 else -1
        right = w[j] if j < n else -1
        if left >= right:
            i -= 1
        else:
            j += 1
    return i, j


def dice_report(text: str, *, at_least: bool = False, at_most: bool = False) -> dict[str, Any]:
    """The JSON document of ``tactica dice``: expression, outcomes, mean and sd."""
    node = parse(text)
    return _report(text, node, evaluate(node), at_least=at_least, at_most=at_most)


def _report(
    text: str, node: Expr, dist: Dist[int], *, at_least: bool, at_most: bool
) -> dict[str, Any]:
    ge = dict(dist.at_least_table()) if at_least else {}
    le = dict(dist.at_most_table()) if at_most else {}
    rows: list[dict[str, Any]] = []
    for value, p in dist.items():
        row: dict[str, Any] = {"value": value, "p": float(p), "p_exact": str(p)}
        if at_least:
            row["at_least"] = float(ge[value])
            row["at_least_exact"] = str(ge[value])
        if at_most:
            row["at_most"] = float(le[value])
            row["at_most_exact"] = str(le[value])
        rows.append(row)
    mean = dist.mean()
    return {
        "expression": text,
        "canonical": str(node),
        "comparison": isinstance(node, Compare),
        "outcomes": rows,
        "mean": float(mean),
        "sd": dist.sd(),
        "mean_exact": str(mean),
        "variance_exact": str(dist.variance()),
    }


def _print_table(
    text: str, dist: Dist[int], *, comparison: bool, at_least: bool, at_most: bool, max_rows: int
) -> None:
    probs = list(dist.items())
    top = float(max(p for _, p in probs))
    ge = dict(dist.at_least_table()) if at_least else {}
    le = dict(dist.at_most_table()) if at_most else {}
    table = Table(title=f"{text}", title_justify="left")
    table.add_column("value", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right")
    if at_least:
        table.add_column("at least", justify="right")
    if at_most:
        table.add_column("at most", justify="right")
    table.add_column("")
    i, j = visible_range(dist, max_rows)
    for value, p in probs[i:j]:
        label = f"{value} ({'true' if value else 'false'})" if comparison else str(value)
        cells = [label, _percent(p), _exact(p)]
        if at_least:
            cells.append(_percent(ge[value]))
        if at_most:
            cells.append(_percent(le[value]))
        cells.append(_bar(float(p), top))
        table.add_row(*cells)
    console.print(table)
    if (i, j) != (0, len(dist)):
        hidden = sum((p for _, p in probs[:i]), Fraction(0)) + sum(
            (p for _, p in probs[j:]), Fraction(0)
        )
        console.print(
            f"{len(dist) - (j - i)} outcomes outside this range ({_percent(hidden)} "
            "together); --max-rows 0 shows all"
        )
    if comparison:
        console.print("1 = the comparison holds, 0 = it does not")
    console.print(f"mean {float(dist.mean()):.4f}  sd {dist.sd():.4f}")


@app.command("dice")
def dice_command(
    expression: Annotated[
        str,
        typer.Argument(
            metavar="EXPR",
            help=(
                "A dice expression: 2d6+1, 3d10, d6, 4d6kh3, 4d6kl1, d% (1-100), 2d6>=8 "
                "(1 when true, 0 when false), 3d6-1d4, (1d4)d6, 2*d6. Put '--' before an "
                "expression that starts with '-'."
            ),
        ),
    ],
    at_least: Annotated[
        bool, typer.Option("--at-least", help="Add P(result >= value) for every value.")
    ] = False,
    at_most: Annotated[
        bool, typer.Option("--at-most", help="Add P(result <= value) for every value.")
    ] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.")
    ] = False,
    max_rows: Annotated[
        int, typer.Option("--max-rows", help="Most table rows around the likeliest value (0: all).")
    ] = 60,
    rolls: Annotated[
        int, typer.Option("--roll", help="Also roll the expression this many times.")
    ] = 0,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --roll.")] = None,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    precision: PrecisionOpt = 3,
    exact: ExactOpt = False,
    plot: PlotOpt = None,
) -> None:
    """Exact odds of a dice expression: every value with its probability, mean and sd."""
    if rolls < 0:
        raise DiceError(f"--roll needs a count of 0 or more, got {rolls}")
    if rolls > 1_000_000:
        raise DiceError(f"--roll: at most 1000000 rolls, got {rolls}")
    node = parse(expression)
    dist = evaluate(node)
    rolled: list[int] = []
    if rolls:
        rng = np.random.default_rng(seed)
        rolled = [int(v) for v in dist.sample_many(rng, rolls)]
    if csv is not None or markdown or plot is not None:
        table = dist_table(dist, expression, at_least=at_least, at_most=at_most,
                           comparison=isinstance(node, Compare))
        show_tables([table], NumberFormat(precision, exact), csv=csv, markdown=markdown,
                    quiet=not markdown)
        if plot is not None:
            save_plot(dist_plot(dist, title=expression), plot)
        if markdown:
            return
    if json_out:
        doc = _report(expression, node, dist, at_least=at_least, at_most=at_most)
        if rolls:
            doc["rolls"] = rolled
            doc["seed"] = seed
        print_json(doc)
        return
    _print_table(
        expression,
        dist,
        comparison=isinstance(node, Compare),
        at_least=at_least,
        at_most=at_most,
        max_rows=max_rows,
    )
    if rolled:
        shown = ", ".join(map(str, rolled[:50])) + (" …" if len(rolled) > 50 else "")
        console.print(f"rolled: {shown}")
