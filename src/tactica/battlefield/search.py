"""Breadth-first search over any battlefield's steps, in a fixed order (so ties are stable)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

__all__ = ["breadth_first_path"]

P = TypeVar("P", bound=Hashable)


def breadth_first_path(origin: P, goal: P,
                       steps: Callable[[P], Iterable[P]]) -> tuple[P, ...] | None:
    """A shortest path from ``origin`` to ``goal`` (both included) along ``steps``, or None.

    Among equally short paths the one met first in the order ``steps`` gives is returned.

    >>> line = {0: [1], 1: [0, 2], 2: [1]}
    >>> breadth_first_path(0, 2, line.__getitem__)
    (0, 1, 2)
    """
    if origin == goal:
        return (origin,)
    came: dict[P, P | None] = {origin: None}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in steps(here):
            if there in came:
                continue
            came[there] = here
            if there == goal:
                out = [there]
                back = came[there]
                while back is not None:
                    out.append(back)
                    back = came[back]
                return tuple(reversed(out))
            queue.append(there)
    return None
