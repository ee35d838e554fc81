"""What a game's odds reports claim, checked against the outcomes of the game's own process.

An odds report (:class:`~tactica.engine.odds.OddsReport`) states numbers: the damage
distribution, ``expected_damage``, ``p_out_of_action`` and the game's own probabilities. The
battle plays the action's process (the game's ``resolve``), not the report. :func:`odds_claims`
compares the two: exactly, from every outcome of the process with its exact chance
(:func:`~tactica.engine.chance.run_exact`), where the process can be enumerated (one too deep
for it, or a caller asking for ``exact=False``, is sampled), else from a seeded sample of it,
within an interval of :data:`TOLERANCE` standard errors. By default outcomes are read through
the core's events (:func:`~tactica.engine.odds.damage_dealt`,
:func:`~tactica.engine.odds.drops_out`), decisions inside the action taking their first option.
A game whose reports read the process otherwise (the damage rolled before health caps it, the
attacker's best options, a blast that goes off after the throw) says how: in words (the
``reads`` of its :class:`~tactica.engine.game.Odds` part) and for this check (its ``reading``,
an :class:`~tactica.engine.odds.OddsReading`: the process, the answers to its decisions, the
damage and dropping out of one outcome), and is compared the same way through that reading. A
game giving only the words is held to what holds either way (:func:`inconsistent_claims`: no
claim contradicts another). Every report needs a ``why`` (:attr:`OddsReport.why`) for each
probability of exactly 0 or 1: a reader must be told which rule makes the outcome impossible
or certain.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.dice import Dist
from tactica.engine.chance import FirstOption, Policy, Step, run_exact, run_sampled
from tactica.engine.odds import OddsReport, Outcome, damage_dealt, drops_out

__all__ = ["SAMPLES", "TOLERANCE", "inconsistent_claims", "odds_claims",
           "unexplained_certainties"]

#: Samples of the process where it cannot be enumerated, and the interval in standard errors.
SAMPLES = 400
TOLERANCE = 5.0

_Outcome = Outcome
_Reader = Callable[[Outcome], Any]


def unexplained_certainties(report: OddsReport) -> list[str]:
    """Each probability of ``report`` that is exactly 0 or 1 without a ``why``."""
    return [f"{key} = {value} with no why (say which rule makes it so)"
            for key, value in report.numbers.items()
            if key.startswith("p_") and value in (0, 1) and not report.why.get(key)]


def inconsistent_claims(report: OddsReport) -> list[str]:
    """What ``report`` claims that contradicts itself: a probability outside [0, 1], an
    ``expected_damage`` that is not the mean of its own damage distribution."""
    problems = [f"{key} = {value} is no probability" for key, value in report.numbers.items()
                if key.startswith("p_") and not 0 <= value <= 1]
    claimed = report.distributions.get("damage")
    if claimed is not None and claimed.outcomes and all(
            isinstance(v, int | Fraction) for v in claimed.outcomes):
        mean = sum((Fraction(v) * p for v, p in claimed.items()), Fraction(0))
        if report.numbers["expected_damage"] != mean:
            problems.append(f"expected_damage = {_num(report.numbers['expected_damage'])} is "
                            f"not the mean of its damage distribution, {_num(mean)}")
    return problems


def _exact_claims(report: OddsReport, outcomes: Dist[_Outcome], dealt: _Reader,
                  out: _Reader) -> list[str]:
    problems = []
    damage = outcomes.map(dealt)
    claimed = report.distributions.get("damage")
    if claimed is not None and dict(claimed.items()) != dict(damage.items()):
        problems.append(f"the damage distribution {_shown(claimed)} is not the process's "
                        f"{_shown(damage)}")
    for key, actual in (("expected_damage", damage.mean()),
                        ("p_out_of_action", outcomes.map(out).p(True))):
        if report.numbers[key] != actual:
            problems.append(f"{key} = {_num(report.numbers[key])}, the process gives "
                            f"{_num(actual)} exactly")
    return problems


def _sampled_claims(report: OddsReport, samples: Sequence[_Outcome], dealt: _Reader,
                    out: _Reader) -> list[str]:
    problems = []
    n = len(samples)
    measured: dict[str, list[float]] = {
        "expected_damage": [float(dealt(o)) for o in samples],
        "p_out_of_action": [float(out(o)) for o in samples]}
    for key, values in measured.items():
        mean = sum(values) / n
        claimed = float(report.numbers[key])
        # the interval's width from the claim's own spread where it is a probability (a
        # sample that never varies says nothing of its spread), else from the sample's
        spread = (math.sqrt(claimed * (1 - claimed)) if key.startswith("p_")
                  else math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1)))
        error = max(spread, 1.0 / n) / math.sqrt(n)
        if abs(mean - claimed) > TOLERANCE * error + 1e-9:
            problems.append(f"{key} = {claimed:.4f}, a seeded sample of {n} runs of the "
                            f"process gives {mean:.4f} (interval +-{TOLERANCE * error:.4f})")
    claimed_dist = report.distributions.get("damage")
    if claimed_dist is not None:
        possible = set(claimed_dist.outcomes)
        seen = {dealt(o) for o in samples}
        if seen - possible:
            problems.append(f"the process dealt {sorted(seen - possible)} damage, which the "
                            f"damage distribution {_shown(claimed_dist)} gives no chance")
    return problems


def odds_claims(report: OddsReport, process: Callable[[], Step], *, world: Any = None,
                state: Any = None, exact: bool = True, seed: int = 0,
                policies: Policy | None = None, damage: _Reader = damage_dealt,
                out: _Reader = drops_out) -> list[str]:
    """What ``report`` claims that the action's ``process`` (a fresh first step on each call)
    does not do: an empty list when every claim holds. ``exact``: enumerate the process (else,
    or when it cannot be enumerated, sample it with ``seed``). ``policies`` answer its
    decisions (default: each one's first option); ``damage`` and ``out`` read an outcome
    (``(value, events)``) as the report counts it (default: the core's events).
    Probabilities of 0 or 1 need a ``why``."""
    problems = unexplained_certainties(report) + inconsistent_claims(report)
    decide = policies if policies is not None else FirstOption()
    outcomes: Dist[_Outcome] | None = None
    if exact:
        try:
            outcomes = run_exact(process(), policies=decide, events=True, world=world,
                                 state=state)
        except (RecursionError, MemoryError, OverflowError):
            outcomes = None
    if outcomes is not None:
        return problems + _exact_claims(report, outcomes, damage, out)
    rng = np.random.default_rng([seed, 13])
    samples = [(trace.value, trace.events) for trace in
               (run_sampled(process(), rng, policies=decide, world=world, state=state)
                for _ in range(SAMPLES))]
    return problems + _sampled_claims(report, samples, damage, out)


def _num(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{value} ({float(value):.4f})"


def _shown(dist: Dist[Any], most: int = 6) -> str:
    items = [f"{v}: {float(p):.3f}" for v, p in list(dist.items())[:most]]
    return "{" + ", ".join(items) + (", ..." if len(dist.outcomes) > most else "") + "}"
