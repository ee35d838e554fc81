"""Nebulia Operations: tile grid, corner-to-corner sight lines, D10 pools rolled under.

Source: the Nebulia Operations combat chapter (the only part of the game that could be found).
Weapons, operator profiles, turns and movement are tactica's own illustrative defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from tactica.battlefield.base import Battlefield, SightReport
from tactica.battlefield.grid import TileGrid
from tactica.chance import Step, run_exact
from tactica.dice import Dist
from tactica.odds import OddsReport
from tactica.ruleset import Pending, RulesetMeta, Ruling, Rulings, register
from tactica.rulesets.nebulia import content, rules
from tactica.rulesets.nebulia.records import Attack, Attacked, EndActivation, Move
from tactica.scenario import Scenario

__all__ = ["NEBULIA", "NebuliaOperations"]

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
    Ruling("NEB-12", "May an operator target a friend?", "enemies", {
        "enemies": "only operators of another side can be targeted",
        "any": "any other operator within range (the seed's literal wording)",
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
        aliases=("nebulia", "neb"),
        source="the Nebulia Operations combat chapter; content is tactica's illustrative pack",
        summary="tile grid, corner-to-corner sight lines, D10 pools rolled under",
    )

    # -- scenario ------------------------------------------------------------------------------

    def build_setup(self, data: Mapping[str, Any], *, source: str, battlefield: Battlefield,
                    rulings: Rulings, base_dir: Path) -> content.Setup:
        assert isinstance(battlefield, TileGrid)
        return content.build_setup(data, source=source, occupants=battlefield.occupants,
                                   is_open=lambda t: battlefield.in_bounds(t)
                                   and not battlefield.is_blocking(t),
                                   base_dir=base_dir)

    def initial_state(self, scenario: Scenario) -> rules.NebState:
        setup: content.Setup = scenario.setup
        grid = scenario.battlefield
        assert isinstance(grid, TileGrid)
        ops = {
            u.id: rules.Operator(u.id, u.side, u.defense, u.defense, u.armor, u.move, u.weapons,
                                 u.at)
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

    # -- the core's hooks ----------------------------------------------------------------------

    def pending(self, state: rules.NebState) -> Pending:
        return rules.pending(state)

    def resolve(self, state: rules.NebState, action: Any) -> Step:
        return rules.resolve(state, action)

    def apply_event(self, state: rules.NebState, event: Any) -> None:
        rules.apply_event(state, event)

    def copy_state(self, state: rules.NebState) -> rules.NebState:
        return rules.copy_state(state)

    def describe_action(self, state: rules.NebState, action: Any) -> str:
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

    def describe_event(self, state: rules.NebState, event: Any) -> str:
        from tactica.rulesets.nebulia import text

        return text.describe_event(event)

    def sides_of(self, state: rules.NebState) -> tuple[str, ...]:
        return state.sides

    def unit_ids(self, state: rules.NebState) -> list[str]:
        """Operators in action, in scenario order."""
        return [o.id for o in state.alive()]

    def battlefield_of(self, state: rules.NebState) -> TileGrid:
        """The grid as it stands now, operators where they are (shown by the play command)."""
        return state.grid

    def sight_defaults(self, rulings: Rulings) -> dict[str, str]:
        """The grid's sight options under these rulings (NEB-3, NEB-4, NEB-5)."""
        return {"policy": rulings["NEB-4"], "metric": rulings["NEB-3"],
                "blockers": rulings["NEB-5"]}

    def sight_report(self, state: rules.NebState, source: str, target: str) -> SightReport:
        """Sight and cover between two operators (or ``x,y`` tiles) now, under the rulings."""
        from tactica.rulesets.nebulia import geometry

        return state.grid.sight_report(source, target, **geometry.sight_options(state))

    def battle_stats(self, state: rules.NebState, events: list[Any]) -> dict[str, Any]:
        dealt = dict.fromkeys(state.ops, 0)
        taken = dict.fromkeys(state.ops, 0)
        for e in events:
            if isinstance(e, Attacked):
                dealt[e.unit] += e.damage
                taken[e.target] += e.damage
        units = {
            o.id: {"side": o.side, "survived": not o.out, "defense": o.defense,
                   "damage_dealt": dealt[o.id], "damage_taken": taken[o.id]}
            for o in state.ops.values()
        }
        return {"rounds": state.round, "units": units}

    # -- odds and policies ---------------------------------------------------------------------

    def damage_dist(self, state: rules.NebState, setup: rules.AttackSetup) -> Dist[int]:
        """The exact damage of an attack (cached by everything it depends on)."""
        return damage_dist_for(setup.weapon, setup.armor, setup.cover, state.rulings)

    def attack_options(self, state: rules.NebState, attacker: str) -> list[Attack]:
        """Every attack the operator could make from where it stands, ignoring turn order."""
        return rules.legal_attacks(state, attacker)

    def odds(self, state: rules.NebState, attacker: str, target: str,
             weapon: str | None = None) -> OddsReport:
        from tactica.rulesets.nebulia.odds import attack_odds

        return attack_odds(self, state, attacker, target, weapon)

    def rank_actions(self, state: rules.NebState, actions: Sequence[Any]) -> list[float]:
        """Values of many actions at once (used by the greedy policy)."""
        from tactica.rulesets.nebulia.odds import rank_actions

        return rank_actions(self, state, actions)

    def action_value(self, state: rules.NebState, action: Any) -> float:
        """How good ``action`` looks for the side taking it (used by the greedy policy)."""
        from tactica.rulesets.nebulia.odds import action_value

        return action_value(self, state, action)


NEBULIA = register(NebuliaOperations())
