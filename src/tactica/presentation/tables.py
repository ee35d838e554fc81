"""Tables for people and for other programs: one model, one number format, five outputs.

A :class:`Table` holds raw values (exact :class:`~fractions.Fraction` probabilities, floats,
whole numbers, words) and says what each column holds; a :class:`NumberFormat` turns them into
text the same way everywhere: probabilities as percentages with a chosen precision, or as exact
fractions where asked. The same table then prints in the terminal (rich), writes CSV and
Markdown, renders as HTML (notebooks, ``tactica report``) and gives JSON records.

>>> from fractions import Fraction
>>> t = Table("odds", [Column("weapon"), Column("P(hit)", "p"), Column("damage", "num")],
...           [["rifle", Fraction(3, 5), Fraction(9, 20)]])
>>> print(t.to_markdown(NumberFormat(precision=1)))
| weapon | P(hit) | damage |
| :--- | ---: | ---: |
| rifle | 60.0% | 0.450 |
>>> print(t.to_markdown(NumberFormat(exact=True)).splitlines()[-1])
| rifle | 3/5 | 9/20 |
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tactica.engine.errors import TacticaError
from tactica.presentation.clean import clean_text
from tactica.presentation.render.markup import Element

if TYPE_CHECKING:
    import pandas as pd
    from rich.table import Table as RichTable

__all__ = ["Column", "Kind", "NumberFormat", "Table", "csv_text", "data_frame", "markdown_text",
           "natural_key", "require", "rows_of", "write_text"]

Kind = Literal["text", "p", "num", "int", "pts"]


@dataclass(frozen=True)
class NumberFormat:
    """How numbers read: probabilities as percentages with ``precision`` decimals (or exact
    fractions with ``exact``), other numbers with ``digits`` decimals (or exact fractions)."""

    precision: int = 1
    exact: bool = False
    digits: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.precision <= 12:
            raise TacticaError(f"--decimals: expected 0 to 12, got {self.precision}")

    def p(self, value: Any) -> str:
        """A probability: ``35.0%`` (or ``7/20`` when exact)."""
        if value is None:
            return "-"
        if self.exact and isinstance(value, Fraction | int):
            return str(Fraction(value))
        return f"{float(value) * 100:.{self.precision}f}%"

    def pts(self, value: Any) -> str:
        """A difference of two probabilities in percentage points: ``+12.2 pts`` (or
        ``+61/500`` when exact).

        >>> NumberFormat().pts(0.122), NumberFormat().pts(-0.005), NumberFormat().pts(0)
        ('+12.2 pts', '-0.5 pts', '+0.0 pts')
        """
        if value is None:
            return "-"
        if self.exact and isinstance(value, Fraction | int):
            f = Fraction(value)
            return f"+{f}" if f >= 0 else str(f)
        shown = f"{float(value) * 100:+.{self.precision}f}"
        if float(shown) == 0:
            shown = "+" + shown[1:]  # no "-0.0"
        return f"{shown} pts"

    def p_interval(self, value: Any, low: Any, high: Any) -> str:
        """A probability with its interval: ``34.0% (31.0-37.0%)``.

        >>> NumberFormat().p_interval(0.34, 0.31, 0.37)
        '34.0% (31.0-37.0%)'
        """
        if low is None or high is None:
            return self.p(value)
        if self.exact:
            return f"{self.p(value)} ({self.p(low)} to {self.p(high)})"
        return f"{self.p(value)} ({self.p(low)[:-1]}-{self.p(high)})"

    def pts_interval(self, low: Any, high: Any) -> str:
        """The interval of a difference in percentage points, bracketed as ``tactica
        effects`` shows it: ``[+10.1, +14.3] pts``.

        An end that rounds to zero keeps its sign, so that an interval wholly below zero
        never reads as reaching it (its verdict says "lower"):

        >>> NumberFormat().pts_interval(0.101, 0.143), NumberFormat().pts_interval(-0.009, -0.0002)
        ('[+10.1, +14.3] pts', '[-0.9, -0.0] pts')
        """
        if low is None or high is None:
            return "-"
        if self.exact:
            return f"[{self.pts(low)}, {self.pts(high)}]"
        return f"[{self._end(low)}, {self._end(high)}] pts"

    def _end(self, value: Any) -> str:
        """An interval's end in points, signed as the value is (``-0.0`` for a small loss)."""
        shown = f"{float(value) * 100:+.{self.precision}f}"
        return "+" + shown[1:] if float(value) == 0 else shown  # a zero (even -0.0) as +0.0

    def num(self, value: Any) -> str:
        """An expectation or a measure: ``0.450`` (or ``9/20`` when exact)."""
        if value is None:
            return "-"
        if self.exact and isinstance(value, Fraction):
            return str(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return f"{float(value):.{self.digits}f}"

    def csv_cell(self, value: Any, kind: Kind) -> str:
        """``value`` as a CSV field: numbers stay numbers a spreadsheet reads (a probability as
        ``0.350``, never ``35.0%``; exact fractions as ``7/20`` only with ``exact``), nothing
        is an empty field, and a text that a spreadsheet would run as a formula is quoted.

        >>> f = NumberFormat()
        >>> f.csv_cell(Fraction(7, 20), "p"), f.csv_cell(None, "num"), f.csv_cell("=1+2", "text")
        ('0.350', '', "'=1+2")
        >>> f.csv_cell(-3, "int"), f.csv_cell("-1+2", "text"), f.csv_cell("a\\r=1", "text")
        ('-3', "'-1+2", 'a =1')
        """
        if value is None:
            return ""
        if kind in ("p", "pts"):
            if self.exact and isinstance(value, Fraction | int):
                return str(Fraction(value))
            return f"{float(value):.{self.precision + 2}f}"
        if kind == "num":
            return self.num(value)
        text = self.cell(value, kind)
        if kind != "text" and isinstance(value, int | float | Fraction) \
                and not isinstance(value, bool):
            return text  # a number the table made: a spreadsheet reads it as one
        return csv_text(text)

    def cell(self, value: Any, kind: Kind) -> str:
        """``value`` as the text of a column of ``kind``."""
        if kind == "p":
            return self.p(value)
        if kind == "pts":
            return self.pts(value)
        if kind == "num":
            return self.num(value)
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)


#: What a spreadsheet may run as a formula at the start of a cell (OWASP's list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A text for a CSV cell that a spreadsheet shows and never runs: line breaks (CR, LF and
    the other line separators) become spaces, so that a name never starts a row of its own,
    and a text starting with ``=``, ``+``, ``-``, ``@``, tab or CR is quoted with ``'``.

    >>> csv_text("-1+cmd|' /C calc'!A0"), csv_text("\\r=1+1"), csv_text("rifle")
    ("'-1+cmd|' /C calc'!A0", "' =1+1", 'rifle')
    """
    if any(c in text for c in "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"):
        text = re.sub("\r\n|[\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029]", " ", text)
    if text.lstrip(" ").startswith(_FORMULA_START):
        return "'" + text
    return text


@dataclass(frozen=True)
class Column:
    """A column: its heading and what it holds (``text``, ``p`` probability, ``pts``
    difference of probabilities in percentage points, ``num`` expectation, ``int`` whole
    number); ``right``: a text column of figures already written out (``34.0% (31.0-37.0%)``),
    aligned as numbers are."""

    name: str
    kind: Kind = "text"
    right: bool = False

    @property
    def numeric(self) -> bool:
        """True for a column of numbers (right-aligned)."""
        return self.kind != "text" or self.right


def _json_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    return value


@dataclass
class Table:
    """Rows of raw values under typed columns, with a title and notes for people."""

    title: str
    columns: list[Column]
    rows: list[list[Any]]
    notes: list[str] = field(default_factory=list)

    def cells(self, fmt: NumberFormat) -> list[list[str]]:
        """Every row as text."""
        return [[fmt.cell(v, c.kind) for v, c in zip(row, self.columns, strict=True)]
                for row in self.rows]

    def records(self) -> list[dict[str, Any]]:
        """JSON-ready rows keyed by heading (fractions as floats)."""
        return [{c.name: _json_value(v) for c, v in zip(self.columns, row, strict=True)}
                for row in self.rows]

    def to_rich(self, fmt: NumberFormat) -> RichTable:
        """A rich table for the terminal."""
        from rich.table import Table as RichTable

        table = RichTable(title=self.title or None, title_justify="left")
        for c in self.columns:
            table.add_column(c.name, justify="right" if c.numeric else "left")
        for row in self.cells(fmt):
            table.add_row(*row)
        return table

    def to_blocks(self, fmt: NumberFormat) -> str:
        """The long layout of a table too wide for the terminal: one block per row, a line
        per column (``heading  value``; none for an empty text), a blank line between blocks,
        the notes after.

        >>> t = Table("odds", [Column("weapon"), Column("P(hit)", "p")], [["smg", 0.5]])
        >>> print(t.to_blocks(NumberFormat()))
        odds
        <BLANKLINE>
        weapon  smg
        P(hit)  50.0%
        """
        width = max((len(c.name) for c in self.columns), default=0)
        lines = [self.title, ""] if self.title else []
        for i, row in enumerate(self.cells(fmt)):
            if i:
                lines.append("")
            lines += [f"{c.name.ljust(width)}  " + x.replace("\n", "\n" + " " * (width + 2))
                      for c, x in zip(self.columns, row, strict=True) if x != ""]
        if self.notes:
            lines.append("")
            lines += list(self.notes)
        return "\n".join(lines)

    def to_csv(self, fmt: NumberFormat) -> str:
        """CSV text: a heading row, then the rows as numbers a spreadsheet reads (see
        :meth:`NumberFormat.csv_cell`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([fmt.csv_cell(c.name, "text") for c in self.columns])
        writer.writerows([[fmt.csv_cell(v, c.kind) for v, c in zip(row, self.columns, strict=True)]
                          for row in self.rows])
        return out.getvalue()

    def to_markdown(self, fmt: NumberFormat) -> str:
        """A GitHub-flavoured Markdown table (numbers right-aligned), notes below it; a cell's
        ``|``, ``<``, ``>`` and ``&`` are escaped, so that a name is never read as markup.

        >>> print(Table("", [Column("name")], [["<b>A|B</b>"]]).to_markdown(NumberFormat()))
        | name |
        | :--- |
        | &lt;b&gt;A\\|B&lt;/b&gt; |
        """
        esc = markdown_text
        lines = ["| " + " | ".join(esc(c.name) for c in self.columns) + " |",
                 "| " + " | ".join("---:" if c.numeric else ":---" for c in self.columns) + " |"]
        lines += ["| " + " | ".join(esc(x) for x in row) + " |" for row in self.cells(fmt)]
        if self.notes:
            lines.append("")
            lines += [f"* {esc(n)}" for n in self.notes]
        return "\n".join(lines)

    def to_elements(self, fmt: NumberFormat) -> list[Element]:
        """The HTML table and its notes as elements (every cell escaped when written)."""
        head = Element("tr").extend(Element("th", c.name) for c in self.columns)
        body = Element("tbody").extend(
            Element("tr").extend(
                Element("td", x, style=f"text-align:{'right' if c.numeric else 'left'}")
                for x, c in zip(row, self.columns, strict=True))
            for row in self.cells(fmt))
        table = Element("table", Element("caption", self.title) if self.title else None,
                        Element("thead", head), body, class_="tactica")
        return [table, *(Element("p", n, class_="note") for n in self.notes)]

    def to_html(self, fmt: NumberFormat) -> str:
        """An HTML table (a notebook's rich display, a section of a report)."""
        return "".join(e.render(html=True) for e in self.to_elements(fmt))

    def to_pandas(self) -> pd.DataFrame:
        """A DataFrame of the raw values (fractions as floats); needs pandas."""
        return data_frame(self.records(), [c.name for c in self.columns])


def markdown_text(text: str) -> str:
    """Text as Markdown shows it literally, on one line (``|``, ``<``, ``>``, ``&`` escaped)."""
    return (clean_text(text, newlines=False).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace("|", "\\|"))


def require(module: str, extra: str) -> Any:
    """Import an optional library, or a TacticaError saying which extra installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise TacticaError(f"{module} is not installed: pip install 'tactica[{extra}]'") from None


def data_frame(records: Sequence[dict[str, Any]],
               columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A pandas DataFrame of records (pandas is imported only now; it is optional)."""
    pandas = require("pandas", "designer")
    frame: pd.DataFrame = pandas.DataFrame(list(records), columns=columns)
    return frame


def write_text(path: Path, text: str, *, what: str = "--csv") -> None:
    """Write a file, or a TacticaError naming the option and why it cannot be written."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise TacticaError(f"{what}: cannot write {path}: {exc.strerror or exc}") from None


def rows_of(columns: Sequence[Column], records: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """Rows in column order from records keyed by heading (missing values: ``None``)."""
    return [[r.get(c.name) for c in columns] for r in records]


def natural_key(text: str) -> tuple[Any, ...]:
    """A sort key that reads numbers as numbers: ``R-2`` before ``R-10``.

    >>> sorted(["R-10", "R-2", "Q-1"], key=natural_key)
    ['Q-1', 'R-2', 'R-10']
    """
    import re

    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", str(text)) if part)
