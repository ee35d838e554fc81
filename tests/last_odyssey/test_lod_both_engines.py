"""The kernel replays a scripted battle from its start (Kernel.run_scripted) and the per-rule
tests' checked battles compare it with the reference after each step
(tactica.testing.both.ReplayMirror)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lod_builders import act, battle, enemy, make, to_turn

from tactica.engine.errors import ScriptError
from tactica.rulesets.last_odyssey import kernel
from tactica.rulesets.last_odyssey.records import UseAbility
from tactica.testing import kernels as kt
from tactica.testing.both import CheckedBattle, RecordingDice, ReplayMirror, using_engine

ATTACKER = enemy(init=5, patk=4, matk=4, pacc=10, macc=10, mp=40, abilities=("fists",))


@pytest.fixture(autouse=True)
def _built() -> None:
    kt.built_kernel(kernel)


def _punched(tmp: Path, hit: int) -> CheckedBattle:
    """A punches T (hp 10, shell 9) with the hit die showing ``hit``."""
    pack = {"enemies": {"a": ATTACKER, "t": enemy(hp=10, shell=9)}}
    sc = make(tmp, {"A": {"enemy": "a"}, "T": {"enemy": "t"}}, {"left": "A", "right": "T"},
              pack=pack)
    with using_engine("kernel"):
        b = to_turn(battle(sc), "A")
        act(b, UseAbility("A", "fists", ("T",)), hit)
    assert isinstance(b, CheckedBattle) and not b.refused
    return b


def test_every_step_of_a_scripted_punch_is_replayed_and_agrees(tmp_path: Path) -> None:
    b = _punched(tmp_path, 2)
    assert b.checked == b.steps >= 2
    assert b.state.fighters["T"].shells == (("colorless", 3),)


def test_a_replay_that_does_not_follow_the_reference_is_caught(tmp_path: Path) -> None:
    b = _punched(tmp_path, 2)
    mirror = b.mirror
    assert isinstance(mirror, ReplayMirror)
    prepared: Any = kernel.prepare(mirror.scenario)
    _out, rolls = prepared.engine.run_scripted(mirror.choices, mirror.outcomes, b.steps)
    assert len(rolls) == len(mirror.outcomes)
    # The hit die's last face: a miss, or another damage, not the reference's
    mirror.outcomes[-1] = len(rolls[-1][2]) - 1 if mirror.outcomes[-1] != len(
        rolls[-1][2]) - 1 else 0
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        mirror.check(b, RecordingDice(None), [])  # type: ignore[arg-type]


def test_a_script_the_kernel_cannot_follow_fails_loudly(tmp_path: Path) -> None:
    b = _punched(tmp_path, 2)
    mirror = b.mirror
    assert isinstance(mirror, ReplayMirror)
    prepared: Any = kernel.prepare(mirror.scenario)
    with pytest.raises(ScriptError, match="scripted outcome number 999"):
        prepared.engine.run_scripted(mirror.choices, [*mirror.outcomes[:-1], 999], b.steps)
    with pytest.raises(ScriptError, match="no scripted outcome left"):
        prepared.engine.run_scripted(mirror.choices, mirror.outcomes[:-1], b.steps)
