"""Simulation of the example scenarios, and the greedy policy's use of abilities and limits."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lod_builders import EXAMPLES, battle, enemy, example, make, to_turn

from tactica.analysis.simulate import simulate
from tactica.engine.battle import Battle, SampledDice
from tactica.engine.chance import Decide, Done
from tactica.engine.events import ActionTaken
from tactica.engine.policies import GreedyPolicy, RandomPolicy
from tactica.rulesets.last_odyssey.policy import choose_decision
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    AmmoChanged,
    Flee,
    ManaChanged,
    UseAbility,
)
from tactica.rulesets.last_odyssey.state import apply_event

SCENARIOS = ("police.yaml", "goblins.yaml", "cop-vs-goblin.yaml")


@pytest.mark.parametrize("name", SCENARIOS)
def test_simulate_is_reproducible(name: str) -> None:
    sc = example(name)
    first = simulate(sc, battles=200, seed=11, workers=1).to_dict()
    again = simulate(sc, battles=200, seed=11, workers=1).to_dict()
    assert first == again
    assert sum(first["wins"].values()) + first["draws"] == 200
    assert set(first["units"]) == set(sc.new_state().fighters)
    few = simulate(sc, battles=50, seed=11, workers=1).to_dict()
    other = simulate(sc, battles=50, seed=12, workers=1).to_dict()
    assert other["units"] != few["units"]


def test_simulate_is_the_same_on_two_processes() -> None:
    sc = example("cop-vs-goblin.yaml")
    one = simulate(sc, battles=60, seed=5, workers=1).to_dict()
    two = simulate(sc, battles=60, seed=5, workers=2).to_dict()
    assert one == two


def test_random_policies_play_too() -> None:
    report = simulate(example("goblins.yaml"), battles=100, seed=3, policies="random",
                      workers=1).to_dict()
    assert sum(report["wins"].values()) + report["draws"] == 100


@functools.cache
def greedy_battles(name: str, n: int) -> list[Battle]:
    sc = example(name)
    out = []
    for i in range(n):
        rng = np.random.default_rng([99, i])
        b = Battle(sc.ruleset, sc.new_state())
        b.run({s: GreedyPolicy(sc.ruleset) for s in sc.ruleset.sides_of(b.state)},
              dice=SampledDice(rng), rng=rng)
        out.append(b)
    return out


@pytest.mark.parametrize("name", ["police.yaml", "goblins.yaml"])
def test_greedy_enemies_use_their_abilities_within_their_limits(name: str) -> None:
    battles = greedy_battles(name, 20)
    used: Counter[str] = Counter()
    for b in battles:
        state = example(name).new_state()
        once: set[tuple[str, str]] = set()
        for e in b.events():
            if isinstance(e, AbilityUsed):
                f = state.fighters[e.unit]
                ability = state.ability(e.ability)
                if not f.player:
                    used[e.ability] += 1
                if ability.once_per_battle:
                    assert (e.unit, e.ability) not in once
                    once.add((e.unit, e.ability))
            apply_event(state, e)
            for f in state.fighters.values():
                assert f.mp >= 0 and f.ammo >= 0, (e, f.id)
    basics = {"truncheon", "rubber-bullets", "pincers", "fists", "knife", "stab",
              "basic-attack"}
    specials = {a for a in used if a not in basics}
    assert len(specials) >= 3, used


def test_the_captain_reloads_before_the_pistol() -> None:
    for b in greedy_battles("police.yaml", 20):
        ammo = 0
        for e in b.events():
            if isinstance(e, AmmoChanged) and e.unit == "Captain":
                ammo = e.ammo
            if isinstance(e, AbilityUsed) and e.ability == "pistol":
                assert ammo >= 1
                ammo -= 1
            assert not isinstance(e, ManaChanged) or e.mp >= 0


def test_greedy_never_flees_and_values_attacks_over_ending_the_turn() -> None:
    sc = example("cop-vs-goblin.yaml")
    b = to_turn(battle(sc), "Goblin")
    rs = sc.ruleset
    actions = b.legal_actions()
    values = dict(zip(actions, rs.valuation.rank(b.state, actions), strict=True))
    best = max(values, key=values.__getitem__)
    assert isinstance(best, UseAbility)
    for b in greedy_battles("goblins.yaml", 20):
        assert not any(isinstance(e, ActionTaken) and isinstance(e.action, Flee)
                       for e in b.log)


def test_the_other_side_sends_a_confused_attack_where_it_hurts_its_owner(tmp_path: Path) -> None:
    pack = {"enemies": {"a": enemy(init=9, patk=5, pacc=10), "weak": enemy(hp=3),
                        "tough": enemy(hp=90, pdef=5, shell=40)}}
    sc = make(tmp_path, {"A": {"enemy": "a", "statuses": ["confused"]},
                         "Weak": {"enemy": "weak"}, "Tough": {"enemy": "tough"}},
              {"left": "A, Weak", "right": "Tough"}, pack=pack)
    state = to_turn(battle(sc), "A").state
    decision: Decide[Any] = Decide("right", "confused target", ("Tough", "Weak"), Done,
                                   {"user": "A", "ability": "fists", "aimed": "Tough"})
    assert choose_decision(state, decision, None) == "Weak"
    advance: Decide[Any] = Decide("right", "advance on left", (True, False), Done)
    assert choose_decision(state, advance, None) is True


def test_policy_calls_aim_at_the_likeliest_roll(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Rook": {"character": "rook"}, "T": {"enemy": "t"}},
              {"party": "Rook", "them": "T"}, pack={"enemies": {"t": enemy()}},
              rulings={"LOD-8": "policy"})
    b = battle(sc)
    rng = np.random.default_rng(0)
    b.advance(dice=SampledDice(rng), policies={s: GreedyPolicy(b.ruleset) for s in b.state.sides},
              rng=rng)
    ini = next(e for e in b.events() if e.__class__.__name__ == "InitiativeRolled")
    assert ini.calls == (("Rook", 5),)
    b2 = battle(sc)
    b2.advance(dice=SampledDice(rng),
               policies={s: RandomPolicy(b2.ruleset) for s in b2.state.sides}, rng=rng)
    assert next(e for e in b2.events() if e.__class__.__name__ == "InitiativeRolled").calls


def test_examples_name_the_game_and_load() -> None:
    for name in SCENARIOS:
        sc = example(name)
        assert sc.ruleset.meta.name == "last-odyssey"
    assert (EXAMPLES / "street-fight.yaml").exists()
    assert isinstance(EXAMPLES, Path)
