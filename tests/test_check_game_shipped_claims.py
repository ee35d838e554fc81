"""``check_game`` holds every shipped game's odds reports to the game's own process, through
the reading the game declares (``Odds.reading``): the reports pass, and a report claiming 7
damage for every outcome, or a 0% with no reason, is refused naming the claim."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from tactica.dice import Dist
from tactica.engine import ruleset as registry
from tactica.engine.odds import OddsNumbers, OddsReport
from tactica.engine.ruleset import example_scenarios, get_ruleset
from tactica.testing import ConformanceError, check_game

GAMES = ("nebulia-operations", "skirmishers", "last-odyssey", "unhex", "arc")


@pytest.mark.parametrize("name", GAMES)
def test_each_shipped_game_declares_how_its_reports_read_the_process(name: str) -> None:
    odds = get_ruleset(name).odds
    assert odds is not None and odds.reads and odds.reading is not None


@pytest.mark.parametrize("name", GAMES)
def test_each_shipped_games_odds_reports_hold_to_its_process(name: str) -> None:
    report = check_game(get_ruleset(name), checks=["odds claims"], commands=False)
    assert report.passed == [f"odds claims: {p.name}"
                             for p in example_scenarios(get_ruleset(name))]


def _sevens(state: Any, action: Any, **options: Any) -> OddsReport:
    """7 damage for every outcome, and a 0% of dropping out with no why."""
    return OddsReport("A", "B", "an attack", {"damage": Dist.constant(7)},
                      OddsNumbers(expected_damage=Fraction(7), p_out_of_action=Fraction(0)))


@pytest.mark.parametrize("name", GAMES)
def test_a_shipped_game_claiming_seven_damage_and_an_unexplained_zero_is_refused(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_ruleset(name)
    assert game.odds is not None
    fake = replace(game, odds=replace(game.odds, report=_sevens))
    monkeypatch.setitem(registry._RULESETS, game.meta.name, fake)
    first = example_scenarios(game)[0]
    with pytest.raises(ConformanceError) as raised:
        check_game(fake, scenarios=[first], checks=["odds claims"], commands=False)
    said = str(raised.value)
    assert f"odds claims: {first.name}" in said
    assert "p_out_of_action = 0 with no why" in said
    assert "the damage distribution {7: 1.000} is not the process's" in said
    assert "expected_damage = 7, the process gives" in said
