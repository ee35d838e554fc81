"""Nebulia Operations' compiled simulation kernel: its tables, built from the reference.

:func:`prepare` reads a scenario once and builds, with the reference's own functions, every
table the compiled battle loop (``_kernel.pyx``) needs: the exact blocking geometry of sight
lines per offset (:func:`~tactica.battlefield.grid.fast.offset_geometry`), the cover-cancel
distance per offset (:func:`~tactica.battlefield.grid.metrics.is_within` under NEB-3), the
exact samplers of every dice pool an attack can roll (:func:`rules._pool_dist`), the greedy
policy's attack scores (:func:`odds._score_key`) and the order of the "first side" roll's
outcomes. It answers :class:`~tactica.engine.ruleset.NotCovered` for what the kernel does not play:
a ruling or an option it does not know, a map above :data:`MAX_TILES` tiles, more operators,
weapons or sides than its arrays hold, a dice pool too large for one 64-bit draw, a policy
other than greedy and random, or a missing compiled extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.battlefield.grid.fast import offset_geometry
from tactica.battlefield.grid.metrics import is_within
from tactica.battlefield.grid.tiles import TileGrid
from tactica.dice import Dist
from tactica.engine.kernels import (
    NOT_BUILT,
    TWO64,
    OptionReads,
    Uncovered,
    battle_arguments,
    battle_result,
    built_kernel,
    option_table,
    starting_state,
    uncovered_ruling,
)
from tactica.engine.kernels import compiled as compiled_module
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, NotCovered, Pending
from tactica.engine.scenario import Scenario
from tactica.engine.stats import BattleResult, UnitStats
from tactica.rulesets.nebulia import geometry, odds, rules

__all__ = ["COVERED_RULINGS", "MAX_TILES", "OPTION_READS", "NebuliaKernel", "NebuliaMirror",
           "compiled", "prepare"]

#: Every ruling option the kernel plays, by ruling (a ruling or option not listed: not covered).
COVERED_RULINGS: Mapping[str, tuple[str, ...]] = {
    "NEB-1": ("zero-to-nine", "one-to-ten"),  # the faces' display: the same draws
    "NEB-2": ("not-visible",),
    "NEB-3": ("chebyshev", "manhattan", "euclidean"),
    "NEB-4": ("inset", "touch", "interior"),
    "NEB-5": ("all", "foes"),
    "NEB-6": ("die", "characteristic"),
    "NEB-7": ("adjacent", "adjacent-and-visible"),
    "NEB-8": ("removed",),
    "NEB-9": ("alternate", "igougo"),
    "NEB-10": ("illustrative",),
    "NEB-11": ("alternate", "random", "fixed"),
    "NEB-12": ("enemies", "any"),
    "NEB-13": ("no-squeeze", "free", "no-corner-cutting"),
}

#: How the tables read the ruling options (:func:`~tactica.engine.kernels.option_table`): for
#: each key the compiled loop takes, the ruling and its value for every option the kernel
#: plays (an option not listed: not covered, never read as another). NEB-3 and NEB-4 reach the
#: sight tables through the reference's own geometry; NEB-6 also the armor pools.
OPTION_READS: OptionReads = {
    "block": ("NEB-5", {"all": 0, "foes": 1}),
    "cover_on_die": ("NEB-6", {"die": 1, "characteristic": 0}),
    "melee_sight": ("NEB-7", {"adjacent": 0, "adjacent-and-visible": 1}),
    "alternate": ("NEB-9", {"alternate": 1, "igougo": 0}),
    "first_rule": ("NEB-11", {"alternate": 0, "random": 1, "fixed": 2}),
    "enemies_only": ("NEB-12", {"enemies": 1, "any": 0}),
    "diagonal": ("NEB-13", {"no-squeeze": 0, "free": 1, "no-corner-cutting": 2}),
}

#: The largest map the kernel plays (its sight tables hold every offset of the map).
MAX_TILES = 1024
_MAX_OPS, _MAX_WEAPONS, _MAX_SIDES, _MAX_POOL = 32, 8, 8, 128


def compiled() -> Any:
    """The compiled extension module, or ``None`` when it was not built."""
    return compiled_module("tactica.rulesets.nebulia")


class NebuliaKernel:
    """The compiled kernel prepared for one scenario. ``consulted``: the bit mask of the
    rulings each battle consults (:class:`~tactica.engine.ruleset.ConsultingKernel`); Nebulia's
    reference consults the same rulings in every battle, from its setup
    (:data:`~tactica.rulesets.nebulia.rulings.SETUP_CONSULTED`)."""

    def __init__(self, engine: Any, ids: tuple[str, ...], sides: tuple[str, ...],
                 op_sides: tuple[str, ...], consulted: int = 0) -> None:
        self.engine = engine
        self.ids = ids
        self.sides = sides
        self.op_sides = op_sides
        self.consulted = consulted

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        """:meth:`play` and the bit mask of the rulings the battle consulted (bit ``i``:
        ruling number ``i`` of the game's declaration order)."""
        result = self.play(policies, seed, index, max_steps)
        if isinstance(result, NotCovered):
            return result
        return result, self.consulted

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        """The reference's :func:`~tactica.analysis.sim.play.play_battle`, compiled."""
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        winner, finished, rounds, steps, units = self.engine.play(
            codes, key, seed, index, max_steps)
        stats = {
            uid: UnitStats(uid, side, bool(alive), dealt, taken, moves, {"defense": defense})
            for uid, side, (alive, dealt, taken, moves, defense)
            in zip(self.ids, self.op_sides, units, strict=True)
        }
        return battle_result(self.sides, winner, finished, rounds, steps, stats)


def prepare(scenario: Scenario) -> NebuliaKernel | NotCovered:
    """The kernel of ``scenario`` (tables built from the reference), or why there is none."""
    module = compiled()
    state: rules.NebState | NotCovered = starting_state(module, scenario, COVERED_RULINGS)
    if isinstance(state, NotCovered):
        return state
    rulings = scenario.rulings
    grid = state.grid
    assert isinstance(grid, TileGrid)
    w, h = grid.width, grid.height
    if w * h > MAX_TILES:
        return NotCovered(f"a map of {w} x {h} tiles (the kernel plays up to {MAX_TILES})")
    ops = list(state.ops.values())
    if len(ops) > _MAX_OPS or len(state.sides) > _MAX_SIDES:
        return NotCovered(f"{len(ops)} operators on {len(state.sides)} sides (the kernel "
                          f"plays up to {_MAX_OPS} on {_MAX_SIDES})")
    if any(len(o.weapons) > _MAX_WEAPONS for o in ops):
        return NotCovered(f"an operator with more than {_MAX_WEAPONS} weapons")
    if any(o.out for o in ops):
        return NotCovered("an operator out of action from the start")
    if any(len(f"unit {o.id!r}|to hit|".encode()) > 900 for o in ops):
        return NotCovered("a unit id too long for the kernel's dice keys")
    try:
        tables = _tables(state, scenario.max_rounds)
    except Uncovered as exc:
        return NotCovered(str(exc))
    engine = built_kernel(module, tables)
    if isinstance(engine, NotCovered):
        return engine
    from tactica.rulesets.nebulia.rulings import SETUP_CONSULTED

    mask = sum(1 << i for i, ruling in enumerate(rulings.declared())
               if ruling.id in SETUP_CONSULTED)
    return NebuliaKernel(engine, tuple(o.id for o in ops), state.sides,
                         tuple(o.side for o in ops), mask)


def _sight_tables(w: int, h: int, policy: str, metric: str) -> dict[str, Any]:
    """Per offset (dx, dy) of the map, at index ``(dy + h - 1) * (2w - 1) + dx + w - 1``: the
    tiles (relative to the source) that block each of the four lines alone, the pairs that
    block together (:func:`offset_geometry`), and whether cover is cancelled (NEB-3)."""
    n = (2 * w - 1) * (2 * h - 1)
    sstart, slen = np.zeros(n, np.int64), np.zeros(n, np.int64)
    pstart, plen = np.zeros(n, np.int64), np.zeros(n, np.int64)
    near = np.zeros(n, np.uint8)
    singles: list[tuple[int, int, int]] = []
    pairs: list[tuple[int, int, int, int, int]] = []
    for dy in range(-(h - 1), h):
        for dx in range(-(w - 1), w):
            i = (dy + h - 1) * (2 * w - 1) + dx + w - 1
            near[i] = is_within((0, 0), (dx, dy), geometry.COVER_CANCEL, metric)
            sstart[i], pstart[i] = len(singles), len(pairs)
            if dx or dy:
                geo = offset_geometry(policy, dx, dy)
                singles.extend(geo.singles)
                pairs.extend(geo.pairs)
            slen[i], plen[i] = len(singles) - sstart[i], len(pairs) - pstart[i]
    s = np.array(singles, dtype=np.int64).reshape(-1, 3)
    p = np.array(pairs, dtype=np.int64).reshape(-1, 5)
    return {
        "near": near, "sstart": sstart, "slen": slen, "pstart": pstart, "plen": plen,
        "srx": np.ascontiguousarray(s[:, 0]), "sry": np.ascontiguousarray(s[:, 1]),
        "smask": np.ascontiguousarray(s[:, 2].astype(np.uint8)),
        "pax": np.ascontiguousarray(p[:, 0]), "pay": np.ascontiguousarray(p[:, 1]),
        "pbx": np.ascontiguousarray(p[:, 2]), "pby": np.ascontiguousarray(p[:, 3]),
        "pmask": np.ascontiguousarray(p[:, 4].astype(np.uint8)),
    }


def _tables(state: rules.NebState, max_rounds: int) -> dict[str, Any]:
    grid = state.grid
    w, h = grid.width, grid.height
    r = state.rulings
    ops = list(state.ops.values())
    index = {o.id: i for i, o in enumerate(ops)}
    sides = state.sides
    pools: list[tuple[list[int], list[int], int]] = []
    pool_index: dict[tuple[int, int, int], int] = {}
    #: The pools whose total weight needs more than 64 bits (many dice), by table.
    wide: dict[int, Dist[int]] = {}

    def pool(n: int, target: int, modifier: int) -> int:
        """rules.d10_pool's distribution (rules._pool_dist), as its exact sampler's table."""
        key = (n, target, modifier)
        found = pool_index.get(key)
        if found is None:
            dist: Dist[int] = rules._pool_dist(n, target, modifier)
            if len(dist.outcomes) > _MAX_POOL:
                raise Uncovered(f"a pool of {n} dice (more than {_MAX_POOL} outcomes)")
            found = pool_index[key] = len(pools)
            if dist.total >= TWO64:
                # drawn with the reference's own sampler (total and weights 0 here)
                wide[found] = dist
                pools.append((list(dist.outcomes), [0] * len(dist.outcomes), 0))
                return found
            cum, acc = [], 0
            for weight in dist.weights:
                acc += weight
                cum.append(acc)
            pools.append((list(dist.outcomes), cum, dist.total))
        return found

    weapons = [(o, wpn) for o in ops for wpn in o.weapons]
    maxdice = max((wpn.dice for _, wpn in weapons), default=0)
    maxdef = max(o.max_defense for o in ops)
    if any(o.defense > maxdef for o in ops):
        maxdef = max(o.defense for o in ops)
    nw, no = len(weapons), len(ops)
    armor_pool = np.zeros(nw * no * 2 * (maxdice + 1), np.int64)
    score = np.zeros(nw * no * 2 * (maxdef + 1), np.float64)
    rk = r.key()
    op_tables = []
    for i, o in enumerate(ops):
        own = []
        for wpn in o.weapons:
            own.append({"melee": int(wpn.is_melee), "dice": wpn.dice,
                        "accuracy": wpn.accuracy, "damage": wpn.damage,
                        "tohit_pool": pool(wpn.dice, wpn.accuracy, 0) if wpn.dice else 0})
        op_tables.append({"side": sides.index(o.side), "defense": o.defense,
                          "max_defense": o.max_defense, "armor": o.armor, "move": o.move,
                          "pos": o.pos[1] * w + o.pos[0], "weapons": own})
        del i
    for wi, (_, wpn) in enumerate(weapons):
        for t, target in enumerate(ops):
            for cover in (0, 1):
                armor, modifier = rules.cover_armor(target.armor, bool(cover), r["NEB-6"])
                for hits in range(1, wpn.dice + 1):
                    armor_pool[((wi * no + t) * 2 + cover) * (maxdice + 1) + hits] = pool(
                        hits, armor, modifier)
                for defense in range(maxdef + 1):
                    score[((wi * no + t) * 2 + cover) * (maxdef + 1) + defense] = (
                        odds._score_key(wpn, target.armor, bool(cover), defense, rk))
    # The "first side" roll (NEB-11 random): Dist.uniform(standing)'s outcome order.
    first_outcomes = np.zeros((1 << len(sides)) * _MAX_SIDES, np.int64)
    for mask in range(1, 1 << len(sides)):
        standing = [s for k, s in enumerate(sides) if (mask >> k) & 1]
        for k, s in enumerate(Dist.uniform(standing).outcomes):
            first_outcomes[mask * _MAX_SIDES + k] = sides.index(s)
    wall = np.zeros(w * h, np.uint8)
    for x, y in grid.blockers:
        wall[y * w + x] = 1
    tables: dict[str, Any] = {
        "width": w, "height": h, "wall": wall, "ops": op_tables, "nsides": len(sides),
        "first": sides.index(state.first), "max_rounds": max_rounds, "pools": pools,
        "wide": wide,
        "armor_pool": armor_pool, "score": score, "maxdice": maxdice, "maxdef": maxdef,
        "first_outcomes": first_outcomes,
        **option_table(r, OPTION_READS),
        "hit_slots": [f"unit {o.id!r}|to hit|".encode() for o in ops],
        "armor_slots": [f"unit {o.id!r}|armor|".encode() for o in ops],
    }
    tables.update(_sight_tables(w, h, r["NEB-4"], r["NEB-3"]))
    del index
    return tables


# ---------------------------------------------------------------------------------------------
# The per-rule tests on both engines (tactica.testing.both): a kernel started from any state the
# reference is in, one step at a time, with the step's scripted choice and dice.


def _state_kernel(state: rules.NebState) -> Any:
    """A kernel whose tables are built from ``state`` (its operators' characteristics as they
    are now), or why there is none: the checks of :func:`prepare`, but an operator already out
    of action is allowed (the run's start says so)."""
    module = compiled()
    if module is None:
        return NotCovered(NOT_BUILT)
    uncovered = uncovered_ruling(state.rulings, COVERED_RULINGS)
    if uncovered is not None:
        return uncovered
    grid = state.grid
    if not isinstance(grid, TileGrid) or grid.width * grid.height > MAX_TILES:
        return NotCovered(f"a map beyond {MAX_TILES} tiles")
    ops = list(state.ops.values())
    if len(ops) > _MAX_OPS or len(state.sides) > _MAX_SIDES:
        return NotCovered("more operators or sides than the kernel holds")
    if any(len(o.weapons) > _MAX_WEAPONS for o in ops):
        return NotCovered(f"an operator with more than {_MAX_WEAPONS} weapons")
    if any(len({wpn.name for wpn in o.weapons}) < len(o.weapons) for o in ops):
        return NotCovered("an operator with two weapons of one name")
    try:
        tables = _tables(state, state.max_rounds)
    except Uncovered as exc:
        return NotCovered(str(exc))
    return built_kernel(module, tables)


class NebuliaMirror:
    """Plays one step of a reference battle on the kernel, from the state before it, with the
    step's choice and the outcomes the reference's dice gave (:class:`tactica.testing.both
    .KernelMirror`)."""

    name = "nebulia-operations"

    def run(self, before: Any, action: Any | None,
            outcomes: list[Any]) -> dict[str, Any] | NotCovered:
        """The kernel's run of the step (``action`` ``None``: the automatic step)."""
        from tactica.rulesets.nebulia.records import Attack, EndActivation, Move

        state = before
        assert isinstance(state, rules.NebState)
        engine = _state_kernel(state)
        if isinstance(engine, NotCovered):
            return engine
        ops = list(state.ops.values())
        index = {o.id: i for i, o in enumerate(ops)}
        w = state.grid.width
        choices: list[tuple[int, int]] = []
        if isinstance(action, Move):
            choices.append((index[action.unit], action.to[1] * w + action.to[0]))
        elif isinstance(action, Attack):
            a = state.ops[action.unit]
            base = sum(len(o.weapons) for o in ops[:index[a.id]])
            names = [wpn.name for wpn in a.weapons]
            if action.weapon not in names:
                return NotCovered(f"an attack with the weapon {action.weapon!r}")
            choices.append((index[action.target], base + names.index(action.weapon)))
        elif isinstance(action, EndActivation):
            choices.append((-1, -1))
        elif action is not None:
            return NotCovered(f"the action {action!r}")
        sides = state.sides
        kernel_outcomes = [sides.index(v) if isinstance(v, str) else v for v in outcomes]
        start = _start(state)
        result: dict[str, Any] = engine.run_scripted(start, choices, kernel_outcomes, 1)
        return result

    def offered(self, state: Any) -> list[Any] | NotCovered:
        """The options the kernel offers in ``state`` (a side to choose), as the reference's
        actions."""
        assert isinstance(state, rules.NebState)
        engine = _state_kernel(state)
        if isinstance(engine, NotCovered):
            return engine
        result = engine.run_scripted(_start(state), [None], [], 1)
        found = self.options(state, result)
        return found[0] if found else []

    def view(self, state: Any, pending: Pending) -> dict[str, Any]:
        """What the kernel's end state says, read from the reference's ``state`` (and what
        comes next, ``pending``)."""
        assert isinstance(state, rules.NebState)
        return {
            "round": state.round,
            "turn": state.turn or None,
            "active": state.active,
            "ops": {o.id: {"pos": (o.pos[0], o.pos[1]), "defense": o.defense,
                           "out": o.out, "ready": o.id in state.ready}
                    for o in state.ops.values()},
            "next": _next(pending),
        }

    def kernel_view(self, before: Any, result: Mapping[str, Any]) -> dict[str, Any]:
        """The same reading of the kernel's end state (``before``: the state it started
        from, for the names)."""
        assert isinstance(before, rules.NebState)
        ops = list(before.ops.values())
        sides = before.sides
        w = before.grid.width
        kind, who = result["pending"], result["who"]
        side = sides[who] if who >= 0 else None
        return {
            "round": result["round"],
            "turn": sides[result["turn"]] if result["turn"] >= 0 else None,
            "active": ops[result["active"]].id if result["active"] >= 0 else None,
            "ops": {o.id: {"pos": (pos % w, pos // w), "defense": defense, "out": out,
                           "ready": ready}
                    for o, (pos, defense, out, ready, *_) in zip(ops, result["ops"],
                                                                  strict=True)},
            "next": ("finished", side) if kind == "finished" else (
                ("automatic", None) if kind == "automatic" else ("choose", side)),
        }

    def options(self, before: Any, result: Mapping[str, Any]) -> list[list[Any]]:
        """The options the kernel offered at each choice of the run, as the reference's
        actions."""
        from tactica.rulesets.nebulia.records import Attack, EndActivation, Move

        assert isinstance(before, rules.NebState)
        ops = list(before.ops.values())
        weapons = [(o, wpn) for o in ops for wpn in o.weapons]
        w = before.grid.width
        out = []
        for kind, _who, offered, _want in (e for e in result["trace"] if e[0] != "round"):
            actions: list[Any] = []
            for a, b in offered:
                if kind == "move":
                    actions.append(Move(ops[a].id, (b % w, b // w)))
                elif a < 0:
                    actions.append(EndActivation(before.active or ""))
                else:
                    actions.append(Attack(weapons[b][0].id, weapons[b][1].name, ops[a].id))
            out.append(actions)
        return out

    def rolls(self, before: Any, result: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
        """The kernel's draws as (label, {outcome: probability}, outcome), in the reference's
        terms (the "first side" roll's sides by name)."""
        assert isinstance(before, rules.NebState)
        sides = before.sides
        out = []
        for slot, _k, outcomes, weights, value in result["rolls"]:
            label = slot.decode().rstrip("|").rsplit("|", 1)[-1]
            named = label == "first side"
            total = sum(weights)
            dist = {(sides[o] if named else o): Fraction(wt, total)
                    for o, wt in zip(outcomes, weights, strict=True) if wt}
            out.append((label, dist, sides[value] if named else value))
        return out


def _start(state: rules.NebState) -> dict[str, Any]:
    """Where the kernel's run_scripted starts: ``state``'s operators, round, turn and active
    operator by number."""
    ops = list(state.ops.values())
    index = {o.id: i for i, o in enumerate(ops)}
    w = state.grid.width
    return {
        "ops": [(o.pos[1] * w + o.pos[0], o.defense, o.out, o.id in state.ready) for o in ops],
        "round": state.round,
        "turn": state.sides.index(state.turn) if state.turn in state.sides else -1,
        "active": index[state.active] if state.active is not None else -1,
    }


def _next(pending: Pending) -> tuple[str, str | None]:
    if isinstance(pending, Finished):
        return ("finished", pending.winner)
    if isinstance(pending, Automatic):
        return ("automatic", None)
    assert isinstance(pending, ChooseAction)
    return ("choose", pending.side)
