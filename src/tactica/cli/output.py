"""The output options every command that prints a table shares: CSV, Markdown, number format,
plots. A command builds :class:`tactica.presentation.tables.Table` objects and hands them to
:func:`show_tables`; the JSON stays the command's own document."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from tactica.cli.common import console, err_console
from tactica.presentation.tables import NumberFormat, Table, markdown_text, write_text
from tactica.presentation.terminal import echo

__all__ = [
    "CsvOpt",
    "DecimalsOpt",
    "ExactOpt",
    "MarkdownOpt",
    "PlotOpt",
    "save_plot",
    "show_tables",
]

CsvOpt = Annotated[Path | None, typer.Option("--csv", metavar="FILE", help="Also write the table as CSV to FILE (more tables: FILE-stem.NAME.csv beside it).")]
MarkdownOpt = Annotated[bool, typer.Option("--markdown", help="Print the table as Markdown (for a rulebook or a wiki).")]
DecimalsOpt = Annotated[int, typer.Option("--decimals", min=0, max=12, help="Decimals of percentages in tables.")]
ExactOpt = Annotated[bool, typer.Option("--exact", help="Exact fractions instead of percentages.")]
PlotOpt = Annotated[Path | None, typer.Option("--plot", metavar="FILE", help="Draw a plot to FILE.png or FILE.svg (matplotlib: pip install 'tactica[plot]').")]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "table"


def csv_paths(path: Path, tables: Sequence[Table]) -> list[Path]:
    """Where each table's CSV goes: the first to ``path``, the others beside it."""
    out = [path]
    for i, t in enumerate(tables[1:], start=2):
        out.append(path.with_name(f"{path.stem}.{_slug(t.title) or i}{path.suffix or '.csv'}"))
    return out


def show_tables(tables: Sequence[Table], fmt: NumberFormat, *, csv: Path | None = None,
                markdown: bool = False, quiet: bool = False) -> None:
    """Print the tables (rich, or Markdown) and write CSV if asked; ``quiet`` prints nothing
    (the command printed JSON)."""
    if csv is not None:
        for table, path in zip(tables, csv_paths(csv, tables), strict=True):
            write_text(path, table.to_csv(fmt))
        if len(tables) > 1:
            err_console.print("wrote " + ", ".join(str(p) for p in csv_paths(csv, tables)))
    if quiet:
        return
    for table in tables:
        if markdown:
            if table.title:
                echo(f"**{markdown_text(table.title)}**\n")
            echo(table.to_markdown(fmt) + "\n")
        else:
            console.print(table.to_rich(fmt))
            for note in table.notes:
                console.print(note)


def save_plot(figure: Any, path: Path) -> None:
    """Write a matplotlib figure (PNG or SVG by the file's suffix) and say where."""
    from tactica.analysis.plots import save_figure

    save_figure(figure, path)
    err_console.print(f"plot written to {path}")
