"""One Arc attack as a chance process: the Evade declared first, the Guns check, the jam, the
hits, then the hits against armor and the damage to health.

:func:`attack_process` is the same process for the battle (actions and reactions), exact odds
and the tests. Its head (costs, the Evade, the checks) is emitted before the hits are
resolved by :class:`~tactica.rulesets.arc.armor.Hits` nodes, and the damage is emitted at the
end from one continuation shared by every branch, so the exact driver merges equal hits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tactica.dice import die
from tactica.engine.chance import Decide, Done, Roll, Step, and_then, emit_all
from tactica.rulesets.arc.armor import DamageResult, DamageRules, Hits, add_wounds
from tactica.rulesets.arc.checks import (
    DEFAULT_INCREMENT,
    Check,
    CheckResult,
    evade_wins,
    fixed,
    hits_of,
    read_check,
    take_one,
)
from tactica.rulesets.arc.content import Weapon
from tactica.rulesets.arc.records import (
    APRefunded,
    APSpent,
    ArmorWorn,
    Attack,
    Attacked,
    Jammed,
    RoundsFired,
    Wounded,
)
from tactica.rulesets.arc.state import ArcState, Fighter, who
from tactica.rulesets.arc.steps import fall_events

__all__ = [
    "EVADE",
    "AttackPlan",
    "aim_modifier",
    "attack_plan",
    "attack_process",
    "can_evade",
    "check_die",
    "damage_rules",
    "useful_aims",
]

#: The label of the decision to evade (options: True, False).
EVADE = "evade"


def aim_modifier(w: Weapon, aim: int, rulings: Mapping[str, str]) -> int:
    """The target modifier of an attack aimed ``aim`` AP (ARC-13)."""
    if rulings["ARC-13"] == "remove-first":
        return w.unaimed if aim == 0 else min(w.accuracy, max(w.unaimed, aim - 1, 0))
    return min(w.accuracy, w.unaimed + aim)


def useful_aims(w: Weapon, rulings: Mapping[str, str]) -> tuple[int, ...]:
    """0, then every number of AP of aiming that raises the modifier, up to the maximum."""
    out = [0]
    best = aim_modifier(w, 0, rulings)
    aim = 0
    while best < w.accuracy and aim < 20:
        aim += 1
        m = aim_modifier(w, aim, rulings)
        if m > best:
            out.append(aim)
            best = m
    return tuple(out)


def check_die(state: ArcState, unit: str, skill: str) -> int:
    """The die of ``unit``'s check of ``skill`` now: a d10 on its first turn after a
    successful initiative for a check that involves AGI or the attribute swapped in for it
    (ARC-20: its own checks, or every such check until that turn ends), else a d20."""
    if unit not in state.d10 or not state.fighters[unit].profile.involves(skill):
        return 20
    if state.rulings["ARC-20"] == "until-turn-ends" or state.active == unit:
        return 10
    return 20


def can_evade(state: ArcState, t: Fighter) -> bool:
    """Aware, in action, and able to pay 1 AP, or 1 speed when no AP is left (ARC-19)."""
    if not t.in_action or not state.is_aware(t.id):
        return False
    if t.ap > 0:
        return True
    return state.rulings["ARC-19"] == "next-round" and t.debt < t.profile.speed.rank


def damage_rules(rulings: Mapping[str, str]) -> DamageRules:
    """ARC-4, ARC-5 and ARC-16 as :class:`DamageRules`."""
    return DamageRules(rulings["ARC-4"], rulings["ARC-16"] == "massive",
                       rulings["ARC-5"] == "penetrates")


@dataclass(frozen=True)
class AttackPlan:
    """Everything the dice of one attack depend on."""

    unit: str
    target: str
    weapon: Weapon
    aim: int
    modifier: int
    check: Check
    evade: Check
    take_one: bool
    attack_ap: int = 1

    @property
    def cost(self) -> int:
        """AP of the attack: aiming plus the attack itself."""
        return self.aim + self.attack_ap


def attack_plan(state: ArcState, action: Attack) -> AttackPlan:
    """The checks of ``action`` in ``state``."""
    a, t = state.fighters[action.unit], state.fighters[action.target]
    w = a.profile.weapon(action.weapon)
    mod = aim_modifier(w, action.aim, state.rulings)
    skill = a.profile.skill(w.skill)
    check = Check(w.skill.replace("_", " ").title(), skill + mod, w.increment,
                  check_die(state, a.id, w.skill))
    evade = Check("Evade", t.profile.skill("evade"), DEFAULT_INCREMENT,
                  check_die(state, t.id, "evade"))
    return AttackPlan(a.id, t.id, w, action.aim, mod, check, evade, action.take_one,
                      w.attack_ap(state.rulings))


def _roll_check(label: str, check: Check, rulings: Mapping[str, str],
                k: Callable[[int, CheckResult], Step], named: str = "") -> Step:
    def read(face: int) -> Step:
        return k(face, read_check(face, check.target, check.increment, rulings,
                                  combat=check.combat))

    hint = check_hint(check, rulings)
    if named and named != label:  # the label (in the log) has the ids, the hint the names
        hint = f"{named}: {hint}"
    return Roll(f"{label} ({check.label()})", check.die, read, (check.die,), _first,
                hint=hint)


def check_hint(check: Check, rulings: Mapping[str, str]) -> str:
    """What a check's roll needs, in words: the target, how the degrees are counted, and what
    a 1 (and, on a d20, a 20) does; the rule ids stay in the odds and the help."""
    plus = ", plus one" if rulings["ARC-2"] == "floor-plus-one" else ""
    text = (f"{check.target} or under succeeds; the degrees are the roll divided by "
            f"{check.increment}, rounded down{plus}; a 1 always succeeds")
    if check.sides >= 20:
        text += (", a 20 always fails" if check.combat
                 else ", a 20 fails unless the target is 20 or more")
    return text


def _first(faces: tuple[int, ...]) -> int:
    return faces[0]


def attack_process(state: ArcState, action: Attack, *, reaction: str = "",
                   evade: bool | None = None, preset: CheckResult | None = None) -> Step:
    """The process of one attack; it ends in ``Done(None)``.

    ``reaction`` names a watch that fires (its AP were committed before: none is spent
    here); ``evade`` forces the target's choice (odds), else the target's side decides when
    it may evade. ``preset``: the check was rolled before (a suppression declared under
    ARC-32 ``declared``): nothing is rolled and the attack is unopposed (no Evade).
    """
    plan = attack_plan(state, action)
    rulings = state.rulings
    a, t, w = state.fighters[plan.unit], state.fighters[plan.target], plan.weapon
    head: list[Any] = []
    if not reaction:
        head.append(APSpent(a.id, plan.cost, a.ap - plan.cost, 0, f"attack ({w.name})"))
    finish = _finisher(state, a, t, w)

    def declared(evading: bool) -> Step:
        spent: list[Any] = []
        borrowed = 0
        if evading:
            borrowed = 0 if t.ap > 0 else 1
            spent.append(APSpent(t.id, 1, max(0, t.ap - 1), borrowed, "evade"))

        def attacked(face: int, result: CheckResult) -> Step:
            if not evading:
                return jam(face, result, None)
            return _roll_check(f"{t.id} evades", plan.evade, rulings,
                               lambda _f, ev: jam(face, result, ev),
                               f"{who(state, t.id)} evades")

        def jam(face: int, result: CheckResult, ev: CheckResult | None) -> Step:
            if w.failure is not None and face >= w.failure[0]:
                second = w.failure[1]
                return Roll(f"{a.id}'s {w.name}: jam threat (jams on {second}+)", die(20),
                            lambda v: land(result, ev, v >= second), (die(20),), _first)
            return land(result, ev, False)

        def land(result: CheckResult, ev: CheckResult | None, jammed: bool) -> Step:
            evaded = ev is not None and evade_wins(
                result, ev, rulings, same_increment=plan.check.increment == plan.evade.increment)
            hits = 0 if evaded else hits_of(result, w.rof, rulings)
            out: list[Any] = [*head, *spent]
            if evaded:
                out.append(APRefunded(t.id, 1, t.ap if borrowed == 0 else 0, borrowed))
            fired_events: list[Any] = []
            left = a.rounds_of(w.name)
            if left is not None:
                fired = 1 if rulings["ARC-22"] == "one" else min(w.max_hits(), left)
                hits = min(hits, fired) if rulings["ARC-22"] == "rof" else hits
                fired_events.append(RoundsFired(a.id, w.name, fired, left - fired))
            out.append(Attacked(a.id, t.id, w.name, plan.aim, plan.check.target,
                                plan.check.increment, plan.check.sides, result.success,
                                result.degree, result.how,
                                None if ev is None else (ev.success, ev.degree), evaded, hits,
                                reaction))
            out += fired_events
            if jammed:
                out.append(Jammed(a.id, w.name))
            if hits == 0:
                return emit_all(out, Done(None))
            node = Hits(w.damage, hits, t.armor,
                        tuple(p.protects(w.type) for p in t.profile.armor),
                        damage_rules(rulings), f"{a.id}'s {w.name} on {t.id}")
            return emit_all(out, and_then(node, finish))

        if preset is not None:
            return attacked(0, preset)
        if w.hardware_degree is not None:
            return attacked(0, fixed(w.hardware_degree))
        taken = take_one(plan.check.target) if plan.take_one else None
        if taken is not None:
            return attacked(0, taken)
        return _roll_check(f"{a.id} attacks {t.id}", plan.check, rulings, attacked,
                           f"{who(state, a.id)} attacks {who(state, t.id)}")

    if evade is not None:
        return declared(evade)
    if preset is not None or not can_evade(state, t):
        return declared(False)
    return Decide(t.side, EVADE, (True, False), declared,
                  {"unit": t.id, "attacker": a.id, "weapon": w.name, "check": plan.check,
                   "evade": plan.evade})


def _finisher(state: ArcState, a: Fighter, t: Fighter, w: Weapon) -> Any:
    """The continuation every branch of one attack shares: the damage events."""
    rulings = state.rulings

    def finish(result: DamageResult) -> Step:
        out: list[Any] = []
        if result.absorbed or result.degraded or result.destroyed:
            out.append(ArmorWorn(t.id, result.armor, result.absorbed, result.degraded,
                                 result.destroyed))
        if result.health > 0:
            health = t.health - result.health
            wounds = add_wounds(t.wounds, result.wound_dice, rulings["ARC-7"])
            out.append(Wounded(t.id, result.health, a.id, health, result.wound_dice, wounds))
            limit = t.profile.max_health
            outright = (result.health > limit if rulings["ARC-8"] == "exceeds"
                        else result.health >= limit)
            out += fall_events(state, t, health, outright=outright)
        return emit_all(out, Done(None))

    return finish
