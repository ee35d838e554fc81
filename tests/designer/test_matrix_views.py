"""tactica matrix: the difference views (cover minus open, reading B minus A), a reading that
turns cover around said in words, no unit attacking itself, friends after enemies."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tactica.analysis.matrix import difference_table, matchup_matrix
from tactica.cli import main
from tactica.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_cover_minus_open_and_reading_b_minus_a() -> None:
    die = matchup_matrix("nebulia", ["breacher"], ["trooper"], ranges=[10], covers=[0, 1],
                         means=["smg"])
    char = matchup_matrix("nebulia", ["breacher"], ["trooper"], ranges=[10], covers=[0, 1],
                          means=["smg"], rulings={"NEB-6": "characteristic"})
    cover = difference_table(die)
    assert cover.rows == [["trooper", 10, Fraction(18, 25) - Fraction(21, 25)]]
    readings = difference_table(char, die)
    assert readings.rows == [["trooper", 10, 0, Fraction(24, 25) - Fraction(18, 25)]]
    assert not any("works against" in n for n in die.notes)
    said = [n for n in char.notes if "cover raises the damage a target takes" in n]
    assert len(said) == 1 and "0.84 in the open, 0.96 in cover" in said[0]
    assert "under NEB-6=characteristic" in said[0]


def test_the_difference_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "nebulia", "-a", "breacher", "-t", "trooper", "-w", "smg",
                 "--range", "10", "--difference", "NEB-6=die,characteristic",
                 "--value", "expected_damage", "--cover", "0,1"]) == 0
    out = capsys.readouterr().out
    assert "NEB-6=characteristic minus NEB-6=die" in out and "0.240" in out
    assert "works against the side it is meant to protect" in out
    assert main(["matrix", "nebulia", "-a", "breacher", "-t", "trooper", "--difference",
                 "NEB-6"]) == 2


def test_a_unit_never_attacks_itself_and_friends_come_last() -> None:
    scenario = load_scenario(ROOT / "examples" / "nebulia" / "firefight.yaml")
    units = scenario.data["units"]
    m = matchup_matrix(scenario, ["A"], list(units), ranges=[4], covers=[0])
    targets = list(dict.fromkeys(c.target for c in m.cells))
    assert "A" not in targets and "A (friend)" not in targets
    friends = [t for t in targets if t.endswith(" (friend)")]
    assert friends and targets[-len(friends):] == friends
    for t in friends:
        assert units[t.removesuffix(" (friend)")]["side"] == units["A"]["side"]
