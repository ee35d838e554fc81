"""What a battle came to, per unit: written once for every game.

The figures come from the core events every game emits
(:class:`~tactica.engine.events.RoundStarted`,
:class:`~tactica.engine.events.Damaged`, :class:`~tactica.engine.events.OutOfAction`) and from the
game's own view of its units (:meth:`~tactica.engine.ruleset.Rules.units`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tactica.engine.events import Damaged, Event, Moved, RoundStarted
from tactica.engine.ruleset import Ruleset

__all__ = ["BattleResult", "BattleStats", "UnitStats", "battle_stats"]


@dataclass(frozen=True)
class UnitStats:
    """One unit at the end of a battle (or where it was stopped)."""

    id: str
    side: str
    survived: bool
    damage_dealt: int = 0
    damage_taken: int = 0
    moves: int = 0
    details: Mapping[str, str | int | bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the side, whether it survived, the figures and the game's details."""
        return {"side": self.side, "survived": self.survived, **dict(self.details),
                "damage_dealt": self.damage_dealt, "damage_taken": self.damage_taken,
                "moves": self.moves}


@dataclass(frozen=True)
class BattleStats:
    """The rounds played and every unit's figures."""

    rounds: int
    units: Mapping[str, UnitStats]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready ``{"rounds", "units": {id: {...}}}``."""
        return {"rounds": self.rounds, "units": {k: u.to_dict() for k, u in self.units.items()}}


def battle_stats(ruleset: Ruleset, state: Any, events: Iterable[Event]) -> BattleStats:
    """The statistics of a battle from its rule events and its final state."""
    status = ruleset.units(state)
    dealt = {u.id: 0 for u in status}
    taken = {u.id: 0 for u in status}
    moves = {u.id: 0 for u in status}
    rounds = 0
    for e in events:
        if isinstance(e, Damaged):
            if e.unit in taken:
                taken[e.unit] += e.amount
            if e.source is not None and e.source in dealt and e.source != e.unit:
                dealt[e.source] += e.amount
        elif isinstance(e, Moved):
            if e.unit in moves:
                moves[e.unit] += 1
        elif isinstance(e, RoundStarted):
            rounds = max(rounds, e.round)
    units = {
        u.id: UnitStats(u.id, u.side, u.in_action if u.survived is None else u.survived,
                        dealt[u.id], taken[u.id], moves[u.id], u.details)
        for u in status
    }
    return BattleStats(rounds, units)


@dataclass(frozen=True)
class BattleResult:
    """One battle's outcome: the winner (``None`` for a draw or a battle stopped unfinished),
    rounds, per-unit figures, the steps played and whether it ended by the rules."""

    winner: str | None
    rounds: int
    units: Mapping[str, UnitStats]
    steps: int
    finished: bool = True
