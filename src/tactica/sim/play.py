"""One battle of a simulation, and a chunk of battles under every variant.

Battle ``i`` of a run seeded with ``s`` rolls its dice from ``default_rng([s, i, 0])`` and gives
its policies ``default_rng([s, i, 1])``: the two streams are kept apart, so that two variants of
a scenario (a ruling's two readings) play battle ``i`` with the same dice in the same order for
as long as their battles ask for the same rolls, whatever the policies draw to break ties
(common random numbers).

A simulated battle keeps no log (``Battle(record=False)``): it is the very battle that
:func:`logged_battle` plays and logs, with the same dice and decisions in the same order (a
test checks it event by event). A battle that has not ended after ``max_steps`` steps (a
scenario with ``max_rounds: 1000000`` where nobody can hurt anybody) is stopped and counted as
*unfinished*: the work of a battle is bounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from tactica.battle import Battle, Entry, SampledDice
from tactica.events import Event
from tactica.policies import make_policy
from tactica.scenario import Scenario
from tactica.sim.tally import BattleResult, PairedTally, Tally
from tactica.stats import battle_stats

__all__ = [
    "DEFAULT_MAX_STEPS",
    "battle_generators",
    "logged_battle",
    "play_battle",
    "play_chunk",
]

#: Steps after which a simulated battle is stopped unfinished (a step is one action or one
#: automatic step; the examples' battles take 20 to 500).
DEFAULT_MAX_STEPS = 20_000


def battle_generators(seed: int, index: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The dice generator and the policies' generator of battle ``index`` of seed ``seed``."""
    return np.random.default_rng([seed, index, 0]), np.random.default_rng([seed, index, 1])


def _run(battle: Battle[Any], scenario: Scenario, policies: Mapping[str, str], seed: int,
         index: int, max_steps: int) -> bool:
    dice_rng, policy_rng = battle_generators(seed, index)
    chosen = {side: make_policy(name, scenario.ruleset) for side, name in policies.items()}
    dice = SampledDice(dice_rng)
    for _ in range(max_steps):
        if battle.is_over:
            return True
        battle.step(chosen, dice=dice, rng=policy_rng)
    return battle.is_over


def play_battle(scenario: Scenario, policies: Mapping[str, str], seed: int, index: int, *,
                max_steps: int = DEFAULT_MAX_STEPS) -> BattleResult:
    """Play battle number ``index`` of a run seeded with ``seed`` to the end (or until
    ``max_steps`` steps), keeping only its result."""
    events: list[Entry] = []  # rule events only: nothing else is recorded
    battle = Battle(scenario.ruleset, scenario.new_state(), record=False,
                    listeners=[events.append])
    finished = _run(battle, scenario, policies, seed, index, max_steps)
    stats = battle_stats(scenario.ruleset, battle.state, cast(list[Event], events))
    return BattleResult(battle.winner if finished else None, stats.rounds, stats.units,
                        battle.steps, finished)


def logged_battle(scenario: Scenario, policies: Mapping[str, str], seed: int, index: int, *,
                  max_steps: int = DEFAULT_MAX_STEPS) -> Battle[Any]:
    """The same battle as :func:`play_battle`, with its whole log (for tests and replays)."""
    battle = Battle(scenario.ruleset, scenario.new_state())
    _run(battle, scenario, policies, seed, index, max_steps)
    return battle


def play_chunk(scenarios: Sequence[Scenario], policies: Mapping[str, str], seed: int,
               start: int, stop: int, *, max_steps: int = DEFAULT_MAX_STEPS
               ) -> tuple[list[Tally], PairedTally | None]:
    """Battles ``start`` .. ``stop - 1`` under every scenario (variant), tallied."""
    sides = scenarios[0].ruleset.sides_of(scenarios[0].new_state())
    tallies = [Tally(sides) for _ in scenarios]
    paired = PairedTally((*sides, "draw"), len(scenarios)) if len(scenarios) > 1 else None
    for i in range(start, stop):
        results = [play_battle(sc, policies, seed, i, max_steps=max_steps) for sc in scenarios]
        for tally, r in zip(tallies, results, strict=True):
            tally.add(r)
        if paired is not None:
            paired.add(results)
    return tallies, paired
