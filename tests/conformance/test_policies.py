"""The policies a game offers are named for what they do.

A game without a valuation part (Toy Duel) has no values to rank actions by: its computer takes
the first option, and says so (``first-option``), where a game with one plays ``greedy``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toy_games import TOY_DUEL, TOY_ROWS

from tactica.analysis.simulate import simulate
from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.policies import (
    FirstOptionPolicy,
    default_policy,
    make_policy,
    policy_names,
    resolve_policy,
)
from tactica.engine.ruleset import example_scenarios
from tactica.engine.scenario import load_scenario


def test_a_game_without_a_policy_part_offers_first_option_and_random() -> None:
    assert policy_names(TOY_DUEL) == ("first-option", "random")
    assert default_policy(TOY_DUEL) == "first-option"
    assert isinstance(make_policy("first-option", TOY_DUEL), FirstOptionPolicy)
    with pytest.raises(TacticaError, match=r"Toy Duel has no valuation part, so it has no "
                                           r"'greedy' policy \(its policies: first-option, "
                                           r"random\)"):
        make_policy("greedy", TOY_DUEL)
    with pytest.raises(TacticaError, match=r"unknown policy 'best'"):
        resolve_policy("best", TOY_DUEL)


def test_a_game_with_a_policy_part_plays_greedy_by_default() -> None:
    assert default_policy(TOY_ROWS) == "greedy"
    assert resolve_policy(None, TOY_ROWS) == "greedy"
    assert "first-option" in policy_names(TOY_ROWS)


def test_the_report_names_the_policy_that_played() -> None:
    sc = load_scenario(example_scenarios(TOY_DUEL)[0])
    report = simulate(sc, battles=4, seed=2, workers=1)
    assert set(report.policies.values()) == {"first-option"}
    # the same battles as the first option asked for by name
    again = simulate(sc, battles=4, seed=2, workers=1, policies="first-option")
    assert again.to_dict() == report.to_dict()


def test_the_command_line_defaults_to_the_games_own_policy(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = example_scenarios(TOY_DUEL)[0]
    assert main(["simulate", str(path), "-n", "2", "-j", "1", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["policies"].values()) == {"first-option"}
    assert main(["simulate", str(path), "-n", "2", "-j", "1", "--policy", "greedy"]) == 2
    assert "no 'greedy' policy" in capsys.readouterr().err


def test_tactica_games_lists_the_policies_each_game_offers(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json"]) == 0
    found = {g["name"]: g["policies"] for g in json.loads(capsys.readouterr().out)}
    assert found["toy-duel"] == ["first-option", "random"]
    assert found["nebulia-operations"][0] == "greedy"
