"""The short way in, for notebooks and scripts: load a scenario, ask the odds, simulate.

Everything here is a thin layer over the engine (:mod:`tactica.engine.scenario`,
:mod:`tactica.engine.ruleset`, :mod:`tactica.analysis.simulate`), the same calls the command line
makes.

>>> import tactica
>>> duel = tactica.load(tactica.example("duel"))
>>> tactica.odds(duel, "A", "B").numbers["p_out_of_action"]
Fraction(21, 50)
>>> ruling = duel.rulings.declared()[5]          # any ruling, switched to its second reading
>>> other = list(ruling.options)[1]
>>> tactica.load(tactica.example("duel"), rulings={ruling.id: other}).rulings[ruling.id] == other
True
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tactica.analysis.exact import DEFAULT_MAX_STATES, ExactComparison, FightOdds
from tactica.analysis.exact import exact_compare as _exact_compare
from tactica.analysis.exact import exact_fight as _exact_fight
from tactica.analysis.simulate import ComparisonReport, SimulationReport
from tactica.analysis.simulate import compare as _compare
from tactica.analysis.simulate import simulate as _simulate
from tactica.engine.errors import TacticaError
from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import OddsValue, Ruleset, example_scenarios, odds_hooks, rulesets
from tactica.engine.scenario import Scenario, load_scenario

__all__ = ["compare", "exact", "example", "examples", "load", "odds", "odds_of", "simulate"]


def examples() -> dict[str, Path]:
    """Every example scenario shipped with the registered games, by file name (without
    ``.yaml``; a name two games share is prefixed with the game's name and a colon)."""
    found: dict[str, Path] = {}
    for ruleset in rulesets():
        for path in example_scenarios(ruleset):
            key = path.stem if path.stem not in found else f"{ruleset.meta.name}:{path.stem}"
            found[key] = path
    return found


def example(name: str) -> Path:
    """The example scenario called ``name`` (see :func:`examples`), wherever tactica is
    installed; a TacticaError lists the names if there is none."""
    found = examples()
    if name not in found:
        raise TacticaError(f"no example scenario {name!r} (examples: {', '.join(sorted(found))})")
    return found[name]


def load(path: str | Path, *, rulings: Mapping[str, str] | None = None) -> Scenario:
    """A scenario file, validated, with some rulings switched if asked
    (``rulings={ruling_id: option}``)."""
    scenario = load_scenario(path)
    if rulings:
        scenario = scenario.with_rulings(rulings, where="rulings")
    return scenario


def odds_of(ruleset: Ruleset, state: Any, attacker: str, target: str,
            means: str | None = None, **options: OddsValue) -> OddsReport:
    """The exact odds of ``attacker`` acting on ``target`` (several targets: comma
    separated) by ``means`` (a weapon or ability; ``None``: the game's default), in
    ``state``; ``options`` are the game's declared odds options (``defend=True``)."""
    hooks = odds_hooks(ruleset)
    targets = tuple(t.strip() for t in target.split(",") if t.strip())
    action = hooks.odds_action(state, attacker, targets, means)
    return hooks.odds(state, action, **options)


def odds(scenario: Scenario, attacker: str, target: str, means: str | None = None,
         **options: OddsValue) -> OddsReport:
    """The exact odds of an action from the scenario's starting position."""
    return odds_of(scenario.ruleset, scenario.new_state(), attacker, target, means, **options)


def simulate(scenario: Scenario, battles: int = 1000, *, seed: int = 1,
             policies: Mapping[str, str] | str | None = None,
             workers: int | None = 1) -> SimulationReport:
    """Play ``battles`` seeded battles of the scenario; win rates with 95% intervals.

    >>> import tactica
    >>> report = tactica.simulate(tactica.load(tactica.example("duel")), 20, seed=3)
    >>> report.battles, sum(report.wins.values()) + report.draws
    (20, 20)
    """
    return _simulate(scenario, battles=battles, seed=seed, policies=policies, workers=workers)


def compare(scenario: Scenario, spec: str, battles: int = 1000, *, seed: int = 1,
            policies: Mapping[str, str] | str | None = None,
            workers: int | None = 1) -> ComparisonReport:
    """Play every battle under each variant of ``spec`` (``"ABC-6=die,characteristic"``, or a
    field such as ``"units.A.defense=2,3"``) with the same dice; the paired differences come
    with 95% intervals.

    >>> import tactica
    >>> report = tactica.compare(tactica.load(tactica.example("duel")),
    ...                          "units.B.defense=1,2", 20, seed=3)
    >>> report.labels, report.battles
    (('units.B.defense=1', 'units.B.defense=2'), 20)
    """
    return _compare(scenario, spec, battles=battles, seed=seed, policies=policies,
                    workers=workers)


def exact(scenario: Scenario, *, policies: Mapping[str, str] | str | None = None,
          compare: str | None = None,
          max_states: int = DEFAULT_MAX_STATES) -> FightOdds | ExactComparison:
    """The exact odds of the whole fight under ``policies`` (every state it can reach,
    searched once, up to ``max_states``); with ``compare`` (``"ID=A,B"``: a ruling and two of
    its readings) each variant's exact odds and their exact differences.

    >>> import tactica
    >>> from fractions import Fraction
    >>> odds = tactica.exact(tactica.load(tactica.example("cop-vs-goblin")))
    >>> odds.p("police") + odds.p("goblins") + odds.p("unfinished") == 1
    True
    """
    if compare is not None:
        return _exact_compare(scenario, compare, policies=policies, max_states=max_states)
    return _exact_fight(scenario, policies=policies, max_states=max_states)
