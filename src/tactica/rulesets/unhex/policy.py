"""The decisions the computer takes for a side: inside actions, and which action to take.

:func:`decide` answers every :class:`~tactica.engine.chance.Decide` an Unhex process asks (reacting
or not, intercepting, die assignment, critical success, re-rolls, first aid, where a mover
stops, initiative). :func:`rank_actions` values a team's actions for the greedy policy: attacks
by their expected harm (against a defence if the target can defend), moves by the attacks and
threats of the new area and the risk of being intercepted on the way, first aid by the marks it
would save, and ending the turn at zero (keeping the actions to react).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from tactica.dice import Dist
from tactica.engine.chance import Decide
from tactica.rulesets.unhex.aid import first_aid_plans, harden, slashes_to_x, treat
from tactica.rulesets.unhex.attack import Fighter, defence_wins
from tactica.rulesets.unhex.body import LOCATIONS, Body
from tactica.rulesets.unhex.dice import (
    PAIR,
    Check,
    CheckResult,
    Pair,
    critical,
    number,
    pair_of,
    set_limit,
    succeeds,
)
from tactica.rulesets.unhex.legal import (
    can_be_attacked,
    first_aid_kit,
    reach,
    reactions_to_attack,
    weapons_in_hand,
)
from tactica.rulesets.unhex.records import (
    Arrange,
    Attack,
    Door,
    Drop,
    FirstAid,
    Move,
    Operate,
    Reaction,
    Retreat,
)
from tactica.rulesets.unhex.rules import attack_plan, shielded
from tactica.rulesets.unhex.state import Character, UnhexState
from tactica.rulesets.unhex.values import (
    assignment_choice,
    best_set_number,
    crit_takes_set,
    estimate,
    quick_estimate,
    reroll_choice,
)

__all__ = ["body_score", "breaking", "decide", "rank_actions"]

_WEIGHTS = {"head": 3.0, "right arm": 1.5, "left arm": 1.5, "torso": 2.0, "right leg": 1.0,
            "left leg": 1.0}


def body_score(body: Body) -> float:
    """How well a body is: awake, and few heavy marks (``X`` and permanent count most)."""
    score = 0.0 if body.unconscious else 30.0
    for loc in LOCATIONS:
        m = body.marks_at(loc)
        score -= _WEIGHTS[loc] * (0.5 * m.slash + m.x + 2 * m.perm)
    return score - (100.0 if body.dead else 0.0)


def _sample(choice: Any, rng: np.random.Generator | None) -> Any:
    if isinstance(choice, Dist) and rng is not None:
        return choice.sample(rng)
    return choice


# --------------------------------------------------------------------------------------------
# Decisions inside actions


def decide(state: UnhexState, decision: Decide[Any], rng: np.random.Generator | None) -> Any:
    """The computer's answer to a decision inside an action (a Dist when ``rng`` is None and
    the ruling mixes options)."""
    ctx = decision.context
    kind = ctx.get("kind")
    options = decision.options
    rule6, rule7 = state.rulings["UNH-6"], state.rulings["UNH-7"]
    if kind == "assign":
        return _sample(assignment_choice(ctx["plan"], options, rule6), rng)
    if kind == "critical":
        return "set-dice" if _crit_sets(ctx["check"], ctx["pair"], rule6, rule7) \
            else "extra-action"
    if kind == "set-dice":
        return _set_number(ctx["check"], ctx["pair"], rule6)
    if kind == "reroll":
        return reroll_choice(ctx["pair"], _goal(ctx["check"]))
    if kind == "first-aid":
        return max(options, key=lambda p: body_score(treat(ctx["body"], p.erase)))
    if kind == "harden":
        # The patient's friends spare it; anyone else hardens as much as it can.
        friend = state.chars[ctx["target"]].side == decision.side
        sign = 1.0 if friend else -1.0
        return max(options, key=lambda h: sign * body_score(harden(ctx["body"], h.marks)))
    if kind == "react":
        return _react(state, ctx["attack"], options)
    if kind == "surrender-move":
        return options[-1] if breaking(state, state.chars[ctx["mover"]]) else options[0]
    if kind == "intercept":
        return _intercept(state, ctx["unit"], ctx["mover"], ctx["start"], ctx["to"], options)
    if kind == "stop":
        return _stop(state, decision.side, options)
    if kind == "initiative-roller":
        good = [o for o in options if "initiative" in state.chars[o].good]
        return good[0] if good else options[0]
    if kind == "roll-order":
        holder = ctx["holder"]
        mine = [c for c in state.fighters(holder) if "initiative" in c.good]
        others = [o for o in options if o != holder]
        return others[0] if mine and others else holder
    return options[0]


def _crit_sets(spec: Check, pair: Pair, rule6: str, rule7: str) -> bool:
    if rule7 != "policy":
        return rule7 == "set-dice"
    what = spec.purpose[0]
    if what == "attack":
        return crit_takes_set(spec.purpose[1], pair, rule6, rule7)
    if what == "defend":
        plan, against = spec.purpose[1], spec.purpose[2]
        if against is None or not against.success:
            return False
        limit = set_limit(pair, spec.level, spec.max_level)
        now = defence_wins(plan, against, CheckResult(pair, True))
        return not now and defence_wins(plan, against, CheckResult(pair_of(limit), True))
    if what == "first-aid":
        body = spec.purpose[2]
        limit = set_limit(pair, spec.level, spec.max_level)
        best = _aid_best(body, pair_of(_aid_number(body, limit)))
        return best - _aid_best(body, pair) > 5.0
    return False


def _set_number(spec: Check, pair: Pair, rule6: str) -> int:
    limit = set_limit(pair, spec.level, spec.max_level)
    what = spec.purpose[0]
    if what == "attack":
        return best_set_number(spec.purpose[1], limit, rule6)
    if what == "first-aid":
        return _aid_number(spec.purpose[2], limit)
    return limit


@lru_cache(maxsize=1 << 14)
def _aid_best(body: Body, pair: Pair) -> float:
    return max(body_score(treat(body, p.erase)) for p in first_aid_plans(body, pair))


def _aid_number(body: Body, limit: int) -> int:
    return max(range(1, limit + 1), key=lambda n: (_aid_best(body, pair_of(n)), n))


def _goal(spec: Check) -> Any:
    level, what = spec.level, spec.purpose[0] if spec.purpose else ""
    if what == "initiative":
        beat = spec.purpose[1]
        return lambda p: succeeds(p, level) and number(p) > beat
    against = spec.purpose[2] if what in ("attack", "defend") else None
    if what == "defend" and against is not None and against.success:
        plan = spec.purpose[1]
        return lambda p: defence_wins(plan, against, CheckResult(p, succeeds(p, level)))
    if what == "attack" and against is not None and against.success:
        plan = spec.purpose[1]
        return lambda p: succeeds(p, level) and not defence_wins(
            plan, CheckResult(p, True), against)
    return lambda p: succeeds(p, level)


def _later(state: UnhexState, c: Character) -> float:
    """What keeping an action is worth to ``c``: an attack on its team's turn still to come."""
    side = c.side
    if side not in state.order or state.order.index(side) <= state.turn:
        return 0.0
    scale = 0.5 if c.actions > 1 else 1.0
    return scale * max(1.0, 0.8 * _best_attack(state, c, c.area, weapons_in_hand(state, c)))


def breaking(state: UnhexState, c: Character) -> bool:
    """An NPC wounded in earlier rounds whose team's initiative roll failed critically this
    round (a wound taken later in the round does not count): under UNH-27 ``break`` (or
    ``wounded-now``) the computer has it retreat where it can, else surrender when next
    attacked."""
    return state.rulings["UNH-27"] != "fight-on" and not c.pc and c.id in state.broken


def _react(state: UnhexState, act: Attack, options: Sequence[Reaction]) -> Reaction:
    a, t = state.chars[act.unit], state.chars[act.target]
    if breaking(state, t):
        for o in options:
            if o.kind == "surrender":
                return o
    rule6, rule7 = state.rulings["UNH-6"], state.rulings["UNH-7"]
    look = state.view.look(a.area, t.area)
    plan = attack_plan(state, a, Fighter.of(t), act.weapon, "attack", look.distance or 0,
                       look.cover, False)
    none = estimate(plan, rule6, rule7)
    best: tuple[float, int] = (float("-inf"), 0)
    for i, o in enumerate(options):
        if o.kind == "none":
            v = -none.harm + _later(state, t)
        elif o.kind == "defend":
            v = -estimate(replace(plan, defend=True), rule6, rule7).harm
        elif o.kind == "counterattack" and o.weapon is not None:
            counter = attack_plan(state, t, Fighter.of(a), o.weapon, "counterattack", 0,
                                  False, False)
            v = -none.harm + estimate(counter, rule6, rule7).harm
        elif o.kind == "surrender":
            v = -none.harm + 1.0 if _helpless(state, t) and none.p_knockout > 0.25 else -1e9
        else:
            v = -1e9
        best = max(best, (v, -i))
    return options[-best[1]]


def _helpless(state: UnhexState, c: Character) -> bool:
    """No weapon carried, held or on the floor of its area."""
    items = (*c.items, *state.floor.get(c.area, ()))
    return not any(state.item(n).is_weapon for n in items)


def _intercept(state: UnhexState, uid: str, mover: str, start: str, to: str,
               options: Sequence[Reaction]) -> Reaction:
    m, c = state.chars[mover], state.chars[uid]
    rule6, rule7 = state.rulings["UNH-6"], state.rulings["UNH-7"]
    best: tuple[float, int] = (_later(state, c), 0)
    for i, o in enumerate(options):
        if o.weapon is None:
            continue
        look = reach(state, c.area, state.item(o.weapon), (start, to))
        if look is None:
            continue
        plan = attack_plan(state, c, Fighter.of(m), o.weapon, "intercept", look.distance or 0,
                           False, False)
        best = max(best, (estimate(plan, rule6, rule7).harm + 0.5, -i))
    return options[-best[1]]


def _stop(state: UnhexState, side: str, options: Sequence[str]) -> str:
    def exposure(area: str) -> int:
        return sum(1 for c in state.fighters(side) for w in weapons_in_hand(state, c)
                   if reach(state, c.area, w, area) is not None)

    return max(options, key=lambda area: (exposure(area), area == options[0]))


# --------------------------------------------------------------------------------------------
# Which action


def _est(state: UnhexState, a: Character, t: Character, cover: bool,
         defend: bool = False, memo: dict[Any, Any] | None = None) -> float:
    """The expected harm of ``a`` attacking ``t`` (any weapon: damage comes from the dice).

    ``memo`` remembers it within one ranking (one state): it depends on the two characters'
    bodies, sides, areas and ``t``'s hands, which ``a``'s copies with other hands share."""
    if memo is not None:
        key = ("est", a.id, a.area, t.id, cover, defend)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _est(state, a, t, cover, defend)
        return float(found)
    edge = int(t.pc) if t.pc != a.pc else int(state.rulings["UNH-14"] == "reactor")
    picks = cover or shielded(state, Fighter.of(t), 1 if a.area != t.area else 0)
    return quick_estimate(a.body, t.body, state.damage, state.rulings["UNH-6"],
                          state.rulings["UNH-7"], cover=picks, defend=defend, edge=edge).harm


def _arms(state: UnhexState, c: Character, memo: dict[Any, Any] | None) -> list[Any]:
    """:func:`weapons_in_hand`, remembered within one ranking by the hands (a copy of ``c``
    holding other items has other weapons)."""
    if memo is None:
        return weapons_in_hand(state, c)
    key = ("arms", c.id, c.right, c.left)
    found = memo.get(key)
    if found is None:
        found = memo[key] = weapons_in_hand(state, c)
    return list(found)


def _best_attack(state: UnhexState, c: Character, area: str, weapons: Sequence[Any],
                 defend: bool = False, memo: dict[Any, Any] | None = None) -> float:
    if memo is not None:
        key = ("best", c.id, area, tuple(w.name for w in weapons), defend)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _best_attack_of(state, c, area, weapons, defend, memo)
        return float(found)
    return _best_attack_of(state, c, area, weapons, defend, None)


def _foes(state: UnhexState, side: str, memo: dict[Any, Any] | None) -> list[Character]:
    """The characters of other sides in the fight, in scenario order (remembered within one
    ranking)."""
    if memo is not None:
        found = memo.get(("foes", side))
        if found is None:
            found = memo[("foes", side)] = _foes(state, side, None)
        return list(found)
    return [t for t in state.chars.values() if t.side != side and t.in_fight]


def _best_attack_of(state: UnhexState, c: Character, area: str, weapons: Sequence[Any],
                    defend: bool, memo: dict[Any, Any] | None) -> float:
    best = 0.0
    for t in _foes(state, c.side, memo):
        for w in weapons:
            look = reach(state, area, w, t.area)
            if look is not None:
                best = max(best, _est(state, c, t, look.cover, defend, memo))
    return best


def _threat(state: UnhexState, c: Character, area: str,
            memo: dict[Any, Any] | None = None) -> float:
    total = 0.0
    for e in _foes(state, c.side, memo):
        worst = 0.0
        for w in _arms(state, e, memo):
            look = reach(state, e.area, w, area)
            if look is not None:
                worst = max(worst, _est(state, e, c, look.cover, False, memo))
        total += worst
    return total


def _nearest(state: UnhexState, c: Character, area: str) -> int:
    dists = [state.view.look(area, e.area).distance for e in state.fighters()
             if e.side != c.side]
    return min((d for d in dists if d is not None), default=0)


def _position(state: UnhexState, c: Character, area: str, memo: dict[Any, Any]) -> float:
    key = ("position", c.id, area)
    found = memo.get(key)
    if found is None:
        weapons = _arms(state, c, memo)
        found = (0.7 * _best_attack(state, c, area, weapons, memo=memo)
                 - 0.35 * _threat(state, c, area, memo) - 0.3 * _nearest(state, c, area))
        memo[key] = found
    return found


def _move_risk(state: UnhexState, c: Character, to: str,
               memo: dict[Any, Any] | None = None) -> float:
    risk = 0.0
    for e in _foes(state, c.side, memo):
        if e.actions <= 0:
            continue
        for w in _arms(state, e, memo):
            if reach(state, e.area, w, (c.area, to)) is not None:
                risk += 0.5 * _est(state, e, c, False, False, memo)
                break
    return risk


def _attack_value(state: UnhexState, act: Attack) -> float:
    a, t = state.chars[act.unit], state.chars[act.target]
    if not can_be_attacked(state, t) or not t.in_fight:
        return -1.0
    rule6, rule7 = state.rulings["UNH-6"], state.rulings["UNH-7"]
    look = state.view.look(a.area, t.area)
    weapon = state.item(act.weapon)
    options = reactions_to_attack(state, a, t, weapon, look)
    kinds = {o.kind for o in options}
    plan = attack_plan(state, a, Fighter.of(t), act.weapon, "attack", look.distance or 0,
                       look.cover, "defend" in kinds)
    value = estimate(plan, rule6, rule7).harm
    counters = [o.weapon for o in options if o.kind == "counterattack" and o.weapon]
    if counters:
        cplan = attack_plan(state, t, Fighter.of(a), counters[0], "counterattack", 0, False,
                            False)
        value -= 0.5 * estimate(cplan, rule6, rule7).harm
    return value + 0.5


def _aid_quick(body: Body, boxes: int, places: int) -> float:
    """The body's score after erasing ``boxes`` slashes over ``places`` locations, the
    weightiest locations first (a quick stand-in for the treater's best plan)."""
    order = sorted(LOCATIONS, key=lambda loc: -_WEIGHTS[loc])
    erase: list[tuple[str, int]] = []
    for loc in order:
        if boxes <= 0 or len(erase) >= places:
            break
        n = min(boxes, body.marks_at(loc).slash)
        if n:
            erase.append((loc, n))
            boxes -= n
    return body_score(treat(body, tuple(erase)))


@lru_cache(maxsize=1 << 14)
def _aid_gain(body: Body, level: int) -> float:
    """The expected change of the body's score from one first aid roll at ``level``."""
    now = body_score(body)
    fail = body_score(slashes_to_x(body)) - now
    quick = {(a, b): max(_aid_quick(body, a, b + 1), _aid_quick(body, b, a + 1))
             for a in range(10) for b in range(a, 10)}
    total = 0.0
    for pair in PAIR.outcomes:
        if succeeds(pair, level):
            total += quick[min(pair), max(pair)] - now
        elif critical(pair, level) == "failure":
            total += fail - 2.0
        else:
            total += fail
    return total / 100


def _arrange_value(state: UnhexState, c: Character, act: Arrange,
                   memo: dict[Any, Any]) -> float:
    held = copy.copy(c)
    held.right, held.left = act.right, act.left
    now = _best_attack(state, c, c.area, _arms(state, c, memo), memo=memo)
    then = _best_attack(state, held, c.area, _arms(state, held, memo), memo=memo)
    armed_now = bool(_arms(state, c, memo))
    armed_then = bool(_arms(state, held, memo))
    value = then - now - 0.2
    if armed_then and not armed_now:
        value += 2.0
    if first_aid_kit(state, held) and not first_aid_kit(state, c):
        needy = [t for t in state.chars.values() if t.side == c.side and t.area == c.area
                 and t.body.slashes and not t.body.dead]
        if needy:
            value += 0.5 * max(_aid_gain(t.body, c.level) for t in needy)
    return value


def _one(state: UnhexState, action: Any, memo: dict[Any, Any]) -> float:
    if isinstance(action, Attack):
        return _attack_value(state, action)
    if isinstance(action, Move):
        c = state.chars[action.unit]
        return (_position(state, c, action.to, memo) - _position(state, c, c.area, memo)
                - _move_risk(state, c, action.to, memo))
    if isinstance(action, FirstAid):
        c, t = state.chars[action.unit], state.chars[action.target]
        if t.side != c.side:
            return -1.0
        return _aid_gain(t.body, c.level) - 0.2
    if isinstance(action, Arrange):
        return _arrange_value(state, state.chars[action.unit], action, memo)
    if isinstance(action, Door):
        return -0.3
    if isinstance(action, Retreat):
        return -2.0
    if isinstance(action, Drop):
        return -1.0
    return 0.0


def _exit_distance(state: UnhexState, area: str) -> int:
    found = [d for e in state.exits if (d := state.view.look(area, e).distance) is not None]
    return min(found, default=0)


def _fleeing(state: UnhexState, action: Any) -> float | None:
    """The value of an action of a breaking NPC (see :func:`breaking`), or ``None``."""
    unit = getattr(action, "unit", None)
    if not isinstance(unit, str) or unit not in state.chars:
        return None
    c = state.chars[unit]
    if not breaking(state, c):
        return None
    if isinstance(action, Retreat):
        return 100.0
    if isinstance(action, Move) and state.exits:
        return 10.0 * (_exit_distance(state, c.area) - _exit_distance(state, action.to))
    return -5.0


def _operate_value(state: UnhexState, action: Operate) -> float:
    side = state.chars[action.unit].side
    wanted = any(ob.use == action.fixture and ob.side == side for ob in state.objectives)
    return 100.0 if wanted and (action.fixture, side) not in state.used else -0.5


def rank_actions(state: UnhexState, actions: Sequence[Any]) -> list[float]:
    """The value of each action for the side taking it (higher is better)."""
    memo: dict[Any, Any] = {}
    out = []
    for a in actions:
        fleeing = _fleeing(state, a)
        if fleeing is not None:
            out.append(fleeing)
        elif isinstance(a, Operate):
            out.append(_operate_value(state, a))
        else:
            out.append(_one(state, a, memo))
    return out
