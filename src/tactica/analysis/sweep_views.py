"""What people see of a sweep: its tables, its plot with interval bands, and each point's
difference from the first value of the first parameter: a paired comparison (every point plays
the same seeded battles), with the one paired statistic of :mod:`tactica.analysis.paired` that
``simulate --compare`` shows too, stored in the rows by :func:`tactica.analysis.sweep.run_sweep`.

>>> rows = [{"x": 1, "kind": "simulation", "side": "red", "wins": 60, "battles": 100,
...          "p": 0.6, "low": 0.5, "high": 0.7, "paired_diff": None},
...         {"x": 2, "kind": "simulation", "side": "red", "wins": 70, "battles": 100,
...          "p": 0.7, "low": 0.6, "high": 0.8, "paired_diff": 0.1, "paired_low": 0.04,
...          "paired_high": 0.16, "paired_verdict": "higher"}]
>>> [(d["variant"], round(d["diff"], 2), d["verdict"]) for d in paired_differences(rows, ["x"])]
[('2 - 1', 0.1, 'higher')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tactica.engine.errors import TacticaError
from tactica.presentation.tables import Column, Table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from tactica.analysis.sweep import SweepSpec

__all__ = ["ODDS_VALUES", "paired_differences", "paired_table", "parameter_label", "plot_paired",
           "plot_sweep", "sweep_tables"]


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
        # The battles of a point are in the note (every point plays the same number).
        cols = [*(Column(p) for p in params), Column("side"), Column("wins", "int"),
                Column("win rate", "p"), Column("95% low", "p"), Column("95% high", "p"),
                Column("rounds", "num")]
        body = [[*(r.get(p) for p in params), r["side"], r["wins"], r["p"], r["low"],
                 r["high"], r["rounds_mean"]] for r in sims]
        out.append(Table("win rates at each point", cols, body,
                         [f"every point plays the same {sims[0]['battles']} battles, "
                          f"seed {sims[0]['seed']}", *repeat_notes(sims, spec)]))
        paired = paired_table(rows, params, spec.parameters[0].path)
        if paired is not None:
            out.append(paired)
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
        return human_path(p.path)
    return column


def human_path(path: str) -> str:
    """A parameter's path in words: ``content.weapons.smg.accuracy`` is ``smg accuracy (weapons,
    content pack)``, ``units.B.armor`` is ``B's armor``, ``attacker.armor`` is ``the
    attacker's armor``; others as written (``range``).

    >>> human_path("content.weapons.smg.accuracy"), human_path("units.B.armor")
    ('smg accuracy (weapons, content pack)', "B's armor")
    """
    keys = path.split(".")
    if keys[0] == "content" and len(keys) >= 4:
        return f"{keys[2]} {' '.join(keys[3:])} ({keys[1]}, content pack)".replace("_", " ")
    if keys[0] == "units" and len(keys) >= 3:
        return f"{keys[1]}'s {' '.join(keys[2:])}".replace("_", " ")
    if keys[0] in ("attacker", "target") and len(keys) >= 2:
        return f"the {keys[0]}'s {' '.join(keys[1:])}".replace("_", " ")
    return path.replace("_", " ")


def plot_sweep(rows: Sequence[Mapping[str, Any]], spec: SweepSpec, *,
               value: str | None = None, decimals: int = 1) -> Figure:
    """Every side's win rate (or an exact number of the odds: ``value``, P(out of action) by
    default) against the first parameter, one series per value of the second, one panel per
    side, 95% intervals shown; parameters labelled as people read them."""
    from tactica.analysis.plots import sweep_plot

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


def repeat_notes(sims: Sequence[Mapping[str, Any]], spec: SweepSpec) -> list[str]:
    """A sentence for every point whose win rates repeat an earlier point's exactly (every
    point plays the same seeded dice), with the proof where a matchup sweep varies the range:
    every attack has the same exact odds at both ranges."""
    from tactica.analysis.repeats import odds_signature, same_note

    params = [p.column for p in spec.parameters]
    points: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for r in sims:
        points.setdefault(tuple(r.get(p) for p in params), []).append(r)
    seen: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    notes = []
    matchup = spec.scenario is None and spec.game is not None and spec.profiles is not None
    for at, group in points.items():
        key = tuple((r["side"], r["wins"], r["battles"]) for r in group)
        earlier = seen.setdefault(key, at)
        if earlier == at:
            continue
        lengths = ({r["rounds_mean"] for r in group}
                   == {r["rounds_mean"] for r in points[earlier]})
        differ = [i for i, (a, b) in enumerate(zip(at, earlier, strict=True)) if a != b]
        odds: tuple[Any, Any] | None = None
        if matchup and [params[i] for i in differ] == ["range"] and spec.game is not None:
            a, t = spec.profiles or ("", "")
            pairs = [(a, t), (t, a)]
            rulings = dict(spec.rulings)
            here = odds_signature(spec.game, pairs, at[differ[0]], rulings=rulings,
                                  content=spec.content)
            there = odds_signature(spec.game, pairs, earlier[differ[0]], rulings=rulings,
                                   content=spec.content)
            odds = None if here is None or there is None else (there, here)

        def name(values: tuple[Any, ...]) -> str:
            return ", ".join(f"{p}={v}" for p, v in zip(params, values, strict=True))

        notes.append(same_note(name(at), name(earlier), odds=odds,
                               same_lengths=lengths, rounds=(
                                   float(points[earlier][0]["rounds_mean"]),
                                   float(group[0]["rounds_mean"]))))
    return notes


def paired_differences(rows: Sequence[Mapping[str, Any]], params: Sequence[str],
                       side: str | None = None) -> list[dict[str, Any]]:
    """Each value of the first parameter against its first value (the baseline), at each value
    of the second, for ``side`` (the first side by default; ``"*"``: every side and the
    draws): win rates with the paired 95% interval and verdict of :mod:`tactica.analysis.paired`,
    exact odds with none."""
    sims = [r for r in rows if r.get("kind") == "simulation"]
    if sims:
        if any("paired_diff" not in r for r in sims):
            raise TacticaError("this sweep was written by an older tactica without paired "
                               "differences: run it again")
        wanted = _first_side(sims) if side is None else side
        points = [dict(r) for r in sims if wanted == "*" or r["side"] == wanted]
    else:
        points, _ = _series(rows, params)
    first, rest = params[0], params[1:]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in points:
        groups.setdefault((r.get("side"), *(r.get(p) for p in rest)), []).append(r)
    out = []
    for key, group in groups.items():
        base = group[0]
        for r in group[1:]:
            where = ", ".join(f"{v}" for v in key[1:]) if rest else "all"
            row: dict[str, Any] = {"x": where, "side": r.get("side"),
                                   "variant": f"{r[first]} - {base[first]}"}
            if r.get("kind") == "simulation":
                d = float(r["paired_diff"])
                lo = d if r.get("paired_low") is None else float(r["paired_low"])
                hi = d if r.get("paired_high") is None else float(r["paired_high"])
                row.update(diff=d, low=lo, high=hi, verdict=r.get("paired_verdict"),
                           changed=r.get("changed"), consulted=r.get("consulted"))
            else:
                d = float(r["p"]) - float(base["p"])
                row.update(diff=d, low=d, high=d, verdict="exact", changed=None,
                           consulted=None)
            out.append(row)
    return out


def paired_table(rows: Sequence[Mapping[str, Any]], params: Sequence[str],
                 path: str | None = None) -> Table | None:
    """Every side's paired difference at every point against the first value of the first
    parameter (``path``, its column ``params[0]``), with its verdict, and one note per point
    on whether the comparison compared anything (``None`` without simulations or without a
    second value)."""
    from tactica.analysis.paired import consulted_note

    sims = [r for r in rows if r.get("kind") == "simulation"]
    if not sims or all(r.get("paired_diff") is None for r in sims):
        return None
    found = paired_differences(rows, params, side="*")
    # One table that fits 80 columns: the variant in the title when there is one, the
    # battles consulted and changed in the notes below (one per point).
    variants = list(dict.fromkeys(d["variant"] for d in found))
    single = len(variants) == 1
    cols = [Column("at"), *([] if single else [Column("variant")]), Column("outcome"),
            Column("difference", "pts"), Column("95% low", "pts"), Column("95% high", "pts"),
            Column("verdict")]
    body = [[d["x"], *([] if single else [d["variant"]]), d["side"], d["diff"], d["low"],
             d["high"], d["verdict"]] for d in found]
    notes = []
    first = path or params[0]
    key = first.removeprefix("rulings.") if first.startswith("rulings.") else first
    battles = int(sims[0]["battles"])
    seen: set[tuple[Any, ...]] = set()
    for d in found:
        mark = (d["x"], d["variant"])
        if mark in seen:
            continue
        seen.add(mark)
        note = consulted_note(key, consulted=d["consulted"], changed=int(d["changed"]),
                              battles=battles, label=f"{first}={d['variant'].split(' - ')[0]}")
        notes.append(note + (f" (at {d['x']})" if d["x"] != "all" else ""))
    unclear = [d for d in found if d["verdict"] == "no clear difference"
               and d["high"] > d["low"]]
    if unclear:
        half = max(max(d["high"] - d["diff"], d["diff"] - d["low"]) for d in unclear)
        notes.append(f"no clear difference: with {battles:,} battles a point, a difference of "
                     f"more than {half * 100:.1f} pts would have shown")
    what = f": {variants[0]}" if single else ""
    return Table("paired differences against the first value of the first parameter "
                 f"(the same seeded battles){what}", cols, body, notes)


def plot_paired(rows: Sequence[Mapping[str, Any]], spec: SweepSpec) -> Figure:
    """Each value of the first parameter against its first value, at each point of the
    second: the paired differences (the same seeded battles at every point), one panel per
    side and one for the draws, in percentage points; parameters labelled as people read
    them."""
    from tactica.analysis.plots import paired_plot

    params = [p.column for p in spec.parameters]
    sims = any(r.get("kind") == "simulation" for r in rows)
    _, label = _series(rows, params)
    first = parameter_label(spec, params[0])
    return paired_plot(paired_differences(rows, params, side="*" if sims else None),
                       xlabel=parameter_label(spec, params[1]) if len(params) > 1 else "",
                       ylabel="change of the win rate" if sims else f"change of {label}",
                       title=f"{first}\neach value against the first "
                       f"({spec.parameters[0].values[0]}), on the same battles "
                       "(error bars: paired 95% interval)")
