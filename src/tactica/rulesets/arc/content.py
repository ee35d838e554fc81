"""Arc content: damage dice, guns, armor, items and characters, validated from YAML.

The built-in pack ``content.yaml`` holds the source's facts (ammo classes, the gun table, item
costs) and tactica's labelled example values for the blank cells (ARC-11); a scenario may add
packs (``content: [my-pack.yaml]``), later packs winning on equal names. Scenario units may
also give weapons and armor inline, in the same format as the pack.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tactica.dice import Dist, die
from tactica.engine.content import ContentLoader
from tactica.engine.errors import ContentError, TacticaError
from tactica.rulesets.arc.checks import Score, parse_score

__all__ = [
    "BUILTIN_PACK",
    "DAMAGE_TYPES",
    "SKILLS",
    "ArmorDie",
    "ArmorModel",
    "CharacterModel",
    "DamageDice",
    "Item",
    "Pack",
    "Weapon",
    "WeaponModel",
    "armor_dice",
    "load_pack",
    "parse_damage",
    "weapon_from_model",
]

BUILTIN_PACK = Path(__file__).with_name("content.yaml")

#: The damage types of the source: physical (ballistic, melee, shock) and the others.
DAMAGE_TYPES = ("ballistic", "melee", "shock", "energy", "thermal", "toxic")
#: The skills a unit may give (``guns`` stands for both Small and Big Guns).
SKILLS = ("guns", "small_guns", "big_guns", "melee", "evade", "medicine")

# tactica's bounds on Arc's numbers (docs/limits.md): far above what the source's tables hold,
# low enough that no number of a pack or a scenario can make a battle's work or memory explode.
#: The highest whole rate of fire, and the largest n of a fractional one (1/n).
MAX_ROF = 100
#: The most rounds a magazine holds.
MAX_CAPACITY = 1000
#: The largest accuracy modifier (either way), skill and focus.
MAX_ACCURACY = 20
MAX_SKILL = 40
MAX_FOCUS = 20
#: The largest rank of a spread, the AP of an item's cost, the steps an item removes.
MAX_SPREAD = 20
MAX_ITEM_AP = 20
#: The most items of one kind a character carries.
MAX_ITEMS = 99
#: The longest range between two combatants, in metres.
MAX_METRES = 10_000

_DICE = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class DamageDice:
    """``n`` dice of ``sides`` plus ``bonus`` (``3d6``, ``2d4+1``)."""

    n: int
    sides: int
    bonus: int = 0

    def __str__(self) -> str:
        extra = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.n}d{self.sides}{extra}"

    @property
    def max(self) -> int:
        """The most it can roll."""
        return self.n * self.sides + self.bonus

    @property
    def faces(self) -> tuple[Dist[int], ...]:
        """One distribution per physical die."""
        return (die(self.sides),) * self.n

    def dist(self) -> Dist[int]:
        """The exact distribution of the total."""
        return _dice_dist(self)

    def read(self, faces: Sequence[int]) -> int:
        """The total of rolled faces."""
        return sum(faces) + self.bonus


@lru_cache(maxsize=256)
def _dice_dist(d: DamageDice) -> Dist[int]:
    return die(d.sides).repeat_sum(d.n) + d.bonus


def parse_damage(text: object) -> DamageDice:
    """``"3d6"``, ``"d8"``, ``"2d4+1"`` as :class:`DamageDice`; ValueError otherwise."""
    m = _DICE.match(str(text)) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"expected dice like 3d6 or 2d4+1, got {text!r}")
    n = int(m[1]) if m[1] else 1
    sides = int(m[2])
    bonus = int(m[4] or 0) * (-1 if m[3] == "-" else 1)
    if not 1 <= n <= 40 or not 2 <= sides <= 100:
        raise ValueError(f"expected 1-40 dice of 2-100 sides, got {text!r}")
    return DamageDice(n, sides, bonus)


def _step_die(text: object) -> int:
    m = re.fullmatch(r"\s*1?d(\d+)\s*", str(text)) if isinstance(text, str) else None
    size = int(m[1]) if m else None
    if size not in (4, 6, 8, 10, 12):
        raise ValueError(f"expected an armor die d4, d6, d8, d10 or d12, got {text!r}")
    return size


def _rof(value: object) -> Fraction:
    if isinstance(value, bool):
        raise ValueError(f"expected a rate of fire like 3 or 1/4, got {value!r}")
    try:
        rof = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"expected a rate of fire like 3 or 1/4, got {value!r}") from None
    if not (rof >= 1 and rof.denominator == 1) and not (0 < rof < 1 and rof.numerator == 1):
        raise ValueError(f"expected a whole rate of fire of 1 or more, or a fraction 1/n, "
                         f"got {value!r}")
    if rof > MAX_ROF or rof.denominator > MAX_ROF:
        raise ValueError(f"expected a rate of fire of at most {MAX_ROF} (or 1/{MAX_ROF}), "
                         f"got {value!r}")
    return rof


T = TypeVar("T")


def _quiet(parse: Callable[[Any], T], value: object) -> T:
    """``parse(value)``, its error without the input (the validation message adds it)."""
    try:
        return parse(value)
    except ValueError as exc:
        raise ValueError(str(exc).split(", got ")[0]) from None


# --------------------------------------------------------------------------------------------
# File formats


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeaponModel(_Strict):
    """A gun (or a melee weapon) as a pack or a scenario writes it."""

    name: str
    ac: int | None = Field(default=None, ge=1, le=10)
    damage: str | None = None
    type: Literal["ballistic", "melee", "shock", "energy", "thermal", "toxic"] = "ballistic"
    skill: Literal["small_guns", "big_guns", "melee"] = "small_guns"
    accuracy: tuple[int, int] = (0, 0)
    rof: int | str
    spread: int | str | tuple[int, int]
    failure: tuple[int, int] | None = None
    swap: int = Field(default=2, ge=0, le=20)
    reload: int = Field(default=4, ge=0, le=20)
    capacity: int | str | None = None
    range: float | None = Field(default=None, gt=0, le=MAX_METRES)
    melee: bool = False
    hardware_degree: int | None = Field(default=None, ge=0, le=10)
    example: list[str] = Field(default_factory=list)

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str | None) -> str | None:
        if value is not None:
            _quiet(parse_damage, value)
        return value

    @field_validator("rof")
    @classmethod
    def _rof_ok(cls, value: int | str) -> int | str:
        _quiet(_rof, value)
        return value

    @field_validator("spread")
    @classmethod
    def _spread(cls, value: int | str | tuple[int, int]) -> int | str | tuple[int, int]:
        score = _quiet(parse_score, value)
        if not 1 <= score.rank <= MAX_SPREAD or not 0 <= score.progress <= MAX_SPREAD:
            raise ValueError(f"a spread needs a rank of 1 to {MAX_SPREAD} (and a progress of 0 "
                             f"to {MAX_SPREAD})")
        return value

    @field_validator("accuracy")
    @classmethod
    def _accuracy(cls, value: tuple[int, int]) -> tuple[int, int]:
        if value[0] > value[1]:
            raise ValueError("expected [unaimed, maximum] with unaimed <= maximum")
        if not all(-MAX_ACCURACY <= v <= MAX_ACCURACY for v in value):
            raise ValueError(f"expected accuracy modifiers from -{MAX_ACCURACY} to "
                             f"{MAX_ACCURACY}")
        return value

    @field_validator("failure")
    @classmethod
    def _failure(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and not all(1 <= v <= 20 for v in value):
            raise ValueError("expected two d20 numbers like [20, 18]")
        return value

    @field_validator("capacity")
    @classmethod
    def _capacity(cls, value: int | str | None) -> int | str | None:
        if isinstance(value, int) and not 1 <= value <= MAX_CAPACITY:
            raise ValueError(f"expected 1 to {MAX_CAPACITY} rounds")
        if isinstance(value, str):
            d = _quiet(parse_damage, value)
            if d.n != 1 or d.bonus:
                raise ValueError("expected a number of rounds or one die like 1d12")
        return value


class ArmorDieModel(_Strict):
    """One armor die and the damage types it protects against."""

    die: str
    against: list[Literal["ballistic", "melee", "shock", "energy", "thermal", "toxic"]] = \
        Field(min_length=1)
    name: str = ""

    @field_validator("die")
    @classmethod
    def _die(cls, value: str) -> str:
        _quiet(_step_die, value)
        return value


class ArmorModel(_Strict):
    """A named armor piece of a pack: one or more dice."""

    name: str
    dice: list[ArmorDieModel] = Field(min_length=1)
    example: bool = False


class ItemModel(_Strict):
    """A healing item of the actions chapter."""

    name: str
    cost: tuple[Annotated[int, Field(ge=0, le=MAX_ITEM_AP)],
                Annotated[int, Field(ge=0, le=MAX_ITEM_AP)]]
    check: Literal["medicine"] | None = None
    heal: str | None = None
    remove_steps: Annotated[int, Field(ge=0, le=MAX_ITEM_AP)] | str | None = None
    plus_degree: bool = False
    raise_on_failure: bool = False
    example: list[str] = Field(default_factory=list)


class InitiativeModel(_Strict):
    """``swap``: the attribute that replaces one AGI; ``target``: a target number outright."""

    swap: str | None = None
    target: int | None = Field(default=None, ge=0, le=40)


class CharacterModel(_Strict):
    """A character of a pack (and, with ``side`` and ``character``, a scenario unit)."""

    name: str = ""
    attributes: dict[str, int] = Field(default_factory=dict)
    skills: dict[Literal["guns", "small_guns", "big_guns", "melee", "evade", "medicine"],
                 Annotated[int, Field(ge=0, le=MAX_SKILL)]] = Field(default_factory=dict)
    focuses: dict[Literal["guns", "small_guns", "big_guns", "melee", "evade", "medicine"],
                  Annotated[int, Field(ge=0, le=MAX_FOCUS)]] = Field(default_factory=dict)
    health: int | None = Field(default=None, ge=1, le=200)
    speed: int | str | tuple[int, int] | None = None
    initiative: InitiativeModel | None = None
    weapons: list[Any] = Field(default_factory=list)
    armor: list[Any] = Field(default_factory=list)
    items: dict[str, Annotated[int, Field(ge=0, le=MAX_ITEMS)]] = Field(default_factory=dict)
    example: bool = False

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, value: dict[str, int]) -> dict[str, int]:
        for k, v in value.items():
            if not k.isalpha() or not k.isupper() or not 0 <= v <= 20:
                raise ValueError(f"expected upper-case attribute names with values 0-20, "
                                 f"got {k}: {v}")
        return value

    @field_validator("speed")
    @classmethod
    def _speed(cls, value: int | str | tuple[int, int] | None) -> Any:
        if value is not None and not 1 <= _quiet(parse_score, value).rank <= 20:
            raise ValueError("expected a speed like 6 or '6•4'")
        return value


class PackModel(_Strict):
    """A content pack: any of these sections."""

    ammo_classes: dict[Annotated[int, Field(ge=1, le=10)], str] = Field(default_factory=dict)
    guns: dict[str, WeaponModel] = Field(default_factory=dict)
    armor: dict[str, ArmorModel] = Field(default_factory=dict)
    items: dict[str, ItemModel] = Field(default_factory=dict)
    characters: dict[str, CharacterModel] = Field(default_factory=dict)

    @field_validator("ammo_classes")
    @classmethod
    def _classes(cls, value: dict[int, str]) -> dict[int, str]:
        for v in value.values():
            parse_damage(v)
        return value


# --------------------------------------------------------------------------------------------
# Runtime content (immutable)


@dataclass(frozen=True)
class Weapon:
    """A weapon as the rules use it. ``capacity`` is a number of rounds, ``capacity_die`` the
    sides of a capacity written as one die (the pistol's 1d12); both ``None``: unlimited.
    ``range`` is in metres (``None``: unlimited). ``example`` lists the fields that are
    tactica's example values (ARC-11)."""

    name: str
    damage: DamageDice
    type: str
    skill: str
    unaimed: int
    accuracy: int
    rof: Fraction
    spread: Score
    failure: tuple[int, int] | None
    swap: int
    reload: int
    capacity: int | None
    capacity_die: int | None
    range: Fraction | None
    melee: bool = False
    hardware_degree: int | None = None
    example: tuple[str, ...] = ()

    @property
    def increment(self) -> int:
        """The increment of its check: the spread's rank (ARC-21)."""
        return self.spread.rank

    @property
    def is_gun(self) -> bool:
        """A ranged weapon (it may jam and needs rounds)."""
        return not self.melee

    @property
    def has_magazine(self) -> bool:
        """Whether it counts rounds."""
        return self.capacity is not None or self.capacity_die is not None

    @property
    def full(self) -> int | None:
        """The most rounds a magazine holds (the die's maximum for a die capacity)."""
        return self.capacity if self.capacity is not None else self.capacity_die

    def attack_ap(self, rulings: Mapping[str, str]) -> int:
        """AP of one attack: a fractional rof 1/n costs n; else 1 AP (ARC-14: or 2)."""
        if self.rof.denominator != 1:
            return self.rof.denominator
        return 2 if rulings["ARC-14"] == "two" else 1

    def max_hits(self) -> int:
        """The most hits of one attack: rof, at most 1 for a fractional rof."""
        return self.rof.numerator if self.rof.denominator == 1 else 1


@dataclass(frozen=True)
class ArmorDie:
    """One armor die: its size (0 once gone) and the damage types it protects against."""

    size: int
    against: frozenset[str]
    name: str = ""

    def protects(self, damage_type: str) -> bool:
        """Whether it is still there and protects against ``damage_type``."""
        return self.size > 0 and damage_type in self.against


@dataclass(frozen=True)
class Item:
    """A healing item: cost ``a + b`` AP (ARC-25), an optional Medicine check, what it heals
    and how many wound steps it removes (a number or dice), plus the check's degree."""

    id: str
    name: str
    cost: tuple[int, int]
    check: str | None
    heal: DamageDice | None
    remove_steps: DamageDice | int | None
    plus_degree: bool
    raise_on_failure: bool
    example: tuple[str, ...] = ()

    def ap(self, on_self: bool, rulings: Mapping[str, str]) -> int:
        """The AP to use it on oneself or on someone else."""
        a, b = self.cost
        return a if on_self and rulings["ARC-25"] == "other" else a + b


@dataclass(frozen=True)
class Pack:
    """The merged content packs."""

    ammo_classes: Mapping[int, DamageDice]
    guns: Mapping[str, WeaponModel]
    armor: Mapping[str, ArmorModel]
    items: Mapping[str, Item]
    characters: Mapping[str, CharacterModel]


def weapon_from_model(m: WeaponModel, pack: Pack) -> Weapon:
    """A runtime weapon; a ValueError if its damage cannot be found (no dice, unknown AC)."""
    if m.damage is not None:
        damage = parse_damage(m.damage)
    elif m.ac is not None:
        if m.ac not in pack.ammo_classes:
            raise ValueError(f"ammo class {m.ac} has no dice in the content packs")
        damage = pack.ammo_classes[m.ac]
    else:
        raise ValueError("give 'damage' (dice like 3d6) or 'ac' (an ammo class 1-10)")
    capacity: int | None = None
    capacity_die: int | None = None
    if isinstance(m.capacity, int):
        capacity = m.capacity
    elif isinstance(m.capacity, str):
        capacity_die = parse_damage(m.capacity).sides
    return Weapon(
        name=m.name, damage=damage, type=m.type, skill="melee" if m.melee else m.skill,
        unaimed=m.accuracy[0], accuracy=m.accuracy[1], rof=_rof(m.rof),
        spread=parse_score(m.spread), failure=None if m.melee else m.failure, swap=m.swap,
        reload=m.reload, capacity=None if m.melee else capacity,
        capacity_die=None if m.melee else capacity_die,
        range=None if m.range is None else Fraction(str(m.range)), melee=m.melee,
        hardware_degree=m.hardware_degree, example=tuple(m.example),
    )


def armor_dice(m: ArmorDieModel, name: str = "") -> ArmorDie:
    """A runtime armor die."""
    return ArmorDie(_step_die(m.die), frozenset(m.against), m.name or name)


def _item(key: str, m: ItemModel) -> Item:
    steps: DamageDice | int | None
    steps = parse_damage(m.remove_steps) if isinstance(m.remove_steps, str) else m.remove_steps
    return Item(key, m.name, m.cost, m.check, None if m.heal is None else parse_damage(m.heal),
                steps, m.plus_degree, m.raise_on_failure, tuple(m.example))


def _build(files: Sequence[tuple[str, PackModel]]) -> Pack:
    """The packs merged in order (later ones win on equal names), every gun checked."""
    classes: dict[int, DamageDice] = {}
    guns: dict[str, WeaponModel] = {}
    armor: dict[str, ArmorModel] = {}
    items: dict[str, Item] = {}
    characters: dict[str, CharacterModel] = {}
    for _, m in files:
        classes.update({k: parse_damage(v) for k, v in m.ammo_classes.items()})
        guns.update(m.guns)
        armor.update(m.armor)
        items.update({k: _item(k, v) for k, v in m.items.items()})
        characters.update(m.characters)
    pack = Pack(classes, guns, armor, items, characters)
    problems = []
    for key, gun in guns.items():
        try:
            weapon_from_model(gun, pack)
        except ValueError as exc:
            problems.append(f"guns.{key}: {exc}")
    if problems:
        raise ContentError("content packs: " + "; ".join(problems))
    return pack


#: The game's content packs: the built-in one, then a scenario's own (one loader for every
#: game: bounded reading, located errors, the packs in a fight log's digest).
PACKS = ContentLoader(PackModel, _build, builtin=(BUILTIN_PACK,))


def load_pack(extra: tuple[Path, ...] = ()) -> Pack:
    """The built-in pack merged with ``extra`` packs (later ones win on equal names)."""
    return PACKS.load(extra)


def describe_error(exc: TacticaError | ValueError) -> str:
    """The message of a content problem, without pydantic's prefix."""
    return str(exc).removeprefix("Value error, ")
