"""Last Odyssey: front and back rows, initiative with AP, one d10 hit die, Shells and elements.

Source: the Last Odyssey SRD (the seed's attacking and defending chapter; rounds, rows,
Shells, elements, statuses and the tier 1 enemies from the rest of the SRD). Player characters,
jobs and items are tactica's illustrative examples. See ``docs/rulesets/last-odyssey.md``.
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
from tactica.rulesets.last_odyssey import flow, matchup, melee, odds, policy, resolve, setup, text
from tactica.rulesets.last_odyssey.rulings import RULINGS
from tactica.rulesets.last_odyssey.setup import MAX_CHARACTERS
from tactica.rulesets.last_odyssey.state import LodState, apply_event

__all__ = ["LAST_ODYSSEY", "MAX_CHARACTERS"]

LAST_ODYSSEY: Game[LodState, Action, Event] = Game(
    meta=RulesetMeta(
        name="last-odyssey",
        title="Last Odyssey",
        battlefield="rows",
        rulings=RULINGS,
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
    ),
    module=__name__,
    setup=Setup(build=setup.scenario_setup, start=setup.start),
    rules=Rules(pending=flow.pending, resolve=resolve.resolve, apply=apply_event),
    text=Text(action=text.describe_action, event=text.describe_event, units=text.units,
              roller=text.roller,
              figures=text.figures),
    odds=Odds(choices=odds.odds_choices, action=odds.choose_ability, report=odds.odds,
              reads="the damage rolled, before the target's HP and shells cap it",
              reading=odds.odds_reading),
    sight=Sight(battlefield=lambda state: state.rows, options=lambda rulings: {},
                report=melee.sight_report),
    explain=Explain(action=text.explain_action, option=text.describe_option),
    valuation=Valuation(rank=policy.rank_actions, decide=policy.choose_decision),
    matchups=Matchups(profiles=matchup.matchup_profiles, build=matchup.matchup,
                      squads=matchup.squad_matchup, attack=odds.attack_action),
    kernel=Kernel("tactica.rulesets.last_odyssey.kernel"),
)
"""The Last Odyssey ruleset."""
