"""Last Odyssey content: elements, statuses, figures, abilities, items, enemies and characters.

Two built-in packs sit beside this module: ``content.yaml`` holds the SRD's facts (the element
chart, the statuses, the weapon table, the tier 1 enemies and their abilities) and
``illustrative.yaml`` holds tactica's example player characters, jobs and items. A scenario may
add packs (``content: [my-pack.yaml]``); later packs win on equal names. Every reference
(an enemy's abilities, a job's abilities, a status's element) is checked once the packs are
merged, and every problem is reported at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from tactica.engine.content import ContentLoader
from tactica.engine.errors import ContentError
from tactica.rulesets.last_odyssey.packfile import (
    COLORLESS,
    AbilityModel,
    CharacterModel,
    EnemyModel,
    FiguresModel,
    JobModel,
    Number,
    PackModel,
    WeaponKindModel,
    WeaponRefModel,
)

__all__ = [
    "ACCURACIES",
    "BUILTIN_PACKS",
    "COLORLESS",
    "PACKS",
    "STATS",
    "Ability",
    "Figures",
    "Pack",
    "Template",
    "Weapon",
    "builtin_pack",
    "load_packs",
    "stat_index",
]

BUILTIN_PACKS = (
    Path(__file__).with_name("content.yaml"),
    Path(__file__).with_name("illustrative.yaml"),
)

#: The statistics that buffs and debuffs move, in the order of every stat tuple.
STATS: tuple[str, ...] = ("patk", "matk", "pdef", "mdef", "eva", "res", "pacc", "macc", "sacc")
ACCURACIES = frozenset({"pacc", "macc", "sacc"})
_INDEX = {s: i for i, s in enumerate(STATS)}



def stat_index(name: str) -> int:
    """The position of statistic ``name`` in every stat tuple."""
    return _INDEX[name]


def _fraction(value: Number) -> Fraction:
    return Fraction(str(value))


# --------------------------------------------------------------------------------------------
# Runtime content (immutable)


#: When a ``reaction`` ability fires: an enemy's melee attack on its holder that misses, that
#: hits (and leaves the holder standing), or either.
TRIGGERS: tuple[str, ...] = ("missed-in-melee", "hit-in-melee", "attacked-in-melee")

@dataclass(frozen=True)
class Ability:
    """An ability (or a battle item): how it targets, what it rolls, what it costs and does."""

    id: str
    name: str
    type: str
    reach: str | None
    area: str = "one"
    attack: str | None = None
    element: str = COLORLESS
    elements: tuple[str, ...] = ()
    multiplier: Fraction = Fraction(1)
    full_hp_multiplier: Fraction | None = None
    status: str | None = None
    mp: int = 0
    ap: int = 1
    ammo: int = 0
    once_per_battle: bool = False
    basic: bool = False
    damage: bool = True
    buff: str | None = None
    debuff: str | None = None
    heal: int = 0
    restore_mp: int = 0
    user_mp: int = 0
    hurt: int = 0
    shell: int = 0
    gain_ammo: int = 0
    steal: bool = False
    disarm: bool = False
    cure: tuple[str, ...] = ()
    user_dies: bool = False
    passive: str | None = None
    protects: str | None = None
    reaction: str | None = None
    #: For a ``reaction`` ability: when it fires (see :data:`TRIGGERS`).
    trigger: str | None = None
    illustrative: bool = False

    @property
    def is_action(self) -> bool:
        """Whether the ability can be used as an action (not passive, not a reaction)."""
        return self.type not in ("passive", "reaction")

    @property
    def is_multi(self) -> bool:
        """Whether one use reaches several characters (one hit die for all of them)."""
        return self.area != "one"

    @property
    def restores(self) -> bool:
        """Whether it restores HP or MP (Frostbitten forbids those)."""
        return self.heal > 0 or self.restore_mp > 0 or self.user_mp > 0

    @property
    def is_melee(self) -> bool:
        """Whether it needs the user in the front row and reaches only the front row."""
        return self.reach == "melee"


@dataclass(frozen=True)
class Weapon:
    """A weapon by type and grade; ``bonus`` adds to the statistics in :data:`STATS` order."""

    name: str
    type: str
    grade: str
    bonus: tuple[int, ...]


@dataclass(frozen=True)
class Template:
    """An enemy of the SRD or a player character, ready to be put on the field."""

    id: str
    name: str
    player: bool
    kind: str
    rank: str
    tier: int
    element: str
    hp: int
    mp: int
    initiative: int
    base: tuple[int, ...]
    weapons: tuple[Weapon, ...] = ()
    shell: tuple[str, int] | None = None
    ammo: int = 0
    abilities: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    job: str | None = None
    illustrative: bool = False


@dataclass(frozen=True)
class Figures:
    """The numbers of the round and the hit die."""

    attack_threshold: int = 7
    status_threshold: int = 5
    status_thresholds: tuple[tuple[Fraction, int | str], ...] = ()
    bonus_track: tuple[int, ...] = (-7, -3, -1, 0, 1, 3, 7)
    ap_by_tier: tuple[tuple[int, int], ...] = ()
    first_strike_ap: int = 1
    held_turn_ap: int = 1
    poison_divisor: int = 10
    initiative_call: tuple[int, int] = (1, 8)
    initiative_roll: tuple[int, int] = (2, 4)
    initiative_boost: Fraction = Fraction(3, 2)

    @property
    def track_zero(self) -> int:
        """The index of 0 on the bonus track."""
        return self.bonus_track.index(0)

    def ap_for(self, tier: int) -> int:
        """AP per turn at ``tier``."""
        return dict(self.ap_by_tier).get(tier, 2)

    def status_threshold_for(self, multiplier: Fraction) -> int | str:
        """The status threshold (a number, ``"immune"`` or ``"always"``) at ``multiplier``."""
        for m, t in self.status_thresholds:
            if m == multiplier:
                return t
        return self.status_threshold


@dataclass(frozen=True, eq=False)
class Pack:
    """Merged content: everything a battle needs to look up by name."""

    elements: tuple[str, ...]
    chart: Mapping[tuple[str, str], Fraction]
    statuses: Mapping[str, str]
    figures: Figures
    abilities: Mapping[str, Ability]
    items: Mapping[str, Ability]
    templates: Mapping[str, Template]
    sources: tuple[str, ...] = ()
    weapon_kinds: Mapping[str, Any] = field(default_factory=dict)
    #: Products of multipliers by (ability, element, defender, doubled, full HP), filled as
    #: battles ask for them (the pack itself never changes).
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    def multiplier(self, attack: str, defend: str) -> Fraction:
        """The element chart: ``attack`` element against ``defend`` element (colorless x1)."""
        return self.chart.get((attack, defend), Fraction(1))

    def ability(self, name: str) -> Ability:
        """The ability or item with this id."""
        found = self.abilities.get(name) or self.items.get(name)
        if found is None:
            raise ContentError(f"unknown ability {name!r}")
        return found


# --------------------------------------------------------------------------------------------
# Merging and building


@dataclass
class _Raw:
    """Pack sections merged file by file; each entry remembers whether it is illustrative."""

    sources: list[str] = field(default_factory=list)
    singles: dict[str, Any] = field(default_factory=dict)
    entries: dict[str, dict[str, tuple[Any, bool]]] = field(default_factory=dict)

    def add(self, model: PackModel, source: str) -> None:
        self.sources.append(source)
        for key in ("elements", "chart", "statuses", "figures", "weapon_kinds", "weapon_types"):
            value = getattr(model, key)
            if value is not None:
                self.singles[key] = value
        for key in ("abilities", "items", "jobs", "enemies", "characters"):
            section = self.entries.setdefault(key, {})
            for name, entry in getattr(model, key).items():
                section[name] = (entry, model.illustrative)


def _ability(aid: str, m: AbilityModel, illustrative: bool) -> Ability:
    reach = m.reach
    if reach is None and m.type in ("self", "melee", "ranged", "ally"):
        reach = m.type
    return Ability(
        id=aid, name=m.name, type=m.type, reach=reach, area=m.area, attack=m.attack,
        element=m.element, elements=tuple(m.elements), multiplier=_fraction(m.multiplier),
        full_hp_multiplier=(None if m.full_hp_multiplier is None
                            else _fraction(m.full_hp_multiplier)),
        status=m.status, mp=m.mp, ap=m.ap, ammo=m.ammo, once_per_battle=m.once_per_battle,
        basic=m.basic, damage=m.damage, buff=m.buff, debuff=m.debuff, heal=m.heal,
        restore_mp=m.restore_mp, user_mp=m.user_mp, hurt=m.hurt, shell=m.shell,
        gain_ammo=m.gain_ammo, steal=m.steal, disarm=m.disarm, cure=tuple(m.cure),
        user_dies=m.user_dies, passive=m.passive, protects=m.protects, reaction=m.reaction,
        trigger=m.trigger, illustrative=illustrative,
    )


def _ability_problems(where: str, a: Ability, elements: set[str], statuses: Mapping[str, str],
                      abilities: Mapping[str, Any]) -> list[str]:
    out = []
    for el in (a.element, *a.elements):
        if el not in elements:
            out.append(f"{where}: unknown element {el!r} (known: {', '.join(sorted(elements))})")
    if a.status is not None and a.status not in statuses:
        out.append(f"{where}.status: unknown status {a.status!r}")
    if a.attack == "status" and a.status is None:
        out.append(f"{where}: a status attack needs 'status'")
    for s in a.cure:
        if s not in statuses:
            out.append(f"{where}.cure: unknown status {s!r}")
    if a.type in ("multi", "special") and a.reach is None:
        out.append(f"{where}.reach: field required for a {a.type} ability")
    if a.is_multi and a.type != "multi":
        out.append(f"{where}.area: only a multi ability reaches several characters")
    if a.type == "multi" and not a.is_multi:
        out.append(f"{where}.area: a multi ability needs an area")
    if a.reaction is not None and a.reaction not in abilities:
        out.append(f"{where}.reaction: unknown ability {a.reaction!r}")
    if a.type == "reaction":
        # "Reaction. This ability cannot be used as an action, but triggers automatically when
        # certain conditions are met": the pack names the conditions and what it does.
        if a.trigger is None:
            out.append(f"{where}.trigger: field required for a reaction ability (when it "
                       f"fires: {', '.join(TRIGGERS)})")
        if a.reaction is None:
            out.append(f"{where}.reaction: field required for a reaction ability (the "
                       "ability it uses on the attacker)")
    elif a.trigger is not None:
        out.append(f"{where}.trigger: only a reaction ability has a trigger (this one is "
                   f"{a.type})")
    return out


def _weapon(ref: WeaponRefModel, kinds: Mapping[str, WeaponKindModel],
            types: Mapping[str, str]) -> Weapon | str:
    kind = next((k for k in kinds.values() if ref.type in k.types), None)
    if kind is None or ref.type not in types:
        return f"unknown weapon type {ref.type!r} (known: {', '.join(sorted(types))})"
    patk, matk = getattr(kind, ref.grade)
    bonus = [0] * len(STATS)
    bonus[_INDEX["patk"]] += patk
    bonus[_INDEX["matk"]] += matk
    bonus[_INDEX[types[ref.type]]] += 1
    name = ref.name or f"{ref.grade} {ref.type}"
    return Weapon(name, ref.type, ref.grade, tuple(bonus))


def _character(cid: str, m: CharacterModel, illustrative: bool, jobs: Mapping[str, Any],
               kinds: Mapping[str, WeaponKindModel], types: Mapping[str, str],
               where: str, problems: list[str]) -> Template:
    job: JobModel | None = None
    if m.job is not None:
        found = jobs.get(m.job)
        if found is None:
            problems.append(f"{where}.job: unknown job {m.job!r} (known: {', '.join(jobs)})")
        else:
            job = found[0]
    bonus: dict[str, int] = {str(k): v for k, v in job.bonus.items()} if job else {}
    base = {s: bonus.get(s, 0) for s in STATS}
    for part in (dict(m.armor), dict(m.accessories)):
        for s, v in part.items():
            base[s] += v
    base["pacc"] += m.mind + m.body
    base["macc"] += m.spirit + m.mind
    base["sacc"] += m.body + m.spirit
    weapons = []
    for i, ref in enumerate(m.weapons):
        w = _weapon(ref, kinds, types)
        if isinstance(w, str):
            problems.append(f"{where}.weapons[{i}]: {w}")
        else:
            weapons.append(w)
    abilities = ("basic-attack", *(job.abilities if job else ()), *m.abilities)
    shell = (m.shell.element, m.shell.amount) if m.shell else None
    return Template(
        id=cid, name=m.name, player=True, kind="player character", rank="player",
        tier=m.tier, element=m.element, hp=m.body * 5 + m.health_bonus,
        mp=m.spirit * 5 + m.mana_bonus, initiative=m.mind * 2 + m.initiative_bonus,
        base=tuple(base[s] for s in STATS), weapons=tuple(weapons), shell=shell,
        abilities=tuple(dict.fromkeys(abilities)), items=tuple(m.items), job=m.job,
        illustrative=illustrative,
    )


def _enemy(eid: str, m: EnemyModel, illustrative: bool) -> Template:
    return Template(
        id=eid, name=m.name, player=False, kind=m.kind, rank=m.rank, tier=m.tier,
        element=m.element, hp=m.hp, mp=m.mp, initiative=m.init,
        base=tuple(int(getattr(m, s)) for s in STATS),
        shell=(m.element, m.shell) if m.shell > 0 else None, ammo=m.ammo,
        abilities=tuple(m.abilities), left_out=tuple(m.left_out), illustrative=illustrative,
    )


def _figures(m: FiguresModel) -> Figures:
    thresholds = tuple(sorted((_fraction(k), v) for k, v in m.status_thresholds.items()))
    return Figures(
        attack_threshold=m.attack_threshold, status_threshold=m.status_threshold,
        status_thresholds=thresholds, bonus_track=tuple(m.bonus_track),
        ap_by_tier=tuple(sorted(m.ap_by_tier.items())), first_strike_ap=m.first_strike_ap,
        held_turn_ap=m.held_turn_ap, poison_divisor=m.poison_divisor,
        initiative_call=m.initiative_call, initiative_roll=m.initiative_roll,
        initiative_boost=_fraction(m.initiative_boost),
    )


def _build(raw: _Raw) -> Pack:
    problems: list[str] = []
    src = raw.sources[-1] if raw.sources else "<content>"
    for key in ("elements", "chart", "statuses", "figures", "weapon_kinds", "weapon_types"):
        if key not in raw.singles:
            problems.append(f"{src}: {key}: no pack defines it")
    if problems:
        raise ContentError("\n".join(problems))
    elements: list[str] = list(raw.singles["elements"])
    known = {*elements, COLORLESS}
    chart: dict[tuple[str, str], Fraction] = {}
    for row, values in raw.singles["chart"].items():
        if row not in elements or len(values) != len(elements):
            problems.append(f"{src}: chart.{row}: expected one of {elements} with "
                            f"{len(elements)} multipliers")
            continue
        for col, v in zip(elements, values, strict=True):
            chart[(row, col)] = _fraction(v)
    statuses: dict[str, str] = dict(raw.singles["statuses"])
    for s, el in statuses.items():
        if el not in elements:
            problems.append(f"{src}: statuses.{s}: unknown element {el!r}")
    section = raw.entries
    ability_models = section.get("abilities", {})
    abilities = {k: _ability(k, m, ill) for k, (m, ill) in ability_models.items()}
    items = {k: _ability(k, m, ill) for k, (m, ill) in section.get("items", {}).items()}
    for group, table in (("abilities", abilities), ("items", items)):
        for k, a in table.items():
            problems += _ability_problems(f"{src}: {group}.{k}", a, known, statuses, abilities)
    jobs = section.get("jobs", {})
    for j, (jm, _) in jobs.items():
        problems += [f"{src}: jobs.{j}.abilities: unknown ability {a!r}"
                     for a in jm.abilities if a not in abilities]
    templates: dict[str, Template] = {}
    for e, (em, ill) in section.get("enemies", {}).items():
        t = _enemy(e, em, ill)
        where = f"{src}: enemies.{e}"
        problems += [f"{where}.abilities: unknown ability {a!r}"
                     for a in t.abilities if a not in abilities]
        if t.element not in known:
            problems.append(f"{where}.element: unknown element {t.element!r}")
        templates[e] = t
    kinds = raw.singles["weapon_kinds"]
    types = raw.singles["weapon_types"]
    for c, (cm, ill) in section.get("characters", {}).items():
        where = f"{src}: characters.{c}"
        t = _character(c, cm, ill, jobs, kinds, types, where, problems)
        problems += [f"{where}.abilities: unknown ability {a!r}"
                     for a in t.abilities if a not in abilities]
        problems += [f"{where}.items: unknown item {i!r}" for i in t.items if i not in items]
        if c in templates:
            problems.append(f"{where}: the name is already an enemy's")
        templates[c] = t
    if problems:
        raise ContentError("\n".join(problems))
    return Pack(
        elements=tuple(elements), chart=chart, statuses=statuses,
        figures=_figures(raw.singles["figures"]), abilities=abilities, items=items,
        templates=templates, sources=tuple(raw.sources), weapon_kinds=dict(kinds),
    )


def _build_all(files: Sequence[tuple[str, PackModel]]) -> Pack:
    raw = _Raw()
    for source, model in files:
        raw.add(model, source)
    return _build(raw)


#: The game's content packs: the SRD facts and tactica's illustrative content, then a
#: scenario's own.
PACKS = ContentLoader(PackModel, _build_all, builtin=BUILTIN_PACKS)


def load_packs(paths: tuple[Path, ...]) -> Pack:
    """The built-in packs merged with the packs at ``paths`` (in order; later ones win).

    Cached by each file's path, modification time and size.
    """
    return PACKS.load(paths)


def builtin_pack() -> Pack:
    """The SRD facts and tactica's illustrative content (loaded once)."""
    return load_packs(())
