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

from tactica.errors import TacticaError
from tactica.simulate import wilson
from tactica.tables import Column, Table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tactica.sweep import SweepSpec

__all__ = ["ODDS_VALUES", "newcombe", "paired_differences", "parameter_label", "plot_paired",
           "plot_sweep", "sweep_tables"]


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


#: The numbers of an odds sweep a plot can show (``--value``), with their headings.
ODDS_VALUES = {"p_out_of_action": "P(out of action)", "expected_damage": "expected damage",
               "p_hit": "P(hit)"}


def parameter_label(spec: SweepSpec, column: str) -> str:
    """A parameter as people read it: a ruling's id and question (``ABC-6: Cover: on the die
    or on the characteristic?``), other paths as written (``units.B.defense``)."""
    for p in spec.parameters:
        if p.column != column:
            continue
        head, _, rest = p.path.partition(".")
        ruleset = spec.scenario.ruleset if spec.scenario is not None else spec.game
        if head == "rulings" and ruleset is not None:
            for ruling in ruleset.meta.rulings:
                if ruling.id == rest:
                    return f"{ruling.id}: {ruling.question}"
        return p.path
    return column


def plot_sweep(rows: Sequence[Mapping[str, Any]], spec: SweepSpec, *,
               value: str | None = None, decimals: int = 1) -> Figure:
    """Every side's win rate (or an exact number of the odds: ``value``, P(out of action) by
    default) against the first parameter, one series per value of the second, one panel per
    side, 95% intervals shown; parameters labelled as people read them."""
    from tactica.render.plots import sweep_plot

    params = [p.column for p in spec.parameters]
    numeric = [p.column for p in spec.parameters
               if all(isinstance(v, int | float) and not isinstance(v, bool) for v in p.values)]
    if numeric and numeric[0] != params[0]:
        params.reverse()  # a number reads best along the x axis
    group = params[1] if len(params) > 1 else None
    xlabel = parameter_label(spec, params[0])
    grouplabel = parameter_label(spec, group) if group else None
    sims = [dict(r) for r in rows if r.get("kind") == "simulation" and r.get("side") != "draw"]
    if sims and value in (None, "win_rate"):
        return sweep_plot(sims, x=params[0], group=group, panel="side", ylabel="win rate",
                          decimals=decimals, xlabel=xlabel, grouplabel=grouplabel)
    chosen = value or "p_out_of_action"
    if chosen not in ODDS_VALUES:
        raise TacticaError(f"--value: expected one of {', '.join(ODDS_VALUES)} (odds) or "
                           f"win_rate (simulations), got {chosen!r}")
    odds = [dict(r, p=r.get(chosen)) for r in rows if r.get("kind") == "odds"
            and r.get(chosen) is not None]
    if not odds:
        raise TacticaError(f"nothing to plot: no point has {ODDS_VALUES[chosen]}"
                           + ("" if sims else " (the sweep has no odds and no simulations)"))
    return sweep_plot(odds, x=params[0], group=group, ylabel=ODDS_VALUES[chosen],
                      percent=chosen.startswith("p_"), decimals=decimals, xlabel=xlabel,
                      grouplabel=grouplabel)


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
    from tactica.render.plots import paired_plot

    params = [p.column for p in spec.parameters]
    _, label = _series(rows, params)
    return paired_plot(paired_differences(rows, params),
                       xlabel=params[1] if len(params) > 1 else "",
                       ylabel=f"{label}: difference", title=f"{params[0]}: each value "
                       "against the first (error bars: 95% interval)")
