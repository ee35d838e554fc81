"""The Skirmishers part of a scenario: troopers, their kit, squads and the optional rules.

A scenario's game fields::

    optional: [experience, morale]          # optional rules, each off by default
    squads: {red: {skill: veteran, leader: A, leadership: 2}}
    content: [my-pack.yaml]                 # extra content packs
    sides: [red, blue]                      # the order of the sides (default: as met)
    first: red                              # who moves first (default: rolled)
    units:
      A: {side: red, primary: rifle, secondary: pistol, armor: standard,
          experience: veteran, at: [2, 6], level: ground, prone: false}

Every trooper carries the kit of the content pack (4 hand grenades, a knife, a helmet); rifles
and SMGs have a bayonet. A satchel charge takes the secondary weapon's slot
(``secondary: satchel-charge``). A fight under way gives a trooper's card as ``marks`` (cells
10..0 as ``.`` ``/`` ``X``), ``armor_left`` and a firing arc already established
(``arc: {width: 60, bearing: 180}`` or ``toward: [col, row]``). Every problem is reported
with the file and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.base import Battlefield
from tactica.battlefield.dots.arcs import bearing_value
from tactica.battlefield.dots.lattice import DotLattice, DotPlace
from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.rulings import Rulings
from tactica.engine.validation import validate
from tactica.rulesets.skirmishers.card import CELLS, current_hp
from tactica.rulesets.skirmishers.content import (
    PACKS,
    Armor,
    Card,
    ContentPack,
    Experience,
    builtin_pack,
)

__all__ = [
    "MAX_DOTS_SIDE",
    "OPTIONAL_RULES",
    "SkirmishersSetup",
    "Squad",
    "UnitSetup",
    "build_setup",
    "scenario_setup",
]

#: The largest lattice a Skirmishers battle is played on (a battle's work grows with the map).
MAX_DOTS_SIDE = 50

#: The optional rules of the advanced combat chapter that tactica models (scenario switches).
OPTIONAL_RULES = ("experience", "advanced-armor", "morale", "movement-fire")
_OPTIONAL = Literal["experience", "advanced-armor", "morale", "movement-fire"]
_COMMON = {"game", "name", "description", "rulings", "map", "max_rounds", "seed"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ArcModel(_Strict):
    width: Literal[30, 60, 150]
    bearing: int | float | None = Field(default=None, ge=0, lt=360)
    toward: tuple[int, int] | None = None


class UnitModel(_Strict):
    side: str = Field(min_length=1)
    primary: str = Field(min_length=1, description="a firearm of the content pack")
    secondary: str | None = None
    melee: list[str] = Field(default_factory=list)
    grenades: int | None = Field(default=None, ge=0, le=20)
    armor: str = "none"
    experience: str = "regular"
    card: str = "regular"
    active: str | None = None
    marks: str | None = Field(default=None, pattern=r"^[./X]{11}$",
                              description="cells 10..0 as . / X")
    armor_left: int | None = Field(default=None, ge=0, le=10)
    at: tuple[int, int] | None = None
    level: int | str | None = None
    prone: bool = False
    arc: ArcModel | None = Field(default=None, description="a firing arc already established")


class SquadModel(_Strict):
    skill: str = "regular"
    leader: str | None = None
    leadership: int = Field(default=2, ge=0, le=12)


class SetupFields(BaseModel):
    model_config = ConfigDict(extra="forbid")
    content: list[str] = Field(default_factory=list)
    sides: list[str] | None = None
    optional: list[_OPTIONAL] = Field(default_factory=list)
    squads: dict[str, SquadModel] = Field(default_factory=dict)
    first: str | None = None


@dataclass(frozen=True)
class UnitSetup:
    """One trooper as the scenario sets it up."""

    id: str
    side: str
    card: Card
    armor: Armor
    experience: Experience
    weapons: tuple[str, ...]
    explosives: tuple[tuple[str, int], ...]
    active: str
    marks: str
    armor_left: int
    place: DotPlace
    prone: bool
    arc: tuple[int, int | float | None, str | None] | None = None


@dataclass(frozen=True)
class Squad:
    """A side's squad: its skill (morale), its leader and the leader's leadership."""

    skill: Experience
    leader: str | None
    leadership: int


@dataclass(frozen=True)
class SkirmishersSetup:
    """The validated Skirmishers part of a scenario."""

    units: tuple[UnitSetup, ...]
    sides: tuple[str, ...]
    pack: ContentPack
    optional: frozenset[str]
    squads: Mapping[str, Squad]
    first: str | None = None


def _known(table: Mapping[str, Any]) -> str:
    return ", ".join(sorted(table))


def _unit(uid: str, unit: UnitModel, pack: ContentPack, lattice: DotLattice, where: str,
          problems: list[str]) -> UnitSetup | None:
    start = len(problems)
    if unit.primary not in pack.weapons:
        problems.append(f"{where}.primary: unknown firearm {unit.primary!r} "
                        f"(known: {_known(pack.weapons)})")
    weapons = [unit.primary]
    explosives = {k: int(v) for k, v in pack.kit.items()
                  if k in pack.explosives and not isinstance(v, bool)}
    if unit.grenades is not None:
        explosives["hand-grenade"] = unit.grenades
    if unit.secondary is not None:
        ex = pack.explosives.get(unit.secondary)
        if ex is not None and ex.secondary:
            explosives[unit.secondary] = explosives.get(unit.secondary, 0) + ex.ammo
        elif unit.secondary in pack.weapons:
            weapons.append(unit.secondary)
        else:
            problems.append(f"{where}.secondary: {unit.secondary!r} is neither a firearm nor "
                            f"an explosive carried as a secondary weapon (firearms: "
                            f"{_known(pack.weapons)})")
    kit_melee = [k for k, v in pack.kit.items() if k in pack.melee and v is True]
    for i, m in enumerate(unit.melee):
        if m not in pack.melee or pack.melee[m].fists:
            problems.append(f"{where}.melee[{i}]: unknown melee weapon {m!r} (known: "
                            f"{', '.join(k for k in sorted(pack.melee) if k != 'fists')})")
    for m in (*kit_melee, *unit.melee):
        if m not in weapons and m in pack.melee:
            weapons.append(m)
    for field_name, table in (("armor", pack.armor), ("experience", pack.experience),
                              ("card", pack.cards)):
        if getattr(unit, field_name) not in table:
            problems.append(f"{where}.{field_name}: unknown {field_name} "
                            f"{getattr(unit, field_name)!r} (known: {_known(table)})")
    active = unit.active or unit.primary
    if active not in weapons and explosives.get(active, 0) <= 0:
        problems.append(f"{where}.active: {active!r} is not a weapon it carries "
                        f"({', '.join(weapons + [k for k, n in explosives.items() if n])})")
    marks = unit.marks or "." * len(CELLS)
    if unit.marks is not None and current_hp(marks) == 0:
        problems.append(f"{where}.marks: {marks!r} leaves it at 0 HP; a trooper out of action "
                        "is left out of the scenario")
    place: DotPlace | None = None
    try:
        if unit.at is not None:
            level = 0 if unit.level is None else lattice.level_index(unit.level)
            place = lattice.locate(f"{unit.at[0]},{unit.at[1]}@{level}" if level
                                   else f"{unit.at[0]},{unit.at[1]}")
        elif uid in lattice.troopers:
            place = lattice.locate(uid)
            if unit.level is not None and lattice.level_index(unit.level) != place.level:
                problems.append(f"{where}.level: {uid} is drawn on level {place.level} of "
                                "the map; give 'at' to place it elsewhere")
        else:
            problems.append(f"{where}: not on the map: draw {uid!r} in map.levels or give "
                            "'at: [col, row]'")
    except TacticaError as exc:
        problems.append(f"{where}.at: {exc}")
    arc: tuple[int, int | float | None, str | None] | None = None
    if unit.arc is not None:
        if (unit.arc.bearing is None) == (unit.arc.toward is None):
            problems.append(f"{where}.arc: give either bearing (degrees) or toward [col, row]")
        elif active not in pack.weapons:
            problems.append(f"{where}.arc: a firing arc needs a firearm active, not "
                            f"{active!r}")
        elif unit.arc.toward is not None:
            c, r = unit.arc.toward
            try:
                lattice.locate(f"{c},{r}")
            except TacticaError as exc:
                problems.append(f"{where}.arc.toward: {exc}")
            arc = (unit.arc.width, None, f"{c},{r}")
        else:
            bearing = unit.arc.bearing
            arc = (unit.arc.width, None if bearing is None else bearing_value(bearing), None)
    if len(problems) > start or place is None:
        return None
    armor = pack.armor[unit.armor]
    left = armor.cells if unit.armor_left is None else unit.armor_left
    if left > armor.cells:
        problems.append(f"{where}.armor_left: {left} is more than the {armor.cells} cells of "
                        f"{armor.name}")
        return None
    return UnitSetup(uid, unit.side, pack.cards[unit.card], armor,
                     pack.experience[unit.experience], tuple(weapons),
                     tuple(sorted(explosives.items())), active, marks, left, place,
                     unit.prone, arc)


def build_setup(data: Mapping[str, Any], *, source: str, lattice: DotLattice,
                base_dir: Path) -> SkirmishersSetup:
    """Validate the troopers of a scenario against the content packs and the map."""
    problems = [f"{source}: {k}: unknown field" for k in sorted(
        set(data) - _COMMON - set(SetupFields.model_fields) - {"units"})]
    fields = {k: v for k, v in data.items() if k in SetupFields.model_fields}
    try:
        model = validate(SetupFields, fields, source=source, error=ScenarioError)
    except TacticaError as exc:
        problems.append(str(exc))
        model = SetupFields()
    pack = builtin_pack()
    try:
        pack = PACKS.load([base_dir / rel for rel in model.content])
    except TacticaError as exc:
        problems.append(f"{source}: content: {exc}")
    raw = data.get("units")
    models: dict[str, UnitModel] = {}
    if raw is None:
        problems.append(f"{source}: units: field required (a mapping of trooper id to trooper)")
    elif not isinstance(raw, Mapping) or len(raw) < 2:
        problems.append(f"{source}: units: expected a mapping of at least two troopers "
                        "(id: {side: ..., primary: rifle})")
    else:
        for uid, item in raw.items():
            if not isinstance(uid, str):
                problems.append(f"{source}: units: trooper id {uid!r}: expected a string "
                                f"(quote it: '{uid}')")
                continue
            try:
                models[uid] = validate(UnitModel, item, source=source, error=ScenarioError,
                                       prefix=("units", uid))
            except TacticaError as exc:
                problems.append(str(exc))
    units: list[UnitSetup] = []
    taken: dict[DotPlace, str] = {}
    for uid, unit in models.items():
        where = f"{source}: units.{uid}"
        built = _unit(uid, unit, pack, lattice, where, problems)
        if built is None:
            continue
        if built.place in taken:
            problems.append(f"{where}: shares dot {built.place} with {taken[built.place]} "
                            "(one trooper per dot per level, SKI-23)")
            continue
        taken[built.place] = uid
        units.append(built)
    for oid in lattice.troopers:
        if oid not in models and isinstance(raw, Mapping):
            problems.append(f"{source}: map: trooper {oid!r} drawn on the map has no entry in "
                            "units")
    seen = list(dict.fromkeys(u.side for u in models.values()))
    sides = tuple(model.sides or seen)
    for s in seen:
        if s not in sides:
            problems.append(f"{source}: sides: side {s!r} of a trooper is not listed")
    if len(sides) < 2 and models and len(models) == len(raw or {}):
        problems.append(f"{source}: units: need troopers on at least two sides, got "
                        f"{list(sides)}")
    squads: dict[str, Squad] = {}
    for side, sq in model.squads.items():
        where = f"{source}: squads.{side}"
        if side not in sides:
            problems.append(f"{where}: no side {side!r} (sides: {', '.join(sides)})")
        if sq.skill not in pack.experience:
            problems.append(f"{where}.skill: unknown skill {sq.skill!r} "
                            f"(known: {_known(pack.experience)})")
            continue
        if sq.leader is not None and (sq.leader not in models
                                      or models[sq.leader].side != side):
            problems.append(f"{where}.leader: {sq.leader!r} is not a trooper of side {side}")
        squads[side] = Squad(pack.experience[sq.skill], sq.leader, sq.leadership)
    for side in sides:
        squads.setdefault(side, Squad(pack.experience["regular"], None, 2))
    if model.first is not None and model.first not in sides:
        problems.append(f"{source}: first: {model.first!r} is not a side ({', '.join(sides)})")
    if problems:
        raise ScenarioError("\n".join(problems))
    return SkirmishersSetup(tuple(units), sides, pack, frozenset(model.optional), squads,
                            model.first)


def scenario_setup(data: Mapping[str, Any], *, source: str, battlefield: Battlefield | None,
                   rulings: Rulings, base_dir: Path) -> SkirmishersSetup:
    """The game's part of a scenario, on a lattice of at most :data:`MAX_DOTS_SIDE` dots."""
    if not isinstance(battlefield, DotLattice):
        raise ScenarioError(f"{source}: map: Skirmishers is played on a dots map")
    if battlefield.cols > MAX_DOTS_SIDE or battlefield.rows > MAX_DOTS_SIDE:
        raise ScenarioError(
            f"{source}: map: a lattice of {battlefield.cols} x {battlefield.rows} dots; "
            f"Skirmishers is played on at most {MAX_DOTS_SIDE} x {MAX_DOTS_SIDE} (the work "
            "of a battle grows with the map: see docs/limits.md)")
    return build_setup(data, source=source, lattice=battlefield, base_dir=base_dir)
