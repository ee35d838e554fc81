"""Tables in one number format, plots of every kind, notebook displays, comparisons on Dist."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import tactica
from tactica.analysis import plots
from tactica.analysis.matrix import matchup_matrix
from tactica.analysis.views import dist_table
from tactica.dice import Dist, evaluate
from tactica.engine.errors import TacticaError
from tactica.presentation.tables import Column, NumberFormat, Table


def test_one_number_format_for_every_output() -> None:
    t = Table("t", [Column("name"), Column("p", "p"), Column("mean", "num")],
                [["a|b", Fraction(1, 3), Fraction(7, 2)], ["c", None, 2]], ["a note"])
    assert t.cells(NumberFormat(precision=2)) == [["a|b", "33.33%", "3.500"], ["c", "-", "2"]]
    assert t.cells(NumberFormat(exact=True))[0][1:] == ["1/3", "7/2"]
    # CSV holds numbers a spreadsheet reads: a probability as a decimal, nothing as empty.
    assert t.to_csv(NumberFormat(precision=0)).splitlines() == ["name,p,mean", "a|b,0.33,3.500",
                                                               "c,,2"]
    assert t.to_csv(NumberFormat(exact=True)).splitlines()[1] == "a|b,1/3,7/2"
    md = t.to_markdown(NumberFormat())
    assert "| a\\|b | 33.3% | 3.500 |" in md and md.endswith("* a note")
    assert "<caption>t</caption>" in t.to_html(NumberFormat())
    assert t.records()[0] == {"name": "a|b", "p": 1 / 3, "mean": 3.5}
    assert list(t.to_pandas().columns) == ["name", "p", "mean"]
    with pytest.raises(TacticaError, match="--decimals"):
        NumberFormat(precision=40)


def test_comparisons_on_a_distribution_give_the_distribution_of_their_truth() -> None:
    two_d6 = evaluate("2d6")
    at_least_8 = two_d6 >= 8
    assert at_least_8 == evaluate("(2d6)>=8")  # the dice language's own comparison
    assert at_least_8.p(1) == Fraction(5, 12)
    assert (two_d6 > 7) == at_least_8 and (two_d6 < 8).p(1) == Fraction(7, 12)
    assert (two_d6 <= 2).p(1) == Fraction(1, 36)
    d12 = evaluate("1d12")
    brute = sum((pa * pb for a, pa in two_d6.items() for b, pb in d12.items() if a < b),
                Fraction(0))
    assert (two_d6 < d12).p(1) == brute
    assert two_d6 == evaluate("2d6")  # == still compares distributions


def test_notebook_displays_and_frames() -> None:
    d = evaluate("3d6")
    assert d._repr_html_().startswith('<table class="tactica">')
    frame = d.to_pandas()
    assert list(frame.columns) == ["value", "p", "p_exact"] and len(frame) == 16
    duel = tactica.load(tactica.example("duel"))
    report = tactica.odds(duel, "A", "B")
    assert "P(" not in report._repr_html_() or "<table" in report._repr_html_()
    assert set(report.to_pandas()["distribution"]) == {"damage", "defense_left"}
    sim = tactica.simulate(duel, 10, seed=2)
    assert "<table" in sim._repr_html_()
    assert list(sim.to_pandas()["side"]) == ["red", "blue", "draw"]
    m = matchup_matrix("nebulia", ["trooper"], ["scout"], ranges=[2, 6])
    assert "<table" in m._repr_html_() and len(m.to_frame()) == len(m.cells)


def test_every_kind_of_plot_renders_to_png_and_svg(tmp_path: Path) -> None:
    m = matchup_matrix("nebulia", ["breacher", "trooper"], ["trooper"], ranges=[1, 5],
                       covers=[0, 1])
    sim = tactica.simulate(tactica.load(tactica.example("duel")), 10, seed=1)
    points = [{"x": x, "g": g, "p": 0.1 * x, "low": 0.1 * x - 0.05, "high": 0.1 * x + 0.05}
              for x in range(1, 6) for g in ("a", "b")]
    figures = {
        "dist": plots.dist_plot(evaluate("2d6"), title="2d6"),
        "heat": plots.matrix_heatmap(m, value="expected_damage"),
        "sweep": plots.sweep_plot(points, x="x", group="g"),
        "paired": plots.paired_plot([{"x": 1, "variant": "b - a", "diff": 0.1, "low": 0.02,
                                      "high": 0.2}]),
        "wins": plots.win_rate_plot(sim),
    }
    for name, fig in figures.items():
        png = tmp_path / f"{name}.png"
        plots.save_figure(fig, png)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert plots.figure_bytes(fig, "svg").lstrip().startswith(b"<?xml")
    with pytest.raises(TacticaError, match=r"\.png or \.svg"):
        plots.save_figure(figures["dist"], tmp_path / "x.gif")
    with pytest.raises(TacticaError, match="cannot write"):
        plots.save_figure(figures["dist"], tmp_path / "no" / "such" / "x.png")


def test_a_comparison_shows_its_truth_in_a_table() -> None:
    t = dist_table(evaluate("(2d6)>=8"), comparison=True)
    assert [row[0] for row in t.rows] == ["0 (false)", "1 (true)"]
    assert isinstance(Dist.constant(1), Dist)
