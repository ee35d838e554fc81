"""Last Odyssey actions and events: frozen, serialisable records."""

from __future__ import annotations

from dataclasses import dataclass, field

from tactica.engine import events
from tactica.engine.events import Action, Event, record

__all__ = [
    "APSpent",
    "AbilityUsed",
    "Advanced",
    "AmmoChanged",
    "AttackResolved",
    "CoinCalled",
    "Damaged",
    "Disarmed",
    "Downed",
    "EndTurn",
    "Equipped",
    "Fled",
    "Flee",
    "Healed",
    "HeldAP",
    "HeldOn",
    "HoldAP",
    "InitiativeRolled",
    "Intercepted",
    "ItemStolen",
    "ItemUsed",
    "ManaChanged",
    "Move",
    "Moved",
    "PhaseStarted",
    "PickUp",
    "Retargeted",
    "RoundEnded",
    "ShellGained",
    "StatusGained",
    "StatusesCured",
    "SwapEquipment",
    "TrackMoved",
    "TurnEnded",
    "UseAbility",
    "UseItem",
]


# -- actions ----------------------------------------------------------------------------------


@record("lod.ability")
@dataclass(frozen=True, order=True)
class UseAbility(Action):
    """``unit`` uses ``ability`` (the Basic Attack included) on ``targets``.

    ``element`` is the element chosen for an ability that lets its user choose one;
    ``knockout`` declares a player's attack as meant to knock out rather than kill.
    """

    unit: str
    ability: str
    targets: tuple[str, ...]
    element: str = ""
    knockout: bool = False


@record("lod.item")
@dataclass(frozen=True, order=True)
class UseItem(Action):
    """``unit`` uses a battle item on ``target`` (1 AP)."""

    unit: str
    item: str
    target: str


@record("lod.move")
@dataclass(frozen=True, order=True)
class Move(Action):
    """``unit`` moves to the other row of its side (1 AP)."""

    unit: str
    row: str


@record("lod.hold")
@dataclass(frozen=True, order=True)
class HoldAP(Action):
    """``unit`` holds AP (1 AP, once a round) for one extra turn right after ``after``'s."""

    unit: str
    after: str


@record("lod.swap")
@dataclass(frozen=True, order=True)
class SwapEquipment(Action):
    """``unit`` equips another weapon it carries (1 AP)."""

    unit: str
    weapon: str


@record("lod.pick-up")
@dataclass(frozen=True, order=True)
class PickUp(Action):
    """``unit`` picks up the weapon it dropped (1 AP)."""

    unit: str


@record("lod.flee")
@dataclass(frozen=True, order=True)
class Flee(Action):
    """``unit`` flees the battle from the back row."""

    unit: str


@record("lod.end-turn")
@dataclass(frozen=True, order=True)
class EndTurn(Action):
    """``unit`` ends its turn, giving up the AP it has left."""

    unit: str


# -- events -----------------------------------------------------------------------------------


@record("lod.initiative")
@dataclass(frozen=True)
class InitiativeRolled(Event):
    """The initiative order for the battle: the players' calls, the GM's 2d4 (if any players),
    who called it exactly (Initiative x 1.5) and the order, first to act first."""

    calls: tuple[tuple[str, int], ...]
    roll: int
    boosted: tuple[str, ...]
    order: tuple[str, ...]


@record("lod.phase")
@dataclass(frozen=True)
class PhaseStarted(events.RoundStarted):
    """A phase of ``round`` begins: paradigm (which opens the round), first-strike, action or
    effect."""

    phase: str


@record("lod.round-ended")
@dataclass(frozen=True)
class RoundEnded(Event):
    """``round`` is over."""

    round: int


@record("lod.ap-spent")
@dataclass(frozen=True)
class APSpent(Event):
    """``unit`` spent ``amount`` AP and has ``left`` this turn (at 0 the turn ends)."""

    unit: str
    amount: int
    left: int


@record("lod.turn-ended")
@dataclass(frozen=True)
class TurnEnded(Event):
    """``unit`` ended its turn."""

    unit: str


@record("lod.held")
@dataclass(frozen=True)
class HeldAP(Event):
    """``unit`` will take an extra turn right after ``after``'s turn this round."""

    unit: str
    after: str


@record("lod.moved")
@dataclass(frozen=True)
class Moved(events.Moved):
    """``unit`` is now in ``row`` of its side (``free``: by a passive, no AP)."""

    row: str
    free: bool = False


@record("lod.ability-used")
@dataclass(frozen=True)
class AbilityUsed(Event):
    """``unit`` used ``ability`` on ``targets``, paying ``mp`` MP and ``ammo`` Ammo."""

    unit: str
    ability: str
    targets: tuple[str, ...]
    mp: int = 0
    ammo: int = 0
    element: str = ""
    knockout: bool = False
    free: bool = False


@record("lod.coin")
@dataclass(frozen=True)
class CoinCalled(Event):
    """Confused ``unit`` called a coin: won, the ability goes where it was aimed."""

    unit: str
    won: bool


@record("lod.retargeted")
@dataclass(frozen=True)
class Retargeted(Event):
    """Confused ``unit``'s ability goes to ``target``, picked by ``side``."""

    unit: str
    side: str
    target: str


@record("lod.attack")
@dataclass(frozen=True)
class AttackResolved(Event):
    """One target's result of a hit die: the roll's total against the threshold, and damage.

    ``total`` is die - accuracy + evasion (or resistance); ``hit`` says whether it landed
    (``how``: ``roll``, ``natural 1``, ``auto-fail``, ``immune``, ``unavoidable``). ``base``
    is the base damage, ``multiplier`` the product of every multiplier (as text, exact) and
    ``damage`` the final damage; ``status`` is the status inflicted, if any.
    """

    unit: str
    ability: str
    target: str
    kind: str
    die: int
    total: int
    threshold: int
    hit: bool
    how: str
    base: int = 0
    multiplier: str = "1"
    damage: int = 0
    status: str = ""
    note: str = ""


@record("lod.intercepted")
@dataclass(frozen=True)
class Intercepted(Event):
    """``protector`` (Faithful) takes the attack that would have downed ``protected``."""

    protector: str
    protected: str


@record("lod.damaged")
@dataclass(frozen=True)
class Damaged(events.Damaged):
    """``unit`` took damage from ``source``: ``to_shell`` into its top Shell, ``to_hp`` off
    its HP; ``shell`` and ``hp`` are what is left, ``broken`` says the Shell broke.
    ``amount`` (Shell and HP together) is derived, not written to logs."""

    unit: str
    amount: int = field(init=False)
    source: str | None
    to_shell: int
    to_hp: int
    shell: int
    hp: int
    broken: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", self.to_shell + self.to_hp)


@record("lod.downed")
@dataclass(frozen=True)
class Downed(events.OutOfAction):
    """``unit`` is downed (``knocked_out``: temporarily incapacitated instead of killed)."""

    knocked_out: bool = False
    by: str = ""


@record("lod.held-on")
@dataclass(frozen=True)
class HeldOn(Event):
    """``unit`` is at 0 HP but Too Stupid to Die keeps it in the battle until the Effect
    phase, where it falls; ``knocked_out``: the blow that took it to 0 HP was a player's
    knock-out attack, so it will fall knocked out rather than killed."""

    unit: str
    knocked_out: bool = False
    by: str = ""


@record("lod.status")
@dataclass(frozen=True)
class StatusGained(Event):
    """``unit`` gained ``status``."""

    unit: str
    status: str


@record("lod.cured")
@dataclass(frozen=True)
class StatusesCured(Event):
    """``unit`` lost ``statuses``."""

    unit: str
    statuses: tuple[str, ...]


@record("lod.track")
@dataclass(frozen=True)
class TrackMoved(Event):
    """``unit``'s ``stat`` moved on the bonus track to ``value`` (``step`` +1 buff, -1
    debuff)."""

    unit: str
    stat: str
    step: int
    value: int


@record("lod.healed")
@dataclass(frozen=True)
class Healed(Event):
    """``unit`` regained ``amount`` HP (``hp`` now)."""

    unit: str
    amount: int
    hp: int


@record("lod.mana")
@dataclass(frozen=True)
class ManaChanged(Event):
    """``unit``'s MP changed by ``amount`` (``mp`` now)."""

    unit: str
    amount: int
    mp: int


@record("lod.shell")
@dataclass(frozen=True)
class ShellGained(Event):
    """``unit`` gained a Shell of ``element``: ``amount`` added, ``total`` in that Shell now."""

    unit: str
    element: str
    amount: int
    total: int


@record("lod.ammo")
@dataclass(frozen=True)
class AmmoChanged(Event):
    """``unit`` has ``ammo`` Ammo now."""

    unit: str
    ammo: int


@record("lod.item-used")
@dataclass(frozen=True)
class ItemUsed(Event):
    """``unit`` used (and lost) ``item`` on ``target``."""

    unit: str
    item: str
    target: str


@record("lod.stolen")
@dataclass(frozen=True)
class ItemStolen(Event):
    """``thief`` took ``item`` from ``victim``."""

    thief: str
    victim: str
    item: str


@record("lod.disarmed")
@dataclass(frozen=True)
class Disarmed(Event):
    """``unit`` dropped ``weapon`` (picking it up costs 1 AP)."""

    unit: str
    weapon: str


@record("lod.equipped")
@dataclass(frozen=True)
class Equipped(Event):
    """``unit`` now wields ``weapon``."""

    unit: str
    weapon: str


@record("lod.advanced")
@dataclass(frozen=True)
class Advanced(Event):
    """``side`` advanced on ``on``: all of ``on`` now stands in its front row."""

    side: str
    on: str


@record("lod.fled")
@dataclass(frozen=True)
class Fled(events.OutOfAction):
    """``unit`` fled the battle."""
