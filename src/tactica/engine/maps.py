"""Map kinds as plug-ins: loading map files, and drawing any battlefield.

A map kind is a :class:`MapKind`: its name (the ``kind:`` of a map file), a loader that builds
the battlefield from the parsed YAML, and a renderer that draws it as SVG. The built-in kinds
(``grid``, ``zones``, ``rows``, ``dots``) and any kind shipped by another package are found
through the Python entry point group ``tactica.map_kinds``; :func:`register_map_kind` adds one
by hand (tests, notebooks). Nothing depends on the order in which modules are imported.

Battlefield modules never import their renderers: this module joins the two.

>>> bf = map_from_mapping({"kind": "grid", "tiles": "A.#B"}, source="inline")
>>> bf.kind, "<svg" in to_svg(bf)
('grid', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tactica.battlefield.base import Battlefield, SightReport
from tactica.engine.errors import MapError, TacticaError
from tactica.engine.plugins import discover
from tactica.engine.validation import load_yaml

__all__ = [
    "ENTRY_POINT_GROUP",
    "MapKind",
    "load_map",
    "map_from_mapping",
    "map_kind",
    "map_kinds",
    "register_map_kind",
    "to_svg",
]

#: The entry point group through which packages declare map kinds.
ENTRY_POINT_GROUP = "tactica.map_kinds"


@dataclass(frozen=True)
class MapKind:
    """One kind of map: ``load(data, source)`` builds the battlefield from a parsed map mapping
    (``source`` names the file in errors); ``render(battlefield, sight)`` draws it as SVG, with
    the evidence of one sight report when given. A renderer that also takes a third argument,
    ``colours`` (each side's colour), is given it when a fight is drawn, so that the map and
    the other views of the fight agree."""

    name: str
    summary: str
    load: Callable[[Mapping[str, Any], str], Battlefield]
    render: Callable[..., str]


_KINDS: dict[str, MapKind] = {}


def register_map_kind(kind: MapKind) -> MapKind:
    """Make ``kind: <name>`` in a map file build its battlefield with ``kind.load``."""
    if not isinstance(kind, MapKind):
        raise TacticaError(f"register_map_kind: expected a MapKind, got {type(kind).__name__}")
    _KINDS[kind.name] = kind
    return kind


def _discover() -> None:
    discover(ENTRY_POINT_GROUP, _accept)  # a broken plug-in is skipped (tactica games says so)


def _accept(found: object) -> None:
    if not isinstance(found, MapKind):
        raise TacticaError(f"not a MapKind (got {type(found).__name__})")
    _KINDS.setdefault(found.name, found)


def map_kinds() -> tuple[MapKind, ...]:
    """Every map kind that can be loaded, by name."""
    _discover()
    return tuple(_KINDS[k] for k in sorted(_KINDS))


def map_kind(name: object, *, source: str = "map") -> MapKind:
    """The kind called ``name``, or a :class:`MapError` naming the known kinds."""
    _discover()
    if not isinstance(name, str) or name not in _KINDS:
        known = ", ".join(sorted(_KINDS)) or "(none)"
        raise MapError(f"{source}: kind: expected one of {known}, got {name!r}")
    return _KINDS[name]


def map_from_mapping(data: Any, *, source: str) -> Battlefield:
    """Build a battlefield from a parsed map mapping (the ``map:`` of a scenario, or a file)."""
    if not isinstance(data, Mapping):
        raise MapError(
            f"{source}: expected a mapping with a 'kind' field, got {type(data).__name__}"
        )
    if "kind" not in data:
        known = ", ".join(k.name for k in map_kinds())
        raise MapError(f"{source}: kind: field required ({known})")
    return map_kind(data["kind"], source=source).load(data, source)


def load_map(path: str | Path) -> Battlefield:
    """Load a map file; every error names the file and the field."""
    return map_from_mapping(load_yaml(path, error=MapError), source=str(path))


def to_svg(battlefield: Battlefield, *, sight: SightReport | None = None,
           colours: Mapping[str, str] | None = None) -> str:
    """An SVG picture of any battlefield, with the evidence of one sight report if given, its
    sides in ``colours`` when given (a side's colour in every view of a fight)."""
    kind = map_kind(battlefield.kind)
    if colours is None:
        return kind.render(battlefield, sight)
    return kind.render(battlefield, sight, colours)
