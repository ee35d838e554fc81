"""Last Odyssey: front and back rows, initiative with AP, one d10 hit die, Shells and elements.

Source: the Last Odyssey SRD (the seed's attacking and defending chapter; rounds, rows,
Shells, elements, statuses and the tier 1 enemies from the rest of the SRD). Player characters,
jobs and items are tactica's illustrative examples. See ``docs/rulesets/last-odyssey.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.battlefield.rows import Rows
from tactica.engine.chance import Decide
from tactica.engine.errors import ScenarioError
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
from tactica.rulesets.last_odyssey import flow, melee, resolve, setup, text
from tactica.rulesets.last_odyssey.records import UseAbility
from tactica.rulesets.last_odyssey.rulings import RULINGS
from tactica.rulesets.last_odyssey.state import LodState, apply_event, copy_state

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["LAST_ODYSSEY", "MAX_CHARACTERS", "LastOdyssey"]

#: The most characters of a Last Odyssey battle (odds tables grow with its square).
MAX_CHARACTERS = 30


class LastOdyssey:
    """The Last Odyssey ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="last-odyssey",
        title="Last Odyssey",
        battlefield="rows",
        rulings=RULINGS,
        provides=frozenset(Capability) - {Capability.KERNEL},
        odds_options=(
            OddsOption("knockout", "a player's attack meant to knock out rather than kill"),
            OddsOption("element", "the element of an ability that lets its user choose one",
                       takes_value=True),
        ),
        aliases=("lod", "odyssey"),
        source="the Last Odyssey SRD; player characters, jobs and items are tactica's "
               "illustrative examples",
        summary="front and back rows, initiative with AP, one d10 hit die, Shells and elements",
        content=("content.yaml", "illustrative.yaml"),
    )

    # -- the core's hooks ----------------------------------------------------------------------

    pending = staticmethod(flow.pending)
    resolve = staticmethod(resolve.resolve)
    apply_event = staticmethod(apply_event)
    copy_state = staticmethod(copy_state)

    def initial_state(self, scenario: Scenario) -> LodState:
        rows = scenario.battlefield
        assert isinstance(rows, Rows) and isinstance(scenario.setup, setup.Setup)
        return setup.new_state(scenario.setup, rows, scenario.rulings, scenario.max_rounds)

    def describe_action(self, state: LodState, action: Action) -> str:
        return text.describe_action(state, action)

    def describe_event(self, state: LodState, event: Event) -> str:
        return text.describe_event(state, event)

    def sides_of(self, state: LodState) -> tuple[str, ...]:
        return state.sides

    def units(self, state: LodState) -> tuple[UnitStatus, ...]:
        rows = state.rows
        return tuple(
            UnitStatus(f.id, f.side, f.standing,
                       rows.locate(f.id) if f.id in rows.occupants else None,
                       {"hp": f.hp, "shell": f.shell_total, "mp": f.mp,
                        "statuses": ", ".join(sorted(f.statuses)) or "-",
                        "knocked_out": f.knocked_out, "fled": f.fled},
                       survived=f.standing or f.fled or f.knocked_out)
            for f in state.fighters.values()
        )

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> setup.Setup:
        if not isinstance(battlefield, Rows):
            raise ScenarioError(f"{source}: map: Last Odyssey is played on rows")
        if len(battlefield.characters) > MAX_CHARACTERS:
            raise ScenarioError(f"{source}: map.sides: {len(battlefield.characters)} "
                                f"characters; a Last Odyssey battle has at most "
                                f"{MAX_CHARACTERS} (see docs/limits.md)")
        return setup.build_setup(data, source=source, battlefield=battlefield,
                                 base_dir=base_dir)

    # -- odds ----------------------------------------------------------------------------------

    def odds_choices(self, state: LodState, unit: str) -> tuple[OddsChoice, ...]:
        from tactica.rulesets.last_odyssey.odds import odds_choices

        return odds_choices(state, unit)

    def odds_action(self, state: LodState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        """``means`` is an ability (``Name[/element][/knockout]``), by default the basic
        attack; several targets for a multi-target ability."""
        from tactica.rulesets.last_odyssey.odds import choose_ability

        return choose_ability(state, unit, targets, means)

    def odds(self, state: LodState, action: Action, **options: OddsValue) -> OddsReport:
        from tactica.engine.odds import outcome_report
        from tactica.rulesets.last_odyssey.odds import attack_odds

        if isinstance(action, UseAbility) and state.ability(action.ability).attack is not None:
            if options:
                element = str(options.get("element") or action.element)
                knockout = bool(options.get("knockout")) or action.knockout
                means = "/".join([action.ability, *([element] if element else []),
                                  *(["knockout"] if knockout else [])])
                rebuilt = self.odds_action(state, action.unit, action.targets, means)
                assert isinstance(rebuilt, UseAbility)
                action = rebuilt
            return attack_odds(state, action)
        return outcome_report(self, state, action)

    # -- sight and explanations ----------------------------------------------------------------

    def battlefield_of(self, state: LodState) -> Rows:
        """The rows as they stand now (moves, downed characters and advances included)."""
        return state.rows

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return {}

    def sight_report(self, state: LodState, source: str, target: str,
                     **options: SightOption) -> SightReport:
        """Rows have no sight lines: everyone sees everyone; the reasons say who may reach
        whom in melee from the current rows."""
        report = state.rows.sight_report(source, target, **options)
        makes = melee.can_make_melee(state.rows, source)
        receives = melee.can_receive_melee(state.rows, target)
        reasons = (
            *report.reasons,
            f"{source}: " + ("may use melee" if makes else "no melee from the back row"),
            f"{target}: " + ("may be targeted in melee" if receives
                             else "melee cannot reach the back row"),
        )
        details = {**report.details, "melee": {"source_can_make": makes,
                                                "target_can_receive": receives,
                                                "possible": makes and receives},
                   "ranged": True}
        return SightReport(source, target, True, 0, report.distance, details, reasons)

    def explain_action(self, state: LodState, action: Action) -> list[str]:
        return text.explain_action(state, action)

    def describe_option(self, state: LodState, decision: Decide[Any], option: object) -> str:
        return text.describe_option(state, decision, option)

    # -- policies ------------------------------------------------------------------------------

    def rank_actions(self, state: LodState, actions: Sequence[Action]) -> list[float]:
        from tactica.rulesets.last_odyssey.policy import rank_actions

        return rank_actions(state, actions)

    def choose_decision(self, state: LodState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        from tactica.rulesets.last_odyssey.policy import choose_decision

        return choose_decision(state, decision, rng)

    # -- matchups ------------------------------------------------------------------------------

    def matchup_profiles(self, content: Sequence[Path]) -> tuple[str, ...]:
        from tactica.rulesets.last_odyssey.matchup import matchup_profiles

        return matchup_profiles(content)

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        from tactica.rulesets.last_odyssey.matchup import matchup

        return matchup(profiles, range=range, cover=cover, rulings=rulings, pack_files=content,
                       game=self.meta.name)


LAST_ODYSSEY = LastOdyssey()
