"""The grid option (ARC-15): the actions chapter's movement on 5-foot squares (walk, slow, run,
sprint, diagonals, rough terrain; ARC-28), sight from the tile grid (ARC-29), range in metres,
overwatch and suppress (ARC-30)."""

from __future__ import annotations

from typing import Any

import pytest
from arc_builders import RIFLE, gunner, make, of_type, started

from tactica.engine.battle import Battle, ScriptedDice
from tactica.rulesets.arc import ARC
from tactica.rulesets.arc.actions import legal_actions
from tactica.rulesets.arc.movement import mode_cost, move_options, path_to, reaches, sees
from tactica.rulesets.arc.records import (
    APSpent,
    Attack,
    Attacked,
    EndTurn,
    Move,
    Stepped,
    Watch,
    WatchUsed,
)

pytestmark = pytest.mark.both_engines


def on_grid(tiles: str, units: dict[str, dict[str, Any]], **extra: Any) -> Any:
    return make(units, map={"kind": "grid", "tiles": tiles}, **extra)


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize(("mode", "squares", "ap"), [
    ("walk", 1, 2), ("walk", 3, 6), ("slow", 2, 6), ("run", 1, 2), ("run", 2, 2),
    ("run", 3, 4), ("sprint", 4, 2), ("sprint", 5, 4)])
def test_movement_modes_cost_ap_by_the_square(mode: str, squares: int, ap: int) -> None:
    assert mode_cost(mode, squares) == ap


@pytest.mark.reference_only  # no step played after the set-up
def test_diagonal_steps_and_rough_squares_cost_1_ap_more() -> None:
    sc = on_grid("A....\n.....\n....B", {"A": gunner("red"), "B": gunner("blue")},
                 rough=["1,0"])
    state = sc.new_state()
    a = state.fighters["A"]
    a.ap = 6
    path, cost = path_to(state, a, (1, 1), "walk")
    assert path == ((1, 1),) and cost == 3                         # one diagonal: 2 + 1
    path, cost = path_to(state, a, (2, 0), "walk")
    assert cost == 5 and path[-1] == (2, 0)                        # via a diagonal or rough
    path, cost = path_to(state, a, (2, 0), "sprint")
    assert cost == 2 and len(path) == 4               # around the rough square: 4 squares
    options = move_options(state, a)
    assert options["walk"][(1, 0)] == 3                           # rough: 2 + 1
    assert (3, 0) not in options["walk"]                            # 6 AP + the rough square
    assert options["run"][(3, 0)] == 5
    assert max(options["sprint"].values()) <= 6


def test_a_move_pays_its_ap_and_enters_each_square() -> None:
    sc = on_grid("A....\n.....\n....B", {"A": gunner("red"), "B": gunner("blue")})
    battle = started(sc, [19, 20])
    battle.apply(Move("A", "3,0", "run"), dice=ScriptedDice([]))
    events = battle.events()
    assert of_type(events, APSpent)[-1].ap == 4
    assert [e.to for e in of_type(events, Stepped)] == ["1,0", "2,0", "3,0"]
    assert battle.state.grid is not None and battle.state.grid.occupants["A"] == (3, 0)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_wall_blocks_sight_and_so_the_attack() -> None:
    tiles = "A.#.B\n..#..\n..#.C"
    sc = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue"), "C": gunner("blue")})
    state = sc.new_state()
    assert not sees(state, "A", "B")
    state.fighters["A"].ap = 5
    assert not any(isinstance(a, Attack) for a in legal_actions(state, "A"))


@pytest.mark.reference_only  # no step played after the set-up
def test_two_lines_of_arc_29_see_less_than_one() -> None:
    tiles = "A....\n...#.\n....B"
    one = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue")}).new_state()
    two = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue")},
                  rulings={"ARC-29": "two-lines"}).new_state()
    assert sees(one, "A", "B") and not sees(two, "A", "B")


@pytest.mark.reference_only  # no step played after the set-up
def test_range_in_metres_from_the_squares_and_melee_next_door() -> None:
    units = {"A": gunner("red", weapons=["pistol-concealable", "knife"],
                        attributes={"DEX": 5}),
             "B": gunner("blue"), "C": gunner("blue")}
    state = on_grid("A.....B\n.C.....", units).new_state()
    a, b, c = (state.fighters[k] for k in "ABC")
    pistol, knife = a.profile.weapons
    assert reaches(state, a, b, pistol)                  # 6 squares: 9.1 m of 10
    state2 = on_grid("A......B\n.C......", units).new_state()
    assert not reaches(state2, state2.fighters["A"], state2.fighters["B"], pistol)  # 10.7 m
    assert reaches(state, a, c, knife) and not reaches(state, a, b, knife)


@pytest.mark.reference_only  # no step played after the set-up
def test_without_a_map_the_scenarios_ranges_decide_what_reaches() -> None:
    units = {"A": gunner("red", weapons=["pistol-concealable", "knife"],
                        attributes={"DEX": 5}),
             "B": gunner("blue"), "C": gunner("blue")}
    state = make(units, ranges=[{"between": ["A", "B"], "metres": 12}]).new_state()
    a, b, c = (state.fighters[k] for k in "ABC")
    pistol, knife = a.profile.weapons
    assert not reaches(state, a, b, pistol) and reaches(state, a, c, pistol)
    assert not reaches(state, a, b, knife) and reaches(state, a, c, knife)


def test_overwatch_fires_when_a_mover_comes_into_sight() -> None:
    tiles = "A#...\n.#...\n....B"
    sc = on_grid(tiles, {"A": gunner("red", weapons=[{**RIFLE, "accuracy": [-1, 1]}]),
                         "B": gunner("blue")})
    battle = started(sc, [19, 20])                  # A first
    assert not sees(battle.state, "A", "B")
    battle.apply(Watch("A", "overwatch", 3, 2), dice=ScriptedDice([]))
    assert battle.state.active == "B"
    assert battle.state.fighters["A"].watch == ("overwatch", 3, 2)
    # B walks left along the bottom row: at 3,2 A does not see it yet; at 2,2 it does.
    battle.apply(Move("B", "1,2", "run"), dice=ScriptedDice([19]),
                 policies={"blue": _No()})
    events = battle.events()
    fired = of_type(events, Attacked)
    assert len(fired) == 1 and fired[0].reaction == "overwatch" and fired[0].aim == 2
    assert fired[0].target_number == 17
    assert of_type(events, WatchUsed)[0].left == 0
    assert battle.state.fighters["A"].watch is None
    assert battle.state.grid is not None and battle.state.grid.occupants["B"] == (1, 2)


def test_arc_32_suppress_rolls_once_when_declared_and_its_attacks_are_unopposed() -> None:
    """The actions chapter: one attack roll at declaration; the attacks it triggers use it
    and cannot be evaded (the default)."""
    tiles = "A....\n.....\n....B"
    sc = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue")})
    battle = started(sc, [19, 20])
    battle.apply(Watch("A", "suppress", 2), dice=ScriptedDice([9]))        # +2º at 16º4
    assert battle.state.fighters["A"].preset is not None
    battle.apply(Move("B", "1,2", "sprint"), dice=ScriptedDice([[1, 1, 1, 1, 1, 1]] * 2),
                 policies={"blue": _Evade()})
    fired = of_type(battle.events(), Attacked)
    assert [(e.reaction, e.degree, e.hits, e.evade) for e in fired] == \
        [("suppress", 2, 2, None)] * 2
    assert battle.state.fighters["B"].health == 18 - 12
    assert battle.state.fighters["A"].watch is None


def test_arc_32_a_failed_suppression_roll_ends_the_action() -> None:
    tiles = "A....\n.....\n....B"
    sc = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue")})
    battle = started(sc, [19, 20])
    battle.apply(Watch("A", "suppress", 2), dice=ScriptedDice([18]))
    assert battle.state.fighters["A"].watch is None
    assert battle.state.fighters["A"].ap == 3 and battle.state.active == "B"


def test_arc_32_each_shot_suppress_fires_once_a_square_while_its_ap_last() -> None:
    tiles = "A....\n.....\n....B"
    sc = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue")},
                 rulings={"ARC-32": "each-shot"})
    battle = started(sc, [19, 20])
    battle.apply(Watch("A", "suppress", 2), dice=ScriptedDice([]))
    battle.apply(Move("B", "1,2", "sprint"), dice=ScriptedDice([18, 18]),
                 policies={"blue": _No()})
    fired = of_type(battle.events(), Attacked)
    assert [e.reaction for e in fired] == ["suppress", "suppress"]
    assert [e.aim for e in fired] == [0, 0]
    assert battle.state.fighters["A"].watch is None


def test_a_watch_lasts_until_the_watchers_next_turn() -> None:
    tiles = "A....\n.....\n....B"
    sc = on_grid(tiles, {"A": gunner("red"), "B": gunner("blue")})
    battle = started(sc, [19, 20])
    battle.apply(Watch("A", "overwatch", 1), dice=ScriptedDice([]))
    battle.apply(EndTurn("B"), dice=ScriptedDice([]))
    battle.advance(dice=ScriptedDice([]))           # end of round 1
    battle.advance(dice=ScriptedDice([]))           # round 2: A's turn again
    assert battle.state.active == "A" and battle.state.fighters["A"].watch is None


@pytest.mark.reference_only  # no step played after the set-up
def test_on_a_grid_only_adjacent_allies_can_be_treated() -> None:
    medic = {"side": "red", "character": "sam"}
    sc = on_grid("S.F..\n.....\n....B", {"S": medic, "F": gunner("red"), "B": gunner("blue")})
    battle = started(sc, [18, 19, 20])
    from tactica.rulesets.arc.records import UseItem, Wounded
    ARC.apply_event(battle.state, Wounded("F", 5, "B", 13, (6,), (6,)))
    battle = Battle(ARC, battle.state)
    assert not any(isinstance(a, UseItem) and a.target == "F" for a in battle.legal_actions())
    battle.apply(Move("S", "1,0", "walk"), dice=ScriptedDice([]))
    assert any(isinstance(a, UseItem) and a.target == "F" for a in battle.legal_actions())


class _No:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return False


class _Evade:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return True
