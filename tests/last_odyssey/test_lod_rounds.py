"""The round: initiative and calls, phases, AP, the actions, rows, advancing, First Strike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lod_builders import Dice, act, battle, enemy, make, next_turn, of, policies, to_turn

from tactica.engine.battle import Battle
from tactica.engine.chance import Decide
from tactica.engine.errors import IllegalActionError
from tactica.engine.ruleset import ChooseAction, Finished
from tactica.rulesets.last_odyssey.records import (
    APSpent,
    Disarmed,
    EndTurn,
    Equipped,
    Fled,
    Flee,
    HoldAP,
    InitiativeRolled,
    Move,
    Moved,
    PhaseStarted,
    PickUp,
    RoundEnded,
    SwapEquipment,
    UseAbility,
    UseItem,
)
from tactica.rulesets.last_odyssey.state import stat
from tactica.rulesets.last_odyssey.targeting import legal_actions

pytestmark = pytest.mark.both_engines


def initiative_of(b: Battle) -> InitiativeRolled:
    return next(e for e in b.events() if isinstance(e, InitiativeRolled))


def test_highest_initiative_first_and_fixed_for_the_battle(tmp_path: Path) -> None:
    pack = {"enemies": {"slow": enemy(init=2), "fast": enemy(init=6), "mid": enemy(init=4)}}
    sc = make(tmp_path, {"S": {"enemy": "slow"}, "F": {"enemy": "fast"}, "M": {"enemy": "mid"}},
              {"a": "S, F", "b": "M"}, pack=pack)
    b = to_turn(battle(sc), "F")
    assert b.state.order == ("F", "M", "S")
    assert initiative_of(b).calls == ()  # no players: nobody calls, the GM rolls nothing
    b = next_turn(b, "F")
    assert b.state.round == 2 and b.state.order == ("F", "M", "S")


def test_ties_between_enemies_go_by_the_scenario_order_lod_13(tmp_path: Path) -> None:
    pack = {"enemies": {"e": enemy(init=3)}}
    sc = make(tmp_path, {"Z": {"enemy": "e"}, "Y": {"enemy": "e"}, "X": {"enemy": "e"}},
              {"a": "Z, X", "b": "Y"}, pack=pack)
    assert to_turn(battle(sc), "Z").state.order == ("Z", "Y", "X")


def party(tmp: Path, rulings: dict[str, str] | None = None) -> Battle:
    # Rook's Initiative is Mind 2 x 2 + 1 = 5; the enemy's is 5 too and is listed first.
    pack = {"enemies": {"e": enemy(init=5), "f": enemy(init=7)}}
    sc = make(tmp, {"E": {"enemy": "e"}, "F": {"enemy": "f"}, "Rook": {"character": "rook"}},
              {"them": "E, F", "party": "Rook"}, pack=pack, rulings=rulings)
    return battle(sc)


def test_lod_8_every_player_calls_1_and_wins_ties(tmp_path: Path) -> None:
    b = party(tmp_path)
    dice = Dice(gm=2)
    b.advance(dice=dice)
    ini = initiative_of(b)
    assert dice.labels == ["GM's 2d4"]
    assert ini.calls == (("Rook", 1),) and ini.roll == 2 and ini.boosted == ()
    assert ini.order == ("F", "Rook", "E")


def calls(*values: int) -> Any:
    class Calls:
        def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
            assert decision.label.startswith("initiative call")
            assert decision.options == tuple(range(1, 9))
            return values[0]

    return Calls()


@pytest.mark.parametrize(("call", "roll", "order", "boosted"), [
    (5, 5, ("Rook", "F", "E"), ("Rook",)),   # exact: 5 x 1.5 = 7.5 beats 7
    (4, 5, ("F", "Rook", "E"), ()),          # below the roll: wins the tie
    (6, 5, ("F", "E", "Rook"), ()),          # above the roll: loses the tie
    (5, 6, ("F", "Rook", "E"), ()),
])
def test_lod_8_policy_calls(tmp_path: Path, call: int, roll: int, order: tuple[str, ...],
                            boosted: tuple[str, ...]) -> None:
    b = party(tmp_path, {"LOD-8": "policy"})
    b.advance(dice=Dice(gm=roll), policies={s: calls(call) for s in b.state.sides})
    ini = initiative_of(b)
    assert ini.order == order and ini.boosted == boosted


def test_a_call_at_the_roll_loses_ties(tmp_path: Path) -> None:
    b = party(tmp_path, {"LOD-8": "policy"})
    b.advance(dice=Dice(gm=4), policies={s: calls(4) for s in b.state.sides})
    assert initiative_of(b).boosted == ("Rook",)  # exact call: boosted instead of a tie


def test_the_phases_of_the_first_two_rounds(tmp_path: Path) -> None:
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "a"}}, {"x": "A", "y": "B"},
              pack={"enemies": {"a": enemy()}})
    b = next_turn(to_turn(battle(sc), "A"), "A")
    phases = [(e.round, e.phase) if isinstance(e, PhaseStarted) else ("end", e.round)
              for e in b.events() if isinstance(e, (PhaseStarted, RoundEnded))]
    assert phases == [(1, "paradigm"), (1, "action"), (1, "effect"), (1, "paradigm"),
                      ("end", 1), (2, "action")]


@pytest.mark.parametrize(("tier", "ap"), [(1, 2), (5, 2), (6, 3), (10, 3)])
def test_ap_by_tier(tmp_path: Path, tier: int, ap: int) -> None:
    sc = make(tmp_path, {"A": {"enemy": "a", "tier": tier}, "B": {"enemy": "b"}},
              {"x": "A", "y": "B"}, pack={"enemies": {"a": enemy(init=9), "b": enemy()}})
    b = to_turn(battle(sc), "A")
    assert b.state.ap == ap


def test_most_actions_cost_1_ap_and_the_turn_ends_at_0(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9, patk=1, pacc=10), "b": enemy(hp=99)}}
    sc = make(tmp_path, {"A": {"enemy": "a", "items": ["potion"]}, "B": {"enemy": "b"}},
              {"x": "A", "y": "B"}, pack=pack)
    b = to_turn(battle(sc), "A")
    assert of(act(b, UseAbility("A", "fists", ("B",)), 5), APSpent) == [APSpent("A", 1, 1)]
    assert of(act(b, UseItem("A", "potion", "A")), APSpent) == [APSpent("A", 1, 0)]
    assert b.state.active == "B"


def test_move_costs_1_ap_and_changes_rows(tmp_path: Path) -> None:
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}}, {"x": "A", "y": "B"},
              pack={"enemies": {"a": enemy(init=9), "b": enemy()}})
    b = to_turn(battle(sc), "A")
    events = act(b, Move("A", "back"))
    assert of(events, Moved) == [Moved("A", "back")] and b.state.ap == 1
    assert b.state.rows.row_of("A") == "back"


def test_power_attack_costs_2_ap(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Rook": {"character": "rook"}, "B": {"enemy": "b"}},
              {"party": "Rook", "y": "B"}, pack={"enemies": {"b": enemy(hp=99)}})
    b = to_turn(battle(sc), "Rook")
    assert of(act(b, UseAbility("Rook", "power-attack", ("B",)), 5), APSpent) == [
        APSpent("Rook", 2, 0)]
    assert b.state.active == "B"


def test_end_turn_gives_up_the_ap_left(tmp_path: Path) -> None:
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}}, {"x": "A", "y": "B"},
              pack={"enemies": {"a": enemy(init=9), "b": enemy()}})
    b = to_turn(battle(sc), "A")
    act(b, EndTurn("A"))
    assert b.state.active == "B" and b.state.ap == 2


def test_hold_ap_gives_one_extra_1_ap_turn_after_the_chosen_character(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9), "b": enemy(init=5), "c": enemy(init=3)}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}, "C": {"enemy": "c"}},
              {"x": "A", "y": "B, C"}, pack=pack)
    b = to_turn(battle(sc), "A")
    holds = [x for x in legal_actions(b.state, "A") if isinstance(x, HoldAP)]
    assert holds == [HoldAP("A", "B"), HoldAP("A", "C")]
    act(b, HoldAP("A", "B"))
    assert b.state.ap == 1
    assert not any(isinstance(x, HoldAP) for x in legal_actions(b.state, "A"))  # once a round
    act(b, EndTurn("A"))
    act(b, EndTurn("B"))
    assert b.state.active == "A" and b.state.ap == 1 and b.state.queue[0].extra
    assert not any(isinstance(x, HoldAP) for x in legal_actions(b.state, "A"))
    act(b, EndTurn("A"))
    assert b.state.active == "C"


def test_swap_equipment_changes_the_weapon_and_its_statistics(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Vesper": {"character": "vesper"}, "B": {"enemy": "b"}},
              {"party": "Vesper", "y": "B"}, pack={"enemies": {"b": enemy()}})
    b = to_turn(battle(sc), "Vesper")
    v = b.state.fighters["Vesper"]
    dagger = (stat(b.state, v, "eva"), stat(b.state, v, "pacc"), stat(b.state, v, "patk"))
    events = act(b, SwapEquipment("Vesper", "mundane bow"))
    assert of(events, Equipped) == [Equipped("Vesper", "mundane bow")]
    v = b.state.fighters["Vesper"]
    bow = (stat(b.state, v, "eva"), stat(b.state, v, "pacc"), stat(b.state, v, "patk"))
    # dagger: balanced +2/+2 and +1 Evasion; bow: physical +3/+1 and +1 Physical Accuracy
    assert bow[0] == dagger[0] - 1 and bow[1] == dagger[1] + 1 and bow[2] == dagger[2] + 1


def test_disarm_drops_the_weapon_and_picking_it_up_costs_1_ap(tmp_path: Path) -> None:
    pack = {"enemies": {"d": enemy(init=9, patk=1, pacc=20, abilities=("pincers", "disarm"))}}
    sc = make(tmp_path, {"D": {"enemy": "d"}, "Rook": {"character": "rook"}},
              {"them": "D", "party": "Rook"}, pack=pack)
    b = to_turn(battle(sc), "D")
    events = act(b, UseAbility("D", "disarm", ("Rook",)), 3)
    assert of(events, Disarmed) == [Disarmed("Rook", "mundane sword")]
    rook = b.state.fighters["Rook"]
    assert rook.equipped is None and stat(b.state, rook, "patk") == 2  # the job's +2 only
    b = to_turn(b, "Rook")
    assert PickUp("Rook") in legal_actions(b.state, "Rook")
    act(b, PickUp("Rook"))
    assert b.state.ap == 1 and stat(b.state, b.state.fighters["Rook"], "patk") == 6


def test_flee_only_from_the_back_row_and_a_side_that_fled_loses(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9), "b": enemy()}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}}, {"x": "A", "y": "B"},
              pack=pack)
    b = to_turn(battle(sc), "A")
    assert Flee("A") not in legal_actions(b.state, "A")
    act(b, Move("A", "back"))
    assert Flee("A") in legal_actions(b.state, "A")
    assert of(act(b, Flee("A")), Fled) == [Fled("A")]
    assert isinstance(b.pending, Finished) and b.winner == "y"


def test_melee_needs_the_front_row_and_reaches_only_the_front_row(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9, mp=20, abilities=("fists", "ghost-hand")),
                        "b": enemy()}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "F": {"enemy": "b"}, "K": {"enemy": "b"}},
              {"x": "A", "y": "F / K"}, pack=pack)
    b = to_turn(battle(sc), "A")
    targets = {(x.ability, x.targets) for x in legal_actions(b.state, "A")
               if isinstance(x, UseAbility)}
    assert targets == {("fists", ("F",)), ("ghost-hand", ("F",)), ("ghost-hand", ("K",))}
    act(b, Move("A", "back"))
    assert {x.ability for x in legal_actions(b.state, "A") if isinstance(x, UseAbility)} == {
        "ghost-hand"}
    with pytest.raises(IllegalActionError):
        b.apply(UseAbility("A", "fists", ("F",)), dice=Dice(5))


@pytest.mark.parametrize("advance", [True, False])
def test_advancing_on_an_empty_front_row_is_the_other_sides_choice(tmp_path: Path,
                                                                    advance: bool) -> None:
    pack = {"enemies": {"a": enemy(init=9), "b": enemy()}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}}, {"x": "A", "y": "/ B"},
              pack=pack)
    b = to_turn(battle(sc), "A")
    act(b, EndTurn("A"))
    act(b, EndTurn("B"))
    b.advance(dice=Dice(), policies=policies(b.state, advance), rng=np.random.default_rng(0))
    assert b.state.rows.row_of("B") == ("front" if advance else "back")
    if advance:  # LOD-9: afterwards an ordinary front-row character, who may Move back
        b = to_turn(b, "B")
        assert Move("B", "back") in legal_actions(b.state, "B")


def test_first_strike_is_a_free_1_ap_turn_each_before_initiative(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=1), "b": enemy(init=9)}}
    sc = make(tmp_path, {"A1": {"enemy": "a"}, "A2": {"enemy": "a"}, "B": {"enemy": "b"}},
              {"x": "A1, A2", "y": "B"}, pack=pack, first_strike="x")
    b = battle(sc)
    b.advance(dice=Dice())
    assert b.state.phase == "first-strike"
    seen = []
    while isinstance(b.pending, ChooseAction):
        seen.append((b.state.active, b.state.ap))
        act(b, EndTurn(str(b.state.active)))
    assert seen == [("A1", 1), ("A2", 1)]
    b.advance(dice=Dice())
    assert b.state.phase == "action" and b.state.active == "B" and b.state.ap == 2


def test_downed_characters_leave_the_rows_skip_turns_and_cannot_be_targeted(
        tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9, patk=9, pacc=20), "b": enemy(init=5, hp=1),
                        "c": enemy(init=3, hp=50)}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}, "C": {"enemy": "c"}},
              {"x": "A", "y": "B, C"}, pack=pack)
    b = to_turn(battle(sc), "A")
    act(b, UseAbility("A", "fists", ("B",)), 5)
    assert b.state.fighters["B"].downed and "B" not in b.state.rows.characters
    assert all("B" not in getattr(x, "targets", ()) for x in legal_actions(b.state, "A"))
    act(b, EndTurn("A"))
    assert b.state.active == "C"


def test_the_round_limit_is_a_draw(tmp_path: Path) -> None:
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "a"}}, {"x": "A", "y": "B"},
              pack={"enemies": {"a": enemy()}}, max_rounds=2)
    b = battle(sc)
    for _ in range(50):
        if b.is_over:
            break
        if b.legal_actions():
            act(b, EndTurn(str(b.state.active)))
        else:
            b.advance(dice=Dice(), policies=policies(b.state), rng=np.random.default_rng(0))
    p = b.pending
    assert isinstance(p, Finished) and p.winner is None and b.state.round == 2
