"""First aid: a first aid item in hand, range 0 (oneself too), one action and a roll.

* Success: one die is the number of boxes, the other the number of *additional* locations;
  that many ``\\`` marks are erased over at most that many locations (the treater chooses
  which, :class:`~.records.FirstAidPlan`), and every other ``\\`` becomes ``X``.
* Failure: the item is used up and every ``\\`` becomes ``X``.
* Critical failure: also up to N ``X`` marks become permanent, N the die shown (10 for a roll
  of 100): N, or all there are if fewer (UNH-22; or any number up to N), chosen by the one
  giving first aid (UNH-23; or the treated side) as a :class:`~.records.Hardening`.

First aid never raises the level; a head or torso that is no longer full wakes its owner.
"""

from __future__ import annotations

from typing import Any

from tactica.engine.chance import Decide, Done, Step, emit_all
from tactica.rulesets.unhex.attack import crit_events, marks_rows
from tactica.rulesets.unhex.body import LOCATIONS, Body, Marks
from tactica.rulesets.unhex.dice import Check, CheckResult, Pair, check
from tactica.rulesets.unhex.legal import first_aid_kit
from tactica.rulesets.unhex.records import (
    ActionSpent,
    Died,
    FirstAid,
    FirstAidPlan,
    Hardening,
    KitUsedUp,
    Treated,
)
from tactica.rulesets.unhex.state import UnhexState

__all__ = [
    "first_aid_plans",
    "first_aid_process",
    "harden",
    "hardenings",
    "slashes_to_x",
    "treat",
]


def _fills(counts: dict[str, int], total: int, most_places: int) -> list[tuple[tuple[str, int],
                                                                               ...]]:
    """Every maximal way to take ``total`` from ``counts`` over at most ``most_places``
    locations: ``total`` in all, or (when that cannot be) every location taken from emptied
    and no other left to take from. Each way once, as ``(location, n)`` pairs in body order,
    the ways sorted by ``[(location, -n), ...]`` (generated in that order).

    >>> for way in _fills({"left arm": 5, "torso": 3, "head": 1}, 2, 2):
    ...     print(way)
    (('head', 1), ('left arm', 1))
    (('head', 1), ('torso', 1))
    (('left arm', 2),)
    (('left arm', 1), ('torso', 1))
    (('torso', 2),)
    """
    places = [loc for loc in LOCATIONS if counts.get(loc, 0) > 0]
    if total <= 0 or not places:
        return [()]
    most = min(most_places, len(places))
    out: list[tuple[tuple[str, int], ...]] = []

    def grow(start: int, take: tuple[tuple[str, int], ...], left: int) -> None:
        if left == 0 or (len(take) == most and all(n == counts[loc] for loc, n in take)):
            out.append(take)
            return
        if len(take) == most:
            return
        for k in range(start, len(places)):
            loc = places[k]
            for n in range(min(left, counts[loc]), 0, -1):
                grow(k + 1, (*take, (loc, n)), left - n)

    grow(0, (), total)
    return out


def first_aid_plans(body: Body, pair: Pair) -> tuple[FirstAidPlan, ...]:
    """The treater's options after a success read as ``pair``: either die for the boxes,
    every maximal way to erase that many ``\\`` marks over at most that many locations, each
    body left after it once (a way both readings allow is offered with the first)."""
    slashes = {loc: body.marks_at(loc).slash for loc in LOCATIONS}
    out: list[FirstAidPlan] = []
    seen: set[tuple[tuple[str, int], ...]] = set()
    for boxes, extra in ((pair[0], pair[1]), (pair[1], pair[0])):
        for erase in _fills(slashes, boxes, extra + 1):
            if erase not in seen:
                seen.add(erase)
                out.append(FirstAidPlan(boxes, extra, erase))
    return tuple(out)


def slashes_to_x(body: Body) -> Body:
    """Every ``\\`` becomes ``X``."""
    for loc in LOCATIONS:
        m = body.marks_at(loc)
        if m.slash:
            body = body.with_marks(loc, Marks(0, m.x + m.slash, m.perm))
    return body


def treat(body: Body, erase: tuple[tuple[str, int], ...]) -> Body:
    """Erase the chosen ``\\`` marks, then every other ``\\`` becomes ``X``."""
    for loc, n in erase:
        m = body.marks_at(loc)
        body = body.with_marks(loc, Marks(m.slash - n, m.x, m.perm))
    return slashes_to_x(body)


def hardenings(body: Body, n: int, rule: str = "n-or-all") -> tuple[Hardening, ...]:
    """The chooser's options: ``n`` ``X`` marks (or all there are) made permanent; under
    UNH-22 ``any-up-to-n``, any number of them from 0 to ``n``."""
    xs = {loc: body.marks_at(loc).x for loc in LOCATIONS}
    if rule != "any-up-to-n":
        return tuple(Hardening(w) for w in _fills(xs, n, len(LOCATIONS)))
    ways: dict[tuple[tuple[str, int], ...], None] = {}
    for k in range(min(n, sum(xs.values())) + 1):
        ways.update(dict.fromkeys(_fills(xs, k, len(LOCATIONS))))
    return tuple(Hardening(w) for w in ways)


def harden(body: Body, marks: tuple[tuple[str, int], ...]) -> Body:
    """Turn the chosen ``X`` marks permanent."""
    for loc, k in marks:
        m = body.marks_at(loc)
        body = body.with_marks(loc, Marks(m.slash, m.x - k, m.perm + k))
    return body


def _changed(before: Body, after: Body) -> tuple[str, ...]:
    return tuple(loc for loc in LOCATIONS if before.marks_at(loc) != after.marks_at(loc))


def first_aid_process(state: UnhexState, act: FirstAid) -> Step:
    """The chance process of a first aid action."""
    c, t = state.chars[act.unit], state.chars[act.target]
    kit = first_aid_kit(state, c)
    assert kit is not None
    body = t.body
    spec = Check("first aid", c.id, c.side, c.level, c.body.max_level, "first-aid" in c.good,
                 True, ("first-aid", t.id, body))
    left = c.actions - 1

    def result(r: CheckResult) -> Step:
        events: list[Any] = crit_events(c.id, r, left, "first aid")
        if r.success:
            plans = first_aid_plans(body, r.pair)

            def done(plan: FirstAidPlan) -> Step:
                after = treat(body, plan.erase)
                return emit_all([*events, Treated(c.id, t.id, r.number, "success", plan.erase,
                                                  marks_rows(after, _changed(body, after)))],
                                Done(None))

            if len(plans) == 1:
                return done(plans[0])
            return Decide(c.side, f"{c.id}: first aid on {t.id}, which marks to erase?", plans,
                          done, {"kind": "first-aid", "body": body, "pair": r.pair,
                                 "target": t.id})
        failed = slashes_to_x(body)
        if r.critical != "failure":
            return emit_all([*events, Treated(c.id, t.id, r.number, "failure", (),
                                              marks_rows(failed, _changed(body, failed))),
                             KitUsedUp(c.id, kit)], Done(None))
        n = 10 if r.number == 100 else r.pair[0]
        options = hardenings(failed, n, state.rulings["UNH-22"])
        chooser = c if state.rulings["UNH-23"] == "treater" else t

        def hardened(h: Hardening) -> Step:
            after = harden(failed, h.marks)
            died = [Died(t.id)] if after.dead and not body.dead else []
            return emit_all([*events, Treated(c.id, t.id, r.number, "critical failure", (),
                                              marks_rows(after, _changed(body, after))),
                             KitUsedUp(c.id, kit), *died], Done(None))

        if len(options) == 1:
            return hardened(options[0])
        most = "up to " if state.rulings["UNH-22"] == "any-up-to-n" else ""
        return Decide(chooser.side, f"{chooser.id}: which {most}{n} X marks of {t.id} become "
                      "permanent?", options, hardened,
                      {"kind": "harden", "body": failed, "n": n, "target": t.id})

    return emit_all([ActionSpent(c.id, "first aid")], check(spec, result))
