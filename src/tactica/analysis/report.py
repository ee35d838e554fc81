"""``tactica report``: one self-contained HTML page for a scenario or a sweep.

A scenario's page has the map (inline SVG), the rulings in force, the exact odds of every
attack from the starting position, the distribution of the likeliest knock-out, and a seeded
simulation with its win rates and 95% intervals. A sweep's page has what it varied, its tables
and its plots. Pictures are inline SVG, so the file needs nothing beside it: a designer can
mail it to a co-author.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tactica.analysis.simulate import simulate
from tactica.analysis.sweep import Parameter, SweepSpec
from tactica.analysis.sweep_file import read_sweep
from tactica.engine.errors import TacticaError
from tactica.engine.maps import to_svg
from tactica.engine.ruleset import Capability, odds_hooks, sight_hooks
from tactica.engine.scenario import Scenario
from tactica.engine.version import version
from tactica.presentation.render.markup import Child, Element, Trusted
from tactica.presentation.tables import Column, NumberFormat, Table

__all__ = ["scenario_report", "sweep_report", "write_report"]

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1100px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { margin-bottom: 0.1em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em;
     margin-top: 1.6em; }
.sub { color: #666; margin-top: 0; }
table.tactica { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
table.tactica caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
table.tactica th, table.tactica td { border: 1px solid #ddd; padding: 0.25em 0.6em; }
table.tactica th { background: #f3f3f3; }
table.tactica tr:nth-child(even) td { background: #fafafa; }
p.note { color: #555; font-size: 0.88em; margin: 0.15em 0; }
figure { margin: 0.8em 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.88em; }
.map svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
footer { color: #888; font-size: 0.8em; margin-top: 3em; }
"""


Section = tuple[str, list[Child]]


def _svg(fig: Any) -> Trusted:
    """A matplotlib figure's SVG (its writer escapes every text it draws)."""
    from tactica.analysis.plots import figure_bytes

    text = figure_bytes(fig, "svg").decode("utf-8")
    return Trusted(text[text.find("<svg"):])


def _map(svg: str) -> Element:
    """A map picture (made by :mod:`tactica.presentation.render.markup`) inside its frame."""
    return Element("div", Trusted(svg[svg.find("<svg"):]), class_="map")


def _figure(svg: Trusted, caption: str) -> Element:
    return Element("figure", svg, Element("figcaption", caption))


def _tables(tables: Iterable[Table], fmt: NumberFormat) -> list[Child]:
    return [e for t in tables for e in t.to_elements(fmt)]


def _page(title: str, subtitle: str, sections: Sequence[Section]) -> str:
    stamp = datetime.date.today().isoformat()
    head = Element("head", Element("meta", charset="utf-8"), Element("title", title),
                   Element("style", Trusted(_STYLE)))
    body = Element("body", Element("h1", title), Element("p", subtitle, class_="sub"))
    body.extend(Element("section", Element("h2", h), *content) for h, content in sections)
    body.add(Element("footer", f"made with tactica {version()} on {stamp}"))
    page = Element("html", head, body, lang="en")
    return "<!DOCTYPE html>\n" + page.render(html=True) + "\n"


def _weapons(rs: Any, state: Any, uid: str) -> str:
    """The weapons and abilities a unit can attack with (the game's odds choices)."""
    if not rs.meta.has(Capability.ODDS):
        return "-"
    try:
        means = dict.fromkeys(c.means for c in odds_hooks(rs).choices(state, uid))
    except TacticaError:
        return "-"
    return ", ".join(str(m) for m in means) or "-"


def _armor(scenario: Scenario, uid: str, details: Mapping[str, Any]) -> str:
    """A unit's armor: the game's own figure, or the scenario's entry (or its profile's)."""
    if "armor" in details:
        return str(details["armor"])
    entry = (scenario.data.get("units") or {}).get(uid)
    if isinstance(entry, Mapping) and "armor" in entry:
        return str(entry["armor"])
    return "-"


def _rulings_table(scenario: Scenario) -> Table:
    rows = [[r.id, r.question, scenario.rulings[r.id],
             "default" if scenario.rulings[r.id] == r.default else f"changed (default "
             f"{r.default})", r.options.get(scenario.rulings[r.id], "")]
            for r in scenario.rulings.declared()]
    return Table("rulings in force", [Column("ruling"), Column("question"), Column("option"),
                                      Column(""), Column("meaning")], rows)


def scenario_report(scenario: Scenario, *, battles: int = 200, seed: int = 1,
                    workers: int | None = 1, fmt: NumberFormat | None = None,
                    plots: bool = True, effects: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> str:
    """The HTML page of a scenario (see the module's docstring); ``battles=0`` leaves the
    simulation out, ``plots=False`` the pictures that need matplotlib; ``effects`` battles
    add a section on the effect of every ruling's other readings
    (:mod:`tactica.analysis.effects`); ``progress`` is told the simulation's battles done."""
    from tactica.analysis.attacks import attack_rows
    from tactica.analysis.views import attack_table, simulation_tables

    fmt = fmt or NumberFormat()
    rs = scenario.ruleset
    state = scenario.new_state()
    sections: list[Section] = []
    if scenario.battlefield is not None:
        field = (sight_hooks(rs).battlefield(state) if rs.meta.has(Capability.SIGHT)
                 else None) or scenario.battlefield
        sections.append(("Map", [_map(to_svg(field))]))
    units = Table("units", [Column("unit"), Column("side"), Column("where"),
                            Column("weapons"), Column("armor"), Column("figures")],
                  [[u.id, u.side, u.place or "-", _weapons(rs, state, u.id),
                    _armor(scenario, u.id, u.details),
                    ", ".join(f"{k} {v}" for k, v in u.details.items() if k != "armor")]
                   for u in rs.units(state)])
    sections.append(("Units", _tables([units], fmt)))
    sections.append(("Rulings", _tables([_rulings_table(scenario)], fmt)))
    if rs.meta.has(Capability.ODDS):
        odds_html: list[Child]
        try:
            rows = attack_rows(rs, state, None, {})
            odds_html = _tables([attack_table("every attack from the starting position",
                                              rows)], fmt)
        except TacticaError as exc:  # too many attacks: the table is left out, and why
            rows = []
            odds_html = [Element("p", f"{str(exc).removeprefix('odds --table: ')} (tactica "
                                      "odds SCENARIO --table --attacker ID).")]
        if plots and rows:
            from tactica.analysis.plots import dist_plot
            from tactica.engine.ruleset import odds_hooks

            best = max(rows, key=lambda r: (r["p_out_of_action"], r["expected_damage"]))
            hooks = odds_hooks(rs)
            action = hooks.odds_action(state, best["attacker"], (best["target"],),
                                       best["weapon"])
            report = hooks.odds(state, action)
            dist = report.distributions.get("damage")
            if dist is not None:
                odds_html.append(_figure(
                    _svg(dist_plot(dist, title=report.action, xlabel="damage")),
                    f"The damage of the attack likeliest to take its target out: "
                    f"{report.action}. Bars: P(damage); line: P(at least that much)."))
        sections.append(("Exact odds", odds_html))
    if battles > 0:
        sim = simulate(scenario, battles=battles, seed=seed, workers=workers,
                       progress=progress)
        if sim.interrupted:  # Ctrl-C: no page of a part of the battles
            raise KeyboardInterrupt
        content = _tables(simulation_tables(sim), fmt)
        if plots:
            from tactica.analysis.plots import win_rate_plot

            content.append(_figure(_svg(win_rate_plot(sim)),
                                   f"Win rates of {battles} seeded battles (seed {seed}) with "
                                   "their 95% Wilson intervals."))
        sections.append(("Simulation", content))
    if effects > 0:
        from tactica.analysis.effects import effects as every_effect

        found = every_effect(scenario, battles=effects, seed=seed, workers=workers)
        if found.interrupted:
            raise KeyboardInterrupt
        content = _tables([found.table()], fmt)
        if plots and found.effects:
            content.append(_figure(_svg(found.plot()),
                                   "Each other reading of a ruling against the scenario's own "
                                   "on the same seeded battles: the change of each side's win "
                                   "rate, error bars its paired 95% interval."))
        sections.append(("The effect of every ruling", content))
    subtitle = f"{rs.meta.title} scenario, from {Path(scenario.source).name}"
    desc = scenario.data.get("description")
    if desc:
        subtitle += f": {desc}"
    return _page(scenario.name, subtitle, sections)


def sweep_report(path: Path, *, fmt: NumberFormat | None = None, plots: bool = True) -> str:
    """The HTML page of a sweep written by ``tactica sweep -o FILE.parquet``."""
    from tactica.analysis.sweep_views import plot_paired, plot_sweep, sweep_tables

    fmt = fmt or NumberFormat()
    checked, rows = read_sweep(path)  # every part checked: one error, never a traceback
    meta = checked.model_dump()
    params = tuple(Parameter(p.path, tuple(p.values)) for p in checked.parameters)
    spec = SweepSpec(params, odds=checked.odds, battles=checked.battles, seed=checked.seed)
    what = Table("what was varied", [Column("parameter"), Column("column"), Column("values")],
                 [[p.path, p.column, ", ".join(map(str, p.values))] for p in params])
    base = meta.get("source") or (f"{meta.get('game')} matchup "
                                  f"{' against '.join(meta.get('profiles') or [])}")
    sections: list[Section] = [("Sweep", [*_tables([what], fmt), Element(
        "p", f"base: {base}; {len(rows)} rows", class_="note")])]
    rulings = sorted({r["rulings"] for r in rows if r.get("rulings")})
    if rulings:
        shown = Table("rulings at the points", [Column("rulings in force")],
                      [[", ".join(f"{k}={v}" for k, v in json.loads(r).items())]
                       for r in rulings])
        sections.append(("Rulings", _tables([shown], fmt)))
    tables = sweep_tables(rows, spec)
    sections.append(("Results", _tables(tables, fmt)))
    if plots and rows:
        pictures: list[Child] = [
            _figure(_svg(plot_sweep(rows, spec)),
                    "The result against the swept parameter; shaded bands are 95% "
                    "intervals of simulated win rates."),
            _figure(_svg(plot_paired(rows, spec)),
                    "Each value of the first parameter against its first value, "
                    "point by point (the same seeded battles at every point)."),
        ]
        sections.append(("Plots", pictures))
    return _page(f"Sweep of {', '.join(p.path for p in params)}",
                 f"{meta.get('game') or ''}: {base}", sections)


def write_report(text: str, path: Path) -> None:
    """Write the page, or a TacticaError naming why it cannot be written."""
    from tactica.presentation.tables import write_text

    write_text(path, text, what="--output")
