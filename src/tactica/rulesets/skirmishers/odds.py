"""Exact odds of a shot, a melee attack or an explosive, from the processes the battle runs.

A shot is the one a firing arc (or movement fire) makes: the exact driver runs
:func:`~tactica.rulesets.skirmishers.fire.shot` and reads the target's card from the events it
emits. A melee attack runs :func:`~tactica.rulesets.skirmishers.melee.attack`. An explosive
runs :func:`~tactica.rulesets.skirmishers.explosives.landing_process` for where it lands
(on target, or scattered), then each trooper's damage in the blast at each landing (each has
its own start roll, SKI-22, so the troopers' outcomes are computed one by one, exactly).

The report's ``damage`` is the HP the target loses; ``hp``, ``ap`` and ``armor`` its card
afterwards; ``card`` the whole outcome (HP, AP, prone, out of action, dead).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from tactica.dice import Dist
from tactica.engine.chance import Done, FirstOption, Observe, Step, and_then, run_exact
from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.events import Action, Damaged, OutOfAction
from tactica.engine.odds import OddsNumbers, OddsReading, OddsReport, outcome_report
from tactica.engine.odds import Outcome as Traced
from tactica.engine.odds_why import with_why
from tactica.engine.ruleset import OddsChoice, OddsValue
from tactica.engine.validation import whole_number
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import ARC_SIZES, bearing_value, holds_dot
from tactica.rulesets.skirmishers.explosives import (
    blast_victims,
    landing_process,
    resolve_token,
    throw_actions,
    throw_cost,
    throw_dots,
    throw_origin,
)
from tactica.rulesets.skirmishers.fire import damage, explosive_tn, melee_tn, ranged_tn, shot
from tactica.rulesets.skirmishers.melee import (
    MELEE_AP,
    attack,
    can_reach,
    melee_weapons,
    reach_refusal,
)
from tactica.rulesets.skirmishers.state import (
    Arc,
    PendingMelee,
    SkiState,
    Token,
    copy_state,
    spot_text,
)
from tactica.rulesets.skirmishers.why import explain_numbers

__all__ = ["REACTION_WORDS", "arc_report", "attack_action", "odds", "odds_action",
           "odds_choices", "odds_reading"]

#: A card after an attack: (HP, maximum AP, armor cells, fell prone, out of action, dead).
Outcome = tuple[int, int, int, bool, bool, bool]


def _done(work: SkiState) -> Step:
    return Done(None)


def _firearm(state: SkiState, uid: str) -> str | None:
    t = state.troopers[uid]
    pack = state.setup.pack
    if t.active in pack.weapons:
        return t.active
    return t.fallback if t.fallback in pack.weapons else None


def odds_choices(state: SkiState, unit: str) -> tuple[OddsChoice, ...]:
    """Every shot, melee attack and throw of ``unit`` at an enemy from where it stands."""
    t = state.troopers.get(unit)
    if t is None or not t.in_action:
        return ()
    out: list[OddsChoice] = []
    weapon = _firearm(state, unit)
    for e in state.alive():
        if e.side == t.side:
            continue
        if weapon is not None and ranged_tn(state, unit, e.id, state.setup.pack.weapons[weapon]
                                            ).tn is not None:
            out.append(OddsChoice(unit, (e.id,), weapon, r.Shoot(unit, e.id, weapon)))
        if can_reach(state, unit, e.id):
            out.extend(OddsChoice(unit, (e.id,), w, r.Melee(unit, e.id, w))
                       for w in melee_weapons(state, unit))
        for key, n in t.explosives:
            if n > 0:
                try:
                    action = _throw_at(state, unit, key, str(state.place(e.id)))
                except IllegalActionError:
                    continue
                out.append(OddsChoice(unit, (e.id,), key, action))
    return tuple(out)


def _throw_at(state: SkiState, unit: str, explosive: str, at: str) -> r.Throw:
    """A throw at ``at`` as if the explosive were ready, with the trooper's full AP."""
    t = state.troopers[unit]
    ready = copy_state(state)
    ready.troopers[unit] = replace(t, active=explosive, ap_spent=0, stopped=False)
    ready.shaken = frozenset()
    try:
        place = state.lattice.locate(at)
    except TacticaError as exc:
        raise IllegalActionError(f"--at: {exc}") from None
    for throw in throw_actions(ready, unit):
        if state.lattice.locate(throw.at) == place:
            return throw
    raise IllegalActionError(
        f"{unit} cannot throw a {state.setup.pack.item_name(explosive)} at {at}: not in sight "
        f"within the {state.max_ap(t)} AP it has")


def odds_action(state: SkiState, unit: str, targets: tuple[str, ...],
                means: str | None) -> Action:
    """The shot, melee attack or throw of ``unit`` at one target by ``means``."""
    if unit not in state.troopers:
        raise IllegalActionError(f"no trooper {unit!r} (troopers: {', '.join(state.troopers)})")
    if len(targets) != 1 or targets[0] not in state.troopers:
        raise IllegalActionError(f"{unit} attacks one trooper at a time, got {list(targets)}")
    target = targets[0]
    if not state.troopers[target].in_action:
        raise IllegalActionError(f"{target} is out of action")
    pack = state.setup.pack
    side = state.troopers[unit].side
    if state.troopers[target].side == side and means not in pack.explosives:
        raise IllegalActionError(f"{target} is on {unit}'s side ({side}): troopers shoot "
                                 "and fight the other side (an explosive may still be thrown "
                                 "at its spot)")
    if means is None:
        weapon = _firearm(state, unit)
        if weapon is not None and ranged_tn(state, unit, target, pack.weapons[weapon]
                                            ).tn is not None:
            return r.Shoot(unit, target, weapon)
        if can_reach(state, unit, target):
            return r.Melee(unit, target, melee_weapons(state, unit)[-1])
        raise IllegalActionError(
            f"{unit} can neither shoot nor reach {target} from where it stands; "
            f"give --weapon (a firearm, a melee weapon, hand-grenade)")
    if means in pack.weapons:
        return r.Shoot(unit, target, means)
    if means in pack.melee:
        refused = reach_refusal(state, unit, target)
        if refused is not None:
            raise IllegalActionError(refused)
        return r.Melee(unit, target, means)
    if means in pack.explosives:
        return _throw_at(state, unit, means, str(state.place(target)))
    known = sorted({*pack.weapons, *pack.melee, *pack.explosives})
    raise IllegalActionError(f"unknown weapon {means!r} (known: {', '.join(known)})")


def _card(events: tuple[Any, ...], state: SkiState, uid: str) -> Outcome:
    t = state.troopers[uid]
    hp, ap, armor = t.hp, state.max_ap(t), t.armor_left
    prone = out = dead = False
    for e in events:
        if isinstance(e, r.Hit) and e.unit == uid:
            hp, ap, armor, dead = e.hp, e.max_ap, e.armor, e.dead
        elif isinstance(e, r.FellProne) and e.unit == uid:
            prone = True
        elif isinstance(e, r.OutOfAction) and e.unit == uid:
            out = True
    return hp, ap, armor, prone, out, dead


def _words(o: Outcome, armored: bool) -> str:
    hp, ap, armor, prone, out, dead = o
    if dead:
        return "DEAD"
    if out:
        return "0 HP, out of action"
    text = f"HP {hp}, {ap} AP"
    if armored:
        text += f", armor {armor}"
    if prone:
        text += ", falls prone, stops"
    return text


def _hp_of(o: Outcome) -> int:
    return o[0]


def _wording(armored: bool) -> Callable[[Outcome], str]:
    return lambda o: _words(o, armored)


def _card_dists(dist: Dist[Any], state: SkiState, uid: str) -> Dist[Outcome]:
    return Dist.from_probs(_accumulate(
        (_card(events, state, uid), p) for (_, events), p in dist.items()))


def _accumulate(pairs: Any) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = {}
    for key, p in pairs:
        out[key] = out.get(key, Fraction(0)) + p
    return out


def _report(state: SkiState, attacker: str, target: str, what: str, p_hit: Fraction,
            cards: Dist[Outcome], reasons: list[str], extra: dict[str, Any],
            more: dict[str, Dist[Any]] | None = None) -> OddsReport:
    t = state.troopers[target]
    before = t.hp
    armored = t.armor_left > 0
    dmg = cards.map(lambda o: before - o[0])
    dists: dict[str, Dist[Any]] = {
        "damage": dmg,
        "hp": cards.map(lambda o: o[0]),
        "ap": cards.map(lambda o: o[1]),
    }
    if armored:
        dists["armor"] = cards.map(lambda o: o[2])
    dists["card"] = cards.map(lambda o: _words(o, armored))
    dists.update(more or {})
    numbers = {
        "p_hit": p_hit,
        "expected_damage": dmg.mean(),
        "p_out_of_action": sum((p for o, p in cards.items() if o[4]), Fraction(0)),
        "p_dead": sum((p for o, p in cards.items() if o[5]), Fraction(0)),
        "p_falls_prone": sum((p for o, p in cards.items() if o[3]), Fraction(0)),
        "expected_hp": cards.map(lambda o: o[0]).mean(),
    }
    return OddsReport(attacker, target, what, dists, OddsNumbers(**numbers), tuple(reasons),
                      extra=extra)


def _run(rules: Any, state: SkiState, process: Step) -> Dist[Any]:
    return run_exact(process, events=True, world=rules, state=state)


def _merger(into: dict[tuple[Any, bool], tuple[SkiState, Fraction]]
            ) -> Callable[[tuple[Any, bool], SkiState, Fraction], None]:
    """Adds a state's chance to ``into`` under its key (the first state of a key kept)."""

    def keep(key: tuple[Any, bool], work: SkiState, p: Fraction) -> None:
        have = into.get(key)
        into[key] = (work, p) if have is None else (have[0], have[1] + p)

    return keep


def _volley(rules: Any, state: SkiState, firer: str, target: str, weapon: Any,
            shots: int) -> Dist[Outcome]:
    """The target's card after ``shots`` shots one after another while it is still in the
    fight, each at the target number of the moment (a target that fell prone is harder to
    hit): the rules' :func:`shot` run exactly from each distinct card the shots before left
    (cards merged between shots, so twelve shots cost little more than one)."""
    t0 = state.troopers[target]
    frontier: dict[tuple[Any, bool], tuple[SkiState, Fraction]] = {
        (t0, False): (state, Fraction(1))}
    for _ in range(shots):
        nxt: dict[tuple[Any, bool], tuple[SkiState, Fraction]] = {}
        keep = _merger(nxt)
        for (t, fell), (work, p) in frontier.items():
            tn = ranged_tn(work, firer, target, weapon)
            if t.out or t.dead or tn.tn is None:
                keep((t, fell), work, p)
                continue
            dist = _run(rules, work, shot(work, firer, target, weapon, tn.tn, "shot", _done))
            for (_, events), q in dist.items():
                after = copy_state(work)
                for e in events:
                    rules.apply_event(after, e)
                down = fell or any(isinstance(e, r.FellProne) and e.unit == target
                                   for e in events)
                keep((after.troopers[target], down), after, p * q)
        frontier = nxt
    before = state.max_ap(t0)
    cards: dict[Outcome, Fraction] = {}
    for (t, fell), (work, p) in frontier.items():
        o = (t.hp, work.max_ap(t) if not t.dead else 0, t.armor_left, fell, t.out, t.dead)
        if not t.out and not t.dead and t == t0:
            o = (t0.hp, before, t0.armor_left, False, False, False)
        cards[o] = cards.get(o, Fraction(0)) + p
    return Dist.from_probs(cards)


def shot_report(rules: Any, state: SkiState, action: r.Shoot,
                shots: int = 1) -> OddsReport:
    """The exact outcome of one shot (as a firing arc makes it), or of ``shots`` shots at
    one target (a firing arc's every shot, the target staying in it)."""
    pack = state.setup.pack
    weapon = pack.weapons[action.weapon]
    tn = ranged_tn(state, action.unit, action.target, weapon)
    if tn.tn is None:
        raise IllegalActionError(f"{action.unit} cannot shoot {action.target}: "
                                 + "; ".join(tn.reasons))
    reasons = list(tn.reasons)
    if action.weapon not in state.troopers[action.unit].weapons:
        reasons.insert(0, f"{action.unit} does not carry a {weapon.name}: a what-if")
    reasons.append(f"a hit: 2D6 start cell (11, 12 read as 10), {weapon.lethal}X "
                   f"{weapon.bludgeoning}\\")
    cards = _volley(rules, state, action.unit, action.target, weapon, shots)
    what = (f"{action.unit} shoots {action.target} with a {weapon.name}" if shots == 1 else
            f"{action.unit} shoots {action.target} {shots} times with a {weapon.name}")
    if shots > 1:
        reasons.append(f"{shots} shots in a row, while {action.target} is still in the fight, "
                       "each at the target number of the moment")
    return _report(state, action.unit, action.target, what, tn.p_hit,
                   cards, reasons, {"weapon": action.weapon, "tn": tn.tn, "range": tn.range,
                                    "band": tn.band, "cover": tn.cover})


def melee_report(rules: Any, state: SkiState, action: r.Melee) -> OddsReport:
    """The exact outcome of a melee attack (as it is rolled when the target activates)."""
    refused = reach_refusal(state, action.unit, action.target)
    if refused is not None:
        raise IllegalActionError(refused)
    tn = melee_tn(state, action.unit, action.target)
    assert tn.tn is not None
    dist = _run(rules, state, attack(state, PendingMelee(action.unit, action.target,
                                                         action.weapon), _done))
    cards = _card_dists(dist, state, action.target)
    name = state.setup.pack.item_name(action.weapon)
    return _report(state, action.unit, action.target,
                   f"{action.unit} attacks {action.target} in melee with {name}", tn.p_hit,
                   cards, [*tn.reasons, "rolled when the target activates"],
                   {"weapon": action.weapon, "tn": tn.tn, "range": 1, "band": "melee",
                    "cover": 0})


def explosive_report(rules: Any, state: SkiState, action: r.Throw,
                     target: str | None) -> OddsReport:
    """Where an explosive lands, and every trooper's outcome in its blast, exactly."""
    uid = action.unit
    dots = 0 if action.stairwell else throw_dots(state, uid, action.at)
    paid, base = throw_cost(state, uid, action.explosive, dots, stairwell=action.stairwell)
    tn = explosive_tn(state, uid, action.at, base, stairwell=action.stairwell)
    assert tn.tn is not None
    origin = throw_origin(state, uid, action.at, stairwell=action.stairwell)
    token = Token(uid, action.explosive, action.at, paid, base, tn.tn, origin,
                  action.stairwell)
    landings = run_exact(landing_process(state, token))
    where: dict[str, Fraction] = {}
    per: dict[str, dict[Outcome, Fraction]] = {}
    for (_, landing, _), p in landings.items():
        key = landing if landing is not None else "lost (off the map)"
        where[key] = where.get(key, Fraction(0)) + p
        hits = {} if landing is None else {v[0]: v[2] for v in blast_victims(
            state, action.explosive, landing)}
        for uid2, t in state.troopers.items():
            if not t.in_action:
                continue
            if uid2 in hits:
                d = _run(rules, state, damage(state, uid2, hits[uid2], 0, uid, _done))
                for o, q in _card_dists(d, state, uid2).items():
                    per.setdefault(uid2, {})[o] = per.setdefault(uid2, {}).get(o, 0) + p * q
            else:
                o = _card((), state, uid2)
                per.setdefault(uid2, {})[o] = per.setdefault(uid2, {}).get(o, 0) + p
    name = state.setup.pack.item_name(action.explosive)
    at_place = state.lattice.locate(action.at)
    victim = target or next((u for u in state.troopers if u in state.lattice.troopers
                             and state.lattice.locate(u) == at_place), uid)
    more: dict[str, Dist[Any]] = {"landing": Dist.from_probs(where)}
    side = state.troopers[uid].side
    enemy_damage = Fraction(0)
    friend_damage = Fraction(0)
    extra_out: dict[str, float] = {}
    for uid2, outcomes in per.items():
        dist = Dist.from_probs(outcomes)
        t = state.troopers[uid2]
        hurt = t.hp - dist.map(_hp_of).mean()
        if t.side == side:
            friend_damage += hurt
        else:
            enemy_damage += hurt
        if any(o != _card((), state, uid2) for o in outcomes):
            more[f"card {uid2}"] = dist.map(_wording(t.armor_left > 0))
            extra_out[uid2] = float(sum((p for o, p in outcomes.items() if o[4]), Fraction(0)))
    reasons = [f"{dots} dots thrown, {paid} AP" if not action.stairwell else
               f"down the stairwell, {paid} AP", *tn.reasons,
               f"a miss scatters from {origin}"]
    report = _report(state, uid, victim, f"{uid} throws a {name} at {action.at}",
                     tn.p_hit, Dist.from_probs(per[victim]), reasons,
                     {"weapon": action.explosive, "tn": tn.tn, "at": action.at,
                      "cover": tn.cover, "p_out_of_action_each": extra_out}, more)
    return replace(report, numbers=report.numbers.with_more(
        expected_enemy_damage=enemy_damage, expected_friendly_damage=friend_damage))


#: What an arc's odds cannot tell: when, and at whom, its shots go.
REACTION_WORDS = ("reaction fire: the arc shoots when an enemy activates in it, enters one of "
                  "its dots or stands up in it (one shot a dot); which enemies draw its shots, "
                  "and how many each, depends on the enemies' moves: each enemy's figures give "
                  "it every shot of the arc, standing where it is now")


def _arc_weapon(state: SkiState, unit: str, weapon: str | None) -> str:
    t = state.troopers[unit]
    key = weapon if weapon is not None else t.active
    if key not in state.setup.pack.weapons:
        raise IllegalActionError(
            f"{unit} has no firearm ready for a firing arc (its active weapon is "
            f"{state.setup.pack.item_name(t.active)}); it readies one first (3 AP)")
    return key


def arc_report(rules: Any, state: SkiState, action: r.EstablishArc,
               weapon: str | None = None) -> OddsReport:
    """The exact outcome of establishing a firing arc now, enemy by enemy.

    Every enemy in action that the arc holds where it stands and that the firer can shoot
    (in sight, within long range) may draw the arc's every shot (base shots times the
    weapon's, SKI-8's dots on every level): for each, its target number, the chance a shot
    hits, and its card after all of them (each shot at the target number of the moment, as
    :func:`shot_report` with ``shots``: the matrix's value of a firing arc). The report's
    target is the enemy the arc points at (``toward`` its dot), else the one that loses the
    most HP on average; the others' cards are ``card ID`` distributions, and ``extra``'s
    ``targets`` has every enemy's figures. When its shots go depends on the enemies' moves
    (:data:`REACTION_WORDS`)."""
    if action.unit not in state.troopers:
        raise IllegalActionError(f"no trooper {action.unit!r}")
    if action.width not in ARC_SIZES:
        raise IllegalActionError(f"an arc is 30, 60 or 150 degrees wide, got {action.width}")
    unit = action.unit
    t = state.troopers[unit]
    key = _arc_weapon(state, unit, weapon)
    arm = state.setup.pack.weapons[key]
    base, ap = ARC_SIZES[action.width]
    n = base * arm.shots
    arc = Arc(action.width, action.bearing, action.toward, n, key)
    here = state.lattice.trooper(unit).dot
    axis = (f"toward {action.toward}" if action.toward is not None
            else f"on a bearing of {action.bearing}°")
    what = (f"{unit} establishes a {action.width}° arc {axis} ({ap} AP): {n} shot"
            f"{'s' if n != 1 else ''} with its {arm.name}")
    reasons = [f"{n} shot{'s' if n != 1 else ''}: {base} base for {action.width}° times "
               f"{arm.shots} for its {arm.name}"]
    outside: list[str] = []
    unseen: list[str] = []
    reports: dict[str, OddsReport] = {}
    for e in state.alive():
        if e.side == t.side or e.id not in state.lattice.troopers:
            continue
        if not holds_dot(state, here, arc, state.lattice.trooper(e.id).dot):
            outside.append(f"{e.id} at {state.place(e.id)}")
            continue
        tn = ranged_tn(state, unit, e.id, arm)
        if tn.tn is None:
            why = "; ".join(tn.reasons).split("; ")[0]  # the reason; sight has the rest
            unseen.append(f"{e.id} at {state.place(e.id)} is in the arc but cannot be shot "
                          f"now: {why}")
            continue
        reports[e.id] = shot_report(rules, state, r.Shoot(unit, e.id, key), n)
    targets = []
    for uid, rep in reports.items():
        x = rep.extra
        nums = rep.numbers
        targets.append({
            "target": uid, "place": str(state.place(uid)), "shots": n, "tn": x["tn"],
            "range": x["range"], "band": x["band"], "cover": x["cover"],
            "p_hit": float(nums["p_hit"]), "p_hit_exact": str(nums["p_hit"]),
            "expected_damage": float(nums["expected_damage"]),
            "p_out_of_action": float(nums["p_out_of_action"]),
            "p_dead": float(nums["p_dead"])})
        reasons.append(
            f"{uid} at {state.place(uid)}: range {x['range']} ({x['band']}), target number "
            f"{x['tn']}, each shot hits {nums['p_hit']} ({float(nums['p_hit']):.1%}); after "
            f"{n} shot{'s' if n != 1 else ''}: expected damage "
            f"{float(nums['expected_damage']):.3f}, out of action "
            f"{float(nums['p_out_of_action']):.1%}")
    reasons.extend(unseen)
    if outside:
        reasons.append("outside the arc: " + ", ".join(outside))
    reasons.append(REACTION_WORDS)
    extra: dict[str, Any] = {"weapon": key, "width": action.width, "shots": n, "ap": ap,
                             "targets": targets, "reaction_fire": REACTION_WORDS}
    if not reports:
        nobody = ("no enemy in action stands in the arc now" if not unseen else
                  "no enemy the arc holds can be shot from here now (see above)")
        zero = Dist.from_probs({0: Fraction(1)})
        return OddsReport(
            unit, "", what, {"damage": zero},
            OddsNumbers(expected_damage=Fraction(0), p_out_of_action=Fraction(0)),
            (nobody + ": nothing to shoot now", *reasons), extra={**extra, "tn": None},
            why={"expected_damage": nobody + ": its shots wait for an enemy to enter it",
                 "p_out_of_action": nobody})
    aimed = None
    if action.toward is not None:
        aimed = next((u for u in reports if str(state.place(u)).partition("@")[0]
                      == action.toward.partition("@")[0]), None)
    main = aimed or max(reports, key=lambda u: reports[u].numbers["expected_damage"])
    first = reports[main]
    more: dict[str, Dist[Any]] = {f"card {u}": rep.distributions["card"]
                                  for u, rep in reports.items() if u != main}
    return replace(first, action=what, distributions={**first.distributions, **more},
                   reasons=(*reasons, *first.reasons), extra={**first.extra, **extra})


def _as_arc(state: SkiState, action: r.Shoot, value: OddsValue) -> r.EstablishArc:
    """``--arc WIDTH`` (or ``WIDTH@BEARING``): the arc of that width toward the target's dot
    (or on that bearing)."""
    text = str(value)
    width_text, at, bearing_text = text.partition("@")
    width = whole_number(width_text)
    if width not in ARC_SIZES:
        raise TacticaError(f"--arc: expected 30, 60 or 150 (optionally @BEARING), got {text!r}")
    if at:
        try:
            bearing = Fraction(bearing_text)
        except (ValueError, ZeroDivisionError):
            bearing = Fraction(-1)
        if not 0 <= bearing < 360:
            raise TacticaError(f"--arc: a bearing in degrees from 0 to 360 after @, got "
                               f"{bearing_text!r}")
        return r.EstablishArc(action.unit, width, bearing_value(bearing))
    p = state.place(action.target)
    return r.EstablishArc(action.unit, width, None, f"{p.col},{p.row}")


def odds(state: SkiState, action: Action, **options: OddsValue) -> OddsReport:
    """The exact outcome of an action (see :func:`action_odds`), with the reasons for its
    zeros and certainties."""
    from tactica.rulesets.skirmishers import SKIRMISHERS  # the game runs the processes

    report = action_odds(SKIRMISHERS, state, action, **options)
    spent = options.get("spent")
    target = getattr(action, "target", None)
    if report.extra.get("width") in ARC_SIZES:  # a firing arc: the shots at its main target
        if report.target not in state.troopers:
            return report
        action = r.Shoot(report.attacker, report.target, str(report.extra["weapon"]))
        target = report.target
    if spent not in (None, False) and target in state.troopers:
        state = copy_state(state)
        state.troopers[target] = replace(state.troopers[target], ap_spent=int(str(spent)))
    return with_why(report, explain_numbers(state, action, report))


def action_odds(rules: Any, state: SkiState, action: Action, **options: OddsValue
                ) -> OddsReport:
    """The exact outcome of an action; options ``spent`` (the target's AP already spent this
    turn) and ``at`` (an explosive's dot)."""
    spent = options.get("spent")
    if spent is not None and spent is not False:
        text = str(spent)
        target = getattr(action, "target", None)
        if whole_number(text) is None:
            raise TacticaError(f"--spent: expected a whole number of AP, got {text!r}")
        if target in state.troopers:
            state = copy_state(state)
            state.troopers[target] = replace(state.troopers[target], ap_spent=int(text))
    arc = options.get("arc")
    if arc is not None and arc is not False:
        if not isinstance(action, r.Shoot):
            from tactica.rulesets.skirmishers.text import describe_action

            raise IllegalActionError("--arc: a firing arc shoots a firearm, not this: "
                                     + describe_action(state, action))
        if options.get("shots") not in (None, False):
            raise TacticaError("--arc and --shots: give one (an arc's shots are its width's "
                               "base times the weapon's)")
        return arc_report(rules, state, _as_arc(state, action, arc), action.weapon)
    if isinstance(action, r.EstablishArc):
        return arc_report(rules, state, action)
    if isinstance(action, r.Shoot):
        return shot_report(rules, state, action, _shots(options.get("shots"), state, action))
    if isinstance(action, r.Melee):
        return melee_report(rules, state, action)
    if isinstance(action, r.Throw):
        at_place = state.lattice.locate(action.at)
        target = next((u for u in state.troopers if u in state.lattice.troopers
                       and state.lattice.locate(u) == at_place), None)
        at = options.get("at")
        if isinstance(at, str):
            action = _throw_at(state, action.unit, action.explosive, at)
        return explosive_report(rules, state, action, target)
    if isinstance(action, r.Move | r.StandUp | r.Activate):
        threats = _threats(state, action)
        if len(threats) > EXACT_SHOTS:
            return _threat_report(rules, state, action, threats)
        return _with_actor_card(rules, state, action, outcome_report(rules, state, action))
    return outcome_report(rules, state, action)


def odds_reading(state: SkiState, action: Action, **options: OddsValue) -> OddsReading | None:
    """How :func:`odds` reads the process of a shot, a melee attack or a throw (each
    decision's first option): a shot is the battle's ``resolve`` of it; a melee attack is
    declared, then rolled as the battle rolls it when the target activates; a throw places
    its token, then goes off as the battle sets it off (where it lands, then the blast). The
    damage is the HP the target (for a throw, the trooper on the dot it is thrown at, else
    the thrower) loses, out of action that trooper dropping out. ``spent`` and ``at`` are
    read as the report reads them; a volley or an arc (``shots``, ``arc``) is several
    processes the battle never runs as one, and is refused. ``None`` for another action
    (the core reads it)."""
    for name in ("shots", "arc"):
        if options.get(name) not in (None, False):
            raise TacticaError(f"--{name}: its report is no single process of the battle, "
                               "so it has no reading")
    from tactica.rulesets.skirmishers import SKIRMISHERS  # the game runs the processes

    spent = options.get("spent")
    target = getattr(action, "target", None)
    if spent not in (None, False) and target in state.troopers:
        state = copy_state(state)
        state.troopers[target] = replace(state.troopers[target], ap_spent=int(str(spent)))
    resolve = SKIRMISHERS.rules.resolve
    if isinstance(action, r.Shoot | r.Melee):
        victim = action.target
    elif isinstance(action, r.Throw):  # the trooper it is aimed at, wherever ``at`` sends it
        at_place = state.lattice.locate(action.at)
        victim = next((u for u in state.troopers if u in state.lattice.troopers
                       and state.lattice.locate(u) == at_place), action.unit)
        at = options.get("at")
        if isinstance(at, str):
            action = _throw_at(state, action.unit, action.explosive, at)
    else:
        return None

    def process() -> Step:
        declared = resolve(state, action)
        if isinstance(action, r.Melee):
            pending = PendingMelee(action.unit, action.target, action.weapon)
            return and_then(declared, lambda _: Observe(lambda w: attack(w, pending, _done)))
        if isinstance(action, r.Throw):
            return and_then(declared, lambda _: Observe(lambda w: resolve_token(_last_first(w))))
        return declared

    def dealt(outcome: Traced) -> int:
        return sum(e.amount for e in outcome[1] if isinstance(e, Damaged) and e.unit == victim)

    def out(outcome: Traced) -> bool:
        return any(isinstance(e, OutOfAction) and e.unit == victim for e in outcome[1])

    return OddsReading(process, damage=dealt, out=out, state=state)


def _last_first(state: SkiState) -> SkiState:
    """A copy of ``state`` whose newest explosive token goes off first."""
    work = copy_state(state)
    work.tokens = (state.tokens[-1], *state.tokens[:-1])
    return work


def _with_actor_card(rules: Any, state: SkiState, action: Action,
                     report: OddsReport) -> OddsReport:
    """A move, an activation or standing up may draw reaction fire (and an activation a
    melee attack paid for earlier): the acting trooper's own card afterwards, exactly, as
    the attacker's outcome, every firer firing (the report's outcomes take each decision's
    first option the same way)."""
    uid = getattr(action, "unit", "")
    if uid not in state.troopers:
        return report
    dist = run_exact(rules.resolve(state, action), policies=FirstOption(), events=True,
                     world=rules, state=state)
    cards = _card_dists(dist, state, uid)
    if len(cards) < 2:
        return replace(report, attacker=uid)
    t = state.troopers[uid]
    armored = t.armor_left > 0
    more: dict[str, Dist[Any]] = {
        "attacker_damage": cards.map(lambda o: t.hp - o[0]),
        "attacker_hp": cards.map(lambda o: o[0]),
        "attacker_card": cards.map(_wording(armored)),
    }
    numbers = report.numbers.with_more(
        p_attacker_out_of_action=sum((p for o, p in cards.items() if o[4]), Fraction(0)),
        p_attacker_falls_prone=sum((p for o, p in cards.items() if o[3]), Fraction(0)))
    extra = {**report.extra, "attacker_if": "if every enemy that may fire at it does"}
    why = dict(report.why)
    for name, what in (("p_attacker_out_of_action", "takes it out of action"),
                       ("p_attacker_falls_prone", "makes it fall prone")):
        if numbers[name] in (0, 1):
            every = "none" if numbers[name] == 0 else "every one"
            why[name] = (f"{every} of the {len(cards)} cards {uid} may be left with by the "
                         f"reaction fire {what}")
    return replace(report, attacker=uid, distributions={**report.distributions, **more},
                   numbers=numbers, extra=extra, why=why)


#: The most shots of one volley (``--shots``): a 150-degree arc of a 3-shot weapon.
MAX_SHOTS = 12


def _shots(value: OddsValue | None, state: SkiState, action: r.Shoot) -> int:
    """``--shots``: a number, or ``arc`` (the shots of the weapon's 30-degree arc)."""
    if value is None or value is False:
        return 1
    text = str(value)
    if text == "arc":
        return state.setup.pack.weapons[action.weapon].shots
    n = whole_number(text)
    if n is None or not 1 <= n <= MAX_SHOTS:
        raise TacticaError(f"--shots: expected arc or 1 to {MAX_SHOTS} shots, got {text!r}")
    return n


#: Up to this many reaction shots, a move's odds are its every outcome, exactly; beyond, the
#: shots it may draw, each with its exact chance.
EXACT_SHOTS = 3


def _threats(state: SkiState, action: Action) -> list[tuple[str, str, int, Fraction]]:
    """``(place, firer, target number, chance)`` of every reaction shot the trooper may draw
    (every firer firing at every trigger, nothing stopping it)."""
    from tactica.rulesets.skirmishers.arcs import eligible_firers
    from tactica.rulesets.skirmishers.movement import path_to

    uid = getattr(action, "unit", "")
    work = copy_state(state)
    places: list[str | None] = [None]
    if isinstance(action, r.Move):
        p = state.lattice.locate(action.to)
        from tactica.battlefield.dots.geometry import offset_to_axial

        path = path_to(state, uid, (offset_to_axial(p.col, p.row), p.level)) or []
        places = [spot_text(*spot) for spot, _ in path]
    elif isinstance(action, r.StandUp):
        work.lattice = work.lattice.with_pose(uid, prone=False)
        work.troopers[uid] = replace(work.troopers[uid], prone=False)
    out = []
    shots = {f.id: f.arc.shots for f in work.troopers.values() if f.arc is not None}
    for place in places:
        if place is not None:
            work.lattice = work.lattice.move_occupant(uid, place)
            work.memo = {}
            work.troopers[uid] = replace(work.troopers[uid], shot_by=frozenset())
        for f in eligible_firers(work, uid):
            arc = work.troopers[f].arc
            if arc is None or shots.get(f, 0) <= 0:
                continue
            shots[f] -= 1
            tn = ranged_tn(work, f, uid, work.setup.pack.weapons[arc.weapon])
            if tn.tn is not None:
                out.append((place or str(state.place(uid)), f, tn.tn, tn.p_hit))
    return out


def _threat_report(rules: Any, state: SkiState, action: Action,
                   threats: list[tuple[str, str, int, Fraction]]) -> OddsReport:
    """The reaction fire a move may draw, shot by shot (too many shots to enumerate)."""
    from tactica.rulesets.skirmishers.text import describe_action

    uid = getattr(action, "unit", "")
    before = state.troopers[uid].hp
    miss_all = Fraction(1)
    stay_in = Fraction(1)
    hurt = Fraction(0)
    reasons = [f"{len(threats)} reaction shots if every firer fires at every dot and nothing "
               "stops the move (each with its exact chance):"]
    for place, firer, tn, p in threats:
        arc = state.troopers[firer].arc
        assert arc is not None
        weapon = state.setup.pack.weapons[arc.weapon]
        cards = _card_dists(_run(rules, state, damage(
            state, uid, weapon.lethal, weapon.bludgeoning, firer, _done)), state, uid)
        lost = cards.map(lambda o: before - o[0]).mean()
        out = sum((q for o, q in cards.items() if o[4]), Fraction(0))
        miss_all *= 1 - p
        stay_in *= 1 - p * out
        hurt += p * lost
        reasons.append(f"  at {place}: {firer}'s {weapon.name}, target number {tn}: {p}")
    reasons.append("expected damage and out of action count each hit on the card as it is "
                   "now: a lower bound, as hits add up; for one shot's whole outcome ask "
                   "'tactica odds -a FIRER -t TARGET'")
    return OddsReport(uid, uid, describe_action(state, action), {},
                      OddsNumbers(p_hit=1 - miss_all,
                                  expected_hits=sum((p for *_, p in threats), Fraction(0)),
                                  expected_damage=hurt, p_out_of_action=1 - stay_in),
                      tuple(reasons), extra={"shots": len(threats), "lower_bound": True})


def attack_action(state: SkiState, choice: OddsChoice) -> tuple[dict[str, OddsValue], str,
                                                                  int | None]:
    """What one attack action of ``choice`` is in Skirmishers, for a matchup matrix: the odds
    options that make it, its name and its AP.

    A firearm's action is its cheapest firing arc (30 degrees, 2 AP) with every shot of it at
    the target (1 base shot times the weapon's shots: 3 for an SMG, 1 for a rifle); a melee
    attack costs 5 AP; a throw costs the AP of its distance (doubled when prone)."""
    action = choice.action
    if isinstance(action, r.Shoot):
        base, ap = ARC_SIZES[30]
        n = base * state.setup.pack.weapons[action.weapon].shots
        return {"shots": str(n)}, f"30-degree arc: {n} shot{'s' if n != 1 else ''}", ap
    if isinstance(action, r.Melee):
        return {}, "melee attack", MELEE_AP
    if isinstance(action, r.Throw):
        dots = state.lattice.distance(action.unit, choice.targets[0])
        paid = throw_cost(state, action.unit, action.explosive, dots,
                          stairwell=action.stairwell)[0]
        return {}, f"a throw of {dots} dots", paid
    return {}, choice.means, None
