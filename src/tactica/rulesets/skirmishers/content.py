"""The Skirmishers content pack: firearms, melee weapons, explosives, body armor, the trooper
card and experience, as data (``content.yaml`` beside this file, the rulebook's figures).

A scenario may add its own packs (``content: [my-pack.yaml]``); later packs win on equal names.
Every problem names the file and the field.

>>> pack = builtin_pack()
>>> pack.weapons["rifle"].lethal, pack.weapons["smg"].shots, pack.armor["standard"].cells
(4, 3, 4)
>>> pack.cards["regular"].max_ap(5), pack.cards["regular"].modifier(5)
(7, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tactica.engine.content import ContentLoader
from tactica.engine.errors import ContentError

__all__ = [
    "BUILTIN_PACK",
    "PACKS",
    "Armor",
    "Card",
    "ContentPack",
    "Experience",
    "Explosive",
    "Firearm",
    "MeleeWeapon",
    "builtin_pack",
]

BUILTIN_PACK = Path(__file__).with_name("content.yaml")

HP_LABELS = tuple(range(10, 0, -1))


@dataclass(frozen=True)
class Firearm:
    """A ranged weapon: lethal and bludgeoning damage, the arc multiplier, ranges in dots."""

    key: str
    name: str
    lethal: int
    bludgeoning: int
    shots: int
    short: int
    long: int
    points: int
    bayonet: bool


@dataclass(frozen=True)
class MeleeWeapon:
    """A melee weapon (5 AP, range 1); ``fists``: bludgeoning is half the maximum AP."""

    key: str
    name: str
    lethal: int
    bludgeoning: int
    fists: bool


@dataclass(frozen=True)
class Explosive:
    """A thrown explosive: damage per ring (centre, 1 dot, 2 dots), AP per dot thrown, the AP
    of a throw down (or up) a stairwell, the ammunition a trooper carries."""

    key: str
    name: str
    rings: tuple[int, ...]
    ap_per_dot: int
    stairwell_ap: int
    ammo: int
    points: int
    secondary: bool


@dataclass(frozen=True)
class Armor:
    """Body armor: its coverage cells and its change to every AP value."""

    key: str
    name: str
    cells: int
    ap: int


@dataclass(frozen=True)
class Experience:
    """A skill level: its change to every AP value and its morale target number."""

    key: str
    ap: int
    morale: int


@dataclass(frozen=True)
class Card:
    """A unit card: the maximum AP at full health and, per current HP, the AP change and the
    target number modifier of the trooper's attacks."""

    key: str
    name: str
    ap: int
    ap_change: tuple[int, ...]
    modifiers: tuple[int, ...]

    def max_ap(self, hp: int, change: int = 0) -> int:
        """The maximum AP at ``hp`` with the other changes (armor, experience); 0 at 0 HP."""
        if hp <= 0:
            return 0
        return max(0, self.ap + self.ap_change[10 - hp] + change)

    def modifier(self, hp: int) -> int:
        """The target number modifier of the trooper's attacks at ``hp`` (0 at 0 HP)."""
        return self.modifiers[10 - hp] if hp > 0 else 0


# --------------------------------------------------------------------------------------------
# The pack file


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FirearmModel(_Strict):
    name: str
    lethal: int = Field(default=0, ge=0, le=20)
    bludgeoning: int = Field(default=0, ge=0, le=20)
    shots: int = Field(ge=1, le=10, description="the firing arc multiplier")
    short: int = Field(ge=1, le=1000)
    long: int = Field(ge=1, le=1000)
    points: int = Field(default=0, ge=0, le=10_000)
    bayonet: bool = False

    @model_validator(mode="after")
    def _ranges(self) -> FirearmModel:
        if self.long < self.short:
            raise ValueError(f"long range {self.long} is shorter than short range {self.short}")
        return self


class MeleeModel(_Strict):
    name: str
    lethal: int = Field(default=0, ge=0, le=20)
    bludgeoning: int = Field(default=0, ge=0, le=20)
    fists: bool = False


class ExplosiveModel(_Strict):
    name: str
    rings: list[Annotated[int, Field(ge=0, le=40)]] = Field(min_length=1, max_length=5)
    ap_per_dot: int = Field(ge=1, le=8)
    stairwell_ap: int = Field(default=3, ge=1, le=8)
    ammo: int = Field(default=1, ge=0, le=20)
    points: int = Field(default=0, ge=0, le=10_000)
    secondary: bool = False


class ArmorModel(_Strict):
    name: str
    cells: int = Field(ge=0, le=10)
    ap: int = Field(le=0, ge=-8)


class ExperienceModel(_Strict):
    ap: int = Field(ge=-8, le=8)
    morale: int = Field(ge=2, le=13)


class CardModel(_Strict):
    name: str
    ap: int = Field(ge=1, le=20)
    ap_change: dict[int, Annotated[int, Field(ge=-20, le=20)]]
    modifier: dict[int, Annotated[int, Field(ge=-20, le=20)]]

    @model_validator(mode="after")
    def _every_hp(self) -> CardModel:
        for field_name, table in (("ap_change", self.ap_change), ("modifier", self.modifier)):
            if sorted(table) != list(range(1, 11)):
                raise ValueError(f"{field_name}: expected a value for each HP 10 to 1, got "
                                 f"{sorted(table)}")
        return self


class PackModel(_Strict):
    source: str = ""
    illustrative: bool = False
    cards: dict[str, CardModel] = Field(default_factory=dict)
    experience: dict[str, ExperienceModel] = Field(default_factory=dict)
    armor: dict[str, ArmorModel] = Field(default_factory=dict)
    weapons: dict[str, FirearmModel] = Field(default_factory=dict)
    melee: dict[str, MeleeModel] = Field(default_factory=dict)
    explosives: dict[str, ExplosiveModel] = Field(default_factory=dict)
    kit: dict[str, int | bool] = Field(default_factory=dict)


@dataclass(frozen=True)
class ContentPack:
    """Everything a scenario's troopers may carry or be, by key."""

    cards: Mapping[str, Card]
    experience: Mapping[str, Experience]
    armor: Mapping[str, Armor]
    weapons: Mapping[str, Firearm]
    melee: Mapping[str, MeleeWeapon]
    explosives: Mapping[str, Explosive]
    kit: Mapping[str, int | bool]
    source: str

    def __hash__(self) -> int:
        return hash(self.source)

    def item_name(self, key: str) -> str:
        """The name of any weapon, melee weapon or explosive by key (the key if unknown)."""
        for table in (self.weapons, self.melee, self.explosives):
            found = table.get(key)
            if found is not None:
                return found.name
        return key


def _build(files: Sequence[tuple[str, PackModel]]) -> ContentPack:
    cards: dict[str, Card] = {}
    experience: dict[str, Experience] = {}
    armor: dict[str, Armor] = {}
    weapons: dict[str, Firearm] = {}
    melee: dict[str, MeleeWeapon] = {}
    explosives: dict[str, Explosive] = {}
    kit: dict[str, int | bool] = {}
    for _, m in files:
        for k, c in m.cards.items():
            cards[k] = Card(k, c.name, c.ap, tuple(c.ap_change[h] for h in HP_LABELS),
                            tuple(c.modifier[h] for h in HP_LABELS))
        experience.update({k: Experience(k, e.ap, e.morale) for k, e in m.experience.items()})
        armor.update({k: Armor(k, a.name, a.cells, a.ap) for k, a in m.armor.items()})
        weapons.update({k: Firearm(k, w.name, w.lethal, w.bludgeoning, w.shots, w.short, w.long,
                                   w.points, w.bayonet) for k, w in m.weapons.items()})
        melee.update({k: MeleeWeapon(k, w.name, w.lethal, w.bludgeoning, w.fists)
                      for k, w in m.melee.items()})
        explosives.update({k: Explosive(k, e.name, tuple(e.rings), e.ap_per_dot,
                                        e.stairwell_ap, e.ammo, e.points, e.secondary)
                           for k, e in m.explosives.items()})
        kit.update(m.kit)
    problems = []
    clash = (set(weapons) & set(melee)) | (set(weapons) & set(explosives)) | (
        set(melee) & set(explosives))
    if clash:
        problems.append(f"{files[-1][0]}: the keys {sorted(clash)} name two kinds of weapon")
    for need, table in (("regular", cards), ("regular", experience), ("none", armor),
                        ("fists", melee)):
        if need not in table:
            problems.append(f"{files[-1][0]}: the packs define no {need!r} entry "
                            "(cards: regular, experience: regular, armor: none, melee: fists)")
    for key, value in kit.items():
        if key not in melee and key not in explosives and key != "helmet":
            problems.append(f"{files[-1][0]}: kit.{key}: not a melee weapon or explosive")
        elif key in explosives and (isinstance(value, bool) or not 0 <= value <= 20):
            problems.append(f"{files[-1][0]}: kit.{key}: expected a number carried (0 to 20)")
    if problems:
        raise ContentError("\n".join(problems))
    source = "; ".join(dict.fromkeys(m.source or path for path, m in files))
    return ContentPack(cards, experience, armor, weapons, melee, explosives, kit, source)


#: The game's content packs: the built-in one, then a scenario's own.
PACKS = ContentLoader(PackModel, _build, builtin=(BUILTIN_PACK,))


def builtin_pack() -> ContentPack:
    """The built-in pack (the rulebook's figures), loaded once."""
    return PACKS.load()
