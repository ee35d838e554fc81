"""Dice rolled by hand: which physical dice an expression needs, and how to read their faces.

A rule that asks for ``3d6+2`` or ``4d6kh3`` can let a person roll real dice and type the
faces: :func:`physical_dice` lists one distribution per physical die (the face a person ends up
with, after any rerolls they make) and a ``read`` function that turns the faces into the
expression's value. Expressions whose number of dice is not fixed (explosions, ``(1d4)d6``)
have no such list; the person enters the result instead.

Together with :class:`tactica.engine.chance.Roll` (``dice=`` and ``read=``) this gives the table
prompt, the scripted driver and the sampled driver the same faces to work with.

>>> t = physical_dice("4d6kh3+1")
>>> len(t.dice), t.read((6, 1, 5, 3))
(4, 15)
>>> physical_dice("3d6x") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import reduce

from tactica.dice.dist import Dist
from tactica.dice.expr import EXPLODE_DEPTH, parse
from tactica.dice.nodes import Chain, Compare, Const, DiceTerm, Expr, Func, Neg
from tactica.dice.pool import one_roll
from tactica.engine.errors import DiceError

__all__ = ["PhysicalDice", "physical_dice"]

_Reader = Callable[[Iterator[int]], int]


@dataclass(frozen=True)
class PhysicalDice:
    """The physical dice of an expression and how their faces give its value."""

    dice: tuple[Dist[int], ...]
    _read: _Reader

    def read(self, faces: Sequence[int]) -> int:
        """The expression's value for these faces (one per die, in order)."""
        if len(faces) != len(self.dice):
            raise DiceError(f"expected {len(self.dice)} faces, got {len(faces)}")
        for i, (face, d) in enumerate(zip(faces, self.dice, strict=True)):
            if d.p(face) == 0:
                raise DiceError(f"die {i + 1} cannot show {face}")
        return self._read(iter(faces))


def _term(node: DiceTerm) -> tuple[list[Dist[int]], _Reader] | None:
    s = node.spec
    if s.explode is not None:
        return None
    face = one_roll(s.faces, s.reroll, ())
    n = node.count

    def read(faces: Iterator[int]) -> int:
        values = [next(faces) for _ in range(n)]
        for c in s.clamps:
            values = [c.apply(v) for v in values]
        if s.keep is not None:
            k, highest = s.keep.kept(n)
            values = sorted(values, reverse=highest)[:k]
        if s.count is not None:
            return sum(s.count.score(v) for v in values)
        return sum(values)

    return [face] * n, read


def _plan(node: Expr) -> tuple[list[Dist[int]], _Reader] | None:
    if isinstance(node, Const):
        value = node.value
        return [], lambda faces: value
    if isinstance(node, DiceTerm):
        return _term(node)
    if isinstance(node, Neg):
        inner = _plan(node.operand)
        if inner is None:
            return None
        read_inner = inner[1]
        return inner[0], lambda faces: -read_inner(faces)
    parts: list[Expr]
    if isinstance(node, Chain):
        parts = [node.first, *(operand for _, operand in node.rest)]
    elif isinstance(node, Func):
        parts = list(node.args)
    elif isinstance(node, Compare):
        parts = [node.left, node.right]
    else:
        return None
    plans = [_plan(p) for p in parts]
    if any(p is None for p in plans):
        return None
    dice = [d for p in plans if p is not None for d in p[0]]
    readers = [p[1] for p in plans if p is not None]
    combine = _combiner(node)
    return dice, lambda faces: combine([r(faces) for r in readers])


def _combiner(node: Expr) -> Callable[[list[int]], int]:
    if isinstance(node, Chain):
        ops = [op for op, _ in node.rest]

        def chain(values: list[int]) -> int:
            acc = values[0]
            for op, v in zip(ops, values[1:], strict=True):
                if op == "+":
                    acc += v
                elif op == "-":
                    acc -= v
                elif op == "*":
                    acc *= v
                elif v == 0:
                    raise DiceError(f"{node} divides by 0")
                else:
                    acc = acc // v if op == "/" else -((-acc) // v)
            return acc

        return chain
    if isinstance(node, Func):
        return (lambda vs: reduce(max, vs)) if node.name == "max" else (lambda vs: reduce(min, vs))
    assert isinstance(node, Compare)
    op = node.op
    tests = {">=": int.__ge__, "<=": int.__le__, ">": int.__gt__, "<": int.__lt__,
             "==": int.__eq__, "!=": int.__ne__}
    return lambda vs: int(tests[op](vs[0], vs[1]))


def physical_dice(expr: str | Expr, *, explode_depth: int = EXPLODE_DEPTH) -> PhysicalDice | None:
    """The physical dice of ``expr`` and how to read them, or ``None`` when the number of
    dice is not fixed (explosions, a rolled number of dice)."""
    node = parse(expr, explode_depth=explode_depth) if isinstance(expr, str) else expr
    plan = _plan(node)
    if plan is None:
        return None
    return PhysicalDice(tuple(plan[0]), plan[1])
