"""Resolving fire: 2D6 against a target number (the infantry combat chapter's table)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from ski_builders import of, ready, trooper

from tactica.engine.chance import Done, run_exact, run_scripted
from tactica.rulesets.skirmishers import SKIRMISHERS
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.fire import hit_chance, ranged_tn, shot

pytestmark = pytest.mark.both_engines

LANE = """
A . . . . B . . . . . . . . . . . . . C
 . . . . . . . . . . . . . . . . . . . .
"""


def tn(b, firer: str, target: str) -> int | None:  # type: ignore[no-untyped-def]
    t = b.state.troopers[firer]
    return ranged_tn(b.state, firer, target, b.state.setup.pack.weapons[t.active]).tn


@pytest.mark.reference_only  # no step played after the set-up
def test_the_base_target_number_is_6_at_short_range() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue"), C=trooper("blue"))
    assert tn(b, "A", "B") == 6
    assert hit_chance(6) == Fraction(13, 18)


@pytest.mark.reference_only  # no step played after the set-up
def test_long_range_adds_2_and_beyond_long_range_there_is_no_attack_ski_7() -> None:
    """A pistol: short 7, long 20 dots. An SMG: long 17."""
    b = ready(LANE, A=trooper("red", "pistol"), B=trooper("blue"), C=trooper("blue", "smg"))
    assert tn(b, "A", "B") == 6                      # 5 dots: short
    assert tn(b, "A", "C") == 6 + 2 + 1              # 19 dots: long; B on the line: +1
    far = ready(LANE.replace(". . . C", ". C . ."), A=trooper("red", "smg"),
                B=trooper("blue"), C=trooper("blue"))
    assert tn(far, "A", "C") == 6 + 2 + 1            # 17 dots: the SMG's long range
    beyond = ready(LANE, A=trooper("red", "smg"), B=trooper("blue"), C=trooper("blue"))
    seen = ranged_tn(beyond.state, "A", "C", beyond.state.setup.pack.weapons["smg"])
    assert seen.tn is None and "SKI-7" in seen.reasons[0]


@pytest.mark.reference_only  # no step played after the set-up
def test_intervening_troopers_give_cover_except_prone_ones_under_a_standing_firer_ski_4() -> None:
    b = ready(LANE, A=trooper("red", "pistol"), B=trooper("blue"), C=trooper("blue"))
    assert tn(b, "A", "C") == 6 + 2 + 1
    b = ready(LANE, A=trooper("red", "pistol"), B=trooper("blue", prone=True),
              C=trooper("blue"))
    assert tn(b, "A", "C") == 6 + 2
    b = ready(LANE, rulings={"SKI-4": "block"}, A=trooper("red", "pistol"),
              B=trooper("blue"), C=trooper("blue"))
    assert tn(b, "A", "C") is None


@pytest.mark.reference_only  # no step played after the set-up
def test_each_cover_modifier_of_the_lattice_adds_1() -> None:
    walls = [{"between": [[1, 0], [2, 0]], "kind": "low-wall"},
             {"between": [[3, 0], [4, 0]], "kind": "vegetation"}]
    b = ready(LANE, features=walls, A=trooper("red"), B=trooper("blue"), C=trooper("blue"))
    assert tn(b, "A", "B") == 8


@pytest.mark.reference_only  # no step played after the set-up
def test_obstructions_next_to_the_firer_give_no_cover_ski_13() -> None:
    wall = [{"between": [[0, 0], [1, 0]], "kind": "low-wall"}]
    b = ready(LANE, features=wall, A=trooper("red"), B=trooper("blue"), C=trooper("blue"))
    assert tn(b, "A", "B") == 6 and tn(b, "B", "A") == 7


@pytest.mark.reference_only  # no step played after the set-up
def test_a_prone_firer_has_minus_1_and_a_prone_target_plus_1_or_minus_1_adjacent() -> None:
    b = ready(LANE, A=trooper("red", "pistol", prone=True), B=trooper("blue", prone=True),
              C=trooper("blue"))
    # A prone firer, at long range; B, prone on the line, counts for a prone firer (SKI-4).
    assert tn(b, "A", "C") == 6 - 1 + 2 + 1
    assert tn(b, "C", "B") == 6 + 1 + 0               # prone target 14 dots away
    near = ready("A B . .\n . . . .", A=trooper("red"), B=trooper("blue", prone=True))
    assert tn(near, "A", "B") == 6 - 1                # prone target, adjacent


@pytest.mark.reference_only  # no step played after the set-up
def test_the_firers_damage_modifier_comes_from_its_card() -> None:
    """A firer at 5 HP (cells 6 crossed) has +2 to its target numbers."""
    b = ready(LANE, A=trooper("red", marks=".....X....."), B=trooper("blue"),
              C=trooper("blue"))
    assert b.state.troopers["A"].hp == 4 and tn(b, "A", "B") == 8
    b = ready(LANE, A=trooper("red", marks="....X......"), B=trooper("blue"),
              C=trooper("blue"))
    assert b.state.troopers["A"].hp == 5 and tn(b, "A", "B") == 8


@pytest.mark.reference_only  # no step played after the set-up
def test_a_shot_rolls_2d6_against_the_target_number_then_the_start_cell() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue"), C=trooper("blue"))
    rifle = b.state.setup.pack.weapons["rifle"]
    miss = run_scripted(shot(b.state, "A", "B", rifle, 6, "shot", lambda w: Done(None)),
                        rolls=[[2, 3]], world=SKIRMISHERS, state=b.state)
    assert of(miss.events, r.ShotFired)[0].hit is False and not of(miss.events, r.Hit)
    hit = run_scripted(shot(b.state, "A", "B", rifle, 6, "shot", lambda w: Done(None)),
                       rolls=[[3, 3], [4, 3]], world=SKIRMISHERS, state=b.state)
    (h,) = of(hit.events, r.Hit)
    assert h.start == 7 and h.hp == 3 and h.max_ap == 6 and h.amount == 7


@pytest.mark.reference_only  # no step played after the set-up
def test_the_exact_chance_of_a_shot_is_that_of_2d6_at_the_target_number() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue"), C=trooper("blue"))
    rifle = b.state.setup.pack.weapons["rifle"]
    for target_number in range(2, 14):
        dist = run_exact(shot(b.state, "A", "B", rifle, target_number, "shot",
                              lambda w: Done(None)), events=True, world=SKIRMISHERS,
                         state=b.state)
        p = sum((p for (_, evs), p in dist.items() if of(evs, r.ShotFired)[0].hit),
                Fraction(0))
        wins = sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= target_number)
        assert p == Fraction(wins, 36)
