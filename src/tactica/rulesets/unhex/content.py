"""Unhex content: items, character profiles, and the units of a scenario.

The rulebook gives weapons no statistics beyond their reach: melee (range 0), one-handed ranged
(range 0-1) and two-handed ranged (range 1 or more, in sight). The built-in pack
(``content.yaml`` beside this file) names a few items in each band and a first aid kit; it is
tactica's illustrative content. A scenario may add packs with ``content: [pack.yaml]`` and give
any unit its own items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tactica.engine.content import ContentLoader, check_references
from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.limits import MAX_UNITS
from tactica.engine.validation import validate, validate_units
from tactica.rulesets.unhex.body import BOXES, LOCATIONS, Marks

__all__ = [
    "BUILTIN_PACK",
    "GOOD_AT",
    "PACKS",
    "ContentPack",
    "Item",
    "Objective",
    "UnhexSetup",
    "UnitSetup",
    "build_setup",
    "builtin_pack",
    "load_pack",
]

BUILTIN_PACK = Path(__file__).with_name("content.yaml")
#: The rolls a character can be *good* at (re-roll one or both dice once).
GOOD_AT: tuple[str, ...] = ("attack", "defend", "initiative", "first-aid")
SLOTS = 5

ItemKind = Literal["melee", "ranged", "first-aid", "shield", "gear"]


@dataclass(frozen=True)
class Item:
    """An item: what it is for and how many hands it takes."""

    name: str
    kind: ItemKind
    hands: int = 1
    ammo: bool = False

    @property
    def is_shield(self) -> bool:
        """A shield: its holder picks the damage die (UNH-25), as cover would."""
        return self.kind == "shield"

    @property
    def uses_ammo(self) -> bool:
        """A ranged weapon that uses ammunition (marked off at the end of combat)."""
        return self.kind == "ranged" and self.ammo

    @property
    def is_weapon(self) -> bool:
        """Melee or ranged."""
        return self.kind in ("melee", "ranged")

    @property
    def is_ranged(self) -> bool:
        """A ranged weapon (needs line of sight)."""
        return self.kind == "ranged"

    def reaches(self, distance: int | None, visible: bool) -> bool:
        """Whether the weapon reaches a target ``distance`` away (``None``: unreachable)."""
        if distance is None or not self.is_weapon:
            return False
        if self.kind == "melee":
            return distance == 0
        if not visible:
            return False
        return distance <= 1 if self.hands == 1 else distance >= 1

    def band(self) -> str:
        """The seed's range band in words."""
        if self.kind == "melee":
            return "melee, range 0"
        if self.kind == "ranged":
            return ("one-handed ranged, range 0-1" if self.hands == 1
                    else "two-handed ranged, range 1 or more")
        if self.kind == "shield":
            return "a shield (its holder picks the damage die, UNH-25)"
        return self.kind


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ItemModel(_Strict):
    kind: ItemKind
    hands: int = Field(default=1, ge=1, le=2)
    ammo: bool | None = Field(default=None, description="uses ammunition (default: ranged "
                                                          "weapons do)")


class ProfileModel(_Strict):
    level: int = Field(default=50, ge=1, le=99)
    max_level: int | None = Field(default=None, ge=1, le=99)
    items: list[str] = Field(default_factory=list)
    hold: list[str] = Field(default_factory=list)
    good: list[Literal["attack", "defend", "initiative", "first-aid"]] = Field(
        default_factory=list)


class PackModel(_Strict):
    illustrative: bool = False
    items: dict[str, ItemModel] = Field(default_factory=dict)
    profiles: dict[str, ProfileModel] = Field(default_factory=dict)


class UnitModel(_Strict):
    side: str = Field(min_length=1)
    at: str = Field(min_length=1)
    profile: str | None = None
    level: int | None = Field(default=None, ge=1, le=99)
    max_level: int | None = Field(default=None, ge=1, le=99)
    items: list[str] | None = None
    hold: list[str] | None = None
    good: list[Literal["attack", "defend", "initiative", "first-aid"]] | None = None
    ammo: dict[str, Annotated[int, Field(ge=0, le=999)]] = Field(
        default_factory=dict,
        description="ammunition carried per ranged weapon (counted only when given)")
    marks: dict[str, str] = Field(
        default_factory=dict,
        description="a fight under way: marks per location as on the card, '#' permanent, "
                    "'X', '\\\\' (e.g. {torso: 'X\\\\'})")


class ObjectiveModel(_Strict):
    side: str
    reach: str | None = Field(default=None, description="an area to reach")
    use: str | None = Field(default=None, description="a fixture to use (one character)")
    count: int = Field(default=1, ge=1, le=MAX_UNITS)


class SetupModel(BaseModel):
    """The Unhex fields of a scenario but ``units`` (each unit is validated on its own)."""

    model_config = ConfigDict(extra="forbid")
    content: list[str] = Field(default_factory=list)
    sides: list[str] | None = None
    pcs: list[str] = Field(default_factory=list)
    exits: list[str] = Field(default_factory=list)
    objectives: list[ObjectiveModel] = Field(default_factory=list)
    fixtures: dict[str, list[str]] = Field(
        default_factory=dict, description="items attached to an area (a lever, a terminal), "
                                          "used for one action")


@dataclass(frozen=True)
class ContentPack:
    """Items and profiles by name; ``illustrative`` marks content that is not official."""

    items: Mapping[str, Item]
    profiles: Mapping[str, ProfileModel]
    illustrative: bool
    source: str


def _build(files: Sequence[tuple[str, PackModel]]) -> ContentPack:
    """The packs merged in order (later ones win); profiles may use any pack's items."""
    items: dict[str, Item] = {}
    profiles: dict[str, tuple[str, ProfileModel]] = {}
    for source, model in files:
        items.update({name: Item(name, m.kind, m.hands,
                                 m.ammo if m.ammo is not None else m.kind == "ranged")
                      for name, m in model.items.items()})
        profiles.update({name: (source, pm) for name, pm in model.profiles.items()})
    check_references(profiles, items, fields=("items", "hold"), what="item")
    return ContentPack(items, {k: pm for k, (_, pm) in profiles.items()},
                       any(m.illustrative for _, m in files), ", ".join(s for s, _ in files))


#: The game's content packs: the built-in one, then a scenario's own.
PACKS = ContentLoader(PackModel, _build, builtin=(BUILTIN_PACK,))


#: One content pack file on its own, validated; the built-in pack (loaded once).
load_pack = PACKS.load_one
builtin_pack = PACKS.load


@dataclass(frozen=True)
class UnitSetup:
    """One character as the scenario sets it up; ``right``/``left`` are the items in hand."""

    id: str
    side: str
    area: str
    level: int
    max_level: int
    items: tuple[str, ...]
    right: str | None
    left: str | None
    good: frozenset[str]
    marks: tuple[tuple[str, Marks], ...] = ()
    ammo: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Objective:
    """``side`` wins as soon as ``count`` of its characters in the fight stand in ``reach``,
    or (``use``) as soon as one of them has used that fixture."""

    side: str
    reach: str | None
    count: int = 1
    use: str | None = None


@dataclass(frozen=True)
class UnhexSetup:
    """The validated Unhex part of a scenario."""

    units: tuple[UnitSetup, ...]
    sides: tuple[str, ...]
    pcs: frozenset[str]
    exits: frozenset[str]
    objectives: tuple[Objective, ...]
    pack: ContentPack
    fixtures: tuple[tuple[str, str], ...] = ()


def _hands(hold: Sequence[str], items: Mapping[str, Item], where: str,
           problems: list[str]) -> tuple[str | None, str | None]:
    """Right and left hand from a ``hold`` list: a two-handed item takes both hands."""
    right: str | None = None
    left: str | None = None
    for name in hold:
        item = items.get(name)
        if item is None:
            continue
        if item.hands == 2:
            if right is not None or left is not None:
                problems.append(f"{where}.hold: {name!r} takes both hands, which are not free")
                return right, left
            right = left = name
        elif right is None:
            right = name
        elif left is None:
            left = name
        else:
            problems.append(f"{where}.hold: more than two hands' worth of items: {list(hold)}")
            return right, left
    return right, left


def _marks(unit: UnitModel, boxes: tuple[int, ...], where: str,
           problems: list[str]) -> tuple[tuple[str, Marks], ...]:
    """The marks of a character already wounded, checked against its boxes."""
    out: list[tuple[str, Marks]] = []
    for location, drawn in unit.marks.items():
        if location not in LOCATIONS:
            problems.append(f"{where}.marks: unknown location {location!r} (locations: "
                            f"{', '.join(LOCATIONS)})")
            continue
        bad = sorted(set(drawn) - set("#X\\."))
        if bad:
            problems.append(f"{where}.marks.{location}: {drawn!r} holds {''.join(bad)!r}; "
                            "draw '#' permanent, 'X', '\\' or '.' for an empty box")
            continue
        marks = Marks(drawn.count("\\"), drawn.count("X"), drawn.count("#"))
        room = boxes[LOCATIONS.index(location)]
        if marks.total > room:
            problems.append(f"{where}.marks.{location}: {marks.total} marks, but the "
                            f"{location} has {room} boxes")
            continue
        out.append((location, marks))
    return tuple(out)


def _unit(uid: str, unit: UnitModel, pack: ContentPack, areas: Sequence[str], source: str,
          slots_rule: str, problems: list[str],
          boxes: tuple[int, ...] = BOXES) -> UnitSetup | None:
    where = f"{source}: units.{uid}"
    profile = None
    if unit.profile is not None:
        profile = pack.profiles.get(unit.profile)
        if profile is None:
            problems.append(f"{where}.profile: unknown profile {unit.profile!r} "
                            f"(known: {', '.join(sorted(pack.profiles))})")
            return None
    level = unit.level if unit.level is not None else (profile.level if profile else 50)
    max_level = unit.max_level if unit.max_level is not None else (
        profile.max_level if profile and profile.max_level is not None else level)
    if max_level < level:
        problems.append(f"{where}.max_level: {max_level} is below the level {level}")
    items = list(unit.items if unit.items is not None else (profile.items if profile else []))
    hold = list(unit.hold if unit.hold is not None else (profile.hold if profile else []))
    good = unit.good if unit.good is not None else (profile.good if profile else [])
    for i, name in enumerate(items):
        if name not in pack.items:
            problems.append(f"{where}.items[{i}]: unknown item {name!r} "
                            f"(known: {', '.join(sorted(pack.items))})")
    if len(set(items)) != len(items):
        problems.append(f"{where}.items: an item is listed twice: {items}")
    for i, name in enumerate(hold):
        if name not in items:
            problems.append(f"{where}.hold[{i}]: {name!r} is not one of its items {items}")
    right, left = _hands(hold, pack.items, where, problems)
    in_hand = {h for h in (right, left) if h}
    used = len(items) if slots_rule == "all" else len(set(items) - in_hand)
    if used > SLOTS:
        problems.append(f"{where}.items: {used} items need slots, only {SLOTS} (UNH-19 "
                        f"{slots_rule})")
    if unit.at not in areas:
        problems.append(f"{where}.at: unknown area {unit.at!r} (areas: {', '.join(areas)})")
    for name in unit.ammo:
        item = pack.items.get(name)
        if name not in items or item is None or not item.uses_ammo:
            problems.append(f"{where}.ammo.{name}: not a ranged weapon it carries that uses "
                            "ammunition")
    return UnitSetup(uid, unit.side, unit.at, level, max_level, tuple(items), right, left,
                     frozenset(good), _marks(unit, boxes, where, problems),
                     tuple(unit.ammo.items()))


def build_setup(data: Mapping[str, Any], *, source: str, areas: Sequence[str],
                base_dir: Path, slots_rule: str = "all",
                boxes: tuple[int, ...] = BOXES) -> UnhexSetup:
    """Validate the characters of a scenario against the content packs and the map."""
    common = {"game", "name", "description", "rulings", "map", "max_rounds", "seed", "units"}
    game_part = {k: v for k, v in data.items() if k in SetupModel.model_fields}
    problems = [f"{source}: {k}: unknown field"
                for k in sorted(set(data) - set(SetupModel.model_fields) - common, key=str)]
    try:
        model = validate(SetupModel, game_part, source=source, error=ScenarioError)
    except TacticaError as exc:
        problems.append(str(exc))
        model = SetupModel()
    unit_models = validate_units(UnitModel, dict(data), source=source, problems=problems,
                                 error=ScenarioError, what="characters")
    pack = builtin_pack()
    try:
        pack = PACKS.load([base_dir / rel for rel in model.content])
    except TacticaError as exc:
        problems.append(f"{source}: content: {exc}")
    units = [u for uid, unit in unit_models.items()
             if (u := _unit(uid, unit, pack, areas, source, slots_rule, problems, boxes))
             is not None]
    seen = list(dict.fromkeys(u.side for u in unit_models.values()))
    sides = tuple(model.sides or seen)
    for s in seen:
        if s not in sides:
            problems.append(f"{source}: sides: side {s!r} of a unit is not listed")
    if len(sides) < 2 and len(unit_models) >= 2:
        problems.append(f"{source}: units: need characters on at least two sides, got "
                        f"{list(sides)}")
    for i, s in enumerate(model.pcs):
        if s not in sides:
            problems.append(f"{source}: pcs[{i}]: {s!r} is not a side ({', '.join(sides)})")
    for i, area in enumerate(model.exits):
        if area not in areas:
            problems.append(f"{source}: exits[{i}]: unknown area {area!r}")
    fixtures = tuple((area, name) for area, names in model.fixtures.items() for name in names)
    for area in model.fixtures:
        if area not in areas:
            problems.append(f"{source}: fixtures: unknown area {area!r}")
    for i, ob in enumerate(model.objectives):
        if ob.side not in sides:
            problems.append(f"{source}: objectives[{i}].side: {ob.side!r} is not a side")
        if (ob.reach is None) == (ob.use is None):
            problems.append(f"{source}: objectives[{i}]: give one of 'reach' (an area) or "
                            "'use' (a fixture)")
        elif ob.reach is not None and ob.reach not in areas:
            problems.append(f"{source}: objectives[{i}].reach: unknown area {ob.reach!r}")
        elif ob.use is not None and ob.use not in {n for _, n in fixtures}:
            problems.append(f"{source}: objectives[{i}].use: no fixture {ob.use!r}")
    if problems:
        raise ScenarioError("\n".join(problems))
    return UnhexSetup(tuple(units), sides, frozenset(model.pcs), frozenset(model.exits),
                 tuple(Objective(o.side, o.reach, o.count, o.use) for o in model.objectives),
                 pack, fixtures)
