"""The dot lattice as SVG: one panel per level, features on the cell sides, stairs, troopers
by side with a legend, and the evidence of one sight query.

Each level is drawn in its own panel, ground first, left to right. Dots are small grey points;
on upper levels the floors are shaded hexagon cells. A feature is a stroke along the side of the
two cells it stands between, styled by kind. Troopers are discs coloured by side (prone ones are
flattened ellipses). With a sight report, the segment is drawn on the panels of both ends' levels
(green when visible, dashed red when not), the dots on the line are ringed, and everything it met
is outlined: amber for cover, red for blocking, grey for what does not count. Pure function:
lattice and report in, text out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tactica.battlefield.base import SightReport
from tactica.battlefield.dots.features import FEATURE_KINDS
from tactica.battlefield.dots.geometry import (
    DIRECTIONS,
    Axial,
    offset_to_axial,
    side_between,
    side_corners3,
)
from tactica.battlefield.dots.lattice import DotLattice
from tactica.presentation.render.markup import Element
from tactica.presentation.render.svg import COLOURS, document, element, group, side_colours

__all__ = ["FEATURE_STYLES", "dots_to_svg"]

_ROOT3: Final = math.sqrt(3)

#: How each feature kind is drawn: colour, stroke width (in spacings), dash pattern.
FEATURE_STYLES: Final[dict[str, tuple[str, float, str | None]]] = {
    "wall": ("#3d3d44", 0.2, None),
    "high-wall": ("#5a4a6b", 0.2, None),
    "tree": ("#6b3e1f", 0.24, None),
    "low-wall": ("#b0712d", 0.13, None),
    "fence": ("#8c6d46", 0.1, "0.12 0.08"),
    "furniture": ("#c79a5b", 0.12, "0.2 0.06"),
    "vegetation": ("#4f9a3a", 0.13, "0.1 0.07"),
    "window": ("#4a9fd8", 0.2, None),
    "door": ("#d9822b", 0.2, None),
}
_EFFECT_COLOURS: Final = {
    "cover": COLOURS["highlight"],
    "block": COLOURS["blocked"],
    "ignored": COLOURS["muted"],
    "none": COLOURS["muted"],
    "touch": COLOURS["muted"],
}


class _Frame:
    """Pixel positions within one level's panel."""

    def __init__(self, left: float, top: float, spacing: float) -> None:
        self.left, self.top, self.s = left, top, spacing

    def axial(self, q: float, r: float) -> tuple[float, float]:
        return self.left + (q + r / 2) * self.s, self.top + r * _ROOT3 / 2 * self.s

    def dot(self, dot: Axial) -> tuple[float, float]:
        return self.axial(*dot)

    def offset(self, col: int, row: int) -> tuple[float, float]:
        return self.dot(offset_to_axial(col, row))


def _hexagon(frame: _Frame, dot: Axial) -> str:
    q, r = dot
    points = []
    for k in range(6):
        d, nxt = DIRECTIONS[k], DIRECTIONS[(k + 1) % 6]
        x, y = frame.axial(q + (d[0] + nxt[0]) / 3, r + (d[1] + nxt[1]) / 3)
        points.append(f"{x:.2f},{y:.2f}")
    return " ".join(points)


def _side_line(frame: _Frame, a: Axial, b: Axial, **attrs: Any) -> Element:
    (c1q, c1r), (c2q, c2r) = side_corners3(side_between(a, b))
    x1, y1 = frame.axial(c1q / 3, c1r / 3)
    x2, y2 = frame.axial(c2q / 3, c2r / 3)
    return element("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)


def _feature(frame: _Frame, a: Axial, b: Axial, kind: str) -> list[Element]:
    colour, width, dash = FEATURE_STYLES[kind]
    s = frame.s
    dasharray = " ".join(f"{float(x) * s:.1f}" for x in dash.split()) if dash else None
    out = [_side_line(frame, a, b, stroke=colour, stroke_width=width * s,
                      stroke_dasharray=dasharray, stroke_linecap="round")]
    if kind == "window":
        out.append(_side_line(frame, a, b, stroke="#ffffff", stroke_width=width * s / 3))
    elif kind == "door":
        out.append(_side_line(frame, a, b, stroke="#fff4e0", stroke_width=width * s / 3))
    elif kind == "tree":
        (c1q, c1r), (c2q, c2r) = side_corners3(side_between(a, b))
        x, y = frame.axial((c1q + c2q) / 6, (c1r + c2r) / 6)
        out.append(element("circle", cx=x, cy=y, r=s * 0.2, fill=colour))
    return out


def _ints(value: Any) -> tuple[int, ...] | None:
    if isinstance(value, Sequence) and value and all(isinstance(v, int) for v in value):
        return tuple(int(v) for v in value)
    return None


def _panel(lat: DotLattice, lvl: int, frame: _Frame, sight: Mapping[str, Any] | None,
           side_index: Mapping[str, str]) -> list[Element]:
    lying: set[str] = set()
    if sight is not None:
        options = sight.get("options", {})
        extra = options.get("prone", ()) if isinstance(options, Mapping) else ()
        lying = {str(x) for x in (*sight.get("prone", ()), *extra)}
    s = frame.s
    body: list[Element] = []
    name = lat.level_name(lvl)
    building_dots = set().union(*(b.dots for b in lat.buildings)) if lat.buildings else set()
    floor = lat.floors.get(lvl, frozenset()) if lvl else frozenset(building_dots)
    body.append(group((element("polygon", points=_hexagon(frame, dot)) for dot in sorted(floor)),
                      id=f"floors-{name}", fill="#ece4d3", stroke="#d8ccb2", stroke_width=1))
    dots = group(id=f"dots-{name}")
    for row in range(lat.rows):
        for col in range(lat.cols):
            dot = offset_to_axial(col, row)
            x, y = frame.offset(col, row)
            if lat.has_dot(dot, lvl):
                place = f"{col},{row}" if lvl == 0 else f"{col},{row}@{lvl}"
                dots.add(element("circle", cx=x, cy=y, r=s * 0.07, fill=COLOURS["grid"],
                                 data_place=place))
            else:
                dots.add(element("circle", cx=x, cy=y, r=s * 0.03, fill="#e4e0d8"))
    body.append(dots)
    features = group(id=f"features-{name}")
    for (flvl, (q, r, k)), kind in lat.features.items():
        if flvl == lvl:
            d = DIRECTIONS[k]
            features.extend(_feature(frame, (q, r), (q + d[0], r + d[1]), kind))
    body.append(features)
    stairs = group(id=f"stairs-{name}", font_size=f"{s * 0.3:.1f}", text_anchor="middle")
    for dot, st in lat.stairs.items():
        if st.low <= lvl <= st.high:
            x, y = frame.dot(dot)
            stairs.add(element("rect", x=x - s * 0.3, y=y - s * 0.3, width=s * 0.6,
                               height=s * 0.6, fill="none", stroke="#7a5c2e",
                               stroke_width=1.5))
            for i in range(1, 4):
                yy = y - s * 0.3 + i * s * 0.15
                stairs.add(element("line", x1=x - s * 0.3, y1=yy, x2=x + s * 0.3, y2=yy,
                                   stroke="#7a5c2e", stroke_width=1))
            label = "L" if st.kind == "ladder" else "S"
            stairs.add(element("text", label, x=x + s * 0.42, y=y - s * 0.3, fill="#7a5c2e"))
    body.append(stairs)
    if sight is not None:
        body.extend(_evidence(lat, lvl, frame, sight))
    troopers = group(id=f"troopers-{name}", font_size=f"{s * 0.42:.1f}", font_weight="bold",
                     text_anchor="middle")
    for tid, t in lat.troopers.items():
        if t.level != lvl:
            continue
        x, y = frame.dot(t.dot)
        team = lat.sides.get(tid)
        colour = COLOURS["neutral"] if team is None else side_index.get(team, COLOURS["neutral"])
        if t.prone or tid in lying:
            troopers.add(element("ellipse", cx=x, cy=y, rx=s * 0.42, ry=s * 0.24, fill=colour,
                                 stroke="#ffffff", stroke_width=1.5, data_unit=tid))
        else:
            troopers.add(element("circle", cx=x, cy=y, r=s * 0.34, fill=colour,
                                 stroke="#ffffff", stroke_width=1.5, data_unit=tid))
        troopers.add(element("text", tid, x=x, y=y + s * 0.15, fill="#ffffff", data_unit=tid))
    body.append(troopers)
    return body


def _evidence(lat: DotLattice, lvl: int, frame: _Frame,
              details: Mapping[str, Any]) -> list[Element]:
    s = frame.s
    name = lat.level_name(lvl)
    line = details.get("line", {})
    start, end = _ints(line.get("from")), _ints(line.get("to"))
    if start is None or end is None or len(start) < 3 or len(end) < 3:
        return []
    body = group(id=f"sight-{name}")
    for m in details.get("met", ()):
        if not isinstance(m, Mapping) or m.get("level") != name:
            continue
        colour = _EFFECT_COLOURS.get(str(m.get("effect")), COLOURS["muted"])
        dots = [d for d in map(_ints, m.get("dots", ())) if d is not None and len(d) == 2]
        if m.get("what") == "feature" and len(dots) == 2:
            a, b = (offset_to_axial(*d) for d in dots)
            body.add(_side_line(frame, a, b, stroke=colour, stroke_width=s * 0.3,
                                stroke_opacity=0.55, stroke_linecap="round"))
        elif dots:
            x, y = frame.offset(*dots[0])
            body.add(element("circle", cx=x, cy=y, r=s * 0.48, fill="none", stroke=colour,
                             stroke_width=3))
    if lvl in (start[2], end[2]):
        for d in map(_ints, details.get("on_line", ())):
            if d is not None and len(d) == 2:
                x, y = frame.offset(*d)
                body.add(element("circle", cx=x, cy=y, r=s * 0.16, fill="none",
                                 stroke=COLOURS["highlight"], stroke_width=2))
        visible = bool(details.get("visible"))
        colour = COLOURS["clear"] if visible else COLOURS["blocked"]
        x1, y1 = frame.offset(start[0], start[1])
        x2, y2 = frame.offset(end[0], end[1])
        body.add(element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=2.5,
                         stroke_dasharray=None if visible else "7 5", stroke_linecap="round"))
        for (col, row, where) in (start, end):
            if where == lvl:
                x, y = frame.offset(col, row)
                body.add(element("circle", cx=x, cy=y, r=s * 0.46, fill="none",
                                 stroke=COLOURS["highlight"], stroke_width=3))
    return [body]


def _legend(lat: DotLattice, side_index: Mapping[str, str], left: float, top: float,
            prone_too: bool, wrap: float = math.inf) -> tuple[list[Element], float]:
    body: list[Element] = []
    x, y = left, top
    for team, colour in side_index.items():
        body.append(element("circle", cx=x + 8, cy=y - 4, r=7, fill=colour))
        body.append(element("text", f"side {team}", x=x + 20, y=y, font_size=12,
                            fill=COLOURS["text"]))
        x += 30 + 7 * len(team) + 40
    if any(t.prone for t in lat.troopers.values()) or prone_too:
        body.append(element("ellipse", cx=x + 10, cy=y - 4, rx=10, ry=6,
                            fill=COLOURS["neutral"]))
        body.append(element("text", "prone", x=x + 26, y=y, font_size=12, fill=COLOURS["text"]))
        x += 90
    kinds = [k for k in FEATURE_KINDS if k in set(lat.features.values())]
    if (side_index or any(t.prone for t in lat.troopers.values()) or prone_too) and (
        kinds or lat.stairs
    ):
        x, y = left, y + 22
    for kind in kinds:
        if x + 50 + 7 * len(FEATURE_KINDS[kind].label) > wrap and x > left:
            x, y = left, y + 22  # the legend wraps within one level's width
        colour, width, dash = FEATURE_STYLES[kind]
        dasharray = " ".join(f"{float(v) * 30:.1f}" for v in dash.split()) if dash else None
        body.append(element("line", x1=x, y1=y - 4, x2=x + 24, y2=y - 4, stroke=colour,
                            stroke_width=width * 30, stroke_dasharray=dasharray))
        label = FEATURE_KINDS[kind].label
        body.append(element("text", label, x=x + 32, y=y, font_size=12, fill=COLOURS["text"]))
        x += 50 + 7 * len(label)
    if lat.stairs:
        if x + 240 > wrap and x > left:
            x, y = left, y + 22
        body.append(element("text", "S stairs, L ladder (levels joined)", x=x, y=y,
                            font_size=12, fill=COLOURS["text"]))
    return body, y - top + 10


def dots_to_svg(lat: DotLattice, *, sight: SightReport | None = None,
                spacing: float = 30, colours: Mapping[str, str] | None = None) -> str:
    """An SVG picture of every level of ``lat`` side by side (``spacing`` pixels between
    dots), with the evidence of ``sight`` when given; ``colours`` gives each side its colour
    (by default :func:`side_colours` of the sides in order of appearance). Each level's
    panel is a group ``data-level`` with its box in ``data-box`` (a page shows one at a
    time), each dot carries its place (``data-place``)."""
    pad = spacing * 1.2
    width_one = (lat.cols - 0.5) * spacing + 2 * pad
    height_one = (lat.rows - 1) * spacing * _ROOT3 / 2 + 2 * pad
    levels = range(len(lat.level_names))
    title_h = 22.0
    details: dict[str, Any] | None = None
    caption: list[str] = []
    if sight is not None:
        details = {**sight.details, "visible": sight.visible}
        caption = sight.explain().split("\n")[:10]
    side_index = (dict(colours) if colours is not None
                  else side_colours(lat.sides.values()))
    side_index = {t: c for t, c in side_index.items() if t in set(lat.sides.values())}
    body: list[Element] = []
    for i in levels:
        left = i * width_one
        frame = _Frame(left + pad, title_h + pad, spacing)
        name = lat.level_name(i)
        panel = group(data_level=i, data_name=name,
                      data_box=f"{left:.1f} 0 {width_one:.1f} {title_h + height_one:.1f}")
        body.append(panel)
        panel.add(element("text", f"level {i}: {name}", x=left + pad / 2, y=16, font_size=14,
                          font_weight="bold", fill=COLOURS["text"]))
        coordinates = group(id=f"coordinates-{name}", font_size=f"{max(8.0, spacing * 0.3):.1f}",
                            fill=COLOURS["muted"], text_anchor="middle")
        step = 1 if lat.cols <= 20 else 5
        for col in range(0, lat.cols, step):
            x, _ = frame.offset(col, 0)
            coordinates.add(element("text", str(col), x=x, y=title_h + pad * 0.45))
        for row in range(0, lat.rows, step if lat.rows > 20 else 1):
            _, y = frame.offset(0, row)
            coordinates.add(element("text", str(row), x=left + pad * 0.35, y=y + 3))
        panel.add(coordinates)
        panel.extend(_panel(lat, i, frame, details, side_index))
    total_w = width_one * len(levels)
    legend_top = title_h + height_one + 10
    legend, legend_h = _legend(lat, side_index, pad / 2, legend_top,
                               bool(details and details.get("prone")), wrap=width_one)
    body.extend(legend)
    y = legend_top + legend_h + 8
    for text in caption:
        body.append(element("text", text, x=pad / 2, y=y, font_size=12, fill=COLOURS["text"]))
        y += 16
    total_w = max(total_w, *(pad + 7 * len(c) for c in caption)) if caption else total_w
    title = lat.name or f"dots {lat.cols}x{lat.rows}"
    if sight is not None:
        title += f": sight {sight.source} -> {sight.target}"
    return document(total_w, y + 6, body, title=title)
