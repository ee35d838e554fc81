"""Exact odds of Nebulia Operations attacks, and the action values greedy policies use."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tactica.dice import Dist
from tactica.engine.caching import Cache
from tactica.engine.chance import Done, run_exact
from tactica.engine.errors import IllegalActionError
from tactica.engine.events import Action, OutOfAction
from tactica.engine.odds import OddsNumbers, OddsReading, OddsReport, Outcome
from tactica.engine.odds_why import with_why
from tactica.engine.ruleset import OddsChoice, OddsValue, Rulings
from tactica.rulesets.nebulia import geometry, rules
from tactica.rulesets.nebulia.content import Weapon
from tactica.rulesets.nebulia.records import Attack, Attacked, Move
from tactica.rulesets.nebulia.rulings import RULINGS
from tactica.rulesets.nebulia.sighttable import TargetSight, sight_table
from tactica.rulesets.nebulia.why import explain_numbers

__all__ = [
    "action_value",
    "attack_action",
    "attack_odds",
    "choose_attack",
    "d10_chance",
    "damage_dist_for",
    "odds_choices",
    "odds_reading",
    "rank_actions",
]

KNOCKOUT_WEIGHT = 2.0


@lru_cache(maxsize=4096)
def _damage_dist(dice: int, accuracy: int, damage: int, armor: int, cover: bool,
                 rulings_key: tuple[tuple[str, str], ...]) -> Dist[int]:
    rulings = Rulings(RULINGS, dict(rulings_key))
    w = Weapon("w", "ranged", accuracy, dice, damage)
    setup = rules.AttackSetup("a", "t", w, armor, cover, 0, 4, True)
    return run_exact(rules.attack_process(setup, rulings)).map(
        lambda hs: (hs[0] - hs[1]) * damage
    )


def damage_dist_for(weapon: Weapon, armor: int, cover: bool,
                    rulings: Rulings) -> Dist[int]:
    """The exact damage of ``weapon`` against ``armor`` (cached; the same process the
    battle rolls, run through the exact driver)."""
    return _damage_dist(weapon.dice, weapon.accuracy, weapon.damage, armor, cover, rulings.key())


def odds_choices(state: rules.NebState, unit: str) -> tuple[OddsChoice, ...]:
    """Every attack of ``unit`` from where it stands."""
    return tuple(OddsChoice(a.unit, (a.target,), a.weapon, a)
                 for a in rules.legal_attacks(state, unit))


def odds_action(state: rules.NebState, unit: str, targets: tuple[str, ...],
                means: str | None) -> Action:
    """The attack a command names (one target)."""
    if len(targets) != 1:
        raise IllegalActionError(f"{unit} attacks one target at a time, got {len(targets)}")
    return choose_attack(state, unit, targets[0], means)


def odds(state: rules.NebState, action: Action, **options: OddsValue) -> OddsReport | None:
    """The odds of an attack (``None`` for another action: the core reports its outcomes)."""
    return attack_odds(state, action) if isinstance(action, Attack) else None


def odds_reading(state: rules.NebState, action: Action,
                 **options: OddsValue) -> OddsReading | None:
    """How :func:`odds` reads an attack's process (the battle's own ``resolve``): its damage
    is the damage of the unsaved hits (the ``Attacked`` record), before the target's defense
    caps what it loses; out of action is the target dropping out."""
    if not isinstance(action, Attack):
        return None

    def dealt(outcome: Outcome) -> int:
        return sum(e.damage for e in outcome[1] if isinstance(e, Attacked)
                   and e.unit == action.unit and e.target == action.target)

    def out(outcome: Outcome) -> bool:
        return any(isinstance(e, OutOfAction) and e.unit == action.target
                   for e in outcome[1])

    return OddsReading(lambda: rules.resolve(state, action), damage=dealt, out=out)


def explain_action(state: rules.NebState, action: Action) -> list[str]:
    """Why an attack's dice are what they are; the path of a move."""
    if isinstance(action, Attack):
        return list(attack_odds(state, action).reasons)
    if isinstance(action, Move):
        path = geometry.path(state, state.ops[action.unit], action.to)
        if len(path) == 1:
            return [f"{action.unit} stays where it is; an attack may follow"]
        steps = " -> ".join(f"{x},{y}" for x, y in path)
        return [f"{len(path) - 1} of {state.ops[action.unit].move} steps: {steps}"]
    return []


def d10_chance(target: int, modifier: int = 0) -> Fraction:
    """The chance one D10 succeeds: face + modifier <= target, 1 always, 0 never."""
    wins = sum(1 for f in range(10) if f == 1 or (f != 0 and f + modifier <= target))
    return Fraction(wins, 10)


def _faces(target: int, modifier: int) -> str:
    faces = [f for f in range(10) if f == 1 or (f != 0 and f + modifier <= target)]
    if not faces:
        return "no face"
    if faces == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else f"{faces[0]}"
    return ", ".join(map(str, faces))


def choose_attack(state: rules.NebState, attacker: str,
                  target: str, weapon: str | None) -> Attack:
    """The attack of ``attacker`` on ``target`` with ``weapon`` (``None``: the weapon with the
    highest expected damage); an IllegalActionError says why there is none."""
    for uid, opt in ((attacker, "attacker"), (target, "target")):
        if uid not in state.ops:
            raise IllegalActionError(f"no operator {uid!r} as the {opt} "
                                     f"(operators: {', '.join(state.ops)})")
    a, t = state.ops[attacker], state.ops[target]
    if t.out:
        raise IllegalActionError(f"{target} is out of action")
    names = [w.name for w in a.weapons]
    if weapon is not None and weapon not in names:
        raise IllegalActionError(
            f"{attacker} has no weapon {weapon!r} (it carries {', '.join(names)})"
        )
    candidates = [w for w in a.weapons if weapon is None or w.name == weapon]
    usable = [w for w in candidates if rules.can_target(state, a, t, w)]
    if not usable:
        # each weapon's own reason; one reason about the target (itself, a friend) once
        why = list(dict.fromkeys(rules.refusal(state, a, t, w) or f"{w.name} cannot reach it"
                                 for w in candidates))
        raise IllegalActionError(f"{attacker} cannot attack {target}: " + "; ".join(why))
    best = None
    for w in usable:
        setup = rules.attack_setup(state, attacker, w.name, target)
        dist = damage_dist_for(setup.weapon, setup.armor, setup.cover, state.rulings)
        if best is None or dist.mean() > best[1].mean():
            best = (setup, dist)
    assert best is not None
    return Attack(attacker, best[0].weapon.name, target)


def attack_odds(state: rules.NebState, action: Attack) -> OddsReport:
    """The exact outcome of an attack from where the two operators stand."""
    attacker, target = action.unit, action.target
    a, t = state.ops[attacker], state.ops[target]
    choose_attack(state, attacker, target, action.weapon)  # refuses an illegal attack
    seen = geometry.sight(state, a, t)
    setup = rules.attack_setup(state, attacker, action.weapon, target)
    dmg = damage_dist_for(setup.weapon, setup.armor, setup.cover, state.rulings)
    w = setup.weapon
    left = dmg.map(lambda d: max(0, t.defense - d))
    armor, modifier = rules.cover_armor(t.armor, setup.cover, state.rulings["NEB-6"])
    reasons = [
        f"sight: {seen.clear_lines} of 4 lines clear, distance {seen.distance} "
        f"({state.rulings['NEB-3']})",
    ]
    for line in seen.lines:
        if not line.is_clear:
            blocked = ", ".join(f"{x},{y}" for x, y in line.blocked_by) or "a diagonal gap"
            reasons.append(f"  {line.corner_name} line blocked by {blocked}")
    if setup.cover:
        reasons.append("in cover: 2-3 lines clear and more than 3 tiles away")
    elif seen.clear_lines < 4 and seen.within_cover_range:
        reasons.append("no cover: within 3 tiles nobody benefits from cover")
    else:
        reasons.append("not in cover")
    reasons.append(
        f"to hit: {w.dice} D10 at accuracy {w.accuracy}: faces {_faces(w.accuracy, 0)} hit "
        f"({d10_chance(w.accuracy)} each)"
    )
    cover_note = ""
    if setup.cover:
        cover_note = (", cover -1 on the die" if state.rulings["NEB-6"] == "die"
                      else ", cover -1 on the characteristic")
    reasons.append(
        f"armor: one D10 per hit at armor {t.armor}{cover_note}: faces "
        f"{_faces(armor, modifier)} save ({d10_chance(armor, modifier)} each)"
    )
    reasons.append(f"damage: {w.damage} per unsaved hit against defense {t.defense}")
    p_hit = 1 - run_exact(rules.d10_pool("to hit", w.dice, w.accuracy, 0, state.rulings,
                                         Done)).p(0)
    numbers = {
        "p_hit": p_hit,
        "expected_damage": dmg.mean(),
        "p_out_of_action": left.p(0),
        "p_damage": 1 - dmg.p(0),
        "p_hit_each_die": d10_chance(w.accuracy),
        "p_save_each_die": d10_chance(armor, modifier),
    }
    report = OddsReport(
        attacker, target, f"{attacker} attacks {target} with {w.name}",
        {"damage": dmg, "defense_left": left}, OddsNumbers(**numbers), tuple(reasons),
        extra={"weapon": w.name, "cover": setup.cover, "clear_lines": seen.clear_lines,
               "distance": seen.distance},
    )
    return with_why(report, explain_numbers(state, report))


def _score(state: rules.NebState, weapon: Weapon, armor: int,
           cover: bool, defense: int) -> float:
    return _score_key(weapon, armor, cover, defense, state.rulings.key())


def _score_key(weapon: Weapon, armor: int, cover: bool, defense: int,
               rulings_key: tuple[tuple[str, str], ...]) -> float:
    key = (weapon.dice, weapon.accuracy, weapon.damage, armor, cover, defense, rulings_key)
    found = _SCORES.get(key)
    if found is None:
        rulings = Rulings(RULINGS, dict(rulings_key))
        dmg = _damage(weapon, armor, cover, rulings)
        found = float(dmg.mean()) + KNOCKOUT_WEIGHT * float(dmg.at_least(defense))
        _SCORES.put(key, found)
    return found


_SCORES: Cache[tuple[Any, ...], float] = Cache("nebulia.attack-scores", maxsize=100_000)


def _damage(weapon: Weapon, armor: int, cover: bool, rulings: Rulings) -> Dist[int]:
    return damage_dist_for(weapon, armor, cover, rulings)


def _move_values(state: rules.NebState, me: rules.Operator,
                 tiles: Sequence[tuple[int, int]]) -> list[float]:
    """For each tile: the best attack score from it, minus a little per tile to the nearest
    enemy (so that units close in). Sight comes from the map's precomputed tables
    (:mod:`~tactica.rulesets.nebulia.sighttable`): the same answers as a sight batch."""
    enemies = [o for o in state.alive() if o.side != me.side]
    if not enemies or not tiles:
        return [0.0] * len(tiles)
    grid = state.grid
    # The mover leaves its tile: it no longer blocks, and it is the source of every line.
    # Walls are the table's own; only the operators that block are looked up.
    dynamic = sorted(geometry.blocking_tiles(state, me.side) - grid.blockers - {me.pos})
    # Everything the values depend on: positions recur, within a battle and across battles.
    key = (grid.blockers, grid.width, grid.height, state.rulings.key(), me.weapons, me.pos,
           tuple(tiles), tuple(dynamic), tuple((e.pos, e.armor, e.defense) for e in enemies))
    found = _MOVE_VALUES.get(key)
    if found is None:
        found = _MOVE_VALUES.put(key, _compute_move_values(state, me, tiles, enemies, dynamic))
    return list(found)


_MOVE_VALUES: Cache[tuple[object, ...], tuple[float, ...]] = Cache("nebulia.move-values",
                                                                    maxsize=100_000)


def _compute_move_values(state: rules.NebState, me: rules.Operator,
                         tiles: Sequence[tuple[int, int]], enemies: list[rules.Operator],
                         dynamic: list[tuple[int, int]]) -> tuple[float, ...]:
    grid = state.grid
    table = sight_table(grid.width, grid.height, grid.blockers, state.rulings["NEB-4"],
                        state.rulings["NEB-3"], geometry.COVER_CANCEL)
    melee_needs_sight = state.rulings["NEB-7"] != "adjacent"
    rk = state.rulings.key()
    # Per enemy, over every tile of the map: the best score of the mover's weapons against it
    # (0 where no weapon may attack it), remembered on the enemy tile's sight table by the
    # operators that matter to it and by what the scores depend on. The best over enemies
    # and the nearest enemy's steps are then taken tile by tile, as one matrix's rows were.
    best: npt.NDArray[np.float64] | None = None
    nearest: npt.NDArray[np.int64] | None = None
    for e in enemies:
        target = table.target(e.pos)
        key = target.key_of(dynamic)
        vkey = (key, me.weapons, e.armor, e.defense, rk, melee_needs_sight)
        value = target.values.get(vkey)
        if value is None:
            value = target.remember(vkey, _enemy_values(target, dynamic, key, me.weapons, e,
                                                        rk, melee_needs_sight))
        best = value if best is None else np.maximum(best, value)
        nearest = target.steps if nearest is None else np.minimum(nearest, target.steps)
    assert best is not None and nearest is not None
    width = grid.width
    index = np.fromiter((y * width + x for x, y in tiles), dtype=np.intp, count=len(tiles))
    result: list[float] = (best[index] - 0.01 * nearest[index]).tolist()
    return tuple(result)


def _enemy_values(target: TargetSight, dynamic: list[tuple[int, int]],
                  key: tuple[tuple[int, int], ...], weapons: tuple[Weapon, ...],
                  e: rules.Operator, rk: tuple[tuple[str, str], ...],
                  melee_needs_sight: bool) -> npt.NDArray[np.float64]:
    """The best score of ``weapons`` against ``e`` from every tile (0 where none may)."""
    visible, cover = target.visible_cover(dynamic, geometry.MIN_CLEAR_LINES, key)
    adjacent = target.steps == 1
    best = np.zeros(len(target.steps))
    for w in weapons:
        legal = visible
        if w.is_melee:
            legal = adjacent & visible if melee_needs_sight else adjacent
        value = np.where(cover, _score_key(w, e.armor, True, e.defense, rk),
                         _score_key(w, e.armor, False, e.defense, rk)) * legal
        best = np.maximum(best, value)
    return best


def rank_actions(state: rules.NebState,
                 actions: Sequence[Action]) -> list[float]:
    """Values of many actions at once: the moves of each unit in one sight batch."""
    out: list[float] = [0.0] * len(actions)
    moves: dict[str, list[int]] = {}
    for i, action in enumerate(actions):
        if isinstance(action, Move):
            moves.setdefault(action.unit, []).append(i)
        else:
            out[i] = action_value(state, action)
    for unit, idx in moves.items():
        tiles = [_move(actions[i]).to for i in idx]
        for i, v in zip(idx, _move_values(state, state.ops[unit], tiles), strict=True):
            out[i] = v
    return out


def _move(action: Action) -> Move:
    assert isinstance(action, Move)
    return action


def action_value(state: rules.NebState, action: Action) -> float:
    """Expected damage plus a knock-out bonus; moves are valued by the best attack after them,
    then by closing in on the nearest enemy."""
    if isinstance(action, Attack):
        setup = rules.attack_setup(state, action.unit, action.weapon, action.target)
        t = state.ops[action.target]
        if t.side == state.ops[action.unit].side:
            return -1.0
        return _score(state, setup.weapon, setup.armor, setup.cover, t.defense)
    if isinstance(action, Move):
        return rank_actions(state, [action])[0]
    return 0.0


def attack_action(state: rules.NebState, choice: OddsChoice) -> tuple[dict[str, OddsValue],
                                                                     str, int | None]:
    """What one attack action of ``choice`` is in Nebulia Operations, for a matchup matrix:
    one roll of the weapon's whole pool of D10s (an activation is a move and at most one
    attack, NEB-9; the game spends no AP), named with its dice."""
    action = choice.action
    if not isinstance(action, Attack):
        return {}, choice.means, None
    w = state.ops[action.unit].weapon(action.weapon)
    return {}, f"one attack: {w.dice} D10{'s' if w.dice != 1 else ''}", None
