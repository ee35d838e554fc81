"""The computer's choices in Arc: which action to take, and whether to evade.

:func:`rank_actions` values an attack by the exact expected damage to health (the target
assumed to evade when it can pay with AP), plus a bonus for the chance to put the target out of
action, per AP of the turn: as many such attacks as the AP and rounds left allow, so that it
aims when AP or rounds would otherwise go to waste. Reloading an empty or jammed gun, swapping
away from one, healing the unconscious or the badly hurt, stopping the bleeding, moving closer
on a grid when nobody is in sight (by the walk around walls to the nearest enemy), and
overwatch when no step brings it closer come next; ending the turn keeps AP for evading.
:func:`choose_decision` evades whenever AP pays for it, and with speed when the Evade is good.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from tactica.engine.caching import lru_bytes
from tactica.engine.chance import Decide, run_exact
from tactica.rulesets.arc.armor import DamageResult, DamageRules, Hits
from tactica.rulesets.arc.attack import (
    EVADE,
    AttackPlan,
    attack_plan,
    can_evade,
    consult_drop,
    damage_rules,
)
from tactica.rulesets.arc.checks import Check, CheckResult, evade_wins, hits_of, read_check
from tactica.rulesets.arc.content import DamageDice, Weapon
from tactica.rulesets.arc.movement import MELEE_REACH, reposition_metres
from tactica.rulesets.arc.records import (
    Attack,
    EndTurn,
    Hold,
    Move,
    Reload,
    Reposition,
    Swap,
    UseItem,
    Watch,
)
from tactica.rulesets.arc.state import ArcState, Fighter

__all__ = ["attack_value", "choose_decision", "rank_actions"]

#: What putting a target out of action is worth, in points of damage.
OUT_BONUS = 15.0


@lru_cache(maxsize=4096)
def _damage(dice: DamageDice, hits: int, armor: tuple[int, ...],
            rules: DamageRules) -> tuple[tuple[int, float], ...]:
    """The distribution of damage to health of ``hits`` hits against armor ``armor`` (only the
    dice that protect), as ``(damage, p)`` pairs."""
    node = Hits(dice, hits, armor, (True,) * len(armor), rules, "estimate")
    dist = run_exact(node)
    out: dict[int, float] = {}
    for res, p in dist.items():
        assert isinstance(res, DamageResult)
        out[res.health] = out.get(res.health, 0.0) + float(p)
    return tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def _faces(check: Check, arc2: str) -> tuple[CheckResult, ...]:
    rules = {"ARC-2": arc2}
    return tuple(read_check(face, check.target, check.increment, rules, combat=check.combat)
                 for face in range(1, check.sides + 1))


@lru_cache(maxsize=4096)
def _hits(check: Check, evade: Check | None, rof: Fraction,
          rulings: tuple[tuple[str, str], ...]) -> tuple[tuple[int, float], ...]:
    """The chance of each number of hits (the target evading if ``evade`` is given)."""
    rules = dict(rulings)
    counts: dict[int, int] = {}
    attack = _faces(check, rules["ARC-2"])
    defence = _faces(evade, rules["ARC-2"]) if evade is not None else None
    same = evade is not None and check.increment == evade.increment
    for res in attack:
        n = hits_of(res, rof, rules)
        if n == 0:
            continue
        if defence is None:
            counts[n] = counts.get(n, 0) + 1
            continue
        kept = sum(1 for ev in defence if not evade_wins(res, ev, rules, same_increment=same))
        counts[n] = counts.get(n, 0) + kept
    total = len(attack) * (len(defence) if defence is not None else 1)
    return tuple(sorted((n, c / total) for n, c in counts.items()))


def attack_value(state: ArcState, action: Attack,
                 plan: AttackPlan | None = None) -> tuple[float, float]:
    """``(expected damage to health, chance to put the target out of action)``."""
    plan = plan or attack_plan(state, action)
    a, t, w = state.fighters[action.unit], state.fighters[action.target], plan.weapon
    evade = plan.evade if can_evade(state, t) and t.ap > 0 else None
    if plan.take_one and plan.check.target >= 20:
        return _take_one_value(state, a, t, w)
    left = a.rounds_of(w.name)
    cap = None if left is None or state.rulings["ARC-22"] == "one" else left
    keys = ("ARC-2", "ARC-3", "ARC-6")
    hits = _hits(plan.check, evade, w.rof, tuple((k, state.rulings[k]) for k in keys))
    if cap is not None:
        capped: dict[int, float] = {}
        for n, p in hits:
            capped[min(n, cap)] = capped.get(min(n, cap), 0.0) + p
        hits = tuple(capped.items())
    armor = tuple(s for s, piece in zip(t.armor, t.profile.armor, strict=True)
                  if s > 0 and w.type in piece.against)
    rules = damage_rules(state.rulings)
    consult_drop(armor)
    expected = out = 0.0
    for n, p in hits:
        e, o = _summary(w.damage, n, armor, rules, t.health, t.health + t.profile.con)
        expected += p * e
        out += p * o
    return expected, out


@lru_cache(maxsize=8192)
def _summary(dice: DamageDice, hits: int, armor: tuple[int, ...], rules: DamageRules,
             health: int, most: int) -> tuple[float, float]:
    """The expected damage to health (at most ``most``) and the chance of ``health`` or more."""
    expected = out = 0.0
    for dmg, q in _damage(dice, hits, armor, rules):
        expected += q * min(dmg, most)
        out += q if dmg >= health else 0.0
    return expected, out


def _take_one_value(state: ArcState, a: Fighter, t: Fighter, w: Weapon) -> tuple[float, float]:
    n = 1 if state.rulings["ARC-3"] == "one-hit" else 0
    armor = tuple(s for s, piece in zip(t.armor, t.profile.armor, strict=True)
                  if s > 0 and w.type in piece.against)
    if n:
        consult_drop(armor)
    pairs = _damage(w.damage, n, armor, damage_rules(state.rulings)) if n else ((0, 1.0),)
    return (sum(d * q for d, q in pairs), sum(q for d, q in pairs if d >= t.health))


def _per_ap(state: ArcState, f: Fighter, action: Attack, value: float,
            plan: AttackPlan) -> float:
    """An attack's value per AP of the turn: as many such attacks as the AP and the rounds
    left allow, over the AP. Aiming wins where the AP (or the rounds) would go to waste: a
    bolt-action rifle's 4 AP out of 6, the last round in a pistol."""
    cost = plan.cost
    w = plan.weapon
    times = max(1, f.ap // cost) if f.ap else 1
    left = f.rounds_of(w.name)
    if left is not None and state.rulings["ARC-22"] == "rof":
        times = min(times, max(1, -(-left // w.max_hits())))
    elif left is not None:
        times = min(times, max(1, left))
    return times * value / max(f.ap, cost)


def _bleeding(wounds: tuple[int, ...]) -> float:
    return sum((w + 1) / 2 for w in wounds)


#: The bytes the walks to the nearest foe kept may take (about 100 a square: one walk of a 100
#: x 100 grid is about a megabyte; 1,024 entries alone, as before, let a run keep a gigabyte;
#: they stay too).
WALK_BYTES = 32 * 1024 * 1024


@lru_bytes(WALK_BYTES, size=lambda walk: 256 + 100 * len(walk), maxsize=1024)
def _walk_map(width: int, height: int, blocked: frozenset[tuple[int, int]],
              foes: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], int]:
    """Squares to the nearest foe, around walls (eight ways, characters ignored)."""
    out = {foe: 0 for foe in foes}
    frontier = list(foes)
    while frontier:
        nxt = []
        for x, y in frontier:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    t = (x + dx, y + dy)
                    if (t not in out and 0 <= t[0] < width and 0 <= t[1] < height
                            and t not in blocked):
                        out[t] = out[(x, y)] + 1
                        nxt.append(t)
        frontier = nxt
    return out


def _distance(walk: dict[tuple[int, int], int], at: tuple[int, int]) -> int:
    return walk.get(at, 1000)


def _value(state: ArcState, f: Fighter, action: Any, can_attack: bool,
           walk: dict[tuple[int, int], int]) -> float:
    if isinstance(action, Attack):
        plan = attack_plan(state, action)
        expected, out = attack_value(state, action, plan)
        return _per_ap(state, f, action, expected + OUT_BONUS * out, plan) + 1.0
    if isinstance(action, Reload):
        return 4.0 if not f.can_fire() else (-1.0 if can_attack else 0.2)
    if isinstance(action, Swap):
        other = f.profile.weapon(action.weapon)
        return 3.0 if not f.can_fire() and f.can_fire(other) else -1.0
    if isinstance(action, UseItem):
        t = state.fighters[action.target]
        item = state.items[action.item]
        value = 0.0
        if item.heal is not None:
            if not t.conscious:
                value += 12.0
            elif t.health * 2 <= t.profile.max_health:
                value += 2.0 + (item.heal.n * (item.heal.sides + 1) / 2) / 4
        if item.remove_steps is not None and t.wounds:
            value += 0.4 * _bleeding(t.wounds)
        # Paying with speed costs next round's AP; carrying over also delays the effect.
        value -= {"speed": 0.5, "carry": 1.0}.get(action.pay, 0.0)
        return value - 0.5 if value > 0 else -1.0
    if isinstance(action, Move):
        if can_attack or f.at is None:
            return -1.5
        x, _, y = action.to.partition(",")
        now = _distance(walk, f.at)
        after = _distance(walk, (int(x), int(y)))
        return 0.1 * (now - after) - 0.001 * _move_cost(action)
    if isinstance(action, Reposition):
        return _reposition_value(state, f, action, can_attack)
    if isinstance(action, Watch):
        if can_attack:
            return -1.0
        return 0.05 if action.kind == "overwatch" else 0.01 * action.ap
    if isinstance(action, Hold):
        return -2.0
    if isinstance(action, EndTurn):
        return -0.5
    return -1.0


def _reposition_value(state: ArcState, f: Fighter, action: Reposition,
                      can_attack: bool) -> float:
    """Without a map: close on an enemy the weapon in hand cannot reach, getting it in reach
    with the fewest AP, else as far as the AP go; never move while an attack is possible."""
    t = state.fighters[action.other]
    if can_attack or action.away or t.side == f.side or not t.in_action \
            or not f.profile.weapons:
        return -1.5
    now = state.ranges.get(frozenset((f.id, t.id)))
    if now is None:
        return -1.5
    w = f.weapon
    limit = MELEE_REACH if w.melee else w.range
    after = max(Fraction(0), now - reposition_metres(action.mode, action.ap))
    if limit is None or not f.can_fire():
        return -1.5
    if after <= limit:
        return 1.0 - 0.05 * action.ap
    return 0.05 * float(now - after) / action.ap


def _move_cost(action: Move) -> int:
    return {"sprint": 0, "run": 1, "walk": 2, "slow": 3}.get(action.mode, 3)


def rank_actions(state: ArcState, actions: Sequence[Any]) -> list[float]:
    """How good each action looks for the side taking it (higher is better)."""
    if not actions:
        return []
    f = state.fighters[actions[0].unit]
    can_attack = any(isinstance(a, Attack) for a in actions)
    walk: dict[tuple[int, int], int] = {}
    grid = state.grid
    if grid is not None and not can_attack:
        foes = tuple(g.at for g in state.standing() if g.side != f.side and g.at is not None)
        walk = _walk_map(grid.width, grid.height, grid.blockers, foes)
    return [-1.5 if can_attack and isinstance(a, Move) else _value(state, f, a, can_attack, walk)
            for a in actions]


def choose_decision(state: ArcState, decision: Decide[Any],
                    rng: np.random.Generator | None) -> object:
    """Evade when AP pays for it and the Evade can work; with speed only when it is good."""
    if decision.label == EVADE:
        unit = str(decision.context.get("unit", ""))
        t = state.fighters.get(unit)
        if t is None or True not in decision.options:
            return decision.options[0]
        skill = t.profile.skill("evade")
        if t.ap > 0:
            return skill >= 4
        return skill >= 10 and t.debt == 0
    return decision.options[0]
