"""Nebulia Operations: tile grid, corner-to-corner sight lines, D10 pools rolled under.

Source: the Nebulia Operations combat chapter (the only part of the game that could be found).
Weapons, operator profiles, turns and movement are tactica's own illustrative defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tactica.battlefield.base import Battlefield, SightOption, SightReport
from tactica.battlefield.grid.tiles import TileGrid
from tactica.dice import Dist
from tactica.engine.chance import Decide, run_exact
from tactica.engine.errors import IllegalActionError, ScenarioError
from tactica.engine.events import Action, Event
from tactica.engine.odds import OddsReport
from tactica.engine.ruleset import (
    Capability,
    Matchup,
    MatchupProfile,
    NotCovered,
    OddsChoice,
    OddsValue,
    PreparedKernel,
    RulesetMeta,
    UnitStatus,
)
from tactica.engine.rulings import Ruling, Rulings
from tactica.rulesets.nebulia import content, geometry, rules, text
from tactica.rulesets.nebulia.records import Attack, EndActivation, Move

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["MAX_GRID_SIDE", "NEBULIA", "RULINGS", "NebuliaOperations", "damage_dist_for"]

#: The largest grid a Nebulia battle is played on (a battle's work grows with the map).
MAX_GRID_SIDE = 64

RULINGS = (
    Ruling("NEB-1", "What are the D10's faces?", "zero-to-nine", {
        "zero-to-nine": "faces 0-9: 0 always fails, 1 always succeeds, else face <= value",
        "one-to-ten": "faces 1-10 with the 10 read as 0 (same odds, different display)",
    }),
    Ruling("NEB-2", "0 or 1 clear lines?", "not-visible", {
        "not-visible": "fewer than two clear lines: not visible",
    }),
    Ruling("NEB-3", "How is '3 tiles or less' measured?", "chebyshev", {
        "chebyshev": "a diagonal step counts 1",
        "manhattan": "a diagonal step counts 2",
        "euclidean": "straight-line distance between tile centres",
    }),
    Ruling("NEB-4", "A sight line along a tile edge or through a corner: blocked?", "inset", {
        "inset": "corners inset an infinitesimal toward their tile's centre; a line through "
                 "the point between two diagonal blockers is blocked",
        "touch": "any contact with a blocker blocks",
        "interior": "only entering a blocker's interior blocks",
    }),
    Ruling("NEB-5", "Which tiles can block?", "all", {
        "all": "blocking terrain and every other operator, friend or foe",
        "foes": "blocking terrain and the attacker's foes only",
    }),
    Ruling("NEB-6", "Cover's -1: on the die or on the characteristic?", "die", {
        "die": "on the die result (helps the defender); the automatic 1 and 0 read the "
               "natural face",
        "characteristic": "on the armor characteristic",
    }),
    Ruling("NEB-7", "Does melee need visibility?", "adjacent", {
        "adjacent": "adjacency only (8 neighbours)",
        "adjacent-and-visible": "adjacency and at least two clear lines",
    }),
    Ruling("NEB-8", "What happens at defense 0?", "removed", {
        "removed": "the operator is out of action and removed from the map",
    }),
    Ruling("NEB-9", "Turn structure (not in the seed)", "alternate", {
        "alternate": "rounds; sides alternate activating one ready operator (move, then at "
                     "most one attack); a side with no ready operator passes",
        "igougo": "each side activates all its operators, then the next side",
    }),
    Ruling("NEB-10", "Weapons and profiles (not in the seed)", "illustrative", {
        "illustrative": "tactica's illustrative content pack, labelled as examples",
    }),
    Ruling("NEB-11", "Who activates first in a round (not in the seed)?", "alternate", {
        "alternate": "the scenario's first side in round 1, then the next side each round",
        "random": "a random side each round (rolled)",
        "fixed": "the scenario's first side every round",
    }),
    Ruling("NEB-12", "May an operator target a friend?", "any", {
        "any": "any other operator within range, friends included (the seed: 'The attacker "
               "selects one other operator that is within range')",
        "enemies": "only operators of another side can be targeted",
    }),
    Ruling("NEB-13", "May a diagonal step pass between two blocked tiles (not in the seed)?",
           "no-squeeze", {
        "no-squeeze": "not between two blocked tiles; past one blocked corner is fine",
        "free": "any diagonal step to an open tile",
        "no-corner-cutting": "a diagonal step needs both orthogonal neighbours open",
    }),
)


@lru_cache(maxsize=4096)
def _damage_dist(dice: int, accuracy: int, damage: int, armor: int, cover: bool,
                 rulings_key: tuple[tuple[str, str], ...]) -> Dist[int]:
    rulings = Rulings(RULINGS, dict(rulings_key))
    w = content.Weapon("w", "ranged", accuracy, dice, damage)
    setup = rules.AttackSetup("a", "t", w, armor, cover, 0, 4, True)
    return run_exact(rules.attack_process(setup, rulings)).map(
        lambda hs: (hs[0] - hs[1]) * damage
    )


def damage_dist_for(weapon: content.Weapon, armor: int, cover: bool,
                    rulings: Rulings) -> Dist[int]:
    """The exact damage of ``weapon`` against ``armor`` (cached; the same process the
    battle rolls, run through the exact driver)."""
    return _damage_dist(weapon.dice, weapon.accuracy, weapon.damage, armor, cover, rulings.key())


class NebuliaOperations:
    """The Nebulia Operations ruleset."""

    meta: ClassVar[RulesetMeta] = RulesetMeta(
        name="nebulia-operations",
        title="Nebulia Operations",
        battlefield="grid",
        rulings=RULINGS,
        provides=frozenset(Capability),
        aliases=("nebulia", "neb"),
        source="the Nebulia Operations combat chapter; content is tactica's illustrative pack",
        summary="tile grid, corner-to-corner sight lines, D10 pools rolled under",
        content=("content.yaml",),
    )

    # -- the core's hooks ----------------------------------------------------------------------

    pending = staticmethod(rules.pending)
    resolve = staticmethod(rules.resolve)
    apply_event = staticmethod(rules.apply_event)
    copy_state = staticmethod(rules.copy_state)

    def initial_state(self, scenario: Scenario) -> rules.NebState:
        setup = scenario.setup
        grid = scenario.battlefield
        assert isinstance(setup, content.Setup) and isinstance(grid, TileGrid)
        ops = {
            u.id: rules.Operator(u.id, u.side, u.defense - u.defense_lost, u.defense, u.armor,
                                 u.move, u.weapons, u.at)
            for u in setup.units
        }
        placed = grid
        for oid in grid.occupants:
            placed = placed.without_occupant(oid)
        for u in setup.units:
            placed = placed.with_occupant(u.id, u.at)
        placed = placed.with_sides({u.id: u.side for u in setup.units})
        return rules.NebState(placed, ops, setup.sides, scenario.rulings, scenario.max_rounds,
                              setup.first)

    def describe_action(self, state: rules.NebState, action: Action) -> str:
        if isinstance(action, Move):
            here = state.ops[action.unit].pos
            if action.to == here:
                return f"{action.unit} stays at {action.to[0]},{action.to[1]}"
            return f"{action.unit} moves to {action.to[0]},{action.to[1]}"
        if isinstance(action, Attack):
            return f"{action.unit} attacks {action.target} with {action.weapon}"
        if isinstance(action, EndActivation):
            return f"{action.unit} ends its activation"
        return repr(action)

    def describe_event(self, state: rules.NebState, event: Event) -> str:
        return text.describe_event(event)

    def sides_of(self, state: rules.NebState) -> tuple[str, ...]:
        return state.sides

    def units(self, state: rules.NebState) -> tuple[UnitStatus, ...]:
        return tuple(
            UnitStatus(o.id, o.side, not o.out, None if o.out else f"{o.pos[0]},{o.pos[1]}",
                       {"defense": o.defense})
            for o in state.ops.values()
        )

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str,
                    battlefield: Battlefield | None, rulings: Rulings,
                    base_dir: Path) -> content.Setup:
        if not isinstance(battlefield, TileGrid):
            raise ScenarioError(f"{source}: map: Nebulia Operations is played on a grid map")
        grid = battlefield
        if grid.width > MAX_GRID_SIDE or grid.height > MAX_GRID_SIDE:
            raise ScenarioError(
                f"{source}: map: a {grid.width} x {grid.height} grid; Nebulia Operations is "
                f"played on at most {MAX_GRID_SIDE} x {MAX_GRID_SIDE} tiles (the work of a "
                "battle grows with the map: see docs/limits.md)")
        return content.build_setup(data, source=source, occupants=grid.occupants,
                                   is_open=lambda t: grid.in_bounds(t)
                                   and not grid.is_blocking(t),
                                   base_dir=base_dir)

    # -- odds ----------------------------------------------------------------------------------

    def damage_dist(self, state: rules.NebState, setup: rules.AttackSetup) -> Dist[int]:
        """The exact damage of an attack (cached by everything it depends on)."""
        return damage_dist_for(setup.weapon, setup.armor, setup.cover, state.rulings)

    def odds_choices(self, state: rules.NebState, unit: str) -> tuple[OddsChoice, ...]:
        return tuple(OddsChoice(a.unit, (a.target,), a.weapon, a)
                     for a in rules.legal_attacks(state, unit))

    def odds_action(self, state: rules.NebState, unit: str, targets: tuple[str, ...],
                    means: str | None) -> Action:
        from tactica.rulesets.nebulia.odds import choose_attack

        if len(targets) != 1:
            raise IllegalActionError(f"{unit} attacks one target at a time, got {len(targets)}")
        return choose_attack(self, state, unit, targets[0], means)

    def odds(self, state: rules.NebState, action: Action, **options: OddsValue) -> OddsReport:
        from tactica.engine.odds import outcome_report
        from tactica.rulesets.nebulia.odds import attack_odds

        if isinstance(action, Attack):
            return attack_odds(self, state, action)
        return outcome_report(self, state, action)

    # -- matchups ------------------------------------------------------------------------------

    def matchup_profiles(self, content: Sequence[Path]) -> tuple[str, ...]:
        from tactica.rulesets.nebulia.matchup import matchup_profiles

        return matchup_profiles(content)

    def matchup(self, profiles: tuple[MatchupProfile, MatchupProfile], *, range: int | None,
                cover: int | None, rulings: Rulings, content: Sequence[Path]) -> Matchup:
        from tactica.rulesets.nebulia.matchup import matchup

        return matchup(profiles, range=range, cover=cover, rulings=rulings, pack_files=content,
                       game=self.meta.name)

    # -- sight and explanations ----------------------------------------------------------------

    def battlefield_of(self, state: rules.NebState) -> TileGrid:
        """The grid as it stands now, operators where they are."""
        return state.grid

    def sight_options(self, rulings: Rulings) -> dict[str, SightOption]:
        return geometry.grid_options(rulings)

    def sight_report(self, state: rules.NebState, source: str, target: str,
                     **options: SightOption) -> SightReport:
        chosen = {**geometry.grid_options(state.rulings), **options}
        return state.grid.sight_report(source, target, **chosen)

    def explain_action(self, state: rules.NebState, action: Action) -> list[str]:
        if isinstance(action, Attack):
            return list(self.odds(state, action).reasons)
        if isinstance(action, Move):
            path = geometry.path(state, state.ops[action.unit], action.to)
            if len(path) == 1:
                return [f"{action.unit} stays where it is; an attack may follow"]
            steps = " -> ".join(f"{x},{y}" for x, y in path)
            return [f"{len(path) - 1} of {state.ops[action.unit].move} steps: {steps}"]
        return []

    def describe_option(self, state: rules.NebState, decision: Decide[Any],
                        option: object) -> str:
        return str(option)

    # -- policies ------------------------------------------------------------------------------

    def rank_actions(self, state: rules.NebState, actions: Sequence[Action]) -> list[float]:
        from tactica.rulesets.nebulia.odds import rank_actions

        return rank_actions(self, state, actions)

    def choose_decision(self, state: rules.NebState, decision: Decide[Any],
                        rng: np.random.Generator | None) -> object:
        # Nebulia asks no decision inside an action.
        return decision.options[0]

    # -- simulation kernel ---------------------------------------------------------------------

    def prepare_kernel(self, scenario: Scenario) -> PreparedKernel | NotCovered:
        """The compiled kernel of ``scenario`` (:mod:`~tactica.rulesets.nebulia.kernel`)."""
        from tactica.rulesets.nebulia.kernel import prepare

        return prepare(scenario)


NEBULIA = NebuliaOperations()
