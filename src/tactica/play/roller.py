"""Who physically rolls a die at the table: a side, and the unit it rolls for when one is named.

The roller is not always the acting side: a defender rolls its own armor or dodge, a reacting
trooper its reaction's hit die, a thrower the scatter of its explosive, a wounded character its
wound dice. A game may say who rolls through its text part's optional ``roller`` hook (a unit's
id or a side's name for a roll label during an action; ``""`` for "not whoever the label
names"); otherwise, or when the hook has no answer, the roller is the first unit or side the
label names, else the acting side, else nobody in particular: the table (a round's start,
who goes first).

>>> from tactica.engine.ruleset import UnitStatus
>>> units = (UnitStatus("A", "red", True, ""), UnitStatus("B", "blue", True, ""))
>>> named_roller("2D6 to hit: reaction fire by B at A", units, ("red", "blue"))
Roller(side='blue', unit='B')
>>> named_roller("2D6 morale check for red", units, ("red", "blue"))
Roller(side='red', unit=None)
>>> named_roller("to hit", units, ("red", "blue")) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tactica.engine.battle import Battle
from tactica.engine.ruleset import UnitStatus

__all__ = ["TABLE", "Roller", "named_roller", "roller_of"]


@dataclass(frozen=True)
class Roller:
    """The side that rolls (``None``: the table, nobody in particular) and the unit it rolls
    for, when the roll is one unit's."""

    side: str | None
    unit: str | None = None

    def words(self) -> str:
        """``crew (Rook)``, ``crew``, or ``the table``."""
        if self.side is None:
            return "the table"
        return f"{self.side} ({self.unit})" if self.unit else self.side


#: Nobody in particular rolls (a round's start, who goes first).
TABLE = Roller(None)


def _named(name: str) -> re.Pattern[str]:
    # A whole name: not inside a longer word ("D" is not in "2D6"), a possessive allowed.
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def named_roller(label: str, units: Sequence[UnitStatus],
                 sides: Sequence[str]) -> Roller | None:
    """The first unit or side ``label`` names, as a roller (``None`` if it names none)."""
    best: tuple[int, Roller] | None = None
    candidates = [(u.id, Roller(u.side, u.id)) for u in units]
    candidates += [(s, Roller(s)) for s in sides]
    for name, roller in candidates:
        if not name:
            continue
        found = _named(name).search(label)
        if found is not None and (best is None or found.start() < best[0]):
            best = (found.start(), roller)
    return None if best is None else best[1]


def roller_of(battle: Battle[Any], label: str, action: Any, acting: str | None) -> Roller:
    """Who rolls the roll ``label`` asked during ``action`` (``None``: no side's action) of
    the side ``acting``: the game's answer, else the unit or side the label names, else the
    acting side, else the table."""
    ruleset, state = battle.ruleset, battle.state
    units = ruleset.units(state)
    sides = tuple(ruleset.sides_of(state))
    by_id = {u.id: u.side for u in units}
    hook = ruleset.text.roller
    said = hook(state, label, action) if hook is not None else None
    if said is not None:
        if said in by_id:
            return Roller(by_id[said], said)
        if said in sides:
            return Roller(said)
    named = named_roller(label, units, sides) if said != "" else None
    if named is not None:
        return named
    return TABLE if acting is None else Roller(acting)
