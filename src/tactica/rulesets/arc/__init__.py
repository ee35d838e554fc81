"""Arc: one d20 read as degrees, rate of fire, armor dice that wear down, wound dice.

Source: the Arc RPG (its combat chapter is the seed; skills, degrees, contested rolls, scores,
initiative, turns, damage, actions and guns chapters for the rest). Played without a map by
default (ARC-15), or on a grid of 5-foot squares. Blank cells of the gun table, armor pieces and
characters are tactica's labelled examples. See ``docs/rulesets/arc.md``.

Arc declares the sight capability for its scenarios on a grid (an attack needs sight, overwatch
fires on it; ARC-29 says how many clear lines it takes): ``tactica sight``, ``map`` and the
play commands answer there. A scenario without a map says plainly that it has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.battlefield.grid.tiles import TileGrid
from tactica.engine.chance import Decide
from tactica.engine.errors import MapError
from tactica.engine.events import Action, Event
from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import (
    Capability,
    Matchup,
    MatchupProfile,
    OddsChoice,
    OddsOption,
    OddsValue,
    RulesetMeta,
    UnitStatus,
)
from tactica.engine.rulings import Rulings
from tactica.rulesets.arc import actions, flow, odds, policy, setup, text
from tactica.rulesets.arc.rulings import RULINGS
from tactica.rulesets.arc.state import ArcState, apply_event, copy_state, tile_text

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["ARC", "Arc"]

_PROVIDES = frozenset(Capability) - {Capability.KERNEL}


class Arc:
    """The Arc ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="arc",
        title="Arc",
        battlefield=None,
        optional_maps=("grid",),
        content=("content.yaml",),
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
            details: dict[str, str | int | bool] = {}
            if f.profile.name and f.profile.name != f.id:
                details["name"] = f.profile.name
            details |= {
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

    # -- sight (a scenario on a grid) ----------------------------------------------------------

    def battlefield_of(self, state: ArcState) -> TileGrid | None:
        """The grid as it stands now; ``None`` for a scenario without a map."""
        return state.grid

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return {"min_clear": 2 if rulings["ARC-29"] == "two-lines" else 1, "cover_range": 0}

    def sight_report(self, state: ArcState, source: str, target: str,
                     **options: SightOption) -> SightReport:
        grid = self.battlefield_of(state)
        if grid is None:
            raise MapError("this Arc scenario is played without a map: there is no sight to "
                           "judge (everyone sees everyone)")
        return grid.sight_report(source, target,
                                 **{**self.sight_options(state.rulings), **options})

    def explain_action(self, state: ArcState, action: Action) -> list[str]:
        return text.explain_action(state, action)

    def terrain(self, state: ArcState) -> dict[str, str]:
        """The squares whose ground changes a move, for the web page's map: rough ground
        (``"4,0": "rough ground: +1 AP to enter"``)."""
        return {f"{x},{y}": "rough ground: +1 AP to enter" for x, y in sorted(state.rough)}

    def ranges(self, state: ArcState) -> list[tuple[str, str, str]]:
        """The distance between every two characters of different sides, for people
        (``20.0 m``; ``not given`` where the scenario gives none)."""
        from tactica.rulesets.arc.movement import distance_metres

        out = []
        fighters = list(state.fighters.values())
        for i, a in enumerate(fighters):
            for b in fighters[i + 1:]:
                if a.side != b.side:
                    metres = distance_metres(state, a, b)
                    out.append((a.id, b.id, "not given" if metres is None
                                else f"{metres:.1f} m"))
        return out

    def describe_option(self, state: ArcState, decision: Decide[Any], option: object) -> str:
        return text.describe_option(state, decision, option)

    # -- matchups (tactica matrix and sweep) -----------------------------------------------------

    def matchup_profiles(self, content: Sequence[Path]) -> tuple[str, ...]:
        from tactica.rulesets.arc.matchup import matchup_profiles

        return matchup_profiles(content)

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        from tactica.rulesets.arc.matchup import matchup

        return matchup(profiles, range=range, cover=cover, rulings=rulings, pack_files=content,
                       game=self.meta.name)

    # -- policies ------------------------------------------------------------------------------

    def rank_actions(self, state: ArcState, actions: Sequence[Action]) -> list[float]:
        return policy.rank_actions(state, actions)

    def choose_decision(self, state: ArcState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        return policy.choose_decision(state, decision, rng)


ARC = Arc()
