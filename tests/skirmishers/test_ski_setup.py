"""Scenarios and content packs: every problem named with its file and field, never a
traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from ski_builders import scenario, trooper

from tactica.cli import main
from tactica.engine.errors import ScenarioError

ROW = "A . . B\n . . . ."


def problems(units: dict[str, dict[str, object]], **extra: object) -> str:
    with pytest.raises(ScenarioError) as info:
        scenario(ROW, units, **extra)  # type: ignore[arg-type]
    return str(info.value)


def test_an_unknown_weapon_names_the_field_and_the_known_ones() -> None:
    text = problems({"A": trooper("red", "bazooka"), "B": trooper("blue")})
    assert "test.yaml: units.A.primary: unknown firearm 'bazooka'" in text and "rifle" in text
    text = problems({"A": trooper("red", secondary="lance"), "B": trooper("blue")})
    assert "units.A.secondary" in text
    text = problems({"A": trooper("red", melee=["spork"]), "B": trooper("blue")})
    assert "units.A.melee[0]: unknown melee weapon 'spork'" in text


def test_unknown_armor_experience_and_bad_marks() -> None:
    text = problems({"A": trooper("red", armor="plate", experience="god"),
                     "B": trooper("blue", marks="XX")})
    assert "units.A.armor: unknown armor 'plate'" in text
    assert "units.A.experience: unknown experience 'god'" in text
    assert "units.B.marks" in text


def test_a_trooper_off_the_map_or_on_a_taken_dot() -> None:
    text = problems({"A": trooper("red"), "B": trooper("blue"), "C": trooper("blue")})
    assert "units.C: not on the map" in text
    text = problems({"A": trooper("red"), "B": trooper("blue", at=[0, 0])})
    assert "units.B: shares dot 0,0 with A" in text
    text = problems({"A": trooper("red"), "B": trooper("blue", at=[9, 9])})
    assert "units.B.at:" in text


def test_scenario_fields_optional_rules_first_side_and_arcs() -> None:
    units = {"A": trooper("red"), "B": trooper("blue")}
    assert "optional[0]" in problems(units, optional=["fog-of-war"])
    assert "first: 'green' is not a side" in problems(units, first="green")
    arc = {"A": trooper("red") | {"arc": {"width": 60}}, "B": trooper("blue")}
    assert "units.A.arc: give either bearing" in problems(arc)
    arc = {"A": trooper("red") | {"arc": {"width": 45, "bearing": 0}}, "B": trooper("blue")}
    assert "units.A.arc.width" in problems(arc)
    assert "squads.red.leader" in problems(units, squads={"red": {"leader": "B"}})


def test_a_bad_content_pack_names_its_file_and_field(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("weapons:\n  blaster: {name: Blaster, lethal: 3, short: 5}\n")
    with pytest.raises(ScenarioError) as info:
        scenario(ROW, {"A": trooper("red"), "B": trooper("blue")}, content=[str(pack)],
                 base_dir=tmp_path)
    assert f"{pack}: weapons.blaster.shots" in str(info.value)


def test_a_content_pack_adds_a_weapon(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("weapons:\n  blaster: {name: Blaster, lethal: 3, shots: 2, short: 5, "
                    "long: 9}\n")
    sc = scenario(ROW, {"A": trooper("red", "blaster"), "B": trooper("blue")},
                  content=[str(pack)], base_dir=tmp_path)
    assert sc.new_state().setup.pack.weapons["blaster"].lethal == 3


def test_the_command_line_reports_a_bad_scenario_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: skirmishers\nmap: {kind: dots, levels: {ground: 'A . B'}}\n"
                   "units:\n  A: {side: red, primary: musket}\n  B: {side: blue}\n")
    code = main(["validate", str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "units.A.primary: unknown firearm 'musket'" in err
    assert "units.B.primary: Field required" in err
