"""Rounds: initiative (ties, criticals, more than two teams), team turns, actions spent, lost
and gained, and the end of combat."""

from __future__ import annotations

import pytest
from unh_builders import CLUB_MAP, act, advance, battle, npc, of, pc, ready, start_round, unit

from tactica.engine.battle import Battle
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.rulesets.unhex.records import (
    ActionGained,
    ActionLost,
    Attack,
    Drop,
    EndTurn,
    InitiativeWon,
    Move,
    Reaction,
    Retreat,
    RoundStarted,
    TeamOrder,
    TurnEnded,
)

pytestmark = pytest.mark.both_engines

TEAMS = {"A": pc("Entrance", level=40), "B": npc("Bar", level=40)}


def _won(events: list[object]) -> InitiativeWon:
    return of(events, InitiativeWon)[0]


def test_both_fail_the_pcs_keep_it_in_round_one_then_the_previous_holder() -> None:
    b = battle(TEAMS)
    events = advance(b, rolls=[(9, 1), (8, 1)], decisions={"pcs": [("npcs", "pcs")]})
    assert _won(events).side == "pcs" and "every roll failed" in _won(events).reason
    for side in ("npcs", "pcs"):
        act(b, EndTurn(side))
    # Round 2: the NPCs win; round 3: both fail and the NPCs keep it.
    events = advance(b, rolls=[(9, 1), (2, 1)], decisions={"npcs": [("npcs", "pcs")]})
    assert _won(events).side == "npcs"
    for side in ("npcs", "pcs"):
        act(b, EndTurn(side))
    events = advance(b, rolls=[(9, 1), (8, 1)], decisions={"npcs": [("npcs", "pcs")]})
    assert _won(events).side == "npcs"


def test_equal_successes_the_pcs_win() -> None:
    b = battle(TEAMS)
    assert _won(advance(b, rolls=[(3, 2), (3, 2)],
                        decisions={"pcs": [("pcs", "npcs")]})).side == "pcs"


def test_the_highest_success_wins_not_a_critical_one() -> None:
    b = battle(TEAMS)
    events = advance(b, rolls=[(2, 2), (3, 8)], decisions={"npcs": [("npcs", "pcs")]})
    assert _won(events).side == "npcs"
    assert of(events, ActionGained) == [ActionGained("A", "critical success on initiative")]
    assert b.state.chars["A"].actions == 2


def test_a_critical_failure_on_initiative_loses_the_action() -> None:
    b = battle(TEAMS)
    events = advance(b, rolls=[(7, 7), (3, 8)], decisions={"npcs": [("npcs", "pcs")]})
    assert of(events, ActionLost) == [ActionLost("A", False, "critical failure on initiative")]
    assert b.state.chars["A"].actions == 0


def test_each_team_rolls_with_its_highest_level_character_and_picks_among_equals() -> None:
    units = {"A": pc("Entrance", level=30), "A2": pc("Entrance", level=45),
             "A3": pc("Entrance", level=45), "B": npc("Bar", level=20)}
    b = battle(units)
    events = advance(b, rolls=[(4, 4), (1, 0)],
                     decisions={"pcs": ["A3", ("pcs", "npcs")]})
    assert [e.unit for e in events if type(e).__name__ == "InitiativeRolled"] == ["A3", "B"]
    assert b.state.chars["A3"].actions == 2  # 44: a double under 45


def test_someone_good_at_initiative_lets_the_holder_pick_who_rolls_first() -> None:
    b = battle({"A": pc("Entrance", level=40), "B": npc("Bar", level=40, good=["initiative"])})
    events = advance(b, rolls=[(3, 0), (9, 0), [1]],
                     decisions={"pcs": ["pcs", ("pcs", "npcs")], "npcs": ["tens"]})
    # The PCs (holders in round 1) roll first; the NPCs see 30 and re-roll their tens: 10.
    assert _won(events).side == "pcs"


def test_more_than_two_teams_one_multi_way_roll_and_the_winner_orders_all() -> None:
    units = {"A": pc("Entrance"), "B": npc("Bar"), "C": unit("gang", "Kitchen")}
    b = battle(units)
    events = advance(b, rolls=[(4, 0), (4, 5), (1, 0)],
                     decisions={"npcs": [("npcs", "gang", "pcs")]})
    assert _won(events).side == "npcs"
    assert of(events, TeamOrder) == [TeamOrder(("npcs", "gang", "pcs"))]


def test_more_than_two_teams_in_order_of_their_rolls_under_unh_20() -> None:
    units = {"A": pc("Entrance"), "B": npc("Bar"), "C": unit("gang", "Kitchen")}
    b = battle(units, rulings={"UNH-20": "by-roll"})
    events = advance(b, rolls=[(9, 0), (4, 5), (1, 0)])
    assert of(events, TeamOrder) == [TeamOrder(("npcs", "gang", "pcs"))]


def test_equal_successes_between_two_npc_teams_go_to_the_first_listed() -> None:
    units = {"B": npc("Bar"), "C": unit("gang", "Kitchen")}
    b = battle(units, pcs=())
    events = advance(b, rolls=[(2, 0), (2, 0)], decisions={"npcs": [("npcs", "gang")]})
    assert _won(events).side == "npcs"


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_team_turns_each_action_once_and_reacting_uses_the_action() -> None:
    units = {"A": pc("Entrance", items=["pistol"]), "A2": pc("Entrance", items=["pistol"]),
             "B": npc("Dance Floor", items=["knife"])}
    b = ready(units)
    assert isinstance(b.pending, ChooseAction) and b.pending.side == "pcs"
    act(b, Attack("A", "pistol", "B"), rolls=[(9, 8)], decisions={"npcs": [Reaction("none")]})
    assert b.state.chars["A"].actions == 0
    # with no action left A may only drop what it holds (that takes no action)
    assert [a for a in b.legal_actions() if getattr(a, "unit", None) == "A"] == [
        Drop("A", "pistol")]
    act(b, EndTurn("pcs"))  # A2 keeps its action to react on the NPCs' turn
    assert b.pending.side == "npcs"  # type: ignore[union-attr]
    events = act(b, Move("B", "Entrance"), decisions={"pcs": [Reaction("none"),
                                                              Reaction("none")]})
    assert b.state.chars["A2"].actions == 1 and of(events, TurnEnded) == []
    # The NPCs have no action left: their turn ends by itself, then a new round.
    assert isinstance(b.pending, Automatic) and "end of npcs" in b.pending.label
    advance(b)
    assert isinstance(b.pending, Automatic) and b.pending.label == "round 2"
    events = advance(b, rolls=[(1, 0), (2, 0)],
                     decisions={"pcs": ["A"], "npcs": [("pcs", "npcs")]})
    assert of(events, RoundStarted)[0].actions == (("A", 1), ("A2", 1), ("B", 1))


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_a_critical_failure_with_no_action_left_loses_next_rounds_action() -> None:
    b = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    events = act(b, Attack("A", "pistol", "B"), rolls=[(8, 8)],
                 decisions={"npcs": [Reaction("none")]})
    assert of(events, ActionLost) == [ActionLost("A", True, "critical failure on attack")]
    advance(b)  # A has no action left: the PCs' turn ends by itself
    act(b, EndTurn("npcs"))
    events = advance(b, rolls=[(9, 1), (9, 2)], decisions={"pcs": [("pcs", "npcs")]})
    assert of(events, RoundStarted)[0].actions == (("A", 0), ("B", 1))
    assert b.state.chars["A"].owed == 0


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_a_critical_failure_with_an_extra_action_loses_it_now() -> None:
    b = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")},
              actions={"A": 2})
    events = act(b, Attack("A", "pistol", "B"), rolls=[(8, 8)],
                 decisions={"npcs": [Reaction("none")]})
    assert of(events, ActionLost) == [ActionLost("A", False, "critical failure on attack")]
    assert b.state.chars["A"].actions == 0 and b.state.chars["A"].owed == 0


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_an_extra_action_from_a_critical_success_is_used_this_round_or_lost() -> None:
    b = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    act(b, Attack("A", "pistol", "B"), rolls=[(1, 1)],
        decisions={"npcs": [Reaction("none")], "pcs": ["extra-action", lambda o: True]})
    assert b.state.chars["A"].actions == 1
    act(b, EndTurn("pcs"))
    act(b, EndTurn("npcs"))
    events = advance(b, rolls=[(9, 1), (9, 2)], decisions={"pcs": [("pcs", "npcs")]})
    assert of(events, RoundStarted)[0].actions == (("A", 1), ("B", 1))


# -- the end of combat --------------------------------------------------------------------------


def ended(b: Battle) -> Pending:
    """The result, after the end-of-combat step (ammunition marked off) that comes first."""
    assert isinstance(b.pending, Automatic) and b.pending.label == "end of combat"
    advance(b)
    return b.pending


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_combat_ends_when_one_team_is_left_in_the_fight() -> None:
    b = ready({"A": pc("Entrance", items=["pistol"], level=99), "B": npc("Dance Floor")})
    act(b, Attack("A", "pistol", "B"), rolls=[(5, 9)],
        decisions={"npcs": [Reaction("none")], "pcs": [lambda o: o.location == "head"]})
    assert b.state.chars["B"].unconscious
    assert ended(b) == Finished("pcs", "the only team left in the fight: pcs")


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_surrender_and_retreat_leave_the_fight() -> None:
    b = ready({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor"),
               "C": npc("Entrance")}, exits=["Entrance"])
    act(b, Attack("A", "pistol", "B"), decisions={"npcs": [Reaction("surrender")]})
    assert b.state.chars["A"].actions == 1  # the action is not spent
    assert b.state.chars["B"].surrendered and b.state.chars["B"].level == 0
    act(b, EndTurn("pcs"))
    act(b, Retreat("C"), decisions={})
    assert ended(b) == Finished("pcs", "the only team left in the fight: pcs")


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_a_scenario_objective_ends_combat() -> None:
    b = ready({"A": pc("Kitchen"), "B": npc("Bar")},
              objectives=[{"side": "pcs", "reach": "Alley"}])
    act(b, Move("A", "Alley"), decisions={})
    assert ended(b) == Finished("pcs", "objective met by pcs: 1 in Alley")


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_the_round_limit_is_a_draw() -> None:
    b = battle({"A": pc("Entrance"), "B": npc("Alley")}, max_rounds=1)
    b = start_round(b, ("pcs", "npcs"))
    act(b, EndTurn("pcs"))
    act(b, EndTurn("npcs"))
    assert ended(b) == Finished(None, "the round limit (1) was reached")


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("zones", [CLUB_MAP])
def test_a_round_starts_with_initiative_and_nothing_else(zones: dict[str, object]) -> None:
    b = battle({"A": pc("Entrance"), "B": npc("Alley")}, zones=zones)
    assert isinstance(b.pending, Automatic) and b.pending.label == "round 1"


def _npcs_hold_after_round_one(rulings: dict[str, str] | None = None) -> Battle:
    b = battle(TEAMS, rulings=rulings)
    advance(b, rolls=[(9, 1), (2, 1)], decisions={"npcs": [("npcs", "pcs")]})
    for side in ("npcs", "pcs"):
        act(b, EndTurn(side))
    return b


def test_a_tie_of_equal_successes_stays_with_the_team_that_had_it_prior_round() -> None:
    # "If there's a tie for initiative, initiative stays with the team that had it prior
    # round": the NPCs won round 1; in round 2 both roll 32 and the NPCs keep it.
    b = _npcs_hold_after_round_one()
    won = _won(advance(b, rolls=[(3, 2), (3, 2)], decisions={"npcs": [("npcs", "pcs")]}))
    assert won.side == "npcs"
    assert "tie" in won.reason and "32" in won.reason and "prior round" in won.reason


def test_a_tie_in_round_one_goes_to_the_pcs_and_says_so() -> None:
    won = _won(advance(battle(TEAMS), rolls=[(3, 2), (3, 2)],
                       decisions={"pcs": [("pcs", "npcs")]}))
    assert won.side == "pcs" and "tie" in won.reason and "first round" in won.reason


def test_unh3_pcs_win_equal_gives_equal_successes_to_the_pcs() -> None:
    b = _npcs_hold_after_round_one({"UNH-3": "pcs-win-equal"})
    won = _won(advance(b, rolls=[(3, 2), (3, 2)], decisions={"pcs": [("pcs", "npcs")]}))
    assert won.side == "pcs" and "tie" in won.reason and "UNH-3" in won.reason


def test_a_win_names_both_rolls() -> None:
    won = _won(advance(battle(TEAMS), rolls=[(3, 2), (2, 1)],
                       decisions={"pcs": [("pcs", "npcs")]}))
    assert won.side == "pcs" and won.reason == "highest success (pcs 32 and npcs 21)"
