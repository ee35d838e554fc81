"""The round of Arc: initiative once, then rounds of turns in that order, then the wound dice.

1. Initiative (before round 1, never re-rolled): everyone rolls a d20 against AGI x 2 (or AGI
   plus a swapped attribute), increment 5, one step each (guns whose capacity is a die are
   loaded then, ARC-23). The order follows ARC-1, ties ARC-17. Whoever succeeds rolls a d10
   instead of a d20 on its first turn's checks that involve AGI or the attribute swapped in
   for it (ARC-20 says which turn's).
2. Each round every character gets AP equal to its speed (less speed spent in advance on
   reactions, ARC-19); the side with surprise acts alone in round 1 (ARC-18).
3. Each character takes its turn in order: it may hold it until after a later character's,
   spends AP on actions, and ends it; AP left pays for reactions until the round ends.
4. Once everyone has acted the wound dice are rolled (ARC-12), one step per character, and
   whoever is at or under 0 health falls unconscious, at or under -CON dies.

The battle ends when at most one side has characters in action, or after ``max_rounds``.
"""

from __future__ import annotations

from typing import Any

from tactica.dice import die
from tactica.engine.chance import Done, Roll, Step, emit_all
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.rulesets.arc.actions import finish_carried, legal_actions
from tactica.rulesets.arc.checks import DEFAULT_INCREMENT, CheckResult, read_check
from tactica.rulesets.arc.content import DamageDice
from tactica.rulesets.arc.records import (
    InitiativeChecked,
    InitiativeRolled,
    Loaded,
    RoundBegan,
    RoundEnded,
    TurnEnded,
)
from tactica.rulesets.arc.state import ArcState, who
from tactica.rulesets.arc.steps import bleed, done, emit, end_turn, sweep_events

__all__ = ["end_of_round", "finished", "initiative", "initiative_check", "initiative_order",
           "pending", "start_round"]


def finished(state: ArcState) -> Finished | None:
    """Finished when at most one side has anyone in action."""
    standing = [s for s in state.sides if state.standing(s)]
    if len(standing) == 1:
        gone = ", ".join(s for s in state.sides if s != standing[0])
        return Finished(standing[0], f"{standing[0]} is the only side still in action "
                                     f"({gone}: unconscious or dead)")
    if not standing:
        return Finished(None, "nobody is left in action")
    return None


# --------------------------------------------------------------------------------------------
# Initiative


def initiative_order(state: ArcState, results: dict[str, CheckResult]) -> tuple[str, ...]:
    """The order of the turns from everyone's initiative check (ARC-1, ties ARC-17)."""
    listed = list(state.fighters)
    seed = state.rulings["ARC-1"] == "seed"

    def key(uid: str) -> tuple[int, int, int, int]:
        r = results[uid]
        if r.success:
            return (0, r.degree if seed else 0, -r.roll, listed.index(uid))
        return (1, -r.degree if seed else 0, r.roll, listed.index(uid))

    return tuple(sorted(results, key=key))


def _to_roll(state: ArcState) -> list[str]:
    done = {c[0] for c in state.checks}
    return [f.id for f in state.fighters.values() if f.in_action and f.id not in done]


def initiative_check(state: ArcState, unit: str) -> Step:
    """One character's initiative check, and the first load of its die-capacity guns
    (ARC-23): one step per character, so that a game master rolls them one by one."""
    f = state.fighters[unit]
    target = f.profile.initiative
    d20 = die(20)
    guns = [w for w in f.profile.weapons if w.capacity_die is not None]
    rolled_loads = state.rulings["ARC-23"] == "rolled"

    def read(face: int) -> Step:
        r = read_check(face, target, DEFAULT_INCREMENT, state.rulings)
        return loads(0, [InitiativeChecked(unit, face, r.success, r.degree)])

    def loads(i: int, out: list[Any]) -> Step:
        if i == len(guns) or not rolled_loads:
            return emit_all(out, Done(None))
        w = guns[i]
        d = DamageDice(1, w.capacity_die or 0)
        return Roll(f"{unit}'s {w.name} magazine ({d})", d.dist(),
                    lambda v: loads(i + 1, [*out, Loaded(unit, w.name, v)]), d.faces, d.read,
                    hint=f"the rounds in the {w.name}'s magazine")

    return Roll(f"initiative of {unit} (d20 under {target})", d20, read, (d20,),
                lambda faces: faces[0],
                hint=f"{who(state, unit)}: {target} or under succeeds; who succeeds acts "
                     "before who fails")


def initiative(state: ArcState) -> Step:
    """The order from everyone's checks, then round 1."""
    results = {u: CheckResult(roll, ok, deg) for u, roll, ok, deg in state.checks}
    order = initiative_order(state, results)
    first = tuple(u for u in order if results[u].success)
    return emit_all([InitiativeRolled(order, first), _round_began(state, 1)], Done(None))


# --------------------------------------------------------------------------------------------
# Rounds


def _round_began(state: ArcState, r: int) -> RoundBegan:
    ap = tuple((f.id, max(0, f.profile.speed.rank - f.debt))
               for f in state.fighters.values() if not f.dead)
    return RoundBegan(r, ap)


def start_round(state: ArcState, r: int) -> Step:
    """A new round: everyone's AP."""
    return emit_all([_round_began(state, r)], Done(None))


def _to_bleed(state: ArcState) -> list[str]:
    if state.rulings["ARC-12"] != "round":
        return []
    return [f.id for f in state.fighters.values()
            if not f.dead and f.wounds and f.id not in state.bled]


def end_of_round(state: ArcState) -> Step:
    """After everyone's wound dice (one step each): the falls, then the end of the round."""
    out: list[Any] = []
    for f in state.fighters.values():
        out += sweep_events(state, f)
    return emit_all([*out, RoundEnded(state.round)], Done(None))


def _unconscious_turn(state: ArcState, unit: str) -> Step:
    """ARC-12 ``turn``: an unconscious character bleeds when its turn comes round."""

    def close(w: ArcState) -> Step:
        f = w.fighters[unit]
        out: list[Any] = []
        if f.health <= -f.profile.con and w.rulings["ARC-24"] == "at-once":
            out += sweep_events(w, f)
        return emit_all([*out, TurnEnded(unit)], Done(None))

    return bleed(state, unit, lambda w: emit([], close))


def pending(state: ArcState) -> Pending:
    """What happens next."""
    fin = finished(state)
    if fin is not None:
        return fin
    if state.phase == "setup":
        waiting = _to_roll(state)
        if waiting:
            return Automatic(f"initiative of {waiting[0]}", initiative_check(state, waiting[0]))
        return Automatic("initiative order", initiative(state))
    if state.phase == "round" and state.queue:
        f = state.fighters[state.queue[0]]
        if not f.conscious:
            return Automatic(f"{f.id} is unconscious: its wound dice",
                             _unconscious_turn(state, f.id))
        if f.carry is not None and f.ap > 0:
            item = state.items[f.carry[0]].name
            return Automatic(f"{f.id} finishes the {item} it began",
                             finish_carried(state, f.id))
        if f.ap <= 0:
            return Automatic(f"{f.id} has no AP left", end_turn(state, f.id))
        first = " (d10 on its checks with AGI)" if f.id in state.d10 else ""
        return ChooseAction(f.side, legal_actions(state, f.id),
                            f"{who(state, f.id)}'s turn, round {state.round}: {f.ap} AP{first}")
    if state.phase == "round":
        bleeding = _to_bleed(state)
        if bleeding:
            return Automatic(f"wound dice of {bleeding[0]}", bleed(state, bleeding[0], done))
        return Automatic(f"end of round {state.round}", end_of_round(state))
    if state.round >= state.max_rounds:
        return Finished(None, f"the round limit ({state.max_rounds}) was reached")
    return Automatic(f"round {state.round + 1}", start_round(state, state.round + 1))
