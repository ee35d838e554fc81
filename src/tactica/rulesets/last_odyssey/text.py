"""Last Odyssey actions and events in words, for the play command and logs."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tactica.engine.ruleset import UnitStatus
from tactica.rulesets.last_odyssey import records as r
from tactica.rulesets.last_odyssey.state import LodState

__all__ = [
    "describe_action",
    "describe_event",
    "describe_option",
    "explain_action",
    "roller",
    "units",
]

#: A rule id in brackets, as the odds' reasons give it.
_RULE_ID = re.compile(r" \([A-Z]{3}-\d+\)")


def _ability_name(state: LodState, name: str) -> str:
    found = state.pack.abilities.get(name) or state.pack.items.get(name)
    return found.name if found is not None else name


def describe_action(state: LodState, action: Any) -> str:
    """One line for an action."""
    if isinstance(action, r.UseAbility):
        what = _ability_name(state, action.ability)
        if action.element:
            what += f" ({action.element})"
        ko = " to knock out" if action.knockout else ""
        targets = ", ".join(action.targets)
        if action.targets == (action.unit,):  # said, so that nobody asks "on whom?"
            return f"{action.unit} uses {what} on itself{ko}"
        return f"{action.unit} uses {what} on {targets}{ko}"
    if isinstance(action, r.UseItem):
        return f"{action.unit} uses {_ability_name(state, action.item)} on {action.target}"
    if isinstance(action, r.Move):
        return f"{action.unit} moves to the {action.row} row"
    if isinstance(action, r.HoldAP):
        return f"{action.unit} holds 1 AP for a turn after {action.after}'s"
    if isinstance(action, r.SwapEquipment):
        return f"{action.unit} swaps to the {action.weapon}"
    if isinstance(action, r.PickUp):
        return f"{action.unit} picks up its weapon"
    if isinstance(action, r.Flee):
        return f"{action.unit} flees"
    if isinstance(action, r.EndTurn):
        return f"{action.unit} ends its turn"
    return repr(action)


def _attack(state: LodState, e: r.AttackResolved) -> str:
    name = _ability_name(state, e.ability)
    roll = f"die {e.die}, total {e.total}"
    if e.threshold >= 0:
        roll += f" against {e.threshold}"
    if not e.hit:
        why = {"auto-fail": "fails automatically", "immune": "is immune"}.get(e.how, "misses")
        return f"{e.unit}'s {name} on {e.target}: {roll}: {why}."
    how = " (natural 1)" if e.how == "natural 1" else ""
    if e.kind == "status":
        got = f"{e.target} is {e.status.capitalize()}" if e.status else "no new status"
        return f"{e.unit}'s {name} on {e.target}: {roll}: hits{how}; {got}."
    if e.note == "body-armor":
        return f"{e.unit}'s {name} on {e.target}: {roll}: hits, but Body Armor stops it."
    return (f"{e.unit}'s {name} on {e.target}: {roll}: hits{how}; base {e.base} x "
            f"{e.multiplier} = {e.damage} damage.")


def _damaged(e: r.Damaged) -> str:
    """A broken Shell is not "Shell 0": another Shell may lie beneath (the event carries only
    the one it hit), so the line says what the event knows."""
    head = f"{e.unit} takes {e.to_shell + e.to_hp} ({e.to_shell} to the Shell, {e.to_hp} HP)"
    if e.broken:
        return f"{head}: the Shell breaks, HP {e.hp} - Shellbroken!"
    if e.to_shell:
        return f"{head}: {e.shell} left in the Shell, HP {e.hp}."
    return f"{head}: HP {e.hp}."


_SIMPLE: dict[type, Callable[[Any], str]] = {
    r.InitiativeRolled: lambda e: "Initiative: " + ", ".join(e.order) + (
        f" (GM rolled {e.roll}" + (f"; exact call: {', '.join(e.boosted)}" if e.boosted else "")
        + ")" if e.calls else ""),
    r.PhaseStarted: lambda e: ("First strike, before initiative: a free 1-AP turn each."
                               if e.phase == "first-strike" else
                               f"Round {e.round}: {e.phase.replace('-', ' ')} phase."),
    r.RoundEnded: lambda e: f"Round {e.round} ends.",
    r.APSpent: lambda e: f"{e.unit} spends {e.amount} AP ({e.left} left).",
    r.TurnEnded: lambda e: f"{e.unit}'s turn ends.",
    r.HeldAP: lambda e: f"{e.unit} will act again after {e.after}.",
    r.Moved: lambda e: f"{e.unit} moves to the {e.row} row" + (" (free)." if e.free else "."),
    r.CoinCalled: lambda e: f"{e.unit} is Confused and " + (
        "wins the coin call." if e.won else "loses the coin call."),
    r.Retargeted: lambda e: f"{e.side} sends {e.unit}'s action to {e.target}.",
    r.Intercepted: lambda e: f"{e.protector} is Faithful and takes the blow meant for "
                             f"{e.protected}.",
    r.Damaged: _damaged,
    r.HeldOn: lambda e: f"{e.unit} is at 0 HP but Too Stupid to Die: it stays until the "
                        "Effect phase" + (", then falls knocked out." if e.knocked_out
                                          else ", then falls."),
    r.Downed: lambda e: f"{e.unit} is " + ("knocked out." if e.knocked_out else "downed."),
    r.StatusGained: lambda e: f"{e.unit} is {e.status.capitalize()}.",
    r.StatusesCured: lambda e: f"{e.unit} is cured of {', '.join(e.statuses)}.",
    r.TrackMoved: lambda e: f"{e.unit}'s {e.stat} is " + ("buffed" if e.step > 0 else "debuffed")
                            + f" to {e.value:+d}.",
    r.Healed: lambda e: f"{e.unit} regains {e.amount} HP ({e.hp}).",
    r.ManaChanged: lambda e: f"{e.unit} regains {e.amount} MP ({e.mp}).",
    r.ShellGained: lambda e: f"{e.unit} gains a {e.element} Shell ({e.total}).",
    r.AmmoChanged: lambda e: f"{e.unit} has {e.ammo} Ammo.",
    r.ItemStolen: lambda e: f"{e.thief} steals {e.item} from {e.victim}.",
    r.Disarmed: lambda e: f"{e.unit} drops the {e.weapon}.",
    r.Equipped: lambda e: f"{e.unit} wields the {e.weapon}.",
    r.Advanced: lambda e: f"{e.side} advances on {e.on}: all of {e.on} is in front now.",
    r.Fled: lambda e: f"{e.unit} flees the battle.",
}


def describe_event(state: LodState, event: Any) -> str:
    """One line for an event."""
    if isinstance(event, r.AttackResolved):
        return _attack(state, event)
    if isinstance(event, r.AbilityUsed):
        name = _ability_name(state, event.ability)
        paid = [f"{event.mp} MP"] if event.mp else []
        paid += [f"{event.ammo} Ammo"] if event.ammo else []
        free = " (free)" if event.free else ""
        return (f"{event.unit} uses {name}{free}" + (f", paying {', '.join(paid)}" if paid else "")
                + ".")
    if isinstance(event, r.ItemUsed):
        return f"{event.unit} uses {_ability_name(state, event.item)} on {event.target}."
    simple = _SIMPLE.get(type(event))
    return simple(event) if simple else repr(event)


def explain_action(state: LodState, action: Any) -> list[str]:
    """What an action needs and risks: the hit die's faces and damage for attacks (from the
    exact odds), the cost and the effect otherwise."""
    from tactica.engine.errors import TacticaError
    from tactica.rulesets.last_odyssey.odds import attack_odds

    if isinstance(action, r.UseAbility):
        ability = state.ability(action.ability)
        lines = [f"{ability.name}: {ability.type}, {ability.ap} AP, {ability.mp} MP"
                 + (f", {ability.ammo} Ammo" if ability.ammo else "")]
        if ability.attack is not None:
            try:
                report = attack_odds(state, action)
            except TacticaError as exc:
                return [*lines, str(exc)]
            # the rule ids stay in the odds report ('odds N'), not in what play shows
            lines += [_RULE_ID.sub("", reason) for reason in report.reasons]
            lines += [f"{k.replace('_', ' ')}: {float(v):.3f}" for k, v in report.numbers.items()]
        return lines
    return [describe_action(state, action)]


def describe_option(state: LodState, decision: Any, option: Any) -> str:
    """One option of a decision inside an action."""
    label = str(getattr(decision, "label", ""))
    if label.startswith("advance on"):
        return "advance" if option else "stay"
    if label == "confused target" and option in state.fighters:
        f = state.fighters[option]
        return f"{option} ({f.side}, {state.rows.row_of(option)} row, HP {f.hp})"
    if label == "item to steal":
        return _ability_name(state, str(option))
    return str(option)


def units(state: LodState) -> tuple[UnitStatus, ...]:
    """Every character as it stands: its row, HP, Shell, MP and statuses."""
    rows = state.rows
    return tuple(
        UnitStatus(f.id, f.side, f.standing,
                   rows.locate(f.id) if f.id in rows.occupants else None,
                   {"hp": f.hp, "shell": f.shell_total, "mp": f.mp,
                    "statuses": ", ".join(sorted(f.statuses)) or "-",
                    "knocked_out": f.knocked_out, "fled": f.fled},
                   survived=f.standing or f.fled or f.knocked_out)
        for f in state.fighters.values()
    )


_REACTION_DIE = re.compile(r"^hit die \((.+)\)$")


def roller(state: LodState, label: str, action: Any) -> str | None:
    """Who rolls: an ability's hit die and a coin call are its user's; the hit die of a
    reaction (Revenge, Quick Fingers, a pack's reaction) is the reacting target's, and so is
    the item a Quick Fingers steals (a stealing ability's own theft is its user's); the GM's
    initiative dice are the table's."""
    if not isinstance(action, r.UseAbility):
        return None
    targets = [t for t in action.targets if t in state.fighters]
    reaction = _REACTION_DIE.match(label)
    if reaction is not None:
        name = reaction.group(1)
        passive = {"Revenge": "revenge", "Quick Fingers": "quick-fingers"}.get(name)
        for tid in targets:
            f = state.fighters[tid]
            if passive in f.passives or any(state.ability(a).name == name
                                            for a in f.abilities):
                return tid
        return targets[0] if targets else None
    if label == "stolen item":
        if state.ability(action.ability).steal:
            return action.unit
        thieves = [t for t in targets if "quick-fingers" in state.fighters[t].passives]
        return (thieves or targets or [action.unit])[0]
    if label.startswith("GM's"):
        return None
    return action.unit


def figures(state: LodState) -> dict[str, dict[str, str]]:
    """Every figure of every character, for the unit panel and ``status``: HP, Shell and MP
    with their maximum, the weapon and the abilities."""
    out: dict[str, dict[str, str]] = {}
    for f in state.fighters.values():
        shown = {"hp": f"{f.hp} of {f.max_hp}",
                 "shell": f"{f.shell_total} (at most {f.shell_cap})" if f.shell_cap else
                 str(f.shell_total),
                 "mp": f"{f.mp} of {f.max_mp}"}
        if f.equipped is not None:
            shown["weapon"] = f.equipped.name
        if f.abilities:
            shown["abilities"] = ", ".join(_ability_name(state, a) for a in f.abilities)
        if f.items:
            shown["items"] = ", ".join(_ability_name(state, i) for i in f.items)
        out[f.id] = shown
    return out
