"""The syntax tree of a dice expression: immutable nodes that cost and compute themselves.

Every node gives its canonical text with ``str()`` (parsing it again gives an equal tree), an
upper bound of its size and work (:meth:`Expr.cost`, before anything is computed), its exact
distribution, and the chance that no explosion in it was cut by the depth cap
(:meth:`Expr.clean`). Chains such as ``1+1+...+1`` are one flat node, so long expressions need
no deep recursion.
"""

from __future__ import annotations

import math
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, ClassVar

from tactica.dice.cost import (
    MAX_DICE,
    PER_OUTCOME,
    Cost,
    arith_cost,
    div_cost,
    make_cost,
    mul_work,
    slot_bits,
)
from tactica.dice.dist import Dist
from tactica.dice.mechanics import random_rolls
from tactica.dice.pool import Faces, PoolSpec, pool_clean, pool_cost, pool_dist
from tactica.engine.errors import DiceError

__all__ = [
    "Chain",
    "Compare",
    "Const",
    "DiceTerm",
    "Expr",
    "Func",
    "Group",
    "Neg",
    "RandomRoll",
]


class Expr(ABC):
    """A parsed dice expression (an immutable syntax tree); ``str()`` gives canonical text."""

    __slots__ = ()
    precedence: ClassVar[int] = 4

    @abstractmethod
    def cost(self) -> Cost:
        """Bounds on outcomes and work of this node and its children.

        Raises :class:`DiceError` when a node has more than ``MAX_OUTCOMES`` outcomes.
        """

    @abstractmethod
    def _dist(self) -> Dist[int]:
        """Compute the exact distribution (callers check :meth:`cost` first)."""

    @abstractmethod
    def clean(self) -> Fraction:
        """The chance that no exploding die in this expression was cut by its depth cap."""

    def dist(self) -> Dist[int]:
        """The exact distribution, after checking the size limits."""
        from tactica.dice.expr import evaluate

        return evaluate(self)

    def _wrap(self, child: Expr, min_prec: int) -> str:
        return f"({child})" if child.precedence < min_prec else str(child)


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """An integer constant."""

    value: int

    def cost(self) -> Cost:
        return Cost(self.value, self.value, 1, 0.0, 0.0)

    def _dist(self) -> Dist[int]:
        return Dist.constant(self.value)

    def clean(self) -> Fraction:
        return Fraction(1)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class DiceTerm(Expr):
    """``count`` dice of one kind with their modifiers: ``4d6``, ``6d10r1x>=9kh3cs>=8``."""

    count: int
    spec: PoolSpec

    def cost(self) -> Cost:
        return pool_cost(self.count, self.spec, self)

    def _dist(self) -> Dist[int]:
        return pool_dist(self.count, self.spec)

    def clean(self) -> Fraction:
        return pool_clean(self.count, self.spec)

    def __str__(self) -> str:
        s = self.spec
        mods = [str(m) for m in (s.reroll, *s.clamps, s.explode, s.keep, s.count) if m]
        return f"{self.count}d{s.faces}{''.join(mods)}"


@dataclass(frozen=True, slots=True)
class RandomRoll(Expr):
    """``(count)dS``: roll ``count``, then that many dice of ``faces``, summed."""

    count: Expr
    faces: Faces

    def cost(self) -> Cost:
        c = self.count.cost()
        if c.lo < 0:
            raise DiceError(f"the number of dice in {str(self)!r} can be negative ({c.lo})")
        if c.hi > MAX_DICE:
            raise DiceError(f"too many dice in {str(self)!r}: up to {c.hi} (at most {MAX_DICE})")
        f = self.faces
        lo, hi = min(0, c.hi * f.lo), max(0, c.hi * f.hi)
        bits = c.weight_bits + c.hi * math.log2(max(f.sides, 1))
        n = hi - lo + 1
        slot = slot_bits(bits)
        step = mul_work(n * slot, (f.hi - f.lo + 1) * slot)
        return make_cost(lo, hi, n, bits, c.work + c.hi * step + n * PER_OUTCOME, self)

    def _dist(self) -> Dist[int]:
        return random_rolls(self.count._dist(), self.faces.dist())

    def clean(self) -> Fraction:
        return self.count.clean()

    def __str__(self) -> str:
        return f"({self.count})d{self.faces}"


@dataclass(frozen=True, slots=True)
class Neg(Expr):
    """``-operand``."""

    operand: Expr
    precedence: ClassVar[int] = 3

    def cost(self) -> Cost:
        c = self.operand.cost()
        return Cost(-c.hi, -c.lo, c.outcomes, c.weight_bits, c.work + c.outcomes)

    def _dist(self) -> Dist[int]:
        result: Dist[int] = -self.operand._dist()
        return result

    def clean(self) -> Fraction:
        return self.operand.clean()

    def __str__(self) -> str:
        return "-" + self._wrap(self.operand, 3)


def _floordiv(a: int, b: int) -> int:
    return a // b


def _ceildiv(a: int, b: int) -> int:
    return -((-a) // b)


_DIVIDE: dict[str, Callable[[int, int], int]] = {"/": _floordiv, "/u": _ceildiv}


@dataclass(frozen=True, slots=True)
class Chain(Expr):
    """``a + b - c`` or ``a * b / c``: independent operands combined from left to right.

    ``rest`` holds ``(operator, operand)`` pairs; the operators of one chain are either all of
    ``+ -`` or all of ``* / /u`` (``/`` rounds down, ``/u`` rounds up).
    """

    first: Expr
    rest: tuple[tuple[str, Expr], ...]

    @property
    def precedence(self) -> int:  # type: ignore[override]
        return 1 if self.rest[0][0] in "+-" else 2

    def cost(self) -> Cost:
        total = self.first.cost()
        for op, operand in self.rest:
            c = operand.cost()
            combine = div_cost if op in _DIVIDE else partial(arith_cost, op)
            total = combine(total, c, self)
        return total

    def _dist(self) -> Dist[int]:
        acc = self.first._dist()
        for op, operand in self.rest:
            d = operand._dist()
            if op == "+":
                acc = acc + d
            elif op == "-":
                acc = acc - d
            elif op == "*":
                acc = acc * d
            else:
                if 0 in d:
                    raise DiceError(f"{str(operand)!r} can be 0, and {str(self)!r} divides by it")
                acc = acc.combine(d, _DIVIDE[op])
        return acc

    def clean(self) -> Fraction:
        p = self.first.clean()
        for _, operand in self.rest:
            p *= operand.clean()
        return p

    def __str__(self) -> str:
        p = self.precedence  # operands are wrapped at equal precedence: faithful trees
        parts = [self._wrap(self.first, p + 1)]
        for op, operand in self.rest:
            if op == "/u":
                parts.append(f"/ {self._wrap(operand, p + 1)}u")
            else:
                parts.append(f"{op} {self._wrap(operand, p + 1)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Func(Expr):
    """``max(a, b, ...)`` or ``min(a, b, ...)`` of independent rolls."""

    name: str
    args: tuple[Expr, ...]

    def cost(self) -> Cost:
        costs = [a.cost() for a in self.args]
        total = costs[0]
        for c in costs[1:]:
            pairs = total.outcomes * c.outcomes
            pick = max if self.name == "max" else min
            lo, hi = pick(total.lo, c.lo), pick(total.hi, c.hi)
            work = total.work + c.work + pairs * PER_OUTCOME
            total = make_cost(lo, hi, pairs, total.weight_bits + c.weight_bits, work, self)
        return total

    def _dist(self) -> Dist[int]:
        acc = self.args[0]._dist()
        for a in self.args[1:]:
            d = a._dist()
            acc = acc.max_of(d) if self.name == "max" else acc.min_of(d)
        return acc

    def clean(self) -> Fraction:
        return math.prod((a.clean() for a in self.args), start=Fraction(1))

    def __str__(self) -> str:
        return f"{self.name}({', '.join(map(str, self.args))})"


#: Most partial results a keep over a group may track while computing (see :class:`Group`).
_GROUP_STATES = 200_000


def _kept(kind: str, n: int, size: int) -> tuple[bool, int]:
    """``(highest, m)``: a keep or drop of ``n`` among ``size`` results keeps the ``m``
    highest (``highest``) or lowest."""
    if kind == "kh":
        return True, n
    if kind == "kl":
        return False, n
    if kind == "dl":
        return True, size - n
    return False, size - n  # "dh"


@dataclass(frozen=True, slots=True)
class Group(Expr):
    """Foundry's pool ``{a, b, ...}`` with an optional keep or drop: ``{4d6, 3d8}kh`` is the
    higher of the two totals, ``{a, b, c}kh2`` the sum of the two highest totals; with no keep
    it is the sum of all. ``keep`` is ``(kind, n)`` with kind ``kh kl dh dl``."""

    args: tuple[Expr, ...]
    keep: tuple[str, int] | None = None

    def _plan(self) -> tuple[bool, int]:
        if self.keep is None:
            return True, len(self.args)
        return _kept(self.keep[0], self.keep[1], len(self.args))

    def cost(self) -> Cost:
        costs = [a.cost() for a in self.args]
        _, m = self._plan()
        work = sum(c.work for c in costs)
        states, run_lo, run_hi = 1, 0, 0
        for c in costs:
            pairs = states * c.outcomes
            work += pairs * PER_OUTCOME
            run_lo, run_hi = run_lo + c.lo, run_hi + c.hi
            full = m == len(costs)
            bound = run_hi - run_lo + 1 if full else _state_bound(costs, max(m, 1))
            states = min(pairs, bound)
            if states > _GROUP_STATES:
                raise DiceError(
                    f"{str(self)!r} has too many partial results to compute exactly "
                    f"(up to {states}, at most {_GROUP_STATES}); keep fewer or use smaller rolls"
                )
        lo, hi = m * min(c.lo for c in costs), m * max(c.hi for c in costs)
        bits = sum(c.weight_bits for c in costs)
        return make_cost(lo, hi, states, bits, work, self)

    def _dist(self) -> Dist[int]:
        args = [a._dist() for a in self.args]
        highest, m = self._plan()
        if m == len(args):
            total = args[0]
            for d in args[1:]:
                total = total + d
            return total
        if m == 0:
            return Dist.constant(0)
        if m == 1:
            acc = args[0]
            for d in args[1:]:
                acc = acc.max_of(d) if highest else acc.min_of(d)
            return acc

        def step(kept: tuple[int, ...], value: int) -> tuple[int, ...]:
            ordered = tuple(sorted((*kept, value)))
            return ordered[-m:] if highest else ordered[:m]

        state: Dist[tuple[int, ...]] = Dist.constant(())
        for d in args:
            state = state.combine(d, step)
        return state.map(sum)

    def clean(self) -> Fraction:
        return math.prod((a.clean() for a in self.args), start=Fraction(1))

    def __str__(self) -> str:
        keep = self.keep
        inner = ", ".join(map(str, self.args))
        return f"{{{inner}}}{keep[0] + str(keep[1]) if keep else ''}"


def _state_bound(costs: list[Cost], m: int) -> int:
    """At most how many sorted tuples of ``m`` kept values exist (values from the union of
    the operands' ranges)."""
    lo = min(c.lo for c in costs)
    hi = max(c.hi for c in costs)
    span = min(hi - lo + 1, 10**9)
    return math.comb(span + m - 1, m) if span < 10**6 else 10**18


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    """``left op right`` of two values: 1 when the comparison holds, 0 when it does not."""

    op: str
    left: Expr
    right: Expr
    precedence: ClassVar[int] = 0

    def cost(self) -> Cost:
        a, b = self.left.cost(), self.right.cost()
        if b.outcomes == 1:
            return Cost(0, 1, 2, a.weight_bits, a.work + b.work + a.outcomes * PER_OUTCOME)
        diff = arith_cost("-", a, b, self)
        return Cost(0, 1, 2, diff.weight_bits, diff.work + diff.outcomes * PER_OUTCOME)

    def _dist(self) -> Dist[int]:
        test = _COMPARE[self.op]
        left = self.left._dist()
        right = self.right._dist()
        if len(right) == 1:
            c = right.outcomes[0]
            return left.map(lambda v: int(test(v, c)))
        return (left - right).map(lambda d: int(test(d, 0)))

    def clean(self) -> Fraction:
        return self.left.clean() * self.right.clean()

    def __str__(self) -> str:
        # A dice term on the left is always wrapped ("2d6 >= 8" would count dice), and so is
        # a left side ending in a modifier ("2d6x >= 5" would explode on 5 or more).
        left = self._wrap(self.left, 1)
        if isinstance(self.left, DiceTerm | Group) or (left[-1].isalpha() or left[-1] == "!"):
            left = f"({self.left})"
        return f"{left} {self.op} {self._wrap(self.right, 1)}"
