"""Zone maps as text and SVG: pure, complete, and showing the evidence of a sight query."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tactica.battlefield.zones.graph import Connection, ZoneGraph
from tactica.engine.maps import to_svg
from tactica.engine.validation import load_yaml
from tactica.presentation.render.zones_svg import auto_layout, zones_to_svg

NIGHTCLUB = Path(__file__).parents[2] / "examples" / "unhex" / "nightclub.yaml"
SVG = "{http://www.w3.org/2000/svg}"
LAB = 'R&D <Lab "1"'  # needs escaping in XML


@pytest.fixture(scope="module")
def club() -> ZoneGraph:
    return ZoneGraph.from_mapping(load_yaml(NIGHTCLUB), source=str(NIGHTCLUB))


def features() -> ZoneGraph:
    return ZoneGraph(
        areas=("Roof", "Yard", "Office", LAB),
        connections=(
            Connection("Roof", "Yard", "one-way", cover=frozenset({"Yard"})),
            Connection("Yard", "Office", door="closed"),
            Connection("Office", LAB, door="open", cover=frozenset({"Office", LAB})),
            Connection("Roof", LAB, "blocked"),
            Connection("Roof", "Office", "dashed"),
        ),
        name="Warehouse",
    )


def test_preview_lists_areas_connections_and_marks(club: ZoneGraph) -> None:
    text = club.preview()
    assert text.splitlines()[0] == "Nightclub: 8 areas, 10 connections"
    assert "   --|    DJ Booth     move and sight, cover at DJ Booth" in text
    assert "   ..     Dance Floor  sight only" in text
    assert "  |--     Dance Floor  move and sight, cover at Bar" in text  # under Bar
    wh = features().preview()
    assert "   ->|    Yard" in wh and "  |<-     Roof" in wh
    assert "-[]-   Office" in wh and "move and sight, closed door" in wh
    assert "xx" in wh and "X: no sight, no movement" in wh


def test_svg_is_well_formed_pure_and_escapes_names() -> None:
    g = features()
    svg = zones_to_svg(g)
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert LAB in texts and "Warehouse" in texts
    assert svg == to_svg(g)


def test_svg_draws_each_convention() -> None:
    root = ET.fromstring(to_svg(features()))
    lines = list(root.iter(f"{SVG}line"))
    arrows = [ln for ln in lines if ln.get("marker-end") == "url(#arrow)"]
    dashed = [ln for ln in lines if ln.get("stroke-dasharray")]
    bars = [ln for ln in lines if ln.get("stroke-width") == "5"]
    doors = [r for r in root.iter(f"{SVG}rect") if r.get("transform")]
    # The legend draws one sample of each convention too.
    assert len(arrows) == 1 + 1
    assert len(dashed) == 2 + 2  # blocked + dashed, and their legend samples
    assert len(bars) == 3 + 1
    assert sorted(d.get("fill") or "" for d in doors) == sorted(["#222", "#fff", "#222", "#fff"])


def test_sight_paths_are_highlighted(club: ZoneGraph) -> None:
    report = club.sight_report("DJ Booth", "Kitchen")
    root = ET.fromstring(to_svg(club, sight=report))
    paths = list(root.iter(f"{SVG}polyline"))
    assert [p.get("stroke") for p in paths] == ["#2e9e4f", "#d23c3c"]  # clear, blocking
    rings = list(root.iter(f"{SVG}circle"))
    assert len(rings) == 1 + 2  # counted marks on the two paths
    outlined = [r for r in root.iter(f"{SVG}rect") if r.get("stroke-width") == "4"]
    assert len(outlined) == 2
    caption = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "DJ Booth -> Kitchen: not visible; range 3" in caption


def test_a_moving_character_is_a_token_on_its_connection(club: ZoneGraph) -> None:
    svg = to_svg(club, sight=club.sight_report("Entrance", "Catwalk>Dance Floor"))
    assert "target moving between Catwalk and Dance Floor" in svg


def test_auto_layout_is_deterministic_and_complete() -> None:
    g = ZoneGraph(
        areas=("A", "B", "C", "D", "Lonely"),
        connections=(Connection("A", "B"), Connection("A", "C"), Connection("C", "D", "dashed")),
    )
    layout = auto_layout(g)
    assert layout == {
        "A": (0.0, 0.0),
        "B": (1.0, 0.0),
        "C": (1.0, 1.0),
        "D": (2.0, 0.0),
        "Lonely": (3.0, 0.0),
    }
    assert g.positions() == layout
    assert ET.fromstring(to_svg(g)) is not None


def test_the_layout_of_the_file_is_used(club: ZoneGraph) -> None:
    assert club.positions()["Catwalk"] == (1.2, 0.0)
