"""Moving without a map (ARC-33): the seed lets a character move; without a grid a move
changes the metres between two characters by the actions chapter's distances, so range
matters in a map-less fight too."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from arc_builders import RIFLE, ROOT, duel, example, gunner, of_type, started
from test_arc_play import Terminal

from tactica.analysis.simulate import simulate
from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.scenario import load_scenario, scenario_from_mapping
from tactica.play import PlaySession
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.movement import reposition_metres
from tactica.rulesets.arc.policy import rank_actions
from tactica.rulesets.arc.records import APSpent, Attack, Reposition, Repositioned

pytestmark = pytest.mark.both_engines

PISTOL = {**RIFLE, "name": "pistol", "range": 10}
KNIFE = {"name": "knife", "damage": "1d6", "type": "melee", "spread": 5, "rof": 1,
         "melee": True}


def apart(metres: int, a: dict[str, Any] | None = None, **extra: Any) -> Any:
    sc = duel(a or gunner("red", weapons=[PISTOL], speed=7), gunner("blue", guns=12),
              ranges=[{"between": ["Foo", "Bar"], "metres": metres}], **extra)
    return started(sc, [1, 20])                       # Foo first


def metres(battle: Battle[Any]) -> Fraction:
    return battle.state.ranges[frozenset(("Foo", "Bar"))]


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize(("mode", "ap", "covered"), [
    ("walk", 2, Fraction(1524, 1000)), ("walk", 4, Fraction(3048, 1000)),
    ("slow", 3, Fraction(1524, 1000)), ("run", 2, Fraction(3048, 1000)),
    ("sprint", 2, Fraction(6096, 1000)), ("sprint", 4, Fraction(12192, 1000))])
def test_a_move_covers_the_actions_chapters_distance_per_ap(mode: str, ap: int,
                                                             covered: Fraction) -> None:
    """Walk a 5-foot square per 2 AP, slow one per 3, run 10 feet per 2, sprint 20 per 2."""
    assert reposition_metres(mode, ap) == covered


def test_out_of_range_a_character_moves_closer_and_then_can_shoot() -> None:
    battle = apart(20)                                # the pistol reaches 10 m
    assert not any(isinstance(a, Attack) for a in battle.legal_actions())
    battle.apply(Reposition("Foo", "Bar", "sprint", 2), dice=ScriptedDice([]))
    assert of_type(battle.events(), APSpent)[-1].ap == 2
    assert metres(battle) == 20 - Fraction(6096, 1000)               # 13.9 m
    battle.apply(Reposition("Foo", "Bar", "run", 2), dice=ScriptedDice([]))
    assert metres(battle) == 20 - Fraction(9144, 1000)               # 10.9 m: still out
    assert not any(isinstance(a, Attack) for a in battle.legal_actions())
    battle.apply(Reposition("Foo", "Bar", "walk", 2), dice=ScriptedDice([]))
    assert metres(battle) < 10
    assert Attack("Foo", "Bar", "pistol") in battle.legal_actions()


def test_moving_away_takes_a_character_out_of_the_others_range() -> None:
    battle = apart(9)
    battle.apply(Reposition("Foo", "Bar", "sprint", 2, True), dice=ScriptedDice([]))
    assert metres(battle) == 9 + Fraction(6096, 1000)
    assert of_type(battle.events(), Repositioned)[-1].metres == str(metres(battle))


def test_a_knife_needs_the_two_metres_of_melee_reach_and_no_step_goes_past_the_other() -> None:
    knifer = gunner("red", weapons=[KNIFE], attributes={"AGI": 4, "DEX": 4})
    battle = apart(5, knifer)
    toward = [a for a in battle.legal_actions()
              if isinstance(a, Reposition) and not a.away and a.mode == "sprint"]
    assert [a.ap for a in toward] == [2]              # 6.1 m already reaches Bar
    battle.apply(Reposition("Foo", "Bar", "walk", 2), dice=ScriptedDice([]))
    assert not any(isinstance(a, Attack) for a in battle.legal_actions())   # 3.5 m
    battle.apply(Reposition("Foo", "Bar", "walk", 2), dice=ScriptedDice([]))   # 1.95 m
    assert Attack("Foo", "Bar", "knife") in battle.legal_actions()


@pytest.mark.reference_only  # no step played after the set-up
def test_without_a_given_distance_there_is_nothing_to_move_against() -> None:
    battle = started(duel(), [1, 20])
    assert not any(isinstance(a, Reposition) for a in battle.legal_actions())


@pytest.mark.reference_only  # no step played after the set-up
def test_the_computer_closes_in_when_its_gun_does_not_reach_and_shoots_when_it_does() -> None:
    battle = apart(20)
    actions = battle.legal_actions()
    best = actions[max(range(len(actions)), key=rank_actions(battle.state, actions).__getitem__)]
    assert isinstance(best, Reposition) and not best.away and best.other == "Bar"
    battle = apart(8)
    actions = battle.legal_actions()
    best = actions[max(range(len(actions)), key=rank_actions(battle.state, actions).__getitem__)]
    assert isinstance(best, Attack)


@pytest.mark.reference_only  # no step played after the set-up
def test_at_the_table_a_move_without_a_map_is_typed_as_play_describes_it(
        tmp_path: Path) -> None:
    scenario = tmp_path / "apart.yaml"
    scenario.write_text(
        "game: arc\n"
        "ranges: [{between: [Foo, Bar], metres: 20}]\n"
        "units:\n"
        "  Foo: {side: red, skills: {guns: 16, evade: 12}, health: 18, speed: 5,\n"
        "        weapons: [{name: pistol, damage: 2d6, spread: 2, rof: 1, range: 10}]}\n"
        "  Bar: {side: blue, skills: {guns: 12, evade: 12}, health: 18, speed: 5,\n"
        "        weapons: [{name: pistol, damage: 2d6, spread: 2, rof: 1, range: 10}]}\n",
        encoding="utf-8")
    t = Terminal(["1", "20", "Foo moves 6.1 m toward Bar (sprint, 2 AP): 20.0 m to 13.9 m",
                  "quit"])
    PlaySession.start(load_scenario(scenario), tmp_path / "f.jsonl", t, seed=1,
                      computer={"blue": "greedy"}, ask_dice=True, durable=False).run()
    said = "\n".join(t.said)
    assert "Foo and Bar are 13.9 m apart." in said


@pytest.mark.reference_only  # no step played after the set-up
def test_a_seeded_battle_of_two_pistols_20_m_apart_is_fought_to_the_end() -> None:
    sc = duel(gunner("red", weapons=[PISTOL]), gunner("blue", weapons=[PISTOL]),
              ranges=[{"between": ["Foo", "Bar"], "metres": 20}], max_rounds=20)
    result = simulate(sc, battles=8, seed=1, workers=1).to_dict()
    assert result["draws"] < 8                        # they close in and shoot
    assert ARC.meta.name == "arc"


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("policies", ["random", "greedy"])
def test_battles_with_moves_and_a_slow_medic_run_to_the_end(policies: str) -> None:
    medic = {"side": "red", "character": "sam"}                  # speed 6, two medkits
    data = {"game": "arc", "max_rounds": 15,
            "ranges": [{"between": ["Foo", "Bar"], "metres": 20},
                       {"between": ["Sam", "Bar"], "metres": 15}],
            "units": {"Foo": gunner("red", weapons=[PISTOL]), "Sam": medic,
                      "Bar": gunner("blue", weapons=[PISTOL, KNIFE],
                                    attributes={"AGI": 3, "DEX": 4})}}
    sc = scenario_from_mapping(data, source=str(ROOT / "test.yaml"), base_dir=ROOT)
    result = simulate(sc, battles=6, seed=4, policies=policies, workers=1).to_dict()
    assert sum(result["wins"].values()) + result["draws"] == 6


@pytest.mark.reference_only  # no step played after the set-up
def test_random_battles_on_the_grid_with_declared_suppression_run_to_the_end() -> None:
    result = simulate(example("warehouse.yaml"), battles=6, seed=4, policies="random",
                      workers=1).to_dict()
    assert sum(result["wins"].values()) + result["draws"] == 6
