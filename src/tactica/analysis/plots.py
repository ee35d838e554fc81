"""Plots for designers: pure functions from data to a matplotlib figure, drawn without a display.

* :func:`dist_plot`: a distribution's bars with its "at least" curve (``tactica dice``, ``odds``);
* :func:`matrix_heatmap`: a matchup matrix as heat maps, one panel per target and cover;
* :func:`sweep_plot`: a number (a win rate) against a swept parameter with 95% interval bands,
  one line per value of a second parameter;
* :func:`paired_plot`: a comparison's paired differences (variant minus baseline at each point)
  with their 95% intervals.

matplotlib is an optional extra (``pip install 'tactica[plot]'``); the Agg backend is chosen
before pyplot is imported, so nothing ever opens a window. :func:`save_figure` writes PNG or
SVG; :func:`figure_bytes` gives the bytes (a report embeds them).
"""

from __future__ import annotations

import io
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
    from tactica.dice import Dist

__all__ = ["dist_plot", "dists_plot", "figure_bytes", "matrix_heatmap", "paired_plot",
           "save_figure", "sweep_plot", "win_rate_plot"]

_BAR = "#4c72b0"
_LINE = "#dd8452"


def _plain(text: object) -> str:
    """Text from data as matplotlib shows it literally: no control characters, and a ``$``
    escaped (two of them would start mathtext, which may fail on arbitrary text)."""
    return clean_text(str(text), newlines=False).replace("$", r"\$")


def _figure(width: float, height: float, ncols: int = 1, nrows: int = 1) -> tuple[Figure, Any]:
    try:
        import matplotlib
    except ImportError:
        raise TacticaError("plots need matplotlib: pip install 'tactica[plot]'") from None
    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def save_figure(fig: Figure, path: Path) -> None:
    """Write ``fig`` as PNG or SVG (by the suffix); a TacticaError for another suffix or a
    file that cannot be written."""
    kind = path.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise TacticaError(f"--plot: expected a .png or .svg file, got {path}")
    try:
        fig.savefig(path, format=kind, dpi=110)
    except OSError as exc:
        raise TacticaError(f"--plot: cannot write {path}: {exc.strerror or exc}") from None


def figure_bytes(fig: Figure, kind: str = "svg") -> bytes:
    """The figure as SVG or PNG bytes."""
    out = io.BytesIO()
    fig.savefig(out, format=kind, dpi=110)
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
    fig, axes = _figure(11.0, 4.4, ncols=2)
    left, right = axes[0][0], axes[0][1]
    values: set[float] = set()
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
    top = max(numbers, default=1.0) or 1.0
    if value != "expected_damage":
        top = 1.0
    width = min(18.0, 2.5 + 0.55 * len(ranges) * min(2, len(panels)))
    height = 1.2 + (0.45 * len(rows) + 0.9) * ((len(panels) + 1) // 2 if len(panels) > 1 else 1)
    ncols = 2 if len(panels) > 1 else 1
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = _figure(width, max(2.6, height), ncols, nrows)
    image = None
    for i, (target, cover) in enumerate(panels):
        ax = axes[i // ncols][i % ncols]
        grid = [[found.get((target, cover, a, m, r)) for r in ranges] for a, m in rows]
        shown = [[float("nan") if v is None else float(v) for v in row] for row in grid]
        image = ax.imshow(shown, cmap="viridis", vmin=0, vmax=top, aspect="auto")
        ax.set_yticks(range(len(rows)), [_plain(f"{a}: {m}") for a, m in rows], fontsize=8)
        ax.set_xticks(range(len(ranges)), ["-" if r is None else _plain(r) for r in ranges],
                      fontsize=8)
        ax.set_xlabel("range")
        where = ("" if cover is None else ", in the open" if cover == 0
                 else ", in cover" if cover == 1 else f", cover {cover}")
        ax.set_title(_plain(f"against {target}{where}"), fontsize=10)
        for y, row in enumerate(grid):
            for x, v in enumerate(row):
                if v is None:
                    continue
                f = float(v)
                text = f"{f:.2f}" if value == "expected_damage" else f"{f:.0%}"
                ax.text(x, y, text, ha="center", va="center", fontsize=7,
                        color="black" if f > top * 0.6 else "white")
    for j in range(len(panels), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    if image is not None:
        bar = fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.8)
        bar.set_label(VALUES.get(value, value))
    fig.suptitle(_plain(f"{matrix.game}: {VALUES.get(value, value)}"))
    return fig


def sweep_plot(points: Sequence[Mapping[str, Any]], *, x: str, y: str = "p",
               low: str = "low", high: str = "high", group: str | None = None,
               title: str = "", ylabel: str = "win rate") -> Figure:
    """``y`` against ``x`` with the band ``low``..``high`` (the 95% interval) shaded, one line
    per value of ``group``. Points are records (a sweep's rows)."""
    fig, axes = _figure(7.5, 4.5)
    ax = axes[0][0]
    series: dict[Any, list[Mapping[str, Any]]] = {}
    for row in points:
        series.setdefault(row.get(group) if group else None, []).append(row)
    xs_all = list(dict.fromkeys(row[x] for row in points))
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in xs_all)

    def where(v: Any) -> float:
        return float(v) if numeric else float(xs_all.index(v))

    for name, rows in series.items():
        rows = sorted(rows, key=lambda r: where(r[x]))
        xs = [where(r[x]) for r in rows]
        label = None if group is None else _plain(f"{group} = {name}")
        line = ax.plot(xs, [r[y] for r in rows], marker="o", label=label)[0]
        if rows[0].get(low) is not None and rows[0].get(high) is not None:
            ax.fill_between(xs, [r[low] for r in rows], [r[high] for r in rows],
                            color=line.get_color(), alpha=0.2, linewidth=0)
    if not numeric:
        ax.set_xticks(range(len(xs_all)), [_plain(v) for v in xs_all], rotation=20, ha="right")
    ax.set_xlabel(_plain(x))
    ax.set_ylabel(_plain(ylabel))
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    if group is not None:
        ax.legend(fontsize=8)
    banded = any(low in r and r[low] is not None for r in points)
    ax.set_title(_plain(title or f"{ylabel} against {x}" + (" (shaded: 95% interval)"
                                                            if banded else " (exact)")))
    return fig


def paired_plot(points: Sequence[Mapping[str, Any]], *, xlabel: str = "", title: str = "",
                ylabel: str = "difference") -> Figure:
    """A comparison's paired differences: records with ``x`` (where along the sweep),
    ``variant`` (what is compared with the baseline), ``diff``, ``low`` and ``high`` (its 95%
    interval), drawn as grouped bars with error bars; the zero line is "no difference"."""
    fig, axes = _figure(7.5, 4.4)
    ax = axes[0][0]
    xs = list(dict.fromkeys(r["x"] for r in points))
    variants = list(dict.fromkeys(r["variant"] for r in points))
    width = 0.8 / max(1, len(variants))
    for k, variant in enumerate(variants):
        rows = [r for r in points if r["variant"] == variant]
        pos = [xs.index(r["x"]) - 0.4 + width * (k + 0.5) for r in rows]
        diffs = [float(r["diff"]) for r in rows]
        errs = [[max(0.0, d - float(r["low"])) for d, r in zip(diffs, rows, strict=True)],
                [max(0.0, float(r["high"]) - d) for d, r in zip(diffs, rows, strict=True)]]
        ax.bar(pos, diffs, width=width * 0.9, alpha=0.85, label=_plain(variant))
        ax.errorbar(pos, diffs, yerr=errs, fmt="none", ecolor="black", capsize=3)
    ax.axhline(0, color="grey", linewidth=1)
    ax.set_xticks(range(len(xs)), [_plain(x) for x in xs])
    ax.set_xlabel(_plain(xlabel))
    ax.set_ylabel(_plain(ylabel))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(_plain(title)
                 or "paired differences from the baseline (error bars: 95% interval)",
                 fontsize=10)
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
    ax.barh(ys, rates, color=[_BAR] * len(report.sides) + ["#999999"])
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
