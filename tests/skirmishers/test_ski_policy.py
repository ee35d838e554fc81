"""The computer's choices: arcs, cover, holding fire, grenades, AP; reproducible by seed."""

from __future__ import annotations

import json

import pytest
from ski_builders import EXAMPLES, ready, take, trooper

from tactica.battlefield.dots.geometry import offset_to_axial
from tactica.cli import main
from tactica.engine.chance import Decide
from tactica.engine.policies import GreedyPolicy
from tactica.rulesets.skirmishers import SKIRMISHERS
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import HOLD, holds_dot
from tactica.rulesets.skirmishers.movement import reachable
from tactica.rulesets.skirmishers.policy import choose_decision, rank_actions
from tactica.rulesets.skirmishers.state import Arc

pytestmark = pytest.mark.both_engines


def best(b) -> object:  # type: ignore[no-untyped-def]
    actions = b.legal_actions()
    values = rank_actions(b.state, actions)
    return actions[max(range(len(actions)), key=values.__getitem__)]


@pytest.mark.reference_only  # the greedy policy's choice: the reference's
def test_a_trooper_facing_an_enemy_establishes_an_arc_that_holds_it() -> None:
    """A rifleman in range of an enemy gains nothing by moving: it establishes an arc that
    holds the enemy (who draws a shot as it activates)."""
    b = ready("A . . . . . . B\n . . . . . . . .", A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    choice = best(b)
    assert isinstance(choice, r.EstablishArc)
    vertex = b.state.lattice.trooper("A").dot
    assert holds_dot(b.state, vertex, Arc(choice.width, choice.bearing, choice.toward, 1,
                                          "rifle"), b.state.lattice.trooper("B").dot)


@pytest.mark.reference_only  # the greedy policy's choice: the reference's
def test_a_trooper_in_an_enemy_arc_moves_out_of_its_sight_rather_than_across_it() -> None:
    wall = [{"between": [[2, 1], [3, 1]], "kind": "high-wall"},
            {"between": [[2, 1], [3, 0]], "kind": "high-wall"},
            {"between": [[2, 1], [2, 2]], "kind": "high-wall"},
            {"between": [[2, 1], [3, 2]], "kind": "high-wall"}]
    b = ready("A . . . . . . . B\n . . . . . . . . .\n. . . . . . . . .", features=wall,
              A=trooper("red"), B=trooper("blue", "smg", arc=150, bearing=195))
    take(b, r.Activate("A"), decisions=[HOLD])
    actions = b.legal_actions()
    values = dict(zip(actions, rank_actions(b.state, actions), strict=True))
    assert values[r.Move("A", "2,1")] > values[r.Move("A", "4,0")]


@pytest.mark.reference_only  # no step played after the set-up
def test_the_reacting_side_holds_its_fire_when_the_odds_are_poor() -> None:
    lane = "A . . . . . . . . . . . . . . . . . . . B\n . . . . . . . . . . . . . . . . . . . . ."
    walls = [{"between": [[3, 0], [4, 0]], "kind": "low-wall"},
             {"between": [[6, 0], [7, 0]], "kind": "low-wall"},
             {"between": [[9, 0], [10, 0]], "kind": "low-wall"}]
    b = ready(lane, features=walls, A=trooper("red", prone=True),
              B=trooper("blue", "pistol", arc=60, bearing=180))
    decision = Decide("blue", "reaction fire", ("B", HOLD), lambda o: None, {"target": "A"})
    assert choose_decision(b.state, decision, None) == HOLD
    near = ready("A . . B\n . . . .", A=trooper("red"),
                 B=trooper("blue", arc=60, bearing=180))
    assert choose_decision(near.state, decision, None) == "B"


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_grenadier_throws_at_a_cluster_of_enemies() -> None:
    b = ready("A . . . . B C\n . . . . . D .", A=trooper("red", active="hand-grenade"),
              B=trooper("blue"), C=trooper("blue"), D=trooper("blue"))
    take(b, r.Activate("A"))
    choice = best(b)
    assert isinstance(choice, r.Throw) and choice.at in {"5,0", "6,0", "5,1", "4,1"}


@pytest.mark.reference_only  # the greedy policy's choice: the reference's
def test_the_greedy_policy_keeps_ap_for_an_arc_when_it_moves_up() -> None:
    """An SMG 9 dots from its enemy closes to its short range, but not so far that no AP are
    left for an arc."""
    b = ready("A . . . . . . . . B\n . . . . . . . . . .", A=trooper("red", "smg"),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    choice = best(b)
    assert isinstance(choice, r.Move)
    p = b.state.lattice.locate(choice.to)
    spot = (offset_to_axial(p.col, p.row), p.level)
    left = b.state.available(b.state.troopers["A"]) - reachable(b.state, "A")[spot]
    assert left >= 2 and b.state.lattice.distance(choice.to, "B") <= 5


@pytest.mark.reference_only  # no step played after the set-up
def test_simulation_is_reproducible_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", str(EXAMPLES / "corridor-ambush.yaml"), "-n", "3", "--seed", "4",
            "-j", "1", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["battles"] == 3


@pytest.mark.reference_only  # no step played after the set-up
def test_greedy_answers_inside_a_battle_through_the_valuation_part() -> None:
    b = ready("A . . . B\n . . . . .", A=trooper("red"), B=trooper("blue", arc=60,
                                                                     bearing=180))
    policy = GreedyPolicy(SKIRMISHERS)
    decision = Decide("blue", "reaction fire", ("B", HOLD), lambda o: None, {"target": "A"})
    assert policy.choose(decision, b.state, None) == "B"
