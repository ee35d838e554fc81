"""Exact odds of an Arc attack: the hits, the damage to health, the armor left, the wound dice
added, falling and dying, with a given aim and with or without the target's Evade.

The report runs the battle's own attack process (:func:`~tactica.rulesets.arc.attack.
attack_process`) through the exact driver and reads its events.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.dice import Dist
from tactica.engine.chance import Decide, run_exact
from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.events import OutOfAction
from tactica.engine.odds import OddsNumbers, OddsReading, OddsReport, Outcome
from tactica.engine.odds_why import with_why
from tactica.engine.ruleset import OddsChoice, OddsValue
from tactica.rulesets.arc import text
from tactica.rulesets.arc.actions import resolve
from tactica.rulesets.arc.attack import EVADE, attack_process, can_evade
from tactica.rulesets.arc.movement import MELEE_REACH, metres_text, reaches, sees
from tactica.rulesets.arc.records import (
    ArmorWorn,
    Attack,
    Attacked,
    Died,
    Falling,
    Fell,
    Jammed,
    Wounded,
)
from tactica.rulesets.arc.state import ArcState
from tactica.rulesets.arc.why import explain_numbers

__all__ = ["attack_action", "attack_odds", "odds", "odds_action", "odds_choices",
           "odds_reading"]


def odds_choices(state: ArcState, unit: str) -> tuple[OddsChoice, ...]:
    """Every attack of ``unit`` with each of its weapons on every enemy in action it reaches
    and sees (turn order, AP and rounds ignored)."""
    f = state.fighters[unit]
    if not f.in_action:
        return ()
    out = []
    for w in f.profile.weapons:
        for t in state.fighters.values():
            if t.side == f.side or not t.in_action:
                continue
            if reaches(state, f, t, w) and sees(state, f.id, t.id):
                out.append(OddsChoice(unit, (t.id,), w.name, Attack(unit, t.id, w.name)))
    return tuple(out)


def odds_action(state: ArcState, unit: str, targets: tuple[str, ...],
                means: str | None) -> Attack:
    """``unit``'s attack on one target with the weapon ``means`` (default: in hand)."""
    f = state.fighters[unit]
    if len(targets) != 1:
        raise IllegalActionError(f"an Arc attack has one target, got {', '.join(targets)}")
    target = targets[0]
    if target == unit:
        raise IllegalActionError(f"{unit} cannot attack itself")
    if not f.profile.weapons:
        raise IllegalActionError(f"{unit} carries no weapon")
    name = means or f.hand
    found = [w for w in f.profile.weapons if name.lower() in (w.name.lower(),)]
    if not found:
        raise IllegalActionError(f"{unit} has no weapon {name!r} (it has "
                                 f"{', '.join(w.name for w in f.profile.weapons)})")
    w = found[0]
    t = state.fighters[target]
    if t.side == f.side:
        raise IllegalActionError(f"{target} is on {unit}'s side ({f.side}): attacks target "
                                 "characters of another side")
    if not t.in_action:
        raise IllegalActionError(f"{target} is out of action")
    if not reaches(state, f, t, w):
        apart = metres_text(state, f, t) or "no range"
        if w.melee:
            where = ("the adjacent squares" if state.grid is not None
                     else f"{float(MELEE_REACH):g} m")
            raise IllegalActionError(f"{unit}'s {w.name} is a melee weapon and {target} is "
                                     f"not within reach ({apart}; it reaches {where})")
        raise IllegalActionError(f"{unit}'s {w.name} does not reach {target} ({apart}, "
                                 f"range {w.range} m)")
    if not sees(state, unit, target):
        ruling = state.rulings["ARC-29"]
        need = "two clear lines" if ruling == "two-lines" else "one clear line"
        raise IllegalActionError(f"{unit} does not see {target}: sight on the grid needs "
                                 f"{need} of the four (ARC-29 {ruling})")
    return Attack(unit, target, w.name)


def _aim(value: OddsValue | None, default: int) -> int:
    if value is None or value is False:
        return default
    try:
        aim = int(str(value))
    except ValueError:
        raise TacticaError(f"--aim: expected a number of AP (0 or more), got {value!r}") \
            from None
    if not 0 <= aim <= 20:
        raise TacticaError(f"--aim: expected 0 to 20 AP, got {aim}")
    return aim


def odds(state: ArcState, action: Any, **options: OddsValue) -> OddsReport | None:
    """The odds of an attack in full (``None`` for another action: the core reports its
    outcomes)."""
    if not isinstance(action, Attack):
        return None
    aim = _aim(options.get("aim"), action.aim)
    return attack_odds(state, replace(action, aim=aim), evade=bool(options.get("evade")))


class _Evading:
    """The target's Evade as the report names it; every other decision its first option."""

    def __init__(self, evade: bool):
        self.evade = evade

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        if decision.label == EVADE and self.evade in decision.options:
            return self.evade
        return decision.options[0]


def odds_reading(state: ArcState, action: Any, **options: OddsValue) -> OddsReading | None:
    """How :func:`odds` reads an attack's process (the battle's own ``resolve`` of the attack
    with the aim the report names): the target evading as the report says; its damage is
    what reaches the target's health, and the target is out of action when it dies, falls
    or is left at 0 health or under."""
    if not isinstance(action, Attack):
        return None
    aimed = replace(action, aim=_aim(options.get("aim"), action.aim))
    t = state.fighters[action.target]

    def dealt(outcome: Outcome) -> int:
        return sum(e.amount for e in outcome[1] if isinstance(e, Wounded)
                   and e.unit == aimed.target)

    def out(outcome: Outcome) -> bool:
        return t.health - dealt(outcome) <= 0 or any(
            isinstance(e, OutOfAction | Falling) and e.unit == aimed.target for e in outcome[1])

    return OddsReading(lambda: resolve(state, aimed), _Evading(bool(options.get("evade"))),
                       dealt, out)


def attack_odds(state: ArcState, action: Attack, *, evade: bool = False) -> OddsReport:
    """The exact outcome of ``action`` (the target evading or not)."""
    a, t = state.fighters[action.unit], state.fighters[action.target]
    w = a.profile.weapon(action.weapon)
    if not a.can_fire(w):
        why = "jammed" if w.name in a.jammed else "empty"
        raise IllegalActionError(f"{a.id}'s {w.name} is {why}: reload it first")
    outcomes = run_exact(attack_process(state, action, evade=evade), events=True)
    hits: dict[int, Fraction] = {}
    damage: dict[int, Fraction] = {}
    health: dict[int, Fraction] = {}
    armor: dict[str, Fraction] = {}
    wounds: dict[str, Fraction] = {}
    numbers = {k: Fraction(0) for k in ("p_out_of_action", "p_kill", "p_killed_outright",
                                        "p_jam", "p_evaded")}
    for (_, events), p in outcomes.items():
        n = amount = 0
        sizes = t.armor
        added: tuple[int, ...] = ()
        died = outright = out = False
        for e in events:
            if isinstance(e, Attacked):
                n = e.hits
                numbers["p_evaded"] += p if e.evaded else 0
            elif isinstance(e, Wounded):
                amount, added = e.amount, e.added
            elif isinstance(e, ArmorWorn):
                sizes = e.armor
            elif isinstance(e, Died):
                died = True
                outright = e.reason.startswith("one attack")
            elif isinstance(e, (Fell, Falling)):
                out = True
            elif isinstance(e, Jammed):
                numbers["p_jam"] += p
        left = t.health - amount
        died = died or left <= -t.profile.con
        for table, key in ((hits, n), (damage, amount), (health, left)):
            table[key] = table.get(key, Fraction(0)) + p
        if t.profile.armor:
            shown = text.armor_text(t, sizes)
            armor[shown] = armor.get(shown, Fraction(0)) + p
        shown = text.wounds_text(added)
        wounds[shown] = wounds.get(shown, Fraction(0)) + p
        numbers["p_out_of_action"] += p if (died or out or left <= 0) else 0
        numbers["p_kill"] += p if died else 0
        numbers["p_killed_outright"] += p if outright else 0
    dmg = Dist.from_probs(damage)
    hit_dist = Dist.from_probs(hits)
    dists: dict[str, Dist[Any]] = {"hits": hit_dist, "damage": dmg,
                                   "health_left": Dist.from_probs(health),
                                   "wound_dice_added": Dist.from_probs(wounds)}
    if armor:
        dists["armor_left"] = Dist.from_probs(armor)
    head = {"p_hit": 1 - hit_dist.p(0), "expected_hits": hit_dist.mean(),
            "expected_damage": dmg.mean()}
    reasons = list(text.explain_action(state, action))
    if evade:
        reasons.append(f"{t.id} evades" + ("" if can_evade(state, t) else
                                           " (hypothetically: it could not now)"))
    else:
        reasons.append(f"{t.id} does not evade")
    report = OddsReport(a.id, t.id, text.describe_action(state, action), dists,
                        OddsNumbers(**head, **numbers), tuple(reasons),
                        extra={"weapon": w.name, "aim": action.aim, "evade": evade})
    return with_why(report, explain_numbers(state, action, report, evade=evade))


def attack_action(state: ArcState, choice: OddsChoice) -> tuple[dict[str, OddsValue], str,
                                                                  int | None]:
    """What one attack action of ``choice`` is in Arc, for a matchup matrix: the odds options
    that make it, its name and its AP.

    One attack already fires the weapon's rate of fire: its degree of success lands up to rof
    hits (a fractional rof 1/n: at most one hit). It costs 1 AP (ARC-14: or 2), a fractional
    rof 1/n costs n AP; a melee weapon lands one hit. No AP is spent aiming (``--aim`` adds
    it to the odds, not to the AP shown)."""
    action = choice.action
    if not isinstance(action, Attack):
        return {}, choice.means, None
    w = state.fighters[action.unit].profile.weapon(action.weapon)
    ap = w.attack_ap(state.rulings)
    if w.melee:
        return {}, "one melee attack", ap
    hits = w.max_hits()
    rof = str(w.rof)
    return {}, f"one attack: up to {hits} hit{'s' if hits != 1 else ''} (rof {rof})", ap
