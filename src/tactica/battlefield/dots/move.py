"""Movement on a dot lattice: cheapest paths in AP, what a budget reaches, walkable steps.

The cost of one move (AP):

======================================== ===
to an adjacent dot, nothing between        1
across an obstruction (low wall, fence,    2
furniture, light vegetation)
through a door                             2
through a window (ground level only)       4
change level on stairs or a ladder         3
impassable obstacle, upper window          no
======================================== ===

A prone trooper pays double for every move. Nobody enters a dot where another trooper stands
(on that level). A path is cheapest in AP, then shortest in moves; among equals the first found
in the fixed order (east first, clockwise, then up, then down), so answers are deterministic.
Every place entered is listed (reaction fire triggers on them), a change of level included.

>>> from tactica.battlefield.dots.lattice import DotLattice
>>> lat = DotLattice.from_text("A . . B", features=[((1, 0), (2, 0), "low-wall")])
>>> p = lat.path("A", "2,0")
>>> [str(x) for x in p.places], p.cost, p.steps
(['0,0', '1,0', '2,0'], 3, (1, 2))
>>> lat.with_pose("A", prone=True).path("A", "2,0").cost
6
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tactica.battlefield.base import MovePath
from tactica.battlefield.dots.geometry import DIRECTIONS, Axial, offset_to_axial
from tactica.engine.errors import MapError

if TYPE_CHECKING:
    from tactica.battlefield.dots.lattice import DotLattice, DotPlace

__all__ = ["LEVEL_COST", "MOVE_CAP", "cheapest_path", "moves", "reachable", "walk_steps"]

#: AP to change level on stairs or a ladder.
LEVEL_COST = 3
#: At most this many AP may be spent on movement in a turn.
MOVE_CAP = 8

Spot = tuple[Axial, int]


def step_cost(lat: DotLattice, a: Axial, b: Axial, level: int) -> int | None:
    """AP to step between adjacent dots on a level (None: impassable), standing."""
    fk = lat.feature(a, b, level)
    if fk is None:
        return 1
    if fk.move_cost is None or (level > 0 and not fk.upper_move):
        return None
    return fk.move_cost


def moves(lat: DotLattice, spot: Spot) -> Iterator[tuple[Spot, int]]:
    """Every move from a spot, standing, with its AP (troopers in the way not considered)."""
    (q, r), level = spot
    for dq, dr in DIRECTIONS:
        n = (q + dq, r + dr)
        if lat.has_dot(n, level):
            cost = step_cost(lat, (q, r), n, level)
            if cost is not None:
                yield (n, level), cost
    stairs = lat.stairs.get((q, r))
    if stairs is not None:
        if level < stairs.high:
            yield ((q, r), level + 1), LEVEL_COST
        if level > stairs.low:
            yield ((q, r), level - 1), LEVEL_COST


def _spot(lat: DotLattice, ref: str) -> Spot:
    p = lat.locate(ref)
    return offset_to_axial(p.col, p.row), p.level


def _mover(lat: DotLattice, start: str, prone: bool | None) -> tuple[Spot, str | None, int]:
    spot = _spot(lat, start)
    oid = lat.occupant_at(*spot)
    lying = prone if prone is not None else (oid is not None and lat.troopers[oid].prone)
    return spot, oid, 2 if lying else 1


def _search(
    lat: DotLattice, origin: Spot, mover: str | None, factor: int, budget: int | None,
    goal: Spot | None = None,
) -> tuple[dict[Spot, tuple[int, int]], dict[Spot, tuple[Spot, int] | None]]:
    best: dict[Spot, tuple[int, int]] = {origin: (0, 0)}
    came: dict[Spot, tuple[Spot, int] | None] = {origin: None}
    counter = 0
    heap: list[tuple[int, int, int, Spot]] = [(0, 0, 0, origin)]
    while heap:
        cost, n_moves, _, spot = heapq.heappop(heap)
        if best.get(spot) != (cost, n_moves):
            continue
        if spot == goal:
            break
        for nxt, ap in moves(lat, spot):
            other = lat.occupant_at(*nxt)
            if other is not None and other != mover:
                continue
            total = cost + factor * ap
            if budget is not None and total > budget:
                continue
            key = (total, n_moves + 1)
            if nxt not in best or key < best[nxt]:
                best[nxt] = key
                came[nxt] = (spot, factor * ap)
                counter += 1
                heapq.heappush(heap, (total, n_moves + 1, counter, nxt))
    return best, came


def cheapest_path(
    lat: DotLattice, start: str, goal: str, *, prone: bool | None = None,
    budget: int | None = MOVE_CAP,
) -> MovePath | None:
    """A cheapest way from ``start`` to ``goal`` in AP (``None``: none within ``budget``).

    ``prone`` overrides the pose of the trooper at ``start`` (a prone trooper pays double);
    ``budget`` caps the AP spent (default 8; ``None``: no cap). The goal must be free.
    """
    if budget is not None and budget < 0:
        raise MapError(f"budget: expected a number of AP >= 0, got {budget}")
    origin, mover, factor = _mover(lat, start, prone)
    target = _spot(lat, goal)
    if target == origin:
        return MovePath((lat.place(*origin),), 0, ())
    other = lat.occupant_at(*target)
    if other is not None and other != mover:
        return None
    best, came = _search(lat, origin, mover, factor, budget, target)
    if target not in best:
        return None
    places: list[DotPlace] = []
    costs: list[int] = []
    at: Spot | None = target
    while at is not None:
        places.append(lat.place(*at))
        link = came[at]
        if link is None:
            break
        at, ap = link
        costs.append(ap)
    return MovePath(tuple(reversed(places)), best[target][0], tuple(reversed(costs)))


def reachable(
    lat: DotLattice, start: str, *, budget: int = MOVE_CAP, prone: bool | None = None,
) -> dict[DotPlace, int]:
    """Every place a trooper can reach from ``start`` within ``budget`` AP, with the cost
    (the start itself at 0)."""
    origin, mover, factor = _mover(lat, start, prone)
    best, _ = _search(lat, origin, mover, factor, budget)
    return {lat.place(*s): c for s, (c, _) in sorted(best.items(), key=lambda kv: kv[1])}


def walk_steps(lat: DotLattice, a: Spot, b: Spot) -> int | None:
    """Steps of a shortest walkable path from ``a`` to ``b`` (troopers ignored; changing level
    on stairs costs no step, the level difference is counted apart); None if there is none."""
    key = f"walk-{a}"
    dist = lat.memo.get(key)
    if dist is None:
        dist = {a: 0}
        todo = deque([a])
        while todo:
            spot = todo.popleft()
            for nxt, _ap in moves(lat, spot):
                same_dot = nxt[0] == spot[0]
                d = dist[spot] + (0 if same_dot else 1)
                if nxt not in dist or d < dist[nxt]:
                    dist[nxt] = d
                    if same_dot:
                        todo.appendleft(nxt)
                    else:
                        todo.append(nxt)
        lat.memo[key] = dist
    found = dist.get(b)
    assert found is None or isinstance(found, int)
    return found
