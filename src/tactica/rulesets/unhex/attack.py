"""One Unhex attack as a chance process: the rolls, a defence, the die assignment, the wound.

:func:`attack_roll` is used unchanged by the battle (attacks, counterattacks, interceptions),
by exact odds and by the tests. It ends in ``Done(AttackOutcome)``; :func:`attack_events` turns
an outcome into the events the battle applies. The intermediate states are hashable nodes, so
the exact driver merges equal rolls before the defence is rolled and keeps odds cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tactica.engine.chance import Decide, Done, Step
from tactica.rulesets.unhex.body import Body, DamageRules, Wound, location_of, wound
from tactica.rulesets.unhex.dice import Check, CheckResult, Pair, check
from tactica.rulesets.unhex.records import (
    ActionGained,
    ActionLost,
    Assignment,
    Attacked,
    Defended,
    Died,
    ItemDropped,
    KnockedOut,
    LevelLowered,
    LocationFilled,
    MarksRow,
    Wounded,
)
from tactica.rulesets.unhex.state import Character

__all__ = [
    "AttackOutcome",
    "AttackPlan",
    "Fighter",
    "assignments",
    "attack_events",
    "attack_roll",
    "crit_events",
    "defence_wins",
    "marks_rows",
    "wound_events",
]


@dataclass(frozen=True)
class Fighter:
    """What an attack needs to know of a character (an immutable snapshot)."""

    id: str
    side: str
    pc: bool
    body: Body
    good: frozenset[str] = frozenset()
    right: str | None = None
    left: str | None = None

    @classmethod
    def of(cls, c: Character) -> Fighter:
        """The snapshot of a character now."""
        return cls(c.id, c.side, c.pc, c.body, c.good, c.right, c.left)


@dataclass(frozen=True)
class AttackPlan:
    """Everything the dice of one attack depend on.

    ``kind`` is ``attack``, ``counterattack`` or ``intercept``; ``defend`` says whether the
    target declared a defence; ``tie`` and ``order`` are UNH-14 and UNH-15; ``shield``: the
    target holds a shield that works against this attack (UNH-25).
    """

    attacker: Fighter
    target: Fighter
    weapon: str
    kind: str
    ranged: bool
    cover: bool
    distance: int
    defend: bool
    damage: DamageRules
    tie: str = "actor"
    order: str = "actor-first"
    shield: bool = False

    @property
    def target_assigns(self) -> bool:
        """The target picks the damage die: it is in cover, or holds a shield (UNH-25)."""
        return self.cover or self.shield

    @property
    def assigner(self) -> Fighter:
        """Who picks the damage die: the target in cover or behind a shield, else the
        attacker."""
        return self.target if self.target_assigns else self.attacker

    def attack_check(self, against: CheckResult | None = None) -> Check:
        """The attack roll, against the attacker's current level (UNH-5); ``against`` is the
        defence roll if it was made first."""
        a = self.attacker
        return Check(self.kind, a.id, a.side, a.body.level, a.body.max_level,
                     "attack" in a.good, True, ("attack", self, against))

    def defence_check(self, against: CheckResult | None = None) -> Check:
        """The defence roll of the target (``against``: the attack roll, if already made)."""
        t = self.target
        return Check("defend", t.id, t.side, t.body.level, t.body.max_level,
                     "defend" in t.good, True, ("defend", self, against))


@dataclass(frozen=True)
class AttackOutcome:
    """The result of an attack: both rolls, ``hit``/``miss``/``defended``, the die assignment
    and the wound."""

    attack: CheckResult
    defence: CheckResult | None
    result: str
    assignment: Assignment | None = None
    wound: Wound | None = None

    @property
    def hit(self) -> bool:
        """The attack hit (even for 0 damage)."""
        return self.result == "hit"

    @property
    def level_lost(self) -> int:
        """Level the target lost."""
        return self.wound.level_lost if self.wound else 0

    @property
    def knocked_out(self) -> bool:
        """The target went unconscious."""
        return bool(self.wound and self.wound.knocked_out)


def defence_wins(plan: AttackPlan, a: CheckResult, d: CheckResult) -> bool:
    """An opposed roll: the highest success wins, a PC beats an NPC on a tie (UNH-14 else)."""
    if not d.success:
        return False
    if not a.success or d.number > a.number:
        return True
    if d.number < a.number:
        return False
    if plan.target.pc != plan.attacker.pc:
        return plan.target.pc
    return plan.tie == "reactor"


def assignments(pair: Pair) -> tuple[Assignment, ...]:
    """The two readings of a hit: the tens die for damage, or the units die (one if equal)."""
    tens, units = pair
    first = Assignment(tens, location_of(units), "tens")
    second = Assignment(units, location_of(tens), "units")
    return (first,) if (first.damage, first.location) == (second.damage,
                                                          second.location) else (first, second)


def attack_roll(plan: AttackPlan) -> Step:
    """The chance process of one attack; ends in ``Done(AttackOutcome)``."""
    if plan.defend and plan.order == "reactor-first":
        return check(plan.defence_check(), lambda d: _Stage(plan, "defended", None, d))
    return check(plan.attack_check(), lambda a: _Stage(plan, "attacked", a, None))


@dataclass(frozen=True)
class _Stage:
    plan: AttackPlan
    stage: str
    a: CheckResult | None
    d: CheckResult | None

    def advance(self) -> Step:
        plan = self.plan
        if self.stage == "defended":
            return check(plan.attack_check(self.d), lambda a: _Stage(plan, "rolled", a, self.d))
        assert self.a is not None
        if self.stage == "attacked" and plan.defend:
            return check(plan.defence_check(self.a),
                         lambda d: _Stage(plan, "rolled", self.a, d))
        return _assign(plan, self.a, self.d)


def _assign(plan: AttackPlan, a: CheckResult, d: CheckResult | None) -> Step:
    if not a.success:
        return Done(AttackOutcome(a, d, "miss"))
    if d is not None and defence_wins(plan, a, d):
        return Done(AttackOutcome(a, d, "defended"))
    options = assignments(a.pair)

    def hit(choice: Assignment) -> Step:
        w = wound(plan.target.body, choice.location, choice.damage, plan.damage)
        return Done(AttackOutcome(a, d, "hit", choice, w))

    if len(options) == 1:
        return hit(options[0])
    who = plan.assigner
    return Decide(who.side, f"{who.id}: which die is damage, {a.pair[0]} or {a.pair[1]}?",
                  options, hit, {"kind": "assign", "plan": plan, "pair": a.pair})


# --------------------------------------------------------------------------------------------
# Events


def marks_rows(body: Body, locations: tuple[str, ...]) -> tuple[MarksRow, ...]:
    """The marks of ``locations`` on ``body`` as event rows."""
    out: list[MarksRow] = []
    for loc in locations:
        m = body.marks_at(loc)
        out.append((loc, m.slash, m.x, m.perm))
    return tuple(out)


def crit_events(unit: str, result: CheckResult | None, actions_left: int,
                what: str) -> list[Any]:
    """An extra action for a critical success taken so, a lost action for a critical failure
    (now if one is left this round, else carried to the next)."""
    if result is None:
        return []
    if result.extra:
        return [ActionGained(unit, f"critical success on {what}")]
    if result.lost_action:
        return [ActionLost(unit, actions_left <= 0, f"critical failure on {what}")]
    return []


def wound_events(f: Fighter, w: Wound, attacker: str, assigned_by: str, area: str,
                 rules: DamageRules) -> tuple[list[Any], Fighter]:
    """The events of a wound on ``f`` by ``attacker`` and the fighter afterwards (items
    dropped)."""
    events: list[Any] = [Wounded(f.id, w.damage, attacker, w.location, assigned_by,
                                 marks_rows(w.body, w.changed))]
    level = f.body.level
    if rules.version == "later" and w.level_lost:
        events.append(LevelLowered(f.id, w.level_lost, w.body.level))
        level = w.body.level
    right, left = f.right, f.left
    for loc, loss in zip(w.filled, w.losses, strict=True):
        level = max(0, level - loss)
        events.append(LocationFilled(f.id, loc, loss, level))
        if loc.endswith("arm"):
            hand = loc.split()[0]
            item = right if hand == "right" else left
            if item is not None:
                events.append(ItemDropped(f.id, item, area, f"the {loc} is full"))
                right = None if right == item else right
                left = None if left == item else left
    if w.knocked_out:
        events.append(KnockedOut(f.id))
    if w.died:
        events.append(Died(f.id))
    return events, replace(f, body=w.body, right=right, left=left)


def attack_events(plan: AttackPlan, o: AttackOutcome, *, attacker_left: int,
                  target_left: int, area: str) -> tuple[list[Any], Fighter]:
    """The events of an attack's outcome, and the target afterwards.

    ``attacker_left`` and ``target_left`` are the actions each has left after spending this
    one (for a critical failure: lose one now, or carry it to the next round).
    """
    a, t = plan.attacker, plan.target
    events: list[Any] = [Attacked(a.id, t.id, plan.weapon, plan.kind, o.attack.number,
                                  o.attack.success, o.attack.critical, o.attack.set,
                                  plan.cover, o.result, plan.shield)]
    if o.defence is not None:
        d = o.defence
        events.append(Defended(t.id, a.id, d.number, d.success, d.critical,
                               o.result == "defended"))
    events += crit_events(a.id, o.attack, attacker_left, plan.kind)
    events += crit_events(t.id, o.defence, target_left, "defend")
    after = t
    if o.wound is not None:
        more, after = wound_events(t, o.wound, plan.attacker.id, plan.assigner.id, area,
                                   plan.damage)
        events += more
    return events, after
