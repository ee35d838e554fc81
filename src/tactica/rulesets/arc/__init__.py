"""Arc: one d20 read as degrees, rate of fire, armor dice that wear down, wound dice.

Source: the Arc RPG (its combat chapter is the seed; skills, degrees, contested rolls, scores,
initiative, turns, damage, actions and guns chapters for the rest). Played without a map by
default (ARC-15), or on a grid of 5-foot squares. Blank cells of the gun table, armor pieces and
characters are tactica's labelled examples. See ``docs/rulesets/arc.md``.

Arc has the sight part for its scenarios on a grid (an attack needs sight, overwatch fires on
it; ARC-29 says how many clear lines it takes): ``tactica sight``, ``map`` and the play
commands answer there. A scenario without a map says plainly that it has none.
"""

from __future__ import annotations

from tactica.engine.events import Action, Event
from tactica.engine.game import (
    Explain,
    Game,
    Kernel,
    Matchups,
    Menu,
    Odds,
    Rules,
    Setup,
    Sight,
    Text,
    Valuation,
)
from tactica.engine.ruleset import OddsOption, RulesetMeta
from tactica.rulesets.arc import actions, flow, matchup, menu, odds, policy, setup, text
from tactica.rulesets.arc.rulings import RULINGS, sight_options
from tactica.rulesets.arc.state import ArcState, apply_event

__all__ = ["ARC"]

ARC: Game[ArcState, Action, Event] = Game(
    meta=RulesetMeta(
        name="arc",
        title="Arc",
        battlefield=None,
        optional_maps=("grid",),
        content=("content.yaml",),
        rulings=RULINGS,
        odds_options=(
            OddsOption("aim", "AP spent aiming before the attack (0 by default)",
                       takes_value=True),
            OddsOption("evade", "the target evades (1 AP, declared before the roll)",
                       case=True),
        ),
        source="the Arc RPG; blank cells of its gun table, armor pieces and characters are "
               "tactica's illustrative examples",
        summary="one d20 read as degrees, rate of fire, armor dice that wear down, wound "
                "dice; no map, or 5-foot squares",
    ),
    module=__name__,
    setup=Setup(build=setup.build_setup, start=setup.start),
    rules=Rules(pending=flow.pending, resolve=actions.resolve, apply=apply_event),
    text=Text(action=text.describe_action, event=text.describe_event, units=text.units,
              ranges=text.ranges, terrain=text.terrain,
              figures=text.figures),
    odds=Odds(choices=odds.odds_choices, action=odds.odds_action, report=odds.odds,
              reads="the attack with the aim and Evade the report names, not the first "
                    "option of each decision of the action", reading=odds.odds_reading),
    sight=Sight(battlefield=lambda state: state.grid, options=sight_options,
                report=text.sight_report),
    explain=Explain(action=text.explain_action, option=text.describe_option),
    menu=Menu(layout=menu.action_menu),
    valuation=Valuation(rank=policy.rank_actions, decide=policy.choose_decision),
    matchups=Matchups(profiles=matchup.matchup_profiles, build=matchup.matchup,
                      squads=matchup.squad_matchup, attack=odds.attack_action),
    kernel=Kernel("tactica.rulesets.arc.kernel"),
)
"""The Arc ruleset."""
