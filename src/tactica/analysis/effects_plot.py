"""The picture of ``tactica effects``: each alternative reading's paired difference of every
side's win rate against the baseline, with its 95% interval, largest effects at the top.

Each group of bars is labelled the way people ask it: the ruling's question (shortened) and
the reading tried against the scenario's own (``lowest, not highest``), the ruling's id last;
each bar carries its change in percentage points as the table prints it (``+12.2``), and a
side whose win rate did not move is drawn too, as a mark at zero.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from tactica.analysis.plots import PAGE_HEIGHT, PAGE_WIDTH, _figure, _plain, _wrapped
from tactica.presentation.render.svg import side_colours

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tactica.analysis.effects import Effect, EffectsReport

__all__ = ["effect_label", "effects_plot", "short_question"]

#: The longest question on a bar's label, in characters (longer ones are cut at a word).
QUESTION_WIDTH = 52


def short_question(question: str, width: int = QUESTION_WIDTH) -> str:
    """A ruling's question short enough for a label: asides in brackets left out, and what
    follows a colon where it is still too long, then cut at a word with an ellipsis.

    >>> short_question("Initiative order (the source states it three ways)")
    'Initiative order'
    >>> short_question("A hit of at least twice the DT (15 against a d6): the seed's sequence"
    ...                " or the damage chapter's")
    'A hit of at least twice the DT'
    >>> short_question("The d10 after a successful initiative: which checks?")
    'The d10 after a successful initiative: which checks?'
    """
    text = re.sub(r"\s*\([^()]*\)", "", question).strip() or question.strip()
    head, colon, _ = text.partition(": ")
    if len(text) > width and colon and len(head) >= 12:
        text = head.strip()
    if len(text) <= width:
        return text
    cut = text[:width - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def effect_label(effect: Effect) -> str:
    """Two lines: the short question, then the reading tried against the baseline's and the
    ruling's id (``lowest, not highest  ·  X-4``)."""
    return (f"{_plain(short_question(effect.question))}\n"
            f"{_plain(effect.option)}, not {_plain(effect.baseline)}  ·  {_plain(effect.ruling)}")


def effects_plot(report: EffectsReport, *, top: int = 12) -> Figure:
    """Horizontal bars, one group per alternative (the ``top`` first of the ranking), one bar
    per side: the change of its win rate in percentage points, error bars its 95% interval."""
    from matplotlib.ticker import FuncFormatter

    shown = list(report.effects[:top])
    sides = report.sides
    per_group = 0.16 * max(1, len(sides)) + 0.15
    fig, axes = _figure(PAGE_WIDTH, min(PAGE_HEIGHT, 2.6 + per_group * max(1, len(shown))))
    ax = axes[0][0]
    height = 0.8 / max(1, len(sides))
    colours = side_colours(sides)  # the colour every map and page gives each side
    reach = 1.0
    for i in range(0, len(shown), 2):  # a light band behind every other group
        ax.axhspan(i - 0.5, i + 0.5, color="#f2f2f2", zorder=0, linewidth=0)
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
                label=f"{_plain(side)} wins", zorder=2)
        # A side that did not move still shows: a mark at its value (zero included).
        ax.scatter(xs, ys, marker="|", s=60, color=colours[side], zorder=3)
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="none", ecolor="black", capsize=2,
                    linewidth=0.9, zorder=4)
        for e, x, y, down, up in zip(shown, xs, ys, lo, hi, strict=True):
            right = x >= 0
            end = x + up if right else x - down
            reach = max(reach, abs(end))
            mark = "*" if e.holds(side) else ""  # holds after the correction
            ax.annotate(f"{x:+.1f}{mark}", (end, y), xytext=(4 if right else -4, 0),
                        textcoords="offset points", va="center",
                        ha="left" if right else "right", fontsize=7, zorder=5)
    ax.axvline(0, color="grey", linewidth=1, zorder=1)
    ax.set_yticks(range(len(shown)), [effect_label(e) for e in shown], fontsize=7)
    ax.set_ylim(len(shown) - 0.5, -0.5)  # the largest effect on top
    ax.set_xlim(-reach * 1.18, reach * 1.18)  # room for the numbers at the bars' ends
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:+.0f}" if v else "0"))
    ax.set_xlabel("change of each side's win rate (percentage points)\n"
                  "error bars: 95% paired interval", fontsize=8)
    ax.grid(axis="x", alpha=0.3, zorder=0)
    if shown:
        fig.legend(loc="outside lower center", ncols=max(1, len(sides)), fontsize=8,
                   frameon=False)
    ranked = len(report.effects)
    detail = (f"{report.battles:,} paired battles (seed {report.seed}), one ruling read "
              f"another way at a time"
              + (f"; the {len(shown)} largest of {ranked} readings" if ranked > len(shown)
                 else "")
              + f"; * holds after {report.correction}'s correction for "
              f"{report.comparisons} comparisons")
    never = ("never consulted (their readings play the same battles): "
             + ", ".join(r.id for r in report.never)) if report.never else ""
    fig.suptitle(_wrapped(report.scenario, 80) + "\n" + _wrapped(detail, 95)
                 + ("\n" + _wrapped(never, 95) if never else ""), fontsize=9)
    return fig
