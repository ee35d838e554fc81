"""A plain dice roller for tests: rolls a parsed expression die by die, as a person would.

It follows the meanings written in docs/dice.md step by step (roll a face, reroll it, limit it,
roll again on an explosion, keep, count, add), sharing no code with the exact computation, so
sampled means checked against the exact ones test the semantics, not just the sampler.
"""

from __future__ import annotations

import random

from tactica.dice.nodes import Chain, Compare, Const, DiceTerm, Expr, Func, Neg, RandomRoll
from tactica.dice.pool import Faces, PoolSpec

_OPS = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def face(rng: random.Random, faces: Faces) -> int:
    if faces.values:
        return rng.choice(faces.values)
    return rng.randint(1, faces.sides)


def one(rng: random.Random, spec: PoolSpec) -> int:
    """One roll: a face, rerolled as asked, then min/max in order."""
    v = face(rng, spec.faces)
    if spec.reroll is not None and spec.reroll.matches(v):
        v = face(rng, spec.faces)
        if not spec.reroll.once:
            while spec.reroll.matches(v):
                v = face(rng, spec.faces)
    for c in spec.clamps:
        v = max(v, c.limit) if c.kind == "min" else min(v, c.limit)
    return v


def highest_roll(spec: PoolSpec) -> int:
    """The highest value one roll can show (the default explosion)."""
    values = set(spec.faces.values) if spec.faces.values else set(range(1, spec.faces.sides + 1))
    if spec.reroll is not None and not spec.reroll.once:
        values = {v for v in values if not spec.reroll.matches(v)}
    for c in spec.clamps:
        values = {max(v, c.limit) if c.kind == "min" else min(v, c.limit) for v in values}
    return max(values)


def die_rolls(rng: random.Random, spec: PoolSpec) -> list[int]:
    """Every roll of one die (one roll unless it explodes), penetration applied."""
    ex = spec.explode
    first = one(rng, spec)
    if ex is None:
        return [first]
    top = highest_roll(spec)

    def booms(v: int) -> bool:
        return v == top if ex.cond is None else ex.cond.test(v)

    rolls = [first]
    raw = first
    limit = 1 if ex.kind == "xo" else ex.depth
    while booms(raw) and len(rolls) <= limit:
        raw = one(rng, spec)
        rolls.append(raw - 1 if ex.kind == "!p" else raw)
    return rolls


def term(rng: random.Random, node: DiceTerm) -> int:
    spec = node.spec
    dice = [die_rolls(rng, spec) for _ in range(node.count)]
    separate = spec.explode is not None and spec.explode.kind != "!!"
    results = [r for rolls in dice for r in rolls] if separate else [sum(r) for r in dice]
    if spec.keep is not None:
        k, highest = spec.keep.kept(len(results))
        results = sorted(results, reverse=highest)[:k]
    if spec.count is not None:
        return sum(spec.count.score(v) for v in results)
    return sum(results)


def sample(rng: random.Random, node: Expr) -> int:
    """One roll of a parsed expression."""
    if isinstance(node, Const):
        return node.value
    if isinstance(node, DiceTerm):
        return term(rng, node)
    if isinstance(node, Neg):
        return -sample(rng, node.operand)
    if isinstance(node, RandomRoll):
        n = sample(rng, node.count)
        return sum(face(rng, node.faces) for _ in range(n))
    if isinstance(node, Func):
        values = [sample(rng, a) for a in node.args]
        return max(values) if node.name == "max" else min(values)
    if isinstance(node, Compare):
        return int(_OPS[node.op](sample(rng, node.left), sample(rng, node.right)))
    assert isinstance(node, Chain)
    acc = sample(rng, node.first)
    for op, operand in node.rest:
        v = sample(rng, operand)
        if op == "+":
            acc += v
        elif op == "-":
            acc -= v
        elif op == "*":
            acc *= v
        elif op == "/":
            acc //= v
        else:
            acc = -((-acc) // v)
    return acc
