"""Exact outcome distributions of one action, with the reasons behind them.

A game's ``odds`` hook builds an :class:`OddsReport` from the same chance process the battle
uses, run through the exact driver; the command line and ``play`` print it as tables or JSON
whatever the game. :func:`outcome_report` is the report of any action a game has no special
odds for: every outcome, as the events it would write, with its exact chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from tactica.chance import FirstOption, Step, run_exact
from tactica.dice import Dist
from tactica.events import Damaged, OutOfAction

__all__ = ["COMMON_KEYS", "OddsReport", "dist_rows", "outcome_report"]

#: The keys every report's JSON has, whatever the game (``p_hit`` where hitting means
#: something).
COMMON_KEYS = ("damage", "expected_damage", "p_out_of_action")


def dist_rows(dist: Dist[Any]) -> list[dict[str, Any]]:
    """``[{"value", "p", "p_exact"}]`` rows of a distribution, in outcome order."""
    return [
        {"value": v, "p": float(p), "p_exact": f"{p.numerator}/{p.denominator}"}
        for v, p in dist.items()
    ]


@dataclass(frozen=True)
class OddsReport:
    """The exact odds of one action.

    ``distributions`` are named outcome distributions (``damage``, ``defense_left``, ...);
    ``numbers`` are headline probabilities and expectations (exact fractions: ``p_hit``,
    ``expected_damage``, ``p_out_of_action``, ...); ``reasons`` explain the setup (sight
    lines, cover, thresholds). ``why`` says, for a number that is zero or certain (or
    surprising), which rule makes it so and what would change it (see
    :mod:`tactica.odds_why`). ``extra`` holds plain JSON values for tables (``weapon``,
    ``cover``, ...).
    """

    attacker: str
    target: str
    action: str
    distributions: Mapping[str, Dist[Any]]
    numbers: Mapping[str, Fraction]
    reasons: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    why: Mapping[str, str] = field(default_factory=dict)

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
        out["why"] = {name: self.why[name] for name in self.numbers if name in self.why}
        out.update(self.extra)
        return out

    def _repr_html_(self) -> str:
        from tactica.views import html_of, odds_tables

        return html_of(odds_tables(self))

    def to_pandas(self) -> Any:
        """Every distribution, long form (``distribution``, ``value``, ``p``, ``p_exact``),
        as a pandas DataFrame (needs pandas); the headline numbers are in ``numbers``."""
        from tactica.views import odds_frame

        return odds_frame(self)


class _Describes(Protocol):
    def resolve(self, state: Any, action: Any) -> Step: ...

    def copy_state(self, state: Any) -> Any: ...

    def apply_event(self, state: Any, event: Any) -> None: ...

    def describe_action(self, state: Any, action: Any) -> str: ...

    def describe_event(self, state: Any, event: Any) -> str: ...


def outcome_report(rules: _Describes, state: Any, action: Any, *, shown: int = 12) -> OddsReport:
    """Every outcome of ``action`` as the events it writes, with its exact chance (decisions
    inside the action taken as their first option). ``damage`` sums the damage events of an
    outcome and ``p_out_of_action`` is the chance that anyone drops out of the fight."""
    dist = run_exact(rules.resolve(state, action), policies=FirstOption(), events=True,
                     world=rules, state=state)
    outcomes: dict[str, Fraction] = {}
    damage: dict[int, Fraction] = {}
    p_out = Fraction(0)
    for (_, events), prob in dist.items():
        words = " ".join(rules.describe_event(state, e) for e in events) or "nothing happens"
        outcomes[words] = outcomes.get(words, Fraction(0)) + prob
        total = sum(e.amount for e in events if isinstance(e, Damaged))
        damage[total] = damage.get(total, Fraction(0)) + prob
        if any(isinstance(e, OutOfAction) for e in events):
            p_out += prob
    ranked = sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))
    reasons = [f"{float(p):7.2%}  {words}" for words, p in ranked[:shown]]
    if len(ranked) > shown:
        rest = sum((p for _, p in ranked[shown:]), Fraction(0))
        reasons.append(f"{float(rest):7.2%}  ({len(ranked) - shown} other outcomes)")
    dmg = Dist.from_probs(damage)
    why: dict[str, str] = {}
    if dmg.mean() == 0:
        why["expected_damage"] = f"none of its {len(ranked)} outcome(s) does damage"
    if p_out in (0, 1):
        why["p_out_of_action"] = (f"none of its {len(ranked)} outcome(s) takes anyone out "
                                  "of action" if p_out == 0 else
                                  "every outcome takes someone out of action")
    return OddsReport(
        "", "", rules.describe_action(state, action), {"damage": dmg},
        {"expected_damage": dmg.mean(), "p_out_of_action": p_out}, tuple(reasons),
        extra={"outcomes": [{"events": w, "p": float(p)} for w, p in ranked]}, why=why,
    )
