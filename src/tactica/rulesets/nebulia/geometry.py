"""The geometric questions Nebulia Operations asks of its tile grid, with its rulings applied.

NEB-3 (how "3 tiles or less" is measured), NEB-4 (contact policy of sight lines), NEB-5 (which
tiles block) and NEB-13 (diagonal steps between blockers) are read here; the exact geometry is
the grid's (:mod:`tactica.battlefield.grid`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tactica.battlefield.grid import GridSight

if TYPE_CHECKING:
    from tactica.rulesets.nebulia.rules import NebState, Operator

__all__ = ["adjacent", "path", "reachable", "sight", "sight_options"]

Tile = tuple[int, int]


def adjacent(a: Tile, b: Tile) -> bool:
    """The 8 neighbours of a tile (a tile is not adjacent to itself)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def sight_options(state: NebState) -> dict[str, str]:
    """The grid's sight options under the battle's rulings."""
    return {
        "policy": state.rulings["NEB-4"],
        "metric": state.rulings["NEB-3"],
        "blockers": state.rulings["NEB-5"],
    }


def sight(state: NebState, attacker: Operator, defender: Operator) -> GridSight:
    """The four lines from the attacker's tile to the defender's, and the verdict."""
    return state.grid.sight(attacker.pos, defender.pos, **sight_options(state))


def reachable(state: NebState, mover: Operator) -> list[Tile]:
    """Tiles the operator can end its move on, within ``move`` steps (own tile included)."""
    steps = state.grid.reachable(mover.pos, mover.move, diagonal=state.rulings["NEB-13"])
    return sorted(steps)


def path(state: NebState, mover: Operator, to: Tile) -> tuple[Tile, ...]:
    """A shortest path from the operator's tile to ``to`` (start included)."""
    found = state.grid.path(mover.pos, to, diagonal=state.rulings["NEB-13"])
    if found is None:
        raise ValueError(f"{mover.id} cannot reach {to}")
    return found
