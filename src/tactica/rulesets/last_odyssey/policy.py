"""Action values for greedy policies, and their decisions inside actions.

A value is what one action looks worth to the side taking it, from the exact odds of the hit
die: HP and Shell removed, a bonus for downing, statuses, buffs, healing and Shells by simple
weights, minus MP and Ammo spent, per AP. Moves, swaps and pick-ups are worth the best attack
they open up. Friendly targets count against. Decisions inside actions: the other side sends
a Confused character's action where it hurts its side most; thieves take the first item;
sides always advance; player calls aim at the most likely 2d4 total (LOD-8 ``policy``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from tactica.engine.caching import Cache, SmallKeys
from tactica.engine.chance import Decide
from tactica.rulesets.last_odyssey.content import Ability, stat_index
from tactica.rulesets.last_odyssey.hitdie import D10, TargetSetup, outcome
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
from tactica.rulesets.last_odyssey.state import Fighter, LodState
from tactica.rulesets.last_odyssey.targeting import ability_actions, mp_cost, target_setup

__all__ = ["action_value", "choose_decision", "rank_actions"]

FACES = D10.outcomes
DOWN_BONUS = 8.0
MP_WEIGHT = 0.25
STATUS_WORTH = {
    "poisoned": 4.0, "burned": 2.0, "confused": 4.0, "petrified": 2.0, "blinded": 4.0,
    "frostbitten": 3.0, "fatigued": 2.0, "paralyzed": 6.0, "silenced": 3.0,
}


@lru_cache(maxsize=65536)
def _summary(setup: TargetSetup) -> tuple[float, float, float]:
    """``(P(hit), E[Shell and HP removed], P(downed))`` of one target: each face of the fair
    hit die, weighted 1/10 (the same outcomes :func:`exact_outcomes` enumerates)."""
    p_hit = removed = p_down = 0.0
    for face in FACES:
        o = outcome(setup, face)
        p_hit += o.hit
        removed += o.to_shell + o.to_hp
        p_down += o.downed
    n = len(FACES)
    return p_hit / n, removed / n, p_down / n


#: Target values within one ranking, by the fighter objects they read (kept alive with them, so
#: that an object's id is not reused while the memo lives) and the attack's own figures; also
#: each fighter's :func:`_signature` and the ranking's context (``"context"``).
Memo = dict[Any, Any]

#: Target values across rankings and battles, by everything they depend on (see
#: :func:`_signature`); objects (templates, packs) and rulings enter keys by small numbers.
_VALUES: Cache[tuple[object, ...], float] = Cache("last-odyssey.target-values", maxsize=200_000)
_OBJECTS = SmallKeys("last-odyssey.objects", maxsize=4096)
_RULINGS = SmallKeys("last-odyssey.rulings", maxsize=256, by_value=True)


def _alive(obj: object) -> int:
    """The number of ``obj`` in keys (never another object's, see SmallKeys)."""
    return _OBJECTS.key_of(obj)


def _signature(f: Fighter, memo: Memo) -> tuple[object, ...]:
    """What a target value reads of a fighter, user or target (remembered per object within a
    ranking): the statistics' sources, Shells, HP, statuses, passives and what it carries."""
    key = ("signature", id(f))
    found = memo.get(key)
    if found is None:
        sig = (_alive(f.template), None if f.equipped is None else _alive(f.equipped),
               f.track, f.statuses, f.shells, f.hp, f.max_hp, f.passives,
               f.body_armor_spent, bool(f.items))
        found = memo[key] = (sig, f)
    return found[0]


def _context(state: LodState, memo: Memo) -> tuple[int, int]:
    """The pack and the rulings of a ranking, as small keys."""
    found = memo.get("context")
    if found is None:
        rk = state.rulings.key()
        found = memo["context"] = (_alive(state.pack), _RULINGS.key_of(rk))
    return found


def _target_value(state: LodState, f: Fighter, ability: Ability, tid: str, element: str,
                  knockout: bool, memo: Memo | None = None) -> float:
    if memo is None:
        return _target_value_now(state, f, ability, tid, element, knockout)
    t = state.fighters[tid]
    key = (id(f), id(t), ability.id, element, knockout)
    found = memo.get(key)
    if found is None:
        wide = (_signature(f, memo), _signature(t, memo), ability.id, element, knockout,
                _context(state, memo))
        value = _VALUES.get(wide)
        if value is None:
            value = _target_value_now(state, f, ability, tid, element, knockout)
            _VALUES.put(wide, value)
        found = memo[key] = (value, f, t)
    return found[0]


def _target_value_now(state: LodState, f: Fighter, ability: Ability, tid: str, element: str,
                      knockout: bool) -> float:
    t = state.fighters[tid]
    if ability.attack == "status":
        if ability.status in t.statuses:
            return 0.0
        s = target_setup(state, f.id, ability, tid, element, knockout)
        return _summary(s)[0] * STATUS_WORTH.get(ability.status or "", 2.0)
    s = target_setup(state, f.id, ability, tid, element, knockout)
    p_hit, removed, p_down = _summary(s)
    value = removed + DOWN_BONUS * p_down * (0.5 if "too-stupid-to-die" in t.passives else 1)
    if ability.steal and t.items:
        value += 1.5 * p_hit
    if ability.disarm and t.equipped is not None:
        value += 2.0 * p_hit
    if s.body_armor:
        value += 2.0 * p_hit
    return value


def _effect_value(state: LodState, f: Fighter, ability: Ability, tid: str,
                  element: str) -> float:
    t = state.fighters[tid]
    value = 0.0
    track = state.pack.figures.bonus_track
    for name, step in ((ability.buff, 1), (ability.debuff, -1)):
        if name is None or (step > 0 and "burned" in t.statuses):
            continue
        i = t.track[stat_index(name)] + step
        if 0 <= i < len(track):
            value += 2.0 * step * (1 if t.side == f.side else -1)
    if ability.heal and "burned" not in t.statuses:
        amount = min(ability.heal, t.max_hp - t.hp)
        value += amount * (1.5 if 2 * t.hp < t.max_hp else 1.0)
    if ability.restore_mp:
        value += 0.2 * min(ability.restore_mp, t.max_mp - t.mp)
    if ability.hurt:
        value -= ability.hurt * (1.0 if t.side == f.side else -1.0)
    if ability.user_mp:
        value += 0.2 * min(ability.user_mp, f.max_mp - f.mp)
    if ability.shell:
        el = element or ability.element
        have = dict(t.shells).get(el, 0)
        value += 0.7 * max(0, min(t.shell_cap, have + ability.shell) - have)
    if ability.gain_ammo:
        value += 3.0 if f.ammo == 0 else 0.2
    value += 3.0 * sum(1 for s in ability.cure if s in t.statuses)
    if t.side != f.side and (ability.heal or ability.shell or ability.cure):
        value = -value
    return value


def _ability_value(state: LodState, action: UseAbility, memo: Memo | None = None) -> float:
    f = state.fighters[action.unit]
    ability = state.ability(action.ability)
    total = 0.0
    for tid in action.targets:
        if ability.attack is not None:
            v = _target_value(state, f, ability, tid, action.element, action.knockout, memo)
            total += v if state.fighters[tid].side != f.side else -v
        else:
            total += _effect_value(state, f, ability, tid, action.element)
    if ability.user_dies:
        total -= f.hp + f.shell_total + DOWN_BONUS
    if ("confused" in f.statuses and not ability.is_multi
            and action.targets != (f.id,)):
        total *= 0.5
    total -= MP_WEIGHT * mp_cost(f, ability) + 0.5 * ability.ammo
    if ability.once_per_battle:
        total -= 0.5
    return total / max(1, ability.ap)


def _best_attack(state: LodState, unit: str, memo: Memo | None = None) -> float:
    """The best value among the unit's ability actions in ``state`` (at full AP)."""
    f = state.fighters[unit]
    actions = ability_actions(state, f, state.pack.figures.ap_for(f.tier))
    return max((_ability_value(state, a, memo) for a in actions), default=0.0)


def _after(state: LodState, action: Any) -> LodState:
    """A look-ahead copy after a move, swap or pick-up (only what changes is copied)."""
    s = copy.copy(state)
    if isinstance(action, Move):
        s.rows = s.rows.with_moved(action.unit, "front" if action.row == "front" else "back")
        return s
    f = copy.copy(state.fighters[action.unit])
    s.fighters = {**state.fighters, f.id: f}
    if isinstance(action, SwapEquipment):
        f.equipped = next(w for w in f.template.weapons if w.name == action.weapon)
    elif isinstance(action, PickUp):
        f.equipped, f.dropped = f.dropped, None
    return s


def _value(state: LodState, action: Any, now: dict[str, float], memo: Memo) -> float:
    if isinstance(action, UseAbility):
        return _ability_value(state, action, memo)
    if isinstance(action, UseItem):
        f = state.fighters[action.unit]
        return _effect_value(state, f, state.pack.items[action.item], action.target, "") - 1.0
    if isinstance(action, (Move, SwapEquipment, PickUp)):
        if action.unit not in now:
            now[action.unit] = _best_attack(state, action.unit, memo)
        gain = _best_attack(_after(state, action), action.unit, memo) - now[action.unit]
        return 0.9 * gain - 0.3 + (2.0 if isinstance(action, PickUp) else 0.0)
    if isinstance(action, HoldAP):
        return -0.4
    if isinstance(action, Flee):
        return -50.0
    if isinstance(action, EndTurn):
        return 0.0
    return 0.0


def rank_actions(state: LodState, actions: Sequence[Any]) -> list[float]:
    """Values of many actions at once (best attacks per unit computed once)."""
    now: dict[str, float] = {}
    memo: Memo = {}
    return [_value(state, a, now, memo) for a in actions]


def action_value(state: LodState, action: Any) -> float:
    """How good ``action`` looks for the side taking it."""
    return _value(state, action, {}, {})


def choose_decision(state: LodState, decision: Decide[Any],
                    rng: np.random.Generator | None) -> Any:
    """Greedy choices for decisions inside actions; ``None`` leaves it to the policy."""
    label = decision.label
    options = decision.options
    ctx = decision.context
    if label == "confused target":
        user, ability = str(ctx["user"]), str(ctx["ability"])
        values = [_ability_value(state, UseAbility(user, ability, (t,))) for t in options]
        return options[int(np.argmin(values))]
    if label == "item to steal":
        return options[0]
    if label.startswith("advance on"):
        return True if True in options else options[0]
    if label.startswith("initiative call"):
        figures = state.pack.figures
        n, sides = figures.initiative_roll
        likely = n * (sides + 1) // 2
        return likely if likely in options else options[0]
    return None
