"""Small helpers for SVG pictures: elements, groups, documents, colours (built on
:mod:`tactica.presentation.render.markup`, which escapes every text and attribute).

Every battlefield picture is built from these, so the pictures share one look and the output is
deterministic text (same input, same bytes), easy to test without a browser.

>>> print(element("rect", x=1, y=2.5, width=10, height=10, fill=COLOURS["floor"], stroke_width=1))
<rect x="1" y="2.5" width="10" height="10" fill="#f4f1ea" stroke-width="1"/>
>>> print(element("text", "A & B", x=0, y=0, class_="label"))
<text x="0" y="0" class="label">A &amp; B</text>
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from tactica.presentation.render.markup import Child, Element, escape, num

__all__ = [
    "COLOURS",
    "SIDE_COLOURS",
    "document",
    "element",
    "escape",
    "group",
    "num",
    "side_colour",
    "side_colours",
]

#: Named colours of the shared palette.
COLOURS: Final = {
    "background": "#ffffff",
    "floor": "#f4f1ea",
    "grid": "#c9c2b3",
    "wall": "#4b4b52",
    "clear": "#2e9e44",
    "blocked": "#d62728",
    "highlight": "#f2a900",
    "text": "#222222",
    "muted": "#6b6b6b",
    "neutral": "#5b6f8a",
}

#: Colours for sides, in order of first appearance (none of them the clear green or blocked red).
SIDE_COLOURS: Final = ("#1f5fb4", "#e07b00", "#7b3fa0", "#00897b", "#8c564b", "#c2185b")


def side_colour(index: int) -> str:
    """The colour of the ``index``-th side (cycling through :data:`SIDE_COLOURS`)."""
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


#: Sides named after a colour are drawn in it (a side called "red" is never blue); these
#: shades stay apart from the clear green and the blocked red of sight lines.
NAMED_SIDE_COLOURS: Final = {
    "red": "#b3261e", "blue": "#1f5fb4", "green": "#2f7d32", "orange": "#e07b00",
    "purple": "#7b3fa0", "yellow": "#b38f00", "black": "#333333", "grey": "#6b6b6b",
    "gray": "#6b6b6b", "brown": "#8c564b", "pink": "#c2185b", "teal": "#00897b",
}


def side_colours(sides: Iterable[str]) -> dict[str, str]:
    """The one colour of every side, in the order given: a side named after a colour gets
    it, the others the palette's colours in turn (skipping those taken by name). Every view
    of a fight (the map, the page's chips and tokens) draws a side with this colour.

    >>> side_colours(["blue", "red"])
    {'blue': '#1f5fb4', 'red': '#b3261e'}
    >>> side_colours(["crew", "club", "blue"])
    {'crew': '#e07b00', 'club': '#7b3fa0', 'blue': '#1f5fb4'}
    """
    order = list(dict.fromkeys(sides))
    out: dict[str, str] = {}
    taken = set()
    for side in order:
        named = NAMED_SIDE_COLOURS.get(side.strip().lower())
        if named is not None and named not in taken:
            out[side] = named
            taken.add(named)
    free = [c for c in SIDE_COLOURS if c not in taken] or list(SIDE_COLOURS)
    k = 0
    for side in order:
        if side not in out:
            out[side] = free[k % len(free)]
            k += 1
    return {side: out[side] for side in order}


def element(tag: str, content: str | None = None, /, **attrs: object) -> Element:
    """One SVG element. ``stroke_width`` becomes ``stroke-width``, a trailing ``_`` is dropped
    (``class_``), None values are left out; ``content`` is text (escaped when written)."""
    return Element(tag, content, **attrs)


def group(children: Iterable[Child | None] = (), /, **attrs: object) -> Element:
    """A ``<g>`` element around ``children``."""
    return Element("g", **attrs).extend(children)


def document(
    width: float, height: float, body: Iterable[Child | None], *, title: str | None = None,
    background: str = COLOURS["background"], declaration: bool = True,
    font_family: str = "DejaVu Sans, Arial, sans-serif", defs: Element | None = None,
) -> str:
    """A complete SVG document of the given pixel size around ``body`` elements."""
    root = Element("svg", xmlns="http://www.w3.org/2000/svg", width=width, height=height,
                   viewBox=f"0 0 {num(width)} {num(height)}", font_family=font_family)
    root.add(Element("title", title) if title else None, defs,
             Element("rect", x=0, y=0, width=width, height=height, fill=background))
    root.extend(body)
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if declaration else ""
    return head + root.render() + "\n"
