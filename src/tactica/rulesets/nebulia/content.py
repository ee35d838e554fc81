"""Nebulia Operations content: weapons, operator profiles, and the units of a scenario.

The seed defines no weapons or profiles (ruling NEB-10), so the built-in pack
(``content.yaml`` beside this file) is tactica's own illustrative content. A scenario may add
packs with ``content: [my-pack.yaml]`` and may give any unit inline statistics instead of, or
on top of, a profile.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.base import Battlefield
from tactica.battlefield.grid.tiles import TileGrid
from tactica.engine.content import ContentLoader, check_references
from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.rulings import Rulings
from tactica.engine.validation import quote, validate

__all__ = [
    "BUILTIN_PACK",
    "MAX_GRID_SIDE",
    "PACKS",
    "ContentPack",
    "NebuliaSetup",
    "UnitSetup",
    "Weapon",
    "build_setup",
    "builtin_pack",
    "load_pack",
    "scenario_setup",
]

BUILTIN_PACK = Path(__file__).with_name("content.yaml")
_ONE_CHARACTER = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True)
class Weapon:
    """A weapon: melee (adjacent targets) or ranged (visible targets), accuracy, dice, damage."""

    name: str
    range: Literal["melee", "ranged"]
    accuracy: int
    dice: int = 1
    damage: int = 1

    @property
    def is_melee(self) -> bool:
        """True for a weapon with the Melee range."""
        return self.range == "melee"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeaponModel(_Strict):
    name: str | None = None
    range: Literal["melee", "ranged"]
    accuracy: int = Field(ge=0, le=10, description="a D10 succeeds at or under it")
    dice: int = Field(default=1, ge=1, le=100)
    damage: int = Field(default=1, ge=0, le=100)


class ProfileModel(_Strict):
    defense: int = Field(ge=1, le=100)
    armor: int = Field(ge=0, le=10)
    move: int = Field(default=3, ge=0, le=30)
    weapons: list[str | WeaponModel] = Field(min_length=1)


class PackModel(_Strict):
    illustrative: bool = False
    weapons: dict[str, WeaponModel] = Field(default_factory=dict)
    profiles: dict[str, ProfileModel] = Field(default_factory=dict)


class UnitModel(_Strict):
    side: str = Field(min_length=1)
    profile: str | None = None
    defense: int | None = Field(default=None, ge=1, le=100)
    armor: int | None = Field(default=None, ge=0, le=10)
    move: int | None = Field(default=None, ge=0, le=30)
    weapons: list[str | WeaponModel] | None = None
    at: tuple[int, int] | None = None
    defense_lost: int = Field(default=0, ge=0, le=100,
                              description="defense already lost (a fight under way)")


class SetupFields(BaseModel):
    """The game fields of a scenario other than ``units`` (each unit is checked on its own)."""

    model_config = ConfigDict(extra="forbid")
    content: list[str] = Field(default_factory=list)
    sides: list[str] | None = None
    first: str | None = None


class SetupModel(SetupFields):
    units: dict[str, UnitModel] = Field(min_length=2)


@dataclass(frozen=True)
class ContentPack:
    """Weapons and profiles by name; ``illustrative`` marks content that is not official."""

    weapons: Mapping[str, Weapon]
    profiles: Mapping[str, ProfileModel]
    illustrative: bool
    source: str


def _weapon(name: str, model: WeaponModel) -> Weapon:
    return Weapon(model.name or name, model.range, model.accuracy, model.dice, model.damage)


def _build(files: Sequence[tuple[str, PackModel]]) -> ContentPack:
    """The packs merged in order (later ones win); profiles may use any pack's weapons."""
    weapons: dict[str, Weapon] = {}
    profiles: dict[str, tuple[str, ProfileModel]] = {}
    for source, model in files:
        weapons.update({name: _weapon(name, w) for name, w in model.weapons.items()})
        profiles.update({name: (source, pm) for name, pm in model.profiles.items()})
    check_references(profiles, weapons, fields=("weapons",), what="weapon")
    return ContentPack(weapons, {k: pm for k, (_, pm) in profiles.items()},
                       any(m.illustrative for _, m in files), ", ".join(s for s, _ in files))


#: The game's content packs: the built-in one, then a scenario's own.
PACKS = ContentLoader(PackModel, _build, builtin=(BUILTIN_PACK,))


#: One content pack file on its own, validated; the built-in pack (loaded once).
load_pack = PACKS.load_one
builtin_pack = PACKS.load


@dataclass(frozen=True)
class UnitSetup:
    """One operator as the scenario sets it up."""

    id: str
    side: str
    defense: int
    armor: int
    move: int
    weapons: tuple[Weapon, ...]
    at: tuple[int, int]
    defense_lost: int = 0


@dataclass(frozen=True)
class NebuliaSetup:
    """The validated Nebulia part of a scenario: units in order, sides in order."""

    units: tuple[UnitSetup, ...]
    sides: tuple[str, ...]
    first: str
    pack: ContentPack


#: The largest grid a Nebulia battle is played on (a battle's work grows with the map).
MAX_GRID_SIDE = 64


def scenario_setup(data: Mapping[str, Any], *, source: str, battlefield: Battlefield | None,
                   rulings: Rulings, base_dir: Path) -> NebuliaSetup:
    """The game's part of a scenario, on a grid of at most :data:`MAX_GRID_SIDE` tiles."""
    if not isinstance(battlefield, TileGrid):
        raise ScenarioError(f"{source}: map: Nebulia Operations is played on a grid map")
    grid = battlefield
    if grid.width > MAX_GRID_SIDE or grid.height > MAX_GRID_SIDE:
        raise ScenarioError(
            f"{source}: map: a {grid.width} x {grid.height} grid; Nebulia Operations is "
            f"played on at most {MAX_GRID_SIDE} x {MAX_GRID_SIDE} tiles (the work of a "
            "battle grows with the map: see docs/limits.md)")
    return build_setup(data, source=source, occupants=grid.occupants,
                       is_open=lambda t: grid.in_bounds(t) and not grid.is_blocking(t),
                       base_dir=base_dir)


def build_setup(
    data: Mapping[str, Any],
    *,
    source: str,
    occupants: Mapping[str, tuple[int, int]],
    is_open: Any,
    base_dir: Path,
) -> NebuliaSetup:
    """Validate the units of a scenario against the content packs and the map."""
    game_part = {k: v for k, v in data.items() if k in SetupModel.model_fields}
    extra = sorted(
        set(data)
        - set(SetupModel.model_fields)
        - {"game", "name", "description", "rulings", "map", "max_rounds", "seed"},
        key=str,
    )
    problems: list[str] = [f"{source}: {k}: unknown field" for k in extra]
    fields = {k: v for k, v in game_part.items() if k != "units"}
    try:
        model = validate(SetupFields, fields, source=source, error=ScenarioError)
    except TacticaError as exc:
        problems.append(str(exc))
        model = SetupFields()
    # Each unit is validated on its own, so that one bad unit does not hide the problems of
    # the others (unknown profiles, tiles, weapons).
    raw_units = data.get("units")
    unit_ids: list[str] = []
    unit_models: dict[str, UnitModel] = {}
    if raw_units is None:
        problems.append(f"{source}: units: field required (a mapping of unit id to unit)")
    elif not isinstance(raw_units, Mapping):
        problems.append(f"{source}: units: expected a mapping of at least two units "
                        f"(id: {{side: ..., profile: ...}}), got {quote(raw_units)}")
    else:
        if len(raw_units) < 2:
            problems.append(f"{source}: units: at least two units are needed (one on each "
                            f"side), got {len(raw_units)}")
        for uid, raw in raw_units.items():
            if not isinstance(uid, str):
                problems.append(f"{source}: units: unit id {uid!r}: expected a string "
                                f"(quote it: '{uid}')")
                continue
            unit_ids.append(uid)
            if not _ONE_CHARACTER.fullmatch(uid):
                problems.append(f"{source}: units.{quote(uid)[1:-1]}: on a grid map a unit's id "
                                f"is one letter or digit (it is drawn on the map), got "
                                f"{quote(uid)}")
            try:
                unit_models[uid] = validate(UnitModel, raw, source=source, error=ScenarioError,
                                            prefix=("units", uid))
            except TacticaError as exc:
                problems.append(str(exc))
    pack = builtin_pack()
    try:
        pack = PACKS.load([base_dir / rel for rel in model.content])
    except TacticaError as exc:
        problems.append(f"{source}: content: {exc}")
    units: list[UnitSetup] = []
    placed: dict[tuple[int, int], str] = {}
    for uid, unit in unit_models.items():
        where = f"{source}: units.{uid}"
        profile = None
        if unit.profile is not None:
            profile = pack.profiles.get(unit.profile)
            if profile is None:
                problems.append(
                    f"{where}.profile: unknown profile {unit.profile!r} "
                    f"(known: {', '.join(sorted(pack.profiles))})"
                )
                continue
        stats: dict[str, Any] = {}
        for key in ("defense", "armor", "move"):
            value = getattr(unit, key)
            if value is None and profile is not None:
                value = getattr(profile, key)
            if value is None:
                problems.append(f"{where}.{key}: field required (or give a profile)")
            stats[key] = value
        refs = unit.weapons if unit.weapons is not None else (profile.weapons if profile else None)
        weapons: list[Weapon] = []
        if not refs:
            problems.append(f"{where}.weapons: at least one weapon required (or give a profile)")
        for i, ref in enumerate(refs or []):
            if isinstance(ref, str):
                if ref in pack.weapons:
                    weapons.append(pack.weapons[ref])
                else:
                    problems.append(
                        f"{where}.weapons[{i}]: unknown weapon {ref!r} "
                        f"(known: {', '.join(sorted(pack.weapons))})"
                    )
            else:
                weapons.append(_weapon(ref.name or f"weapon {i + 1}", ref))
        names = [w.name for w in weapons]
        if len(set(names)) != len(names):
            problems.append(f"{where}.weapons: two weapons share a name: {names}")
        pos = unit.at if unit.at is not None else occupants.get(uid)
        if pos is None:
            problems.append(
                f"{where}: not on the map: draw {uid!r} in map.tiles or give 'at: [x, y]'"
            )
            continue
        if unit.at is not None and not is_open(pos):
            problems.append(f"{where}.at: {list(pos)} is not an open tile of the map")
            continue
        if pos in placed:
            problems.append(f"{where}: shares tile {list(pos)} with {placed[pos]}")
            continue
        placed[pos] = uid
        if None in stats.values():
            continue
        if unit.defense_lost >= stats["defense"]:
            problems.append(f"{where}.defense_lost: {unit.defense_lost} would leave no defense "
                            f"(defense {stats['defense']}); a unit out of action is left out")
            continue
        units.append(
            UnitSetup(uid, unit.side, stats["defense"], stats["armor"], stats["move"],
                      tuple(weapons), pos, unit.defense_lost)
        )
    for oid in occupants:
        if oid not in unit_ids:
            problems.append(f"{source}: map.tiles: occupant {oid!r} has no entry in units")
    sides_seen = list(dict.fromkeys(u.side for u in unit_models.values()))
    sides = tuple(model.sides or sides_seen)
    for s in sides_seen:
        if s not in sides:
            problems.append(f"{source}: sides: side {s!r} of a unit is not listed")
    all_units_valid = len(unit_ids) >= 2 and len(unit_models) == len(unit_ids)
    if len(sides) < 2 and all_units_valid:
        problems.append(f"{source}: units: need operators on at least two sides, got {sides}")
    first = model.first or (sides[0] if sides else "")
    if model.first is not None and model.first not in sides:
        problems.append(f"{source}: first: {model.first!r} is not a side ({', '.join(sides)})")
    if problems:
        raise ScenarioError("\n".join(problems))
    return NebuliaSetup(tuple(units), sides, first, pack)
