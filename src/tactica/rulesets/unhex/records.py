"""Unhex actions, decision options and events: frozen, serialisable records."""

from __future__ import annotations

from dataclasses import dataclass

from tactica.engine import events
from tactica.engine.events import Action, Event, record

__all__ = [
    "ActionGained",
    "ActionLost",
    "ActionSpent",
    "AmmoMarked",
    "Arrange",
    "Assignment",
    "Attack",
    "Attacked",
    "CombatEnded",
    "Defended",
    "Died",
    "Door",
    "DoorChanged",
    "Drop",
    "EndTurn",
    "FirstAid",
    "FirstAidPlan",
    "FixtureUsed",
    "Hardening",
    "InitiativeRolled",
    "InitiativeWon",
    "ItemDropped",
    "ItemsArranged",
    "KitUsedUp",
    "KnockedOut",
    "LevelLowered",
    "LocationFilled",
    "MarksRow",
    "Move",
    "Moved",
    "Operate",
    "Reaction",
    "Retreat",
    "Retreated",
    "RoundStarted",
    "Stopped",
    "Surrendered",
    "TeamOrder",
    "Treated",
    "TurnEnded",
    "Wounded",
]

#: The marks of one location after a change: ``(location, slash, x, permanent)``.
MarksRow = tuple[str, int, int, int]


# -- actions ----------------------------------------------------------------------------------


@record("unh.attack")
@dataclass(frozen=True, order=True)
class Attack(Action):
    """``unit`` attacks ``target`` with ``weapon`` (in hand)."""

    unit: str
    weapon: str
    target: str


@record("unh.move")
@dataclass(frozen=True, order=True)
class Move(Action):
    """``unit`` moves to the connected area ``to``."""

    unit: str
    to: str


@record("unh.arrange")
@dataclass(frozen=True, order=True)
class Arrange(Action):
    """``unit`` rearranges its hands: ``right`` and ``left`` hold these items afterwards (the
    same two-handed item in both; ``None`` for an empty hand). Items leaving the hands are
    stowed; items taken from the floor of the area are picked up."""

    unit: str
    right: str | None
    left: str | None


@record("unh.first-aid")
@dataclass(frozen=True, order=True)
class FirstAid(Action):
    """``unit`` gives first aid to ``target`` (itself allowed) in its area."""

    unit: str
    target: str


@record("unh.door")
@dataclass(frozen=True, order=True)
class Door(Action):
    """``unit`` opens or closes (``state``) the door toward the area ``to``."""

    unit: str
    to: str
    state: str


@record("unh.retreat")
@dataclass(frozen=True, order=True)
class Retreat(Action):
    """``unit`` leaves the fight through an exit of its area."""

    unit: str


@record("unh.drop")
@dataclass(frozen=True, order=True)
class Drop(Action):
    """``unit`` drops ``item`` from its hands (takes no action)."""

    unit: str
    item: str


@record("unh.operate")
@dataclass(frozen=True, order=True)
class Operate(Action):
    """``unit`` uses ``fixture``, an item attached to its area (a lever, a terminal)."""

    unit: str
    fixture: str


@record("unh.end-turn")
@dataclass(frozen=True, order=True)
class EndTurn(Action):
    """``side`` ends its team turn; unspent actions stay for reacting this round."""

    side: str


# -- options of decisions inside an action ----------------------------------------------------


@record("unh.reaction")
@dataclass(frozen=True, order=True)
class Reaction:
    """A reaction declared before the dice: ``none``, ``defend``, ``counterattack`` or
    ``intercept`` (with ``weapon``), or ``surrender``."""

    kind: str
    weapon: str | None = None


@record("unh.assignment")
@dataclass(frozen=True, order=True)
class Assignment:
    """One die for damage, the other for the hit location (``damage_die`` says which)."""

    damage: int
    location: str
    damage_die: str


@record("unh.first-aid-plan")
@dataclass(frozen=True, order=True)
class FirstAidPlan:
    """First aid read with ``boxes`` from one die and ``extra`` locations from the other;
    ``erase`` is how many ``\\`` marks go from each location."""

    boxes: int
    extra: int
    erase: tuple[tuple[str, int], ...]


@record("unh.hardening")
@dataclass(frozen=True, order=True)
class Hardening:
    """After first aid fails critically: how many ``X`` marks become permanent, where."""

    marks: tuple[tuple[str, int], ...]


# -- events -----------------------------------------------------------------------------------


@record("unh.round-started")
@dataclass(frozen=True)
class RoundStarted(events.RoundStarted):
    """A new round: the actions of each character in the fight, and the losses still owed."""

    actions: tuple[tuple[str, int], ...]
    owed: tuple[tuple[str, int], ...] = ()


@record("unh.initiative-rolled")
@dataclass(frozen=True)
class InitiativeRolled(Event):
    """One team's initiative roll, by its highest-level character."""

    side: str
    unit: str
    roll: int
    success: bool
    critical: str | None = None


@record("unh.initiative-won")
@dataclass(frozen=True)
class InitiativeWon(Event):
    """``side`` holds the initiative this round, and why."""

    side: str
    reason: str


@record("unh.team-order")
@dataclass(frozen=True)
class TeamOrder(Event):
    """The order the teams take their turns in this round."""

    order: tuple[str, ...]


@record("unh.turn-ended")
@dataclass(frozen=True)
class TurnEnded(Event):
    """``side``'s team turn is over."""

    side: str


@record("unh.action-spent")
@dataclass(frozen=True)
class ActionSpent(Event):
    """``unit`` used one action ``on`` something (to act or to react)."""

    unit: str
    on: str


@record("unh.action-gained")
@dataclass(frozen=True)
class ActionGained(Event):
    """``unit`` gained an action this round (a critical success)."""

    unit: str
    reason: str


@record("unh.action-lost")
@dataclass(frozen=True)
class ActionLost(Event):
    """``unit`` lost its next action (a critical failure): now, or next round if
    ``carried``."""

    unit: str
    carried: bool
    reason: str


@record("unh.surrendered")
@dataclass(frozen=True)
class Surrendered(events.OutOfAction):
    """``unit`` surrendered before ``before`` affected it: level 0, out of the fight."""

    before: str


@record("unh.attacked")
@dataclass(frozen=True)
class Attacked(Event):
    """An attack roll and its outcome (``hit``, ``miss`` or ``defended``)."""

    unit: str
    target: str
    weapon: str
    kind: str
    roll: int
    success: bool
    critical: str | None
    set_dice: bool
    cover: bool
    outcome: str
    shield: bool = False


@record("unh.defended")
@dataclass(frozen=True)
class Defended(Event):
    """A defence roll against ``attacker``; ``won`` if the attack misses because of it."""

    unit: str
    attacker: str
    roll: int
    success: bool
    critical: str | None
    won: bool


@record("unh.wounded")
@dataclass(frozen=True)
class Wounded(events.Damaged):
    """``unit`` took ``amount`` damage from ``source``'s attack at ``location`` (assigned by
    ``assigned_by``); ``marks`` are the changed locations afterwards."""

    location: str
    assigned_by: str
    marks: tuple[MarksRow, ...]


@record("unh.location-filled")
@dataclass(frozen=True)
class LocationFilled(Event):
    """Every box of ``location`` is marked; the level drops by ``level_lost`` to ``level``."""

    unit: str
    location: str
    level_lost: int
    level: int


@record("unh.level-lowered")
@dataclass(frozen=True)
class LevelLowered(Event):
    """Damage lowered ``unit``'s level by ``amount`` to ``level`` (later damage rules)."""

    unit: str
    amount: int
    level: int


@record("unh.item-dropped")
@dataclass(frozen=True)
class ItemDropped(Event):
    """``item`` fell from ``unit``'s hands to the floor of ``area``."""

    unit: str
    item: str
    area: str
    reason: str


@record("unh.knocked-out")
@dataclass(frozen=True)
class KnockedOut(events.OutOfAction):
    """``unit`` is unconscious."""


@record("unh.died")
@dataclass(frozen=True)
class Died(events.OutOfAction):
    """``unit`` is dead."""


@record("unh.moved")
@dataclass(frozen=True)
class Moved(events.Moved):
    """``unit`` moved from ``start`` to ``to``."""

    start: str
    to: str


@record("unh.stopped")
@dataclass(frozen=True)
class Stopped(Event):
    """``unit``, moving from ``start`` to ``to``, was stopped by ``by`` in ``at``."""

    unit: str
    start: str
    to: str
    at: str
    by: str


@record("unh.items-arranged")
@dataclass(frozen=True)
class ItemsArranged(Event):
    """``unit`` now holds ``right`` and ``left``; ``picked_up`` came from the floor."""

    unit: str
    right: str | None
    left: str | None
    picked_up: tuple[str, ...] = ()


@record("unh.treated")
@dataclass(frozen=True)
class Treated(Event):
    """First aid by ``unit`` on ``target``: ``outcome`` (``success``, ``failure`` or
    ``critical failure``), the roll, and the target's changed marks."""

    unit: str
    target: str
    roll: int
    outcome: str
    erased: tuple[tuple[str, int], ...]
    marks: tuple[MarksRow, ...]


@record("unh.kit-used-up")
@dataclass(frozen=True)
class KitUsedUp(Event):
    """``unit``'s first aid ``item`` is used up."""

    unit: str
    item: str


@record("unh.door-changed")
@dataclass(frozen=True)
class DoorChanged(Event):
    """The door between ``a`` and ``b`` is now ``state`` (``unit`` did it)."""

    unit: str
    a: str
    b: str
    state: str


@record("unh.retreated")
@dataclass(frozen=True)
class Retreated(events.OutOfAction):
    """``unit`` left the fight from ``area``."""

    area: str


@record("unh.fixture-used")
@dataclass(frozen=True)
class FixtureUsed(Event):
    """``unit`` used ``fixture``, attached to ``area``."""

    unit: str
    area: str
    fixture: str


@record("unh.ammo-marked")
@dataclass(frozen=True)
class AmmoMarked(Event):
    """At the end of combat ``unit`` marks off ``marked`` ammunition of ``weapon``; ``left`` is
    what remains when the scenario counts it (``None`` otherwise)."""

    unit: str
    weapon: str
    marked: int
    left: int | None


@record("unh.combat-ended")
@dataclass(frozen=True)
class CombatEnded(Event):
    """Combat is over: ``winner`` (``None``: no one) and why."""

    winner: str | None
    reason: str
