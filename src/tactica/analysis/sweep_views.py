"""What people see of a sweep: its tables, its plot with interval bands, and each point's
difference from the first (a paired comparison: every point plays the same seeded battles).

>>> rows = [{"x": 1, "kind": "simulation", "side": "red", "wins": 60, "battles": 100,
...          "p": 0.6, "low": 0.5, "high": 0.7},
...         {"x": 2, "kind": "simulation", "side": "red", "wins": 70, "battles": 100,
...          "p": 0.7, "low": 0.6, "high": 0.8}]
>>> [(d["variant"], round(d["diff"], 2)) for d in paired_differences(rows, ["x"])]
[('2 - 1', 0.1)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tactica.analysis.simulate import wilson
from tactica.engine.errors import TacticaError
from tactica.presentation.tables import Column, Table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tactica.analysis.sweep import SweepSpec

__all__ = ["newcombe", "paired_differences", "plot_paired", "plot_sweep", "sweep_tables"]


def newcombe(wins_a: int, n_a: int, wins_b: int, n_b: int) -> tuple[float, float, float]:
    """``p_a - p_b`` with Newcombe's hybrid Wilson 95% interval (treating the two as
    independent, which is cautious when they share seeds)."""
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pa - pb
    return d, d - math.hypot(pa - la, ub - pb), d + math.hypot(ua - pa, pb - lb)


def sweep_tables(rows: Sequence[Mapping[str, Any]], spec: SweepSpec) -> list[Table]:
    """A table of the odds at each point, and one of the win rates at each point."""
    params = [p.column for p in spec.parameters]
    out: list[Table] = []
    odds = [r for r in rows if r.get("kind") == "odds"]
    if odds:
        cols = [*(Column(p) for p in params), Column("attacker"), Column("target"),
                Column("weapon"), Column("P(hit)", "p"), Column("expected damage", "num"),
                Column("P(out of action)", "p"), Column("note")]
        body = [[*(r.get(p) for p in params), r.get("attacker"), r.get("target"),
                 r.get("means"), r.get("p_hit"), r.get("expected_damage"),
                 r.get("p_out_of_action"), r.get("note") or ""] for r in odds]
        out.append(Table("odds at each point", cols, body))
    sims = [r for r in rows if r.get("kind") == "simulation"]
    if sims:
        cols = [*(Column(p) for p in params), Column("side"), Column("wins", "int"),
                Column("battles", "int"), Column("win rate", "p"), Column("95% low", "p"),
                Column("95% high", "p"), Column("rounds", "num")]
        body = [[*(r.get(p) for p in params), r["side"], r["wins"], r["battles"], r["p"],
                 r["low"], r["high"], r["rounds_mean"]] for r in sims]
        out.append(Table("win rates at each point", cols, body,
                         [f"every point plays the same {sims[0]['battles']} battles, "
                          f"seed {sims[0]['seed']}"]))
    return out


def _first_side(rows: Sequence[Mapping[str, Any]]) -> str:
    for r in rows:
        if r.get("kind") == "simulation" and r.get("side") != "draw":
            return str(r["side"])
    raise TacticaError("no simulation rows to plot")


def _series(rows: Sequence[Mapping[str, Any]],
            params: Sequence[str]) -> tuple[list[dict[str, Any]], str]:
    sims = [r for r in rows if r.get("kind") == "simulation"]
    if sims:
        side = _first_side(sims)
        return [dict(r) for r in sims if r["side"] == side], f"win rate of {side}"
    odds = [dict(r, p=r.get("p_out_of_action")) for r in rows if r.get("kind") == "odds"
            and r.get("p_out_of_action") is not None]
    if not odds:
        raise TacticaError("nothing to plot: no point has odds or simulations")
    return odds, "P(out of action)"


def plot_sweep(rows: Sequence[Mapping[str, Any]], spec: SweepSpec) -> Figure:
    """The win rate of the first side (or the exact P(out of action)) against the first
    parameter, one line per value of the second, 95% interval bands shaded."""
    from tactica.analysis.plots import sweep_plot

    params = [p.column for p in spec.parameters]
    numeric = [p.column for p in spec.parameters
               if all(isinstance(v, int | float) and not isinstance(v, bool) for v in p.values)]
    if numeric and numeric[0] != params[0]:
        params.reverse()  # a number reads best along the x axis
    points, label = _series(rows, params)
    return sweep_plot(points, x=params[0], group=params[1] if len(params) > 1 else None,
                      ylabel=label)


def paired_differences(rows: Sequence[Mapping[str, Any]],
                       params: Sequence[str]) -> list[dict[str, Any]]:
    """Each value of the first parameter against its first value (the baseline), at each value
    of the second: win rates with Newcombe intervals, exact odds with none."""
    points, _ = _series(rows, params)
    first, rest = params[0], params[1:]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in points:
        groups.setdefault(tuple(r.get(p) for p in rest), []).append(r)
    out = []
    for key, group in groups.items():
        base = group[0]
        for r in group[1:]:
            if "wins" in r and r.get("wins") is not None:
                d, lo, hi = newcombe(r["wins"], r["battles"], base["wins"], base["battles"])
            else:
                d = lo = hi = float(r["p"]) - float(base["p"])
            where = ", ".join(f"{v}" for v in key) if rest else "all"
            out.append({"x": where, "variant": f"{r[first]} - {base[first]}", "diff": d,
                        "low": lo, "high": hi})
    return out


def plot_paired(rows: Sequence[Mapping[str, Any]], spec: SweepSpec) -> Figure:
    """Each value of the first parameter against its first value, at each point of the
    second: the paired differences (the same seeded battles at every point)."""
    from tactica.analysis.plots import paired_plot

    params = [p.column for p in spec.parameters]
    _, label = _series(rows, params)
    return paired_plot(paired_differences(rows, params),
                       xlabel=params[1] if len(params) > 1 else "",
                       ylabel=f"{label}: difference", title=f"{params[0]}: each value "
                       "against the first (error bars: 95% interval)")
