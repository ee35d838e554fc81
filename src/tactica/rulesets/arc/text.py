"""Arc actions, events and decisions in words, and why an action's dice are what they are."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from tactica.battlefield.base import SightOption, SightReport
from tactica.engine.chance import Decide
from tactica.engine.errors import MapError, TacticaError
from tactica.engine.ruleset import UnitStatus
from tactica.rulesets.arc import records as r
from tactica.rulesets.arc.attack import EVADE, attack_plan, can_evade
from tactica.rulesets.arc.checks import check_dist, hits_of
from tactica.rulesets.arc.movement import metres_text, path_to, reposition_metres, sees
from tactica.rulesets.arc.state import ArcState, Fighter, tile_text, who

__all__ = ["armor_text", "describe_action", "describe_event", "describe_option",
           "explain_action", "units", "who", "wounds_text"]


def wounds_text(wounds: tuple[int, ...]) -> str:
    """``d8+d4``, or ``none``."""
    return "+".join(f"d{w}" for w in wounds) or "none"


def units(state: ArcState) -> tuple[UnitStatus, ...]:
    """Every character as it stands: health, armor dice, wounds, AP, weapon in hand."""
    out = []
    for f in state.fighters.values():
        details: dict[str, str | int | bool] = {}
        if f.profile.name and f.profile.name != f.id:
            details["name"] = f.profile.name
        details |= {
            "health": f.health,
            "armor": armor_text(f),
            "wounds": wounds_text(f.wounds),
            "ap": f.ap,
            "weapon": f.hand,
        }
        if f.dead:
            details["dead"] = True
        elif not f.conscious:
            details["unconscious"] = True
        out.append(UnitStatus(f.id, f.side, f.in_action,
                              tile_text(f.at) if f.at is not None else None, details,
                              survived=not f.dead))
    return tuple(out)


def armor_text(f: Fighter, sizes: tuple[int, ...] | None = None) -> str:
    """The armor dice now: ``d6 (vest), gone``; ``none`` without armor."""
    sizes = f.armor if sizes is None else sizes
    if not f.profile.armor:
        return "none"
    parts = []
    for size, piece in zip(sizes, f.profile.armor, strict=True):
        die = f"d{size}" if size else "gone"
        parts.append(f"{die} ({piece.name})" if piece.name else die)
    return ", ".join(parts)


def _signed(degree: int, success: bool) -> str:
    return f"{'+' if success else '-'}{abs(degree)}º"


def _move_cost(state: ArcState, action: r.Move) -> str:
    """``, 4 AP``: what a move on the grid costs, when it can be paid (else ``""``)."""
    f = state.fighters.get(action.unit)
    if f is None or f.at is None or state.grid is None:
        return ""
    x, _, y = action.to.partition(",")
    try:
        _, cost = path_to(state, f, (int(x), int(y)), action.mode)
    except (ValueError, TacticaError):
        return ""
    return f", {cost} AP"


def describe_action(state: ArcState, action: Any) -> str:
    """One line for an action."""
    if isinstance(action, r.Attack):
        aim = f", aiming {action.aim} AP" if action.aim else ""
        one = ", taking 1" if action.take_one else ""
        return f"{action.unit} attacks {action.target} with the {action.weapon}{aim}{one}"
    if isinstance(action, r.Reload):
        return f"{action.unit} reloads the {action.weapon}"
    if isinstance(action, r.Swap):
        return f"{action.unit} swaps to the {action.weapon}"
    if isinstance(action, r.UseItem):
        item = state.items[action.item].name if action.item in state.items else action.item
        on = "itself" if action.target == action.unit else action.target
        if action.pay == "carry":
            return f"{action.unit} begins a {item} on {on}, finishing it next turn"
        if action.pay == "speed":
            return f"{action.unit} uses a {item} on {on}, paying the AP missing with speed"
        return f"{action.unit} uses a {item} on {on}"
    if isinstance(action, r.Move):
        return f"{action.unit} moves to {action.to} ({action.mode}{_move_cost(state, action)})"
    if isinstance(action, r.Reposition):
        way = "away from" if action.away else "toward"
        moved = reposition_metres(action.mode, action.ap)
        now = state.ranges.get(frozenset((action.unit, action.other)))
        then = ""
        if now is not None:
            after = now + moved if action.away else max(Fraction(0), now - moved)
            then = f": {float(now):.1f} m to {float(after):.1f} m"
        return (f"{action.unit} moves {float(moved):.1f} m {way} {action.other} "
                f"({action.mode}, {action.ap} AP){then}")
    if isinstance(action, r.Watch):
        if action.kind == "overwatch":
            aim = f", aiming {action.aim} AP" if action.aim else ""
            return f"{action.unit} sets overwatch ({action.ap} AP{aim})"
        return f"{action.unit} suppresses ({action.ap} AP)"
    if isinstance(action, r.Hold):
        return f"{action.unit} holds its turn until after {action.after}'s"
    if isinstance(action, r.EndTurn):
        return f"{action.unit} ends its turn"
    return repr(action)


def _attacked(state: ArcState, e: r.Attacked) -> str:
    how = f" ({e.how})" if e.how else ""
    check = (f"{e.target_number}º{e.increment} on a d{e.die}"
             if e.how not in ("fixed", "take 1") else e.how)
    unit, target = who(state, e.unit), who(state, e.target)
    head = f"{unit} attacks {target} with the {e.weapon}"
    if e.reaction:
        head = f"{unit} fires ({e.reaction}) at {target} with the {e.weapon}"
    text = f"{head}: {check}, {_signed(e.degree, e.success)}{how}"
    if e.evade is not None:
        ok, deg = e.evade
        text += f"; {target} evades: {_signed(deg, ok)}"
        if e.evaded:
            text += ", the attack misses (the AP comes back)"
    if e.success and not e.evaded:
        text += f": {e.hits} hit{'s' if e.hits != 1 else ''}"
    elif not e.success:
        text += ": a miss"
    return text + "."


_EVENTS: dict[type, Callable[[ArcState, Any], str]] = {
    r.InitiativeChecked: lambda s, e: f"{who(s, e.unit)}'s initiative: {e.roll}, "
        f"{_signed(e.degree, e.success)}.",
    r.InitiativeRolled: lambda s, e: f"Initiative order: {', '.join(who(s, u) for u in e.order)}."
        + (f" A d10 on the first turn's checks with AGI (or the attribute swapped in): "
           f"{', '.join(who(s, u) for u in e.d10)}." if e.d10 else ""),
    r.RoundBegan: lambda s, e: f"Round {e.round}: "
        + ", ".join(f"{who(s, u)} {ap} AP" for u, ap in e.ap) + ".",
    r.RoundEnded: lambda s, e: f"Round {e.round} is over.",
    r.Held: lambda s, e: f"{who(s, e.unit)} holds its turn until after {who(s, e.after)}'s.",
    r.TurnEnded: lambda s, e: f"{who(s, e.unit)}'s turn ends.",
    r.APSpent: lambda s, e: f"{who(s, e.unit)} spends {e.ap} AP on {e.what or 'an action'}"
        + (f" ({e.borrowed} from next round's speed)" if e.borrowed else "")
        + f": {e.left} AP left.",
    r.APRefunded: lambda s, e: f"{who(s, e.unit)} gets its {e.ap} AP back ({e.left} AP).",
    r.Loaded: lambda s, e: f"{who(s, e.unit)}'s {e.weapon} "
        + (f"holds {e.rounds} rounds." if e.rounds else "is cleared."),
    r.RoundsFired: lambda s, e: f"{who(s, e.unit)}'s {e.weapon} fires {e.fired} rounds "
        f"({e.left} left).",
    r.Jammed: lambda s, e: f"{who(s, e.unit)}'s {e.weapon} jams.",
    r.Swapped: lambda s, e: f"{who(s, e.unit)} holds the {e.weapon}.",
    r.Attacked: _attacked,
    r.ArmorWorn: lambda s, e: f"{who(s, e.unit)}'s armor: {armor_text(s.fighters[e.unit], e.armor)}"
        + (f" ({e.absorbed} absorbed)" if e.absorbed else "")
        + (f" ({e.degraded} dropped a step)" if e.degraded else "")
        + (" (destroyed by massive damage)" if e.destroyed else "") + ".",
    r.Wounded: lambda s, e: f"{who(s, e.unit)} takes {e.amount} damage: {e.health} health, wound "
        f"dice {wounds_text(e.wounds)}.",
    r.Bled: lambda s, e: f"{who(s, e.unit)} bleeds {e.amount}: {e.health} health.",
    r.Falling: lambda s, e: f"{who(s, e.unit)} is at or under 0 health: it falls when "
        "its turn ends.",
    r.Fell: lambda s, e: f"{who(s, e.unit)} falls unconscious.",
    r.Died: lambda s, e: f"{who(s, e.unit)} dies ({e.reason}).",
    r.Woke: lambda s, e: f"{who(s, e.unit)} comes to.",
    r.Checked: lambda s, e: f"{who(s, e.unit)}'s {e.skill.title()} check against "
        f"{e.target_number}: "
        f"{_signed(e.degree, e.success)}.",
    r.ItemUsed: lambda s, e: f"{who(s, e.unit)} uses a {e.item} on {who(s, e.target)} "
        f"({e.left} left).",
    r.ItemBegun: lambda s, e: f"{who(s, e.unit)} has begun the {e.item} on {who(s, e.target)}: "
        f"{e.owed} AP "
        "more when its next turn starts (falling before then loses it).",
    r.ItemFinished: lambda s, e: f"{who(s, e.unit)} finishes the {e.item} on {who(s, e.target)}"
        + (f": it does nothing ({e.lost})." if e.lost else "."),
    r.Healed: lambda s, e: f"{who(s, e.unit)} regains {e.amount} health: {e.health}.",
    r.WoundsTreated: lambda s, e: f"{who(s, e.unit)}'s wound dice: {wounds_text(e.wounds)}.",
    r.Stepped: lambda s, e: f"{who(s, e.unit)} enters {e.to}.",
    r.Repositioned: lambda s, e: f"{who(s, e.unit)} and {who(s, e.other)} are "
        f"{float(Fraction(e.metres)):.1f} m "
        "apart.",
    r.WatchSet: lambda s, e: f"{who(s, e.unit)} watches ({e.kind}, {e.ap} AP"
        + (f"; +{e.degree}º for every attack it triggers, unopposed" if e.degree is not None
           else "") + ").",
    r.WatchUsed: lambda s, e: f"{who(s, e.unit)}'s watch fires"
        + (f" ({e.left} AP left)." if e.left else "."),
}


def describe_event(state: ArcState, event: Any) -> str:
    """One line for an event."""
    f = _EVENTS.get(type(event))
    return f(state, event) if f is not None else repr(event)


def describe_option(state: ArcState, decision: Decide[Any], option: object) -> str:
    """An option of a decision inside an action."""
    if decision.label == EVADE:
        unit = decision.context.get("unit", "the target")
        ev = decision.context.get("evade")
        what = f" ({ev.label()})" if ev is not None else ""
        t = state.fighters.get(str(unit))
        pay = "1 AP" if t is None or t.ap > 0 else "1 speed from next round"
        named = who(state, str(unit))
        return (f"{named} evades{what}, paying {pay} (back if it works)" if option
                else f"{named} does not evade")
    return str(option)


def _explain_other(state: ArcState, action: Any) -> list[str]:
    f = state.fighters[action.unit]
    out = [describe_action(state, action)]
    if isinstance(action, r.Move):
        x, _, y = action.to.partition(",")
        path, cost = path_to(state, f, (int(x), int(y)), action.mode)
        out.append(f"{len(path)} squares by {action.mode}, {cost} AP of {f.ap} (walk 2 a "
                   "square, slow 3, run 2 per 2, sprint 2 per 4; +1 a diagonal or rough "
                   "square); enemies watching fire where they see the mover")
    elif isinstance(action, r.Reposition):
        out.append(f"{action.ap} AP of {f.ap}; without a map a move changes only the metres "
                   f"to {action.other}: walk 1.5 m per 2 AP, slow 1.5 m per 3, run "
                   "3.0 m per 2, sprint 6.1 m per 2")
    elif isinstance(action, r.UseItem):
        item = state.items[action.item]
        t = state.fighters[action.target]
        cost = item.ap(t.id == f.id, state.rulings)
        what = [f"heals {item.heal}" + ("+º" if item.plus_degree else "")] if item.heal else []
        if item.remove_steps is not None:
            what.append(f"removes {item.remove_steps}" + ("+º" if item.plus_degree else "")
                        + " wound steps")
        check = (f"a Medicine check ({f.profile.skill('medicine')}º5)" if item.check
                 else "no check")
        out.append(f"{cost} AP, {check}; {' and '.join(what)}; {t.id}: health "
                   f"{t.health}/{t.profile.max_health}, wound dice {wounds_text(t.wounds)}")
        if action.pay == "speed":
            out.append(f"{f.ap} AP now and {cost - f.ap} from speed: {cost - f.ap} AP fewer "
                       "next round")
        elif action.pay == "carry":
            out.append(f"{f.ap} AP now, the other {cost - f.ap} when its next turn starts; "
                       "the effect comes then, and is lost if it falls before")
    elif isinstance(action, r.Reload):
        w = f.profile.weapon(action.weapon)
        holds = f"1d{w.capacity_die}" if w.capacity_die else str(w.full or "-")
        out.append(f"{w.reload} AP; the magazine holds {holds} rounds; clears a jam")
    elif isinstance(action, r.Swap):
        out.append(f"{f.profile.weapon(action.weapon).swap} AP")
    elif isinstance(action, r.Watch):
        if action.kind == "suppress" and state.rulings["ARC-32"] == "declared":
            out.append("one unaimed attack roll now (a failure ends it); its degree serves "
                       "every attack the suppression triggers, which cannot be evaded")
        out.append("the turn ends; it lasts until this character's next turn")
    elif isinstance(action, r.EndTurn):
        out.append(f"{f.ap} AP left pay for evading until the round ends")
    return out


def _p(x: Fraction) -> str:
    return f"{float(x):.1%}"


def explain_action(state: ArcState, action: Any) -> list[str]:
    """Why an action's dice are what they are."""
    if not isinstance(action, r.Attack):
        return _explain_other(state, action)
    plan = attack_plan(state, action)
    a, t, w = state.fighters[plan.unit], state.fighters[plan.target], plan.weapon
    skill = a.profile.skill(w.skill)
    out = [f"{w.skill.replace('_', ' ').title()} {skill} {plan.modifier:+d} (aim "
           f"{plan.aim} AP, accuracy {w.unaimed:+d}/{w.accuracy:+d}) = target "
           f"{plan.check.target}, increment {w.increment} (spread {w.spread}), d"
           f"{plan.check.sides}; {plan.cost} AP"]
    dist = check_dist(plan.check, state.rulings)
    hits: dict[int, Fraction] = {}
    for res, p in dist.items():
        n = hits_of(res, w.rof, state.rulings)
        hits[n] = hits.get(n, Fraction(0)) + p
    success = sum((p for res, p in dist.items() if res.success), Fraction(0))
    out.append(f"succeeds {_p(success)}; hits "
               f"(rof {w.rof}): " + ", ".join(f"{n}: {_p(p)}" for n, p in sorted(hits.items())))
    out.append(f"{w.damage} {w.type} per hit; {t.id}'s armor: {armor_text(t)}, health "
               f"{t.health}/{t.profile.max_health}, wound dice {wounds_text(t.wounds)}")
    out.append(f"{t.id} " + (f"may evade ({plan.evade.label()})" if can_evade(state, t)
                             else "cannot evade now"))
    where = metres_text(state, a, t)
    if where:
        out.append(f"distance {where}, range {w.range or 'unlimited'} m"
                   + ("" if state.grid is None else
                      f"; {'in sight' if sees(state, a.id, t.id) else 'out of sight'}"))
    if w.failure is not None:
        out.append(f"a roll of {w.failure[0]}+ threatens a jam, {w.failure[1]}+ on a second "
                   "d20 jams it")
    return out


def terrain(state: ArcState) -> dict[str, str]:
    """The squares whose ground changes a move, for the web page's map: rough ground
    (``"4,0": "rough ground: +1 AP to enter"``)."""
    return {f"{x},{y}": "rough ground: +1 AP to enter" for x, y in sorted(state.rough)}


def ranges(state: ArcState) -> list[tuple[str, str, str]]:
    """The distance between every two characters of different sides, for people
    (``20.0 m``; ``not given`` where the scenario gives none)."""
    from tactica.rulesets.arc.movement import distance_metres

    out = []
    fighters = list(state.fighters.values())
    for i, a in enumerate(fighters):
        for b in fighters[i + 1:]:
            if a.side != b.side:
                metres = distance_metres(state, a, b)
                out.append((a.id, b.id, "not given" if metres is None
                            else f"{metres:.1f} m"))
    return out


def figures(state: ArcState) -> dict[str, dict[str, str]]:
    """Every figure of every character, for the unit panel and ``status``: health with its
    maximum, AP, armor and each weapon with its damage, range and rounds."""
    out: dict[str, dict[str, str]] = {}
    for f in state.fighters.values():
        guns = []
        for w, rounds in zip(f.profile.weapons, f.rounds, strict=False):
            reach = "melee" if w.melee else (f"{float(w.range):g} m" if w.range is not None
                                             else "any range")
            loaded = "" if rounds is None else f", {rounds} rounds"
            guns.append(f"{w.name} ({w.damage}, {reach}{loaded})")
        out[f.id] = {"health": f"{f.health} of {f.profile.max_health}",
                     "ap": str(f.ap), "weapons": "; ".join(guns)}
    return out


def sight_report(state: ArcState, source: str, target: str,
                 **options: SightOption) -> SightReport:
    """Sight on Arc's grid in Arc's words: the grid's four lines (ARC-29 asks one or two of
    them clear), the distance in metres; the grid's cover is not an Arc rule and is left
    out."""
    from tactica.rulesets.arc.movement import SQUARE_METRES, distance_metres
    from tactica.rulesets.arc.rulings import sight_options

    grid = state.grid
    if grid is None:
        raise MapError("this scenario is played without a map: there is no sight to judge "
                       "(everyone sees everyone)")
    chosen = {**sight_options(state.rulings), **options}
    report = grid.sight_report(source, target, **chosen)
    a, b = state.fighters.get(source), state.fighters.get(target)
    metres = distance_metres(state, a, b) if a is not None and b is not None else None
    if metres is None:
        return report
    wanted = chosen.get("min_clear", 1)
    clear = report.details.get("clear_lines")
    kept = [r for r in report.reasons if not r.lstrip()[:1].isdigit()]
    if report.reasons and report.reasons[0].lstrip()[:1].isdigit():
        kept.insert(0, report.reasons[0])  # "N of 4 lines clear (policy ...)"
    kept.append(f"{clear} of 4 lines clear, {wanted} needed (ARC-29): "
                f"{'visible' if report.visible else 'not visible'}; distance {metres:.1f} m "
                f"({float(SQUARE_METRES):g} m a square)")
    details = {**report.details, "metric": "metres", "squares": report.distance,
               "cover_range": 0}
    return SightReport(report.source, report.target, report.visible, 0,
                       round(metres, 1), details, tuple(kept))
