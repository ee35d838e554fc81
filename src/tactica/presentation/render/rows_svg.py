"""Rows battlefields to SVG: two columns per side, the front rows nearest the centre.

With two sides the picture reads *back, front | front, back*. With more, the first half of the
sides stand left of the centre line and the others right of it. Front rows are shaded; an
empty front row is a dashed placeholder (in games with advancing, that side may be advanced
on). Given a
:class:`~tactica.battlefield.base.SightReport`, the attacker and target are outlined, joined
by a line; the caption says whether melee is possible when the game's report says so.

>>> from tactica.battlefield.rows import Rows, Side
>>> svg = rows_to_svg(Rows((Side("party", ("Ada",)), Side("foes", (), ("Cop",)))))
>>> svg.startswith("<svg") and "Ada</text>" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping

from tactica.battlefield.base import SightReport
from tactica.battlefield.rows import Row, Rows, Side
from tactica.presentation.render.markup import Element
from tactica.presentation.render.svg import document, side_colours

__all__ = ["rows_to_svg"]

_MARGIN = 40.0
_BOX_H = 32.0
_GAP = 10.0
_COL_GAP = 16.0
_SIDE_GAP = 56.0
_TOP = 110.0
_INK = "#222"
_FRONT_FILL = "#fdf0dc"
_SOURCE = "#2a6fdb"
_TARGET = "#e08a00"


def _f(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _col_width(names: tuple[str, ...]) -> float:
    return max([130.0, *(8.6 * len(n) + 24.0 for n in names)])


def _columns(rows: Rows) -> list[tuple[Side, Row]]:
    """Left to right: (side, row) for every column."""
    half = (len(rows.sides) + 1) // 2
    cols: list[tuple[Side, Row]] = []
    for i, side in enumerate(rows.sides):
        order: tuple[Row, Row] = ("back", "front") if i < half else ("front", "back")
        cols.extend((side, row) for row in order)
    return cols


def rows_to_svg(rows: Rows, *, sight: SightReport | None = None,
                colours: Mapping[str, str] | None = None) -> str:
    """The rows as one SVG document (a string): each row a ``data-place`` (``side:row``),
    each name marked with its side's colour (``colours``, by default :func:`side_colours`
    of the sides in order)."""
    palette = dict(colours) if colours is not None else side_colours(s.name for s in rows.sides)
    cols = _columns(rows)
    half = (len(rows.sides) + 1) // 2
    x = _MARGIN
    col_x: list[tuple[float, float]] = []
    centre_x = 0.0
    for i, (side, row) in enumerate(cols):
        w = _col_width(side.row(row))
        col_x.append((x, w))
        x += w
        if i % 2 == 1:
            if (i + 1) // 2 == half:
                centre_x = x + _SIDE_GAP / 2
            x += _SIDE_GAP
        else:
            x += _COL_GAP
    width = max(x - _SIDE_GAP + _MARGIN, 480.0)
    tallest = max(max(len(s.front), len(s.back), 1) for s in rows.sides)
    bottom = _TOP + tallest * (_BOX_H + _GAP)
    height = bottom + (90.0 if sight is not None else 30.0)

    parts: list[Element] = [
        Element("text", rows.name or "Rows", x=_f(_MARGIN), y=_f(_MARGIN), font_size=20,
                font_weight="bold", fill=_INK),
        Element("line", x1=_f(centre_x), y1=_f(_TOP - 40), x2=_f(centre_x), y2=_f(bottom),
                stroke="#999", stroke_width=1.5, stroke_dasharray="6 6"),
    ]
    for i in range(0, len(cols), 2):
        side = cols[i][0]
        left = col_x[i][0]
        right = col_x[i + 1][0] + col_x[i + 1][1]
        parts.append(Element("text", side.name, x=_f((left + right) / 2), y=_f(_TOP - 44),
                             font_size=16, font_weight="bold", text_anchor="middle", fill=_INK))
    boxes: list[Element] = []
    centres: dict[str, tuple[float, float, float]] = {}
    for (side, row), (cx, w) in zip(cols, col_x, strict=True):
        parts.append(Element("text", f"{row} row", x=_f(cx + w / 2), y=_f(_TOP - 16),
                             font_size=12, text_anchor="middle", fill="#666"))
        names = side.row(row)
        parts.append(Element("rect", x=_f(cx - 4), y=_f(_TOP - 6), width=_f(w + 8),
                             height=_f(bottom - _TOP + 6), rx=8, fill="#000000",
                             fill_opacity=0, data_place=f"{side.name}:{row}"))
        if not names and row == "front":
            parts.append(Element(
                "rect", Element("title", "nobody in front: this side may be advanced on"),
                x=_f(cx), y=_f(_TOP), width=_f(w), height=_f(_BOX_H), rx=6, fill="none",
                stroke="#999", stroke_dasharray="5 4"))
            parts.append(Element("text", "empty", x=_f(cx + w / 2), y=_f(_TOP + 20),
                                 font_size=12, text_anchor="middle", fill="#888"))
        for k, name in enumerate(names):
            y = _TOP + k * (_BOX_H + _GAP)
            centres[name] = (cx, y, w)
            boxes.extend(_box(name, cx, y, w, row, sight, palette.get(side.name, "#5b6f8a")))
    if sight is not None:
        parts.extend(_sight_overlay(sight, centres, height))
    parts.extend(boxes)
    return document(float(_f(width)), float(_f(height)), parts, background="#fbfaf6",
                    declaration=False, font_family="sans-serif")


def _box(name: str, x: float, y: float, w: float, row: Row,
         sight: SightReport | None, colour: str) -> list[Element]:
    stroke, sw = _INK, "1.5"
    if sight is not None and name in (sight.source, sight.target):
        stroke, sw = (_SOURCE if name == sight.source else _TARGET), "4"
    fill = _FRONT_FILL if row == "front" else "#fff"
    return [
        Element("rect", x=_f(x), y=_f(y), width=_f(w), height=_f(_BOX_H), rx=6, fill=fill,
                stroke=stroke, stroke_width=sw, data_unit=name),
        Element("text", name, x=_f(x + w / 2), y=_f(y + 21), font_size=14,
                text_anchor="middle", fill=_INK, data_unit=name),
        Element("circle", cx=_f(x + 11), cy=_f(y + _BOX_H / 2), r=6, fill=colour,
                stroke="#ffffff", stroke_width=1, data_unit=name),
    ]


def _sight_overlay(
    sight: SightReport, centres: Mapping[str, tuple[float, float, float]], height: float
) -> list[Element]:
    out: list[Element] = []
    a, b = centres.get(sight.source), centres.get(sight.target)
    melee = sight.details.get("melee", {})
    possible = bool(melee.get("possible")) if isinstance(melee, Mapping) else False
    if a is not None and b is not None and sight.source != sight.target:
        ax, bx = a[0] + a[2] / 2, b[0] + b[2] / 2
        ay, by = a[1] + _BOX_H / 2, b[1] + _BOX_H / 2
        colour = "#2e9e4f" if possible else "#7a7a7a"
        out.append(Element(
            "path", d=f"M{_f(ax)},{_f(ay)} Q{_f((ax + bx) / 2)},{_f(max(ay, by) + 50)} "
            f"{_f(bx)},{_f(by)}", fill="none", stroke=colour, stroke_width=3,
            stroke_opacity=0.9, stroke_dasharray=None if possible else "7 5"))
    verdict = ""
    if isinstance(melee, Mapping) and melee:
        verdict = ("melee possible" if possible else "ranged only (no melee)") + "; "
    out.append(Element("text", f"{sight.source} -> {sight.target}: {verdict}row distance "
                               f"{sight.distance}", x=_f(_MARGIN), y=_f(height - 28),
                       font_size=14, fill=_INK))
    return out
