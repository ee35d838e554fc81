"""Exact odds of Nebulia Operations attacks, and the action values greedy policies use."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tactica.errors import IllegalActionError
from tactica.odds import OddsReport
from tactica.rulesets.nebulia import geometry, rules
from tactica.rulesets.nebulia.records import Attack, EndActivation, Move

if TYPE_CHECKING:
    from tactica.rulesets.nebulia import NebuliaOperations

__all__ = ["action_value", "attack_odds", "d10_chance"]

KNOCKOUT_WEIGHT = 2.0


def d10_chance(target: int, modifier: int = 0) -> Fraction:
    """The chance one D10 succeeds: face + modifier <= target, 1 always, 0 never."""
    wins = sum(1 for f in range(10) if f == 1 or (f != 0 and f + modifier <= target))
    return Fraction(wins, 10)


def _faces(target: int, modifier: int) -> str:
    faces = [f for f in range(10) if f == 1 or (f != 0 and f + modifier <= target)]
    if not faces:
        return "no face"
    if faces == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else f"{faces[0]}"
    return ", ".join(map(str, faces))


def attack_odds(ruleset: NebuliaOperations, state: rules.NebState, attacker: str, target: str,
                weapon: str | None) -> OddsReport:
    """The exact outcome of ``attacker`` attacking ``target`` from where they stand."""
    a, t = state.ops[attacker], state.ops[target]
    if t.out:
        raise IllegalActionError(f"{target} is out of action")
    names = [w.name for w in a.weapons]
    if weapon is not None and weapon not in names:
        raise IllegalActionError(
            f"{attacker} has no weapon {weapon!r} (it carries {', '.join(names)})"
        )
    candidates = [w for w in a.weapons if weapon is None or w.name == weapon]
    usable = [w for w in candidates if rules.can_target(state, a, t, w)]
    seen = geometry.sight(state, a, t)
    if not usable:
        why = []
        for w in candidates:
            if w.is_melee:
                why.append(f"{w.name} is melee and {target} is not adjacent")
            else:
                why.append(f"{w.name} needs {target} visible: {seen.clear_lines} of 4 lines "
                           "clear (2 needed)")
        raise IllegalActionError(f"{attacker} cannot attack {target}: " + "; ".join(why))
    best = None
    for w in usable:
        setup = rules.attack_setup(state, attacker, w.name, target)
        dist = ruleset.damage_dist(state, setup)
        if best is None or dist.mean() > best[1].mean():
            best = (setup, dist)
    assert best is not None
    setup, dmg = best
    w = setup.weapon
    left = dmg.map(lambda d: max(0, t.defense - d))
    armor, modifier = rules.cover_armor(t.armor, setup.cover, state.rulings["NEB-6"])
    reasons = [
        f"sight: {seen.clear_lines} of 4 lines clear, distance {seen.distance} "
        f"({state.rulings['NEB-3']})",
    ]
    for line in seen.lines:
        if not line.is_clear:
            blocked = ", ".join(f"{x},{y}" for x, y in line.blocked_by) or "a diagonal gap"
            reasons.append(f"  {line.corner_name} line blocked by {blocked}")
    if setup.cover:
        reasons.append("in cover: 2-3 lines clear and more than 3 tiles away")
    elif seen.clear_lines < 4 and seen.within_cover_range:
        reasons.append("no cover: within 3 tiles nobody benefits from cover")
    else:
        reasons.append("not in cover")
    reasons.append(
        f"to hit: {w.dice} D10 at accuracy {w.accuracy}: faces {_faces(w.accuracy, 0)} hit "
        f"({d10_chance(w.accuracy)} each)"
    )
    cover_note = ""
    if setup.cover:
        cover_note = (", cover -1 on the die" if state.rulings["NEB-6"] == "die"
                      else ", cover -1 on the characteristic")
    reasons.append(
        f"armor: one D10 per hit at armor {t.armor}{cover_note}: faces "
        f"{_faces(armor, modifier)} save ({d10_chance(armor, modifier)} each)"
    )
    reasons.append(f"damage: {w.damage} per unsaved hit against defense {t.defense}")
    numbers = {
        "expected_damage": dmg.mean(),
        "p_out_of_action": left.p(0),
        "p_damage": 1 - dmg.p(0),
        "p_hit_each_die": d10_chance(w.accuracy),
        "p_save_each_die": d10_chance(armor, modifier),
    }
    return OddsReport(
        attacker, target, f"{attacker} attacks {target} with {w.name}",
        {"damage": dmg, "defense_left": left}, numbers, tuple(reasons),
        extra={"weapon": w.name, "cover": setup.cover, "clear_lines": seen.clear_lines,
               "distance": seen.distance},
    )


def _attack_score(ruleset: NebuliaOperations, state: rules.NebState,
                  setup: rules.AttackSetup) -> float:
    dmg = ruleset.damage_dist(state, setup)
    t = state.ops[setup.target]
    p_out = float(dmg.at_least(t.defense)) if t.defense > 0 else 1.0
    return float(dmg.mean()) + KNOCKOUT_WEIGHT * p_out


def best_attack_value(ruleset: NebuliaOperations, state: rules.NebState, unit: str) -> float:
    """The best attack score the unit has from where it stands (0 if none)."""
    best = 0.0
    for atk in rules.legal_attacks(state, unit):
        setup = rules.attack_setup(state, unit, atk.weapon, atk.target)
        best = max(best, _attack_score(ruleset, state, setup))
    return best


def action_value(ruleset: NebuliaOperations, state: rules.NebState, action: Any) -> float:
    """Expected damage plus a knock-out bonus; moves are valued by the best attack after them,
    then by closing in on the nearest enemy."""
    if isinstance(action, Attack):
        setup = rules.attack_setup(state, action.unit, action.weapon, action.target)
        return _attack_score(ruleset, state, setup)
    if isinstance(action, EndActivation):
        return 0.0
    if isinstance(action, Move):
        me = state.ops[action.unit]
        trial = rules.copy_state(state)
        trial.ops[me.id].pos = action.to
        trial.grid = trial.grid.move_occupant(me.id, action.to)
        value = best_attack_value(ruleset, trial, me.id)
        enemies = [o for o in state.alive() if o.side != me.side]
        if enemies:
            nearest = min(max(abs(o.pos[0] - action.to[0]), abs(o.pos[1] - action.to[1]))
                          for o in enemies)
            value -= 0.01 * nearest
        return value
    return 0.0
