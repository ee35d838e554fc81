"""Arc's kernel checks the buffer a battle fills as it goes (the distinct keyed rolls, read
from ``_kernel.LIMITS``) before every write: with exactly the rolls a battle needs the kernel
plays the reference's battle, with one fewer the reference plays it, naming the number."""

from __future__ import annotations

import dataclasses
from typing import Any

from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import load_scenario
from tactica.rulesets.arc import kernel
from tactica.rulesets.arc.kernel import ArcKernel
from tactica.testing import kernels as kt

FIREFIGHT = {p.stem: p for p in example_scenarios(get_ruleset("arc"))}["firefight"]


def _plays(prepared: ArcKernel, most: int, policies: dict[str, str], index: int) -> Any:
    prepared.engine.hold("rolls", most)
    try:
        return prepared.play(policies, 1, index, 20_000)
    finally:
        prepared.engine.hold("rolls", kt.built_kernel(kernel).LIMITS["rolls"])


def test_the_rolls_of_a_battle_are_checked_before_they_are_written() -> None:
    limit = kt.built_kernel(kernel).LIMITS["rolls"]
    sc = load_scenario(FIREFIGHT)
    prepared = kernel.prepare(sc)
    assert isinstance(prepared, ArcKernel)
    for policies in ({"red": "greedy", "blue": "greedy"}, {"red": "random", "blue": "random"}):
        want = kt.assert_same_battle(sc, prepared, policies, 1, 0, consulted=False)
        low, high = 0, limit
        while low < high:
            middle = (low + high) // 2
            if isinstance(_plays(prepared, middle, policies, 0), NotCovered):
                low = middle + 1
            else:
                high = middle
        assert 0 < low < limit
        assert _plays(prepared, low, policies, 0) == dataclasses.replace(
            want, consulted=frozenset())
        found = _plays(prepared, low - 1, policies, 0)
        assert isinstance(found, NotCovered)
        assert found.reason == f"more than {low - 1} distinct rolls in one battle"
