"""Arc's kernel replays a scripted battle from its start (Kernel.run_scripted) and the per-rule
tests' checked battles compare it with the reference after each step
(tactica.testing.both.ReplayMirror)."""

from __future__ import annotations

from typing import Any

import pytest
from arc_builders import duel, started

from tactica.engine.battle import ScriptedDice
from tactica.engine.errors import ScriptError
from tactica.rulesets.arc import kernel
from tactica.rulesets.arc.records import Attack
from tactica.testing import kernels as kt
from tactica.testing.both import CheckedBattle, RecordingDice, ReplayMirror, using_engine


class _NoEvade:
    def choose(self, decision: object, state: object, rng: object) -> object:
        return False


@pytest.fixture(autouse=True)
def _built() -> None:
    kt.built_kernel(kernel)


def _fired() -> CheckedBattle:
    """Foo wins the initiative (19 against 20) and fires a rifle burst at Bar: a check of 8,
    six damage dice of 6."""
    with using_engine("kernel"):
        battle = started(duel(), [19, 20])
        battle.apply(Attack("Foo", "Bar", "rifle"), dice=ScriptedDice([8, [6, 6, 6, 6, 6, 6]]),
                     policies={"blue": _NoEvade()})
    assert isinstance(battle, CheckedBattle) and not battle.refused
    return battle


def test_every_step_of_a_scripted_attack_is_replayed_and_agrees() -> None:
    battle = _fired()
    assert battle.checked == 1 and battle.setup_steps == 3  # two initiatives, a turn
    assert battle.is_over and battle.winner == "red"


def test_a_replay_that_does_not_follow_the_reference_is_caught() -> None:
    battle = _fired()
    mirror = battle.mirror
    assert isinstance(mirror, ReplayMirror)
    mirror.outcomes[-1] = 0  # the smallest damage instead of six 6s
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        mirror.check(battle, RecordingDice(None), [])  # type: ignore[arg-type]


def test_a_script_the_kernel_cannot_follow_fails_loudly() -> None:
    battle = _fired()
    mirror = battle.mirror
    assert isinstance(mirror, ReplayMirror)
    prepared: Any = kernel.prepare(mirror.scenario)
    with pytest.raises(ScriptError, match="no scripted outcome left"):
        prepared.engine.run_scripted(mirror.choices, mirror.outcomes[:-1], battle.steps)
    with pytest.raises(ScriptError, match="scripted outcome number 9999"):
        prepared.engine.run_scripted(mirror.choices, [*mirror.outcomes[:-1], 9999],
                                     battle.steps)
