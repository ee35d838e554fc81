"""Distances, adjacency and movement on the tile grid (8 directions, cost 1 per step)."""

from __future__ import annotations

import itertools

import pytest

from tactica.battlefield.grid.tiles import DIAGONAL_RULES, TileGrid
from tactica.engine.errors import MapError

# The wall in column 2 leaves one way round, at (2,2), reached diagonally past the wall's end.
WALL = TileGrid.from_text("""
    A.#..
    ..#..
    .....
""")


def test_adjacency_is_eight_neighbours() -> None:
    g = TileGrid(3, 3)
    assert g.is_adjacent((1, 1), (2, 2)) and g.is_adjacent((1, 1), (1, 0))
    assert not g.is_adjacent((1, 1), (1, 1)) and not g.is_adjacent((0, 0), (2, 0))
    assert len(g.neighbours((1, 1))) == 8
    assert g.neighbours((0, 0)) == ((1, 0), (0, 1), (1, 1))


def test_occupant_distance_and_adjacency_by_id() -> None:
    g = TileGrid.from_text("A..\n.B.")
    assert g.distance("A", "B") == 1 and g.is_adjacent("A", "B")
    assert g.distance("A", "B", "manhattan") == 2


@pytest.mark.parametrize(("rule", "steps"), [("no-squeeze", 4), ("free", 4),
                                             ("no-corner-cutting", 6)])
def test_shortest_path_round_a_wall(rule: str, steps: int) -> None:
    path = WALL.tile_path("A", (4, 0), diagonal=rule)
    assert path is not None
    assert len(path) == steps + 1
    assert path[0] == (0, 0) and path[-1] == (4, 0)
    for a, b in itertools.pairwise(path):
        assert WALL.is_adjacent(a, b) and WALL.is_passable(b)
    assert WALL.reachable("A", 10, diagonal=rule)[(4, 0)] == steps


def test_default_path_is_deterministic() -> None:
    assert WALL.tile_path("A", (4, 0)) == ((0, 0), (1, 1), (2, 2), (3, 1), (4, 0))
    assert TileGrid(3, 1).tile_path((0, 0), (2, 0)) == ((0, 0), (1, 0), (2, 0))


def test_no_squeezing_between_two_diagonal_blockers() -> None:
    g = TileGrid.from_text("""
        A#.
        #..
    """)
    assert g.tile_path("A", (1, 1)) is None
    assert g.reachable("A", 5) == {(0, 0): 0}
    assert g.tile_path("A", (1, 1), diagonal="free") == ((0, 0), (1, 1))
    assert g.reachable("A", 5, diagonal="free")[(2, 0)] == 2


def test_occupants_block_movement_and_cannot_be_stood_on() -> None:
    g = TileGrid.from_text("""
        A.#
        .C#
        ..B
    """)
    assert g.tile_path("A", "B") is None  # B stands on its tile
    assert g.tile_path("A", (1, 2)) == ((0, 0), (0, 1), (1, 2))
    assert (1, 1) not in g.reachable("A", 3)


def test_reachable_counts_steps() -> None:
    g = TileGrid.from_text("""
        .....
        .....
        ..A..
        .....
        .....
    """)
    assert len(g.reachable("A", 0)) == 1
    assert len(g.reachable("A", 1)) == 9
    assert len(g.reachable("A", 2)) == 25
    assert g.reachable("A", 2)[(0, 0)] == 2


def test_path_to_itself_and_unknown_rule() -> None:
    assert WALL.tile_path("A", "A") == ((0, 0),)
    with pytest.raises(MapError, match="diagonal: expected one of no-squeeze, free"):
        WALL.tile_path("A", (4, 0), diagonal="sometimes")
    assert DIAGONAL_RULES[0] == "no-squeeze"


def test_steps() -> None:
    assert WALL.steps("A") == ((1, 0), (0, 1), (1, 1))
    assert WALL.steps((1, 1), diagonal="no-corner-cutting") == (
        (1, 0), (1, 2), (0, 1), (0, 2))
