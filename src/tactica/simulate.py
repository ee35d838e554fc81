"""Monte Carlo of whole battles: seeded, parallel, and the same numbers on any core count.

Battle ``i`` of a run with seed ``s`` draws from ``numpy.random.default_rng([s, i])`` and its
own policies, so the battles are independent of how they are split between processes; results
are gathered in battle order. Win rates come with Wilson 95% intervals.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tactica.battle import Battle, SampledDice
from tactica.errors import TacticaError
from tactica.policies import make_policy
from tactica.rulings import Ruling
from tactica.scenario import Scenario, scenario_from_mapping
from tactica.stats import UnitStats, battle_stats

__all__ = ["BattleResult", "SimulationReport", "play_battle", "simulate", "wilson"]


@dataclass(frozen=True)
class BattleResult:
    """One battle's outcome: the winner (``None`` for a draw), rounds, and per-unit figures."""

    winner: str | None
    rounds: int
    units: Mapping[str, UnitStats]
    steps: int


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_battle(
    scenario: Scenario, policies: Mapping[str, str], seed: int, index: int
) -> BattleResult:
    """Play battle number ``index`` of a run seeded with ``seed`` to the end."""
    rng = np.random.default_rng([seed, index])
    state = scenario.new_state()
    battle = Battle(scenario.ruleset, state)
    chosen = {side: make_policy(name, scenario.ruleset) for side, name in policies.items()}
    dice = SampledDice(rng)
    battle.run(chosen, dice=dice, rng=rng)
    stats = battle_stats(scenario.ruleset, battle.state, battle.events())
    return BattleResult(battle.winner, stats.rounds, stats.units, len(battle.log))


@dataclass(frozen=True)
class SimulationReport:
    """Aggregated results of many battles."""

    scenario: str
    battles: int
    seed: int
    sides: tuple[str, ...]
    policies: Mapping[str, str]
    rulings: Mapping[str, str]
    declared_rulings: tuple[Ruling, ...]
    wins: Mapping[str, int]
    draws: int
    rounds: Sequence[int]
    units: Mapping[str, Mapping[str, Any]]

    def win_rate(self, side: str) -> tuple[float, tuple[float, float]]:
        """The side's win rate and its 95% interval."""
        return self.wins[side] / self.battles, wilson(self.wins[side], self.battles)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (identical for identical runs)."""
        rounds = np.asarray(self.rounds, dtype=float)
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "battles": self.battles,
            "seed": self.seed,
            "policies": dict(self.policies),
            "rulings": dict(self.rulings),
            "wins": dict(self.wins),
            "draws": self.draws,
            "win_rate": {},
            "draw_rate": {"p": round(self.draws / self.battles, 6),
                          "ci95": [round(x, 6) for x in wilson(self.draws, self.battles)]},
            "rounds": {
                "mean": round(float(rounds.mean()), 6),
                "sd": round(float(rounds.std(ddof=1)) if len(rounds) > 1 else 0.0, 6),
                "min": int(rounds.min()),
                "max": int(rounds.max()),
            },
            "units": {k: dict(v) for k, v in self.units.items()},
        }
        for side in self.sides:
            p, ci = self.win_rate(side)
            out["win_rate"][side] = {"p": round(p, 6), "ci95": [round(ci[0], 6), round(ci[1], 6)]}
        return out

    def _repr_html_(self) -> str:
        from tactica.views import html_of, simulation_tables

        return html_of(simulation_tables(self))

    def to_pandas(self) -> Any:
        """The sides and draws (wins, win rate, 95% interval) as a pandas DataFrame."""
        from tactica.views import simulation_frame

        return simulation_frame(self)


# Worker processes rebuild the scenario once from its data (cheap, and always picklable).
_WORKER: dict[str, Any] = {}


def _init_worker(data: Mapping[str, Any], source: str, base_dir: str) -> None:
    _WORKER["scenario"] = scenario_from_mapping(dict(data), source=source,
                                                base_dir=Path(base_dir))


def _run_chunk(args: tuple[Mapping[str, str], int, int, int]) -> list[BattleResult]:
    policies, seed, start, stop = args
    scenario = _WORKER["scenario"]
    return [play_battle(scenario, policies, seed, i) for i in range(start, stop)]


def simulate(
    scenario: Scenario,
    *,
    battles: int,
    seed: int,
    policies: Mapping[str, str] | str = "greedy",
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``battles`` battles and aggregate them; ``progress(n)`` is told of each chunk done."""
    if battles < 1:
        raise TacticaError(f"--battles: expected at least 1, got {battles}")
    state = scenario.new_state()
    sides = scenario.ruleset.sides_of(state)
    chosen = {s: policies for s in sides} if isinstance(policies, str) else dict(policies)
    for s in sides:
        if s not in chosen:
            raise TacticaError(f"no policy given for side {s!r}")
        make_policy(chosen[s], scenario.ruleset)
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    n_workers = max(1, min(n_workers, battles))
    chunk = max(1, min(250, math.ceil(battles / (n_workers * 8))))
    ranges = [(i, min(i + chunk, battles)) for i in range(0, battles, chunk)]
    results: list[BattleResult] = []
    if n_workers == 1:
        for start, stop in ranges:
            results.extend(play_battle(scenario, chosen, seed, i) for i in range(start, stop))
            if progress:
                progress(stop - start)
    else:
        base_dir = str(scenario.base_dir)
        with ProcessPoolExecutor(
            max_workers=n_workers,
            initializer=_init_worker,
            initargs=(scenario.data, scenario.source, base_dir),
        ) as pool:
            for (start, stop), part in zip(
                ranges, pool.map(_run_chunk, [(chosen, seed, a, b) for a, b in ranges]),
                strict=True,
            ):
                results.extend(part)
                if progress:
                    progress(stop - start)
    return _aggregate(scenario, results, battles, seed, sides, chosen)


def _aggregate(scenario: Scenario, results: list[BattleResult], battles: int, seed: int,
               sides: tuple[str, ...], policies: Mapping[str, str]) -> SimulationReport:
    wins = {s: 0 for s in sides}
    draws = 0
    for r in results:
        if r.winner is None:
            draws += 1
        else:
            wins[r.winner] = wins.get(r.winner, 0) + 1
    units: dict[str, dict[str, Any]] = {}
    for uid in results[0].units:
        rows = [r.units[uid] for r in results]
        survived = sum(1 for row in rows if row.survived)
        lo, hi = wilson(survived, len(rows))
        units[uid] = {
            "side": rows[0].side,
            "survival": round(survived / len(rows), 6),
            "survival_ci95": [round(lo, 6), round(hi, 6)],
            "damage_dealt_mean": round(sum(row.damage_dealt for row in rows) / len(rows), 6),
            "damage_taken_mean": round(sum(row.damage_taken for row in rows) / len(rows), 6),
        }
    return SimulationReport(
        scenario=scenario.name,
        battles=battles,
        seed=seed,
        sides=sides,
        policies=policies,
        rulings=dict(scenario.rulings),
        declared_rulings=scenario.rulings.declared(),
        wins=wins,
        draws=draws,
        rounds=[r.rounds for r in results],
        units=units,
    )
