"""The designer's commands through tactica.cli.main: matrix, sweep, report, and the table
options of dice, odds, simulate and games; bad input is one line and exit code 2."""

from __future__ import annotations

import csv
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tactica.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "nebulia"
DUEL = str(EXAMPLES / "duel.yaml")
FIREFIGHT = str(EXAMPLES / "firefight.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


def test_matrix_answers_the_smg_against_the_rifle_in_one_command(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    heat, table = tmp_path / "heat.png", tmp_path / "m.csv"
    code, out, err = run(capsys, "matrix", "nebulia", "-a", "breacher,trooper", "-t", "trooper",
                         "-w", "smg,rifle", "--range", "1-20", "--cover", "0,1", "--value",
                         "expected_damage", "--csv", str(table), "--plot", str(heat))
    assert code == 0, err
    assert "did not count at range 1, 2, 3" in out
    assert heat.read_bytes()[:4] == b"\x89PNG"
    rows = list(csv.reader(table.read_text().splitlines()))
    assert rows[0] == ["target", "range", "breacher smg in the open", "breacher smg in cover",
                       "trooper rifle in the open", "trooper rifle in cover"]
    assert len(rows) == 21
    assert rows[5][2:] == ["0.840", "0.720", "0.420", "0.360"]  # range 4: cover counts


def test_matrix_json_markdown_and_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "matrix", "nebulia", "-a", "trooper", "-t", "scout",
                       "--range", "1,2", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["game"] == "Nebulia Operations"
    knife = {c["range"]: c for c in doc["cells"] if c["means"] == "knife"}
    assert knife[1]["p_out_of_action_exact"] and "not adjacent" in knife[2]["note"]
    code, out, _ = run(capsys, "matrix", "nebulia", "-a", "trooper", "-t", "scout",
                       "--range", "1", "--markdown", "--exact")
    assert code == 0 and out.startswith("**Nebulia Operations") and "| ---: |" in out
    assert re.search(r"\| \d+/\d+ \|", out)


def test_matrix_from_a_scenarios_units(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "matrix", DUEL, "--range", "4", "--long")
    assert code == 0, err
    assert "rifle" in out and "42.0%" in out


def test_matrix_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "unknown profile 'ninja'" in fails(capsys, "matrix", "nebulia", "-a", "ninja")
    assert "--range" in fails(capsys, "matrix", "nebulia", "--range", "x-y")
    assert "unknown game" in fails(capsys, "matrix", "chess")
    assert "cannot write" in fails(capsys, "matrix", "nebulia", "-a", "trooper", "-t", "scout",
                                   "--csv", str(tmp_path / "no" / "m.csv"))
    assert "--value" in fails(capsys, "matrix", "nebulia", "--value", "luck")


def test_sweep_writes_parquet_and_queries_it(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    out = tmp_path / "s.parquet"
    band, paired = tmp_path / "band.png", tmp_path / "paired.svg"
    code, _, err = run(capsys, "sweep", DUEL, "-v", "rulings.NEB-6=die,characteristic",
                       "-v", "units.B.defense=1-2", "-n", "12", "-o", str(out),
                       "--plot", str(band), "--paired-plot", str(paired))
    assert code == 0, err
    assert band.read_bytes()[:4] == b"\x89PNG" and b"<svg" in paired.read_bytes()
    code, text, err = run(capsys, "sweep", str(out), "--json", "--query",
                          "SELECT units_B_defense AS d, count(*) AS n FROM sweep "
                          "WHERE kind = 'simulation' GROUP BY 1 ORDER BY 1")
    assert code == 0, err
    assert json.loads(text) == [{"d": 1, "n": 6}, {"d": 2, "n": 6}]
    assert "--query" in fails(capsys, "sweep", str(out), "--query", "SELECT nope FROM sweep")
    assert "units.Q" in fails(capsys, "sweep", DUEL, "-v", "units.Q.armor=1,2", "-n", "2")
    assert "--battles" in fails(capsys, "sweep", DUEL, "-v", "units.B.armor=1,2")


def test_sweep_of_a_matchup_by_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sweep", "nebulia", "--profiles", "breacher,trooper",
                         "-v", "range=2-5", "--cover", "1", "--markdown")
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if ln.startswith("| ")][2:]
    assert [ln.split(" | ")[0] for ln in lines] == ["| 2", "| 3", "| 4", "| 5"]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.h2: list[str] = []
        self._in_h2 = False
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_h2 = tag == "h2"
        self.links += [v or "" for k, v in attrs if k in ("src", "href")]

    def handle_data(self, data: str) -> None:
        if self._in_h2:
            self.h2.append(data)
            self._in_h2 = False


def test_report_of_the_firefight_is_one_self_contained_page(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", FIREFIGHT, "-o", str(page), "-n", "6")
    assert code == 0, err
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>")
    tags = _Tags()
    tags.feed(text)
    assert tags.h2 == ["Map", "Units", "Rulings", "Exact odds", "Simulation"]
    assert tags.tags.count("svg") >= 3 and tags.tags.count("table") >= 5
    assert tags.links == [] and "<script" not in text  # nothing to fetch: it travels alone
    assert "NEB-6" in text and "Firefight at the depot" in text


def test_report_of_a_sweep(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out, page = tmp_path / "s.parquet", tmp_path / "s.html"
    assert run(capsys, "sweep", "nebulia", "--profiles", "breacher,trooper", "-v",
               "content.weapons.smg.dice=1-5", "--range", "6", "-o", str(out))[0] == 0
    code, _, err = run(capsys, "report", str(out), "-o", str(page))
    assert code == 0, err
    tags = _Tags()
    tags.feed(page.read_text())
    assert tags.h2 == ["Sweep", "Rulings", "Results", "Plots"]
    assert tags.tags.count("svg") >= 2
    assert "no such file" in fails(capsys, "report", str(tmp_path / "none.yaml"))


def test_table_options_of_the_other_commands(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    code, out, _ = run(capsys, "dice", "2d6", "--markdown", "--decimals", "2",
                       "--at-least", "--plot", str(tmp_path / "d.svg"))
    assert code == 0 and "| 7 | 16.67% | 58.33% |" in out
    code, out, _ = run(capsys, "odds", DUEL, "-a", "A", "-t", "B", "--markdown", "--exact")
    assert code == 0 and "| p out of action | 21/50 | - |" in out
    code, _, _ = run(capsys, "odds", FIREFIGHT, "--table", "--csv", str(tmp_path / "o.csv"))
    assert code == 0 and (tmp_path / "o.csv").read_text().startswith("attacker,weapon,target")
    code, _, _ = run(capsys, "simulate", DUEL, "-n", "5", "-j", "1", "--csv",
                     str(tmp_path / "sim.csv"))
    assert code == 0 and (tmp_path / "sim.units.csv").is_file()
    code, out, _ = run(capsys, "games", "--markdown")
    assert code == 0 and "| nebulia-operations |" in out
