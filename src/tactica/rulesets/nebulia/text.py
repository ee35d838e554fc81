"""Nebulia Operations events in words, for the play command and logs."""

from __future__ import annotations

from typing import Any

from tactica.rulesets.nebulia.records import (
    ActivationEnded,
    Attacked,
    Damaged,
    Moved,
    OutOfAction,
    RoundStarted,
)

__all__ = ["describe_event"]


def describe_event(event: Any) -> str:
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
