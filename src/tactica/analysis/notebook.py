"""Results as a notebook shows them: tables for a comparison of variants and for a scenario.

``ComparisonReport._repr_html_`` and ``Scenario._repr_html_`` come here; the HTML is built by
:meth:`tactica.presentation.tables.Table.to_html` (every cell escaped through
:mod:`tactica.presentation.render.markup`), and ``to_pandas()`` gives the same rows as a DataFrame.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tactica.presentation.tables import Column, NumberFormat, Table, data_frame

if TYPE_CHECKING:
    import pandas as pd

    from tactica.analysis.simulate import ComparisonReport
    from tactica.engine.scenario import Scenario

__all__ = ["NumberFormat", "comparison_frame", "comparison_tables", "scenario_frame",
           "scenario_table"]


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def scenario_table(scenario: Scenario) -> Table:
    """A row per unit (its id, side and every other field of its entry), the game, map,
    rounds and the rulings that differ from the defaults as notes."""
    units = scenario.data.get("units")
    entries: dict[str, Mapping[str, Any]] = {
        str(k): v for k, v in (units.items() if isinstance(units, Mapping) else ())
        if isinstance(v, Mapping)}
    fields = list(dict.fromkeys(k for e in entries.values() for k in e if k != "side"))
    cols = [Column("unit"), Column("side"), *(Column(f) for f in fields)]
    rows = [[uid, _text(e.get("side", "")), *("" if f not in e else _text(e[f])
                                              for f in fields)]
            for uid, e in entries.items()]
    meta = scenario.ruleset.meta
    notes = [f"game: {meta.title}"]
    if scenario.data.get("description"):
        notes.append(str(scenario.data["description"]))
    where = scenario.data.get("map")
    if isinstance(where, Mapping):
        notes.append(f"map: {where.get('name') or where.get('kind', '')} "
                     f"({where.get('kind', '')})")
    notes.append(f"at most {scenario.max_rounds} rounds")
    defaults = {r.id: r.default for r in meta.rulings}
    changed = {k: v for k, v in scenario.rulings.items() if defaults.get(k) != v}
    notes.append("rulings: " + (", ".join(f"{k}={v}" for k, v in changed.items())
                                or "all defaults"))
    return Table(scenario.name, cols, rows, notes)


def scenario_frame(scenario: Scenario) -> pd.DataFrame:
    """The units of a scenario as a DataFrame (one row per unit)."""
    return scenario_table(scenario).to_pandas()


def comparison_tables(report: ComparisonReport) -> list[Table]:
    """Each variant's win rates (and draws) with their 95% intervals, then the paired
    differences against the first variant with their 95% intervals."""
    title = (f"{report.scenario}: {report.battles:,} battles per variant, seed "
             f"{report.seed}")
    cols = [Column("variant")]
    for o in report.outcomes:
        name = "draws" if o == "draw" else f"{o} wins"
        cols += [Column(name, "p"), Column(f"{o} 95% low", "p"), Column(f"{o} 95% high", "p")]
    rates = Table(title, cols, [])
    for label, r in zip(report.labels, report.reports, strict=True):
        figures = r.figures()
        row: list[Any] = [label]
        for o in report.outcomes:
            rate = figures["draw_rate"] if o == "draw" else figures["win_rate"][o]
            row += [rate["p"], rate["ci95"][0], rate["ci95"][1]]
        rates.rows.append(row)
    diffs = Table(f"paired differences against {report.labels[0]}",
                  [Column("variant"), Column("outcome"), Column("difference", "pts"),
                   Column("95% low", "pts"), Column("95% high", "pts"), Column("clear")], [])
    for v in range(1, len(report.labels)):
        for o in report.outcomes:
            mean, (lo, hi), clear = report.difference(v, o)
            diffs.rows.append([report.labels[v], o, mean, lo, hi, clear])
    diffs.notes = ["clear: the 95% interval of the difference leaves out 0"]
    return [rates, diffs]


def comparison_frame(report: ComparisonReport) -> pd.DataFrame:
    """One row per variant and outcome (each side's win, the draw): its rate with the 95%
    interval, and its paired difference from the first variant with the 95% interval."""
    records: list[dict[str, Any]] = []
    for v, (label, r) in enumerate(zip(report.labels, report.reports, strict=True)):
        figures = r.figures()
        for o in report.outcomes:
            rate = figures["draw_rate"] if o == "draw" else figures["win_rate"][o]
            rec: dict[str, Any] = {"variant": label, "outcome": o, "rate": rate["p"],
                                   "low": rate["ci95"][0], "high": rate["ci95"][1],
                                   "difference": None, "difference_low": None,
                                   "difference_high": None, "clear": None}
            if v:
                mean, (lo, hi), clear = report.difference(v, o)
                rec.update(difference=mean, difference_low=lo, difference_high=hi,
                           clear=clear)
            records.append(rec)
    return data_frame(records)
