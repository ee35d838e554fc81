"""Why a number of an odds report is zero or certain: the rule behind it, and what would change it.

An expected damage of 0 next to a 45% chance to hit reads like a bug unless the report says that
every hit only wears the armor down. A game's odds therefore fill :attr:`OddsReport.why` for
every probability that is 0 or 1 and every expected damage of 0 (and may for any number that
would surprise): one sentence naming the rule and, where there is one, what would change the
number. ``tactica odds``, ``play``'s ``odds N`` and the web page print the same words.

>>> from fractions import Fraction
>>> needs_reason("p_hit", Fraction(1)), needs_reason("p_hit", Fraction(1, 2))
(True, False)
>>> needs_reason("expected_damage[Cop 1]", Fraction(0)), needs_reason("expected_hits", 0)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from tactica.engine.odds import OddsReport

__all__ = ["needs_reason", "unexplained", "with_why"]


def needs_reason(name: str, value: Fraction | float | int) -> bool:
    """A probability (``p_*``) of exactly 0 or 1, or an expected damage of 0."""
    if name.startswith("p_"):
        return value in (0, 1)
    return name.startswith("expected_damage") and value == 0


def unexplained(report: OddsReport) -> list[str]:
    """The numbers of ``report`` that need a reason and have none."""
    return [name for name, value in report.numbers.items()
            if needs_reason(name, value) and not report.why.get(name)]


def with_why(report: OddsReport, why: Mapping[str, str]) -> OddsReport:
    """``report`` with the reasons of ``why`` for the numbers that need one (others are kept
    only if given for a number the report has)."""
    kept = {name: text for name, text in why.items() if name in report.numbers and text}
    return replace(report, why={**report.why, **kept})

