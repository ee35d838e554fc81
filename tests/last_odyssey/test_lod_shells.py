"""Shells: temporary HP with an element, damage first, the target's element, shellbreak, caps."""

from __future__ import annotations

from pathlib import Path

import pytest
from lod_builders import act, battle, enemy, make, of, to_turn

from tactica import odds_of
from tactica.engine.battle import Battle
from tactica.rulesets.last_odyssey.records import (
    AttackResolved,
    Damaged,
    Downed,
    Moved,
    ShellGained,
    UseAbility,
)

pytestmark = pytest.mark.both_engines


def duel(tmp: Path, attacker: dict, target: dict, rulings: dict | None = None) -> Battle:
    pack = {"enemies": {"a": attacker, "t": target}}
    sc = make(tmp, {"A": {"enemy": "a"}, "T": {"enemy": "t"}}, {"left": "A", "right": "T"},
              pack=pack, rulings=rulings)
    return to_turn(battle(sc), "A")


ATTACKER = enemy(init=5, patk=4, matk=4, pacc=10, macc=10, mp=40,
                 abilities=("fists", "firebomb", "ghost-hand"))


def test_damage_goes_to_the_shell_first(tmp_path: Path) -> None:
    b = duel(tmp_path, ATTACKER, enemy(hp=10, shell=9))
    events = act(b, UseAbility("A", "fists", ("T",)), 2)  # base 6, x1 against a Shell
    assert of(events, Damaged) == [Damaged("T", "A", 6, 0, 3, 10, False)]
    assert b.state.fighters["T"].shells == (("colorless", 3),)


def test_shellbreak_rest_less_than_hp_does_nothing_more(tmp_path: Path) -> None:
    b = duel(tmp_path, ATTACKER, enemy(hp=12, shell=5))
    events = act(b, UseAbility("A", "ghost-hand", ("T",)), 4)  # base 8, x2 vs Shell: 16
    assert of(events, Damaged) == [Damaged("T", "A", 5, 0, 0, 12, True)]  # rest 11 <= 12
    assert not of(events, Downed)


def test_shellbreak_downs_when_the_rest_exceeds_hp(tmp_path: Path) -> None:
    b = duel(tmp_path, ATTACKER, enemy(hp=10, shell=5))
    events = act(b, UseAbility("A", "ghost-hand", ("T",)), 5)  # base 9 x2 = 18: rest 13 > 10
    assert of(events, Damaged) == [Damaged("T", "A", 5, 10, 0, 0, True)]
    assert of(events, Downed) == [Downed("T", False, "A")]


def test_shellbreak_rest_equal_to_hp_takes_no_hp(tmp_path: Path) -> None:
    b = duel(tmp_path, ATTACKER, enemy(hp=11, shell=5))
    events = act(b, UseAbility("A", "ghost-hand", ("T",)), 4)  # 16 - 5 = 11, not more than 11
    assert of(events, Damaged) == [Damaged("T", "A", 5, 0, 0, 11, True)]
    assert not of(events, Downed)
    # Without a Shell now: the next physical hit doubles.
    hit = of(act(b, UseAbility("A", "fists", ("T",)), 1), AttackResolved)[0]
    assert hit.multiplier == "2"


def test_the_shell_gives_its_element_while_up(tmp_path: Path) -> None:
    # A wood Shell on a water character: fire against wood is x0.5 (against water it is x0.5
    # too), so use thunder: against wood x2, against water x4.
    attacker = enemy(init=5, patk=2, pacc=10, mp=40, abilities=("cattle-prod",))
    b = duel(tmp_path, attacker, enemy(element="water", hp=50, shell=0),
             rulings=None)
    bare = of(act(b, UseAbility("A", "cattle-prod", ("T",)), 1), AttackResolved)[0]
    assert bare.multiplier == "8"  # thunder vs water x4, physical without a Shell x2
    (tmp_path / "s").mkdir()
    sc = make(tmp_path / "s", {"A": {"enemy": "a"}, "T": {"enemy": "t", "shells": {"wood": 20}}},
              {"left": "A", "right": "T"},
              pack={"enemies": {"a": attacker, "t": enemy(element="water", hp=50)}})
    b2 = to_turn(battle(sc), "A")
    shelled = of(act(b2, UseAbility("A", "cattle-prod", ("T",)), 1), AttackResolved)[0]
    assert shelled.multiplier == "2"  # thunder vs the wood Shell x2, physical vs Shell x1


@pytest.mark.reference_only  # the kernel refuses: the state was changed outside the battle's steps
def test_an_enemys_shell_never_exceeds_its_starting_shell(tmp_path: Path) -> None:
    pack = {"enemies": {
        "a": enemy(init=5, mp=40, abilities=("barrier",)),
        "b": enemy(shell=6),
        "t": enemy(init=1),
    }}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "B": {"enemy": "b"}, "T": {"enemy": "t"}},
              {"left": "A, B", "right": "T"}, pack=pack)
    b = to_turn(battle(sc), "A")
    b.state.fighters["B"].shells = (("colorless", 1),)
    gained = of(act(b, UseAbility("A", "barrier", ("B",), "colorless")), ShellGained)
    assert gained == [ShellGained("B", "colorless", 5, 6)]  # 1 + 8 capped at 6


def test_a_pcs_shell_never_exceeds_base_health(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Moss": {"character": "moss"}, "Rook": {"character": "rook"},
                         "T": {"enemy": "t"}},
              {"party": "Rook / Moss", "them": "T"}, pack={"enemies": {"t": enemy()}})
    b = to_turn(battle(sc), "Moss")
    rook = b.state.fighters["Rook"]
    assert rook.max_hp == 25 and rook.shell == 10
    act(b, UseAbility("Moss", "barrier", ("Rook",), "colorless"))
    act(b, UseAbility("Moss", "barrier", ("Rook",), "colorless"))
    assert b.state.fighters["Rook"].shell == 25  # 10 + 8 + 8 = 26, capped at base Health


def test_one_shell_per_element_the_newest_on_top(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Moss": {"character": "moss"}, "T": {"enemy": "t"}},
              {"party": "Moss", "them": "T"}, pack={"enemies": {"t": enemy()}})
    b = to_turn(battle(sc), "Moss")
    act(b, UseAbility("Moss", "barrier", ("Moss",), "water"))
    moss = b.state.fighters["Moss"]
    assert moss.shells == (("colorless", 8), ("water", 8))
    act(b, UseAbility("Moss", "barrier", ("Moss",), "colorless"))
    moss = b.state.fighters["Moss"]
    assert moss.shells == (("water", 8), ("colorless", 16))  # refilled, back on top


def test_lod_10_single_shell_replaces(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Moss": {"character": "moss"}, "T": {"enemy": "t"}},
              {"party": "Moss", "them": "T"}, pack={"enemies": {"t": enemy()}},
              rulings={"LOD-10": "single"})
    b = to_turn(battle(sc), "Moss")
    act(b, UseAbility("Moss", "barrier", ("Moss",), "water"))
    assert b.state.fighters["Moss"].shells == (("water", 8),)


def test_when_the_top_shell_breaks_the_next_is_up(tmp_path: Path) -> None:
    pack = {"enemies": {"a": ATTACKER, "t": enemy(hp=10)}}
    sc = make(tmp_path, {"A": {"enemy": "a"},
                         "T": {"enemy": "t", "shells": {"water": 4, "fire": 3}}},
              {"left": "A", "right": "T"}, pack=pack)
    b = to_turn(battle(sc), "A")
    t = b.state.fighters["T"]
    assert t.shells == (("water", 4), ("fire", 3)) and t.shell == 3
    act(b, UseAbility("A", "fists", ("T",)), 1)  # base 5 against the fire Shell of 3
    assert b.state.fighters["T"].shells == (("water", 4),)
    assert b.state.fighters["T"].hp == 10


@pytest.mark.parametrize(("shell", "retreats"), [(5, True), (20, False)])
def test_tactical_retreat_when_shellbroken(tmp_path: Path, shell: int, retreats: bool) -> None:
    pack = {"enemies": {"a": enemy(init=9, patk=4, pacc=10, abilities=("fists",)),
                        "g": enemy(shell=shell, hp=99,
                                   abilities=("knife", "tactical-retreat"))}}
    sc = make(tmp_path, {"A": {"enemy": "a"}, "G": {"enemy": "g"}},
              {"left": "A", "right": "G"}, pack=pack)
    b = to_turn(battle(sc), "A")
    events = act(b, UseAbility("A", "fists", ("G",)), 3)  # 7 damage
    assert (b.state.fighters["G"].shell == 0) is retreats
    assert (of(events, Moved) == [Moved("G", "back", True)]) is retreats
    assert b.state.rows.row_of("G") == ("back" if retreats else "front")


def test_a_broken_shell_is_not_reported_as_shell_0_while_another_lies_beneath(
        tmp_path: Path) -> None:
    pack = {"enemies": {"a": ATTACKER, "t": enemy(hp=10)}}
    sc = make(tmp_path, {"A": {"enemy": "a"},
                         "T": {"enemy": "t", "shells": {"water": 4, "fire": 3}}},
              {"left": "A", "right": "T"}, pack=pack)
    b = to_turn(battle(sc), "A")
    report = odds_of(sc.ruleset, b.state, "A", "T", "fists")
    # Every hit breaks the fire Shell of 3; the water Shell of 4 is still there.
    assert min(report.distributions["shell_left"].outcomes) == 4
    assert any("Shells of 4 more lie beneath" in r for r in report.reasons)
    events = act(b, UseAbility("A", "fists", ("T",)), 1)
    damaged = of(events, Damaged)[0]
    words = sc.ruleset.describe_event(b.state, damaged)
    assert "Shell 0" not in words and "the Shell breaks" in words
