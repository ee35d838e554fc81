"""The tile grid's SVG picture: well-formed, deterministic, with the sight evidence drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tactica.battlefield.grid.tiles import TileGrid
from tactica.engine.maps import to_svg
from tactica.presentation.render.svg import COLOURS, document, element, escape, num

NS = {"s": "http://www.w3.org/2000/svg"}
GRID = TileGrid.from_text("""
    A......
    ...#..B
""", name="Half cover", sides={"A": "red", "B": "blue"})


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def test_map_picture_has_tiles_walls_and_occupants() -> None:
    root = parse(to_svg(GRID))
    tiles = root.findall("s:g[@id='tiles']/s:rect", NS)
    assert len(tiles) == 14
    assert sum(r.get("fill") == COLOURS["wall"] for r in tiles) == 1
    labels = [t.text for t in root.findall("s:g[@id='occupants']/s:text", NS)]
    assert labels == ["A", "B"]
    assert root.find("s:title", NS).text == "Half cover"  # type: ignore[union-attr]
    assert root.find("s:g[@id='sight-lines']", NS) is None


def test_sight_picture_draws_four_coloured_lines_and_blockers() -> None:
    report = GRID.sight_report("A", "B")
    svg = to_svg(GRID, sight=report)
    root = parse(svg)
    lines = root.findall("s:g[@id='sight-lines']/s:line", NS)
    assert [ln.get("stroke") for ln in lines] == [COLOURS["clear"]] * 2 + [COLOURS["blocked"]] * 2
    # Bottom-right line from corner (1,1) to (7,2), at 32 px per tile and a 24 px margin.
    assert (lines[2].get("x1"), lines[2].get("y1"), lines[2].get("x2"), lines[2].get("y2")) == (
        "56", "56", "248", "88")
    assert lines[2].get("stroke-dasharray") == "6 4"
    marks = root.findall("s:g[@id='highlights']/s:rect", NS)
    assert [m.get("stroke") for m in marks] == [COLOURS["highlight"]] * 2 + [COLOURS["blocked"]]
    assert "A -&gt; B: visible, in cover" in svg
    assert svg == to_svg(GRID, sight=report)  # deterministic


def test_svg_helpers() -> None:
    assert escape('<a & "b">') == "&lt;a &amp; &quot;b&quot;&gt;"
    assert num(0.1 + 0.2) == "0.3" and num(7) == "7"
    assert str(element("line", x1=0, stroke_dasharray=None)) == '<line x1="0"/>'
    doc = document(10, 20, [element("circle", r=1)], title="t<")
    root = parse(doc)
    assert root.get("width") == "10" and root.find("s:title", NS).text == "t<"  # type: ignore[union-attr]
