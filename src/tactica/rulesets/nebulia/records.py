"""Nebulia Operations actions and events: frozen, serialisable records."""

from __future__ import annotations

from dataclasses import dataclass

from tactica.engine import events
from tactica.engine.events import Action, Event, record

__all__ = [
    "ActivationEnded",
    "Attack",
    "Attacked",
    "Damaged",
    "EndActivation",
    "Move",
    "Moved",
    "OutOfAction",
    "RoundStarted",
]

Tile = tuple[int, int]


# -- actions ----------------------------------------------------------------------------------


@record("neb.move")
@dataclass(frozen=True, order=True)
class Move(Action):
    """Activate ``unit`` and move it to ``to`` (its own tile to stay); an attack may follow."""

    unit: str
    to: Tile


@record("neb.attack")
@dataclass(frozen=True, order=True)
class Attack(Action):
    """The active ``unit`` attacks ``target`` with ``weapon``; ends the activation."""

    unit: str
    weapon: str
    target: str


@record("neb.end-activation")
@dataclass(frozen=True, order=True)
class EndActivation(Action):
    """The active ``unit`` ends its activation without attacking."""

    unit: str


# -- events -----------------------------------------------------------------------------------


@record("neb.round-started")
@dataclass(frozen=True)
class RoundStarted(events.RoundStarted):
    """A new round: every operator in action is ready; ``first`` activates first."""

    first: str


@record("neb.moved")
@dataclass(frozen=True)
class Moved(events.Moved):
    """``unit`` was activated and moved along ``path`` (start first; one tile if it stayed)."""

    path: tuple[Tile, ...]


@record("neb.attacked")
@dataclass(frozen=True)
class Attacked(Event):
    """An attack's result: the hits rolled, the hits saved by armor, the damage dealt."""

    unit: str
    weapon: str
    target: str
    cover: bool
    hits: int
    saves: int
    damage: int


@record("neb.damaged")
@dataclass(frozen=True)
class Damaged(events.Damaged):
    """``unit`` lost ``amount`` defense (never more than it had) to ``source``; ``defense`` is
    what is left."""

    defense: int


@record("neb.out-of-action")
@dataclass(frozen=True)
class OutOfAction(events.OutOfAction):
    """``unit`` reached defense 0: it is out of action and removed from the map (NEB-8)."""


@record("neb.activation-ended")
@dataclass(frozen=True)
class ActivationEnded(Event):
    """The activation of ``unit`` is over."""

    unit: str
