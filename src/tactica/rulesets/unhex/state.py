"""The state of an Unhex battle, the zone map as the rules see it, and the one mutation.

:class:`ZoneView` wraps the map with the sight rulings in force and remembers every answer, so
that range, sight and cover cost one dictionary lookup after the first battle. Characters are
mutable records changed only by :func:`apply_event`; their bodies are immutable values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from tactica.battlefield.base import SightOption, SightReport
from tactica.battlefield.zones.graph import DoorState, Place, ZoneGraph
from tactica.engine.copying import copy_state
from tactica.engine.ruleset import Rulings
from tactica.engine.statekey import declare_effect
from tactica.rulesets.unhex.body import Body, DamageRules, Marks
from tactica.rulesets.unhex.content import Item, Objective
from tactica.rulesets.unhex.records import (
    ActionGained,
    ActionLost,
    ActionSpent,
    AmmoMarked,
    Attacked,
    CombatEnded,
    Defended,
    Died,
    DoorChanged,
    FixtureUsed,
    InitiativeRolled,
    InitiativeWon,
    ItemDropped,
    ItemsArranged,
    KitUsedUp,
    KnockedOut,
    LevelLowered,
    LocationFilled,
    MarksRow,
    Moved,
    Retreated,
    RoundStarted,
    Stopped,
    Surrendered,
    TeamOrder,
    Treated,
    TurnEnded,
    Wounded,
)

__all__ = [
    "Character",
    "Look",
    "UnhexState",
    "ZoneView",
    "apply_event",
    "copy_state",
    "damage_rules",
    "view_for",
]


@dataclass(frozen=True)
class Look:
    """Range (``None``: unreachable), line of sight and cover from one place to another."""

    distance: int | None
    visible: bool
    cover: bool


class ZoneView:
    """A zone map under fixed sight rulings, with every answer remembered."""

    def __init__(self, graph: ZoneGraph, options: tuple[tuple[str, str], ...]):
        self.graph = graph
        self.options = options
        self._looks: dict[tuple[Place, Place], Look] = {}
        self._doors: dict[tuple[str, str, str], ZoneView] = {}
        self._moves: dict[str, tuple[str, ...]] = {}

    def report(self, source: Place, target: Place) -> SightReport:
        """The zone map's full sight report (with its evidence)."""
        return self.graph.sight_report(source, target, **dict(self.options))

    def look(self, source: Place, target: Place) -> Look:
        """Range, sight and cover (remembered)."""
        key = (source, target)
        found = self._looks.get(key)
        if found is None:
            r = self.report(source, target)
            dist = r.details.get("range")
            found = Look(dist if isinstance(dist, int) else None, r.visible, r.in_cover)
            self._looks[key] = found
        return found

    def moves_from(self, area: str) -> tuple[str, ...]:
        """Areas one move away (arrows and closed doors respected)."""
        found = self._moves.get(area)
        if found is None:
            found = self.graph.neighbors_for_move(area)
            self._moves[area] = found
        return found

    def doors_from(self, area: str) -> tuple[tuple[str, str], ...]:
        """``(other area, door state)`` for each door on a connection of ``area``."""
        return tuple((c.other(area), c.door) for c in self.graph.connections_of(area)
                     if c.door is not None)

    def with_door(self, a: str, b: str, state: str) -> ZoneView:
        """The view after the door between ``a`` and ``b`` is set to ``state``."""
        key = (a, b, state)
        found = self._doors.get(key)
        if found is None:
            door: DoorState = "open" if state == "open" else "closed"
            found = view_for(self.graph.with_door(a, b, door), self.options)
            self._doors[key] = found
        return found


@lru_cache(maxsize=256)
def view_for(graph: ZoneGraph, options: tuple[tuple[str, str], ...]) -> ZoneView:
    """The shared view of ``graph`` under ``options`` (one per map and rulings)."""
    return ZoneView(graph, options)


def damage_rules(rulings: Rulings) -> DamageRules:
    """The damage rulings in force."""
    return DamageRules(rulings["UNH-4"], rulings["UNH-11"], rulings["UNH-12"],
                       rulings["UNH-13"], rulings["UNH-18"])


@dataclass
class Character:
    """A character in a battle (changed only by :func:`apply_event`)."""

    id: str
    side: str
    pc: bool
    body: Body
    area: str
    items: tuple[str, ...]
    right: str | None
    left: str | None
    good: frozenset[str] = frozenset()
    actions: int = 0
    owed: int = 0
    surrendered: bool = False
    retreated: bool = False
    ammo: tuple[tuple[str, int], ...] = ()
    fired: tuple[tuple[str, int], ...] = ()
    #: Hit for damage at some time in this fight (UNH-27), whatever first aid did since.
    hurt: bool = False

    @property
    def wounded(self) -> bool:
        """Any mark on the body."""
        return any(m.total for m in self.body.marks)

    @property
    def level(self) -> int:
        """The current level."""
        return self.body.level

    @property
    def unconscious(self) -> bool:
        """Level 0, or a full head or torso."""
        return self.body.unconscious

    @property
    def in_fight(self) -> bool:
        """Neither unconscious, nor surrendered, nor retreated."""
        return not (self.surrendered or self.retreated or self.body.unconscious)

    @property
    def can_act(self) -> bool:
        """In the fight with an action left."""
        return self.in_fight and self.actions > 0

    def in_hands(self) -> tuple[str, ...]:
        """The items held (a two-handed item once), in usable hands only."""
        out: list[str] = []
        for hand, item in (("right", self.right), ("left", self.left)):
            if item is not None and self.body.hand_usable(hand) and item not in out:
                out.append(item)
        return tuple(out)

    @property
    def hands_empty(self) -> bool:
        """Nothing in either hand."""
        return self.right is None and self.left is None

    def can_move(self) -> bool:
        """Legs allow moving: one full leg only with both hands empty, two never."""
        legs = self.body.legs_full
        return legs == 0 or (legs == 1 and self.hands_empty)


@dataclass
class UnhexState:
    """The whole state of an Unhex battle."""

    view: ZoneView
    chars: dict[str, Character]
    sides: tuple[str, ...]
    pcs: frozenset[str]
    rulings: Rulings
    damage: DamageRules
    catalog: Mapping[str, Item]
    max_rounds: int
    exits: frozenset[str] = frozenset()
    objectives: tuple[Objective, ...] = ()
    floor: dict[str, tuple[str, ...]] = field(default_factory=dict)
    round: int = 0
    order: tuple[str, ...] = ()
    turn: int = 0
    holder: str | None = None
    fixtures: tuple[tuple[str, str], ...] = ()
    used: frozenset[tuple[str, str]] = frozenset()
    #: NPCs that break this round (UNH-27): wounded before their team's initiative roll
    #: failed critically (hit in an earlier round, or under ``wounded-now`` marked at the roll).
    broken: frozenset[str] = frozenset()
    ended: tuple[str | None, str] | None = None

    def fighters(self, side: str | None = None) -> list[Character]:
        """Characters in the fight (of ``side``), in scenario order."""
        return [c for c in self.chars.values()
                if c.in_fight and (side is None or c.side == side)]

    def standing(self) -> list[str]:
        """Sides with a character still in the fight, in order."""
        return [s for s in self.sides if any(c.in_fight and c.side == s
                                             for c in self.chars.values())]

    def item(self, name: str) -> Item:
        """The item called ``name``."""
        return self.catalog[name]

    @property
    def current_side(self) -> str | None:
        """The team whose turn it is, if any."""
        return self.order[self.turn] if self.turn < len(self.order) else None


# --------------------------------------------------------------------------------------------


def _set_marks(c: Character, rows: tuple[MarksRow, ...]) -> None:
    body = c.body
    for loc, slash, x, perm in rows:
        body = body.with_marks(loc, Marks(slash, x, perm))
    c.body = body


def _remove(c: Character, item: str) -> None:
    if c.right == item:
        c.right = None
    if c.left == item:
        c.left = None
    c.items = tuple(i for i in c.items if i != item)


def apply_event(state: UnhexState, event: Any) -> None:
    """The only place an Unhex battle changes."""
    ch = state.chars
    if isinstance(event, RoundStarted):
        state.broken = frozenset()
        state.round = event.round
        state.order = ()
        state.turn = 0
        for c in ch.values():
            c.actions = 0
        for uid, n in event.actions:
            ch[uid].actions = n
        owed = dict(event.owed)
        for c in ch.values():
            c.owed = owed.get(c.id, 0)
    elif isinstance(event, InitiativeWon):
        state.holder = event.side
    elif isinstance(event, InitiativeRolled):
        # NPCs wounded in earlier rounds whose team's roll fails critically break (UNH-27):
        # those hit before the roll (or, under wounded-now, marked at the roll), not those
        # wounded later in the round. The policy consults the ruling where it acts on it.
        if event.critical == "failure" and event.side not in state.pcs:
            now = state.rulings.peek("UNH-27") == "wounded-now"
            state.broken = state.broken | {c.id for c in state.fighters(event.side)
                                           if c.wounded or (c.hurt and not now)}
    elif isinstance(event, Attacked):
        if state.item(event.weapon).uses_ammo:
            c = ch[event.unit]
            fired = dict(c.fired)
            fired[event.weapon] = fired.get(event.weapon, 0) + 1
            c.fired = tuple(fired.items())
    elif isinstance(event, FixtureUsed):
        state.used = state.used | {(event.fixture, ch[event.unit].side)}
    elif isinstance(event, AmmoMarked):
        c = ch[event.unit]
        if event.left is not None:
            c.ammo = tuple((w, event.left if w == event.weapon else n) for w, n in c.ammo)
    elif isinstance(event, CombatEnded):
        state.ended = (event.winner, event.reason)
    elif isinstance(event, TeamOrder):
        state.order = event.order
        state.turn = 0
    elif isinstance(event, TurnEnded):
        state.turn += 1
    elif isinstance(event, ActionSpent):
        ch[event.unit].actions -= 1
    elif isinstance(event, ActionGained):
        ch[event.unit].actions += 1
    elif isinstance(event, ActionLost):
        if event.carried:
            ch[event.unit].owed += 1
        else:
            ch[event.unit].actions -= 1
    elif isinstance(event, Surrendered):
        c = ch[event.unit]
        c.surrendered = True
        c.body = c.body.with_level(0)
        c.actions = 0
    elif isinstance(event, (Wounded, Treated)):
        _set_marks(ch[event.target if isinstance(event, Treated) else event.unit], event.marks)
        if isinstance(event, Wounded) and event.amount > 0:
            ch[event.unit].hurt = True
    elif isinstance(event, LocationFilled):
        c = ch[event.unit]
        c.body = replace(c.body.with_level(event.level),
                         filled_before=c.body.filled_before | {event.location})
    elif isinstance(event, LevelLowered):
        c = ch[event.unit]
        c.body = c.body.with_level(event.level)
    elif isinstance(event, ItemDropped):
        _remove(ch[event.unit], event.item)
        state.floor[event.area] = (*state.floor.get(event.area, ()), event.item)
    elif isinstance(event, KitUsedUp):
        _remove(ch[event.unit], event.item)
    elif isinstance(event, (Moved, Stopped)):
        ch[event.unit].area = event.to if isinstance(event, Moved) else event.at
    elif isinstance(event, ItemsArranged):
        c = ch[event.unit]
        floor = list(state.floor.get(c.area, ()))
        for item in event.picked_up:
            floor.remove(item)
            c.items = (*c.items, item)
        state.floor[c.area] = tuple(floor)
        c.right, c.left = event.right, event.left
    elif isinstance(event, DoorChanged):
        state.view = state.view.with_door(event.a, event.b, event.state)
    elif isinstance(event, Retreated):
        c = ch[event.unit]
        c.retreated = True
        c.actions = 0
    elif isinstance(event, (Defended, KnockedOut, Died)):
        pass
    else:
        raise TypeError(f"not an Unhex event: {event!r}")


def sight_report(state: UnhexState, source: str, target: str,
                 **options: SightOption) -> SightReport:
    """Sight between two characters (where they stand now) or two areas."""
    places = [state.chars[ref].area if ref in state.chars else ref for ref in (source, target)]
    chosen = {**dict(state.view.options), **options}
    report = state.view.graph.sight_report(places[0], places[1], **chosen)
    notes: list[str] = []
    if places != [source, target]:
        notes.append(f"{source} is in {places[0]}, {target} in {places[1]}")
    pairs = report.details.get("pairs")
    if isinstance(pairs, list) and any(p.get("one_way") for p in pairs):
        reasons = (*report.reasons, f"UNH-28 (one-way sight) is {chosen['symmetry']!s}"
                   + (" by this command's option" if "symmetry" in options else ""))
    else:
        reasons = report.reasons
    if not notes and reasons is report.reasons:
        return report
    return SightReport(source, target, report.visible, report.cover, report.distance,
                       report.details, (*notes, *reasons))


# What of the initiative's events changes a state (apply_event above): the team that rolled
# and whether it failed critically; the winner's side. The rolled numbers and the reason are
# for the log, so the exact search applies each initiative's 10,000 rolls as a few outcomes.
declare_effect(InitiativeRolled, lambda e: (e.side, e.critical))
declare_effect(InitiativeWon, lambda e: e.side)
