"""Exact odds of an Unhex attack: the same process the battle rolls, through the exact driver.

The die assignment and the critical success choice follow the policies the simulation uses
(UNH-6, UNH-7); a defence (``defend=True``) is the target's opposed roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.dice import Dist
from tactica.engine.chance import Decide, Done, Step, and_then, run_exact
from tactica.engine.errors import IllegalActionError
from tactica.engine.events import OutOfAction
from tactica.engine.odds import OddsNumbers, OddsReading, OddsReport, Outcome
from tactica.engine.odds_why import with_why
from tactica.engine.ruleset import OddsChoice, OddsValue
from tactica.rulesets.unhex import text
from tactica.rulesets.unhex.attack import AttackOutcome, AttackPlan, Fighter, attack_roll
from tactica.rulesets.unhex.legal import (
    attacks,
    can_be_attacked,
    can_fire,
    reactions_to_attack,
)
from tactica.rulesets.unhex.policy import decide
from tactica.rulesets.unhex.records import Attack, Wounded
from tactica.rulesets.unhex.rules import attack_plan, counter_plan, resolve
from tactica.rulesets.unhex.state import Character, UnhexState
from tactica.rulesets.unhex.why import explain_numbers

__all__ = ["Summary", "attack_odds", "choose_attack", "counter_weapon", "exact_outcomes",
           "odds_reading", "summary"]


@dataclass(frozen=True)
class Summary:
    """What odds count of an attack's outcome."""

    result: str
    location: str
    damage: int
    level_lost: int
    knocked_out: bool
    died: bool
    critical: str | None


def summary(o: AttackOutcome) -> Summary:
    """The counted part of an outcome (``location`` is ``miss`` unless it hit)."""
    w = o.wound
    return Summary(o.result, w.location if w else "miss", w.damage if w else 0,
                   o.level_lost, o.knocked_out, bool(w and w.died), o.attack.critical)


def _summarised(o: AttackOutcome) -> Step:
    return Done(summary(o))


class _Exact:
    def __init__(self, state: UnhexState):
        self.state = state

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        return decide(self.state, decision, rng)


def exact_outcomes(state: UnhexState, plan: AttackPlan) -> Dist[Summary]:
    """The exact distribution of an attack's summarised outcome."""
    return run_exact(and_then(attack_roll(plan), _summarised), policies=_Exact(state))


def _weapon(state: UnhexState, attacker: str, target: str, weapon: str | None) -> str:
    a, t = state.chars[attacker], state.chars[target]
    look = state.view.look(a.area, t.area)
    held = [item for n in a.in_hands() if (item := state.item(n)).is_weapon]
    if weapon is not None:
        if weapon not in a.items:
            raise IllegalActionError(f"{attacker} carries no {weapon!r} (items: "
                                     f"{', '.join(a.items) or 'none'})")
        if all(w.name != weapon for w in held):
            raise IllegalActionError(f"{attacker} does not hold the {weapon!r} in a usable hand")
        held = [w for w in held if w.name == weapon]
    if not held:
        raise IllegalActionError(f"{attacker} holds no weapon")
    candidates = [w for w in held if can_fire(state, a, w)]
    if not candidates:
        rule = state.rulings["UNH-26"]
        raise IllegalActionError(f"{attacker} cannot attack {target}: " + "; ".join(
            f"the {w.name} has no ammunition left (marked off at the end of combat, UNH-26 "
            f"{rule})" for w in held))
    for w in candidates:
        if w.reaches(look.distance, look.visible):
            return w.name
    why = []
    for w in candidates:
        sight = "in sight" if look.visible else "not in sight"
        why.append(f"the {w.name} ({w.band()}) does not reach {target} at range "
                   f"{look.distance} ({sight})")
    raise IllegalActionError(f"{attacker} cannot attack {target}: " + "; ".join(why))


def choose_attack(state: UnhexState, attacker: str, target: str,
                  weapon: str | None = None) -> Attack:
    """The attack of ``attacker`` on ``target`` with ``weapon`` (``None``: the first weapon
    in hand that reaches); an IllegalActionError says why there is none."""
    for uid in (attacker, target):
        if uid not in state.chars:
            raise IllegalActionError(f"no character {uid!r} (characters: "
                                     f"{', '.join(state.chars)})")
    a, t = state.chars[attacker], state.chars[target]
    if a.side == t.side:
        raise IllegalActionError(f"{attacker} and {target} are on the same team ({a.side})")
    if not can_be_attacked(state, t):
        raise IllegalActionError(f"{target} is out of the fight")
    return Attack(attacker, _weapon(state, attacker, target, weapon), target)


def counter_weapon(state: UnhexState, attacker: Character, target: Character,
                   weapon: str) -> str | None:
    """The melee weapon ``target`` may counterattack ``attacker``'s attack with ``weapon``
    (the first it holds that the rules allow), else ``None``. Before the first round, when
    no action is handed out yet, the target is taken to have its action."""
    if state.round == 0 and target.actions == 0:
        target = replace(target, actions=1)
    look = state.view.look(attacker.area, target.area)
    for o in reactions_to_attack(state, attacker, target, state.item(weapon), look):
        if o.kind == "counterattack" and o.weapon is not None:
            return o.weapon
    return None


def attack_odds(state: UnhexState, action: Attack, *, defend: bool = False) -> OddsReport:
    """The exact outcome of an attack from where the two characters stand."""
    choose_attack(state, action.unit, action.target, action.weapon)  # refuses an illegal one
    attacker, target, name = action.unit, action.target, action.weapon
    a, t = state.chars[attacker], state.chars[target]
    item = state.item(name)
    look = state.view.look(a.area, t.area)
    if defend and item.is_ranged and not look.cover:
        raise IllegalActionError(f"{target} cannot defend against a ranged attack without "
                                 f"cover (range {look.distance}, no cover)")
    plan = attack_plan(state, a, Fighter.of(t), name, "attack", look.distance or 0,
                       look.cover, defend)
    dist = exact_outcomes(state, plan)
    level_lost = dist.map(lambda s: s.level_lost)
    location = dist.map(lambda s: s.location)
    damage = dist.map(lambda s: s.damage)
    hit = dist.map(lambda s: s.result)
    reasons = list(state.view.report(a.area, t.area).reasons)
    reasons.append(f"weapon: the {name}, {item.band()}")
    reasons.append(f"attack roll: d100 at or under {a.level} (UNH-5); doubles and {a.level} "
                   "are criticals, 100 a critical failure")
    chooser = (f"{target} (in cover)" if look.cover else
               f"{target} (behind a shield, UNH-25)" if plan.shield else attacker)
    reasons.append(f"die assignment by {chooser}: {state.rulings['UNH-6']} (UNH-6); "
                   f"critical success: {state.rulings['UNH-7']} (UNH-7)")
    if defend:
        reasons.append(f"{target} defends: an opposed roll at {t.level}; the higher success "
                       "wins" + (", PC wins ties" if a.pc != t.pc else ""))
    reasons.append(f"{target}: {t.body.summary()}")
    numbers: dict[str, Fraction] = {
        "p_hit": hit.p("hit"),
        "expected_level_lost": level_lost.mean(),
        "p_knockout": dist.map(lambda s: s.knocked_out).p(True),
        "p_out_of_action": dist.map(lambda s: s.knocked_out).p(True),
        "p_death": dist.map(lambda s: s.died).p(True),
        "expected_damage": damage.mean(),
        "p_critical_success": dist.map(lambda s: s.critical).p("success"),
        "p_critical_failure": dist.map(lambda s: s.critical).p("failure"),
    }
    if defend:
        numbers["p_defended"] = hit.p("defended")
    dists: dict[str, Dist[Any]] = {"outcome": hit, "level_lost": level_lost,
                                   "hit_location": location, "damage": damage}
    counter = None if defend else counter_weapon(state, a, t, name)
    if counter is not None:
        # A counterattack is a separate roll whose effects apply with the attack's: the
        # target's outcome above is unchanged by it, the attacker's is this.
        back = exact_outcomes(state, counter_plan(state, a, t, counter))
        dists.update({
            "attacker_outcome": back.map(lambda s: s.result),
            "attacker_level_lost": back.map(lambda s: s.level_lost),
            "attacker_hit_location": back.map(lambda s: s.location),
            "attacker_damage": back.map(lambda s: s.damage),
        })
        numbers["p_attacker_hit"] = back.map(lambda s: s.result).p("hit")
        numbers["p_attacker_knocked_out"] = back.map(lambda s: s.knocked_out).p(True)
        reasons.append(f"{target} may counterattack with the {counter}: its own roll at "
                       f"{t.level}, applied together with this one")
    report = OddsReport(
        attacker, target, f"{attacker} attacks {target} with the {name}"
        + (f" ({target} defends)" if defend else ""),
        dists, OddsNumbers(**numbers), tuple(reasons),
        extra={"weapon": name, "cover": look.cover, "distance": look.distance,
               "defend": defend, "shield": plan.shield,
               "assigned_by": plan.assigner.id, "counterattack": counter,
               "attacker_if": (None if counter is None else
                               f"if {target} counterattacks with the {counter}")},
    )
    return with_why(with_why(report, explain_numbers(state, action, report)),
                    _counter_why(report, a, t, counter))


def _counter_why(report: OddsReport, a: Character, t: Character,
                 counter: str | None) -> dict[str, str]:
    """Why the attacker's chances from a counterattack are 0 or 1: its outcomes say so."""
    if counter is None:
        return {}
    roll = f"{t.id}'s counterattack with the {counter} (a roll at {t.level})"
    out: dict[str, str] = {}
    for name, what in (("p_attacker_hit", f"hits {a.id}"),
                       ("p_attacker_knocked_out",
                        f"knocks {a.id} out ({a.body.summary()})")):
        p = report.numbers.get(name)
        if p == 0:
            out[name] = f"no outcome of {roll} {what}"
        elif p == 1:
            out[name] = f"every outcome of {roll} {what}"
    return out


def odds_choices(state: UnhexState, unit: str) -> tuple[OddsChoice, ...]:
    """Every attack of ``unit`` from where it stands."""
    return tuple(OddsChoice(a.unit, (a.target,), a.weapon, a)
                 for a in attacks(state, state.chars[unit]))


def odds_action(state: UnhexState, unit: str, targets: tuple[str, ...],
                means: str | None) -> Attack:
    """The attack a command names (one target)."""
    if len(targets) != 1:
        raise IllegalActionError(f"{unit} attacks one target at a time, got {len(targets)}")
    return choose_attack(state, unit, targets[0], means)


def odds(state: UnhexState, action: Any, **options: OddsValue) -> OddsReport | None:
    """The odds of an attack, defended or not (``None`` for another action)."""
    if isinstance(action, Attack):
        return attack_odds(state, action, defend=bool(options.get("defend")))
    return None


class _AsReported(_Exact):
    """The decisions as the report takes them: the target reacts by defending when the report
    says it defends, else by taking the attack (a counterattack is its own roll, reported
    apart); every other decision as the computer answers it (UNH-6, UNH-7)."""

    def __init__(self, state: UnhexState, defend: bool):
        super().__init__(state)
        self.defend = defend

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        if decision.context.get("kind") == "react":
            wanted = "defend" if self.defend else "none"
            for option in decision.options:
                if option.kind == wanted:
                    return option
        return super().choose(decision, state, rng)


def odds_reading(state: UnhexState, action: Any, **options: OddsValue) -> OddsReading | None:
    """How :func:`odds` reads an attack's process (the battle's own ``resolve``): the
    target's reaction as the report names it (a defence or none), the dice assigned as the
    computer assigns them; its damage is the target's wound from the attacker, its out of
    action the target dropping out."""
    if not isinstance(action, Attack):
        return None

    def dealt(outcome: Outcome) -> int:
        return sum(e.amount for e in outcome[1] if isinstance(e, Wounded)
                   and e.unit == action.target and e.source == action.unit)

    def out(outcome: Outcome) -> bool:
        return any(isinstance(e, OutOfAction) and e.unit == action.target
                   for e in outcome[1])

    return OddsReading(lambda: resolve(state, action),
                       _AsReported(state, bool(options.get("defend"))), dealt, out)


def explain_action(state: UnhexState, action: Any) -> list[str]:
    """Why an attack's dice are what they are."""
    if isinstance(action, Attack):
        return [text.plain(r) for r in attack_odds(state, action).reasons]
    return []
