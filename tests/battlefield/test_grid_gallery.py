"""Gallery of hard sight cases on the tile grid, each checked under all three contact policies.

Each test draws its map in the docstring (the indented block), ``A`` looks at ``B``. Expected
lines are four characters in corner order top-left, top-right, bottom-right, bottom-left:
``o`` clear, ``x`` blocked. The policies (NEB-4):

- ``inset`` (default): corners moved an infinitesimal step toward their own tile's centre;
- ``touch``: any contact with a blocker blocks;
- ``interior``: only entering a blocker's interior blocks.
"""

from __future__ import annotations

from collections.abc import Callable

from tactica.battlefield.grid.tiles import POLICIES, TileGrid


def drawn(test: Callable[[], None]) -> TileGrid:
    """The map drawn in a test's docstring: the first block of lines indented by 8 spaces."""
    assert test.__doc__
    block: list[str] = []
    for line in test.__doc__.split("\n"):
        if line.startswith(" " * 8) and line.strip():
            block.append(line.strip())
        elif block:
            break
    return TileGrid.from_text(block)


def lines(grid: TileGrid, a: str = "A", b: str = "B", *, policy: str = "inset") -> str:
    sight = grid.sight(a, b, policy=policy)
    return "".join("o" if line.is_clear else "x" for line in sight.lines)


def by_policy(grid: TileGrid, a: str = "A", b: str = "B") -> dict[str, str]:
    return {p: lines(grid, a, b, policy=p) for p in POLICIES}


def verdict(grid: TileGrid, policy: str, a: str = "A", b: str = "B") -> str:
    s = grid.sight(a, b, policy=policy)
    if not s.is_visible:
        return "not visible"
    return "cover" if s.is_in_cover else "no cover"


def test_straight_shot_along_a_row_past_blockers_beside_it() -> None:
    """All four lines run along the top and bottom edges of row 1.

        ..#...
        A....B
        ...#..

    touch: the top lines graze the bottom of (2,0), the bottom lines the top of (3,2): nothing
    is seen. inset moves every line into row 1, interior ignores edges: all clear.
    """
    g = drawn(test_straight_shot_along_a_row_past_blockers_beside_it)
    assert by_policy(g) == {"inset": "oooo", "touch": "xxxx", "interior": "oooo"}
    assert verdict(g, "touch") == "not visible"
    assert verdict(g, "inset") == "no cover"


def test_straight_shot_along_a_row_through_a_blocker() -> None:
    """A blocker in the row itself.

        A.#..B

    inset and touch: blocked. interior: every line runs along an edge of the blocker and never
    enters it, so the shot passes straight through the wall: the known flaw of ``interior``.
    """
    g = drawn(test_straight_shot_along_a_row_through_a_blocker)
    assert by_policy(g) == {"inset": "xxxx", "touch": "xxxx", "interior": "oooo"}
    assert verdict(g, "interior") == "no cover"


def test_straight_shot_along_a_column() -> None:
    """The same along a column: lines run along x = 1 and x = 2.

        .A.
        ...
        #..
        ..#
        ...
        .B.

    (0,2) touches the left lines, (2,3) the right ones. A blocker in the column, at (1,3), stops
    every line under inset and touch, none under interior.
    """
    g = drawn(test_straight_shot_along_a_column)
    assert by_policy(g) == {"inset": "oooo", "touch": "xxxx", "interior": "oooo"}
    walled = g.with_blocker((1, 3))
    assert by_policy(walled) == {"inset": "xxxx", "touch": "xxxx", "interior": "oooo"}


def test_45_degree_lines_through_lattice_points_in_the_open() -> None:
    """Top-left and bottom-right lines run exactly through the lattice points (1,1), (2,2), ...

        A...
        ....
        ....
        ...B

    With nothing near them every policy sees all four lines.
    """
    g = drawn(test_45_degree_lines_through_lattice_points_in_the_open)
    assert by_policy(g) == {"inset": "oooo", "touch": "oooo", "interior": "oooo"}


def test_diagonal_gap_between_two_blockers() -> None:
    """The 45-degree lines pass exactly through (2,2), between (2,1) and (1,2).

        A....
        ..#..
        .#...
        .....
        ....B

    The top-right and bottom-left lines cross (2,1) and (1,2): blocked under every policy.
    Through the gap: touch blocks (contact), interior lets it pass (no interior entered), inset
    blocks (still exactly on the lattice point, between two diagonal blockers: the NEB-4 rule).
    """
    g = drawn(test_diagonal_gap_between_two_blockers)
    assert by_policy(g) == {"inset": "xxxx", "touch": "xxxx", "interior": "oxox"}
    assert verdict(g, "interior") == "cover"
    sight = g.sight("A", "B")
    assert sight.lines[0].squeezed_between == (((1, 2), (2, 1)),)
    assert sight.lines[0].blocked_by == ()


def test_one_blocker_at_a_lattice_point_is_no_gap() -> None:
    """Only one of the two tiles beside the lattice point (2,2) blocks.

        A....
        ..#..
        .....
        .....
        ....B

    touch still blocks the lines through (2,2); inset and interior let them pass.
    """
    g = drawn(test_one_blocker_at_a_lattice_point_is_no_gap)
    assert by_policy(g) == {"inset": "oxoo", "touch": "xxxo", "interior": "oxoo"}


def test_blocker_beside_the_attacker() -> None:
    """A blocker just right of the attacker, off the diagonal.

        A#..
        ....
        ....
        ...B

    The top-right line starts at the blocker's corner and crosses it: blocked everywhere. touch
    also blocks the two 45-degree lines that touch (1,0) at the lattice point (1,1). Three clear
    lines at distance 3: visible, and nobody benefits from cover (NEB-3).
    """
    g = drawn(test_blocker_beside_the_attacker)
    assert by_policy(g) == {"inset": "oxoo", "touch": "xxxo", "interior": "oxoo"}
    assert verdict(g, "inset") == "no cover"
    assert verdict(g, "touch") == "not visible"


def test_blocker_beside_the_target() -> None:
    """The same rotated half a turn: the blocker is left of the target.

        A...
        ....
        ....
        ..#B

    The bottom-left line runs along the blocker's diagonal; touch also blocks the lines through
    the target's top-left corner (3,3), which is the blocker's top-right corner.
    """
    g = drawn(test_blocker_beside_the_target)
    assert by_policy(g) == {"inset": "ooox", "touch": "xoxx", "interior": "ooox"}


def test_line_grazing_a_blocker_corner_on_the_inset_side() -> None:
    """The top-left line y = x/2 passes exactly through (2,1), the top-right corner of (1,1).

        A....
        .#...
        ....B

    inset moves the top-left line down (toward the tile centres), into (1,1): blocked, as under
    touch. interior: a corner is not the interior: clear. The lower two lines cross (1,1).
    """
    g = drawn(test_line_grazing_a_blocker_corner_on_the_inset_side)
    assert by_policy(g) == {"inset": "xoxx", "touch": "xoxx", "interior": "ooxx"}
    assert verdict(g, "interior") == "cover"
    assert verdict(g, "inset") == "not visible"


def test_line_grazing_a_blocker_corner_on_the_far_side() -> None:
    """The same line grazes (2,1) again, now the bottom-left corner of (2,0).

        A.#..
        .....
        ....B

    inset moves the line down, away from (2,0): clear; only touch blocks it. The top-right line
    crosses (2,0) under every policy.
    """
    g = drawn(test_line_grazing_a_blocker_corner_on_the_far_side)
    assert by_policy(g) == {"inset": "oxoo", "touch": "xxoo", "interior": "oxoo"}


def test_adjacent_tiles_in_the_open() -> None:
    """Neighbours see each other with all four lines.

        AB
    """
    g = drawn(test_adjacent_tiles_in_the_open)
    assert by_policy(g) == {"inset": "oooo", "touch": "oooo", "interior": "oooo"}
    assert verdict(g, "inset") == "no cover"


def test_adjacent_tiles_in_a_corridor() -> None:
    """Neighbours in a one-tile corridor: every line runs along a wall.

        ##
        AB
        ##

    touch: nothing is seen, even next door. inset and interior: all clear.
    """
    g = drawn(test_adjacent_tiles_in_a_corridor)
    assert by_policy(g) == {"inset": "oooo", "touch": "xxxx", "interior": "oooo"}


def test_diagonal_neighbours_between_two_blockers() -> None:
    """Diagonal neighbours with blockers on both other tiles of the square.

        A#
        #B

    The 45-degree lines meet exactly at (1,1) between the blockers: inset blocks them (squeeze),
    interior does not; the other two lines cross a blocker. touch: all blocked.
    """
    g = drawn(test_diagonal_neighbours_between_two_blockers)
    assert by_policy(g) == {"inset": "xxxx", "touch": "xxxx", "interior": "oxox"}
    assert verdict(g, "interior") == "no cover"  # adjacent: within cover range


def test_wall_beside_a_long_corridor() -> None:
    """A long shot along a wall.

        ##########
        A........B
        ..........

    touch: the two top lines slide along the wall and are blocked, so the target is in cover
    (2 lines, distance 9). inset and interior: all four clear, no cover.
    """
    g = drawn(test_wall_beside_a_long_corridor)
    assert by_policy(g) == {"inset": "oooo", "touch": "xxoo", "interior": "oooo"}
    assert verdict(g, "touch") == "cover"
    assert verdict(g, "inset") == "no cover"


def test_long_one_tile_corridor() -> None:
    """A one-tile corridor between two walls.

        ##########
        A........B
        ##########

    touch: not visible at all; inset and interior: visible, not in cover.
    """
    g = drawn(test_long_one_tile_corridor)
    assert by_policy(g) == {"inset": "oooo", "touch": "xxxx", "interior": "oooo"}


def test_operators_block_like_terrain() -> None:
    """Another operator stands where the wall was in the row test.

        A.C..B

    NEB-5 default: every other operator blocks, friend or foe.
    """
    g = drawn(test_operators_block_like_terrain)
    assert by_policy(g) == {"inset": "xxxx", "touch": "xxxx", "interior": "oooo"}
    assert g.sight("A", "B").lines[0].blocked_by == ((2, 0),)


def test_own_tiles_never_block_their_lines() -> None:
    """Sight between two blocking tiles given as coordinates: their own terrain does not count.

        #...#
    """
    g = drawn(test_own_tiles_never_block_their_lines)
    for policy in POLICIES:
        assert g.sight("0,0", "4,0", policy=policy).clear_lines == 4
