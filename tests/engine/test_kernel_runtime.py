"""The runtime every compiled kernel shares (engine/kernel_runtime.pxi): a battle asked of a
kernel while it plays another is played on a fresh copy of its tables, and neither battle
changes; ``play_consulted`` answers the same through the same guard."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import load_scenario
from tactica.rulesets.last_odyssey import kernel as lod_kernel
from tactica.rulesets.unhex import kernel as unh_kernel
from tactica.testing import kernels as kt


class _AskingTrace(list[Any]):
    """A kernel's trace whose first entry, written mid-battle, asks for another battle."""

    def __init__(self, ask: Callable[[], Any]) -> None:
        super().__init__()
        self.ask = ask
        self.asked = False
        self.answer: Any = None

    def append(self, item: Any) -> None:
        if not self.asked:
            self.asked = True
            self.answer = self.ask()
        super().append(item)


def _prepared(game: str, example: str) -> Any:
    paths = {p.stem: p for p in example_scenarios(get_ruleset(game))}
    sc = load_scenario(paths[example])
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered), prepared
    sides = sc.ruleset.sides_of(sc.new_state())
    return prepared, dict.fromkeys(sides, "greedy")


@pytest.mark.parametrize("consulted", [False, True])
def test_a_battle_asked_mid_battle_plays_on_a_copy(consulted: bool) -> None:
    kt.built_kernel(lod_kernel)
    prepared, policies = _prepared("last-odyssey", "cop-vs-goblin")
    play = prepared.play_consulted if consulted else prepared.play
    trace = _AskingTrace(lambda: play(policies, 5, 1, kt.MAX_STEPS))
    prepared.engine.set_trace(trace)   # the copy keeps the trace (Kernel._copy)
    try:
        outer = play(policies, 5, 0, kt.MAX_STEPS)
    finally:
        prepared.engine.set_trace(None)
    assert trace.asked
    assert outer == play(policies, 5, 0, kt.MAX_STEPS)
    assert trace.answer == play(policies, 5, 1, kt.MAX_STEPS)


def test_a_consulting_battle_asked_mid_battle_plays_on_a_copy() -> None:
    kt.built_kernel(unh_kernel)
    prepared, policies = _prepared("unhex", "back-room")
    trace = _AskingTrace(lambda: prepared.play_consulted(policies, 3, 2, kt.MAX_STEPS))
    prepared.engine.trace = trace
    try:
        outer = prepared.play_consulted(policies, 3, 0, kt.MAX_STEPS)
    finally:
        prepared.engine.trace = None
    assert trace.asked
    assert outer == prepared.play_consulted(policies, 3, 0, kt.MAX_STEPS)
    assert trace.answer == prepared.play_consulted(policies, 3, 2, kt.MAX_STEPS)
    assert trace.answer != outer


def test_a_seed_beyond_the_generators_entropy_is_refused_not_a_crash() -> None:
    """The compiled ``play`` called with a seed wider than 64 bits (prepare's wrapper answers
    it NotCovered first) raises the kernel's error; it once crashed the process."""
    kt.built_kernel(lod_kernel)
    program = (
        "from tactica.analysis.sim.kernels import prepared_kernel\n"
        "from tactica.engine.ruleset import example_scenarios, get_ruleset\n"
        "from tactica.engine.scenario import load_scenario\n"
        "paths = {p.stem: p for p in example_scenarios(get_ruleset('last-odyssey'))}\n"
        "engine = prepared_kernel(load_scenario(paths['cop-vs-goblin'])).engine\n"
        "try:\n"
        "    engine.play((0, 0), b'1|0|', 2 ** 400, 0, 100)\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "refused: seed or index beyond 64 bits"
