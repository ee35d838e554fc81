"""The chance to win from here, at the table: each side's chance of winning the fight from its
current position (:mod:`tactica.analysis.chances`), the sides the computer plays by its
policy and the others by the game's default policy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactica.analysis.chances import CHANCE_BATTLES, CHANCE_MAX_STATES, Chances, chances_from
from tactica.engine.battle import Battle
from tactica.engine.policies import default_policy
from tactica.engine.scenario import Scenario

__all__ = ["chances_of", "policies_at_table"]


def policies_at_table(scenario: Scenario, battle: Battle[Any],
                      computer: Mapping[str, str]) -> dict[str, str]:
    """The policy each side is taken to play by: the computer's own, else the game's
    default."""
    ruleset = battle.ruleset
    return {side: computer.get(side) or default_policy(ruleset)
            for side in ruleset.sides_of(battle.state)}


def chances_of(scenario: Scenario, battle: Battle[Any], computer: Mapping[str, str], *,
               max_states: int = CHANCE_MAX_STATES, battles: int = CHANCE_BATTLES,
               seed: int = 0) -> Chances:
    """Each side's chance of winning from the battle's current state (exact within
    ``max_states`` states, else estimated from ``battles`` seeded fights)."""
    policies = policies_at_table(scenario, battle, computer)
    return chances_from(battle.ruleset, battle.state, policies,
                        max_rounds=scenario.max_rounds, max_states=max_states,
                        battles=battles, seed=seed)
