"""Who may do what to whom: ability types and rows, costs and limits, and the legal actions.

Ability types (the seed): Self targets the user; Melee needs the user in the front row and
reaches only the front row; Ranged (offensive) and Ally (defensive) reach anyone (LOD-16 says
which sides); Multi reaches several characters; Special is contextual (Charge: a back-row enemy
whose front row is empty); Passive and Reaction abilities are never actions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tactica.rulesets.last_odyssey import melee
from tactica.rulesets.last_odyssey.content import Ability
from tactica.rulesets.last_odyssey.hitdie import TargetSetup
from tactica.rulesets.last_odyssey.records import (
    EndTurn,
    Flee,
    HoldAP,
    Move,
    PickUp,
    SwapEquipment,
    UseAbility,
    UseItem,
)
from tactica.rulesets.last_odyssey.state import Fighter, LodState, element_of, stat

__all__ = [
    "ability_actions",
    "area_targets",
    "can_act",
    "legal_actions",
    "mp_cost",
    "reachable",
    "target_setup",
    "unusable_reason",
]


def can_act(state: LodState, f: Fighter) -> bool:
    """Whether ``f`` takes its turns (LOD-21: a Boar Rider at 0 HP may idle)."""
    if not f.standing:
        return False
    return not (f.hp == 0 and "too-stupid-to-die" in f.passives
                and state.rulings["LOD-21"] == "idle")


def mp_cost(f: Fighter, ability: Ability) -> int:
    """MP an ability costs ``f`` now (Fatigued doubles it)."""
    return ability.mp * (2 if "fatigued" in f.statuses else 1)


def unusable_reason(state: LodState, f: Fighter, ability: Ability, ap: int) -> str | None:
    """Why ``f`` cannot use ``ability`` now with ``ap`` AP, or ``None`` if it can."""
    if not ability.is_action:
        return f"{ability.name} is {ability.type}: never an action"
    if ability.ap > ap:
        return f"{ability.name} costs {ability.ap} AP, {f.id} has {ap}"
    cost = mp_cost(f, ability)
    if cost > f.mp:
        return f"{ability.name} costs {cost} MP, {f.id} has {f.mp}"
    if ability.ammo > f.ammo:
        return f"{ability.name} needs {ability.ammo} Ammo, {f.id} has {f.ammo}"
    if ability.once_per_battle and ability.id in f.used_once:
        return f"{ability.name} is once a battle and was used"
    if "frostbitten" in f.statuses and (ability.basic or ability.restores):
        return f"{f.id} is Frostbitten: no basic attack and nothing that restores HP or MP"
    if ability.is_melee and not melee.can_make_melee(state.rows, f.id):
        return f"{ability.name} is melee and {f.id} is not in the front row"
    return None


def _foe(a: Fighter, b: Fighter) -> bool:
    return a.side != b.side


def reachable(state: LodState, user: Fighter, ability: Ability, *,
              any_side: bool = False, standing: list[Fighter] | None = None) -> list[Fighter]:
    """The characters one use of a single-target ability may be aimed at.

    ``any_side`` ignores which side a character is on (LOD-16 ``anyone``, and the choices of
    a Confused retarget); rows still decide melee.
    """
    anyone = any_side or state.rulings["LOD-16"] == "anyone"
    if standing is None:  # the caller may hand it over (the same for every ability)
        standing = [f for f in state.fighters.values() if f.standing]
    reach = ability.reach
    if reach == "self":
        return [user]
    if reach == "melee":
        if not melee.can_make_melee(state.rows, user.id):
            return []
        return [t for t in standing if t.id != user.id and melee.can_receive_melee(state.rows, t.id)
                and (any_side or _foe(user, t))]
    if reach == "ranged":
        return [t for t in standing if t.id != user.id and (anyone or _foe(user, t))]
    if reach == "ally":
        return [t for t in standing if anyone or not _foe(user, t)]
    if reach == "ally-other":
        return [t for t in standing if t.id != user.id and (anyone or not _foe(user, t))]
    if reach == "charge":
        empty = {s.name for s in state.rows.sides if not s.front}
        return [t for t in standing if _foe(user, t) and t.side in empty
                and state.rows.row_of(t.id) == "back"]
    return []


def area_targets(state: LodState, user: Fighter, ability: Ability) -> list[Fighter]:
    """Everyone a multi-target ability reaches (one hit die for all of them)."""
    foes = [t for t in state.fighters.values() if t.standing and _foe(user, t)]
    if ability.area == "enemy-front-row":
        if not melee.can_make_melee(state.rows, user.id):
            return []
        return [t for t in foes if melee.can_receive_melee(state.rows, t.id)]
    return foes


def _product(ability: Ability, element: Fraction, doubled: bool, full: bool) -> Fraction:
    """Every multiplier at once: the ability's (at full HP, Dragonslayer's), the element
    chart's, and the Shell doubling (LOD-5)."""
    m = ability.full_hp_multiplier if full and ability.full_hp_multiplier else ability.multiplier
    return m * element * (2 if doubled else 1)


def multiplier_factors(state: LodState, user_id: str, ability: Ability, target_id: str,
                       element: str = "") -> tuple[tuple[str, Fraction], ...]:
    """Each damage multiplier with its name, as :func:`target_setup` multiplies them: the
    ability's (Dragonslayer's at full HP, LOD-22 says whose), the element chart's, and the
    Shell's (LOD-5). Their product is the setup's ``multiplier``."""
    u, t = state.fighters[user_id], state.fighters[target_id]
    defender = element_of(t)
    physical = ability.attack == "physical"
    whose = u if state.rulings["LOD-22"] == "user" else t
    full = ability.full_hp_multiplier is not None and whose.hp >= whose.max_hp
    out: list[tuple[str, Fraction]] = []
    if full and ability.full_hp_multiplier:
        out.append((f"{ability.name} ({whose.id} at full HP)", ability.full_hp_multiplier))
    else:
        out.append((ability.name, ability.multiplier))
    el = element or ability.element
    out.append((f"{el} vs {defender}", state.pack.multiplier(el, defender)))
    shell = "a Shell up" if t.shell > 0 else "no Shell"
    doubled = (physical and t.shell == 0) or (not physical and t.shell > 0)
    out.append((f"{'physical' if physical else 'magical'} vs {shell}",
                Fraction(2 if doubled else 1)))
    return tuple(out)


def target_setup(state: LodState, user_id: str, ability: Ability, target_id: str,
                 element: str = "", knockout: bool = False) -> TargetSetup:
    """The numbers of one target of an attack or status roll, as they count now."""
    u = state.fighters[user_id]
    t = state.fighters[target_id]
    pack = state.pack
    figures = pack.figures
    defender = element_of(t)
    if ability.attack == "status":
        assert ability.status is not None
        m = pack.multiplier(pack.statuses[ability.status], defender)
        return TargetSetup("status", stat(state, u, "sacc"), stat(state, t, "res"),
                           figures.status_threshold_for(m), shell=t.shell, hp=t.hp)
    physical = ability.attack == "physical"
    whose = u if state.rulings["LOD-22"] == "user" else t
    full = ability.full_hp_multiplier is not None and whose.hp >= whose.max_hp
    doubled = (physical and t.shell == 0) or (not physical and t.shell > 0)
    key = (ability.id, element or ability.element, defender, doubled, full)
    mult = pack.memo.get(key)
    if mult is None:
        mult = _product(ability, pack.multiplier(key[1], defender), doubled, full)
        pack.memo[key] = mult
    rulings = state.rulings
    return TargetSetup(
        kind="physical" if physical else "magical",
        accuracy=stat(state, u, "pacc" if physical else "macc"),
        evasion=stat(state, t, "eva"),
        threshold=figures.attack_threshold,
        attack=stat(state, u, "patk" if physical else "matk"),
        defense=stat(state, t, "pdef" if physical else "mdef"),
        multiplier=mult,
        knockout=knockout,
        damage=ability.damage,
        shell=t.shell,
        hp=t.hp,
        body_armor=physical and "body-armor" in t.passives and not t.body_armor_spent,
        armor_any_hit=rulings["LOD-23"] == "any-hit",
        auto_fail=("paralyzed" if physical else "silenced") in u.statuses,
        one_beats_fail=rulings["LOD-11"] == "one-hits",
        multiply=rulings["LOD-1"],
        rounding=rulings["LOD-2"],
    )


def ability_actions(state: LodState, f: Fighter, ap: int) -> list[Any]:
    """Every ability action ``f`` could take with ``ap`` AP (one per target and element)."""
    out: list[Any] = []
    standing = [t for t in state.fighters.values() if t.standing]
    for name in f.abilities:
        ability = state.ability(name)
        if unusable_reason(state, f, ability, ap) is not None:
            continue
        if ability.is_multi:
            groups = [tuple(t.id for t in area_targets(state, f, ability))]
            if not groups[0]:
                continue
        else:
            groups = [(t.id,) for t in reachable(state, f, ability, standing=standing)]
        elements = ability.elements or ("",)
        ko = f.player and ability.attack in ("physical", "magical") and ability.damage
        for targets in groups:
            for el in elements:
                out.append(UseAbility(f.id, name, targets, el))
                if ko:
                    out.append(UseAbility(f.id, name, targets, el, True))
    return out


def legal_actions(state: LodState, unit: str) -> tuple[Any, ...]:
    """Every action ``unit`` may take now, with ``state.ap`` AP left (End Turn always)."""
    f = state.fighters[unit]
    ap = state.ap
    out = ability_actions(state, f, ap)
    if ap >= 1 and "frostbitten" not in f.statuses:
        allies = [t for t in state.fighters.values() if t.standing and t.side == f.side]
        for item in dict.fromkeys(f.items):
            out.extend(UseItem(f.id, item, t.id) for t in allies)
    if ap >= 1 and "petrified" not in f.statuses:
        here = state.rows.row_of(unit)
        out.append(Move(unit, "back" if here == "front" else "front"))
    if ap >= 1 and unit not in state.held_by and state.queue and not state.queue[0].extra:
        later = dict.fromkeys(t.unit for t in state.queue[1:] if not t.extra and t.unit != unit)
        out.extend(HoldAP(unit, after) for after in later)
    if ap >= 1:
        for w in f.template.weapons:
            if w != f.equipped and w != f.dropped:
                out.append(SwapEquipment(unit, w.name))
        if f.dropped is not None:
            out.append(PickUp(unit))
    if state.rows.row_of(unit) == "back":
        out.append(Flee(unit))
    out.append(EndTurn(unit))
    return tuple(out)
