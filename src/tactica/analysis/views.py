"""The engine's results as tables: distributions, odds reports, simulation reports, games.

The command line prints these tables (and writes them as CSV and Markdown); notebooks show
them through ``_repr_html_``; ``to_pandas()`` of each result is built from the same rows.

>>> from tactica.dice import evaluate
>>> print(dist_table(evaluate("1d4"), "1d4").to_markdown(NumberFormat(exact=True)))
| value | probability | at least |
| ---: | ---: | ---: |
| 1 | 1/4 | 1 |
| 2 | 1/4 | 3/4 |
| 3 | 1/4 | 1/2 |
| 4 | 1/4 | 1/4 |
<BLANKLINE>
* mean 2.5000, sd 1.1180
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tactica.presentation.tables import Column, NumberFormat, Table, data_frame

if TYPE_CHECKING:
    import pandas as pd

    from tactica.analysis.simulate import SimulationReport
    from tactica.dice import Dist
    from tactica.engine.odds import OddsReport

__all__ = ["NumberFormat", "dist_frame", "dist_table", "dists_table", "html_of", "odds_frame",
           "odds_tables", "simulation_frame", "simulation_tables"]


def dist_table(dist: Dist[Any], title: str = "", *, at_least: bool = True,
               at_most: bool = False, comparison: bool = False) -> Table:
    """A row per outcome: its probability and, where outcomes are ordered, P(at least it)."""
    ordered = dist.is_ordered
    ge = dict(dist.at_least_table()) if at_least and ordered else {}
    le = dict(dist.at_most_table()) if at_most and ordered else {}
    cols = [Column("value", "int" if dist.is_integer() else "text"), Column("probability", "p")]
    if ge:
        cols.append(Column("at least", "p"))
    if le:
        cols.append(Column("at most", "p"))
    rows = []
    for value, p in dist.items():
        shown: Any = f"{value} ({'true' if value else 'false'})" if comparison else value
        row = [shown, p]
        if ge:
            row.append(ge[value])
        if le:
            row.append(le[value])
        rows.append(row)
    notes = ["1 = the comparison holds, 0 = it does not"] if comparison else []
    if dist.is_integer():
        notes.append(f"mean {float(dist.mean()):.4f}, sd {dist.sd():.4f}")
    return Table(title, cols, rows, notes)


def dists_table(named: Sequence[tuple[str, Dist[Any]]], title: str = "", *,
                at_least: bool = False, at_most: bool = False) -> Table:
    """Several distributions side by side: a row per value, a probability column per
    distribution (blank where it cannot show the value), and its cumulative columns."""
    values = sorted(set().union(*(d.outcomes for _, d in named)))
    cols = [Column("value", "int")]
    for name, _ in named:
        cols.append(Column(name, "p"))
        if at_least:
            cols.append(Column(f"{name} at least", "p"))
        if at_most:
            cols.append(Column(f"{name} at most", "p"))
    rows: list[list[Any]] = [[v] for v in values]
    for _, dist in named:
        probs = dict(dist.items())
        below = Fraction(0)  # P(value < v), v running upward
        for row, v in zip(rows, values, strict=True):
            p = probs.get(v)
            row.append(p)
            if at_least:
                row.append(1 - below)
            below += p or 0
            if at_most:
                row.append(below)
    notes = [f"{name}: mean {float(d.mean()):.4f}, sd {d.sd():.4f}" for name, d in named]
    return Table(title, cols, rows, notes)


def dist_frame(dist: Dist[Any]) -> pd.DataFrame:
    """A DataFrame: ``value``, ``p`` (float) and ``p_exact`` (the exact
    :class:`~fractions.Fraction`, kept as it is in an object column)."""
    return data_frame([{"value": v, "p": float(p), "p_exact": Fraction(p)}
                       for v, p in dist.items()])


def odds_tables(report: OddsReport) -> list[Table]:
    """The headline numbers of an odds report, then each of its distributions."""
    numbers = Table(report.action, [Column("number"), Column("probability", "p"),
                                    Column("expectation", "num")],
                    [[name.replace("_", " "), value if name.startswith("p_") else None,
                      None if name.startswith("p_") else value]
                     for name, value in report.numbers.items()],
                    list(report.reasons))
    out = [numbers]
    for name, dist in report.distributions.items():
        out.append(dist_table(dist, name.replace("_", " ")))
    return out


def odds_frame(report: OddsReport) -> pd.DataFrame:
    """Every distribution of a report, long form: ``distribution``, ``value``, ``p``,
    ``p_exact`` (a :class:`~fractions.Fraction`; the headline numbers are in
    ``report.numbers``)."""
    return data_frame([{"distribution": name, "value": v, "p": float(p), "p_exact": Fraction(p)}
                       for name, dist in report.distributions.items()
                       for v, p in dist.items()])


def attack_table(title: str, rows: Sequence[Mapping[str, Any]]) -> Table:
    """The rows of ``odds --table``: every attack of every unit."""
    cols = [Column("attacker"), Column("weapon"), Column("target"), Column("cover"),
            Column("P(hit)", "p"), Column("E(dmg)", "num"), Column("P(out)", "p")]
    body = [[r["attacker"], r["weapon"], r["target"], r.get("cover"), r.get("p_hit"),
             r["expected_damage"], r["p_out_of_action"]] for r in rows]
    return Table(title, cols, body,
                 ["E(dmg): expected damage; P(out): P(out of action)"] if rows else [])


def simulation_tables(report: SimulationReport) -> list[Table]:
    """The sides' win rates with their 95% intervals, then each unit's figures."""
    data = report.to_dict()
    sides = Table(f"{report.scenario}: {report.battles} battles, seed {report.seed}",
                  [Column("side"), Column("policy"), Column("wins", "int"),
                   Column("win rate", "p"), Column("95% low", "p"), Column("95% high", "p")],
                  [])
    for side in report.sides:
        w = data["win_rate"][side]
        sides.rows.append([side, report.policies[side], report.wins[side], w["p"],
                           w["ci95"][0], w["ci95"][1]])
    d = data["draw_rate"]
    sides.rows.append(["draw", "", report.draws, d["p"], d["ci95"][0], d["ci95"][1]])
    r = data["rounds"]
    defaults = {x.id: x.default for x in report.declared_rulings}
    changed = {k: v for k, v in report.rulings.items() if defaults.get(k) != v}
    sides.notes = [f"rounds: mean {r['mean']:.2f}, sd {r['sd']:.2f}, min {r['min']}, "
                   f"max {r['max']}",
                   "rulings: " + (", ".join(f"{k}={v}" for k, v in changed.items())
                                  or "all defaults")]
    units = Table("units", [Column("unit"), Column("side"), Column("survival", "p"),
                            Column("95% low", "p"), Column("95% high", "p"),
                            Column("damage dealt", "num"), Column("damage taken", "num")],
                  [[uid, u["side"], u["survival"], u["survival_ci95"][0], u["survival_ci95"][1],
                    u["damage_dealt_mean"], u["damage_taken_mean"]]
                   for uid, u in data["units"].items()])
    return [sides, units]


def simulation_frame(report: SimulationReport) -> pd.DataFrame:
    """A DataFrame of the sides (and draws): wins, win rate and its 95% interval."""
    return simulation_tables(report)[0].to_pandas()


def html_of(tables: Sequence[Table], fmt: NumberFormat | None = None) -> str:
    """Tables as one HTML fragment (a notebook's display)."""
    fmt = fmt or NumberFormat()
    return "".join(t.to_html(fmt) for t in tables)
