"""Melee: 5 AP against an adjacent enemy, resolved when the target activates.

The attacker needs a melee weapon active: a melee weapon it carries (a knife, a sword, ...),
the bayonet on its active rifle or SMG, or its active firearm used as a club (SKI-28); fists
are always at hand, striking half its current maximum AP in bludgeoning (SKI-19). The attack
is paid for now and rolled when the target activates, before it acts: 2D6 against 4, with the
attacker's prone (-1), a prone target (-1, it is adjacent) and the attacker's damage, never
cover. An attacker out of action by then, or a target no longer next to it, loses the attack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from tactica.battlefield.dots.geometry import DIRECTIONS
from tactica.engine.chance import Done, Observe, Step, emit_all
from tactica.engine.events import Action
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.fire import damage, hit_roll, melee_damage, melee_tn, sight
from tactica.rulesets.skirmishers.state import PendingMelee, SkiState

__all__ = ["MELEE_AP", "melee_actions", "melee_weapons", "resolve_melee", "resolve_pending"]

MELEE_AP: Final = 5


def melee_weapons(state: SkiState, uid: str) -> list[str]:
    """The melee weapons the trooper may strike with now (fists always)."""
    t = state.troopers[uid]
    pack = state.setup.pack
    out = ["fists"]
    if t.active in pack.melee and t.active != "fists":
        out.append(t.active)
    firearm = pack.weapons.get(t.active)
    if firearm is not None:
        if firearm.bayonet:
            out.append("bayonet")
        out.append("club")
    return out


def can_reach(state: SkiState, uid: str, target: str) -> bool:
    """Adjacent on one level and in sight (no wall between)."""
    lat = state.lattice
    if uid not in lat.troopers or target not in lat.troopers:
        return False
    a, b = lat.trooper(uid), lat.trooper(target)
    if a.level != b.level or (b.dot[0] - a.dot[0], b.dot[1] - a.dot[1]) not in DIRECTIONS:
        return False
    return sight(state, uid, target).visible


def reach_refusal(state: SkiState, uid: str, target: str) -> str | None:
    """Why ``uid`` cannot reach ``target`` in melee (:func:`can_reach`), or ``None``."""
    lat = state.lattice
    if uid not in lat.troopers or target not in lat.troopers:
        return f"{uid} or {target} is not on the map"
    a, b = lat.trooper(uid), lat.trooper(target)
    if a.level != b.level:
        return f"{target} is on another level than {uid} (melee: adjacent on one level)"
    if (b.dot[0] - a.dot[0], b.dot[1] - a.dot[1]) not in DIRECTIONS:
        return f"{uid} is not next to {target} (melee has range 1)"
    if not sight(state, uid, target).visible:
        return f"{uid} does not see {target} though next to it (melee needs sight)"
    return None


def melee_actions(state: SkiState, uid: str) -> list[r.Melee]:
    """Every melee attack the trooper may pay for now."""
    t = state.troopers[uid]
    if t.stopped or state.available(t) < MELEE_AP:
        return []
    return [r.Melee(uid, e.id, w) for e in state.alive() if e.side != t.side
            and can_reach(state, uid, e.id) for w in melee_weapons(state, uid)]


def attack(state: SkiState, m: PendingMelee, then: Callable[[SkiState], Step]) -> Step:
    """Roll one melee attack now (it lapses if it can no longer be made)."""
    a = state.troopers[m.unit]
    if not a.in_action:
        return emit_all([r.MeleeLapsed(m.unit, m.target, f"{m.unit} is out of action")],
                        Observe(then))
    if not can_reach(state, m.unit, m.target):
        return emit_all([r.MeleeLapsed(m.unit, m.target, f"{m.target} is out of reach")],
                        Observe(then))
    tn = melee_tn(state, m.unit, m.target).tn
    assert tn is not None
    lethal, blud = melee_damage(state, m.unit, m.weapon)

    def rolled(hit: bool) -> Step:
        event = r.MeleeResolved(m.unit, m.target, m.weapon, tn, hit)
        if not hit:
            return emit_all([event], Observe(then))
        return emit_all([event], Observe(lambda w: damage(w, m.target, lethal, blud, m.unit,
                                                          then)))

    return hit_roll(f"2D6 to hit: {m.unit} strikes {m.target} in melee", tn, rolled)


def resolve_pending(state: SkiState, target: str, then: Callable[[SkiState], Step]) -> Step:
    """Every melee attack waiting on ``target``, in the order they were paid for."""
    waiting = [m for m in state.melee if m.target == target]
    if not waiting or not state.troopers[target].in_action:
        return then(state)
    return attack(state, waiting[0], lambda w: resolve_pending(w, target, then))


def resolve_melee(state: SkiState, action: Action) -> Step | None:
    """The process of a melee action (``None``: not one): paid now, rolled later."""
    if isinstance(action, r.Melee):
        return emit_all([r.MeleeDeclared(action.unit, action.target, action.weapon, MELEE_AP)],
                        Done(None))
    return None
