"""Unhex actions, events and decision options in words, for play and logs."""

from __future__ import annotations

import re
from typing import Any

from tactica.rulesets.unhex.records import (
    ActionGained,
    ActionLost,
    ActionSpent,
    AmmoMarked,
    Arrange,
    Assignment,
    Attack,
    Attacked,
    CombatEnded,
    Defended,
    Died,
    Door,
    DoorChanged,
    Drop,
    EndTurn,
    FirstAid,
    FirstAidPlan,
    FixtureUsed,
    Hardening,
    InitiativeRolled,
    InitiativeWon,
    ItemDropped,
    ItemsArranged,
    KitUsedUp,
    KnockedOut,
    LevelLowered,
    LocationFilled,
    Move,
    Moved,
    Operate,
    Reaction,
    Retreat,
    Retreated,
    RoundStarted,
    Stopped,
    Surrendered,
    TeamOrder,
    Treated,
    TurnEnded,
    Wounded,
)

__all__ = ["describe_action", "describe_event", "describe_option"]


def describe_action(state: object, action: Any) -> str:
    """One line for an action."""
    if isinstance(action, Attack):
        return f"{action.unit} attacks {action.target} with the {action.weapon}"
    if isinstance(action, Move):
        return f"{action.unit} moves to {action.to}"
    if isinstance(action, Arrange):
        if action.right is not None and action.right == action.left:
            hands = f"the {action.right} in both hands"
        else:
            hands = (f"right: {action.right or 'empty'}, left: {action.left or 'empty'}")
        return f"{action.unit} rearranges items ({hands})"
    if isinstance(action, FirstAid):
        who = "itself" if action.unit == action.target else action.target
        return f"{action.unit} gives first aid to {who}"
    if isinstance(action, Door):
        verb = "opens" if action.state == "open" else "closes"
        return f"{action.unit} {verb} the door to {action.to}"
    if isinstance(action, Retreat):
        return f"{action.unit} retreats from the fight"
    if isinstance(action, Drop):
        return f"{action.unit} drops the {action.item} (free)"
    if isinstance(action, Operate):
        return f"{action.unit} uses the {action.fixture}"
    if isinstance(action, EndTurn):
        return f"{action.side} end their turn"
    return repr(action)


def describe_option(state: object, decision: object, option: Any) -> str:
    """One line for an option of a decision inside an action."""
    if isinstance(option, Reaction):
        if option.kind == "none":
            return "no reaction"
        return option.kind + (f" with the {option.weapon}" if option.weapon else "")
    if isinstance(option, Assignment):
        other = "units" if option.damage_die == "tens" else "tens"
        return (f"{option.damage} damage ({option.damage_die} die), {option.location} "
                f"({other} die)")
    if isinstance(option, FirstAidPlan):
        where = ", ".join(f"{loc} {n}" for loc, n in option.erase) or "nothing"
        return f"{option.boxes} boxes over {option.extra + 1} locations: erase {where}"
    if isinstance(option, Hardening):
        return ", ".join(f"{n} on the {loc}" for loc, n in option.marks) or "none"
    if isinstance(option, tuple):
        return " then ".join(map(str, option))
    return _WORDS.get(option, str(option)) if isinstance(option, str) else str(option)


#: The options named by a code word, in words.
_WORDS = {"extra-action": "an extra action this round",
          "set-dice": "set the dice to a number of its choice"}


def _crit(critical: str | None) -> str:
    return f" (critical {critical})" if critical else ""


def describe_event(state: object, event: Any) -> str:
    """One line for an event."""
    e = event
    if isinstance(e, RoundStarted):
        owed = f"; {', '.join(u for u, _ in e.owed)} still owe an action" if e.owed else ""
        return f"Round {e.round} begins{owed}."
    if isinstance(e, InitiativeRolled):
        ok = "success" if e.success else "failure"
        return f"{e.unit} rolls initiative for {e.side}: {e.roll}, {ok}{_crit(e.critical)}."
    if isinstance(e, InitiativeWon):
        return f"{e.side} win the initiative ({plain(e.reason)})."
    if isinstance(e, TeamOrder):
        return "Teams act in this order: " + ", ".join(e.order) + "."
    if isinstance(e, TurnEnded):
        return f"{e.side}'s turn ends."
    if isinstance(e, ActionSpent):
        return f"{e.unit} uses an action to {e.on}."
    if isinstance(e, ActionGained):
        return f"{e.unit} gains an action this round ({e.reason})."
    if isinstance(e, ActionLost):
        when = "next round" if e.carried else "this round"
        return f"{e.unit} loses an action {when} ({e.reason})."
    if isinstance(e, Surrendered):
        return f"{e.unit} surrenders before {e.before}: out of the fight."
    if isinstance(e, Attacked):
        how = {"hit": "hits", "miss": "misses", "defended": "is defended"}[e.outcome]
        dice = " (dice set)" if e.set_dice else ""
        cover = (", target in cover" if e.cover else "") + (
            ", target behind a shield" if e.shield else "")
        return (f"{e.unit} {e.kind}s {e.target} with the {e.weapon}: rolls {e.roll}"
                f"{_crit(e.critical)}{dice}{cover}; {how}.")
    if isinstance(e, Defended):
        won = "the attack misses" if e.won else "not enough"
        return f"{e.unit} defends: rolls {e.roll}{_crit(e.critical)}; {won}."
    if isinstance(e, Wounded):
        marks = "; ".join(f"{loc} {s}\\ {x}X {p}#" for loc, s, x, p in e.marks)
        return (f"{e.unit} takes {e.amount} damage to the {e.location} (chosen by "
                f"{e.assigned_by}){': ' + marks if marks else ''}.")
    if isinstance(e, LocationFilled):
        return (f"{e.unit}'s {e.location} is full: level -{e.level_lost}, now {e.level}.")
    if isinstance(e, LevelLowered):
        return f"{e.unit} loses {e.amount} level, now {e.level}."
    if isinstance(e, ItemDropped):
        return f"{e.unit} drops the {e.item} in {e.area} ({e.reason})."
    if isinstance(e, KnockedOut):
        return f"{e.unit} is unconscious."
    if isinstance(e, Died):
        return f"{e.unit} is dead."
    if isinstance(e, Moved):
        return f"{e.unit} moves from {e.start} to {e.to}."
    if isinstance(e, Stopped):
        return f"{e.unit} is stopped by {e.by} moving from {e.start} to {e.to}: stays in {e.at}."
    if isinstance(e, ItemsArranged):
        picked = f", picking up {', '.join(e.picked_up)}" if e.picked_up else ""
        return (f"{e.unit} now holds right: {e.right or 'nothing'}, left: "
                f"{e.left or 'nothing'}{picked}.")
    if isinstance(e, Treated):
        erased = ", ".join(f"{n} from the {loc}" for loc, n in e.erased)
        what = f"; erases {erased}" if erased else ""
        return f"{e.unit} gives first aid to {e.target}: rolls {e.roll}, {e.outcome}{what}."
    if isinstance(e, KitUsedUp):
        return f"{e.unit}'s {e.item} is used up."
    if isinstance(e, DoorChanged):
        return f"{e.unit} sets the door between {e.a} and {e.b} {e.state}."
    if isinstance(e, Retreated):
        return f"{e.unit} retreats from {e.area}: out of the fight."
    if isinstance(e, FixtureUsed):
        return f"{e.unit} uses the {e.fixture} in {e.area}."
    if isinstance(e, AmmoMarked):
        left = f" ({e.left} left)" if e.left is not None else ""
        return f"{e.unit} marks off {e.marked} ammunition of the {e.weapon}{left}."
    if isinstance(e, CombatEnded):
        return f"Combat ends: {e.reason}."
    return repr(e)


_RULE_ID = re.compile(r",? ?\b[A-Z]{3}-\d+\b")
_ASSIGNMENT = re.compile(r"^die assignment by (.+?): .*$")


def plain(text: str) -> str:
    """A reason for the table, without the rule ids a ruling is found by (the odds and
    ``help`` keep them): ``keeps it (UNH-3)`` reads ``keeps it``.

    >>> plain("crew keeps it (UNH-3)")
    'crew keeps it'
    >>> plain("Vince (behind a shield, UNH-25)")
    'Vince (behind a shield)'
    >>> plain("die assignment by Lola: worst (UNH-6); critical success: policy (UNH-7)")
    'Lola picks which die is damage and which the location'
    """
    m = _ASSIGNMENT.match(text)
    if m:
        return f"{m.group(1)} picks which die is damage and which the location"
    out = _RULE_ID.sub("", text).replace(" ()", "").replace("()", "")
    return out.replace(" (;", " (").replace("; )", ")")
