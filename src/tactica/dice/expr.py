"""The dice expression language: ``2d6+1``, ``4d6kh3``, ``d%``, ``2d6>=8``, ``3d6-1d4``.

Grammar (a hand-written recursive-descent parser; text is never evaluated as Python)::

    expr    := sum [cmp sum]               cmp: >= <= > < == = !=
    sum     := product (("+" | "-") product)*
    product := unary ("*" unary)*
    unary   := ("-" | "+") unary | roll
    roll    := [NUMBER] "d" sides [keep]   NdS: N dice with faces 1..S (d% is 1..100)
             | "(" expr ")" ["d" sides]    (E)dS: roll E, then that many dice
             | NUMBER
    sides   := NUMBER | "%"
    keep    := ("kh" | "k" | "kl") [NUMBER]  keep highest / lowest (default 1)

Every roll is independent: ``2d6+2d6`` is four dice. A comparison gives **1 when true and 0
when false**, so ``2d6>=8`` is a distribution over ``{0, 1}`` and can be summed:
``(d20>=11)+(d20>=11)`` counts successes of two d20s. Letters are case-insensitive.

Before computing, :func:`estimate_cost` bounds the number of outcomes and the work from the
syntax tree alone, and :func:`evaluate` refuses expressions above the limits with a
:class:`~tactica.errors.DiceError`; every malformed text also gives a ``DiceError`` that names
the bad token and its column.

>>> evaluate("2d6").p(7)
Fraction(1, 6)
>>> evaluate("2d6>=8").to_dict()
{0: Fraction(7, 12), 1: Fraction(5, 12)}
>>> str(parse(" 4D6 kh3 + ( 1d4 - 1 ) * 2 "))
'4d6kh3 + (1d4 - 1) * 2'
>>> parse("2d6+)")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tactica.errors.DiceError: unexpected ')' at column 5 in '2d6+)'; expected a number, ...
"""

from __future__ import annotations

import math
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from tactica.dice.cost import (
    MAX_DICE,
    MAX_OUTCOMES,
    MAX_SIDES,
    MAX_WORK,
    PER_OUTCOME,
    Cost,
    arith_cost,
    make_cost,
    mul_work,
    slot_bits,
)
from tactica.dice.dist import Dist
from tactica.dice.mechanics import die, keep_highest, keep_lowest, random_rolls
from tactica.errors import DiceError

__all__ = [
    "MAX_DICE",
    "MAX_LENGTH",
    "MAX_OUTCOMES",
    "MAX_SIDES",
    "MAX_WORK",
    "BinOp",
    "Compare",
    "Const",
    "Cost",
    "Expr",
    "Neg",
    "RandomRoll",
    "Roll",
    "estimate_cost",
    "evaluate",
    "parse",
    "roll",
]

#: Longest accepted expression text, in characters.
MAX_LENGTH = 1000
_MAX_DEPTH = 60
_MAX_NUMBER_DIGITS = 9


# ---------------------------------------------------------------------- syntax tree


class Expr(ABC):
    """A parsed dice expression (an immutable syntax tree); ``str()`` gives canonical text."""

    __slots__ = ()
    precedence: ClassVar[int] = 4

    @abstractmethod
    def cost(self) -> Cost:
        """Bounds on outcomes and work of this node and its children.

        Raises :class:`DiceError` when a node has more than :data:`MAX_OUTCOMES` outcomes.
        """

    @abstractmethod
    def _dist(self) -> Dist[int]:
        """Compute the exact distribution (callers check :meth:`cost` first)."""

    def dist(self) -> Dist[int]:
        """The exact distribution, after checking the size limits."""
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

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Roll(Expr):
    """``count`` dice of ``sides`` faces (1..sides), summed; optionally keep ``kept`` of them.

    ``keep`` is ``"h"`` (highest), ``"l"`` (lowest) or ``""`` (all).
    """

    count: int
    sides: int
    keep: str = ""
    kept: int = 0
    percent: bool = False

    def cost(self) -> Cost:
        summed = self.kept if self.keep else self.count
        lo, hi = summed, summed * self.sides
        bits = self.count * math.log2(self.sides)
        n = hi - lo + 1
        slot = slot_bits(bits)
        packed = n * slot
        if self.count <= 1 or summed == 0:
            work = 0.0
        elif self.keep:
            # per face: k - 1 products growing to the packed result, k shifted additions,
            # and k steps of the counting recurrence on integers of about `bits` bits
            k, s = self.kept, self.sides
            per_face = (k - 1) * mul_work(packed / 2, s * slot) + k * packed / 30
            work = s * (per_face + k * mul_work(bits, 64))
        else:
            work = 1.5 * mul_work(packed / 2, packed / 2)
        return make_cost(lo, hi, n, bits, work + n * PER_OUTCOME, self)

    def _dist(self) -> Dist[int]:
        face = die(self.sides)
        if self.keep == "h":
            return keep_highest(self.count, face, self.kept)
        if self.keep == "l":
            return keep_lowest(self.count, face, self.kept)
        return face.repeat_sum(self.count)

    def __str__(self) -> str:
        sides = "%" if self.percent else str(self.sides)
        keep = f"k{self.keep}{self.kept}" if self.keep else ""
        return f"{self.count}d{sides}{keep}"


@dataclass(frozen=True, slots=True)
class RandomRoll(Expr):
    """``(count)dS``: roll ``count``, then that many dice of ``sides`` faces, summed."""

    count: Expr
    sides: int
    percent: bool = False

    def cost(self) -> Cost:
        c = self.count.cost()
        if c.lo < 0:
            raise DiceError(f"the number of dice in {str(self)!r} can be negative ({c.lo})")
        if c.hi > MAX_DICE:
            raise DiceError(f"too many dice in {str(self)!r}: up to {c.hi} (at most {MAX_DICE})")
        lo, hi = c.lo, c.hi * self.sides
        bits = c.weight_bits + c.hi * math.log2(self.sides)
        n = hi - lo + 1
        slot = slot_bits(bits)
        step = mul_work(n * slot, self.sides * slot)
        return make_cost(lo, hi, n, bits, c.work + c.hi * step + n * PER_OUTCOME, self)

    def _dist(self) -> Dist[int]:
        return random_rolls(self.count._dist(), die(self.sides))

    def __str__(self) -> str:
        sides = "%" if self.percent else str(self.sides)
        return f"({self.count})d{sides}"


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

    def __str__(self) -> str:
        return "-" + self._wrap(self.operand, 3)


_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


@dataclass(frozen=True, slots=True)
class BinOp(Expr):
    """``left op right`` for independent rolls, ``op`` one of ``+ - *``."""

    op: str
    left: Expr
    right: Expr

    @property
    def precedence(self) -> int:  # type: ignore[override]
        return 2 if self.op == "*" else 1

    def cost(self) -> Cost:
        return arith_cost(self.op, self.left.cost(), self.right.cost(), self)

    def _dist(self) -> Dist[int]:
        a, b = self.left._dist(), self.right._dist()
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        result: Dist[int] = a * b
        return result

    def __str__(self) -> str:
        p = self.precedence  # the right operand is wrapped at equal precedence: faithful trees
        return f"{self._wrap(self.left, p)} {self.op} {self._wrap(self.right, p + 1)}"


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
    """``left op right``: 1 when the comparison holds, 0 when it does not."""

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

    def __str__(self) -> str:
        return f"{self._wrap(self.left, 1)} {self.op} {self._wrap(self.right, 1)}"


# ---------------------------------------------------------------------- tokenizer

_SINGLE = {"+": "+", "-": "-", "*": "*", "(": "(", ")": ")", "%": "%"}
_WORDS = {"d": "d", "k": "kh", "kh": "kh", "kl": "kl"}
_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "num", "d", "kh", "kl", "%", "+", "-", "*", "(", ")", "cmp", "end"
    text: str
    col: int  # 1-based column of the first character


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        start = i
        if ch in _DIGITS:
            while i < n and text[i] in _DIGITS:
                i += 1
            tokens.append(_Token("num", text[start:i], start + 1))
        elif ch in _LETTERS:
            while i < n and text[i] in _LETTERS:
                i += 1
            word = text[start:i]
            kind = _WORDS.get(word.lower())
            if kind is None:
                raise _error(f"unknown word {word!r}", start, text)
            tokens.append(_Token(kind, word, start + 1))
        elif ch in "<>=!":
            two = text[i : i + 2]
            if two in (">=", "<=", "==", "!="):
                tokens.append(_Token("cmp", two, start + 1))
                i += 2
            elif ch in "<>":
                tokens.append(_Token("cmp", ch, start + 1))
                i += 1
            elif ch == "=":
                tokens.append(_Token("cmp", "==", start + 1))
                i += 1
            else:
                raise _error(f"unexpected {ch!r}", start, text)
        elif ch in _SINGLE:
            tokens.append(_Token(_SINGLE[ch], ch, start + 1))
            i += 1
        else:
            raise _error(f"unexpected {ch!r}", start, text)
    tokens.append(_Token("end", "", n + 1))
    return tokens


def _error(what: str, index: int, text: str) -> DiceError:
    return DiceError(f"{what} at column {index + 1} in {text!r}")


# ---------------------------------------------------------------------- parser


class _Parser:
    """Recursive descent over the token list; one method per grammar rule."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.pos = 0
        self.depth = 0

    @property
    def tok(self) -> _Token:
        return self.tokens[self.pos]

    def advance(self) -> _Token:
        t = self.tokens[self.pos]
        if t.kind != "end":
            self.pos += 1
        return t

    def fail(self, token: _Token, hint: str = "") -> DiceError:
        what = "unexpected end" if token.kind == "end" else f"unexpected {token.text!r}"
        msg = f"{what} at column {token.col} in {self.text!r}"
        return DiceError(f"{msg}; {hint}" if hint else msg)

    def expect(self, kind: str, hint: str) -> _Token:
        if self.tok.kind != kind:
            raise self.fail(self.tok, hint)
        return self.advance()

    def enter(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise DiceError(
                f"expression nested too deeply at column {self.tok.col} in {self.text!r} "
                f"(at most {_MAX_DEPTH} levels)"
            )

    def parse(self) -> Expr:
        if self.tok.kind == "end":
            raise DiceError("empty dice expression; try something like '2d6+1'")
        node = self.expr()
        if self.tok.kind != "end":
            hint = "comparisons do not chain; use parentheses" if self.tok.kind == "cmp" else ""
            raise self.fail(self.tok, hint)
        return node

    def expr(self) -> Expr:
        left = self.sum()
        if self.tok.kind == "cmp":
            op = self.advance().text
            return Compare(op, left, self.sum())
        return left

    def sum(self) -> Expr:
        node = self.product()
        while self.tok.kind in ("+", "-"):
            op = self.advance().kind
            node = BinOp(op, node, self.product())
        return node

    def product(self) -> Expr:
        node = self.unary()
        while self.tok.kind == "*":
            self.advance()
            node = BinOp("*", node, self.unary())
        return node

    def unary(self) -> Expr:
        if self.tok.kind in ("-", "+"):
            sign = self.advance().kind
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return Neg(operand) if sign == "-" else operand
        return self.roll()

    def number(self, token: _Token) -> int:
        if len(token.text) > _MAX_NUMBER_DIGITS:
            raise DiceError(
                f"number {token.text} at column {token.col} in {self.text!r} is too large"
            )
        return int(token.text)

    def sides(self) -> tuple[int, bool]:
        t = self.tok
        if t.kind == "%":
            self.advance()
            return 100, True
        if t.kind != "num":
            raise self.fail(t, "a die needs sides, like d6 or d%")
        self.advance()
        sides = self.number(t)
        if not 1 <= sides <= MAX_SIDES:
            raise DiceError(
                f"a die needs 1 to {MAX_SIDES} sides, got {sides} at column {t.col} "
                f"in {self.text!r}"
            )
        return sides, False

    def roll(self) -> Expr:
        t = self.tok
        if t.kind == "(":
            self.advance()
            self.enter()
            inner = self.expr()
            self.depth -= 1
            self.expect(")", "expected ')'")
            if self.tok.kind == "d":
                self.advance()
                sides, percent = self.sides()
                return RandomRoll(inner, sides, percent)
            return inner
        if t.kind == "num":
            self.advance()
            count = self.number(t)
            if self.tok.kind != "d":
                return Const(count)
            self.advance()
        elif t.kind == "d":
            self.advance()
            count = 1
        else:
            raise self.fail(t, "expected a number, a die like 2d6, or '('")
        if count > MAX_DICE:
            raise DiceError(
                f"too many dice: {count} at column {t.col} in {self.text!r} "
                f"(at most {MAX_DICE} in one roll)"
            )
        sides, percent = self.sides()
        keep, kept = "", 0
        if self.tok.kind in ("kh", "kl"):
            k_tok = self.advance()
            keep = "h" if k_tok.kind == "kh" else "l"
            kept = 1
            if self.tok.kind == "num":
                kept = self.number(self.advance())
            if kept > count:
                raise DiceError(
                    f"cannot keep {kept} of {count} dice at column {k_tok.col} in {self.text!r}"
                )
        return Roll(count, sides, keep, kept, percent)


# ---------------------------------------------------------------------- public API


def parse(text: str) -> Expr:
    """Parse a dice expression; raises :class:`DiceError` naming the bad token and column."""
    if not isinstance(text, str):
        raise DiceError(f"a dice expression must be text, got {text!r}")
    if len(text) > MAX_LENGTH:
        raise DiceError(f"dice expression too long: {len(text)} characters (at most {MAX_LENGTH})")
    return _Parser(text).parse()


def estimate_cost(expr: str | Expr) -> Cost:
    """Bounds on outcomes and work from the syntax tree alone (nothing is rolled)."""
    node = parse(expr) if isinstance(expr, str) else expr
    return node.cost()


def _check(node: Expr) -> None:
    total = node.cost()
    if total.work > MAX_WORK:
        raise DiceError(
            f"{str(node)!r} is too large to compute exactly (estimated work {total.work:.2g}, "
            f"limit {MAX_WORK:.2g}); use fewer dice or fewer sides"
        )


def evaluate(expr: str | Expr) -> Dist[int]:
    """The exact distribution of a dice expression (text or parsed).

    Raises :class:`DiceError` for malformed text and, before any computation, for expressions
    whose estimated size is above :data:`MAX_OUTCOMES` or :data:`MAX_WORK`.
    """
    node = parse(expr) if isinstance(expr, str) else expr
    _check(node)
    return node._dist()


def roll(expr: str | Expr, rng: np.random.Generator) -> int:
    """One exact random draw of a dice expression's value."""
    return evaluate(expr).sample(rng)
