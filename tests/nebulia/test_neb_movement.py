"""Movement (tactica's own default, NEB-9 and NEB-13): up to ``move`` steps in 8 directions,
never through blocking terrain or other operators; diagonal steps between blockers per NEB-13."""

from __future__ import annotations

import itertools

import pytest
from neb_builders import battle_of, op, scenario

from tactica.engine.battle import Battle, ScriptedDice
from tactica.rulesets.nebulia.records import Attack, Move, Moved

pytestmark = pytest.mark.both_engines


def moves_of(tiles: str, unit: str = "A", *, rulings: dict[str, str] | None = None,
             **units: dict) -> set[tuple[int, int]]:
    battle = started(tiles, rulings=rulings, **units)
    return {a.to for a in battle.legal_actions() if isinstance(a, Move) and a.unit == unit}


def started(tiles: str, *, rulings: dict[str, str] | None = None, **units: dict) -> Battle:
    battle = battle_of(scenario(tiles, units, rulings=rulings))
    battle.advance(dice=ScriptedDice([]))
    return battle


def test_up_to_move_steps_in_eight_directions_own_tile_included() -> None:
    tiles = """
    .......
    .......
    ...A...
    .......
    .......
    ......B
    """
    one = moves_of(tiles, A=op("red", move=1), B=op("blue"))
    assert one == {(x, y) for x in range(2, 5) for y in range(1, 4)}
    two = moves_of(tiles, A=op("red", move=2), B=op("blue"))
    assert two == {(x, y) for x in range(1, 6) for y in range(0, 5)}


def test_move_zero_can_only_stay() -> None:
    assert moves_of("A..B", A=op("red", move=0), B=op("blue")) == {(0, 0)}


def test_not_through_walls_or_operators() -> None:
    tiles = """
    A#..
    F#..
    .#..
    ...B
    """
    reach = moves_of(tiles, A=op("red", move=3), F=op("red"), B=op("blue"))
    # A is boxed in by the wall and by its friend F (the diagonal 1,1 is wall too): it stays.
    assert reach == {(0, 0)}
    freed = moves_of(tiles.replace("F", "."), A=op("red", move=3), B=op("blue"))
    # Down the column, then one diagonal step past the wall's corner; 2,3 would be a 4th step.
    assert freed == {(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)}


SQUEEZE = """
A#...
#....
....B
"""


def test_neb13_no_squeeze_between_two_diagonal_blockers() -> None:
    assert moves_of(SQUEEZE, A=op("red", move=3), B=op("blue")) == {(0, 0)}


def test_neb13_free_allows_the_squeeze() -> None:
    reach = moves_of(SQUEEZE, rulings={"NEB-13": "free"}, A=op("red", move=1), B=op("blue"))
    assert reach == {(0, 0), (1, 1)}


def test_neb13_one_blocked_corner() -> None:
    tiles = """
    A#...
    .....
    ....B
    """
    assert (1, 1) in moves_of(tiles, A=op("red", move=1), B=op("blue"))
    assert (1, 1) not in moves_of(tiles, rulings={"NEB-13": "no-corner-cutting"},
                                  A=op("red", move=1), B=op("blue"))


def test_moving_records_a_legal_path_and_updates_the_map() -> None:
    tiles = """
    A.#....
    ..#....
    .......
    ......B
    """
    battle = started(tiles, A=op("red", move=4), B=op("blue"))
    events = battle.apply(Move("A", (3, 1)), dice=ScriptedDice([]))
    assert len(events) == 1 and isinstance(events[0], Moved)
    path = events[0].path
    assert path[0] == (0, 0) and path[-1] == (3, 1)
    assert len(path) - 1 <= 4
    for a, b in itertools.pairwise(path):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
        assert b not in battle.state.grid.blockers
    assert battle.state.ops["A"].pos == (3, 1)
    assert battle.state.grid.occupants["A"] == (3, 1)
    assert battle.state.active == "A"
    # Sight is now from the new tile: B is visible.
    assert Attack("A", "rifle", "B") in battle.legal_actions()


def test_every_offered_move_can_be_made_within_the_move() -> None:
    sc = scenario(
        """
        A..#..#.1
        ..##....#
        B.....#.2
        """,
        {"A": op("red", move=3), "B": op("red", move=2), "1": op("blue"), "2": op("blue")},
    )
    battle = battle_of(sc)
    battle.advance(dice=ScriptedDice([]))
    for action in battle.legal_actions():
        copy = Battle(battle.ruleset, battle.ruleset.copy_state(battle.state))
        moved = copy.apply(action, dice=ScriptedDice([]))[0]
        steps = len(moved.path) - 1
        assert steps <= battle.state.ops[action.unit].move
        assert moved.path[-1] == action.to
