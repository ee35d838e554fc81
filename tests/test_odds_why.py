"""Odds that explain themselves: every zero or certain probability and every expected damage
of 0 that `tactica odds --table` shows, over every example scenario of every game, carries the
rule behind it; and the same words reach `tactica odds`, play's `odds N` and the web page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tactica.cli import main
from tactica.engine.odds_why import needs_reason
from tactica.engine.ruleset import odds_hooks
from tactica.engine.scenario import load_scenario
from tactica.engine.validation import load_yaml
from tactica.play.words import odds_lines, without_rule_ids

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCENARIOS = sorted(p for p in EXAMPLES.glob("*/*.yaml")
                   if isinstance(data := load_yaml(p), dict) and "game" in data)
FIREFIGHT = EXAMPLES / "arc" / "firefight.yaml"


def test_every_game_has_an_example_scenario() -> None:
    assert {p.parent.name for p in SCENARIOS} == {
        "arc", "last-odyssey", "nebulia", "skirmishers", "unhex"}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_zero_or_certainty_in_odds_table_carries_its_reason(
        capsys: pytest.CaptureFixture[str], scenario: Path) -> None:
    assert main(["odds", str(scenario), "--table", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows, scenario
    silent = []
    for row in rows:
        for name, value in row["exact"].items():
            num, _, den = value.partition("/")
            if needs_reason(name, int(num) / int(den)) and not row["why"].get(name):
                silent.append(f"{row['action']}: {name} = {value}")
    assert silent == []


def test_ivy_on_bobby_says_every_hit_only_wears_the_armor_down(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 45% to hit and 0 damage: the DMR's single hit over DT drops Bobby's d6 vest a step
    # (ARC-5: that hit does not hurt); two such hits strip it, so a third would hurt.
    assert main(["odds", str(FIREFIGHT), "-a", "Ivy", "-t", "Bobby", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"]["p_hit"] == "9/20" and data["exact"]["expected_damage"] == "0/1"
    why = data["why"]["expected_damage"]
    assert "every hit only wears Bobby's armor down" in why and "ARC-5" in why
    assert "takes 2 hit(s) over DT" in why and "at most 1" in why
    assert "see expected damage" in data["why"]["p_out_of_action"]
    assert main(["odds", str(FIREFIGHT), "-a", "Ivy", "-t", "Bobby"]) == 0
    text = capsys.readouterr().out
    assert "expected damage: 0.0000 (0)\n  why: every hit only wears Bobby's armor down" in text


def test_play_and_the_web_page_show_the_same_reasons() -> None:
    sc = load_scenario(FIREFIGHT)
    state = sc.new_state()
    hooks = odds_hooks(sc.ruleset)
    report = hooks.odds(state, hooks.odds_action(state, "Ivy", ("Bobby",), None))
    lines = odds_lines(report, "Ivy attacks Bobby")  # what play's `odds N` prints
    at = lines.index("  expected damage: 0.000")
    why = without_rule_ids(report.why["expected_damage"])  # play cites no rule ids
    assert lines[at + 1] == f"    why: {why}"
    pytest.importorskip("starlette")
    from tactica.web.snapshot import odds_between

    class _Ctl:  # what odds_between reads of a fight
        def __init__(self) -> None:
            self.battle = type("B", (), {"ruleset": sc.ruleset, "state": state})()
            self.open_request = None

        def describe(self, action: object) -> str:
            return sc.ruleset.describe_action(state, action)

    found = [o for o in odds_between(_Ctl(), "Ivy", "Bobby")  # type: ignore[arg-type]
             if "DMR" in o["action"]]
    assert found and found[0]["why"]["expected damage"] == report.why["expected_damage"]
    assert f"    why: {why}" in found[0]["lines"]


def _why(path: Path, attacker: str, target: str, weapon: str | None = None) -> dict[str, str]:
    sc = load_scenario(path)
    state = sc.new_state()
    hooks = odds_hooks(sc.ruleset)
    return dict(hooks.odds(state, hooks.odds_action(state, attacker, (target,), weapon)).why)


def test_body_armor_and_a_status_roll_say_why_they_do_no_damage() -> None:
    police = EXAMPLES / "last-odyssey" / "police.yaml"
    why = _why(police, "Rook", "Cop 1")
    assert why["expected_damage"].startswith("Body Armor: the first physical hit on Cop 1")
    assert _why(police, "Vesper", "Cop 1", "Venom Dart")["expected_damage"] == (
        "Venom Dart is a status roll: it does no damage")


def test_armor_cells_say_why_a_rifle_does_not_hurt_an_armored_trooper() -> None:
    why = _why(EXAMPLES / "skirmishers" / "shot.yaml", "A", "C", "rifle")
    assert "4 armor cell(s) left" in why["expected_damage"]
    assert "more than 4 lethal points in one hit" in why["expected_damage"]


def test_a_target_in_cover_picking_the_dice_explains_no_knockout() -> None:
    why = _why(EXAMPLES / "unhex" / "nightclub-fight.yaml", "Rook", "Lola")
    assert "Lola is in cover and picks which die is damage" in why["p_knockout"]


def test_nebulia_says_what_defense_the_damage_cannot_reach() -> None:
    why = _why(EXAMPLES / "nebulia" / "firefight.yaml", "A", "4", "rifle")
    assert why["p_out_of_action"].startswith("at most 1 damage against 4's defense 2")
