"""The state of a Skirmishers battle, and the one function that changes it (:func:`apply_event`).

Troopers are frozen :class:`Soldier` values replaced on every change, so copying a state (for
the working state a process observes mid-move) is a shallow copy of a few dicts. The dot
lattice holds the troopers' places and poses; it is immutable too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from tactica.battlefield.dots.geometry import Axial, axial_to_offset
from tactica.battlefield.dots.lattice import DotLattice, DotPlace
from tactica.engine.copying import FRESH, copy_state
from tactica.engine.rulings import Rulings
from tactica.engine.statekey import declare_key
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.card import CROSSED, current_hp, protected_cells
from tactica.rulesets.skirmishers.content import Armor, Card, Experience
from tactica.rulesets.skirmishers.geometry import SIGHT_RULINGS
from tactica.rulesets.skirmishers.setup import SkirmishersSetup

__all__ = [
    "Arc",
    "PendingMelee",
    "SkiState",
    "Soldier",
    "Token",
    "apply_event",
    "copy_state",
    "setup_consulted",
    "spot_text",
]


@dataclass(frozen=True)
class Arc:
    """A firing arc: its width, its axis (a bearing in degrees, or toward a dot), the shots
    left and the weapon it was established with."""

    width: int
    bearing: int | float | None
    toward: str | None
    shots: int
    weapon: str


@dataclass(frozen=True)
class Token:
    """An explosive thrown this turn, waiting for the end of the side's turn."""

    unit: str
    explosive: str
    at: str
    ap: int
    base: int
    tn: int
    origin: str
    stairwell: bool


@dataclass(frozen=True)
class PendingMelee:
    """A melee attack paid for, resolved when its target activates."""

    unit: str
    target: str
    weapon: str


@dataclass(frozen=True)
class Soldier:
    """One trooper: its card, kit and what it did this turn."""

    id: str
    side: str
    card: Card
    armor: Armor
    experience: Experience
    weapons: tuple[str, ...]
    explosives: tuple[tuple[str, int], ...]
    active: str
    fallback: str
    marks: str
    armor_left: int
    prone: bool = False
    out: bool = False
    dead: bool = False
    retreated: bool = False
    ap_spent: int = 0
    move_spent: int = 0
    activated: bool = False
    stopped: bool = False
    fought: bool = False
    threw: bool = False
    arc_made: bool = False
    arc: Arc | None = None
    shot_by: frozenset[str] = frozenset()

    @property
    def in_action(self) -> bool:
        """Still fighting: not out of action, not retreated."""
        return not (self.out or self.retreated)

    @property
    def hp(self) -> int:
        """The current HP (0 when dead)."""
        return 0 if self.dead else current_hp(self.marks)

    def ammo(self, explosive: str) -> int:
        """How many of an explosive it carries."""
        return dict(self.explosives).get(explosive, 0)


@dataclass
class SkiState:
    """The whole state of a Skirmishers battle."""

    lattice: DotLattice
    troopers: dict[str, Soldier]
    setup: SkirmishersSetup
    rulings: Rulings
    max_rounds: int
    round: int = 0
    side: str | None = None
    order: tuple[str, ...] = ()
    active: str | None = None
    tokens: tuple[Token, ...] = ()
    melee: tuple[PendingMelee, ...] = ()
    shaken: frozenset[str] = frozenset()
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False,
                                 metadata=FRESH)

    # -- reading -------------------------------------------------------------------------------

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides, in order."""
        return self.setup.sides

    def option(self, name: str) -> bool:
        """Whether an optional rule is in force."""
        return name in self.setup.optional

    def alive(self, side: str | None = None) -> list[Soldier]:
        """The troopers in action (of ``side``), in scenario order."""
        return [t for t in self.troopers.values()
                if t.in_action and (side is None or t.side == side)]

    def place(self, uid: str) -> DotPlace:
        """Where a trooper stands."""
        return self.lattice.locate(uid)

    def spot(self, uid: str) -> tuple[Axial, int]:
        """A trooper's axial dot and level."""
        t = self.lattice.trooper(uid)
        return t.dot, t.level

    def protected(self, t: Soldier) -> frozenset[int]:
        """The HP cells its advanced body armor protects (empty without the optional rule)."""
        if not self.option("advanced-armor"):
            return frozenset()
        return protected_cells(t.armor.cells, self.rulings["SKI-30"])

    def armor_destroyed(self, t: Soldier) -> bool:
        """Whether its body armor has no cell left (SKI-25)."""
        if t.armor.cells == 0:
            return False
        if self.option("advanced-armor"):
            from tactica.rulesets.skirmishers.card import CELLS

            return all(t.marks[CELLS.index(c)] == CROSSED for c in self.protected(t))
        return t.armor_left == 0

    def ap_change(self, t: Soldier) -> int:
        """Armor's and (optional rule) experience's change to every AP value."""
        change = t.armor.ap
        # SKI-25 decides only for destroyed armor that changes the AP (consulted then)
        if change and self.armor_destroyed(t) and self.rulings["SKI-25"] == "lifted":
            change = 0
        if self.option("experience"):
            change += t.experience.ap
        return change

    def max_ap(self, t: Soldier, marks: str | None = None) -> int:
        """The trooper's current maximum AP (or with other ``marks``)."""
        if t.dead:
            return 0
        return t.card.max_ap(current_hp(t.marks if marks is None else marks), self.ap_change(t))

    def available(self, t: Soldier) -> int:
        """The AP it may still spend this turn."""
        return max(0, self.max_ap(t) - t.ap_spent)

    def modifier(self, t: Soldier) -> int:
        """The target number modifier of its attacks (its damage)."""
        return t.card.modifier(t.hp)

    def dead_count(self, side: str) -> int:
        """The troopers of a side that count as dead for morale (SKI-32)."""
        out = self.rulings["SKI-32"] == "out"
        return sum(1 for t in self.troopers.values()
                   if t.side == side and (t.dead or (out and t.out)))


def setup_consulted(state: SkiState) -> tuple[str, ...]:
    """The rulings a battle consults from its setup (:mod:`tactica.engine.consulted`): the
    sight rulings, which every shot, arc, throw and valuation of the greedy policy reads, and
    SKI-25 when a trooper starts with destroyed body armor that changes its AP (its maximum AP
    reads the ruling from then on). The compiled kernel counts the same (``kernel.py``)."""
    destroyed = any(t.armor.ap and state.armor_destroyed(t) for t in state.troopers.values())
    return (*SIGHT_RULINGS, *(("SKI-25",) if destroyed else ()))


def _put(state: SkiState, t: Soldier, **changes: Any) -> Soldier:
    new = replace(t, **changes)
    state.troopers[t.id] = new
    return new


def _spend(state: SkiState, uid: str, ap: int, *, moving: bool) -> None:
    t = state.troopers[uid]
    _put(state, t, ap_spent=t.ap_spent + ap, move_spent=t.move_spent + (ap if moving else 0))


def _end_activation(state: SkiState, uid: str) -> None:
    if state.active == uid:
        state.active = None


def _after_combat(state: SkiState, uid: str) -> None:
    t = state.troopers[uid]
    _put(state, t, fought=True)
    if state.rulings["SKI-27"] == "one":
        _end_activation(state, uid)


def _check_spent(state: SkiState, uid: str) -> None:
    """An activation with no AP left ends by itself."""
    t = state.troopers[uid]
    if state.active == uid and state.available(t) == 0:
        state.active = None


def _arcs_hold_again(state: SkiState, uid: str) -> frozenset[str]:
    """SKI-18 arc-entry: the firers whose arcs still hold the trooper keep their mark."""
    from tactica.rulesets.skirmishers.arcs import arc_holds

    t = state.troopers[uid]
    keep = set()
    for f in t.shot_by:
        firer = state.troopers[f]
        if firer.arc is not None and firer.in_action and arc_holds(state, f, uid):
            keep.add(f)
    return frozenset(keep)


def apply_event(state: SkiState, event: Any) -> None:
    """The only place a Skirmishers battle changes."""
    tr = state.troopers
    if isinstance(event, r.TurnBegan):
        state.round = event.round
        state.order = event.order
        state.side = event.side
        state.active = None
        state.shaken = frozenset()
        for uid, t in tr.items():
            tr[uid] = replace(t, ap_spent=0, move_spent=0, activated=False, stopped=False,
                              fought=False, threw=False, arc_made=False)
    elif isinstance(event, r.ArcsRemoved):
        for uid in event.units:
            tr[uid] = replace(tr[uid], arc=None)
    elif isinstance(event, r.MoraleChecked):
        if not event.passed:
            state.shaken = state.shaken | {event.side}
    elif isinstance(event, r.Retreated):
        for uid, t in tr.items():
            if t.side == event.side and t.in_action:
                tr[uid] = replace(t, retreated=True, arc=None)
    elif isinstance(event, r.Activated):
        tr[event.unit] = replace(tr[event.unit], activated=True, shot_by=frozenset())
        state.active = event.unit
    elif isinstance(event, r.Stepped):
        place = state.lattice.locate(event.to)
        state.lattice = state.lattice.move_occupant(event.unit, place)
        t = tr[event.unit]
        if state.rulings["SKI-18"] == "arc-entry":
            shot_by = _arcs_hold_again(state, event.unit)
        else:
            shot_by = frozenset()
        tr[event.unit] = replace(t, ap_spent=t.ap_spent + event.ap,
                                 move_spent=t.move_spent + event.ap, shot_by=shot_by)
        _check_spent(state, event.unit)
    elif isinstance(event, r.MoveHalted):
        pass
    elif isinstance(event, r.PoseChanged):
        state.lattice = state.lattice.with_pose(event.unit, prone=event.prone)
        t = tr[event.unit]
        moving = state.active == event.unit
        tr[event.unit] = replace(t, prone=event.prone, ap_spent=t.ap_spent + event.ap,
                                 move_spent=t.move_spent + (event.ap if moving else 0))
        _check_spent(state, event.unit)
    elif isinstance(event, r.WeaponChanged):
        t = tr[event.unit]
        fallback = event.weapon if event.weapon in state.setup.pack.weapons else t.fallback
        tr[event.unit] = replace(t, active=event.weapon, fallback=fallback)
        _spend(state, event.unit, event.ap, moving=True)
        _check_spent(state, event.unit)
    elif isinstance(event, r.EquipmentTaken):
        _take(state, event)
        _spend(state, event.unit, event.ap, moving=True)
        _check_spent(state, event.unit)
    elif isinstance(event, r.WeaponDropped):
        t = tr[event.unit]
        weapons = tuple(w for w in t.weapons if w != event.weapon)
        active = t.active if t.active != event.weapon else "fists"
        fallback = t.fallback if t.fallback != event.weapon else next(
            (w for w in weapons if w in state.setup.pack.weapons), "fists")
        tr[event.unit] = replace(t, weapons=weapons, active=active, fallback=fallback)
    elif isinstance(event, r.ArcEstablished):
        t = tr[event.unit]
        tr[event.unit] = replace(t, arc=Arc(event.width, event.bearing, event.toward,
                                            event.shots, event.weapon), arc_made=True)
        _spend(state, event.unit, event.ap, moving=False)
        _after_combat(state, event.unit)
        _check_spent(state, event.unit)
    elif isinstance(event, r.FireDeclared):
        counts = state.rulings["SKI-36"] == "counts"
        t = tr[event.unit]
        tr[event.unit] = replace(t, ap_spent=t.ap_spent + event.ap,
                                 move_spent=t.move_spent + (event.ap if counts else 0))
        _check_spent(state, event.unit)
    elif isinstance(event, r.ShotFired):
        _shot(state, event)
    elif isinstance(event, r.Hit):
        t = tr[event.unit]
        tr[event.unit] = replace(t, marks=event.marks, armor_left=event.armor,
                                 dead=t.dead or event.dead)
    elif isinstance(event, r.FellProne):
        state.lattice = state.lattice.with_pose(event.unit, prone=True)
        tr[event.unit] = replace(tr[event.unit], prone=True, stopped=True)
        _end_activation(state, event.unit)
    elif isinstance(event, r.OutOfAction):
        t = tr[event.unit]
        tr[event.unit] = replace(t, out=True, dead=t.dead or event.dead, arc=None,
                                 prone=True, stopped=True)
        state.melee = tuple(m for m in state.melee if event.unit not in (m.unit, m.target))
        if state.rulings["SKI-31"] == "removed":
            state.lattice = state.lattice.without_occupant(event.unit)
        else:
            state.lattice = state.lattice.with_pose(event.unit, prone=True)
        _end_activation(state, event.unit)
    elif isinstance(event, r.MeleeDeclared):
        state.melee = (*state.melee, PendingMelee(event.unit, event.target, event.weapon))
        _spend(state, event.unit, event.ap, moving=False)
        _after_combat(state, event.unit)
        _check_spent(state, event.unit)
    elif isinstance(event, (r.MeleeResolved, r.MeleeLapsed)):
        done = next((i for i, m in enumerate(state.melee)
                     if (m.unit, m.target) == (event.unit, event.target)), None)
        if done is not None:  # (the odds of an attack roll one that was never paid for)
            state.melee = state.melee[:done] + state.melee[done + 1:]
    elif isinstance(event, r.ExplosiveThrown):
        t = tr[event.unit]
        explosives = tuple((k, n - 1 if k == event.explosive else n) for k, n in t.explosives)
        tr[event.unit] = replace(t, explosives=explosives, threw=True)
        state.tokens = (*state.tokens, Token(event.unit, event.explosive, event.at, event.ap,
                                             event.base, event.tn, event.origin,
                                             event.stairwell))
        _spend(state, event.unit, event.ap, moving=False)
        _after_combat(state, event.unit)
        _check_spent(state, event.unit)
    elif isinstance(event, r.ExplosiveResolved):
        state.tokens = state.tokens[1:]
    elif isinstance(event, r.ActivationEnded):
        _end_activation(state, event.unit)
    else:
        raise TypeError(f"not a Skirmishers event: {event!r}")


def _shot(state: SkiState, event: r.ShotFired) -> None:
    tr = state.troopers
    t = tr[event.unit]
    if event.how == "arc" and t.arc is not None:
        left = t.arc.shots - 1
        tr[event.unit] = t = replace(t, arc=replace(t.arc, shots=left) if left > 0 else None)
    target = tr[event.target]
    tr[event.target] = replace(target, shot_by=target.shot_by | {event.unit})


def _take(state: SkiState, event: r.EquipmentTaken) -> None:
    tr = state.troopers
    taker, source = tr[event.unit], tr[event.source]
    pack = state.setup.pack
    if event.item in pack.explosives:
        got = dict(taker.explosives)
        got[event.item] = got.get(event.item, 0) + event.count
        left = tuple((k, 0 if k == event.item else n) for k, n in source.explosives)
        tr[event.unit] = replace(taker, explosives=tuple(sorted(got.items())))
        tr[event.source] = replace(source, explosives=left)
        return
    weapons = tuple(w for w in source.weapons if w != event.item)
    active = source.active if source.active != event.item else "fists"
    tr[event.source] = replace(source, weapons=weapons, active=active)
    tr[event.unit] = replace(taker, weapons=(*taker.weapons, event.item))


def _merge_key(state: SkiState, core: Callable[[Any], Hashable]) -> Hashable:
    """The exact search's key of a state: a trooper out of action (never back in it) is
    read only for what may be taken from it (its weapons and explosives), whether it counts
    as dead (SKI-32, SKI-42) and its pose; its card, AP and arc no longer matter, so two
    states that differ only in those are one."""
    if all(t.in_action for t in state.troopers.values()):
        return core(state)
    keyed = copy.copy(state)
    keyed.troopers = {uid: t for uid, t in state.troopers.items() if t.in_action}
    gone = tuple((uid, t.side, t.out, t.dead, t.retreated, t.prone, t.weapons, t.explosives,
                  t.active, t.fallback)
                 for uid, t in state.troopers.items() if not t.in_action)
    return (core(keyed), gone)


declare_key(SkiState, _merge_key)


@lru_cache(maxsize=100_000)
def spot_text(dot: Axial, level: int) -> str:
    """An axial dot and level as the lattice writes a place (``"3,4"``, ``"3,4@1"``)."""
    col, row = axial_to_offset(*dot)
    return f"{col},{row}" if level == 0 else f"{col},{row}@{level}"

