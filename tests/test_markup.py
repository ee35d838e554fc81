"""The element builder and the text cleaner: what they escape, remove and refuse."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from rich.table import Table
from rich.text import Text

from tactica.presentation.clean import clean_text
from tactica.presentation.render.markup import Element, Trusted
from tactica.presentation.terminal import SafeConsole


@pytest.mark.parametrize(("raw", "clean"), [
    ("a\x1b[2Jb", "ab"),                      # CSI: clear the screen
    ("a\x1b[38;2;1;2;3mb", "ab"),             # CSI with parameters
    ("a\x1b]0;title\x07b", "ab"),             # OSC ended by BEL
    ("a\x1b]8;;http://x\x1b\\b", "ab"),       # OSC ended by ST (a hyperlink)
    ("a\x1bPq#0\x1b\\b", "ab"),               # DCS (sixel)
    ("a\x9b31mb", "ab"),                      # 8-bit CSI
    ("a\x1bcb", "ab"),                        # ESC c: reset the terminal
    ("ab\x1b", "ab"),                         # a lone ESC at the end
    ("a\x00\x08\x7f\x85b\r", "ab"),           # other C0 and C1 controls
    ("a\u202eb\u2066c", "abc"),               # bidirectional overrides
    ("a\ud800b\ufffe", "ab"),                 # code points XML forbids
    ("tab\tand\nline", "tab\tand\nline"),     # kept
    ("Ünïcödé – ok", "Ünïcödé – ok"),        # printable text is untouched
])
def test_clean_text_removes_controls_and_sequences(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


def test_every_text_and_attribute_is_escaped() -> None:
    name = '"><img src=x onerror=alert(1)>\n&\x1b[2J'
    svg = Element("svg", Element("text", name, data_unit=name), Element("g", id=name),
                  xmlns="http://www.w3.org/2000/svg").render()
    root = ET.fromstring(svg)
    text = root[0]
    assert text.text == '"><img src=x onerror=alert(1)>\n&'
    assert text.get("data-unit") == '"><img src=x onerror=alert(1)>\n&'  # newline kept: &#10;
    assert [n.tag.rpartition("}")[2] for n in root.iter()] == ["svg", "text", "g"]


@pytest.mark.parametrize("name", ['x onload="a"', "a>b", "", "1x", "on load"])
def test_tag_and_attribute_names_are_checked(name: str) -> None:
    with pytest.raises(ValueError, match="not a tag or attribute name"):
        Element(name)
    with pytest.raises(ValueError, match="not a tag or attribute name"):
        Element("g", **{name: "1"})


def test_children_are_elements_text_or_trusted_markup() -> None:
    with pytest.raises(TypeError):
        Element("g", 3)  # type: ignore[arg-type]
    page = Element("div", Element("td"), Element("br"),
                   Element("svg", Element("rect")), Trusted("<b>made by a library</b>"))
    assert page.render(html=True) == ("<div><td></td><br><svg>\n<rect/>\n</svg>"
                                      "<b>made by a library</b></div>")


def test_the_console_prints_markup_and_controls_literally() -> None:
    out = io.StringIO()
    console = SafeConsole(file=out, width=200, force_terminal=False)
    table = Table(title="[red]t\x1b[2J")
    table.add_column("name")
    table.add_row("[bold]x[/bold]\x1b]0;pwned\x07 :fire:")
    table.add_row(Text.assemble(("styled\x1b[2J", "bold"), " part"))
    console.print("[blink]hi\x1b[2J", style="bold")
    console.print(table)
    printed = out.getvalue()
    assert "\x1b" not in printed and "\x07" not in printed
    assert "[blink]hi" in printed and "[bold]x[/bold] :fire:" in printed
    assert "[red]t" in printed and "styled part" in printed
