"""Pictures of the dot lattice: every level, the features on the cell sides, stairs, troopers by
side with a legend, and the evidence of a sight query. Deterministic text, no browser needed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tactica.battlefield.dots.lattice import DotLattice
from tactica.engine.maps import load_map, to_svg
from tactica.presentation.render.dots_svg import dots_to_svg

EXAMPLES = Path(__file__).parents[2] / "examples" / "skirmishers"
NS = "{http://www.w3.org/2000/svg}"


def ids(svg: str) -> set[str]:
    root = ET.fromstring(svg.split("\n", 1)[1])
    return {el.get("id", "") for el in root.iter()} - {""}


def test_a_two_floor_building_is_drawn_on_two_panels() -> None:
    lat = load_map(EXAMPLES / "street-map.yaml")
    svg = to_svg(lat)
    found = ids(svg)
    for name in ("ground", "first"):
        assert {f"dots-{name}", f"features-{name}", f"stairs-{name}", f"troopers-{name}",
                f"floors-{name}"} <= found
    assert "level 1: first" in svg and "side red" in svg and "side blue" in svg
    for label in ("building wall", "window", "door", "low wall", "fence", "tree trunk"):
        assert label in svg
    assert svg == to_svg(load_map(EXAMPLES / "street-map.yaml"))  # same input, same bytes


def test_a_sight_query_is_drawn_with_its_evidence() -> None:
    lat = load_map(EXAMPLES / "street-map.yaml")
    report = lat.sight_report("Y", "C", prone="C")
    svg = to_svg(lat, sight=report)
    assert {"sight-ground", "sight-first"} <= ids(svg)
    assert "Y -&gt; C: visible" in svg
    assert 'stroke="#2e9e44"' in svg  # the line, green: visible
    assert "<ellipse" in svg  # C drawn prone


def test_a_blocked_line_is_dashed_red() -> None:
    lat = DotLattice.from_text("A . . B", features=[((1, 0), (2, 0), "high-wall")])
    svg = dots_to_svg(lat, sight=lat.sight_report("A", "B"))
    assert 'stroke="#d62728"' in svg and 'stroke-dasharray="7 5"' in svg
    assert "not visible" in svg
