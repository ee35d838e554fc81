"""Skirmishers' compiled simulation kernel: its tables, built from the reference.

:func:`prepare` reads a scenario once and builds, with the reference's own functions, every
table the compiled battle loop (``_kernel.pyx``) needs: the dot lattice's flat feature codes,
floor regions and stairs (:func:`~tactica.battlefield.dots.fast.lattice_arrays`), the exact
line geometry of every offset of the map (the sight tables of
:mod:`~tactica.battlefield.dots.fast`), the move graph with its AP per step
(:func:`.movement.move_graph`), the cards, weapons and explosives of the pack, the exact
samplers of the 2D6 and D6 rolls (:func:`.fire.hit_roll`, :data:`.card.START_CELL`) and of
the first side's roll. What the loop asks of the geometry only now and then (the exact arc
test next to an edge, a blast's reach and shelter, a scatter, where a missed throw scatters
from) it asks of the reference's own functions, each answer kept (:class:`_Geometry`).

It answers :class:`~tactica.engine.ruleset.NotCovered` for what the kernel does not play: a ruling
option it does not know (:data:`COVERED_RULINGS`), a policy other than
greedy and random, a map or a fight larger than its arrays, a trooper out of the fight or
with an explosive active from the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tactica.battlefield.dots import blast as dots_blast
from tactica.battlefield.dots import fast as dots_fast
from tactica.battlefield.dots.fast import _table, lattice_arrays
from tactica.battlefield.dots.geometry import offset_to_axial
from tactica.battlefield.dots.lattice import DotLattice, DotPlace
from tactica.dice import Dist
from tactica.engine.chance import Done, Roll, Step
from tactica.engine.kernels import (
    TWO64,
    OptionReads,
    Uncovered,
    battle_arguments,
    battle_result,
    built_kernel,
    option_table,
    starting_state,
)
from tactica.engine.kernels import compiled as compiled_module
from tactica.engine.ruleset import NotCovered
from tactica.engine.scenario import Scenario
from tactica.engine.stats import BattleResult, UnitStats
from tactica.rulesets.skirmishers import arcs, policy
from tactica.rulesets.skirmishers.card import CELLS, D6, START_CELL, protected_cells
from tactica.rulesets.skirmishers.fire import hit_roll
from tactica.rulesets.skirmishers.geometry import blast_options
from tactica.rulesets.skirmishers.movement import move_graph
from tactica.rulesets.skirmishers.state import SkiState, setup_consulted
from tactica.rulesets.skirmishers.text import card_text

__all__ = ["COVERED_RULINGS", "OPTION_READS", "SkirmishersKernel", "compiled", "prepare"]

#: Every ruling option the kernel plays, by ruling (a ruling or option not listed: not
#: covered). The kernel plays every option of the rulings of explosives (throws, scatter,
#: blasts) and of melee, and every optional rule (:data:`_OPTIONAL_RULES`).
COVERED_RULINGS: Mapping[str, tuple[str, ...]] = {
    "SKI-1": ("first-unmarked",),
    "SKI-2": ("zero-then-dead",),
    "SKI-3": ("spent-exceeds", "as-written"),
    "SKI-4": ("cover", "block"),
    "SKI-5": ("paid", "before-doubling"),
    "SKI-6": ("one-dot", "d6-dots"),
    "SKI-7": ("no-attack",),
    "SKI-8": ("bearing",),
    "SKI-9": ("out-of-scope",),
    "SKI-10": ("steps", "steps-minus-one", "walkable"),
    "SKI-11": ("add", "steps-only"),
    "SKI-12": ("strict", "tangent"),
    "SKI-13": ("own-cell",),
    "SKI-14": ("prone", "literal"),
    "SKI-15": ("higher", "floors-ignored"),
    "SKI-16": ("window-cover",),
    "SKI-17": ("no-arcs-or-explosives", "retreat"),
    "SKI-18": ("each-dot", "arc-entry"),
    "SKI-19": ("down", "up"),
    "SKI-20": ("armor-up-ignores",),
    "SKI-21": ("pass", "stairs-only"),
    "SKI-22": ("own-roll", "one-roll"),
    "SKI-23": ("one-per-dot",),
    "SKI-24": ("skip", "lost"),
    "SKI-25": ("stays", "lifted"),
    "SKI-26": ("once", "each-round"),
    "SKI-27": ("several", "one"),
    "SKI-28": ("club",),
    "SKI-29": ("throw", "resolution"),
    "SKI-30": ("middle", "top"),
    "SKI-31": ("lie", "removed"),
    "SKI-32": ("dead", "out"),
    "SKI-33": ("lost", "stays"),
    "SKI-34": ("stairs-only",),
    "SKI-35": ("cell-and-neighbours",),
    "SKI-36": ("counts", "apart"),
    "SKI-37": ("every-level",),
    "SKI-38": ("no", "minus-one"),
    "SKI-39": ("falls",),
    "SKI-40": ("lost", "dead"),
    "SKI-41": ("targeted-dot", "before-window"),
    "SKI-42": ("lives", "fights"),
}

#: How the tables read the ruling options (:func:`~tactica.engine.kernels.option_table`): for
#: each key the compiled loop takes, the ruling and its value for every option the kernel
#: plays (an option not listed: not covered, never read as another).
OPTION_READS: OptionReads = {
    "as_written": ("SKI-3", {"spent-exceeds": 0, "as-written": 1}),
    "block": ("SKI-4", {"cover": 0, "block": 1}),
    "before_doubling": ("SKI-5", {"paid": 0, "before-doubling": 1}),
    "d6_dots": ("SKI-6", {"one-dot": 0, "d6-dots": 1}),
    "minus_one": ("SKI-10", {"steps": 0, "steps-minus-one": 1, "walkable": 0}),
    "walkable": ("SKI-10", {"steps": 0, "steps-minus-one": 0, "walkable": 1}),
    "add_levels": ("SKI-11", {"add": 1, "steps-only": 0}),
    "counts": ("SKI-12", {"strict": 0, "tangent": 1}),
    "prone_firer": ("SKI-14", {"prone": 0, "literal": 1}),
    "floors_block": ("SKI-15", {"higher": 1, "floors-ignored": 0}),
    "arc_entry": ("SKI-18", {"each-dot": 0, "arc-entry": 1}),
    "fists_up": ("SKI-19", {"down": 0, "up": 1}),
    "one_roll": ("SKI-22", {"own-roll": 0, "one-roll": 1}),
    "crossed_lost": ("SKI-24", {"skip": 0, "lost": 1}),
    "lifted": ("SKI-25", {"stays": 0, "lifted": 1}),
    "each_round": ("SKI-26", {"once": 0, "each-round": 1}),
    "one_combat": ("SKI-27", {"several": 0, "one": 1}),
    "at_resolution": ("SKI-29", {"throw": 0, "resolution": 1}),
    "removed": ("SKI-31", {"lie": 0, "removed": 1}),
    "stays": ("SKI-33", {"lost": 0, "stays": 1}),
    "prone_minus_one": ("SKI-38", {"no": 0, "minus-one": 1}),
    "past_dead": ("SKI-40", {"lost": 0, "dead": 1}),
    "before_window": ("SKI-41", {"targeted-dot": 0, "before-window": 1}),
    # the HP cells advanced body armor protects (read into the tables)
    "armor_top": ("SKI-30", {"middle": 0, "top": 1}),
    # movement fire's AP toward the 8 AP cap
    "mf_counts": ("SKI-36", {"counts": 1, "apart": 0}),
    # morale: what failing does, who counts as dead, while the leader's leadership applies
    "retreat": ("SKI-17", {"no-arcs-or-explosives": 0, "retreat": 1}),
    "count_out": ("SKI-32", {"dead": 0, "out": 1}),
    "leader_fights": ("SKI-42", {"lives": 0, "fights": 1}),
}

_MAX_UNITS, _MAX_SIDES, _MAX_ITEMS, _MAX_SPOTS = 32, 8, 32, 16384
_TN_LOW, _TN_HIGH = -20, 60
_MAX_WALK_SPOTS = 4096
#: The answers of the reference's geometry kept per kind of question (then cleared).
_KEEP = 100_000
#: The card texts a prepared kernel keeps (a battle's cards are a few of 3**11).
_CARDS = 4096
#: The optional rules the kernel plays (any other: not covered).
_OPTIONAL_RULES = frozenset({"experience", "advanced-armor", "movement-fire", "morale"})


def compiled() -> Any:
    """The compiled extension module, or ``None`` when it was not built."""
    return compiled_module("tactica.rulesets.skirmishers")


class _Geometry:
    """The questions the compiled loop asks of the reference's geometry, each answer kept:
    the exact arc test next to an edge, a blast's reach and shelter, a scatter, where a missed
    throw scatters from."""

    def __init__(self, lat: DotLattice, width: int, qmin: int, pad: int, floors: str,
                 tangent: str) -> None:
        self.lat = lat
        self.floors, self.tangent = floors, tangent
        self.width, self.qmin, self.pad = width, qmin, pad
        self.cells = width * (lat.rows + 2 * pad)
        self.dots = [offset_to_axial(c, r) for r in range(lat.rows) for c in range(lat.cols)]
        self.blasts: dict[tuple[int, int, bool, int], tuple[int, bool]] = {}
        self.scatters: dict[tuple[int, int, int], tuple[int, bool, bool]] = {}
        self.origins: dict[tuple[int, int], int] = {}

    def index(self, q: int, r: int) -> int:
        return (r + self.pad) * self.width + (q - self.qmin + self.pad)

    def in_arc(self, dq: int, dr: int, width: int, bearing: float | None,
               toward: tuple[int, int] | None) -> bool:
        """The lattice's exact test next to an edge (:func:`.arcs._in_arc`)."""
        return arcs._in_arc(dq, dr, width, bearing, toward)

    # -- explosives: the reference's geometry of blast and scatter, per question, kept ---------

    def place(self, spot: int) -> DotPlace:
        lvl, cell = divmod(spot, self.cells)
        r = cell // self.width - self.pad
        q = cell % self.width - self.pad + self.qmin
        return self.lat.place((q, r), lvl)

    def spot(self, place: DotPlace) -> int:
        q, r = offset_to_axial(place.col, place.row)
        return place.level * self.cells + self.index(q, r)

    def blast_hit(self, centre: int, spot: int, lying: bool, radius: int) -> tuple[int, bool]:
        """dots_blast.blast for one trooper: ``(ring, sheltered)``, ring -1 when out of
        reach."""
        key = (centre, spot, lying, radius)
        found = self.blasts.get(key)
        if found is None:
            lat = self.lat
            c, t = self.place(centre), self.place(spot)
            origin = (offset_to_axial(c.col, c.row), c.level)
            target = (offset_to_axial(t.col, t.row), t.level)
            routes = [rv for rv in dots_blast._routes(lat, origin, target, self.floors)
                      if rv[0] <= radius]
            best: tuple[int, bool] | None = None
            for ring, via in routes:
                if via != origin[0]:
                    why = (dots_blast._blocker(lat, origin[0], via, {origin[1]}, lying,
                                               self.tangent)
                           or dots_blast._blocker(lat, via, target[0], {target[1]}, lying,
                                                  self.tangent))
                else:
                    why = dots_blast._blocker(lat, origin[0], target[0], {origin[1], target[1]},
                                              lying, self.tangent)
                hit = (ring, why is not None)
                if best is None or (best[1] and not hit[1]):
                    best = hit
            if len(self.blasts) >= _KEEP:
                self.blasts.clear()
            found = self.blasts[key] = best if best is not None else (-1, False)
        return found

    def scatter(self, origin: int, roll: int, distance: int) -> tuple[int, bool, bool]:
        """dots_blast.scatter: ``(landing spot or -1 off the map, moved, on the map)``."""
        key = (origin, roll, distance)
        found = self.scatters.get(key)
        if found is None:
            sc = dots_blast.scatter(self.lat, self.place(origin), roll, distance=distance)
            if len(self.scatters) >= _KEEP:
                self.scatters.clear()
            found = self.scatters[key] = (self.spot(sc.landing) if sc.on_map else -1,
                                          sc.moved, sc.on_map)
        return found

    def throw_origin(self, thrower: int, target: int) -> int:
        """explosives.throw_origin of a throw that is not down a stairwell."""
        key = (thrower, target)
        found = self.origins.get(key)
        if found is None:
            lat = self.lat
            place = dots_blast.scatter_origin(lat, self.place(thrower), self.place(target),
                                              tangent=self.tangent)
            dot = offset_to_axial(place.col, place.row)
            level = place.level
            while level > 0 and not lat.has_dot(dot, level):
                level -= 1
            if len(self.origins) >= _KEEP:
                self.origins.clear()
            found = self.origins[key] = self.spot(lat.place(dot, level))
        return found

    def text(self, spot: int) -> str:
        """A place as the records write it."""
        return str(self.place(spot))


class SkirmishersKernel:
    """The compiled kernel prepared for one scenario; it also says which rulings each battle
    consulted (:meth:`play_consulted`, :class:`~tactica.engine.ruleset.ConsultingKernel`)."""

    def __init__(self, engine: Any, ids: tuple[str, ...], sides: tuple[str, ...],
                 unit_sides: tuple[str, ...], items: tuple[str, ...]) -> None:
        self.engine = engine
        self.ids = ids
        self.sides = sides
        self.unit_sides = unit_sides
        self.items = items
        # each card's text by its marks, built once: a battle's result writes every trooper's
        # card, and the text cost as much as drawing a short battle's dice (bench/battle.py)
        self.cards: dict[tuple[int, ...], str] = {}

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        """The reference's :func:`~tactica.analysis.sim.play.play_battle`, compiled."""
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        return self._result(self.engine.play(codes, key, seed, index, max_steps))

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        """:meth:`play` and the bit mask of the rulings the battle consulted (bit ``i``:
        ruling number ``i`` of the game's declaration order), counted by the compiled loop
        where the reference reads them (:class:`~tactica.engine.ruleset.ConsultingKernel`)."""
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        out, mask = self.engine.play_consulted(codes, key, seed, index, max_steps)
        result = self._result(out)
        if isinstance(result, NotCovered):
            return result
        return result, int(mask)

    def _card(self, marks: Sequence[int]) -> str:
        """The card text of a trooper's marks (0 clear, 1 ``X``, 2 ``\\``), kept for the
        next battle (at most :data:`_CARDS` cards)."""
        key = tuple(marks)
        found = self.cards.get(key)
        if found is None:
            if len(self.cards) >= _CARDS:
                self.cards.clear()
            found = self.cards[key] = card_text("".join(".X/"[m] for m in key))
        return found

    def _result(self, out: Any) -> BattleResult | NotCovered:
        """The battle's result from the compiled loop's answer (a string: not covered)."""
        if isinstance(out, str):
            return NotCovered(out)
        winner, finished, rounds, steps, units = out
        stats = {}
        for uid, side, row in zip(self.ids, self.unit_sides, units, strict=True):
            (survived, dealt, taken, moves, hp, ap, armor, marks, weapon, prone, shots,
             dead) = row
            details: dict[str, str | int | bool] = {
                "hp": hp, "ap": ap, "armor": armor, "card": self._card(marks),
                "weapon": self.items[weapon], "prone": bool(prone), "arc_shots": shots,
                "dead": bool(dead)}
            stats[uid] = UnitStats(uid, side, bool(survived), dealt, taken, moves, details)
        return battle_result(self.sides, winner, finished, rounds, steps, stats)


def prepare(scenario: Scenario) -> SkirmishersKernel | NotCovered:
    """The kernel of ``scenario`` (tables built from the reference), or why there is none."""
    module = compiled()
    state: SkiState | NotCovered = starting_state(module, scenario, COVERED_RULINGS)
    if isinstance(state, NotCovered):
        return state
    optional = sorted(state.setup.optional - _OPTIONAL_RULES)
    if optional:
        return NotCovered("the optional rule " + ", ".join(optional))
    try:
        tables, items = _tables(state)
    except Uncovered as exc:
        return NotCovered(str(exc))
    engine = built_kernel(module, tables)
    if isinstance(engine, NotCovered):
        return engine
    troopers = list(state.troopers.values())
    return SkirmishersKernel(engine, tuple(t.id for t in troopers), state.sides,
                             tuple(t.side for t in troopers), tuple(items))


#: The rulings the compiled loop counts where the reference reads them (each with a
#: ``self.cons |=`` at that point of ``_kernel.pyx``); the others are never read by a battle
#: the kernel plays, or read from the setup on (:func:`.state.setup_consulted`).
_LOOP_CONSULTED = ("SKI-3", "SKI-5", "SKI-6", "SKI-18", "SKI-19", "SKI-21", "SKI-22", "SKI-24",
                   "SKI-25", "SKI-26", "SKI-27", "SKI-29", "SKI-31", "SKI-33", "SKI-38",
                   "SKI-40", "SKI-41", "SKI-30", "SKI-36", "SKI-17", "SKI-32", "SKI-42")


def _consulted_bits(state: SkiState) -> dict[str, int]:
    """Each counted ruling's bit (its number in the game's declaration order), and the mask
    of the rulings the battle consults from its setup."""
    bit = {r.id: 1 << i for i, r in enumerate(state.rulings.declared())}
    out = {k: bit[k] for k in _LOOP_CONSULTED}
    setup = set(setup_consulted(state))
    if state.option("advanced-armor") and any(t.armor.ap and t.armor.cells
                                              for t in state.troopers.values()):
        setup.add("SKI-30")  # setup_consulted's armor_destroyed reads it (SkiState.protected)
    out["setup"] = sum(bit[k] for k in setup)
    return out


def _pool(dist: Dist[Any], read: Mapping[Any, int]) -> tuple[list[int], list[int], int]:
    cum, acc = [], 0
    for weight in dist.weights:
        acc += weight
        cum.append(acc)
    if dist.total >= TWO64:
        raise Uncovered("a roll too large for one 64-bit draw")
    return [read[o] for o in dist.outcomes], cum, dist.total


def _nothing(hit: bool) -> Step:
    return Done(None)


def _tables(state: SkiState) -> tuple[dict[str, Any], list[str]]:
    lat = state.lattice
    setup = state.setup
    pack = setup.pack
    r = state.rulings
    flags = option_table(r, OPTION_READS)
    arr = lattice_arrays(lat)
    # the map alone: the troopers' poses are written by the kernel
    codes = arr.codes.copy()
    codes[3::4] = 0
    width, height, qmin, cells = arr.width, arr.height, arr.qmin, arr.cells
    levels = len(lat.level_names)
    if levels * cells > _MAX_SPOTS:
        raise Uncovered(f"a map of {lat.cols} x {lat.rows} dots on {levels} levels (more "
                        f"than {_MAX_SPOTS} places with the padding)")
    if flags["walkable"] and levels * cells > _MAX_WALK_SPOTS:
        raise Uncovered(f"SKI-10=walkable on a map of {lat.cols} x {lat.rows} dots on "
                         f"{levels} levels (the kernel keeps walkable ranges up to "
                         f"{_MAX_WALK_SPOTS} places)")
    pad = (height - lat.rows) // 2
    # the sight table of the map's box (dots_fast._Table, shared with the reference): the
    # kernel grows it by each offset when a battle first looks along it
    table = _table(width, height)
    # spots: level * cells + cell; the move graph (standing AP, in the reference's order)
    graph = move_graph(lat)

    def spot_of(dot: tuple[int, int], lvl: int) -> int:
        return lvl * cells + (dot[1] + pad) * width + (dot[0] - qmin + pad)

    has_dot = np.zeros(levels * cells, np.uint8)
    nb_start = np.zeros(levels * cells, np.int64)
    nb_len = np.zeros(levels * cells, np.int64)
    nb_spot: list[int] = []
    nb_ap: list[int] = []
    for (dot, lvl), moves in graph.items():
        s = spot_of(dot, lvl)
        has_dot[s] = 1
        nb_start[s] = len(nb_spot)
        nb_len[s] = len(moves)
        for (ndot, nlvl), ap in moves:
            nb_spot.append(spot_of(ndot, nlvl))
            nb_ap.append(ap)
    # items: firearms, melee weapons, explosives (an id each)
    items: list[str] = [*pack.weapons, *(k for k in pack.melee if k not in pack.weapons),
                        *(k for k in pack.explosives
                          if k not in pack.weapons and k not in pack.melee)]
    if len(items) > _MAX_ITEMS:
        raise Uncovered(f"a content pack of {len(items)} weapons and explosives (more than "
                        f"{_MAX_ITEMS})")
    item_ix = {k: i for i, k in enumerate(items)}
    item_rows = []
    for k in items:
        fa, me, ex = pack.weapons.get(k), pack.melee.get(k), pack.explosives.get(k)
        item_rows.append({
            "firearm": fa is not None, "melee": me is not None, "explosive": ex is not None,
            "lethal": fa.lethal if fa else (me.lethal if me else 0),
            "bludgeoning": fa.bludgeoning if fa else (me.bludgeoning if me else 0),
            "shots": fa.shots if fa else 0, "short": fa.short if fa else 0,
            "long": fa.long if fa else 0, "bayonet": bool(fa and fa.bayonet),
            "fists": bool(me and me.fists),
            "rings": list(ex.rings) if ex else [], "ap_per_dot": ex.ap_per_dot if ex else 0,
            "stairwell_ap": ex.stairwell_ap if ex else 0,
        })
    for k in ("fists", "bayonet", "club"):
        if k not in pack.melee:
            raise Uncovered(f"a content pack without the melee weapon {k!r}")
    troopers = list(state.troopers.values())
    if len(troopers) > _MAX_UNITS or len(state.sides) > _MAX_SIDES:
        raise Uncovered(f"{len(troopers)} troopers on {len(state.sides)} sides (more than "
                        f"{_MAX_UNITS} troopers or {_MAX_SIDES} sides)")
    units = []
    for t in troopers:
        if t.active in pack.explosives:
            raise Uncovered(f"{t.id} has an explosive active from the start")
        if t.out or t.dead or t.retreated or t.id not in lat.troopers:
            raise Uncovered(f"{t.id} is out of the fight from the start")
        place = lat.trooper(t.id)
        arc = None
        if t.arc is not None:
            arc = (t.arc.width, None if t.arc.bearing is None else float(t.arc.bearing),
                   t.arc.toward, t.arc.shots, item_ix[t.arc.weapon],
                   None if t.arc.bearing is None else t.arc.bearing)
        units.append({
            "side": state.sides.index(t.side), "spot": spot_of(place.dot, place.level),
            "prone": t.prone, "card_ap": t.card.ap, "card_change": list(t.card.ap_change),
            "card_mod": list(t.card.modifiers), "armor_cells": t.armor.cells,
            "armor_ap": t.armor.ap,
            "experience_ap": t.experience.ap if state.option("experience") else 0,
            "weapons": [item_ix[w] for w in t.weapons],
            "explosives": [(item_ix[k], n) for k, n in t.explosives],
            "active": item_ix[t.active], "fallback": item_ix[t.fallback],
            "marks": [".X/".index(c) for c in t.marks],
            "armor_left": t.armor_left, "arc": arc,
            "protected": sum(1 << CELLS.index(c) for c in protected_cells(
                t.armor.cells, "top" if flags["armor_top"] else "middle"))
            if state.option("advanced-armor") else 0,
            "id_key": f"unit {t.id!r}", "id": t.id,
        })
    # the 2D6 rolls' exact samplers: to hit (per target number) and the start cell
    hit_pools = []
    for tn in range(_TN_LOW, _TN_HIGH):
        roll = hit_roll("", tn, _nothing)
        assert isinstance(roll, Roll)
        hit_pools.append(_pool(roll.dist, {"hit": 1, "miss": 0}))
    # the morale checks' (fire.hit_roll's words "holds" and "fails"), per target number
    morale_pools = []
    for tn in range(_TN_LOW, _TN_HIGH):
        roll = hit_roll("", tn, _nothing, words=("holds", "fails"))
        assert isinstance(roll, Roll)
        morale_pools.append(_pool(roll.dist, {"holds": 1, "fails": 0}))
    order = list(state.troopers)
    squads = []
    for side in state.sides:
        squad = setup.squads[side]
        leader = order.index(squad.leader) if squad.leader in state.troopers else -1
        squads.append((squad.skill.morale, leader, squad.leadership))
    start_pool = _pool(START_CELL, {c: c for c in CELLS})
    first_pools = []
    for mask in range(1 << len(state.sides)):
        standing = [s for k, s in enumerate(state.sides) if (mask >> k) & 1]
        if not standing:
            first_pools.append(([0], [1], 1))
            continue
        first_pools.append(_pool(Dist.uniform(standing),
                                 {s: state.sides.index(s) for s in state.sides}))
    blast_opts = blast_options(r)
    held = _Geometry(lat, width, qmin, pad, blast_opts["floors"], blast_opts["tangent"])
    stairs = [(spot_of(dot, 0) % cells, st.low, st.high) for dot, st in lat.stairs.items()]
    if any(ex.ap_per_dot <= 0 for ex in pack.explosives.values()):
        raise Uncovered("an explosive thrown for 0 AP a dot")
    tables: dict[str, Any] = {
        "cols": lat.cols, "rows": lat.rows, "width": width, "height": height, "qmin": qmin,
        "pad": pad, "cells": cells, "levels": levels,
        "codes": codes, "regions": arr.regions.copy(), "stairs_low": arr.stairs_low.copy(),
        "stairs_high": arr.stairs_high.copy(),
        "span": table.span, "theight": table.height, "twidth": table.width,
        "sight": table,
        "kind_blocks": [int(x) for x in dots_fast._BLOCKS],
        "kind_cover": [int(x) for x in dots_fast._COVER],
        "kind_solid": [int(x) for x in dots_fast._SOLID],
        "has_dot": has_dot, "nb_start": nb_start, "nb_len": nb_len,
        "nb_spot": np.array(nb_spot, np.int64), "nb_ap": np.array(nb_ap, np.int64),
        "items": item_rows, "fists": item_ix["fists"], "bayonet": item_ix["bayonet"],
        "club": item_ix["club"], "units": units, "nsides": len(state.sides),
        "first": -1 if setup.first is None else state.sides.index(setup.first),
        "max_rounds": state.max_rounds, "hit_pools": hit_pools, "tn_low": _TN_LOW,
        "start_pool": start_pool, "first_pools": first_pools,
        "p_hit": [float(x) for x in policy.P_HIT], "held": held, "stairs": stairs,
        "names": [pack.explosives[k].name if k in pack.explosives else k for k in items],
        "d6_pool": _pool(D6, {f: f for f in range(1, 7)}),
        "id_rank": [sorted(state.troopers).index(t.id) for t in troopers],
        **flags,  # the ruling options (OPTION_READS)
        "advanced_armor": int(state.option("advanced-armor")),
        "movement_fire": int(state.option("movement-fire")),
        "morale": int(state.option("morale")), "squads": squads, "morale_pools": morale_pools,
        "morale_labels": [f"2D6 morale check for {s}".encode() for s in state.sides],
        "consulted": _consulted_bits(state),
    }
    return tables, items
