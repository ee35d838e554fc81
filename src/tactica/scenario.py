"""Scenario files: which game, which rulings, the map, the sides and the units.

A scenario is YAML::

    game: nebulia-operations
    rulings: {NEB-3: chebyshev}
    map: {kind: grid, tiles: "A..#..B"}
    units:
      A: {side: red, profile: trooper}
      B: {side: blue, profile: trooper}

The common fields are checked here; the ``units`` (and any other field of the game) are checked
by the game's ruleset through its ``build_setup`` hook. Every problem of the file is reported at
once, each naming the file, the field and what was expected.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tactica.battlefield.base import Battlefield
from tactica.errors import RulingError, ScenarioError, TacticaError
from tactica.maps import map_from_mapping
from tactica.ruleset import Ruleset, Rulings, get_ruleset
from tactica.validation import load_yaml

__all__ = ["Scenario", "SetupBuilder", "load_scenario", "scenario_from_mapping"]

_COMMON = {"game", "name", "description", "rulings", "map", "max_rounds", "seed"}


class SetupBuilder(Protocol):
    """The ruleset hook that validates a scenario's game-specific part."""

    def build_setup(
        self,
        data: Mapping[str, Any],
        *,
        source: str,
        battlefield: Battlefield,
        rulings: Rulings,
        base_dir: Path,
    ) -> Any:
        """The game's setup (units, content) or a ScenarioError listing every problem."""
        ...


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: the ruleset, the rulings in force, the battlefield and the setup."""

    name: str
    ruleset: Ruleset
    rulings: Rulings
    battlefield: Battlefield
    setup: Any
    source: str
    data: Mapping[str, Any]
    max_rounds: int
    base_dir: Path = Path(".")

    def with_rulings(self, chosen: Mapping[str, str], *, where: str = "--rulings") -> Scenario:
        """The same scenario with some rulings switched (re-validated)."""
        data = copy.deepcopy(dict(self.data))
        merged = dict(data.get("rulings") or {})
        merged.update(chosen)
        data["rulings"] = merged
        return scenario_from_mapping(data, source=self.source, base_dir=self.base_dir,
                                     rulings_where=where)

    def new_state(self) -> Any:
        """A fresh battle state for this scenario."""
        return self.ruleset.initial_state(self)


def scenario_from_mapping(
    data: Any,
    *,
    source: str,
    base_dir: Path | None = None,
    rulings_where: str | None = None,
) -> Scenario:
    """Validate a parsed scenario; raises ScenarioError naming every problem."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{source}: expected a mapping with 'game', 'map' and 'units'")
    problems: list[str] = []
    ruleset: Ruleset | None = None
    if "game" not in data:
        problems.append(f"{source}: game: field required (the name of the game)")
    else:
        try:
            ruleset = get_ruleset(str(data["game"]), where=f"{source}: game")
        except TacticaError as exc:
            problems.append(str(exc))
    rulings: Rulings | None = None
    raw_rulings = data.get("rulings") or {}
    if not isinstance(raw_rulings, Mapping):
        problems.append(f"{source}: rulings: expected a mapping like {{NEB-3: manhattan}}")
        raw_rulings = {}
    if ruleset is not None:
        # Check each ruling on its own so that every bad one is reported; the others (and the
        # defaults in place of the bad ones) still let the rest of the file be checked.
        good: dict[str, str] = {}
        for key, value in raw_rulings.items():
            try:
                Rulings(ruleset.meta.rulings, {str(key): str(value)},
                        where=rulings_where or f"{source}: rulings")
            except RulingError as exc:
                problems.append(str(exc))
            else:
                good[str(key)] = str(value)
        rulings = Rulings(ruleset.meta.rulings, good)
    battlefield: Battlefield | None = None
    if "map" not in data:
        problems.append(f"{source}: map: field required")
    else:
        try:
            battlefield = map_from_mapping(data["map"], source=f"{source}: map")
        except TacticaError as exc:
            problems.append(str(exc))
    if (
        ruleset is not None
        and battlefield is not None
        and battlefield.kind != ruleset.meta.battlefield
    ):
        problems.append(
            f"{source}: map.kind: {ruleset.meta.title} is played on a "
            f"{ruleset.meta.battlefield!r} map, got {battlefield.kind!r}"
        )
        battlefield = None
    max_rounds = data.get("max_rounds", 30)
    if not isinstance(max_rounds, int) or isinstance(max_rounds, bool) or max_rounds < 1:
        problems.append(f"{source}: max_rounds: expected a whole number >= 1, got {max_rounds!r}")
        max_rounds = 30
    setup: Any = None
    if ruleset is not None and rulings is not None and battlefield is not None:
        builder: Any = ruleset
        try:
            setup = builder.build_setup(
                data,
                source=source,
                battlefield=battlefield,
                rulings=rulings,
                base_dir=base_dir or Path("."),
            )
        except TacticaError as exc:
            problems.append(str(exc))
    if problems:
        raise ScenarioError("\n".join(problems))
    assert ruleset is not None and rulings is not None and battlefield is not None
    return Scenario(
        name=str(data.get("name") or Path(source).stem),
        ruleset=ruleset,
        rulings=rulings,
        battlefield=battlefield,
        setup=setup,
        source=source,
        data=copy.deepcopy(dict(data)),
        max_rounds=max_rounds,
        base_dir=base_dir or Path("."),
    )


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate a scenario file."""
    p = Path(path)
    data = load_yaml(p, error=ScenarioError)
    return scenario_from_mapping(data, source=str(p), base_dir=p.parent)
