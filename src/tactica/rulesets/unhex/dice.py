"""Unhex dice: percentile dice rolled under the current level, the two dice kept apart.

A roll is the pair ``(tens, units)``, each die 0-9, read as ``10 * tens + units`` except that
``00`` reads 100. At or under the level succeeds. Doubles are criticals (a critical success at
or under the level, else a critical failure), rolling exactly the level is a critical success,
and 100 is always a critical failure.

:func:`check` is the chance process of one roll: the roll, a *good* re-roll of one or both dice
(for a character good at it, never after a critical failure), then the critical success choice
(an extra action, or setting the dice). Each choice is a :class:`~tactica.engine.chance.Decide` of
the roller's side with a ``context`` the policies read.

>>> number((0, 0)), number((0, 7)), number((4, 2))
(100, 7, 42)
>>> critical((3, 3), 50), critical((7, 7), 50), critical((5, 0), 50), critical((0, 0), 99)
('success', 'failure', 'success', 'failure')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tactica.dice import Dist, percentile_pair, read_percentile
from tactica.engine.chance import Decide, Roll, Step

__all__ = [
    "CRITICAL_CHOICES",
    "D10",
    "PAIR",
    "REROLLS",
    "Check",
    "CheckResult",
    "Pair",
    "check",
    "check_hint",
    "critical",
    "number",
    "opposed_winner",
    "pair_of",
    "set_limit",
    "succeeds",
]

Pair = tuple[int, int]

#: The two dice of a roll: ``(tens, units)``, 100 outcomes.
PAIR: Dist[Pair] = percentile_pair()
#: One ten-sided die, faces 0-9.
D10: Dist[int] = Dist.uniform(range(10))

#: Options of a good re-roll, and of a critical success.
REROLLS: tuple[str, ...] = ("keep", "tens", "units", "both")
CRITICAL_CHOICES: tuple[str, ...] = ("extra-action", "set-dice")


def _read_pair(faces: tuple[int, ...]) -> Pair:
    return (faces[0], faces[1])


def _read_one(faces: tuple[int, ...]) -> int:
    return faces[0]


_NUMBERS: dict[Pair, int] = {p: read_percentile(p[0], p[1]) for p in PAIR.outcomes}


def number(pair: Pair) -> int:
    """The number the two dice read: 1-100, ``00`` being 100."""
    found = _NUMBERS.get(pair)
    return found if found is not None else read_percentile(pair[0], pair[1])


def pair_of(value: int) -> Pair:
    """The dice showing ``value`` (1-100)."""
    return (0, 0) if value == 100 else (value // 10, value % 10)


def succeeds(pair: Pair, level: int) -> bool:
    """At or under ``level`` (100 never succeeds)."""
    n = number(pair)
    return n != 100 and n <= level


def critical(pair: Pair, level: int) -> str | None:
    """``"success"``, ``"failure"`` or ``None`` for a roll against ``level``."""
    n = number(pair)
    if n == 100:
        return "failure"
    if pair[0] == pair[1]:
        return "success" if n <= level else "failure"
    return "success" if n == level else None


def set_limit(pair: Pair, level: int, max_level: int) -> int:
    """The highest number the dice may be set to after this critical success."""
    return max_level if number(pair) == level else level


@dataclass(frozen=True)
class Check:
    """Who rolls, against what, and what for (``purpose`` is read by the policies)."""

    label: str
    unit: str
    side: str
    level: int
    max_level: int
    good: bool = False
    choice: bool = True
    purpose: Any = None


@dataclass(frozen=True)
class CheckResult:
    """A finished roll: the dice kept, success, the critical, and what a critical success
    was spent on (``extra`` action or ``set`` dice)."""

    pair: Pair
    success: bool
    critical: str | None = None
    extra: bool = False
    set: bool = False

    @property
    def number(self) -> int:
        """The number read from the dice."""
        return number(self.pair)

    @property
    def lost_action(self) -> bool:
        """True after a critical failure: the roller loses its next action."""
        return self.critical == "failure"


def check(spec: Check, then: Callable[[CheckResult], Step]) -> Step:
    """Roll for ``spec`` and continue with ``then(result)``."""
    return Roll(f"{spec.unit}: {spec.label}", PAIR, lambda p: _after_roll(spec, p, then),
                dice=(D10, D10), read=_read_pair, hint=check_hint(spec.level))


def check_hint(level: int) -> str:
    """What a percentile roll against ``level`` needs, in the rulebook's words."""
    if level <= 0:
        return "no roll succeeds (level 0); doubles and 100 are critical failures"
    return (f"{level} or under succeeds (00 is 100); doubles at or under {level} and "
            f"exactly {level} are critical successes, other doubles and 100 critical failures")


def _after_roll(spec: Check, pair: Pair, then: Callable[[CheckResult], Step]) -> Step:
    if spec.good and critical(pair, spec.level) != "failure":
        return Decide(spec.side, f"{spec.unit}: re-roll {spec.label}?", REROLLS,
                      lambda c: _reroll(spec, pair, c, then),
                      {"kind": "reroll", "check": spec, "pair": pair})
    return _finish(spec, pair, then)


def _reroll(spec: Check, pair: Pair, choice: str, then: Callable[[CheckResult], Step]) -> Step:
    label = f"{spec.unit}: {spec.label} (re-roll"
    if choice == "tens":
        return Roll(label + " tens)", D10, lambda t: _finish(spec, (t, pair[1]), then),
                    dice=(D10,), read=_read_one, hint=check_hint(spec.level))
    if choice == "units":
        return Roll(label + " units)", D10, lambda u: _finish(spec, (pair[0], u), then),
                    dice=(D10,), read=_read_one, hint=check_hint(spec.level))
    if choice == "both":
        return Roll(label + ")", PAIR, lambda p: _finish(spec, p, then),
                    dice=(D10, D10), read=_read_pair, hint=check_hint(spec.level))
    return _finish(spec, pair, then)


def _finish(spec: Check, pair: Pair, then: Callable[[CheckResult], Step]) -> Step:
    crit = critical(pair, spec.level)
    ok = succeeds(pair, spec.level)
    if crit != "success":
        return then(CheckResult(pair, ok, crit))
    if not spec.choice:
        return then(CheckResult(pair, True, crit, extra=True))
    ctx = {"kind": "critical", "check": spec, "pair": pair}

    def chosen(option: str) -> Step:
        if option == "extra-action":
            return then(CheckResult(pair, True, crit, extra=True))
        limit = set_limit(pair, spec.level, spec.max_level)
        return Decide(spec.side, f"{spec.unit}: set the dice to (1-{limit})",
                      tuple(range(1, limit + 1)),
                      lambda n: then(CheckResult(pair_of(n), True, crit, set=True)),
                      {"kind": "set-dice", "check": spec, "pair": pair})

    return Decide(spec.side, f"{spec.unit}: critical success on {spec.label}",
                  CRITICAL_CHOICES, chosen, ctx)


def opposed_winner(results: list[CheckResult], pcs: list[bool]) -> list[int]:
    """Indices of the rolls that win an opposed roll before tie-breaking among equals.

    The highest successful number wins (a critical success does not beat a higher number);
    among equal highest successes the PCs win against NPCs. If nobody succeeds the list is
    empty. More than one index means a tie the caller must break.
    """
    best = max((r.number for r in results if r.success), default=None)
    if best is None:
        return []
    top = [i for i, r in enumerate(results) if r.success and r.number == best]
    if any(pcs[i] for i in top) and not all(pcs[i] for i in top):
        top = [i for i in top if pcs[i]]
    return top
