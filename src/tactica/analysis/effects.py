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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tactica.analysis.paired import PairedDifference, paired_difference
from tactica.analysis.sim.play import DEFAULT_MAX_STEPS
from tactica.analysis.sim.tally import wilson
from tactica.analysis.simulate import Progress, _policies_for, _run
from tactica.engine.errors import TacticaError
from tactica.engine.rulings import Ruling
from tactica.engine.scenario import Scenario
from tactica.presentation.tables import Column, NumberFormat, Table, csv_text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["DEFAULT_BATTLES", "Effect", "EffectsReport", "effects"]

#: Battles of a run unless told otherwise: enough to see an effect of a few points, few
#: enough that every example runs in minutes even where no kernel plays.
DEFAULT_BATTLES = 200


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
    engine: Mapping[str, int]
    engine_text: str
    interrupted: bool = False

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
                 "paired": {o: e.differences[o].to_dict() for o in self.outcomes}}
                for rank, e in enumerate(self.effects, start=1)],
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
        cols += [Column(f"{s} wins: change (95% interval)") for s in self.sides]
        rows: list[list[Any]] = []
        for rank, e in enumerate(self.effects, start=1):
            row: list[Any] = [rank, f"{e.label} (not {e.baseline})", e.consulted, e.changed]
            row += [_change(e.differences[s]) for s in self.sides]
            rows.append(row)
        base = ", ".join(f"{s} {self.baseline_rates[s][0] * 100:.1f}%" for s in self.sides)
        notes = [f"baseline (the scenario's rulings): {base}; every reading plays the same "
                 f"{self.battles:,} battles (seed {self.seed}), one ruling changed at a time; "
                 "ranked by the largest change of a side's win rate",
                 "consulted: battles that read the ruling under either reading; changed: "
                 "battles that ended differently; pts: percentage points of the win rate",
                 self.never_line()]
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

    def plot(self, *, top: int = 20) -> Figure:
        """The ``top`` alternatives' paired differences of each side's win rate, with their
        95% intervals (matplotlib)."""
        from tactica.analysis.effects_plot import effects_plot

        return effects_plot(self, top=top)


def _change(d: PairedDifference) -> str:
    """``+9.0 pts [+4.4, +13.6] higher``: the change of a rate in percentage points, its 95%
    interval and the verdict."""
    if not (math.isfinite(d.low) and math.isfinite(d.high)):
        return f"{d.difference * 100:+.1f} pts (too few battles for an interval)"
    return (f"{d.difference * 100:+.1f} pts [{d.low * 100:+.1f}, {d.high * 100:+.1f}] "
            f"{d.verdict}")


def _alternatives(scenario: Scenario) -> list[tuple[Ruling, str]]:
    """Every option of every ruling other than the one in force, in declaration order."""
    return [(r, option) for r in scenario.rulings.declared() for option in r.options
            if option != scenario.rulings[r.id]]


def effects(
    scenario: Scenario,
    *,
    battles: int = DEFAULT_BATTLES,
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
    if battles < 1:
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
               progress=progress, precision=None, max_battles=battles, executor=executor,
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
        engine={"kernel": kernel, "reference": reference, "taken": taken},
        engine_text=text, interrupted=run.interrupted)
