"""Nebulia Operations: tile grid, corner-to-corner sight lines, D10 pools rolled under.

Source: the Nebulia Operations combat chapter (the only part of the game that could be found).
Weapons, operator profiles, turns and movement are tactica's own illustrative defaults.
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
from tactica.engine.ruleset import RulesetMeta
from tactica.rulesets.nebulia import content, geometry, matchup, odds, rules, text
from tactica.rulesets.nebulia.content import MAX_GRID_SIDE
from tactica.rulesets.nebulia.odds import damage_dist_for
from tactica.rulesets.nebulia.rulings import RULINGS

__all__ = ["MAX_GRID_SIDE", "NEBULIA", "RULINGS", "damage_dist_for"]

NEBULIA: Game[rules.NebState, Action, Event] = Game(
    meta=RulesetMeta(
        name="nebulia-operations",
        title="Nebulia Operations",
        battlefield="grid",
        rulings=RULINGS,
        aliases=("nebulia", "neb"),
        source="the Nebulia Operations combat chapter; content is tactica's illustrative pack",
        summary="tile grid, corner-to-corner sight lines, D10 pools rolled under",
        content=("content.yaml",),
    ),
    module=__name__,
    setup=Setup(build=content.scenario_setup, start=rules.new_state),
    rules=Rules(pending=rules.pending, resolve=rules.resolve, apply=rules.apply_event),
    text=Text(action=text.describe_action, event=text.describe_event, units=text.units,
              roller=text.roller,
              figures=text.figures),
    odds=Odds(choices=odds.odds_choices, action=odds.odds_action, report=odds.odds,
              reads="the damage of the hits that get through, before the target's defense "
                    "caps it", reading=odds.odds_reading),
    sight=Sight(battlefield=lambda state: state.grid, options=geometry.grid_options),
    explain=Explain(action=odds.explain_action),
    valuation=Valuation(rank=odds.rank_actions),
    matchups=Matchups(profiles=matchup.matchup_profiles, build=matchup.matchup,
                      squads=matchup.squad_matchup, targets=matchup.matchup_targets,
                      attack=odds.attack_action),
    kernel=Kernel("tactica.rulesets.nebulia.kernel"),
)
"""The Nebulia Operations ruleset."""
