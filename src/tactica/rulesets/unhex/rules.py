"""Unhex rounds and actions: initiative, team turns, and the process of every action.

A round: every character in the fight gets one action (less one still owed after a critical
failure); initiative is an opposed roll between each team's highest-level character; the
winner picks the order of the team turns; each team acts until it ends its turn while the
other teams may react to each action; then the round ends. Combat ends when one team is left
with characters in the fight, or a scenario objective is met.

Reactions are declared before any die is rolled: each is a :class:`~tactica.engine.chance.Decide` of
the reacting side inside the process of the action it reacts to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactica.battlefield.base import Battlefield
from tactica.battlefield.zones.graph import ZoneGraph
from tactica.engine.chance import Decide, Done, Emit, Step, and_then, emit_all
from tactica.engine.errors import ScenarioError
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.engine.rulings import Rulings
from tactica.engine.turns import last_side_standing, round_limit
from tactica.rulesets.unhex import content
from tactica.rulesets.unhex.aid import first_aid_process
from tactica.rulesets.unhex.attack import (
    AttackOutcome,
    AttackPlan,
    Fighter,
    attack_events,
    attack_roll,
    crit_events,
)
from tactica.rulesets.unhex.body import Body
from tactica.rulesets.unhex.dice import Check, CheckResult, check, opposed_winner
from tactica.rulesets.unhex.legal import (
    interceptions,
    legal_actions,
    reach,
    reactions_to_attack,
)
from tactica.rulesets.unhex.records import (
    ActionSpent,
    AmmoMarked,
    Arrange,
    Attack,
    CombatEnded,
    Door,
    DoorChanged,
    Drop,
    EndTurn,
    FirstAid,
    FixtureUsed,
    InitiativeRolled,
    InitiativeWon,
    ItemDropped,
    ItemsArranged,
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
    TurnEnded,
)
from tactica.rulesets.unhex.rulings import sight_options
from tactica.rulesets.unhex.state import Character, UnhexState, damage_rules, view_for

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = [
    "attack_plan",
    "counter_plan",
    "end_of_combat",
    "finished",
    "first_holder",
    "initiative_winner",
    "pending",
    "resolve",
    "round_process",
    "shielded",
]


# --------------------------------------------------------------------------------------------
# The end of combat


def finished(state: UnhexState) -> Finished | None:
    """Finished if an objective is met or at most one team has characters in the fight."""
    for ob in state.objectives:
        if ob.use is not None:
            if (ob.use, ob.side) in state.used:
                return Finished(ob.side, f"objective met by {ob.side}: the {ob.use} was used")
            continue
        there = [c for c in state.fighters(ob.side) if c.area == ob.reach]
        if len(there) >= ob.count:
            return Finished(ob.side, f"objective met by {ob.side}: {ob.count} in {ob.reach}")
    return last_side_standing(state.standing(), lambda side: True,
                              won=lambda side: f"the only team left in the fight: {side}",
                              nobody="no one is left in the fight")


def pending(state: UnhexState) -> Pending:
    """What happens next: the battle, then the end of combat (ammunition marked off), then
    the result."""
    if state.ended is not None:
        return Finished(*state.ended)
    fin = finished(state)
    side = state.current_side
    if fin is None and side is None:
        fin = round_limit(state.round, state.max_rounds)
    if fin is not None:
        return Automatic("end of combat", end_of_combat(state, fin))
    if side is None:
        return Automatic(f"round {state.round + 1}", round_process(state))
    if not any(c.actions > 0 for c in state.fighters(side)):
        return Automatic(f"end of {side}'s turn", Emit(TurnEnded(side), lambda: Done(None)))
    return ChooseAction(side, legal_actions(state, side), f"{side}'s turn")


def end_of_combat(state: UnhexState, fin: Finished) -> Step:
    """At the end of combat every character marks off ammunition for the ranged weapons it
    fired (UNH-26: one a weapon, or one an attack), then the result is recorded."""
    per_attack = state.rulings["UNH-26"] == "per-attack"
    events: list[Any] = []
    for c in state.chars.values():
        carried = dict(c.ammo)
        for weapon, shots in c.fired:
            marked = shots if per_attack else 1
            left = carried.get(weapon)
            events.append(AmmoMarked(c.id, weapon, marked,
                                     None if left is None else max(0, left - marked)))
    return emit_all([*events, CombatEnded(fin.winner, fin.reason)], Done(None))


# --------------------------------------------------------------------------------------------
# Rounds and initiative


def first_holder(state: UnhexState, standing: list[str]) -> str:
    """Who holds the initiative before this round's roll: the previous holder, else the PCs
    (the first PC team), else the first team listed (UNH-3)."""
    if state.holder in standing:
        assert state.holder is not None
        return state.holder
    for s in standing:
        if s in state.pcs:
            return s
    return standing[0]


def initiative_winner(state: UnhexState, sides: list[str], results: list[CheckResult],
                      holder: str) -> tuple[str, str]:
    """The winning team and why: the highest success wins; a tie (equal highest successes, or
    every roll failing) stays with the team that held the initiative in the prior round, the
    PCs in the first (UNH-3). Under UNH-3 ``pcs-win-equal`` equal successes go to the PCs as in
    any opposed roll. A tie the holder is not part of goes to the PCs among the tied, else to
    the first team listed (UNH-14)."""
    held = "held it in the prior round and keeps it" if state.holder == holder else (
        "gets the first round's tie as the PCs" if holder in state.pcs
        else "gets the first round's tie as the first team listed")
    numbers = " and ".join(f"{s} {r.number}" for s, r in zip(sides, results, strict=True))
    top = opposed_winner(results, [s in state.pcs for s in sides]
                         if state.rulings["UNH-3"] == "pcs-win-equal"
                         else [False] * len(sides))
    if not top:
        return holder, f"a tie, every roll failed ({numbers}): {holder} {held} (UNH-3)"
    best = results[top[0]].number
    equal = [sides[i] for i, r in enumerate(results) if r.success and r.number == best]
    if len(top) == 1:
        if len(equal) > 1:
            return sides[top[0]], (f"a tie, equal successes of {best}: the PCs, "
                                   f"{sides[top[0]]}, win it (UNH-3 pcs-win-equal)")
        return sides[top[0]], f"highest success ({numbers})"
    tied = [sides[i] for i in top]
    if holder in tied:
        return holder, f"a tie, equal successes of {best}: {holder} {held} (UNH-3)"
    pcs = [s for s in tied if s in state.pcs]
    if pcs and len(pcs) < len(tied):
        return pcs[0], (f"a tie, equal successes of {best} without the holder: the PCs, "
                        f"{pcs[0]}, win it")
    return tied[0], (f"a tie, equal successes of {best} without the holder: the first team "
                     f"listed, {tied[0]}")


def _by_roll(state: UnhexState, sides: list[str], results: list[CheckResult],
             winner: str) -> tuple[str, ...]:
    def key(i: int) -> tuple[int, int, int, int]:
        r = results[i]
        return (0 if sides[i] == winner else 1, -r.number if r.success else 1,
                0 if sides[i] in state.pcs else 1, i)

    return tuple(sides[i] for i in sorted(range(len(sides)), key=key))


def round_process(state: UnhexState) -> Step:
    """Start the next round: actions, the initiative roll, the order of the team turns."""
    n = state.round + 1
    actions: list[tuple[str, int]] = []
    owed: list[tuple[str, int]] = []
    for c in state.fighters():
        actions.append((c.id, max(0, 1 - c.owed)))
        if c.owed > 1:
            owed.append((c.id, c.owed - 1))
    left = dict(actions)
    sides = state.standing()
    holder = first_holder(state, sides)
    events: list[Any] = [RoundStarted(n, tuple(actions), tuple(owed))]

    def rolled(rollers: list[Character], results: list[CheckResult]) -> Step:
        evs = list(events)
        for c, r in zip(rollers, results, strict=True):
            evs.append(InitiativeRolled(c.side, c.id, r.number, r.success, r.critical))
            evs += crit_events(c.id, r, left.get(c.id, 0), "initiative")
        winner, why = initiative_winner(state, sides, results, holder)
        evs.append(InitiativeWon(winner, why))
        if len(sides) > 2 and state.rulings["UNH-20"] == "by-roll":
            return emit_all([*evs, TeamOrder(_by_roll(state, sides, results, winner))],
                            Done(None))
        orders = tuple(o for o in permutations(sides) if o[0] == winner) + tuple(
            o for o in permutations(sides) if o[0] != winner)
        return emit_all(evs, Decide(winner, f"{winner}: in which order do the teams act?",
                                    orders, lambda o: Emit(TeamOrder(o), lambda: Done(None)),
                                    {"kind": "team-order", "winner": winner}))

    return _pick_rollers(state, sides, holder, [], rolled)


def _pick_rollers(state: UnhexState, sides: list[str], holder: str, picked: list[Character],
                  then: Callable[[list[Character], list[CheckResult]], Step]) -> Step:
    """Each team's highest-level character rolls; the team picks among equals."""
    if len(picked) == len(sides):
        return _roll_order(state, sides, holder, picked, then)
    side = sides[len(picked)]
    team = state.fighters(side)
    best = max(c.level for c in team)
    top = [c for c in team if c.level == best]
    if len(top) == 1:
        return _pick_rollers(state, sides, holder, [*picked, top[0]], then)
    return Decide(side, f"{side}: who rolls initiative (level {best})?",
                  tuple(c.id for c in top),
                  lambda uid: _pick_rollers(state, sides, holder,
                                            [*picked, state.chars[uid]], then),
                  {"kind": "initiative-roller"})


def _roll_order(state: UnhexState, sides: list[str], holder: str, rollers: list[Character],
                then: Callable[[list[Character], list[CheckResult]], Step]) -> Step:
    """The order of the rolls matters only to someone good at initiative: the holder picks
    which team rolls first (the others follow in the listed order)."""

    def roll_from(first: str) -> Step:
        order = sorted(range(len(sides)), key=lambda i: (sides[i] != first, i))
        return _roll_each(state, rollers, order, {}, then)

    if len(sides) > 1 and any("initiative" in c.good for c in rollers):
        return Decide(holder, f"{holder}: which team rolls initiative first?", tuple(sides),
                      roll_from, {"kind": "roll-order", "holder": holder})
    return roll_from(sides[0])


def _roll_each(state: UnhexState, rollers: list[Character], order: list[int],
               done: dict[int, CheckResult],
               then: Callable[[list[Character], list[CheckResult]], Step]) -> Step:
    if len(done) == len(order):
        return then(rollers, [done[i] for i in range(len(rollers))])
    i = order[len(done)]
    c = rollers[i]
    beat = max((r.number for r in done.values() if r.success), default=0)
    spec = Check("initiative", c.id, c.side, c.level, c.body.max_level, "initiative" in c.good,
                 False, ("initiative", beat))
    return check(spec, lambda r: _roll_each(state, rollers, order, {**done, i: r}, then))


# --------------------------------------------------------------------------------------------
# Actions


def resolve(state: UnhexState, action: Any) -> Step:
    """The chance process of an action; emits the events, ends in ``Done(None)``."""
    if isinstance(action, Attack):
        return _resolve_attack(state, action)
    if isinstance(action, Move):
        return _resolve_move(state, action)
    if isinstance(action, FirstAid):
        return first_aid_process(state, action)
    if isinstance(action, EndTurn):
        return Emit(TurnEnded(action.side), lambda: Done(None))
    if isinstance(action, Arrange):
        c = state.chars[action.unit]
        picked = tuple(n for n in dict.fromkeys(h for h in (action.right, action.left) if h)
                       if n not in c.items)
        return emit_all([ActionSpent(c.id, "manage items"),
                         ItemsArranged(c.id, action.right, action.left, picked)], Done(None))
    if isinstance(action, Drop):
        c = state.chars[action.unit]
        return emit_all([ItemDropped(c.id, action.item, c.area, "dropped")], Done(None))
    if isinstance(action, Door):
        c = state.chars[action.unit]
        return emit_all([ActionSpent(c.id, "door"),
                         DoorChanged(c.id, c.area, action.to, action.state)], Done(None))
    if isinstance(action, Retreat):
        c = state.chars[action.unit]
        return emit_all([ActionSpent(c.id, "retreat"), Retreated(c.id, c.area)], Done(None))
    if isinstance(action, Operate):
        c = state.chars[action.unit]
        return emit_all([ActionSpent(c.id, f"use the {action.fixture}"),
                         FixtureUsed(c.id, c.area, action.fixture)], Done(None))
    raise TypeError(f"not an Unhex action: {action!r}")


def shielded(state: UnhexState, target: Fighter, distance: int) -> bool:
    """The target holds a shield in a usable hand that works against an attack from
    ``distance`` away: any attack, or (UNH-25 ``other-areas``) one from another area."""
    if state.rulings["UNH-25"] == "other-areas" and distance == 0:
        return False
    return any(item is not None and state.item(item).is_shield
               and target.body.hand_usable(hand)
               for hand, item in (("right", target.right), ("left", target.left)))


def attack_plan(state: UnhexState, attacker: Character, target: Fighter, weapon: str,
                kind: str, distance: int, cover: bool, defend: bool) -> AttackPlan:
    """The plan of an attack under the rulings in force."""
    return AttackPlan(Fighter.of(attacker), target, weapon, kind,
                      state.item(weapon).is_ranged, cover, distance, defend, state.damage,
                      state.rulings["UNH-14"], state.rulings["UNH-15"],
                      shielded(state, target, distance))


def counter_plan(state: UnhexState, attacker: Character, target: Character,
                 weapon: str) -> AttackPlan:
    """The plan of ``target``'s counterattack with ``weapon`` on ``attacker``: a separate
    roll from the same area (range 0, never cover or a defence), rolled against the attacker
    as it stood before the attack (the effects of both rolls apply together)."""
    return attack_plan(state, target, Fighter.of(attacker), weapon, "counterattack", 0,
                       False, False)


def _resolve_attack(state: UnhexState, act: Attack) -> Step:
    a, t = state.chars[act.unit], state.chars[act.target]
    look = state.view.look(a.area, t.area)
    options = reactions_to_attack(state, a, t, state.item(act.weapon), look)
    if len(options) == 1:
        return _attack_with(state, act, options[0])
    return Decide(t.side, f"{t.id}: react to {a.id}'s attack with the {act.weapon}?", options,
                  lambda r: _attack_with(state, act, r),
                  {"kind": "react", "attack": act, "cover": look.cover})


def _attack_with(state: UnhexState, act: Attack, r: Reaction) -> Step:
    a, t = state.chars[act.unit], state.chars[act.target]
    if r.kind == "surrender":
        return Emit(Surrendered(t.id, f"the attack by {a.id}"), lambda: Done(None))
    look = state.view.look(a.area, t.area)
    spent: list[Any] = [ActionSpent(a.id, "attack")]
    reacting = r.kind in ("defend", "counterattack")
    if reacting:
        spent.append(ActionSpent(t.id, r.kind))
    plan = attack_plan(state, a, Fighter.of(t), act.weapon, "attack", look.distance or 0,
                       look.cover, r.kind == "defend")
    a_left, t_left = a.actions - 1, t.actions - (1 if reacting else 0)
    if r.kind != "counterattack" or r.weapon is None:
        return emit_all(spent, and_then(attack_roll(plan), lambda o: emit_all(
            attack_events(plan, o, attacker_left=a_left, target_left=t_left, area=t.area)[0],
            Done(None))))
    counter = counter_plan(state, a, t, r.weapon)

    def both(o1: AttackOutcome, o2: AttackOutcome) -> Step:
        # Separate rolls, effects applied together: each wound is on the body before either.
        first = attack_events(plan, o1, attacker_left=a_left, target_left=t_left,
                              area=t.area)[0]
        second = attack_events(counter, o2, attacker_left=t_left, target_left=a_left,
                               area=a.area)[0]
        return emit_all([*first, *second], Done(None))

    return emit_all(spent, and_then(attack_roll(plan), lambda o1: and_then(
        attack_roll(counter), lambda o2: both(o1, o2))))


_PENDING_AREA = ""


def _resolve_move(state: UnhexState, act: Move) -> Step:
    m = state.chars[act.unit]
    start = m.area
    candidates = interceptions(state, m, act.to)

    def declare(i: int, declared: tuple[tuple[str, str], ...]) -> Step:
        if i == len(candidates):
            spent = [ActionSpent(m.id, "move"),
                     *(ActionSpent(uid, "intercept") for uid, _ in declared)]
            go = emit_all(spent, _intercept(state, act, start, declared, 0, Fighter.of(m),
                                            None, []))
            if not declared or state.rulings["UNH-24"] != "yes" or not m.in_fight:
                return go
            by = ", ".join(uid for uid, _ in declared)
            # UNH-24: the mover may surrender before the interceptions' dice; they are not
            # spent, and the mover stays where it was, out of the fight.
            return Decide(m.side, f"{m.id}: surrender before the interception by {by}?",
                          (Reaction("none"), Reaction("surrender")),
                          lambda r: go if r.kind != "surrender" else Emit(
                              Surrendered(m.id, f"the interception by {by}"),
                              lambda: Done(None)),
                          {"kind": "surrender-move", "mover": m.id, "by": declared})
        c, options = candidates[i]
        return Decide(c.side, f"{c.id}: intercept {m.id} moving from {start} to {act.to}?",
                      options,
                      lambda r: declare(i + 1, (*declared, (c.id, r.weapon))
                                        if r.kind == "intercept" and r.weapon else declared),
                      {"kind": "intercept", "unit": c.id, "mover": m.id, "start": start,
                       "to": act.to})

    return declare(0, ())


def _intercept(state: UnhexState, act: Move, start: str, declared: tuple[tuple[str, str], ...],
               k: int, mover: Fighter, stop: tuple[str, str] | None, events: list[Any]) -> Step:
    """Resolve the declared interceptions in order; a stop ends the move (UNH-16, UNH-17)."""
    if k == len(declared):
        at = stop[0] if stop else act.to
        fixed = [ItemDropped(e.unit, e.item, at, e.reason)
                 if isinstance(e, ItemDropped) and e.area == _PENDING_AREA else e
                 for e in events]
        end = Stopped(mover.id, start, act.to, stop[0], stop[1]) if stop else Moved(
            mover.id, start, act.to)
        return emit_all([*fixed, end], Done(None))
    uid, weapon = declared[k]
    c = state.chars[uid]
    nxt = k + 1
    place: str | tuple[str, str] = stop[0] if stop else (start, act.to)
    look = reach(state, c.area, state.item(weapon), place)
    out_of_fight = mover.body.unconscious and state.rulings["UNH-21"] == "no"
    if look is None or out_of_fight or (stop and state.rulings["UNH-16"] == "wasted"):
        return _intercept(state, act, start, declared, nxt, mover, stop, events)
    plan = attack_plan(state, c, mover, weapon, "intercept", look.distance or 0,
                       look.cover if stop else False, False)

    def after(o: AttackOutcome) -> Step:
        evs, hurt = attack_events(plan, o, attacker_left=c.actions - 1, target_left=0,
                                  area=stop[0] if stop else _PENDING_AREA)
        stops = o.hit and ((o.wound is not None and o.wound.stops)
                           or state.rulings["UNH-17"] == "any-hit")
        if stop or not stops:
            return _intercept(state, act, start, declared, nxt, hurt, stop, [*events, *evs])
        return Decide(c.side, f"{c.id}: where does {mover.id} stop?", (start, act.to),
                      lambda at: _intercept(state, act, start, declared, nxt, hurt,
                                            (at, c.id), [*events, *evs]),
                      {"kind": "stop", "mover": mover.id, "by": c.id})

    return and_then(attack_roll(plan), after)


#: The largest fight an Unhex battle is played with (its work grows with both).
MAX_AREAS = 100
MAX_CHARACTERS = 50


def scenario_setup(data: Mapping[str, Any], *, source: str, battlefield: Battlefield | None,
                   rulings: Rulings, base_dir: Path) -> content.UnhexSetup:
    """The game's part of a scenario, on a zone map of at most :data:`MAX_AREAS` areas with
    at most :data:`MAX_CHARACTERS` characters."""
    if not isinstance(battlefield, ZoneGraph):
        raise ScenarioError(f"{source}: map: Unhex is played on a zone map")
    if len(battlefield.areas) > MAX_AREAS:
        raise ScenarioError(f"{source}: map.areas: {len(battlefield.areas)} areas; an Unhex "
                            f"fight is played on at most {MAX_AREAS} (the work of a battle "
                            "grows with the map: see docs/limits.md)")
    units = data.get("units")
    if isinstance(units, Mapping) and len(units) > MAX_CHARACTERS:
        raise ScenarioError(f"{source}: units: {len(units)} characters; an Unhex fight "
                            f"has at most {MAX_CHARACTERS} (see docs/limits.md)")
    return content.build_setup(data, source=source, areas=battlefield.areas,
                               base_dir=base_dir, slots_rule=rulings["UNH-19"],
                               boxes=damage_rules(rulings).boxes)


def new_state(scenario: Scenario) -> UnhexState:
    """A new fight: each character as the scenario sets it, in its area."""
    setup = scenario.setup
    graph = scenario.battlefield
    assert isinstance(setup, content.UnhexSetup) and isinstance(graph, ZoneGraph)
    dmg = damage_rules(scenario.rulings)
    chars = {}
    for u in setup.units:
        body = Body.fresh(u.level, u.max_level, dmg.boxes)
        for location, marks in u.marks:
            body = body.with_marks(location, marks)
        chars[u.id] = Character(u.id, u.side, u.side in setup.pcs, body, u.area, u.items,
                                u.right, u.left, u.good, ammo=u.ammo)
    return UnhexState(view_for(graph, sight_options(scenario.rulings)), chars, setup.sides,
                      setup.pcs, scenario.rulings, dmg, setup.pack.items,
                      scenario.max_rounds, setup.exits, setup.objectives,
                      fixtures=setup.fixtures)
