"""The greedy policy's move values from each enemy's remembered scores give the plain answer:
one matrix of every reachable tile against every enemy, as first written, on the states of
real battles of every example (both policies, so that positions vary)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tactica.analysis.sim.play import battle_dice
from tactica.engine.battle import Battle
from tactica.engine.policies import make_policy
from tactica.engine.ruleset import ChooseAction
from tactica.engine.scenario import Scenario, load_scenario
from tactica.rulesets.nebulia import geometry, odds
from tactica.rulesets.nebulia.records import Move
from tactica.rulesets.nebulia.rules import NebState, Operator
from tactica.rulesets.nebulia.sighttable import sight_table

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "tactica" / "rulesets" / "nebulia" \
    / "examples"


def _choices(scenario: Scenario, battles: int, policy: str
             ) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = {side: make_policy(policy, scenario.ruleset) for side in sides}
    for i in range(battles):
        battle = Battle(scenario.ruleset, scenario.new_state(), record=False)
        dice = battle_dice(4, i, battle)
        rng = np.random.default_rng(i)
        while not battle.is_over and battle.steps < 300:
            p = battle.pending
            if isinstance(p, ChooseAction):
                yield battle.state, p.actions
            battle.step(policies, dice=dice, rng=rng)


def _plain(state: NebState, me: Operator, tiles: list[tuple[int, int]],
           enemies: list[Operator], dynamic: list[tuple[int, int]]) -> tuple[float, ...]:
    """The move values as first written: one matrix of tiles by enemies."""
    grid = state.grid
    table = sight_table(grid.width, grid.height, grid.blockers, state.rulings["NEB-4"],
                        state.rulings["NEB-3"], geometry.COVER_CANCEL)
    index = np.array([y * grid.width + x for x, y in tiles], dtype=np.intp)
    targets = [table.target(e.pos) for e in enemies]
    columns = [t.visible_cover(dynamic, geometry.MIN_CLEAR_LINES) for t in targets]
    visible = np.stack([v for v, _ in columns], axis=1)[index]
    cover = np.stack([c for _, c in columns], axis=1)[index]
    steps = np.stack([t.steps for t in targets], axis=1)[index]
    adjacent = steps == 1
    melee_needs_sight = state.rulings["NEB-7"] != "adjacent"
    rk = state.rulings.key()
    best = np.zeros(len(tiles))
    for w in me.weapons:
        s_open = np.array([odds._score_key(w, e.armor, False, e.defense, rk) for e in enemies])
        s_cover = np.array([odds._score_key(w, e.armor, True, e.defense, rk) for e in enemies])
        legal = visible
        if w.is_melee:
            legal = adjacent & visible if melee_needs_sight else adjacent
        value = np.where(cover, s_cover, s_open) * legal
        best = np.maximum(best, value.max(axis=1))
    return tuple((best - 0.01 * steps.min(axis=1)).tolist())


@pytest.mark.parametrize("name", ["firefight.yaml", "duel-cover.yaml"])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_move_values_are_the_plain_matrix(name: str, policy: str) -> None:
    scenario = load_scenario(EXAMPLES / name)
    checked = 0
    for state, actions in _choices(scenario, 3, policy):
        units = dict.fromkeys(a.unit for a in actions if isinstance(a, Move))
        for unit in units:
            me = state.ops[unit]
            tiles = [a.to for a in actions if isinstance(a, Move) and a.unit == unit]
            enemies = [o for o in state.alive() if o.side != me.side]
            if not enemies:
                continue
            dynamic = sorted(geometry.blocking_tiles(state, me.side) - state.grid.blockers
                             - {me.pos})
            fast = odds._compute_move_values(state, me, tiles, enemies, dynamic)
            assert fast == _plain(state, me, tiles, enemies, dynamic)
            checked += 1
    assert checked > 10
