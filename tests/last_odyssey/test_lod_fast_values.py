"""The greedy policy's target values remembered across rankings (by what they read of the user
and the target) give the plain answers, on the states of real battles of every example."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tactica.analysis.sim.play import battle_dice
from tactica.engine.battle import Battle
from tactica.engine.policies import make_policy
from tactica.engine.ruleset import ChooseAction
from tactica.engine.scenario import Scenario, load_scenario
from tactica.rulesets.last_odyssey import policy as lod_policy
from tactica.rulesets.last_odyssey.records import UseAbility
from tactica.rulesets.last_odyssey.targeting import reachable

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "tactica" / "rulesets" \
    / "last_odyssey" / "examples"


def _choices(scenario: Scenario, battles: int) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = {side: make_policy("greedy", scenario.ruleset) for side in sides}
    for i in range(battles):
        battle = Battle(scenario.ruleset, scenario.new_state(), record=False)
        dice = battle_dice(5, i, battle)
        rng = np.random.default_rng(i)
        while not battle.is_over and battle.steps < 300:
            p = battle.pending
            if isinstance(p, ChooseAction):
                yield battle.state, p.actions
            battle.step(policies, dice=dice, rng=rng)


@pytest.mark.parametrize("name", ["goblins.yaml", "police.yaml", "cop-vs-goblin.yaml"])
def test_values_are_the_plain_ones(name: str) -> None:
    scenario = load_scenario(EXAMPLES / name)
    checked = 0
    for state, actions in _choices(scenario, 3):
        fast = lod_policy.rank_actions(state, actions)
        plain = [lod_policy._value(state, a, {}, None) for a in actions]  # type: ignore[arg-type]
        assert fast == plain
        for a in actions:
            if isinstance(a, UseAbility) and len(a.targets) == 1:
                f = state.fighters[a.unit]
                ability = state.ability(a.ability)
                assert [t.id for t in reachable(state, f, ability)] == [
                    t.id for t in reachable(state, f, ability, standing=[
                        g for g in state.fighters.values() if g.standing])]
        checked += 1
    assert checked > 10
