"""Nebulia Operations: the combat flow of the seed, and tactica's default turn structure.

The seed's combat flow (select weapon, select target, visibility, roll to hit, armor roll,
damage) is implemented to the letter; every ambiguity is a ruling (NEB-1 .. NEB-12, see
``docs/rulesets/nebulia-operations.md``). The turn structure and movement are not in the seed
and are tactica's own default (NEB-9): rounds in which sides alternate activating one ready
operator at a time; an activation is a move of up to ``move`` tiles, then at most one attack.

The attack itself is one chance process (:func:`attack_process`) used unchanged by the battle,
by exact odds and by simulation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tactica.battlefield.grid.tiles import TileGrid
from tactica.dice import Dist, d10_target_successes
from tactica.engine.caching import Cache
from tactica.engine.chance import Done, Emit, Roll, Step, and_then, emit_all
from tactica.engine.consulted import consult_all
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending, Rulings
from tactica.engine.turns import last_side_standing, next_in_order, rotation, round_limit
from tactica.rulesets.nebulia import geometry
from tactica.rulesets.nebulia.content import NebuliaSetup, Weapon
from tactica.rulesets.nebulia.records import (
    ActivationEnded,
    Attack,
    Attacked,
    Damaged,
    EndActivation,
    Move,
    Moved,
    OutOfAction,
    RoundStarted,
)
from tactica.rulesets.nebulia.rulings import SETUP_CONSULTED

if TYPE_CHECKING:
    from tactica.engine.scenario import Scenario

__all__ = [
    "AttackSetup",
    "NebState",
    "Operator",
    "attack_process",
    "attack_setup",
    "d10_pool",
    "legal_attacks",
    "legal_moves",
    "new_state",
]

Tile = tuple[int, int]


@dataclass
class Operator:
    """An operator in a battle (mutable; changed only by ``apply_event``)."""

    id: str
    side: str
    defense: int
    max_defense: int
    armor: int
    move: int
    weapons: tuple[Weapon, ...]
    pos: Tile
    out: bool = False

    def weapon(self, name: str) -> Weapon:
        """The weapon called ``name``."""
        for w in self.weapons:
            if w.name == name:
                return w
        raise KeyError(name)


@dataclass
class NebState:
    """The whole state of a Nebulia Operations battle."""

    grid: TileGrid
    ops: dict[str, Operator]
    sides: tuple[str, ...]
    rulings: Rulings
    max_rounds: int
    first: str
    round: int = 0
    round_first: str = ""
    ready: set[str] = field(default_factory=set)
    turn: str = ""
    active: str | None = None

    def alive(self, side: str | None = None) -> list[Operator]:
        """Operators in action (of ``side``), in scenario order."""
        return [o for o in self.ops.values() if not o.out and (side is None or o.side == side)]



# --------------------------------------------------------------------------------------------
# Dice


@lru_cache(maxsize=1024)
def _pool_dist(n: int, target: int, modifier: int) -> Dist[int]:
    # One object per pool: its sampler is built once, not at every roll.
    return d10_target_successes(n, target, modifier)


@lru_cache(maxsize=1024)
def _reader(target: int, modifier: int, ten_is_zero: bool) -> Callable[[tuple[int, ...]], int]:
    def read(faces: tuple[int, ...]) -> int:
        count = 0
        for face in faces:
            f = 0 if (ten_is_zero and face == 10) else face
            if f == 1 or (f != 0 and f + modifier <= target):
                count += 1
        return count

    return read


@lru_cache(maxsize=64)
def _face_die(ten_is_zero: bool) -> Dist[int]:
    return Dist.uniform(range(1, 11) if ten_is_zero else range(10))


def d10_pool(label: str, n: int, target: int, modifier: int, rulings: Rulings,
             then: Callable[[int], Step]) -> Step:
    """Roll ``n`` D10 and count successes: face + modifier <= target; 1 always, 0 never.

    NEB-1 decides how the dice read: faces 0-9 (default), or 1-10 with the 10 read as 0.
    """
    if n == 0:
        return then(0)
    ten = rulings["NEB-1"] == "one-to-ten"
    read = _reader(target, modifier, ten)
    return Roll(
        label,
        _pool_dist(n, target, modifier),
        then,
        dice=(_face_die(ten),) * n,
        read=read,
        hint=_pool_hint(n, _face_die(ten), read),
    )


def _pool_hint(n: int, die: Dist[int], read: Callable[[tuple[int, ...]], int]) -> str:
    """``each die showing 1-6 is a success`` (the faces that count, for people)."""
    good = [f for f in die.outcomes if read((f,)) == 1]
    if not good:
        return "no face can succeed"
    runs: list[str] = []
    start = prev = good[0]
    for f in [*good[1:], None]:
        if f is not None and f == prev + 1:
            prev = f
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if f is not None:
            start = prev = f
    each = "the die" if n == 1 else "each die"
    return f"{each} showing {', '.join(runs)} is a success ({len(good)} in 10)"


# --------------------------------------------------------------------------------------------
# Attacks


@dataclass(frozen=True)
class AttackSetup:
    """Everything the dice of one attack depend on, and why (for explanations)."""

    attacker: str
    target: str
    weapon: Weapon
    armor: int
    cover: bool
    defense: int
    clear_lines: int
    beyond_three: bool


def cover_armor(armor: int, cover: bool, reading: str) -> tuple[int, int]:
    """The armor roll's target and die modifier: cover's -1 on the die or the characteristic."""
    if not cover:
        return armor, 0
    if reading == "characteristic":
        return armor - 1, 0
    return armor, -1


def attack_process(setup: AttackSetup, rulings: Rulings) -> Step:
    """Roll to hit, then one armor D10 per hit; ``Done((hits, saves))``."""
    w = setup.weapon
    armor, modifier = cover_armor(setup.armor, setup.cover, rulings["NEB-6"])

    def after_hits(hits: int) -> Step:
        return d10_pool("armor", hits, armor, modifier, rulings,
                        lambda saves: Done((hits, saves)))

    return d10_pool("to hit", w.dice, w.accuracy, 0, rulings, after_hits)


def attack_setup(state: NebState, unit: str, weapon: str, target: str) -> AttackSetup:
    """The setup of an attack from the current positions (sight, cover, armor)."""
    a = state.ops[unit]
    t = state.ops[target]
    w = a.weapon(weapon)
    clear, cover = geometry.fast_sight(state, a.pos, t.pos, a.side)
    beyond = not geometry.within_three(state, a.pos, t.pos)
    return AttackSetup(unit, target, w, t.armor, cover, t.defense, clear, beyond)


# --------------------------------------------------------------------------------------------
# Legal actions


def can_target(state: NebState, a: Operator, t: Operator, w: Weapon) -> bool:
    """Whether ``a`` may attack ``t`` with ``w`` from where they stand (seed + NEB-7/NEB-12)."""
    if t.out or t.id == a.id:
        return False
    if state.rulings["NEB-12"] == "enemies" and t.side == a.side:
        return False
    if w.is_melee:
        if not geometry.adjacent(a.pos, t.pos):
            return False
        if state.rulings["NEB-7"] == "adjacent":
            return True
    return geometry.fast_sight(state, a.pos, t.pos, a.side)[0] >= 2


def refusal(state: NebState, a: Operator, t: Operator, w: Weapon) -> str | None:
    """Why ``a`` may not attack ``t`` with ``w`` (``None``: it may), checked in the order of
    :func:`can_target`: the first rule that refuses, named."""
    if t.id == a.id:
        return f"{a.id} cannot target itself ('one other operator')"
    if t.out:
        return f"{t.id} is out of action"
    if state.rulings["NEB-12"] == "enemies" and t.side == a.side:
        return (f"{t.id} is a friend ({t.side}, as {a.id}) and friends cannot be targeted "
                "under NEB-12 'enemies' (only operators of another side)")
    if w.is_melee:
        if not geometry.adjacent(a.pos, t.pos):
            return f"{w.name} is melee and {t.id} is not adjacent"
        if state.rulings["NEB-7"] == "adjacent":
            return None
    clear = geometry.fast_sight(state, a.pos, t.pos, a.side)[0]
    if clear >= 2:
        return None
    rule = " (melee needs sight under NEB-7 'adjacent-and-visible')" if w.is_melee else ""
    return f"{w.name} needs {t.id} visible: {clear} of 4 lines clear (2 needed){rule}"


def legal_attacks(state: NebState, unit: str) -> list[Attack]:
    """Every (weapon, target) the unit may attack with now; weapons with no target are out."""
    a = state.ops[unit]
    out = []
    for w in a.weapons:
        for t in state.alive():
            if can_target(state, a, t, w):
                out.append(Attack(unit, w.name, t.id))
    return out


def legal_moves(state: NebState, unit: str) -> list[Move]:
    """Every tile the unit may end its move on (its own tile included)."""
    a = state.ops[unit]
    key = (unit, geometry.reachable_tiles(state, a))
    found = _MOVES.get(key)
    if found is None:
        found = _MOVES.put(key, tuple(_move(unit, tile) for tile in key[1]))
    return list(found)


def _move(unit: str, tile: Tile) -> Move:
    found = _MOVE.get((unit, tile))
    if found is None:
        found = _MOVE.put((unit, tile), Move(unit, tile))
    return found


_MOVE: Cache[tuple[str, Tile], Move] = Cache("nebulia.move-actions", maxsize=100_000)


# The moves of a unit over the same tiles (frozen records, shared across battles).
_MOVES: Cache[tuple[str, tuple[Tile, ...]], tuple[Move, ...]] = Cache(
    "nebulia.move-lists", maxsize=100_000)


# --------------------------------------------------------------------------------------------
# Turn structure (NEB-9, NEB-11)


def winner_or_none(state: NebState) -> Finished | None:
    """Finished if at most one side has operators in action, or the round limit passed."""
    return last_side_standing(state.sides, state.alive, nobody="no operator is left in action")


def _side_to_choose(state: NebState) -> str | None:
    ready_sides = [s for s in state.sides if any(o.id in state.ready for o in state.alive(s))]
    if not ready_sides:
        return None
    if state.turn in ready_sides:
        return state.turn
    # The side to act has no ready operator: it passes to the next side in order.
    return next_in_order(state.sides, state.turn, ready_sides.__contains__)


def round_start(state: NebState) -> Step:
    """Start the next round: every operator in action is ready; who starts per NEB-11."""
    nxt = state.round + 1
    standing = [s for s in state.sides if state.alive(s)]
    rule = state.rulings["NEB-11"]
    if rule == "random":
        return Roll("first side", Dist.uniform(standing),
                    lambda s: emit_all([RoundStarted(nxt, s)], Done(None)))
    if rule == "fixed":
        first = state.first if state.first in standing else standing[0]
    else:
        order = [s for s in rotation(state.sides, state.first) if s in standing]
        first = order[(nxt - 1) % len(order)]
    return emit_all([RoundStarted(nxt, first)], Done(None))


def pending(state: NebState) -> Pending:
    """What happens next."""
    fin = winner_or_none(state)
    if fin is not None:
        return fin
    if state.active is not None:
        a = state.ops[state.active]
        actions: tuple[Any, ...] = (*legal_attacks(state, a.id), EndActivation(a.id))
        return ChooseAction(a.side, actions, f"{a.id} may attack")
    side = _side_to_choose(state) if state.round > 0 else None
    if side is None:
        return (round_limit(state.round, state.max_rounds)
                or Automatic(f"round {state.round + 1}", round_start(state)))
    moves: list[Any] = []
    for o in state.alive(side):
        if o.id in state.ready:
            moves.extend(legal_moves(state, o.id))
    return ChooseAction(side, tuple(moves), f"{side} activates an operator")


def resolve(state: NebState, action: Any) -> Step:
    """The chance process of an action; emits the events, ends in Done(None)."""
    if isinstance(action, Move):
        a = state.ops[action.unit]
        path = geometry.path(state, a, action.to)
        return Emit(Moved(action.unit, path), lambda: Done(None))
    if isinstance(action, EndActivation):
        return Emit(ActivationEnded(action.unit), lambda: Done(None))
    if isinstance(action, Attack):
        setup = attack_setup(state, action.unit, action.weapon, action.target)
        return and_then(attack_process(setup, state.rulings),
                        lambda hs: _attack_events(state, setup, hs))
    raise TypeError(f"not a Nebulia Operations action: {action!r}")


def _attack_events(state: NebState, setup: AttackSetup, hits_saves: tuple[int, int]) -> Step:
    hits, saves = hits_saves
    damage = (hits - saves) * setup.weapon.damage
    t = state.ops[setup.target]
    events: list[Any] = [
        Attacked(setup.attacker, setup.weapon.name, setup.target, setup.cover, hits, saves,
                 damage)
    ]
    if damage > 0:
        left = max(0, t.defense - damage)
        events.append(Damaged(t.id, t.defense - left, setup.attacker, left))
        if left == 0:
            events.append(OutOfAction(t.id))
    events.append(ActivationEnded(setup.attacker))
    return emit_all(events, Done(None))


def apply_event(state: NebState, event: Any) -> None:
    """The only place a Nebulia battle changes."""
    if isinstance(event, RoundStarted):
        state.round = event.round
        state.round_first = event.first
        state.turn = event.first
        state.ready = {o.id for o in state.alive()}
        state.active = None
    elif isinstance(event, Moved):
        o = state.ops[event.unit]
        o.pos = event.path[-1]
        state.grid = state.grid.move_occupant(o.id, o.pos)
        state.ready.discard(o.id)
        state.active = o.id
    elif isinstance(event, Damaged):
        state.ops[event.unit].defense = event.defense
    elif isinstance(event, OutOfAction):
        state.ops[event.unit].out = True
        state.grid = state.grid.without_occupant(event.unit)
        state.ready.discard(event.unit)
    elif isinstance(event, ActivationEnded):
        side = state.ops[event.unit].side
        state.active = None
        if state.rulings["NEB-9"] == "alternate":
            i = state.sides.index(side)
            state.turn = state.sides[(i + 1) % len(state.sides)]
        else:
            state.turn = side
    elif isinstance(event, Attacked):
        pass
    else:
        raise TypeError(f"not a Nebulia Operations event: {event!r}")


def new_state(scenario: Scenario) -> NebState:
    """A new battle: the operators placed on the grid as the scenario sets them."""
    consult_all(SETUP_CONSULTED)
    setup = scenario.setup
    grid = scenario.battlefield
    assert isinstance(setup, NebuliaSetup) and isinstance(grid, TileGrid)
    ops = {
        u.id: Operator(u.id, u.side, u.defense - u.defense_lost, u.defense, u.armor,
                       u.move, u.weapons, u.at)
        for u in setup.units
    }
    placed = grid
    for oid in grid.occupants:
        placed = placed.without_occupant(oid)
    for u in setup.units:
        placed = placed.with_occupant(u.id, u.at)
    placed = placed.with_sides({u.id: u.side for u in setup.units})
    return NebState(placed, ops, setup.sides, scenario.rulings, scenario.max_rounds,
                    setup.first)
