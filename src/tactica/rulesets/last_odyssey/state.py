"""The state of a Last Odyssey battle, its derived statistics, and the one place it changes.

A :class:`Fighter` is one character on the field (an enemy or a player character). Its fields
are immutable values (tuples, frozensets), so copying a state is copying a few small objects.
:func:`apply_event` is the only code that changes a state; rule processes emit events and read
the state they leave through the core's working state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tactica.battlefield.rows import Rows
from tactica.engine.ruleset import Rulings
from tactica.rulesets.last_odyssey import melee
from tactica.rulesets.last_odyssey.content import (
    ACCURACIES,
    Ability,
    Pack,
    Template,
    Weapon,
    stat_index,
)
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    Advanced,
    AmmoChanged,
    APSpent,
    AttackResolved,
    CoinCalled,
    Damaged,
    Disarmed,
    Downed,
    Equipped,
    Fled,
    Healed,
    HeldAP,
    HeldOn,
    InitiativeRolled,
    Intercepted,
    ItemStolen,
    ItemUsed,
    ManaChanged,
    Moved,
    PhaseStarted,
    Retargeted,
    RoundEnded,
    ShellGained,
    StatusesCured,
    StatusGained,
    TrackMoved,
    TurnEnded,
)

__all__ = [
    "WORLD",
    "Fighter",
    "LodState",
    "Turn",
    "apply_event",
    "copy_state",
    "element_of",
    "first_strike_order",
    "new_fighter",
    "stat",
]


@dataclass
class Fighter:
    """One character in a battle (changed only by :func:`apply_event`)."""

    id: str
    side: str
    template: Template
    player: bool
    tier: int
    hp: int
    mp: int
    max_hp: int
    max_mp: int
    abilities: tuple[str, ...]
    passives: frozenset[str]
    shells: tuple[tuple[str, int], ...] = ()
    shell_cap: int = 0
    statuses: frozenset[str] = frozenset()
    track: tuple[int, ...] = ()
    items: tuple[str, ...] = ()
    equipped: Weapon | None = None
    dropped: Weapon | None = None
    ammo: int = 0
    used_once: frozenset[str] = frozenset()
    body_armor_spent: bool = False
    downed: bool = False
    knocked_out: bool = False
    #: At 0 HP with Too Stupid to Die, taken there by a knock-out attack (see HeldOn).
    held_knocked_out: bool = False
    fled: bool = False
    stolen: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The template's name (``Cop``, ``Rook``)."""
        return self.template.name

    @property
    def standing(self) -> bool:
        """Still in the battle: neither downed nor fled."""
        return not self.downed and not self.fled

    @property
    def shell(self) -> int:
        """The amount of the active (newest) Shell, 0 without one."""
        return self.shells[-1][1] if self.shells else 0

    @property
    def shell_total(self) -> int:
        """All Shells together."""
        return sum(a for _, a in self.shells)


@dataclass(frozen=True)
class Turn:
    """One turn in a phase's queue: ``unit`` with ``ap`` AP (``extra``: a held turn)."""

    unit: str
    ap: int
    extra: bool = False


@dataclass
class LodState:
    """The whole state of a Last Odyssey battle."""

    pack: Pack
    rulings: Rulings
    rows: Rows
    fighters: dict[str, Fighter]
    sides: tuple[str, ...]
    max_rounds: int
    first_strike: str | None = None
    order: tuple[str, ...] = ()
    round: int = 0
    phase: str = "setup"
    queue: tuple[Turn, ...] = ()
    ap: int = 0
    held: tuple[tuple[str, str], ...] = ()
    held_by: frozenset[str] = frozenset()

    def standing(self, side: str | None = None) -> list[Fighter]:
        """Characters still in the battle (of ``side``), in scenario order."""
        return [f for f in self.fighters.values()
                if f.standing and (side is None or f.side == side)]

    @property
    def active(self) -> str | None:
        """The character whose turn it is, if any."""
        return self.queue[0].unit if self.queue else None

    def ability(self, name: str) -> Ability:
        """An ability or item of the content pack."""
        return self.pack.ability(name)


# --------------------------------------------------------------------------------------------
# Derived statistics


def stat(state: LodState, f: Fighter, name: str) -> int:
    """A statistic as it counts now: base, weapon, the bonus track, Petrified and Blinded.

    Petrified halves base Evasion (rounded down) before buffs; Blinded halves the accuracies
    (rounded down) after buffs.
    """
    i = stat_index(name)
    base = f.template.base[i] + (f.equipped.bonus[i] if f.equipped is not None else 0)
    buff = state.pack.figures.bonus_track[f.track[i]]
    if name == "eva" and "petrified" in f.statuses:
        return base // 2 + buff
    value = base + buff
    if name in ACCURACIES and "blinded" in f.statuses:
        value //= 2
    return value


def element_of(f: Fighter) -> str:
    """The element a character defends with: its Shell's while a Shell is up, else its own."""
    return f.shells[-1][0] if f.shells else f.template.element


# --------------------------------------------------------------------------------------------
# The turn queue


def first_strike_order(state: LodState) -> tuple[str, ...]:
    """The free turns of the side with the upper hand, before initiative is called (LOD-24):
    highest Initiative statistic first, ties in the scenario's order (or that order alone)."""
    listed = list(state.fighters)
    side = [f for f in state.fighters.values() if f.side == state.first_strike and f.standing]
    if state.rulings["LOD-24"] == "listed":
        return tuple(f.id for f in side)
    return tuple(f.id for f in sorted(side, key=lambda f: (-f.template.initiative,
                                                           listed.index(f.id))))



def _drop_head(state: LodState) -> None:
    """Remove the turn at the head of the queue; turns held after it come next."""
    head = state.queue[0]
    rest = state.queue[1:]
    if not head.extra:
        ap = state.pack.figures.held_turn_ap
        extra = tuple(Turn(holder, ap, True) for holder, after in state.held
                      if after == head.unit and state.fighters[holder].standing)
        rest = extra + rest
    state.queue = rest


def _pop(state: LodState) -> None:
    """End the turn at the head of the queue."""
    _drop_head(state)
    _settle(state)


def _settle(state: LodState) -> None:
    """Skip turns of characters no longer in the battle; set the AP of the turn at the head."""
    while state.queue and not state.fighters[state.queue[0].unit].standing:
        _drop_head(state)
    state.ap = state.queue[0].ap if state.queue else 0


def _start_phase(state: LodState, event: PhaseStarted) -> None:
    state.round = event.round
    state.phase = event.phase
    figures = state.pack.figures
    if event.phase == "action":
        state.queue = tuple(Turn(u, figures.ap_for(state.fighters[u].tier)) for u in state.order
                            if state.fighters[u].standing)
    elif event.phase == "first-strike":
        state.queue = tuple(Turn(u, figures.first_strike_ap) for u in first_strike_order(state))
    else:
        state.queue = ()
    state.held = ()
    state.held_by = frozenset()
    _settle(state)


# --------------------------------------------------------------------------------------------
# Events


def _f(state: LodState, unit: str) -> Fighter:
    return state.fighters[unit]


def _ap_spent(state: LodState, e: APSpent) -> None:
    if state.active == e.unit:
        state.ap = e.left
        if e.left <= 0:
            _pop(state)


def _turn_ended(state: LodState, e: TurnEnded) -> None:
    if state.active == e.unit:
        _pop(state)


def _held(state: LodState, e: HeldAP) -> None:
    state.held = (*state.held, (e.unit, e.after))
    state.held_by = state.held_by | {e.unit}


def _moved(state: LodState, e: Moved) -> None:
    state.rows = state.rows.with_moved(e.unit, "front" if e.row == "front" else "back")


def _ability_used(state: LodState, e: AbilityUsed) -> None:
    f = _f(state, e.unit)
    f.mp -= e.mp
    f.ammo -= e.ammo
    if state.ability(e.ability).once_per_battle:
        f.used_once = f.used_once | {e.ability}


def _attack(state: LodState, e: AttackResolved) -> None:
    if e.note == "body-armor":
        _f(state, e.target).body_armor_spent = True


def _damaged(state: LodState, e: Damaged) -> None:
    f = _f(state, e.unit)
    if f.shells and (e.to_shell > 0 or e.broken):
        element, _ = f.shells[-1]
        f.shells = f.shells[:-1] + (((element, e.shell),) if e.shell > 0 else ())
    f.hp = e.hp


def _held_on(state: LodState, e: HeldOn) -> None:
    _f(state, e.unit).held_knocked_out = e.knocked_out


def _downed(state: LodState, e: Downed) -> None:
    f = _f(state, e.unit)
    f.downed = True
    f.knocked_out = e.knocked_out
    f.hp = 0
    state.rows = state.rows.without(e.unit)
    if state.active == e.unit:
        _pop(state)


def _fled(state: LodState, e: Fled) -> None:
    _f(state, e.unit).fled = True
    state.rows = state.rows.without(e.unit)
    if state.active == e.unit:
        _pop(state)


def _status(state: LodState, e: StatusGained) -> None:
    f = _f(state, e.unit)
    f.statuses = f.statuses | {e.status}


def _cured(state: LodState, e: StatusesCured) -> None:
    f = _f(state, e.unit)
    f.statuses = f.statuses - set(e.statuses)


def _track(state: LodState, e: TrackMoved) -> None:
    f = _f(state, e.unit)
    i = stat_index(e.stat)
    track = list(f.track)
    track[i] = state.pack.figures.bonus_track.index(e.value)
    f.track = tuple(track)


def _healed(state: LodState, e: Healed) -> None:
    _f(state, e.unit).hp = e.hp


def _mana(state: LodState, e: ManaChanged) -> None:
    _f(state, e.unit).mp = e.mp


def _shell(state: LodState, e: ShellGained) -> None:
    f = _f(state, e.unit)
    if state.rulings["LOD-10"] == "single":
        f.shells = ((e.element, e.total),)
    else:
        f.shells = (*((el, a) for el, a in f.shells if el != e.element), (e.element, e.total))


def _ammo(state: LodState, e: AmmoChanged) -> None:
    _f(state, e.unit).ammo = e.ammo


def _without_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]


def _item_used(state: LodState, e: ItemUsed) -> None:
    f = _f(state, e.unit)
    f.items = _without_one(f.items, e.item)


def _stolen(state: LodState, e: ItemStolen) -> None:
    victim, thief = _f(state, e.victim), _f(state, e.thief)
    victim.items = _without_one(victim.items, e.item)
    thief.stolen = (*thief.stolen, e.item)


def _disarmed(state: LodState, e: Disarmed) -> None:
    f = _f(state, e.unit)
    f.dropped = f.equipped
    f.equipped = None


def _equipped(state: LodState, e: Equipped) -> None:
    f = _f(state, e.unit)
    if f.dropped is not None and f.dropped.name == e.weapon:
        f.dropped = None
    f.equipped = next(w for w in f.template.weapons if w.name == e.weapon)


def _advanced(state: LodState, e: Advanced) -> None:
    state.rows = melee.advance(state.rows, e.side, on=e.on)


def _initiative(state: LodState, e: InitiativeRolled) -> None:
    state.order = e.order


def _round_ended(state: LodState, e: RoundEnded) -> None:
    state.phase = "round-end"
    state.queue = ()


def _nothing(state: LodState, e: Any) -> None:
    return None


_HANDLERS: dict[type, Callable[[LodState, Any], None]] = {
    InitiativeRolled: _initiative,
    PhaseStarted: _start_phase,
    RoundEnded: _round_ended,
    APSpent: _ap_spent,
    TurnEnded: _turn_ended,
    HeldAP: _held,
    Moved: _moved,
    AbilityUsed: _ability_used,
    CoinCalled: _nothing,
    Retargeted: _nothing,
    AttackResolved: _attack,
    Intercepted: _nothing,
    Damaged: _damaged,
    Downed: _downed,
    HeldOn: _held_on,
    Fled: _fled,
    StatusGained: _status,
    StatusesCured: _cured,
    TrackMoved: _track,
    Healed: _healed,
    ManaChanged: _mana,
    ShellGained: _shell,
    AmmoChanged: _ammo,
    ItemUsed: _item_used,
    ItemStolen: _stolen,
    Disarmed: _disarmed,
    Equipped: _equipped,
    Advanced: _advanced,
}


def apply_event(state: LodState, event: Any) -> None:
    """The only place a Last Odyssey battle changes."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not a Last Odyssey event: {event!r}")
    handler(state, event)


def copy_state(state: LodState) -> LodState:
    """An independent copy (fighters copied; rows, pack and rulings are immutable)."""
    new = _shallow(state)
    new.fighters = {k: _shallow(v) for k, v in state.fighters.items()}
    return new


_T = TypeVar("_T")


def _shallow(obj: _T) -> _T:
    """What ``copy.copy`` makes of a plain dataclass instance, without its generic machinery
    (a process that observes its state copies it at every step)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def new_fighter(uid: str, side: str, template: Template, pack: Pack, *, abilities: tuple[str, ...],
                zero: int) -> Fighter:
    """A fresh fighter from a template (scenario overrides are applied by the caller)."""
    passives = frozenset(
        a.passive for a in (pack.abilities[n] for n in abilities) if a.passive is not None
    )
    shells = (template.shell,) if template.shell is not None else ()
    cap = template.hp if template.player else (template.shell[1] if template.shell else 0)
    return Fighter(
        id=uid, side=side, template=template, player=template.player, tier=template.tier,
        hp=template.hp, mp=template.mp, max_hp=template.hp, max_mp=template.mp,
        abilities=abilities, passives=passives, shells=shells, shell_cap=cap,
        track=(zero,) * len(template.base), items=template.items,
        equipped=template.weapons[0] if template.weapons else None, ammo=template.ammo,
    )


class _World:
    """The state's copy and change, for drivers that keep a working state (Observe)."""

    copy_state = staticmethod(copy_state)
    apply_event = staticmethod(apply_event)


#: What :func:`tactica.engine.chance.run_exact` needs to show Last Odyssey processes their state.
WORLD = _World()
