"""What a page draws on a Skirmishers map besides the map itself, as plain data.

* ``arcs``: every firing arc established, as a template: its vertex (the trooper's place), its
  axis as a bearing in degrees (clockwise from east, an arc aimed toward a dot resolved to the
  bearing of that dot), its width, its reach (the weapon's long range, in dots), the shots left,
  the side, and the levels it holds (SKI-37: every level);
* ``aims``: for each firing arc among the open actions (by its number in the list), the same
  template before it is set, and the enemies in action it would hold and could shoot now;
* ``targets``: the enemy an arc toward a dot points at, by the action's number (the page opens
  that arc's odds when the enemy is clicked);
* ``moves``: for each move among the open actions, its AP, the places it passes through and
  what makes it dear: a feature crossed (a step dearer than an open one) or a longer way round
  than the straight one;
* ``ap``: each trooper's AP left this turn, the figure the action list shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tactica.battlefield.dots.geometry import offset_to_axial, steps
from tactica.battlefield.dots.move import LEVEL_COST
from tactica.engine.events import Action
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import ARC_SIZES, arc_bearing, holds_dot
from tactica.rulesets.skirmishers.fire import ranged_tn
from tactica.rulesets.skirmishers.movement import reach_tree
from tactica.rulesets.skirmishers.state import Arc, SkiState, spot_text

__all__ = ["map_marks"]


def _template(state: SkiState, uid: str, arc: Arc) -> dict[str, Any] | None:
    t = state.troopers[uid]
    if uid not in state.lattice.troopers:
        return None
    here = state.lattice.trooper(uid).dot
    bearing = arc_bearing(here, arc)
    if bearing is None:
        return None
    weapon = state.setup.pack.weapons.get(arc.weapon)
    return {"unit": uid, "side": t.side, "place": str(state.place(uid)), "width": arc.width,
            "bearing": round(bearing, 6), "reach": weapon.long if weapon else 0,
            "shots": arc.shots, "levels": list(range(len(state.lattice.level_names)))}


def _held(state: SkiState, uid: str, arc: Arc) -> list[str]:
    t = state.troopers[uid]
    here = state.lattice.trooper(uid).dot
    weapon = state.setup.pack.weapons.get(arc.weapon)
    out = []
    for e in state.alive():
        if e.side == t.side or e.id not in state.lattice.troopers:
            continue
        if not holds_dot(state, here, arc, state.lattice.trooper(e.id).dot):
            continue
        if weapon is not None and ranged_tn(state, uid, e.id, weapon).tn is not None:
            out.append(e.id)
    return out


def _aimed_at(state: SkiState, a: r.EstablishArc) -> str | None:
    if a.toward is None:
        return None
    me = state.troopers[a.unit]
    col_row = a.toward.partition("@")[0]
    for e in state.alive():
        if e.side != me.side and e.id in state.lattice.troopers:
            p = state.place(e.id)
            if f"{p.col},{p.row}" == col_row:
                return e.id
    return None


def _move(state: SkiState, a: r.Move) -> dict[str, Any] | None:
    t = state.troopers[a.unit]
    best, came = reach_tree(state, a.unit)
    p = state.lattice.locate(a.to)
    goal = (offset_to_axial(p.col, p.row), p.level)
    if goal not in best:
        return None
    path: list[tuple[Any, int]] = []
    at = goal
    while came.get(at) is not None:
        prev, ap = came[at]  # type: ignore[misc]
        path.append((at, ap))
        at = prev
    path.reverse()
    factor = 2 if t.prone else 1
    here = state.lattice.trooper(a.unit)
    direct = (steps(here.dot, goal[0]) + LEVEL_COST * abs(goal[1] - here.level)) * factor
    over = []
    prev = (here.dot, here.level)
    for spot, ap in path:
        if spot[1] == prev[1] and ap > factor:  # a door, a window, an obstruction crossed
            kind = state.lattice.feature(prev[0], spot[0], spot[1])
            what = kind.label if kind is not None else "a feature"
            over.append(f"crosses the {what} into {spot_text(*spot)} ({ap} AP)")
        prev = spot
    cost = best[goal]
    why = []
    why.extend(over)
    if cost > direct:
        why.append(f"costs {cost} AP, the straight way {direct}")
    return {"unit": a.unit, "place": a.to, "cost": cost, "direct": direct,
            "path": [str(state.place(a.unit))] + [spot_text(*spot) for spot, _ in path],
            "dear": "; ".join(why)}


def map_marks(state: SkiState, actions: Sequence[Action]) -> dict[str, Any]:
    """The templates, aims, targets, moves and AP a page draws (see the module)."""
    arcs = []
    for t in state.troopers.values():
        if t.arc is not None and t.in_action:
            mark = _template(state, t.id, t.arc)
            if mark is not None:
                arcs.append(mark)
    aims: dict[str, Any] = {}
    targets: dict[str, str] = {}
    moves: dict[str, Any] = {}
    for i, a in enumerate(actions):
        if isinstance(a, r.EstablishArc) and a.width in ARC_SIZES:
            t = state.troopers[a.unit]
            weapon = t.active if t.active in state.setup.pack.weapons else ""
            base = ARC_SIZES[a.width][0]
            shots = base * state.setup.pack.weapons[weapon].shots if weapon else 0
            arc = Arc(a.width, a.bearing, a.toward, shots, weapon)
            mark = _template(state, a.unit, arc)
            if mark is None:
                continue
            aims[str(i)] = {**mark, "holds": _held(state, a.unit, arc)}
            aimed = _aimed_at(state, a)
            if aimed is not None:
                targets[str(i)] = aimed
        elif isinstance(a, r.Move):
            move = _move(state, a)
            if move is not None:
                moves[str(i)] = move
    ap = {t.id: state.available(t) for t in state.troopers.values() if t.in_action}
    return {"arcs": arcs, "aims": aims, "targets": targets, "moves": moves, "ap": ap}
