"""Skirmishers' actions laid out for the table: grouped by kind with the AP each costs, the
destinations of a move nearest first (by AP, then by dots), and how to fire when no shot is
offered (shots come from firing arcs, as reaction fire, and from movement fire).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tactica.battlefield.dots.geometry import offset_to_axial, steps
from tactica.engine.events import Action
from tactica.engine.menu import ActionMenu, MenuItem
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import ARC_SIZES
from tactica.rulesets.skirmishers.state import SkiState

__all__ = ["action_menu", "fire_hint"]

#: The order the kinds are read in.
_ORDER = ("activate", "move", "fire", "arc", "melee", "throw", "pose", "kit", "end", "other")


def _name(state: SkiState, key: str) -> str:
    return state.setup.pack.item_name(key)


def _angle(value: float | None) -> str:
    return f"{float(value or 0):g}°"


def _move_costs(state: SkiState, uid: str) -> dict[tuple[Any, int], int]:
    from tactica.rulesets.skirmishers.movement import reachable

    return dict(reachable(state, uid))


def _item(state: SkiState, i: int, action: Action,
          costs: dict[str, dict[tuple[Any, int], int]]) -> tuple[tuple[Any, ...], MenuItem]:
    """The sort key and the item of one action."""
    a: Any = action
    u = getattr(action, "unit", "")
    if isinstance(action, r.Activate):
        return (_ORDER.index("activate"), i), MenuItem(i, "activate", "", u)
    if isinstance(action, r.Move):
        if u not in costs:
            costs[u] = _move_costs(state, u)
        p = state.lattice.locate(a.to)
        dot = offset_to_axial(p.col, p.row)
        cost = costs[u].get((dot, p.level))
        here = state.lattice.trooper(u)
        far = steps(here.dot, dot) + abs(p.level - here.level)
        sub = f"{cost} AP" if cost is not None else "AP unknown"
        key = (_ORDER.index("move"), cost if cost is not None else 99, far, p.level, p.row,
               p.col)
        return key, MenuItem(i, f"{u} moves to (nearest first, AP to get there)", sub, a.to)
    if isinstance(action, r.MovementFire):
        return ((_ORDER.index("fire"), i),
                MenuItem(i, f"{u} fires on the move (2 AP) at", "", a.target))
    if isinstance(action, r.EstablishArc):
        base, ap = ARC_SIZES.get(a.width, (0, 0))
        weapon = state.setup.pack.weapons.get(state.troopers[u].active)
        shots = base * (weapon.shots if weapon else 1)
        what = f" of its {weapon.name}" if weapon else ""
        group = (f"{u} sets a firing arc{what} (it fires when an enemy acts or moves "
                 "inside it)")
        sub = f"{a.width}°, {ap} AP, {shots} shot{'' if shots == 1 else 's'}"
        if a.toward is None:
            label = f"at {_angle(a.bearing)}"
        else:
            spot = state.lattice.locate(a.toward)
            who = state.lattice.occupant_at(offset_to_axial(spot.col, spot.row), spot.level)
            label = f"toward {who} ({a.toward})" if who else f"toward {a.toward}"
        toward = 0 if a.toward is not None else 1
        return (_ORDER.index("arc"), a.width, toward, i), MenuItem(i, group, sub, label)
    if isinstance(action, r.Melee):
        return ((_ORDER.index("melee"), i),
                MenuItem(i, f"{u} attacks in melee (5 AP, rolled when the target activates)",
                         "", f"{a.target} with {_name(state, a.weapon)}"))
    if isinstance(action, r.Throw):
        from tactica.rulesets.skirmishers.explosives import throw_cost, throw_dots

        dots = 0 if a.stairwell else throw_dots(state, u, a.at)
        paid, _ = throw_cost(state, u, a.explosive, dots, stairwell=a.stairwell)
        label = f"{a.at} (stairwell)" if a.stairwell else a.at
        return ((_ORDER.index("throw"), paid, dots, i),
                MenuItem(i, f"{u} throws a {_name(state, a.explosive)} at", f"{paid} AP", label))
    if isinstance(action, r.GoProne | r.StandUp):
        words = "goes prone (1 AP)" if isinstance(action, r.GoProne) else "stands up (2 AP)"
        return (_ORDER.index("pose"), i), MenuItem(i, f"{u} {words}")
    if isinstance(action, r.ChangeWeapon):
        return ((_ORDER.index("kit"), 0, i),
                MenuItem(i, f"{u} readies (3 AP)", "", _name(state, a.weapon)))
    if isinstance(action, r.TakeEquipment):
        return ((_ORDER.index("kit"), 1, i),
                MenuItem(i, f"{u} takes (6 AP)", "",
                         f"{_name(state, a.item)} from {a.source}"))
    if isinstance(action, r.DropWeapon):
        return ((_ORDER.index("kit"), 2, i),
                MenuItem(i, f"{u} drops (0 AP)", "", _name(state, a.weapon)))
    if isinstance(action, r.EndActivation):
        return (_ORDER.index("end"), i), MenuItem(i, f"{u} ends its activation")
    from tactica.rulesets.skirmishers.text import describe_action

    return (_ORDER.index("other"), i), MenuItem(i, describe_action(state, action))


def fire_hint(state: SkiState, actions: Sequence[Action]) -> str:
    """One line on how to fire when the actions offer no shot (an empty line otherwise, and
    when a side only chooses whom to activate)."""
    units = {getattr(a, "unit", "") for a in actions if not isinstance(a, r.Activate)}
    if len(units) != 1 or any(isinstance(a, r.MovementFire | r.Melee) for a in actions):
        return ""
    u = units.pop()
    t = state.troopers.get(u)
    if t is None:
        return ""
    if any(isinstance(a, r.EstablishArc) for a in actions):
        return ("how to fire: set a firing arc (above, or 'aim N DEGREES'): it fires at an "
                "enemy acting or moving in it")
    if t.arc is not None:
        return (f"how to fire: {u}'s {t.arc.width}° arc ({t.arc.shots} shot"
                f"{'' if t.arc.shots == 1 else 's'} left) fires at an enemy acting or moving "
                "in it")
    if t.active not in state.setup.pack.weapons:
        throw = "throw (above), or " if any(isinstance(a, r.Throw) for a in actions) else ""
        return (f"how to fire: {throw}ready a firearm (3 AP), then set a firing arc: it fires "
                "at an enemy acting or moving in it")
    return ("how to fire: no firing arc can be set now (one a turn, for 2 to 6 AP); an arc "
            "fires at an enemy acting or moving in it")


def action_menu(state: SkiState, actions: Sequence[Action]) -> ActionMenu:
    """Every action once, grouped by kind, each group in its reading order."""
    costs: dict[str, dict[tuple[Any, int], int]] = {}
    keyed = [_item(state, i, a, costs) for i, a in enumerate(actions)]
    keyed.sort(key=lambda kv: kv[0])
    return ActionMenu(tuple(item for _, item in keyed), fire_hint(state, actions))
