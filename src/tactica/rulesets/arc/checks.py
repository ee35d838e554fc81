"""Arc's checks: a d20 rolled under a target number, read as degrees of success or failure.

A check has a target number (a skill plus a focus and modifiers) and an *increment* (5 by
default; a Guns check uses its weapon's spread). The roll succeeds at or under the target
number; its degree is ``floor(roll / increment)`` (ARC-2), positive for a success (``+3º``)
and negative for a failure (``-1º``). A 1 always succeeds and a 20 fails in combat (ARC-9).

>>> from tactica.engine.rulings import Rulings
>>> from tactica.rulesets.arc.rulings import RULINGS
>>> r = Rulings(RULINGS)
>>> read_check(16, 16, 4, r).degree            # the rifle's +4º
4
>>> read_check(9, 8, 5, r).degree              # Gus: -1º
-1
>>> read_check(20, 22, 5, r, combat=False).degree   # Robin Hood: +4º
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tactica.dice import Dist, die

__all__ = [
    "DEFAULT_INCREMENT",
    "SKILL_ATTRIBUTES",
    "Check",
    "CheckResult",
    "Score",
    "check_dist",
    "degree_of",
    "evade_wins",
    "fixed",
    "hits_of",
    "parse_score",
    "read_check",
    "speed_of",
    "take_one",
    "winner",
]

#: The increment of a check that names none (every check but a Guns check).
DEFAULT_INCREMENT = 5

#: The attributes each combat skill is made of (the skills chapter): Small Guns DEX x 2, Big
#: Guns DEX + CON, Melee DEX + AGI, Evade AGI x 2. The rule file names none for Medicine.
SKILL_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "small_guns": ("DEX",),
    "big_guns": ("DEX", "CON"),
    "melee": ("DEX", "AGI"),
    "evade": ("AGI",),
    "medicine": (),
}

#: Speed: the progress points of the base 5•0, each AGI rank adds 2, the maximum 7•7.
BASE_SPEED_POINTS = 15
SPEED_POINTS_PER_AGI = 2
MAX_SPEED = (7, 7)


@dataclass(frozen=True, order=True)
class Score:
    """A score written rank•progress (speed 6•4, spread 2•1); ``rank`` is what counts."""

    rank: int
    progress: int = 0

    def __str__(self) -> str:
        return f"{self.rank}•{self.progress}"


def parse_score(value: object) -> Score:
    """``4``, ``"3"``, ``"2•1"`` or ``[2, 1]`` as a :class:`Score`; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"expected a score like 4 or '2•1', got {value!r}")
    if isinstance(value, int):
        return Score(value)
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return Score(int(value[0]), int(value[1]))
    if isinstance(value, str):
        text = value.strip().replace("*", "•")
        rank, sep, progress = text.partition("•")
        try:
            return Score(int(rank), int(progress) if sep else 0)
        except ValueError:
            pass
    raise ValueError(f"expected a score like 4 or '2•1' (rank•progress), got {value!r}")


def speed_of(agi: int) -> Score:
    """Speed from AGI: 15 progress points make 5•0, each AGI rank adds 2, rank r needs r + 1
    points to reach the next; at most 7•7.

    >>> speed_of(0), speed_of(3), speed_of(10)
    (Score(rank=5, progress=0), Score(rank=6, progress=0), Score(rank=7, progress=7))
    """
    points = BASE_SPEED_POINTS + SPEED_POINTS_PER_AGI * max(0, agi)
    rank = 0
    while points >= rank + 1:
        points -= rank + 1
        rank += 1
    score = Score(rank, points)
    return min(score, Score(*MAX_SPEED))


def degree_of(roll: int, increment: int, rulings: Mapping[str, str]) -> int:
    """The size of a degree (ARC-2): ``floor(roll / increment)``, or that plus one."""
    base = roll // increment
    return base + 1 if rulings["ARC-2"] == "floor-plus-one" else base


@dataclass(frozen=True)
class Check:
    """A check to roll: ``target`` number, ``increment``, the die (20, or 10 on a first turn
    after a successful initiative), and whether it is made in combat (ARC-9)."""

    skill: str
    target: int
    increment: int = DEFAULT_INCREMENT
    sides: int = 20
    combat: bool = True

    @property
    def die(self) -> Dist[int]:
        """The die rolled."""
        return die(self.sides)

    def label(self) -> str:
        """``Guns 16º4 on a d20``."""
        return f"{self.skill} {self.target}º{self.increment} on a d{self.sides}"


@dataclass(frozen=True)
class CheckResult:
    """A check's result: the face rolled (0 when nothing was rolled), success and the signed
    degree, and how (``natural 1``, ``natural 20``, ``take 1``, ``fixed``) when special."""

    roll: int
    success: bool
    degree: int
    how: str = ""

    def __str__(self) -> str:
        sign = "+" if self.success else "-"
        return f"{sign}{abs(self.degree)}º"


def read_check(roll: int, target: int, increment: int, rulings: Mapping[str, str], *,
               combat: bool = True) -> CheckResult:
    """Read a rolled face: at or under the target succeeds; a 1 always succeeds and a 20
    fails in combat, else only when the target is under 20 (ARC-9)."""
    size = degree_of(roll, increment, rulings)
    if roll == 1:
        return CheckResult(roll, True, size, "natural 1" if target < 1 else "")
    if roll == 20 and (combat or target < 20):
        return CheckResult(roll, False, -size, "natural 20" if target >= 20 else "")
    if roll <= target:
        return CheckResult(roll, True, size)
    return CheckResult(roll, False, -size)


def take_one(target: int) -> CheckResult | None:
    """Taking 1: an automatic success at 0º when the target number is 20 or more."""
    return CheckResult(0, True, 0, "take 1") if target >= 20 else None


def fixed(degree: int) -> CheckResult:
    """The result of hardware with a fixed degree (a turret's +3º): no roll."""
    return CheckResult(0, True, degree, "fixed")


@lru_cache(maxsize=4096)
def _check_dist(check: Check, arc2: str) -> Dist[CheckResult]:
    rulings = {"ARC-2": arc2}
    return check.die.map(lambda r: read_check(r, check.target, check.increment, rulings,
                                              combat=check.combat))


def check_dist(check: Check, rulings: Mapping[str, str]) -> Dist[CheckResult]:
    """The exact distribution of a check's result."""
    return _check_dist(check, rulings["ARC-2"])


def winner(a: CheckResult, b: CheckResult, *, same_increment: bool) -> int:
    """A contested check: ``1`` if ``a`` wins, ``-1`` if ``b`` wins, ``0`` for a tie.

    Only a success can win; if both succeed the higher degree wins, and with equal increments
    the higher roll simply wins.
    """
    if a.success != b.success:
        return 1 if a.success else -1
    if not a.success:
        return 0
    if same_increment and a.roll != b.roll and a.how != "fixed" and b.how != "fixed":
        return 1 if a.roll > b.roll else -1
    return (a.degree > b.degree) - (a.degree < b.degree)


def evade_wins(attack: CheckResult, evade: CheckResult, rulings: Mapping[str, str], *,
               same_increment: bool) -> bool:
    """Whether an Evade makes the attack miss (ARC-6). A failed attack misses anyway; then
    any successful Evade counts as evading it (its AP is refunded)."""
    if not evade.success:
        return False
    if not attack.success:
        return True
    rule = rulings["ARC-6"]
    if rule == "any-success":
        return True
    if rule == "contested":
        return winner(attack, evade, same_increment=same_increment) <= 0
    return evade.degree >= attack.degree


def hits_of(result: CheckResult, rof: Fraction, rulings: Mapping[str, str]) -> int:
    """Hits of a successful attack: min(degree, rof), a fractional rof at most 1; a 0º
    success lands 1 hit or none (ARC-3)."""
    if not result.success:
        return 0
    cap = int(rof) if rof >= 1 else 1
    if result.degree <= 0:
        return 1 if rulings["ARC-3"] == "one-hit" else 0
    return min(result.degree, cap)
