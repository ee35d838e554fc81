"""tactica: the combat rules of tabletop skirmish and role-playing games, exactly.

The names a notebook needs are here; the modules below hold the rest.

>>> import tactica
>>> tactica.evaluate("2d6").p(7)
Fraction(1, 6)
>>> duel = tactica.load(tactica.example("duel"))
>>> report = tactica.odds(duel, "A", "B")
>>> report.numbers["p_hit"], report.numbers["p_out_of_action"]
(Fraction(3, 5), Fraction(21, 50))

The names are imported on first use, so ``import tactica`` (and ``tactica --version``) stays
quick: nothing heavy (numpy, the games) is loaded until something needs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tactica.analysis.simulate import SimulationReport
    from tactica.api import compare, exact, example, examples, load, odds, odds_of, simulate
    from tactica.dice import Dist, evaluate
    from tactica.engine.errors import (
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
    from tactica.engine.odds import OddsReport
    from tactica.engine.ruleset import get_ruleset, register, rulesets
    from tactica.engine.scenario import Scenario, load_scenario

    __version__: str

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
    "exact",
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

#: Where each public name lives (imported on first use by :func:`__getattr__`).
_HOMES: dict[str, str] = {
    **dict.fromkeys(("compare", "exact", "example", "examples", "load", "odds", "odds_of",
                     "simulate"),
                    "tactica.api"),
    **dict.fromkeys(("Dist", "evaluate"), "tactica.dice"),
    **dict.fromkeys(("CapabilityError", "ContentError", "DiceError", "IllegalActionError",
                     "MapError", "RulingError", "ScenarioError", "ScriptError", "TacticaError"),
                    "tactica.engine.errors"),
    "OddsReport": "tactica.engine.odds",
    **dict.fromkeys(("get_ruleset", "register", "rulesets"), "tactica.engine.ruleset"),
    **dict.fromkeys(("Scenario", "load_scenario"), "tactica.engine.scenario"),
    "SimulationReport": "tactica.analysis.simulate",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from tactica.engine.version import version

        value: Any = version()
    elif name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'tactica' has no attribute {name!r}")
    globals()[name] = value  # found once, then an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
