"""Arc's actions laid out for the table: the other actions as they are listed, then the moves
on a grid grouped by way (walk, slow, run, sprint) and by what they cost in AP, cheapest
first, so a game master reads each way's reach at a glance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tactica.engine.menu import ActionMenu, MenuItem
from tactica.rulesets.arc import records as r
from tactica.rulesets.arc.movement import MODES, path_to
from tactica.rulesets.arc.state import ArcState

__all__ = ["action_menu"]


def _cost(state: ArcState, move: r.Move) -> int | None:
    f = state.fighters.get(move.unit)
    if f is None or f.at is None or state.grid is None:
        return None
    x, _, y = move.to.partition(",")
    try:
        return path_to(state, f, (int(x), int(y)), move.mode)[1]
    except ValueError:
        return None


def _tile_key(to: str) -> tuple[int, int]:
    x, _, y = to.partition(",")
    return (int(y), int(x)) if x.isdigit() and y.isdigit() else (0, 0)


def action_menu(state: ArcState, actions: Sequence[Any]) -> ActionMenu:
    """Every action once: the others first as they come, then the moves by way and cost."""
    from tactica.rulesets.arc.text import describe_action

    others: list[MenuItem] = []
    moves: list[tuple[tuple[Any, ...], MenuItem]] = []
    for i, action in enumerate(actions):
        if isinstance(action, r.Move):
            cost = _cost(state, action)
            way = MODES.index(action.mode) if action.mode in MODES else len(MODES)
            key = (way, cost if cost is not None else 99, _tile_key(action.to))
            sub = f"{action.mode}, {cost if cost is not None else '?'} AP"
            moves.append((key, MenuItem(i, f"{action.unit} moves to", sub, action.to)))
        else:
            others.append(MenuItem(i, describe_action(state, action)))
    ordered = [item for _, item in sorted(moves, key=lambda m: m[0])]
    if not moves:
        return ActionMenu(tuple(others))
    # the end of the turn stays last, below the moves
    tail = [m for m in others if " ends its turn" in m.group]
    head = [m for m in others if m not in tail]
    return ActionMenu((*head, *ordered, *tail))
