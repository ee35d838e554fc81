"""Dice terms with modifiers: one die's roll (rerolls, limits, explosions), then the pool.

A dice term such as ``6d10r1x>=9kh3cs>=8`` is computed in a fixed order (the grammar in
``docs/dice.md`` requires it):

1. **one roll** of a die: its faces (``d6``, ``d%``, ``dF``, ``d{0,0,1,1,2}``), then the
   rerolls (which look at the face rolled), then ``min``/``max`` in the order written;
2. **the die**: a roll that explodes rolls again; the die's value is the sum of its rolls
   (``!!``, and ``x`` for sums), and with ``x``/``!p`` each roll is also a separate result
   for counting. An explosion may repeat at most ``depth`` times; the mass of the rolls that
   would have gone on is reported as *truncated* (the last roll is kept as rolled);
3. **the pool**: keep or drop dice by value, then count (successes, minus failures), then sum.

Every step is exact: integer weights, no floating point.

>>> from tactica.dice.mechanics import die
>>> one_roll(Faces.plain(6), Reroll((Cond(">=", 5),), once=False), ()).outcomes
(1, 2, 3, 4)
>>> chain_total(die(6), frozenset({6}), 2, penetrate=False).p(13)
Fraction(1, 216)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from tactica.dice.bigsum import power_sum, power_sum_work
from tactica.dice.cost import PER_OUTCOME, Cost, make_cost, mul_work, slot_bits
from tactica.dice.dist import Dist
from tactica.dice.mechanics import die
from tactica.dice.poly import pack, unpack, width_for
from tactica.dice.separate import keep_of, keep_separate
from tactica.engine.errors import DiceError

__all__ = [
    "EXPLODE_DEPTH",
    "Clamp",
    "Cond",
    "Count",
    "Explode",
    "Faces",
    "Keep",
    "PoolSpec",
    "Reroll",
    "chain_total",
    "die_value",
    "one_roll",
    "pool_clean",
    "pool_cost",
    "pool_dist",
]

#: Default most extra rolls of one exploding die (``x``, ``!``, ``!!``, ``!p``).
EXPLODE_DEPTH = 20

_TESTS: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda v, t: v >= t,
    "<=": lambda v, t: v <= t,
    ">": lambda v, t: v > t,
    "<": lambda v, t: v < t,
    "==": lambda v, t: v == t,
    "!=": lambda v, t: v != t,
}


# ---------------------------------------------------------------------- modifiers


@dataclass(frozen=True, slots=True)
class Cond:
    """A compare point: ``value op target`` (``op`` one of ``>= <= > < == !=``)."""

    op: str
    target: int

    def test(self, value: int) -> bool:
        """Whether ``value`` meets the condition."""
        return _TESTS[self.op](value, self.target)

    def __str__(self) -> str:
        if self.op == "==":
            return str(self.target) if self.target >= 0 else f"={self.target}"
        return f"{self.op}{self.target}"

    def words(self) -> str:
        """``4 or more``: the condition in plain words."""
        t = self.target
        return {
            ">=": f"{t} or more",
            "<=": f"{t} or less",
            ">": f"more than {t}",
            "<": f"less than {t}",
            "==": f"exactly {t}",
            "!=": f"anything but {t}",
        }[self.op]


@dataclass(frozen=True, slots=True)
class Faces:
    """The faces of one die: ``sides`` (1..sides), ``%`` (1..100), ``F`` (-1, 0, +1) or a list.

    ``values`` holds the listed faces of ``d{...}`` (a face listed twice is twice as likely).
    """

    kind: str  # "sides", "percent", "fate", "list"
    sides: int
    values: tuple[int, ...] = ()

    @classmethod
    def plain(cls, sides: int) -> Faces:
        """``dN``: faces 1..N."""
        return cls("sides", sides)

    @classmethod
    def percent(cls) -> Faces:
        """``d%``: faces 1..100."""
        return cls("percent", 100)

    @classmethod
    def fate(cls) -> Faces:
        """``dF``: faces -1, 0 and +1."""
        return cls("fate", 3, (-1, 0, 1))

    @classmethod
    def listed(cls, values: tuple[int, ...]) -> Faces:
        """``d{...}``: the listed faces."""
        return cls("list", len(values), values)

    @property
    def lo(self) -> int:
        """The lowest face."""
        return min(self.values) if self.values else 1

    @property
    def hi(self) -> int:
        """The highest face."""
        return max(self.values) if self.values else self.sides

    @property
    def distinct(self) -> int:
        """How many different faces."""
        return len(set(self.values)) if self.values else self.sides

    def dist(self) -> Dist[int]:
        """One roll of the bare die."""
        if self.values:
            return Dist.uniform(self.values)
        return die(self.sides)

    def __str__(self) -> str:
        if self.kind == "percent":
            return "%"
        if self.kind == "fate":
            return "F"
        if self.kind == "list":
            return "{" + ",".join(map(str, self.values)) + "}"
        return str(self.sides)


@dataclass(frozen=True, slots=True)
class Reroll:
    """Reroll a face meeting any of ``conds``: once (``ro``), or until it does not (``rr``).

    The canonical text spells both explicitly, so it reads the same in every dialect."""

    conds: tuple[Cond, ...]
    once: bool

    def matches(self, value: int) -> bool:
        """Whether a face is rerolled."""
        return any(c.test(value) for c in self.conds)

    def __str__(self) -> str:
        word = "ro" if self.once else "rr"
        return "".join(f"{word}{c}" for c in self.conds)


@dataclass(frozen=True, slots=True)
class Clamp:
    """``min N`` (a lower value counts as N) or ``max N`` (a higher value counts as N)."""

    kind: str  # "min" or "max"
    limit: int

    def apply(self, value: int) -> int:
        """The value after the limit."""
        return max(value, self.limit) if self.kind == "min" else min(value, self.limit)

    def __str__(self) -> str:
        return f"{self.kind}{self.limit}"


@dataclass(frozen=True, slots=True)
class Explode:
    """A roll meeting ``cond`` (default: the highest value) rolls again.

    ``kind``: ``x`` (each roll a separate result, also written ``!``), ``xo`` (at most once),
    ``!!`` (compounding: the rolls add up to one die), ``!p`` (penetrating: like ``x``, every
    extra roll counts one less). ``depth`` caps the extra rolls of one die.
    """

    kind: str
    cond: Cond | None = None
    depth: int = EXPLODE_DEPTH

    @property
    def separate(self) -> bool:
        """Whether each roll is a separate result (``x``, ``xo``, ``!p``), not one die."""
        return self.kind != "!!"

    @property
    def limit(self) -> int:
        """The most extra rolls of one die."""
        return 1 if self.kind == "xo" else self.depth

    def __str__(self) -> str:
        return self.kind + (str(self.cond) if self.cond is not None else "")


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep or drop dice by value: ``kh``, ``kl``, ``dh`` or ``dl`` and how many."""

    kind: str
    n: int

    def kept(self, dice: int) -> tuple[int, bool]:
        """``(how many dice are kept, whether they are the highest)``."""
        if self.kind == "kh":
            return self.n, True
        if self.kind == "kl":
            return self.n, False
        if self.kind == "dh":
            return dice - self.n, False
        return dice - self.n, True

    def __str__(self) -> str:
        return f"{self.kind}{self.n}"


@dataclass(frozen=True, slots=True)
class Count:
    """Count results instead of adding them: +1 for ``success``, -1 for ``failure``.

    A result meeting both counts as a failure. ``cf`` alone counts failures as +1 (a count).
    """

    success: Cond
    failure: Cond | None = None

    def score(self, value: int) -> int:
        """What one result adds to the count."""
        if self.failure is not None and self.failure.test(value):
            return -1
        return 1 if self.success.test(value) else 0

    def __str__(self) -> str:
        fail = f"df{self.failure}" if self.failure is not None else ""
        return f"cs{self.success}{fail}"


# ---------------------------------------------------------------------- one die


def one_roll(faces: Faces, reroll: Reroll | None, clamps: tuple[Clamp, ...]) -> Dist[int]:
    """The value of one roll: the face, rerolled as asked, then limited by ``min``/``max``."""
    d = faces.dist()
    if reroll is not None:
        hit = [reroll.matches(v) for v in d.outcomes]
        if all(hit):
            raise DiceError(f"{reroll} rerolls every face of d{faces}: the roll never ends")
        if any(hit):
            if reroll.once:
                t = d.total
                again = sum(w for w, h in zip(d.weights, hit, strict=True) if h)
                table = {
                    v: w * (again + (0 if h else t))
                    for v, w, h in zip(d.outcomes, d.weights, hit, strict=True)
                }
                d = Dist.from_weights(table)
            else:
                d = d.condition(lambda v: not reroll.matches(v))
    for c in clamps:
        d = d.map(c.apply)
    return d


def explode_set(roll: Dist[int], explode: Explode) -> frozenset[int]:
    """The values of one roll that roll again."""
    if explode.cond is None:
        return frozenset({roll.outcomes[-1]})
    cond = explode.cond
    return frozenset(v for v in roll.outcomes if cond.test(v))


_Poly = dict[int, int]


def _poly_mul(a: _Poly, b: _Poly, bound: int) -> _Poly:
    """Product of two sparse polynomials with non-negative coefficients ``<= bound``."""
    if len(a) * len(b) <= 256:
        out: _Poly = {}
        for ea, wa in a.items():
            for eb, wb in b.items():
                out[ea + eb] = out.get(ea + eb, 0) + wa * wb
        return out
    lo_a, lo_b = min(a), min(b)
    span_a, span_b = max(a) - lo_a + 1, max(b) - lo_b + 1
    width = width_for(bound)
    da = [0] * span_a
    for e, w in a.items():
        da[e - lo_a] = w
    db = [0] * span_b
    for e, w in b.items():
        db[e - lo_b] = w
    coeffs = unpack(pack(da, width) * pack(db, width), width, span_a + span_b - 1)
    return {lo_a + lo_b + i: c for i, c in enumerate(coeffs) if c}


def chain_total(
    roll: Dist[int],
    boom: frozenset[int],
    depth: int,
    *,
    penetrate: bool,
    score: Callable[[int], int] | None = None,
) -> Dist[int]:
    """One exploding die: the total of its rolls (or of ``score`` of each roll).

    A roll in ``boom`` rolls again, at most ``depth`` times; with ``penetrate`` every extra
    roll counts one less (the explosion still looks at the roll itself). All totals share the
    denominator ``total ** (depth + 1)``: a chain cut by the depth keeps its last roll.
    """
    t = roll.total
    value: Callable[[int], int] = score if score is not None else (lambda v: v)
    pairs = list(zip(roll.outcomes, roll.weights, strict=True))
    bound = t ** (depth + 1)

    def step(extra: bool) -> tuple[_Poly, _Poly]:
        rest: _Poly = {}
        again: _Poly = {}
        for v, w in pairs:
            e = value(v - 1 if extra and penetrate else v)
            target = again if v in boom else rest
            target[e] = target.get(e, 0) + w
        return rest, again

    def level(rest: _Poly, again: _Poly, inner: _Poly, scale: int) -> _Poly:
        out = {e: w * scale for e, w in rest.items()}
        for e, w in _poly_mul(again, inner, bound).items():
            out[e] = out.get(e, 0) + w
        return out

    rest_x, again_x = step(True)
    chain: _Poly = {}
    for e, w in (*rest_x.items(), *again_x.items()):
        chain[e] = chain.get(e, 0) + w
    scale = 1
    for _ in range(depth - 1):
        scale *= t
        chain = level(rest_x, again_x, chain, scale)
    if depth == 0:
        rest_f, again_f = step(False)
        first = dict(rest_f)
        for e, w in again_f.items():
            first[e] = first.get(e, 0) + w
        return Dist.from_weights(first)
    rest_f, again_f = step(False)
    return Dist.from_weights(level(rest_f, again_f, chain, scale * t))


def _truncated_share(roll: Dist[int], boom: frozenset[int], explode: Explode) -> Fraction:
    """Chance that one die's explosions are cut by the depth cap."""
    if explode.kind == "xo" or not boom:
        return Fraction(0)
    p = Fraction(sum(w for v, w in zip(roll.outcomes, roll.weights, strict=True) if v in boom),
                 roll.total)
    return p ** (explode.limit + 1)


# ---------------------------------------------------------------------- the pool


@dataclass(frozen=True, slots=True)
class PoolSpec:
    """Everything about a dice term but the number of dice."""

    faces: Faces
    reroll: Reroll | None = None
    clamps: tuple[Clamp, ...] = ()
    explode: Explode | None = None
    keep: Keep | None = None
    count: Count | None = None


def _exploding(spec: PoolSpec) -> tuple[Dist[int], frozenset[int]]:
    """One roll of the term's die and the values of it that explode (none without ``x``)."""
    roll = one_roll(spec.faces, spec.reroll, spec.clamps)
    if spec.explode is None:
        return roll, frozenset()
    boom = explode_set(roll, spec.explode)
    if len(boom) == len(roll):
        raise DiceError(
            f"{spec.explode} explodes on every value of d{spec.faces}: the roll never ends"
        )
    return roll, boom


def die_value(spec: PoolSpec) -> Dist[int]:
    """The value of one die of the term (its rolls added up), before keeping and counting."""
    roll, boom = _exploding(spec)
    ex = spec.explode
    if ex is None:
        return roll
    return chain_total(roll, boom, ex.limit, penetrate=ex.kind == "!p")


def _unit(spec: PoolSpec) -> Dist[int]:
    """What one die adds to the total when nothing is kept or dropped: its value, or its
    count (with separate explosions, the count of all its rolls)."""
    ex, count = spec.explode, spec.count
    if count is None:
        return die_value(spec)
    if ex is None or not ex.separate:
        return die_value(spec).map(count.score)
    roll, boom = _exploding(spec)
    return chain_total(roll, boom, ex.limit, penetrate=ex.kind == "!p", score=count.score)


def pool_dist(n: int, spec: PoolSpec) -> Dist[int]:
    """The exact distribution of ``n`` dice of ``spec``."""
    keep = spec.keep
    if keep is None:
        return power_sum(_unit(spec), n)
    score = spec.count.score if spec.count is not None else None
    ex = spec.explode
    if ex is not None and ex.separate:
        if ex.kind == "!p":
            raise DiceError(
                f"cannot {_keep_words(keep)} after !p: its extra rolls count one less; use !! "
                "(compounding) to keep or drop whole dice"
            )
        roll, boom = _exploding(spec)
        return keep_separate(n, roll, boom, ex.limit, keep.kind, keep.n, score)
    k, highest = keep.kept(n)
    return keep_of(n, die_value(spec), k, highest, score)


def _keep_words(keep: Keep) -> str:
    return {"kh": "keep the highest", "kl": "keep the lowest", "dh": "drop the highest",
            "dl": "drop the lowest"}[keep.kind]


def pool_clean(n: int, spec: PoolSpec) -> Fraction:
    """The chance that no die of the term has its explosions cut by the depth cap."""
    if spec.explode is None or n == 0:
        return Fraction(1)
    roll, boom = _exploding(spec)
    return (1 - _truncated_share(roll, boom, spec.explode)) ** n


# ---------------------------------------------------------------------- cost


def _roll_bounds(spec: PoolSpec) -> tuple[int, int, int, float]:
    """``(lo, hi, distinct values, log2 of the total weight)`` of one roll, from the syntax."""
    lo, hi = spec.faces.lo, spec.faces.hi
    bits = math.log2(max(spec.faces.sides, 1))
    if spec.reroll is not None and spec.reroll.once:
        bits *= 2
    for c in spec.clamps:
        if c.kind == "min":
            lo, hi = max(lo, c.limit), max(hi, c.limit)
        else:
            lo, hi = min(lo, c.limit), min(hi, c.limit)
    return lo, hi, min(spec.faces.distinct, hi - lo + 1), bits


def _keep_work(k: int, faces: int, score_span: int, total_bits: float) -> float:
    """Work of keeping ``k`` dice with ``faces`` values each (scores spanning ``score_span``)."""
    slot = slot_bits(total_bits)
    if k <= 1:
        return faces * mul_work(total_bits / 2, total_bits / 2)
    packed = (k * (score_span - 1) + 1) * slot
    per_face = (k - 1) * mul_work(packed / 2, score_span * slot) + k * packed / 30
    return faces * (per_face + k * mul_work(total_bits, 64))


def pool_cost(n: int, spec: PoolSpec, what: object) -> Cost:
    """Bounds and estimated work of ``n`` dice of ``spec`` (see :mod:`tactica.dice.cost`)."""
    lo, hi, distinct, bits = _roll_bounds(spec)
    roll_lo, roll_hi, roll_span = lo, hi, hi - lo + 1
    work = distinct * PER_OUTCOME
    ex = spec.explode
    reps = 1
    if ex is not None:
        reps = ex.limit + 1
        lo, hi = min(lo, lo * reps - reps), max(hi, hi * reps)
        span = hi - lo + 1
        make_cost(lo, hi, span, bits * reps, 0.0, f"one die of {what}")
        slot = slot_bits(bits * reps)
        work += ex.limit * (mul_work(span * slot, distinct * slot) + span * PER_OUTCOME)
        bits *= reps
        distinct = span
    faces = hi - lo + 1
    separate = ex is not None and ex.separate
    if spec.count is not None:
        lo, hi = (-reps, reps) if separate else (-1, 1)
        distinct = min(distinct, 2 * reps + 1)
    span = hi - lo + 1
    total_bits = n * bits
    keep = spec.keep
    if keep is None:
        plain = spec.faces.kind in ("sides", "percent") and not (spec.reroll or spec.clamps or ex)
        work += power_sum_work(distinct, span - 1, plain, plain, n, bits)
        out = n * (span - 1) + 1
        return make_cost(n * lo, n * hi, out, total_bits, work + out * PER_OUTCOME, what)
    k, _ = keep.kept(n)
    if separate:
        # a mixture over (exploding rolls, ending rolls): one keep per distinct count
        part_span = 3 if spec.count is not None else roll_span
        k_part = min(k, n) if keep.kind[0] == "k" else n
        pairs = (n * reps + 1) * (n + 1)
        part_bits = total_bits / reps  # the keeps themselves need no chain weights
        if ex is not None and ex.cond is not None:
            work += n * reps * _keep_work(k_part, roll_span, part_span, part_bits)
        work += (n + 1) * k_part * _keep_work(k_part, roll_span, part_span, part_bits)
        work += pairs * (k_part * (part_span - 1) + 1) * PER_OUTCOME
        most = n * reps if keep.kind[0] == "d" else k
        if spec.count is None:
            lo, hi = min(0, most * roll_lo), max(0, most * roll_hi)
        else:
            lo, hi = -most, most
        out = hi - lo + 1
        return make_cost(lo, hi, out, total_bits, work + out * PER_OUTCOME, what)
    work += _keep_work(k, faces, span, total_bits)
    out = k * (span - 1) + 1
    return make_cost(k * lo, k * hi, out, total_bits, work + out * PER_OUTCOME, what)
