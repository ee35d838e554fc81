"""The turn: IGOUGO with a random first side, activations one at a time, explosives last,
rounds, the end of the battle, and the optional morale rule (SKI-17, SKI-26, SKI-27,
SKI-32)."""

from __future__ import annotations

import pytest
from ski_builders import advance, of, ready, scenario, take, trooper

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.ruleset import Automatic, ChooseAction, Finished
from tactica.rulesets.skirmishers import SKIRMISHERS
from tactica.rulesets.skirmishers import records as r

pytestmark = pytest.mark.both_engines

ROW = """
A C . . . . B D
 . . . . . . . .
"""
UNITS = {"A": trooper("red"), "C": trooper("red"), "B": trooper("blue"),
         "D": trooper("blue")}


@pytest.mark.reference_only  # no step played after the set-up
def test_a_random_side_starts() -> None:
    sc = scenario(ROW, UNITS, first=None)
    b = Battle(sc.ruleset, sc.new_state())
    assert isinstance(b.pending, Automatic)
    events = b.advance(dice=ScriptedDice(["blue"]))
    assert of(events, r.TurnBegan)[0].side == "blue"
    assert isinstance(b.pending, ChooseAction) and b.pending.side == "blue"


def test_a_side_activates_each_of_its_troopers_once_in_the_order_it_likes() -> None:
    b = ready(ROW, **UNITS)
    assert set(b.legal_actions()) == {r.Activate("A"), r.Activate("C")}
    take(b, r.Activate("C"))
    assert b.state.active == "C"
    take(b, r.EndActivation("C"))
    assert b.legal_actions() == (r.Activate("A"),)
    take(b, r.Activate("A"))
    take(b, r.EndActivation("A"))
    events = advance(b)
    assert of(events, r.TurnBegan)[0].side == "blue"
    assert of(events, r.TurnBegan)[0].round == 1


def test_the_side_that_started_starts_every_round_then_ski_26() -> None:
    b = ready(ROW, **UNITS)
    for side in ("red", "blue"):
        for uid in ("A", "C") if side == "red" else ("B", "D"):
            take(b, r.Activate(uid))
            take(b, r.EndActivation(uid))
        events = advance(b)
    assert (events[0].round, events[0].side) == (2, "red")


def test_each_round_a_new_roll_under_the_other_reading_ski_26() -> None:
    b = ready(ROW, rulings={"SKI-26": "each-round"}, **UNITS)
    for uid in ("A", "C"):
        take(b, r.Activate(uid))
        take(b, r.EndActivation(uid))
    advance(b)
    for uid in ("B", "D"):
        take(b, r.Activate(uid))
        take(b, r.EndActivation(uid))
    events = advance(b, rolls=["blue"])
    assert (events[0].round, events[0].side) == (2, "blue")


def test_one_combat_action_per_activation_under_the_other_reading_ski_27() -> None:
    several = ready(ROW, **UNITS)
    take(several, r.Activate("A"))
    take(several, r.EstablishArc("A", 30, 15))
    assert several.state.active == "A"                       # 6 AP left: it may go on
    one = ready(ROW, rulings={"SKI-27": "one"}, **UNITS)
    take(one, r.Activate("A"))
    take(one, r.EstablishArc("A", 30, 15))
    assert one.state.active is None


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_the_battle_ends_when_one_side_alone_has_troopers_fighting() -> None:
    b = ready("A B . .\n . . . .", A=trooper("red", active="hand-grenade"),
              B=trooper("blue"))
    take(b, r.Activate("A"))
    take(b, r.Throw("A", "hand-grenade", "1,0"))
    take(b, r.EndActivation("A"))
    advance(b, rolls=[[6, 6], [1, 1], [6, 6]])                # B dead; A 1 dot away: 3X
    assert isinstance(b.pending, Finished) and b.pending.winner == "red"


def test_after_the_last_round_the_battle_is_a_draw() -> None:
    b = ready(ROW, max_rounds=1, **UNITS)
    for side in ("red", "blue"):
        for uid in ("A", "C") if side == "red" else ("B", "D"):
            take(b, r.Activate(uid))
            take(b, r.EndActivation(uid))
        if side == "red":
            advance(b)
    assert isinstance(b.pending, Finished) and b.pending.winner is None


SQUAD = """
A C E F G . . B D
 . . . . . . . . .
"""


def morale_battle(**rulings: str) -> Battle:  # type: ignore[type-arg]
    units = {k: trooper("red") for k in "ACEFG"} | {"B": trooper("blue"),
                                                    "D": trooper("blue")}
    sc = scenario(SQUAD, units, optional=["morale"], rulings=rulings,
                  squads={"red": {"skill": "regular", "leader": "A", "leadership": 2}})
    state = sc.new_state()
    for uid in "CEF" + ("G" if rulings.get("SKI-32") != "out" else ""):
        SKIRMISHERS.apply_event(state, r.OutOfAction(uid, True))
    if rulings.get("SKI-32") == "out":
        SKIRMISHERS.apply_event(state, r.OutOfAction("G", False))
    return Battle(sc.ruleset, state)


@pytest.mark.reference_only  # no step played after the set-up
def test_morale_is_checked_once_4_troopers_of_a_squad_are_dead_ski_17() -> None:
    """Regular squad: 7, less the living leader's leadership 2: target number 5."""
    b = morale_battle()
    events = b.advance(dice=ScriptedDice([[2, 2]]))
    (check,) = of(events, r.MoraleChecked)
    assert (check.dead, check.tn, check.passed) == (4, 5, False)
    assert "red" in b.state.shaken
    take(b, r.Activate("A"))
    assert not [a for a in b.legal_actions() if isinstance(a, r.EstablishArc | r.Throw)]


@pytest.mark.reference_only  # no step played after the set-up
def test_a_failed_check_makes_the_squad_retreat_under_the_other_reading_ski_17() -> None:
    b = morale_battle(**{"SKI-17": "retreat"})
    b.advance(dice=ScriptedDice([[1, 1]]))
    assert isinstance(b.pending, Finished) and b.pending.winner == "blue"
    assert [u.survived for u in SKIRMISHERS.units(b.state) if u.id == "A"] == [True]


@pytest.mark.reference_only  # no step played after the set-up
def test_troopers_out_of_action_count_as_dead_under_the_other_reading_ski_32() -> None:
    b = morale_battle(**{"SKI-32": "out"})
    events = b.advance(dice=ScriptedDice([[6, 6]]))
    assert of(events, r.MoraleChecked)[0].passed
