"""What a character may do now: actions on its team's turn, reactions on another's.

Every limit of the rules is checked here: one action per character per round (plus those
gained), weapons in usable hands and within their range band and sight, moving along one
connection that allows it (arrows, doors, legs), the hands and slots of items, and the
conditions of each reaction.
"""

from __future__ import annotations

from typing import Any

from tactica.battlefield.zones.graph import Place
from tactica.engine.caching import Cache
from tactica.engine.ruleset import UnitStatus
from tactica.rulesets.unhex.content import SLOTS, Item
from tactica.rulesets.unhex.records import (
    Arrange,
    Attack,
    Door,
    Drop,
    EndTurn,
    FirstAid,
    Move,
    Operate,
    Reaction,
    Retreat,
)
from tactica.rulesets.unhex.state import Character, Look, UnhexState

__all__ = [
    "arrangements",
    "attacks",
    "can_be_attacked",
    "can_fire",
    "drops",
    "first_aid_kit",
    "first_aid_targets",
    "interceptions",
    "legal_actions",
    "moves",
    "reach",
    "reactions_to_attack",
    "weapons_in_hand",
]


def can_fire(state: UnhexState, c: Character, item: Item) -> bool:
    """A weapon that uses ammunition the scenario counts for ``c`` needs some left: any for
    the fight (UNH-26 ``per-fight``), or one per attack (``per-attack``)."""
    if not item.uses_ammo:
        return True
    carried = dict(c.ammo).get(item.name)
    if carried is None:
        return True
    if state.rulings["UNH-26"] == "per-attack":
        return dict(c.fired).get(item.name, 0) < carried
    return carried > 0


def weapons_in_hand(state: UnhexState, c: Character) -> list[Item]:
    """The weapons in ``c``'s usable hands (with ammunition, where it is counted)."""
    return [item for n in c.in_hands()
            if (item := state.item(n)).is_weapon and can_fire(state, c, item)]


def first_aid_kit(state: UnhexState, c: Character) -> str | None:
    """The first aid item in ``c``'s usable hands, if any."""
    for n in c.in_hands():
        if state.item(n).kind == "first-aid":
            return n
    return None


def can_be_attacked(state: UnhexState, t: Character) -> bool:
    """In the fight, or unconscious when UNH-21 allows it; never surrendered or gone."""
    if t.surrendered or t.retreated:
        return False
    return t.in_fight or state.rulings["UNH-21"] == "yes"


def reach(state: UnhexState, source: Place, weapon: Item, target: Place) -> Look | None:
    """The look from ``source`` to ``target`` if ``weapon`` reaches, else ``None``."""
    look = state.view.look(source, target)
    return look if weapon.reaches(look.distance, look.visible) else None


def attacks(state: UnhexState, c: Character) -> list[Attack]:
    """Every attack ``c`` could make from where it stands."""
    out: list[Attack] = []
    for w in weapons_in_hand(state, c):
        for t in state.chars.values():
            if t.side == c.side or not can_be_attacked(state, t):
                continue
            if reach(state, c.area, w, t.area) is not None:
                out.append(Attack(c.id, w.name, t.id))
    return out


def moves(state: UnhexState, c: Character) -> list[Move]:
    """Moves along one connection (arrows, closed doors and legs respected)."""
    if not c.can_move():
        return []
    return [Move(c.id, to) for to in state.view.moves_from(c.area)]


def arrangements(state: UnhexState, c: Character) -> list[Arrange]:
    """Every other way to hold items, taking from what ``c`` carries and the floor
    (remembered by everything they depend on: the same few come back at every turn)."""
    floor = state.floor.get(c.area, ())
    catalog = state.catalog
    key = (id(catalog), c.id, c.items, floor, c.right, c.left, c.body.hand_usable("right"),
           c.body.hand_usable("left"), state.rulings["UNH-19"])
    found = _ARRANGEMENTS.get(key)
    if found is None or found[0] is not catalog:
        found = _ARRANGEMENTS.put(key, (catalog, tuple(_arrangements(state, c, floor))))
    return list(found[1])


#: Arrangements by what they depend on, with the catalog they were read from (its id is only
#: trusted while it is that very object).
_ARRANGEMENTS: Cache[tuple[object, ...], tuple[object, tuple[Arrange, ...]]] = Cache(
    "unhex.arrangements", maxsize=100_000)


def _arrangements(state: UnhexState, c: Character, floor: tuple[str, ...]) -> list[Arrange]:
    pool = list(dict.fromkeys((*c.items, *floor)))
    ones = [n for n in pool if state.item(n).hands == 1]
    twos = [n for n in pool if state.item(n).hands == 2]
    right_ok, left_ok = c.body.hand_usable("right"), c.body.hand_usable("left")
    configs: list[tuple[str | None, str | None]] = []
    for r in [None, *(ones if right_ok else [])]:
        for left in [None, *(ones if left_ok else [])]:
            if r is None or r != left:
                configs.append((r, left))
    if right_ok and left_ok:
        configs += [(n, n) for n in twos]
    out: list[Arrange] = []
    slots_rule = state.rulings["UNH-19"]
    for r, left in configs:
        if (r, left) == (c.right, c.left):
            continue
        held = {n for n in (r, left) if n is not None}
        carried = len(c.items) + len(held - set(c.items))
        used = carried if slots_rule == "all" else carried - len(held)
        if used <= SLOTS:
            out.append(Arrange(c.id, r, left))
    return out


def first_aid_targets(state: UnhexState, c: Character) -> list[FirstAid]:
    """First aid on anyone in ``c``'s area (itself too) with a ``\\`` mark, kit in hand."""
    if first_aid_kit(state, c) is None:
        return []
    return [FirstAid(c.id, t.id) for t in state.chars.values()
            if t.area == c.area and not t.body.dead and not t.retreated and t.body.slashes]


def _character_actions(state: UnhexState, c: Character) -> list[Any]:
    out: list[Any] = []
    out += attacks(state, c)
    out += moves(state, c)
    out += first_aid_targets(state, c)
    out += arrangements(state, c)
    out += [Door(c.id, other, "closed" if door == "open" else "open")
            for other, door in state.view.doors_from(c.area)]
    out += [Operate(c.id, name) for area, name in state.fixtures if area == c.area]
    if c.area in state.exits:
        out.append(Retreat(c.id))
    out += drops(c)
    return out


def drops(c: Character) -> list[Drop]:
    """Dropping each item in ``c``'s hands: it takes no action (the seed: "Dropping items
    currently in your hands ... doesn't take an action")."""
    return [Drop(c.id, n) for n in dict.fromkeys(i for i in (c.right, c.left) if i)]


def legal_actions(state: UnhexState, side: str) -> tuple[Any, ...]:
    """The actions of ``side``'s turn: each character with an action left, dropping what is
    in hand for those with none (while the turn goes on, some teammate has one), and
    ending it."""
    out: list[Any] = []
    for c in state.fighters(side):
        out += _character_actions(state, c) if c.actions > 0 else drops(c)
    out.append(EndTurn(side))
    return tuple(out)


def reactions_to_attack(state: UnhexState, attacker: Character, target: Character,
                        weapon: Item, look: Look) -> tuple[Reaction, ...]:
    """What the target may declare before the dice: nothing, defend (against a ranged attack
    only in cover), counterattack (only from its own area, only with a melee weapon), or
    surrender (takes no action)."""
    if not target.in_fight:
        return (Reaction("none"),)
    options = [Reaction("none")]
    if target.actions > 0:
        if not weapon.is_ranged or look.cover:
            options.append(Reaction("defend"))
        if attacker.area == target.area:
            options += [Reaction("counterattack", w.name) for w in weapons_in_hand(state, target)
                        if w.kind == "melee"]
    options.append(Reaction("surrender"))
    return tuple(options)


def interceptions(state: UnhexState, mover: Character,
                  to: str) -> list[tuple[Character, tuple[Reaction, ...]]]:
    """Each character of another team who may intercept the move, with its options."""
    place = (mover.area, to)
    out: list[tuple[Character, tuple[Reaction, ...]]] = []
    for c in state.fighters():
        if c.side == mover.side or c.actions <= 0:
            continue
        options = [Reaction("intercept", w.name) for w in weapons_in_hand(state, c)
                   if reach(state, c.area, w, place) is not None]
        if options:
            out.append((c, (Reaction("none"), *options)))
    return out


def units(state: UnhexState) -> tuple[UnitStatus, ...]:
    """Every character as it stands: its area, level, wounds, whether it may be attacked."""
    return tuple(
        UnitStatus(c.id, c.side, can_be_attacked(state, c), c.area,
                   {"level": c.level, "dead": c.body.dead, "wounds": c.body.summary()},
                   survived=c.in_fight or c.retreated)
        for c in state.chars.values()
    )


def figures(state: UnhexState) -> dict[str, dict[str, str]]:
    """Every figure of every character, for the unit panel and ``status``: its level with
    the most it can be, the actions left, what it holds in each hand and carries."""
    out: dict[str, dict[str, str]] = {}
    for c in state.chars.values():
        shown = {"level": f"{c.level} of {c.body.max_level}", "actions": str(c.actions),
                 "right hand": c.right or "-", "left hand": c.left or "-"}
        if c.items:
            shown["items"] = ", ".join(c.items)
        out[c.id] = shown
    return out
