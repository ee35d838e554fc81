"""tactica: the combat rules of tabletop skirmish and role-playing games, exactly.

The public API is re-exported here; everything else is an implementation detail.
"""

from __future__ import annotations

from tactica.errors import (
    ContentError,
    DiceError,
    IllegalActionError,
    MapError,
    RulingError,
    ScenarioError,
    ScriptError,
    TacticaError,
)

__version__ = "0.1.0"

__all__ = [
    "ContentError",
    "DiceError",
    "IllegalActionError",
    "MapError",
    "RulingError",
    "ScenarioError",
    "ScriptError",
    "TacticaError",
    "__version__",
]
