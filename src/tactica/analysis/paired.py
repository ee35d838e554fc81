"""The one paired statistic: a difference of rates over the same battles, its interval and
its verdict, and what to say when the compared thing was never consulted.

Wherever battles are paired (``simulate --compare``, ``sweep``, ``report``, ``effects``) two
variants play the very same seeded battles, and a rate's difference is the mean over battles
of the difference of the outcome's indicators (1 when that side won battle ``i`` under this
variant, else 0), with the interval ``mean ± 1.96·sd/√n`` of those per-battle differences
(:func:`tactica.analysis.sim.tally.paired_interval`). This module turns those sums into a
:class:`PairedDifference` and says it in words the same way everywhere.

>>> d = paired_difference(30, 50, 1000)
>>> round(d.difference, 3), d.verdict
(0.03, 'higher')
>>> consulted_note("ABC-4", consulted=0, changed=0, battles=2000)
'ABC-4 was consulted in 0 of 2,000 battles: both variants played the same battles'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tactica.analysis.sim.tally import paired_interval

__all__ = ["PairedDifference", "consulted_note", "never_consulted", "paired_difference"]


@dataclass(frozen=True)
class PairedDifference:
    """A variant's rate minus the baseline's over the same battles, with its 95% interval."""

    difference: float
    low: float
    high: float
    battles: int

    @property
    def significant(self) -> bool:
        """True when the interval excludes 0."""
        return self.low > 0 or self.high < 0

    @property
    def verdict(self) -> str:
        """``higher``, ``lower`` (the interval excludes 0) or ``no clear difference``."""
        if self.low > 0:
            return "higher"
        if self.high < 0:
            return "lower"
        return "no clear difference"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (rounded to 6 places; an unbounded end as ``None``)."""
        return {"difference": round(self.difference, 6), "ci95": [_r(self.low), _r(self.high)],
                "significant": self.significant, "verdict": self.verdict}


def _r(x: float) -> float | None:
    return round(x, 6) if math.isfinite(x) else None


def paired_difference(total: int, squares: int, battles: int) -> PairedDifference:
    """From the sum of the per-battle differences of an indicator and of their squares."""
    mean, (lo, hi) = paired_interval(total, squares, battles)
    return PairedDifference(mean, lo, hi, battles)


def never_consulted(consulted: int | None, changed: int) -> bool:
    """True when the variants demonstrably played the same battles: the compared ruling was
    never consulted and no battle ended differently (``consulted`` ``None``: a field, whose
    reads are not counted, judged by the results alone)."""
    return changed == 0 and not consulted


def consulted_note(key: str, *, consulted: int | None, changed: int, battles: int,
                   label: str | None = None) -> str:
    """One sentence on whether the comparison compared anything: how many battles consulted
    the ruling ``key`` (``consulted``; ``None`` for a field of the scenario) and how many
    ended differently under ``label`` (the later variant) than under the first."""
    n = f"{battles:,}"
    other = label or "the other variant"
    if consulted is None:
        if changed == 0:
            return (f"{key}: no battle of {n} ended differently under {other}: both variants "
                    "played battles with the same results")
        return f"{key}: {changed:,} of {n} battles ended differently under {other}"
    if consulted == 0 and changed == 0:
        return f"{key} was consulted in 0 of {n} battles: both variants played the same battles"
    return (f"{key} was consulted in {consulted:,} of {n} battles; {changed:,} ended "
            f"differently under {other}")
