"""Monte Carlo of whole battles: seeded, parallel, the same numbers on any executor.

Battle ``i`` of a run with seed ``s`` draws its dice from ``default_rng([s, i, 0])`` and its
policies' choices from ``default_rng([s, i, 1])`` (:mod:`tactica.analysis.sim.play`), so the battles
do not depend on how they are split between processes or machines; results are tallied as they
come (:mod:`tactica.analysis.sim.tally`: a few integers, not a list of battles) and merge exactly in
any order. Win rates come with Wilson 95% intervals.

* :func:`simulate` plays one scenario: a number of battles, or (``precision``) rounds of
  battles until every interval it reports is at most that half width, up to ``max_battles``.
* :func:`compare` plays every battle under each variant of a scenario (a ruling's readings, a
  field's values) with common random numbers and reports each variant's figures and the
  paired difference of each win rate against the first variant, with its 95% interval.

Where the battles run is an executor (:mod:`tactica.analysis.sim.executors`): this process, a local
process pool (the default), or a Dask cluster. A KeyboardInterrupt (Ctrl-C) stops the run at
once and the report holds the battles finished so far (``interrupted`` is set).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tactica.analysis.paired import PairedDifference, consulted_note, paired_difference
from tactica.analysis.sim.executors import Job, Plan, make_executor
from tactica.analysis.sim.play import DEFAULT_MAX_STEPS, logged_battle, play_battle
from tactica.analysis.sim.tally import BattleResult, PairedTally, Tally, engine_entry, wilson
from tactica.analysis.sim.variants import (
    CompareSpec,
    Variant,
    comparable_variants,
    describe,
    parse_compare,
    variants_of,
)
from tactica.engine.errors import TacticaError
from tactica.engine.limits import MAX_SEED, MAX_STEPS, MAX_WORKERS, MIN_PRECISION
from tactica.engine.policies import default_policy, make_policy
from tactica.engine.rulings import Ruling
from tactica.engine.scenario import Scenario

__all__ = [
    "DEFAULT_MAX_BATTLES",
    "DEFAULT_MAX_STEPS",
    "BattleResult",
    "CompareSpec",
    "ComparisonReport",
    "Progress",
    "SimulationReport",
    "Variant",
    "compare",
    "logged_battle",
    "parse_compare",
    "play_battle",
    "simulate",
    "variants_of",
    "wilson",
]

#: The cap of a run to a precision (``--max-battles``).
DEFAULT_MAX_BATTLES = 100_000
#: The most battles of one run (``--battles``, ``--max-battles``), per variant.
MAX_BATTLES = 10_000_000
#: The first round of a run to a precision; later rounds are sized from the intervals so far.
FIRST_ROUND = 200

#: Told ``(battles done, battles planned)`` as chunks finish.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimulationReport:
    """Aggregated results of many battles of one scenario."""

    scenario: str
    seed: int
    sides: tuple[str, ...]
    policies: Mapping[str, str]
    rulings: Mapping[str, str]
    declared_rulings: tuple[Ruling, ...]
    tally: Tally
    unit_order: tuple[str, ...] = ()
    interrupted: bool = False
    precision: Mapping[str, Any] | None = None

    @property
    def battles(self) -> int:
        """Battles played (those finished by the rules and those stopped unfinished)."""
        return self.tally.battles

    @property
    def wins(self) -> Mapping[str, int]:
        """Wins by side."""
        return self.tally.wins

    @property
    def draws(self) -> int:
        """Battles that ended in a draw."""
        return self.tally.draws

    @property
    def units(self) -> Mapping[str, Mapping[str, Any]]:
        """Per unit: side, survival (with its interval), mean damage dealt and taken."""
        units: Mapping[str, Mapping[str, Any]] = self.figures()["units"]
        return units

    @property
    def engine(self) -> dict[str, Any]:
        """Battles played by the compiled kernel and by the reference, and why the reference
        played (battles per reason)."""
        return self.tally.engine()

    def engine_line(self) -> str:
        """Who played the battles, in one line (with the reasons the reference played)."""
        from tactica.analysis.sim.kernels import engine_line

        t = self.tally
        return engine_line(t.kernel, t.reference, t.not_covered)

    @property
    def mean_rounds(self) -> float:
        """The mean number of rounds."""
        return self.tally.rounds_sum / self.battles if self.battles else 0.0

    def win_rate(self, side: str) -> tuple[float, tuple[float, float]]:
        """The side's win rate and its 95% interval."""
        n = self.battles
        return (self.wins[side] / n if n else 0.0), wilson(self.wins[side], n)

    def figures(self) -> dict[str, Any]:
        """The outcome figures alone (what a comparison shows per variant)."""
        return self.tally.summary(self.unit_order)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (identical for identical runs, on any executor)."""
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "battles": self.battles,
            "seed": self.seed,
            "policies": dict(self.policies),
            "rulings": dict(self.rulings),
        }
        out.update(self.figures())
        out.pop("battles", None)
        out = {"battles": self.battles, **out}
        return _with_run(out, self.precision, self.engine, self.interrupted)

    def _repr_html_(self) -> str:
        from tactica.analysis.views import html_of, simulation_tables

        return html_of(simulation_tables(self))

    def to_pandas(self) -> Any:
        """The sides and draws (wins, win rate, 95% interval) as a pandas DataFrame."""
        from tactica.analysis.views import simulation_frame

        return simulation_frame(self)


@dataclass(frozen=True)
class ComparisonReport:
    """Every variant's figures over the same battles, and the paired differences."""

    scenario: str
    seed: int
    sides: tuple[str, ...]
    policies: Mapping[str, str]
    spec: CompareSpec
    labels: tuple[str, ...]
    reports: tuple[SimulationReport, ...]
    paired: PairedTally
    interrupted: bool = False
    precision: Mapping[str, Any] | None = None
    outcomes: tuple[str, ...] = field(default=())
    #: Sentences on readings that turn a rule against the side it names
    #: (:mod:`tactica.analysis.reversals`).
    reversals: tuple[str, ...] = ()

    @property
    def battles(self) -> int:
        """Battles played under each variant."""
        return self.paired.battles

    def difference(self, variant: int, outcome: str
                   ) -> tuple[float, tuple[float, float], bool]:
        """Variant ``variant`` (>= 1) minus the first: the mean difference of ``outcome``'s
        rate (a side, or ``"draw"``), its 95% interval, and whether it excludes 0."""
        d = self.paired_difference(variant, outcome)
        return d.difference, (d.low, d.high), d.significant

    def paired_difference(self, variant: int, outcome: str) -> PairedDifference:
        """Variant ``variant`` (>= 1) minus the first for ``outcome`` (a side, or
        ``"draw"``): the paired statistic of :mod:`tactica.analysis.paired`."""
        p = self.paired
        return paired_difference(p.sums[variant - 1][outcome], p.squares[variant - 1][outcome],
                                 p.battles)

    def consulted(self, variant: int) -> int | None:
        """Battles that consulted the compared ruling under the first variant or variant
        ``variant`` (``None`` when a field of the scenario is compared)."""
        return self.paired.consulted[variant - 1] if self.spec.is_ruling else None

    def changed(self, variant: int) -> int:
        """Battles that did not end the same way under variant ``variant`` as under the
        first."""
        return self.paired.changed[variant - 1]

    def notes(self) -> list[str]:
        """Per later variant, whether the comparison compared anything (consulted counts)."""
        out = [consulted_note(self.spec.key, consulted=self.consulted(v),
                              changed=self.changed(v), battles=self.battles,
                              label=self.labels[v])
               for v in range(1, len(self.labels))]
        out += list(self.reversals)
        for v in range(1, len(self.labels)):
            unclear = [(o, self.paired_difference(v, o)) for o in self.outcomes]
            unclear = [(o, d) for o, d in unclear if not d.significant
                       and math.isfinite(d.low) and math.isfinite(d.high) and d.high > d.low]
            if unclear:
                half = max(max(d.high - d.difference, d.difference - d.low) for _, d in unclear)
                names = ", ".join(f"{o} wins" if o != "draw" else "draws" for o, _ in unclear)
                out.append(f"no clear difference under {self.labels[v]} for {names}: with "
                           f"{self.battles:,} battles a difference of more than "
                           f"{half * 100:.1f} pts would have shown")
        return out

    @property
    def engine(self) -> dict[str, Any]:
        """Battles played by the compiled kernel and by the reference over every variant, and
        why the reference played (battles per reason)."""
        reasons: dict[str, int] = {}
        for r in self.reports:
            for reason, k in r.tally.not_covered.items():
                reasons[reason] = reasons.get(reason, 0) + k
        return engine_entry(sum(r.tally.kernel for r in self.reports),
                            sum(r.tally.reference for r in self.reports), reasons)

    def engine_line(self) -> str:
        """Who played the battles of every variant, in one line."""
        from tactica.analysis.sim.kernels import engine_line

        e = self.engine
        return engine_line(e["kernel"], e["reference"], e["reasons"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the variants' figures and the paired differences against the first."""
        diffs: list[dict[str, Any]] = []
        for v in range(1, len(self.labels)):
            row: dict[str, Any] = {"variant": self.labels[v], "against": self.labels[0]}
            for o in self.outcomes:
                row[o] = self.paired_difference(v, o).to_dict()
            row["consulted"] = self.consulted(v)
            row["changed"] = self.changed(v)
            diffs.append(row)
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "battles": self.battles,
            "seed": self.seed,
            "policies": dict(self.policies),
            "compare": dict(describe(self.spec)),
            "variants": {label: {"rulings": dict(r.rulings), **r.figures()}
                         for label, r in zip(self.labels, self.reports, strict=True)},
            "paired": diffs,
            "notes": self.notes(),
        }
        if self.spec.is_ruling:
            from tactica.presentation.tables import natural_key

            out["consulted"] = {label: dict(sorted(r.tally.consulted.items(),
                                                   key=lambda kv: natural_key(kv[0])))
                                for label, r in zip(self.labels, self.reports, strict=True)}
        return _with_run(out, self.precision, self.engine, self.interrupted)


    def _repr_html_(self) -> str:
        from tactica.analysis.notebook import comparison_tables
        from tactica.analysis.views import html_of

        return html_of(comparison_tables(self))

    def to_pandas(self) -> Any:
        """One row per variant and outcome: its rate and the paired difference from the first
        variant, each with its 95% interval, as a pandas DataFrame."""
        from tactica.analysis.notebook import comparison_frame

        return comparison_frame(self)


def _r(x: float) -> float | None:
    return round(x, 6) if math.isfinite(x) else None


# --------------------------------------------------------------------------------------------


def _policies_for(scenario: Scenario,
                  policies: Mapping[str, str] | str | None) -> dict[str, str]:
    sides = scenario.ruleset.sides_of(scenario.new_state())
    if policies is None:  # the game's default, by the name of what it does
        policies = default_policy(scenario.ruleset)
    chosen = dict.fromkeys(sides, policies) if isinstance(policies, str) else dict(policies)
    for s in sides:
        if s not in chosen:
            raise TacticaError(f"no policy given for side {s!r}")
        make_policy(chosen[s], scenario.ruleset)
    unknown = sorted(set(chosen) - set(sides))
    if unknown:
        raise TacticaError(f"--policy: no side {unknown[0]!r} in this scenario "
                           f"(sides: {', '.join(sides)})")
    return chosen


@dataclass
class _Run:
    tallies: list[Tally]
    paired: PairedTally | None
    interrupted: bool
    precision: dict[str, Any] | None


def _jobs(start: int, stop: int, workers: int) -> list[Job]:
    n = stop - start
    size = 8 if workers <= 1 else max(1, min(100, math.ceil(n / (workers * 16))))
    return [(i, min(i + size, stop)) for i in range(start, stop, size)]


def _widest(tallies: Sequence[Tally], paired: PairedTally | None) -> float:
    widths = [w for t in tallies for w in t.half_widths()]
    if paired is not None:
        widths += paired.half_widths()
    return max(widths) if widths else math.inf


def _run(scenarios: Sequence[Scenario], policies: dict[str, str], *, battles: int | None,
         seed: int, workers: int | None, progress: Progress | None, precision: float | None,
         max_battles: int, executor: str, scheduler: Any, max_steps: int,
         consulted: bool = False, rulings: Sequence[str | None] = (),
         reuse: bool = False) -> _Run:
    if not 0 <= seed <= MAX_SEED:
        raise TacticaError(f"--seed: expected a whole number from 0 to 2^64 - 1, got "
                           f"{_short(seed)}")
    if precision is None:
        if battles is None or not 1 <= battles <= MAX_BATTLES:
            raise TacticaError(f"--battles: expected 1 to {MAX_BATTLES:,}, got "
                               f"{_short(battles)}")
    elif not (MIN_PRECISION <= precision < 0.5):
        raise TacticaError(f"--precision: expected a half width from {MIN_PRECISION:g} to "
                           f"below 0.5 (such as 0.01), got {precision:g}")
    if not 1 <= max_battles <= MAX_BATTLES:
        raise TacticaError(f"--max-battles: expected 1 to {MAX_BATTLES:,}, got "
                           f"{_short(max_battles)}")
    if not 1 <= max_steps <= MAX_STEPS:
        raise TacticaError(f"--max-steps: expected 1 to {MAX_STEPS:,}, got {_short(max_steps)}")
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    if not 1 <= n_workers <= MAX_WORKERS:
        raise TacticaError(f"--workers: expected 1 to {MAX_WORKERS}, got {_short(n_workers)}")
    sides = scenarios[0].ruleset.sides_of(scenarios[0].new_state())
    tallies = [Tally(sides) for _ in scenarios]
    paired = PairedTally((*sides, "draw"), len(scenarios)) if len(scenarios) > 1 else None
    target = min(FIRST_ROUND, max_battles) if battles is None else battles
    if precision is not None:
        target = min(FIRST_ROUND, max_battles)
    if precision is None:
        n_workers = min(n_workers, target)
    # a run to a precision may go on past its first round: only a fixed number is short
    per_process = math.ceil(target / n_workers) if precision is None else None
    plan = Plan.of(scenarios, policies, seed, max_steps, consulted=consulted, rulings=rulings,
                   reuse=reuse, per_process=per_process)
    done = 0
    interrupted = False
    widest = math.inf
    try:
        with make_executor(executor, plan, scenarios, workers=n_workers,
                           scheduler=scheduler) as ex:
            while True:
                for _, (parts, pair) in ex.run(_jobs(done, target, n_workers)):
                    for tally, part in zip(tallies, parts, strict=True):
                        tally.merge(part)
                    if paired is not None and pair is not None:
                        paired.merge(pair)
                    if progress is not None:
                        progress(tallies[0].battles, target)
                done = target
                if precision is None:
                    break
                widest = _widest(tallies, paired)
                if widest <= precision or done >= max_battles:
                    break
                target = min(max_battles, _next_target(done, widest, precision))
    except KeyboardInterrupt:
        interrupted = True
    prec = None
    if precision is not None:
        widest = _widest(tallies, paired)
        prec = {"target": precision, "max_battles": max_battles,
                "widest": _r(widest), "reached": widest <= precision}
    return _Run(tallies, paired, interrupted, prec)


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _next_target(done: int, widest: float, precision: float) -> int:
    """The battles needed for the widest interval to shrink to ``precision`` (widths shrink
    as 1/√n), with a 10% margin, in whole hundreds, at least a fifth more than done."""
    needed = done * min((widest / precision) ** 2, 1e12) * 1.1  # finite: a target, capped
    target = max(math.ceil(min(needed, 1e15) / 100) * 100, done + max(100, done // 5))
    return target


def _report(scenario: Scenario, policies: Mapping[str, str], seed: int, tally: Tally,
            interrupted: bool, precision: Mapping[str, Any] | None) -> SimulationReport:
    state = scenario.new_state()
    return SimulationReport(
        scenario=scenario.name, seed=seed, sides=scenario.ruleset.sides_of(state),
        policies=dict(policies), rulings=dict(scenario.rulings),
        declared_rulings=scenario.rulings.declared(), tally=tally,
        unit_order=tuple(u.id for u in scenario.ruleset.units(state)),
        interrupted=interrupted, precision=precision,
    )


def simulate(
    scenario: Scenario,
    *,
    battles: int | None = 1000,
    seed: int,
    policies: Mapping[str, str] | str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    precision: float | None = None,
    max_battles: int = DEFAULT_MAX_BATTLES,
    executor: str = "process",
    scheduler: Any = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> SimulationReport:
    """Play ``battles`` battles (or, with ``precision``, as many as needed for every reported
    interval's half width to be at most ``precision``, up to ``max_battles``) and tally them.

    ``workers``: processes of the local pool (default: every core; 1 runs in this process).
    ``executor="dask"`` runs on the Dask cluster at ``scheduler`` (an address, or a
    ``distributed.Client``). ``progress(done, planned)`` is told as chunks finish.
    """
    chosen = _policies_for(scenario, policies)
    run = _run([scenario], chosen, battles=battles, seed=seed, workers=workers,
               progress=progress, precision=precision, max_battles=max_battles,
               executor=executor, scheduler=scheduler, max_steps=max_steps)
    return _report(scenario, chosen, seed, run.tallies[0], run.interrupted, run.precision)


def compare(
    scenario: Scenario,
    spec: CompareSpec | str,
    *,
    battles: int | None = 1000,
    seed: int,
    policies: Mapping[str, str] | str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    precision: float | None = None,
    max_battles: int = DEFAULT_MAX_BATTLES,
    executor: str = "process",
    scheduler: Any = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> ComparisonReport:
    """Play every battle under each variant of ``spec`` (``"ABC-6=die,characteristic"``,
    ``"units.A.defense=2,3"``) with common random numbers; options as :func:`simulate`
    (``battles`` and ``precision`` count battles per variant)."""
    spec, variants = comparable_variants(scenario, spec)
    sides = scenario.ruleset.sides_of(scenario.new_state())
    chosen = _policies_for(scenario, policies)
    run = _run([v.scenario for v in variants], chosen, battles=battles, seed=seed,
               workers=workers, progress=progress, precision=precision,
               max_battles=max_battles, executor=executor, scheduler=scheduler,
               max_steps=max_steps, consulted=spec.is_ruling,
               rulings=[spec.key if spec.is_ruling else None] * len(variants))
    assert run.paired is not None
    reports = tuple(_report(v.scenario, chosen, seed, t, run.interrupted, None)
                    for v, t in zip(variants, run.tallies, strict=True))
    reversals: list[str] = []
    if spec.is_ruling:
        from tactica.analysis.reversals import cover_reversal

        cache: dict[Any, Any] = {}
        base = dict(variants[0].scenario.rulings)
        for v in variants[1:]:
            said = cover_reversal(scenario.ruleset, base, v.label, dict(v.scenario.rulings),
                                  cache)
            if said:
                reversals.append(said)
    return ComparisonReport(
        scenario=scenario.name, seed=seed, sides=sides, policies=chosen, spec=spec,
        labels=tuple(v.label for v in variants), reports=reports, paired=run.paired,
        interrupted=run.interrupted, precision=run.precision, outcomes=(*sides, "draw"),
        reversals=tuple(reversals),
    )


def _with_run(out: dict[str, Any], precision: Mapping[str, Any] | None,
              engine: Mapping[str, Any], interrupted: bool) -> dict[str, Any]:
    """``out`` with what a run's JSON says of the run itself: the precision asked for, the
    engines that played its battles, and whether it was interrupted."""
    if precision is not None:
        out["precision"] = dict(precision)
    out["engine"] = engine
    if interrupted:
        out["interrupted"] = True
    return out
