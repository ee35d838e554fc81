"""The fast paths of the greedy policy give the plain answers: hit tables from each hit's
wound worked out once, and action values with estimates, weapons, foes and arrangements
remembered, compared on the states of real battles."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from unh_builders import NIGHTCLUB_FIGHT

from tactica.analysis.sim.play import battle_dice
from tactica.dice import Dist
from tactica.engine.battle import Battle
from tactica.engine.policies import make_policy
from tactica.engine.ruleset import ChooseAction
from tactica.engine.scenario import Scenario, load_scenario
from tactica.rulesets.unhex import policy as unhex_policy
from tactica.rulesets.unhex.body import LOCATIONS, Body, DamageRules, wound
from tactica.rulesets.unhex.legal import _arrangements, arrangements
from tactica.rulesets.unhex.values import _choice, _options, _wound, harm, hit_table


def _choices(scenario: Scenario, battles: int) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = {side: make_policy("greedy", scenario.ruleset) for side in sides}
    for i in range(battles):
        battle = Battle(scenario.ruleset, scenario.new_state(), record=False)
        dice = battle_dice(3, i, battle)
        rng = np.random.default_rng(i)
        while not battle.is_over and battle.steps < 300:
            p = battle.pending
            if isinstance(p, ChooseAction):
                yield battle.state, p.actions
            battle.step(policies, dice=dice, rng=rng)


def _plain_hit_table(body: Body, rules: DamageRules, rule: str, by_attacker: bool
                     ) -> tuple[tuple[float, ...], tuple[float, ...], tuple[int, ...]]:
    """The hit table as first written: every number's reading chosen with ``_choice``."""
    harms, kos = [0.0] * 101, [0.0] * 101
    for n in range(1, 101):
        options = _options(n)
        choice = _choice(body, rules, options, rule, by_attacker)
        picks = list(options) if isinstance(choice, Dist) else [choice]
        for a in picks:
            w = _wound(body, a.location, a.damage, rules)
            harms[n] += harm(w, body) / len(picks)
            kos[n] += w.knocked_out / len(picks)
    best = [1] * 101
    for n in range(2, 101):
        best[n] = n if harms[n] >= harms[best[n - 1]] else best[n - 1]
    return tuple(harms), tuple(kos), tuple(best)


@pytest.mark.parametrize("rules", [DamageRules(), DamageRules(version="later", mark="x"),
                                   DamageRules(excess="lost", full_torso="lost")])
def test_hit_tables_are_the_plain_ones(rules: DamageRules) -> None:
    rnd = np.random.default_rng(5)
    bodies = [Body.fresh(50, boxes=rules.boxes)]
    for _ in range(12):
        b = bodies[-1]
        bodies.append(wound(b, LOCATIONS[int(rnd.integers(6))], int(rnd.integers(1, 5)),
                            rules).body)
    for body in bodies:
        for rule in ("worst", "max-damage", "random"):
            for by_attacker in (True, False):
                t = hit_table(body, rules, rule, by_attacker)
                assert (t.harm, t.knockout, t.best) == _plain_hit_table(body, rules, rule,
                                                                         by_attacker)


class _Forgetful(dict[Any, Any]):
    """A memo that keeps nothing: every value is worked out the plain way."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def test_action_values_and_arrangements_are_the_plain_ones() -> None:
    scenario = load_scenario(NIGHTCLUB_FIGHT)
    seen = 0
    for state, actions in _choices(scenario, 2):
        fast = unhex_policy.rank_actions(state, actions)
        plain = [unhex_policy._one(state, a, _Forgetful()) for a in actions]
        fleeing = [unhex_policy._fleeing(state, a) for a in actions]
        for f, p, flee, a in zip(fast, plain, fleeing, actions, strict=True):
            if flee is None and type(a).__name__ != "Operate":
                assert f == p, a
        for c in state.chars.values():
            assert arrangements(state, c) == _arrangements(state, c,
                                                           state.floor.get(c.area, ()))
        seen += 1
    assert seen > 20
