"""Exact odds of Last Odyssey attacks and status rolls, per target, with the reasons.

The report runs the battle's own attack process (one hit die for every target, Faithful, Body
Armor, the Shell and the shellbreak rule) through the exact driver, and reads each target's
marginal distributions from it: the hit, the final damage after every multiplier, the HP lost
after the Shell, the Shell and HP left, Shellbreak and downing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from tactica.dice import Dist
from tactica.engine.chance import Decide, Done, run_exact
from tactica.engine.errors import IllegalActionError
from tactica.engine.events import OutOfAction
from tactica.engine.odds import OddsNumbers, OddsReading, OddsReport
from tactica.engine.odds import Outcome as Traced
from tactica.engine.odds_why import with_why
from tactica.engine.ruleset import OddsChoice, OddsValue
from tactica.rulesets.last_odyssey import melee
from tactica.rulesets.last_odyssey.content import Ability
from tactica.rulesets.last_odyssey.hitdie import Outcome, TargetSetup, outcome
from tactica.rulesets.last_odyssey.policy import choose_decision
from tactica.rulesets.last_odyssey.records import AttackResolved, UseAbility
from tactica.rulesets.last_odyssey.resolve import Results, attack, resolve
from tactica.rulesets.last_odyssey.state import WORLD, Fighter, LodState, element_of
from tactica.rulesets.last_odyssey.targeting import (
    area_targets,
    mp_cost,
    multiplier_factors,
    reachable,
    target_setup,
)
from tactica.rulesets.last_odyssey.why import explain_numbers

__all__ = [
    "AttackOption",
    "attack_action",
    "attack_odds",
    "attack_options",
    "basic_attack",
    "choose_ability",
    "find_ability",
    "odds",
    "odds_choices",
    "odds_reading",
]


@dataclass(frozen=True)
class AttackOption:
    """One attack a character could make: ``weapon`` is the ability, ``target`` one id or a
    comma-separated list for a multi-target ability."""

    unit: str
    weapon: str
    target: str


def basic_attack(state: LodState, f: Fighter) -> Ability:
    """The character's basic attack (its named one, else the generic Basic Attack)."""
    for name in f.abilities:
        a = state.ability(name)
        if a.basic:
            return a
    raise IllegalActionError(f"{f.id} has no basic attack (LOD-18 is "
                             f"{state.rulings['LOD-18']!r})")


def find_ability(state: LodState, f: Fighter, weapon: str | None,
                 options: dict[str, Any]) -> tuple[Ability, str, bool]:
    """``(ability, element, knockout)`` from ``weapon`` (``Name[/element][/knockout]``)."""
    element = str(options.get("element") or "")
    knockout = str(options.get("knockout", "")).lower() in ("1", "true", "yes", "knockout")
    if weapon is None:
        ability = basic_attack(state, f)
    else:
        name, *mods = [p.strip() for p in weapon.split("/")]
        found = [a for a in (state.ability(n) for n in f.abilities)
                 if name.lower() in (a.id.lower(), a.name.lower())]
        if not found:
            names = ", ".join(state.ability(n).name for n in f.abilities)
            raise IllegalActionError(f"{f.id} has no ability {name!r} (it has {names})")
        ability = found[0]
        for m in mods:
            if m.lower() in ("knockout", "ko"):
                knockout = True
            else:
                element = m.lower()
    if ability.attack is None:
        raise IllegalActionError(f"{ability.name} does not roll the hit die: it always works")
    if ability.elements and element not in ability.elements:
        raise IllegalActionError(f"{ability.name} needs an element: "
                                 f"{'/'.join(ability.elements)} (e.g. "
                                 f"'{ability.name}/{ability.elements[0]}')")
    if not ability.elements and element and element != ability.element:
        raise IllegalActionError(f"{ability.name} is {ability.element}: it takes no element")
    if knockout and not f.player:
        raise IllegalActionError(f"only player characters may attack to knock out, not {f.id}")
    return ability, element, knockout


def _targets(state: LodState, f: Fighter, ability: Ability, target: str) -> tuple[str, ...]:
    names = tuple(t.strip() for t in target.split(",") if t.strip())
    if not names:
        raise IllegalActionError(f"no target given in {target!r}")
    for n in names:
        if n not in state.fighters or not state.fighters[n].standing:
            raise IllegalActionError(f"{n!r} is not a character standing on the field")
    if len(names) > 1 and not ability.is_multi:
        raise IllegalActionError(f"{ability.name} has one target; got {', '.join(names)}")
    allowed = (area_targets(state, f, ability) if ability.is_multi
               else reachable(state, f, ability))
    ok = {t.id for t in allowed}
    for n in names:
        if n not in ok:
            raise IllegalActionError(f"{f.id} cannot use {ability.name} on {n}: "
                                     + _why_not(state, f, ability, n))
    return names


def _why_not(state: LodState, f: Fighter, ability: Ability, target: str) -> str:
    """The first rule of :func:`~.targeting.reachable` (or ``area_targets``) that refuses
    ``target``, named: the user itself, a side (melee and area attacks hit the other side
    whatever LOD-16 says; ranged and ally abilities by LOD-16), the rows, a charge."""
    rows = state.rows
    t = state.fighters[target]
    reach = "area" if ability.is_multi else ability.reach
    if target == f.id and reach in ("melee", "ranged", "ally-other", "charge", "area"):
        return f"{ability.name} is not used on {f.id} itself"
    if reach == "self":
        return f"{ability.name} is used on {f.id} itself only"
    friend = t.side == f.side
    sides = state.rulings["LOD-16"] == "sides"
    if friend and reach in ("melee", "charge", "area"):
        return f"{target} is on {f.id}'s side: {ability.name} attacks the other side"
    if friend and reach == "ranged" and sides:
        return (f"{target} is on {f.id}'s side, and under LOD-16 sides ranged abilities "
                "target the other side")
    if not friend and reach in ("ally", "ally-other") and sides:
        return (f"{target} is not on {f.id}'s side, and under LOD-16 sides ally abilities "
                "target the user's side")
    if ability.is_melee and not melee.can_make_melee(rows, f.id):
        return f"it is melee and {f.id} is in the back row"
    if ability.is_melee and not melee.can_receive_melee(rows, target):
        return f"it is melee and {target} is in the back row"
    if reach == "charge":
        return f"Charge needs {target} in the back row of a side with an empty front row"
    return f"{ability.name} does not reach {target}"


def _faces(setup: TargetSetup) -> str:
    faces = [d for d in range(1, 11) if _hits(setup, d)]
    if not faces:
        return "no face"
    if faces == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])
    return ", ".join(map(str, faces))


def _hits(setup: TargetSetup, die: int) -> bool:
    return outcome(setup, die).hit


def _reasons(state: LodState, f: Fighter, ability: Ability, tid: str, element: str,
             knockout: bool) -> list[str]:
    t = state.fighters[tid]
    s = target_setup(state, f.id, ability, tid, element, knockout)
    out = []
    if s.kind == "status":
        out.append(f"{tid}: status roll for {ability.status}: die - status accuracy "
                   f"{s.accuracy} + resistance {s.evasion} <= {s.threshold} "
                   f"({ability.status} vs {element_of(t)}); faces {_faces(s)} land")
        return out
    out.append(f"{tid}: {s.kind} attack: die - accuracy {s.accuracy} + evasion {s.evasion} "
               f"<= {s.threshold}; faces {_faces(s)} hit"
               + ("" if s.auto_fail else " (a natural 1 always hits)"))
    if s.auto_fail:
        out.append(f"  {f.id} is " + ("Paralyzed" if s.kind == "physical" else "Silenced")
                   + ": the roll fails automatically (LOD-11)")
    factors = multiplier_factors(state, f.id, ability, tid, element)
    listed = ", ".join(f"{name} x{value}" for name, value in factors)
    out.append(f"  damage: max(1, attack {s.attack} - defense {s.defense} + "
               + ("1 (knock-out)" if knockout else "die") + f") x {s.multiplier} "
               f"({listed}), rounded {state.rulings['LOD-2']}")
    if t.shell:
        lower = t.shell_total - t.shell
        out.append(f"  the {element_of(t)} Shell of {t.shell} takes damage first"
                   + (f" (Shells of {lower} more lie beneath)" if lower else "")
                   + f"; breaking it downs {tid} only if the rest exceeds its {t.hp} HP")
    if s.body_armor:
        out.append(f"  Body Armor: the first physical hit on {tid} deals no damage")
    return out


def _marginal(dist: Dist[Results], i: int) -> Dist[tuple[str, Outcome]]:
    return dist.map(lambda results: results[i])


def _own(m: Dist[tuple[str, Outcome]], tid: str) -> Dist[Outcome | None]:
    """The target's own outcome, or ``None`` when a Faithful protector took the attack."""
    return m.map(lambda to: to[1] if to[0] == tid else None)


def _left(field: str, unchanged: int) -> Callable[[Outcome | None], int]:
    def read(o: Outcome | None) -> int:
        return unchanged if o is None else int(getattr(o, field))

    return read


def _down_of(falls_now: Callable[[str, Outcome], bool], tid: str,
             to: tuple[str, Outcome]) -> bool:
    """``tid`` itself (not a Faithful protector) leaves the battle now."""
    return to[0] == tid and falls_now(*to)


def _shells_left(lower: int, top: int, o: Outcome | None) -> int:
    """Every Shell left: the one the attack hit (``o.shell``) and those beneath it."""
    return lower + (top if o is None else o.shell)


def _damage_taken(o: Outcome | None) -> int:
    return o.damage if o is not None and o.hit and not o.blocked else 0


def choose_ability(state: LodState, attacker: str, targets: tuple[str, ...],
                   means: str | None) -> UseAbility:
    """``attacker`` using ``means`` (``Name[/element][/knockout]``; ``None``: its basic
    attack) on ``targets``; an IllegalActionError says why it cannot."""
    if attacker not in state.fighters or not state.fighters[attacker].standing:
        raise IllegalActionError(f"{attacker!r} is not a character standing on the field")
    f = state.fighters[attacker]
    ability, element, knockout = find_ability(state, f, means, {})
    chosen = _targets(state, f, ability, ",".join(targets))
    return UseAbility(attacker, ability.id, chosen, element, knockout)


def attack_odds(state: LodState, action: UseAbility) -> OddsReport:
    """The exact outcome of an ability that rolls the hit die (see module)."""
    attacker = action.unit
    if attacker not in state.fighters or not state.fighters[attacker].standing:
        raise IllegalActionError(f"{attacker!r} is not a character standing on the field")
    f = state.fighters[attacker]
    ability = state.ability(action.ability)
    if ability.attack is None:
        raise IllegalActionError(f"{ability.name} does not roll the hit die: it always works")
    element, knockout = action.element, action.knockout
    targets = _targets(state, f, ability, ",".join(action.targets))
    process = attack(state, f.id, ability, targets, element, knockout,
                     lambda _w, results: Done(results), reactions=False)
    dist: Dist[Results] = run_exact(process, world=WORLD, state=state)
    distributions: dict[str, Dist[Any]] = {}
    numbers: dict[str, Fraction] = {}
    reasons = [f"one hit die (d10) for {len(targets)} target(s)"]
    cost = mp_cost(f, ability)
    if cost > f.mp or ability.ammo > f.ammo:
        reasons.append(f"note: {ability.name} costs {cost} MP and {ability.ammo} Ammo; "
                       f"{f.id} has {f.mp} MP and {f.ammo} Ammo")
    if "confused" in f.statuses and not ability.is_multi:
        reasons.append(f"note: {f.id} is Confused: the attack reaches its target only on a won "
                       "coin call (1/2); these odds assume it does")

    def falls_now(took: str, o: Outcome) -> bool:
        # "Down" is what the battle does now: a character that leaves the fight. At 0 HP a
        # Boar Rider (Too Stupid to Die) stays until the Effect phase.
        return o.downed and "too-stupid-to-die" not in state.fighters[took].passives

    any_down = dist.map(lambda results: any(falls_now(t, o) for t, o in results))
    for i, tid in enumerate(targets):
        m = _marginal(dist, i)
        suffix = "" if len(targets) == 1 else f"[{tid}]"
        reasons += _reasons(state, f, ability, tid, element, knockout)
        t = state.fighters[tid]
        hit = m.map(lambda to: to[1].hit)
        numbers["p_hit" + suffix] = hit.p(True)
        if ability.attack == "status":
            continue
        own = _own(m, tid)
        damage = own.map(_damage_taken)
        hp_left = own.map(_left("hp", t.hp))
        # Every Shell left, not only the top one: a broken Shell may leave another beneath.
        shell_left = own.map(partial(_shells_left, t.shell_total - t.shell, t.shell))
        hp_loss = own.map(lambda o: o.to_hp if o is not None else 0)
        distributions["damage" + suffix] = damage
        distributions["hp_loss" + suffix] = hp_loss
        distributions["shell_left" + suffix] = shell_left
        distributions["hp_left" + suffix] = hp_left
        numbers["expected_damage" + suffix] = damage.mean()
        numbers["p_shellbreak" + suffix] = own.map(
            lambda o: bool(o is not None and o.broken)).p(True)
        numbers["p_down" + suffix] = m.map(partial(_down_of, falls_now, tid)).p(True)
        if "too-stupid-to-die" in t.passives:
            numbers["p_zero_hp" + suffix] = hp_left.p(0) if t.hp > 0 else Fraction(0)
            reasons.append(f"  Too Stupid to Die: at 0 HP {tid} stays in the battle until the "
                           "Effect phase, where it falls if still at 0 HP; 'down' counts only "
                           "leaving the battle now, 'zero hp' the chance of 0 HP")
        if any(to[0] != tid for to in m.outcomes):
            reasons.append(f"  Faithful: a downing blow on {tid} goes to "
                           f"{next(to[0] for to in m.outcomes if to[0] != tid)} (LOD-14)")
    if ability.attack != "status":
        if len(targets) > 1:
            # the mean of the total: a blow a Faithful protector takes for another target
            # counts once, on the protector, though neither target's own outcome shows it
            numbers["expected_damage"] = dist.map(
                lambda results: sum(_damage_taken(o) for _t, o in results)).mean()
        numbers["p_out_of_action"] = (numbers.get("p_down", Fraction(0)) if len(targets) == 1
                                      else any_down.p(True))
    else:
        numbers["expected_damage"] = Fraction(0)
        numbers["p_out_of_action"] = Fraction(0)
    if "damage" not in distributions:  # several targets, or a status roll: the total
        distributions = {"damage": dist.map(
            lambda results: sum(_damage_taken(o) for _t, o in results)
            if ability.attack != "status" else 0), **distributions}
    back = _attackers_outcome(state, f, ability, targets, element, knockout)
    if back is not None:
        distributions["attacker_damage"] = back.map(lambda o: o[3])
        distributions["attacker_shell_left"] = back.map(lambda o: o[1])
        distributions["attacker_hp_left"] = back.map(lambda o: o[0])
        numbers["p_attacker_down"] = back.map(lambda o: o[2]).p(True)
        reasons.append(f"{' or '.join(_reacting(state, f, ability, targets))} may strike back "
                       f"(a reaction to a missed melee attack): {f.id}'s own outcome")
    name = ability.name + (f" ({element})" if element else "") + (" to knock out"
                                                                  if knockout else "")
    report = OddsReport(attacker, ",".join(targets), f"{attacker} uses {name} on "
                        f"{', '.join(targets)}", distributions, OddsNumbers(**numbers),
                        tuple(reasons),
                        extra={"weapon": ability.name, "targets": list(targets),
                               "kind": ability.attack, "element": element or ability.element,
                               "attacker_if": "" if back is None else
                               f"if {' or '.join(_reacting(state, f, ability, targets))} "
                               "strikes back"})
    why = explain_numbers(state, f.id, ability, targets, element, knockout, report)
    down = report.numbers.get("p_attacker_down")
    if back is not None and down in (0, 1):
        who = " or ".join(_reacting(state, f, ability, targets))
        why = {**why, "p_attacker_down": (
            f"{'no' if down == 0 else 'every'} outcome of {who}'s strike back downs {f.id} "
            f"({f.hp} HP behind {f.shell_total} Shell)")}
    return with_why(report, why)


def _reacting(state: LodState, f: Fighter, ability: Ability,
              targets: tuple[str, ...]) -> list[str]:
    """The targets that may react to this attack (a melee attack on another side: Revenge,
    Quick Fingers, a pack's reaction ability)."""
    if not ability.is_melee:
        return []
    out = []
    for tid in targets:
        t = state.fighters[tid]
        if t.side == f.side:
            continue
        if t.passives & {"revenge", "quick-fingers"} or any(
                state.ability(a).type == "reaction" for a in t.abilities):
            out.append(tid)
    return out


class _Decisions:
    """The computer's choices inside the reactions (the item Quick Fingers steals, ...)."""

    def __init__(self, state: LodState):
        self.state = state

    def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
        chosen = choose_decision(self.state, decision, None)
        return decision.options[0] if chosen is None else chosen


def _attackers_outcome(state: LodState, f: Fighter, ability: Ability, targets: tuple[str, ...],
                       element: str, knockout: bool
                       ) -> Dist[tuple[int, int, bool, int]] | None:
    """The attacker's ``(HP left, Shells left, down, damage taken)`` once the targets'
    reactions are through, exactly
    (the battle's own attack process, reactions included), or ``None`` when no target may
    react or no reaction can hurt it."""
    if not _reacting(state, f, ability, targets):
        return None

    def after(w: LodState, _results: Results) -> Done[tuple[int, int, bool]]:
        me = w.fighters[f.id]
        return Done((me.hp, me.shell_total, not me.standing))

    process = attack(state, f.id, ability, targets, element, knockout, after, reactions=True)
    traced: Dist[tuple[tuple[int, int, bool], tuple[Any, ...]]] = run_exact(
        process, world=WORLD, state=state, policies=_Decisions(state), events=True)
    dist = traced.map(lambda ve: (*ve[0], sum(
        e.damage for e in ve[1]
        if isinstance(e, AttackResolved) and e.target == f.id and e.hit)))
    return dist if len(dist) > 1 else None


def odds_choices(state: LodState, attacker: str) -> tuple[OddsChoice, ...]:
    """The attacks of :func:`attack_options` as actions, for ``odds --table``."""
    out = []
    for opt in attack_options(state, attacker):
        targets = tuple(opt.target.split(","))
        out.append(OddsChoice(attacker, targets, opt.weapon,
                              choose_ability(state, attacker, targets, opt.weapon)))
    return tuple(out)


def attack_options(state: LodState, attacker: str) -> list[AttackOption]:
    """Every attack or status roll ``attacker`` could make from where it stands (costs and
    turn order aside)."""
    f = state.fighters[attacker]
    out = []
    for name in f.abilities:
        a = state.ability(name)
        if a.attack is None or not a.is_action:
            continue
        weapon = a.name + (f"/{a.elements[0]}" if a.elements else "")
        if a.is_multi:
            targets = [t.id for t in area_targets(state, f, a)]
            if targets:
                out.append(AttackOption(attacker, weapon, ",".join(targets)))
        else:
            out.extend(AttackOption(attacker, weapon, t.id) for t in reachable(state, f, a))
    return out


def _attack_asked(state: LodState, action: Any,
                  options: dict[str, OddsValue]) -> UseAbility | None:
    """The attacking ability asked about, its options (``knockout``, ``element``) applied;
    ``None`` for another action."""
    if not (isinstance(action, UseAbility) and state.ability(action.ability).attack is not None):
        return None
    if options:
        element = str(options.get("element") or action.element)
        knockout = bool(options.get("knockout")) or action.knockout
        means = "/".join([action.ability, *([element] if element else []),
                          *(["knockout"] if knockout else [])])
        return choose_ability(state, action.unit, action.targets, means)
    return action


def odds(state: LodState, action: Any, **options: OddsValue) -> OddsReport | None:
    """The odds of an attacking ability, the options (``knockout``, ``element``) applied;
    ``None`` for another action."""
    action = _attack_asked(state, action, options)
    if action is None:
        return None
    return attack_odds(state, action)


def odds_reading(state: LodState, action: Any, **options: OddsValue) -> OddsReading | None:
    """How :func:`odds` reads an attacking ability's process (the battle's own ``resolve``,
    each decision's first option): its damage is the damage each target's hit rolls
    (``AttackResolved``, before the target's HP and Shells cap it; none when body armor
    blocks it), its out of action a target leaving the battle now."""
    action = _attack_asked(state, action, options)
    if action is None:
        return None
    chosen = action
    status = state.ability(action.ability).attack == "status"
    targets = _targets(state, state.fighters[action.unit], state.ability(action.ability),
                       ",".join(action.targets))

    def dealt(outcome: Traced) -> int:
        if status:
            return 0
        return sum(e.damage for e in outcome[1] if isinstance(e, AttackResolved)
                   and e.unit == chosen.unit and e.ability == chosen.ability
                   and e.target in targets and e.hit and e.note != "body-armor")

    def out(outcome: Traced) -> bool:
        return not status and any(isinstance(e, OutOfAction) and e.unit in targets
                                  for e in outcome[1])

    return OddsReading(lambda: resolve(state, chosen), damage=dealt, out=out)


def attack_action(state: LodState, choice: OddsChoice) -> tuple[dict[str, OddsValue], str,
                                                                  int | None]:
    """What one attack action of ``choice`` is in Last Odyssey, for a matchup matrix: no odds
    options (an ability rolls the hit die once per target), its name with what it costs, and
    its AP (most actions cost 1 AP; an ability may cost more), so that
    ``expected_damage_per_ap`` weighs a 2-AP ability against two 1-AP attacks."""
    action = choice.action
    if not isinstance(action, UseAbility):
        return {}, choice.means, None
    ability = state.ability(action.ability)
    costs = [f"{ability.mp} MP"] if ability.mp else []
    if ability.once_per_battle:
        costs.append("once a battle")
    kind = "a Basic Attack" if ability.basic else "one use"
    return {}, ", ".join([kind, *costs]), ability.ap
