"""Gallery of hard sight cases on the dot lattice, each under both readings of tangency.

Each test draws its map in the docstring (the block indented by 8 spaces; odd rows shifted half a
spacing right), ``A`` looks at ``B``; features, given in the code, stand between two dots
``(col, row)``. ``clear`` (the default) puts a dot on the line only when the segment passes
strictly closer than half a spacing, and counts a feature only where the line passes from one
cell into the other through its side, deciding lines through a corner or along a side a hair to
either side (the better for the firer). ``counts`` also takes in what is exactly touched.

Every answer is checked three ways: the single query, the vectorised batch, and the plain
Fraction reference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tactica.battlefield.dots.lattice import DotLattice
from tactica.battlefield.dots.reference import reference_sight

Verdict = tuple[bool, int]


def drawn(test: Callable[..., Any], features: Iterable[tuple[Any, ...]] = (), **kw: Any
          ) -> DotLattice:
    """The map drawn in a test's docstring: the first block of lines indented by 8 spaces."""
    assert test.__doc__
    block: list[str] = []
    for line in test.__doc__.split("\n"):
        if line.startswith(" " * 8) and line.strip():
            block.append(line[8:])
        elif block:
            break
    return DotLattice.from_text("\n".join(block), features=features, **kw)


def look(lat: DotLattice, a: str = "A", b: str = "B", **options: Any) -> Verdict:
    s = lat.sight(a, b, **options)
    r = reference_sight(lat, a, b, **options)
    batch = lat.sight_many([(a, b)], **options)
    assert (r.visible, r.cover) == (s.visible, s.cover)
    assert (bool(batch.visible[0]), int(batch.cover[0])) == (s.visible, s.cover)
    return s.visible, s.cover


def both(lat: DotLattice, a: str = "A", b: str = "B", **options: Any) -> dict[str, Verdict]:
    return {t: look(lat, a, b, tangent=t, **options) for t in ("clear", "counts")}


SEEN, BLOCKED = True, False


def test_along_a_row_through_a_trooper() -> None:
    """A row: X stands exactly on the line (distance 0).

        A . X . B
         . . . . .
    """
    lat = drawn(test_along_a_row_through_a_trooper)
    assert both(lat) == {"clear": (SEEN, 1), "counts": (SEEN, 1)}
    assert both(lat.with_pose("X", prone=True)) == {"clear": (SEEN, 0), "counts": (SEEN, 0)}
    walled = lat.with_feature((1, 0), (2, 0), "high-wall")
    assert both(walled) == {"clear": (BLOCKED, 0), "counts": (BLOCKED, 0)}


def test_along_a_row_troopers_in_the_next_row() -> None:
    """The dots of the next row are sqrt(3)/2 from the line: not on it.

        A . . . B
         X Y . . .
    """
    assert both(drawn(test_along_a_row_troopers_in_the_next_row)) == {
        "clear": (SEEN, 0), "counts": (SEEN, 0)}


def test_thirty_degrees_tangent_to_two_troopers() -> None:
    """A to B at 30 degrees: X and Y are exactly half a spacing from the line, one each side.

        A X .
         Y B .

    The segment runs along the side between X and Y, touching both cells' inscribed circles.
    """
    lat = drawn(test_thirty_degrees_tangent_to_two_troopers)
    assert both(lat) == {"clear": (SEEN, 0), "counts": (SEEN, 2)}
    s = lat.sight("A", "B")
    assert any("exactly half a spacing" in r for r in s.reasons)


def test_thirty_degrees_along_a_low_wall() -> None:
    """The low wall between (1,0) and (0,1) lies on the line from A to B along its whole length.

        A . .
         . B .

    ``clear``: the line runs along it, never from one of its cells into the other: no cover.
    ``counts``: touched, +1.
    """
    lat = drawn(test_thirty_degrees_along_a_low_wall, [((1, 0), (0, 1), "low-wall")])
    assert both(lat) == {"clear": (SEEN, 0), "counts": (SEEN, 1)}


def test_thirty_degrees_along_a_high_wall() -> None:
    """The same with a high wall: the shot grazes along its face, or is stopped.

        A . .
         . B .
    """
    lat = drawn(test_thirty_degrees_along_a_high_wall, [((1, 0), (0, 1), "high-wall")])
    assert both(lat) == {"clear": (SEEN, 0), "counts": (BLOCKED, 0)}


def test_thirty_degrees_out_through_a_wall_joint() -> None:
    """A's cell has walls toward (1,0) and toward (0,1); they meet at the corner the line
    leaves A's cell through.

        A . .
         . B .

    A hair to the right the line crosses one wall, a hair to the left the other: blocked either
    way. With only one of the two walls the line gets out the other way (``clear``).
    """
    lat = drawn(test_thirty_degrees_out_through_a_wall_joint,
                [((0, 0), (1, 0), "wall"), ((0, 0), (0, 1), "wall")])
    assert both(lat) == {"clear": (BLOCKED, 0), "counts": (BLOCKED, 0)}
    one = lat.without_feature((0, 0), (0, 1))
    assert both(one) == {"clear": (SEEN, 0), "counts": (BLOCKED, 0)}


def test_sixty_degrees_through_dot_centres() -> None:
    """A to B along a lattice direction (south-east, then south-west): X is on the line.

        A . .
         X . .
        . B .
    """
    lat = drawn(test_sixty_degrees_through_dot_centres)
    assert both(lat) == {"clear": (SEEN, 1), "counts": (SEEN, 1)}
    # Along a lattice line the sides crossed are crossed through their middles.
    low = lat.without_occupant("X").with_feature((0, 1), (1, 2), "low-wall")
    assert both(low) == {"clear": (SEEN, 1), "counts": (SEEN, 1)}


def test_ninety_degrees_runs_along_sides() -> None:
    """Straight down the page (axial direction (-1, 2)), a 30-degree-family line: it runs along
    the vertical side between (0,1) and (1,1), and is tangent to both.

        . A .
         X Y .
        . B .
    """
    lat = drawn(test_ninety_degrees_runs_along_sides)
    assert both(lat) == {"clear": (SEEN, 0), "counts": (SEEN, 2)}
    fence = lat.without_occupant("X").without_occupant("Y").with_feature(
        (0, 1), (1, 1), "fence")
    assert both(fence) == {"clear": (SEEN, 0), "counts": (SEEN, 1)}


def test_through_a_cell_corner_past_a_wall_tip() -> None:
    """A to B (axial offset (4, 1)) passes exactly through the corner where the cells of
    (1,0), (2,0) and (1,1) meet, going from (1,0) straight into (2,0).

        A . . . . .
         . . . . B .

    A wall between (1,0) and (2,0) is touched at its tip: a hair to the left the line crosses
    it, a hair to the right it passes through (1,1)'s cell instead. ``clear``: seen.
    """
    lat = drawn(test_through_a_cell_corner_past_a_wall_tip, [((1, 0), (2, 0), "wall")])
    assert both(lat) == {"clear": (SEEN, 0), "counts": (BLOCKED, 0)}


def test_through_a_cell_corner_into_a_walled_cell() -> None:
    """Walls separate (2,0) from both (1,0) and (1,1): whichever way round, the line crosses one.

        A . . . . .
         . . . . B .
    """
    lat = drawn(test_through_a_cell_corner_into_a_walled_cell,
                [((1, 0), (2, 0), "wall"), ((1, 1), (2, 0), "wall")])
    assert both(lat) == {"clear": (BLOCKED, 0), "counts": (BLOCKED, 0)}


def test_through_a_cell_corner_past_a_walled_cell() -> None:
    """Walls around (1,1), whose cell the line only touches at the corner: it passes by.

        A . . . . .
         . . . . B .
    """
    lat = drawn(test_through_a_cell_corner_past_a_walled_cell,
                [((1, 0), (1, 1), "wall"), ((1, 1), (2, 0), "wall")])
    assert both(lat) == {"clear": (SEEN, 0), "counts": (BLOCKED, 0)}


def test_through_a_cell_corner_cover_is_the_better_way_round() -> None:
    """Low walls: one on (1,0)|(2,0) (crossed a hair to the left), two around (1,1) (crossed a
    hair to the right). ``clear`` takes the better for the firer, ``counts`` everything.

        A . . . . .
         . . . . B .
    """
    lat = drawn(test_through_a_cell_corner_cover_is_the_better_way_round,
                [((1, 0), (2, 0), "low-wall"), ((1, 0), (1, 1), "low-wall"),
                 ((1, 1), (2, 0), "low-wall")])
    assert both(lat) == {"clear": (SEEN, 1), "counts": (SEEN, 3)}
    s = lat.sight("A", "B")
    assert s.chosen == "left"
    assert any("better for the firer" in r for r in s.reasons)


def test_tangent_on_a_long_line() -> None:
    """Not only 30-degree lines are tangent: A to B (axial offset (11, 2)) passes exactly half a
    spacing from X at (2,1), since 3 * det^2 = 3 * 49 = 147 = the squared length.

        A . . . . . . . . . . . .
         . . X . . . . . . . . . .
        . . . . . . . . . . . . B
    """
    lat = drawn(test_tangent_on_a_long_line)
    assert both(lat) == {"clear": (SEEN, 0), "counts": (SEEN, 1)}


def test_firers_own_cell_gives_no_cover_the_targets_does() -> None:
    """Low walls next to A and next to B, both on the line: only B's counts.

        A . . . B
    """
    lat = drawn(test_firers_own_cell_gives_no_cover_the_targets_does,
                [((0, 0), (1, 0), "low-wall"), ((3, 0), (4, 0), "low-wall")])
    assert both(lat) == {"clear": (SEEN, 1), "counts": (SEEN, 1)}
    assert both(lat, "B", "A") == {"clear": (SEEN, 1), "counts": (SEEN, 1)}
    high = lat.with_feature((0, 0), (1, 0), "high-wall")
    assert look(high) == (BLOCKED, 0)


def test_prone_behind_low_solid_obstructions() -> None:
    """Low walls next to A and to B; a hedge (not solid) in the middle.

        A . . . . B
    """
    lat = drawn(test_prone_behind_low_solid_obstructions,
                [((0, 0), (1, 0), "low-wall"), ((2, 0), (3, 0), "vegetation"),
                 ((4, 0), (5, 0), "low-wall")])
    assert look(lat) == (SEEN, 2)
    # Only the target prone: the wall next to the prone one blocks (default), or the one next
    # to the firer (literal).
    assert look(lat, prone="B") == (BLOCKED, 0)
    assert look(lat, prone="A") == (BLOCKED, 0)
    no_b_wall = lat.without_feature((4, 0), (5, 0))
    assert look(no_b_wall, prone="B") == (SEEN, 1)
    assert look(no_b_wall, prone="B", prone_low="firer") == (BLOCKED, 0)
    # Both prone: every low solid obstruction blocks, light vegetation still only covers.
    hedge = lat.without_feature((0, 0), (1, 0)).without_feature((4, 0), (5, 0))
    assert look(hedge, prone="A,B") == (SEEN, 1)
    assert look(hedge.with_feature((1, 0), (2, 0), "furniture"), prone="A,B") == (BLOCKED, 0)


def test_intervening_prone_trooper_and_prone_firer() -> None:
    """X lies prone between A and B.

        A . X . B
    """
    lat = drawn(test_intervening_prone_trooper_and_prone_firer, prone=["X"])
    assert look(lat) == (SEEN, 0)
    assert look(lat, prone="A") == (SEEN, 1)
    assert look(lat, intervening="block") == (SEEN, 0)
    assert look(lat, intervening="block", prone="A") == (BLOCKED, 0)


def test_doors_and_windows() -> None:
    """A shoots at B through a door, then through a window, of a wall between columns 1 and 2.

        A . . B
    """
    door = drawn(test_doors_and_windows, [((1, 0), (2, 0), "door")])
    window = drawn(test_doors_and_windows, [((1, 0), (2, 0), "window")])
    assert both(door) == {"clear": (SEEN, 0), "counts": (SEEN, 0)}
    assert both(window) == {"clear": (SEEN, 1), "counts": (SEEN, 1)}
    assert look(window, prone="A,B") == (BLOCKED, 0)
    at_b = drawn(test_doors_and_windows, [((2, 0), (3, 0), "window")])
    assert look(at_b, prone="B") == (BLOCKED, 0)
    assert look(at_b, "B", "A") == (SEEN, 0)  # the firer's own window


def test_higher_level_counts_its_own_level_and_the_targets_surroundings() -> None:
    """U on the first floor (a two-dot balcony over (0,0)-(1,0) with a window) looks at B on
    the ground; a low wall far from B on the ground, a fence next to B.

        . . . . . B
    """
    lat = drawn(
        test_higher_level_counts_its_own_level_and_the_targets_surroundings,
        [((2, 0), (3, 0), "low-wall"), ((4, 0), (5, 0), "fence"),
         ((1, 0), (2, 0), "window", 1)],
        upper=["U . - - - -"],
    )
    # U -> B: the first-floor window (1,0)|(2,0) gives +1 (it is not on U's cell); of the
    # ground, only what lies within one dot of B counts: the fence, not the low wall.
    # B -> U: only the first floor counts (U, the target, is the higher one).
    assert both(lat, "U", "B") == {"clear": (SEEN, 2), "counts": (SEEN, 2)}
    assert both(lat, "B", "U") == {"clear": (SEEN, 1), "counts": (SEEN, 1)}
    # A wall on the first floor instead of the window blocks.
    walled = lat.with_feature((1, 0), (2, 0), "wall", level=1)
    assert look(walled, "U", "B") == (BLOCKED, 0)


def test_a_floor_between_two_levels() -> None:
    """U upstairs and D downstairs in one building (both dots under the first floor), and S on
    the stairs below T (the first floor covers all three dots).

        D . S
    """
    lat = drawn(test_a_floor_between_two_levels, upper=[". U T"], stairs=[(2, 0)])
    assert look(lat, "U", "D") == (BLOCKED, 0)
    assert look(lat, "U", "D", floors="ignore") == (SEEN, 0)
    assert look(lat, "T", "S") == (SEEN, 0)
    no_stairs = DotLattice.from_text("D . S", upper=[". U T"])
    assert look(no_stairs, "T", "S") == (BLOCKED, 0)
    assert look(no_stairs, "T", "S", floors="ignore") == (SEEN, 0)
