"""Unhex's kernel replays a scripted battle from its start (Kernel.run_scripted) and the
per-rule tests' checked battles compare it with the reference after each step
(tactica.testing.both.ReplayMirror)."""

from __future__ import annotations

from typing import Any

import pytest
from unh_builders import advance, battle, npc, pc

from tactica.engine.errors import ScriptError
from tactica.rulesets.unhex import kernel
from tactica.testing import kernels as kt
from tactica.testing.both import CheckedBattle, RecordingDice, ReplayMirror, using_engine

TEAMS = {"A": pc("Entrance", level=40), "B": npc("Bar", level=40)}


@pytest.fixture(autouse=True)
def _built() -> None:
    kt.built_kernel(kernel)


def _initiative() -> CheckedBattle:
    """Round 1's initiative: 32 and 23, both successes at 40; the pcs win and order."""
    with using_engine("kernel"):
        b = battle(TEAMS)
        advance(b, rolls=[(3, 2), (2, 3)], decisions={"pcs": [("pcs", "npcs")]})
    assert isinstance(b, CheckedBattle) and not b.refused
    return b


def test_a_scripted_initiative_is_replayed_and_agrees() -> None:
    b = _initiative()
    assert b.checked == b.steps == 1
    assert b.state.order == ("pcs", "npcs")


def test_a_replay_that_does_not_follow_the_reference_is_caught() -> None:
    b = _initiative()
    mirror = b.mirror
    assert isinstance(mirror, ReplayMirror)
    mirror.outcomes[0] = 99  # the pcs' roll a critical failure: they lose
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        mirror.check(b, RecordingDice(None), [])  # type: ignore[arg-type]


def test_a_script_the_kernel_cannot_follow_fails_loudly() -> None:
    b = _initiative()
    mirror = b.mirror
    assert isinstance(mirror, ReplayMirror)
    prepared: Any = kernel.prepare(mirror.scenario)
    with pytest.raises(ScriptError, match="no scripted outcome left"):
        prepared.engine.run_scripted(mirror.choices, mirror.outcomes[:1], b.steps)
    with pytest.raises(ScriptError, match="scripted outcome number 100"):
        prepared.engine.run_scripted(mirror.choices, [100, *mirror.outcomes[1:]], b.steps)
