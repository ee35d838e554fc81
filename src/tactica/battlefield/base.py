"""The small vocabulary every kind of battlefield shares.

A battlefield answers geometric questions and nothing else: how far, who is adjacent, how to get
there, can one place see another, is the target in cover, and *why*. Four kinds exist (tile grid,
dot lattice with levels, zone graph, rows); they share this vocabulary where the question makes
sense for them and do not pretend to be the same where they are not: a zone graph has no
coordinates and rows have no line of sight.

Every sight query returns a :class:`SightReport`, which carries the answer, a JSON-ready
``details`` mapping with the evidence (lines and blockers, or paths and cover marks) and a
human explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from tactica.errors import MapError

__all__ = [
    "Battlefield",
    "SightReport",
    "map_kind",
    "map_kinds",
    "register_map_kind",
]


@dataclass(frozen=True)
class SightReport:
    """The answer to "can A see B, and is B in cover", with the evidence.

    ``distance`` is in the battlefield's own unit (tiles, connections, dots). ``details`` is
    merged into :meth:`to_dict` and holds kind-specific evidence (``lines`` on a grid,
    ``paths`` on a zone graph). ``reasons`` are short sentences for people.
    """

    source: str
    target: str
    visible: bool
    cover: bool
    distance: float | int
    details: Mapping[str, Any] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``from``, ``to``, ``visible``, ``cover``, ``distance`` and the details."""
        out: dict[str, Any] = {
            "from": self.source,
            "to": self.target,
            "visible": self.visible,
            "cover": self.cover,
            "distance": self.distance,
        }
        out.update(self.details)
        return out

    def explain(self) -> str:
        """The answer and its reasons as a few lines of text."""
        head = f"{self.source} -> {self.target}: " + (
            ("visible, in cover" if self.cover else "visible, not in cover")
            if self.visible
            else "not visible"
        )
        return "\n".join([head, *("  " + r for r in self.reasons)])


@runtime_checkable
class Battlefield(Protocol):
    """What the command line and the engine may ask of any battlefield."""

    kind: ClassVar[str]

    def preview(self) -> str:
        """A plain-text picture of the battlefield for the terminal."""
        ...

    def to_svg(self, *, sight: SightReport | None = None) -> str:
        """An SVG picture, optionally with the evidence of one sight query drawn on it."""
        ...

    def sight_report(self, source: str, target: str, **options: str) -> SightReport:
        """Sight and cover between two named places (occupant ids, area names, ...).

        ``options`` are ruling choices by name (``policy="touch"``, ``metric="manhattan"``);
        an option the kind does not know raises :class:`~tactica.errors.MapError`.
        """
        ...


#: A loader builds a battlefield from a parsed map mapping; ``source`` names the file.
Loader = Callable[[Mapping[str, Any], str], Battlefield]

_KINDS: dict[str, Loader] = {}


def register_map_kind(kind: str, loader: Loader) -> None:
    """Make ``kind: <kind>`` in a map file build its battlefield with ``loader``."""
    _KINDS[kind] = loader


def map_kinds() -> tuple[str, ...]:
    """The map kinds that can be loaded, sorted."""
    return tuple(sorted(_KINDS))


def map_kind(kind: object, *, source: str) -> Loader:
    """The loader for ``kind``, or a :class:`MapError` naming the known kinds."""
    if not isinstance(kind, str) or kind not in _KINDS:
        known = ", ".join(map_kinds()) or "(none)"
        raise MapError(f"{source}: kind: expected one of {known}, got {kind!r}")
    return _KINDS[kind]
