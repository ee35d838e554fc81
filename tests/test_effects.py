"""``tactica effects`` and the consulted counts of comparisons: a comparison that compares
nothing says so, and every alternative reading's effect agrees with ``--compare``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.effects import effects
from tactica.analysis.simulate import compare
from tactica.cli import main
from tactica.engine.ruleset import example_scenarios, rulesets
from tactica.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
WAREHOUSE = ROOT / "examples" / "arc" / "warehouse.yaml"
ARMORED = ROOT / "docs" / "designer" / "warehouse-armored.yaml"


def _examples() -> list[Path]:
    return sorted(p for rs in rulesets() for p in example_scenarios(rs))


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Any:
    def run(argv: list[str]) -> tuple[int, str, str]:
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err
    return run


def test_arc4_on_the_shipped_warehouse_is_never_consulted() -> None:
    report = compare(load_scenario(WAREHOUSE), "ARC-4=highest,lowest", battles=6, seed=0,
                     workers=1)
    assert report.notes() == ["ARC-4 was consulted in 0 of 6 battles: both variants played "
                              "the same battles"]
    data = report.to_dict()
    assert data["paired"][0]["consulted"] == 0 and data["paired"][0]["changed"] == 0
    assert data["consulted"]["ARC-4=highest"].get("ARC-4", 0) == 0
    assert data["consulted"]["ARC-4=highest"]["ARC-1"] == 6


def test_arc4_is_consulted_against_plate_carriers_and_changes_battles() -> None:
    report = compare(load_scenario(ARMORED), "ARC-4=highest,lowest", battles=8, seed=0,
                     workers=1)
    assert report.consulted(1) == 8 and report.changed(1) > 0
    assert "was consulted in 8 of 8 battles" in report.notes()[0]


def test_a_field_comparison_counts_the_battles_that_ended_differently() -> None:
    sc = load_scenario(ROOT / "examples" / "nebulia" / "duel.yaml")
    report = compare(sc, "max_rounds=20,21", battles=5, seed=1, workers=1)
    assert report.consulted(1) is None
    assert report.notes() == ["max_rounds: no battle of 5 ended differently under "
                              "max_rounds=21: both variants played battles with the same "
                              "results"]


def test_the_cli_says_when_a_comparison_compares_nothing(run_cli: Any) -> None:
    code, out, _ = run_cli(["simulate", str(WAREHOUSE), "--compare", "ARC-4=highest,lowest",
                            "-n", "3", "-j", "1"])
    assert code == 0
    assert "ARC-4 was consulted in 0 of 3 battles: both variants played the same battles" in out


@pytest.mark.parametrize("path", _examples(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_effects_runs_on_every_example_and_unconsulted_rulings_change_nothing(
        path: Path) -> None:
    sc = load_scenario(path)
    report = effects(sc, battles=2, seed=3, workers=1, reuse=False)
    declared = [r.id for r in sc.rulings.declared()]
    listed = {e.ruling for e in report.effects} | {r.id for r in report.never}
    assert listed <= set(declared)
    for e in report.effects:
        if e.consulted == 0:  # a reading nothing read cannot change a battle
            assert e.changed == 0, e.label
    never = {r.id for r in report.never}
    assert not never & {e.ruling for e in report.effects}
    records = report.records()
    assert len(records) == len(report.effects)
    json.loads(report.to_json())
    assert "<table" in report._repr_html_()


@pytest.mark.parametrize("name", ["nebulia/duel-cover", "arc/pistol-duel"])
def test_the_ranking_agrees_with_compare_ruling_by_ruling(name: str) -> None:
    sc = load_scenario(ROOT / "examples" / f"{name}.yaml")
    report = effects(sc, battles=12, seed=5, workers=1)
    assert report.effects
    for e in report.effects:
        one = compare(sc, f"{e.ruling}={e.baseline},{e.option}", battles=12, seed=5,
                      workers=1)
        for o in report.outcomes:
            assert one.paired_difference(1, o) == e.differences[o], (e.label, o)
        assert (one.consulted(1), one.changed(1)) == (e.consulted, e.changed), e.label
    for ruling in [r for r in report.never if len(r.options) > 1][:2]:
        rid = ruling.id
        other = next(o for o in ruling.options if o != sc.rulings[rid])
        one = compare(sc, f"{rid}={sc.rulings[rid]},{other}", battles=12, seed=5, workers=1)
        assert one.consulted(1) == 0 and one.changed(1) == 0


def test_the_effects_command_writes_json_csv_markdown_and_a_plot(tmp_path: Path,
                                                                  run_cli: Any) -> None:
    path = str(ROOT / "examples" / "nebulia" / "duel.yaml")
    code, out, _ = run_cli(["effects", path, "-n", "4", "-j", "1", "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["battles"] == 4 and {"effects", "never_consulted", "baseline"} <= set(data)
    assert [n["ruling"] for n in data["never_consulted"]] == ["NEB-2", "NEB-8", "NEB-10"]
    table = tmp_path / "effects.csv"
    picture = tmp_path / "effects.png"
    code, out, _ = run_cli(["effects", path, "-n", "4", "-j", "1", "--markdown", "--csv",
                            str(table), "--plot", str(picture)])
    assert code == 0 and "| rank | reading |" in out
    assert "never consulted in 4 battles" in out
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert rows and float(rows[0]["red_difference"]) == pytest.approx(
        data["effects"][0]["paired"]["red"]["difference"])
    assert picture.read_bytes()[:4] == b"\x89PNG"
    code, _, err = run_cli(["effects", path, "-n", "2", "--ruling", "XYZ-1"])
    assert code == 2 and "error: --ruling: unknown ruling 'XYZ-1'" in err


def test_the_effects_report_is_a_table_in_a_notebook() -> None:
    sc = load_scenario(ROOT / "examples" / "nebulia" / "duel.yaml")
    report = effects(sc, battles=3, seed=1, workers=1, rulings=["NEB-6", "NEB-10"])
    frame = report.to_pandas()
    assert list(frame["ruling"]) == ["NEB-6"]
    assert [r.id for r in report.never] == ["NEB-10"]
    html = report._repr_html_()
    assert "NEB-6=characteristic" in html and "never consulted" in html


def test_the_scenario_report_has_a_section_on_every_ruling(tmp_path: Path,
                                                            run_cli: Any) -> None:
    page = tmp_path / "report.html"
    code, _, err = run_cli(["report", str(ROOT / "examples" / "nebulia" / "duel.yaml"), "-o",
                            str(page), "-n", "0", "--effects", "3"])
    assert code == 0, err
    html = page.read_text()
    assert "The effect of every ruling" in html and "never consulted in 3 battles" in html
    assert "NEB-6=characteristic" in html and "<svg" in html


def test_a_game_without_cover_effects_works_out_no_reading_for_reversals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Cover can only reverse where the default reading shows cover's effect: a game whose
    matchups show none (Last Odyssey's rows) has no reading worked out for it. Each reading's
    matrix of every profile took about 0.6 s: `effects` of a Last Odyssey fight spent 5 s of
    CPU on them whatever its battles (the long fuzzing run found it)."""
    from tactica.analysis import reversals

    asked: list[dict[str, str]] = []
    real = reversals.cover_effects

    def counted(ruleset: Any, rulings: Any) -> Any:
        asked.append(dict(rulings))
        return real(ruleset, rulings)

    monkeypatch.setattr(reversals, "cover_effects", counted)
    sc = load_scenario(ROOT / "examples" / "last-odyssey" / "cop-vs-goblin.yaml")
    cache: dict[Any, Any] = {}
    for label in ("first", "second"):
        assert reversals.cover_reversal(sc.ruleset, {}, label, {"LO-1": "x"}, cache) is None
    assert asked == [{}]  # the default reading once, then remembered
