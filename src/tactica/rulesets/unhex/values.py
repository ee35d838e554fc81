"""How good an outcome is: the choices of die assignment, critical success and re-rolls, and
quick estimates of an attack for the policies.

The choices here are made the same way by the battle (sampled) and by exact odds (the exact
driver asks the same functions, ``rng=None``), which is what makes the two agree.

* UNH-6 (die assignment): ``worst`` picks the reading that is worst for the other side, by
  :func:`severity` (level lost, then knockout, then death, then boxes marked); ``max-damage``
  takes the higher die for damage (the lower if the target picks); ``random`` half and half.
* UNH-7 (critical success): ``policy`` takes the extra action unless setting the dice gains
  more :func:`harm` than an average attack would do.

Estimates work from tables per target body, remembered across battles: the harm of a hit read
from each number 1-100, and the chance a defence does not beat each number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from tactica.dice import Dist
from tactica.engine.caching import Cache
from tactica.rulesets.unhex.attack import AttackPlan, assignments
from tactica.rulesets.unhex.body import Body, DamageRules, Wound, wound
from tactica.rulesets.unhex.dice import PAIR, Pair, critical, number, pair_of, set_limit, succeeds
from tactica.rulesets.unhex.records import Assignment

__all__ = [
    "KNOCKOUT_WEIGHT",
    "Estimate",
    "HitTable",
    "assignment_choice",
    "best_set_number",
    "crit_takes_set",
    "defence_losses",
    "estimate",
    "harm",
    "hit_table",
    "quick_estimate",
    "reroll_choice",
    "severity",
]

KNOCKOUT_WEIGHT = 30.0
DEATH_WEIGHT = 20.0
#: What one more marked box is worth on the way to filling its location.
BOX_WEIGHTS = {"head": 2.0, "right arm": 1.0, "left arm": 1.0, "torso": 1.0,
               "right leg": 0.6, "left leg": 0.6}
_PAIRS: tuple[Pair, ...] = PAIR.outcomes


def severity(w: Wound) -> tuple[int, bool, bool, int]:
    """How bad a wound is for its owner (UNH-6 ``worst``): level lost, knockout, death,
    damage."""
    return (w.level_lost, w.knocked_out, w.died, w.damage)


def harm(w: Wound | None, before: Body | None = None) -> float:
    """One number for a wound: level lost, a knockout, a death, and the boxes marked (by
    location, compared with the body ``before``)."""
    if w is None:
        return 0.0
    boxes = 0.0
    if before is not None:
        for loc in w.changed:
            boxes += BOX_WEIGHTS[loc] * (w.body.marks_at(loc).total
                                         - before.marks_at(loc).total)
    return (w.level_lost + KNOCKOUT_WEIGHT * w.knocked_out + DEATH_WEIGHT * w.died + boxes)


@lru_cache(maxsize=1 << 16)
def _wound(body: Body, location: str, damage: int, rules: DamageRules) -> Wound:
    return wound(body, location, damage, rules)


def _choice(body: Body, rules: DamageRules, options: Sequence[Assignment], rule: str,
            by_attacker: bool) -> Assignment | Dist[Assignment]:
    if rule == "random" and len(options) > 1:
        return Dist.uniform(options)
    if rule == "max-damage":
        pick = max if by_attacker else min
        return pick(options, key=lambda a: a.damage)
    keyed = [(severity(_wound(body, a.location, a.damage, rules)), i)
             for i, a in enumerate(options)]
    best = max(keyed) if by_attacker else min(keyed, key=lambda k: (k[0], -k[1]))
    return options[best[1]]


def assignment_choice(plan: AttackPlan, options: Sequence[Assignment],
                      rule: str) -> Assignment | Dist[Assignment]:
    """The assigner's reading of a hit under UNH-6 (a Dist for ``random``)."""
    return _choice(plan.target.body, plan.damage, options, rule, not plan.target_assigns)


@dataclass(frozen=True)
class HitTable:
    """For each number 1-100 read as a hit: the expected harm and knockout chance after the
    assigner's choice; ``best[n]`` is the number up to ``n`` to set the dice to."""

    harm: tuple[float, ...]
    knockout: tuple[float, ...]
    best: tuple[int, ...]


@lru_cache(maxsize=1 << 14)
def hit_table(body: Body, rules: DamageRules, rule: str, by_attacker: bool) -> HitTable:
    """The :class:`HitTable` of a target body (remembered)."""
    harms = [0.0] * 101
    kos = [0.0] * 101
    # Many numbers read as the same hits: each hit's wound is worked out once (its severity,
    # harm and knockout depend on the location and the damage alone), and the assigner's
    # choice is :func:`_choice`'s, from those severities.
    seen: dict[tuple[str, int], tuple[tuple[int, bool, bool, int], float, bool]] = {}
    for key in _all_keys():
        w = _wound(body, key[0], key[1], rules)
        seen[key] = (severity(w), harm(w, body), w.knocked_out)
    for n, (options, keys) in enumerate(_option_keys(), start=1):
        if len(options) == 1 or rule == "random":
            picks = keys
        elif rule == "max-damage":
            pick = (max(options, key=_damage) if by_attacker
                    else min(options, key=_damage))
            picks = ((pick.location, pick.damage),)
        else:
            keyed = [(seen[k][0], i) for i, k in enumerate(keys)]
            best = max(keyed) if by_attacker else min(keyed, key=lambda k: (k[0], -k[1]))
            picks = (keys[best[1]],)
        for k in picks:
            _, h, ko = seen[k]
            harms[n] += h / len(picks)
            kos[n] += ko / len(picks)
    best_n = [1] * 101
    for n in range(2, 101):
        prev = best_n[n - 1]
        best_n[n] = n if harms[n] >= harms[prev] else prev
    return HitTable(tuple(harms), tuple(kos), tuple(best_n))


def _damage(a: Assignment) -> int:
    return a.damage


@lru_cache(maxsize=1)
def _option_keys() -> tuple[tuple[tuple[Assignment, ...], tuple[tuple[str, int], ...]], ...]:
    """For each number 1-100: its readings and their (location, damage)."""
    return tuple((_options(n), tuple((a.location, a.damage) for a in _options(n)))
                 for n in range(1, 101))


@lru_cache(maxsize=1)
def _all_keys() -> tuple[tuple[str, int], ...]:
    """Every (location, damage) some number 1-100 reads as."""
    return tuple(dict.fromkeys(k for _, keys in _option_keys() for k in keys))


@lru_cache(maxsize=128)
def _options(n: int) -> tuple[Assignment, ...]:
    return tuple(assignments(pair_of(n)))


def _table(plan: AttackPlan, rule: str) -> HitTable:
    return hit_table(plan.target.body, plan.damage, rule, not plan.target_assigns)


def best_set_number(plan: AttackPlan, limit: int, rule: str) -> int:
    """The number an attacker sets the dice to: the best hit the assigner leaves it, the
    highest number among equals (it beats more defences)."""
    return _table(plan, rule).best[limit]


@lru_cache(maxsize=1 << 12)
def defence_losses(level: int, max_level: int, edge: int) -> tuple[float, ...]:
    """For each attack number 1-100 that succeeded: the chance a defence at ``level`` does not
    beat it. ``edge`` breaks equal successes: 1 for the defender, 0 for the attacker. On a
    critical success the defender sets the dice to its limit when that wins."""
    out = [1.0] * 101
    for n in range(1, 101):
        wins = 0
        for d in _PAIRS:
            if not succeeds(d, level):
                continue
            m = number(d)
            if critical(d, level) == "success":
                m = max(m, set_limit(d, level, max_level))
            wins += m > n or (m == n and edge == 1)
        out[n] = 1 - wins / 100
    return tuple(out)


def _edge(plan: AttackPlan) -> int:
    if plan.target.pc != plan.attacker.pc:
        return int(plan.target.pc)
    return int(plan.tie == "reactor")


@dataclass(frozen=True)
class Estimate:
    """A quick view of an attack: chance to hit, expected harm, chance of a knockout."""

    p_hit: float
    harm: float
    p_knockout: float


@lru_cache(maxsize=1 << 15)
def _estimate(level: int, max_level: int, table: HitTable, losses: tuple[float, ...] | None,
              crit_rule: str) -> Estimate:
    extra = 0.0
    if crit_rule == "policy":
        extra = _estimate(level, max_level, table, None, "extra-action").harm
    p_hit = total = p_ko = 0.0
    for pair in _PAIRS:
        if not succeeds(pair, level):
            continue
        n = number(pair)
        if critical(pair, level) == "success" and crit_rule != "extra-action":
            best = table.best[set_limit(pair, level, max_level)]
            if crit_rule == "set-dice" or table.harm[best] - table.harm[n] > extra:
                n = best
        p = (losses[n] if losses is not None else 1.0) / 100
        p_hit += p
        total += p * table.harm[n]
        p_ko += p * table.knockout[n]
    return Estimate(p_hit, total, p_ko)


def estimate(plan: AttackPlan, rule: str, crit_rule: str) -> Estimate:
    """The chance to hit, expected harm and knockout chance of ``plan`` (re-rolls aside)."""
    return quick_estimate(plan.attacker.body, plan.target.body, plan.damage, rule, crit_rule,
                          cover=plan.target_assigns, defend=plan.defend, edge=_edge(plan))


def quick_estimate(attacker: Body, target: Body, rules: DamageRules, rule: str, crit_rule: str,
                   *, cover: bool, defend: bool, edge: int) -> Estimate:
    """:func:`estimate` from the two bodies (``edge``: 1 if the defender wins equal
    successes). Remembered by what it depends on: the tables it reads are large tuples, slow
    to hash at every look-up, and policies ask the same estimates again and again."""
    key = (attacker.level, attacker.max_level, target, rules, rule, crit_rule, cover, defend,
           edge)
    found = _QUICK.get(key)
    if found is None:
        losses = defence_losses(target.level, target.max_level, edge) if defend else None
        found = _estimate(attacker.level, attacker.max_level,
                          hit_table(target, rules, rule, not cover), losses, crit_rule)
        _QUICK.put(key, found)
    return found


_QUICK: Cache[tuple[object, ...], Estimate] = Cache("unhex.quick-estimates", maxsize=1 << 16)


def crit_takes_set(plan: AttackPlan, pair: Pair, rule: str, crit_rule: str) -> bool:
    """UNH-7: set the dice rather than take the extra action?"""
    if crit_rule != "policy":
        return crit_rule == "set-dice"
    a = plan.attacker.body
    table = _table(plan, rule)
    best = table.best[set_limit(pair, a.level, a.max_level)]
    extra = _estimate(a.level, a.max_level, table, None, "extra-action").harm
    return table.harm[best] - table.harm[number(pair)] > extra


def reroll_choice(pair: Pair, goal: Callable[[Pair], bool]) -> str:
    """The re-roll that most raises the chance of ``goal`` (keep when it already holds)."""
    if goal(pair):
        return "keep"
    tens = sum(goal((t, pair[1])) for t in range(10)) / 10
    units = sum(goal((pair[0], u)) for u in range(10)) / 10
    both = sum(goal(p) for p in _PAIRS) / 100
    best = max((tens, "tens"), (units, "units"), (both, "both"), key=lambda kv: kv[0])
    return best[1] if best[0] > 0 else "keep"
