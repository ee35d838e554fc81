"""Notebook displays: a comparison and a scenario as escaped HTML tables with to_pandas(),
exact probabilities kept as fractions, figures that show themselves inline."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tactica.analysis.simulate import compare
from tactica.dice import evaluate
from tactica.engine.scenario import load_scenario, scenario_from_mapping

DUEL = Path(__file__).resolve().parents[2] / "examples" / "nebulia" / "duel.yaml"


def test_a_comparison_renders_as_tables_and_a_frame() -> None:
    report = compare(load_scenario(DUEL), "NEB-6=die,characteristic", battles=40, seed=1,
                     workers=1)
    html = report._repr_html_()
    assert html.count("<table") == 2 and "paired differences against NEB-6=die" in html
    frame = report.to_pandas()
    assert list(frame["outcome"])[:len(report.outcomes)] == list(report.outcomes)
    second = frame[frame["variant"] == report.labels[1]]
    mean, (lo, hi), clear = report.difference(1, report.sides[0])
    row = second[second["outcome"] == report.sides[0]].iloc[0]
    assert row["difference"] == mean and row["difference_low"] == lo
    assert row["difference_high"] == hi
    assert row["clear"] == clear
    assert frame[frame["variant"] == report.labels[0]]["difference"].isna().all()


def test_a_scenario_renders_its_units_escaped() -> None:
    sc = scenario_from_mapping({
        "game": "skirmishers", "name": "<script>x</script>",
        "map": {"kind": "dots", "levels": {"ground": "A . B\n . . .\n"}},
        "units": {"A": {"side": "red", "primary": "rifle", "armor": "basic"},
                  "B": {"side": "blue", "primary": "smg"}}}, source="test")
    html = sc._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html
    frame = sc.to_pandas()
    assert list(frame["unit"]) == ["A", "B"] and list(frame["armor"]) == ["basic", ""]


def test_dist_frames_keep_exact_fractions() -> None:
    frame = evaluate("2d6").to_pandas()
    seven = frame[frame["value"] == 7].iloc[0]
    assert seven["p_exact"] == Fraction(1, 6) and isinstance(seven["p_exact"], Fraction)
    assert sum(frame["p_exact"]) == 1


def test_figures_show_themselves_inline() -> None:
    from tactica.analysis.plots import dist_plot

    fig = dist_plot(evaluate("2d6"), title="2d6")
    assert fig._repr_png_()[:4] == b"\x89PNG"  # type: ignore[attr-defined]
