"""Resolving fire: target numbers, the 2D6 roll, and damage marked on the card.

Ranged fire (a firing arc's shot, movement fire):

====================================  ==========
base                                  6
long range (beyond short)             +2
beyond long range                     no attack (SKI-7)
each cover modifier of the lattice    +1
firer prone                           -1
target prone, more than 1 dot away    +1  (dots: lattice steps, :func:`dots_away`)
target prone, 1 dot away              -1
the firer's damage (its card)         +0 .. +3
movement fire (optional rule)         +2
====================================  ==========

Melee: base 4, no cover. Explosives: base the AP used (SKI-5), no long range, no modifier for
a prone target (they target a dot), and a prone thrower's -1 only under SKI-38. A hit rolls
2D6 for the start cell (:mod:`.card`).

Every roll is a :class:`~tactica.engine.chance.Roll` of the value the rule reads (hit or miss, the
start cell), with the two dice a person rolls; the same processes serve the battle, the odds
and the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tactica.battlefield.dots import sight as dots_sight
from tactica.battlefield.dots.sight import DotSight, SightOptions
from tactica.dice import Dist
from tactica.engine.chance import Observe, Roll, Step, emit_all
from tactica.engine.consulted import consult_all
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.card import D6, START_CELL, apply_hit, start_cell
from tactica.rulesets.skirmishers.content import Firearm
from tactica.rulesets.skirmishers.geometry import SIGHT_RULINGS, sight_options
from tactica.rulesets.skirmishers.state import SkiState, Soldier

__all__ = [
    "TargetNumber",
    "damage",
    "dots_away",
    "explosive_tn",
    "hit_chance",
    "hit_roll",
    "melee_tn",
    "ranged_tn",
    "shot",
    "sight",
]

K = Callable[[SkiState], Step]


@lru_cache(maxsize=64)
def _opts(key: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return sight_options(dict(key))


@lru_cache(maxsize=128)
def _parsed(key: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...]
            ) -> SightOptions:
    return SightOptions.parse({**_opts(key), **dict(extra)})


def options(state: SkiState) -> dict[str, str]:
    """The lattice's sight options under the battle's rulings (consulted: they are read from
    the rulings' key, which counts no read by itself)."""
    consult_all(SIGHT_RULINGS)
    return _opts(state.rulings.key())


def sight(state: SkiState, source: str, target: str, **extra: str) -> DotSight:
    """Sight from a trooper (or place) to a trooper or place, under the battle's rulings
    (``extra`` overrides some of the lattice's options). Remembered while the lattice (the
    troopers' places and poses) stays the same."""
    consult_all(SIGHT_RULINGS)
    key = (source, target, tuple(sorted(extra.items())))
    memo = state.memo.get("sight")
    if memo is None or memo[0] is not state.lattice:
        memo = state.memo["sight"] = (state.lattice, {})
    seen: dict[tuple[str, str, tuple[tuple[str, str], ...]], DotSight] = memo[1]
    found = seen.get(key)
    if found is None:
        opts = _parsed(state.rulings.key(), key[2])
        found = seen[key] = dots_sight.sight(state.lattice, source, target, opts)
    return found


def dots_away(state: SkiState, a: str, b: str) -> int:
    """How many dots apart two troopers or places are where the rules count dots rather than
    range: "target prone, 1 dot away" and the dots an explosive is thrown. Lattice steps plus
    the difference in levels, whatever the range rulings (SKI-10, SKI-11): adjacent is 1."""
    return state.lattice.distance(a, b)


@lru_cache(maxsize=32)
def hit_chance(tn: int) -> Fraction:
    """P(2D6 >= tn), exactly."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= tn), 36)


@dataclass(frozen=True)
class TargetNumber:
    """A target number and why; ``tn`` is ``None`` when no attack is possible."""

    tn: int | None
    reasons: tuple[str, ...]
    range: int | None = None
    band: str = ""
    cover: int = 0

    @property
    def p_hit(self) -> Fraction:
        """The chance to hit (0 when no attack is possible)."""
        return Fraction(0) if self.tn is None else hit_chance(self.tn)


def _sum_up(parts: list[tuple[str, int]]) -> tuple[int, str]:
    tn = sum(v for _, v in parts)
    words = ", ".join(f"{name} {v:+d}" if i else f"{name} {v}" for i, (name, v) in
                      enumerate(parts) if v or i == 0)
    return tn, f"target number {tn}: {words} (2D6 >= {tn}: {hit_chance(tn)})"


def _cover_reasons(seen: DotSight) -> list[str]:
    return [reason for reason in seen.reasons[2:-1]]


def ranged_tn(state: SkiState, firer: str, target: str, weapon: Firearm, *,
              extra: int = 0, extra_why: str = "") -> TargetNumber:
    """The target number of a shot of ``weapon`` from ``firer`` at ``target`` now."""
    f, t = state.troopers[firer], state.troopers[target]
    seen = sight(state, firer, target)
    if not seen.visible:
        return TargetNumber(None, (f"{target} is not visible from {firer}",
                                   *_cover_reasons(seen)))
    rng = seen.range
    if rng is None:
        return TargetNumber(None, ("no walkable path: no range (SKI-10 walkable)",))
    if rng > weapon.long:
        return TargetNumber(None, (f"range {rng} is beyond the {weapon.name}'s long range "
                                   f"{weapon.long}: no attack (SKI-7)",), rng, "beyond")
    band = "short" if rng <= weapon.short else "long"
    parts = [("base", 6), ("long range", 2 if band == "long" else 0),
             ("cover", seen.cover), ("firer prone", -1 if f.prone else 0)]
    if t.prone:
        near = dots_away(state, firer, target) <= 1
        parts.append(("target prone" + (" adjacent" if near else ""), -1 if near else 1))
    parts.append(("firer's damage", state.modifier(f)))
    if extra:
        parts.append((extra_why, extra))
    tn, words = _sum_up(parts)
    reasons = (f"range {rng} ({band}: short {weapon.short}, long {weapon.long})",
               *_cover_reasons(seen), words)
    return TargetNumber(tn, reasons, rng, band, seen.cover)


def melee_tn(state: SkiState, attacker: str, target: str) -> TargetNumber:
    """The target number of a melee attack (no cover)."""
    a, t = state.troopers[attacker], state.troopers[target]
    parts = [("base", 4), ("attacker prone", -1 if a.prone else 0),
             ("target prone adjacent", -1 if t.prone else 0),
             ("attacker's damage", state.modifier(a))]
    tn, words = _sum_up(parts)
    return TargetNumber(tn, (words,), 1, "melee", 0)


def explosive_tn(state: SkiState, thrower: str, at: str, base: int, *,
                 stairwell: bool = False) -> TargetNumber:
    """The target number of an explosive thrown at dot ``at`` with base ``base`` (the AP used,
    SKI-5); cover counts, a prone target does not (it targets a dot)."""
    f = state.troopers[thrower]
    cover = 0
    reasons: list[str] = []
    if not stairwell:
        seen = sight(state, thrower, at, range_levels="add")
        cover = seen.cover if seen.visible else 0
        reasons.extend(_cover_reasons(seen))
    prone = -1 if f.prone and state.rulings["SKI-38"] == "minus-one" else 0
    parts = [("AP used", base), ("cover", cover), ("thrower prone", prone),
             ("thrower's damage", state.modifier(f))]
    tn, words = _sum_up(parts)
    return TargetNumber(tn, (*reasons, words), None, "explosive", cover)


def hit_roll(label: str, tn: int, then: Callable[[bool], Step], *,
             words: tuple[str, str] = ("hit", "miss")) -> Step:
    """Roll 2D6 against ``tn``: the value read is a word (``hit`` or ``miss``, as people say
    it), and ``then`` learns whether the roll met the target number."""
    p = hit_chance(tn)
    met, failed = words
    dist: Dist[str] = Dist.from_probs({met: p, failed: 1 - p})
    hint = (f"2D6 totalling {tn} or more: {met}" if 2 < tn <= 12
            else f"{met} whatever the dice" if tn <= 2 else f"{failed} whatever the dice")
    return Roll(label, dist, lambda word: then(word == met), dice=(D6, D6),
                read=lambda faces: met if sum(faces) >= tn else failed, hint=hint)


def _fists(state: SkiState, attacker: Soldier) -> int:
    ap = state.max_ap(attacker)
    return (ap + 1) // 2 if state.rulings["SKI-19"] == "up" else ap // 2


def hit_events(state: SkiState, target: str, start: int, lethal: int, bludgeoning: int,
               source: str | None) -> list[Any]:
    """The events of a hit starting at cell ``start`` on ``target``'s card as it is now."""
    t = state.troopers[target]
    hit = apply_hit(t.marks, start=start, lethal=lethal, bludgeoning=bludgeoning,
                    armor=t.armor_left, protected=state.protected(t),
                    crossed_bludgeoning=state.rulings.peek("SKI-24"),
                    past_end_bludgeoning=state.rulings.peek("SKI-40"))
    before = t.hp
    hp = hit.hp
    after = replace(t, marks=hit.marks, armor_left=hit.armor, dead=t.dead or hit.dead)
    max_ap = state.max_ap(after)
    out: list[Any] = [r.Hit(target, before - hp, source, start, lethal, bludgeoning, hit.marks,
                            hit.armor, hit.armor_lost, hp, max_ap, hit.dead)]
    if hp == 0:
        out.append(r.OutOfAction(target, hit.dead))
    elif state.rulings["SKI-3"] == "as-written":
        if max_ap >= t.ap_spent:
            out.append(r.FellProne(target))
    elif t.ap_spent > 0 and t.ap_spent >= max_ap:
        out.append(r.FellProne(target))
    return out


def damage(state: SkiState, target: str, lethal: int, bludgeoning: int, source: str | None,
           then: K, *, label: str | None = None) -> Step:
    """Roll the start cell and mark the damage on ``target``'s card, then ``then`` on the
    state the events leave; the roll's label says whose hit it is unless ``label`` is given."""
    if label is None:
        by = f" by {source}" if source else ""
        label = f"2D6 start cell for the hit{by} on {target}"

    def marked(start: int) -> Step:
        return emit_all(hit_events(state, target, start, lethal, bludgeoning, source),
                        Observe(then))

    return Roll(label, START_CELL, marked, dice=(D6, D6), read=start_cell)


def shot(state: SkiState, firer: str, target: str, weapon: Firearm, tn: int, how: str,
         then: K) -> Step:
    """One shot: 2D6 against ``tn``, then on a hit the start cell and the damage."""

    reaction = how == "arc"
    hit_on = (f"reaction fire by {firer} at {target}" if reaction else
              f"{firer} fires on the move at {target}" if how == "movement" else
              f"{firer} shoots {target}")
    start = (f"2D6 start cell for the reaction-fire hit by {firer} on {target}" if reaction
             else None)

    def rolled(hit: bool) -> Step:
        fired = r.ShotFired(firer, target, weapon.key, tn, hit, how)
        if not hit:
            return emit_all([fired], Observe(then))
        return emit_all([fired], Observe(lambda work: damage(
            work, target, weapon.lethal, weapon.bludgeoning, firer, then, label=start)))

    return hit_roll(f"2D6 to hit: {hit_on}", tn, rolled)


def melee_damage(state: SkiState, attacker: str, weapon: str) -> tuple[int, int]:
    """The lethal and bludgeoning points of a melee attack (fists: half the maximum AP)."""
    m = state.setup.pack.melee[weapon]
    if m.fists:
        return 0, _fists(state, state.troopers[attacker])
    return m.lethal, m.bludgeoning
