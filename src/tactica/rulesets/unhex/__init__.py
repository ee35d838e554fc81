"""Unhex: zone maps, percentile dice rolled under your level, act or react, hit locations.

Source: the Unhex combat chapter (the seed) and the Unhex rulebook (dice, characters, the first
filled-in damage, hit location and first aid sections). Items and profiles are tactica's
illustrative content. Every ambiguity is a ruling (UNH-1 .. UNH-21, see
``docs/rulesets/unhex.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield
from tactica.battlefield.zones import ZoneGraph
from tactica.chance import Decide, Step
from tactica.errors import ScenarioError
from tactica.odds import OddsReport
from tactica.ruleset import Pending, RulesetMeta, Rulings, register
from tactica.rulesets.unhex import content, legal, policy, rules, text
from tactica.rulesets.unhex.body import Body
from tactica.rulesets.unhex.records import Attack, Attacked, Wounded
from tactica.rulesets.unhex.rulings import RULINGS, sight_options
from tactica.rulesets.unhex.state import (
    Character,
    UnhexState,
    apply_event,
    copy_state,
    damage_rules,
    view_for,
)
from tactica.scenario import Scenario

__all__ = ["RULINGS", "UNHEX", "Unhex"]


class Unhex:
    """The Unhex ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="unhex",
        title="Unhex",
        battlefield="zones",
        rulings=RULINGS,
        aliases=("unh",),
        source="the Unhex combat chapter and the Unhex rulebook; items are tactica's "
               "illustrative pack",
        summary="zone map, d100 under your level with the dice read apart, act or react, "
                "hit locations",
    )

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str, battlefield: Battlefield,
                    rulings: Rulings, base_dir: Path) -> content.Setup:
        if not isinstance(battlefield, ZoneGraph):
            raise ScenarioError(f"{source}: map: Unhex is played on a zone map")
        return content.build_setup(data, source=source, areas=battlefield.areas,
                                   base_dir=base_dir, slots_rule=rulings["UNH-19"])

    def initial_state(self, scenario: Scenario) -> UnhexState:
        setup: content.Setup = scenario.setup
        graph = scenario.battlefield
        assert isinstance(graph, ZoneGraph)
        dmg = damage_rules(scenario.rulings)
        chars = {
            u.id: Character(u.id, u.side, u.side in setup.pcs,
                            Body.fresh(u.level, u.max_level, dmg.boxes), u.area, u.items,
                            u.right, u.left, u.good)
            for u in setup.units
        }
        return UnhexState(view_for(graph, sight_options(scenario.rulings)), chars, setup.sides,
                          setup.pcs, scenario.rulings, dmg, setup.pack.items,
                          scenario.max_rounds, setup.exits, setup.objectives)

    # -- the core's hooks ----------------------------------------------------------------------

    def pending(self, state: UnhexState) -> Pending:
        return rules.pending(state)

    def resolve(self, state: UnhexState, action: Any) -> Step:
        return rules.resolve(state, action)

    def apply_event(self, state: UnhexState, event: Any) -> None:
        apply_event(state, event)

    def copy_state(self, state: UnhexState) -> UnhexState:
        return copy_state(state)

    def describe_action(self, state: UnhexState, action: Any) -> str:
        return text.describe_action(action)

    def describe_event(self, state: UnhexState, event: Any) -> str:
        return text.describe_event(event)

    def describe_option(self, state: UnhexState, decision: Decide[Any], option: Any) -> str:
        """One option of a decision inside an action, in words."""
        return text.describe_option(option)

    def battlefield_of(self, state: UnhexState) -> ZoneGraph:
        """The zone map as it is now (doors included)."""
        return state.view.graph

    def sides_of(self, state: UnhexState) -> tuple[str, ...]:
        return state.sides

    def unit_ids(self, state: UnhexState) -> list[str]:
        """Characters that can still be attacked, in scenario order."""
        return [c.id for c in state.chars.values() if legal.can_be_attacked(state, c)]

    def battle_stats(self, state: UnhexState, events: list[Any]) -> dict[str, Any]:
        dealt = dict.fromkeys(state.chars, 0)
        taken = dict.fromkeys(state.chars, 0)
        by: dict[str, str] = {}
        for e in events:
            if isinstance(e, Attacked):
                by[e.target] = e.unit
            elif isinstance(e, Wounded):
                taken[e.unit] += e.damage
                if e.unit in by:
                    dealt[by[e.unit]] += e.damage
        units = {
            c.id: {"side": c.side, "survived": c.in_fight or c.retreated, "level": c.level,
                   "dead": c.body.dead, "damage_dealt": dealt[c.id],
                   "damage_taken": taken[c.id]}
            for c in state.chars.values()
        }
        return {"rounds": state.round, "units": units}

    # -- odds and policies ---------------------------------------------------------------------

    def attack_options(self, state: UnhexState, attacker: str) -> list[Attack]:
        """Every attack the character could make from where it stands, ignoring turns."""
        return legal.attacks(state, state.chars[attacker])

    def odds(self, state: UnhexState, attacker: str, target: str, weapon: str | None = None,
             **options: Any) -> OddsReport:
        """The exact outcome of an attack; ``defend=True`` if the target defends."""
        from tactica.rulesets.unhex.odds import attack_odds

        return attack_odds(state, attacker, target, weapon, defend=bool(options.get("defend")))

    def rank_actions(self, state: UnhexState, actions: Sequence[Any]) -> list[float]:
        """Values of a team's actions (used by the greedy policy)."""
        return policy.rank_actions(state, actions)

    def action_value(self, state: UnhexState, action: Any) -> float:
        """How good ``action`` looks for the side taking it."""
        return policy.rank_actions(state, [action])[0]

    def choose_decision(self, state: UnhexState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> Any:
        """The computer's answer to a decision inside an action."""
        return policy.decide(state, decision, rng)


UNHEX = register(Unhex())
