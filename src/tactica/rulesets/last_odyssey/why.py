"""Why a Last Odyssey attack's odds show a zero or a certainty: faces that hit, status
thresholds, Body Armor, Shells and the shellbreak rule, Too Stupid to Die.

:func:`explain_numbers` reads the report :func:`~tactica.rulesets.last_odyssey.odds.attack_odds`
built (its distributions are facts of the exact enumeration) and names, per target, the rule
behind each number that is 0 or 1 and what would change it.
"""

from __future__ import annotations

from tactica.engine.odds import OddsReport
from tactica.rulesets.last_odyssey.content import Ability
from tactica.rulesets.last_odyssey.hitdie import TargetSetup
from tactica.rulesets.last_odyssey.state import LodState, element_of
from tactica.rulesets.last_odyssey.targeting import target_setup

__all__ = ["explain_numbers"]


def _bounds(report: OddsReport, name: str) -> tuple[int, int]:
    dist = report.distributions.get(name)
    values = [int(v) for v in dist.outcomes] if dist is not None else [0]
    return min(values), max(values)


def _hit_reason(state: LodState, ability: Ability, tid: str, s: TargetSetup, every: bool) -> str:
    t = state.fighters[tid]
    if s.kind == "status":
        if s.threshold == "always":
            return (f"{ability.status} cannot be avoided: the element chart gives x4 against "
                    f"{tid}'s {element_of(t)}")
        if s.threshold == "immune":
            return (f"{tid} is immune to {ability.status}: the element chart gives x0.25 "
                    f"against its {element_of(t)}")
        rule = (f"die - status accuracy {s.accuracy} + resistance {s.evasion} <= "
                f"{s.threshold}")
    else:
        if s.auto_fail:
            return (f"the user is {'Paralyzed' if s.kind == 'physical' else 'Silenced'}: "
                    "the roll fails automatically (LOD-11)")
        rule = f"die - accuracy {s.accuracy} + evasion {s.evasion} <= {s.threshold}"
    return (f"{rule} on every face of the d10 (even a 10)" if every else
            f"{rule} on no face of the d10")


def _no_damage(state: LodState, ability: Ability, tid: str, s: TargetSetup,
               report: OddsReport, sfx: str) -> str | None:
    """Why no hit does damage, or ``None`` if some do."""
    if ability.attack == "status":
        return f"{ability.name} is a status roll: it does no damage"
    if not ability.damage:
        return f"{ability.name} does no damage"
    if report.numbers.get("p_hit" + sfx) == 0:
        return "it never hits"
    if s.body_armor:
        return (f"Body Armor: the first physical hit on {tid} deals no damage (a magical "
                "attack, or the next physical hit, would)")
    if _bounds(report, "damage" + sfx)[1] == 0:
        return f"every hit rounds to 0 damage (x{s.multiplier}, LOD-3)"
    return None


def _target(state: LodState, ability: Ability, user: str, tid: str, element: str,
            knockout: bool, report: OddsReport, sfx: str) -> dict[str, str]:
    n = report.numbers
    t = state.fighters[tid]
    s = target_setup(state, user, ability, tid, element, knockout)
    out: dict[str, str] = {}
    if n.get("p_hit" + sfx) in (0, 1):
        out["p_hit" + sfx] = _hit_reason(state, ability, tid, s, n["p_hit" + sfx] == 1)
    nothing = _no_damage(state, ability, tid, s, report, sfx)
    if n.get("expected_damage" + sfx) == 0 and nothing:
        out["expected_damage" + sfx] = nothing
    if ability.attack == "status":
        return out
    least, most = _bounds(report, "damage" + sfx)
    sure = n.get("p_hit" + sfx) == 1
    if n.get("p_shellbreak" + sfx) == 0:
        out["p_shellbreak" + sfx] = (
            f"{tid} has no Shell up" if not t.shell else nothing or
            f"at most {most} damage against its Shell of {t.shell}: breaking it takes "
            f"{t.shell}")
    elif n.get("p_shellbreak" + sfx) == 1:
        out["p_shellbreak" + sfx] = (f"every face hits and the least damage ({least}) "
                                     f"breaks the Shell of {t.shell}")
    hp_rule = (f"at most {most} damage against {tid}'s {t.hp} HP" if not t.shell else
               f"at most {most} damage: past its Shell of {t.shell} at most "
               f"{max(0, most - t.shell)} is left, and the blow that breaks a Shell downs "
               f"only if that rest exceeds the HP ({t.hp}); otherwise the rest is lost "
               "(shellbreak)")
    zero = nothing or hp_rule
    if n.get("p_zero_hp" + sfx) == 0:
        out["p_zero_hp" + sfx] = f"{tid} is already at 0 HP" if t.hp == 0 else zero
    if n.get("p_down" + sfx) == 0:
        out["p_down" + sfx] = (
            f"Too Stupid to Die: at 0 HP {tid} stays in the battle until the Effect phase "
            "(p zero hp is the chance of 0 HP)" if "too-stupid-to-die" in t.passives
            else zero)
    elif n.get("p_down" + sfx) == 1:
        out["p_down" + sfx] = ("every face hits" if sure else "every outcome downs it") + \
            f" and the least damage ({least}) takes {tid}'s {t.hp} HP" + \
            (f" past its Shell of {t.shell}" if t.shell else "")
    return out


def explain_numbers(state: LodState, user: str, ability: Ability, targets: tuple[str, ...],
                    element: str, knockout: bool, report: OddsReport) -> dict[str, str]:
    """The reasons for the report's zeros and certainties (see module)."""
    out: dict[str, str] = {}
    single = len(targets) == 1
    for tid in targets:
        out.update(_target(state, ability, user, tid, element, knockout, report,
                           "" if single else f"[{tid}]"))
    n = report.numbers
    if ability.attack == "status":
        out["expected_damage"] = f"{ability.name} is a status roll: it does no damage"
        out["p_out_of_action"] = f"{ability.name} is a status roll: it downs no one"
    elif single:
        for name in ("p_out_of_action",):
            if n.get(name) in (0, 1) and out.get("p_down"):
                out[name] = out["p_down"]
    else:
        if n.get("expected_damage") == 0:
            out["expected_damage"] = "no target takes damage (see each target's expected damage)"
        if n.get("p_out_of_action") == 0:
            out["p_out_of_action"] = "no target can be downed (see each target's p down)"
        elif n.get("p_out_of_action") == 1:
            out["p_out_of_action"] = "some target is downed whatever the die (see p down)"
    return out
