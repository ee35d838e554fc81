"""The ``tactica odds``, ``tactica simulate`` and ``tactica validate`` commands, through
:func:`tactica.cli.main` (exit codes, standard output and error)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tactica.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "nebulia"
DUEL = str(EXAMPLES / "duel.yaml")
DUEL_COVER = str(EXAMPLES / "duel-cover.yaml")
FIREFIGHT = str(EXAMPLES / "firefight.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# -- odds -------------------------------------------------------------------------------------


def test_odds_of_the_duel_out_of_cover_is_0_42(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "odds", DUEL, "--attacker", "A", "--target", "B")
    assert data["p_out_of_action"] == 0.42
    assert data["exact"]["p_out_of_action"] == "21/50"
    assert data["cover"] is False and data["clear_lines"] == 4
    assert data["damage"] == [{"value": 0, "p": 0.58, "p_exact": "29/50"},
                              {"value": 1, "p": 0.42, "p_exact": "21/50"}]


def test_odds_of_the_duel_in_cover_beyond_three_tiles_is_0_36(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "odds", DUEL_COVER, "-a", "A", "-t", "B")
    assert data["p_out_of_action"] == 0.36
    assert data["exact"]["p_out_of_action"] == "9/25"
    assert data["cover"] is True
    assert 2 <= data["clear_lines"] <= 3 and data["distance"] > 3
    assert "in cover: 2-3 lines clear and more than 3 tiles away" in data["reasons"]


def test_odds_with_a_ruling_switched(capsys: pytest.CaptureFixture[str]) -> None:
    # NEB-6 on the characteristic: cover makes armor 3 save on 1-2 only.
    data = run_json(capsys, "odds", DUEL_COVER, "-a", "A", "-t", "B",
                    "--rulings", "NEB-6=characteristic")
    assert data["exact"]["p_out_of_action"] == "12/25"


def test_odds_as_a_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", DUEL, "-a", "A", "-t", "B")
    assert code == 0 and err == ""
    assert "A attacks B with rifle" in out
    assert "p out of action: 0.4200 (21/50)" in out


def test_odds_table_of_every_attack(capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys, "odds", DUEL, "--table")
    assert {(r["attacker"], r["target"]) for r in rows} == {("A", "B"), ("B", "A")}
    by = {r["attacker"]: r for r in rows}
    assert by["A"]["p_out_of_action"] == 0.42
    assert by["B"]["exact"]["expected_damage"] == "21/50"  # the built-in rifle, armor 3


def test_odds_errors_are_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", DUEL, "-a", "A", "-t", "Z")
    assert code == 2 and out == ""
    assert err.strip() == f"error: --target: no unit 'Z' in {DUEL} (units: A, B)"
    code, _, err = run(capsys, "odds", DUEL, "-a", "A")
    assert code == 2 and err.strip() == "error: give --attacker and --target (or --table)"
    code, _, err = run(capsys, "odds", DUEL, "-a", "A", "-t", "B", "-w", "laser")
    assert code == 2 and "A has no weapon 'laser' (it carries rifle)" in err


def test_odds_against_a_hidden_target_says_why(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    path = tmp_path / "wall.yaml"
    path.write_text(textwrap.dedent("""\
        game: nebulia-operations
        map: {kind: grid, tiles: "A..#..B"}
        units:
          A: {side: red, profile: trooper}
          B: {side: blue, profile: trooper}
        """), encoding="utf-8")
    code, _, err = run(capsys, "odds", str(path), "-a", "A", "-t", "B")
    assert code == 2
    assert err.strip() == ("error: A cannot attack B: rifle needs B visible: 0 of 4 lines clear "
                           "(2 needed); knife is melee and B is not adjacent")


# -- simulate ---------------------------------------------------------------------------------

SIM = ("simulate", FIREFIGHT, "--battles", "12", "--seed", "5")


def test_simulate_json_is_identical_for_the_same_seed(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code1, first, _ = run(capsys, *SIM, "--workers", "1", "--json")
    code2, second, _ = run(capsys, *SIM, "--workers", "1", "--json")
    assert code1 == code2 == 0
    assert first == second
    data = json.loads(first)
    assert data["battles"] == 12 and data["seed"] == 5
    assert sum(data["wins"].values()) + data["draws"] == 12
    assert set(data["units"]) == {"A", "B", "C", "D", "E", "1", "2", "3", "4", "5"}
    code3, other, _ = run(capsys, "simulate", FIREFIGHT, "--battles", "12", "--seed", "6",
                          "--workers", "1", "--json")
    assert code3 == 0 and other != first


def test_simulate_gives_the_same_json_on_one_or_two_workers(
        capsys: pytest.CaptureFixture[str]) -> None:
    one = run_json(capsys, *SIM, "--workers", "1")
    two = run_json(capsys, *SIM, "--workers", "2")
    assert one == two


def test_simulate_applies_a_ruling(capsys: pytest.CaptureFixture[str]) -> None:
    default = run_json(capsys, *SIM, "--workers", "1")
    manhattan = run_json(capsys, *SIM, "--workers", "1", "--rulings", "NEB-3=manhattan")
    assert default["rulings"]["NEB-3"] == "chebyshev"
    assert manhattan["rulings"]["NEB-3"] == "manhattan"
    assert {k: v for k, v in manhattan["rulings"].items() if k != "NEB-3"} == {
        k: v for k, v in default["rulings"].items() if k != "NEB-3"}
    # Cover reaches closer under Manhattan distance: the same seeds play out differently.
    assert manhattan["units"] != default["units"]


def test_simulate_policies_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, *SIM, "--workers", "1", "--policy", "red=greedy",
                    "--policy", "blue=random")
    assert data["policies"] == {"red": "greedy", "blue": "random"}
    code, _, err = run(capsys, *SIM, "--policy", "red=clever", "--policy", "blue=random")
    assert code == 2
    assert "unknown policy 'clever' (expected one of greedy, random, first-option)" in err


@pytest.mark.parametrize(("value", "message"), [
    ("NEB-3=taxicab",
     "error: --rulings: NEB-3: unknown option 'taxicab' (expected chebyshev, manhattan, "
     "euclidean)"),
    ("NEB-3", "error: --rulings: expected ID=OPTION such as ABC-3=manhattan (see tactica "
              "games --rulings), got 'NEB-3'"),
])
def test_simulate_with_a_bad_ruling_exits_2_with_one_line(
        capsys: pytest.CaptureFixture[str], value: str, message: str) -> None:
    code, out, err = run(capsys, *SIM, "--rulings", value)
    assert code == 2 and out == ""
    assert err.splitlines() == [message]


def test_simulate_unknown_ruling_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *SIM, "--rulings", "NEB-99=yes")
    assert code == 2
    assert len(err.splitlines()) == 1
    assert err.startswith("error: --rulings: unknown ruling 'NEB-99' (this game has NEB-1")


def test_simulate_prints_a_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *SIM, "--workers", "1")
    assert code == 0
    assert "Firefight at the depot: 12 battles, seed 5" in out
    for word in ("red", "blue", "draw", "95% interval", "survival", "rounds: mean"):
        assert word in out
    assert "rulings: all defaults" in out
    code, out, _ = run(capsys, *SIM, "--workers", "1", "--rulings", "NEB-3=manhattan")
    assert code == 0 and "rulings: NEB-3=manhattan" in out


# -- validate ---------------------------------------------------------------------------------


def test_validate_a_good_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", FIREFIGHT)
    assert code == 0 and err == ""
    assert "valid Nebulia Operations scenario" in out and "Firefight at the depot" in out
    code, out, _ = run(capsys, "validate", DUEL)
    assert code == 0 and "rulings: all defaults" in out


def test_validate_a_bad_scenario_lists_every_problem(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent("""\
        game: nebulia-operations
        rulings: {NEB-6: sideways}
        map:
          kind: grid
          tiles: |
            A..#..B
            ..Q....
        units:
          A: {side: red, profile: captain}
          B: {side: blue, defense: 0, armor: 3, move: 3, weapons: [rifle]}
        """), encoding="utf-8")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("error: ")
    lines[0] = lines[0][len("error: "):]
    assert lines == [
        f"{path}: rulings: NEB-6: unknown option 'sideways' (expected die, characteristic)",
        f"{path}: units.B.defense: Input should be greater than or equal to 1, got 0",
        f"{path}: units.A.profile: unknown profile 'captain' "
        "(known: breacher, medic, scout, sniper, trooper)",
        f"{path}: map.tiles: occupant 'Q' has no entry in units",
    ]


def test_validate_a_map_file_and_a_missing_file(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    code, out, _ = run(capsys, "validate", str(EXAMPLES / "crossroads.yaml"))
    assert code == 0 and "a valid grid map" in out
    missing = tmp_path / "nope.yaml"
    code, _, err = run(capsys, "validate", str(missing))
    assert code == 2 and err.strip() == f"error: {missing}: no such file"


def test_simulate_json_says_why_the_reference_played(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    reason = "the policy 'first-option' (the kernel plays greedy and random)"
    data = run_json(capsys, "simulate", DUEL, "--battles", "3", "--seed", "2", "--workers", "1",
                    "--policy", "red=first-option", "--policy", "blue=random")
    assert data["engine"] == {"kernel": 0, "reference": 3, "reasons": {reason: 3}}
    compared = run_json(capsys, "simulate", DUEL, "--battles", "2", "--seed", "2",
                        "--workers", "1", "--policy", "red=first-option",
                        "--policy", "blue=random", "--compare", "NEB-3=chebyshev,manhattan")
    assert compared["engine"] == {"kernel": 0, "reference": 4, "reasons": {reason: 4}}
