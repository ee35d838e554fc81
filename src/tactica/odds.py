"""Exact outcome distributions of one action, with the reasons behind them.

A ruleset's ``odds`` hook builds an :class:`OddsReport` from the same chance process the battle
uses, run through the exact driver; the command line prints it as a table or as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tactica.dice import Dist

__all__ = ["OddsReport", "dist_rows"]


def dist_rows(dist: Dist[Any]) -> list[dict[str, Any]]:
    """``[{"value", "p", "p_exact"}]`` rows of a distribution, in outcome order."""
    return [
        {"value": v, "p": float(p), "p_exact": f"{p.numerator}/{p.denominator}"}
        for v, p in dist.items()
    ]


@dataclass(frozen=True)
class OddsReport:
    """The exact odds of one attack.

    ``distributions`` are named outcome distributions (``damage``, ``defense_left``, ...);
    ``numbers`` are headline probabilities and expectations (exact fractions);
    ``reasons`` explain the setup (sight lines, cover, thresholds).
    """

    attacker: str
    target: str
    action: str
    distributions: Mapping[str, Dist[Any]]
    numbers: Mapping[str, Fraction]
    reasons: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: each distribution as rows, each number as a float (and exact string)."""
        out: dict[str, Any] = {
            "attacker": self.attacker,
            "target": self.target,
            "action": self.action,
        }
        for name, dist in self.distributions.items():
            out[name] = dist_rows(dist)
        for name, value in self.numbers.items():
            out[name] = float(value)
        out["exact"] = {
            name: f"{v.numerator}/{v.denominator}" for name, v in self.numbers.items()
        }
        out["reasons"] = list(self.reasons)
        out.update(self.extra)
        return out
