"""Running totals of many battles: exact integer sums that merge in any order.

A :class:`Tally` adds one battle at a time and keeps no battle: a few integers per side and per
unit, whatever the number of battles (the old per-battle list kept about 2.3 KB a battle). Every
figure is an integer sum, a minimum or a maximum, so merging the tallies of chunks played on
other processes or machines gives the same numbers in any order: the reason the same seed
gives identical JSON on 1 or 2 workers and on a Dask cluster.

A :class:`PairedTally` keeps, for each variant after the first, the sums of the per-battle
differences of the win indicators against the first variant (and of their squares): the paired
difference and its interval under common random numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tactica.engine.stats import BattleResult

__all__ = ["Z95", "BattleResult", "PairedTally", "Tally", "engine_entry", "paired_interval",
           "wilson"]

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_interval(total: int, squares: int, n: int, z: float = Z95
                    ) -> tuple[float, tuple[float, float]]:
    """The mean of ``n`` paired differences from their sum and sum of squares, with its
    interval ``mean ± z·sd/√n`` (sample sd; an infinite interval below two battles)."""
    if n == 0:
        return 0.0, (-math.inf, math.inf)
    mean = total / n
    if n < 2:
        return mean, (-math.inf, math.inf)
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = z * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


@dataclass
class _Unit:
    side: str
    survived: int = 0
    dealt: int = 0
    taken: int = 0


@dataclass
class Tally:
    """The running totals of the battles of one variant (see the module's docs)."""

    sides: tuple[str, ...]
    battles: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    unfinished: int = 0
    rounds_sum: int = 0
    rounds_squares: int = 0
    rounds_min: int = 0
    rounds_max: int = 0
    units: dict[str, _Unit] = field(default_factory=dict)
    #: Battles played by a compiled kernel and by the reference
    #: (see :mod:`tactica.analysis.sim.kernels`).
    kernel: int = 0
    reference: int = 0
    #: Why the reference played: battles per reason.
    not_covered: dict[str, int] = field(default_factory=dict)
    #: Battles that consulted each ruling (recorded when asked: see
    #: :mod:`tactica.engine.consulted`).
    consulted: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for s in self.sides:
            self.wins.setdefault(s, 0)

    def count_engine(self, reason: str | None) -> None:
        """Count who played one battle: the kernel (``reason`` None) or the reference."""
        if reason is None:
            self.kernel += 1
        else:
            self.reference += 1
            self.not_covered[reason] = self.not_covered.get(reason, 0) + 1

    def engine(self) -> dict[str, Any]:
        """Battles played by each engine, and why the reference played:
        ``{"kernel": N, "reference": M, "reasons": {reason: battles}}``."""
        return engine_entry(self.kernel, self.reference, self.not_covered)

    def add(self, r: BattleResult) -> None:
        """Count one battle."""
        if not r.finished:
            self.unfinished += 1
        elif r.winner is None:
            self.draws += 1
        else:
            self.wins[r.winner] = self.wins.get(r.winner, 0) + 1
        if self.battles == 0:
            self.rounds_min = self.rounds_max = r.rounds
        else:
            self.rounds_min = min(self.rounds_min, r.rounds)
            self.rounds_max = max(self.rounds_max, r.rounds)
        self.battles += 1
        for ruling in r.consulted:
            self.consulted[ruling] = self.consulted.get(ruling, 0) + 1
        self.rounds_sum += r.rounds
        self.rounds_squares += r.rounds * r.rounds
        for uid, u in r.units.items():
            row = self.units.get(uid)
            if row is None:
                row = self.units[uid] = _Unit(u.side)
            row.survived += u.survived
            row.dealt += u.damage_dealt
            row.taken += u.damage_taken

    def merge(self, other: Tally) -> None:
        """Add another tally's battles (any order gives the same totals)."""
        if other.battles == 0:
            return
        if self.battles == 0:
            self.rounds_min, self.rounds_max = other.rounds_min, other.rounds_max
        else:
            self.rounds_min = min(self.rounds_min, other.rounds_min)
            self.rounds_max = max(self.rounds_max, other.rounds_max)
        self.battles += other.battles
        self.kernel += other.kernel
        self.reference += other.reference
        for reason, k in other.not_covered.items():
            self.not_covered[reason] = self.not_covered.get(reason, 0) + k
        for ruling, k in other.consulted.items():
            self.consulted[ruling] = self.consulted.get(ruling, 0) + k
        for s, n in other.wins.items():
            self.wins[s] = self.wins.get(s, 0) + n
        self.draws += other.draws
        self.unfinished += other.unfinished
        self.rounds_sum += other.rounds_sum
        self.rounds_squares += other.rounds_squares
        for uid, u in other.units.items():
            row = self.units.get(uid)
            if row is None:
                row = self.units[uid] = _Unit(u.side)
            row.survived += u.survived
            row.dealt += u.dealt
            row.taken += u.taken

    def half_widths(self) -> list[float]:
        """The half widths of every interval the report shows (win, draw, survival)."""
        n = self.battles
        counts = [*(self.wins[s] for s in self.sides), self.draws,
                  *(u.survived for u in self.units.values())]
        out = []
        for k in counts:
            lo, hi = wilson(k, n)
            out.append((hi - lo) / 2)
        return out

    def summary(self, unit_order: Sequence[str] = ()) -> dict[str, Any]:
        """The JSON-ready figures (rounded to 6 places)."""
        n = self.battles
        out: dict[str, Any] = {
            "battles": n,
            "wins": {s: self.wins[s] for s in self.sides},
            "draws": self.draws,
            "unfinished": self.unfinished,
            "win_rate": {},
            "draw_rate": _rate(self.draws, n),
        }
        for s in self.sides:
            out["win_rate"][s] = _rate(self.wins[s], n)
        mean = self.rounds_sum / n if n else 0.0
        var = ((self.rounds_squares - self.rounds_sum * self.rounds_sum / n) / (n - 1)
               if n > 1 else 0.0)
        out["rounds"] = {"mean": round(mean, 6), "sd": round(math.sqrt(max(0.0, var)), 6),
                         "min": self.rounds_min, "max": self.rounds_max}
        order = [u for u in unit_order if u in self.units]
        order += sorted(u for u in self.units if u not in order)
        units: dict[str, Any] = {}
        for uid in order:
            row = self.units[uid]
            lo, hi = wilson(row.survived, n)
            units[uid] = {
                "side": row.side,
                "survival": round(row.survived / n, 6) if n else 0.0,
                "survival_ci95": [round(lo, 6), round(hi, 6)],
                "damage_dealt_mean": round(row.dealt / n, 6) if n else 0.0,
                "damage_taken_mean": round(row.taken / n, 6) if n else 0.0,
            }
        out["units"] = units
        return out


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"p": round(k / n, 6) if n else 0.0, "ci95": [round(lo, 6), round(hi, 6)]}


@dataclass
class PairedTally:
    """Per-battle differences of each later variant against the first: for every outcome (a
    side's win, or a draw) the sum of the differences of its indicator and of their squares."""

    outcomes: tuple[str, ...]
    variants: int
    battles: int = 0
    sums: list[dict[str, int]] = field(default_factory=list)
    squares: list[dict[str, int]] = field(default_factory=list)
    #: Per later variant: battles that did not end the same way as under the first.
    changed: list[int] = field(default_factory=list)
    #: Per later variant: battles that consulted the compared ruling under either variant.
    consulted: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.sums:
            self.sums = [dict.fromkeys(self.outcomes, 0) for _ in range(self.variants - 1)]
            self.squares = [dict.fromkeys(self.outcomes, 0) for _ in range(self.variants - 1)]
        if not self.changed:
            self.changed = [0] * (self.variants - 1)
            self.consulted = [0] * (self.variants - 1)

    def add(self, results: Sequence[BattleResult],
            rulings: Sequence[str | None] = ()) -> None:
        """Count one battle played under every variant (``results`` in variant order);
        ``rulings``: per variant, the ruling it changes (its consultation is counted)."""
        self.battles += 1
        first = results[0]
        base = _indicators(first, self.outcomes)
        for v, r in enumerate(results[1:]):
            if not r.same_battle(first):
                self.changed[v] += 1
            ruling = rulings[v + 1] if v + 1 < len(rulings) else None
            if ruling is not None and (ruling in r.consulted or ruling in first.consulted):
                self.consulted[v] += 1
            ind = _indicators(r, self.outcomes)
            sums, squares = self.sums[v], self.squares[v]
            for o in self.outcomes:
                d = ind[o] - base[o]
                sums[o] += d
                squares[o] += d * d

    def merge(self, other: PairedTally) -> None:
        """Add another tally's battles."""
        self.battles += other.battles
        for v in range(self.variants - 1):
            self.changed[v] += other.changed[v]
            self.consulted[v] += other.consulted[v]
            for o in self.outcomes:
                self.sums[v][o] += other.sums[v][o]
                self.squares[v][o] += other.squares[v][o]

    def interval(self, variant: int, outcome: str) -> tuple[float, tuple[float, float]]:
        """The mean paired difference of ``outcome`` (variant ``variant`` >= 1 minus the
        first) and its 95% interval."""
        return paired_interval(self.sums[variant - 1][outcome],
                               self.squares[variant - 1][outcome], self.battles)

    def half_widths(self) -> list[float]:
        """The half widths of every paired interval."""
        out = []
        for v in range(1, self.variants):
            for o in self.outcomes:
                _, (lo, hi) = self.interval(v, o)
                out.append((hi - lo) / 2)
        return out


DRAW = "draw"


def _indicators(r: BattleResult, outcomes: Sequence[str]) -> dict[str, int]:
    won = r.winner if r.finished else None
    out = {o: int(o == won) for o in outcomes}
    if DRAW in out:
        out[DRAW] = int(r.finished and r.winner is None)
    return out


def engine_entry(kernel: int, reference: int, reasons: Mapping[str, int]) -> dict[str, Any]:
    """The ``engine`` entry of a command's JSON: battles played by the compiled kernel and by
    the reference, and the reference's battles per reason (most battles first).

    >>> engine_entry(8, 2, {"the policy 'first-option'": 2})
    {'kernel': 8, 'reference': 2, 'reasons': {"the policy 'first-option'": 2}}
    """
    ranked = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"kernel": kernel, "reference": reference, "reasons": dict(ranked)}
