"""Last Odyssey: front and back rows, initiative with AP, one d10 hit die, Shells and elements.

Source: the Last Odyssey SRD (the seed's attacking and defending chapter; rounds, rows,
Shells, elements, statuses and the tier 1 enemies from the rest of the SRD). Player characters,
jobs and items are tactica's illustrative examples. See ``docs/rulesets/last-odyssey.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightReport
from tactica.battlefield.rows import Rows
from tactica.chance import Decide, Step
from tactica.errors import ScenarioError
from tactica.odds import OddsReport
from tactica.ruleset import Pending, RulesetMeta, Rulings, register
from tactica.rulesets.last_odyssey import flow, resolve, setup, text
from tactica.rulesets.last_odyssey.records import Damaged
from tactica.rulesets.last_odyssey.rulings import RULINGS
from tactica.rulesets.last_odyssey.state import LodState, apply_event, copy_state
from tactica.scenario import Scenario

__all__ = ["LAST_ODYSSEY", "LastOdyssey"]


class LastOdyssey:
    """The Last Odyssey ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="last-odyssey",
        title="Last Odyssey",
        battlefield="rows",
        rulings=RULINGS,
        aliases=("lod", "odyssey"),
        source="the Last Odyssey SRD; player characters, jobs and items are tactica's "
               "illustrative examples",
        summary="front and back rows, initiative with AP, one d10 hit die, Shells and elements",
    )

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str, battlefield: Battlefield,
                    rulings: Rulings, base_dir: Path) -> setup.Setup:
        if not isinstance(battlefield, Rows):
            raise ScenarioError(f"{source}: map: Last Odyssey is played on rows")
        return setup.build_setup(data, source=source, battlefield=battlefield,
                                 base_dir=base_dir)

    def initial_state(self, scenario: Scenario) -> LodState:
        rows = scenario.battlefield
        assert isinstance(rows, Rows)
        return setup.new_state(scenario.setup, rows, scenario.rulings, scenario.max_rounds)

    # -- the core's hooks ----------------------------------------------------------------------

    def pending(self, state: LodState) -> Pending:
        return flow.pending(state)

    def resolve(self, state: LodState, action: Any) -> Step:
        return resolve.resolve(state, action)

    def apply_event(self, state: LodState, event: Any) -> None:
        apply_event(state, event)

    def copy_state(self, state: LodState) -> LodState:
        return copy_state(state)

    def describe_action(self, state: LodState, action: Any) -> str:
        return text.describe_action(state, action)

    def describe_event(self, state: LodState, event: Any) -> str:
        return text.describe_event(state, event)

    def sides_of(self, state: LodState) -> tuple[str, ...]:
        return state.sides

    def unit_ids(self, state: LodState) -> list[str]:
        """Characters still standing, in scenario order."""
        return [f.id for f in state.standing()]

    def battle_stats(self, state: LodState, events: list[Any]) -> dict[str, Any]:
        dealt = dict.fromkeys(state.fighters, 0)
        taken = dict.fromkeys(state.fighters, 0)
        for e in events:
            if isinstance(e, Damaged):
                amount = e.to_shell + e.to_hp
                taken[e.unit] += amount
                if e.source in dealt:
                    dealt[e.source] += amount
        units = {
            f.id: {"side": f.side, "survived": f.standing, "hp": f.hp, "shell": f.shell_total,
                   "mp": f.mp, "statuses": ", ".join(sorted(f.statuses)) or "-",
                   "knocked_out": f.knocked_out, "fled": f.fled,
                   "damage_dealt": dealt[f.id], "damage_taken": taken[f.id]}
            for f in state.fighters.values()
        }
        return {"rounds": state.round, "units": units}

    # -- play ----------------------------------------------------------------------------------

    def battlefield_of(self, state: LodState) -> Rows:
        """The rows as they stand now (moves, downed characters and advances included)."""
        return state.rows

    def sight_report(self, state: LodState, source: str, target: str) -> SightReport:
        """Rows have no sight lines: who may reach whom in melee, from the current rows."""
        return state.rows.sight_report(source, target)

    def explain_action(self, state: LodState, action: Any) -> list[str]:
        """Why an action's dice are what they are (the odds' reasons), or what it costs."""
        return text.explain_action(state, action)

    def describe_option(self, state: LodState, decision: Decide[Any], option: Any) -> str:
        """One option of a decision inside an action, in words."""
        return text.describe_option(state, decision, option)

    # -- odds and policies ---------------------------------------------------------------------

    def attack_options(self, state: LodState, attacker: str) -> list[Any]:
        """Every attack or status roll the character could make from where it stands."""
        from tactica.rulesets.last_odyssey.odds import attack_options

        return attack_options(state, attacker)

    def odds(self, state: LodState, attacker: str, target: str, weapon: str | None = None,
             **options: Any) -> OddsReport:
        """Exact odds of ``attacker`` using ``weapon`` (an ability; default the basic attack)
        on ``target`` (several targets of a multi-target ability: comma separated)."""
        from tactica.rulesets.last_odyssey.odds import attack_odds

        return attack_odds(state, attacker, target, weapon, **options)

    def rank_actions(self, state: LodState, actions: Sequence[Any]) -> list[float]:
        """Values of many actions at once (used by the greedy policy)."""
        from tactica.rulesets.last_odyssey.policy import rank_actions

        return rank_actions(state, actions)

    def action_value(self, state: LodState, action: Any) -> float:
        """How good ``action`` looks for the side taking it."""
        from tactica.rulesets.last_odyssey.policy import action_value

        return action_value(state, action)

    def choose_decision(self, state: LodState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> Any:
        """A decision inside an action (Confused retarget, item to steal, advance, calls)."""
        from tactica.rulesets.last_odyssey.policy import choose_decision

        return choose_decision(state, decision, rng)


LAST_ODYSSEY = register(LastOdyssey())
