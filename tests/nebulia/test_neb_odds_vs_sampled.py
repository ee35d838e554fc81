"""Exact odds against seeded simulation of the same attack: the battle, rolling virtual dice,
and the odds report, enumerating the same chance process, agree within 4 standard errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from neb_builders import attack_ready, op

from tactica import odds_of
from tactica.engine.battle import Battle, SampledDice
from tactica.rulesets.nebulia.records import Attack, Attacked

OPEN = """
A.........
..........
.......B..
"""
CRATE = """
A.........
.......#..
.......B..
"""
N = 1500


@pytest.mark.parametrize(
    ("tiles", "rulings", "attacker", "defender", "faces"),
    [
        (OPEN, {}, op("red", accuracy=6), op("blue", armor=3, defense=1), False),
        (CRATE, {}, op("red", accuracy=5, dice=3), op("blue", armor=4, defense=2), True),
        (CRATE, {"NEB-6": "characteristic"}, op("red", accuracy=7, dice=2, damage=2),
         op("blue", armor=5, defense=3), False),
        (OPEN, {"NEB-1": "one-to-ten"}, op("red", accuracy=4, dice=4),
         op("blue", armor=2, defense=2), True),
    ],
)
def test_battle_attacks_agree_with_the_exact_odds(
    tiles: str, rulings: dict[str, str], attacker: dict, defender: dict, faces: bool
) -> None:
    battle = attack_ready(tiles, rulings=rulings, A=attacker, B=defender)
    report = odds_of(battle.ruleset, battle.state, "A", "B")
    exact = report.distributions["damage"]
    rng = np.random.default_rng(2024)
    dice = SampledDice(rng, faces=faces)
    counts: dict[int, int] = {}
    out = 0
    for _ in range(N):
        trial = Battle(battle.ruleset, battle.ruleset.copy_state(battle.state))
        events = trial.apply(Attack("A", "rifle", "B"), dice=dice)
        damage = next(e.damage for e in events if isinstance(e, Attacked))
        counts[damage] = counts.get(damage, 0) + 1
        out += trial.state.ops["B"].out
    assert set(counts) <= set(exact.outcomes)
    for value, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / N)
        assert abs(counts.get(value, 0) / N - float(p)) <= 4 * se + 1e-12, (value, p, counts)
    mean = sum(v * c for v, c in counts.items()) / N
    assert abs(mean - float(exact.mean())) <= 4 * exact.sd() / math.sqrt(N)
    p_out = float(report.numbers["p_out_of_action"])
    assert abs(out / N - p_out) <= 4 * math.sqrt(p_out * (1 - p_out) / N)
