"""The tables behind fast simulation give the grid's own answers: reachable tiles and paths from
the per-map step table, sight from the per-map sight tables, on random maps and positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tactica.battlefield.grid.fast import batch_sight
from tactica.battlefield.grid.tiles import TileGrid
from tactica.rulesets.nebulia.geometry import _path_search, _search, _step_table
from tactica.rulesets.nebulia.sighttable import SightTable

Tile = tuple[int, int]


def _maps(seed: int, count: int) -> list[tuple[int, int, frozenset[Tile], dict[str, Tile]]]:
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        w, h = rnd.randint(3, 9), rnd.randint(3, 8)
        walls = frozenset((rnd.randrange(w), rnd.randrange(h))
                          for _ in range(rnd.randint(0, w * h // 3)))
        free = [(x, y) for x in range(w) for y in range(h) if (x, y) not in walls]
        if len(free) < 3:
            continue
        rnd.shuffle(free)
        k = rnd.randint(2, min(6, len(free)))
        out.append((w, h, walls, dict(zip("ABCDEF"[:k], free[:k], strict=False))))
    return out


@pytest.mark.parametrize("rule", ["no-squeeze", "free", "no-corner-cutting"])
def test_reachable_tiles_and_paths_are_the_grids(rule: str) -> None:
    for w, h, walls, occ in _maps(1, 60):
        grid = TileGrid(w, h, walls, occ)
        table = _step_table(w, h, walls)
        occupied = set(occ.values())
        for r in range(5):
            assert sorted(_search(table, rule, occupied, occ["A"], r)) == sorted(
                grid.reachable(occ["A"], r, diagonal=rule))
        for to in ((x, y) for x in range(w) for y in range(h)):
            assert _path_search(table, walls, rule, occupied, occ["A"], to) == grid.tile_path(
                occ["A"], to, diagonal=rule)


@pytest.mark.parametrize("policy", ["inset", "touch", "interior"])
@pytest.mark.parametrize("metric", ["chebyshev", "manhattan", "euclidean"])
def test_sight_from_the_tables_is_a_sight_batch(policy: str, metric: str) -> None:
    for w, h, walls, occ in _maps(2, 12):
        table = SightTable(w, h, walls, policy, metric, 3)
        blockers = set(occ.values())
        layer = np.zeros((1, h, w), dtype=np.bool_)
        for x, y in walls | blockers:
            layer[0, y, x] = True
        for target in blockers:
            visible, cover = table.target(target).visible_cover(blockers - {target}, 2)
            sources = [(x, y) for y in range(h) for x in range(w) if (x, y) != target]
            batch = batch_sight(layer, None, np.array(sources), np.array([target] * len(sources)),
                                policy=policy, metric=metric, min_clear=2, cover_range=3)
            index = [y * w + x for x, y in sources]
            assert visible[index].tolist() == batch.visible.tolist()
            assert cover[index].tolist() == batch.cover.tolist()
