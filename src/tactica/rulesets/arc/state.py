"""The state of an Arc battle and the one place it changes.

A :class:`Profile` is what a character is (skills, speed, health, weapons, armor as set up);
a :class:`Fighter` is how it stands now (health, armor sizes, wound dice, rounds, AP). Every
field of a fighter is an immutable value, so copying a state copies a few small objects.
:func:`apply_event` is the only code that changes a state.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from tactica.battlefield.grid.tiles import Tile, TileGrid
from tactica.engine.copying import copy_state
from tactica.engine.rulings import Rulings
from tactica.engine.statekey import declare_key
from tactica.rulesets.arc import records as r
from tactica.rulesets.arc.checks import SKILL_ATTRIBUTES, CheckResult, Score
from tactica.rulesets.arc.content import ArmorDie, Item, Weapon

__all__ = [
    "ArcState",
    "Fighter",
    "Profile",
    "apply_event",
    "copy_state",
    "tile_text",
    "who",
]


def tile_text(tile: Tile) -> str:
    """``(3, 4)`` as ``"3,4"``."""
    return f"{tile[0]},{tile[1]}"


@dataclass(frozen=True)
class Profile:
    """What a character is: fixed for the battle."""

    id: str
    side: str
    name: str
    skills: tuple[tuple[str, int], ...]
    focuses: tuple[tuple[str, int], ...]
    agi: int
    con: int
    max_health: int
    speed: Score
    initiative: int
    weapons: tuple[Weapon, ...]
    armor: tuple[ArmorDie, ...]
    swap: str = "AGI"

    def involves(self, skill: str) -> bool:
        """Whether a check of ``skill`` involves AGI or the attribute swapped in for one AGI
        at initiative (the d10 of the first turn applies only to those)."""
        made_of = SKILL_ATTRIBUTES.get(skill, ())
        return "AGI" in made_of or self.swap in made_of

    def skill(self, name: str) -> int:
        """A skill plus its focus (``evade``, ``medicine``, a weapon's skill)."""
        found = self._skill_table.get(name)
        if found is not None:
            return found
        skills, focuses = dict(self.skills), dict(self.focuses)
        base = skills.get(name)
        if base is None and name in ("small_guns", "big_guns"):
            base = skills.get("guns")
        bonus = focuses.get(name, focuses.get("guns", 0) if name.endswith("_guns") else 0)
        self._skill_table[name] = (base or 0) + bonus
        return (base or 0) + bonus

    @cached_property
    def _skill_table(self) -> dict[str, int]:
        return {}

    def weapon(self, name: str) -> Weapon:
        """The weapon called ``name``."""
        for w in self.weapons:
            if w.name == name:
                return w
        raise KeyError(name)


@dataclass
class Fighter:
    """How one character stands now (changed only by :func:`apply_event`)."""

    profile: Profile
    health: int
    armor: tuple[int, ...]
    hand: str
    rounds: tuple[int | None, ...]
    items: tuple[tuple[str, int], ...] = ()
    wounds: tuple[int, ...] = ()
    jammed: frozenset[str] = frozenset()
    ap: int = 0
    debt: int = 0
    conscious: bool = True
    dead: bool = False
    falling: bool = False
    watch: tuple[str, int, int] | None = None
    preset: CheckResult | None = None
    carry: tuple[str, str, int] | None = None
    at: Tile | None = None

    @property
    def id(self) -> str:
        """The unit id."""
        return self.profile.id

    @property
    def side(self) -> str:
        """Its side."""
        return self.profile.side

    @property
    def in_action(self) -> bool:
        """Still fighting: conscious and alive (a character falling at the end of its turn
        is still acting)."""
        return self.conscious and not self.dead

    @property
    def weapon(self) -> Weapon:
        """The weapon in hand."""
        return self.profile.weapon(self.hand)

    def rounds_of(self, weapon: str) -> int | None:
        """Rounds left in ``weapon`` (``None``: it counts none)."""
        i = next(i for i, w in enumerate(self.profile.weapons) if w.name == weapon)
        return self.rounds[i]

    def item_count(self, item: str) -> int:
        """How many of ``item`` it carries."""
        return dict(self.items).get(item, 0)

    def can_fire(self, weapon: Weapon | None = None) -> bool:
        """The weapon (default: in hand) is neither jammed nor empty."""
        w = weapon or self.weapon
        if w.name in self.jammed:
            return False
        left = self.rounds_of(w.name)
        return left is None or left > 0


@dataclass
class ArcState:
    """The whole state of an Arc battle."""

    rulings: Rulings
    fighters: dict[str, Fighter]
    sides: tuple[str, ...]
    items: Mapping[str, Item]
    max_rounds: int
    grid: TileGrid | None = None
    ranges: Mapping[frozenset[str], Fraction] = field(default_factory=dict)
    rough: frozenset[Tile] = frozenset()
    surprise: str | None = None
    round: int = 0
    phase: str = "setup"
    order: tuple[str, ...] = ()
    queue: tuple[str, ...] = ()
    fresh: bool = True
    d10: frozenset[str] = frozenset()
    checks: tuple[tuple[str, int, bool, int], ...] = ()
    bled: frozenset[str] = frozenset()

    @property
    def active(self) -> str | None:
        """The character whose turn it is."""
        return self.queue[0] if self.queue and self.phase == "round" else None

    def standing(self, side: str | None = None) -> list[Fighter]:
        """The characters still in action (of ``side``), in scenario order."""
        return [f for f in self.fighters.values()
                if f.in_action and (side is None or f.side == side)]

    def is_aware(self, unit: str) -> bool:
        """Aware of danger (may evade): not of a surprised side in round 1 (ARC-18)."""
        return not (self.surprise is not None and self.round <= 1
                    and self.fighters[unit].side != self.surprise)

    def takes_turn_in(self, unit: str, round_: int) -> bool:
        """Whether ``unit`` has a turn in that round (ARC-18 ``skip`` keeps the surprised
        sides out of round 1)."""
        return not (round_ == 1 and self.surprise is not None
                    and self.rulings["ARC-18"] == "skip"
                    and self.fighters[unit].side != self.surprise)


# --------------------------------------------------------------------------------------------
# The turn queue


def _settle(state: ArcState) -> None:
    """Drop from the head of the queue those who cannot take their turn; a new head starts a
    fresh turn and its watch ends (it lasts until the watcher's next turn)."""
    keep_unconscious = state.rulings["ARC-12"] == "turn"
    while state.queue:
        f = state.fighters[state.queue[0]]
        if f.dead or (not f.conscious and not keep_unconscious):
            state.queue = state.queue[1:]
            continue
        break
    state.fresh = True
    if state.queue:
        head = state.fighters[state.queue[0]]
        head.watch = None
        head.preset = None


def _pop(state: ArcState, unit: str) -> None:
    if state.queue and state.queue[0] == unit:
        state.queue = state.queue[1:]
        _settle(state)


# --------------------------------------------------------------------------------------------
# Events


def _f(state: ArcState, unit: str) -> Fighter:
    return state.fighters[unit]


def _initiative_check(state: ArcState, e: r.InitiativeChecked) -> None:
    state.checks = (*state.checks, (e.unit, e.roll, e.success, e.degree))


def _initiative(state: ArcState, e: r.InitiativeRolled) -> None:
    state.order = e.order
    state.d10 = frozenset(e.d10)


def _round_began(state: ArcState, e: r.RoundBegan) -> None:
    state.round = e.round
    state.phase = "round"
    state.bled = frozenset()
    for unit, ap in e.ap:
        f = _f(state, unit)
        f.ap = ap
        f.debt = 0
    state.queue = tuple(u for u in state.order
                        if _f(state, u).in_action and state.takes_turn_in(u, e.round))
    _settle(state)


def _round_ended(state: ArcState, e: r.RoundEnded) -> None:
    state.phase = "ended"
    state.queue = ()


def _held(state: ArcState, e: r.Held) -> None:
    rest = [u for u in state.queue if u != e.unit]
    i = rest.index(e.after)
    state.queue = (*rest[: i + 1], e.unit, *rest[i + 1:])
    _settle(state)


def _turn_ended(state: ArcState, e: r.TurnEnded) -> None:
    state.d10 = state.d10 - {e.unit}
    _pop(state, e.unit)


def _ap(state: ArcState, e: r.APSpent) -> None:
    f = _f(state, e.unit)
    f.ap = e.left
    f.debt += e.borrowed
    if state.active == e.unit:
        state.fresh = False


def _refund(state: ArcState, e: r.APRefunded) -> None:
    f = _f(state, e.unit)
    f.ap = e.left
    f.debt -= e.borrowed


def _loaded(state: ArcState, e: r.Loaded) -> None:
    f = _f(state, e.unit)
    i = next(i for i, w in enumerate(f.profile.weapons) if w.name == e.weapon)
    rounds = e.rounds if f.profile.weapons[i].has_magazine else None
    f.rounds = (*f.rounds[:i], rounds, *f.rounds[i + 1:])
    f.jammed = f.jammed - {e.weapon}


def _fired(state: ArcState, e: r.RoundsFired) -> None:
    _loaded(state, r.Loaded(e.unit, e.weapon, e.left))


def _jammed(state: ArcState, e: r.Jammed) -> None:
    f = _f(state, e.unit)
    f.jammed = f.jammed | {e.weapon}


def _swapped(state: ArcState, e: r.Swapped) -> None:
    _f(state, e.unit).hand = e.weapon


def _armor(state: ArcState, e: r.ArmorWorn) -> None:
    _f(state, e.unit).armor = e.armor


def _wounded(state: ArcState, e: r.Wounded) -> None:
    f = _f(state, e.unit)
    f.health = e.health
    f.wounds = e.wounds


def _bled(state: ArcState, e: r.Bled) -> None:
    _f(state, e.unit).health = e.health
    state.bled = state.bled | {e.unit}


def _falling(state: ArcState, e: r.Falling) -> None:
    _f(state, e.unit).falling = True


def _fell(state: ArcState, e: r.Fell) -> None:
    f = _f(state, e.unit)
    f.conscious = False
    f.falling = False
    f.watch = None
    f.preset = None
    f.carry = None
    if state.active == e.unit:
        _pop(state, e.unit)


def _died(state: ArcState, e: r.Died) -> None:
    f = _f(state, e.unit)
    f.dead = True
    f.conscious = False
    f.falling = False
    f.watch = None
    f.preset = None
    f.carry = None
    if state.grid is not None and e.unit in state.grid.occupants:
        state.grid = state.grid.without_occupant(e.unit)
    if state.active == e.unit:
        _pop(state, e.unit)
    else:
        state.queue = tuple(u for u in state.queue if u != e.unit)


def _woke(state: ArcState, e: r.Woke) -> None:
    f = _f(state, e.unit)
    f.conscious = True
    f.falling = False


def _item_used(state: ArcState, e: r.ItemUsed) -> None:
    f = _f(state, e.unit)
    f.items = tuple((k, e.left if k == e.item else n) for k, n in f.items)


def _item_begun(state: ArcState, e: r.ItemBegun) -> None:
    _f(state, e.unit).carry = (e.item, e.target, e.owed)


def _item_finished(state: ArcState, e: r.ItemFinished) -> None:
    _f(state, e.unit).carry = None


def _healed(state: ArcState, e: r.Healed) -> None:
    _f(state, e.unit).health = e.health


def _treated(state: ArcState, e: r.WoundsTreated) -> None:
    _f(state, e.unit).wounds = e.wounds


def _stepped(state: ArcState, e: r.Stepped) -> None:
    f = _f(state, e.unit)
    x, _, y = e.to.partition(",")
    tile = (int(x), int(y))
    f.at = tile
    if state.grid is not None:
        state.grid = state.grid.move_occupant(e.unit, tile)


def _repositioned(state: ArcState, e: r.Repositioned) -> None:
    ranges = dict(state.ranges)
    ranges[frozenset((e.unit, e.other))] = Fraction(e.metres)
    state.ranges = ranges


def _watch_set(state: ArcState, e: r.WatchSet) -> None:
    f = _f(state, e.unit)
    f.watch = (e.kind, e.ap, e.aim)
    f.preset = None if e.degree is None else CheckResult(e.roll, True, e.degree,
                                                         e.how or "rolled when declared")


def _watch_used(state: ArcState, e: r.WatchUsed) -> None:
    f = _f(state, e.unit)
    f.watch = None if e.left <= 0 or f.watch is None else (f.watch[0], e.left, f.watch[2])
    if f.watch is None:
        f.preset = None


def _nothing(state: ArcState, e: Any) -> None:
    return None


_HANDLERS: dict[type, Callable[[ArcState, Any], None]] = {
    r.InitiativeChecked: _initiative_check,
    r.InitiativeRolled: _initiative,
    r.RoundBegan: _round_began,
    r.RoundEnded: _round_ended,
    r.Held: _held,
    r.TurnEnded: _turn_ended,
    r.APSpent: _ap,
    r.APRefunded: _refund,
    r.Loaded: _loaded,
    r.RoundsFired: _fired,
    r.Jammed: _jammed,
    r.Swapped: _swapped,
    r.Attacked: _nothing,
    r.ArmorWorn: _armor,
    r.Wounded: _wounded,
    r.Bled: _bled,
    r.Falling: _falling,
    r.Fell: _fell,
    r.Died: _died,
    r.Woke: _woke,
    r.Checked: _nothing,
    r.ItemUsed: _item_used,
    r.ItemBegun: _item_begun,
    r.ItemFinished: _item_finished,
    r.Healed: _healed,
    r.WoundsTreated: _treated,
    r.Stepped: _stepped,
    r.Repositioned: _repositioned,
    r.WatchSet: _watch_set,
    r.WatchUsed: _watch_used,
}


def apply_event(state: ArcState, event: Any) -> None:
    """The only place an Arc battle changes."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not an Arc event: {event!r}")
    handler(state, event)


def who(state: ArcState, uid: str) -> str:
    """A character for people: ``Ivy (A)`` when the scenario names it other than by its id,
    else the id."""
    f = state.fighters.get(uid)
    name = f.profile.name if f is not None else ""
    return f"{name} ({uid})" if name and name != uid else uid


def _merge_key(state: ArcState, core: Callable[[Any], Hashable]) -> Hashable:
    """The exact search's key of a state: the initiative checks are read only while the
    order is being set up, so after that two states that differ in them alone are one."""
    if state.phase == "setup" or not state.checks:
        return core(state)
    return core(replace(state, checks=()))


declare_key(ArcState, _merge_key)
