"""The kernel started from a given state with scripted dice and choices (run_scripted), and the
checked battles that play every step of a per-rule test on both engines (tactica.testing.both).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from neb_builders import attack_ready, battle_of, op, scenario, start_round

from tactica.engine.battle import ScriptedDice
from tactica.engine.errors import ScriptError
from tactica.engine.ruleset import NotCovered
from tactica.rulesets.nebulia.kernel import NebuliaMirror
from tactica.rulesets.nebulia.records import Attack, EndActivation, Move
from tactica.testing import kernels as kt
from tactica.testing.both import CheckedBattle, using_engine

OPEN = "A....B"


@pytest.fixture(autouse=True)
def _built() -> None:
    from tactica.rulesets.nebulia import kernel

    kt.built_kernel(kernel)


def _ready(**units: Any) -> Any:
    with using_engine("reference"):
        return attack_ready(OPEN, **units)


def test_a_kernel_started_from_a_state_plays_a_scripted_attack() -> None:
    battle = _ready(A=op("red", dice=3, damage=2), B=op("blue", defense=5))
    result = NebuliaMirror().run(battle.state, Attack("A", "rifle", "B"), [3, 1])
    assert not isinstance(result, NotCovered)
    # 3 hits, 1 save: 2 unsaved hits of 2 damage take B from 5 to 1.
    assert [r[4] for r in result["rolls"]] == [3, 1]
    assert result["ops"][1][:3] == (5, 1, False)
    assert result["ops"][0][4] == 4  # A dealt 4
    assert result["pending"] == "move" and result["who"] == 1  # blue activates next


def test_the_kernel_starts_from_the_state_not_the_scenario() -> None:
    battle = _ready(A=op("red"), B=op("blue", defense=5))
    battle.state.ops["B"].defense = 1  # changed after the set-up
    result = NebuliaMirror().run(battle.state, Attack("A", "rifle", "B"), [1, 0])
    assert not isinstance(result, NotCovered)
    assert result["pending"] == "finished" and result["who"] == 0  # red won
    assert result["ops"][1][1:3] == (0, True)


@pytest.mark.parametrize(("outcomes", "says"), [
    ([7], "scripted outcome 7 for roll unit 'A'|to hit|0 is not one it can give (0, 1)"),
    ([], "no scripted outcome left for roll unit 'A'|to hit|0"),
    ([0, 1], "scripted outcomes left over after the run: [1]"),
])
def test_scripted_kernel_dice_fail_loudly(outcomes: list[int], says: str) -> None:
    battle = _ready(A=op("red"), B=op("blue"))
    with pytest.raises(ScriptError) as failed:
        NebuliaMirror().run(battle.state, Attack("A", "rifle", "B"), outcomes)
    assert says in str(failed.value)


def test_a_choice_the_kernel_does_not_offer_fails_loudly() -> None:
    battle = _ready(A=op("red"), B=op("blue"))
    # B is blue's operator and A is active: moving B is not an option now.
    with pytest.raises(ScriptError, match="is not one the kernel offers"):
        NebuliaMirror().run(battle.state, Move("B", (4, 0)), [])


def test_the_kernel_offers_the_reference_legal_actions() -> None:
    battle = _ready(A=op("red"), B=op("blue"))
    assert NebuliaMirror().offered(battle.state) == [Attack("A", "rifle", "B"),
                                                     EndActivation("A")]


class _Tampered(NebuliaMirror):
    """Starts the kernel from a state with B's armor changed: not the reference's state."""

    def run(self, before: Any, action: Any | None, outcomes: list[Any]) -> Any:
        changed = copy.deepcopy(before)
        changed.ops["B"].armor = 9
        return super().run(changed, action, outcomes)


def test_a_checked_battle_catches_a_kernel_that_differs() -> None:
    sc = scenario(OPEN, {"A": op("red"), "B": op("blue", defense=5)})
    battle = CheckedBattle(sc.ruleset, sc.new_state(), _Tampered())
    start_round(battle)
    battle.apply(Move("A", (0, 0)), dice=ScriptedDice([]))
    assert battle.checked == 2
    with pytest.raises(AssertionError, match="the kernel rolls"):
        battle.apply(Attack("A", "rifle", "B"), dice=ScriptedDice([[1], [5]]))


def test_a_checked_battle_leaves_to_the_reference_what_the_kernel_does_not_cover() -> None:
    wide = "\n".join(["A" + "." * 39] + ["." * 40] * 28 + ["." * 39 + "B"])  # 1,200 tiles
    sc = scenario(wide, {"A": op("red"), "B": op("blue")})
    with using_engine("kernel") as battles:
        battle = battle_of(sc)
        start_round(battle)
    assert battles == [battle] and battle.checked == 0
    assert battle.refused == ["a map beyond 1024 tiles"]
