"""A matrix cell is one whole attack action in every game that says what one is (Arc's rate
of fire, Last Odyssey's AP, Nebulia's pool), against distinct targets at the game's ranges."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tactica.analysis.matrix import matchup_matrix
from tactica.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    doc: dict[str, object] = json.loads(out)
    return doc


def test_arc_values_one_attack_at_the_weapons_rate_of_fire() -> None:
    m = matchup_matrix("arc", ["bobby", "dee"], ["jane"])
    rifle = next(c for c in m.cells if c.means == "Battle rifle")
    smg = next(c for c in m.cells if c.means == "SMG")
    knife = next(c for c in m.cells if c.means == "Combat knife")
    assert rifle.action == "one attack: up to 4 hits (rof 4)" and rifle.ap == 1
    assert smg.action == "one attack: up to 7 hits (rof 7)"
    assert knife.action == "one melee attack"
    assert rifle.expected_damage_per_ap == rifle.expected_damage
    assert any("each cell is one attack action" in n for n in m.notes)
    two = matchup_matrix("arc", ["bobby"], ["jane"], rulings={"ARC-14": "two"})
    rifle2 = next(c for c in two.cells if c.means == "Battle rifle")
    assert rifle2.ap == 2 and rifle2.expected_damage == rifle.expected_damage
    assert rifle2.expected_damage_per_ap == rifle.expected_damage / 2  # type: ignore[operator]


def test_last_odyssey_weighs_abilities_by_their_ap() -> None:
    m = matchup_matrix("last-odyssey", ["rook"], ["goblin-skirmisher"])
    power = next(c for c in m.cells if c.means == "Power Attack")
    basic = next(c for c in m.cells if c.means == "Basic Attack")
    assert power.ap == 2 and basic.ap == 1 and basic.action == "a Basic Attack"
    assert power.expected_damage is not None
    assert power.expected_damage_per_ap == power.expected_damage / 2
    strike = next(c for c in m.cells if c.means == "Strike")
    assert strike.action == "one use, 2 MP"


def test_nebulia_names_the_pool_and_keeps_distinct_targets(
        capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, "matrix", "nebulia", "-a", "breacher", "--json")
    cells = doc["cells"]
    assert isinstance(cells, list)
    assert {c["target"] for c in cells} == {"trooper", "scout", "breacher"}
    assert {c["action"] for c in cells} == {"one attack: 3 D10s"}
    assert all(c["ap"] is None and c["expected_damage_per_ap"] is None for c in cells)


def test_unhex_default_matrix_shows_melee_and_ranged_and_says_what_it_shows(
        capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, "matrix", "unhex", "--json")
    cells = doc["cells"]
    assert isinstance(cells, list)
    assert {c["range"] for c in cells} == {0, 1}
    assert {c["target"] for c in cells} == {"brawler", "bouncer"}
    bat = [c for c in cells if c["means"] == "baseball-bat"]
    assert [c["range"] for c in bat if c["p_hit"] is not None] == [0, 0]
    main(["matrix", "unhex"])
    out = capsys.readouterr().out
    assert "expected damage" in out and "no single attack here can take a target out" in out
    assert Fraction(str(cells[0]["expected_damage_exact"])) > 0
