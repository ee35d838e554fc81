"""Moving a trooper: AP by its card's current column, the 8 AP movement cap, the cost table.

==========================================  ====
to an adjacent dot, nothing between           1
across an obstruction, through a door         2
through a window (never an upper one)         4
change level on stairs or a ladder            3
go prone                                      1
stand up                                      2
move while prone                              double
change the active weapon (an explosive too)   3
take a weapon or equipment from a trooper     6
drop a weapon                                 0
==========================================  ====

At most 8 AP go to movement in a turn (whatever experience does to the maximum). A move is a
cheapest path on the dot lattice to a chosen dot; every place it enters may draw reaction fire
(:mod:`.arcs`), and the move reads the state again after each (``Observe``): a mover who lost
AP stops where its AP no longer reach the next step, one who fell prone or went out of action
stops at once.

Paths are searched here, on a move graph built once per map (the dot lattice's own costs,
:func:`tactica.battlefield.dots.move.moves`), with the lattice's order of ties, because a
battle asks for them at every activation.
"""

from __future__ import annotations

import heapq
from typing import Any, Final

from tactica.battlefield.dots.geometry import DIRECTIONS, Axial, offset_to_axial
from tactica.battlefield.dots.lattice import DotLattice
from tactica.battlefield.dots.move import MOVE_CAP, moves
from tactica.engine.caching import Cache
from tactica.engine.chance import Decide, Done, Emit, Observe, Step, emit_all
from tactica.engine.events import Action
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import reactions
from tactica.rulesets.skirmishers.fire import ranged_tn, shot
from tactica.rulesets.skirmishers.state import SkiState, Soldier, spot_text

__all__ = [
    "CHANGE_WEAPON_AP",
    "DROP_PRONE",
    "GO_PRONE_AP",
    "MOVEMENT_FIRE_AP",
    "STAND_UP_AP",
    "TAKE_AP",
    "movement_actions",
    "movement_budget",
    "path_to",
    "reachable",
    "resolve_movement",
]

GO_PRONE_AP: Final = 1
STAND_UP_AP: Final = 2
CHANGE_WEAPON_AP: Final = 3
TAKE_AP: Final = 6
MOVEMENT_FIRE_AP: Final = 2
MOVEMENT_FIRE_TN: Final = 2
#: The answers of a target of movement fire.
DROP_PRONE: Final = "drop prone"
STAY_UP: Final = "stay standing"

Spot = tuple[Axial, int]
Graph = dict[Spot, tuple[tuple[Spot, int], ...]]
_GRAPHS: Cache[int, tuple[Any, Graph]] = Cache("skirmishers.move-graphs", maxsize=33)


def move_graph(lat: DotLattice) -> Graph:
    """Every spot's moves with their AP (standing, troopers ignored), built once per map: the
    lattice keeps its features object when only troopers change."""
    key = id(lat.features)
    found = _GRAPHS.get(key)
    if found is not None and found[0] is lat.features:
        return found[1]
    graph: Graph = {}
    for lvl in range(len(lat.level_names)):
        for row in range(lat.rows):
            for col in range(lat.cols):
                dot = offset_to_axial(col, row)
                if lat.has_dot(dot, lvl):
                    graph[(dot, lvl)] = tuple(moves(lat, (dot, lvl)))
    _GRAPHS.put(key, (lat.features, graph))
    return graph


def _search(lat: DotLattice, origin: Spot, mover: str, factor: int, budget: int,
            goal: Spot | None = None) -> tuple[dict[Spot, tuple[int, int]],
                                               dict[Spot, tuple[Spot, int] | None]]:
    graph = move_graph(lat)
    best: dict[Spot, tuple[int, int]] = {origin: (0, 0)}
    came: dict[Spot, tuple[Spot, int] | None] = {origin: None}
    counter = 0
    heap: list[tuple[int, int, int, Spot]] = [(0, 0, 0, origin)]
    taken = {(t.dot, t.level) for oid, t in lat.troopers.items() if oid != mover}
    while heap:
        cost, n_moves, _, spot = heapq.heappop(heap)
        if best.get(spot) != (cost, n_moves):
            continue
        if spot == goal:
            break
        for nxt, ap in graph[spot]:
            total = cost + factor * ap
            if total > budget or nxt in taken:
                continue
            key = (total, n_moves + 1)
            old = best.get(nxt)
            if old is None or key < old:
                best[nxt] = key
                came[nxt] = (spot, factor * ap)
                counter += 1
                heapq.heappush(heap, (total, n_moves + 1, counter, nxt))
    return best, came


def movement_budget(state: SkiState, t: Soldier) -> int:
    """The AP it may still spend on movement: its AP left, within the 8 AP cap."""
    if t.fought or t.stopped:
        return 0
    return max(0, min(state.available(t), MOVE_CAP - t.move_spent))


def reach_tree(state: SkiState, uid: str) -> tuple[dict[Spot, int],
                                                  dict[Spot, tuple[Spot, int] | None]]:
    """Every spot the trooper may move to now with its AP cost (its own spot at 0), and the
    cheapest paths' tree (each spot's previous spot and the AP of that step)."""
    t = state.troopers[uid]
    key = (uid, t.prone, movement_budget(state, t))
    found = state.memo.get("reach")
    if found is not None and found[0] == key and found[1] is state.lattice:
        return found[2]  # type: ignore[no-any-return]
    lat = state.lattice
    me = lat.trooper(uid)
    best, came = _search(lat, (me.dot, me.level), uid, 2 if t.prone else 1,
                         movement_budget(state, t))
    out = ({spot: cost for spot, (cost, _) in best.items()}, came)
    state.memo["reach"] = (key, lat, out)
    return out


def reachable(state: SkiState, uid: str) -> dict[Spot, int]:
    """Every spot the trooper may move to now with its AP cost (its own spot at 0)."""
    return reach_tree(state, uid)[0]


def path_to(state: SkiState, uid: str, goal: Spot) -> list[tuple[Spot, int]] | None:
    """The spots a move to ``goal`` enters, each with its AP (``None``: out of reach)."""
    t = state.troopers[uid]
    lat = state.lattice
    me = lat.trooper(uid)
    origin = (me.dot, me.level)
    best, came = _search(lat, origin, uid, 2 if t.prone else 1, movement_budget(state, t),
                         goal)
    if goal not in best or goal == origin:
        return None
    out: list[tuple[Spot, int]] = []
    at: Spot = goal
    while True:
        link = came[at]
        if link is None:
            break
        prev, ap = link
        out.append((at, ap))
        at = prev
    return list(reversed(out))


def _adjacent(state: SkiState, a: str, b: str) -> bool:
    ta, tb = state.lattice.trooper(a), state.lattice.trooper(b)
    if ta.level != tb.level:
        return False
    dq, dr = tb.dot[0] - ta.dot[0], tb.dot[1] - ta.dot[1]
    return (dq, dr) in DIRECTIONS


def take_options(state: SkiState, uid: str) -> list[r.TakeEquipment]:
    """What the trooper may take from an adjacent friend, or from anyone out of action."""
    t = state.troopers[uid]
    out = []
    for o in state.troopers.values():
        if o.id == uid or o.id not in state.lattice.troopers or not _adjacent(state, uid, o.id):
            continue
        if o.in_action and o.side != t.side:
            continue
        for w in o.weapons:
            if w not in t.weapons:
                out.append(r.TakeEquipment(uid, o.id, w))
        for key, n in o.explosives:
            if n > 0:
                out.append(r.TakeEquipment(uid, o.id, key))
    return out


def movement_actions(state: SkiState, uid: str) -> list[Action]:
    """Every movement action the trooper may take now."""
    t = state.troopers[uid]
    budget = movement_budget(state, t)
    if budget <= 0 and (t.fought or t.stopped):
        return []
    out: list[Action] = []
    for (dot, lvl), cost in reachable(state, uid).items():
        if cost > 0:
            out.append(r.Move(uid, spot_text(dot, lvl)))
    if not t.prone and budget >= GO_PRONE_AP:
        out.append(r.GoProne(uid))
    if t.prone and budget >= STAND_UP_AP:
        out.append(r.StandUp(uid))
    if budget >= CHANGE_WEAPON_AP:
        for w in (*t.weapons, *(k for k, n in t.explosives if n > 0)):
            if w != t.active:
                out.append(r.ChangeWeapon(uid, w))
    if budget >= TAKE_AP:
        out.extend(take_options(state, uid))
    out.extend(r.DropWeapon(uid, w) for w in t.weapons)
    if state.option("movement-fire"):
        out.extend(movement_fire_options(state, uid))
    return out


def movement_fire_options(state: SkiState, uid: str) -> list[r.MovementFire]:
    """Optional rule: the enemies a moving trooper may fire at (2 AP)."""
    t = state.troopers[uid]
    weapon = state.setup.pack.weapons.get(t.active)
    cap = movement_budget(state, t) if state.rulings["SKI-36"] == "counts" else (
        state.available(t) if not (t.fought or t.stopped) else 0)
    if weapon is None or cap < MOVEMENT_FIRE_AP:
        return []
    return [r.MovementFire(uid, e.id) for e in state.alive() if e.side != t.side
            and ranged_tn(state, uid, e.id, weapon).tn is not None]


def _done(work: SkiState) -> Step:
    return Done(None)


def _move(state: SkiState, action: r.Move) -> Step:
    uid = action.unit
    goal_place = state.lattice.locate(action.to)
    goal = (offset_to_axial(goal_place.col, goal_place.row), goal_place.level)
    path = path_to(state, uid, goal)
    assert path is not None, f"{action} is out of reach"

    def step(i: int, work: SkiState) -> Step:
        t = work.troopers[uid]
        if i == len(path) or not t.in_action or t.stopped:
            return Done(None)
        spot, ap = path[i]
        budget = min(work.available(t), MOVE_CAP - t.move_spent)
        if ap > budget:
            why = (f"{uid} has {budget} AP left for movement; the step to "
                   f"{work.lattice.place(*spot)} costs {ap}")
            return emit_all([r.MoveHalted(uid, why)], Done(None))
        to = spot_text(*spot)
        return Emit(r.Stepped(uid, to, ap), lambda: Observe(
            lambda w: reactions(w, uid, lambda w2: step(i + 1, w2))))

    return step(0, state)


def _movement_fire(state: SkiState, action: r.MovementFire) -> Step:
    uid, target = action.unit, action.target
    declared = r.FireDeclared(uid, target, MOVEMENT_FIRE_AP)

    def fire(work: SkiState) -> Step:
        t = work.troopers[uid]
        weapon = work.setup.pack.weapons[t.active]
        tn = ranged_tn(work, uid, target, weapon, extra=MOVEMENT_FIRE_TN,
                       extra_why="movement fire").tn
        if tn is None:
            return Done(None)
        return shot(work, uid, target, weapon, tn, "movement", _done)

    if state.troopers[target].prone:
        return Emit(declared, lambda: Observe(fire))
    side = state.troopers[target].side

    def answer(option: str) -> Step:
        if option == DROP_PRONE:
            return emit_all([r.PoseChanged(target, True, 0)], Observe(fire))
        return Observe(fire)

    return Emit(declared, lambda: Decide(side, "drop prone", (STAY_UP, DROP_PRONE), answer,
                                         {"target": target, "firer": uid}))


def resolve_movement(state: SkiState, action: Action) -> Step | None:
    """The process of a movement action (``None``: not one)."""
    if isinstance(action, r.Move):
        return _move(state, action)
    if isinstance(action, r.GoProne):
        return emit_all([r.PoseChanged(action.unit, True, GO_PRONE_AP)], Done(None))
    if isinstance(action, r.StandUp):
        uid = action.unit
        return Emit(r.PoseChanged(uid, False, STAND_UP_AP),
                    lambda: Observe(lambda w: reactions(w, uid, _done)))
    if isinstance(action, r.ChangeWeapon):
        return emit_all([r.WeaponChanged(action.unit, action.weapon, CHANGE_WEAPON_AP)],
                        Done(None))
    if isinstance(action, r.TakeEquipment):
        source = state.troopers[action.source]
        count = source.ammo(action.item) if action.item in state.setup.pack.explosives else 1
        return emit_all([r.EquipmentTaken(action.unit, action.source, action.item, count,
                                          TAKE_AP)], Done(None))
    if isinstance(action, r.DropWeapon):
        return emit_all([r.WeaponDropped(action.unit, action.weapon)], Done(None))
    if isinstance(action, r.MovementFire):
        return _movement_fire(state, action)
    return None

