"""Keeping and dropping among the separate rolls of exploding dice (``4d6xkh3``, ``5d10xdl2``).

With ``x``, ``xo`` and ``!`` every roll of an exploding die is a result of its own, so the
pool has a random number of results. Split them by kind: ``X`` rolls that exploded (values in
the explosion set ``E``, drawn from the roll given ``E``) and ``Y`` rolls that ended a die
(drawn from the roll given not ``E``). One die gives ``j`` exploding rolls then an ending roll
(``j = 0..depth``), or ``depth + 1`` exploding rolls when the cap cuts it (no ending roll).
Given ``X = x`` and ``Y = y`` the rolls of each kind are independent draws, so when ``E`` lies
above every other value (``x``, ``x>=5``) or below it (``x1``), the highest ``k`` results are
the highest ``k`` of one kind, or all of that kind and the highest rest of the other:
exact, and a mixture over the few ``(x, y)`` that can happen.

>>> from tactica.dice.mechanics import die
>>> keep_separate(2, die(6), frozenset({6}), 1, "kh", 1, None).p(6)
Fraction(11, 36)
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tactica.dice.bigsum import extreme, power_sum
from tactica.dice.dist import Dist
from tactica.dice.mechanics import keep_highest, keep_lowest, keep_scored
from tactica.engine.errors import DiceError

__all__ = ["keep_of", "keep_separate", "mixture"]

Score = Callable[[int], int] | None


def keep_of(n: int, die: Dist[int], k: int, highest: bool, score: Score) -> Dist[int]:
    """The highest (or lowest) ``k`` of ``n`` rolls of ``die``, summed (or their scores)."""
    if k <= 0:
        return Dist.constant(0)
    if k == n:
        return power_sum(die if score is None else die.map(score), n)
    if score is not None:
        return keep_scored(n, die, k, score, highest=highest)
    if k == 1:
        return extreme(n, die, highest=highest)
    return keep_highest(n, die, k) if highest else keep_lowest(n, die, k)


def mixture(parts: list[tuple[int, Dist[int]]]) -> Dist[int]:
    """``parts`` weighted by their integer weights (the weights need not sum to anything)."""
    common = math.lcm(*(d.total for _, d in parts))
    table: dict[int, int] = {}
    for w, d in parts:
        scale = w * (common // d.total)
        for o, dw in zip(d.outcomes, d.weights, strict=True):
            table[o] = table.get(o, 0) + scale * dw
    return Dist.from_weights(table)


def keep_separate(
    n: int,
    roll: Dist[int],
    boom: frozenset[int],
    depth: int,
    keep: str,
    count: int,
    score: Score,
) -> Dist[int]:
    """Keep or drop among all the separate rolls of ``n`` dice exploding on ``boom``.

    ``keep`` is ``kh``, ``kl``, ``dh`` or ``dl`` and ``count`` how many dice it keeps or drops.
    """
    exploding = [v for v in roll.outcomes if v in boom]
    ending = [v for v in roll.outcomes if v not in boom]
    highest = keep in ("kh", "dl")
    if not exploding:
        k = count if keep[0] == "k" else n - count
        return keep_of(n, roll, k, highest, score)
    if min(exploding) > max(ending):
        explode_first = highest  # the exploding rolls are the highest results
    elif max(exploding) < min(ending):
        explode_first = not highest
    else:
        raise DiceError(
            "keeping or dropping after an explosion needs the exploding values all above (or "
            "all below) the others, like x, x>=5 or x1; use !! (compounding) to keep whole dice"
        )
    up = roll.condition(lambda v: v in boom)
    end = roll.condition(lambda v: v not in boom)
    t = roll.total
    w_up = sum(w for v, w in zip(roll.outcomes, roll.weights, strict=True) if v in boom)
    w_end = t - w_up
    # one die: j exploding rolls then an ending roll, or depth + 1 exploding rolls (cut)
    chain = Dist.from_weights({j: w_up**j * w_end * t ** (depth - j) for j in range(depth + 1)})
    raw_total = t ** (depth + 1) - w_up ** (depth + 1)
    g = raw_total // chain.total
    cut = w_up ** (depth + 1)
    first, second = (up, end) if explode_first else (end, up)
    kept_cache: dict[tuple[bool, int, int], Dist[int]] = {}

    def kept(of_first: bool, m: int, k: int) -> Dist[int]:
        key = (of_first, m, k)
        d = kept_cache.get(key)
        if d is None:
            d = keep_of(m, first if of_first else second, k, highest, score)
            kept_cache[key] = d
        return d

    parts: list[tuple[int, Dist[int]]] = []
    for n_cut in range(n + 1):
        if n_cut and not cut:
            break
        whole = n - n_cut
        base = math.comb(n, n_cut) * cut**n_cut * g**whole
        ups = power_sum(chain, whole)
        for j, w in zip(ups.outcomes, ups.weights, strict=True):
            x, y = j + n_cut * (depth + 1), whole
            k = count if keep[0] == "k" else x + y - count
            f, s = (x, y) if explode_first else (y, x)
            part = kept(True, f, k) if f >= k else kept(True, f, f) + kept(False, s, k - f)
            parts.append((base * w, part))
    return mixture(parts)
