"""Armor that wears down hit by hit, damage to health, and wound dice.

The hits of one attack are resolved by a chain of hashable nodes (:class:`Hits`): the armor
sizes, the hits left, the damage so far and the wound dice so far. The exact driver merges
equal nodes, so N hits against degrading armor stay polynomial. Against an armored target
each hit is its own roll (a hit that cannot beat DT is absorbed without one); once no armor
protects against the damage type, the remaining hits are rolled together and summed (the
unarmored rule), each hit still adding its own wound die (ARC-7).

>>> wound_die(4), wound_die(9), wound_die(15)
(4, 10, 12)
>>> raise_step((12, 6))
(12, 8)
>>> remove_steps((8, 4), 2, smallest_first=True)
(6,)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tactica.dice import Dist
from tactica.engine.chance import Done, Roll, Step
from tactica.engine.events import record
from tactica.rulesets.arc.content import DamageDice

__all__ = [
    "STEPS",
    "DamageResult",
    "DamageRules",
    "Hits",
    "Volley",
    "add_wounds",
    "raise_step",
    "remove_steps",
    "summed_hits",
    "wound_die",
    "wound_dist",
]

#: The step dice, lowest first.
STEPS = (4, 6, 8, 10, 12)


def wound_die(damage: int) -> int:
    """The wound die a hit of ``damage`` adds (ARC-7 by-damage): 1-4 d4, 5-6 d6, 7-8 d8,
    9-11 d10, 12+ d12."""
    if damage <= 4:
        return 4
    if damage <= 6:
        return 6
    if damage <= 8:
        return 8
    if damage <= 11:
        return 10
    return 12


def _sorted(wounds: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(wounds, reverse=True))


def raise_step(wounds: Sequence[int]) -> tuple[int, ...]:
    """One wound step more: the smallest die below d12 rises a step; with none, a new d4."""
    below = [w for w in wounds if w < 12]
    if not below:
        return _sorted((*wounds, 4))
    i = list(wounds).index(min(below))
    out = list(wounds)
    out[i] = STEPS[STEPS.index(out[i]) + 1]
    return _sorted(out)


def remove_steps(wounds: Sequence[int], steps: int, *, smallest_first: bool) -> tuple[int, ...]:
    """``steps`` wound steps fewer, from the smallest (or largest) die first; a d4 that
    drops a step is gone."""
    out = list(_sorted(wounds))
    for _ in range(steps):
        if not out:
            break
        i = len(out) - 1 if smallest_first else 0
        if out[i] == 4:
            out.pop(i)
        else:
            out[i] = STEPS[STEPS.index(out[i]) - 1]
            out = list(_sorted(out))
    return tuple(out)


def add_wounds(wounds: Sequence[int], hits: Sequence[int], rule: str) -> tuple[int, ...]:
    """The wound dice after hits to health of the given dice (ARC-7): by damage each hit adds
    its own die; ``step``: each hit raises the open die a step."""
    if rule == "step":
        out = tuple(wounds)
        for _ in hits:
            out = raise_step(out)
        return out
    return _sorted((*wounds, *hits))


def wound_dist(wounds: Sequence[int]) -> Dist[int]:
    """The total of rolling the wound dice."""
    return _wound_dist(_sorted(wounds))


@lru_cache(maxsize=512)
def _wound_dist(wounds: tuple[int, ...]) -> Dist[int]:
    total: Dist[int] = Dist.constant(0)
    for w in wounds:
        total = total + DamageDice(1, w).dist()
    return total


# --------------------------------------------------------------------------------------------
# Hits against armor


@dataclass(frozen=True)
class DamageRules:
    """The rulings the hits depend on: which die drops (ARC-4), whether the hit that drops
    it also reaches health (ARC-5 ``penetrates``) and massive damage (ARC-16)."""

    drop: str = "highest"
    massive: bool = False
    penetrates: bool = False


@dataclass(frozen=True)
class DamageResult:
    """What the hits of one attack did: damage to health, the wound dice of the hits that
    reached health (by their damage, largest first), the armor sizes after, and how many hits
    armor absorbed or degraded."""

    health: int
    wound_dice: tuple[int, ...]
    armor: tuple[int, ...]
    absorbed: int = 0
    degraded: int = 0
    destroyed: bool = False


@record("arc.volley")
@dataclass(frozen=True, order=True)
class Volley:
    """Hits rolled together against no armor: the total and each hit's wound die."""

    total: int
    wounds: tuple[int, ...] = ()

    def __str__(self) -> str:
        dice = "+".join(f"d{w}" for w in self.wounds)
        return f"{self.total} ({dice})" if dice else str(self.total)


def _per_hit(dice: DamageDice) -> Dist[Volley]:
    return dice.dist().map(lambda d: Volley(d, (wound_die(d),)))


@lru_cache(maxsize=1024)
def summed_hits(dice: DamageDice, n: int) -> Dist[Volley]:
    """``n`` unarmored hits rolled together: the total and the wound dice by hit, exactly."""
    one = _per_hit(dice)
    out: Dist[Volley] = Dist.constant(Volley(0))
    for _ in range(n):
        out = out.combine(one, lambda a, b: Volley(a.total + b.total,
                                                   _sorted((*a.wounds, *b.wounds))))
    return out


def _read_summed(dice: DamageDice, n: int) -> Callable[[tuple[int, ...]], Volley]:
    def read(faces: tuple[int, ...]) -> Volley:
        per = [dice.read(faces[i * dice.n:(i + 1) * dice.n]) for i in range(n)]
        return Volley(sum(per), _sorted(wound_die(d) for d in per))
    return read


@dataclass(frozen=True)
class Hits:
    """The hits of one attack still to resolve, as a node the exact driver merges.

    ``armor`` holds the size of every armor die of the target (0 once gone) and ``covers``
    which of them protect against this damage type; ``label`` names the rolls for people.
    """

    dice: DamageDice
    left: int
    armor: tuple[int, ...]
    covers: tuple[bool, ...]
    rules: DamageRules
    label: str
    health: int = 0
    wounds: tuple[int, ...] = ()
    absorbed: int = 0
    degraded: int = 0
    destroyed: bool = False
    hit_no: int = 1

    def _result(self, health: int = 0, wounds: tuple[int, ...] = (),
                absorbed: int = 0) -> DamageResult:
        return DamageResult(self.health + health, _sorted((*self.wounds, *wounds)),
                            self.armor, self.absorbed + absorbed, self.degraded,
                            self.destroyed)

    @property
    def dt(self) -> int:
        """The damage threshold: the sum of the sizes of the dice that protect."""
        return sum(s for s, c in zip(self.armor, self.covers, strict=True) if c and s > 0)

    def advance(self) -> Step:
        if self.left == 0:
            return Done(self._result())
        dt = self.dt
        if dt == 0:
            return self._unarmored()
        if self.dice.max <= dt:
            # Armor does not change while nothing beats it: every hit left is absorbed.
            return Done(self._result(absorbed=self.left))
        return Roll(f"{self.label}: hit {self.hit_no} damage ({self.dice}, DT {dt})",
                    self.dice.dist(), self._hit, self.dice.faces, self.dice.read)

    def _unarmored(self) -> Step:
        n, dice = self.left, self.dice
        which = f"hit {self.hit_no}" if n == 1 else f"hits {self.hit_no}-{self.hit_no + n - 1}"
        return Roll(f"{self.label}: {which} damage ({n * dice.n}d{dice.sides}"
                    f"{f'{n * dice.bonus:+d}' if dice.bonus else ''} together)",
                    summed_hits(dice, n), self._summed, dice.faces * n,
                    _read_summed(dice, n))

    def _summed(self, value: Volley) -> Step:
        return Done(self._result(value.total, value.wounds))

    def _next(self, **changes: Any) -> Hits:
        return replace(self, left=self.left - 1, hit_no=self.hit_no + 1, **changes)

    def _hit(self, damage: int) -> Step:
        dt = self.dt
        if self.rules.massive and damage >= 2 * dt:
            gone = tuple(0 if c else s for s, c in zip(self.armor, self.covers, strict=True))
            through = damage - dt
            return self._next(armor=gone, destroyed=True, health=self.health + through,
                              wounds=_sorted((*self.wounds, wound_die(through))))
        if damage <= dt:
            return self._next(absorbed=self.absorbed + 1)
        if self.rules.penetrates:
            return self._next(armor=self._dropped(), degraded=self.degraded + 1,
                              health=self.health + damage,
                              wounds=_sorted((*self.wounds, wound_die(damage))))
        return self._next(armor=self._dropped(), degraded=self.degraded + 1)

    def _dropped(self) -> tuple[int, ...]:
        live = [i for i, (s, c) in enumerate(zip(self.armor, self.covers, strict=True))
                if c and s > 0]
        if self.rules.drop == "lowest":
            i = min(live, key=lambda j: (self.armor[j], j))
        else:
            i = max(live, key=lambda j: (self.armor[j], -j))
        sizes = list(self.armor)
        sizes[i] = STEPS[STEPS.index(sizes[i]) - 1] if sizes[i] > 4 else 0
        return tuple(sizes)
