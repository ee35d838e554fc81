"""The computer's choices: establish arcs, move through cover, hold fire, throw grenades, and
value AP.

Values are in expected hits (a hit at 2D6 against a target number counts its chance). A
trooper's place is worth the arc it can establish there with the AP left (enemies in sight and
range, their chances, the arc's shots), less what the enemy can do to it: the enemy arcs that
hold the dots of its path and its place (each fires as it enters), and the enemies that see it
there (their next turn's arcs). An arc is worth its shots at the enemies it holds in sight; a
grenade its chance times the enemies in its rings, friends counted against; a melee attack its
chance. Reaction fire takes the best chance and holds for a shot worse than 1 in 12 (or the
last shot worse than 1 in 6). Every sight question of a ranking is one vectorised batch of the
dot lattice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tactica.battlefield.dots.fast import batch
from tactica.battlefield.dots.geometry import offset_to_axial, steps
from tactica.battlefield.dots.sight import SightOptions
from tactica.engine.chance import Decide
from tactica.engine.events import Action
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import ARC_SIZES, HOLD, held_dots, holds_dot
from tactica.rulesets.skirmishers.arcs import _toward as _toward_dot
from tactica.rulesets.skirmishers.explosives import throw_cost
from tactica.rulesets.skirmishers.fire import hit_chance, melee_damage, melee_tn, options, ranged_tn
from tactica.rulesets.skirmishers.movement import DROP_PRONE, STAY_UP, reach_tree
from tactica.rulesets.skirmishers.state import Arc, SkiState, Soldier, spot_text

__all__ = ["choose_decision", "rank_actions"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: P(2D6 >= tn) for tn 0..19.
P_HIT: FloatArray = np.array([float(hit_chance(tn)) for tn in range(20)])
EXPOSURE = 0.5     # weight of being seen by an enemy (its next arcs)
APPROACH = 0.03    # per dot to the nearest enemy, at the start
URGENCY = 0.12     # more per dot by the last round (a draw is nobody's win)
HOLD_BELOW = 1 / 12


def _p(tn: IntArray) -> FloatArray:
    out: FloatArray = P_HIT[np.clip(tn, 0, 19)]
    return out


@lru_cache(maxsize=64)
def _sight_opts(key: tuple[tuple[str, str], ...]) -> SightOptions:
    return SightOptions.parse(dict(key))


def _dmg_factor(lethal: int, bludgeoning: int) -> float:
    return min(1.0, (lethal + 0.3 * bludgeoning) / 4)


class _Ctx:
    """What a ranking needs about the trooper and its enemies."""

    def __init__(self, state: SkiState, uid: str) -> None:
        self.state = state
        self.me = state.troopers[uid]
        lat = state.lattice
        self.spot = (lat.trooper(uid).dot, lat.trooper(uid).level)
        self.enemies = [e for e in state.alive() if e.side != self.me.side
                        and e.id in lat.troopers]
        self.friends = [f for f in state.alive() if f.side == self.me.side and f.id != uid]
        self.pack = state.setup.pack
        self.opts = _sight_opts(tuple(sorted(options(state).items())))
        self.cache: dict[str, Any] = {}

    def weapon_of(self, t: Soldier) -> Any:
        w = self.pack.weapons.get(t.active) or self.pack.weapons.get(t.fallback)
        return w


def _sight(ctx: _Ctx, src: IntArray, la: IntArray, pa: npt.NDArray[np.bool_], dst: IntArray,
           lb: IntArray, pb: npt.NDArray[np.bool_]
           ) -> tuple[npt.NDArray[np.bool_], IntArray, IntArray]:
    """Sight for pairs of axial dots (``(n, 2)``), levels and poses, in one batch (pairs on the
    same spot are left out: not visible)."""
    n = src.shape[0]
    visible = np.zeros(n, dtype=np.bool_)
    cover = np.zeros(n, dtype=np.int64)
    rng = np.full(n, -1, dtype=np.int64)
    keep = np.flatnonzero(~((src == dst).all(axis=1) & (la == lb)))
    if keep.size:
        out = batch(ctx.state.lattice, src[keep], dst[keep], la[keep], lb[keep], pa[keep],
                    pb[keep], ctx.opts)
        visible[keep], cover[keep], rng[keep] = out.visible, out.cover, out.range
    return visible, cover, rng


def _arc_values(p: FloatArray, mult: int, left: IntArray) -> FloatArray:
    """What the best arc each spot's AP ``left`` pays for is worth against enemies hit with
    chances ``p`` (spots x enemies): each enemy in it draws a shot as it activates (more if
    it moves on inside), a 30 degree arc holds about one of them, 60 two, 150 all."""
    ranked = -np.sort(-p, axis=1)
    n, m = ranked.shape
    sums = np.concatenate([np.zeros((n, 1)), np.cumsum(ranked, axis=1)], axis=1)
    top = ranked[:, 0] if m else np.zeros(n)
    best = np.zeros(n)
    for width, (base, cost) in ARC_SIZES.items():
        shots = base * mult
        held = min({30: 1, 60: 2, 150: m}[width], m, shots)
        spare = min(shots - held, 2)
        value = sums[:, held] + 0.15 * spare * top + 0.02 * width / 150
        best = np.where(left >= cost, np.maximum(best, value), best)
    return best


def _spots_value(ctx: _Ctx, spots: list[tuple[tuple[int, int], int]], costs: list[int],
                 prone: bool) -> tuple[FloatArray, FloatArray]:
    """The worth of standing on each spot with the AP left after paying ``costs``, and the
    danger of entering it (the enemy arcs that hold it, each a shot)."""
    state, me = ctx.state, ctx.me
    n, m = len(spots), len(ctx.enemies)
    if not m:
        return np.zeros(n), np.zeros(n)
    lat = state.lattice
    e_dots = np.array([lat.trooper(e.id).dot for e in ctx.enemies], dtype=np.int64)
    e_lvls = np.array([lat.trooper(e.id).level for e in ctx.enemies], dtype=np.int64)
    e_prone = np.array([e.prone for e in ctx.enemies], dtype=np.bool_)
    dots = np.array([s[0] for s in spots], dtype=np.int64).reshape(n, 2)
    lvls = np.array([s[1] for s in spots], dtype=np.int64)
    src, sl = np.repeat(dots, m, axis=0), np.repeat(lvls, m)
    dst, dl = np.tile(e_dots, (n, 1)), np.tile(e_lvls, n)
    mine = np.full(n * m, prone, dtype=np.bool_)
    theirs = np.tile(e_prone, n)
    both_v, both_c, both_r = _sight(
        ctx, np.concatenate([src, dst]), np.concatenate([sl, dl]),
        np.concatenate([mine, theirs]), np.concatenate([dst, src]), np.concatenate([dl, sl]),
        np.concatenate([theirs, mine]))
    k = n * m
    out_v, out_c, out_r = both_v[:k], both_c[:k], both_r[:k]
    in_v, in_c, in_r = both_v[k:], both_c[k:], both_r[k:]
    dq, dr = dst[:, 0] - src[:, 0], dst[:, 1] - src[:, 1]
    dist = ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 + np.abs(dl - sl)).reshape(n, m)
    values = np.zeros(n)
    weapon = ctx.weapon_of(me)
    if weapon is not None:
        rng = out_r.reshape(n, m)
        ok = out_v.reshape(n, m) & (rng >= 0) & (rng <= weapon.long)
        eprone = np.tile(e_prone, (n, 1))
        tn = (6 + 2 * (rng > weapon.short) + out_c.reshape(n, m) - (1 if prone else 0)
              + np.where(eprone, np.where(dist > 1, 1, -1), 0) + state.modifier(me))
        p = np.where(ok, _p(tn), 0.0) * _dmg_factor(weapon.lethal, weapon.bludgeoning)
        left = state.available(me) - np.array(costs, dtype=np.int64)
        values += _arc_values(p, weapon.shots, left)
    # Enemies that see the spot: their next turn's arcs (and their arcs now, on the path).
    danger = np.zeros((n, m))
    vis_in, cov_in, rng_in = in_v.reshape(n, m), in_c.reshape(n, m), in_r.reshape(n, m)
    for j, e in enumerate(ctx.enemies):
        w = ctx.weapon_of(e)
        if w is None:
            continue
        rj = rng_in[:, j]
        ok = vis_in[:, j] & (rj >= 0) & (rj <= w.long)
        tn = (6 + 2 * (rj > w.short) + cov_in[:, j] - (1 if e.prone else 0)
              + (np.where(dist[:, j] > 1, 1, -1) if prone else 0) + state.modifier(e))
        danger[:, j] = np.where(ok, _p(tn), 0.0) * _dmg_factor(w.lethal, w.bludgeoning)
    values -= EXPOSURE * danger.sum(axis=1)
    arc_danger = np.zeros(n)
    for j, e in enumerate(ctx.enemies):
        if e.arc is None or e.arc.shots <= 0:
            continue
        held_set = held_dots(state, (int(e_dots[j, 0]), int(e_dots[j, 1])), e.arc)
        held = np.fromiter((sp[0] in held_set for sp in spots), dtype=np.bool_, count=n)
        arc_danger += np.where(held, danger[:, j], 0.0)
    late = state.round / max(state.max_rounds, 1)
    values -= (APPROACH + URGENCY * late) * dist.min(axis=1)
    return values, arc_danger


def _move_values(ctx: _Ctx, actions: Sequence[Action], idx: list[int]) -> dict[int, float]:
    state = ctx.state
    uid = ctx.me.id
    costs, came = reach_tree(state, uid)
    spots = sorted(costs, key=lambda s: costs[s])
    values, arc_danger = _spots_value(ctx, spots, [costs[s] for s in spots], ctx.me.prone)
    index = {s: i for i, s in enumerate(spots)}
    path_danger: dict[Any, float] = {}
    for s in spots:
        link = came.get(s)
        path_danger[s] = 0.0 if link is None else path_danger[link[0]] + arc_danger[index[s]]
    here = values[index[ctx.spot]]
    named = {spot_text(*sp): sp for sp in spots}
    out = {}
    for i in idx:
        a = actions[i]
        assert isinstance(a, r.Move)
        sp = named[a.to]
        out[i] = float(values[index[sp]] - path_danger[sp] - here - 0.01)
    return out


def _shot_chances(ctx: _Ctx) -> dict[str, float]:
    """The worth of a shot from where the trooper stands at each enemy it may hit."""
    found: dict[str, float] | None = ctx.cache.get("shots")
    if found is None:
        weapon = ctx.weapon_of(ctx.me)
        found = {}
        if weapon is not None:
            factor = _dmg_factor(weapon.lethal, weapon.bludgeoning)
            for e in ctx.enemies:
                tn = ranged_tn(ctx.state, ctx.me.id, e.id, weapon)
                if tn.tn is not None:
                    found[e.id] = float(tn.p_hit) * factor
        ctx.cache["shots"] = found
    return found


def _bearing_of(dq: int, dr: int) -> float:
    return math.degrees(math.atan2(dr * math.sqrt(3) / 2, dq + dr / 2)) % 360


def _arc_values_now(ctx: _Ctx, arcs: list[tuple[int, r.EstablishArc]]) -> dict[int, float]:
    """The worth of each arc the trooper may establish where it stands: the shots it gets at
    the enemies it holds in sight (they draw fire as they activate in it), a little for the
    others it holds and for its width. Membership is decided by bearings, and exactly by the
    lattice next to an edge."""
    state = ctx.state
    weapon = ctx.weapon_of(ctx.me)
    if weapon is None or not arcs:
        return {i: -1.0 for i, _ in arcs}
    chances = _shot_chances(ctx)
    here = ctx.spot[0]
    offsets = [(d[0] - here[0], d[1] - here[1]) for d in
               (state.lattice.trooper(e.id).dot for e in ctx.enemies)]
    ebear = np.array([_bearing_of(*o) if o != (0, 0) else np.nan for o in offsets])
    eworth = np.array([chances.get(e.id, 0.0) for e in ctx.enemies])
    n_arcs = len(arcs)
    axis = np.empty(n_arcs)
    half = np.empty(n_arcs)
    shots = np.empty(n_arcs, dtype=np.int64)
    costs = np.empty(n_arcs)
    for k, (_, a) in enumerate(arcs):
        base, cost = ARC_SIZES[a.width]
        shots[k], costs[k], half[k] = base * weapon.shots, cost, a.width / 2
        if a.toward is not None:
            tq, tr = _toward_dot(a.toward)
            axis[k] = _bearing_of(tq - here[0], tr - here[1])
        else:
            axis[k] = float(a.bearing or 0)
    off = np.abs((ebear[None, :] - axis[:, None] + 180) % 360 - 180)
    inside = off < half[:, None] - 1e-7
    for k, j in zip(*np.nonzero(np.abs(off - half[:, None]) <= 1e-7), strict=True):
        _, a = arcs[int(k)]
        arc = Arc(a.width, a.bearing, a.toward, int(shots[k]), weapon.key)
        inside[k, j] = holds_dot(state, here, arc, state.lattice.trooper(
            ctx.enemies[int(j)].id).dot)
    m = len(ctx.enemies)
    ranked = -np.sort(-np.where(inside, eworth[None, :], 0.0), axis=1)
    sums = np.concatenate([np.zeros((n_arcs, 1)), np.cumsum(ranked, axis=1)], axis=1)
    held = inside.sum(axis=1)
    take = np.minimum(shots, m)
    # Among arcs holding the same enemies, the one whose axis points at them keeps them
    # when they move a little.
    centred = np.where(inside, off / half[:, None], 0.0).sum(axis=1) / np.maximum(held, 1)
    shootable = (inside & (eworth[None, :] > 0)).sum(axis=1)
    value = (sums[np.arange(n_arcs), take]
             + 0.15 * np.clip(np.minimum(shots - shootable, 2), 0, None) * ranked[:, 0]
             + 0.03 * held + 0.02 * 2 * half / 150 - 0.001 * costs - 0.01 * centred)
    return {i: float(v) for (i, _), v in zip(arcs, value.tolist(), strict=True)}


def _throw_value(ctx: _Ctx, a: r.Throw, ap_left: int | None = None) -> float:
    state, me = ctx.state, ctx.me
    ex = ctx.pack.explosives[a.explosive]
    lat = state.lattice
    place = lat.locate(a.at)
    centre = (offset_to_axial(place.col, place.row), place.level)
    dots = steps(ctx.spot[0], centre[0]) + abs(ctx.spot[1] - centre[1])
    _, base = throw_cost(state, me.id, a.explosive, dots, stairwell=a.stairwell)
    prone = 1 if me.prone and state.rulings["SKI-38"] == "minus-one" else 0
    p = float(hit_chance(base - prone + state.modifier(me)))
    total = 0.0
    for t in state.alive():
        if t.id not in lat.troopers:
            continue
        tt = lat.trooper(t.id)
        ring = steps(centre[0], tt.dot) + abs(centre[1] - tt.level)
        if ring >= len(ex.rings):
            continue
        worth = _dmg_factor(ex.rings[ring], 0) * (0.5 if t.prone and ring > 0 else 1.0)
        total += -1.5 * worth if t.side == me.side else worth
    scatter = 0.15 * (1 - p) * total
    return p * total + scatter - 0.05


def _best_throw(ctx: _Ctx, explosive: str, ap: int) -> float:
    """Roughly what a throw at an enemy's dot is worth with ``ap`` AP."""
    from tactica.rulesets.skirmishers.fire import sight

    best = 0.0
    per, _ = throw_cost(ctx.state, ctx.me.id, explosive, 1)
    for e in ctx.enemies:
        dots = ctx.state.lattice.distance(ctx.me.id, e.id)
        if dots * per > ap or dots < 2 or not sight(ctx.state, ctx.me.id, e.id).visible:
            continue
        place = ctx.state.place(e.id)
        best = max(best, _throw_value(ctx, r.Throw(ctx.me.id, explosive, str(place))))
    return best


def rank_actions(state: SkiState, actions: Sequence[Action]) -> list[float]:
    """How good each action looks for the side taking it."""
    out = [0.0] * len(actions)
    if not actions:
        return out
    uid = getattr(actions[0], "unit", None)
    if isinstance(actions[0], r.Activate) or uid is None or uid not in state.troopers:
        return out
    ctx = _Ctx(state, uid)
    me = ctx.me
    moves = [i for i, a in enumerate(actions) if isinstance(a, r.Move)]
    if moves:
        out_moves = _move_values(ctx, actions, moves)
        for i, v in out_moves.items():
            out[i] = v
    arcs = [(i, a) for i, a in enumerate(actions) if isinstance(a, r.EstablishArc)]
    out_arcs = _arc_values_now(ctx, arcs)
    for i, a in enumerate(actions):
        if isinstance(a, r.EstablishArc):
            out[i] = out_arcs[i]
        elif isinstance(a, r.Throw):
            out[i] = _throw_value(ctx, a)
        elif isinstance(a, r.Melee):
            tn = melee_tn(state, uid, a.target)
            lethal, blud = melee_damage(state, uid, a.weapon)
            out[i] = float(tn.p_hit) * _dmg_factor(lethal, blud) * 1.2
        elif isinstance(a, r.ChangeWeapon):
            if a.weapon in ctx.pack.explosives:
                out[i] = 0.9 * _best_throw(ctx, a.weapon, state.available(me) - 3) - 0.02
            elif a.weapon in ctx.pack.weapons and me.active not in ctx.pack.weapons:
                out[i] = 0.2
            else:
                out[i] = -0.3
        elif isinstance(a, r.MovementFire):
            w = ctx.weapon_of(me)
            tn = ranged_tn(state, uid, a.target, w, extra=2)
            out[i] = float(tn.p_hit) * _dmg_factor(w.lethal, w.bludgeoning) - 0.1
        elif isinstance(a, r.GoProne):
            out[i] = -0.02
        elif isinstance(a, r.StandUp):
            out[i] = 0.05
        elif isinstance(a, r.TakeEquipment):
            out[i] = 0.05 if a.item in ctx.pack.explosives else -0.05
        elif isinstance(a, r.DropWeapon):
            out[i] = -1.0
        elif isinstance(a, r.EndActivation):
            out[i] = 0.0
    return out


def choose_decision(state: SkiState, decision: Decide[Any], rng: np.random.Generator | None
                    ) -> object:
    """The computer's answer to reaction fire and to movement fire's "drop prone"."""
    if decision.label == "reaction fire":
        target = str(decision.context.get("target", ""))
        best, best_p = HOLD, -1.0
        for option in decision.options:
            if option == HOLD:
                continue
            f = state.troopers[str(option)]
            if f.arc is None:
                continue
            tn = ranged_tn(state, f.id, target, state.setup.pack.weapons[f.arc.weapon])
            p = float(tn.p_hit)
            if p > best_p:
                best, best_p = option, p
        if best == HOLD:
            return HOLD
        f = state.troopers[str(best)]
        last = f.arc is not None and f.arc.shots <= 1
        if best_p < HOLD_BELOW or (last and best_p < 1 / 6):
            return HOLD if HOLD in decision.options else best
        return best
    if decision.label == "drop prone":
        target = str(decision.context.get("target", ""))
        firer = str(decision.context.get("firer", ""))
        if (target in state.troopers and firer in state.troopers
                and state.lattice.distance(firer, target) > 1):
            return DROP_PRONE
        return STAY_UP
    return decision.options[0]
