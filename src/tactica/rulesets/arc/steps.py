"""Pieces of Arc's processes shared by the round and the actions: falling, bleeding, the end
of a turn, and the check after each action whether the turn is over.

A process reads the battle as its own events left it through the core's
:class:`~tactica.engine.chance.Observe`; :func:`emit` emits events and continues on that state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tactica.engine.chance import Done, Observe, Roll, Step, emit_all
from tactica.rulesets.arc.armor import wound_dist
from tactica.rulesets.arc.content import DamageDice
from tactica.rulesets.arc.records import Bled, Died, Falling, Fell, TurnEnded
from tactica.rulesets.arc.state import ArcState, Fighter

__all__ = ["K", "after_action", "bleed", "done", "emit", "end_turn", "fall_events",
           "wound_label"]

#: A continuation on the state as the process's events left it.
K = Callable[[ArcState], Step]


def done(state: ArcState) -> Step:
    """The end of a process."""
    return Done(None)


def emit(events: Sequence[Any], k: K) -> Step:
    """Emit ``events``, then continue with ``k`` on the state they leave."""
    return emit_all(events, Observe(k))


def fall_events(state: ArcState, f: Fighter, health: int, *, outright: bool = False,
                reason: str = "") -> list[Any]:
    """What ``f`` (before the change) suffers at ``health`` now: death from one attack
    (ARC-8), death at or under -CON, or falling unconscious at or under 0; at once, or for the
    active character at the end of its turn (ARC-24 ``at-once``), or only at the end of the
    round (``end-of-round``)."""
    if f.dead:
        return []
    if outright:
        how = "exceeded" if state.rulings["ARC-8"] == "exceeds" else "reached"
        return [Died(f.id, reason or f"one attack's damage after armor {how} its maximum "
                                     "health")]
    if state.rulings["ARC-24"] == "end-of-round":
        return []
    if health <= -f.profile.con:
        return [Died(f.id, f"health {health}, at or under -CON ({-f.profile.con})")]
    if health <= 0 and f.conscious and not f.falling:
        return [Falling(f.id)] if state.active == f.id else [Fell(f.id)]
    return []


def wound_label(f: Fighter) -> str:
    """``Foo's wound dice (d8+d4)``."""
    return f"{f.id}'s wound dice ({'+'.join(f'd{w}' for w in f.wounds)})"


def bleed(state: ArcState, unit: str, k: K) -> Step:
    """Roll ``unit``'s wound dice and subtract them from its health, then ``k``."""
    f = state.fighters[unit]
    if not f.wounds or f.dead:
        return k(state)
    faces = tuple(DamageDice(1, w).faces[0] for w in f.wounds)

    def rolled(total: int) -> Step:
        return emit([Bled(unit, total, None, f.health - total)], k)

    return Roll(wound_label(f), wound_dist(f.wounds), rolled, faces, sum)


def sweep_events(state: ArcState, f: Fighter) -> list[Any]:
    """The seed's check after the wound dice: at or under -CON dies, at or under 0 falls."""
    if f.dead:
        return []
    if f.health <= -f.profile.con:
        return [Died(f.id, f"health {f.health}, at or under -CON ({-f.profile.con})")]
    if f.health <= 0 and f.conscious:
        return [Fell(f.id)]
    return []


def end_turn(state: ArcState, unit: str) -> Step:
    """The end of ``unit``'s turn: its wound dice first under ARC-12 ``turn``; then, if it is
    at or under 0 health, it falls (ARC-24 ``at-once``)."""

    def close(w: ArcState) -> Step:
        f = w.fighters[unit]
        out: list[Any] = [TurnEnded(unit)]
        if w.rulings["ARC-24"] == "at-once":
            out += sweep_events(w, f)
        return emit_all(out, Done(None))

    if state.rulings["ARC-12"] == "turn":
        return bleed(state, unit, lambda w: Observe(close))
    return close(state)


def after_action(unit: str) -> Step:
    """After an action: the turn ends when the actor has no AP left (and is still the one
    acting: a death ended it already)."""

    def check(w: ArcState) -> Step:
        if w.active != unit or w.fighters[unit].ap > 0:
            return Done(None)
        return end_turn(w, unit)

    return Observe(check)
