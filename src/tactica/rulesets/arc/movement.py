"""Where Arc meets its battlefield: range and sight, and movement on 5-foot squares.

Without a map (ARC-15) every combatant reaches every other; a scenario may give the range in
metres between two of them, and a gun cannot shoot past its range. On a grid (one square is
5 feet, 1.524 m) range is the straight distance between square centres, sight comes from the
tile grid's corner-to-corner lines (ARC-29) and moving costs AP by mode (ARC-28): walk 2 AP a
square, slow 3, run 2 AP per 2 squares or part, sprint 2 AP per 4 squares or part, +1 AP for
each diagonal step and each rough square entered. Enemies watching (overwatch, suppress) fire
at a mover on the squares where they see it (ARC-30).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from tactica.battlefield.grid.tiles import Tile, TileGrid
from tactica.engine.caching import lru_bytes
from tactica.engine.chance import Done, Observe, Step, and_then, emit_all
from tactica.rulesets.arc.attack import attack_process
from tactica.rulesets.arc.content import Weapon
from tactica.rulesets.arc.records import (
    APSpent,
    Attack,
    Move,
    Reposition,
    Repositioned,
    Stepped,
    WatchUsed,
)
from tactica.rulesets.arc.state import ArcState, Fighter, tile_text

__all__ = [
    "MELEE_REACH",
    "MODES",
    "SQUARE_METRES",
    "distance_metres",
    "mode_cost",
    "move_options",
    "move_process",
    "path_to",
    "reaches",
    "reposition_metres",
    "reposition_options",
    "reposition_process",
    "sees",
    "squared_metres",
]

#: One square of the grid: 5 feet.
SQUARE_METRES = Fraction(1524, 1000)
#: Without a map, the range in metres within which a melee weapon reaches (tactica's value).
MELEE_REACH = Fraction(2)
#: The movement modes of the actions chapter.
MODES = ("walk", "slow", "run", "sprint")


def mode_cost(mode: str, squares: int) -> int:
    """The AP of ``squares`` squares in ``mode``, before diagonals and rough terrain."""
    if mode == "walk":
        return 2 * squares
    if mode == "slow":
        return 3 * squares
    per = 2 if mode == "run" else 4
    return 2 * (-(-squares // per))


def _max_squares(mode: str, ap: int) -> int:
    if mode == "walk":
        return ap // 2
    if mode == "slow":
        return ap // 3
    return (2 if mode == "run" else 4) * (ap // 2)


# --------------------------------------------------------------------------------------------
# Range and sight


def squared_metres(a: Tile, b: Tile) -> Fraction:
    """The square of the straight distance between two squares' centres, in metres (exact)."""
    dx, dy = a[0] - b[0], a[1] - b[1]
    return Fraction(dx * dx + dy * dy) * SQUARE_METRES * SQUARE_METRES


def distance_metres(state: ArcState, a: Fighter, b: Fighter) -> float | None:
    """The distance between two characters in metres, for people: on a grid from their
    squares, without a map the scenario's range for the pair, else ``None`` (not given)."""
    if state.grid is not None and a.at is not None and b.at is not None:
        return math.sqrt(squared_metres(a.at, b.at))
    given = state.ranges.get(frozenset((a.id, b.id)))
    return None if given is None else float(given)


def reaches(state: ArcState, a: Fighter, b: Fighter, w: Weapon) -> bool:
    """Whether ``w`` in ``a``'s hands reaches ``b`` (range; on a grid, melee is adjacent)."""
    if state.grid is not None and a.at is not None and b.at is not None:
        if w.melee:
            return max(abs(a.at[0] - b.at[0]), abs(a.at[1] - b.at[1])) == 1
        return w.range is None or squared_metres(a.at, b.at) <= w.range * w.range
    given = state.ranges.get(frozenset((a.id, b.id)))
    if given is None:
        return True
    limit = MELEE_REACH if w.melee else w.range
    return limit is None or given <= limit


@lru_cache(maxsize=8192)
def _sees(grid: TileGrid, a: str, b: str, min_clear: int) -> bool:
    return grid.sight(a, b, min_clear=min_clear).is_visible


def sees(state: ArcState, a: str, b: str) -> bool:
    """Whether ``a`` sees ``b``: always without a map; on a grid by ARC-29."""
    grid = state.grid
    if grid is None or a not in grid.occupants or b not in grid.occupants:
        return True
    return _sees(grid, a, b, 2 if state.rulings["ARC-29"] == "two-lines" else 1)


def metres_text(state: ArcState, a: Fighter, b: Fighter) -> str:
    """The distance in words, or ``""`` when none is known."""
    d = distance_metres(state, a, b)
    return "" if d is None else f"{d:.1f} m"


# --------------------------------------------------------------------------------------------
# Movement


_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _open(grid: TileGrid) -> frozenset[Tile]:
    blocked = grid.blockers | frozenset(grid.occupants.values())
    return frozenset((x, y) for x in range(grid.width) for y in range(grid.height)
                     if (x, y) not in blocked)


#: The bytes the movement answers kept may take, by an estimate of each square they hold (its
#: tile, its cost and the dictionary's slot; measured at about 150 and 50 bytes). On a 100 x
#: 100 grid one answer of a long move holds tens of thousands of squares (some megabytes):
#: the bounds of 2,048 entries each they had alone let a run keep gigabytes (they stay too).
LAYERS_BYTES = 64 * 1024 * 1024
OPTIONS_BYTES = 32 * 1024 * 1024


def _layers_bytes(layers: tuple[dict[Tile, tuple[int, Tile]], ...]) -> int:
    return 256 + 160 * sum(len(layer) for layer in layers)


def _options_bytes(options: dict[str, dict[Tile, int]]) -> int:
    return 256 + 100 * sum(len(best) for best in options.values())


@lru_bytes(LAYERS_BYTES, size=_layers_bytes, maxsize=2048)
def _layers(grid: TileGrid, start: Tile, rough: frozenset[Tile], most: int) -> tuple[
        dict[Tile, tuple[int, Tile]], ...]:
    """For each number of squares n, the least extra AP (diagonals, rough squares) to stand on
    each square after exactly n steps, with the square it came from. Steps go 8 ways onto open
    squares; a diagonal step between two closed squares is refused (the tile grid's
    ``no-squeeze`` movement)."""
    open_ = _open(grid)
    layers: list[dict[Tile, tuple[int, Tile]]] = [{start: (0, start)}]
    # A square reached again after more steps is kept only with less extra AP: with more
    # steps and no less extra it can never be cheaper, nor lead anywhere cheaper.
    least = {start: 0}
    for _ in range(most):
        layer: dict[Tile, tuple[int, Tile]] = {}
        for tile, (extra, _from) in layers[-1].items():
            x, y = tile
            for dx, dy in _STEPS:
                nxt = (x + dx, y + dy)
                if nxt not in open_:
                    continue
                cost = extra
                if dx and dy:
                    if (x + dx, y) not in open_ and (x, y + dy) not in open_:
                        continue
                    cost += 1
                if nxt in rough:
                    cost += 1
                if cost >= least.get(nxt, cost + 1):
                    continue
                found = layer.get(nxt)
                if found is None or cost < found[0]:
                    layer[nxt] = (cost, tile)
        for tile, (extra, _from) in layer.items():
            least[tile] = min(extra, least.get(tile, extra))
        if not layer:
            break
        layers.append(layer)
    return tuple(layers)


def move_options(state: ArcState, f: Fighter) -> dict[str, dict[Tile, int]]:
    """For each mode, every square ``f`` can reach with its AP and the AP it costs."""
    grid = state.grid
    if grid is None or f.at is None:
        return {}
    return _options(grid, f.at, f.ap, state.rough)


@lru_bytes(OPTIONS_BYTES, size=_options_bytes, maxsize=2048)
def _options(grid: TileGrid, at: Tile, ap: int,
             rough: frozenset[Tile]) -> dict[str, dict[Tile, int]]:
    most = max(_max_squares(m, ap) for m in MODES)
    if most == 0:
        return {}
    layers = _layers(grid, at, rough, most)
    out: dict[str, dict[Tile, int]] = {}
    for mode in MODES:
        best: dict[Tile, int] = {}
        for n in range(1, min(len(layers) - 1, _max_squares(mode, ap)) + 1):
            base = mode_cost(mode, n)
            if base > ap:
                break
            for tile, (extra, _from) in layers[n].items():
                cost = base + extra
                if cost <= ap and cost < best.get(tile, cost + 1):
                    best[tile] = cost
        best.pop(at, None)
        if best:
            out[mode] = best
    return out


def path_to(state: ArcState, f: Fighter, to: Tile, mode: str) -> tuple[tuple[Tile, ...], int]:
    """The squares entered on the cheapest way to ``to`` in ``mode`` and its AP cost
    (fewest squares among equal costs)."""
    assert state.grid is not None and f.at is not None
    layers = _layers(state.grid, f.at, state.rough, _max_squares(mode, f.ap))
    best: tuple[int, int] | None = None
    for n in range(1, len(layers)):
        found = layers[n].get(to)
        if found is not None:
            cost = mode_cost(mode, n) + found[0]
            if best is None or cost < best[0]:
                best = (cost, n)
    if best is None:
        raise ValueError(f"{f.id} cannot reach {tile_text(to)} by {mode}")
    cost, n = best
    path: list[Tile] = []
    tile = to
    for k in range(n, 0, -1):
        path.append(tile)
        tile = layers[k][tile][1]
    return tuple(reversed(path)), cost


def _watchers(state: ArcState, mover: Fighter) -> list[Fighter]:
    out = []
    for uid in state.order or tuple(state.fighters):
        w = state.fighters[uid]
        if (w.watch is None or not w.in_action or w.side == mover.side
                or not w.profile.weapons or not w.can_fire()):
            continue
        if sees(state, w.id, mover.id) and reaches(state, w, mover, w.weapon):
            out.append(w)
    return out


def move_process(state: ArcState, action: Move) -> Step:
    """Pay the move, then enter each square in turn; at each, the enemies who watch and see
    the mover fire (overwatch once, suppress once per square). A mover who falls or dies
    stops where it is."""
    f = state.fighters[action.unit]
    x, _, y = action.to.partition(",")
    path, cost = path_to(state, f, (int(x), int(y)), action.mode)

    def step(i: int) -> Step:
        if i == len(path):
            return Done(None)
        return emit_all([Stepped(action.unit, tile_text(path[i]))],
                        Observe(lambda w: react(w, i, None)))

    def react(w: ArcState, i: int, fired: frozenset[str] | None) -> Step:
        mover = w.fighters[action.unit]
        if not mover.in_action:
            return Done(None)
        done = fired or frozenset()
        for watcher in _watchers(w, mover):
            if watcher.id in done or watcher.watch is None:
                continue
            kind, ap, aim = watcher.watch
            shot = Attack(watcher.id, mover.id, watcher.hand, aim if kind == "overwatch" else 0)
            left = 0 if kind == "overwatch" else ap - 1
            preset = watcher.preset if kind == "suppress" else None
            process = attack_process(w, shot, reaction=kind, preset=preset)
            now = done | {watcher.id}
            return emit_all([WatchUsed(watcher.id, left)], and_then(process, _again(i, now)))
        return step(i + 1)

    def _again(i: int, now: frozenset[str]) -> Callable[[object], Step]:
        return lambda _v: Observe(lambda w2: react(w2, i, now))

    spent = APSpent(f.id, cost, f.ap - cost, 0, f"{action.mode} to {action.to}")
    return emit_all([spent], step(0))


# --------------------------------------------------------------------------------------------
# Moving without a map (ARC-33)

#: Metres covered per AP step by mode: walk a 5-foot square per 2 AP, slow one per 3 AP, run
#: 10 feet per 2 AP, sprint 20 feet per 2 AP (the actions chapter).
_PER_STEP: dict[str, tuple[int, Fraction]] = {
    "walk": (2, SQUARE_METRES),
    "slow": (3, SQUARE_METRES),
    "run": (2, 2 * SQUARE_METRES),
    "sprint": (2, 4 * SQUARE_METRES),
}


def reposition_metres(mode: str, ap: int) -> Fraction:
    """The metres a move of ``ap`` AP by ``mode`` covers (whole steps of the mode only)."""
    per_ap, metres = _PER_STEP[mode]
    return (ap // per_ap) * metres


def _after(now: Fraction, moved: Fraction, away: bool) -> Fraction:
    return now + moved if away else max(Fraction(0), now - moved)


def reposition_options(state: ArcState, f: Fighter) -> list[Reposition]:
    """Without a map, the moves ``f`` can pay for toward or away from each character whose
    distance is known: every whole number of the mode's steps; toward someone, no step past
    the one that reaches it."""
    if state.grid is not None or not state.ranges:
        return []
    out: list[Reposition] = []
    for other in state.fighters.values():
        if other.id == f.id or other.dead:
            continue
        now = state.ranges.get(frozenset((f.id, other.id)))
        if now is None:
            continue
        for mode in MODES:
            per_ap = _PER_STEP[mode][0]
            for ap in range(per_ap, f.ap + 1, per_ap):
                if now > 0:
                    out.append(Reposition(f.id, other.id, mode, ap))
                    if reposition_metres(mode, ap) >= now:
                        break
            for ap in range(per_ap, f.ap + 1, per_ap):
                out.append(Reposition(f.id, other.id, mode, ap, True))
    return out


def reposition_process(state: ArcState, action: Reposition) -> Step:
    """Pay the move; the metres between the two change by the distance covered."""
    f = state.fighters[action.unit]
    now = state.ranges[frozenset((action.unit, action.other))]
    after = _after(now, reposition_metres(action.mode, action.ap), action.away)
    way = "away from" if action.away else "toward"
    spent = APSpent(f.id, action.ap, f.ap - action.ap, 0, f"{action.mode} {way} {action.other}")
    return emit_all([spent, Repositioned(f.id, action.other, str(after))], Done(None))
