"""``tactica dice EXPR``: the exact distribution of a dice expression, as a table or JSON."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.table import Table

from tactica.cli.app import app
from tactica.cli.common import console, print_json
from tactica.cli.output import CsvOpt, DecimalsOpt, MarkdownOpt, PlotOpt, save_plot, show_tables
from tactica.dice import (
    DEFAULT_DIALECT,
    DIALECTS,
    EXPLODE_DEPTH,
    Compare,
    Dist,
    Expr,
    evaluate,
    notes,
    parse,
)
from tactica.dice.display import EXACT_CHARS, fraction_text, percent_text, sci_text
from tactica.dice.nodes import DiceTerm
from tactica.engine.errors import DiceError, TacticaError

__all__ = ["dice_command", "dice_report", "meaning", "visible_range", "window"]

_BAR_WIDTH = 30
_BLOCKS = " ▏▎▍▌▋▊▉█"
_EXACT_WIDTH = 24
_MAX_ROLLS = 1_000_000
#: Most expressions on one table and one plot.
_MAX_EXPRESSIONS = 12

_EXPR_HELP = (
    "A dice expression in Foundry VTT / Roll20 notation: 2d6+1, d%, 4dF, d{0,0,1,1,2}, "
    "4d6kh3, 2d20kh (advantage), 4d6dl1, 6d6cs>=5 and 6d6>4 (count dice), 6d6>4f1 (minus "
    "failures), 3d6x, 3d6!, 5d6!! (compounding), 3d6!p, 2d6r1, 2d6ro<2, d20min10, 2d6/2 "
    "(rounds down), 2d6/2u (up), max(d20,d20), (1d4)d6. COUNTING OR COMPARING: a bare dice "
    "term compared with a number counts dice: 3d6>=4 is the number of dice showing 4 or more "
    "(as Roll20, 6d6>4 means 4 or more). Anything else compares values and gives 1 (true) or "
    "0 (false): (3d6)>=4 and 2d6+1>=8 compare the total. Groups {4d6, 3d8}kh keep among "
    "totals; 2d6\\[fire] tags a term; '# text' is a comment. Several expressions are shown side "
    "by side. Grammar: docs/dice.md. Put '--' before an expression that starts with '-'."
)
_DIALECT_HELP = (
    "What a bare 'r' means: roll20 (the default) rerolls until the face no longer matches, "
    "foundry rerolls once (and reads 'r<3' strictly). 'ro' (once) and 'rr' (until) mean the "
    "same in both."
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
    return window(dist.weights, max_rows)


def window(w: Sequence[float], max_rows: int) -> tuple[int, int]:
    """:func:`visible_range` over any row weights (several distributions: their sum)."""
    n = len(w)
    if max_rows <= 0 or n <= max_rows:
        return 0, n
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
    dialect: str = DEFAULT_DIALECT,
) -> dict[str, Any]:
    """The JSON document of ``tactica dice``: expression, outcomes, mean and sd.

    Exact fractions longer than ``EXACT_CHARS`` characters are ``null`` unless ``exact``.
    """
    node = parse(text, explode_depth=explode_depth, dialect=dialect)
    dist = evaluate(node)
    return _report(text, node, dist, at_least=at_least, at_most=at_most, exact=exact,
                   explode_depth=explode_depth, dialect=dialect)


def _report(
    text: str,
    node: Expr,
    dist: Dist[int],
    *,
    at_least: bool,
    at_most: bool,
    exact: bool,
    explode_depth: int,
    dialect: str = DEFAULT_DIALECT,
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
    said = notes(text, dialect=dialect)
    return {
        "expression": text,
        "dialect": dialect,
        "canonical": str(node),
        "labels": [{"term": term, "label": label} for term, label in said.labels],
        "comment": said.comment,
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
    dialect: str = DEFAULT_DIALECT,
) -> None:
    comparison = isinstance(node, Compare)
    total = dist.total
    weights = dist.weights
    top = max(weights) / total
    cum = dist.cumulative_weights()
    table = Table(title=_title(text, node, dialect), title_justify="left")
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
    _print_notes(text, node, dist, explode_depth=explode_depth, dialect=dialect, prefix="")


def _title(text: str, node: Expr, dialect: str) -> str:
    """The header line: the text as typed, how it was read when that differs, the dialect."""
    canonical = str(node)
    typed = _formula(text)
    if canonical.replace(" ", "") != typed.replace(" ", ""):
        return f"{text}   (read as {canonical}; {dialect} dialect)"
    return f"{text}   ({dialect} dialect)"


def _formula(text: str) -> str:
    """The text without its comment and flavor tags (what the canonical text spells)."""
    from tactica.dice.lexer import comment_start

    out, depth = [], False
    for ch in text[: comment_start(text)]:
        if ch == "[":
            depth = True
        elif ch == "]":
            depth = False
        elif not depth:
            out.append(ch)
    return "".join(out).strip()


def _print_notes(text: str, node: Expr, dist: Dist[int], *, explode_depth: int, dialect: str,
                 prefix: str) -> None:
    """The lines under a table: labels, comment, meaning, truncated mass, mean and sd."""
    said = notes(text, dialect=dialect)
    if said.labels:
        console.print(prefix + "labels: " + ", ".join(f"{term} = {label}"
                                                      for term, label in said.labels))
    if said.comment:
        console.print(f"{prefix}comment: {said.comment}")
    if isinstance(node, Compare):
        console.print(f"{prefix}1 = the comparison holds, 0 = it does not")
    else:
        words = meaning(node)
        if words:
            console.print(f"{prefix}the value {words}")
    cut = 1 - node.clean()
    if cut:
        exactly = fraction_text(cut, 40)
        console.print(
            f"{prefix}truncated: {sci_text(cut, 3)}{f' (exactly {exactly})' if exactly else ''} "
            f"of the probability is in explosions cut after {explode_depth} extra rolls per die, "
            "counted at the last roll (--explode-depth; exact value in --json)"
        )
    console.print(f"{prefix}mean {float(dist.mean()):.4f}  sd {dist.sd():.4f}")


def _print_side_by_side(
    texts: Sequence[str],
    nodes: Sequence[Expr],
    dists: Sequence[Dist[int]],
    *,
    at_least: bool,
    at_most: bool,
    max_rows: int,
    explode_depth: int,
    dialect: str,
) -> None:
    """One table, a column per expression (and per cumulative column asked for)."""
    values = sorted(set().union(*(d.outcomes for d in dists)))
    probs = [{v: Fraction(w, d.total) for v, w in zip(d.outcomes, d.weights, strict=True)}
             for d in dists]
    ge = [dict(d.at_least_table()) for d in dists] if at_least else []
    le = [dict(d.at_most_table()) for d in dists] if at_most else []
    table = Table(title=f"{len(texts)} expressions   ({dialect} dialect)", title_justify="left")
    table.add_column("value", justify="right")
    for k, text in enumerate(texts, start=1):
        table.add_column(f"#{k} {_formula(text)}", justify="right")
        if at_least:
            table.add_column(f"#{k} at least", justify="right")
        if at_most:
            table.add_column(f"#{k} at most", justify="right")
    weights = [float(sum(p.get(v, 0) for p in probs)) for v in values]
    i, j = window(weights, max_rows)
    for v in values[i:j]:
        cells = [str(v)]
        for k, p in enumerate(probs):
            cells.append(percent_text(p[v]) if v in p else "")
            if at_least:
                cells.append(_cumulative(ge[k], dists[k], v, above=True))
            if at_most:
                cells.append(_cumulative(le[k], dists[k], v, above=False))
        table.add_row(*cells)
    console.print(table)
    if (i, j) != (0, len(values)):
        console.print(f"{len(values) - (j - i)} values outside this range; --max-rows 0 shows all")
    for k, (text, node, dist) in enumerate(zip(texts, nodes, dists, strict=True), start=1):
        canonical = str(node)
        read = "" if canonical.replace(" ", "") == _formula(text).replace(" ", "") else (
            f" (read as {canonical})")
        console.print(f"#{k} {text}{read}")
        _print_notes(text, node, dist, explode_depth=explode_depth, dialect=dialect,
                     prefix="   ")


def _cumulative(table: dict[int, Fraction], dist: Dist[int], v: int, *, above: bool) -> str:
    """P(at least v) or P(at most v) for any value v, also one this roll cannot show."""
    if v in table:
        return percent_text(table[v])
    outcomes = dist.outcomes
    k = bisect.bisect_left(outcomes, v)  # the first outcome above v (v is not one)
    if above:
        return percent_text(table[outcomes[k]] if k < len(outcomes) else Fraction(0))
    return percent_text(table[outcomes[k - 1]] if k else Fraction(0))


def _run(
    expressions: Sequence[str],
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
    dialect: str = DEFAULT_DIALECT,
) -> None:
    if dialect not in DIALECTS:
        raise DiceError(f"--dialect: expected one of {', '.join(DIALECTS)}, got {dialect!r}")
    if not expressions:
        raise DiceError("give a dice expression, like tactica dice 2d6+1")
    if len(expressions) > _MAX_EXPRESSIONS:
        raise DiceError(f"at most {_MAX_EXPRESSIONS} expressions at once, got {len(expressions)}")
    if rolls < 0:
        raise DiceError(f"--roll needs a count of 0 or more, got {rolls}")
    if rolls > _MAX_ROLLS:
        raise DiceError(f"--roll: at most {_MAX_ROLLS} rolls, got {rolls}")
    if seed is not None and seed < 0:
        raise DiceError(f"--seed needs a whole number of 0 or more, got {seed}")
    nodes: list[Expr] = []
    dists: list[Dist[int]] = []
    for text in expressions:
        try:
            nodes.append(parse(text, explode_depth=explode_depth, dialect=dialect))
            dists.append(evaluate(nodes[-1]))
        except DiceError as exc:
            exc.expression = text  # type: ignore[attr-defined]  # named in the JSON error
            raise
    rolled: list[list[int]] = []
    if rolls:
        rng = np.random.default_rng(seed)
        rolled = [[int(v) for v in dist.sample_many(rng, rolls)] for dist in dists]
    single = len(expressions) == 1
    if csv is not None or markdown or plot is not None:
        from tactica.analysis.plots import dist_plot, dists_plot
        from tactica.analysis.views import dist_table, dists_table
        from tactica.presentation.tables import NumberFormat

        if single:
            table = dist_table(dists[0], expressions[0], at_least=at_least, at_most=at_most,
                               comparison=isinstance(nodes[0], Compare))
        else:
            table = dists_table(list(zip(expressions, dists, strict=True)),
                                f"{len(expressions)} expressions ({dialect} dialect)",
                                at_least=at_least, at_most=at_most)
        show_tables([table], NumberFormat(precision, exact), csv=csv, markdown=markdown,
                    quiet=not markdown)
        if plot is not None:
            if single:
                figure = dist_plot(dists[0], title=expressions[0])
            else:
                figure = dists_plot(list(zip(expressions, dists, strict=True)),
                                    title=f"exact odds ({dialect} dialect)")
            save_plot(figure, plot)
        if markdown:
            return
    if json_out:
        docs = []
        for k, (text, node, dist) in enumerate(zip(expressions, nodes, dists, strict=True)):
            doc = _report(text, node, dist, at_least=at_least, at_most=at_most, exact=exact,
                          explode_depth=explode_depth, dialect=dialect)
            if rolls:
                doc["rolls"] = rolled[k]
                doc["seed"] = seed
            docs.append(doc)
        print_json(docs[0] if single else docs)
        return
    if single:
        _print_table(expressions[0], nodes[0], dists[0], at_least=at_least, at_most=at_most,
                     max_rows=max_rows, explode_depth=explode_depth, dialect=dialect)
    else:
        _print_side_by_side(expressions, nodes, dists, at_least=at_least, at_most=at_most,
                            max_rows=max_rows, explode_depth=explode_depth, dialect=dialect)
    for k, values in enumerate(rolled, start=1):
        shown = ", ".join(map(str, values[:50])) + (" …" if len(values) > 50 else "")
        console.print(f"rolled: {shown}" if single else f"rolled #{k}: {shown}")


@app.command("dice", help=(
    "Exact odds of dice expressions: every value with its probability, mean and sd; several "
    "expressions side by side. "
    "3d6>=4 COUNTS the dice showing 4 or more; (3d6)>=4 COMPARES the total (1 or 0)."
))
def dice_command(
    expressions: Annotated[list[str], typer.Argument(metavar="EXPR", help=_EXPR_HELP)],
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
    dialect: Annotated[
        str, typer.Option("--dialect", metavar="foundry|roll20", help=_DIALECT_HELP)
    ] = DEFAULT_DIALECT,
) -> None:
    """Exact odds of a dice expression: every value with its probability, mean and sd."""
    try:
        _run(expressions, at_least=at_least, at_most=at_most, json_out=json_out, exact=exact,
             max_rows=max_rows, rolls=rolls, seed=seed, explode_depth=explode_depth,
             csv=csv, markdown=markdown, precision=decimals, plot=plot, dialect=dialect)
    except TacticaError as exc:
        if not json_out:
            raise
        doc: dict[str, Any] = {"error": str(exc), "kind": type(exc).__name__}
        column = getattr(exc, "column", None)
        if column is not None:
            doc["column"] = column
        text = getattr(exc, "expression", None)
        if text is not None and len(expressions) > 1:
            doc["expression"] = text
        print_json(doc)
        raise typer.Exit(2) from None
