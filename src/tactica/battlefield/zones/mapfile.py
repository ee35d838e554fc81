"""Zone map files and the text preview of a zone graph.

A zone map file is YAML::

    kind: zones
    name: Nightclub                 # optional
    areas: [Catwalk, DJ Booth, Dance Floor, Bar]
    connections:
      - {between: [Catwalk, DJ Booth], cover: [DJ Booth]}
      - {between: [Catwalk, Dance Floor], type: dashed}
      - {between: [Catwalk, Bar], type: one-way, door: closed}
    layout: {Catwalk: [1, 0], DJ Booth: [0, 1], Dance Floor: [1, 2], Bar: [2, 1]}  # optional

``type`` is ``solid`` (the default), ``dashed``, ``one-way`` (from the first area to the
second) or ``blocked`` (a dashed line with an X). ``door`` (``open`` or ``closed``) goes on
solid and one-way connections only; ``cover`` names the ends that carry a cover mark.
``layout`` gives drawing positions, for every area or none. Every problem of a file is
reported at once, each naming the file and the field.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tactica.battlefield.zones.graph import (
    BETWEEN,
    Connection,
    ConnectionType,
    DoorState,
    ZoneGraph,
)
from tactica.engine.errors import MapError
from tactica.engine.limits import MAX_AREAS, MAX_CONNECTIONS
from tactica.engine.validation import validate

__all__ = ["MAX_LAYOUT", "auto_layout", "preview_text", "zones_from_mapping"]

#: The largest drawing position of an area (``layout``), either way.
MAX_LAYOUT = 1000


def zones_from_mapping(data: Any, *, source: str) -> ZoneGraph:
    """Build a :class:`ZoneGraph` from a parsed ``kind: zones`` mapping, or raise MapError."""
    spec = validate(_ZonesSpec, data, source=source, error=MapError)
    problems = [f"{source}: {p}" for p in _spec_problems(spec)]
    if problems:
        raise MapError("\n".join(problems))
    connections = tuple(
        Connection(c.between[0], c.between[1], c.type, c.door, frozenset(c.cover))
        for c in spec.connections
    )
    layout = tuple((area, spec.layout[area]) for area in spec.areas if area in spec.layout)
    return ZoneGraph(tuple(spec.areas), connections, spec.name, layout)


def preview_text(graph: ZoneGraph) -> str:
    """Each area with its connections, one per line: glyph, other end, description."""
    title = graph.name or "Zone map"
    lines = [f"{title}: {len(graph.areas)} areas, {len(graph.connections)} connections"]
    width = max(len(a) for a in graph.areas)
    for area in graph.areas:
        lines.append(area)
        for c in graph.connections_of(area):
            lines.append(f"  {_glyph(c, area)} {c.other(area).ljust(width)}  {c.describe()}")
    lines.append(
        "legend: -- move+sight  .. sight only  -> one way  xx X line  "
        "[] door  | cover mark on that end"
    )
    return "\n".join(lines)


def _glyph(c: Connection, here: str) -> str:
    line = {"solid": "--", "dashed": "..", "blocked": "xx"}.get(c.type, "")
    if c.type == "one-way":
        line = "->" if here == c.a else "<-"
    if c.door:
        line = line[0] + ("[]" if c.door == "closed" else "[ ]") + line[1]
    near = "|" if c.has_cover_at(here) else " "
    far = "|" if c.has_cover_at(c.other(here)) else " "
    return f"{near}{line}{far}".ljust(7)


# -- the file format -----------------------------------------------------------------------------


class _ConnectionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    between: tuple[str, str]
    type: ConnectionType = "solid"
    door: DoorState | None = None
    cover: list[str] = Field(default_factory=list)


class _ZonesSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["zones"]
    name: str = ""
    description: str = ""
    areas: list[str] = Field(min_length=1, max_length=MAX_AREAS)
    connections: list[_ConnectionSpec] = Field(default_factory=list,
                                               max_length=MAX_CONNECTIONS)
    layout: dict[str, tuple[Annotated[float, Field(ge=-MAX_LAYOUT, le=MAX_LAYOUT)],
                            Annotated[float, Field(ge=-MAX_LAYOUT, le=MAX_LAYOUT)]]] = \
        Field(default_factory=dict)


def _spec_problems(spec: _ZonesSpec) -> Iterator[str]:
    """Cross-field checks pydantic cannot express, each as ``field.path: message``."""
    first_at: dict[str, int] = {}
    for i, area in enumerate(spec.areas):
        if not area.strip() or area != area.strip():
            yield f"areas[{i}]: expected a name without leading or trailing spaces, got {area!r}"
        elif BETWEEN in area:
            yield (
                f"areas[{i}]: {area!r}: area names cannot contain '{BETWEEN}' "
                "(it separates the two areas of a character moving between them)"
            )
        if area in first_at:
            yield f"areas[{i}]: duplicate area {area!r} (also areas[{first_at[area]}])"
        first_at.setdefault(area, i)
    listing = ", ".join(spec.areas)
    pairs: dict[frozenset[str], int] = {}
    for i, c in enumerate(spec.connections):
        where = f"connections[{i}]"
        for j, end in enumerate(c.between):
            if end not in first_at:
                yield f"{where}.between[{j}]: unknown area {end!r} (areas: {listing})"
        if c.between[0] == c.between[1]:
            yield f"{where}.between: an area cannot connect to itself ({c.between[0]!r})"
        key = frozenset(c.between)
        if key in pairs:
            yield (
                f"{where}.between: duplicate connection {c.between[0]!r}-{c.between[1]!r} "
                f"(also connections[{pairs[key]}]); give one connection per pair of areas"
            )
        pairs.setdefault(key, i)
        for j, end in enumerate(c.cover):
            if end not in c.between:
                yield (
                    f"{where}.cover[{j}]: {end!r} is not an end of this connection "
                    f"(expected {c.between[0]!r} or {c.between[1]!r})"
                )
        if c.cover and c.type == "blocked":
            yield f"{where}.cover: a blocked (X) connection carries no sight, so no cover marks"
        if c.door is not None and c.type not in ("solid", "one-way"):
            yield f"{where}.door: only solid and one-way connections can have a door, not {c.type}"
    for area in spec.layout:
        if area not in first_at:
            yield f"layout.{area}: unknown area (areas: {listing})"
    missing = [a for a in spec.areas if a not in spec.layout]
    if spec.layout and missing:
        yield (
            f"layout: no position for {', '.join(map(repr, missing))}; "
            "give every area [x, y] or leave layout out for an automatic one"
        )


def auto_layout(graph: ZoneGraph) -> dict[str, tuple[float, float]]:
    """A deterministic layered layout: column = steps from the first area, row = order seen.

    Every connection type counts as a link; an area cut off from the others starts a new
    group of columns to the right.
    """
    placed: dict[str, tuple[float, float]] = {}
    column_offset = 0
    for root in graph.areas:
        if root in placed:
            continue
        depth = {root: 0}
        queue = deque([root])
        order = [root]
        while queue:
            area = queue.popleft()
            for conn in graph.connections_of(area):
                other = conn.other(area)
                if other not in depth:
                    depth[other] = depth[area] + 1
                    queue.append(other)
                    order.append(other)
        rows: dict[int, int] = {}
        for area in order:
            col = depth[area]
            placed[area] = (float(column_offset + col), float(rows.get(col, 0)))
            rows[col] = rows.get(col, 0) + 1
        column_offset += max(depth.values()) + 1
    return placed
