"""Firing arcs and reaction fire.

A trooper establishes a 30, 60 or 150 degree arc (1, 2 or 4 base shots; 2, 4 or 6 AP) in any
direction: its shots are the base times its weapon's multiplier. The dot lattice decides
exactly whether a dot lies in an arc, edges included (SKI-8); an arc holds its directions on
every level (SKI-37), and sight and long range do the rest.

When an enemy activates in an arc, enters a dot of it (SKI-18) or stands up in it, every firer
whose arc holds it, who sees it within long range and has not fired at it on this dot may
fire, in any order the reacting side likes, before it moves on: the reacting side decides
before each shot whether to fire and with whom (``Decide``), and may hold its fire. The shot
is resolved at once; the process then reads the state again (``Observe``), so a target put out
of action is not shot again and a mover who lost AP or fell prone stops. An arc whose shots
are spent is removed.

The arcs offered as actions keep exact, fast edges: 60 degree arcs on the twelve multiples of
30 degrees, 30 and 150 degree arcs on the odd multiples of 15 (their edges are then lattice
directions), and each width toward every enemy. The computer chooses among those; a person may
aim any of them at any other bearing ("can be oriented in any direction"): :class:`ArcAiming`,
the :class:`~tactica.engine.ruleset.Aiming` of the trooper's choice.
"""

from __future__ import annotations

import math
import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from tactica.battlefield.dots.arcs import bearing_value, in_arc
from tactica.battlefield.dots.geometry import Axial, offset_to_axial
from tactica.engine.chance import Decide, Step
from tactica.engine.events import Action
from tactica.rulesets.skirmishers.fire import ranged_tn, shot
from tactica.rulesets.skirmishers.records import EstablishArc
from tactica.rulesets.skirmishers.state import Arc, SkiState

__all__ = ["ARC_SIZES", "HOLD", "ArcAiming", "arc_actions", "arc_aiming", "arc_bearing",
           "arc_holds",
           "bearing_value", "eligible_firers", "held_dots", "holds_dot", "reactions"]

#: Width in degrees -> (base shots, AP).
ARC_SIZES: Final = {30: (1, 2), 60: (2, 4), 150: (4, 6)}
#: The option of a reacting side that holds its fire.
HOLD: Final = "hold fire"

K = Callable[[SkiState], Step]


_SQRT3_2 = math.sqrt(3) / 2
#: Far enough from an edge (degrees) for a float bearing to decide; closer, the lattice's
#: exact test decides (a float bearing of integer vectors this short is off by ~1e-13).
_MARGIN = 1e-7


def _bearing(q: int, r: int) -> float:
    return math.degrees(math.atan2(r * _SQRT3_2, q + r / 2)) % 360


@lru_cache(maxsize=200_000)
def _in_arc(dq: int, dr: int, width: int, bearing: float | None,
            toward: tuple[int, int] | None) -> bool:
    """The lattice's exact arc test, with a float filter for dots far from both edges."""
    if (dq, dr) == (0, 0):
        return False
    axis = float(bearing or 0) if toward is None else _bearing(*toward)
    off = abs((_bearing(dq, dr) - axis + 180) % 360 - 180)
    half = width / 2
    if off < half - _MARGIN:
        return True
    if off > half + _MARGIN:
        return False
    return in_arc((0, 0), (dq, dr), width=width, bearing=bearing, toward=toward)


@lru_cache(maxsize=4096)
def _toward(text: str) -> Axial:
    col, _, row = text.partition("@")[0].partition(",")
    return offset_to_axial(int(col), int(row))


@lru_cache(maxsize=64)
def _map_dots(cols: int, rows: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Every dot of a map (axial, ``(n, 2)``) and its page position."""
    dots = np.array([offset_to_axial(c, r) for r in range(rows) for c in range(cols)],
                    dtype=np.int64)
    xy = np.stack([dots[:, 0] + dots[:, 1] / 2, dots[:, 1] * _SQRT3_2], axis=1)
    return dots, xy


#: The bytes the dots of the arcs remembered may take (an estimate, on the generous side: the
#: set's table and each dot's tuple). One arc of a 50 x 50 lattice holds up to about a thousand
#: dots (150 KB); a bound of 20,000 entries, as before, allowed some gigabytes over a long run.
HELD_BYTES = 32 * 1024 * 1024
#: And at most this many arcs (small arcs of small maps are not kept by the ten thousand).
HELD_KEPT = 20_000
#: An estimate of one held dot: its tuple, its integers past the small ones Python shares, and
#: its place in the set's table.
_DOT_BYTES = 120

_HeldKey = tuple[int, int, Axial, int, "float | None", "str | None"]
#: The arcs remembered, least recently used first, with their estimated bytes.
_HELD: OrderedDict[_HeldKey, tuple[frozenset[Axial], int]] = OrderedDict()
_held_total = [0]


def _held(cols: int, rows: int, vertex: Axial, width: int, bearing: float | None,
          toward: str | None) -> frozenset[Axial]:
    """The dots an arc holds (remembered within :data:`HELD_BYTES`, least recently used
    dropped first: positions come back within a turn and from battle to battle)."""
    key = (cols, rows, vertex, width, bearing, toward)
    kept = _HELD.get(key)
    if kept is not None:
        _HELD.move_to_end(key)
        return kept[0]
    dots = _held_dots(cols, rows, vertex, width, bearing, toward)
    size = sys.getsizeof(dots) + _DOT_BYTES * len(dots)
    _HELD[key] = (dots, size)
    _held_total[0] += size
    while (_held_total[0] > HELD_BYTES or len(_HELD) > HELD_KEPT) and len(_HELD) > 1:
        _, (_, dropped) = _HELD.popitem(last=False)
        _held_total[0] -= dropped
    return dots


def held_bytes() -> int:
    """The estimated bytes of the arcs remembered (at most :data:`HELD_BYTES`, or one arc)."""
    return _held_total[0]


def held_count() -> int:
    """How many arcs are remembered."""
    return len(_HELD)


def held_kept(key: _HeldKey) -> bool:
    """Whether the arc of these arguments of :func:`_held` is remembered."""
    return key in _HELD


def forget_held() -> None:
    """Forget every arc remembered."""
    _HELD.clear()
    _held_total[0] = 0


def _held_dots(cols: int, rows: int, vertex: Axial, width: int, bearing: float | None,
               toward: str | None) -> frozenset[Axial]:
    axis = None
    if toward is not None:
        tq, tr = _toward(toward)
        axis = (tq - vertex[0], tr - vertex[1])
        if axis == (0, 0):
            return frozenset()
    dots, xy = _map_dots(cols, rows)
    centre = np.array([vertex[0] + vertex[1] / 2, vertex[1] * _SQRT3_2])
    d = xy - centre
    heading = float(bearing or 0) if axis is None else _bearing(*axis)
    off = np.abs((np.degrees(np.arctan2(d[:, 1], d[:, 0])) - heading + 180) % 360 - 180)
    half = width / 2
    inside = off < half - _MARGIN
    near = np.flatnonzero(np.abs(off - half) <= _MARGIN)
    for i in near.tolist():    # next to an edge: the lattice's exact test
        q, r = int(dots[i, 0]), int(dots[i, 1])
        inside[i] = _in_arc(q - vertex[0], r - vertex[1], width, bearing, axis)
    same = (dots[:, 0] == vertex[0]) & (dots[:, 1] == vertex[1])
    inside &= ~same
    return frozenset((int(q), int(r)) for q, r in dots[inside].tolist())


def held_dots(state: SkiState, vertex: Axial, arc: Arc) -> frozenset[Axial]:
    """Every dot of the map an arc with its vertex on ``vertex`` holds (on every level)."""
    lat = state.lattice
    return _held(lat.cols, lat.rows, vertex, arc.width, arc.bearing, arc.toward)


def holds_dot(state: SkiState, vertex: Axial, arc: Arc, dot: Axial) -> bool:
    """Whether an arc with its vertex on ``vertex`` holds the axial dot ``dot``."""
    axis = None
    if arc.toward is not None:
        tq, tr = _toward(arc.toward)
        axis = (tq - vertex[0], tr - vertex[1])
        if axis == (0, 0):
            return False
    return _in_arc(dot[0] - vertex[0], dot[1] - vertex[1], arc.width, arc.bearing, axis)


def arc_bearing(vertex: Axial, arc: Arc) -> float | None:
    """The bearing of an arc's axis in degrees (clockwise from east): its own, or that of the
    dot it points toward seen from ``vertex`` (``None``: toward the vertex itself)."""
    if arc.toward is None:
        return float(arc.bearing or 0)
    tq, tr = _toward(arc.toward)
    if (tq - vertex[0], tr - vertex[1]) == (0, 0):
        return None
    return _bearing(tq - vertex[0], tr - vertex[1])


def arc_holds(state: SkiState, firer: str, target: str) -> bool:
    """Whether ``firer``'s arc holds ``target`` where it stands."""
    arc = state.troopers[firer].arc
    if arc is None:
        return False
    v = state.lattice.trooper(firer).dot
    return holds_dot(state, v, arc, state.lattice.trooper(target).dot)


def eligible_firers(state: SkiState, target: str) -> list[str]:
    """The firers that may shoot ``target`` now, in scenario order: an enemy's arc holds it,
    shots are left, it has not fired at it on this dot, it sees it within long range."""
    t = state.troopers.get(target)
    if t is None or not t.in_action:
        return []
    out = []
    pack = state.setup.pack
    for f in state.troopers.values():
        if f.side == t.side or not f.in_action or f.arc is None or f.arc.shots <= 0:
            continue
        if f.id in t.shot_by or not arc_holds(state, f.id, target):
            continue
        weapon = pack.weapons.get(f.arc.weapon)
        if weapon is None or ranged_tn(state, f.id, target, weapon).tn is None:
            continue
        out.append(f.id)
    return out


def reactions(state: SkiState, target: str, then: K, *, held: frozenset[str] = frozenset()
              ) -> Step:
    """Reaction fire at ``target`` where it stands now, then ``then`` on the state it leaves.

    The first reacting side (in the sides' order) chooses a firer or holds its fire; after each
    shot the state is read again and the choice repeats."""
    firers = [f for f in eligible_firers(state, target)
              if state.troopers[f].side not in held]
    if not firers:
        return then(state)
    side = state.troopers[firers[0]].side
    options = (*(f for f in firers if state.troopers[f].side == side), HOLD)
    place = str(state.place(target))

    def chosen(option: str) -> Step:
        if option == HOLD:
            return reactions(state, target, then, held=held | {side})
        f = state.troopers[option]
        assert f.arc is not None
        weapon = state.setup.pack.weapons[f.arc.weapon]
        tn = ranged_tn(state, option, target, weapon).tn
        assert tn is not None
        return shot(state, option, target, weapon, tn, "arc",
                    lambda work: reactions(work, target, then, held=held))

    return Decide(side, "reaction fire", options, chosen,
                  {"target": target, "place": place})


@lru_cache(maxsize=4)
def _bearings() -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for width in (30, 60, 150):
        start = 0 if width == 60 else 15
        out.extend((width, b) for b in range(start, 360, 30))
    return tuple(out)


def arc_actions(state: SkiState, uid: str) -> list[EstablishArc]:
    """The arcs a trooper may establish now (its AP, its active firearm, no explosive thrown,
    no arc yet this turn, its squad not shaken)."""
    t = state.troopers[uid]
    if (t.active not in state.setup.pack.weapons or t.threw or t.arc_made or t.stopped
            or t.side in state.shaken):
        return []
    ap = state.available(t)
    out = [EstablishArc(uid, width, bearing) for width, bearing in _bearings()
           if ARC_SIZES[width][1] <= ap]
    here = state.lattice.trooper(uid).dot
    for e in state.alive():
        if e.side == t.side:
            continue
        there = state.lattice.trooper(e.id).dot
        if there == here:
            continue
        p = state.place(e.id)
        out.extend(EstablishArc(uid, width, None, f"{p.col},{p.row}") for width in (30, 60, 150)
                   if ARC_SIZES[width][1] <= ap)
    return list(dict.fromkeys(out))


def _is_bearing(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and 0 <= value < 360 and bearing_value(value) == value


@dataclass(frozen=True)
class ArcAiming:
    """The arcs a trooper may establish now, aimed at any bearing by a person: ``widths`` are
    those its AP pay for (the listed arc actions show them)."""

    unit: str
    widths: frozenset[int]

    def aim(self, action: Action, bearing: Fraction) -> Action | None:
        """A listed arc of this trooper, at ``bearing`` degrees instead (None: not an arc)."""
        if not isinstance(action, EstablishArc) or action.unit != self.unit \
                or action.width not in self.widths:
            return None
        return EstablishArc(self.unit, action.width, bearing_value(bearing))

    def accepts(self, action: Action) -> bool:
        """An arc of this trooper, of a width it may establish, on a bearing in [0, 360)."""
        return (isinstance(action, EstablishArc) and action.unit == self.unit
                and action.width in self.widths and action.toward is None
                and _is_bearing(action.bearing))


def arc_aiming(uid: str, actions: Sequence[Action]) -> ArcAiming | None:
    """How a person may aim the arcs among ``actions`` (the trooper's legal actions), or None
    when it may establish none."""
    widths = frozenset(a.width for a in actions if isinstance(a, EstablishArc))
    return ArcAiming(uid, widths) if widths else None
