"""Turn order and the end of a battle: the building blocks every game's flow is made of.

A game's ``Rules.pending`` says what happens next; the pieces here are the parts that read the
same in every game, so that a game writes only what is its own:

* :func:`last_side_standing`: the battle is over when at most one side has anyone in action;
* :func:`round_limit`: a draw once the scenario's ``max_rounds`` have been played;
* :func:`rotation` and :func:`next_in_order`: whose turn it is, going round the sides (or an
  initiative order) from a starting one and passing over those who cannot act.

>>> last_side_standing(("red", "blue"), lambda side: side == "red")
Finished(winner='red', reason='the only side left in action: red')
>>> round_limit(3, 3)
Finished(winner=None, reason='the round limit (3) was reached')
>>> rotation(("a", "b", "c"), "b")
('b', 'c', 'a')
>>> next_in_order(("a", "b", "c"), "b", lambda who: who != "c")
'a'
>>> next_in_order(("a", "b", "c"), "", lambda who: True)
'a'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from tactica.engine.ruleset import Finished

__all__ = ["last_side_standing", "next_in_order", "rotation", "round_limit"]

T = TypeVar("T")


def _only_side(side: str) -> str:
    return f"the only side left in action: {side}"


def last_side_standing(sides: Sequence[str], in_action: Callable[[str], object], *,
                       won: Callable[[str], str] = _only_side,
                       nobody: str = "no one is left in action") -> Finished | None:
    """The battle's end when at most one of ``sides`` has anyone in action (``in_action``
    says whether a side has): that side wins (``won`` gives the reason), or a draw when none
    is left (``nobody``); ``None`` while two or more fight on."""
    standing = [s for s in sides if in_action(s)]
    if len(standing) == 1:
        return Finished(standing[0], won(standing[0]))
    if not standing:
        return Finished(None, nobody)
    return None


def round_limit(played: int, max_rounds: int) -> Finished | None:
    """A draw once ``played`` rounds reach the scenario's ``max_rounds``, else ``None``."""
    if played >= max_rounds:
        return Finished(None, f"the round limit ({max_rounds}) was reached")
    return None


def rotation(order: Sequence[T], first: T) -> tuple[T, ...]:
    """``order`` going round from ``first`` (the whole order if ``first`` is not in it)."""
    start = order.index(first) if first in order else 0
    return tuple(order[(start + k) % len(order)] for k in range(len(order)))


def next_in_order(order: Sequence[T], after: T, eligible: Callable[[T], object]) -> T | None:
    """The first after ``after`` in ``order``, going round, that is ``eligible`` (``after``
    itself last; the first eligible of ``order`` if ``after`` is not in it), or ``None``."""
    turn = rotation(order, after)
    for who in (*turn[1:], turn[0]) if after in order else turn:
        if eligible(who):
            return who
    return None
