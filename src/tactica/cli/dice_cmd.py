"""``tactica dice EXPR``: the exact distribution of a dice expression, as a table or JSON."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.table import Table

from tactica.cli.app import app
from tactica.cli.common import console, print_json
from tactica.cli.output import CsvOpt, DecimalsOpt, MarkdownOpt, PlotOpt, save_plot, show_tables
from tactica.dice import EXPLODE_DEPTH, Compare, Dist, Expr, evaluate, parse
from tactica.dice.display import EXACT_CHARS, fraction_text, percent_text, sci_text
from tactica.dice.nodes import DiceTerm
from tactica.errors import DiceError, TacticaError

__all__ = ["dice_command", "dice_report", "meaning", "visible_range"]

_BAR_WIDTH = 30
_BLOCKS = " ▏▎▍▌▋▊▉█"
_EXACT_WIDTH = 24
_MAX_ROLLS = 1_000_000

_EXPR_HELP = (
    "A dice expression in Foundry VTT / Roll20 notation: 2d6+1, d%, 4dF, d{0,0,1,1,2}, "
    "4d6kh3, 2d20kh (advantage), 4d6dl1, 6d6cs>=5 and 6d6>4 (count dice), 6d6>4f1 (minus "
    "failures), 3d6x, 3d6!, 5d6!! (compounding), 3d6!p, 2d6r1, 2d6ro<2, d20min10, 2d6/2 "
    "(rounds down), 2d6/2u (up), max(d20,d20), (1d4)d6. COUNTING OR COMPARING: a bare dice "
    "term compared with a number counts dice: 3d6>=4 is the number of dice showing 4 or more "
    "(as Roll20, 6d6>4 means 4 or more). Anything else compares values and gives 1 (true) or "
    "0 (false): (3d6)>=4 and 2d6+1>=8 compare the total. Grammar: docs/dice.md. Put '--' "
    "before an expression that starts with '-'."
)


def _bar(p: float, top: float) -> str:
    """A bar proportional to ``p / top`` with eighth-block resolution."""
    eighths = round(p / top * _BAR_WIDTH * 8) if top > 0 else 0
    full, rest = divmod(eighths, 8)
    return "█" * full + (_BLOCKS[rest] if rest else "")


def _exact(p: Fraction) -> str:
    return fraction_text(p, _EXACT_WIDTH) or "…"


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


def meaning(node: Expr) -> str | None:
    """What the value of a counting or comparing expression is, in words (else ``None``)."""
    if isinstance(node, Compare):
        return "compares values: 1 when the comparison holds, 0 when it does not"
    if isinstance(node, DiceTerm) and node.spec.count is not None:
        count = node.spec.count
        text = f"counts the dice showing {count.success.words()}"
        if count.failure is not None:
            text += f", minus one for each showing {count.failure.words()}"
        ex = node.spec.explode
        if ex is not None and ex.separate:
            text += " (every roll of an exploding die counts on its own)"
        return text
    return None


def dice_report(
    text: str,
    *,
    at_least: bool = False,
    at_most: bool = False,
    exact: bool = False,
    explode_depth: int = EXPLODE_DEPTH,
) -> dict[str, Any]:
    """The JSON document of ``tactica dice``: expression, outcomes, mean and sd.

    Exact fractions longer than ``EXACT_CHARS`` characters are ``null`` unless ``exact``.
    """
    node = parse(text, explode_depth=explode_depth)
    dist = evaluate(node)
    return _report(text, node, dist, at_least=at_least, at_most=at_most, exact=exact,
                   explode_depth=explode_depth)


def _report(
    text: str,
    node: Expr,
    dist: Dist[int],
    *,
    at_least: bool,
    at_most: bool,
    exact: bool,
    explode_depth: int,
) -> dict[str, Any]:
    limit = None if exact else EXACT_CHARS
    omitted = False

    def exact_text(p: Fraction) -> str | None:
        nonlocal omitted
        shown = fraction_text(p, limit)
        omitted = omitted or shown is None
        return shown

    total = dist.total
    cum = dist.cumulative_weights() if at_least or at_most else ()
    rows: list[dict[str, Any]] = []
    for i, (value, w) in enumerate(zip(dist.outcomes, dist.weights, strict=True)):
        row: dict[str, Any] = {"value": value, "p": w / total, "p_exact": exact_text(
            Fraction(w, total))}
        if at_least:
            ge = total - (cum[i - 1] if i else 0)
            row["at_least"] = ge / total
            row["at_least_exact"] = exact_text(Fraction(ge, total))
        if at_most:
            row["at_most"] = cum[i] / total
            row["at_most_exact"] = exact_text(Fraction(cum[i], total))
        rows.append(row)
    mean = dist.mean()
    cut = 1 - node.clean()
    return {
        "expression": text,
        "canonical": str(node),
        "comparison": isinstance(node, Compare),
        "counts_dice": isinstance(node, DiceTerm) and node.spec.count is not None,
        "meaning": meaning(node),
        "outcomes": rows,
        "mean": float(mean),
        "sd": dist.sd(),
        "mean_exact": exact_text(mean),
        "variance_exact": exact_text(dist.variance()),
        "explode_depth": explode_depth,
        "truncated": float(cut),
        "truncated_exact": exact_text(cut),
        "exact_complete": not omitted,
    }


def _print_table(
    text: str,
    node: Expr,
    dist: Dist[int],
    *,
    at_least: bool,
    at_most: bool,
    max_rows: int,
    explode_depth: int,
) -> None:
    comparison = isinstance(node, Compare)
    total = dist.total
    weights = dist.weights
    top = max(weights) / total
    cum = dist.cumulative_weights()
    canonical = str(node)
    title = text
    if canonical.replace(" ", "") != text.replace(" ", ""):
        title = f"{text}   (read as {canonical})"
    table = Table(title=title, title_justify="left")
    table.add_column("value", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right")
    if at_least:
        table.add_column("at least", justify="right")
    if at_most:
        table.add_column("at most", justify="right")
    table.add_column("")
    i, j = visible_range(dist, max_rows)
    for k in range(i, j):
        value, w = dist.outcomes[k], weights[k]
        p = Fraction(w, total)
        label = f"{value} ({'true' if value else 'false'})" if comparison else str(value)
        cells = [label, percent_text(p), _exact(p)]
        if at_least:
            cells.append(percent_text(Fraction(total - (cum[k - 1] if k else 0), total)))
        if at_most:
            cells.append(percent_text(Fraction(cum[k], total)))
        cells.append(_bar(w / total, top))
        table.add_row(*cells)
    console.print(table)
    if (i, j) != (0, len(dist)):
        shown = cum[j - 1] - (cum[i - 1] if i else 0)
        console.print(
            f"{len(dist) - (j - i)} outcomes outside this range "
            f"({percent_text(Fraction(total - shown, total))} together); --max-rows 0 shows all"
        )
    if comparison:
        console.print("1 = the comparison holds, 0 = it does not")
    else:
        words = meaning(node)
        if words:
            console.print(f"the value {words}")
    cut = 1 - node.clean()
    if cut:
        exactly = fraction_text(cut, 40)
        console.print(
            f"truncated: {sci_text(cut, 3)}{f' (exactly {exactly})' if exactly else ''} of the "
            f"probability is in explosions cut after {explode_depth} extra rolls per die, "
            "counted at the last roll (--explode-depth; exact value in --json)"
        )
    console.print(f"mean {float(dist.mean()):.4f}  sd {dist.sd():.4f}")


def _run(
    expression: str,
    *,
    at_least: bool,
    at_most: bool,
    json_out: bool,
    exact: bool,
    max_rows: int,
    rolls: int,
    seed: int | None,
    explode_depth: int,
    csv: Path | None = None,
    markdown: bool = False,
    precision: int = 3,
    plot: Path | None = None,
) -> None:
    if rolls < 0:
        raise DiceError(f"--roll needs a count of 0 or more, got {rolls}")
    if rolls > _MAX_ROLLS:
        raise DiceError(f"--roll: at most {_MAX_ROLLS} rolls, got {rolls}")
    if seed is not None and seed < 0:
        raise DiceError(f"--seed needs a whole number of 0 or more, got {seed}")
    node = parse(expression, explode_depth=explode_depth)
    dist = evaluate(node)
    rolled: list[int] = []
    if rolls:
        rng = np.random.default_rng(seed)
        rolled = [int(v) for v in dist.sample_many(rng, rolls)]
    if csv is not None or markdown or plot is not None:
        from tactica.render.plots import dist_plot
        from tactica.tables import NumberFormat
        from tactica.views import dist_table

        table = dist_table(dist, expression, at_least=at_least, at_most=at_most,
                           comparison=isinstance(node, Compare))
        show_tables([table], NumberFormat(precision, exact), csv=csv, markdown=markdown,
                    quiet=not markdown)
        if plot is not None:
            save_plot(dist_plot(dist, title=expression), plot)
        if markdown:
            return
    if json_out:
        doc = _report(expression, node, dist, at_least=at_least, at_most=at_most, exact=exact,
                      explode_depth=explode_depth)
        if rolls:
            doc["rolls"] = rolled
            doc["seed"] = seed
        print_json(doc)
        return
    _print_table(expression, node, dist, at_least=at_least, at_most=at_most,
                 max_rows=max_rows, explode_depth=explode_depth)
    if rolled:
        shown = ", ".join(map(str, rolled[:50])) + (" …" if len(rolled) > 50 else "")
        console.print(f"rolled: {shown}")


@app.command("dice", help=(
    "Exact odds of a dice expression: every value with its probability, mean and sd. "
    "3d6>=4 COUNTS the dice showing 4 or more; (3d6)>=4 COMPARES the total (1 or 0)."
))
def dice_command(
    expression: Annotated[str, typer.Argument(metavar="EXPR", help=_EXPR_HELP)],
    at_least: Annotated[
        bool, typer.Option("--at-least", help="Add P(result >= value) for every value.")
    ] = False,
    at_most: Annotated[
        bool, typer.Option("--at-most", help="Add P(result <= value) for every value.")
    ] = False,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print JSON instead of a table (errors too, as JSON)."),
    ] = False,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help=f"Exact fractions: in JSON every one in full (by default those longer than "
            f"{EXACT_CHARS} characters are null; the float is always there); in --csv and "
            "--markdown tables instead of percentages.",
        ),
    ] = False,
    max_rows: Annotated[
        int, typer.Option("--max-rows", help="Most table rows around the likeliest value (0: all).")
    ] = 60,
    rolls: Annotated[
        int, typer.Option("--roll", help="Also roll the expression this many times.")
    ] = 0,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --roll (0 or more).")] = None,
    explode_depth: Annotated[
        int,
        typer.Option(
            "--explode-depth",
            help="Most extra rolls of one exploding die; the probability cut off is reported.",
        ),
    ] = EXPLODE_DEPTH,
    csv: CsvOpt = None,
    markdown: MarkdownOpt = False,
    decimals: DecimalsOpt = 3,
    plot: PlotOpt = None,
) -> None:
    """Exact odds of a dice expression: every value with its probability, mean and sd."""
    try:
        _run(expression, at_least=at_least, at_most=at_most, json_out=json_out, exact=exact,
             max_rows=max_rows, rolls=rolls, seed=seed, explode_depth=explode_depth,
             csv=csv, markdown=markdown, precision=decimals, plot=plot)
    except TacticaError as exc:
        if not json_out:
            raise
        doc: dict[str, Any] = {"error": str(exc), "kind": type(exc).__name__}
        column = getattr(exc, "column", None)
        if column is not None:
            doc["column"] = column
        print_json(doc)
        raise typer.Exit(2) from None
