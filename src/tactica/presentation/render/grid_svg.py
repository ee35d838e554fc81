"""The tile grid as SVG: tiles, blocking terrain, occupants, and the evidence of one sight query.

Occupants carry ``data-unit="ID"`` (a page makes them clickable). With a sight report, the four
lines are drawn from corner to corner, green when clear and dashed red when blocked, the tiles
that block them are outlined in red, and the two tiles of the query in amber; a caption repeats
the verdict. Pure function: grid and report in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tactica.battlefield.base import SightReport
from tactica.presentation.render.markup import Element
from tactica.presentation.render.svg import COLOURS, document, element, group, num, side_colours

if TYPE_CHECKING:
    from tactica.battlefield.grid.tiles import TileGrid

__all__ = ["grid_to_svg"]


def _as_tile(value: Any) -> tuple[int, int] | None:
    if isinstance(value, Sequence) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return int(value[0]), int(value[1])
    return None


def grid_to_svg(grid: TileGrid, *, sight: SightReport | None = None, tile: int = 32,
                colours: Mapping[str, str] | None = None) -> str:
    """An SVG picture of ``grid`` (``tile`` pixels per tile), with ``sight`` drawn on it;
    ``colours`` gives each side its colour (by default :func:`side_colours` of the sides in
    order of appearance)."""
    margin = 24 if tile >= 16 else 12
    details = dict(sight.details) if sight is not None else {}
    lines = [ln for ln in details.get("lines", ()) if isinstance(ln, dict)]
    caption = []
    if sight is not None:
        caption = sight.explain().split("\n")[:1]
        if "clear_lines" in details:
            caption.append(
                f"{details['clear_lines']} of 4 lines clear; distance {num(sight.distance)} "
                f"({details.get('metric', '?')}); policy {details.get('policy', '?')}"
            )
    width = max([2 * margin + grid.width * tile, *(margin + 7 * len(c) for c in caption)])
    height = 2 * margin + grid.height * tile + 18 * len(caption)

    def px(v: float) -> float:
        return margin + v * tile

    def py(v: float) -> float:
        return margin + v * tile

    body: list[Element] = []
    # Tiles and terrain.
    tiles = group(id="tiles", stroke=COLOURS["grid"], stroke_width=1)
    for y in range(grid.height):
        for x in range(grid.width):
            fill = COLOURS["wall"] if (x, y) in grid.blockers else COLOURS["floor"]
            tiles.add(element("rect", x=px(x), y=py(y), width=tile, height=tile, fill=fill,
                              data_place=f"{x},{y}"))
    body.append(tiles)
    # Coordinates (every one on small maps, every fifth on large ones).
    step = 1 if max(grid.width, grid.height) <= 20 else 5
    size = max(8, min(11, tile // 3))
    coordinates = group(id="coordinates", font_size=size, fill=COLOURS["muted"],
                        text_anchor="middle")
    for x in range(0, grid.width, step):
        coordinates.add(element("text", str(x), x=px(x + 0.5), y=margin - 6))
    for y in range(0, grid.height, step):
        coordinates.add(element("text", str(y), x=margin / 2, y=py(y + 0.5) + size / 3))
    body.append(coordinates)
    # Highlights: the query's tiles in amber, the blocking tiles in red.
    if sight is not None:
        highlights = group(id="highlights", fill="none", stroke_width=3)
        for key in ("source_tile", "target_tile"):
            t = _as_tile(details.get(key))
            if t is not None:
                highlights.add(element("rect", x=px(t[0]) + 1.5, y=py(t[1]) + 1.5,
                                       width=tile - 3, height=tile - 3,
                                       stroke=COLOURS["highlight"]))
        blocking: set[tuple[int, int]] = set()
        for ln in lines:
            blocking.update(t for t in map(_as_tile, ln.get("blocked_by", ())) if t)
            for pair in ln.get("squeezed_between", ()):
                blocking.update(t for t in map(_as_tile, pair) if t)
        for t in sorted(blocking):
            highlights.add(element("rect", x=px(t[0]) + 1.5, y=py(t[1]) + 1.5, width=tile - 3,
                                   height=tile - 3, stroke=COLOURS["blocked"],
                                   fill=COLOURS["blocked"], fill_opacity=0.45))
        body.append(highlights)
    # Occupants, coloured by side.
    palette = dict(colours) if colours is not None else side_colours(grid.sides.values())
    occupants = group(id="occupants", font_size=max(8, tile // 2), font_weight="bold",
                      text_anchor="middle")
    for oid, (x, y) in grid.occupants.items():
        side = grid.sides.get(oid)
        colour = COLOURS["neutral"] if side is None else palette.get(side, COLOURS["neutral"])
        occupants.add(element("circle", cx=px(x + 0.5), cy=py(y + 0.5), r=tile * 0.36,
                              fill=colour, stroke="#ffffff", stroke_width=1.5, data_unit=oid),
                      element("text", oid, x=px(x + 0.5), y=py(y + 0.5) + tile * 0.17,
                              fill="#ffffff", data_unit=oid))
    body.append(occupants)
    # The four sight lines.
    if lines:
        drawn = group(id="sight-lines", stroke_width=2, stroke_linecap="round")
        for ln in lines:
            start, end = _as_tile(ln.get("from")), _as_tile(ln.get("to"))
            if start is None or end is None:
                continue
            clear = bool(ln.get("clear"))
            colour = COLOURS["clear"] if clear else COLOURS["blocked"]
            drawn.add(element("line", x1=px(start[0]), y1=py(start[1]), x2=px(end[0]),
                              y2=py(end[1]), stroke=colour,
                              stroke_dasharray=None if clear else "6 4"))
            for cx, cy in (start, end):
                drawn.add(element("circle", cx=px(cx), cy=py(cy), r=2.5, fill=colour))
        body.append(drawn)
    for i, text in enumerate(caption):
        body.append(element("text", text, x=margin, y=py(grid.height) + 18 + 18 * i,
                            font_size=12, fill=COLOURS["text"]))
    title = grid.name or f"grid {grid.width}x{grid.height}"
    if sight is not None:
        title += f": sight {sight.source} -> {sight.target}"
    return document(width, height, body, title=title)
