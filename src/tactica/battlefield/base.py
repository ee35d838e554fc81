"""The small vocabulary every kind of battlefield shares.

A battlefield answers geometric questions and nothing else: how far, who is adjacent, how to get
there and at what cost, can one place see another, how much cover does the target have, and
*why*. Four kinds exist (tile grid, dot lattice with levels, zone graph, rows). They spell the
same question the same way (:class:`Battlefield`) and do not pretend to be the same where they
are not: a zone graph has no coordinates and rows have no line of sight, so their answers say so.

A battlefield holds no game's rules. Numbers such as "no cover within 3 tiles" or "two clear
lines are needed" are *sight options* the game passes in; a battlefield never imports the
renderers that draw it (see :mod:`tactica.engine.maps`).

Every sight query returns a :class:`SightReport`: the answer, the number of cover modifiers, a
JSON-ready ``details`` mapping with the evidence (lines and blockers, paths and cover marks) and
sentences for people.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Protocol, runtime_checkable

__all__ = [
    "Battlefield",
    "Distance",
    "MovePath",
    "Place",
    "SightOption",
    "SightReport",
]

#: A place on a battlefield: a tile ``(x, y)``, a dot, an area name, a row. Kind-specific, but
#: always hashable and printable.
Place = Hashable

#: A distance in the battlefield's own unit (tiles, dots, connections, row steps).
Distance = int | float | Fraction

#: The value of one sight option (a ruling choice by name, or a number the game passes in).
SightOption = str | int


@dataclass(frozen=True)
class SightReport:
    """The answer to "can A see B, and how much cover has B", with the evidence.

    ``cover`` counts the cover *modifiers* the target gets (0: none). Games with a yes/no notion
    of cover read ``in_cover``. ``distance`` is in the battlefield's own unit. ``details`` is
    merged into :meth:`to_dict` and holds kind-specific evidence (``lines`` on a grid,
    ``paths`` on a zone graph). ``reasons`` are short sentences for people.

    >>> r = SightReport("A", "B", visible=True, cover=2, distance=4)
    >>> r.in_cover, r.to_dict()["cover"]
    (True, 2)
    """

    source: str
    target: str
    visible: bool
    cover: int
    distance: Distance
    details: Mapping[str, Any] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()

    @property
    def in_cover(self) -> bool:
        """True if the target is visible and has at least one cover modifier."""
        return self.visible and self.cover > 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``from``, ``to``, ``visible``, ``cover`` (a count), ``in_cover``,
        ``distance``, the details and the ``reasons``."""
        out: dict[str, Any] = {
            "from": self.source,
            "to": self.target,
            "visible": self.visible,
            "cover": self.cover,
            "in_cover": self.in_cover,
            "distance": _plain_distance(self.distance),
        }
        out.update(self.details)
        out["reasons"] = list(self.reasons)
        return out

    def explain(self) -> str:
        """The answer and its reasons as a few lines of text."""
        if not self.visible:
            head = "not visible"
        elif self.cover == 0:
            head = "visible, not in cover"
        elif self.cover == 1:
            head = "visible, in cover"
        else:
            head = f"visible, in cover (+{self.cover})"
        lines = [f"{self.source} -> {self.target}: {head}"]
        lines.extend("  " + r for r in self.reasons)
        return "\n".join(lines)


def _plain_distance(d: Distance) -> int | float | None:
    if isinstance(d, Fraction):
        return int(d) if d.denominator == 1 else float(d)
    if isinstance(d, float) and d == float("inf"):
        return None
    return d


@dataclass(frozen=True)
class MovePath:
    """A way from one place to another: ``places`` from the start (first) to the goal (last),
    every place entered on the way, and the total ``cost`` in the kind's movement unit
    (steps, AP). ``steps`` gives the cost of each move, in order."""

    places: tuple[Place, ...]
    cost: int | Fraction
    steps: tuple[int | Fraction, ...] = ()

    @property
    def entered(self) -> tuple[Place, ...]:
        """The places entered after the start, in order (where reactions may trigger)."""
        return self.places[1:]


@runtime_checkable
class Battlefield(Protocol):
    """What the core, the command line and the games may ask of any battlefield.

    ``source`` and ``target`` arguments are *references*: an occupant's id, or the kind's own
    text for a place (``"3,4"`` on a grid, an area name on a zone graph); :meth:`locate` turns
    a reference into a place. A kind that cannot answer a question meaningfully answers the
    trivial way and says so (rows: everyone sees everyone, no cover) rather than raising.
    """

    kind: ClassVar[str]

    def locate(self, ref: str) -> Place:
        """The place of an occupant id or a place written as text; MapError if unknown."""
        ...

    @property
    def occupants(self) -> Mapping[str, Place]:
        """Every occupant (unit) id on the battlefield and where it stands (may be empty:
        a zone graph leaves its units to the game)."""
        ...

    def distance(self, a: str, b: str) -> Distance:
        """The distance between two references, in the kind's own unit."""
        ...

    def neighbours(self, ref: str) -> tuple[Place, ...]:
        """The places next to a reference (one step away, whatever lies between)."""
        ...

    def path(self, start: str, goal: str) -> MovePath | None:
        """A cheapest way from ``start`` to ``goal`` (``None`` if there is none)."""
        ...

    def sight_report(self, source: str, target: str, **options: SightOption) -> SightReport:
        """Sight and cover from ``source`` to ``target``, with the evidence.

        ``options`` are the game's choices for this kind (ruling values, thresholds); an option
        the kind does not know raises :class:`~tactica.engine.errors.MapError` naming the known
        ones.
        """
        ...

    def levels(self) -> tuple[str, ...]:
        """The names of the battlefield's levels (floors), ground first; ``()`` if flat."""
        ...

    def preview(self) -> str:
        """A plain-text picture of the battlefield for the terminal."""
        ...
