"""tactica: the combat rules of tabletop skirmish and role-playing games, exactly.

The names a notebook needs are here; the modules below hold the rest.

>>> import tactica
>>> tactica.evaluate("2d6").p(7)
Fraction(1, 6)
>>> duel = tactica.load(tactica.example("duel"))
>>> report = tactica.odds(duel, "A", "B")
>>> report.numbers["p_hit"], report.numbers["p_out_of_action"]
(Fraction(3, 5), Fraction(21, 50))
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from tactica.api import compare, example, examples, load, odds, odds_of, simulate
from tactica.dice import Dist, evaluate
from tactica.errors import (
    CapabilityError,
    ContentError,
    DiceError,
    IllegalActionError,
    MapError,
    RulingError,
    ScenarioError,
    ScriptError,
    TacticaError,
)
from tactica.odds import OddsReport
from tactica.ruleset import get_ruleset, register, rulesets
from tactica.scenario import Scenario, load_scenario
from tactica.simulate import SimulationReport

try:
    __version__ = _version("tactica")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "CapabilityError",
    "ContentError",
    "DiceError",
    "Dist",
    "IllegalActionError",
    "MapError",
    "OddsReport",
    "RulingError",
    "Scenario",
    "ScenarioError",
    "ScriptError",
    "SimulationReport",
    "TacticaError",
    "__version__",
    "compare",
    "evaluate",
    "example",
    "examples",
    "get_ruleset",
    "load",
    "load_scenario",
    "odds",
    "odds_of",
    "register",
    "rulesets",
    "simulate",
]
