"""Explosives: hand grenades and satchel charges.

Throwing is a combat action with the explosive active: it costs its AP per dot thrown
(doubled when prone, SKI-5), or its stairwell AP to throw down a stairwell or ladder any number
of levels (from the stairs dot or next to it) or up one level (from the stairs dot). After the
throw the trooper switches back to its firearm for 0 AP and may not establish a firing arc this
turn. The explosive's token waits on the dot; at the end of the side's turn each token in turn
is resolved (one step each): 2D6 against the target number (the AP used, cover, the thrower's
pose and damage; settled at the throw, SKI-29), a miss scatters 1 dot (SKI-6) in a 1D6
direction from the dot, or from the dot before a window it was thrown through (an impassable
obstacle in the way: no scatter, the blast stays on the targeted dot, SKI-41), and the blast
damages every trooper within its rings (the centre, 1 dot, 2 dots; each level one dot further,
through floors, SKI-21) unless an obstacle shelters it, each with its own start-cell roll
(SKI-22).
"""

from __future__ import annotations

from collections.abc import Callable

from tactica.battlefield.dots.blast import blast, scatter, scatter_origin
from tactica.battlefield.dots.geometry import DIRECTIONS, offset_to_axial, steps
from tactica.battlefield.dots.lattice import DotPlace
from tactica.engine.chance import Done, Emit, Observe, Roll, Step, emit_all
from tactica.engine.events import Action
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.card import D6, START_CELL, start_cell
from tactica.rulesets.skirmishers.fire import (
    damage,
    dots_away,
    explosive_tn,
    hit_events,
    hit_roll,
    options,
)
from tactica.rulesets.skirmishers.geometry import blast_options
from tactica.rulesets.skirmishers.state import SkiState, Token, spot_text

__all__ = ["Landing", "blast_victims", "blocked_centre", "landing_process", "resolve_token",
           "throw_actions", "throw_cost", "throw_events", "throw_origin"]

#: Where a token went off: hit, the place (``None``: lost off the map) and why.
Landing = tuple[bool, str | None, str]


def throw_cost(state: SkiState, uid: str, explosive: str, dots: int, *,
               stairwell: bool = False) -> tuple[int, int]:
    """``(AP paid, target number base)`` of a throw of ``dots`` dots (or down/up a
    stairwell): doubled when prone; the base is the AP paid or, SKI-5, before doubling."""
    ex = state.setup.pack.explosives[explosive]
    plain = ex.stairwell_ap if stairwell else ex.ap_per_dot * dots
    paid = plain * (2 if state.troopers[uid].prone else 1)
    if paid == plain:  # nothing doubled: SKI-5 cannot decide (and is not consulted)
        return paid, paid
    return paid, paid if state.rulings["SKI-5"] == "paid" else plain


def _can_throw(state: SkiState, uid: str) -> str | None:
    t = state.troopers[uid]
    if t.active not in state.setup.pack.explosives or t.ammo(t.active) <= 0:
        return None
    if t.stopped or t.side in state.shaken:
        return None
    return t.active


def _stairwell_targets(state: SkiState, uid: str) -> list[DotPlace]:
    lat = state.lattice
    me = lat.trooper(uid)
    out = []
    for dot, st in lat.stairs.items():
        if dot == me.dot:
            if me.level + 1 <= st.high:
                out.append(lat.place(dot, me.level + 1))
            out.extend(lat.place(dot, lvl) for lvl in range(st.low, me.level))
        elif (dot[0] - me.dot[0], dot[1] - me.dot[1]) in DIRECTIONS and st.low < me.level <= \
                st.high:
            out.extend(lat.place(dot, lvl) for lvl in range(st.low, me.level))
    return out


def throw_actions(state: SkiState, uid: str) -> list[r.Throw]:
    """Every throw the trooper may make now: every dot it sees within the dots its AP pay
    for (lattice steps plus levels, :func:`throw_dots`), and the stairwell throws within
    reach."""
    explosive = _can_throw(state, uid)
    if explosive is None:
        return []
    t = state.troopers[uid]
    ap = state.available(t)
    per_dot, _ = throw_cost(state, uid, explosive, 1)
    lat = state.lattice
    me = lat.trooper(uid)
    reach = ap // per_dot
    places: list[str] = []
    for lvl in range(len(lat.level_names)):
        for row in range(lat.rows):
            for col in range(lat.cols):
                dot = offset_to_axial(col, row)
                if (dot, lvl) == (me.dot, me.level) or not lat.has_dot(dot, lvl):
                    continue
                if steps(me.dot, dot) + abs(lvl - me.level) <= reach:
                    places.append(spot_text(dot, lvl))
    out: list[r.Throw] = []
    if places:
        seen = lat.sight_many([(uid, p) for p in places],
                              **{**options(state), "range_levels": "add"})
        for p, visible in zip(places, seen.visible.tolist(), strict=True):
            if visible:
                out.append(r.Throw(uid, explosive, p))
    stair_ap, _ = throw_cost(state, uid, explosive, 0, stairwell=True)
    if stair_ap <= ap:
        out.extend(r.Throw(uid, explosive, str(p), True) for p in _stairwell_targets(state, uid))
    return out


def throw_dots(state: SkiState, uid: str, at: str) -> int:
    """The dots thrown from the trooper to ``at``: lattice steps plus levels, whatever the
    range rulings (SKI-10, SKI-11)."""
    return dots_away(state, uid, at)


def throw_origin(state: SkiState, uid: str, at: str, *, stairwell: bool = False) -> str:
    """Where a missed throw scatters from: the target dot, or the dot before the window it
    was thrown through; outside an upper window that dot has no floor, and the explosive falls
    to the highest level below that has one (SKI-39)."""
    if stairwell:
        return at
    lat = state.lattice
    place = scatter_origin(lat, uid, at, tangent=options(state)["tangent"])
    dot = offset_to_axial(place.col, place.row)
    level = place.level
    while level > 0 and not lat.has_dot(dot, level):
        level -= 1
    return str(lat.place(dot, level))


def throw_events(state: SkiState, action: r.Throw) -> list[r.ExplosiveThrown | r.WeaponChanged]:
    """The events of a throw: the token placed, then the automatic switch back (0 AP)."""
    uid = action.unit
    dots = 0 if action.stairwell else throw_dots(state, uid, action.at)
    paid, base = throw_cost(state, uid, action.explosive, dots, stairwell=action.stairwell)
    tn = explosive_tn(state, uid, action.at, base, stairwell=action.stairwell).tn
    assert tn is not None
    origin = throw_origin(state, uid, action.at, stairwell=action.stairwell)
    t = state.troopers[uid]
    out: list[r.ExplosiveThrown | r.WeaponChanged] = [
        r.ExplosiveThrown(uid, action.explosive, action.at, paid, base, tn, origin,
                          action.stairwell)]
    firearms = [w for w in t.weapons if w in state.setup.pack.weapons]
    back = t.fallback if t.fallback in t.weapons else (firearms[0] if firearms else "fists")
    if back != t.active:
        out.append(r.WeaponChanged(uid, back, 0))
    return out


def token_tn(state: SkiState, token: Token) -> int:
    """The token's target number: at the throw, or (SKI-29 resolution) now."""
    thrower = state.troopers[token.unit]
    if not thrower.in_action or state.rulings["SKI-29"] == "throw":
        return token.tn
    tn = explosive_tn(state, token.unit, token.at, token.base, stairwell=token.stairwell).tn
    return token.tn if tn is None else tn


def blocked_centre(state: SkiState, token: Token) -> str:
    """Where a missed explosive that does not scatter goes off, its scatter stopped by an
    impassable obstacle (or, SKI-33 ``stays``, by the edge of the map); SKI-41: "the centre
    of the explosion stays on the targeted dot" (``targeted-dot``), or, thrown through a
    window, on the dot before the window it scattered from (``before-window``). Without a
    window both are the targeted dot."""
    if state.rulings["SKI-41"] == "before-window":
        return token.origin
    return token.at


def landing_process(state: SkiState, token: Token) -> Step:
    """2D6 against the target number; a miss scatters. ``Done((hit, landing, note))``."""
    tn = token_tn(state, token)
    what = f"the {state.setup.pack.explosives[token.explosive].name} thrown by {token.unit}"

    def scattered(roll: int, distance: int) -> Step:
        sc = scatter(state.lattice, token.origin, roll, distance=distance)
        if not sc.on_map:
            if state.rulings["SKI-33"] == "lost":
                return Done((False, None, f"missed; {sc.reason}: lost"))
            centre = blocked_centre(state, token)
            return Done((False, centre,
                         f"missed; it would scatter off the map: it stays at {centre}"))
        if not sc.moved and distance > 0 and token.origin != token.at:
            centre = blocked_centre(state, token)
            return Done((False, centre, f"missed; {sc.reason}: it goes off on {centre} "
                                        "(SKI-41)"))
        return Done((False, str(sc.landing), f"missed; {sc.reason}"))

    def rolled(hit: bool) -> Step:
        if hit:
            return Done((True, token.at, "on target"))
        if state.rulings["SKI-6"] == "d6-dots":
            return Roll(f"D6 scatter direction of {what}", D6, lambda d: Roll(
                f"D6 scatter distance (dots) of {what}", D6, lambda n: scattered(d, n), dice=(D6,),
                read=_first), dice=(D6,), read=_first)
        return Roll(f"D6 scatter direction of {what}", D6, lambda d: scattered(d, 1), dice=(D6,),
                    read=_first)

    return hit_roll(f"2D6 to hit: {what} lands on {token.at}", tn, rolled)


def _first(faces: tuple[int, ...]) -> int:
    return faces[0]


def blast_victims(state: SkiState, explosive: str, landing: str) -> list[tuple[str, int, int]]:
    """``(trooper, ring, lethal damage)`` for every trooper in action the blast reaches."""
    rings = state.setup.pack.explosives[explosive].rings
    # SKI-21 (a blast through floors) decides only on a map of several levels
    ruled = (state.rulings if len(state.lattice.level_names) > 1
             else {"SKI-12": state.rulings["SKI-12"]})
    opts = blast_options(ruled)
    hits = blast(state.lattice, landing, radius=len(rings) - 1, floors=opts["floors"],
                 tangent=opts["tangent"])
    out = []
    for h in hits:
        t = state.troopers.get(h.oid)
        if t is None or not t.in_action or h.sheltered or rings[h.ring] <= 0:
            continue
        out.append((h.oid, h.ring, rings[h.ring]))
    return out


def blast_process(state: SkiState, thrower: str, explosive: str, landing: str,
                  then: Callable[[SkiState], Step]) -> Step:
    """The blast's damage, trooper by trooper (nearest first), then ``then``."""
    victims = blast_victims(state, explosive, landing)
    if not victims:
        return then(state)
    if state.rulings["SKI-22"] == "one-roll":
        def shared(start: int) -> Step:
            def one(i: int, work: SkiState) -> Step:
                if i == len(victims):
                    return then(work)
                uid, _, lethal = victims[i]
                return emit_all(hit_events(work, uid, start, lethal, 0, thrower),
                                Observe(lambda w: one(i + 1, w)))
            return one(0, state)

        return Roll(f"2D6 start cell for every hit of the blast (thrown by {thrower})",
                    START_CELL, shared, dice=(D6, D6), read=start_cell)

    def each(i: int, work: SkiState) -> Step:
        if i == len(victims):
            return then(work)
        uid, _, lethal = victims[i]
        return damage(work, uid, lethal, 0, thrower, lambda w: each(i + 1, w),
                      label=f"2D6 start cell for the blast hit on {uid}")

    return each(0, state)


def resolve_token(state: SkiState) -> Step:
    """Resolve the first explosive token of the turn."""
    token = state.tokens[0]

    def landed(result: Landing) -> Step:
        hit, landing, note = result
        event = r.ExplosiveResolved(token.unit, token.explosive, token_tn(state, token), hit,
                                    landing, note)
        if landing is None:
            return emit_all([event], Done(None))
        return Emit(event, lambda: Observe(lambda w: blast_process(
            w, token.unit, token.explosive, landing, lambda _: Done(None))))

    from tactica.engine.chance import and_then

    return and_then(landing_process(state, token), landed)


def resolve_explosive(state: SkiState, action: Action) -> Step | None:
    """The process of a throw (``None``: not one): the token is placed, nothing rolls yet."""
    if isinstance(action, r.Throw):
        return emit_all(throw_events(state, action), Done(None))
    return None
