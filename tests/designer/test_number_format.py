"""One number format for people and numbers for programs: a comparison's rates and paired
differences, tables that switch to a long layout on a narrow terminal, and a paired plot that
draws every side."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from tactica.analysis.sweep import SweepSpec, parse_vary, run_sweep
from tactica.analysis.sweep_views import paired_table, plot_paired
from tactica.cli import main
from tactica.engine.scenario import load_scenario
from tactica.presentation.tables import Column, NumberFormat, Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = str(EXAMPLES / "nebulia" / "duel-cover.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def narrow(monkeypatch: pytest.MonkeyPatch, width: int = 60) -> None:
    from tactica.cli import common

    monkeypatch.setattr(common.console, "width", width)


def test_percentage_points_read_as_points_and_stay_numbers_in_csv() -> None:
    fmt = NumberFormat()
    assert fmt.pts(0.122) == "+12.2 pts" and fmt.pts(-0.0004) == "+0.0 pts"
    assert fmt.p_interval(0.34, 0.31, 0.37) == "34.0% (31.0-37.0%)"
    assert fmt.pts_interval(-0.024, 0.012) == "[-2.4, +1.2] pts"
    table = Table("d", [Column("difference", "pts")], [[0.122], [-0.05]])
    assert table.to_csv(fmt).splitlines() == ["difference", "0.122", "-0.050"]
    assert "+12.2 pts" in table.to_markdown(fmt)


def test_a_comparison_prints_percentages_and_points(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    narrow(monkeypatch, 200)
    code, out, err = run(capsys, "simulate", DUEL, "--compare", "NEB-6=die,characteristic",
                         "-n", "40", "--seed", "3", "-j", "1")
    assert code == 0, err
    assert re.search(r"red wins +│ +\d+\.\d% \(\d+\.\d-\d+\.\d%\) │", out), out
    assert re.search(r"[+-]\d+\.\d pts │ +\[[+-]\d+\.\d, [+-]\d+\.\d\] pts │", out), out
    assert not re.search(r"\b0\.\d{3}\b", out)


def test_a_comparison_writes_numbers_to_csv_and_json(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ("simulate", DUEL, "--compare", "NEB-6=die,characteristic", "-n", "40",
            "--seed", "3", "-j", "1")
    out_csv = tmp_path / "c.csv"
    code, _, err = run(capsys, *argv, "--csv", str(out_csv))
    assert code == 0, err
    diffs = list(csv.DictReader(out_csv.with_name("c.paired-differences-against-neb-6-die.csv")
                                .open(encoding="utf-8")))
    data = json.loads(run(capsys, *argv, "--json")[1])
    row = data["paired"][0]
    for d in diffs:
        want = row[d["outcome"]]
        assert float(d["difference"]) == pytest.approx(want["difference"], abs=1e-3)
        assert float(d["95% low"]) == pytest.approx(want["ci95"][0], abs=1e-3)
    rates = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert all(0 <= float(r["red wins"]) <= 1 for r in rates)
    assert isinstance(row["red"]["difference"], float)
    code, md, _ = run(capsys, *argv, "--markdown")
    assert code == 0 and " pts |" in md


@pytest.mark.parametrize("argv", [
    ("simulate", DUEL, "-n", "6", "--seed", "1", "-j", "1"),
    ("simulate", DUEL, "--compare", "NEB-6=die,characteristic", "-n", "6", "-j", "1"),
    ("odds", DUEL, "-a", "A", "-t", "B"),
    ("odds", DUEL, "--table"),
    ("games",),
])
def test_tables_too_wide_for_a_narrow_terminal_print_one_block_per_row(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        argv: tuple[str, ...]) -> None:
    narrow(monkeypatch)
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "…" not in out
    assert all(len(line) <= 60 or "┃" not in line for line in out.splitlines())
    wide = [line for line in out.splitlines() if "│" in line]
    assert all(len(line) <= 60 for line in wide), wide


def test_games_rulings_show_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--rulings")
    assert code == 0
    assert re.search(r"NEB-6: .*\n +default \[die\]; other reading: characteristic", out), out
    assert re.search(r"NEB-10: .*\n +default \[\w+\], the only reading so far", out), out


def test_the_paired_plot_draws_every_side_in_points(tmp_path: Path) -> None:
    spec = SweepSpec((parse_vary("rulings.NEB-6=die,characteristic"),),
                     scenario=load_scenario(DUEL), battles=20, seed=4)
    rows = run_sweep(spec)
    fig = plot_paired(rows, spec)
    axes = fig.get_axes()
    assert [a.get_title() for a in axes] == ["red wins", "blue wins", "draws"]
    assert "NEB-6:" in fig.get_suptitle() and "rulings_NEB_6" not in fig.get_suptitle()
    found = {r["side"]: r["paired_diff"] for r in rows
             if r.get("kind") == "simulation" and r.get("paired_diff") is not None}
    for ax, side in zip(axes, ("red", "blue", "draw"), strict=True):
        heights = [p.get_height() for p in ax.patches]
        assert heights == pytest.approx([found[side] * 100])
        ax.figure.canvas.draw()
        assert all(t.get_text() == "0" or t.get_text().endswith(" pts")
                   for t in ax.get_yticklabels() if t.get_text())
    table = paired_table(rows, [p.column for p in spec.parameters], spec.parameters[0].path)
    assert table is not None and table.columns[2].kind == "pts"
    fig.savefig(tmp_path / "paired.png", dpi=72)
