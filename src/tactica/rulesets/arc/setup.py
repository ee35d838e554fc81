"""The Arc part of a scenario: who is who, the ranges or the grid, and a fresh battle state.

::

    game: arc
    surprise: red                 # optional: the side with the element of surprise
    content: [my-pack.yaml]       # optional: more content packs
    ranges:                       # optional, without a map: metres between two combatants
      - {between: [Foo, Bar], metres: 30}
    rough: ["3,2", "4,2"]         # optional, on a grid: rough squares (+1 AP to enter)
    units:
      Foo:
        side: red
        character: francis        # optional: a character of the content packs
        attributes: {AGI: 3, DEX: 8, CON: 8}
        skills: {guns: 16, evade: 12}
        health: 18
        armor: [{die: d6, against: [ballistic]}, light-vest]
        weapons: [pistol, {name: rifle, damage: 3d6, spread: 4, rof: 3, accuracy: [0, 0]}]
        items: {medhypo: 1}

Skills not given come from the attributes (Small Guns DEX x 2, Big Guns DEX + CON, Melee
DEX + AGI, Evade AGI x 2); ``guns`` stands for both gun skills. Health is 10 + CON, speed comes
from AGI, initiative rolls against AGI x 2 (``initiative: {swap: DEX}`` rolls AGI + DEX). A unit
without AGI takes half its Evade; without CON, its health less 10.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.base import Battlefield
from tactica.battlefield.grid.tiles import Tile, TileGrid
from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.rulings import Rulings
from tactica.engine.validation import format_location, validate
from tactica.rulesets.arc.checks import parse_score, speed_of
from tactica.rulesets.arc.content import (
    MAX_METRES,
    ArmorDie,
    ArmorDieModel,
    CharacterModel,
    Pack,
    Weapon,
    WeaponModel,
    armor_dice,
    load_pack,
    weapon_from_model,
)
from tactica.rulesets.arc.state import ArcState, Fighter, Profile

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["ArcSetup", "UnitModel", "build_setup", "new_state", "start"]

_COMMON = {"game", "name", "description", "rulings", "map", "max_rounds", "seed"}


class UnitModel(CharacterModel):
    """A scenario unit: a side, optionally a character of the packs, and overrides."""

    side: str
    character: str | None = None


class RangeModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    between: tuple[str, str]
    metres: float = Field(gt=0, le=MAX_METRES)


class SetupModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    units: dict[str, UnitModel] = Field(min_length=2)
    content: list[str] = Field(default_factory=list)
    ranges: list[RangeModel] = Field(default_factory=list)
    rough: list[str] = Field(default_factory=list)
    surprise: str | None = None


@dataclass(frozen=True, eq=False)
class ArcSetup:
    """The validated Arc part of a scenario."""

    profiles: tuple[Profile, ...]
    items: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    sides: tuple[str, ...]
    pack: Pack
    ranges: Mapping[frozenset[str], Fraction]
    rough: frozenset[Tile]
    surprise: str | None
    grid: TileGrid | None


def _merged(unit: UnitModel, template: CharacterModel | None) -> dict[str, Any]:
    """The unit's fields over its character's."""
    out: dict[str, Any] = {}
    base = template.model_dump() if template is not None else {}
    given = unit.model_dump()
    for key in CharacterModel.model_fields:
        if key in ("attributes", "skills", "focuses"):
            out[key] = {**base.get(key, {}), **given[key]}
        elif key in unit.model_fields_set or template is None:
            out[key] = given[key]
        else:
            out[key] = base.get(key)
    out["name"] = unit.name or (template.name if template is not None else "")
    return out


def _weapons(where: str, entries: list[Any], pack: Pack, problems: list[str],
             source: str) -> tuple[Weapon, ...]:
    out: list[Weapon] = []
    for i, entry in enumerate(entries):
        here = f"{where}.weapons[{i}]"
        if isinstance(entry, str):
            model = pack.guns.get(entry)
            if model is None:
                problems.append(f"{source}: {here}: unknown weapon {entry!r} (known: "
                                f"{', '.join(sorted(pack.guns))}; or give one inline with "
                                "name, damage, spread and rof)")
                continue
        else:
            try:
                model = validate(WeaponModel, entry, source=source, error=ScenarioError,
                                 prefix=_loc(here))
            except TacticaError as exc:
                problems.append(str(exc))
                continue
        try:
            weapon = weapon_from_model(model, pack)
        except ValueError as exc:
            problems.append(f"{source}: {here}: {exc}")
            continue
        names = {w.name for w in out}
        if weapon.name in names:
            n = 2
            while f"{weapon.name} {n}" in names:
                n += 1
            weapon = replace(weapon, name=f"{weapon.name} {n}")
        out.append(weapon)
    return tuple(out)


def _loc(where: str) -> tuple[int | str, ...]:
    """``units.ID.weapons[2]`` as a location (the unit's id may hold dots and brackets)."""
    found = re.fullmatch(r"units\.(.*)\.(\w+)\[(\d+)\]", where, flags=re.S)
    if found is None:
        return (where,)
    return ("units", found.group(1), found.group(2), int(found.group(3)))


def _armor(where: str, entries: list[Any], pack: Pack, problems: list[str],
           source: str) -> tuple[ArmorDie, ...]:
    out: list[ArmorDie] = []
    for i, entry in enumerate(entries):
        here = f"{where}.armor[{i}]"
        if isinstance(entry, str):
            piece = pack.armor.get(entry)
            if piece is None:
                problems.append(f"{source}: {here}: unknown armor {entry!r} (known: "
                                f"{', '.join(sorted(pack.armor))}; or give a die inline like "
                                "{die: d6, against: [ballistic]})")
                continue
            out.extend(armor_dice(d, piece.name) for d in piece.dice)
        else:
            try:
                model = validate(ArmorDieModel, entry, source=source, error=ScenarioError,
                                 prefix=_loc(here))
            except TacticaError as exc:
                problems.append(str(exc))
                continue
            out.append(armor_dice(model))
    return tuple(out)


def _profile(uid: str, unit: UnitModel, pack: Pack, problems: list[str],
             source: str) -> tuple[Profile, tuple[tuple[str, int], ...]] | None:
    where = f"units.{uid}"
    template = None
    if unit.character is not None:
        template = pack.characters.get(unit.character)
        if template is None:
            problems.append(f"{source}: {where}.character: unknown character "
                            f"{unit.character!r} (known: {', '.join(sorted(pack.characters))})")
            return None
    data = _merged(unit, template)
    attrs: dict[str, int] = data["attributes"]
    skills: dict[str, int] = dict(data["skills"])
    start = len(problems)
    agi = attrs.get("AGI", skills.get("evade", 0) // 2)
    if "CON" in attrs:
        con = attrs["CON"]
    elif data["health"] is not None:
        con = max(0, data["health"] - 10)
    else:
        problems.append(f"{source}: {where}: give health or attributes.CON (health is 10 + CON)")
        con = 0
    dex = attrs.get("DEX")
    if dex is not None:
        skills.setdefault("small_guns", skills.get("guns", 2 * dex))
        skills.setdefault("big_guns", skills.get("guns", dex + con))
        skills.setdefault("melee", dex + agi)
    if "AGI" in attrs:
        skills.setdefault("evade", 2 * agi)
    health = data["health"] if data["health"] is not None else 10 + con
    speed = parse_score(data["speed"]) if data["speed"] is not None else speed_of(agi)
    initiative = 2 * agi
    swapped = "AGI"
    init = data["initiative"]
    if init is not None and init.get("target") is not None:
        initiative = init["target"]
    elif init is not None and init.get("swap") is not None:
        swap = init["swap"]
        if swap not in attrs:
            problems.append(f"{source}: {where}.initiative.swap: no attribute {swap!r} "
                            f"(attributes: {', '.join(attrs) or 'none'})")
        initiative = agi + attrs.get(swap, 0)
        swapped = swap
    weapons = _weapons(where, data["weapons"], pack, problems, source)
    armor = _armor(where, data["armor"], pack, problems, source)
    items = data["items"] or {}
    for name, count in items.items():
        if name not in pack.items:
            problems.append(f"{source}: {where}.items.{name}: unknown item (known: "
                            f"{', '.join(sorted(pack.items))})")
        elif count < 0:
            problems.append(f"{source}: {where}.items.{name}: expected a count of 0 or more, "
                            f"got {count}")
    for i, w in enumerate(weapons):
        if not (w.skill in skills or (w.skill != "melee" and "guns" in skills)):
            hint = ("skills.melee or attributes DEX" if w.skill == "melee"
                    else f"skills.guns, skills.{w.skill} or attributes DEX")
            problems.append(f"{source}: {where}.weapons[{i}]: no skill for the {w.name} "
                            f"({w.skill.replace('_', ' ')}): give {hint}")
    if len(problems) > start:
        return None
    profile = Profile(uid, unit.side, data["name"] or uid, tuple(sorted(skills.items())),
                      tuple(sorted(data["focuses"].items())), agi, con, health, speed,
                      initiative, weapons, armor, swapped)
    return profile, tuple(sorted(items.items()))


def _tile(text: str) -> Tile:
    x, _, y = text.partition(",")
    return (int(x), int(y))


def build_setup(data: Mapping[str, Any], *, source: str, battlefield: Battlefield | None,
                base_dir: Path, rulings: Rulings | None = None) -> ArcSetup:
    """Validate the Arc part of a scenario; every problem is reported at once."""
    game_part = {k: v for k, v in data.items() if k in SetupModel.model_fields}
    problems = [f"{source}: {k}: unknown field (Arc scenarios have "
                f"{', '.join(sorted(SetupModel.model_fields))})"
                for k in sorted(set(data) - set(SetupModel.model_fields) - _COMMON)]
    try:
        model = validate(SetupModel, game_part, source=source, error=ScenarioError)
    except TacticaError as exc:
        raise ScenarioError("\n".join([*problems, str(exc)])) from None
    try:
        pack = load_pack(tuple(base_dir / p for p in model.content))
    except TacticaError as exc:
        raise ScenarioError("\n".join([*problems, f"{source}: content: {exc}"])) from None
    grid = battlefield if isinstance(battlefield, TileGrid) else None
    profiles: list[Profile] = []
    items: list[tuple[str, tuple[tuple[str, int], ...]]] = []
    for uid, unit in model.units.items():
        built = _profile(uid, unit, pack, problems, source)
        if built is not None:
            profiles.append(built[0])
            items.append((uid, built[1]))
        if grid is not None and uid not in grid.occupants:
            problems.append(f"{source}: units.{uid}: not on the map: put the letter {uid!r} "
                            "on a square of map.tiles (on a grid, unit ids are one letter or "
                            "digit)")
    if grid is not None:
        for oid in grid.occupants:
            if oid not in model.units:
                problems.append(f"{source}: map.tiles: {oid!r} stands on the map but has no "
                                "entry in units")
    sides = tuple(dict.fromkeys(u.side for u in model.units.values()))
    if len(sides) < 2:
        problems.append(f"{source}: units: expected at least two sides, got "
                        f"{', '.join(sides) or 'none'}")
    if model.surprise is not None and model.surprise not in sides:
        problems.append(f"{source}: surprise: {model.surprise!r} is not a side "
                        f"({', '.join(sides)})")
    ranges: dict[frozenset[str], Fraction] = {}
    for i, rng in enumerate(model.ranges):
        for who in rng.between:
            if who not in model.units:
                problems.append(f"{source}: ranges[{i}].between: no unit {who!r}")
        if rng.between[0] == rng.between[1]:
            problems.append(f"{source}: ranges[{i}].between: two different units, please")
        if grid is not None:
            problems.append(f"{source}: ranges[{i}]: on a map the ranges come from the squares"
                            "; leave 'ranges' out")
            break
        ranges[frozenset(rng.between)] = Fraction(str(rng.metres))
    rough: set[Tile] = set()
    for i, text in enumerate(model.rough):
        if grid is None:
            problems.append(f"{source}: rough: rough terrain needs a grid map")
            break
        try:
            tile = _tile(text)
        except ValueError:
            problems.append(f"{source}: rough[{i}]: expected a square like '3,4', got {text!r}")
            continue
        if not grid.in_bounds(tile) or grid.is_blocking(tile):
            problems.append(f"{source}: rough[{i}]: {text!r} is not an open square of the map")
        rough.add(tile)
    if problems:
        raise ScenarioError("\n".join(problems))
    if grid is not None:
        grid = grid.with_sides({p.id: p.side for p in profiles})
    return ArcSetup(tuple(profiles), tuple(items), sides, pack, ranges, frozenset(rough),
                 model.surprise, grid)


def new_state(setup: ArcSetup, rulings: Rulings, max_rounds: int) -> ArcState:
    """A fresh battle: everyone at full health with its armor, guns loaded to the full (a die
    capacity is rolled as the battle starts, ARC-23), round 0, before initiative."""
    items = dict(setup.items)
    fighters: dict[str, Fighter] = {}
    for p in setup.profiles:
        fighters[p.id] = Fighter(
            profile=p, health=p.max_health, armor=tuple(a.size for a in p.armor),
            hand=p.weapons[0].name if p.weapons else "",
            rounds=tuple(w.full for w in p.weapons), items=items[p.id],
            at=setup.grid.occupants[p.id] if setup.grid is not None else None,
        )
    return ArcState(rulings, fighters, setup.sides, setup.pack.items, max_rounds,
                    setup.grid, setup.ranges, setup.rough, setup.surprise)


def start(scenario: Scenario) -> ArcState:
    """A fresh battle of ``scenario`` (see :func:`new_state`)."""
    assert isinstance(scenario.setup, ArcSetup)
    return new_state(scenario.setup, scenario.rulings, scenario.max_rounds)


def describe_loc(loc: tuple[int | str, ...]) -> str:
    """A field path for messages."""
    return format_location(loc)
