"""Unhex: zone maps, percentile dice rolled under your level, act or react, hit locations.

Source: the Unhex combat chapter (the seed) and the Unhex rulebook (dice, characters, the first
filled-in damage, hit location and first aid sections). Items and profiles are tactica's
illustrative content. Every ambiguity is a ruling (UNH-1 .. UNH-28, see
``docs/rulesets/unhex.md``).
"""

from __future__ import annotations

from tactica.engine.events import Action, Event
from tactica.engine.game import (
    Explain,
    Game,
    Kernel,
    Matchups,
    Odds,
    Rules,
    Setup,
    Sight,
    Text,
    Valuation,
)
from tactica.engine.ruleset import OddsOption, RulesetMeta
from tactica.rulesets.unhex import legal, matchup, odds, policy, rules, text
from tactica.rulesets.unhex.rules import MAX_AREAS, MAX_CHARACTERS
from tactica.rulesets.unhex.rulings import RULINGS, sight_options
from tactica.rulesets.unhex.state import UnhexState, apply_event, sight_report

__all__ = ["MAX_AREAS", "MAX_CHARACTERS", "RULINGS", "UNHEX"]

UNHEX: Game[UnhexState, Action, Event] = Game(
    meta=RulesetMeta(
        name="unhex",
        title="Unhex",
        battlefield="zones",
        rulings=RULINGS,
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
    ),
    module=__name__,
    setup=Setup(build=rules.scenario_setup, start=rules.new_state),
    rules=Rules(pending=rules.pending, resolve=rules.resolve, apply=apply_event),
    text=Text(action=text.describe_action, event=text.describe_event, units=legal.units,
              figures=legal.figures),
    odds=Odds(choices=odds.odds_choices, action=odds.odds_action, report=odds.odds,
              reads="the attack roll with each side's best choice of dice and defence, "
                    "not the first option of each decision", reading=odds.odds_reading),
    sight=Sight(battlefield=lambda state: state.view.graph, options=sight_options,
                report=sight_report),
    explain=Explain(action=odds.explain_action, option=text.describe_option),
    valuation=Valuation(rank=policy.rank_actions, decide=policy.decide),
    matchups=Matchups(profiles=matchup.matchup_profiles, build=matchup.matchup,
                      squads=matchup.squad_matchup, targets=matchup.matchup_targets,
                      ranges=matchup.MATRIX_RANGES),
    kernel=Kernel("tactica.rulesets.unhex.kernel"),
)
"""The Unhex ruleset."""
