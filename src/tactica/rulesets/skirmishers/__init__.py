"""Skirmishers: infantry combat on a dot lattice with levels, firing arcs and reaction fire,
2D6 against a target number, HP cells on a unit card, explosives.

Source: the Skirmishers rulebook (CC BY-NC-SA 4.0): its infantry combat chapter, and the map,
game loop, unit card, weapons, movement and advanced combat chapters for the facts. Every
figure of the content pack is the rulebook's. See ``docs/rulesets/skirmishers.md``.

Modules: :mod:`.rulings`, :mod:`.geometry` (the map rulings), :mod:`.content` (the pack),
:mod:`.setup` (scenarios), :mod:`.card` (HP cells), :mod:`.state`, :mod:`.fire` (target
numbers, shots, damage), :mod:`.arcs` (firing arcs, reaction fire), :mod:`.movement`,
:mod:`.melee`, :mod:`.explosives`, :mod:`.flow` (the turn), :mod:`.odds`, :mod:`.policy`,
:mod:`.text`.
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
from tactica.rulesets.skirmishers import (
    figures,
    flow,
    marks,
    matchup,
    menu,
    odds,
    policy,
    setup,
    state,
    text,
)
from tactica.rulesets.skirmishers.flow import new_state
from tactica.rulesets.skirmishers.geometry import sight_options
from tactica.rulesets.skirmishers.rulings import RULINGS
from tactica.rulesets.skirmishers.setup import MAX_DOTS_SIDE

__all__ = ["MAX_DOTS_SIDE", "RULINGS", "SKIRMISHERS", "new_state"]

SKIRMISHERS: Game[state.SkiState, Action, Event] = Game(
    meta=RulesetMeta(
        name="skirmishers",
        title="Skirmishers",
        battlefield="dots",
        rulings=RULINGS,
        odds_options=(
            OddsOption("spent", "the AP the target has already spent this turn (a mover shot "
                       "mid-move falls prone when its new maximum no longer covers them)",
                       takes_value=True),
            OddsOption("shots", "shots in a row at the target: a number, or arc (the "
                       "shots of the weapon's 30-degree firing arc: 3 for an SMG)",
                       takes_value=True),
            OddsOption("at", "an explosive thrown at this dot (col,row or col,row@level) "
                       "rather than at the target's", takes_value=True),
            OddsOption("arc", "a firing arc of this width (30, 60 or 150) toward the target's "
                       "dot, or WIDTH@BEARING: every enemy it holds in sight, the shots it may "
                       "draw, each shot's chance and its card after them", takes_value=True),
        ),
        aliases=("ski",),
        content=("content.yaml",),
        source="the Skirmishers rulebook (CC BY-NC-SA 4.0)",
        summary="dot lattice with levels, firing arcs and reaction fire, 2D6 against a "
                "target number, HP cells, explosives",
    ),
    module=__name__,
    setup=Setup(build=setup.scenario_setup, start=flow.start),
    rules=Rules(pending=flow.pending, resolve=flow.resolve, apply=state.apply_event),
    text=Text(action=text.describe_action, event=text.describe_event, units=text.units,
              roller=text.roller, marks=marks.map_marks, figures=figures.figures),
    odds=Odds(choices=odds.odds_choices, action=odds.odds_action, report=odds.odds,
              reads="the attack's own process with the attacker's choices the report "
                    "names (a throw where it is aimed), not the first option of each "
                    "decision of the action", reading=odds.odds_reading),
    sight=Sight(battlefield=lambda state: state.lattice, options=sight_options),
    explain=Explain(action=text.explain_action, option=text.describe_option),
    menu=Menu(layout=menu.action_menu),
    valuation=Valuation(rank=policy.rank_actions, decide=policy.choose_decision),
    matchups=Matchups(profiles=matchup.matchup_profiles, build=matchup.matchup,
                      squads=matchup.squad_matchup,
                      targets=matchup.matchup_targets, attack=odds.attack_action),
    kernel=Kernel("tactica.rulesets.skirmishers.kernel"),
)
"""The Skirmishers ruleset."""
