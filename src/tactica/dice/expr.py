"""The dice expression language: ``2d6+1``, ``4d6kh3``, ``6d6cs>=5``, ``3d6x``, ``8d6r1``.

The dialect of Foundry VTT's and Roll20's dice notation, computed exactly. The whole grammar
and the exact meaning of every form are in ``docs/dice.md``; :mod:`tactica.dice.parser`
has the summary. Text is parsed by a hand-written recursive-descent parser (never evaluated
as Python); every roll is independent (``2d6+2d6`` is four dice).

Counting or comparing: ``3d6>=4`` counts the dice showing 4 or more (a bare dice term before a
comparison with a whole number), while ``(3d6)>=4`` and ``2d6+1>=8`` compare the total and
give **1 when true, 0 when false**.

Before computing, :func:`estimate_cost` bounds the number of outcomes and the work from the
syntax tree alone, and :func:`evaluate` refuses expressions above the limits with a
:class:`~tactica.engine.errors.DiceError`; malformed text gives a :class:`DiceSyntaxError` (a
``DiceError``) that names the bad token and its column.

>>> evaluate("2d6").p(7)
Fraction(1, 6)
>>> evaluate("6d6cs>=5").p(2)
Fraction(80, 243)
>>> evaluate("(2d6)>=8").to_dict()
{0: Fraction(7, 12), 1: Fraction(5, 12)}
>>> str(parse(" 4D6 kh3 + ( 1d4 - 1 ) * 2 "))
'4d6kh3 + (1d4 - 1) * 2'
>>> str(parse("6d6>4"))  # Roll20: 4 or more
'6d6cs>=4'
>>> truncation("4d6x", explode_depth=3) == 1 - (1 - Fraction(1, 6**4)) ** 4
True
>>> parse("2d6+)")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tactica.dice.lexer.DiceSyntaxError: unexpected ')' at column 5 in '2d6+)'; expected a number, ...
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from tactica.dice.cost import MAX_DICE, MAX_OUTCOMES, MAX_SIDES, MAX_VALUE, MAX_WORK, Cost
from tactica.dice.dist import Dist
from tactica.dice.lexer import DiceSyntaxError, comment_start
from tactica.dice.nodes import (
    Chain,
    Compare,
    Const,
    DiceTerm,
    Expr,
    Func,
    Group,
    Neg,
    RandomRoll,
)
from tactica.dice.parser import DEFAULT_DIALECT, DIALECTS, MAX_DEPTH, Parser
from tactica.dice.pool import EXPLODE_DEPTH
from tactica.engine.errors import DiceError

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "EXPLODE_DEPTH",
    "MAX_DEPTH",
    "MAX_DICE",
    "MAX_LENGTH",
    "MAX_OUTCOMES",
    "MAX_SIDES",
    "MAX_VALUE",
    "MAX_WORK",
    "Chain",
    "Compare",
    "Const",
    "Cost",
    "DiceSyntaxError",
    "DiceTerm",
    "Expr",
    "Func",
    "Group",
    "Neg",
    "Notes",
    "RandomRoll",
    "estimate_cost",
    "evaluate",
    "notes",
    "parse",
    "roll",
    "truncation",
]

#: Longest accepted expression text, in characters.
MAX_LENGTH = 1000
#: Most extra rolls of one exploding die that :func:`parse` accepts as ``explode_depth``.
MAX_EXPLODE_DEPTH = 1000


@dataclass(frozen=True, slots=True)
class Notes:
    """What a dice text says besides its value: ``labels`` are ``(term, flavor)`` for every
    ``[flavor]`` tag in the order written, ``comment`` the text after ``#`` (or ``None``)."""

    labels: tuple[tuple[str, str], ...]
    comment: str | None


def _valid(text: object, explode_depth: object, dialect: object = DEFAULT_DIALECT) -> None:
    if dialect not in DIALECTS:
        raise DiceError(f"unknown dice dialect {dialect!r}; expected one of {', '.join(DIALECTS)}")
    if not isinstance(text, str):
        raise DiceError(f"a dice expression must be text, got {text!r}")
    if len(text) > MAX_LENGTH:
        raise DiceError(f"dice expression too long: {len(text)} characters (at most {MAX_LENGTH})")
    if type(explode_depth) is not int or not 0 <= explode_depth <= MAX_EXPLODE_DEPTH:
        raise DiceError(
            f"the explode depth must be a whole number from 0 to {MAX_EXPLODE_DEPTH}, "
            f"got {explode_depth!r}"
        )


@lru_cache(maxsize=512)
def _read(text: str, explode_depth: int, dialect: str) -> tuple[Expr, Notes]:
    parser = Parser(text, explode_depth, dialect)
    node = parser.parse()
    cut = comment_start(text)
    comment = text[cut + 1 :].strip() if cut < len(text) else None
    return node, Notes(tuple(parser.labels), comment)


def _parsed(text: str, explode_depth: int, dialect: str = DEFAULT_DIALECT) -> Expr:
    return _read(text, explode_depth, dialect)[0]


@lru_cache(maxsize=512)
def _checked(text: str, explode_depth: int, dialect: str = DEFAULT_DIALECT) -> Expr:
    node = _parsed(text, explode_depth, dialect)
    _check(node)
    return node


def parse(
    text: str, *, explode_depth: int = EXPLODE_DEPTH, dialect: str = DEFAULT_DIALECT
) -> Expr:
    """Parse a dice expression; raises :class:`DiceSyntaxError` naming the bad token and column.

    ``explode_depth`` caps the extra rolls of every exploding die in the expression.
    ``dialect`` is ``"roll20"`` (the default: ``r`` rerolls until the face no longer matches)
    or ``"foundry"`` (``r`` rerolls once); see ``docs/dice.md``. Trees are immutable, so the
    parse of a text is cached (the last 512 texts).

    >>> str(parse("2d6r1", dialect="foundry"))
    '2d6ro1'
    >>> str(parse("2d6r1"))
    '2d6rr1'
    """
    _valid(text, explode_depth, dialect)
    return _parsed(text, explode_depth, dialect)


def notes(text: str, *, dialect: str = DEFAULT_DIALECT) -> Notes:
    """The ``[flavor]`` labels and the ``# comment`` of a dice text (it must parse).

    >>> notes("2d6[fire] + 1d4[cold] # burning hands")
    Notes(labels=(('2d6', 'fire'), ('1d4', 'cold')), comment='burning hands')
    """
    _valid(text, EXPLODE_DEPTH, dialect)
    return _read(text, EXPLODE_DEPTH, dialect)[1]


def _node(expr: str | Expr, explode_depth: int, dialect: str = DEFAULT_DIALECT) -> Expr:
    if isinstance(expr, str):
        return parse(expr, explode_depth=explode_depth, dialect=dialect)
    return expr


def estimate_cost(
    expr: str | Expr, *, explode_depth: int = EXPLODE_DEPTH, dialect: str = DEFAULT_DIALECT
) -> Cost:
    """Bounds on outcomes and work from the syntax tree alone (nothing is rolled)."""
    return _node(expr, explode_depth, dialect).cost()


def _check(node: Expr) -> None:
    total = node.cost()
    if total.work > MAX_WORK:
        raise DiceError(
            f"{str(node)!r} is too large to compute exactly (estimated work {total.work:.2g}, "
            f"limit {MAX_WORK:.2g}); use fewer dice or fewer sides"
        )


def evaluate(
    expr: str | Expr, *, explode_depth: int = EXPLODE_DEPTH, dialect: str = DEFAULT_DIALECT
) -> Dist[int]:
    """The exact distribution of a dice expression (text or parsed).

    Raises :class:`DiceError` for malformed text and, before any computation, for expressions
    whose estimated size is above :data:`MAX_OUTCOMES` or :data:`MAX_WORK`. An exploding die
    rolls again at most ``explode_depth`` times (the last roll is kept as rolled); see
    :func:`truncation` for the probability this cuts off. ``dialect`` is as in :func:`parse`.
    """
    if isinstance(expr, str):
        _valid(expr, explode_depth, dialect)
        # the size check is cached with the parse
        return _checked(expr, explode_depth, dialect)._dist()
    _check(expr)
    return expr._dist()


def truncation(
    expr: str | Expr, *, explode_depth: int = EXPLODE_DEPTH, dialect: str = DEFAULT_DIALECT
) -> Fraction:
    """The exact probability that some exploding die would have rolled again past its cap.

    0 for expressions without explosions. The distribution of :func:`evaluate` keeps those
    rolls at the value of the last roll made, so its probabilities still sum to exactly 1.
    """
    node = _node(expr, explode_depth, dialect)
    node.cost()
    return 1 - node.clean()


def roll(expr: str | Expr, rng: np.random.Generator, *, dialect: str = DEFAULT_DIALECT) -> int:
    """One exact random draw of a dice expression's value."""
    return evaluate(expr, dialect=dialect).sample(rng)
