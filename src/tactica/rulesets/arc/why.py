"""Why an Arc attack's odds show a zero or a certainty: armor, Evade, jams, health.

:func:`explain_numbers` reads the report :func:`~tactica.rulesets.arc.odds.attack_odds` built (its
distributions are facts of the exact enumeration) and the state, and names the rule behind each
number that is 0 or 1 (an expected damage of 0 above all: every hit only wears the armor down,
ARC-5) and what would change it (for armor, the hits needed to strip it).
"""

from __future__ import annotations

from fractions import Fraction

from tactica.engine.odds import OddsReport
from tactica.rulesets.arc import text
from tactica.rulesets.arc.armor import STEPS
from tactica.rulesets.arc.attack import can_evade
from tactica.rulesets.arc.records import Attack
from tactica.rulesets.arc.state import ArcState

__all__ = ["explain_numbers", "strip_hits"]


def strip_hits(sizes: tuple[int, ...], covers: tuple[bool, ...]) -> int:
    """Hits over DT needed to drop every armor die that protects (each drops a die a step:
    a d6 takes two, d6 then d4)."""
    return sum(STEPS.index(s) + 1 for s, c in zip(sizes, covers, strict=True) if c and s > 0)


def _most(report: OddsReport, name: str) -> int:
    dist = report.distributions.get(name)
    return max((int(v) for v in dist.outcomes), default=0) if dist is not None else 0


def _armor(state: ArcState, action: Attack, report: OddsReport) -> str:
    """Why no hit reaches health."""
    a, t = state.fighters[action.unit], state.fighters[action.target]
    w = a.profile.weapon(action.weapon)
    covers = tuple(p.protects(w.type) for p in t.profile.armor)
    dt = sum(s for s, c in zip(t.armor, covers, strict=True) if c and s > 0)
    if report.numbers.get("p_hit", Fraction(1)) == 0:
        return f"{a.id}'s attack never lands a hit (see its check)"
    if dt == 0:
        return f"no hit of the {w.name} gets through to {t.id}'s health"
    armor = text.armor_text(t)
    if w.damage.max <= dt:
        return (f"{t.id}'s armor ({armor}) has DT {dt} against {w.type} and the {w.name}'s "
                f"{w.damage} does at most {w.damage.max} a hit: every hit is absorbed (a hit "
                f"must beat DT to do anything); a weapon that can beat {dt}, or armor worn "
                "down first, would change it")
    need = strip_hits(t.armor, covers)
    most = _most(report, "hits")
    massive = ("" if state.rulings["ARC-16"] == "massive" else
               f"; under ARC-16 'massive' a hit of {2 * dt} or more (2 x DT) would go through")
    return (f"every hit only wears {t.id}'s armor down: over DT {dt} a hit drops an armor die "
            f"a step and does not hurt (ARC-5 '{state.rulings['ARC-5']}'), at or under it is "
            f"absorbed; stripping the armor ({armor}) takes {need} hit(s) over DT and this "
            f"attack lands at most {most}: only hit {need + 1} onwards would reach health "
            f"(more hits in one attack, or armor worn down by earlier attacks){massive}")


def _health(state: ArcState, action: Attack, report: OddsReport, name: str,
            armor: str) -> str:
    t = state.fighters[action.target]
    most = _most(report, "damage")
    if most == 0:
        return f"no damage reaches {t.id}'s health (see expected damage: {armor.split(':')[0]})"
    if name == "p_out_of_action":
        return (f"at most {most} damage to {t.id}'s {t.health} health: it takes {t.health} "
                "to drop it to 0 and out of action")
    if name == "p_killed_outright":
        return (f"at most {most} damage; one attack kills outright only with more than "
                f"{t.profile.max_health} (its maximum health, ARC-8 "
                f"'{state.rulings['ARC-8']}')")
    return (f"at most {most} damage to {t.id}'s {t.health} health: death needs health at "
            f"-{t.profile.con} (its CON), {t.health + t.profile.con} damage, or more than "
            f"{t.profile.max_health} in one attack (ARC-8)")


def explain_numbers(state: ArcState, action: Attack, report: OddsReport, *,
                    evade: bool) -> dict[str, str]:
    """The reasons for the report's zeros and certainties (see module)."""
    a, t = state.fighters[action.unit], state.fighters[action.target]
    w = a.profile.weapon(action.weapon)
    n = report.numbers
    out: dict[str, str] = {}
    armor = _armor(state, action, report)
    if n.get("p_hit") == 0:
        out["p_hit"] = (f"{t.id} evades every time it could be hit" if evade
                        and n.get("p_evaded") == 1 else
                        f"no roll of {a.id}'s check succeeds (see the check above)")
    elif n.get("p_hit") == 1:
        out["p_hit"] = f"{a.id}'s check cannot fail (see the check above)"
    if n.get("expected_damage") == 0:
        out["expected_damage"] = armor
    for name in ("p_out_of_action", "p_kill", "p_killed_outright"):
        if n.get(name) == 0:
            out[name] = _health(state, action, report, name, armor)
        elif n.get(name) == 1:
            out[name] = (f"every outcome takes {t.id} past it: at least "
                         f"{min(report.distributions['damage'].outcomes)} damage to its "
                         f"{t.health} health")
    if n.get("p_jam") == 0:
        out["p_jam"] = (f"the {w.name} is a melee weapon: it cannot jam" if w.melee else
                        f"the {w.name} has no jam threat" if w.failure is None else
                        f"the {w.name} needs no check roll (hardware degree), so nothing "
                        "threatens a jam" if w.hardware_degree is not None else
                        f"a jam needs a roll of {w.failure[0]}+ on the check, then "
                        f"{w.failure[1]}+ on a second d20, and no such roll is possible here")
    if n.get("p_evaded") == 0:
        if not evade:
            out["p_evaded"] = (f"{t.id} does not evade in these odds; it could now: the "
                               "odds with --evade show it evading" if can_evade(state, t) else
                               f"{t.id} cannot evade now (unaware, out of AP and speed to "
                               "borrow, ARC-19) and these odds have it not evading")
        else:
            out["p_evaded"] = (f"{t.id}'s Evade never meets the attack's degree "
                               f"(ARC-6 '{state.rulings['ARC-6']}')")
    elif n.get("p_evaded") == 1:
        out["p_evaded"] = f"{t.id}'s Evade always beats the attack (ARC-6)"
    return out
