"""The file formats of Last Odyssey content packs (validated with pydantic).

A pack may define any of these sections; :mod:`tactica.rulesets.last_odyssey.content` merges
the packs and checks every reference between them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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
Number = int | float | str


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
    heal: int = Field(default=0, ge=0)
    restore_mp: int = Field(default=0, ge=0)
    user_mp: int = Field(default=0, ge=0)
    hurt: int = Field(default=0, ge=0)
    shell: int = Field(default=0, ge=0)
    gain_ammo: int = Field(default=0, ge=0)
    steal: bool = False
    disarm: bool = False
    cure: list[str] = Field(default_factory=list)
    user_dies: bool = False
    passive: Literal["body-armor", "faithful", "revenge", "tactical-retreat", "quick-fingers",
                     "too-stupid-to-die"] | None = None
    protects: str | None = None
    reaction: str | None = None


class EnemyModel(_Strict):
    name: str
    kind: str
    rank: Literal["normal", "elite", "boss"]
    tier: int = Field(default=1, ge=1, le=10)
    element: str
    hp: int = Field(ge=1)
    shell: int = Field(ge=0)
    mp: int = Field(ge=0)
    init: int
    patk: int
    matk: int
    pdef: int
    mdef: int
    eva: int
    res: int
    pacc: int
    macc: int
    sacc: int
    ammo: int = Field(default=0, ge=0)
    abilities: list[str] = Field(min_length=1)
    left_out: list[str] = Field(default_factory=list)


class WeaponRefModel(_Strict):
    type: str
    grade: Literal["mundane", "rare", "expert"]
    name: str | None = None


class ShellModel(_Strict):
    amount: int = Field(ge=1)
    element: str = COLORLESS


class CharacterModel(_Strict):
    name: str
    tier: int = Field(default=1, ge=1, le=10)
    body: int = Field(ge=1, le=10)
    mind: int = Field(ge=1, le=10)
    spirit: int = Field(ge=1, le=10)
    initiative_bonus: int = 0
    health_bonus: int = 0
    mana_bonus: int = 0
    job: str | None = None
    element: str = COLORLESS
    armor: dict[Literal["pdef", "mdef"], int] = Field(default_factory=dict)
    accessories: dict[Literal["eva", "res"], int] = Field(default_factory=dict)
    weapons: list[WeaponRefModel] = Field(default_factory=list)
    shell: ShellModel | None = None
    items: list[str] = Field(default_factory=list)
    abilities: list[str] = Field(default_factory=list)


class JobModel(_Strict):
    name: str
    bonus: dict[Stat, int] = Field(default_factory=dict)
    abilities: list[str] = Field(default_factory=list)


class WeaponKindModel(_Strict):
    types: list[str] = Field(min_length=1)
    mundane: tuple[int, int]
    rare: tuple[int, int]
    expert: tuple[int, int]


class FiguresModel(_Strict):
    attack_threshold: int
    status_threshold: int
    status_thresholds: dict[str, int | Literal["immune", "always"]]
    bonus_track: list[int] = Field(min_length=3)
    ap_by_tier: dict[int, int]
    first_strike_ap: int = Field(ge=1)
    held_turn_ap: int = Field(ge=1)
    poison_divisor: int = Field(ge=1)
    initiative_call: tuple[int, int]
    initiative_roll: tuple[int, int]
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
