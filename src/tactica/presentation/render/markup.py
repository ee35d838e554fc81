"""The one way tactica writes SVG and HTML: a tree of elements whose every text and attribute
value is escaped when the tree is written.

A renderer builds :class:`Element` objects and never joins markup by hand, so a name from a
file (``"><img src=x onerror=...>``) can only ever be text: ``<``, ``>``, ``&`` and ``"`` are
escaped, control characters and terminal escape sequences are removed
(:func:`tactica.presentation.clean. clean_text`), and tag and attribute names are checked against a
strict pattern. The only markup inserted as it is comes from :class:`Trusted`, kept for the SVG text
of matplotlib's own writer, which escapes what it writes.

Keyword attributes: ``stroke_width`` is written ``stroke-width``, a trailing ``_`` is dropped
(``class_``), ``None`` leaves the attribute out, numbers are written short (:func:`num`).

>>> svg = Element("svg", Element("text", 'A & "B"', x=1.5, class_="label"),
...               Element("g", Element("rect", width=2), id="a<b"))
>>> print(svg.render())
<svg>
<text x="1.5" class="label">A &amp; &quot;B&quot;</text>
<g id="a&lt;b">
<rect width="2"/>
</g>
</svg>
>>> Element("td").render(html=True), Element("meta", charset="utf-8").render(html=True)
('<td></td>', '<meta charset="utf-8">')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Union

from tactica.presentation.clean import clean_text

__all__ = ["Child", "Element", "Trusted", "escape", "num"]

_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*\Z")
#: HTML elements that have no end tag.
_VOID: Final = frozenset({"br", "hr", "img", "input", "link", "meta"})
#: Elements whose element children are written one per line (readable, diffable SVG).
_BLOCK: Final = frozenset({"svg", "g", "defs"})
_ATTR_ESCAPES: Final = {"\n": "&#10;", "\t": "&#9;"}


@dataclass(frozen=True, slots=True)
class Trusted:
    """Markup written by a trusted producer, inserted as it is (matplotlib's SVG)."""

    text: str


Child = Union["Element", Trusted, str]


def escape(text: str) -> str:
    """Text made safe for element content and attribute values (controls removed, ``& < > "``
    escaped)."""
    return (
        clean_text(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _attribute(text: str) -> str:
    out = escape(text)
    for raw, ref in _ATTR_ESCAPES.items():
        out = out.replace(raw, ref)
    return out


def num(value: float | Fraction) -> str:
    """A number as short, deterministic text (at most 3 decimals, no trailing zeros).

    >>> num(3), num(2.50), num(Fraction(1, 3)), num(-0.0)
    ('3', '2.5', '0.333', '0')
    """
    if isinstance(value, int):
        return str(value)
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _name(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"not a tag or attribute name: {name!r}")
    return name


class Element:
    """One element: a tag, attributes and children (text, elements, trusted markup)."""

    __slots__ = ("attrs", "children", "tag")

    def __init__(self, tag: str, *children: Child | None, **attrs: object) -> None:
        self.tag = _name(tag)
        self.attrs: dict[str, str] = {}
        self.children: list[Child] = []
        self.set(**attrs)
        self.add(*children)

    def set(self, **attrs: object) -> Element:
        """Set attributes (keyword rules as in the module's docstring); returns ``self``."""
        for key, value in attrs.items():
            name = _name(key.rstrip("_").replace("_", "-"))
            if value is None:
                self.attrs.pop(name, None)
            elif isinstance(value, bool):
                self.attrs[name] = "true" if value else "false"
            elif isinstance(value, int | float | Fraction):
                self.attrs[name] = num(value)
            else:
                self.attrs[name] = str(value)
        return self

    def add(self, *children: Child | None) -> Element:
        """Append children (``None`` and empty text are skipped); returns ``self``."""
        for child in children:
            if child is None or child == "":
                continue
            if not isinstance(child, Element | Trusted | str):
                raise TypeError(f"not an element child: {type(child).__name__}")
            self.children.append(child)
        return self

    def extend(self, children: Iterable[Child | None]) -> Element:
        """Append every child of ``children``; returns ``self``."""
        return self.add(*children)

    def render(self, *, html: bool = False) -> str:
        """The element as text: XML (SVG) by default; with ``html=True`` void elements have no
        end tag and other empty ones an explicit one (an ``svg`` inside is still XML)."""
        out: list[str] = []
        self._write(out, html)
        return "".join(out)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Element({self.tag!r}, {len(self.children)} children)"

    def _write(self, out: list[str], html: bool) -> None:
        out.append("<" + self.tag)
        for name, value in self.attrs.items():
            out.append(f' {name}="{_attribute(value)}"')
        if html and self.tag == "svg":
            html = False
        if not self.children:
            if html:
                out.append(">" if self.tag in _VOID else f"></{self.tag}>")
            else:
                out.append("/>")
            return
        if html and self.tag in _VOID:
            raise ValueError(f"<{self.tag}> cannot have children in HTML")
        out.append(">")
        block = not html and self.tag in _BLOCK and all(
            isinstance(c, Element) for c in self.children)
        for child in self.children:
            if block:
                out.append("\n")
            if isinstance(child, Element):
                child._write(out, html)
            elif isinstance(child, Trusted):
                out.append(child.text)
            else:
                out.append(escape(child))
        if block:
            out.append("\n")
        out.append(f"</{self.tag}>")
