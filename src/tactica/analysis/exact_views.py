"""Tables and a plot of exact fights (:mod:`tactica.analysis.exact`): what ``tactica exact``
prints, writes as CSV or Markdown and draws."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from tactica.analysis.exact import ExactComparison, FightOdds
from tactica.presentation.tables import Column, Table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["comparison_tables", "fight_plot", "fight_tables", "without_fractions"]


#: The longest fraction a table shows in full (longer ones are in the JSON).
FRACTION_WIDTH = 32


def _frac(p: Fraction) -> str:
    text = f"{p.numerator}/{p.denominator}"
    if len(text) <= FRACTION_WIDTH:
        return text
    return f"({len(str(p.denominator))}-digit denominator: --json)"


def fight_tables(odds: FightOdds) -> list[Table]:
    """How the fight ends (each result's chance, exact and as a percentage), the rounds
    played, and the units left standing on each side."""
    results = odds.results()
    policies = ", ".join(f"{s}: {odds.policies[s]}" for s in odds.sides)
    ends = Table(f"{odds.scenario}: exact odds of the whole fight ({policies}; "
                 f"{odds.states:,} states)",
                 [Column("result"), Column("chance", "p"), Column("exact", right=True)], [])
    for side in odds.sides:
        ends.rows.append([f"{side} wins", results[side], _frac(results[side])])
    ends.rows.append(["draw", results["draw"], _frac(results["draw"])])
    ends.rows.append(["unfinished (round limit)", results["unfinished"],
                      _frac(results["unfinished"])])
    rounds = Table("rounds played", [Column("rounds", "int"), Column("chance", "p"),
                                     Column("exact", right=True)],
                   [[k, p, _frac(p)] for k, p in odds.rounds().items()])
    standing = Table("units left standing",
                     [Column("side"), Column("units", "int"), Column("chance", "p"),
                      Column("exact", right=True)],
                     [[side, k, p, _frac(p)] for side in odds.sides
                      for k, p in odds.standing(side).items()])
    return [ends, rounds, standing]


def comparison_tables(report: ExactComparison) -> list[Table]:
    """Each variant's exact odds side by side, then each later variant's exact difference."""
    results = (*report.sides, "draw", "unfinished")

    def name(r: str) -> str:
        return f"{r} wins" if r in report.sides else ("unfinished (round limit)"
                                                       if r == "unfinished" else r)

    odds = Table(f"{report.scenario}: exact odds under each variant",
                 [Column("result"), *(Column(label, "p") for label in report.labels)],
                 [[name(r), *(o.p(r) for o in report.odds)] for r in results])
    out = [odds]
    for i in range(1, len(report.odds)):
        diff = Table(f"{report.labels[i]} minus {report.labels[0]}: exact difference",
                     [Column("result"), Column("difference", "pts"),
                      Column("exact", right=True)], [])
        for r in results:
            d = report.difference(i, r)
            text = _frac(d)
            diff.rows.append([name(r), d, ("+" if d >= 0 and text[0].isdigit() else "")
                              + text])
        out.append(diff)
    return out


def without_fractions(tables: list[Table]) -> list[Table]:
    """The tables without their ``exact`` column (when every number is printed as a fraction
    already: ``--exact``)."""
    out = []
    for t in tables:
        keep = [i for i, c in enumerate(t.columns) if c.name != "exact"]
        out.append(Table(t.title, [t.columns[i] for i in keep],
                         [[row[i] for i in keep] for row in t.rows], list(t.notes)))
    return out


def fight_plot(odds: FightOdds) -> Figure:
    """Two panels: the chance of each result, and the distribution of rounds played."""
    from tactica.analysis.plots import _figure, _plain
    from tactica.presentation.render.svg import side_colours

    fig, axes = _figure(9.0, 3.6, ncols=2)
    left, right = axes[0][0], axes[0][1]
    results = odds.results()
    colours = side_colours(odds.sides)
    labels = [*(f"{s} wins" for s in odds.sides), "draw", "unfinished"]
    values = [float(results[r]) for r in (*odds.sides, "draw", "unfinished")]
    colour = [colours.get(s, "#777777") for s in odds.sides] + ["#999999", "#cccccc"]
    bars = left.barh([_plain(x) for x in labels], values, color=colour)
    for bar, v in zip(bars, values, strict=True):
        left.text(min(v, 0.98), bar.get_y() + bar.get_height() / 2, f" {v:.1%}",
                  va="center", ha="left" if v < 0.8 else "right")
    left.set_xlim(0, 1)
    left.invert_yaxis()
    left.set_title(_plain(f"{odds.scenario}: exact result"))
    rounds = odds.rounds()
    right.bar([str(k) for k in rounds.outcomes], [float(p) for _, p in rounds.items()],
              color="#4a78a8")
    right.set_xlabel("rounds played")
    right.set_ylabel("chance")
    right.set_title("rounds (exact)")
    return fig
