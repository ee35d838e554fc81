"""A CSV file tactica writes never carries a formula: every text cell starting with ``=``,
``+``, ``-``, ``@``, tab or CR is quoted, and line breaks in names never start a row."""

from __future__ import annotations

import csv
import io

import pytest

from tactica.presentation.tables import Column, NumberFormat, Table, csv_text

HOSTILE = ["-1+cmd|' /C calc'!A0", "\r=1+1", "=HYPERLINK(\"x\")", "+1", "@SUM(A1)", "\t=1",
           "a\n=2+2", "b\r\n-3", " =1", "-", "safe"]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_every_hostile_name_is_one_row_and_no_cell_is_a_formula() -> None:
    t = Table("t", [Column("unit"), Column("wins", "int"), Column("p", "p")],
              [[name, -3, 0.5] for name in HOSTILE])
    text = t.to_csv(NumberFormat())
    rows = _cells(text)
    assert len(rows) == 1 + len(HOSTILE)  # no name started a row of its own
    assert "\r" not in text
    for row in rows[1:]:
        assert not row[0].startswith(FORMULA), row
        assert row[1:] == ["-3", "0.500"]  # numbers stay numbers a spreadsheet reads


def test_pandas_reads_the_hostile_names_back_as_text_rows() -> None:
    pd = pytest.importorskip("pandas")
    t = Table("t", [Column("unit"), Column("wins", "int")], [[name, 1] for name in HOSTILE])
    frame = pd.read_csv(io.StringIO(t.to_csv(NumberFormat())))
    assert len(frame) == len(HOSTILE)
    assert not any(str(v).startswith(FORMULA) for v in frame["unit"])


def test_csv_text_quotes_owasp_s_list_and_flattens_line_breaks() -> None:
    assert csv_text("-1+cmd|' /C calc'!A0") == "'-1+cmd|' /C calc'!A0"
    assert csv_text("\r=1+1") == "' =1+1"
    assert csv_text("x\u2028y") == "x y"
    assert csv_text("-") == "'-"
    assert csv_text("rifle") == "rifle"


def test_the_effects_csv_quotes_its_texts_too() -> None:
    from tactica.analysis import effects as fx

    class Fake:
        records = staticmethod(lambda: [{"ruling": "=1+1", "change": "-2 pts", "n": -1}])

    text = fx.EffectsReport.to_csv(Fake())  # type: ignore[arg-type]
    assert _cells(text)[1] == ["'=1+1", "'-2 pts", "-1"]
