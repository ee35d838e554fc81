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
