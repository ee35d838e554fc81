"""Hostile or huge inputs get one clear error, with bounded output (docs/limits.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tactica.cli import main
from tactica.engine.errors import ScenarioError
from tactica.engine.limits import (
    CONTENT_PATH_ENV,
    MAX_ERROR_LINES,
    MAX_GRID_SIDE,
    MAX_YAML_DEPTH,
)
from tactica.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples" / "nebulia" / "duel.yaml"
COMMANDS = (["validate"], ["odds", "--table"], ["simulate", "--battles", "2", "--workers", "1"])


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run a command that must refuse its input: exit 2, ``error: ...``, no traceback,
    bounded output. (How much work the refusal takes is bounded by the checks that come before
    anything is built; see tests/engine/test_map_bounds.py. No test here measures time.)"""
    code, out, err = run(capsys, *args)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and "Traceback" not in err
    assert len(err.splitlines()) <= MAX_ERROR_LINES + 1 and len(err) < 20_000
    return err


def duel_with(tmp_path: Path, extra: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(DUEL.read_text() + extra)
    return path


# -- 6: deep nesting ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_deep_nesting_in_any_field_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              command: list[str]) -> None:
    deep = "[" * 490 + "]" * 490
    text = DUEL.read_text()
    for changed in (text + f"\ndescription: {deep}\n",
                    text.replace("rulings: {NEB-3: chebyshev}", f"rulings: {{NEB-3: {deep}}}"),
                    text.replace("weapons: [rifle]", f"weapons: [rifle, {deep}]")):
        path = tmp_path / "s.yaml"
        path.write_text(changed)
        err = refused(capsys, command[0], str(path), *command[1:])
        assert f"nested more than {MAX_YAML_DEPTH} levels deep" in err
        with pytest.raises(ScenarioError, match="nested more than"):
            load_scenario(path)


# -- 7: alias bombs, many keys, long errors ----------------------------------------------------


def _bomb(levels: int) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghijk"[: levels - 1]:
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [8, 9])
def test_an_alias_bomb_is_refused_before_it_is_expanded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], levels: int) -> None:
    path = duel_with(tmp_path, _bomb(levels))
    err = refused(capsys, "validate", str(path))
    assert "aliases counted as many times as they repeat" in err


def test_many_unknown_keys_are_counted_not_all_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = duel_with(tmp_path, "".join(f"k{i}: 1\n" for i in range(200_000)))
    refused(capsys, "validate", str(path))
    path = duel_with(tmp_path, "".join(f"k{i}: 1\n" for i in range(20_000)))
    err = refused(capsys, "validate", str(path))
    assert "k0: unknown field" in err and "more problem(s)" in err


def test_a_huge_grid_error_is_short(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("game: nebulia-operations\nmap: {kind: grid, tiles: '" + "A" * 100_000
                    + "'}\nunits: {}\n")
    err = refused(capsys, "validate", str(path))
    assert f"a grid map has at most {MAX_GRID_SIDE} x {MAX_GRID_SIDE}" in err
    path.write_text("game: nebulia-operations\nmap: {kind: grid, tiles: '"
                    + "A" * MAX_GRID_SIDE + "'}\nunits: {}\n")
    err = refused(capsys, "validate", str(path))
    assert "more problem(s)" in err


# -- 8: numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["max_rounds: {n}\n", "seed: {n}\n"])
def test_a_number_of_4301_digits_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            where: str) -> None:
    path = duel_with(tmp_path, "\n" + where.format(n="9" * 4301))
    err = refused(capsys, "validate", str(path))
    assert "a number of 4301 digits (at most 20)" in err
    stat = tmp_path / "stat.yaml"
    stat.write_text(DUEL.read_text().replace("defense: 1,", f"defense: {'9' * 4301},"))
    assert "a number of 4301 digits" in refused(capsys, "odds", str(stat), "--table")


@pytest.mark.parametrize(("text", "says"), [
    ("max_rounds: 1000000\n", "max_rounds: expected a whole number from 1 to 1000"),
    ("seed: -1\n", "seed: expected a whole number from 0 to"),
    ("seed: 99999999999999999999\n", "seed: expected a whole number from 0 to"),
])
def test_numbers_are_bounded_to_what_the_game_allows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str) -> None:
    assert says in refused(capsys, "validate", str(duel_with(tmp_path, "\n" + text)))


def test_last_odyssey_pack_numbers_are_bounded(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pack.yaml").write_text(json.dumps({
        "abilities": {"big": {"name": "Big", "type": "melee", "attack": "physical",
                              "multiplier": "1e999"}},
        "enemies": {"giant": {"name": "Giant", "kind": "x", "rank": "normal",
                              "element": "earth", "hp": 10**12, "shell": 0, "mp": 0,
                              "init": 1, "patk": 1, "matk": 1, "pdef": 1, "mdef": 1, "eva": 1,
                              "res": 1, "pacc": 1, "macc": 1, "sacc": 1,
                              "abilities": ["big"]}}}))
    path = tmp_path / "s.yaml"
    path.write_text("game: last-odyssey\ncontent: [pack.yaml]\nmap: {kind: rows, sides: "
                    "{a: {front: [G]}, b: {front: [C]}}}\nunits: {G: {enemy: giant}, "
                    "C: {enemy: cop, hp: 123456789}}\n")
    err = refused(capsys, "validate", str(path))
    assert "abilities.big.multiplier" in err and "enemies.giant.hp" in err
    assert "units.C.hp" in err


# -- 9: paths -----------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["/dev/zero", "/dev/urandom", "/etc/shadow", "../pack.yaml"])
def test_content_paths_stay_under_the_scenario_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (tmp_path / "pack.yaml").write_text("weapons: {}\n")
    path = duel_with(folder, f"\ncontent: [{where}]\n")
    err = refused(capsys, "validate", str(path))
    assert "outside the scenario's folder" in err and CONTENT_PATH_ENV in err
    assert "root:" not in err


def test_more_content_folders_are_allowed_by_the_user(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "pack.yaml").write_text("weapons: {}\n")
    path = duel_with(folder, "\ncontent: [../packs/pack.yaml]\n")
    refused(capsys, "validate", str(path))
    monkeypatch.setenv(CONTENT_PATH_ENV, str(packs))
    code, _, err = run(capsys, "validate", str(path))
    assert code == 0, err


def test_only_regular_files_of_bounded_size_are_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONTENT_PATH_ENV, "/dev")
    path = duel_with(tmp_path, "\ncontent: [/dev/zero]\n")
    assert "not a regular file" in refused(capsys, "validate", str(path))
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(3 * 1024 * 1024)
    assert "more than a YAML file may hold" in refused(capsys, "validate", str(big))
    assert "not a regular file" in refused(capsys, "validate", "/dev/urandom")


def test_a_log_header_naming_a_device_is_refused(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "fight.jsonl"
    header = {"type": "tactica-log", "version": 1, "game": "nebulia-operations",
              "scenario": "/dev/zero", "digest": "0", "rulings": {}, "seed": 1,
              "computer": {}}
    log.write_text(json.dumps(header) + "\n")
    err = refused(capsys, "play", "--resume", str(log), "--accept-old-log")
    assert "not a regular file" in err
    header["scenario"] = str(Path(os.path.relpath("/etc/shadow", tmp_path)))
    log.write_text(json.dumps(header) + "\n")
    err = refused(capsys, "play", "--resume", str(log), "--accept-old-log")
    assert "root:" not in err


# -- 10: scale -------------------------------------------------------------------------------


def test_too_large_battles_are_refused_quickly(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "grid.yaml"
    rows = ["A" + "." * 499, *(["." * 500] * 498), "." * 499 + "B"]
    grid.write_text("game: nebulia-operations\nmap:\n  kind: grid\n  tiles: |\n"
                    + "".join(f"    {r}\n" for r in rows)
                    + "units: {A: {side: red, profile: trooper}, "
                      "B: {side: blue, profile: trooper}}\n")
    assert "a grid map has at most" in refused(capsys, "simulate", str(grid))
    rows = ["A" + "." * 69, *(["." * 70] * 68), "." * 69 + "B"]
    grid.write_text(grid.read_text().split("map:")[0] + "map:\n  kind: grid\n  tiles: |\n"
                    + "".join(f"    {r}\n" for r in rows)
                    + "units: {A: {side: red, profile: trooper}, "
                      "B: {side: blue, profile: trooper}}\n")
    assert "Nebulia Operations is played on at most 64 x 64" in refused(
        capsys, "odds", str(grid), "--table")
    areas = [f"a{i}" for i in range(500)]
    zones = tmp_path / "zones.yaml"
    zones.write_text(json.dumps({
        "game": "unhex", "map": {"kind": "zones", "areas": areas, "connections": [
            {"between": [areas[i], areas[i + 1]]} for i in range(499)]},
        "units": {f"u{i}": {"side": "ab"[i % 2], "at": areas[i]} for i in range(200)}}))
    err = refused(capsys, "simulate", str(zones))
    assert "at most 200 items" in err and "a scenario holds at most 100" in err
    names = [f"u{i}" for i in range(200)]
    rows_file = tmp_path / "rows.yaml"
    rows_file.write_text(json.dumps({
        "game": "last-odyssey",
        "map": {"kind": "rows", "sides": {"a": {"front": names[:100]},
                                          "b": {"front": names[100:]}}},
        "units": {n: {"enemy": "cop"} for n in names}}))
    assert "a scenario holds at most 100" in refused(capsys, "odds", str(rows_file), "--table")
    rows_file.write_text(json.dumps({
        "game": "last-odyssey",
        "map": {"kind": "rows", "sides": {"a": {"front": names[:20]},
                                          "b": {"front": names[20:40]}}},
        "units": {n: {"enemy": "cop"} for n in names[:40]}}))
    assert "a Last Odyssey battle has at most 30" in refused(capsys, "odds", str(rows_file),
                                                             "--table")


# -- 11: one validation for every command ------------------------------------------------------


def test_what_validate_passes_every_command_accepts(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("game: nebulia-operations\nmap: {kind: grid, tiles: \"....\\n....\"}\n"
                    "units:\n  u0: {side: red, profile: trooper, at: [0, 0]}\n"
                    "  u1: {side: blue, profile: trooper, at: [3, 1]}\n")
    for command in COMMANDS:
        err = refused(capsys, command[0], str(path), *command[1:])
        assert f"{path}: units.u0: on a grid map a unit's id is one letter or digit" in err
        assert "units.u1" in err


# -- 18: every problem, each correctly ---------------------------------------------------------


@pytest.mark.parametrize(("text", "lines"), [
    ("game: nebulia-operations\nmap: {kind: grid, tiles: 'A...B'}\n"
     "units:\n  A: {side: red, profile: trooper, armor: lots}\n",
     ["units: at least two units are needed (one on each side), got 1",
      "units.A.armor: Input should be a valid integer",
      "map.tiles: occupant 'B' has no entry in units"]),
    ("game: unhex\nmap: {kind: zones, areas: [Bar, Kitchen], connections: "
     "[{between: [Bar, Kitchen]}]}\nunits:\n  A: {side: crew, at: Bar, level: 500}\n",
     ["units: at least 2 characters are needed (on two sides), got 1",
      "units.A.level: Input should be less than or equal to 99"]),
    ("game: last-odyssey\nmap: {kind: rows, sides: {party: {front: [Rook]}, foes: "
     "{front: [Cop]}}}\nunits:\n  Rook: {character: rook, hp: many}\n",
     ["units: at least 2 characters are needed (on two sides), got 1",
      "units.Rook.hp: Input should be a valid integer",
      "map.sides: 'Cop' has no entry in units"]),
], ids=["nebulia", "unhex", "last-odyssey"])
def test_a_bad_unit_and_a_missing_one_are_both_reported_correctly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
        lines: list[str]) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    err = refused(capsys, "validate", str(path))
    got = [line.removeprefix("error: ").removeprefix(f"{path}: ") for line in err.splitlines()]
    assert len(got) == len(lines), got
    for want, line in zip(lines, got, strict=True):
        assert line.startswith(want), (want, got)
    assert "'A' has no entry" not in err and "'Rook' has no entry" not in err
