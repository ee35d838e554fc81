"""The picture of ``tactica effects``: each alternative reading's paired difference of every
side's win rate against the baseline, with its 95% interval, largest effects at the top."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tactica.analysis.plots import _figure, _plain
from tactica.presentation.render.svg import side_colours

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tactica.analysis.effects import EffectsReport

__all__ = ["effects_plot"]


def effects_plot(report: EffectsReport, *, top: int = 20) -> Figure:
    """Horizontal bars, one group per alternative (the ``top`` first of the ranking), one bar
    per side: the change of its win rate in percentage points, error bars its 95% interval."""
    shown = list(report.effects[:top])
    sides = report.sides
    fig, axes = _figure(9.0, 1.8 + 0.3 * max(1, len(shown)) * max(1, len(sides)) ** 0.5)
    ax = axes[0][0]
    height = 0.8 / max(1, len(sides))
    colours = side_colours(sides)  # the colour every map and page gives each side
    for k, side in enumerate(sides):
        ys, xs, lo, hi = [], [], [], []
        for i, e in enumerate(shown):
            d = e.differences[side]
            ys.append(i - 0.4 + height * (k + 0.5))
            xs.append(d.difference * 100)
            lo.append(max(0.0, (d.difference - d.low) * 100) if math.isfinite(d.low) else 0.0)
            hi.append(max(0.0, (d.high - d.difference) * 100) if math.isfinite(d.high)
                      else 0.0)
        ax.barh(ys, xs, height=height * 0.9, alpha=0.85, color=colours[side],
                label=f"{_plain(side)} wins")
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="none", ecolor="black", capsize=2)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(shown)),
                  [_plain(f"{e.label} (not {e.baseline})") for e in shown], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("change of the win rate against the scenario's own rulings "
                  "(percentage points)")
    ax.grid(axis="x", alpha=0.3)
    if shown:
        ax.legend(fontsize=8)
    never = len(report.never)
    detail = (f"{report.battles:,} paired battles"
              + (f"; {never} rulings never consulted" if never else ""))
    ax.set_title(_plain(report.scenario) + "\n" + _plain(detail), fontsize=10)
    return fig
