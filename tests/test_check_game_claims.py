"""``check_game`` checks what a game's odds reports claim against the game's own process:
a report claiming 7 damage for every outcome, or a 0% with no reason, is rejected."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tactica.dice import Dist
from tactica.engine.game import Odds
from tactica.engine.odds import OddsNumbers, OddsReport
from tactica.engine.ruleset import get_ruleset
from tactica.engine.scenario import scenario_from_mapping
from tactica.testing import ConformanceError, check_game
from tactica.testing.claims import inconsistent_claims, odds_claims, unexplained_certainties

HERE = Path(__file__).resolve().parent


def _guide_game() -> Any:
    """The minimal game of docs/adding-a-game.md (built by its own test module)."""
    spec = importlib.util.spec_from_file_location("guide_test",
                                                  HERE / "test_docs_adding_a_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.guide_game()


def _sevens(state: Any, action: Any, **options: Any) -> OddsReport:
    """A report claiming 7 damage for every outcome, and a 0% chance to hit with no why."""
    return OddsReport(action.unit, action.target, f"{action.unit} shoots {action.target}",
                      {"damage": Dist.constant(7)},
                      OddsNumbers(p_hit=Fraction(0), expected_damage=Fraction(7),
                                  p_out_of_action=Fraction(0)))


def _fake(name: str, reads: str | None = None) -> Any:
    duel = _guide_game()
    return replace(duel, meta=replace(duel.meta, name=name, title="Fake duel"),
                   odds=Odds(choices=duel.odds.choices, report=_sevens, reads=reads))


def _scenario_file(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "noon.yaml"
    path.write_text(f"game: {game}\nname: Noon\nfighters: {{Lee: 3, Van: 3}}\n",
                    encoding="utf-8")
    return path


def test_the_guides_game_holds_to_what_its_odds_claim(tmp_path: Path) -> None:
    report = check_game(_guide_game(), checks=["odds claims"], commands=False)
    assert report.passed == ["odds claims: noon.yaml"]


def test_a_report_claiming_seven_damage_and_an_unexplained_zero_is_rejected(
        tmp_path: Path) -> None:
    with pytest.raises(ConformanceError) as raised:
        check_game(_fake("fake-duel"), scenarios=[_scenario_file(tmp_path, "fake-duel")],
                   checks=["odds claims"], commands=False)
    said = str(raised.value)
    assert "odds claims: noon.yaml" in said
    assert "p_hit = 0 with no why" in said
    assert "p_out_of_action = 0 with no why" in said
    assert "the damage distribution {7: 1.000} is not the process's" in said
    assert "expected_damage = 7, the process gives 7/6 (1.1667) exactly" in said


def test_a_game_reading_its_process_otherwise_still_explains_its_zeros(
        tmp_path: Path) -> None:
    game = _fake("fake-duel-own", reads="the damage rolled")
    with pytest.raises(ConformanceError) as raised:
        check_game(game, scenarios=[_scenario_file(tmp_path, "fake-duel-own")],
                   checks=["odds claims"], commands=False)
    assert "p_hit = 0 with no why" in str(raised.value)


def test_the_sampled_comparison_rejects_the_claim_and_accepts_the_true_one(
        tmp_path: Path) -> None:
    duel = _guide_game()
    path = _scenario_file(tmp_path, "duel")
    from tactica.engine.ruleset import register, unregister

    added = False
    try:
        get_ruleset("duel")
    except Exception:
        register(duel)
        added = True
    try:
        state = scenario_from_mapping({"game": "duel", "fighters": {"Lee": 3, "Van": 3}},
                                      source=str(path)).new_state()
        action = duel.odds.choices(state, "Lee")[0].action
        honest = duel.odds.report(state, action)
        assert honest is not None

        def process() -> Any:
            return duel.rules.resolve(state, action)

        assert odds_claims(honest, process, exact=False, seed=3) == []
        assert odds_claims(honest, process) == []
        found = odds_claims(_sevens(state, action), process, exact=False, seed=3)
        assert any(p.startswith("expected_damage = 7.0000, a seeded sample of 400 runs")
                   for p in found), found
        assert any("the process dealt [0" in p for p in found), found
    finally:
        if added:
            unregister("duel")


def test_a_report_that_contradicts_itself_is_named() -> None:
    report = OddsReport("A", "B", "A shoots B", {"damage": Dist.uniform([0, 2])},
                        OddsNumbers(expected_damage=Fraction(3), p_out_of_action=Fraction(3, 2)),
                        why={"p_out_of_action": "never"})
    assert inconsistent_claims(report) == [
        "p_out_of_action = 3/2 is no probability",
        "expected_damage = 3 is not the mean of its damage distribution, 1"]
    assert unexplained_certainties(report) == []
