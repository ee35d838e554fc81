"""The effect of every ruling at once: every alternative reading against the scenario's own.

:func:`effects` plays the scenario's battles under its rulings (the *baseline*: the game's
defaults, or what the scenario chose) and, on the very same seeded battles, under every other
option of every ruling of the game, one ruling changed at a time: the variants of one run of
:func:`tactica.analysis.simulate.compare`'s machinery (the executors, the compiled kernels, common
random numbers). Each alternative gets the paired difference of every side's win rate (and the draw
rate) against the baseline, with its 95% interval and verdict (:mod:`tactica.analysis.paired`), the
battles that consulted its ruling and those that ended differently; the alternatives are
ranked by their largest effect on a side's win rate. A ruling that no battle consulted is
listed as such: each of its readings plays the same battles.

A battle whose baseline did not consult a ruling *is* the battle of every other reading of that
ruling (nothing read it, so nothing could go otherwise): it is taken, not played again, which is
why a ruling that is rarely consulted costs little. ``--compare RULING=BASELINE,OPTION`` gives
the same numbers ruling by ruling (a test checks it).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from tactica.analysis.paired import PairedDifference, paired_difference
from tactica.analysis.sim.play import DEFAULT_MAX_STEPS
from tactica.analysis.sim.tally import engine_entry, wilson
from tactica.analysis.simulate import Progress, _policies_for, _run
from tactica.engine.errors import TacticaError
from tactica.engine.rulings import Ruling
from tactica.engine.scenario import Scenario
from tactica.presentation.tables import Column, NumberFormat, Table, csv_text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["CORRECTION", "DEFAULT_BATTLES", "DEFAULT_MAX_BATTLES", "DEFAULT_PRECISION", "Effect",
           "EffectsReport", "effects", "holm", "p_value"]

#: Battles of a run given ``--battles`` without a number of its own (kept for callers).
DEFAULT_BATTLES = 200
#: The half width every interval is played down to unless told otherwise: 3 percentage
#: points, enough to tell a reading that moves a side by 5 points from one that does not.
DEFAULT_PRECISION = 0.03
#: The most battles a run to a precision plays (it says so when it stops short).
DEFAULT_MAX_BATTLES = 20_000
#: The correction for the number of readings compared at once, as the output names it.
CORRECTION = "Holm"


def p_value(d: PairedDifference) -> float:
    """The two-sided p-value of a paired difference (normal, from its 95% interval).

    >>> round(p_value(PairedDifference(0.02, 0.0, 0.04, 1000)), 3)
    0.05
    """
    if not (math.isfinite(d.low) and math.isfinite(d.high)):
        return 1.0
    se = (d.high - d.low) / (2 * 1.959964)
    if se <= 0:
        return 0.0 if d.difference else 1.0
    return math.erfc(abs(d.difference) / se / math.sqrt(2))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (a difference holds at 95% when its adjusted
    p-value is below 0.05), in the order given.

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


@dataclass(frozen=True)
class Effect:
    """One alternative reading of one ruling against the baseline, over the same battles."""

    ruling: str
    question: str
    option: str
    meaning: str
    baseline: str
    battles: int
    consulted: int
    changed: int
    differences: Mapping[str, PairedDifference]
    win_rates: Mapping[str, float]
    #: Each side's p-value after the correction for every reading and side compared.
    adjusted: Mapping[str, float] = field(default_factory=dict)

    def holds(self, side: str) -> bool:
        """True when the side's difference is clear after the correction."""
        return self.differences[side].significant and self.adjusted.get(side, 1.0) < 0.05

    @property
    def label(self) -> str:
        """``ABC-4=lowest``."""
        return f"{self.ruling}={self.option}"

    def size(self, sides: Sequence[str]) -> float:
        """The largest change of a side's win rate (in absolute value)."""
        return max((abs(self.differences[s].difference) for s in sides), default=0.0)


@dataclass(frozen=True)
class EffectsReport:
    """Every alternative reading's effect, ranked, and the rulings no battle consulted."""

    scenario: str
    seed: int
    battles: int
    sides: tuple[str, ...]
    policies: Mapping[str, str]
    baseline: Mapping[str, str]
    baseline_rates: Mapping[str, tuple[float, tuple[float, float]]]
    effects: tuple[Effect, ...]
    never: tuple[Ruling, ...]
    unplayable: tuple[tuple[str, str], ...]
    engine: Mapping[str, Any]
    engine_text: str
    interrupted: bool = False
    #: The run to a precision: ``target``, ``max_battles``, ``widest``, ``reached``
    #: (``None``: a fixed number of battles).
    precision: Mapping[str, Any] | None = None
    correction: str = CORRECTION
    #: Sentences on readings that turn a rule against the side it names.
    reversals: tuple[str, ...] = ()

    @property
    def comparisons(self) -> int:
        """How many differences the correction counts (every reading's every side)."""
        return len(self.effects) * len(self.sides)

    def holding(self) -> list[tuple[Effect, str]]:
        """Every (reading, side) whose difference holds after the correction."""
        return [(e, s) for e in self.effects for s in self.sides if e.holds(s)]

    def correction_line(self) -> str:
        """What the correction is and what survives it, in one sentence."""
        raw = sum(1 for e in self.effects for s in self.sides if e.differences[s].significant)
        held = self.holding()
        text = (f"{self.correction}'s correction for {self.comparisons} comparisons (every "
                f"reading, every side): {len(held)} of the {raw} differences clear at 95% on "
                "their own hold")
        if held:
            by: dict[str, list[str]] = {}
            for e, s in held:
                by.setdefault(e.label, []).append(f"{s} {e.differences[s].verdict}")
            text += ": " + ", ".join(f"{k} ({', '.join(v)})" for k, v in by.items())
        return text

    def precision_line(self) -> str:
        """The precision asked and reached, in one sentence."""
        if self.precision is None:
            widest = max((max(e.differences[s].high - e.differences[s].difference,
                              e.differences[s].difference - e.differences[s].low)
                          for e in self.effects for s in self.sides
                          if math.isfinite(e.differences[s].low)), default=0.0)
            return (f"{self.battles:,} battles (fixed): the widest paired interval is "
                    f"+-{widest * 100:.1f} pts, so a smaller difference could not show")
        target = float(self.precision["target"])
        widest_p = self.precision.get("widest")
        if self.precision.get("reached"):
            return (f"played until every interval was within +-{target * 100:.1f} pts: "
                    f"{self.battles:,} battles (widest +-{float(widest_p or 0) * 100:.1f} pts)")
        return (f"stopped at the cap of {int(self.precision['max_battles']):,} battles before "
                f"every interval was within +-{target * 100:.1f} pts (widest "
                f"+-{float(widest_p or 0) * 100:.1f} pts)")

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Every side, then ``draw``."""
        return (*self.sides, "draw")

    def engine_line(self) -> str:
        """Who played the battles, in one line."""
        return self.engine_text

    def never_line(self) -> str:
        """The rulings no battle consulted, in one sentence."""
        if not self.never:
            return f"every ruling was consulted in at least one of {self.battles:,} battles"
        ids = ", ".join(r.id for r in self.never)
        return (f"never consulted in {self.battles:,} battles (each of their readings plays "
                f"the same battles): {ids}")

    def records(self) -> list[dict[str, Any]]:
        """One flat record per alternative, ranked (CSV, pandas)."""
        out = []
        for rank, e in enumerate(self.effects, start=1):
            row: dict[str, Any] = {"rank": rank, "ruling": e.ruling, "option": e.option,
                                   "baseline": e.baseline, "question": e.question,
                                   "battles": e.battles, "consulted": e.consulted,
                                   "changed": e.changed}
            for o in self.outcomes:
                d = e.differences[o]
                row[f"{o}_difference"] = d.difference
                row[f"{o}_low"] = d.low if math.isfinite(d.low) else None
                row[f"{o}_high"] = d.high if math.isfinite(d.high) else None
                row[f"{o}_verdict"] = d.verdict
                if o in self.sides:
                    row[f"{o}_p_adjusted"] = e.adjusted.get(o)
                    row[f"{o}_holds"] = e.holds(o)
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the baseline, every alternative ranked, the rulings never consulted."""
        return {
            "scenario": self.scenario,
            "battles": self.battles,
            "seed": self.seed,
            "policies": dict(self.policies),
            "baseline": {"rulings": dict(self.baseline),
                         "win_rate": {o: {"p": round(p, 6), "ci95": [round(lo, 6), round(hi, 6)]}
                                      for o, (p, (lo, hi)) in self.baseline_rates.items()}},
            "effects": [
                {"rank": rank, "ruling": e.ruling, "question": e.question, "option": e.option,
                 "meaning": e.meaning, "baseline": e.baseline, "consulted": e.consulted,
                 "changed": e.changed,
                 "win_rate": {o: round(p, 6) for o, p in e.win_rates.items()},
                 "paired": {o: e.differences[o].to_dict() for o in self.outcomes},
                 "corrected": {s: {"p_value": round(p_value(e.differences[s]), 6),
                                   "p_adjusted": round(e.adjusted.get(s, 1.0), 6),
                                   "holds": e.holds(s)} for s in self.sides}}
                for rank, e in enumerate(self.effects, start=1)],
            "correction": {"method": self.correction, "comparisons": self.comparisons,
                           "holding": [{"reading": e.label, "side": s}
                                       for e, s in self.holding()]},
            "precision": dict(self.precision) if self.precision is not None else None,
            "never_consulted": [{"ruling": r.id, "question": r.question} for r in self.never],
            "unplayable": [{"variant": label, "reason": why} for label, why in self.unplayable],
            "engine": dict(self.engine),
            **({"interrupted": True} if self.interrupted else {}),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON."""
        return json.dumps(self.to_dict(), indent=2)

    def table(self) -> Table:
        """The ranking as a table: each alternative, its consulted counts and its paired
        difference of each side's win rate (95% interval, verdict)."""
        cols = [Column("rank", "int"), Column("reading"), Column("consulted", "int"),
                Column("changed", "int")]
        cols += [Column(f"{s} wins: pts [95%]", right=True) for s in self.sides]
        cols.append(Column(f"after {self.correction}"))
        rows: list[list[Any]] = []
        for rank, e in enumerate(self.effects, start=1):
            row: list[Any] = [rank, f"{e.label} (not {e.baseline})", e.consulted, e.changed]
            row += [_change(e.differences[s], verdict=False) for s in self.sides]
            held = [f"{s} {e.differences[s].verdict}" for s in self.sides if e.holds(s)]
            raw = [s for s in self.sides if e.differences[s].significant and not e.holds(s)]
            row.append(", ".join(held) if held else
                       "none" + (f" ({', '.join(raw)} clear uncorrected)" if raw else ""))
            rows.append(row)
        base = ", ".join(f"{s} {self.baseline_rates[s][0] * 100:.1f}%" for s in self.sides)
        notes = [f"baseline (the scenario's rulings): {base}; every reading plays the same "
                 f"{self.battles:,} battles (seed {self.seed}), one ruling changed at a time; "
                 "ranked by the largest change of a side's win rate",
                 self.precision_line(),
                 "pts [95%]: the change of the win rate and its own 95% interval, uncorrected; "
                 + self.correction_line(),
                 "consulted: battles that read the ruling under either reading; changed: "
                 "battles that ended differently; pts: percentage points of the win rate",
                 self.never_line()]
        notes += [r for r in self.reversals]
        notes += [f"{label} was not played: {why}" for label, why in self.unplayable]
        notes.append(self.engine_text)
        return Table(f"{self.scenario}: the effect of every ruling's other readings", cols, rows,
                     notes)

    def to_csv(self) -> str:
        """The records as CSV (numbers as decimals)."""
        records = self.records()
        out = io.StringIO()
        if records:
            writer = csv.DictWriter(out, list(records[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows([{k: csv_text(v) if isinstance(v, str) else v
                               for k, v in r.items()} for r in records])
        return out.getvalue()

    def to_markdown(self, fmt: NumberFormat | None = None) -> str:
        """The ranking as a Markdown table, its notes below."""
        return self.table().to_markdown(fmt or NumberFormat())

    def _repr_html_(self) -> str:
        return self.table().to_html(NumberFormat())

    def to_pandas(self) -> pd.DataFrame:
        """One row per alternative (see :meth:`records`) as a pandas DataFrame."""
        from tactica.presentation.tables import data_frame

        records = self.records()
        return data_frame(records, list(records[0]) if records else ["rank"])

    def plot(self, *, top: int = 12) -> Figure:
        """The ``top`` alternatives' paired differences of each side's win rate, with their
        95% intervals (matplotlib)."""
        from tactica.analysis.effects_plot import effects_plot

        return effects_plot(self, top=top)


def _change(d: PairedDifference, *, verdict: bool = True) -> str:
    """``+9.0 pts [+4.4, +13.6] higher``: the change of a rate in percentage points, its 95%
    interval and the verdict (``verdict=False``: ``+9.0 [+4.4, +13.6]``)."""
    if not (math.isfinite(d.low) and math.isfinite(d.high)):
        return f"{d.difference * 100:+.1f} pts (too few battles for an interval)"
    if not verdict:
        return f"{d.difference * 100:+.1f} [{d.low * 100:+.1f}, {d.high * 100:+.1f}]"
    return (f"{d.difference * 100:+.1f} pts [{d.low * 100:+.1f}, {d.high * 100:+.1f}] "
            f"{d.verdict}")


def _alternatives(scenario: Scenario) -> list[tuple[Ruling, str]]:
    """Every option of every ruling other than the one in force, in declaration order."""
    return [(r, option) for r in scenario.rulings.declared() for option in r.options
            if option != scenario.rulings[r.id]]


def effects(
    scenario: Scenario,
    *,
    battles: int | None = None,
    precision: float | None = None,
    max_battles: int = DEFAULT_MAX_BATTLES,
    seed: int = 0,
    policies: Mapping[str, str] | str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    executor: str = "process",
    scheduler: Any = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    rulings: Sequence[str] | None = None,
    reuse: bool = True,
) -> EffectsReport:
    """Every other reading of every ruling (or of ``rulings`` only) paired against the
    scenario's own over ``battles`` seeded battles; see the module's docs. ``reuse=False``
    plays every battle under every reading, even those the baseline shows to be the same (a
    test checks that it changes nothing)."""
    if battles is None and precision is None:
        precision = DEFAULT_PRECISION
    if battles is not None and battles < 1:
        raise TacticaError(f"--battles: expected at least 1, got {battles}")
    declared = {r.id: r for r in scenario.rulings.declared()}
    if rulings:
        unknown = [r for r in rulings if r not in declared]
        if unknown:
            raise TacticaError(f"--ruling: unknown ruling {unknown[0]!r} for "
                               f"{scenario.ruleset.meta.title} (rulings: "
                               f"{', '.join(declared)})")
    chosen = _policies_for(scenario, policies)
    sides = scenario.ruleset.sides_of(scenario.new_state())
    variants: list[Scenario] = [scenario]
    played: list[tuple[Ruling, str]] = []
    unplayable: list[tuple[str, str]] = []
    for ruling, option in _alternatives(scenario):
        if rulings and ruling.id not in rulings:
            continue
        label = f"{ruling.id}={option}"
        try:
            variant = scenario.with_rulings({ruling.id: option}, where="effects")
        except TacticaError as exc:
            unplayable.append((label, str(exc).splitlines()[0]))
            continue
        if variant.ruleset.sides_of(variant.new_state()) != sides:
            unplayable.append((label, "it changes the sides of the battle"))
            continue
        variants.append(variant)
        played.append((ruling, option))
    run = _run(variants, chosen, battles=battles, seed=seed, workers=workers,
               progress=progress, precision=precision,
               max_battles=max_battles if precision is not None else battles or 1,
               executor=executor,
               scheduler=scheduler, max_steps=max_steps, consulted=True,
               rulings=[None, *(r.id for r, _ in played)], reuse=reuse)
    base = run.tallies[0]
    n = base.battles
    outcomes = (*sides, "draw")
    found: list[Effect] = []
    for v, (ruling, option) in enumerate(played, start=1):
        tally = run.tallies[v]
        if run.paired is None:
            break
        p = run.paired
        diffs = {o: paired_difference(p.sums[v - 1][o], p.squares[v - 1][o], p.battles)
                 for o in outcomes}
        rates = {s: (tally.wins[s] / n if n else 0.0) for s in sides}
        rates["draw"] = tally.draws / n if n else 0.0
        found.append(Effect(ruling.id, ruling.question, option, ruling.options[option],
                            scenario.rulings[ruling.id], n, p.consulted[v - 1],
                            p.changed[v - 1], diffs, rates))
    consulted_ids = set(base.consulted)
    never = tuple(r for r in scenario.rulings.declared()
                  if r.id not in consulted_ids and (not rulings or r.id in rulings))
    order = {r.id: i for i, r in enumerate(scenario.rulings.declared())}
    ranked = sorted((e for e in found if e.ruling in consulted_ids or e.changed),
                    key=lambda e: (-e.size(sides), order[e.ruling],
                                   list(declared[e.ruling].options).index(e.option)))
    pvalues = holm([p_value(e.differences[s]) for e in ranked for s in sides])
    ranked = [replace(e, adjusted={s: pvalues[i * len(sides) + k]
                                   for k, s in enumerate(sides)})
              for i, e in enumerate(ranked)]
    from tactica.analysis.reversals import cover_reversal

    cache: dict[Any, Any] = {}
    reversals = []
    for e in ranked:
        said = cover_reversal(scenario.ruleset, dict(scenario.rulings), e.label,
                              {**dict(scenario.rulings), e.ruling: e.option}, cache)
        if said:
            reversals.append(said)
    rates_base = {s: (base.wins[s] / n if n else 0.0, wilson(base.wins[s], n)) for s in sides}
    rates_base["draw"] = (base.draws / n if n else 0.0, wilson(base.draws, n))
    from tactica.analysis.sim.kernels import engine_line

    reasons: dict[str, int] = {}
    for t in run.tallies:
        for reason, k in t.not_covered.items():
            reasons[reason] = reasons.get(reason, 0) + k
    kernel = sum(t.kernel for t in run.tallies)
    reference = sum(t.reference for t in run.tallies)
    taken = n * len(run.tallies) - kernel - reference
    text = engine_line(kernel, reference, reasons)
    if taken:
        text += (f"; {taken:,} battles were the baseline's own (their ruling not consulted) "
                 "and were not played again")
    return EffectsReport(
        scenario=scenario.name, seed=seed, battles=n, sides=sides, policies=chosen,
        baseline=dict(scenario.rulings), baseline_rates=rates_base, effects=tuple(ranked),
        never=never, unplayable=tuple(unplayable),
        engine={**engine_entry(kernel, reference, reasons), "taken": taken},
        engine_text=text, interrupted=run.interrupted, precision=run.precision,
        reversals=tuple(reversals))
