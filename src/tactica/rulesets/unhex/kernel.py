"""Unhex's compiled simulation kernel: its tables, built from the reference.

:func:`prepare` reads a scenario once and builds, with the reference's own objects, every
table the compiled battle loop (``_kernel.pyx``) needs: range, sight and cover between every
two areas and from every area to every character moving along a connection
(:meth:`~tactica.rulesets.unhex.state.ZoneView.look`, so every sight ruling is the map's own
answer) and the moves and doors from each area, in every view of the map (one for each
combination of open doors),  the items the characters carry, the characters, the damage
and other rulings, and the keys of the dice. It answers :class:`~tactica.engine.ruleset.NotCovered`
for what the kernel does not play: more doors, teams, characters, areas, kinds of items,
fixtures or objectives than its arrays hold, a policy other than
greedy and random, or a missing compiled extension.
:meth:`UnhexKernel.play_consulted` also says which rulings the battle consulted: the kernel
marks each ruling where the reference reads it (``_read`` in ``_kernel.pyx``), beside those
:func:`~tactica.rulesets.unhex.rules.new_state` reads in every battle (:data:`SETUP_CONSULTED`).
A battle that outgrows the kernel's arrays on the way (a crowded floor, a long list of
actions) stops and is handed to the reference whole, the reason given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactica.battlefield.zones.graph import ZoneGraph
from tactica.engine.kernels import (
    NOT_BUILT,
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
from tactica.rulesets.unhex.body import LOCATIONS, Marks
from tactica.rulesets.unhex.rulings import SIGHT_RULINGS
from tactica.rulesets.unhex.state import UnhexState, ZoneView

__all__ = ["COVERED_RULINGS", "NOT_BUILT", "OPTION_READS", "SETUP_CONSULTED", "UnhexKernel",
           "compiled", "prepare"]

#: The rulings every battle consults as it is set up (:func:`~.rules.new_state`): the map's
#: sight options (:func:`~.rulings.sight_options`) and the damage rules
#: (:func:`~.state.damage_rules`).
SETUP_CONSULTED: tuple[str, ...] = (*(rid for _, rid in SIGHT_RULINGS), "UNH-4", "UNH-11",
                                    "UNH-12", "UNH-13", "UNH-18")

#: Every ruling option the kernel plays, by ruling (a ruling or option not listed: not covered).
#: Sight rulings are the map's own answers (its tables).
COVERED_RULINGS: Mapping[str, tuple[str, ...]] = {
    "UNH-1": ("yes", "no"),
    "UNH-2": ("any", "every"),
    "UNH-3": ("holder", "pcs-win-equal"),
    "UNH-4": ("first", "later"),
    "UNH-5": ("current-level",),
    "UNH-6": ("worst", "max-damage", "random"),
    "UNH-7": ("policy", "extra-action", "set-dice"),
    "UNH-8": ("nearest",),
    "UNH-9": ("block", "see"),
    "UNH-10": ("veto", "edge"),
    "UNH-11": ("slash", "x"),
    "UNH-12": ("torso", "lost"),
    "UNH-13": ("escalate", "lost"),
    "UNH-14": ("actor", "reactor"),
    "UNH-15": ("actor-first", "reactor-first"),
    "UNH-16": ("at-stop", "wasted"),
    "UNH-17": ("leg-or-out", "any-hit"),
    "UNH-18": ("again", "once"),
    "UNH-19": ("all", "stowed"),
    "UNH-20": ("winner", "by-roll"),
    "UNH-21": ("no", "yes"),
    "UNH-22": ("n-or-all", "any-up-to-n"),
    "UNH-23": ("treater", "patient"),
    "UNH-24": ("no", "yes"),
    "UNH-25": ("any", "other-areas"),
    "UNH-26": ("per-fight", "per-attack"),
    "UNH-27": ("break", "wounded-now", "fight-on"),
    "UNH-28": ("either", "both", "literal"),
}

#: How the tables read the ruling options (:func:`~tactica.engine.kernels.option_table`): for
#: each key the compiled loop takes, the ruling and its value for every option the kernel
#: plays (an option not listed: not covered, never read as another). UNH-4, UNH-11, UNH-12,
#: UNH-13 and UNH-18 are the damage rules (:func:`~.state.damage_rules`: version, mark,
#: excess, full_torso, refill).
OPTION_READS: OptionReads = {
    "r3_pcs_win_equal": ("UNH-3", {"holder": 0, "pcs-win-equal": 1}),
    "r6": ("UNH-6", {"worst": 0, "max-damage": 1, "random": 2}),
    "r7": ("UNH-7", {"policy": 0, "extra-action": 1, "set-dice": 2}),
    "r14_reactor": ("UNH-14", {"actor": 0, "reactor": 1}),
    "r15_reactor_first": ("UNH-15", {"actor-first": 0, "reactor-first": 1}),
    "r16_wasted": ("UNH-16", {"at-stop": 0, "wasted": 1}),
    "r17_any_hit": ("UNH-17", {"leg-or-out": 0, "any-hit": 1}),
    "r19_all": ("UNH-19", {"all": 1, "stowed": 0}),
    "r21_yes": ("UNH-21", {"no": 0, "yes": 1}),
    "r24_yes": ("UNH-24", {"no": 0, "yes": 1}),
    "r25_other_areas": ("UNH-25", {"any": 0, "other-areas": 1}),
    "r26_per_attack": ("UNH-26", {"per-fight": 0, "per-attack": 1}),
    "r27_break": ("UNH-27", {"break": 1, "wounded-now": 1, "fight-on": 0}),
    "r27_now": ("UNH-27", {"break": 0, "wounded-now": 1, "fight-on": 0}),
    "r20_by_roll": ("UNH-20", {"winner": 0, "by-roll": 1}),
    "r22_any": ("UNH-22", {"n-or-all": 0, "any-up-to-n": 1}),
    "r23_patient": ("UNH-23", {"treater": 0, "patient": 1}),
    "version_later": ("UNH-4", {"first": 0, "later": 1}),
    "mark_x": ("UNH-11", {"slash": 0, "x": 1}),
    "excess_lost": ("UNH-12", {"torso": 0, "lost": 1}),
    "torso_lost": ("UNH-13", {"escalate": 0, "lost": 1}),
    "refill_once": ("UNH-18", {"again": 0, "once": 1}),
}

_KINDS = {"melee": 0, "ranged": 1, "first-aid": 2, "shield": 3, "gear": 4}
_GOOD = {"attack": 1, "defend": 2, "initiative": 4, "first-aid": 8}
#: Roll labels in the kernel's order (its K_* constants) and the re-roll suffixes.
_LABELS = ("attack", "counterattack", "intercept", "defend", "initiative", "first aid")
_REROLLS = ("", " (re-roll tens)", " (re-roll units)", " (re-roll)")


def compiled() -> Any:
    """The compiled extension module, or ``None`` when it was not built."""
    return compiled_module("tactica.rulesets.unhex")


class UnhexKernel:
    """The compiled kernel prepared for one scenario."""

    def __init__(self, engine: Any, state: UnhexState) -> None:
        self.engine = engine
        self.sides = state.sides
        self.chars = [(c.id, c.side, c.body.max_level, c.body.boxes)
                      for c in state.chars.values()]

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        """The reference's :func:`~tactica.analysis.sim.play.play_battle`, compiled."""
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        played = self.engine.play(codes, key, seed, index,
                                  max_steps)
        if isinstance(played, str):
            return NotCovered(played)
        return self._result(played)

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        """:meth:`play` and the bit mask of the rulings the battle consulted (bit ``i``:
        ruling number ``i`` of the game's declaration order), as
        ``play_battle(..., consulted=True)`` records them
        (:class:`~tactica.engine.ruleset.ConsultingKernel`)."""
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        played = self.engine.play_consulted(codes, key, seed, index, max_steps)
        if isinstance(played, str):
            return NotCovered(played)
        result, mask = played
        return self._result(result), int(mask)

    def _result(self, played: tuple[Any, ...]) -> BattleResult:
        winner, finished, rounds, steps, units = played
        stats = {}
        for (uid, side, max_level, boxes), (survived, dealt, taken, moves, level, marks,
                                            dead) in zip(self.chars, units, strict=True):
            stats[uid] = UnitStats(uid, side, bool(survived), dealt, taken, moves,
                                   {"level": level, "dead": bool(dead),
                                    "wounds": _summary(level, max_level, boxes, marks)})
        return battle_result(self.sides, winner, finished, rounds, steps, stats)


def _summary(level: int, max_level: int, boxes: tuple[int, ...],
             marks: tuple[tuple[int, int, int], ...]) -> str:
    """Body.summary of the kernel's final marks."""
    parts = [f"{name} {Marks(*m).text(b)}" for name, m, b in zip(LOCATIONS, marks, boxes,
                                                                  strict=True) if sum(m)]
    return f"level {level}/{max_level}" + (": " + ", ".join(parts) if parts else "")


def prepare(scenario: Scenario) -> UnhexKernel | NotCovered:
    """The kernel of ``scenario`` (tables built from the reference), or why there is none."""
    module = compiled()
    state: UnhexState | NotCovered = starting_state(module, scenario, COVERED_RULINGS)
    if isinstance(state, NotCovered):
        return state
    graph = state.view.graph
    assert isinstance(graph, ZoneGraph)
    why = _uncovered(state, graph, module.LIMITS)
    if why is not None:
        return NotCovered(why)
    try:
        tables = _tables(state, graph, scenario.max_rounds)
    except Uncovered as exc:
        return NotCovered(str(exc))
    engine = built_kernel(module, tables)
    if isinstance(engine, NotCovered):
        return engine
    return UnhexKernel(engine, state)


def _uncovered(state: UnhexState, graph: ZoneGraph, limits: Mapping[str, int]) -> str | None:
    """Why the scenario passes one of the compiled kernel's ``limits`` (its ``LIMITS``), said
    before any table is built; ``None`` when it does not."""
    doors = [c for c in graph.connections if c.door is not None]
    most_doors = limits["views"].bit_length() - 1  # every combination of open doors is a view
    if len(doors) > most_doors:
        return f"a map with {len(doors)} doors (the kernel plays up to {most_doors})"
    if len(state.fixtures) > limits["fixtures"] or len(state.objectives) > limits["fixtures"]:
        return f"more than {limits['fixtures']} fixtures or objectives"
    if len(state.sides) > limits["sides"]:
        return f"{len(state.sides)} teams (the kernel plays up to {limits['sides']})"
    if len(state.chars) > limits["characters"] or len(graph.areas) > limits["areas"]:
        return "more characters or areas than the kernel's arrays hold"
    if any(len(f"unit {c.id!r}|".encode()) > 300 for c in state.chars.values()):
        return "a character name too long for the kernel's dice keys"
    items = {n for c in state.chars.values() for n in c.items}
    if len(items) > limits["items"]:
        return f"more than {limits['items']} kinds of item"
    if any(len(c.items) > limits["carried"] for c in state.chars.values()):
        return f"a character carrying more than {limits['carried']} items"
    return None


def _views(state: UnhexState, graph: ZoneGraph) -> tuple[list[dict[str, Any]], int]:
    """Every view of the map, one per combination of open doors (bit ``i`` set: door ``i``
    open), each made by the reference (ZoneView.with_door), and the scenario's own."""
    doors = [c for c in graph.connections if c.door is not None]
    index = {frozenset(c.ends): i for i, c in enumerate(doors)}
    first = sum(1 << i for i, c in enumerate(doors) if c.door == "open")
    views = []
    for mask in range(1 << len(doors)):
        view = state.view
        for i, c in enumerate(doors):
            view = view.with_door(*c.ends, "open" if (mask >> i) & 1 else "closed")
        views.append(_view(view, index))
    return views, first


def _view(view: ZoneView, door_index: Mapping[frozenset[str], int]) -> dict[str, Any]:
    graph = view.graph
    areas = list(graph.areas)
    where = {a: i for i, a in enumerate(areas)}
    look_dist, look_vis, look_cov = [], [], []
    for s in areas:
        for t in areas:
            look = view.look(s, t)
            look_dist.append(-1 if look.distance is None else look.distance)
            look_vis.append(int(look.visible))
            look_cov.append(int(look.cover))
    moves = [[where[to] for to in view.moves_from(a)] for a in areas]
    pairs = [(a, areas[to]) for a, tos in zip(areas, moves, strict=True) for to in tos]
    mlook_dist, mlook_vis, mlook_cov = [], [], []
    for s in areas:
        for pair in pairs:
            look = view.look(s, pair)
            mlook_dist.append(-1 if look.distance is None else look.distance)
            mlook_vis.append(int(look.visible))
            mlook_cov.append(int(look.cover))
    doors = [[(where[other], door_index[frozenset((a, other))])
              for other, _ in view.doors_from(a)] for a in areas]
    return {"look_dist": look_dist, "look_vis": look_vis, "look_cov": look_cov,
            "moves": moves, "mlook_dist": mlook_dist, "mlook_vis": mlook_vis,
            "mlook_cov": mlook_cov, "doors": doors}


def _tables(state: UnhexState, graph: ZoneGraph, max_rounds: int) -> dict[str, Any]:
    areas = list(graph.areas)
    where = {a: i for i, a in enumerate(areas)}
    n = len(areas)
    views, first = _views(state, graph)
    names = list(dict.fromkeys(n for c in state.chars.values() for n in c.items))
    item_of = {name: i for i, name in enumerate(names)}
    items = []
    for name in names:
        item = state.item(name)
        items.append((_KINDS[item.kind], item.hands, int(item.uses_ammo)))
    sides = state.sides
    chars = []
    for c in state.chars.values():
        chars.append({
            "side": sides.index(c.side), "pc": int(c.pc), "area": where[c.area],
            "good": sum(_GOOD[g] for g in c.good), "level": c.body.level,
            "max_level": c.body.max_level,
            "marks": [(c.body.marks_at(loc).slash, c.body.marks_at(loc).x,
                       c.body.marks_at(loc).perm) for loc in LOCATIONS],
            "items": [item_of[i] for i in c.items],
            "right": -1 if c.right is None else item_of[c.right],
            "left": -1 if c.left is None else item_of[c.left],
            "ammo": [(item_of[w], k) for w, k in c.ammo],
        })
    fixture_names = list(dict.fromkeys(name for _, name in state.fixtures))
    fixture_of = {name: i for i, name in enumerate(fixture_names)}
    fixtures = [(where[area], fixture_of[name]) for area, name in state.fixtures]
    objectives = [(sides.index(ob.side), -1 if ob.reach is None else where[ob.reach], ob.count,
                   -1 if ob.use is None else fixture_of[ob.use]) for ob in state.objectives]
    r = state.rulings
    bits = {int(ruling.id.removeprefix("UNH-")): 1 << i
            for i, ruling in enumerate(r.declared())}
    return {
        "ruling_bits": bits,
        "setup_consulted": sum(bits[int(rid.removeprefix("UNH-"))] for rid in SETUP_CONSULTED),
        "fixtures": fixtures, "objectives": objectives,
        "nareas": n, "views": views, "view": first,
        "exits": sorted(where[e] for e in state.exits),
        "items": items, "chars": chars, "nsides": len(sides),
        "side_pc": [int(s in state.pcs) for s in sides], "max_rounds": max_rounds,
        "boxes": list(state.damage.boxes),
        "rulings": option_table(r, OPTION_READS),
        "actor_slots": [f"unit {c.id!r}|".encode() for c in state.chars.values()],
        "label_slots": [f"{c.id}: {label}{suffix}|".encode() for c in state.chars.values()
                        for label in _LABELS for suffix in _REROLLS],
    }
