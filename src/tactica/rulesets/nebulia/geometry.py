"""The geometric questions Nebulia Operations asks of its tile grid, with its rulings applied.

NEB-3 (how "3 tiles or less" is measured), NEB-4 (contact policy of sight lines), NEB-5 (which
tiles block) and NEB-13 (diagonal steps between blockers) are read here; the exact geometry is
the grid's (:mod:`tactica.battlefield.grid.tiles`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tactica.battlefield.base import SightOption
from tactica.battlefield.grid.fast import offset_geometry
from tactica.battlefield.grid.tiles import GridSight, is_within
from tactica.battlefield.search import breadth_first_path
from tactica.engine.caching import Cache

if TYPE_CHECKING:
    from tactica.engine.rulings import Rulings
    from tactica.rulesets.nebulia.rules import NebState, Operator

__all__ = [
    "adjacent",
    "blocking_tiles",
    "fast_sight",
    "grid_options",
    "path",
    "reachable",
    "sight",
    "sight_through",
    "within_three",
]

Tile = tuple[int, int]


def adjacent(a: Tile, b: Tile) -> bool:
    """The 8 neighbours of a tile (a tile is not adjacent to itself)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


#: "Two lines or more: visible" (the seed; NEB-2).
MIN_CLEAR_LINES = 2
#: "3 tiles or less: nobody benefits from cover" (the seed; NEB-3 measures it).
COVER_CANCEL = 3


def within_three(state: NebState, a: Tile, b: Tile) -> bool:
    """Distance 3 or less under NEB-3's metric: then nobody benefits from cover."""
    return is_within(a, b, COVER_CANCEL, state.rulings["NEB-3"])


def grid_options(rulings: Rulings) -> dict[str, SightOption]:
    """The grid's sight options under these rulings (NEB-2 .. NEB-5)."""
    return {
        "policy": rulings["NEB-4"],
        "metric": rulings["NEB-3"],
        "blockers": rulings["NEB-5"],
        "min_clear": MIN_CLEAR_LINES,
        "cover_range": COVER_CANCEL,
    }


def sight(state: NebState, attacker: Operator, defender: Operator) -> GridSight:
    """The four lines from the attacker's tile to the defender's, and the verdict."""
    return state.grid.sight(attacker.pos, defender.pos, policy=state.rulings["NEB-4"],
                            metric=state.rulings["NEB-3"], blockers=state.rulings["NEB-5"],
                            min_clear=MIN_CLEAR_LINES, cover_range=COVER_CANCEL)


def blocking_tiles(state: NebState, side: str) -> frozenset[Tile]:
    """Tiles that block sight for an attacker of ``side`` (NEB-5), cached per grid."""
    key = f"neb-blocking:{state.rulings['NEB-5']}:{side}"
    memo = state.grid.memo
    found = memo.get(key)
    if found is None:
        if state.rulings["NEB-5"] == "foes":
            tiles = {t for oid, t in state.grid.occupants.items()
                     if state.grid.sides.get(oid) != side}
        else:
            tiles = set(state.grid.occupants.values())
        found = frozenset(tiles | state.grid.blockers)
        memo[key] = found
    assert isinstance(found, frozenset)
    return found


def fast_sight(state: NebState, source: Tile, target: Tile, side: str) -> tuple[int, bool]:
    """(clear lines, in cover) from ``source`` to ``target`` for an attacker of ``side``.

    The same answer as :func:`sight` without the evidence: the blocking geometry of the offset
    is precomputed exactly once per offset (:func:`~tactica.battlefield.grid.fast.
    offset_geometry`), so a query is a few set look-ups.
    """
    return sight_through(blocking_tiles(state, side), source, target,
                         state.rulings["NEB-4"], state.rulings["NEB-3"])


def sight_through(blocking: frozenset[Tile] | set[Tile], source: Tile, target: Tile,
                  policy: str, metric: str) -> tuple[int, bool]:
    """(clear lines, in cover) with an explicit set of blocking tiles."""
    geo = offset_geometry(policy, target[0] - source[0], target[1] - source[1])
    x, y = source
    blocked = 0
    for rx, ry, mask in geo.singles:
        if (x + rx, y + ry) in blocking:
            blocked |= mask
    for ax, ay, bx, by, mask in geo.pairs:
        if (x + ax, y + ay) in blocking and (x + bx, y + by) in blocking:
            blocked |= mask
    clear = 4 - bin(blocked).count("1")
    cover = MIN_CLEAR_LINES <= clear < 4 and not is_within(source, target, COVER_CANCEL, metric)
    return clear, cover


def _local_key(state: NebState, mover: Operator) -> tuple[object, ...]:
    """What a move of ``mover`` depends on: the map's walls and size, its tile and reach, the
    diagonal rule, and the occupied tiles within its reach (a step of a king never looks
    farther than ``move`` tiles from the start, the squeeze checks included)."""
    grid = state.grid
    x, y = mover.pos
    r = mover.move
    near = tuple(sorted(t for t in grid.occupants.values()
                        if abs(t[0] - x) <= r and abs(t[1] - y) <= r))
    return (grid.blockers, grid.width, grid.height, mover.pos, r, state.rulings["NEB-13"], near)


# Reachable tiles and paths by what they depend on (kept across battles: positions recur).
_REACH: Cache[tuple[object, ...], tuple[Tile, ...]] = Cache("nebulia.reach", maxsize=200_000)
_PATHS: Cache[tuple[object, ...], tuple[Tile, ...]] = Cache("nebulia.paths", maxsize=200_000)


def _remember(cache: Cache[tuple[object, ...], tuple[Tile, ...]], key: tuple[object, ...],
              value: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return cache.put(key, value)


def reachable(state: NebState, mover: Operator) -> list[Tile]:
    """Tiles the operator can end its move on, within ``move`` steps (own tile included)."""
    return list(reachable_tiles(state, mover))


def reachable_tiles(state: NebState, mover: Operator) -> tuple[Tile, ...]:
    """:func:`reachable` as a tuple, remembered by what it depends on."""
    key = _local_key(state, mover)
    found = _REACH.get(key)
    if found is None:
        grid = state.grid
        table = _step_table(grid.width, grid.height, grid.blockers)
        occupied = set(grid.occupants.values())
        tiles = _search(table, state.rulings["NEB-13"], occupied, mover.pos, mover.move)
        found = _remember(_REACH, key, tuple(sorted(tiles)))
    return found


#: Per tile: each king step onto open terrain, as (tile, side a, side b, diagonal); a side is
#: a tile beside a diagonal step, ``None`` when it is a wall or off the map.
Steps = dict[Tile, tuple[tuple[Tile, Tile | None, Tile | None, bool], ...]]

_KING = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


@functools.lru_cache(maxsize=32)
def _step_table(width: int, height: int, walls: frozenset[Tile]) -> Steps:
    """The king steps of every tile of a map, walls considered (kept across battles)."""
    def open_(t: Tile) -> bool:
        return 0 <= t[0] < width and 0 <= t[1] < height and t not in walls

    table: Steps = {}
    for x in range(width):
        for y in range(height):
            out = []
            for dx, dy in _KING:
                t = (x + dx, y + dy)
                if open_(t):
                    a, b = (x + dx, y), (x, y + dy)
                    out.append((t, a if open_(a) else None, b if open_(b) else None,
                                bool(dx and dy)))
            table[(x, y)] = tuple(out)
    return table


def _open_steps(table: Steps, rule: str, occupied: set[Tile], t: Tile) -> list[Tile]:
    out = []
    for n, a, b, diagonal in table[t]:
        if n in occupied:
            continue
        if diagonal and rule != "free":
            side_a = a is not None and a not in occupied
            side_b = b is not None and b not in occupied
            if rule == "no-squeeze" and not side_a and not side_b:
                continue
            if rule == "no-corner-cutting" and not (side_a and side_b):
                continue
        out.append(n)
    return out


def _path_search(table: Steps, walls: frozenset[Tile], rule: str, occupied: set[Tile],
                 origin: Tile, target: Tile) -> tuple[Tile, ...] | None:
    """The shortest path :meth:`TileGrid.tile_path
    <tactica.battlefield.grid.tiles.TileGrid.tile_path>` finds (the same search, the same order)."""
    if origin == target:
        return (origin,)
    if target not in table or target in walls or target in occupied:
        return None
    return breadth_first_path(origin, target,
                              lambda t: _open_steps(table, rule, occupied, t))


def _search(table: Steps, rule: str, occupied: set[Tile], origin: Tile,
            max_steps: int) -> list[Tile]:
    """Every tile within ``max_steps`` king steps of ``origin`` over open, unoccupied tiles,
    under NEB-13's diagonal rule: the tiles of :meth:`TileGrid.reachable
    <tactica.battlefield.grid.tiles.TileGrid.reachable>` (a test compares them)."""
    seen = {origin}
    frontier = [origin]
    free, squeeze = rule == "free", rule == "no-squeeze"
    corners = rule == "no-corner-cutting"
    # :func:`_open_steps` inlined (the hottest loop of a random policy's turn): the same tests
    # in the same order, a tile already seen skipped first (it is never added twice anyway).
    for _ in range(max_steps):
        nxt = []
        for t in frontier:
            for n, a, b, diagonal in table[t]:
                if n in seen or n in occupied:
                    continue
                if diagonal and not free:
                    side_a = a is not None and a not in occupied
                    side_b = b is not None and b not in occupied
                    if squeeze and not side_a and not side_b:
                        continue
                    if corners and not (side_a and side_b):
                        continue
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return list(seen)


def path(state: NebState, mover: Operator, to: Tile) -> tuple[Tile, ...]:
    """A shortest path from the operator's tile to ``to`` (start included)."""
    key = (_local_key(state, mover), to)
    found = _PATHS.get(key)
    if found is not None:
        return found
    grid = state.grid
    table = _step_table(grid.width, grid.height, grid.blockers)
    found = _path_search(table, grid.blockers, state.rulings["NEB-13"],
                         set(grid.occupants.values()), mover.pos, to)
    if found is None:
        raise ValueError(f"{mover.id} cannot reach {to}")
    if len(found) - 1 > mover.move:
        # The search looked beyond the operator's reach, where the local key does not hold.
        return found
    return _remember(_PATHS, key, found)
