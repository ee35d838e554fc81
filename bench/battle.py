"""Benchmark: whole battles per second, against the time of only drawing their dice.

Plays the 5 vs 5 firefight (``examples/nebulia/firefight.yaml``) on one core, both sides with
the same policy, once per policy (greedy, random), exactly as ``tactica simulate`` plays each
battle (:func:`tactica.simulate.play_battle`). Then the same battles are played again with dice
that record every roll request (not timed), and only the dice are drawn again: one
:meth:`Dist.sample <tactica.dice.Dist.sample>` per request, from the same distributions, in the
same order. The ratio ``battle time / dice time`` says how much the rules, the policies and
the log cost on top of the dice. Run with ``python bench/battle.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tactica.battle import Battle, SampledDice
from tactica.chance import Roll
from tactica.dice import Dist
from tactica.policies import make_policy
from tactica.scenario import Scenario, load_scenario
from tactica.simulate import play_battle

__all__ = ["Row", "main", "measure"]

FIREFIGHT = Path(__file__).resolve().parents[1] / "examples" / "nebulia" / "firefight.yaml"


class RecordingDice(SampledDice):
    """Seeded virtual dice that keep the distribution of every roll request."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        self.dists: list[Dist[Any]] = []

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        self.dists.append(request.dist)
        return super().roll(request)


@dataclass(frozen=True)
class Row:
    """One policy's figures."""

    policy: str
    battles: int
    battle_seconds: float
    rolls: int
    steps: int
    dice_seconds: float

    @property
    def battles_per_second(self) -> float:
        return self.battles / self.battle_seconds

    @property
    def ratio(self) -> float:
        return self.battle_seconds / self.dice_seconds if self.dice_seconds > 0 else float("inf")


def recorded_dists(scenario: Scenario, policy: str, seed: int, index: int
                   ) -> tuple[list[Dist[Any]], int]:
    """The roll requests of battle ``index`` (the same battle ``play_battle`` plays)."""
    rng = np.random.default_rng([seed, index])
    battle = Battle(scenario.ruleset, scenario.new_state())
    sides = scenario.ruleset.sides_of(battle.state)
    dice = RecordingDice(rng)
    battle.run({s: make_policy(policy) for s in sides}, dice=dice, rng=rng)
    return dice.dists, len(battle.log)


def measure(scenario: Scenario, policy: str, battles: int, seed: int) -> Row:
    """Time ``battles`` battles with ``policy`` on both sides, then only their dice."""
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = dict.fromkeys(sides, policy)
    play_battle(scenario, policies, seed, 0)  # warm the caches (odds, sight geometry)
    t0 = time.perf_counter()
    results = [play_battle(scenario, policies, seed, i) for i in range(battles)]
    battle_seconds = time.perf_counter() - t0

    dists: list[Dist[Any]] = []
    steps = 0
    for i in range(battles):
        ds, n = recorded_dists(scenario, policy, seed, i)
        assert n == results[i].steps, "the recording run must play the same battle"
        dists.extend(ds)
        steps += n
    for d in set(dists):  # warm the samplers, as the battles did
        d.sample(np.random.default_rng(0))
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    for d in dists:
        d.sample(rng)
    dice_seconds = time.perf_counter() - t0
    return Row(policy, battles, battle_seconds, len(dists), steps, dice_seconds)


def print_table(scenario: Scenario, rows: list[Row]) -> None:
    print(f"{scenario.name} ({Path(scenario.source).name}), one core, both sides the same "
          "policy")
    head = (f"{'policy':<8} {'battles':>7} {'battles/s':>10} {'ms/battle':>10} "
            f"{'rolls/battle':>12} {'records/battle':>14} {'dice only ms':>12} "
            f"{'battle/dice':>11}")
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r.policy:<8} {r.battles:>7} {r.battles_per_second:>10.1f} "
              f"{1000 * r.battle_seconds / r.battles:>10.3f} {r.rolls / r.battles:>12.1f} "
              f"{r.steps / r.battles:>14.1f} {1000 * r.dice_seconds:>12.2f} "
              f"{r.ratio:>11.0f}x")
    print("dice only: one Dist.sample per roll request of those battles, same dists, same order")
    print("battle/dice: time of the whole battles / time of only drawing their dice")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", type=Path, default=FIREFIGHT)
    parser.add_argument("--battles", type=int, default=200, help="battles per policy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policies", nargs="+", default=["greedy", "random"])
    args = parser.parse_args(argv)
    scenario = load_scenario(args.scenario)
    rows = [measure(scenario, p, args.battles, args.seed) for p in args.policies]
    print_table(scenario, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
