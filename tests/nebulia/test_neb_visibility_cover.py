"""Visibility and cover inside a battle: four corner-to-corner lines, blockers (NEB-5), the
"3 tiles or less" distance (NEB-3) and the contact policy (NEB-4)."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from neb_builders import attack, attack_ready, attacked, battle_of, op, scenario

from tactica import odds_of
from tactica.rulesets.nebulia import geometry
from tactica.rulesets.nebulia.records import Attack

pytestmark = pytest.mark.both_engines


def cover_of(tiles: str, *, rulings: dict[str, str] | None = None, **units: dict) -> bool | None:
    """The cover flag of A's attack on B, or None if A cannot target B."""
    units = {"A": op("red"), "B": op("blue"), **units}
    battle = attack_ready(tiles, rulings=rulings, **units)
    if Attack("A", "rifle", "B") not in battle.legal_actions():
        return None
    return attacked(attack(battle, "A", "B", to_hit=[0])).cover


def clear_lines(tiles: str, *, rulings: dict[str, str] | None = None, **units: dict) -> int:
    units = {"A": op("red"), "B": op("blue"), **units}
    battle = attack_ready(tiles, rulings=rulings, **units)
    s = battle.state
    return geometry.sight(s, s.ops["A"], s.ops["B"]).clear_lines


def test_all_four_lines_clear_visible_not_in_cover() -> None:
    tiles = """
    A.......
    ........
    .......B
    """
    assert clear_lines(tiles) == 4
    assert cover_of(tiles) is False


def test_three_clear_lines_beyond_three_tiles_is_cover() -> None:
    tiles = """
    A.........
    .......#..
    .......B..
    """
    assert clear_lines(tiles) == 3
    assert cover_of(tiles) is True


def test_two_clear_lines_beyond_three_tiles_is_visible_in_cover() -> None:
    tiles = """
    A.........
    ......#...
    .......B..
    """
    assert clear_lines(tiles) == 2
    assert cover_of(tiles) is True


def test_operators_block_sight_friend_or_foe_by_default() -> None:
    # F (a friend of A) stands on the line: it blocks like terrain (NEB-5 all).
    tiles = """
    A.........
    .......F..
    .......B..
    """
    assert clear_lines(tiles, F=op("red")) == 3
    assert cover_of(tiles, F=op("red")) is True
    # A foe blocks as well.
    assert cover_of(tiles, F=op("blue")) is True


def test_with_neb5_foes_friends_do_not_block() -> None:
    tiles = """
    A.........
    .......F..
    .......B..
    """
    foes = {"NEB-5": "foes"}
    assert cover_of(tiles, rulings=foes, F=op("red")) is False
    assert cover_of(tiles, rulings=foes, F=op("blue")) is True
    walled = tiles.replace("F", "#")
    assert cover_of(walled, rulings=foes) is True  # terrain always blocks


def test_an_operator_that_hides_the_target_completely() -> None:
    assert cover_of("A.F.B", F=op("blue")) is None
    assert cover_of("A.F.B", rulings={"NEB-5": "foes"}, F=op("red")) is False


@pytest.mark.reference_only  # geometry of a state, no step played
def test_attacker_and_defender_tiles_never_block_their_own_lines() -> None:
    assert clear_lines("AB") == 4
    assert clear_lines(
        """
        A.
        .B
        """
    ) == 4


def test_within_three_tiles_nobody_benefits_from_cover() -> None:
    tiles = """
    A.#...
    ...B..
    """
    assert clear_lines(tiles) == 2
    assert cover_of(tiles) is False  # Chebyshev distance 3


# 2,2 with a wall on 1,0: Chebyshev 2, Manhattan 4, Euclidean 2.83.
DIAGONAL_TWO = """
A#..
....
..B.
"""
# 3,2 with a wall on 2,0: Chebyshev 3, Manhattan 5, Euclidean 3.61.
KNIGHTISH = """
A.#.
....
...B
"""


def test_neb3_metric_decides_what_three_tiles_or_less_means() -> None:
    assert clear_lines(DIAGONAL_TWO) == 3 and clear_lines(KNIGHTISH) == 3
    expected = {
        "chebyshev": (False, False),
        "manhattan": (True, True),
        "euclidean": (False, True),
    }
    for metric, (near, far) in expected.items():
        rulings = {"NEB-3": metric}
        assert cover_of(DIAGONAL_TWO, rulings=rulings) is near, metric
        assert cover_of(KNIGHTISH, rulings=rulings) is far, metric


def test_neb4_contact_policy_changes_what_is_seen() -> None:
    # A line along the diagonal of the wall tile 1,1: only "interior" lets it through.
    through_diagonal = """
    A....
    .#...
    .....
    .....
    ....B
    """
    assert cover_of(through_diagonal) is None
    assert cover_of(through_diagonal, rulings={"NEB-4": "touch"}) is None
    assert clear_lines(through_diagonal, rulings={"NEB-4": "interior"}) == 2
    assert cover_of(through_diagonal, rulings={"NEB-4": "interior"}) is True
    # A line through the corner of the wall tile 2,1: blocked only by "touch".
    corner = """
    A.....
    ..#...
    ......
    ......
    ......
    .....B
    """
    assert clear_lines(corner) == 3
    assert cover_of(corner) is True
    assert clear_lines(corner, rulings={"NEB-4": "touch"}) == 1
    assert cover_of(corner, rulings={"NEB-4": "touch"}) is None


@pytest.mark.reference_only  # exact odds, no step played
def test_odds_explain_the_cover_verdict() -> None:
    battle = attack_ready(
        """
        A.........
        .......#..
        .......B..
        """,
        A=op("red"), B=op("blue"),
    )
    report = odds_of(battle.ruleset, battle.state, "A", "B")
    assert "sight: 3 of 4 lines clear, distance 7 (chebyshev)" in report.reasons
    assert "  top-right line blocked by 7,1" in report.reasons
    assert "in cover: 2-3 lines clear and more than 3 tiles away" in report.reasons


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    width = draw(st.integers(3, 7))
    height = draw(st.integers(2, 6))
    cells = draw(st.lists(st.sampled_from("..#"), min_size=width * height,
                          max_size=width * height))
    spots = draw(st.lists(st.integers(0, width * height - 1), min_size=3, max_size=5,
                          unique=True))
    rules = {"NEB-4": draw(st.sampled_from(["inset", "touch", "interior"])),
             "NEB-5": draw(st.sampled_from(["all", "foes"])),
             "NEB-3": draw(st.sampled_from(["chebyshev", "manhattan", "euclidean"]))}
    for k, i in enumerate(spots):
        cells[i] = "ABCDE"[k]
    rows = ["".join(cells[y * width:(y + 1) * width]) for y in range(height)]
    return "\n".join(rows), rules


@pytest.mark.reference_only  # geometry of a state, no step played
@settings(max_examples=60, deadline=None)
@given(boards())
def test_fast_sight_agrees_with_the_lines_and_is_symmetric(board: tuple[str, dict[str, str]]
                                                           ) -> None:
    tiles, rulings = board
    ids = [c for c in tiles if c.isalpha()]
    units = {u: op("red" if i % 2 == 0 else "blue") for i, u in enumerate(ids)}
    state = battle_of(scenario(textwrap.dedent(tiles), units, rulings=rulings)).state
    for a in ids:
        for b in ids:
            if a == b:
                continue
            oa, ob = state.ops[a], state.ops[b]
            clear, cover = geometry.fast_sight(state, oa.pos, ob.pos, oa.side)
            if rulings["NEB-5"] == "all":
                s = geometry.sight(state, oa, ob)
                assert (clear, cover) == (s.clear_lines, s.is_in_cover)
                assert geometry.fast_sight(state, ob.pos, oa.pos, ob.side) == (clear, cover)
            assert 0 <= clear <= 4
            assert not cover or 2 <= clear < 4
