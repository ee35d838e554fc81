"""The actions and events of Skirmishers: frozen records, saved in logs and replayed.

Places are written as the dot lattice writes them: ``"col,row"`` on the ground and
``"col,row@level"`` above it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tactica.engine import events
from tactica.engine.events import Action, Event, record

__all__ = [
    "Activate",
    "Activated",
    "ActivationEnded",
    "ArcEstablished",
    "ArcsRemoved",
    "ChangeWeapon",
    "DropWeapon",
    "EndActivation",
    "EquipmentTaken",
    "EstablishArc",
    "ExplosiveResolved",
    "ExplosiveThrown",
    "FellProne",
    "FireDeclared",
    "GoProne",
    "Hit",
    "Melee",
    "MeleeDeclared",
    "MeleeLapsed",
    "MeleeResolved",
    "MoraleChecked",
    "Move",
    "MoveHalted",
    "MovementFire",
    "OutOfAction",
    "PoseChanged",
    "Retreated",
    "Shoot",
    "ShotFired",
    "StandUp",
    "Stepped",
    "TakeEquipment",
    "Throw",
    "TurnBegan",
    "WeaponChanged",
    "WeaponDropped",
]


# --------------------------------------------------------------------------------------------
# Actions


@record("ski.activate")
@dataclass(frozen=True)
class Activate(Action):
    """The side activates one of its troopers (melee on it and arcs holding it resolve)."""

    unit: str


@record("ski.move")
@dataclass(frozen=True)
class Move(Action):
    """Move along a cheapest path to ``to`` (every dot entered may draw reaction fire)."""

    unit: str
    to: str


@record("ski.go-prone")
@dataclass(frozen=True)
class GoProne(Action):
    """Go prone (1 AP)."""

    unit: str


@record("ski.stand-up")
@dataclass(frozen=True)
class StandUp(Action):
    """Stand up (2 AP); arcs holding the trooper may fire again."""

    unit: str


@record("ski.change-weapon")
@dataclass(frozen=True)
class ChangeWeapon(Action):
    """Make another carried weapon (or an explosive) the active one (3 AP)."""

    unit: str
    weapon: str


@record("ski.take")
@dataclass(frozen=True)
class TakeEquipment(Action):
    """Take a weapon or equipment from an adjacent trooper (6 AP)."""

    unit: str
    source: str
    item: str


@record("ski.drop")
@dataclass(frozen=True)
class DropWeapon(Action):
    """Drop a carried weapon (0 AP)."""

    unit: str
    weapon: str


@record("ski.movement-fire")
@dataclass(frozen=True)
class MovementFire(Action):
    """Optional rule: fire once while moving (2 AP, +2 to the target number)."""

    unit: str
    target: str


@record("ski.arc")
@dataclass(frozen=True)
class EstablishArc(Action):
    """Establish a firing arc of ``width`` degrees (30, 60 or 150) on a ``bearing`` (degrees
    clockwise from east, in [0, 360): any bearing, an int when whole) or ``toward`` a dot."""

    unit: str
    width: int
    bearing: int | float | None = None
    toward: str | None = None


@record("ski.melee")
@dataclass(frozen=True)
class Melee(Action):
    """A melee attack (5 AP) on an adjacent enemy, resolved when it activates."""

    unit: str
    target: str
    weapon: str


@record("ski.throw")
@dataclass(frozen=True)
class Throw(Action):
    """Throw the active explosive at a dot (resolved at the end of the side's turn);
    ``stairwell``: down a stairwell or ladder, or up one level."""

    unit: str
    explosive: str
    at: str
    stairwell: bool = False


@record("ski.end")
@dataclass(frozen=True)
class EndActivation(Action):
    """The trooper is done for this turn."""

    unit: str


@record("ski.shoot")
@dataclass(frozen=True)
class Shoot(Action):
    """One shot of ``weapon`` at ``target``, as reaction fire resolves it (the odds of a shot;
    never a legal action: shots come from firing arcs and movement fire)."""

    unit: str
    target: str
    weapon: str


# --------------------------------------------------------------------------------------------
# Events


@record("ski.turn")
@dataclass(frozen=True)
class TurnBegan(events.RoundStarted):
    """A side's turn began (both turns of a round carry its number; ``order``: the sides'
    order in this round)."""

    side: str
    order: tuple[str, ...]


@record("ski.arcs-removed")
@dataclass(frozen=True)
class ArcsRemoved(Event):
    """A side removed its firing arc tokens at the start of its turn."""

    side: str
    units: tuple[str, ...]


@record("ski.morale")
@dataclass(frozen=True)
class MoraleChecked(Event):
    """A squad's morale check: the dead counted, the target number, the result."""

    side: str
    dead: int
    tn: int
    passed: bool


@record("ski.retreat")
@dataclass(frozen=True)
class Retreated(Event):
    """A squad that failed its morale check leaves the battle (SKI-17 retreat)."""

    side: str


@record("ski.activated")
@dataclass(frozen=True)
class Activated(Event):
    """A trooper activated."""

    unit: str


@record("ski.step")
@dataclass(frozen=True)
class Stepped(events.Moved):
    """A trooper entered a place (a dot, or a level of its dot), paying ``ap``."""

    to: str
    ap: int


@record("ski.halted")
@dataclass(frozen=True)
class MoveHalted(Event):
    """A move stopped short (its AP no longer reach the next step)."""

    unit: str
    reason: str


@record("ski.pose")
@dataclass(frozen=True)
class PoseChanged(Event):
    """A trooper went prone or stood up, paying ``ap``."""

    unit: str
    prone: bool
    ap: int


@record("ski.weapon")
@dataclass(frozen=True)
class WeaponChanged(Event):
    """The active weapon changed (``ap`` 0: the automatic switch back after a throw)."""

    unit: str
    weapon: str
    ap: int


@record("ski.taken")
@dataclass(frozen=True)
class EquipmentTaken(Event):
    """A trooper took ``count`` of ``item`` from another trooper."""

    unit: str
    source: str
    item: str
    count: int
    ap: int


@record("ski.dropped")
@dataclass(frozen=True)
class WeaponDropped(Event):
    """A trooper dropped a weapon (it is gone)."""

    unit: str
    weapon: str


@record("ski.arc-established")
@dataclass(frozen=True)
class ArcEstablished(Event):
    """A firing arc: its width, axis, shots and the AP paid."""

    unit: str
    width: int
    bearing: int | float | None
    toward: str | None
    shots: int
    ap: int
    weapon: str


@record("ski.fire-declared")
@dataclass(frozen=True)
class FireDeclared(Event):
    """Movement fire paid for (optional rule): the target may drop prone before the shot."""

    unit: str
    target: str
    ap: int


@record("ski.shot")
@dataclass(frozen=True)
class ShotFired(Event):
    """A shot: the weapon, the target number and whether it hit; ``how`` is ``arc``
    (reaction fire, one of the arc's shots), ``movement`` (movement fire) or ``shot``."""

    unit: str
    target: str
    weapon: str
    tn: int
    hit: bool
    how: str


@record("ski.hit")
@dataclass(frozen=True)
class Hit(events.Damaged):
    """Damage marked on a card (``amount``: the HP lost): the start cell, the damage, the new
    marks (cells 10..0, ``.`` ``/`` ``X``), the armor cells left and taken, the HP and maximum
    AP after, and whether the trooper died."""

    start: int
    lethal: int
    bludgeoning: int
    marks: str
    armor: int
    armor_lost: int
    hp: int
    max_ap: int
    dead: bool


@record("ski.fell-prone")
@dataclass(frozen=True)
class FellProne(Event):
    """Its new maximum AP no longer covers the AP it spent: it falls prone and can act no
    more this turn (SKI-3)."""

    unit: str


@record("ski.out")
@dataclass(frozen=True)
class OutOfAction(events.OutOfAction):
    """A trooper at 0 HP (out of action) or DEAD."""

    dead: bool


@record("ski.melee-declared")
@dataclass(frozen=True)
class MeleeDeclared(Event):
    """A melee attack paid for; it resolves when the target activates."""

    unit: str
    target: str
    weapon: str
    ap: int


@record("ski.melee-resolved")
@dataclass(frozen=True)
class MeleeResolved(Event):
    """A melee attack rolled: its target number and whether it hit."""

    unit: str
    target: str
    weapon: str
    tn: int
    hit: bool


@record("ski.melee-lapsed")
@dataclass(frozen=True)
class MeleeLapsed(Event):
    """A declared melee attack that can no longer be made."""

    unit: str
    target: str
    reason: str


@record("ski.thrown")
@dataclass(frozen=True)
class ExplosiveThrown(Event):
    """An explosive thrown at a dot: AP paid, the target number (SKI-29), the dot a miss
    scatters from; resolved at the end of the side's turn."""

    unit: str
    explosive: str
    at: str
    ap: int
    base: int
    tn: int
    origin: str
    stairwell: bool


@record("ski.explosion")
@dataclass(frozen=True)
class ExplosiveResolved(Event):
    """The first explosive token resolved: hit or scattered, where it went off (``None``:
    lost off the map), and why."""

    unit: str
    explosive: str
    tn: int
    hit: bool
    landing: str | None
    note: str


@record("ski.activation-ended")
@dataclass(frozen=True)
class ActivationEnded(Event):
    """A trooper's activation ended."""

    unit: str
