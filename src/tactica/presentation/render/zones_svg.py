"""Zone graphs to SVG: areas as boxes, connections drawn with the zone-map conventions
(solid, dashed, one-way arrows, X lines, doors and cover marks).

Solid lines move and see; dashed lines only see; an arrow is a one-way connection; a small box
on a line is a door (filled when closed); a dashed line with an X blocks sight. A cover mark is
a short thick bar across the line, next to the area that gets the cover. Given a
:class:`~tactica.battlefield.base.SightReport`, the shortest paths it judged are drawn under the
map (green when clear, red when they block sight), the counted cover marks are ringed, and the
attacker and target areas are outlined. Each area's box carries ``data-place="NAME"`` (a page
draws the units standing there on it).

Pure: the same graph and report always give the same text.

>>> from tactica.battlefield.zones.graph import ZoneGraph, Connection
>>> svg = zones_to_svg(ZoneGraph(areas=("A", "B"), connections=(Connection("A", "B"),)))
>>> svg.startswith("<svg") and "A</text>" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from tactica.battlefield.base import SightReport
from tactica.battlefield.zones.graph import Connection, ZoneGraph
from tactica.battlefield.zones.mapfile import auto_layout
from tactica.presentation.render.markup import Element
from tactica.presentation.render.svg import document

__all__ = ["auto_layout", "zones_to_svg"]

_SCALE_X = 190.0
_SCALE_Y = 120.0
_MARGIN = 40.0
_BOX_H = 44.0
_FONT = 15
_INK = "#222"
_CLEAR = "#2e9e4f"
_BLOCKED = "#d23c3c"
_SOURCE = "#2a6fdb"
_TARGET = "#e08a00"




def _box_width(name: str) -> float:
    return max(96.0, 8.6 * len(name) + 26.0)


def _clip(
    center: tuple[float, float], toward: tuple[float, float], half_w: float
) -> tuple[float, float]:
    """Where the segment from ``center`` to ``toward`` leaves the box around ``center``."""
    dx, dy = toward[0] - center[0], toward[1] - center[1]
    if dx == 0 and dy == 0:
        return center
    scales = []
    if dx:
        scales.append(half_w / abs(dx))
    if dy:
        scales.append((_BOX_H / 2) / abs(dy))
    t = min(min(scales), 1.0)
    return (center[0] + dx * t, center[1] + dy * t)


def _f(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros (stable, compact output)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _line(p: tuple[float, float], q: tuple[float, float], **attrs: str) -> Element:
    return Element("line", x1=_f(p[0]), y1=_f(p[1]), x2=_f(q[0]), y2=_f(q[1]), **attrs)


def _segment(
    conn: Connection, centers: Mapping[str, tuple[float, float]], widths: Mapping[str, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    ca, cb = centers[conn.a], centers[conn.b]
    return _clip(ca, cb, widths[conn.a] / 2), _clip(cb, ca, widths[conn.b] / 2)


def _along(p: tuple[float, float], q: tuple[float, float], dist: float) -> tuple[float, float]:
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    return (p[0] + (q[0] - p[0]) * dist / length, p[1] + (q[1] - p[1]) * dist / length)


def _normal(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    return (-(q[1] - p[1]) / length, (q[0] - p[0]) / length)


def _cover_mark_at(
    conn: Connection, end: str, seg: tuple[tuple[float, float], tuple[float, float]]
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """The bar across the line near ``end``: its two ends and its centre."""
    near, far = (seg[0], seg[1]) if end == conn.a else (seg[1], seg[0])
    # Clear of the arrowhead when the arrow points at this end.
    centre = _along(near, far, 20.0 if conn.type == "one-way" and end == conn.b else 12.0)
    n = _normal(near, far)
    half = 10.0
    return (
        (centre[0] + n[0] * half, centre[1] + n[1] * half),
        (centre[0] - n[0] * half, centre[1] - n[1] * half),
        centre,
    )


def _draw_connection(
    conn: Connection, seg: tuple[tuple[float, float], tuple[float, float]]
) -> list[Element]:
    p, q = seg
    out: list[Element] = []
    dashed = conn.type in ("dashed", "blocked")
    attrs = {"stroke": _INK, "stroke_width": "2.5"}
    if dashed:
        attrs["stroke_dasharray"] = "8 6"
    if conn.type == "one-way":
        attrs["marker_end"] = "url(#arrow)"
        q = _along(q, p, 3.0)
    out.append(_line(p, q, **attrs))
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    if conn.type == "blocked":
        for sx, sy in ((1, 1), (1, -1)):
            a = (mid[0] - 8 * sx, mid[1] - 8 * sy)
            b = (mid[0] + 8 * sx, mid[1] + 8 * sy)
            out.append(_line(a, b, stroke=_BLOCKED, stroke_width="3.5"))
    if conn.door:
        angle = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
        fill = _INK if conn.door == "closed" else "#fff"
        out.append(Element(
            "rect", Element("title", f"{conn.door} door"), x=_f(mid[0] - 11),
            y=_f(mid[1] - 7), width=22, height=14, fill=fill, stroke=_INK, stroke_width=2,
            transform=f"rotate({_f(angle)} {_f(mid[0])} {_f(mid[1])})"))
    for end in conn.ends:
        if conn.has_cover_at(end):
            a, b, _ = _cover_mark_at(conn, end, seg)
            out.append(_line(a, b, stroke=_INK, stroke_width="5", stroke_linecap="butt"))
    return out


def _sight_layers(
    graph: ZoneGraph,
    sight: SightReport,
    centers: Mapping[str, tuple[float, float]],
    segments: Mapping[frozenset[str], tuple[tuple[float, float], tuple[float, float]]],
) -> tuple[list[Element], list[Element]]:
    """Paths under the map, and ringed counted marks over it."""
    under: list[Element] = []
    over: list[Element] = []
    paths: Iterable[Mapping[str, Any]] = sight.details.get("paths", ())
    for path in paths:
        areas = [a for a in path.get("areas", ()) if a in centers]
        if len(areas) < 2:
            continue
        colour = _BLOCKED if path.get("blocks_sight") else _CLEAR
        points = " ".join(f"{_f(centers[a][0])},{_f(centers[a][1])}" for a in areas)
        under.append(Element("polyline", points=points, fill="none", stroke=colour,
                             stroke_width=14, stroke_opacity=0.35, stroke_linejoin="round",
                             stroke_linecap="round"))
        for mark in path.get("marks", ()):
            key = frozenset(mark.get("between", ()))
            conn = graph.connection(*mark["between"]) if len(key) == 2 else None
            if conn is None or key not in segments or not mark.get("counted"):
                continue
            _, _, centre = _cover_mark_at(conn, mark["at"], segments[key])
            over.append(Element("circle", Element("title", f"counted cover mark at {mark['at']}"),
                                cx=_f(centre[0]), cy=_f(centre[1]), r=13, fill="none",
                                stroke=_BLOCKED, stroke_width=2.5))
    return under, over


def _mover_token(
    pair: Any, centers: Mapping[str, tuple[float, float]], colour: str, label: str
) -> Element | None:
    if not isinstance(pair, list | tuple) or len(pair) != 2 or not all(a in centers for a in pair):
        return None
    a, b = centers[pair[0]], centers[pair[1]]
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    title = Element("title", f"{label} moving between {pair[0]} and {pair[1]}")
    return Element("circle", title, cx=_f(mid[0]), cy=_f(mid[1]), r=9, fill=colour,
                   stroke="#fff", stroke_width=2)


_LEGEND: tuple[tuple[Connection, str], ...] = (
    (Connection("a", "b"), "move and sight"),
    (Connection("a", "b", "dashed"), "sight only"),
    (Connection("a", "b", "one-way"), "one way"),
    (Connection("a", "b", "blocked"), "no sight, no move"),
    (Connection("a", "b", door="closed"), "closed door"),
    (Connection("a", "b", door="open"), "open door"),
    (Connection("a", "b", cover=frozenset({"b"})), "cover for the area it touches"),
)


def _legend(top: float, width: float) -> tuple[Element, float]:
    """The legend, wrapped to ``width``; returns its group and the height it takes."""
    out = Element("g", font_size=12, fill=_INK)
    x, y = _MARGIN, top + 10
    for conn, label in _LEGEND:
        size = 56 + 7 * len(label) + 24
        if x + size > width - _MARGIN and x > _MARGIN:
            x, y = _MARGIN, y + 24
        out.extend(_draw_connection(conn, ((x, y), (x + 48, y))))
        out.add(Element("text", label, x=_f(x + 56), y=_f(y + 4)))
        x += size
    return out, y + 14 - top


def zones_to_svg(graph: ZoneGraph, *, sight: SightReport | None = None) -> str:
    """The whole zone map as one SVG document (a string)."""
    raw = graph.positions()
    widths = {a: _box_width(a) for a in graph.areas}
    min_x = min(x for x, _ in raw.values())
    min_y = min(y for _, y in raw.values())
    left = _MARGIN + max(widths.values()) / 2
    top = _MARGIN + 30 + _BOX_H / 2
    centers = {
        a: (left + (x - min_x) * _SCALE_X, top + (y - min_y) * _SCALE_Y)
        for a, (x, y) in raw.items()
    }
    width = max(cx + widths[a] / 2 for a, (cx, _) in centers.items()) + _MARGIN
    bottom = max(cy for _, cy in centers.values()) + _BOX_H / 2
    width = max(width, 560.0)
    caption_y = bottom + 40
    legend, legend_h = _legend(caption_y + (12 if sight is not None else -20), width)
    height = caption_y + (12 if sight is not None else -20) + legend_h + _MARGIN / 2

    segments = {frozenset(c.ends): _segment(c, centers, widths) for c in graph.connections}
    defs = Element("defs", Element(
        "marker", Element("path", d="M0,0 L10,5 L0,10 z", fill=_INK), id="arrow",
        viewBox="0 0 10 10", refX=9, refY=5, markerWidth=7, markerHeight=7,
        orient="auto-start-reverse"))
    parts: list[Element | None] = [
        Element("text", graph.name or "Zone map", x=_f(_MARGIN), y=_f(_MARGIN), font_size=20,
                font_weight="bold", fill=_INK),
    ]
    under: list[Element] = []
    over: list[Element] = []
    if sight is not None:
        under, over = _sight_layers(graph, sight, centers, segments)
    parts.extend(under)
    for conn in graph.connections:
        parts.extend(_draw_connection(conn, segments[frozenset(conn.ends)]))
    moving: Mapping[str, Any] = sight.details.get("moving", {}) if sight is not None else {}
    for area in graph.areas:
        cx, cy = centers[area]
        w = widths[area]
        stroke, stroke_w = _INK, "2"
        if sight is not None and area in (sight.source, sight.target):
            stroke, stroke_w = (_SOURCE if area == sight.source else _TARGET), "4"
        parts.append(Element("rect", x=_f(cx - w / 2), y=_f(cy - _BOX_H / 2), width=_f(w),
                             height=_f(_BOX_H), rx=8, fill="#fff", stroke=stroke,
                             stroke_width=stroke_w, data_place=area))
        parts.append(Element("text", area, x=_f(cx), y=_f(cy + _FONT / 3), font_size=_FONT,
                             text_anchor="middle", fill=_INK))
    parts.extend(over)
    if sight is not None:
        parts.append(_mover_token(moving.get("source"), centers, _SOURCE, "attacker"))
        parts.append(_mover_token(moving.get("target"), centers, _TARGET, "target"))
        head = sight.explain().splitlines()[0]
        rng = sight.details.get("range", sight.distance)
        parts.append(Element("text", f"{head}; range {rng}", x=_f(_MARGIN), y=_f(caption_y),
                             font_size=14, fill=_INK))
    parts.append(legend)
    return document(float(_f(width)), float(_f(height)), parts, background="#fbfaf6",
                    declaration=False, font_family="sans-serif", defs=defs)
