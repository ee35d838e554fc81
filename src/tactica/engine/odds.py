"""Exact outcome distributions of one action, with the reasons behind them.

A game's ``Odds`` part builds an :class:`OddsReport` from the same chance process the battle
uses, run through the exact driver; the command line and ``play`` print it as tables or JSON
whatever the game. :func:`outcome_report` is the report of any action a game has no special
odds for: every outcome, as the events it would write, with its exact chance.

Every report carries the numbers that tables, sweeps and matrices read (:data:`REQUIRED`):
its :class:`OddsNumbers` cannot be built without them, so a game that leaves one out fails
type checking (and, unchecked, fails where it builds the report, naming what is missing).
:meth:`OddsReport.from_outcomes` builds a whole report from the distribution of an action's
outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from tactica.dice import Dist
from tactica.engine.chance import FirstOption, Policy, Step, run_exact
from tactica.engine.events import Damaged, OutOfAction

__all__ = [
    "COMMON_KEYS",
    "REQUIRED",
    "OddsNumbers",
    "OddsReading",
    "OddsReport",
    "damage_dealt",
    "dist_rows",
    "drops_out",
    "outcome_report",
]

#: The keys every report's JSON has, whatever the game (``p_hit`` where hitting means
#: something).
COMMON_KEYS = ("damage", "expected_damage", "p_out_of_action")

#: The headline numbers every report has (what ``odds --table``, sweeps and matrices read).
REQUIRED = ("expected_damage", "p_out_of_action")


def dist_rows(dist: Dist[Any]) -> list[dict[str, Any]]:
    """``[{"value", "p", "p_exact"}]`` rows of a distribution, in outcome order."""
    return [
        {"value": v, "p": float(p), "p_exact": f"{p.numerator}/{p.denominator}"}
        for v, p in dist.items()
    ]


class OddsNumbers(Mapping[str, Fraction]):
    """The headline numbers of an odds report (exact fractions), in the order the game gives
    them: ``expected_damage`` and ``p_out_of_action`` are required keywords, every other
    number (``p_hit``, ``p_kill``, ...) is the game's own::

        OddsNumbers(p_hit=p, expected_damage=dmg.mean(), p_out_of_action=out)
    """

    _numbers: dict[str, Fraction]

    if TYPE_CHECKING:
        def __init__(self, *, expected_damage: Fraction, p_out_of_action: Fraction,
                     **more: Fraction) -> None: ...
    else:
        def __init__(self, **numbers: Fraction) -> None:
            missing = [k for k in REQUIRED if k not in numbers]
            if missing:
                raise TypeError("an odds report needs the numbers " + ", ".join(missing))
            self._numbers = numbers

    def __getitem__(self, key: str) -> Fraction:
        return self._numbers[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)

    def __repr__(self) -> str:
        return f"OddsNumbers({self._numbers!r})"

    def with_more(self, **more: Fraction) -> OddsNumbers:
        """These numbers and ``more`` after them (a value of ``more`` replaces one here)."""
        return OddsNumbers(**{**self._numbers, **more})


@dataclass(frozen=True)
class OddsReport:
    """The exact odds of one action.

    ``distributions`` are named outcome distributions (``damage``, ``defense_left``, ...);
    ``numbers`` are headline probabilities and expectations (exact fractions: ``p_hit``,
    ``expected_damage``, ``p_out_of_action``, ...); ``reasons`` explain the setup (sight
    lines, cover, thresholds). ``why`` says, for a number that is zero or certain (or
    surprising), which rule makes it so and what would change it (see
    :mod:`tactica.engine.odds_why`). ``extra`` holds plain JSON values for tables (``weapon``,
    ``cover``, ...).
    """

    attacker: str
    target: str
    action: str
    distributions: Mapping[str, Dist[Any]]
    numbers: OddsNumbers
    reasons: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    why: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_outcomes(cls, outcomes: Dist[Any], *, attacker: str, target: str, action: str,
                      damage: Callable[[Any], int] | None = None,
                      out_of_action: Callable[[Any], bool] | None = None,
                      hit: Callable[[Any], bool] | None = None,
                      distributions: Mapping[str, Dist[Any]] | None = None,
                      numbers: Mapping[str, Fraction] | None = None,
                      reasons: Sequence[str] = (),
                      extra: Mapping[str, Any] | None = None) -> OddsReport:
        """The report of an action from the exact distribution of its ``outcomes``.

        ``damage`` (the damage an outcome deals) gives the ``damage`` distribution and
        ``expected_damage``; ``out_of_action`` (whether someone drops out) gives
        ``p_out_of_action``; ``hit``, when given, ``p_hit``. By default they read outcomes of
        ``run_exact(..., events=True)`` (``(value, events)`` pairs) through the core's events:
        :func:`damage_dealt` and :func:`drops_out`. ``distributions`` and ``numbers`` are the
        game's own, shown after these.
        """
        dealt = damage if damage is not None else damage_dealt
        out = out_of_action if out_of_action is not None else drops_out
        dmg = outcomes.map(dealt)
        head: dict[str, Fraction] = {}
        if hit is not None:
            head["p_hit"] = outcomes.map(hit).p(True)
        return cls(attacker, target, action, {"damage": dmg, **(distributions or {})},
                   OddsNumbers(**head, expected_damage=dmg.mean(),
                               p_out_of_action=outcomes.map(out).p(True), **(numbers or {})),
                   tuple(reasons), dict(extra or {}))

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
        from tactica.analysis.views import html_of, odds_tables

        return html_of(odds_tables(self))

    def to_pandas(self) -> Any:
        """Every distribution, long form (``distribution``, ``value``, ``p``, ``p_exact``),
        as a pandas DataFrame (needs pandas); the headline numbers are in ``numbers``."""
        from tactica.analysis.views import odds_frame

        return odds_frame(self)


#: An outcome of an action's process run with events: ``(value, events)``.
Outcome = tuple[Any, Sequence[Any]]


@dataclass(frozen=True)
class OddsReading:
    """How a game's odds report reads the process of its action, so that the conformance
    sweep (:mod:`tactica.testing.claims`) can hold the report to that process.

    ``process`` gives a fresh first step of the process the battle runs for the action (by
    default the game's ``resolve`` of it; a throw whose blast goes off later, the throw and
    then the blast); ``policies`` answers the decisions inside it as the report assumes
    (``None``: each decision's first option); ``damage`` and ``out`` read one outcome
    (``(value, events)``) as the report counts it: the damage its ``damage`` distribution and
    ``expected_damage`` count, and whether it counts toward ``p_out_of_action``. By default
    they read the core's events (:func:`damage_dealt`, :func:`drops_out`). ``state`` is the
    battle state the process starts from when the report reads another than the one asked
    about (an option that changes the target's figures); ``None``: that one.
    """

    process: Callable[[], Step]
    policies: Policy | None = None
    damage: Callable[[Outcome], int] = field(default=lambda o: damage_dealt(o))
    out: Callable[[Outcome], bool] = field(default=lambda o: drops_out(o))
    state: Any = None


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
    for (_, events), prob in dist.items():
        words = " ".join(rules.describe_event(state, e) for e in events) or "nothing happens"
        outcomes[words] = outcomes.get(words, Fraction(0)) + prob
    ranked = sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0]))
    reasons = [f"{float(p):7.2%}  {words}" for words, p in ranked[:shown]]
    if len(ranked) > shown:
        rest = sum((p for _, p in ranked[shown:]), Fraction(0))
        reasons.append(f"{float(rest):7.2%}  ({len(ranked) - shown} other outcomes)")
    report = OddsReport.from_outcomes(
        dist, attacker="", target="", action=rules.describe_action(state, action),
        reasons=reasons, extra={"outcomes": [{"events": w, "p": float(p)} for w, p in ranked]})
    why: dict[str, str] = {}
    if report.numbers["expected_damage"] == 0:
        why["expected_damage"] = f"none of its {len(ranked)} outcome(s) does damage"
    p_out = report.numbers["p_out_of_action"]
    if p_out in (0, 1):
        why["p_out_of_action"] = (f"none of its {len(ranked)} outcome(s) takes anyone out "
                                  "of action" if p_out == 0 else
                                  "every outcome takes someone out of action")
    return replace(report, why=why)


def damage_dealt(outcome: tuple[Any, Sequence[Any]]) -> int:
    """The damage of a ``(value, events)`` outcome: the amounts of its Damaged events."""
    return sum(e.amount for e in outcome[1] if isinstance(e, Damaged))


def drops_out(outcome: tuple[Any, Sequence[Any]]) -> bool:
    """Whether anyone drops out of the fight in a ``(value, events)`` outcome."""
    return any(isinstance(e, OutOfAction) for e in outcome[1])
