"""Nebulia Operations events in words, for the play command and logs."""

from __future__ import annotations

from typing import Any

from tactica.engine.events import Action
from tactica.engine.ruleset import UnitStatus
from tactica.rulesets.nebulia.records import (
    ActivationEnded,
    Attack,
    Attacked,
    Damaged,
    EndActivation,
    Move,
    Moved,
    OutOfAction,
    RoundStarted,
)
from tactica.rulesets.nebulia.rules import NebState

__all__ = ["describe_action", "describe_event", "roller", "units"]


def describe_action(state: NebState, action: Action) -> str:
    """One line for an action."""
    if isinstance(action, Move):
        here = state.ops[action.unit].pos
        if action.to == here:
            return f"{action.unit} stays at {action.to[0]},{action.to[1]}"
        return f"{action.unit} moves to {action.to[0]},{action.to[1]}"
    if isinstance(action, Attack):
        return f"{action.unit} attacks {action.target} with {action.weapon}"
    if isinstance(action, EndActivation):
        return f"{action.unit} ends its activation"
    return repr(action)


def units(state: NebState) -> tuple[UnitStatus, ...]:
    """Every operator as it stands."""
    return tuple(
        UnitStatus(o.id, o.side, not o.out, None if o.out else f"{o.pos[0]},{o.pos[1]}",
                   {"defense": o.defense})
        for o in state.ops.values()
    )


def describe_event(state: NebState | None, event: Any) -> str:
    """One line describing a Nebulia Operations event."""
    if isinstance(event, RoundStarted):
        return f"Round {event.round} begins; {event.first} activates first."
    if isinstance(event, Moved):
        end = event.path[-1]
        if len(event.path) == 1:
            return f"{event.unit} is activated and stays at {end[0]},{end[1]}."
        return f"{event.unit} is activated and moves {len(event.path) - 1} to {end[0]},{end[1]}."
    if isinstance(event, Attacked):
        cover = " (target in cover)" if event.cover else ""
        return (
            f"{event.unit} attacks {event.target} with {event.weapon}{cover}: "
            f"{event.hits} hit(s), {event.saves} saved, {event.damage} damage."
        )
    if isinstance(event, Damaged):
        return f"{event.unit} loses {event.amount} defense ({event.defense} left)."
    if isinstance(event, OutOfAction):
        return f"{event.unit} is out of action."
    if isinstance(event, ActivationEnded):
        return f"{event.unit}'s activation ends."
    return repr(event)


def roller(state: NebState, label: str, action: Action | None) -> str | None:
    """Who rolls: the armor roll is the target's (its player rolls its own armor), the to-hit
    roll the attacker's; any other roll, the acting side."""
    if isinstance(action, Attack):
        return action.target if label == "armor" else action.unit
    return None


def figures(state: NebState) -> dict[str, dict[str, str]]:
    """Every figure of every operator, for the unit panel: defense with its maximum, armor,
    move and each weapon with its numbers."""
    out: dict[str, dict[str, str]] = {}
    for o in state.ops.values():
        weapons = "; ".join(
            f"{w.name} ({w.range}, accuracy {w.accuracy}, {w.dice} "
            f"{'die' if w.dice == 1 else 'dice'}, damage {w.damage})" for w in o.weapons)
        out[o.id] = {"defense": f"{o.defense} of {o.max_defense}", "armor": str(o.armor),
                     "move": str(o.move), "weapons": weapons}
    return out
