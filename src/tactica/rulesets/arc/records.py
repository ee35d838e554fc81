"""Arc actions and events: frozen, serialisable records."""

from __future__ import annotations

from dataclasses import dataclass

from tactica.engine import events
from tactica.engine.events import Action, Event, record

__all__ = [
    "APRefunded",
    "APSpent",
    "ArmorWorn",
    "Attack",
    "Attacked",
    "Bled",
    "Checked",
    "Died",
    "EndTurn",
    "Falling",
    "Fell",
    "Healed",
    "Held",
    "Hold",
    "InitiativeChecked",
    "InitiativeRolled",
    "ItemBegun",
    "ItemFinished",
    "ItemUsed",
    "Jammed",
    "Loaded",
    "Move",
    "Reload",
    "Reposition",
    "Repositioned",
    "RoundBegan",
    "RoundEnded",
    "RoundsFired",
    "Stepped",
    "Swap",
    "Swapped",
    "TurnEnded",
    "UseItem",
    "Watch",
    "WatchSet",
    "WatchUsed",
    "Woke",
    "Wounded",
    "WoundsTreated",
]


# -- actions ----------------------------------------------------------------------------------


@record("arc.attack")
@dataclass(frozen=True, order=True)
class Attack(Action):
    """``unit`` attacks ``target`` with the weapon in hand, aiming ``aim`` AP first;
    ``take_one`` takes an automatic 0º success (target number 20 or more)."""

    unit: str
    target: str
    weapon: str
    aim: int = 0
    take_one: bool = False


@record("arc.reload")
@dataclass(frozen=True, order=True)
class Reload(Action):
    """``unit`` reloads the weapon in hand (clearing a jam)."""

    unit: str
    weapon: str


@record("arc.swap")
@dataclass(frozen=True, order=True)
class Swap(Action):
    """``unit`` takes ``weapon`` in hand."""

    unit: str
    weapon: str


@record("arc.use-item")
@dataclass(frozen=True, order=True)
class UseItem(Action):
    """``unit`` uses ``item`` on ``target`` (itself or an ally). An item that costs more AP
    than the turn has left is paid with speed (``pay="speed"``: that many AP fewer next
    round) or carried into the next turn (``pay="carry"``: begun with every AP left, finished
    when the next turn starts)."""

    unit: str
    item: str
    target: str
    pay: str = ""


@record("arc.move")
@dataclass(frozen=True, order=True)
class Move(Action):
    """``unit`` moves to the square ``to`` (``"x,y"``) by ``mode``: walk, slow, run, sprint."""

    unit: str
    to: str
    mode: str


@record("arc.reposition")
@dataclass(frozen=True, order=True)
class Reposition(Action):
    """Without a map: ``unit`` spends ``ap`` AP moving by ``mode`` toward ``other`` (or away
    from it), which changes the metres between the two (ARC-33)."""

    unit: str
    other: str
    mode: str
    ap: int
    away: bool = False


@record("arc.watch")
@dataclass(frozen=True, order=True)
class Watch(Action):
    """``unit`` commits ``ap`` AP to overwatch (one attack aimed ``aim`` AP) or to suppress
    (one unaimed attack per AP); its turn ends."""

    unit: str
    kind: str
    ap: int
    aim: int = 0


@record("arc.hold")
@dataclass(frozen=True, order=True)
class Hold(Action):
    """``unit`` holds its turn until after ``after``'s turn this round."""

    unit: str
    after: str


@record("arc.end-turn")
@dataclass(frozen=True, order=True)
class EndTurn(Action):
    """``unit`` ends its turn; AP left pays for reactions until the round ends."""

    unit: str


# -- events -----------------------------------------------------------------------------------


@record("arc.initiative-check")
@dataclass(frozen=True)
class InitiativeChecked(Event):
    """One character's initiative check: the roll, success and degree."""

    unit: str
    roll: int
    success: bool
    degree: int


@record("arc.initiative")
@dataclass(frozen=True)
class InitiativeRolled(Event):
    """The order everyone's initiative checks give; ``d10``: who rolls a d10 on its first
    turn's checks."""

    order: tuple[str, ...]
    d10: tuple[str, ...]


@record("arc.round")
@dataclass(frozen=True)
class RoundBegan(events.RoundStarted):
    """A round begins: each character's AP (its speed, less speed spent in advance)."""

    ap: tuple[tuple[str, int], ...] = ()


@record("arc.round-ended")
@dataclass(frozen=True)
class RoundEnded(Event):
    """Everyone acted, the wound dice were rolled."""

    round: int


@record("arc.held")
@dataclass(frozen=True)
class Held(Event):
    """``unit`` holds its turn until after ``after``'s."""

    unit: str
    after: str


@record("arc.turn-ended")
@dataclass(frozen=True)
class TurnEnded(Event):
    """``unit``'s turn is over."""

    unit: str


@record("arc.ap")
@dataclass(frozen=True)
class APSpent(Event):
    """``unit`` spent ``ap`` (``borrowed`` of them from its next round's speed) on ``what``;
    ``left``: its AP now."""

    unit: str
    ap: int
    left: int
    borrowed: int = 0
    what: str = ""


@record("arc.refund")
@dataclass(frozen=True)
class APRefunded(Event):
    """A successful Evade gives back what it cost (``borrowed``: speed)."""

    unit: str
    ap: int
    left: int
    borrowed: int = 0


@record("arc.loaded")
@dataclass(frozen=True)
class Loaded(Event):
    """``unit``'s ``weapon`` holds ``rounds`` (a reload, or the first load); a jam is
    cleared."""

    unit: str
    weapon: str
    rounds: int


@record("arc.swapped")
@dataclass(frozen=True)
class Swapped(Event):
    """``unit`` holds ``weapon`` now."""

    unit: str
    weapon: str


@record("arc.attacked")
@dataclass(frozen=True)
class Attacked(Event):
    """One attack: the check (target number, increment, die), its degree, the target's
    Evade if any (its degree and success), and the hits landed."""

    unit: str
    target: str
    weapon: str
    aim: int
    target_number: int
    increment: int
    die: int
    success: bool
    degree: int
    how: str = ""
    evade: tuple[bool, int] | None = None
    evaded: bool = False
    hits: int = 0
    reaction: str = ""


@record("arc.fired")
@dataclass(frozen=True)
class RoundsFired(Event):
    """``unit``'s ``weapon`` fired ``fired`` rounds; ``left`` remain."""

    unit: str
    weapon: str
    fired: int
    left: int


@record("arc.jammed")
@dataclass(frozen=True)
class Jammed(Event):
    """``unit``'s ``weapon`` jammed: it must be cleared (a reload) before firing again."""

    unit: str
    weapon: str


@record("arc.armor")
@dataclass(frozen=True)
class ArmorWorn(Event):
    """``unit``'s armor dice now (0: gone), in the order of its armor; ``absorbed`` hits
    were stopped, ``degraded`` dropped a die a step, ``destroyed``: massive damage."""

    unit: str
    armor: tuple[int, ...]
    absorbed: int = 0
    degraded: int = 0
    destroyed: bool = False


@record("arc.wounded")
@dataclass(frozen=True)
class Wounded(events.Damaged):
    """Hits reached health: ``health`` left, the wound dice added and now."""

    health: int = 0
    added: tuple[int, ...] = ()
    wounds: tuple[int, ...] = ()


@record("arc.bled")
@dataclass(frozen=True)
class Bled(events.Damaged):
    """The wound dice were rolled: ``health`` left."""

    health: int = 0


@record("arc.falling")
@dataclass(frozen=True)
class Falling(Event):
    """``unit`` is at or under 0 health in its own turn: it finishes the turn, then falls."""

    unit: str


@record("arc.fell")
@dataclass(frozen=True)
class Fell(events.OutOfAction):
    """``unit`` falls unconscious."""


@record("arc.died")
@dataclass(frozen=True)
class Died(events.OutOfAction):
    """``unit`` is dead: ``reason`` says why."""

    reason: str = ""


@record("arc.woke")
@dataclass(frozen=True)
class Woke(Event):
    """``unit`` is back above 0 health and conscious."""

    unit: str


@record("arc.checked")
@dataclass(frozen=True)
class Checked(Event):
    """A check outside an attack (Medicine): who, which skill, the result."""

    unit: str
    skill: str
    target_number: int
    success: bool
    degree: int


@record("arc.item-used")
@dataclass(frozen=True)
class ItemUsed(Event):
    """``unit`` used ``item`` on ``target``; ``left`` of them remain."""

    unit: str
    item: str
    target: str
    left: int


@record("arc.item-begun")
@dataclass(frozen=True)
class ItemBegun(Event):
    """``unit`` began ``item`` on ``target`` and owes ``owed`` AP: it finishes it when its
    next turn starts (falling before loses it)."""

    unit: str
    item: str
    target: str
    owed: int


@record("arc.item-finished")
@dataclass(frozen=True)
class ItemFinished(Event):
    """``unit`` finishes the item it carried over (``lost``: why it does nothing)."""

    unit: str
    item: str
    target: str
    lost: str = ""


@record("arc.healed")
@dataclass(frozen=True)
class Healed(Event):
    """``unit`` regained ``amount`` health (``health`` now)."""

    unit: str
    amount: int
    health: int


@record("arc.treated")
@dataclass(frozen=True)
class WoundsTreated(Event):
    """``unit``'s wound dice now (steps removed, or a step added by a failed bandage)."""

    unit: str
    wounds: tuple[int, ...]


@record("arc.stepped")
@dataclass(frozen=True)
class Stepped(events.Moved):
    """``unit`` entered the square ``to``."""

    to: str = ""


@record("arc.repositioned")
@dataclass(frozen=True)
class Repositioned(events.Moved):
    """Without a map: the metres between ``unit`` and ``other`` are now ``metres`` (an exact
    fraction written as text, ``"2553/100"``)."""

    other: str = ""
    metres: str = ""


@record("arc.watch-set")
@dataclass(frozen=True)
class WatchSet(Event):
    """``unit`` watches (``overwatch`` or ``suppress``) with ``ap`` committed AP; a
    suppression rolled when declared (ARC-32 ``declared``) keeps that check's ``roll``,
    ``degree`` and ``how`` for every attack it triggers (``degree`` None: each rolls)."""

    unit: str
    kind: str
    ap: int
    aim: int = 0
    roll: int = 0
    degree: int | None = None
    how: str = ""


@record("arc.watch-used")
@dataclass(frozen=True)
class WatchUsed(Event):
    """``unit``'s watch fired; ``left`` committed AP remain (0: it is over)."""

    unit: str
    left: int
