"""The hit die: one d10 decides whether an attack lands and how hard (the seed, to the letter).

Physical and magical attacks: ``die - accuracy + evasion <= 7`` hits, and a natural 1 always
hits (LOD-4). Status-inflicting abilities: ``die - status accuracy + resistance`` against the
status threshold of the element multiplier (x0.25 immune, x0.5 3, x1 5, x2 7, x4 unavoidable),
no automatic hit. Damage: ``base = max(1, attack - defense + die)`` and
``final = round(base x multipliers)`` (LOD-1, LOD-2, LOD-3); a knock-out attack uses 1 for the
die in the damage only (LOD-7). The Shell takes damage first; the attack that breaks it downs
the target only if what is left is more than its HP (the shellbreak rule).

Everything here is a pure function of a frozen :class:`TargetSetup` and a die face, so the
battle, the exact odds and the policies share it and can cache it.

>>> s = TargetSetup("physical", accuracy=3, evasion=2, threshold=7, attack=2, defense=3,
...                 multiplier=Fraction(1), hp=10)
>>> o = outcome(s, 5)
>>> (o.total, o.hit, o.base)
(4, True, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tactica.dice import Dist
from tactica.engine.chance import Done, Roll, Step, run_exact

__all__ = [
    "D10",
    "Absorbed",
    "Outcome",
    "TargetSetup",
    "absorb",
    "damage_of",
    "exact_outcomes",
    "hit_die",
    "hit_faces",
    "outcome",
    "round_half",
]

D10: Dist[int] = Dist.uniform(range(1, 11))


def _first(faces: tuple[int, ...]) -> int:
    return faces[0]


def hit_die(label: str, then: Callable[[int], Step]) -> Step:
    """Roll the hit die (one d10, faces 1-10) and continue with ``then(face)``."""
    return Roll(label, D10, then, dice=(D10,), read=_first)


def hit_faces(s: TargetSetup) -> str:
    """The faces of the hit die that hit, for people: ``1-6``, ``1, 9-10``, ``no face``."""
    good = [f for f in D10.outcomes if outcome(s, f).hit]
    if not good:
        return "no face"
    runs: list[str] = []
    start = prev = good[0]
    for f in [*good[1:], 0]:
        if f == prev + 1:
            prev = f
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = f
    return ", ".join(runs)


def round_half(x: Fraction, mode: str = "half-down") -> int:
    """Round to the nearest integer; ties per LOD-2 (``half-down``, ``half-up``,
    ``half-even``).

    >>> round_half(Fraction(5, 2)), round_half(Fraction(5, 2), "half-up")
    (2, 3)
    """
    low = math.floor(x)
    rest = x - low
    if rest != Fraction(1, 2):
        return low + (1 if rest > Fraction(1, 2) else 0)
    if mode == "half-up":
        return low + 1
    if mode == "half-even":
        return low if low % 2 == 0 else low + 1
    return low


@dataclass(frozen=True)
class Absorbed:
    """Where damage went: into the Shell, off the HP, what is left, and whether the Shell
    broke or the character went down."""

    to_shell: int
    to_hp: int
    shell: int
    hp: int
    broken: bool
    downed: bool


def absorb(shell: int, hp: int, damage: int) -> Absorbed:
    """Damage against a Shell (``shell`` > 0) and HP, with the shellbreak rule.

    Damage goes to the Shell first. The hit that breaks the Shell subtracts what went into the
    Shell; if the rest is more than the remaining HP the character is downed (HP to 0),
    otherwise no further damage is taken.

    >>> absorb(5, 10, 3), absorb(5, 10, 15).to_hp, absorb(5, 10, 16).downed
    (Absorbed(to_shell=3, to_hp=0, shell=2, hp=10, broken=False, downed=False), 0, True)
    """
    if damage <= 0:
        return Absorbed(0, 0, shell, hp, False, False)
    if shell > 0:
        if damage < shell:
            return Absorbed(damage, 0, shell - damage, hp, False, False)
        rest = damage - shell
        if rest > hp:
            return Absorbed(shell, hp, 0, 0, True, hp > 0)
        return Absorbed(shell, 0, 0, hp, True, False)
    to_hp = min(damage, hp)
    return Absorbed(0, to_hp, 0, hp - to_hp, False, hp > 0 and to_hp == hp)


@dataclass(frozen=True)
class TargetSetup:
    """Everything one target's result depends on: the numbers, as they count now.

    ``kind`` is ``physical``, ``magical`` or ``status``. ``evasion`` is the target's Evasion
    (or Resistance for a status). ``threshold`` is 7 for attacks; for a status a number,
    ``"immune"`` or ``"always"``. ``auto_fail``: the user is Paralyzed (physical) or Silenced
    (magical). ``multiplier`` is the product of the ability, element and Shell multipliers.
    ``body_armor``: the first physical hit on the target deals no damage; ``armor_any_hit``:
    a physical hit that deals no damage anyway uses it up too (LOD-23).
    """

    kind: str
    accuracy: int
    evasion: int
    threshold: int | str
    attack: int = 0
    defense: int = 0
    multiplier: Fraction = Fraction(1)
    knockout: bool = False
    damage: bool = True
    shell: int = 0
    hp: int = 1
    body_armor: bool = False
    armor_any_hit: bool = False
    auto_fail: bool = False
    one_beats_fail: bool = False
    multiply: str = "base"
    rounding: str = "half-down"


@dataclass(frozen=True)
class Outcome:
    """One target's result of one hit die."""

    die: int
    total: int
    hit: bool
    how: str
    base: int = 0
    damage: int = 0
    to_shell: int = 0
    to_hp: int = 0
    shell: int = 0
    hp: int = 0
    broken: bool = False
    downed: bool = False
    blocked: bool = False


def damage_of(s: TargetSetup, die: int) -> tuple[int, int]:
    """``(base, final)`` damage of a hit with ``die`` (1 for a knock-out attack)."""
    d = 1 if s.knockout else die
    base = max(1, s.attack - s.defense + d)
    if s.multiply == "die-only":
        return base, max(1, s.attack - s.defense + round_half(d * s.multiplier, s.rounding))
    return base, round_half(base * s.multiplier, s.rounding)


def _hit(s: TargetSetup, die: int) -> tuple[int, bool, str]:
    total = die - s.accuracy + s.evasion
    if s.kind == "status":
        if s.threshold == "immune":
            return total, False, "immune"
        if s.threshold == "always":
            return total, True, "unavoidable"
        assert isinstance(s.threshold, int)
        return total, total <= s.threshold, "roll"
    assert isinstance(s.threshold, int)
    if s.auto_fail and not (s.one_beats_fail and die == 1):
        return total, False, "auto-fail"
    if total <= s.threshold:
        return total, True, "roll"
    if die == 1:
        return total, True, "natural 1"
    return total, False, "roll"


def outcome(s: TargetSetup, die: int) -> Outcome:
    """The result of ``die`` for one target."""
    total, hit, how = _hit(s, die)
    if not hit or s.kind == "status" or not s.damage:
        # A physical hit that deals no damage (Steal) uses Body Armor up only under LOD-23
        # "any-hit".
        blocked = hit and s.kind == "physical" and s.body_armor and s.armor_any_hit
        return Outcome(die, total, hit, how, shell=s.shell, hp=s.hp, blocked=blocked)
    base, final = damage_of(s, die)
    if s.body_armor and s.kind == "physical":
        return Outcome(die, total, hit, how, base, final, shell=s.shell, hp=s.hp, blocked=True)
    a = absorb(s.shell, s.hp, final)
    return Outcome(die, total, hit, how, base, final, a.to_shell, a.to_hp, a.shell, a.hp,
                   a.broken, a.downed)


def _process(s: TargetSetup) -> Step:
    return hit_die("hit die", lambda die: Done(outcome(s, die)))


@lru_cache(maxsize=65536)
def exact_outcomes(s: TargetSetup) -> Dist[Outcome]:
    """Every outcome of one target with its exact probability (the exact driver over the hit
    die; cached by the setup)."""
    return run_exact(_process(s))
