"""Scenario files: loading, validation with every problem named (file, field, expected), rulings
switched, and the data round-trip."""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.engine.battle import Battle, SampledDice
from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.policies import GreedyPolicy, RandomPolicy
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.engine.validation import load_yaml

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "nebulia"


def good() -> dict[str, Any]:
    return {
        "game": "nebulia-operations",
        "name": "Corridor",
        "map": {"kind": "grid", "tiles": "A..#..B\n......."},
        "units": {"A": {"side": "red", "profile": "trooper"},
                  "B": {"side": "blue", "profile": "scout"}},
    }


def problems(data: Any, source: str = "bad.yaml") -> list[str]:
    with pytest.raises(ScenarioError) as info:
        scenario_from_mapping(data, source=source)
    return str(info.value).split("\n")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def scenario_files() -> list[Path]:
    """The scenario files among the examples (map files have no ``game``)."""
    return [p for p in sorted(EXAMPLES.glob("*.yaml")) if "game" in load_yaml(p)]


def test_the_examples_load() -> None:
    assert {p.name for p in scenario_files()} >= {"duel.yaml", "duel-cover.yaml",
                                                    "firefight.yaml"}
    for path in scenario_files():
        sc = load_scenario(path)
        assert sc.ruleset.meta.name == "nebulia-operations"
        assert sc.source == str(path)
        assert sc.battlefield.kind == "grid"
        assert sc.new_state() is not sc.new_state()


def test_a_scenario_from_data() -> None:
    sc = scenario_from_mapping(good(), source="corridor.yaml")
    assert sc.name == "Corridor"
    assert sc.max_rounds == 30
    assert sc.rulings.changed() == {}
    state = sc.new_state()
    assert [o.id for o in state.alive()] == ["A", "B"]
    assert state.ops["A"].defense == 2 and state.ops["B"].move == 4  # from the profiles


def test_the_name_defaults_to_the_file_stem_and_aliases_name_the_game() -> None:
    data = good()
    del data["name"]
    data["game"] = "Nebulia"
    sc = scenario_from_mapping(data, source="somewhere/yard.yaml")
    assert sc.name == "yard" and sc.ruleset.meta.name == "nebulia-operations"


def test_the_data_round_trips() -> None:
    for path in scenario_files():
        sc = load_scenario(path)
        again = scenario_from_mapping(sc.data, source=sc.source, base_dir=path.parent)
        assert again.new_state() == sc.new_state()
        assert again.rulings == sc.rulings and again.max_rounds == sc.max_rounds
        assert again.name == sc.name and again.data == sc.data


def test_the_data_is_a_private_copy() -> None:
    data = good()
    sc = scenario_from_mapping(data, source="x.yaml")
    data["units"]["A"]["side"] = "green"
    assert sc.data["units"]["A"]["side"] == "red"


def test_with_rulings_gives_a_new_scenario_that_plays_the_same_map() -> None:
    sc = load_scenario(EXAMPLES / "firefight.yaml")
    switched = sc.with_rulings({"NEB-3": "manhattan"})
    assert switched.rulings["NEB-3"] == "manhattan" and sc.rulings["NEB-3"] == "chebyshev"
    assert switched.battlefield == sc.battlefield
    assert switched.data["rulings"] == {"NEB-3": "manhattan"}


def test_the_same_seed_plays_the_same_battle_from_a_round_tripped_scenario() -> None:
    sc = load_scenario(EXAMPLES / "firefight.yaml")
    again = scenario_from_mapping(copy.deepcopy(dict(sc.data)), source=sc.source)
    logs = []
    for s in (sc, again):
        rng = np.random.default_rng(6)
        battle = Battle(s.ruleset, s.new_state())
        battle.run({"red": GreedyPolicy(s.ruleset), "blue": RandomPolicy(s.ruleset)},
                   dice=SampledDice(rng), rng=rng)
        logs.append(battle.log)
    assert logs[0] == logs[1]


# -- errors -----------------------------------------------------------------------------------


def test_not_a_mapping() -> None:
    assert problems(["game"]) == ["bad.yaml: expected a mapping with 'game', 'map' and 'units'"]


def test_missing_game_and_map() -> None:
    assert problems({"units": {}}) == [
        "bad.yaml: game: field required (the name of the game)",
        "bad.yaml: map: field required",
    ]


def test_unknown_game_lists_the_known_ones() -> None:
    data = good()
    data["game"] = "chess"
    (line,) = problems(data)
    assert line.startswith("bad.yaml: game: unknown game 'chess' (expected one of ")
    assert "nebulia-operations" in line


def test_the_map_kind_must_fit_the_game() -> None:
    data = good()
    data["map"] = {"kind": "zones", "areas": ["Bar", "Alley"],
                   "connections": [{"between": ["Bar", "Alley"]}]}
    assert problems(data) == [
        "bad.yaml: map.kind: Nebulia Operations is played on a 'grid' map, got 'zones'"]


def test_every_problem_of_a_file_is_listed_each_with_file_field_and_expectation(
        tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", """\
        game: nebulia-operations
        rulings: {NEB-3: taxicab, NEB-42: x}
        max_rounds: 0
        colour: blue
        map:
          kind: grid
          tiles: |
            A...#..B
            ...X....
        units:
          A: {side: red, profile: captain}
          B: {side: blue, defense: three, armor: 3, weapons: [laser]}
          C: {side: blue, profile: trooper}
          D: {side: blue, profile: trooper, at: [4, 0]}
          E: {side: red, armor: 3, weapons: [rifle]}
          F: {side: red, profile: medic, weapons: [rifle, blaster]}
        """)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    lines = str(info.value).split("\n")
    src = str(path)
    expected = [
        f"{src}: rulings: NEB-3: unknown option 'taxicab' "
        "(expected chebyshev, manhattan, euclidean)",
        f"{src}: rulings: unknown ruling 'NEB-42' (this game has NEB-1, ",
        f"{src}: max_rounds: expected a whole number from 1 to 1000, got 0",
        f"{src}: colour: unknown field",
        f"{src}: units.B.defense: Input should be a valid integer",
        f"{src}: units.A.profile: unknown profile 'captain' (known: breacher, medic, ",
        f"{src}: units.C: not on the map: draw 'C' in map.tiles or give 'at: [x, y]'",
        f"{src}: units.D.at: [4, 0] is not an open tile of the map",
        f"{src}: units.E.defense: field required (or give a profile)",
        f"{src}: units.E.move: field required (or give a profile)",
        f"{src}: units.E: not on the map",
        f"{src}: units.F.weapons[1]: unknown weapon 'blaster' (known: carbine, knife, ",
        f"{src}: units.F: not on the map",
        f"{src}: map.tiles: occupant 'X' has no entry in units",
    ]
    for want in expected:
        assert any(line.startswith(want) for line in lines), (want, lines)
    assert len(lines) == len(expected), lines


def test_unit_sides_and_first(tmp_path: Path) -> None:
    data = good()
    data["units"]["B"]["side"] = "red"
    assert problems(data) == [
        "bad.yaml: units: need operators on at least two sides, got ('red',)"]
    data = good()
    data["first"] = "green"
    assert problems(data) == ["bad.yaml: first: 'green' is not a side (red, blue)"]
    data = good()
    data["sides"] = ["red"]
    assert "bad.yaml: sides: side 'blue' of a unit is not listed" in problems(data)


def test_units_must_be_a_mapping_of_at_least_two() -> None:
    data = good()
    data["units"] = {"A": {"side": "red", "profile": "trooper"}}
    assert problems(data) == [
        "bad.yaml: units: at least two units are needed (one on each side), got 1",
        "bad.yaml: map.tiles: occupant 'B' has no entry in units",
    ]


def test_two_units_on_one_tile() -> None:
    data = good()
    data["units"]["B"]["at"] = [0, 0]
    assert "bad.yaml: units.B: shares tile [0, 0] with A" in problems(data)


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"nowhere\.yaml: no such file"):
        load_scenario(tmp_path / "nowhere.yaml")
    broken = write(tmp_path, "broken.yaml", "game: [nebulia\nmap: {}\n")
    with pytest.raises(ScenarioError, match=r"broken.yaml: line \d+, column \d+: invalid YAML"):
        load_scenario(broken)
    with pytest.raises(ScenarioError, match="is a directory"):
        load_scenario(tmp_path)


def test_a_content_pack_beside_the_scenario(tmp_path: Path) -> None:
    write(tmp_path, "pack.yaml", """\
        weapons:
          railgun: {range: ranged, accuracy: 8, dice: 1, damage: 3}
        profiles:
          heavy: {defense: 4, armor: 5, move: 2, weapons: [railgun]}
        """)
    path = write(tmp_path, "scenario.yaml", """\
        game: nebulia-operations
        content: [pack.yaml]
        map: {kind: grid, tiles: "A....B"}
        units:
          A: {side: red, profile: heavy}
          B: {side: blue, profile: trooper}
        """)
    sc = load_scenario(path)
    a = sc.new_state().ops["A"]
    assert (a.defense, a.armor, a.move) == (4, 5, 2)
    assert a.weapons[0].name == "railgun" and a.weapons[0].damage == 3
    bad_pack = write(tmp_path, "pack.yaml", "weapons:\n  railgun: {range: orbital}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    text = str(info.value)
    assert f"{path}: content: {bad_pack}: weapons.railgun.range" in text
    assert isinstance(info.value, TacticaError)


def test_scenario_is_a_frozen_value() -> None:
    sc = scenario_from_mapping(good(), source="x.yaml")
    assert isinstance(sc, Scenario)
    with pytest.raises(AttributeError):
        sc.name = "other"  # type: ignore[misc]


# -- bad input never crashes ------------------------------------------------------------------

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.floats(allow_nan=False),
    st.sampled_from(["", "x", "#", "A..B", "rifle", "grid", "NEB-3", "red"]),
    st.lists(st.integers(-2, 9), max_size=3),
    st.dictionaries(st.sampled_from(["kind", "side", "x", "tiles"]), st.integers(), max_size=2),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def rich() -> dict[str, Any]:
    data = good()
    data.update({"rulings": {"NEB-3": "manhattan"}, "max_rounds": 5, "first": "red",
                 "sides": ["red", "blue"], "content": []})
    data["units"]["B"] = {"side": "blue", "defense": 2, "armor": 3, "move": 3, "at": [6, 1],
                          "weapons": ["rifle", {"name": "x", "range": "melee", "accuracy": 5}]}
    data["map"]["tiles"] = "A..#...\n......."
    return data


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_bad_input_gives_a_scenario_error_never_a_crash(data: st.DataObject) -> None:
    scenario_data = rich()
    paths = _paths(scenario_data)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent: Any = scenario_data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = data.draw(JUNK)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        sc = scenario_from_mapping(scenario_data, source="fuzz.yaml")
    except ScenarioError as exc:
        # Every line names the file (and then the field).
        assert all(line.startswith("fuzz.yaml:") for line in str(exc).split("\n")), str(exc)
        return
    sc.new_state()
