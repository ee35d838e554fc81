"""Plots for designers: pure functions from data to a matplotlib figure, drawn without a display.

* :func:`dist_plot`: a distribution's bars with its "at least" curve (``tactica dice``, ``odds``);
* :func:`matrix_heatmap`: a matchup matrix as heat maps, one panel per target and cover;
* :func:`sweep_plot`: a number (a win rate) against a swept parameter with 95% interval bands,
  one line per value of a second parameter;
* :func:`paired_plot`: a comparison's paired differences (variant minus baseline at each point)
  with their 95% intervals.

matplotlib is an optional extra (``pip install 'tactica[plot]'``); pyplot is never imported,
so nothing ever opens a window and a notebook's backend is left alone, and every figure shows
itself inline in a notebook (``_repr_png_``). :func:`save_figure` writes PNG or
SVG; :func:`figure_bytes` gives the bytes (a report embeds them).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactica.engine.errors import TacticaError
from tactica.presentation.clean import clean_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tactica.analysis.matrix import Matrix
    from tactica.analysis.simulate import SimulationReport
    from tactica.analysis.versus import VersusReport
    from tactica.dice import Dist

__all__ = ["dist_plot", "dists_plot", "figure_bytes", "matrix_heatmap", "paired_plot",
           "save_figure", "sweep_plot", "versus_plot", "win_rate_plot"]

#: Print resolution of PNG plots (SVG is vector).
DPI = 300
#: The widest figure, in inches: 2,400 pixels at :data:`DPI`, a book's page.
PAGE_WIDTH = 8.0
#: The tallest figure, in inches (3,000 pixels at :data:`DPI`).
PAGE_HEIGHT = 10.0

_BAR = "#4c72b0"
_LINE = "#dd8452"
#: Colours of readings, values and variants: never a side's red or blue, so that a colour on
#: a designer's plot always means one thing.
READINGS = ("#8172b3", "#dd8452", "#55a868", "#937860", "#17becf", "#7f7f7f")


def _plain(text: object) -> str:
    """Text from data as matplotlib shows it literally: no control characters, and a ``$``
    escaped (two of them would start mathtext, which may fail on arbitrary text)."""
    return clean_text(str(text), newlines=False).replace("$", r"\$")


_INLINE: list[type] = []


def _inline_figure() -> type:
    """A matplotlib Figure that a notebook shows inline by itself (``_repr_png_``), without
    pyplot and without touching the notebook's own backend."""
    if not _INLINE:
        from matplotlib.figure import Figure

        class InlineFigure(Figure):
            """A figure that shows itself in a notebook (PNG at screen resolution)."""

            def _repr_png_(self) -> bytes:
                out = io.BytesIO()
                self.savefig(out, format="png", dpi=100)
                return out.getvalue()

        _INLINE.append(InlineFigure)
    return _INLINE[0]


def _figure(width: float, height: float, ncols: int = 1, nrows: int = 1) -> tuple[Figure, Any]:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TacticaError("plots need matplotlib: pip install 'tactica[plot]'") from None
    # No pyplot and no backend: a Figure saves through its own canvas, and a notebook's
    # backend is left as it was.
    fig: Figure = _inline_figure()(figsize=(width, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def save_figure(fig: Figure, path: Path) -> None:
    """Write ``fig`` as PNG or SVG (by the suffix); a TacticaError for another suffix or a
    file that cannot be written."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise TacticaError(f"--plot: expected a .png or .svg file, got {path}")
    try:
        fig.savefig(path, format=kind, dpi=DPI)
    except OSError as exc:
        raise TacticaError(f"--plot: cannot write {path}: {exc.strerror or exc}") from None


def figure_bytes(fig: Figure, kind: str = "svg") -> bytes:
    """The figure as SVG or PNG bytes."""
    out = io.BytesIO()
    fig.savefig(out, format=kind, dpi=DPI)
    return out.getvalue()


def dist_plot(dist: Dist[Any], *, title: str = "", xlabel: str = "value",
              at_least: bool = True) -> Figure:
    """Bars of P(value) and, on a second axis, the curve of P(at least value)."""
    values = list(dist.outcomes)
    probs = [float(p) for _, p in dist.items()]
    fig, axes = _figure(7.5, 4.2)
    ax = axes[0][0]
    xs = list(range(len(values)))
    numeric = all(isinstance(v, int | Fraction) and not isinstance(v, bool) for v in values)
    pos = [float(v) for v in values] if numeric else xs
    ax.bar(pos, [p * 100 for p in probs], color=_BAR, width=0.8 if numeric else 0.6,
           label="P(value)")
    ax.set_xlabel(_plain(xlabel))
    ax.set_ylabel("probability (%)", color=_BAR)
    if not numeric:
        ax.set_xticks(xs, [_plain(v) for v in values], rotation=30, ha="right")
    elif len(values) <= 25:
        ax.set_xticks(pos, [_plain(v) for v in values])
    if len(values) <= 14:
        for x, p in zip(pos, probs, strict=True):
            ax.annotate(f"{p:.1%}", (x, p * 100), ha="center", va="bottom", fontsize=8)
    if at_least and dist.is_ordered:
        tail = [float(p) * 100 for _, p in dist.at_least_table()]
        twin = ax.twinx()
        twin.plot(pos, tail, color=_LINE, marker="o", markersize=3, label="P(at least value)")
        twin.set_ylim(0, 105)
        twin.set_ylabel("at least (%)", color=_LINE)
        ax.set_ylim(0, max(probs) * 100 * 1.12)
    ax.set_title(_plain(title or "distribution"))
    ax.grid(axis="y", alpha=0.3)
    return fig


def dists_plot(named: Sequence[tuple[str, Dist[Any]]], *, title: str = "",
               xlabel: str = "value") -> Figure:
    """Several distributions on one figure, one colour each with a legend: P(value) on the
    left, P(at least value) on the right (as AnyDice shows several outputs)."""
    fig, axes = _figure(PAGE_WIDTH, 3.8, ncols=2)
    left, right = axes[0][0], axes[0][1]
    values: set[float] = set()
    for ax in (left, right):
        ax.set_prop_cycle(color=list(READINGS))
        ax.tick_params(labelsize=7)
    for name, dist in named:
        xs = [float(v) for v in dist.outcomes]
        values.update(xs)
        label = _plain(name)
        left.plot(xs, [float(p) * 100 for _, p in dist.items()], marker="o", markersize=3,
                  linewidth=1.4, label=label)
        right.plot(xs, [float(p) * 100 for _, p in dist.at_least_table()], marker="o",
                   markersize=3, linewidth=1.4, label=label)
    for ax, ylabel in ((left, "probability (%)"), (right, "at least (%)")):
        ax.set_xlabel(_plain(xlabel))
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        if len(values) <= 25:
            ticks = sorted(values)
            ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        else:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
    right.set_ylim(0, 105)
    left.set_title("P(value)")
    right.set_title("P(at least value)")
    left.legend(fontsize=8)
    if title:
        fig.suptitle(_plain(title))
    return fig


def _panels(matrix: Matrix) -> list[tuple[str, int | None]]:
    return list(dict.fromkeys((c.target, c.cover) for c in matrix.cells))


def matrix_heatmap(matrix: Matrix, *, value: str = "p_out_of_action") -> Figure:
    """One heat map per target and cover: a row per attacker's weapon, a column per range,
    each cell coloured and labelled with ``value`` (blank: the action is impossible there)."""
    from tactica.analysis.matrix import VALUES

    panels = _panels(matrix)
    rows = list(dict.fromkeys((c.attacker, c.means) for c in matrix.cells))
    ranges = sorted({c.range for c in matrix.cells}, key=lambda r: -1 if r is None else r)
    found = {(c.target, c.cover, c.attacker, c.means, c.range): c.value(value)
             for c in matrix.cells}
    numbers = [float(v) for v in found.values() if v is not None]
    # The colour scale fitted to the data (the values are written in the cells).
    top = max(numbers, default=1.0)
    bottom = min(numbers, default=0.0)
    if top <= bottom:
        top = bottom + (1.0 if bottom == 0 else abs(bottom) * 0.1)
    probability = value.startswith("p_")
    actions = {(c.attacker, c.means): c.action for c in matrix.cells if c.action}
    labels = [_plain(m if a == m else f"{a}: {m}")
              + ("\n" + _plain(actions[(a, m)]) if (a, m) in actions else "")
              for a, m in rows]
    # Side by side only while two panels of cells fit a page's width.
    ncols = 2 if len(panels) > 1 and len(ranges) <= 5 else 1
    # The row labels once, at the left (every panel has the same rows); cells wide enough for
    # their numbers ("14.30", "100.0%").
    label_width = 0.3 + 0.06 * max((len(line) for t in labels for line in t.split("\n")),
                                   default=4)
    width = min(PAGE_WIDTH, label_width + ncols * (0.5 * len(ranges) + 0.4) + 1.2)
    nrows = (len(panels) + ncols - 1) // ncols
    height = min(PAGE_HEIGHT, 1.0 + (0.38 * len(rows) + 0.8) * nrows)
    fig, axes = _figure(width, max(2.4, height), ncols, nrows)
    cell_font = 7 if len(ranges) <= 12 else 5
    image = None
    for i, (target, cover) in enumerate(panels):
        ax = axes[i // ncols][i % ncols]
        grid = [[found.get((target, cover, a, m, r)) for r in ranges] for a, m in rows]
        shown = [[float("nan") if v is None else float(v) for v in row] for row in grid]
        image = ax.imshow(shown, cmap="viridis", vmin=bottom, vmax=top, aspect="auto")
        ax.set_yticks(range(len(rows)), labels if i % ncols == 0 else [], fontsize=7)
        ax.set_xticks(range(len(ranges)), ["-" if r is None else _plain(r) for r in ranges],
                      fontsize=7)
        ax.set_xlabel("range")
        where = ("" if cover is None else ", in the open" if cover == 0
                 else ", in cover" if cover == 1 else f", cover {cover}")
        ax.set_title(_plain(f"against {target}{where}"), fontsize=10)
        for y, row in enumerate(grid):
            for x, v in enumerate(row):
                if v is None:
                    continue
                f = float(v)
                text = f"{f:.1%}" if probability else f"{f:.2f}"
                ax.text(x, y, text, ha="center", va="center", fontsize=cell_font,
                        color="black" if f > bottom + (top - bottom) * 0.6 else "white")
    for j in range(len(panels), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    if image is not None:
        bar = fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.8, aspect=30)
        bar.set_label(VALUES.get(value, value))
    per = " of one attack action" if any(c.action for c in matrix.cells) else ""
    fig.suptitle(_plain(f"{matrix.game}: {VALUES.get(value, value)}{per}"))
    return fig


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float | Fraction) and not isinstance(v, bool)


def _x_axis(ax: Any, xs_all: Sequence[Any], numeric: bool, label: str) -> None:
    """Whole-number ticks for whole-number values, the values themselves for categories."""
    from matplotlib.ticker import MaxNLocator

    if numeric:
        if all(float(v).is_integer() for v in xs_all):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if len(xs_all) <= 15:
                ax.set_xticks([float(v) for v in xs_all], [f"{float(v):g}" for v in xs_all])
    else:
        ax.set_xticks(range(len(xs_all)), [_plain(v) for v in xs_all],
                      rotation=20 if sum(len(str(v)) for v in xs_all) > 40 else 0,
                      ha="right" if sum(len(str(v)) for v in xs_all) > 40 else "center")
        ax.set_xlim(-0.5, len(xs_all) - 0.5)
    ax.set_xlabel(_wrapped(label, 40), fontsize=9)


def _wrapped(text: str, width: int = 70) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(_plain(text), width)) or ""


def sweep_plot(points: Sequence[Mapping[str, Any]], *, x: str, y: str = "p",
               low: str = "low", high: str = "high", group: str | None = None,
               title: str = "", ylabel: str = "win rate", panel: str | None = None,
               xlabel: str | None = None, grouplabel: str | None = None,
               percent: bool = True, decimals: int = 1) -> Figure:
    """``y`` against ``x`` with its 95% interval (``low``..``high``), one series per value of
    ``group`` and one panel per value of ``panel`` (a side: every side drawn). Whole-number
    parameters get whole-number ticks; a parameter of words (a ruling's options) is a set of
    categories: points with error bars, no line between them. Probabilities (``percent``)
    read as percentages, as the tables show them."""
    from matplotlib.ticker import PercentFormatter

    panels: dict[Any, list[Mapping[str, Any]]] = {}
    for row in points:
        panels.setdefault(row.get(panel) if panel else None, []).append(row)
    xs_all = list(dict.fromkeys(row[x] for row in points))
    numeric = all(_is_number(v) for v in xs_all)
    if numeric:
        xs_all.sort(key=float)
    n = max(1, len(panels))
    fig, axes = _figure(min(PAGE_WIDTH, 1.6 + 2.3 * n) if n > 1 else 6.5, 4.0, ncols=n)
    scale = 100.0 if percent else 1.0

    def where(v: Any) -> float:
        return float(v) if numeric else float(xs_all.index(v))

    groups = list(dict.fromkeys(row.get(group) for row in points)) if group else [None]
    spread = 0.0 if numeric or len(groups) < 2 else min(0.3, 0.6 / len(groups))
    if numeric and len(groups) > 1 and len(xs_all) > 1:
        # Series side by side, a little apart, so that equal values never hide one another.
        span = float(xs_all[-1]) - float(xs_all[0])
        spread = min(0.02 * span, 0.25 * min(float(b) - float(a)
                                             for a, b in itertools.pairwise(xs_all)))
    markers = ("o", "s", "^", "D", "v", "P")
    for i, (name, rows_in) in enumerate(panels.items()):
        axes[0][i].set_prop_cycle(color=list(READINGS))
        ax = axes[0][i]
        for k, g in enumerate(groups):
            rows = sorted((r for r in rows_in if not group or r.get(group) == g),
                          key=lambda r: where(r[x]))
            if not rows:
                continue
            shift = (k - (len(groups) - 1) / 2) * spread
            xs = [where(r[x]) + shift for r in rows]
            ys = [float(r[y]) * scale for r in rows]
            label = None if group is None else _plain(g)
            banded = all(r.get(low) is not None and r.get(high) is not None for r in rows)
            if numeric:
                line = ax.plot(xs, ys, marker=markers[k % len(markers)], label=label)[0]
                if banded:
                    ax.fill_between(xs, [float(r[low]) * scale for r in rows],
                                    [float(r[high]) * scale for r in rows],
                                    color=line.get_color(), alpha=0.2, linewidth=0)
            else:
                err = None
                if banded:
                    err = [[max(0.0, yv - float(r[low]) * scale) for yv, r in zip(ys, rows,
                                                                                   strict=True)],
                           [max(0.0, float(r[high]) * scale - yv) for yv, r in zip(ys, rows,
                                                                                   strict=True)]]
                ax.errorbar(xs, ys, yerr=err, marker=markers[k % len(markers)],
                            linestyle="none", capsize=4, label=label)
                if len(xs) * len(groups) <= 12:
                    for xv, yv in zip(xs, ys, strict=True):
                        ax.annotate(f"{yv:.{decimals}f}%" if percent else f"{yv:.3f}",
                                    (xv, yv), xytext=(6, 2), textcoords="offset points",
                                    fontsize=7)
        _x_axis(ax, xs_all, numeric, xlabel or x)
        if percent:
            ax.set_ylim(-2, 102)
            ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
        else:
            top = max((float(r.get(high) or r[y]) for r in points), default=1.0)
            ax.set_ylim(0, (top or 1.0) * 1.12)
        ax.set_ylabel(_plain(ylabel if panel is None else f"{ylabel}: {name}"))
        if panel is not None:
            ax.set_title(_plain(str(name)), fontsize=10)
        ax.grid(alpha=0.3)
        if group is not None:  # the parameter once, as the legend's title; its values below
            ax.legend(fontsize=7, title=_wrapped(str(grouplabel or group), 40),
                      title_fontsize=7)
    banded = any(r.get(low) is not None for r in points)
    head = title or f"{ylabel} against {xlabel or x}" + (" (95% interval)" if banded
                                                          else " (exact)")
    fig.suptitle(_wrapped(head, 40 + 30 * n), fontsize=11)
    return fig


def paired_plot(points: Sequence[Mapping[str, Any]], *, xlabel: str = "", title: str = "",
                ylabel: str = "difference", percent: bool = True) -> Figure:
    """A comparison's paired differences: records with ``x`` (where along the sweep),
    ``variant`` (what is compared with the baseline), ``diff``, ``low`` and ``high`` (its 95%
    interval) and optionally ``side`` (one panel per side: each side's wins and the draws),
    drawn as grouped bars with error bars; the zero line is "no difference". ``percent``:
    the differences are of probabilities, shown in percentage points."""
    from matplotlib.ticker import FuncFormatter

    panels = list(dict.fromkeys(r.get("side") for r in points)) or [None]
    fig, axes = _figure(min(PAGE_WIDTH, 1.6 + 2.3 * len(panels)) if len(panels) > 1 else 6.5,
                        4.0, ncols=len(panels))
    xs = list(dict.fromkeys(r["x"] for r in points))
    variants = list(dict.fromkeys(r["variant"] for r in points))
    width = 0.8 / max(1, len(variants))
    scale = 100.0 if percent else 1.0
    colours = READINGS
    for n, side in enumerate(panels):
        ax = axes[0][n]
        mine = [r for r in points if r.get("side") == side]
        for k, variant in enumerate(variants):
            rows = [r for r in mine if r["variant"] == variant]
            if not rows:
                continue
            pos = [xs.index(r["x"]) - 0.4 + width * (k + 0.5) for r in rows]
            diffs = [float(r["diff"]) * scale for r in rows]
            errs = [[max(0.0, d - float(r["low"]) * scale) for d, r in zip(diffs, rows,
                                                                              strict=True)],
                    [max(0.0, float(r["high"]) * scale - d) for d, r in zip(diffs, rows,
                                                                              strict=True)]]
            ax.bar(pos, diffs, width=width * 0.9, alpha=0.85, label=_plain(variant),
                   color=colours[k % len(colours)])
            # A bar of no height still shows: a mark at its value (zero included).
            ax.scatter(pos, diffs, marker="_", s=(width * 220) ** 2 / 40,
                       color=colours[k % len(colours)], zorder=3)
            ax.errorbar(pos, diffs, yerr=errs, fmt="none", ecolor="black", capsize=3)
            if len(xs) * len(variants) <= 6:  # room for a number over every bar
                for x, d, r in zip(pos, diffs, rows, strict=True):
                    # Past the end of the bar's own error bar, clear of it.
                    top = float(r["high"]) * scale if d >= 0 else float(r["low"]) * scale
                    ax.annotate(f"{d:+.1f}", (x, top),
                                xytext=(0, 3 if d >= 0 else -3), textcoords="offset points",
                                ha="center", va="bottom" if d >= 0 else "top",
                                fontsize=6 if len(xs) * len(variants) > 3 else 7)
        ax.axhline(0, color="grey", linewidth=1)
        ax.set_xticks(range(len(xs)), [_plain(x) for x in xs])
        ax.set_xlim(-0.8, len(xs) - 0.2)  # a lone bar does not fill its panel
        if len(xs) == 1 and xs[0] == "all":
            ax.set_xticks([])
        ax.set_xlabel(_wrapped(xlabel, 32), fontsize=8)
        if percent:
            # As the tables write a change (+2 pts, +0.5 pts), never two ticks alike.
            ax.yaxis.set_major_formatter(FuncFormatter(
                lambda v, _: f"{round(v, 6):+g} pts" if round(v, 6) else "0"))
        low = min((float(r["low"]) * scale for r in points), default=0.0)
        high = max((float(r["high"]) * scale for r in points), default=0.0)
        pad = max(1.0, (high - low) * 0.15)
        ax.set_ylim(min(0.0, low) - pad, max(0.0, high) + pad)  # the panels share one scale
        if n == 0:
            ax.set_ylabel(_plain(ylabel))
        if side is not None:
            ax.set_title(_plain(f"{side} wins" if side != "draw" else "draws"), fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        if len(variants) > 1 or n == 0:
            ax.legend(fontsize=8, loc="best")
    head = title or "paired differences from the baseline (error bars: 95% interval)"
    fig.suptitle("\n".join(_wrapped(line, 40 + 30 * len(panels)) for line in head.split("\n")),
                 fontsize=11)
    return fig


def win_rate_plot(report: SimulationReport) -> Figure:
    """Each side's win rate (and the draws) as bars with their 95% Wilson intervals."""
    from tactica.analysis.simulate import wilson

    names = [*report.sides, "draw"]
    counts = [*(report.wins[s] for s in report.sides), report.draws]
    rates = [c / report.battles for c in counts]
    bounds = [wilson(c, report.battles) for c in counts]
    fig, axes = _figure(6.5, 1.2 + 0.5 * len(names))
    ax = axes[0][0]
    ys = list(range(len(names)))
    from tactica.presentation.render.svg import side_colours

    colours = side_colours(report.sides)  # each side's own colour, the draws grey
    ax.barh(ys, rates, color=[colours[s] for s in report.sides] + ["#999999"])
    ax.errorbar(rates, ys, xerr=[[max(0.0, r - lo) for r, (lo, _) in zip(rates, bounds,
                                                                            strict=True)],
                                 [max(0.0, hi - r) for r, (_, hi) in zip(rates, bounds,
                                                                         strict=True)]],
                fmt="none", ecolor="black", capsize=4)
    for y, r in zip(ys, rates, strict=True):
        ax.annotate(f"{r:.1%}", (r, y), xytext=(6, 6), textcoords="offset points", fontsize=8)
    ax.set_yticks(ys, [_plain(n) for n in names])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of battles (error bars: 95% interval)")
    ax.set_title(_plain(f"{report.scenario}: {report.battles} battles, seed {report.seed}"))
    ax.grid(axis="x", alpha=0.3)
    return fig


def versus_plot(report: VersusReport) -> Figure:
    """Each squad's win rate at each range with its 95% interval, one panel per run (each
    squad moving first, then both runs together), so that what moving first does shows; a
    line joins a squad's points where there are several ranges."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    from tactica.presentation.render.svg import side_colours

    points = report.plot_points()
    ranges = list(dict.fromkeys(r["range"] for r in points))
    runs = list(dict.fromkeys(r["first"] for r in points))
    numeric = all(isinstance(v, int) for v in ranges)
    fig, axes = _figure(min(PAGE_WIDTH, 2.2 + 2.0 * len(runs)) if len(ranges) > 1 else
                        min(PAGE_WIDTH, 1.6 + 1.6 * len(runs)), 3.8, ncols=len(runs))
    colours = side_colours(("red", "blue"))
    step = (min(b - a for a, b in zip(sorted(ranges), sorted(ranges)[1:], strict=False))
            if numeric and len(ranges) > 1 else 1)
    verb = "moves" if report.sets_first else "listed"
    for n, run in enumerate(runs):
        ax = axes[0][n]
        mine = [r for r in points if r["first"] == run]
        for k, side in enumerate(("red", "blue")):
            rows = [r for r in mine if r["side"] == side]
            shift = (k - 0.5) * 0.08 * step
            xs = [(float(r["range"]) if numeric else float(ranges.index(r["range"]))) + shift
                  for r in rows]
            ys = [r["p"] * 100 for r in rows]
            err = [[max(0.0, r["p"] - r["low"]) * 100 for r in rows],
                   [max(0.0, r["high"] - r["p"]) * 100 for r in rows]]
            ax.errorbar(xs, ys, yerr=err, color=colours[side], marker="o", markersize=4,
                        capsize=3, linewidth=1.2,
                        linestyle="-" if numeric and len(ranges) > 1 else "none",
                        label=_plain(report.name(side)) if n == 0 else None)
            if len(ranges) <= 3:
                for x, y, r in zip(xs, ys, rows, strict=True):
                    above = r["p"] >= 0.5
                    # Beside the point, past the end of its own error bar.
                    end = (r["high"] if above else r["low"]) * 100
                    ax.annotate(f"{y:.1f}%", (x, end), xytext=(0, 3 if above else -3),
                                textcoords="offset points", fontsize=7, color=colours[side],
                                ha="center", va="bottom" if above else "top")
        if numeric:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
            if len(ranges) <= 4:
                ax.set_xticks([float(r) for r in ranges], [str(r) for r in ranges])
            low, high = float(min(ranges)), float(max(ranges))
            pad = max(1.0, (high - low) * 0.08)
            ax.set_xlim(low - pad, high + pad)
        else:
            ax.set_xticks(range(len(ranges)),
                          ["-" if r is None else _plain(r) for r in ranges])
            ax.set_xlim(-0.8, len(ranges) - 0.2)
            if ranges == [None]:
                ax.set_xticks([])
        ax.set_xlabel("range" if ranges != [None] else "no range", fontsize=8)
        ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
        ax.set_ylim(-9, 109)
        ax.set_yticks(range(0, 101, 20))
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        head = ("both runs" if run == "both" else
                f"{_plain(report.name(run))} {verb} first")
        ax.set_title(head, fontsize=8)
        if n == 0:
            ax.set_ylabel("battles won (95% interval)", fontsize=8)
    fig.legend(loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    per = report.battles
    decided = [pt.range for pt in report.points if pt.first_mover()[2]]
    lines = [f"{report.game}: {report.name('red')} against {report.name('blue')}",
             f"{per:,} battles per run{' and range' if ranges != [None] else ''}; "
             f"seed {report.seed}"]
    if decided:
        lines.append("who moves first decides this fight" +
                     ("" if decided == [None] else " at range" + ("s " if len(decided) > 1
                                                                 else " ")
                      + ", ".join(str(d) for d in decided)))
    fig.suptitle("\n".join(_wrapped(line, 80) for line in lines), fontsize=9)
    return fig
