"""The file formats of Last Odyssey content packs (validated with pydantic).

A pack may define any of these sections; :mod:`tactica.rulesets.last_odyssey.content` merges
the packs and checks every reference between them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

__all__ = [
    "COLORLESS",
    "AbilityModel",
    "CharacterModel",
    "EnemyModel",
    "FiguresModel",
    "JobModel",
    "Number",
    "PackModel",
    "ShellModel",
    "Stat",
    "WeaponKindModel",
    "WeaponRefModel",
]

COLORLESS = "colorless"
Stat = Literal["patk", "matk", "pdef", "mdef", "eva", "res", "pacc", "macc", "sacc"]

#: The bounds of the numbers of a pack: statistics, amounts (HP, MP, Shells, healing), AP.
StatValue = Annotated[int, Field(ge=-99, le=99)]
Amount = Annotated[int, Field(ge=0, le=9999)]
Positive = Annotated[int, Field(ge=1, le=9999)]
Small = Annotated[int, Field(ge=1, le=20)]


def _bounded_number(value: int | float | str) -> int | float | str:
    """A multiplier or an element chart entry: a number from 0 to 100 (``1.5``, ``"3/2"``)."""
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"expected a number such as 2, 1.5 or 3/2, got {value!r}") from None
    if not 0 <= number <= 100 or number.denominator > 1000:
        raise ValueError(f"expected a number from 0 to 100 (such as 1.5 or 3/2), got {value!r}")
    return value


Number = Annotated[int | float | str, AfterValidator(_bounded_number)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AbilityModel(_Strict):
    name: str
    type: Literal["self", "melee", "ranged", "ally", "special", "passive", "multi", "reaction"]
    reach: Literal["self", "melee", "ranged", "ally", "ally-other", "charge"] | None = None
    area: Literal["one", "enemy-front-row", "all-enemies"] = "one"
    attack: Literal["physical", "magical", "status"] | None = None
    element: str = COLORLESS
    elements: list[str] = Field(default_factory=list)
    multiplier: Number = 1
    full_hp_multiplier: Number | None = None
    status: str | None = None
    mp: int = Field(default=0, ge=0, le=99)
    ap: int = Field(default=1, ge=0, le=3)
    ammo: int = Field(default=0, ge=0, le=9)
    once_per_battle: bool = False
    basic: bool = False
    damage: bool = True
    buff: Stat | None = None
    debuff: Stat | None = None
    heal: Amount = 0
    restore_mp: Amount = 0
    user_mp: Amount = 0
    hurt: Amount = 0
    shell: Amount = 0
    gain_ammo: int = Field(default=0, ge=0, le=99)
    steal: bool = False
    disarm: bool = False
    cure: list[str] = Field(default_factory=list)
    user_dies: bool = False
    passive: Literal["body-armor", "faithful", "revenge", "tactical-retreat", "quick-fingers",
                     "too-stupid-to-die"] | None = None
    protects: str | None = None
    reaction: str | None = None
    trigger: Literal["missed-in-melee", "hit-in-melee", "attacked-in-melee"] | None = None


class EnemyModel(_Strict):
    name: str
    kind: str
    rank: Literal["normal", "elite", "boss"]
    tier: int = Field(default=1, ge=1, le=10)
    element: str
    hp: Positive
    shell: Amount
    mp: Amount
    init: StatValue
    patk: StatValue
    matk: StatValue
    pdef: StatValue
    mdef: StatValue
    eva: StatValue
    res: StatValue
    pacc: StatValue
    macc: StatValue
    sacc: StatValue
    ammo: int = Field(default=0, ge=0, le=999)
    abilities: list[str] = Field(min_length=1)
    left_out: list[str] = Field(default_factory=list)


class WeaponRefModel(_Strict):
    type: str
    grade: Literal["mundane", "rare", "expert"]
    name: str | None = None


class ShellModel(_Strict):
    amount: Positive
    element: str = COLORLESS


class CharacterModel(_Strict):
    name: str
    tier: int = Field(default=1, ge=1, le=10)
    body: int = Field(ge=1, le=10)
    mind: int = Field(ge=1, le=10)
    spirit: int = Field(ge=1, le=10)
    initiative_bonus: StatValue = 0
    health_bonus: Amount = 0
    mana_bonus: Amount = 0
    job: str | None = None
    element: str = COLORLESS
    armor: dict[Literal["pdef", "mdef"], StatValue] = Field(default_factory=dict)
    accessories: dict[Literal["eva", "res"], StatValue] = Field(default_factory=dict)
    weapons: list[WeaponRefModel] = Field(default_factory=list)
    shell: ShellModel | None = None
    items: list[str] = Field(default_factory=list)
    abilities: list[str] = Field(default_factory=list)


class JobModel(_Strict):
    name: str
    bonus: dict[Stat, StatValue] = Field(default_factory=dict)
    abilities: list[str] = Field(default_factory=list)


class WeaponKindModel(_Strict):
    types: list[str] = Field(min_length=1)
    mundane: tuple[StatValue, StatValue]
    rare: tuple[StatValue, StatValue]
    expert: tuple[StatValue, StatValue]


class FiguresModel(_Strict):
    attack_threshold: StatValue
    status_threshold: StatValue
    status_thresholds: dict[Annotated[str, AfterValidator(_bounded_number)],
                            StatValue | Literal["immune", "always"]]
    bonus_track: list[StatValue] = Field(min_length=3, max_length=21)
    ap_by_tier: dict[Annotated[int, Field(ge=1, le=10)], Small]
    first_strike_ap: Small
    held_turn_ap: Small
    poison_divisor: Annotated[int, Field(ge=1, le=100)]
    initiative_call: tuple[Small, Small]
    initiative_roll: tuple[Annotated[int, Field(ge=1, le=10)], Small]
    initiative_boost: Number


class PackModel(_Strict):
    illustrative: bool = False
    elements: list[str] | None = None
    chart: dict[str, list[Number]] | None = None
    statuses: dict[str, str] | None = None
    figures: FiguresModel | None = None
    weapon_kinds: dict[str, WeaponKindModel] | None = None
    weapon_types: dict[str, Stat] | None = None
    abilities: dict[str, AbilityModel] = Field(default_factory=dict)
    items: dict[str, AbilityModel] = Field(default_factory=dict)
    jobs: dict[str, JobModel] = Field(default_factory=dict)
    enemies: dict[str, EnemyModel] = Field(default_factory=dict)
    characters: dict[str, CharacterModel] = Field(default_factory=dict)
