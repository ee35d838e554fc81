"""Scenario files: which game, which rulings, the map, the sides and the units.

A scenario is YAML::

    game: my-game
    rulings: {MYG-3: chebyshev}
    map: {kind: grid, tiles: "A..#..B"}
    units:
      A: {side: red, profile: trooper}
      B: {side: blue, profile: trooper}

The common fields are checked here; the ``units`` (and any other field of the game) are checked
by the game through its ``Setup`` part's ``build``. A game played without a map (its meta says
``battlefield=None``) has scenarios without ``map:``. Every problem of the file is reported at
once, each naming the file, the field and what was expected.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tactica.battlefield.base import Battlefield
from tactica.engine.content import ContentReading, reading_content
from tactica.engine.errors import RulingError, ScenarioError, TacticaError, join_problems
from tactica.engine.limits import MAX_ROUNDS, MAX_SEED, MAX_UNITS
from tactica.engine.maps import map_from_mapping
from tactica.engine.ruleset import Ruleset, get_ruleset
from tactica.engine.rulings import Rulings
from tactica.engine.validation import load_yaml, quote

__all__ = ["COMMON_FIELDS", "Scenario", "load_scenario", "scenario_from_mapping"]

#: The fields every scenario may have; the rest belong to the game.
COMMON_FIELDS = frozenset({"game", "name", "description", "rulings", "map", "max_rounds",
                           "seed"})


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: the ruleset, the rulings in force, the battlefield and the setup."""

    name: str
    ruleset: Ruleset
    rulings: Rulings
    battlefield: Battlefield | None
    setup: Any
    source: str
    data: Mapping[str, Any]
    max_rounds: int
    base_dir: Path = Path(".")
    content_folders: tuple[Path, ...] = ()
    content: tuple[tuple[str, str], ...] = ()
    """Every content pack the scenario's game read for it, by name, with its SHA-256 (the
    log of a fight keeps their digest)."""

    def with_rulings(self, chosen: Mapping[str, str], *, where: str = "--rulings") -> Scenario:
        """The same scenario with some rulings switched (re-validated)."""
        data = copy.deepcopy(dict(self.data))
        merged = dict(data.get("rulings") or {})
        merged.update(chosen)
        data["rulings"] = merged
        return scenario_from_mapping(data, source=self.source, base_dir=self.base_dir,
                                     rulings_where=where, content_folders=self.content_folders)

    def new_state(self) -> Any:
        """A fresh battle state for this scenario."""
        return self.ruleset.initial_state(self)

    def _repr_html_(self) -> str:
        from tactica.analysis.notebook import scenario_table
        from tactica.presentation.tables import NumberFormat

        return scenario_table(self).to_html(NumberFormat())

    def to_pandas(self) -> Any:
        """The units (one row each: id, side and the fields of its entry) as a pandas
        DataFrame."""
        from tactica.analysis.notebook import scenario_frame

        return scenario_frame(self)


def scenario_from_mapping(
    data: Any,
    *,
    source: str,
    base_dir: Path | None = None,
    rulings_where: str | None = None,
    content_folders: tuple[Path, ...] = (),
) -> Scenario:
    """Validate a parsed scenario; raises ScenarioError naming every problem.

    Its content packs must come from ``base_dir`` (or below), tactica's own packs or the
    ``content_folders`` the caller vouches for (a sweep's generated packs)."""
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
        problems.append(f"{source}: rulings: expected a mapping of ruling id to option, "
                        "like {ABC-3: manhattan}")
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
    mapless = ruleset is not None and ruleset.meta.battlefield is None
    map_ok = True
    if "map" not in data:
        if ruleset is None:
            problems.append(f"{source}: map: field required")
            map_ok = False
        elif not mapless:
            problems.append(f"{source}: map: field required ({ruleset.meta.title} is played on "
                            f"a {ruleset.meta.battlefield!r} map)")
            map_ok = False
    elif mapless and ruleset is not None and not ruleset.meta.optional_maps:
        problems.append(f"{source}: map: {ruleset.meta.title} is played without a map; "
                        "leave 'map' out")
        map_ok = False
    else:
        try:
            battlefield = map_from_mapping(data["map"], source=f"{source}: map")
        except TacticaError as exc:
            problems.append(str(exc))
            map_ok = False
    if mapless and ruleset is not None and battlefield is not None and (
        battlefield.kind not in ruleset.meta.optional_maps
    ):
        problems.append(
            f"{source}: map.kind: {ruleset.meta.title} is played without a map or on a "
            f"{' or '.join(map(repr, ruleset.meta.optional_maps))} map, got {battlefield.kind!r}"
        )
        battlefield = None
        map_ok = False
    if (
        ruleset is not None
        and battlefield is not None
        and not mapless
        and battlefield.kind != ruleset.meta.battlefield
    ):
        problems.append(
            f"{source}: map.kind: {ruleset.meta.title} is played on a "
            f"{ruleset.meta.battlefield!r} map, got {battlefield.kind!r}"
        )
        battlefield = None
        map_ok = False
    max_rounds = data.get("max_rounds", 30)
    if (not isinstance(max_rounds, int) or isinstance(max_rounds, bool)
            or not 1 <= max_rounds <= MAX_ROUNDS):
        problems.append(f"{source}: max_rounds: expected a whole number from 1 to "
                        f"{MAX_ROUNDS}, got {quote(max_rounds)}")
        max_rounds = 30
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed <= MAX_SEED):
        problems.append(f"{source}: seed: expected a whole number from 0 to {MAX_SEED}, "
                        f"got {quote(seed)}")
    units = data.get("units")
    too_many = isinstance(units, (Mapping, list)) and len(units) > MAX_UNITS
    if too_many:
        assert isinstance(units, (Mapping, list))
        problems.append(f"{source}: units: {len(units)} units; a scenario holds at most "
                        f"{MAX_UNITS}")
    setup: Any = None
    reading = ContentReading(base_dir)
    if ruleset is not None and rulings is not None and map_ok and not too_many:
        try:
            with reading_content(base_dir or Path("."), content_folders) as reading:
                setup = ruleset.setup.build(
                    data,
                    source=source,
                    battlefield=battlefield,
                    rulings=rulings,
                    base_dir=base_dir or Path("."),
                )
        except TacticaError as exc:
            problems.append(str(exc))
    if problems:
        raise ScenarioError(join_problems(problems))
    assert ruleset is not None and rulings is not None
    scenario = Scenario(
        name=str(data.get("name") or Path(source).stem),
        ruleset=ruleset,
        rulings=rulings,
        battlefield=battlefield,
        setup=setup,
        source=source,
        data=copy.deepcopy(dict(data)),
        max_rounds=max_rounds,
        base_dir=base_dir or Path("."),
        content_folders=content_folders,
        content=tuple(sorted(reading.used.items())),
    )
    # One validation for every command: a scenario that validates can start a battle.
    try:
        scenario.new_state()
    except TacticaError as exc:
        raise ScenarioError(f"{source}: the battle cannot be set up: {exc}") from None
    return scenario


def load_scenario(path: str | Path) -> Scenario:
    """Load and validate a scenario file."""
    p = Path(path)
    data = load_yaml(p, error=ScenarioError)
    return scenario_from_mapping(data, source=str(p), base_dir=p.parent)
