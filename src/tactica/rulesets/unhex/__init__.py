"""Unhex: zone maps, percentile dice rolled under your level, act or react, hit locations.

Source: the Unhex combat chapter (the seed) and the Unhex rulebook (dice, characters, the first
filled-in damage, hit location and first aid sections). Items and profiles are tactica's
illustrative content. Every ambiguity is a ruling (UNH-1 .. UNH-28, see
``docs/rulesets/unhex.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.battlefield.zones import ZoneGraph
from tactica.chance import Decide
from tactica.errors import IllegalActionError, ScenarioError
from tactica.events import Action, Event
from tactica.odds import OddsReport
from tactica.ruleset import (
    Capability,
    Matchup,
    MatchupProfile,
    NotCovered,
    OddsChoice,
    OddsOption,
    OddsValue,
    PreparedKernel,
    RulesetMeta,
    UnitStatus,
)
from tactica.rulesets.unhex import content, legal, policy, rules, text
from tactica.rulesets.unhex.body import Body
from tactica.rulesets.unhex.records import Attack
from tactica.rulesets.unhex.rulings import RULINGS, sight_options
from tactica.rulesets.unhex.state import (
    Character,
    UnhexState,
    apply_event,
    copy_state,
    damage_rules,
    view_for,
)
from tactica.rulings import Rulings

if TYPE_CHECKING:
    from tactica.scenario import Scenario

__all__ = ["MAX_AREAS", "MAX_CHARACTERS", "RULINGS", "UNHEX", "Unhex"]

#: The largest fight an Unhex battle is played with (its work grows with both).
MAX_AREAS = 100
MAX_CHARACTERS = 50


class Unhex:
    """The Unhex ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="unhex",
        title="Unhex",
        battlefield="zones",
        rulings=RULINGS,
        provides=frozenset(Capability),
        odds_options=(
            OddsOption("defend", "the target defends (an opposed roll; against ranged attacks "
                                 "only from cover)"),
        ),
        aliases=("unh",),
        source="the Unhex combat chapter and the Unhex rulebook; items are tactica's "
               "illustrative pack",
        summary="zone map, d100 under your level with the dice read apart, act or react, "
                "hit locations",
        content=("content.yaml",),
    )

    # -- the core's hooks ----------------------------------------------------------------------

    pending = staticmethod(rules.pending)
    resolve = staticmethod(rules.resolve)
    apply_event = staticmethod(apply_event)
    copy_state = staticmethod(copy_state)

    def initial_state(self, scenario: Scenario) -> UnhexState:
        setup = scenario.setup
        graph = scenario.battlefield
        assert isinstance(setup, content.Setup) and isinstance(graph, ZoneGraph)
        dmg = damage_rules(scenario.rulings)
        chars = {}
        for u in setup.units:
            body = Body.fresh(u.level, u.max_level, dmg.boxes)
            for location, marks in u.marks:
                body = body.with_marks(location, marks)
            chars[u.id] = Character(u.id, u.side, u.side in setup.pcs, body, u.area, u.items,
                                    u.right, u.left, u.good, ammo=u.ammo)
        return UnhexState(view_for(graph, sight_options(scenario.rulings)), chars, setup.sides,
                          setup.pcs, scenario.rulings, dmg, setup.pack.items,
                          scenario.max_rounds, setup.exits, setup.objectives,
                          fixtures=setup.fixtures)

    def describe_action(self, state: UnhexState, action: Action) -> str:
        return text.describe_action(action)

    def describe_event(self, state: UnhexState, event: Event) -> str:
        return text.describe_event(event)

    def sides_of(self, state: UnhexState) -> tuple[str, ...]:
        return state.sides

    def units(self, state: UnhexState) -> tuple[UnitStatus, ...]:
        return tuple(
            UnitStatus(c.id, c.side, legal.can_be_attacked(state, c), c.area,
                       {"level": c.level, "dead": c.body.dead, "wounds": c.body.summary()},
                       survived=c.in_fight or c.retreated)
            for c in state.chars.values()
        )

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> content.Setup:
        if not isinstance(battlefield, ZoneGraph):
            raise ScenarioError(f"{source}: map: Unhex is played on a zone map")
        if len(battlefield.areas) > MAX_AREAS:
            raise ScenarioError(f"{source}: map.areas: {len(battlefield.areas)} areas; an Unhex "
                                f"fight is played on at most {MAX_AREAS} (the work of a battle "
                                "grows with the map: see docs/limits.md)")
        units = data.get("units")
        if isinstance(units, Mapping) and len(units) > MAX_CHARACTERS:
            raise ScenarioError(f"{source}: units: {len(units)} characters; an Unhex fight "
                                f"has at most {MAX_CHARACTERS} (see docs/limits.md)")
        return content.build_setup(data, source=source, areas=battlefield.areas,
                                   base_dir=base_dir, slots_rule=rulings["UNH-19"],
                                   boxes=damage_rules(rulings).boxes)

    # -- odds ----------------------------------------------------------------------------------

    def odds_choices(self, state: UnhexState, unit: str) -> tuple[OddsChoice, ...]:
        return tuple(OddsChoice(a.unit, (a.target,), a.weapon, a)
                     for a in legal.attacks(state, state.chars[unit]))

    def odds_action(self, state: UnhexState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        from tactica.rulesets.unhex.odds import choose_attack

        if len(targets) != 1:
            raise IllegalActionError(f"{unit} attacks one target at a time, got {len(targets)}")
        return choose_attack(state, unit, targets[0], means)

    def odds(self, state: UnhexState, action: Action, **options: OddsValue) -> OddsReport:
        from tactica.odds import outcome_report
        from tactica.rulesets.unhex.odds import attack_odds

        if isinstance(action, Attack):
            return attack_odds(state, action, defend=bool(options.get("defend")))
        return outcome_report(self, state, action)

    # -- sight and explanations ----------------------------------------------------------------

    def battlefield_of(self, state: UnhexState) -> ZoneGraph:
        """The zone map as it is now (doors included)."""
        return state.view.graph

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return dict(sight_options(rulings))

    def sight_report(self, state: UnhexState, source: str, target: str,
                     **options: SightOption) -> SightReport:
        """Sight between two characters (where they stand now) or two areas."""
        places = [state.chars[ref].area if ref in state.chars else ref
                  for ref in (source, target)]
        chosen = {**dict(state.view.options), **options}
        report = state.view.graph.sight_report(places[0], places[1], **chosen)
        notes: list[str] = []
        if places != [source, target]:
            notes.append(f"{source} is in {places[0]}, {target} in {places[1]}")
        pairs = report.details.get("pairs")
        if isinstance(pairs, list) and any(p.get("one_way") for p in pairs):
            reasons = (*report.reasons, f"UNH-28 (one-way sight) is {chosen['symmetry']!s}"
                       + (" by this command's option" if "symmetry" in options else ""))
        else:
            reasons = report.reasons
        if not notes and reasons is report.reasons:
            return report
        return SightReport(source, target, report.visible, report.cover, report.distance,
                           report.details, (*notes, *reasons))

    def explain_action(self, state: UnhexState, action: Action) -> list[str]:
        if isinstance(action, Attack):
            return [text.plain(r) for r in self.odds(state, action).reasons]
        return []

    def describe_option(self, state: UnhexState, decision: Decide[Any], option: object) -> str:
        return text.describe_option(option)

    # -- policies ------------------------------------------------------------------------------

    def rank_actions(self, state: UnhexState, actions: Sequence[Action]) -> list[float]:
        return policy.rank_actions(state, actions)

    def choose_decision(self, state: UnhexState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        return policy.decide(state, decision, rng)

    # -- matchups ------------------------------------------------------------------------------

    def matchup_profiles(self, content: Sequence[Path]) -> tuple[str, ...]:
        from tactica.rulesets.unhex.matchup import matchup_profiles

        return matchup_profiles(content)

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        from tactica.rulesets.unhex.matchup import matchup

        return matchup(profiles, range=range, cover=cover, rulings=rulings, pack_files=content,
                       game=self.meta.name)

    # -- simulation kernel ---------------------------------------------------------------------

    def prepare_kernel(self, scenario: Scenario) -> PreparedKernel | NotCovered:
        """The compiled kernel of ``scenario`` (:mod:`~tactica.rulesets.unhex.kernel`)."""
        from tactica.rulesets.unhex.kernel import prepare

        return prepare(scenario)


UNHEX = Unhex()
