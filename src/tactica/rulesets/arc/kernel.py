"""Arc's compiled simulation kernel: its tables, built from the reference.

:func:`prepare` reads a scenario once and builds, with the reference's own functions, every
table the compiled battle loop (``_kernel.pyx``) needs: every distribution a roll draws from
(the d20 and d10 of the checks, each weapon's damage dice and its unarmored hits summed,
:func:`~tactica.rulesets.arc.armor.summed_hits`, the items' dice, the die capacities), the
exact sight geometry of the grid's lines per offset
(:func:`~tactica.battlefield.grid.fast.offset_geometry`), each gun's range as squares, the
useful aims (:func:`~tactica.rulesets.arc.attack.useful_aims`) and the roll labels' names. The
greedy policy's attack values come from the reference's exact odds through :func:`_estimator`.

It plays every option of every ruling. It answers :class:`~tactica.engine.ruleset.NotCovered`
for what it does not play: a ruling or an option added later, a map above
:data:`MAX_TILES` tiles, more fighters, weapons, armor dice or items than its arrays hold, a
range that is not a whole number of millimetres, a policy other than greedy and random, or a
missing compiled extension. A battle that reaches something it does not play (an unusual
number of distinct rolls, more than 200 wound dice on one character) is answered NotCovered
too, and the reference plays it from the start. A roll whose total weight needs more than 64
bits (the automatic rifle's, the GPMG's, the HMG's, a long pile of wound dice) is drawn with
the reference's own exact sampler on the same key.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from tactica.battlefield.grid.fast import offset_geometry
from tactica.dice import Dist, die
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
from tactica.rulesets.arc import policy, text
from tactica.rulesets.arc.armor import Volley, summed_hits
from tactica.rulesets.arc.attack import damage_rules, useful_aims
from tactica.rulesets.arc.checks import Check
from tactica.rulesets.arc.content import DamageDice
from tactica.rulesets.arc.movement import SQUARE_METRES
from tactica.rulesets.arc.state import ArcState

__all__ = ["COVERED_RULINGS", "MAX_TILES", "OPTION_READS", "ArcKernel", "compiled", "prepare"]

#: Every ruling option the kernel plays, by ruling (a ruling or option not listed: not covered).
COVERED_RULINGS: Mapping[str, tuple[str, ...]] = {
    "ARC-1": ("seed", "roll"),
    "ARC-2": ("floor", "floor-plus-one"),
    "ARC-3": ("one-hit", "no-hit"),
    "ARC-4": ("highest", "lowest"),
    "ARC-5": ("no", "penetrates"),
    "ARC-6": ("meets", "any-success", "contested"),
    "ARC-7": ("by-damage", "step"),
    "ARC-8": ("exceeds", "at-least"),
    "ARC-9": ("combat",),
    "ARC-10": ("threat",),
    "ARC-11": ("labelled",),
    "ARC-12": ("round", "turn"),
    "ARC-13": ("penalty-plus", "remove-first"),
    "ARC-14": ("one", "two"),
    "ARC-15": ("none",),
    "ARC-16": ("seed", "massive"),
    "ARC-17": ("listed",),
    "ARC-18": ("skip", "unaware"),
    "ARC-19": ("next-round", "none"),
    "ARC-20": ("own-turn", "until-turn-ends"),
    "ARC-21": ("rank",),
    "ARC-22": ("rof", "one"),
    "ARC-23": ("rolled", "maximum"),
    "ARC-24": ("end-of-round", "at-once"),
    "ARC-25": ("total", "other"),
    "ARC-26": ("smallest", "largest"),
    "ARC-27": ("one-step",),
    "ARC-28": ("cost-only",),
    "ARC-29": ("one-line", "two-lines"),
    "ARC-30": ("enter-sight",),
    "ARC-31": ("signed", "harm", "flat"),
    "ARC-32": ("declared", "each-shot"),
    "ARC-33": ("one-pair",),
}

#: How the tables read the ruling options (:func:`~tactica.engine.kernels.option_table`): for
#: each key the compiled loop takes, the ruling and its value for every option the kernel
#: plays (an option not listed: not covered, never read as another). The loop takes the codes
#: of the rulings it branches on as one list, in the order of :data:`_BRANCHES`.
OPTION_READS: OptionReads = {
    "ARC-1": ("ARC-1", {"seed": 0, "roll": 1}),
    "ARC-2": ("ARC-2", {"floor": 0, "floor-plus-one": 1}),
    "ARC-3": ("ARC-3", {"one-hit": 0, "no-hit": 1}),
    "ARC-4": ("ARC-4", {"highest": 0, "lowest": 1}),
    "ARC-5": ("ARC-5", {"no": 0, "penetrates": 1}),
    "ARC-6": ("ARC-6", {"meets": 0, "any-success": 1, "contested": 2}),
    "ARC-7": ("ARC-7", {"by-damage": 0, "step": 1}),
    "ARC-8": ("ARC-8", {"exceeds": 0, "at-least": 1}),
    "ARC-13": ("ARC-13", {"penalty-plus": 0, "remove-first": 1}),
    "ARC-16": ("ARC-16", {"seed": 0, "massive": 1}),
    "ARC-19": ("ARC-19", {"next-round": 0, "none": 1}),
    "ARC-20": ("ARC-20", {"own-turn": 0, "until-turn-ends": 1}),
    "ARC-22": ("ARC-22", {"rof": 0, "one": 1}),
    "ARC-23": ("ARC-23", {"rolled": 0, "maximum": 1}),
    "ARC-26": ("ARC-26", {"smallest": 0, "largest": 1}),
    "ARC-31": ("ARC-31", {"signed": 0, "harm": 1, "flat": 2}),
    "ARC-32": ("ARC-32", {"declared": 0, "each-shot": 1}),
    "ARC-12": ("ARC-12", {"round": 0, "turn": 1}),
    "ARC-24": ("ARC-24", {"end-of-round": 0, "at-once": 1}),
    "ARC-18": ("ARC-18", {"skip": 0, "unaware": 1}),
    # not branched on by the loop: the sight lines a clear line needs, and the hits of an
    # attack that must take one (the greedy policy's estimate)
    "min_clear": ("ARC-29", {"one-line": 1, "two-lines": 2}),
    "take_one": ("ARC-3", {"one-hit": 1, "no-hit": 0}),
}

#: The largest map the kernel plays (its sight tables hold every offset of the map).
MAX_TILES = 1024
_MAX_FIGHTERS, _MAX_WEAPONS, _MAX_ARMOR, _MAX_ITEMS, _MAX_SIDES = 32, 4, 4, 4, 8
_MAX_AIMS, _MAX_HITS = 24, 16
_SKILLS = ("small_guns", "big_guns", "melee", "evade", "medicine")
_WOUND_DICE = (4, 6, 8, 10, 12)
#: The rulings the battle loop branches on (the others are read here, into the tables).
_BRANCHES = ("ARC-1", "ARC-2", "ARC-3", "ARC-4", "ARC-5", "ARC-6", "ARC-7", "ARC-8", "ARC-13",
             "ARC-16", "ARC-19", "ARC-20", "ARC-22", "ARC-23", "ARC-26", "ARC-31", "ARC-32",
             "ARC-12", "ARC-24", "ARC-18")


def compiled() -> Any:
    """The compiled extension module, or ``None`` when it was not built."""
    return compiled_module("tactica.rulesets.arc")


class ArcKernel:
    """The compiled kernel prepared for one scenario; it also says which rulings each battle
    consulted (:class:`~tactica.engine.ruleset.ConsultingKernel`)."""

    def __init__(self, module: Any, engine: Any, state: ArcState,
                 bits: tuple[int, ...]) -> None:
        self.module = module
        self.engine = engine
        self.state = state
        self.sides = state.sides
        self.bits = bits

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        """The reference's :func:`~tactica.analysis.sim.play.play_battle`, compiled."""
        played = self._play(policies, seed, index, max_steps)
        return played if isinstance(played, NotCovered) else played[0]

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        """:meth:`play` and the bit mask of the rulings the battle consulted (bit ``i``:
        ruling number ``i`` of the game's declaration order), as the reference records them
        (:func:`~tactica.analysis.sim.play.play_battle` with ``consulted=True``). A battle
        stopped at the step budget is left to the reference: it reads rulings on the way to
        the step it did not take, which the kernel does not follow."""
        played = self._play(policies, seed, index, max_steps)
        if isinstance(played, NotCovered):
            return played
        result, consulted = played
        if not result.finished:
            return NotCovered("a battle stopped at the step budget (the rulings it consulted)")
        mask = 0
        for bit in self.bits:
            if consulted & 1:
                mask |= 1 << bit
            consulted >>= 1
        return result, mask

    def _play(self, policies: Mapping[str, str], seed: int, index: int,
              max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        try:
            out = self.engine.play(codes, key, seed, index, max_steps)
        except Uncovered as exc:
            return NotCovered(str(exc))
        return self._result(out)

    def _result(self, out: Any) -> tuple[BattleResult, int]:
        """The battle's result and its consulted mask, from the compiled loop's answer."""
        winner, finished, rounds, steps, units, consulted = out
        stats = {}
        for f, (dead, conscious, health, armor, wounds, ap, hand, dealt, taken, moves) in zip(
                self.state.fighters.values(), units, strict=True):
            details: dict[str, str | int | bool] = {}
            if f.profile.name and f.profile.name != f.id:
                details["name"] = f.profile.name
            details |= {
                "health": health,
                "armor": text.armor_text(f, armor),
                "wounds": text.wounds_text(wounds),
                "ap": ap,
                "weapon": f.profile.weapons[hand].name if f.profile.weapons else "",
            }
            if dead:
                details["dead"] = True
            elif not conscious:
                details["unconscious"] = True
            stats[f.id] = UnitStats(f.id, f.side, not dead, dealt, taken, moves, details)
        return battle_result(self.sides, winner, finished, rounds, steps, stats), consulted


def prepare(scenario: Scenario) -> ArcKernel | NotCovered:
    """The kernel of ``scenario`` (tables built from the reference), or why there is none."""
    module = compiled()
    state: ArcState | NotCovered = starting_state(module, scenario, COVERED_RULINGS)
    if isinstance(state, NotCovered):
        return state
    rulings = scenario.rulings
    try:
        tables = _tables(state, scenario.max_rounds)
    except Uncovered as exc:
        return NotCovered(str(exc))
    # the kernel's bit n - 1 is ARC-n; the mask's bit i is ruling number i as declared
    declared = [ruling.id for ruling in rulings.declared()]
    bits = tuple(declared.index(f"ARC-{n}") for n in range(1, len(declared) + 1))
    engine = built_kernel(module, tables)
    if isinstance(engine, NotCovered):
        return engine
    return ArcKernel(module, engine, state, bits)


class _Names:
    """The strings of the roll labels and keys, in one bytes object."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.found: dict[bytes, tuple[int, int]] = {}

    def span(self, value: str) -> tuple[int, int]:
        raw = value.encode()
        if len(raw) > 200:
            raise Uncovered("a name too long for the kernel's dice keys")
        found = self.found.get(raw)
        if found is None:
            found = self.found[raw] = (len(self.data), len(raw))
            self.data += raw
        return found


class _Dists:
    """Every distribution a roll draws from, as the exact sampler's cumulative weights."""

    def __init__(self) -> None:
        self.start: list[int] = []
        self.length: list[int] = []
        self.total: list[int] = []
        self.cum: list[int] = []
        self.out: list[int] = []
        self.vtotal: list[int] = []
        self.vwounds: list[int] = []
        self.known: dict[int, int] = {}
        self.kept: list[Dist[Any]] = []
        #: The distributions whose total weight needs more than 64 bits, by table: the kernel
        #: draws them with the reference's own sampler (their total and weights are 0 here).
        self.wide: dict[int, Dist[Any]] = {}

    def add(self, dist: Dist[Any]) -> int:
        found = self.known.get(id(dist))
        if found is not None:
            return found
        wide = dist.total >= TWO64
        found = self.known[id(dist)] = len(self.start)
        self.kept.append(dist)
        if wide:
            self.wide[found] = dist
        self.start.append(len(self.cum))
        self.length.append(len(dist.outcomes))
        self.total.append(0 if wide else dist.total)
        acc = 0
        for outcome, weight in zip(dist.outcomes, dist.weights, strict=True):
            acc += weight
            self.cum.append(0 if wide else acc)
            if isinstance(outcome, Volley):
                self.out.append(0)
                self.vtotal.append(outcome.total)
                self.vwounds.extend(outcome.wounds.count(d) for d in _WOUND_DICE)
            else:
                self.out.append(int(outcome))
                self.vtotal.append(0)
                self.vwounds.extend((0,) * 5)
        return found


def _mm(value: Fraction) -> int:
    mm = value * 1000
    if mm.denominator != 1:
        raise Uncovered(f"a distance of {float(value)} m (the kernel counts whole millimetres)")
    return int(mm)


def _sight_tables(w: int, h: int) -> dict[str, Any]:
    """Per offset (dx, dy) of the map, at index ``(dy + h - 1) * (2w - 1) + dx + w - 1``: the
    tiles that block each of the four lines alone and the pairs that block together (the
    grid's ``inset`` sight policy, :func:`offset_geometry`)."""
    n = (2 * w - 1) * (2 * h - 1)
    sstart, slen = np.zeros(n, np.int64), np.zeros(n, np.int64)
    pstart, plen = np.zeros(n, np.int64), np.zeros(n, np.int64)
    singles: list[tuple[int, int, int]] = []
    pairs: list[tuple[int, int, int, int, int]] = []
    for dy in range(-(h - 1), h):
        for dx in range(-(w - 1), w):
            i = (dy + h - 1) * (2 * w - 1) + dx + w - 1
            sstart[i], pstart[i] = len(singles), len(pairs)
            if dx or dy:
                geo = offset_geometry("inset", dx, dy)
                singles.extend(geo.singles)
                pairs.extend(geo.pairs)
            slen[i], plen[i] = len(singles) - sstart[i], len(pairs) - pstart[i]
    s = np.array(singles, dtype=np.int64).reshape(-1, 3)
    p = np.array(pairs, dtype=np.int64).reshape(-1, 5)
    return {
        "sstart": sstart, "slen": slen, "pstart": pstart, "plen": plen,
        "srx": np.ascontiguousarray(s[:, 0]), "sry": np.ascontiguousarray(s[:, 1]),
        "smask": np.ascontiguousarray(s[:, 2].astype(np.uint8)),
        "pax": np.ascontiguousarray(p[:, 0]), "pay": np.ascontiguousarray(p[:, 1]),
        "pbx": np.ascontiguousarray(p[:, 2]), "pby": np.ascontiguousarray(p[:, 3]),
        "pmask": np.ascontiguousarray(p[:, 4].astype(np.uint8)),
    }


def _estimator(state: ArcState, weapons: list[Any]) -> Callable[..., tuple[float, float]]:
    """policy.attack_value's two numbers for an attack described by plain numbers (the
    weapon's index, the target's, the check's target number and die, the Evade's die or 0,
    the rounds that cap the hits or -1, the sizes of the armor dice that protect, the
    target's health, whether it takes 1): the same functions, in the same order."""
    fighters = list(state.fighters.values())
    rulings = state.rulings
    rules = damage_rules(rulings)
    keys = tuple((k, rulings[k]) for k in ("ARC-2", "ARC-3", "ARC-6"))
    one_hit = option_table(rulings, {"take_one": OPTION_READS["take_one"]})["take_one"]

    def estimate(wi: int, ti: int, target: int, sides: int, esides: int, cap: int,
                 armor: tuple[int, ...], health: int, take_one: bool) -> tuple[float, float]:
        w = weapons[wi]
        t = fighters[ti]
        if take_one:
            n = one_hit
            pairs = policy._damage(w.damage, n, armor, rules) if n else ((0, 1.0),)
            return (sum(d * q for d, q in pairs), sum(q for d, q in pairs if d >= health))
        check = Check(w.skill.replace("_", " ").title(), target, w.increment, sides)
        evade = (None if esides == 0 else
                 Check("Evade", t.profile.skill("evade"), 5, esides))
        hits = policy._hits(check, evade, w.rof, keys)
        if cap >= 0:
            capped: dict[int, float] = {}
            for n, p in hits:
                capped[min(n, cap)] = capped.get(min(n, cap), 0.0) + p
            hits = tuple(capped.items())
        expected = out = 0.0
        for n, p in hits:
            e, o = policy._summary(w.damage, n, armor, rules, health, health + t.profile.con)
            expected += p * e
            out += p * o
        return expected, out

    return estimate


def _tables(state: ArcState, max_rounds: int) -> dict[str, Any]:
    fighters = list(state.fighters.values())
    sides = state.sides
    if len(fighters) > _MAX_FIGHTERS or len(sides) > _MAX_SIDES:
        raise Uncovered(f"{len(fighters)} characters on {len(sides)} sides (the kernel "
                         f"plays up to {_MAX_FIGHTERS} on {_MAX_SIDES})")
    grid = state.grid
    if grid is not None and grid.width * grid.height > MAX_TILES:
        raise Uncovered(f"a map of {grid.width} x {grid.height} squares (the kernel plays "
                         f"up to {MAX_TILES})")
    r = state.rulings
    codes = option_table(r, OPTION_READS)
    names = _Names()
    dists = _Dists()
    d20, d10 = dists.add(die(20)), dists.add(die(10))
    dies: dict[int, int] = {}
    index = {f.id: i for i, f in enumerate(fighters)}
    item_ids = sorted({name for f in fighters for name, _ in f.items})
    item_index = {name: i for i, name in enumerate(item_ids)}
    weapons: list[Any] = []
    fighter_tables = []
    w_ = grid.width if grid is not None else 1
    for f in fighters:
        p = f.profile
        if len(p.weapons) > _MAX_WEAPONS or len(p.armor) > _MAX_ARMOR \
                or len(f.items) > _MAX_ITEMS:
            raise Uncovered(f"{f.id} carries more than {_MAX_WEAPONS} weapons, "
                            f"{_MAX_ARMOR} armor dice or {_MAX_ITEMS} kinds of item")
        if f.health != p.max_health or f.ap or f.debt or f.wounds or f.jammed:
            raise Uncovered(f"{f.id} starts hurt or spent")
        own = []
        for w in p.weapons:
            rofcap = int(w.rof) if w.rof >= 1 else 1
            if w.max_hits() > _MAX_HITS or rofcap > _MAX_HITS:
                raise Uncovered(f"the {w.name}'s rate of fire (the kernel plays up to "
                                 f"{_MAX_HITS})")
            aims = useful_aims(w, r)
            if len(aims) > _MAX_AIMS:
                raise Uncovered(f"the {w.name}'s aims")
            if w.capacity_die is not None and w.capacity_die not in dies:
                dies[w.capacity_die] = dists.add(DamageDice(1, w.capacity_die).dist())
            if w.range is None:
                range_d2 = range_mm = -1
            else:
                range_mm = _mm(w.range) if grid is None else 0
                range_d2 = math.floor(w.range * w.range / (SQUARE_METRES * SQUARE_METRES))
            own.append({
                "dmg_n": w.damage.n, "dmg_sides": w.damage.sides, "dmg_bonus": w.damage.bonus,
                "dmg_max": w.damage.max, "dmg_table": dists.add(w.damage.dist()),
                "dtype": 0, "skill": _SKILLS.index(w.skill), "unaimed": w.unaimed,
                "accuracy": w.accuracy, "attack_ap": w.attack_ap(r), "rofcap": rofcap,
                "maxhits": w.max_hits(),
                "rof_int": int(w.rof) if w.rof.denominator == 1 else 0,
                "inc": w.increment,
                "fail0": w.failure[0] if w.failure is not None else 0,
                "fail1": w.failure[1] if w.failure is not None else 0,
                "swap": w.swap, "reload": w.reload,
                "full": w.full if w.full is not None else -1,
                "capdie": w.capacity_die or 0, "has_mag": int(w.has_magazine),
                "melee": int(w.melee), "ruled_ap": int(w.rof.denominator == 1),
                "hw": w.hardware_degree if w.hardware_degree is not None else -1,
                "range_d2": range_d2, "range_mm": range_mm, "aims": list(aims),
                "summed": [-1] + [dists.add(summed_hits(w.damage, n))
                                  for n in range(1, rofcap + 1)],
                "name": names.span(w.name),
                "skill_text": names.span(w.skill.replace("_", " ").title()),
                "dice_text": names.span(str(w.damage)),
            })
            weapons.append(w)
        if any(c < 0 for _, c in f.items):
            raise Uncovered(f"{f.id} carries a negative count of items")
        fighter_tables.append({
            "side": sides.index(f.side), "health": p.max_health, "con": p.con,
            "speed": p.speed.rank, "initiative": p.initiative,
            "involves": sum(1 << k for k, s in enumerate(_SKILLS) if p.involves(s)),
            "skills": [p.skill(s) for s in _SKILLS], "weapons": own,
            "armor": [a.size for a in p.armor],
            "items": [(item_index[name], count) for name, count in f.items],
            "pos": (f.at[1] * w_ + f.at[0]) if (grid is not None and f.at is not None) else -1,
            "actor_unit": names.span(f"unit {f.id!r}"),
            "actor_init": names.span(repr(f"initiative of {f.id}")),
            "actor_wound": names.span(repr(f"wound dice of {f.id}")),
            "actor_no_ap": names.span(repr(f"{f.id} has no AP left")),
            "actor_out": names.span(repr(f"{f.id} is unconscious: its wound dice")),
            "actor_finish": [names.span(repr(f"{f.id} finishes the "
                                             f"{state.items[name].name} it began"))
                             for name, _ in f.items],
            "id": names.span(f.id),
        })
    covers = []
    for w in weapons:
        for t in fighters:
            covers.append(sum(1 << k for k, a in enumerate(t.profile.armor)
                              if a.size > 0 and w.type in a.against))
    items = []
    for name in item_ids:
        item = state.items[name]
        heal = item.heal
        steps = item.remove_steps
        items.append({
            "cost": item.ap(False, r), "cost_self": item.ap(True, r),
            "check": int(item.check is not None),
            "heal_n": heal.n if heal is not None else 0,
            "heal_sides": heal.sides if heal is not None else 0,
            "heal_table": dists.add(heal.dist()) if heal is not None else -1,
            "rm_kind": 0 if steps is None else (1 if isinstance(steps, int) else 2),
            "rm_value": steps if isinstance(steps, int) else 0,
            "rm_table": dists.add(steps.dist()) if isinstance(steps, DamageDice) else -1,
            "plus": int(item.plus_degree), "raise_fail": int(item.raise_on_failure),
            "name": names.span(item.name),
            "heal_text": names.span(str(heal) if heal is not None else ""),
            "rm_text": names.span(str(steps) if isinstance(steps, DamageDice) else ""),
        })
    n = len(fighters)
    ranges = [-1] * (n * n)
    for pair, metres in state.ranges.items():
        a, b = sorted(pair)
        ranges[index[a] * n + index[b]] = ranges[index[b] * n + index[a]] = _mm(metres)
    tables: dict[str, Any] = {
        "names": bytes(names.data), "fighters": fighter_tables, "items": items,
        "nsides": len(sides), "max_rounds": max_rounds,
        "surprise": -1 if state.surprise is None else sides.index(state.surprise),
        "grid": int(grid is not None),
        "width": grid.width if grid is not None else 0,
        "height": grid.height if grid is not None else 0,
        "min_clear": codes["min_clear"],
        "ranges": ranges, "has_ranges": int(bool(state.ranges)), "covers": covers,
        "d20": d20, "d10": d10, "dies": dies,
        "estimate": _estimator(state, weapons),
        # the option of each ruling the loop branches on (its code in OPTION_READS)
        "rulings": [codes[k] for k in _BRANCHES],
    }
    wall, rough = [], []
    if grid is not None:
        wall = [int((x, y) in grid.blockers) for y in range(grid.height)
                for x in range(grid.width)]
        rough = [int((x, y) in state.rough) for y in range(grid.height)
                 for x in range(grid.width)]
        tables.update(_sight_tables(grid.width, grid.height))
    tables["wall"], tables["rough"] = wall, rough
    tables.update({
        "tstart": np.array(dists.start, np.int64), "tlen": np.array(dists.length, np.int64),
        "ttotal": np.array(dists.total, np.uint64), "tcum": np.array(dists.cum, np.uint64),
        "wide": dists.wide,
        "tout": np.array(dists.out, np.int64), "vtotal": np.array(dists.vtotal, np.int64),
        "vwounds": np.array(dists.vwounds, np.int64),
    })
    return tables
