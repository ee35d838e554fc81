"""An optional part of a game (``Menu``): its actions laid out for people, grouped by kind
with what each costs, in the order a player reads them (the nearest destinations first), and a
hint when something a player looks for (a shot) is not offered directly.

A game that has it gives ``action_menu(state, actions)``; front ends without it group the
descriptions by their words (:func:`tactica.play.words.group_actions`). The menu changes no
number: ``index`` is the action's place in the list the side chooses from.

>>> menu = ActionMenu((MenuItem(1, "A moves", "1 AP", "3,6"),
...                    MenuItem(0, "A moves", "1 AP", "2,7"),
...                    MenuItem(2, "A ends its activation")), hint="")
>>> [(g, s, [i.index for i in items]) for g, s, items in menu.lines()]
[('A moves', '1 AP', [1, 0]), ('A ends its activation', '', [2])]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tactica.engine.ruleset import Ruleset

__all__ = ["ActionMenu", "MenuItem", "menu_of"]


@dataclass(frozen=True)
class MenuItem:
    """Action ``index`` (0-based) shown under ``group`` (``A moves``), on the line ``sub``
    (``2 AP``) of it, as ``label`` (``3,6``; empty: the group says it all)."""

    index: int
    group: str
    sub: str = ""
    label: str = ""


@dataclass(frozen=True)
class ActionMenu:
    """The items in the order they are read, and a one-line ``hint`` (empty: none)."""

    items: tuple[MenuItem, ...]
    hint: str = ""

    def lines(self) -> Iterator[tuple[str, str, list[MenuItem]]]:
        """``(group, sub, items)`` for each run of items sharing a group and a line."""
        run: list[MenuItem] = []
        for item in self.items:
            if run and (item.group, item.sub) != (run[0].group, run[0].sub):
                yield run[0].group, run[0].sub, run
                run = []
            run.append(item)
        if run:
            yield run[0].group, run[0].sub, run


def menu_of(ruleset: Ruleset, state: Any, actions: Sequence[Any]) -> ActionMenu | None:
    """The game's menu of ``actions`` (its ``Menu`` part), or ``None`` if it lays out none."""
    part = ruleset.menu
    return None if part is None else part.layout(state, actions)
