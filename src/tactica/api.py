"""The short way in, for notebooks and scripts: load a scenario, ask the odds, simulate.

Everything here is a thin layer over the engine (:mod:`tactica.scenario`,
:mod:`tactica.ruleset`, :mod:`tactica.simulate`), the same calls the command line makes.

>>> import tactica
>>> duel = tactica.load("examples/nebulia/duel.yaml")
>>> tactica.odds(duel, "A", "B").numbers["p_out_of_action"]
Fraction(21, 50)
>>> tactica.load("examples/nebulia/duel.yaml", rulings={"NEB-6": "characteristic"}).rulings["NEB-6"]
'characteristic'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tactica.odds import OddsReport
from tactica.ruleset import OddsValue, Ruleset, odds_hooks
from tactica.scenario import Scenario, load_scenario
from tactica.simulate import SimulationReport
from tactica.simulate import simulate as _simulate

__all__ = ["load", "odds", "odds_of", "simulate"]


def load(path: str | Path, *, rulings: Mapping[str, str] | None = None) -> Scenario:
    """A scenario file, validated, with some rulings switched if asked
    (``rulings={"NEB-6": "characteristic"}``)."""
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
             policies: Mapping[str, str] | str = "greedy",
             workers: int | None = 1) -> SimulationReport:
    """Play ``battles`` seeded battles of the scenario; win rates with 95% intervals.

    >>> import tactica
    >>> report = tactica.simulate(tactica.load("examples/nebulia/duel.yaml"), 20, seed=3)
    >>> report.battles, sum(report.wins.values()) + report.draws
    (20, 20)
    """
    return _simulate(scenario, battles=battles, seed=seed, policies=policies, workers=workers)
