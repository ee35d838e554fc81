"""``tactica dice`` with a dialect and with several expressions side by side."""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tactica.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_dialect_is_in_the_header_and_the_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "2d6")
    assert code == 0 and out.splitlines()[0] == "2d6   (roll20 dialect)"
    code, out, _ = run(capsys, "dice", "d6r1", "--dialect", "foundry")
    assert code == 0 and out.splitlines()[0] == "d6r1   (read as 1d6ro1; foundry dialect)"
    doc = json.loads(run(capsys, "dice", "d6r1", "--json", "--dialect", "foundry")[1])
    assert doc["dialect"] == "foundry" and doc["canonical"] == "1d6ro1"
    assert {o["value"]: o["p_exact"] for o in doc["outcomes"]}[1] == "1/36"
    doc = json.loads(run(capsys, "dice", "d6r1", "--json")[1])
    assert doc["dialect"] == "roll20" and [o["value"] for o in doc["outcomes"]] == [2, 3, 4, 5, 6]


def test_a_bad_dialect_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "dice", "2d6", "--dialect", "hero")
    assert code == 2 and out == ""
    assert err.strip() == "error: --dialect: expected one of roll20, foundry, got 'hero'"


def test_bad_input_in_a_second_expression(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "dice", "3d6", "2d6[fire")
    assert code == 2 and out == ""
    assert err.strip() == "error: '[' without its ']' at column 4 in '2d6[fire'"
    code, out, _ = run(capsys, "dice", "3d6", "{d6}kh", "--json")
    doc = json.loads(out)
    assert code == 2 and doc["column"] == 5 and doc["expression"] == "{d6}kh"


def test_labels_and_comment(capsys: pytest.CaptureFixture[str]) -> None:
    text = "2d6[fire] + 1d4[cold] # burning hands"
    code, out, _ = run(capsys, "dice", text)
    assert code == 0
    assert out.splitlines()[0] == f"{text}   (roll20 dialect)"
    assert "labels: 2d6 = fire, 1d4 = cold" in out and "comment: burning hands" in out
    doc = json.loads(run(capsys, "dice", text, "--json")[1])
    assert doc["labels"] == [{"term": "2d6", "label": "fire"}, {"term": "1d4", "label": "cold"}]
    assert doc["comment"] == "burning hands" and doc["mean"] == 9.5


def test_several_expressions_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "3d6", "2d10+1", "--at-least")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "2 expressions   (roll20 dialect)"
    assert "#1 3d6" in out and "#2 2d10+1" in out
    row = next(line for line in lines if line.startswith("│    21 "))
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells == ["21", "", "0.000%", "1.000%", "1.000%"]
    row = next(line for line in lines if line.startswith("│    10 "))
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells == ["10", "12.500%", "62.500%", "8.000%", "72.000%"]
    assert "mean 10.5000  sd 2.9580" in out and "mean 12.0000  sd 4.0620" in out


def test_several_expressions_as_a_json_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "3d6", "{d20, d20}kh", "--json", "--dialect",
                       "foundry")
    assert code == 0
    docs = json.loads(out)
    assert isinstance(docs, list) and [d["expression"] for d in docs] == ["3d6", "{d20, d20}kh"]
    assert all(d["dialect"] == "foundry" for d in docs)
    adv = {o["value"]: o["p_exact"] for o in docs[1]["outcomes"]}
    assert adv[20] == str(Fraction(39, 400)) and docs[1]["canonical"] == "{1d20, 1d20}kh1"


def test_a_single_expression_is_still_one_json_object(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = json.loads(run(capsys, "dice", "3d6", "--json")[1])
    assert isinstance(doc, dict) and doc["expression"] == "3d6"


def test_several_expressions_in_csv_and_one_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    table, png, svg = tmp_path / "t.csv", tmp_path / "p.png", tmp_path / "p.svg"
    code, _, err = run(capsys, "dice", "2d6", "d12", "--csv", str(table), "--plot", str(png))
    assert code == 0 and f"plot written to {png}" in err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.reader(table.read_text().splitlines()))
    assert rows[0] == ["value", "2d6", "d12"]
    by_value = {r[0]: r[1:] for r in rows[1:]}
    assert by_value["1"][0] in ("", "-") and by_value["12"] == [
        by_value["2"][0], by_value["1"][1]]  # 1/36 for 2d6's 12 as for its 2; 1/12 for d12
    assert run(capsys, "dice", "2d6", "d12", "--plot", str(svg))[0] == 0
    text = svg.read_text()
    assert "2d6" in text and "d12" in text  # the legend names both


def test_too_many_expressions(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "dice", *["d6"] * 13)
    assert code == 2 and err.strip() == "error: at most 12 expressions at once, got 13"


def test_rolls_of_several_expressions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "d6", "d8", "--roll", "3", "--seed", "1")
    assert code == 0 and "rolled #1: " in out and "rolled #2: " in out
