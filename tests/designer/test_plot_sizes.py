"""Plots for a book: every designer's plot fits a page at 300 dpi (at most 2,400 pixels wide
and 3,000 tall), readings never take a side's colour, and odds --plot overlays the open and
the cover."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tactica.analysis.matrix import matchup_matrix
from tactica.analysis.plots import (
    DPI,
    READINGS,
    dist_plot,
    dists_plot,
    matrix_heatmap,
    paired_plot,
    save_figure,
    sweep_plot,
)
from tactica.cli import main
from tactica.dice import evaluate
from tactica.presentation.render.svg import side_colours

ROOT = Path(__file__).resolve().parents[2]
WIDE, TALL = 2400, 3000


def _fits(fig: object, tmp_path: Path) -> tuple[int, int]:
    path = tmp_path / "p.png"
    save_figure(fig, path)  # type: ignore[arg-type]
    with Image.open(path) as im:
        width, height = im.size
    assert width <= WIDE and height <= TALL, (width, height)
    return width, height


def test_the_heat_map_of_twenty_ranges_fits_and_fits_its_colours(tmp_path: Path) -> None:
    m = matchup_matrix("nebulia", ["breacher", "trooper"], ["trooper", "breacher"],
                       ranges=range(1, 21), covers=[0, 1], means=["smg", "rifle"])
    fig = matrix_heatmap(m, value="expected_damage")
    _fits(fig, tmp_path)
    image = fig.axes[0].images[0]
    low, high = image.get_clim()
    values = [float(c.expected_damage) for c in m.cells if c.expected_damage is not None]
    assert (low, high) == (min(values), max(values))  # the scale fitted to the data
    assert any(t.get_text() == "0.84" for t in fig.axes[0].texts)  # values in the cells


def test_sweep_paired_and_dice_plots_fit(tmp_path: Path) -> None:
    rows = [{"x": x, "p": 0.5, "low": 0.4, "high": 0.6, "g": g, "side": s}
            for x in range(2, 7) for g in ("die", "characteristic") for s in ("red", "blue")]
    fig = sweep_plot(rows, x="x", group="g", panel="side")
    _fits(fig, tmp_path)
    colours = {line.get_color() for ax in fig.axes for line in ax.get_lines()}
    assert not colours & set(side_colours(("red", "blue")).values())
    paired = [{"x": x, "variant": "b - a", "diff": 0.02, "low": -0.01, "high": 0.05,
               "side": s} for x in range(2, 7) for s in ("red", "blue", "draw")]
    _fits(paired_plot(paired, xlabel="smg accuracy"), tmp_path)
    _fits(dists_plot([("2d6", evaluate("2d6")), ("3d6", evaluate("3d6"))]), tmp_path)
    _fits(dist_plot(evaluate("2d6")), tmp_path)
    assert not set(READINGS) & set(side_colours(("red", "blue")).values())


def test_odds_plot_overlays_the_open_and_the_cover(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import matplotlib.figure

    seen: list[matplotlib.figure.Figure] = []
    import tactica.cli.output as output

    real = output.save_plot

    def keep(fig: matplotlib.figure.Figure, path: Path) -> None:
        seen.append(fig)
        real(fig, path)

    output.save_plot, saved = keep, output.save_plot
    import tactica.cli.odds_cmd as odds_cmd

    odds_cmd.save_plot, before = keep, odds_cmd.save_plot
    try:
        picture = tmp_path / "odds.png"
        assert main(["odds", str(ROOT / "examples" / "nebulia" / "firefight.yaml"), "-a", "A",
                     "-t", "4", "--plot", str(picture)]) == 0
    finally:
        output.save_plot, odds_cmd.save_plot = saved, before
    capsys.readouterr()
    labels = [t.get_text() for t in seen[0].axes[0].get_legend().get_texts()]
    assert labels == ["in the open", "in cover"]
    with Image.open(picture) as im:
        assert im.size[0] <= WIDE and im.size[1] <= TALL
    assert DPI == 300
