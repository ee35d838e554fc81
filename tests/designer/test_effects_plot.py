"""The effects plot speaks as people ask: the ruling's question and the reading's name on
each bar, every side drawn (a side that did not move too), titles clear of the legend."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.analysis.effects import Effect, EffectsReport
from tactica.analysis.paired import PairedDifference
from tactica.engine.rulings import Ruling

pytest.importorskip("matplotlib")

from tactica.analysis.effects_plot import effects_plot, short_question
from tactica.analysis.plots import save_figure


def _effect(ruling: str, question: str, option: str, baseline: str, red: float,
            blue: float) -> Effect:
    diffs = {"red": PairedDifference(red, red - 0.05, red + 0.05, 100),
             "blue": PairedDifference(blue, blue - 0.05, blue + 0.05, 100)}
    return Effect(ruling, question, option, "meaning", baseline, 100, 40, 10, diffs,
                  {"red": 0.5, "blue": 0.4})


def _report() -> EffectsReport:
    effects = (
        _effect("ARC-16", "A hit of at least twice the DT (15 against a d6): the seed's "
                "sequence or the damage chapter's", "massive", "seed", 0.48, -0.33),
        _effect("ARC-4", "Which armor die drops a step?", "lowest", "highest", 0.03, 0.0),
    )
    never = (Ruling("ARC-9", "The natural 1 and 20", "combat", {"combat": "a", "all": "b"}),)
    return EffectsReport("Warehouse", 0, 100, ("red", "blue"), {}, {},
                         {"red": (0.2, (0.1, 0.3)), "blue": (0.6, (0.5, 0.7))}, effects,
                         never, (), {}, "engine: the reference")


def test_questions_are_shortened_at_a_word() -> None:
    assert short_question("Initiative order (the source states it three ways)") == \
        "Initiative order"
    long = short_question("May a diagonal step pass between two blocked tiles when both "
                          "are walls of different heights?", width=30)
    assert len(long) <= 30 and long.endswith("…") and " " in long


def test_bars_carry_the_question_and_the_readings_names(tmp_path: Path) -> None:
    fig = effects_plot(_report())
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] == ("A hit of at least twice the DT\nmassive, not seed  ·  ARC-16")
    assert labels[1] == "Which armor die drops a step?\nlowest, not highest  ·  ARC-4"
    assert not any("=" in label for label in labels)
    texts = {t.get_text() for t in ax.texts}
    assert {"+48.0", "-33.0", "+3.0", "+0.0"} <= texts  # as the table prints them
    marks = [c for c in ax.collections if len(c.get_offsets()) == 2]
    assert len(marks) >= 2  # one mark per side and alternative: blue's 0.0 is drawn too
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    title = fig.get_suptitle()
    assert "Warehouse" in title
    assert "never consulted (their readings play the same battles): ARC-9" in title
    assert "Holm" in title
    width, height = fig.get_size_inches() * 300
    assert width <= 2400 and height <= 3000
    boxes = [fig._suptitle.get_window_extent(renderer),  # type: ignore[union-attr]
             fig.legends[0].get_window_extent(renderer), ax.get_window_extent(renderer)]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)
    for suffix in ("png", "svg"):
        save_figure(fig, tmp_path / f"e.{suffix}")
    assert (tmp_path / "e.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (tmp_path / "e.svg").read_bytes()[:400]


def test_paired_ticks_are_never_alike_and_sweep_legends_name_the_parameter_once() -> None:
    from tactica.analysis.plots import paired_plot, sweep_plot

    fig = paired_plot([{"x": "all", "variant": "b - a", "diff": 0.0, "low": -0.004,
                        "high": 0.004, "side": "red"}])
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels() if t.get_text()]
    assert len(ticks) == len(set(ticks)) and "0" in ticks
    rows = [{"range": r, "rule": g, "p": p, "low": p - 0.1, "high": p + 0.1}
            for r in (2, 4) for g, p in (("x", 0.5), ("y", 0.5))]
    fig = sweep_plot(rows, x="range", group="rule", grouplabel="NEB-3: How is it measured?")
    legend = fig.axes[0].get_legend()
    assert legend.get_title().get_text() == "NEB-3: How is it measured?"
    assert [t.get_text() for t in legend.get_texts()] == ["x", "y"]
    lines = [ln.get_xdata() for ln in fig.axes[0].get_lines()]
    assert list(lines[0]) != list(lines[1])  # equal values side by side, never hidden


def test_the_heat_map_labels_its_rows_once_and_names_the_action() -> None:
    from tactica.analysis.matrix import matchup_matrix
    from tactica.analysis.plots import matrix_heatmap

    m = matchup_matrix("arc", ["bobby"], ["jane", "dee"], ranges=[10, 80])
    fig = matrix_heatmap(m, value="expected_damage_per_ap")
    first, second = fig.axes[0], fig.axes[1]
    labels = [t.get_text() for t in first.get_yticklabels()]
    assert "bobby: Battle rifle\none attack: up to 4 hits (rof 4)" in labels
    assert not any(t.get_text() for t in second.get_yticklabels())
    assert "of one attack action" in fig.get_suptitle()
