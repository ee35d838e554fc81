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

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.battlefield.dots import DotLattice
from tactica.chance import Decide
from tactica.errors import ScenarioError
from tactica.events import Action, Event
from tactica.menu import ActionMenu
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
from tactica.rulesets.skirmishers import flow, menu, setup, state, text
from tactica.rulesets.skirmishers.arcs import ARC_SIZES
from tactica.rulesets.skirmishers.geometry import sight_options as _sight_options
from tactica.rulesets.skirmishers.rulings import RULINGS
from tactica.rulesets.skirmishers.state import Arc, SkiState, Soldier
from tactica.rulings import Rulings

if TYPE_CHECKING:
    from tactica.scenario import Scenario

__all__ = ["MAX_DOTS_SIDE", "RULINGS", "SKIRMISHERS", "Skirmishers", "new_state"]

#: The largest lattice a Skirmishers battle is played on (a battle's work grows with the map).
MAX_DOTS_SIDE = 50


def new_state(sc_setup: setup.Setup, lattice: DotLattice, rulings: Rulings,
              max_rounds: int) -> SkiState:
    """A fresh battle state: the troopers placed on the map as the scenario sets them."""
    placed = lattice
    for oid in list(lattice.troopers):
        placed = placed.without_occupant(oid)
    troopers: dict[str, Soldier] = {}
    advanced = "advanced-armor" in sc_setup.optional
    for u in sc_setup.units:
        placed = placed.with_occupant(u.id, u.place, prone=u.prone, side=u.side)
        firearms = [w for w in u.weapons if w in sc_setup.pack.weapons]
        troopers[u.id] = Soldier(
            u.id, u.side, u.card, u.armor, u.experience, u.weapons, u.explosives, u.active,
            u.active if u.active in sc_setup.pack.weapons else (firearms[0] if firearms
                                                                else "fists"),
            u.marks, 0 if advanced else u.armor_left, prone=u.prone)
        if u.arc is not None:
            width, bearing, toward = u.arc
            weapon = sc_setup.pack.weapons[u.active]
            shots = ARC_SIZES[width][0] * weapon.shots
            troopers[u.id] = replace(troopers[u.id], arc=Arc(width, bearing, toward, shots,
                                                             u.active))
    return SkiState(placed, troopers, sc_setup, rulings, max_rounds)


class Skirmishers:
    """The Skirmishers ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="skirmishers",
        title="Skirmishers",
        battlefield="dots",
        rulings=RULINGS,
        provides=frozenset(Capability),
        odds_options=(
            OddsOption("spent", "the AP the target has already spent this turn (a mover shot "
                       "mid-move falls prone when its new maximum no longer covers them)",
                       takes_value=True),
            OddsOption("at", "an explosive thrown at this dot (col,row or col,row@level) "
                       "rather than at the target's", takes_value=True),
        ),
        aliases=("ski",),
        content=("content.yaml",),
        source="the Skirmishers rulebook (CC BY-NC-SA 4.0)",
        summary="dot lattice with levels, firing arcs and reaction fire, 2D6 against a "
                "target number, HP cells, explosives",
    )

    # -- the core's hooks ----------------------------------------------------------------------

    pending = staticmethod(flow.pending)
    resolve = staticmethod(flow.resolve)
    apply_event = staticmethod(state.apply_event)
    copy_state = staticmethod(state.copy_state)

    def initial_state(self, scenario: Scenario) -> SkiState:
        lattice = scenario.battlefield
        assert isinstance(lattice, DotLattice) and isinstance(scenario.setup, setup.Setup)
        return new_state(scenario.setup, lattice, scenario.rulings, scenario.max_rounds)

    def describe_action(self, state: SkiState, action: Action) -> str:
        return text.describe_action(state, action)

    def describe_event(self, state: SkiState, event: Event) -> str:
        return text.describe_event(state, event)

    def sides_of(self, state: SkiState) -> tuple[str, ...]:
        return state.sides

    def units(self, state: SkiState) -> tuple[UnitStatus, ...]:
        out = []
        for t in state.troopers.values():
            where = str(state.place(t.id)) if t.id in state.lattice.troopers else None
            details: dict[str, str | int | bool] = {
                "hp": t.hp, "ap": state.max_ap(t), "armor": t.armor_left,
                "card": text.card_text(t.marks), "weapon": t.active, "prone": t.prone,
                "arc_shots": t.arc.shots if t.arc else 0, "dead": t.dead,
            }
            out.append(UnitStatus(t.id, t.side, t.in_action, where, details,
                                  survived=not t.out))
        return tuple(out)

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> setup.Setup:
        if not isinstance(battlefield, DotLattice):
            raise ScenarioError(f"{source}: map: Skirmishers is played on a dots map")
        if battlefield.cols > MAX_DOTS_SIDE or battlefield.rows > MAX_DOTS_SIDE:
            raise ScenarioError(
                f"{source}: map: a lattice of {battlefield.cols} x {battlefield.rows} dots; "
                f"Skirmishers is played on at most {MAX_DOTS_SIDE} x {MAX_DOTS_SIDE} (the work "
                "of a battle grows with the map: see docs/limits.md)")
        return setup.build_setup(data, source=source, lattice=battlefield, base_dir=base_dir)

    # -- odds ----------------------------------------------------------------------------------

    def odds_choices(self, state: SkiState, unit: str) -> tuple[OddsChoice, ...]:
        from tactica.rulesets.skirmishers.odds import odds_choices

        return odds_choices(state, unit)

    def odds_action(self, state: SkiState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        """``means``: a firearm (a shot, as reaction fire resolves it), a melee weapon, or an
        explosive (thrown at the target's dot, or ``--at``); by default the active weapon."""
        from tactica.rulesets.skirmishers.odds import odds_action

        return odds_action(state, unit, targets, means)

    def odds(self, state: SkiState, action: Action, **options: OddsValue) -> OddsReport:
        from tactica.rulesets.skirmishers.odds import odds

        return odds(self, state, action, **options)

    # -- matchups (tactica matrix and sweep) -----------------------------------------------------

    def matchup_profiles(self, content: Sequence[Path]) -> tuple[str, ...]:
        from tactica.rulesets.skirmishers.matchup import matchup_profiles

        return matchup_profiles(content)

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        from tactica.rulesets.skirmishers.matchup import matchup

        return matchup(profiles, range=range, cover=cover, rulings=rulings, pack_files=content,
                       game=self.meta.name)

    # -- sight and explanations ----------------------------------------------------------------

    def battlefield_of(self, state: SkiState) -> DotLattice:
        """The lattice as it stands: troopers where they are, prone or standing."""
        return state.lattice

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return dict(_sight_options(rulings))

    def sight_report(self, state: SkiState, source: str, target: str,
                     **options: SightOption) -> SightReport:
        chosen: dict[str, SightOption] = {**_sight_options(state.rulings), **options}
        return state.lattice.sight_report(source, target, **chosen)

    def explain_action(self, state: SkiState, action: Action) -> list[str]:
        return text.explain_action(state, action)

    def describe_option(self, state: SkiState, decision: Decide[Any], option: object) -> str:
        return text.describe_option(state, decision, option)

    def action_menu(self, state: SkiState, actions: Sequence[Action]) -> ActionMenu:
        """The actions for the table: by kind, with AP costs, nearest destinations first."""
        return menu.action_menu(state, actions)

    # -- policies ------------------------------------------------------------------------------

    def rank_actions(self, state: SkiState, actions: Sequence[Action]) -> list[float]:
        from tactica.rulesets.skirmishers.policy import rank_actions

        return rank_actions(state, actions)

    def choose_decision(self, state: SkiState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        from tactica.rulesets.skirmishers.policy import choose_decision

        return choose_decision(state, decision, rng)

    # -- simulation kernel ---------------------------------------------------------------------

    def prepare_kernel(self, scenario: Scenario) -> PreparedKernel | NotCovered:
        """The compiled kernel of ``scenario`` (:mod:`~tactica.rulesets.skirmishers.kernel`)."""
        from tactica.rulesets.skirmishers.kernel import prepare

        return prepare(scenario)


SKIRMISHERS = Skirmishers()
