"""The Last Odyssey part of a scenario: who is who, and a fresh battle state from it.

The rows map (``map: {kind: rows, ...}``) says who stands where on which side; ``units`` says
what each character is: an enemy of the SRD (``enemy: cop``) or a player character
(``character: rook``), with optional overrides for tests, what-ifs and a fight already under
way (HP and MP left, Shells, statuses, steps on the bonus track, passives and once-a-battle
abilities already spent, ammo)::

    units:
      Rook: {character: rook, hp: 9, track: {patk: 1}}
      Cop 1: {enemy: cop, statuses: [poisoned], spent: [body-armor]}
    first_strike: party      # the side with the upper hand (optional)
    content: [my-pack.yaml]  # more content packs (optional)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.base import Battlefield
from tactica.battlefield.rows import Rows
from tactica.engine.errors import ScenarioError, TacticaError, join_problems
from tactica.engine.ruleset import Rulings
from tactica.engine.validation import validate, validate_units
from tactica.rulesets.last_odyssey.content import STATS, Pack, load_packs, stat_index
from tactica.rulesets.last_odyssey.state import Fighter, LodState, new_fighter

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = [
    "MAX_CHARACTERS",
    "LastOdysseySetup",
    "UnitSetup",
    "build_setup",
    "new_state",
    "scenario_setup",
    "start",
]

#: The most characters of a Last Odyssey battle (odds tables grow with its square).
MAX_CHARACTERS = 30

_COMMON = {"game", "name", "description", "rulings", "map", "max_rounds", "seed"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitModel(_Strict):
    enemy: str | None = None
    character: str | None = None
    hp: int | None = Field(default=None, ge=1, le=9999)
    mp: int | None = Field(default=None, ge=0, le=9999)
    shells: dict[str, Annotated[int, Field(ge=0, le=9999)]] | None = None
    statuses: list[str] = Field(default_factory=list)
    items: list[str] | None = None
    tier: int | None = Field(default=None, ge=1, le=10)
    ammo: int | None = Field(default=None, ge=0, le=999)
    track: dict[str, Annotated[int, Field(ge=-99, le=99)]] = Field(default_factory=dict,
                                  description="steps up (+) or down (-) the bonus track")
    spent: list[str] = Field(default_factory=list,
                             description="passives and once-a-battle abilities already used")


class SetupModel(BaseModel):
    """The Last Odyssey fields of a scenario but ``units`` (each unit validated on its own)."""

    model_config = ConfigDict(extra="forbid")
    content: list[str] = Field(default_factory=list)
    first_strike: str | None = None


@dataclass(frozen=True)
class UnitSetup:
    """One character as the scenario sets it up."""

    id: str
    side: str
    template: str
    overrides: UnitModel


@dataclass(frozen=True, eq=False)
class LastOdysseySetup:
    """The validated Last Odyssey part of a scenario."""

    units: tuple[UnitSetup, ...]
    sides: tuple[str, ...]
    first_strike: str | None
    pack: Pack


def _unit_problems(where: str, unit: UnitModel, pack: Pack) -> list[str]:
    out = []
    if (unit.enemy is None) == (unit.character is None):
        out.append(f"{where}: give exactly one of 'enemy' or 'character'")
        return out
    name = unit.enemy or unit.character or ""
    template = pack.templates.get(name)
    kind = "enemy" if unit.enemy else "character"
    known = sorted(k for k, t in pack.templates.items() if t.player == (kind == "character"))
    if template is None or template.player != (kind == "character"):
        out.append(f"{where}.{kind}: unknown {kind} {name!r} (known: {', '.join(known)})")
    for s in unit.statuses:
        if s not in pack.statuses:
            out.append(f"{where}.statuses: unknown status {s!r} "
                       f"(known: {', '.join(pack.statuses)})")
    for i in unit.items or []:
        if i not in pack.items:
            out.append(f"{where}.items: unknown item {i!r} (known: {', '.join(pack.items)})")
    for el in unit.shells or {}:
        if el not in pack.elements and el != "colorless":
            out.append(f"{where}.shells: unknown element {el!r}")
    top = len(pack.figures.bonus_track) - 1 - pack.figures.track_zero
    low = pack.figures.track_zero
    for stat, step in unit.track.items():
        if stat not in STATS:
            out.append(f"{where}.track: unknown statistic {stat!r} (known: {', '.join(STATS)})")
        elif not -low <= step <= top:
            out.append(f"{where}.track.{stat}: {step} is off the bonus track (-{low}..+{top})")
    if template is not None:
        passives = {pack.abilities[a].passive for a in template.abilities
                    if a in pack.abilities and pack.abilities[a].passive}
        own = {*template.abilities, *(p for p in passives if p)}
        for name in unit.spent:
            if name not in own:
                out.append(f"{where}.spent: {name!r} is not a passive or ability of "
                           f"{template.name} (it has: {', '.join(sorted(own))})")
    return out


def build_setup(data: Mapping[str, Any], *, source: str, battlefield: Rows,
                base_dir: Path) -> LastOdysseySetup:
    """Validate the units of a scenario against the content packs and the rows map."""
    game_part = {k: v for k, v in data.items() if k in SetupModel.model_fields}
    problems = [f"{source}: {k}: unknown field"
                for k in sorted(set(data) - set(SetupModel.model_fields) - _COMMON - {"units"},
                                key=str)]
    try:
        model = validate(SetupModel, game_part, source=source, error=ScenarioError)
    except TacticaError as exc:
        problems.append(str(exc))
        model = SetupModel()
    raw_units = data.get("units")
    unit_models = validate_units(UnitModel, dict(data), source=source, problems=problems,
                                 error=ScenarioError, what="characters")
    try:
        pack = load_packs(tuple(base_dir / rel for rel in model.content))
    except TacticaError as exc:
        raise ScenarioError(join_problems([*problems, f"{source}: content: {exc}"])) from None
    units = []
    placed = set(battlefield.characters)
    for uid, unit in unit_models.items():
        where = f"{source}: units.{uid}"
        found = _unit_problems(where, unit, pack)
        problems += found
        if uid not in placed:
            problems.append(f"{where}: not on the map: put {uid!r} in a row of map.sides")
            continue
        if not found:
            template = unit.enemy or unit.character or ""
            units.append(UnitSetup(uid, battlefield.side_of(uid), template, unit))
    listed = raw_units if isinstance(raw_units, dict) else {}
    for uid in battlefield.characters:
        if uid not in listed:
            problems.append(f"{source}: map.sides: {uid!r} has no entry in units")
    sides = tuple(s.name for s in battlefield.sides)
    if model.first_strike is not None and model.first_strike not in sides:
        problems.append(f"{source}: first_strike: {model.first_strike!r} is not a side "
                        f"({', '.join(sides)})")
    if problems:
        raise ScenarioError(join_problems(problems))
    return LastOdysseySetup(tuple(units), sides, model.first_strike, pack)


def _fighter(u: UnitSetup, pack: Pack, rulings: Rulings) -> Fighter:
    t = pack.templates[u.template]
    abilities = t.abilities
    if (rulings["LOD-18"] == "basic-attack"
            and not any(pack.abilities[a].basic for a in abilities)):
        abilities = ("basic-attack", *abilities)
    f = new_fighter(u.id, u.side, t, pack, abilities=abilities,
                    zero=pack.figures.track_zero)
    o = u.overrides
    changes: dict[str, Any] = {}
    if o.tier is not None:
        changes["tier"] = o.tier
    if o.hp is not None:
        changes["hp"] = min(o.hp, f.max_hp)
    if o.mp is not None:
        changes["mp"] = min(o.mp, f.max_mp)
    if o.shells is not None:
        changes["shells"] = tuple((el, min(a, f.shell_cap or a)) for el, a in o.shells.items()
                                  if a > 0)
        if not t.player and t.shell is None:
            changes["shell_cap"] = max(o.shells.values(), default=0)
    if o.statuses:
        changes["statuses"] = frozenset(o.statuses)
    if o.items is not None:
        changes["items"] = tuple(o.items)
    if o.ammo is not None:
        changes["ammo"] = o.ammo
    if o.track:
        track = list(f.track)
        for stat, step in o.track.items():
            track[stat_index(stat)] = pack.figures.track_zero + step
        changes["track"] = tuple(track)
    if o.spent:
        changes["body_armor_spent"] = "body-armor" in o.spent
        changes["used_once"] = frozenset(n for n in o.spent if n != "body-armor")
    return replace(f, **changes)


def new_state(setup: LastOdysseySetup, rows: Rows, rulings: Rulings, max_rounds: int) -> LodState:
    """A fresh battle state: everyone at full HP and MP, round 0, before initiative."""
    fighters = {u.id: _fighter(u, setup.pack, rulings) for u in setup.units}
    return LodState(setup.pack, rulings, rows, fighters, setup.sides, max_rounds,
                    setup.first_strike)


def scenario_setup(data: Mapping[str, Any], *, source: str, battlefield: Battlefield | None,
                   rulings: Rulings, base_dir: Path) -> LastOdysseySetup:
    """The game's part of a scenario, on rows of at most :data:`MAX_CHARACTERS`."""
    if not isinstance(battlefield, Rows):
        raise ScenarioError(f"{source}: map: Last Odyssey is played on rows")
    if len(battlefield.characters) > MAX_CHARACTERS:
        raise ScenarioError(f"{source}: map.sides: {len(battlefield.characters)} "
                            f"characters; a Last Odyssey battle has at most "
                            f"{MAX_CHARACTERS} (see docs/limits.md)")
    return build_setup(data, source=source, battlefield=battlefield, base_dir=base_dir)


def start(scenario: Scenario) -> LodState:
    """A fresh battle of ``scenario`` (see :func:`new_state`)."""
    rows = scenario.battlefield
    assert isinstance(rows, Rows) and isinstance(scenario.setup, LastOdysseySetup)
    return new_state(scenario.setup, rows, scenario.rulings, scenario.max_rounds)
