"""Maps and numbers are bounded before anything is built (docs/limits.md, "Maps").

Each hostile input is refused with one ``error:`` line and exit code 2, and the refusal
happens at validation: the tests count the work done (dots converted, odds worked out), they
never time it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tactica.battlefield.dots.mapfile as dots_map
from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.limits import MAX_DOTS_SIDE, MAX_LEVELS, MAX_ODDS_TABLE
from tactica.engine.scenario import load_scenario
from tactica.engine.validation import parse_yaml
from tactica.rulesets.arc import ARC

SMALL_LATTICE = "A . . . B\n . . . . .\n"
HUGE = 10**18


def skirmish(body: str, lattice: str = SMALL_LATTICE) -> str:
    """A 12-line Skirmishers scenario on a small lattice, with ``body`` added to its map."""
    return ("game: skirmishers\nname: hostile\nmap:\n  kind: dots\n  levels:\n    ground: |\n"
            + "\n".join("      " + line for line in lattice.splitlines()) + "\n" + body
            + "units:\n  A: {side: red, primary: rifle}\n  B: {side: blue, primary: rifle}\n")


HOSTILE_MAPS = {
    "wall along a huge range": skirmish(
        f"  walls:\n    - {{kind: low-wall, along: [[0, 0], [{HUGE}, 0]], side: south}}\n"),
    "wall along a huge column": skirmish(
        f"  walls:\n    - {{kind: wall, along: [[1, 0], [1, {HUGE}]], side: east}}\n"),
    "huge building": skirmish(
        f"  buildings:\n    - {{name: Tower, from: [0, 0], to: [{HUGE}, {HUGE}]}}\n"),
    "building from a negative corner": skirmish(
        f"  buildings:\n    - {{from: [-{HUGE}, -{HUGE}], to: [1, 1]}}\n"),
    "huge floors": skirmish(
        f"  buildings:\n    - {{from: [0, 0], to: [1, 1], floors: {HUGE}}}\n"),
    "1000 x 1000 lattice": skirmish("", "\n".join(
        [" ".join(["A", "B", *["."] * 998])]
        + [(" " if r % 2 else "") + " ".join(["."] * 1000) for r in range(1, 1000)])),
}
SAYS = {
    "wall along a huge range": f"walls[0].along: dot {HUGE},0 is off the 5x2 map",
    "wall along a huge column": f"walls[0].along: dot 1,{HUGE} is off the 5x2 map",
    "huge building": f"buildings[0].to: dot {HUGE},{HUGE} is off the 5x2 map",
    "building from a negative corner": "buildings[0].from: dot",
    "huge floors": f"buildings[0].floors: Input should be less than or equal to {MAX_LEVELS}",
    "1000 x 1000 lattice": f"a dot map has at most {MAX_DOTS_SIDE} x {MAX_DOTS_SIDE}",
}


@pytest.fixture
def dots_converted(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """How many dots the map loader converted to axial coordinates (its unit of work)."""
    calls = [0]
    real = dots_map.offset_to_axial

    def counted(c: int, r: int) -> tuple[int, int]:
        calls[0] += 1
        return real(c, r)

    monkeypatch.setattr(dots_map, "offset_to_axial", counted)
    return lambda: calls[0]


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("error: ") and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("name", HOSTILE_MAPS)
@pytest.mark.parametrize("command", [["validate"], ["map"], ["odds", "--table"],
                                     ["simulate", "--battles", "1", "--workers", "1"]],
                         ids=lambda c: c[0])
def test_a_hostile_map_is_refused_before_it_is_built(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], dots_converted: Callable[[], int],
        name: str, command: list[str]) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE_MAPS[name])
    if command == ["map"]:  # the map alone, as a map file
        data = parse_yaml(HOSTILE_MAPS[name], source="s")["map"]
        path.write_text(json.dumps(data))
    err = refused(capsys, command[0], str(path), *command[1:])
    assert len(err.strip().splitlines()) == 1, err
    assert SAYS[name] in err, err
    # Nothing was expanded: at most the dots of the small lattice were converted.
    assert dots_converted() <= 20


@pytest.mark.parametrize("name", HOSTILE_MAPS)
def test_the_command_line_refuses_a_hostile_map(tmp_path: Path, name: str) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE_MAPS[name])
    # The timeout is a safety net against a hang, not a measure: the refusal is counted above.
    script = "import sys; from tactica.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", script, "validate", str(path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


@pytest.mark.parametrize(("body", "says"), [
    ("  features:\n    - {between: [[4, 1], [5, 1]], kind: low-wall}\n",
     "features[0].between: dot 5,1 is off the 5x2 map (columns 0 to 4, rows 0 to 1)"),
    ("  stairs:\n    - {at: [2, 9]}\n", "stairs[0].at: dot 2,9 is off the 5x2 map"),
    ("  troopers:\n    C: {at: [-1, 0]}\n", "troopers.C.at: dot -1,0 is off the 5x2 map"),
    ("  walls:\n    - {kind: wall, along: [[0, 0], [4, 0]], side: north}\n",
     "walls[0].side: the wall along [[0, 0], [4, 0]] on its north side is on the edge"),
    ("  walls:\n" + "    - {kind: wall, along: [[0, 0], [1, 0]], side: south}\n" * 501,
     "walls: List should have at most 500 items"),
    ("  buildings:\n" + "    - {from: [0, 0], to: [0, 0]}\n" * 101,
     "buildings: List should have at most 100 items"),
])
def test_out_of_map_features_are_errors_naming_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, says: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(skirmish(body))
    assert says in refused(capsys, "validate", str(path))


def test_a_skirmishers_battle_is_bounded_by_its_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [" ".join(["A", "B", *["."] * 58])] + [
        (" " if r % 2 else "") + " ".join(["."] * 60) for r in range(1, 60)]
    path = tmp_path / "s.yaml"
    path.write_text(skirmish("", "\n".join(rows)))
    err = refused(capsys, "validate", str(path))
    assert "a lattice of 60 x 60 dots; Skirmishers is played on at most 50 x 50" in err
    map_file = tmp_path / "m.yaml"
    map_file.write_text(json.dumps(parse_yaml(path.read_text(), source="s")["map"]))
    assert main(["map", str(map_file)]) == 0  # a map of 60 x 60 dots is drawn all the same


def test_a_key_given_twice_is_an_error_naming_the_key_and_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(skirmish("") + "max_rounds: 3\nname: again\n")
    err = refused(capsys, "validate", str(path))
    assert err.strip() == (f"error: {path}: line 13, column 1: duplicate key 'name' (first on "
                           "line 2); give each key once")
    path.write_text(skirmish("").replace("A: {side: red,", "A: {side: red, side: blue,"))
    assert "duplicate key 'side'" in refused(capsys, "validate", str(path))
    # A merge key may be overridden: that is what it is for.
    assert parse_yaml("a: &a {x: 1}\nb: {<<: *a, x: 2}\n", source="s") == {
        "a": {"x": 1}, "b": {"x": 2}}


ARC_UNITS = {"A": {"side": "red", "character": "bobby"},
             "B": {"side": "blue", "character": "dee"}}


@pytest.mark.parametrize(("change", "says"), [
    ({"items": {"medkit": 10**19}}, "units.A.items.medkit: Input should be less than or equal"),
    ({"weapons": [{"name": "r", "damage": "3d6", "spread": 4, "rof": 10**19}]},
     "units.A.weapons[0].rof: Value error, expected a rate of fire of at most 100"),
    ({"weapons": [{"name": "r", "damage": "3d6", "spread": 4, "rof": "1/100000"}]},
     "units.A.weapons[0].rof: Value error, expected a rate of fire of at most 100"),
    ({"weapons": [{"name": "r", "damage": "3d6", "spread": 10**6, "rof": 1}]},
     "units.A.weapons[0].spread: Value error, a spread needs a rank of 1 to 20"),
    ({"weapons": [{"name": "r", "damage": "3d6", "spread": 4, "rof": 1, "capacity": 10**9}]},
     "units.A.weapons[0].capacity: Value error, expected 1 to 1000 rounds"),
    ({"weapons": [{"name": "r", "damage": "3d6", "spread": 4, "rof": 1,
                   "accuracy": [-10**9, 0]}]},
     "units.A.weapons[0].accuracy: Value error, expected accuracy modifiers from -20 to 20"),
    ({"skills": {"guns": 10**9}}, "units.A.skills.guns: Input should be less than or equal"),
    ({"focuses": {"evade": 10**9}}, "units.A.focuses.evade: Input should be less than or equal"),
])
def test_arc_numbers_are_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 change: dict[str, Any], says: str) -> None:
    path = tmp_path / "arc.yaml"
    units = {**ARC_UNITS, "A": {**ARC_UNITS["A"], **change}}
    path.write_text(json.dumps({"game": "arc", "name": "a", "units": units}))
    assert says in refused(capsys, "validate", str(path))


def test_arc_pack_and_range_numbers_are_bounded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pack.yaml").write_text(json.dumps({
        "guns": {"far": {"name": "Far", "damage": "2d6", "spread": 2, "rof": 1,
                         "range": 1e12}},
        "items": {"kit": {"name": "Kit", "cost": [10**9, 0]}}}))
    path = tmp_path / "arc.yaml"
    path.write_text(json.dumps({"game": "arc", "name": "a", "content": ["pack.yaml"],
                                "units": ARC_UNITS}))
    err = refused(capsys, "validate", str(path))
    assert "guns.far.range: Input should be less than or equal to 10000" in err
    assert "items.kit.cost[0]: Input should be less than or equal to 20" in err
    path.write_text(json.dumps({"game": "arc", "name": "a",
                                "ranges": [{"between": ["A", "B"], "metres": 1e12}],
                                "units": ARC_UNITS}))
    assert "ranges[0].metres: Input should be less than or equal to 10000" in refused(
        capsys, "validate", str(path))


@pytest.mark.parametrize(("pack", "says"), [
    ({"kit": {"hand-grenade": 10**9}}, "kit.hand-grenade: expected a number carried (0 to 20)"),
    ({"explosives": {"boom": {"name": "Boom", "rings": [10**9], "ap_per_dot": 1}}},
     "explosives.boom.rings[0]: Input should be less than or equal to 40"),
    ({"weapons": {"gun": {"name": "Gun", "shots": 1, "short": 5, "long": 10,
                          "points": 10**12}}},
     "weapons.gun.points: Input should be less than or equal to 10000"),
])
def test_skirmishers_pack_numbers_are_bounded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pack: dict[str, Any],
        says: str) -> None:
    (tmp_path / "pack.yaml").write_text(json.dumps(pack))
    path = tmp_path / "s.yaml"
    path.write_text(skirmish("") + "content: [pack.yaml]\n")
    assert says in refused(capsys, "validate", str(path))


def test_zone_layout_positions_are_bounded(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "z.yaml"
    path.write_text(json.dumps({"kind": "zones", "areas": ["a", "b"],
                                "layout": {"a": [0, 0], "b": [1e15, 0]}}))
    assert "layout.b[0]: Input should be less than or equal to 1000" in refused(
        capsys, "map", str(path))


def arc_crowd(tmp_path: Path, n: int) -> Path:
    units = {f"u{i}": {"side": "ab"[i % 2], "character": ["ivy", "sam", "bobby", "dee"][i % 4]}
             for i in range(n)}
    path = tmp_path / "crowd.yaml"
    path.write_text(json.dumps({"game": "arc", "name": "crowd", "units": units}))
    return path


def test_odds_table_bounds_its_work_and_says_how_to_narrow_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    worked = [0]
    real = type(ARC).odds

    def counted(self: Any, state: Any, action: Any, **options: Any) -> Any:
        worked[0] += 1
        return real(self, state, action, **options)

    monkeypatch.setattr(type(ARC), "odds", counted)
    path = arc_crowd(tmp_path, 100)
    err = refused(capsys, "odds", str(path), "--table")
    assert f"more than {MAX_ODDS_TABLE}" in err and "--attacker ID" in err and "--target" in err
    assert worked[0] == 0  # refused before any attack was worked out
    assert main(["odds", str(path), "--table", "--attacker", "u0", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["attacker"] for r in rows} == {"u0"} and len(rows) == worked[0] <= MAX_ODDS_TABLE
    assert main(["odds", str(path), "--table", "--target", "u1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and {r["target"] for r in rows} == {"u1"}


def test_the_report_of_a_crowd_leaves_the_odds_table_out(tmp_path: Path) -> None:
    from tactica.analysis.report import scenario_report

    page = scenario_report(load_scenario(arc_crowd(tmp_path, 100)), battles=0, plots=False)
    assert f"more than {MAX_ODDS_TABLE}" in page and "--attacker ID" in page


def test_every_example_still_loads() -> None:
    root = Path(__file__).resolve().parents[2] / "examples"
    for path in sorted(root.glob("*/*.yaml")):
        try:
            load_scenario(path)
        except TacticaError as exc:
            assert "game: field required" in str(exc) or "kind" in str(exc), exc
