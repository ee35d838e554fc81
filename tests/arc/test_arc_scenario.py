"""Scenarios and content: the examples, inline weapons and armor, located errors, the content
pack's guns (every gun of the rule file, blank cells only as labelled examples: ARC-11),
rulings as options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from arc_builders import RIFLE, example, gunner, make

from tactica.cli import main
from tactica.engine.errors import ScenarioError
from tactica.rulesets.arc.content import load_pack
from tactica.rulesets.arc.rulings import RULINGS

#: Every gun the rule file names (the table, the other rates of fire, the capacities).
RULE_FILE_GUNS = {
    "pistol-concealable": (1, "1"), "pistol": (2, "1"), "pistol-heavy": (3, "3"),
    "machine-pistol": (2, "8"), "smg": (2, "7"), "assault-rifle": (5, "6"),
    "heavy-assault-rifle": (6, "5"), "battle-rifle": (7, "4"), "automatic-rifle": (8, "5"),
    "saw": (5, "6"), "lmg": (6, "5"), "gpmg": (7, "5"), "hmg": (10, "4"), "dmr": (7, "1"),
    "pcc": (None, "1"), "shotgun-revolver": (None, "1"), "slam-fire": (None, "1"),
    "double-barrel": (None, None), "anti-materiel-single-shot": (10, "1"),
    "anti-materiel-bolt-action": (10, "1/4"), "anti-materiel-semi-auto": (10, "1"),
}


def test_the_examples_load_as_a_newcomer_would_run_them() -> None:
    for name in ("pistol-duel.yaml", "firefight.yaml", "warehouse.yaml"):
        sc = example(name)
        assert sc.ruleset.meta.name == "arc"
    assert example("warehouse.yaml").battlefield is not None
    assert example("firefight.yaml").battlefield is None


def test_units_accept_skills_health_inline_armor_and_inline_weapons() -> None:
    sc = make({"Foo": {"side": "red", "skills": {"guns": 16, "evade": 12}, "health": 18,
                       "armor": [{"die": "d6", "against": ["ballistic"]}],
                       "weapons": [{"name": "rifle", "damage": "3d6", "type": "ballistic",
                                    "spread": 4, "rof": 3, "accuracy": [0, 0]}]},
               "Bar": gunner("blue")})
    foo = sc.new_state().fighters["Foo"]
    assert foo.profile.skill("small_guns") == 16 and foo.profile.skill("evade") == 12
    assert foo.health == 18 and foo.profile.con == 8 and foo.armor == (6,)
    w = foo.weapon
    assert (str(w.damage), w.increment, w.rof, w.unaimed, w.accuracy) == ("3d6", 4, 3, 0, 0)


def test_characters_take_their_skills_health_and_speed_from_attributes() -> None:
    bobby = example("firefight.yaml").new_state().fighters["Bobby"]
    p = bobby.profile
    assert p.max_health == 18 and p.skill("big_guns") == 13 and p.skill("evade") == 4
    assert p.skill("small_guns") == 10 and p.skill("melee") == 7 and str(p.speed) == "5•4"


def _problems(units: dict[str, Any], **extra: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        make(units, **extra)
    return str(info.value)


def test_a_bad_inline_weapon_is_named_by_file_and_field() -> None:
    bad = {"name": "rifle", "damage": "3x6", "rof": 3}
    text = _problems({"Foo": gunner("red", weapons=[bad]), "Bar": gunner("blue")})
    assert "test.yaml: units.Foo.weapons[0].damage" in text and "3d6" in text
    assert "units.Foo.weapons[0].spread: Field required" in text
    text = _problems({"Foo": gunner("red", weapons=[{**RIFLE, "rof": "2/3"}]),
                      "Bar": gunner("blue")})
    assert "units.Foo.weapons[0].rof" in text
    text = _problems({"Foo": gunner("red", weapons=["bazooka"]), "Bar": gunner("blue")})
    assert "units.Foo.weapons[0]: unknown weapon 'bazooka'" in text


def test_other_bad_fields_are_all_reported_at_once() -> None:
    text = _problems({"Foo": gunner("red", armor=[{"die": "d7", "against": ["ballistic"]}],
                                    items={"potion": 1}),
                      "Bar": {"side": "blue", "skills": {"guns": 12}}},
                     surprise="green", sneaky=True)
    for where in ("units.Foo.armor[0].die", "units.Foo.items.potion: unknown item",
                  "units.Bar: give health or attributes.CON", "surprise: 'green'",
                  "sneaky: unknown field"):
        assert where in text, where


def test_grid_scenarios_check_their_units_against_the_map() -> None:
    text = _problems({"A": gunner("red"), "Bob": gunner("blue")},
                     map={"kind": "grid", "tiles": "A..C"}, ranges=[
                         {"between": ["A", "Bob"], "metres": 5}])
    assert "units.Bob: not on the map" in text
    assert "map.tiles: 'C' stands on the map but has no entry in units" in text
    assert "ranges[0]: on a map the ranges come from the squares" in text
    text = _problems({"A": gunner("red"), "B": gunner("blue")}, rough=["1,1"])
    assert "rough terrain needs a grid map" in text


def test_a_bad_scenario_is_one_clean_error_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("game: arc\nunits:\n  Foo: {side: red, health: 10, weapons: "
                    "[{name: x, damage: 3d6, rof: 3}]}\n  Bar: {side: blue, health: 10}\n")
    code = main(["validate", str(path)])
    err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err.err + err.out
    assert "units.Foo.weapons[0].spread" in err.err + err.out


def test_every_gun_of_the_rule_file_is_in_the_pack_with_its_facts() -> None:
    pack = load_pack()
    for key, (ac, rof) in RULE_FILE_GUNS.items():
        gun = pack.guns[key]
        if ac is not None:
            assert gun.ac == ac, key
        if rof is not None:
            assert str(gun.rof) == rof, key
    pistol = pack.guns["pistol"]
    assert (pistol.accuracy, pistol.spread, pistol.failure, pistol.swap, pistol.reload,
            pistol.capacity, pistol.range) == ((-1, 1), "2•1", (20, 20), 2, 4, "1d12", 50)
    assert {k: str(v) for k, v in pack.ammo_classes.items()} == {
        1: "2d4", 2: "2d6", 3: "3d4", 4: "2d8", 5: "2d10", 6: "3d8", 7: "4d10", 8: "4d12",
        9: "5d10", 10: "6d12"}


def test_arc_11_blank_cells_are_filled_only_by_labelled_example_values() -> None:
    pack = load_pack()
    smg = pack.guns["smg"]
    assert {"failure", "swap", "reload", "capacity", "range"} <= set(smg.example)
    assert not {"ac", "accuracy", "rof", "spread"} & set(smg.example)     # the source's
    assert not {"failure", "reload", "capacity", "range"} & set(pack.guns["pistol"].example)
    for key, gun in pack.guns.items():
        assert gun.failure is not None or gun.melee, key
        assert gun.capacity is not None or gun.melee, key
        assert gun.range is not None or gun.melee, key
        assert gun.example, f"{key}: its filled-in cells must be listed"
    assert all(a.example for a in pack.armor.values())
    assert all(c.example for c in pack.characters.values())


def test_a_scenario_pack_adds_guns(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(
        "guns:\n  flare-gun: {name: Flare gun, damage: 2d6, type: thermal, spread: 3, "
        "rof: 1, capacity: 1, example: [damage]}\n")
    from tactica.engine.scenario import scenario_from_mapping

    sc = scenario_from_mapping({"game": "arc", "content": ["mine.yaml"], "units": {
        "Foo": gunner("red", weapons=["flare-gun"]), "Bar": gunner("blue")}},
        source=str(tmp_path / "s.yaml"), base_dir=tmp_path)
    assert sc.new_state().fighters["Foo"].weapon.type == "thermal"


def test_every_ruling_is_an_option_of_a_scenario() -> None:
    ids = [r.id for r in RULINGS]
    assert ids[:15] == [f"ARC-{i}" for i in range(1, 16)]
    assert "ARC-16" in ids
    for ruling in RULINGS:
        for option in ruling.options:
            sc = make({"Foo": gunner("red"), "Bar": gunner("blue")},
                      rulings={ruling.id: option})
            assert sc.rulings[ruling.id] == option
