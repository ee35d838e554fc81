"""Last Odyssey's compiled simulation kernel: its tables, built from the reference.

:func:`prepare` reads a scenario once and builds, from the reference's own content packs and
functions, every table the compiled battle loop (``_kernel.pyx``) needs: each ability's and
item's figures (reach, area, attack, element, multipliers, costs, effects), each character's
statistics, weapons, Shells, statuses, items and passives, the element chart
(:meth:`Pack.multiplier`), the status thresholds (:meth:`Figures.status_threshold_for`), the
bonus track, the GM's initiative roll (its exact :class:`~tactica.dice.Dist`) and the keys of
every keyed roll. It answers :class:`~tactica.engine.ruleset.NotCovered` for what the kernel does
not play: a ruling option it does not know, a multi-target ability that rolls no hit die, a
reach or an attack kind it does not know, more than :data:`_MAX_REACTION_LABELS` names of
declared reactions (abilities of type ``reaction``), a reaction that uses a reaction, more
characters, abilities, items, weapons, Shells, statuses or sides than its arrays hold, a policy
other than greedy and random, or a missing compiled extension.

The loop also keeps the rulings each battle consulted, as a bit mask in the game's declaration
order (:meth:`LastOdysseyKernel.play_consulted`): at each point where the reference reads a
ruling, the kernel ORs in that ruling's bit (:func:`_consult_masks`), so the set equals
``play_battle(..., consulted=True)``'s battle for battle.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tactica.battlefield.rows import Rows
from tactica.dice import die
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
from tactica.engine.rulings import Rulings
from tactica.engine.scenario import Scenario
from tactica.engine.stats import BattleResult, UnitStats
from tactica.rulesets.last_odyssey.content import COLORLESS, STATS, Ability, Pack, stat_index
from tactica.rulesets.last_odyssey.policy import STATUS_WORTH
from tactica.rulesets.last_odyssey.state import Fighter, LodState

__all__ = ["COVERED_RULINGS", "OPTION_READS", "LastOdysseyKernel", "compiled", "prepare"]

#: Every ruling option the kernel plays, by ruling (a ruling or option not listed: not covered).
COVERED_RULINGS: Mapping[str, tuple[str, ...]] = {
    "LOD-1": ("base", "die-only"),
    "LOD-2": ("half-down", "half-up", "half-even"),
    "LOD-3": ("floor-base",),
    "LOD-4": ("natural-one",),
    "LOD-5": ("srd",),
    "LOD-6": ("one-roll",),
    "LOD-7": ("declared",),
    "LOD-8": ("call-one", "policy"),
    "LOD-9": ("until-moved",),
    "LOD-10": ("newest", "single"),
    "LOD-11": ("fail", "one-hits"),
    "LOD-12": ("others", "anyone"),
    "LOD-13": ("listed",),
    "LOD-14": ("same-roll", "same-damage"),
    "LOD-15": ("free", "costed"),
    "LOD-16": ("sides", "anyone"),
    "LOD-17": ("hp", "shell-first"),
    "LOD-18": ("basic-attack", "named-only"),  # decided at setup: the characters' abilities
    "LOD-19": ("one-ap-no-mp",),
    "LOD-20": ("thief-chooses", "random"),
    "LOD-21": ("acts", "idle"),
    "LOD-22": ("target", "user"),
    "LOD-23": ("damaging", "any-hit"),
    "LOD-24": ("initiative", "listed"),
}

#: How the tables read the ruling options (:func:`~tactica.engine.kernels.option_table`): for
#: each key the compiled loop takes, the ruling and its value for every option the kernel
#: plays (an option not listed: not covered, never read as another).
OPTION_READS: OptionReads = {
    "die_only": ("LOD-1", {"base": 0, "die-only": 1}),
    "rounding": ("LOD-2", {"half-down": 0, "half-up": 1, "half-even": 2}),
    "call_policy": ("LOD-8", {"call-one": 0, "policy": 1}),
    "single_shell": ("LOD-10", {"newest": 0, "single": 1}),
    "one_hits": ("LOD-11", {"fail": 0, "one-hits": 1}),
    "confused_anyone": ("LOD-12", {"others": 0, "anyone": 1}),
    "same_damage": ("LOD-14", {"same-roll": 0, "same-damage": 1}),
    "costed": ("LOD-15", {"free": 0, "costed": 1}),
    "anyone": ("LOD-16", {"sides": 0, "anyone": 1}),
    "shell_first": ("LOD-17", {"hp": 0, "shell-first": 1}),
    "random_steal": ("LOD-20", {"thief-chooses": 0, "random": 1}),
    "idle": ("LOD-21", {"acts": 0, "idle": 1}),
    "user_full": ("LOD-22", {"target": 0, "user": 1}),
    "any_hit": ("LOD-23", {"damaging": 0, "any-hit": 1}),
    "listed_first": ("LOD-24", {"initiative": 0, "listed": 1}),
}

_MAX_FIGHTERS, _MAX_ABILITIES, _MAX_OWN, _MAX_ITEMS, _MAX_WEAPONS = 64, 64, 24, 16, 4
_MAX_SHELLS, _MAX_ELEMENTS, _MAX_STATUSES, _MAX_SIDES, _MAX_OPTIONS = 16, 16, 31, 8, 4096
_REACH = {None: 0, "self": 1, "melee": 2, "ranged": 3, "ally": 4, "ally-other": 5, "charge": 6}
_ATTACK = {"physical": 0, "magical": 1, "status": 2, None: 3}
_PASSIVES = {"body-armor": 1, "faithful": 2, "revenge": 4, "tactical-retreat": 8,
             "quick-fingers": 16, "too-stupid-to-die": 32}
_IMMUNE, _ALWAYS = -100000, 100000
_LABELS = ("hit die", "hit die (Revenge)", "hit die (Quick Fingers)", "coin call",
           "stolen item")
#: The names of declared reactions whose hit die another label already keys (same key string).
_NAMED_LABELS = {"Revenge": 1, "Quick Fingers": 2}
#: The labels the kernel keeps for the hit dice of declared reactions (its NLAB - 5).
_MAX_REACTION_LABELS = 8
_TRIGGERS = {None: 0, "missed-in-melee": 1, "hit-in-melee": 2, "attacked-in-melee": 3}
#: The statuses the rules read by name (a pack without one: that check never holds).
_NAMED_STATUSES = ("burned", "confused", "petrified", "blinded", "frostbitten", "fatigued",
                   "paralyzed", "silenced", "poisoned")


def compiled() -> Any:
    """The compiled extension module, or ``None`` when it was not built."""
    return compiled_module("tactica.rulesets.last_odyssey")


class LastOdysseyKernel:
    """The compiled kernel prepared for one scenario."""

    def __init__(self, engine: Any, ids: tuple[str, ...], sides: tuple[str, ...],
                 unit_sides: tuple[str, ...], statuses: tuple[str, ...]) -> None:
        self.engine = engine
        self.ids = ids
        self.sides = sides
        self.unit_sides = unit_sides
        self.statuses = statuses
        self.shown: dict[int, str] = {}

    def _statuses(self, mask: int) -> str:
        """The statuses as the reference's unit details show them (sorted, or ``-``)."""
        found = self.shown.get(mask)
        if found is None:
            names = sorted(s for i, s in enumerate(self.statuses) if (mask >> i) & 1)
            found = self.shown[mask] = ", ".join(names) or "-"
        return found

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        """The reference's :func:`~tactica.analysis.sim.play.play_battle`, compiled."""
        played = self._played(policies, seed, index, max_steps)
        return played if isinstance(played, NotCovered) else played[0]

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        """:meth:`play` and the bit mask of the rulings the battle consulted (bit ``i``:
        ruling number ``i`` of the game's declaration order), the set the reference records
        (:class:`~tactica.engine.ruleset.ConsultingKernel`)."""
        return self._played(policies, seed, index, max_steps)

    def _played(self, policies: Mapping[str, str], seed: int, index: int,
                max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        arguments = battle_arguments(self.sides, policies, seed, index)
        if isinstance(arguments, NotCovered):
            return arguments
        codes, key = arguments
        return self._result(self.engine.play(codes, key, seed, index, max_steps))

    def _result(self, out: Any) -> tuple[BattleResult, int]:
        """The battle's result and its consulted mask, from the compiled loop's answer."""
        winner, finished, rounds, steps, units, consulted = out
        stats = {
            uid: UnitStats(uid, side, bool(survived), dealt, taken, moves,
                           {"hp": hp, "shell": shell, "mp": mp,
                            "statuses": self._statuses(statuses),
                            "knocked_out": knocked_out, "fled": fled})
            for uid, side, (survived, dealt, taken, moves, hp, shell, mp, statuses,
                            knocked_out, fled)
            in zip(self.ids, self.unit_sides, units, strict=True)
        }
        return battle_result(self.sides, winner, finished, rounds, steps, stats), consulted


def prepare(scenario: Scenario) -> LastOdysseyKernel | NotCovered:
    """The kernel of ``scenario`` (tables built from the reference), or why there is none."""
    module = compiled()
    state: LodState | NotCovered = starting_state(module, scenario, COVERED_RULINGS)
    if isinstance(state, NotCovered):
        return state
    try:
        tables = _tables(state)
    except Uncovered as exc:
        return NotCovered(str(exc))
    engine = built_kernel(module, tables)
    if isinstance(engine, NotCovered):
        return engine
    fighters = list(state.fighters.values())
    return LastOdysseyKernel(engine, tuple(f.id for f in fighters), state.sides,
                             tuple(f.side for f in fighters), tuple(state.pack.statuses))


def _ratio(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


class _Table:
    """The abilities and items of a battle, each once, by (kind, id)."""

    def __init__(self, pack: Pack, elements: Mapping[str, int],
                 statuses: Mapping[str, int]) -> None:
        self.pack = pack
        self.elements = elements
        self.statuses = statuses
        self.index: dict[tuple[str, str], int] = {}
        self.rows: list[dict[str, Any]] = []
        self.names: list[str] = []
        #: The hit-die labels of declared reactions past _LABELS, by reaction name.
        self.labels: dict[str, int] = dict(_NAMED_LABELS)
        self.reaction_labels: list[str] = []

    def ability(self, name: str) -> int:
        """The index of ``pack.ability(name)`` (abilities first, as the reference looks up)."""
        kind = "ability" if name in self.pack.abilities else "item"
        return self._add(kind, name, self.pack.ability(name))

    def item(self, name: str) -> int:
        return self._add("item", name, self.pack.items[name])

    def _element(self, name: str) -> int:
        found = self.elements.get(name)
        if found is None:
            raise Uncovered(f"the element {name!r} (not in the pack's chart)")
        return found

    def _add(self, kind: str, name: str, a: Ability) -> int:
        key = (kind, name)
        found = self.index.get(key)
        if found is not None:
            return found
        trigger, use, label = 0, -1, 0
        if a.type == "reaction":
            # resolve._declared: the trigger, the ability used (looked up as w.ability does),
            # the label of its hit die
            assert a.reaction is not None and a.trigger in _TRIGGERS
            if self.pack.ability(a.reaction).type == "reaction":
                raise Uncovered(f"the reaction ability {a.name!r} that uses a reaction")
            trigger, use = _TRIGGERS[a.trigger], self.ability(a.reaction)
            label = self._label(a.name)
        if a.reach not in _REACH:
            raise Uncovered(f"the reach {a.reach!r} of {a.name!r}")
        if a.attack not in _ATTACK:
            raise Uncovered(f"the attack {a.attack!r} of {a.name!r}")
        if a.is_multi and a.attack is None:
            raise Uncovered(f"the multi-target ability {a.name!r} that rolls no hit die")
        if a.attack == "status" and (a.status is None or a.status not in self.statuses):
            raise Uncovered(f"the status attack {a.name!r}")
        if len(a.elements) > _MAX_ELEMENTS:
            raise Uncovered(f"the ability {a.name!r} with more than {_MAX_ELEMENTS} elements")
        cure = 0
        for s in a.cure:
            cure |= 1 << self.statuses[s]
        full = a.full_hp_multiplier
        row = {
            "is_action": int(a.is_action), "reach": _REACH[a.reach],
            "area": 0 if a.area == "one" else (1 if a.area == "enemy-front-row" else 2),
            "attack": _ATTACK[a.attack], "element": self._element(a.element),
            "elements": [self._element(e) for e in a.elements],
            "mult": _ratio(a.multiplier), "full": None if full is None else _ratio(full),
            "status": self.statuses[a.status] if a.status is not None else 0,
            "mp": a.mp, "ap": a.ap, "ammo": a.ammo, "once": int(a.once_per_battle),
            "basic": int(a.basic), "damage": int(a.damage),
            "buff": -1 if a.buff is None else stat_index(a.buff),
            "debuff": -1 if a.debuff is None else stat_index(a.debuff),
            "heal": a.heal, "restore_mp": a.restore_mp, "user_mp": a.user_mp, "hurt": a.hurt,
            "shell": a.shell, "gain_ammo": a.gain_ammo, "steal": int(a.steal),
            "disarm": int(a.disarm), "cure": cure, "user_dies": int(a.user_dies),
            "restores": int(a.restores), "rank": 0,
            "trigger": trigger, "use": use, "label": label,
        }
        if len(self.rows) >= _MAX_ABILITIES:
            raise Uncovered(f"more than {_MAX_ABILITIES} abilities and items in one battle")
        self.index[key] = len(self.rows)
        self.rows.append(row)
        self.names.append(name)
        return self.index[key]

    def _label(self, name: str) -> int:
        """The keyed label of the hit die of the declared reaction ``name``."""
        found = self.labels.get(name)
        if found is None:
            if len(self.reaction_labels) >= _MAX_REACTION_LABELS:
                raise Uncovered(f"more than {_MAX_REACTION_LABELS} names of declared "
                                "reactions")
            found = self.labels[name] = len(_LABELS) + len(self.reaction_labels)
            self.reaction_labels.append(f"hit die ({name})")
        return found

    def ranked(self) -> list[dict[str, Any]]:
        """The rows, each with its id's place in sorted order (Dist.uniform sorts items)."""
        order = {name: i for i, name in enumerate(sorted(set(self.names)))}
        for row, name in zip(self.rows, self.names, strict=True):
            row["rank"] = order[name]
        return self.rows


def _tables(state: LodState) -> dict[str, Any]:
    pack = state.pack
    r = state.rulings
    figures = pack.figures
    fighters = list(state.fighters.values())
    sides = state.sides
    rows = state.rows
    assert isinstance(rows, Rows)
    if len(fighters) > _MAX_FIGHTERS or len(sides) > _MAX_SIDES:
        raise Uncovered(f"{len(fighters)} characters on {len(sides)} sides (the kernel plays "
                         f"up to {_MAX_FIGHTERS} on {_MAX_SIDES})")
    if tuple(s.name for s in rows.sides) != sides:
        raise Uncovered("rows whose sides are not in the scenario's order")
    if state.phase != "setup" or state.round != 0:
        raise Uncovered("a battle already under way")
    if any(len(f"unit {f.id!r}|{_LABELS[2]}|".encode()) > 900 for f in fighters):
        raise Uncovered("a character id too long for the kernel's dice keys")
    if any(f.id == "poison" for f in fighters):
        raise Uncovered("a character named 'poison' (poison's damage names its source so)")
    names = [*pack.elements, COLORLESS]
    if len(names) > _MAX_ELEMENTS:
        raise Uncovered(f"more than {_MAX_ELEMENTS} elements")
    elements = {e: i for i, e in enumerate(names)}
    status_names = list(pack.statuses)
    if len(status_names) > _MAX_STATUSES:
        raise Uncovered(f"more than {_MAX_STATUSES} statuses")
    statuses = {s: i for i, s in enumerate(status_names)}
    table = _Table(pack, elements, statuses)
    fighter_rows = [_fighter(state, f, fighters, table, elements, statuses) for f in fighters]
    if any(len(f"unit {f.id!r}|{label}|".encode()) > 900 for f in fighters
           for label in table.reaction_labels):
        raise Uncovered("a declared reaction's name too long for the kernel's dice keys")
    chart = [_ratio(pack.multiplier(a, d)) for a in names for d in names]
    thr = []
    for s in status_names:
        row = []
        for d in names:
            t = figures.status_threshold_for(pack.multiplier(pack.statuses[s], d))
            row.append(_IMMUNE if t == "immune" else _ALWAYS if t == "always" else int(t))
        thr.append(row)
    n, sides_of_die = figures.initiative_roll
    roll = die(sides_of_die).repeat_sum(n)
    cum, acc = [], 0
    for weight in roll.weights:
        acc += weight
        cum.append(acc)
    if roll.total >= TWO64:
        raise Uncovered("an initiative roll too large for one 64-bit draw")
    options = max(_options_bound(pack, f, len(fighters)) for f in fighters)
    if options > _MAX_OPTIONS:
        raise Uncovered(f"up to {options} legal actions at once (the kernel holds "
                         f"{_MAX_OPTIONS})")
    lo, hi = figures.initiative_call
    likely = n * (sides_of_die + 1) // 2
    return {
        "fighters": fighter_rows, "abilities": table.ranked(), "nsides": len(sides),
        "nel": len(names), "max_rounds": state.max_rounds, "max_options": options,
        "first_strike": sides.index(state.first_strike) if state.first_strike else -1,
        "chart": chart, "status_el": [elements[pack.statuses[s]] for s in status_names],
        "thr": thr, "worth": [STATUS_WORTH.get(s, 2.0) for s in status_names],
        "track": list(figures.bonus_track),
        "status_bits": {s: (1 << statuses[s]) if s in statuses else 0
                        for s in _NAMED_STATUSES},
        "figures": {
            "attack_threshold": figures.attack_threshold,
            "first_strike_ap": figures.first_strike_ap,
            "held_turn_ap": figures.held_turn_ap, "poison_divisor": figures.poison_divisor,
            "call": (lo, hi), "likely": likely if lo <= likely <= hi else lo,
            "boost": _ratio(figures.initiative_boost),
            "init_pool": (list(roll.outcomes), cum, roll.total),
        },
        "rulings": option_table(r, OPTION_READS),
        "consult": _consult_masks(r, len(fighters)),
        "slots": [[f"unit {f.id!r}|{label}|".encode()
                   for label in (*_LABELS, *table.reaction_labels)] for f in fighters],
        "init_slot": f"{'initiative'!r}|GM's {n}d{sides_of_die}|".encode(),
    }


def _consult_masks(rulings: Rulings, characters: int) -> dict[str, int]:
    """Per point where the reference reads rulings, the bit mask of those it reads there (bit
    ``i``: ruling number ``i`` of the game's declaration order)."""
    bit = {ruling.id: 1 << i for i, ruling in enumerate(rulings.declared())}

    def mask(*ids: str) -> int:
        return sum(bit[f"LOD-{n}"] for n in ids)

    return {
        "setup": mask("18") if characters else 0,  # setup._fighter, every character
        "hit": mask("1", "2", "11", "22", "23"),   # targeting.target_setup (not a status roll)
        "reach": mask("16"),       # targeting.reachable (not a Confused retarget's)
        "idle": mask("21"),        # targeting.can_act: a Boar Rider at 0 HP
        "calls": mask("8"),        # flow.initiative with players standing
        "shells": mask("10"),      # resolve.effect_events of a Shell
        "faithful": mask("14"),    # resolve._strike: a protector stands in
        "steal": mask("20"),       # resolve.steal_from a character carrying items
        "react": mask("15"),       # resolve._reactions: a melee attack missed
        "poison": mask("17"),      # flow._poison_events
        "first": mask("24"),       # state.first_strike_order
        "confused": mask("12"),    # resolve._confused: the other side picks
    }


def _fighter(state: LodState, f: Fighter, fighters: list[Fighter], table: _Table,
             elements: Mapping[str, int], statuses: Mapping[str, int]) -> dict[str, Any]:
    pack = state.pack
    t = f.template
    if len(f.abilities) > _MAX_OWN or len(f.items) > _MAX_ITEMS:
        raise Uncovered(f"{f.id} with more than {_MAX_OWN} abilities or {_MAX_ITEMS} items")
    weapons = t.weapons
    if len(weapons) > _MAX_WEAPONS:
        raise Uncovered(f"{f.id} with more than {_MAX_WEAPONS} weapons")
    if len({w.name for w in weapons}) != len(weapons) or len(set(weapons)) != len(weapons):
        raise Uncovered(f"{f.id} with two weapons of one name")
    if f.dropped is not None or (f.equipped is not None and f.equipped not in weapons):
        raise Uncovered(f"{f.id} with a weapon dropped or not its own")
    if len(f.shells) > _MAX_SHELLS:
        raise Uncovered(f"{f.id} with more than {_MAX_SHELLS} Shells")
    if len(f.track) != len(STATS):
        raise Uncovered(f"{f.id}'s bonus track")
    if f.downed or f.fled or f.hp < 1:
        raise Uncovered(f"{f.id} out of the battle from the start")
    own = [table.ability(a) for a in f.abilities]
    items = [table.item(i) for i in f.items]
    passives = 0
    for p in f.passives:
        passives |= _PASSIVES.get(p, 0)
    revenge = next((pack.ability(a).reaction for a in f.abilities
                    if pack.ability(a).passive == "revenge"), None)
    steal = next((a for a in f.abilities if pack.ability(a).steal), None)
    used = 0
    for name in f.used_once:
        key = ("ability", name)
        if name in pack.abilities:
            used |= 1 << table.ability(name)
        elif key in table.index:
            used |= 1 << table.index[key]
    guards = [i for i, g in enumerate(fighters)
              if g.id != f.id and g.side == f.side and "faithful" in g.passives
              and any(pack.ability(a).protects == t.name for a in g.abilities)]
    status_mask = 0
    for s in f.statuses:
        status_mask |= 1 << statuses[s]
    return {
        "side": state.sides.index(f.side), "player": int(f.player),
        "ap_full": pack.figures.ap_for(f.tier), "hp": f.hp, "mp": f.mp, "max_hp": f.max_hp,
        "max_mp": f.max_mp, "shell_cap": f.shell_cap,
        "shells": [(elements[e] if e in elements else _missing(e), a) for e, a in f.shells],
        "statuses": status_mask, "track": list(f.track), "items": items,
        "equipped": -1 if f.equipped is None else weapons.index(f.equipped),
        "ammo": f.ammo, "used_once": used, "body_armor_spent": int(f.body_armor_spent),
        "row": 0 if state.rows.row_of(f.id) == "front" else 1,
        "base": list(t.base), "weapons": [list(w.bonus) for w in weapons],
        "element": elements[t.element] if t.element in elements else _missing(t.element),
        "initiative": t.initiative, "abilities": own, "passives": passives,
        "revenge": -1 if revenge is None else table.ability(revenge),
        "steal": -1 if steal is None else table.ability(steal), "guards": guards,
    }


def _options_bound(pack: Pack, f: Fighter, n: int) -> int:
    """At least as many legal actions as ``f`` can ever have at once (targeting.legal_actions:
    per ability, targets x elements x the knock-out variant; items x allies; held turns;
    weapons; Move, Pick Up, Flee and End Turn)."""
    total = 4 + len(f.template.weapons) + 2 * n + len(set(f.items)) * n
    for name in f.abilities:
        a = pack.ability(name)
        total += (1 if a.is_multi else n) * max(1, len(a.elements)) * 2
    return total


def _missing(element: str) -> int:
    raise Uncovered(f"the element {element!r} (not in the pack's chart)")
