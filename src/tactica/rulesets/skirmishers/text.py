"""Skirmishers in words: actions, events, decisions and why the dice are what they are."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tactica.engine.chance import Decide
from tactica.engine.errors import TacticaError
from tactica.engine.events import Action, Event
from tactica.engine.ruleset import UnitStatus
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import ARC_SIZES, HOLD, holds_dot
from tactica.rulesets.skirmishers.fire import explosive_tn, melee_tn, ranged_tn
from tactica.rulesets.skirmishers.state import Arc, SkiState

__all__ = [
    "card_text",
    "describe_action",
    "describe_event",
    "describe_option",
    "explain_action",
    "roller",
    "units",
]


def card_text(marks: str, armor: int = 0) -> str:
    """A card as people read it: ``10 9 8 [7] ...`` with ``X`` and ``\\`` marks."""
    cells = [f"{label}{'' if m == '.' else ('X' if m == 'X' else chr(92))}"
             for label, m in zip(range(10, -1, -1), marks, strict=True)]
    head = f"armor {armor}; " if armor else ""
    return head + " ".join(cells)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _name(state: SkiState, key: str) -> str:
    return state.setup.pack.item_name(key)


def _axis(bearing: float | None, toward: str | None) -> str:
    return f"toward {toward}" if toward is not None else f"bearing {bearing}°"


def _held_enemies(state: SkiState, action: r.EstablishArc) -> str:
    """Which enemies in action the arc would hold where they stand now."""
    t = state.troopers[action.unit]
    arc = Arc(action.width, action.bearing, action.toward, 0, t.active)
    here = state.lattice.trooper(action.unit).dot
    held = [e.id for e in state.alive() if e.side != t.side and e.id in state.lattice.troopers
            and holds_dot(state, here, arc, state.lattice.trooper(e.id).dot)]
    return f"it holds {', '.join(held)} now" if held else "it holds no enemy now"


def describe_action(state: SkiState, action: Action) -> str:
    """One line for people."""
    a: Any = action
    if isinstance(action, r.Activate):
        return f"activate {a.unit}"
    if isinstance(action, r.Move):
        return f"{a.unit} moves to {a.to}"
    if isinstance(action, r.GoProne):
        return f"{a.unit} goes prone (1 AP)"
    if isinstance(action, r.StandUp):
        return f"{a.unit} stands up (2 AP)"
    if isinstance(action, r.ChangeWeapon):
        return f"{a.unit} readies its {_name(state, a.weapon)} (3 AP)"
    if isinstance(action, r.TakeEquipment):
        return f"{a.unit} takes {_name(state, a.item)} from {a.source} (6 AP)"
    if isinstance(action, r.DropWeapon):
        return f"{a.unit} drops its {_name(state, a.weapon)}"
    if isinstance(action, r.MovementFire):
        return f"{a.unit} fires on the move at {a.target} (2 AP)"
    if isinstance(action, r.EstablishArc):
        cost = f" ({ARC_SIZES[a.width][1]} AP)" if a.width in ARC_SIZES else ""
        return f"{a.unit} establishes a {a.width}° arc {_axis(a.bearing, a.toward)}{cost}"
    if isinstance(action, r.Melee):
        return f"{a.unit} attacks {a.target} in melee with {_name(state, a.weapon)} (5 AP)"
    if isinstance(action, r.Throw):
        how = " down the stairwell" if a.stairwell else ""
        return f"{a.unit} throws a {_name(state, a.explosive)}{how} at {a.at}"
    if isinstance(action, r.EndActivation):
        return f"{a.unit} ends its activation"
    if isinstance(action, r.Shoot):
        return f"{a.unit} shoots {a.target} with a {_name(state, a.weapon)}"
    return repr(action)


def describe_event(state: SkiState, event: Event) -> str:
    """One line for people."""
    e: Any = event
    if isinstance(event, r.TurnBegan):
        return f"round {e.round}: {e.side}'s turn"
    if isinstance(event, r.ArcsRemoved):
        return f"{e.side} removes the arcs of {', '.join(e.units)}"
    if isinstance(event, r.MoraleChecked):
        verdict = "holds" if e.passed else "fails"
        return f"{e.side} checks morale ({e.dead} dead, target number {e.tn}): it {verdict}"
    if isinstance(event, r.Retreated):
        return f"{e.side} retreats from the battle"
    if isinstance(event, r.Activated):
        return f"{e.unit} activates"
    if isinstance(event, r.Stepped):
        return f"{e.unit} enters {e.to} ({e.ap} AP)"
    if isinstance(event, r.MoveHalted):
        return f"{e.unit} stops: {e.reason}"
    if isinstance(event, r.PoseChanged):
        return f"{e.unit} {'goes prone' if e.prone else 'stands up'} ({e.ap} AP)"
    if isinstance(event, r.WeaponChanged):
        how = "switches back to" if e.ap == 0 else "readies"
        return f"{e.unit} {how} its {_name(state, e.weapon)} ({e.ap} AP)"
    if isinstance(event, r.EquipmentTaken):
        return f"{e.unit} takes {e.count} {_name(state, e.item)} from {e.source} ({e.ap} AP)"
    if isinstance(event, r.WeaponDropped):
        return f"{e.unit} drops its {_name(state, e.weapon)}"
    if isinstance(event, r.ArcEstablished):
        return (f"{e.unit} establishes a {e.width}° arc {_axis(e.bearing, e.toward)}: "
                f"{_count(e.shots, 'shot')} of its {_name(state, e.weapon)} ({e.ap} AP)")
    if isinstance(event, r.FireDeclared):
        return f"{e.unit} fires on the move at {e.target} ({e.ap} AP)"
    if isinstance(event, r.ShotFired):
        how = {"arc": " from its arc", "movement": " on the move"}.get(e.how, "")
        verdict = "hits" if e.hit else "misses"
        return (f"{e.unit} fires{how} at {e.target} with its {_name(state, e.weapon)} "
                f"(target number {e.tn}): {verdict}")
    if isinstance(event, r.Hit):
        taken = f", armor takes {e.armor_lost}" if e.armor_lost else ""
        end = "DEAD" if e.dead else f"HP {e.hp}, {e.max_ap} AP"
        return (f"{e.unit} is hit from cell {e.start} ({e.lethal}X {e.bludgeoning}\\{taken}): "
                f"{card_text(e.marks, e.armor)} -> {end}")
    if isinstance(event, r.FellProne):
        return f"{e.unit} falls prone and can act no more this turn"
    if isinstance(event, r.OutOfAction):
        return f"{e.unit} is {'DEAD' if e.dead else 'out of action'}"
    if isinstance(event, r.MeleeDeclared):
        return (f"{e.unit} goes for {e.target} with {_name(state, e.weapon)} ({e.ap} AP; "
                f"resolved when {e.target} activates)")
    if isinstance(event, r.MeleeResolved):
        return (f"{e.unit} strikes {e.target} with {_name(state, e.weapon)} (target number "
                f"{e.tn}): {'hits' if e.hit else 'misses'}")
    if isinstance(event, r.MeleeLapsed):
        return f"{e.unit}'s attack on {e.target} lapses: {e.reason}"
    if isinstance(event, r.ExplosiveThrown):
        return (f"{e.unit} throws a {_name(state, e.explosive)} at {e.at} ({e.ap} AP, "
                f"target number {e.tn})")
    if isinstance(event, r.ExplosiveResolved):
        where = f"goes off at {e.landing}" if e.landing else "is lost"
        return f"{e.unit}'s {_name(state, e.explosive)}: {e.note}; it {where}"
    if isinstance(event, r.ActivationEnded):
        return f"{e.unit} ends its activation"
    return repr(event)


def describe_option(state: SkiState, decision: Decide[Any], option: object) -> str:
    """One option of a decision inside an action, in words."""
    target = str(decision.context.get("target", ""))
    if decision.label == "reaction fire":
        if option == HOLD:
            return "hold fire"
        f = state.troopers.get(str(option))
        if f is None or f.arc is None or target not in state.troopers:
            return f"{option} fires"
        weapon = state.setup.pack.weapons[f.arc.weapon]
        try:
            tn = ranged_tn(_at_place(state, target, decision.context.get("place")), f.id,
                           target, weapon)
        except TacticaError:
            return f"{option} fires at {target}"
        left = f"{_count(f.arc.shots, 'shot')} left"
        if tn.tn is None:
            return f"{option} fires at {target} with its {weapon.name} ({left})"
        return (f"{option} fires at {target} with its {weapon.name} (target number {tn.tn}, "
                f"{tn.p_hit} to hit; {left})")
    return str(option)


def _at_place(state: SkiState, uid: str, place: object) -> SkiState:
    """The state as a reaction shot sees it: ``uid`` where it stands when the arc fires (the
    dot it is entering), not where the step began."""
    if not isinstance(place, str) or uid not in state.lattice.troopers:
        return state
    try:
        return replace(state, lattice=state.lattice.move_occupant(
            uid, state.lattice.locate(place)))
    except (TacticaError, ValueError, KeyError):
        return state


def explain_action(state: SkiState, action: Action) -> list[str]:
    """Why an action's dice are what they are."""
    a: Any = action
    t = state.troopers.get(getattr(action, "unit", ""))
    if t is None:
        return []
    if isinstance(action, r.Shoot):
        return list(ranged_tn(state, a.unit, a.target, state.setup.pack.weapons[a.weapon]).reasons)
    if isinstance(action, r.Melee):
        return [*melee_tn(state, a.unit, a.target).reasons,
                f"rolled when {a.target} activates, before it acts"]
    if isinstance(action, r.Throw):
        from tactica.rulesets.skirmishers.explosives import throw_cost, throw_dots

        dots = 0 if a.stairwell else throw_dots(state, a.unit, a.at)
        paid, base = throw_cost(state, a.unit, a.explosive, dots, stairwell=a.stairwell)
        tn = explosive_tn(state, a.unit, a.at, base, stairwell=a.stairwell)
        return [f"{dots} dots, {paid} AP", *tn.reasons,
                "resolved at the end of the turn; a miss scatters"]
    if isinstance(action, r.EstablishArc):
        base, ap = ARC_SIZES[a.width]
        weapon = state.setup.pack.weapons.get(t.active)
        shots = base * weapon.shots if weapon else base
        have = state.available(t)
        return [f"{_count(base, 'base shot')} x{weapon.shots if weapon else 1} = "
                f"{_count(shots, 'shot')}; costs {ap} AP of the {have} available: "
                f"{have - ap} AP left after", _held_enemies(state, a)]
    if isinstance(action, r.Activate | r.StandUp):
        from tactica.rulesets.skirmishers.arcs import eligible_firers

        lines = [f"{m.unit}'s melee attack ({_name(state, m.weapon)}) is rolled first"
                 for m in state.melee if m.target == a.unit and isinstance(action, r.Activate)]
        firers = eligible_firers(state, a.unit)
        if firers:
            lines.append(f"in the arcs of {', '.join(firers)}: each may fire first")
        return lines
    if isinstance(action, r.Move):
        from tactica.rulesets.skirmishers.movement import reachable

        p = state.lattice.locate(a.to)
        from tactica.battlefield.dots.geometry import offset_to_axial

        cost = reachable(state, a.unit).get((offset_to_axial(p.col, p.row), p.level))
        have = state.available(t)
        if cost is None:
            return [f"{have} AP available (movement cap 8, {t.move_spent} spent)"]
        return [f"costs {cost} AP of the {have} available: {have - cost} AP left after "
                f"(movement cap 8, {t.move_spent} spent)"]
    return []


def units(state: SkiState) -> tuple[UnitStatus, ...]:
    """Every trooper as it stands: its card, AP, armor, weapon, posture and firing arc."""
    out = []
    for t in state.troopers.values():
        where = str(state.place(t.id)) if t.id in state.lattice.troopers else None
        details: dict[str, str | int | bool] = {
            # The card's AP (the battle's statistics, which the kernels give too); the AP
            # left this turn is a figure of the panel (figures.py).
            "hp": t.hp, "ap": state.max_ap(t), "armor": t.armor_left,
            "card": card_text(t.marks), "weapon": t.active, "prone": t.prone,
            "arc_shots": t.arc.shots if t.arc else 0, "dead": t.dead,
        }
        out.append(UnitStatus(t.id, t.side, t.in_action, where, details, survived=not t.out))
    return tuple(out)


def roller(state: SkiState, label: str, action: Action | None) -> str | None:
    """Who rolls: the trooper the label names first (the firer of a shot and its start cell,
    the striker, the thrower of an explosive), a side for its morale check; a hit's start
    cell that names no firer is rolled by the acting trooper's side, and a blast's by the
    thrower's, never by the trooper hit."""
    if label.startswith(("2D6 start cell for the hit on ", "2D6 start cell for the blast hit")):
        unit = getattr(action, "unit", None)
        if isinstance(action, r.Throw) and isinstance(unit, str):
            return unit
        if label.startswith("2D6 start cell for the blast hit") and state.tokens:
            return state.tokens[0].unit  # the explosive going off: its thrower's
        return unit if isinstance(unit, str) else ""
    return None
