"""What an action points at on the map, for the page: who acts, where to, at whom.

The page moves a unit by clicking (or dragging it to) a place, and attacks by clicking a
target: it needs, for every action of the open question, its unit, its destination place and
its target unit, when it has them. They are read from the action's own fields, whatever the
game: ``unit``; a destination in ``to`` (a place name, or a pair of whole numbers written
``x,y`` as the games write places) or ``row`` (a row of the unit's own side: ``side:row``);
a target in ``target`` or ``targets`` (the first, when every one is a unit). An action with
none of them is shown only in the list.

>>> from dataclasses import dataclass
>>> @dataclass
... class Move:
...     unit: str
...     to: tuple[int, int]
>>> action_link(Move("A", (3, 1)), {"A": "red", "B": "blue"})
{'unit': 'A', 'place': '3,1', 'target': None, 'kind': 'move'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["action_link"]

_PLACE_FIELDS = ("to", "row")
_TARGET_FIELDS = ("target", "targets")


def _place(value: Any) -> str | None:
    if isinstance(value, str) and value:
        return value
    if (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return f"{value[0]},{value[1]}"
    return None


def action_link(action: Any, sides: Mapping[str, str]) -> dict[str, Any]:
    """``{"unit", "place", "target", "kind"}`` of ``action`` (``sides``: each unit's side);
    ``kind`` is ``move`` (a destination), ``target`` (a unit aimed at) or ``other``."""
    unit = getattr(action, "unit", None)
    unit = unit if isinstance(unit, str) and unit in sides else None
    place = None
    for name in _PLACE_FIELDS:
        value = _place(getattr(action, name, None))
        if value is not None:
            place = f"{sides[unit]}:{value}" if name == "row" and unit is not None else value
            break
    target = None
    for name in _TARGET_FIELDS:
        value = getattr(action, name, None)
        if isinstance(value, str) and value in sides:
            target = value
        elif (isinstance(value, tuple) and value
              and all(isinstance(v, str) and v in sides for v in value)):
            target = value[0]
        if target is not None:
            break
    kind = "move" if place is not None else "target" if target is not None else "other"
    return {"unit": unit, "place": place, "target": target, "kind": kind}
