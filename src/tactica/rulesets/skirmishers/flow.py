"""The turn: IGOUGO with a random first side.

A round is one turn of each side. At the start of its turn a side removes its firing arcs
(and, with the optional morale rule, checks morale); then it activates its troopers one at a
time, in the order it likes. An activation first resolves the melee attacks waiting on the
trooper and the enemy arcs that hold it; then the trooper moves (movement actions, any number,
within its AP and the 8 AP cap) and takes combat actions with the AP left (a firing arc, a melee
attack, a throw; SKI-27), or ends. When every trooper has activated, the side's explosives go
off one by one, and the next side's turn begins. The battle ends when one side alone has
troopers fighting, or after the scenario's last round (a draw).
"""

from __future__ import annotations

from typing import Any

from tactica.dice import Dist
from tactica.engine.chance import Done, Emit, Observe, Roll, Step, emit_all
from tactica.engine.events import Action
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import ARC_SIZES, arc_actions, arc_aiming, reactions
from tactica.rulesets.skirmishers.explosives import resolve_explosive, resolve_token, throw_actions
from tactica.rulesets.skirmishers.fire import hit_roll, ranged_tn, shot
from tactica.rulesets.skirmishers.melee import melee_actions, resolve_melee, resolve_pending
from tactica.rulesets.skirmishers.movement import movement_actions, resolve_movement
from tactica.rulesets.skirmishers.state import SkiState

__all__ = ["actions_of", "finished", "leadership", "pending", "resolve"]


def _done(work: SkiState) -> Step:
    return Done(None)


def finished(state: SkiState) -> Finished | None:
    """Finished when at most one side has troopers fighting."""
    standing = [s for s in state.sides if state.alive(s)]
    if len(standing) == 1:
        return Finished(standing[0], f"{standing[0]} is the only side left fighting")
    if not standing:
        return Finished(None, "no trooper is left fighting")
    return None


def _order(state: SkiState, first: str) -> tuple[str, ...]:
    i = state.sides.index(first)
    return state.sides[i:] + state.sides[:i]


def leadership(state: SkiState, side: str) -> int:
    """The leadership taken off a squad's morale target number "while the leader lives"
    (SKI-42): ``lives`` counts a leader until it is DEAD (at 0 HP too), ``fights`` only while
    it is in action."""
    squad = state.setup.squads[side]
    leader = state.troopers.get(squad.leader or "")
    if leader is None:
        return 0
    counts = leader.in_action if state.rulings["SKI-42"] == "fights" else not leader.dead
    return squad.leadership if counts else 0


def _morale(state: SkiState, side: str, then: Step) -> Step:
    if not state.option("morale"):
        return then
    dead = state.dead_count(side)
    if dead < 4:
        return then
    squad = state.setup.squads[side]
    tn = squad.skill.morale + (dead - 4) - leadership(state, side)

    def checked(passed: bool) -> Step:
        events: list[Any] = [r.MoraleChecked(side, dead, tn, passed)]
        if not passed and state.rulings["SKI-17"] == "retreat":
            events.append(r.Retreated(side))
        return emit_all(events, then)

    return hit_roll(f"2D6 morale check for {side}", tn, checked, words=("holds", "fails"))


def _begin(state: SkiState, round_: int, side: str, order: tuple[str, ...]) -> Step:
    arcs = tuple(t.id for t in state.troopers.values() if t.side == side and t.arc is not None)
    events: list[Any] = [r.TurnBegan(round_, side, order)]
    if arcs:
        events.append(r.ArcsRemoved(side, arcs))
    return emit_all(events, _morale(state, side, Done(None)))


def _roll_first(state: SkiState, round_: int) -> Step:
    first = state.setup.first
    if round_ == 1 and first is not None and state.alive(first):
        return _begin(state, round_, first, _order(state, first))
    standing = tuple(s for s in state.sides if state.alive(s))
    return Roll("first side", Dist.uniform(standing),
                lambda s: _begin(state, round_, s, _order(state, s)))


def _next_turn(state: SkiState) -> Step | None:
    """The next side's turn, or ``None`` after the last turn of the last round."""
    if state.side is None:
        return _roll_first(state, 1)
    order = state.order
    later = [s for s in order[order.index(state.side) + 1:] if state.alive(s)]
    if later:
        return _begin(state, state.round, later[0], order)
    if state.round >= state.max_rounds:
        return None
    if state.rulings["SKI-26"] == "each-round":
        return _roll_first(state, state.round + 1)
    first = next(s for s in order if state.alive(s))
    return _begin(state, state.round + 1, first, order)


def actions_of(state: SkiState, uid: str) -> tuple[Action, ...]:
    """Every action the active trooper may take now: movement, then combat actions, or end."""
    out: list[Action] = []
    out.extend(movement_actions(state, uid))
    out.extend(arc_actions(state, uid))
    out.extend(melee_actions(state, uid))
    out.extend(throw_actions(state, uid))
    out.append(r.EndActivation(uid))
    return tuple(out)


def pending(state: SkiState) -> Pending:
    """What happens next."""
    fin = finished(state)
    if fin is not None:
        return fin
    if state.side is None:
        return Automatic("who starts", _roll_first(state, 1))
    if state.active is not None:
        uid = state.active
        t = state.troopers[uid]
        actions = actions_of(state, uid)
        return ChooseAction(state.side, actions, f"{uid} acts ({state.available(t)} AP left)",
                            aiming=arc_aiming(uid, actions))
    waiting = [t.id for t in state.alive(state.side) if not t.activated]
    if waiting:
        return ChooseAction(state.side, tuple(r.Activate(u) for u in waiting),
                            f"{state.side} activates a trooper")
    if state.tokens:
        n = len(state.tokens)
        return Automatic(f"explosive ({n} to go off)", resolve_token(state))
    nxt = _next_turn(state)
    if nxt is None:
        return Finished(None, f"the round limit ({state.max_rounds}) was reached")
    return Automatic("the next turn", nxt)


def _activate(state: SkiState, uid: str) -> Step:
    return Emit(r.Activated(uid), lambda: Observe(lambda w: resolve_pending(
        w, uid, lambda w2: reactions(w2, uid, _done))))


def _arc(state: SkiState, action: r.EstablishArc) -> Step:
    t = state.troopers[action.unit]
    weapon = state.setup.pack.weapons[t.active]
    base, ap = ARC_SIZES[action.width]
    return emit_all([r.ArcEstablished(action.unit, action.width, action.bearing, action.toward,
                                      base * weapon.shots, ap, t.active)], Done(None))


def _shoot(state: SkiState, action: r.Shoot) -> Step:
    weapon = state.setup.pack.weapons[action.weapon]
    tn = ranged_tn(state, action.unit, action.target, weapon).tn
    if tn is None:
        return Done(None)
    return shot(state, action.unit, action.target, weapon, tn, "shot", _done)


def resolve(state: SkiState, action: Any) -> Step:
    """The chance process of an action."""
    if isinstance(action, r.Activate):
        return _activate(state, action.unit)
    if isinstance(action, r.EndActivation):
        return emit_all([r.ActivationEnded(action.unit)], Done(None))
    if isinstance(action, r.EstablishArc):
        return _arc(state, action)
    if isinstance(action, r.Shoot):
        return _shoot(state, action)
    for resolver in (resolve_movement, resolve_melee, resolve_explosive):
        found = resolver(state, action)
        if found is not None:
            return found
    raise TypeError(f"not a Skirmishers action: {action!r}")
