"""Arc: one d20 read as degrees, rate of fire, armor dice that wear down, wound dice.

Source: the Arc RPG (its combat chapter is the seed; skills, degrees, contested rolls, scores,
initiative, turns, damage, actions and guns chapters for the rest). Played without a map by
default (ARC-15), or on a grid of 5-foot squares. Blank cells of the gun table, armor pieces and
characters are tactica's labelled examples. See ``docs/rulesets/arc.md``.

Arc does not declare the sight capability: most of its scenarios have no map, and a game's
capabilities hold for every scenario. On a grid the rules still use sight (an attack needs it,
overwatch fires on it), and ``tactica odds`` and ``play`` explain it; ``tactica map`` draws
the grid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield
from tactica.chance import Decide
from tactica.events import Action, Event
from tactica.odds import OddsReport
from tactica.ruleset import (
    Capability,
    OddsChoice,
    OddsOption,
    OddsValue,
    RulesetMeta,
    UnitStatus,
)
from tactica.rulesets.arc import actions, flow, odds, policy, setup, text
from tactica.rulesets.arc.rulings import RULINGS
from tactica.rulesets.arc.state import ArcState, apply_event, copy_state, tile_text
from tactica.rulings import Rulings

if TYPE_CHECKING:
    from tactica.scenario import Scenario

__all__ = ["ARC", "Arc"]

_PROVIDES = frozenset({Capability.SETUP, Capability.ODDS, Capability.EXPLAIN,
                       Capability.POLICY})


class Arc:
    """The Arc ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="arc",
        title="Arc",
        battlefield=None,
        optional_maps=("grid",),
        rulings=RULINGS,
        provides=_PROVIDES,
        odds_options=(
            OddsOption("aim", "AP spent aiming before the attack (0 by default)",
                       takes_value=True),
            OddsOption("evade", "the target evades (1 AP, declared before the roll)"),
        ),
        source="the Arc RPG; blank cells of its gun table, armor pieces and characters are "
               "tactica's illustrative examples",
        summary="one d20 read as degrees, rate of fire, armor dice that wear down, wound "
                "dice; no map, or 5-foot squares",
        examples="examples",
    )

    # -- the core's hooks ----------------------------------------------------------------------

    pending = staticmethod(flow.pending)
    resolve = staticmethod(actions.resolve)
    apply_event = staticmethod(apply_event)
    copy_state = staticmethod(copy_state)

    def initial_state(self, scenario: Scenario) -> ArcState:
        assert isinstance(scenario.setup, setup.Setup)
        return setup.new_state(scenario.setup, scenario.rulings, scenario.max_rounds)

    def describe_action(self, state: ArcState, action: Action) -> str:
        return text.describe_action(state, action)

    def describe_event(self, state: ArcState, event: Event) -> str:
        return text.describe_event(state, event)

    def sides_of(self, state: ArcState) -> tuple[str, ...]:
        return state.sides

    def units(self, state: ArcState) -> tuple[UnitStatus, ...]:
        out = []
        for f in state.fighters.values():
            details: dict[str, str | int | bool] = {
                "health": f.health,
                "armor": text.armor_text(f),
                "wounds": text.wounds_text(f.wounds),
                "ap": f.ap,
                "weapon": f.hand,
            }
            if f.dead:
                details["dead"] = True
            elif not f.conscious:
                details["unconscious"] = True
            out.append(UnitStatus(f.id, f.side, f.in_action,
                                  tile_text(f.at) if f.at is not None else None, details,
                                  survived=not f.dead))
        return tuple(out)

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> setup.Setup:
        return setup.build_setup(data, source=source, battlefield=battlefield,
                                 base_dir=base_dir)

    # -- odds ----------------------------------------------------------------------------------

    def odds_choices(self, state: ArcState, unit: str) -> tuple[OddsChoice, ...]:
        return odds.odds_choices(state, unit)

    def odds_action(self, state: ArcState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        return odds.odds_action(state, unit, targets, means)

    def odds(self, state: ArcState, action: Action, **options: OddsValue) -> OddsReport:
        return odds.odds(self, state, action, **options)

    # -- explanations --------------------------------------------------------------------------

    def explain_action(self, state: ArcState, action: Action) -> list[str]:
        return text.explain_action(state, action)

    def describe_option(self, state: ArcState, decision: Decide[Any], option: object) -> str:
        return text.describe_option(state, decision, option)

    # -- policies ------------------------------------------------------------------------------

    def rank_actions(self, state: ArcState, actions: Sequence[Action]) -> list[float]:
        return policy.rank_actions(state, actions)

    def choose_decision(self, state: ArcState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        return policy.choose_decision(state, decision, rng)


ARC = Arc()
