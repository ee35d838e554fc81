"""Benchmark: whole battles per second for every game's examples, against only drawing their dice.

Every registered game (:func:`tactica.engine.ruleset.rulesets`) and each of its example scenarios
(:func:`tactica.engine.ruleset.example_scenarios`) is played on one core, both sides with the same
policy, once per policy (greedy, random), exactly as ``tactica simulate`` plays each battle
(:func:`tactica.analysis.simulate.play_battle`), after a few warm-up battles (the caches a long run
fills). Then the same battles are played again with dice that record every roll request (not
timed), and only the dice are drawn again: one :meth:`Dist.sample <tactica.dice.Dist.sample>`
per request, from the same distributions, in the same order, with a numpy generator. The ratio
``battle time / dice time`` says how much the rules, the policies and the core cost on top of
the dice. A short cProfile run per row gives the top entries by own time.

Times are CPU time of this process (:func:`time.process_time`), not wall time: on a shared
machine other programs then slow the figures down far less (both the battles and the dice are
measured the same way).

``--baseline BEFORE.json`` (an earlier run's ``--json``, of other code) adds its battles per
second and the speed-up against it to every row.

A game with a compiled simulation kernel (:mod:`tactica.analysis.sim.kernels`) is timed on the same
battles through its kernel too, best of ``--passes`` passes (each battle checked equal to the
reference's first): the kernel's ms per battle, its speed-up over the reference, and the ratio
of the kernel's time to drawing the battle's *keyed* dice alone (the reference's
:class:`~tactica.engine.streams.KeyedDice`: the same keys, the same distributions, in Python).

Games added later (plug-ins, other packages) are included as soon as they are registered.
Run with ``python bench/battle.py`` (``--help`` for options); ``make bench`` runs it too.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.analysis.simulate import DEFAULT_MAX_STEPS, logged_battle, play_battle
from tactica.dice import Dist
from tactica.engine.battle import Dice
from tactica.engine.chance import Roll
from tactica.engine.ruleset import NotCovered, example_scenarios, rulesets
from tactica.engine.scenario import Scenario, load_scenario
from tactica.engine.streams import KeyedDice, _KeyedGenerator

__all__ = ["Row", "main", "measure"]


class RecordingDice:
    """Dice that keep the distribution (and, for keyed dice, the key) of every roll request
    they answer."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.dists: list[Dist[Any]] = []
        self.keys: list[bytes] = []

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        self.dists.append(request.dist)
        answer = self.inner.roll(request)
        inner = self.inner
        if isinstance(inner, KeyedDice):  # the key the roll was drawn from
            slot = (inner._actor, request.label)
            k = inner.counts[slot] - 1
            self.keys.append(f"{inner.prefix}{slot[0]}|{slot[1]}|{k}".encode())
        return answer


@dataclass
class Row:
    """One scenario and policy's figures."""

    game: str
    scenario: str
    policy: str
    battles: int
    battle_seconds: float
    rolls: int
    steps: int
    dice_seconds: float
    top: list[str] = field(default_factory=list)
    keyed_seconds: float = 0.0
    """Drawing the battles' keyed dice alone (the reference's KeyedDice)."""
    kernel_seconds: float | None = None
    """The same battles through the compiled kernel (best pass), None without one."""
    kernel_note: str = ""

    @property
    def battles_per_second(self) -> float:
        return self.battles / self.battle_seconds

    @property
    def ratio(self) -> float:
        return self.battle_seconds / self.dice_seconds if self.dice_seconds > 0 else float("inf")

    @property
    def speedup(self) -> float | None:
        """Reference time / kernel time."""
        if not self.kernel_seconds:
            return None
        return self.battle_seconds / self.kernel_seconds

    @property
    def kernel_dice_ratio(self) -> float | None:
        """Kernel time / keyed dice time."""
        if self.kernel_seconds is None or self.keyed_seconds <= 0:
            return None
        return self.kernel_seconds / self.keyed_seconds


def recorded_dists(scenario: Scenario, policy: str, seed: int, index: int
                   ) -> tuple[list[Dist[Any]], int, str | None, list[bytes]]:
    """The roll requests of battle ``index`` (the very battle ``play_battle`` plays) and
    their keys."""
    sides = scenario.ruleset.sides_of(scenario.new_state())
    recorders: list[RecordingDice] = []

    def wrap(dice: Dice) -> Dice:
        recorders.append(RecordingDice(dice))
        return recorders[-1]

    battle = logged_battle(scenario, dict.fromkeys(sides, policy), seed, index, wrap=wrap)
    return recorders[0].dists, battle.steps, battle.winner, recorders[0].keys


def _top(scenario: Scenario, policies: dict[str, str], seed: int, start: int, seconds: float,
         n: int) -> list[str]:
    prof = cProfile.Profile()
    t0 = time.process_time()
    i = start
    prof.enable()
    while time.process_time() - t0 < seconds:
        play_battle(scenario, policies, seed, i)
        i += 1
    prof.disable()
    stats = pstats.Stats(prof)
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
    total = sum(v[2] for _, v in rows) or 1.0
    out = []
    for (file, line, name), (_, _, tottime, _, _) in rows[:n]:
        where = Path(file).name if file != "~" else "builtin"
        out.append(f"{100 * tottime / total:4.1f}% {where}:{line}({name})")
    return out


def _kernel_seconds(scenario: Scenario, policies: dict[str, str], seed: int,
                    results: list[Any], passes: int) -> tuple[float | None, str]:
    """The best of ``passes`` CPU times of the kernel over the same battles (each checked
    equal to the reference's), or None and why the reference plays them."""
    kernel = prepared_kernel(scenario)
    if isinstance(kernel, NotCovered):
        return None, kernel.reason
    best: float | None = None
    for _ in range(max(1, passes)):
        t0 = time.process_time()
        got = [kernel.play(policies, seed, i, DEFAULT_MAX_STEPS) for i in range(len(results))]
        spent = time.process_time() - t0
        best = spent if best is None else min(best, spent)
        if got != results:
            return None, "the kernel's battles differ from the reference's"
    return best, ""


def measure(scenario: Scenario, policy: str, *, seconds: float, max_battles: int, seed: int,
            warmup: int, profile: float, top: int, passes: int = 3) -> Row:
    """Time ``policy`` on both sides for ``seconds`` (at most ``max_battles`` battles), then
    only their dice; ``profile`` seconds of cProfile give the ``top`` entries."""
    sides = scenario.ruleset.sides_of(scenario.new_state())
    policies = dict.fromkeys(sides, policy)
    for i in range(warmup):  # warm the caches as a long run does (odds, sight tables, moves)
        play_battle(scenario, policies, seed, max_battles + i)
    results = []
    t0 = time.process_time()
    while len(results) < max_battles and (time.process_time() - t0 < seconds or not results):
        results.append(play_battle(scenario, policies, seed, len(results)))
    battle_seconds = time.process_time() - t0

    dists: list[Dist[Any]] = []
    keys: list[bytes] = []
    steps = 0
    for i, r in enumerate(results):
        ds, n, winner, ks = recorded_dists(scenario, policy, seed, i)
        assert n == r.steps and winner == r.winner, "the recording run must play the same battle"
        dists.extend(ds)
        keys.extend(ks)
        steps += n
    for d in set(dists):  # warm the samplers, as the battles did
        d.sample(np.random.default_rng(0))
    rng = np.random.default_rng(seed)
    t0 = time.process_time()
    for d in dists:
        d.sample(rng)
    dice_seconds = time.process_time() - t0
    keyed = [(d, k) for d, k in zip(dists, keys, strict=True)]
    t0 = time.process_time()
    for d, k in keyed:
        d.sample(_KeyedGenerator(k))  # type: ignore[arg-type]
    keyed_seconds = time.process_time() - t0
    kernel_seconds, note = _kernel_seconds(scenario, policies, seed, results, passes)
    tops = _top(scenario, policies, seed, len(results), profile, top) if profile > 0 else []
    return Row(scenario.ruleset.meta.name, Path(scenario.source).name, policy, len(results),
               battle_seconds, len(dists), steps, dice_seconds, tops, keyed_seconds,
               kernel_seconds, note)


def load_baseline(path: Path) -> dict[tuple[str, str, str], float]:
    """Battles per second by (game, scenario, policy) from an earlier run's ``--json``."""
    rows = json.loads(path.read_text())
    return {(r["game"], r["scenario"], r["policy"]): float(r["battles_per_second"])
            for r in rows}


def print_table(rows: list[Row], baseline: dict[tuple[str, str, str], float] | None = None
                ) -> None:
    """Every row side by side (with the baseline's battles per second and the speed-up
    against it when given), then each row's profile."""
    print("whole battles on one core (CPU time), both sides the same policy")
    extra = f" {'base/s':>8} {'speed-up':>8}" if baseline is not None else ""
    head = (f"{'game':<20} {'scenario':<22} {'policy':<7} {'battles':>7} {'battles/s':>10} "
            f"{'ms/battle':>10} {'rolls/b':>8} {'steps/b':>8} {'battle/dice':>11}{extra}")
    print(head)
    print("-" * len(head))
    for r in rows:
        line = (f"{r.game:<20} {r.scenario:<22} {r.policy:<7} {r.battles:>7} "
                f"{r.battles_per_second:>10.1f} {1000 * r.battle_seconds / r.battles:>10.3f} "
                f"{r.rolls / r.battles:>8.1f} {r.steps / r.battles:>8.1f} {r.ratio:>10.1f}x")
        if baseline is not None:
            base = baseline.get((r.game, r.scenario, r.policy))
            line += (f" {base:>8.1f} {r.battles_per_second / base:>7.1f}x" if base
                     else f" {'-':>8} {'-':>8}")
        print(line)
    print("dice only: one Dist.sample per roll request of those battles, same dists, same order")
    print("battle/dice: time of the whole battles / time of only drawing their dice")
    print()
    print("compiled simulation kernels: the same battles (checked equal), best pass")
    head = (f"{'game':<20} {'scenario':<22} {'policy':<7} {'ref ms/b':>9} {'kernel ms/b':>11} "
            f"{'speed-up':>8} {'keyed dice ms/b':>15} {'kernel/dice':>11}")
    print(head)
    print("-" * len(head))
    for r in rows:
        ref_ms = 1000 * r.battle_seconds / r.battles
        keyed_ms = 1000 * r.keyed_seconds / r.battles
        if r.kernel_seconds is None:
            print(f"{r.game:<20} {r.scenario:<22} {r.policy:<7} {ref_ms:>9.3f} "
                  f"{'-':>11} {'-':>8} {keyed_ms:>15.4f} {'-':>11}  ({r.kernel_note})")
            continue
        print(f"{r.game:<20} {r.scenario:<22} {r.policy:<7} {ref_ms:>9.3f} "
              f"{1000 * r.kernel_seconds / r.battles:>11.4f} {r.speedup or 0:>7.1f}x "
              f"{keyed_ms:>15.4f} {r.kernel_dice_ratio or 0:>10.2f}x")
    print("keyed dice: drawing the battles' rolls alone from their keys (the reference's "
          "KeyedDice, in Python)")
    for r in rows:
        if r.top:
            print(f"\nprofile, {r.game} {r.scenario} {r.policy} (own time):")
            for line in r.top:
                print(f"  {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--scenario", type=Path, nargs="*", default=None,
                        help="scenario files (default: every game's examples)")
    parser.add_argument("--games", nargs="*", default=None, help="only these games")
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per row")
    parser.add_argument("--battles", type=int, default=2000, help="at most this many per row")
    parser.add_argument("--warmup", type=int, default=20, help="untimed battles first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policies", nargs="+", default=["greedy", "random"])
    parser.add_argument("--profile", type=float, default=1.0,
                        help="seconds of cProfile per row (0: none)")
    parser.add_argument("--top", type=int, default=5, help="profile entries per row")
    parser.add_argument("--passes", type=int, default=3,
                        help="timed passes of a kernel over the battles (the best is shown)")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="an earlier run's --json: its battles/s and the speed-up shown")
    args = parser.parse_args(argv)
    if args.scenario:
        paths = list(args.scenario)
    else:
        paths = [p for rs in rulesets() if not args.games or rs.meta.name in args.games
                 for p in example_scenarios(rs)]
    rows: list[Row] = []
    for path in paths:
        scenario = load_scenario(path)
        for policy in args.policies:
            rows.append(measure(scenario, policy, seconds=args.seconds,
                                max_battles=args.battles, seed=args.seed, warmup=args.warmup,
                                profile=args.profile, top=args.top, passes=args.passes))
            r = rows[-1]
            print(f"  {r.game} {r.scenario} {r.policy}: {r.battles_per_second:.1f}/s, "
                  f"{r.ratio:.1f}x", flush=True)
    print()
    print_table(rows, load_baseline(args.baseline) if args.baseline is not None else None)
    if args.json is not None:
        args.json.write_text(json.dumps(
            [{**asdict(r), "battles_per_second": r.battles_per_second, "ratio": r.ratio,
              "kernel_speedup": r.speedup, "kernel_dice_ratio": r.kernel_dice_ratio}
             for r in rows], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
