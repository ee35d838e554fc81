"""The built-in map kinds: each joins a battlefield's loader to the renderer that draws it.

They are declared as entry points of the group ``tactica.map_kinds`` in ``pyproject.toml``;
another package declares its own kinds the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tactica.battlefield.base import SightReport
from tactica.battlefield.dots.lattice import DotLattice
from tactica.battlefield.dots.mapfile import dots_from_mapping
from tactica.battlefield.grid.mapfile import grid_from_mapping
from tactica.battlefield.grid.tiles import TileGrid
from tactica.battlefield.rows import Rows
from tactica.battlefield.zones.graph import ZoneGraph
from tactica.battlefield.zones.mapfile import zones_from_mapping
from tactica.engine.maps import MapKind
from tactica.presentation.render.dots_svg import dots_to_svg
from tactica.presentation.render.grid_svg import grid_to_svg
from tactica.presentation.render.rows_svg import rows_to_svg
from tactica.presentation.render.zones_svg import zones_to_svg

__all__ = ["DOTS", "GRID", "ROWS", "ZONES"]


def _grid(data: Mapping[str, Any], source: str) -> TileGrid:
    return grid_from_mapping(data, source=source)


def _draw_grid(bf: Any, sight: SightReport | None,
               colours: Mapping[str, str] | None = None) -> str:
    assert isinstance(bf, TileGrid)
    return grid_to_svg(bf, sight=sight, colours=colours)


def _zones(data: Mapping[str, Any], source: str) -> ZoneGraph:
    return zones_from_mapping(data, source=source)


def _draw_zones(bf: Any, sight: SightReport | None,
                colours: Mapping[str, str] | None = None) -> str:
    assert isinstance(bf, ZoneGraph)
    return zones_to_svg(bf, sight=sight)


def _rows(data: Mapping[str, Any], source: str) -> Rows:
    return Rows.from_mapping(data, source=source)


def _draw_rows(bf: Any, sight: SightReport | None,
               colours: Mapping[str, str] | None = None) -> str:
    assert isinstance(bf, Rows)
    return rows_to_svg(bf, sight=sight, colours=colours)


def _dots(data: Mapping[str, Any], source: str) -> DotLattice:
    return dots_from_mapping(data, source=source)


def _draw_dots(bf: Any, sight: SightReport | None,
               colours: Mapping[str, str] | None = None) -> str:
    assert isinstance(bf, DotLattice)
    return dots_to_svg(bf, sight=sight, colours=colours)


GRID = MapKind("grid", "square tiles, corner-to-corner sight lines", _grid, _draw_grid)
ZONES = MapKind("zones", "areas joined by connections (a zone graph)", _zones, _draw_zones)
ROWS = MapKind("rows", "each side's front and back rows", _rows, _draw_rows)
DOTS = MapKind("dots", "dots on a triangular lattice, with levels and features between dots",
               _dots, _draw_dots)
