"""Small helpers for writing SVG by hand: escaping, numbers, elements, documents, colours.

Every battlefield picture is built from these, so the pictures share one look and the output is
deterministic text (same input, same bytes), easy to test without a browser.

>>> element("rect", x=1, y=2.5, width=10, height=10, fill=COLOURS["floor"], stroke_width=1)
'<rect x="1" y="2.5" width="10" height="10" fill="#f4f1ea" stroke-width="1"/>'
>>> element("text", "A & B", x=0, y=0, class_="label")
'<text x="0" y="0" class="label">A &amp; B</text>'
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Final

__all__ = [
    "COLOURS",
    "SIDE_COLOURS",
    "document",
    "element",
    "escape",
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


def escape(text: str) -> str:
    """Escape text for SVG element content and attribute values."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def num(value: float | Fraction) -> str:
    """A number as short, deterministic SVG text (at most 3 decimals, no trailing zeros).

    >>> num(3), num(2.50), num(Fraction(1, 3)), num(-0.0)
    ('3', '2.5', '0.333', '0')
    """
    if isinstance(value, int):
        return str(value)
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def element(tag: str, content: str | None = None, /, **attrs: object) -> str:
    """One SVG element. ``stroke_width`` becomes ``stroke-width``, a trailing ``_`` is dropped
    (``class_``), None values are left out; ``content`` is escaped text."""
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        shown = num(value) if isinstance(value, int | float | Fraction) else str(value)
        parts.append(f'{name}="{escape(shown)}"')
    head = " ".join(parts)
    if content is None:
        return f"<{head}/>"
    return f"<{head}>{escape(content)}</{tag}>"


def document(
    width: float, height: float, body: Iterable[str], *, title: str | None = None
) -> str:
    """A complete SVG document of the given pixel size around ``body`` elements."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
        f'viewBox="0 0 {num(width)} {num(height)}" font-family="DejaVu Sans, Arial, sans-serif">',
    ]
    if title:
        lines.append(element("title", title))
    lines.append(element("rect", x=0, y=0, width=width, height=height, fill=COLOURS["background"]))
    lines.extend(body)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
