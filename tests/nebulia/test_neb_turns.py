"""Turn structure (tactica's own default, NEB-9) and who starts a round (NEB-11).

NEB-9 ``alternate``: rounds in which sides alternate activating one ready operator; a side with
no ready operator passes. ``igougo``: a side activates all its operators, then the next side.
An activation is a move (possibly staying), then one attack or ending the activation.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from neb_builders import battle_of, op, scenario

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.chance import Roll, run_exact
from tactica.engine.errors import IllegalActionError
from tactica.engine.ruleset import Automatic, ChooseAction, Finished
from tactica.rulesets.nebulia.records import Attack, EndActivation, Move, RoundStarted

pytestmark = pytest.mark.both_engines

# Walls keep everybody out of sight: activations end without attacks.
TILES = """
A.#.1
B.#..
C.#..
"""


def make(rulings: dict[str, str] | None = None, **extra: Any) -> Battle:
    units = {"A": op("red", move=0), "B": op("red", move=0), "C": op("red", move=0),
             "1": op("blue", move=0)}
    return battle_of(scenario(TILES, units, rulings=rulings, **extra))


def activate_next(battle: Battle) -> str:
    """Activate the first ready operator of the side to choose and end its activation."""
    pending = battle.pending
    assert isinstance(pending, ChooseAction)
    first = pending.actions[0]
    assert isinstance(first, Move)
    battle.apply(first, dice=ScriptedDice([]))
    battle.apply(EndActivation(first.unit), dice=ScriptedDice([]))
    return first.unit


def play_round(battle: Battle, *rolls: Any) -> tuple[RoundStarted, list[str]]:
    assert isinstance(battle.pending, Automatic)
    events = battle.advance(dice=ScriptedDice(rolls))
    started = events[0]
    assert isinstance(started, RoundStarted)
    order = []
    while isinstance(battle.pending, ChooseAction):
        order.append(activate_next(battle))
    return started, order


def test_a_round_starts_by_itself_and_readies_every_operator() -> None:
    battle = make()
    pending = battle.pending
    assert isinstance(pending, Automatic) and pending.label == "round 1"
    assert battle.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="round 1 comes first"):
        battle.apply(Move("A", (0, 0)), dice=ScriptedDice([]))
    assert battle.advance(dice=ScriptedDice([])) == [RoundStarted(1, "red")]
    assert battle.state.ready == {"A", "B", "C", "1"}


def test_alternate_sides_take_turns_and_the_side_with_fewer_operators_passes() -> None:
    battle = make()
    _, order = play_round(battle)
    assert order == ["A", "1", "B", "C"]
    assert isinstance(battle.pending, Automatic)  # round 2 next


def test_an_activated_operator_is_not_ready_again_this_round() -> None:
    battle = make()
    battle.advance(dice=ScriptedDice([]))
    battle.apply(Move("A", (0, 0)), dice=ScriptedDice([]))
    # While A is active, only its attacks or the end of its activation may be chosen.
    legal = battle.legal_actions()
    assert {a.unit for a in legal} == {"A"} and legal[-1] == EndActivation("A")
    assert all(isinstance(a, (Attack, EndActivation)) for a in legal)
    battle.apply(EndActivation("A"), dice=ScriptedDice([]))
    assert "A" not in battle.state.ready
    battle.apply(Move("1", (4, 0)), dice=ScriptedDice([]))
    battle.apply(EndActivation("1"), dice=ScriptedDice([]))
    red = battle.legal_actions()
    assert {a.unit for a in red} == {"B", "C"}


def test_neb9_igougo_a_side_activates_all_its_operators_first() -> None:
    battle = make({"NEB-9": "igougo"})
    _, order = play_round(battle)
    assert order == ["A", "B", "C", "1"]
    _, order = play_round(battle)
    assert order == ["1", "A", "B", "C"]  # NEB-11 alternate: blue starts round 2


def test_neb11_alternate_the_first_side_changes_each_round() -> None:
    battle = make()
    firsts = [play_round(battle)[0].first for _ in range(3)]
    assert firsts == ["red", "blue", "red"]
    _, order = play_round(battle)
    assert order == ["1", "A", "B", "C"]


def test_neb11_fixed_the_first_side_starts_every_round() -> None:
    battle = make({"NEB-11": "fixed"})
    assert [play_round(battle)[0].first for _ in range(3)] == ["red"] * 3


def test_the_scenario_may_name_the_first_side() -> None:
    battle = make(first="blue")
    started, order = play_round(battle)
    assert started.first == "blue" and order == ["1", "A", "B", "C"]


def test_neb11_random_the_first_side_is_rolled() -> None:
    battle = make({"NEB-11": "random"})
    pending = battle.pending
    assert isinstance(pending, Automatic)
    step = pending.process
    assert isinstance(step, Roll) and step.label == "first side"
    assert run_exact(step, events=True).map(lambda ve: ve[1][0].first).to_dict() == {
        "red": Fraction(1, 2), "blue": Fraction(1, 2)}
    started, order = play_round(battle, "blue")
    assert started == RoundStarted(1, "blue") and order[0] == "1"


def test_the_round_limit_ends_the_battle_in_a_draw() -> None:
    battle = make(max_rounds=2)
    play_round(battle)
    play_round(battle)
    pending = battle.pending
    assert isinstance(pending, Finished)
    assert pending.winner is None and pending.reason == "the round limit (2) was reached"
    assert battle.is_over and battle.winner is None
