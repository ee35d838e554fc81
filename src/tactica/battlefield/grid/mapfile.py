"""Grid map files, the text preview and sight reports of the tile grid.

A grid map file is YAML::

    kind: grid
    name: Corridor            # optional
    tiles: |
      A...#....
      ....#..B.
    sides: {A: red, B: blue}  # optional; needed only for blockers=foes

``.`` is open floor, ``#`` blocking terrain and any letter or digit an occupant with that id.
``tiles`` may also be a list of row strings. Every problem of a file is reported at once, each
naming the file, the field, and for tiles the row and column (counted from 1, with the tile
coordinates counted from 0).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tactica.battlefield.base import SightReport
from tactica.battlefield.grid.sight import LineOfSight
from tactica.battlefield.grid.tiles import GridSight, Tile, TileGrid
from tactica.engine.errors import MapError
from tactica.engine.limits import MAX_GRID_SIDE
from tactica.engine.validation import validate

__all__ = [
    "GridMapModel",
    "grid_from_mapping",
    "parse_tiles",
    "preview_text",
    "sight_to_report",
]

_EXPECTED = "expected '.' (floor), '#' (blocking) or a letter or digit (an occupant)"


class GridMapModel(BaseModel):
    """The fields of a ``kind: grid`` map."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["grid"]
    name: str = ""
    tiles: str | list[str]
    sides: dict[str, str] = Field(default_factory=dict)

    @field_validator("tiles", mode="before")
    @classmethod
    def _rows(cls, value: Any) -> Any:
        if isinstance(value, str) or (
            isinstance(value, list) and all(isinstance(r, str) for r in value)
        ):
            return value
        raise ValueError(
            "expected the map's rows as text (tiles: |) or as a list of row strings"
        )


def parse_tiles(
    text: str | Iterable[str], *, source: str
) -> tuple[int, int, frozenset[Tile], dict[str, Tile]]:
    """Parse map rows into ``(width, height, blockers, occupants)``.

    Common indentation and blank lines before and after the map are removed; every problem is
    collected into one :class:`MapError`.
    """
    if isinstance(text, str):
        rows = [r.rstrip() for r in textwrap.dedent(text).split("\n")]
    else:
        rows = [str(r).rstrip() for r in text]
    while rows and not rows[0]:
        rows.pop(0)
    while rows and not rows[-1]:
        rows.pop()
    if not rows:
        raise MapError(f"{source}: tiles: the map is empty; {_EXPECTED}, one row per line")
    widest = max(len(r) for r in rows)
    if len(rows) > MAX_GRID_SIDE or widest > MAX_GRID_SIDE:
        raise MapError(f"{source}: tiles: the map is {widest} x {len(rows)} tiles; a grid map "
                       f"has at most {MAX_GRID_SIDE} x {MAX_GRID_SIDE}")
    problems: list[str] = []
    width = len(rows[0])
    blockers: set[Tile] = set()
    occupants: dict[str, Tile] = {}
    for y, row in enumerate(rows):
        if len(row) != width:
            problems.append(
                f"{source}: tiles: row {y + 1} has {len(row)} tiles, expected {width} "
                "(the width of row 1); every row must have the same length"
            )
        for x, ch in enumerate(row):
            where = f"{source}: tiles: row {y + 1}, column {x + 1} (tile {x},{y})"
            if ch == "#":
                blockers.add((x, y))
            elif ch == ".":
                continue
            elif ch.isascii() and ch.isalnum():
                if ch in occupants:
                    fx, fy = occupants[ch]
                    problems.append(
                        f"{where}: occupant {ch!r} appears twice "
                        f"(first at row {fy + 1}, column {fx + 1}); ids must be unique"
                    )
                else:
                    occupants[ch] = (x, y)
            else:
                problems.append(f"{where}: unknown character {ch!r}; {_EXPECTED}")
    if problems:
        raise MapError("\n".join(problems))
    return width, len(rows), frozenset(blockers), occupants


def grid_from_mapping(data: Mapping[str, Any], *, source: str) -> TileGrid:
    """Build a :class:`TileGrid` from a parsed ``kind: grid`` map."""
    model = validate(GridMapModel, dict(data), source=source, error=MapError)
    width, height, blockers, occupants = parse_tiles(model.tiles, source=source)
    unknown = [k for k in model.sides if k not in occupants]
    if unknown:
        known = ", ".join(sorted(occupants)) or "none"
        raise MapError(
            "\n".join(
                f"{source}: sides.{k}: no occupant {k!r} on the map (occupants: {known})"
                for k in unknown
            )
        )
    return TileGrid(width, height, blockers, occupants, model.sides, model.name)


def preview_text(grid: TileGrid) -> str:
    """The grid as text: a title, column numbers, numbered rows and the occupants."""
    title = f"{grid.name}: " if grid.name else ""
    n = len(grid.occupants)
    lines = [f"{title}grid {grid.width}x{grid.height}, {n} occupant{'s' if n != 1 else ''}"]
    label = len(str(grid.height - 1))
    pad = " " * (label + 1)
    if grid.width > 10:
        lines.append(pad + "".join(str(x // 10) if x % 10 == 0 else " " for x in range(grid.width)))
    lines.append(pad + "".join(str(x % 10) for x in range(grid.width)))
    for y, row in enumerate(grid.to_text().split("\n")):
        lines.append(f"{y:>{label}} {row}")
    for oid, (x, y) in grid.occupants.items():
        side = f" ({grid.sides[oid]})" if oid in grid.sides else ""
        lines.append(f"{oid}{side} at {x},{y}")
    return "\n".join(lines)


def _fmt(tile: Tile) -> str:
    return f"{tile[0]},{tile[1]}"


def _describe(grid: TileGrid, tile: Tile) -> str:
    oid = grid.occupant_at(tile)
    return f"occupant {oid} at {_fmt(tile)}" if oid else f"terrain at {_fmt(tile)}"


def _line_reason(grid: TileGrid, line: LineOfSight) -> str:
    seg = line.segment
    head = f"{seg.corner_name:<12} {_fmt(seg.start)} -> {_fmt(seg.end)}: "
    if line.is_clear:
        return head + "clear"
    why = [_describe(grid, t) for t in line.blocked_by]
    why += [
        f"passes exactly between {_describe(grid, a)} and {_describe(grid, b)}"
        for a, b in line.squeezed_between
    ]
    return head + "blocked by " + "; ".join(why)


_POLICY_NOTES = {
    "inset": "corners inset toward their own tile's centre",
    "touch": "any contact with a blocker blocks",
    "interior": "only entering a blocker's interior blocks",
}


def sight_to_report(grid: TileGrid, sight: GridSight, source: str, target: str) -> SightReport:
    """A :class:`SightReport` with every line, what blocks it, and the verdict's reasons."""
    clear = sight.clear_lines
    reasons = [
        f"{clear} of 4 lines clear (policy {sight.policy}: {_POLICY_NOTES[sight.policy]}; "
        f"blockers: {sight.blockers})",
        *("  " + _line_reason(grid, line) for line in sight.lines),
    ]
    if not sight.is_visible:
        reasons.append(f"fewer than {sight.min_clear} clear lines: not visible")
    elif clear == 4:
        reasons.append("all 4 lines clear: visible, not in cover")
    elif sight.within_cover_range:
        reasons.append(
            f"{clear} lines clear, but distance {sight.distance} ({sight.metric}) is "
            f"{sight.cover_range} or less: nobody benefits from cover"
        )
    else:
        reasons.append(
            f"{clear} lines clear at distance {sight.distance} ({sight.metric}): "
            "visible, in cover"
        )
    lines = [
        {
            "corner": line.corner_name,
            "from": list(line.segment.start),
            "to": list(line.segment.end),
            "clear": line.is_clear,
            "blocked_by": [list(t) for t in line.blocked_by],
            "squeezed_between": [[list(a), list(b)] for a, b in line.squeezed_between],
        }
        for line in sight.lines
    ]
    details: dict[str, Any] = {
        "kind": "grid",
        "source_tile": list(sight.source),
        "target_tile": list(sight.target),
        "clear_lines": clear,
        "policy": sight.policy,
        "metric": sight.metric,
        "blockers": sight.blockers,
        "within_cover_range": sight.within_cover_range,
        "min_clear": sight.min_clear,
        "cover_range": sight.cover_range,
        "lines": lines,
    }
    return SightReport(
        source=source,
        target=target,
        visible=sight.is_visible,
        cover=int(sight.is_in_cover),
        distance=sight.distance,
        details=details,
        reasons=tuple(reasons),
    )
