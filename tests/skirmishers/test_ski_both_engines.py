"""The kernel replays a scripted battle from its start (Kernel.run_scripted): every choice and
every roll's outcome given, and the per-rule tests' checked battles compare it with the
reference after each step (tactica.testing.both.ReplayMirror)."""

from __future__ import annotations

from typing import Any

import pytest
from ski_builders import of, ready, take, trooper

from tactica.engine.errors import ScriptError
from tactica.rulesets.skirmishers import kernel
from tactica.rulesets.skirmishers import records as r
from tactica.testing import kernels as kt
from tactica.testing.both import CheckedBattle, RecordingDice, ReplayMirror, using_engine

LANE = """
A . . . B . . .
 . . . . . . . .
. . . . . . . .
"""


@pytest.fixture(autouse=True)
def _built() -> None:
    kt.built_kernel(kernel)


def _shot(hit: bool) -> CheckedBattle:
    """B activates in A's arc and draws A's shot: 2D6 [6, 6] hits (start cell [3, 4]),
    [1, 1] misses."""
    with using_engine("kernel"):
        b = ready(LANE, A=trooper("red", arc=30, bearing=0), B=trooper("blue"), first="blue")
    assert isinstance(b, CheckedBattle)
    rolls = [[6, 6], [3, 4]] if hit else [[1, 1]]
    (shot,) = of(take(b, r.Activate("B"), rolls=rolls, decisions=["A"]), r.ShotFired)
    assert shot.hit is hit
    return b


def test_a_scripted_shot_is_replayed_and_agrees() -> None:
    hit = _shot(True)
    assert hit.checked == 1 and hit.setup_steps >= 1 and not hit.refused
    assert _shot(False).checked == 1


def test_the_replay_plays_the_given_outcomes() -> None:
    b = _shot(True)
    mirror = b.mirror
    assert isinstance(mirror, ReplayMirror)
    prepared: Any = kernel.prepare(mirror.scenario)
    out, rolls = prepared.engine.run_scripted(mirror.choices, mirror.outcomes, b.steps)
    assert len(rolls) == len(mirror.outcomes) >= 1
    hit = prepared._result(out).units["B"]
    # The same shot missing (the to-hit roll's other outcome): no start cell is rolled.
    out, rolls = prepared.engine.run_scripted(mirror.choices, [1], b.steps)
    missed = prepared._result(out).units["B"]
    assert [roll[4] for roll in rolls] == [1]
    assert hit.damage_taken > 0 and missed.damage_taken == 0
    with pytest.raises(ScriptError, match=r"scripted outcome number 7 for roll .* one of its 2"):
        prepared.engine.run_scripted(mirror.choices, [7], b.steps)


def test_a_replay_that_does_not_follow_the_reference_is_caught() -> None:
    b = _shot(True)
    mirror = b.mirror
    assert isinstance(mirror, ReplayMirror)
    mirror.outcomes[-1] = 0  # as if the start cell had been a 2
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        mirror.check(b, RecordingDice(None), [])  # type: ignore[arg-type]


@pytest.mark.parametrize(("choices", "outcomes", "says"), [
    ([(0, 5)], [], "scripted choice 1 is option 0 of 5, the kernel offers 2 options"),
    ([(0, 2), (0, 67)], [], "scripted choices left over"),  # two steps asked, one taken
    ([(0, 2)], [99], "scripted outcomes left over"),
])
def test_a_script_the_kernel_cannot_follow_fails_loudly(choices: list[tuple[int, int]],
                                                        outcomes: list[int], says: str) -> None:
    with using_engine("kernel"):
        b = ready(LANE.replace("A . .", "A C ."), A=trooper("red"), B=trooper("blue"),
                  C=trooper("red"))
    assert isinstance(b, CheckedBattle) and isinstance(b.mirror, ReplayMirror)
    prepared: Any = kernel.prepare(b.mirror.scenario)
    with pytest.raises(ScriptError, match=says):
        prepared.engine.run_scripted(choices, outcomes, b.steps + 1)
