"""The odds report's headline numbers are required, kept in the game's order, and a report can
be built from an outcome distribution."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tactica.dice import die, two_d6
from tactica.engine.chance import Done, Emit, Roll, run_exact
from tactica.engine.events import Damaged, OutOfAction
from tactica.engine.odds import OddsNumbers, OddsReport, damage_dealt


def test_the_numbers_need_expected_damage_and_p_out_of_action() -> None:
    unchecked: Any = OddsNumbers  # what a game without type checking would call
    with pytest.raises(TypeError, match="needs the numbers expected_damage"):
        unchecked(p_hit=Fraction(1, 2), p_out_of_action=Fraction(0))
    numbers = OddsNumbers(p_hit=Fraction(1, 2), expected_damage=Fraction(3),
                          p_out_of_action=Fraction(1, 4), p_kill=Fraction(0))
    assert list(numbers) == ["p_hit", "expected_damage", "p_out_of_action", "p_kill"]
    assert numbers == {"p_hit": Fraction(1, 2), "expected_damage": 3,
                       "p_out_of_action": Fraction(1, 4), "p_kill": 0}
    more = numbers.with_more(p_kill=Fraction(1, 8), p_jam=Fraction(0))
    assert list(more)[-2:] == ["p_kill", "p_jam"] and more["p_kill"] == Fraction(1, 8)


def test_a_report_from_the_outcomes_of_a_shot() -> None:
    """2d6 at 7 or more hits for 1d3; a wound of 3 takes the target out."""

    def shot(roll: int) -> Any:
        if roll < 7:
            return Done(None)

        def wound(n: int) -> Any:
            then = Emit(OutOfAction("B"), lambda: Done(None)) if n == 3 else Done(None)
            return Emit(Damaged("B", n, "A"), lambda: then)

        return Roll("wound", die(3), wound)

    outcomes = run_exact(Roll("shot", two_d6(), shot), events=True)
    report = OddsReport.from_outcomes(outcomes, attacker="A", target="B", action="A shoots",
                                      hit=lambda o: damage_dealt(o) > 0,
                                      numbers={"p_two_or_more": Fraction(0)},
                                      reasons=("7 or more on 2d6",))
    p_hit = Fraction(21, 36)
    assert report.numbers == {"p_hit": p_hit, "expected_damage": p_hit * 2,
                              "p_out_of_action": p_hit / 3, "p_two_or_more": 0}
    assert report.distributions["damage"].p(0) == 1 - p_hit
    data = report.to_dict()
    assert list(data)[:7] == ["attacker", "target", "action", "damage", "p_hit",
                              "expected_damage", "p_out_of_action"]
    assert data["exact"]["p_out_of_action"] == "7/36"
