"""A scenario can start a fight already under way, and the odds see it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import tactica
from tactica.engine.errors import ScenarioError
from tactica.engine.scenario import Scenario, scenario_from_mapping

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def scenario_from(example: str, change: Any) -> Scenario:
    path = EXAMPLES / example
    data = yaml.safe_load(path.read_text())
    change(data)
    return scenario_from_mapping(data, source=str(path), base_dir=path.parent)


def test_a_cop_whose_body_armor_is_spent_takes_the_full_blow() -> None:
    fresh = tactica.load(EXAMPLES / "last-odyssey/cop-vs-goblin.yaml")
    spent = scenario_from("last-odyssey/cop-vs-goblin.yaml",
                          lambda d: d["units"]["Cop"].update(spent=["body-armor"]))
    cop = spent.new_state().fighters["Cop"]
    assert cop.body_armor_spent and not fresh.new_state().fighters["Cop"].body_armor_spent
    before = tactica.odds(fresh, "Goblin", "Cop")
    after = tactica.odds(spent, "Goblin", "Cop")
    # Body Armor halves the first physical blow; once spent, the Goblin's blows land in full.
    assert after.numbers["expected_damage"] > before.numbers["expected_damage"]
    assert after.numbers["p_hit"] == before.numbers["p_hit"]


def test_last_odyssey_hp_shell_statuses_track_and_ammo_carry_over() -> None:
    sc = scenario_from("last-odyssey/cop-vs-goblin.yaml", lambda d: d["units"]["Goblin"].update(
        hp=3, statuses=["poisoned"], track={"pdef": -1}))
    goblin = sc.new_state().fighters["Goblin"]
    assert goblin.hp == 3 and "poisoned" in goblin.statuses
    fresh = tactica.odds(tactica.load(EXAMPLES / "last-odyssey/cop-vs-goblin.yaml"), "Cop",
                         "Goblin")
    wounded = tactica.odds(sc, "Cop", "Goblin")
    assert wounded.numbers["p_out_of_action"] > fresh.numbers["p_out_of_action"]


def test_a_bad_mid_fight_field_is_located() -> None:
    with pytest.raises(ScenarioError) as info:
        scenario_from("last-odyssey/cop-vs-goblin.yaml", lambda d: d["units"]["Cop"].update(
            spent=["jetpack"], track={"luck": 1, "pdef": 9}))
    text = str(info.value)
    assert "units.Cop.spent: 'jetpack' is not a passive or ability of Cop" in text
    assert "units.Cop.track: unknown statistic 'luck'" in text
    assert "units.Cop.track.pdef: 9 is off the bonus track" in text


def test_an_unhex_character_already_wounded_is_easier_to_take_down() -> None:
    path = "unhex/nightclub-fight.yaml"
    fresh = tactica.load(EXAMPLES / path)
    wounded = scenario_from(path, lambda d: d["units"]["Vince"].update(
        marks={"torso": "#XX\\\\\\", "head": "X"}, level=30))
    body = wounded.new_state().chars["Vince"].body
    assert body.marks_at("torso").perm == 1 and body.marks_at("torso").x == 2
    assert body.marks_at("torso").slash == 3 and body.level == 30
    a = tactica.odds(fresh, "Rook", "Vince")
    b = tactica.odds(wounded, "Rook", "Vince")
    assert b.numbers["p_out_of_action"] > a.numbers["p_out_of_action"]


def test_unhex_marks_are_checked_against_the_boxes() -> None:
    with pytest.raises(ScenarioError, match=r"units\.Vince\.marks\.head: 6 marks, but the head "
                                            r"has 5 boxes"):
        scenario_from("unhex/nightclub-fight.yaml",
                      lambda d: d["units"]["Vince"].update(marks={"head": "XXXXXX"}))
    with pytest.raises(ScenarioError, match=r"units\.Vince\.marks\.head: 'X!' holds '!'"):
        scenario_from("unhex/nightclub-fight.yaml",
                      lambda d: d["units"]["Vince"].update(marks={"head": "X!"}))


def test_a_nebulia_operator_that_lost_defense_starts_lower() -> None:
    sc = scenario_from("nebulia/duel.yaml", lambda d: d["units"]["B"].update(defense_lost=0))
    assert tactica.odds(sc, "A", "B").numbers["p_out_of_action"] == \
        tactica.odds(tactica.load(EXAMPLES / "nebulia/duel.yaml"), "A", "B").numbers[
            "p_out_of_action"]
    data = yaml.safe_load((EXAMPLES / "nebulia/firefight.yaml").read_text())
    first = next(iter(data["units"]))
    data["units"][first]["defense_lost"] = 1
    hurt = scenario_from_mapping(data, source="firefight.yaml",
                                 base_dir=EXAMPLES / "nebulia")
    op = hurt.new_state().ops[first]
    assert op.defense == op.max_defense - 1
