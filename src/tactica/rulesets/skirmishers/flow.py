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

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tactica.battlefield.dots.lattice import DotLattice
from tactica.dice import Dist
from tactica.engine.chance import Done, Emit, Observe, Roll, Step, emit_all
from tactica.engine.consulted import consult_all
from tactica.engine.events import Action
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.engine.rulings import Rulings
from tactica.engine.turns import last_side_standing, rotation, round_limit
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers import setup
from tactica.rulesets.skirmishers.arcs import ARC_SIZES, arc_actions, arc_aiming, reactions
from tactica.rulesets.skirmishers.explosives import resolve_explosive, resolve_token, throw_actions
from tactica.rulesets.skirmishers.fire import hit_roll, ranged_tn, shot
from tactica.rulesets.skirmishers.melee import melee_actions, resolve_melee, resolve_pending
from tactica.rulesets.skirmishers.movement import movement_actions, resolve_movement
from tactica.rulesets.skirmishers.state import Arc, SkiState, Soldier, setup_consulted

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = ["actions_of", "finished", "leadership", "new_state", "pending", "resolve", "start"]


def _done(work: SkiState) -> Step:
    return Done(None)


def finished(state: SkiState) -> Finished | None:
    """Finished when at most one side has troopers fighting."""
    return last_side_standing(state.sides, state.alive,
                              won=lambda side: f"{side} is the only side left fighting",
                              nobody="no trooper is left fighting")


def _order(state: SkiState, first: str) -> tuple[str, ...]:
    return rotation(state.sides, first)


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
    if nxt is None:  # after the last turn of the last round
        return round_limit(state.round, state.max_rounds) or Finished(None, "")
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


def new_state(sc_setup: setup.SkirmishersSetup, lattice: DotLattice, rulings: Rulings,
              max_rounds: int) -> SkiState:
    """A fresh battle state: the troopers placed on the map as the scenario sets them."""
    placed = lattice
    for oid in list(lattice.troopers):
        placed = placed.without_occupant(oid)
    troopers: dict[str, Soldier] = {}
    advanced = "advanced-armor" in sc_setup.optional
    for u in sc_setup.units:
        placed = placed.with_occupant(u.id, u.place, prone=u.prone, side=u.side)
        firearms = [w for w in u.weapons if w in sc_setup.pack.weapons]
        troopers[u.id] = Soldier(
            u.id, u.side, u.card, u.armor, u.experience, u.weapons, u.explosives, u.active,
            u.active if u.active in sc_setup.pack.weapons else (firearms[0] if firearms
                                                                else "fists"),
            u.marks, 0 if advanced else u.armor_left, prone=u.prone)
        if u.arc is not None:
            width, bearing, toward = u.arc
            weapon = sc_setup.pack.weapons[u.active]
            shots = ARC_SIZES[width][0] * weapon.shots
            troopers[u.id] = replace(troopers[u.id], arc=Arc(width, bearing, toward, shots,
                                                             u.active))
    state = SkiState(placed, troopers, sc_setup, rulings, max_rounds)
    consult_all(setup_consulted(state))
    return state


def start(scenario: Scenario) -> SkiState:
    """A fresh battle of ``scenario`` (see :func:`new_state`)."""
    lattice = scenario.battlefield
    assert isinstance(lattice, DotLattice) and isinstance(scenario.setup, setup.SkirmishersSetup)
    return new_state(scenario.setup, lattice, scenario.rulings, scenario.max_rounds)
