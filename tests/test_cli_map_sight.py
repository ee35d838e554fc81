"""``tactica map`` and ``tactica sight`` on every map kind, through tactica.cli.main."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tactica.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"
CORRIDOR = str(EXAMPLES / "nebulia" / "corridor.yaml")
NIGHTCLUB = str(EXAMPLES / "unhex" / "nightclub.yaml")
STREET = str(EXAMPLES / "last-odyssey" / "street-fight.yaml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_map_prints_a_preview(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", CORRIDOR)
    assert code == 0
    assert out.startswith("Corridor and crates: grid 16x7, 5 occupants")
    assert "1 A..............B" in out


@pytest.mark.parametrize("path", [CORRIDOR, NIGHTCLUB, STREET])
def test_map_writes_svg_for_every_kind(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: str
) -> None:
    out_file = tmp_path / "map.svg"
    code, out, err = run(capsys, "map", path, "--svg", str(out_file))
    assert code == 0 and out == ""
    assert f"wrote {out_file}" in err
    root = ET.fromstring(out_file.read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_map_of_a_scenario_uses_its_map(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", str(EXAMPLES / "nebulia" / "duel.yaml"))
    assert code == 0 and "grid" in out


def test_map_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: grid\ntiles: |\n  A..\n  .?\n", encoding="utf-8")
    code, out, err = run(capsys, "map", str(bad))
    assert code == 2 and out == ""
    assert f"error: {bad}: tiles: row 2 has 2 tiles" in err
    assert "row 2, column 2 (tile 1,1): unknown character '?'" in err
    code, _, err = run(capsys, "map", str(tmp_path / "missing.yaml"))
    assert code == 2 and "no such file" in err


def test_sight_explains(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sight", CORRIDOR, "E", "D")
    assert code == 0
    assert out.startswith("E -> D: visible, in cover")
    assert "top-left     2,6 -> 10,5: blocked by terrain at 5,5" in out


def test_sight_json_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sight", CORRIDOR, "E", "D", "--json", "--policy", "touch",
                       "--metric", "manhattan", "-o", "blockers=foes")
    assert code == 0
    data = json.loads(out)
    assert (data["from"], data["to"], data["policy"], data["metric"], data["blockers"]) == (
        "E", "D", "touch", "manhattan", "foes")
    assert data["distance"] == 9
    assert data["lines"][0]["blocked_by"] == [[5, 5], [9, 4]]


def test_sight_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "sight.svg"
    code, out, _ = run(capsys, "sight", CORRIDOR, "E", "D", "--svg", str(out_file))
    assert code == 0 and out.startswith("E -> D")
    assert 'id="sight-lines"' in out_file.read_text(encoding="utf-8")


def test_sight_on_a_zone_graph(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sight", NIGHTCLUB, "DJ Booth", "Bar")
    assert code == 0 and out.startswith("DJ Booth -> Bar:")
    code, out, _ = run(capsys, "sight", NIGHTCLUB, "DJ Booth", "Bar", "--json")
    assert code == 0 and json.loads(out)["from"] == "DJ Booth"


def test_grid_options_are_refused_by_other_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sight", NIGHTCLUB, "DJ Booth", "Bar", "--policy", "inset")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and "policy" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "strict"], "policy: expected one of inset, touch, interior, got 'strict'"),
        (["--metric", "taxi"], "metric: expected one of chebyshev, manhattan, euclidean"),
        (["-o", "range=5"], "unknown sight option 'range' for a grid map"),
        (["-o", "blockers"], "--option: expected KEY=VALUE"),
        (["--policy", "touch", "-o", "policy=inset"], "contradicts --option policy=inset"),
    ],
)
def test_sight_option_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, "sight", CORRIDOR, "E", "D", *args)
    assert code == 2
    assert message in err


def test_sight_unknown_occupant(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sight", CORRIDOR, "E", "Q")
    assert code == 2
    assert "no occupant 'Q' on the map (occupants: A, B, C, D, E)" in err


def test_sight_says_when_unhex_sight_is_symmetric_by_ruling_or_literal(
        capsys: pytest.CaptureFixture[str]) -> None:
    club = str(EXAMPLES / "unhex" / "nightclub-fight.yaml")
    code, out, _ = run(capsys, "sight", club, "Vince", "Kitchen")
    assert code == 0 and out.startswith("Vince -> Kitchen: visible, in cover")
    assert "one-way by the literal count" in out and "symmetric by ruling" in out
    assert "UNH-28 (one-way sight) is either" in out
    code, out, _ = run(capsys, "sight", club, "Vince", "Kitchen", "-r", "UNH-28=literal")
    assert code == 0 and out.startswith("Vince -> Kitchen: not visible")
    assert "UNH-28 (one-way sight) is literal" in out
    code, out, _ = run(capsys, "sight", NIGHTCLUB, "Dance Floor",
                       "Kitchen", "-o", "symmetry=literal")
    assert "not visible" in out and "symmetry=literal" in out
