"""Exact odds of establishing a firing arc (the firing arcs chapter): each enemy the arc holds
in sight, the shots it may draw, each shot's chance and its card after them."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ski_builders import EXAMPLES, example, of, ready, scenario, take, trooper

from tactica.cli import main
from tactica.engine.chance import Done, FirstOption, run_sampled
from tactica.engine.ruleset import odds_hooks
from tactica.rulesets.skirmishers import SKIRMISHERS
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import reactions
from tactica.rulesets.skirmishers.fire import ranged_tn
from tactica.rulesets.skirmishers.odds import attack_action
from tactica.rulesets.skirmishers.state import copy_state

pytestmark = pytest.mark.both_engines

LANE = """
A . . . B . . .
 . . . . . . . .
. . . . . . . .
"""


def arc_odds(b: Any, action: r.EstablishArc) -> Any:
    return SKIRMISHERS.odds.odds(b.state, action)


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_a_60_degree_smg_arc_gives_an_enemy_in_it_six_shots_at_13_in_18() -> None:
    """"A trooper with a SMG may shoot into this arc 6 times"; base target number 6, no
    modifier at short range: 2D6 >= 6 hits 26 of 36."""
    b = ready(LANE, A=trooper("red", "smg"), B=trooper("blue"))
    take(b, r.Activate("A"))
    report = arc_odds(b, r.EstablishArc("A", 60, 0))
    assert report.target == "B" and report.extra["shots"] == 6
    (b_row,) = report.extra["targets"]
    assert b_row["shots"] == 6 and b_row["p_hit_exact"] == "13/18" and b_row["tn"] == 6
    assert report.numbers["p_hit"] == Fraction(13, 18)
    # Six shots of 3X: only six misses leave B's card untouched.
    assert report.distributions["damage"].p(0) == Fraction(5, 18) ** 6
    assert report.numbers["expected_damage"] > 0
    assert any("depends on the enemies' moves" in line for line in report.reasons)
    assert "each shot hits 13/18" in " ".join(report.reasons)


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_an_arcs_value_is_the_matrixs_every_shot_at_the_target() -> None:
    """The matrix values a firearm's 30-degree arc as all its shots at the target: the arc's
    odds give the same card."""
    b = ready(LANE, A=trooper("red", "smg"), B=trooper("blue"))
    take(b, r.Activate("A"))
    state = b.state
    arc = arc_odds(b, r.EstablishArc("A", 30, None, "4,0"))
    (choice,) = [c for c in SKIRMISHERS.odds.choices(state, "A")
                 if isinstance(c.action, r.Shoot)]
    options, name, ap = attack_action(state, choice)
    matrix = SKIRMISHERS.odds.odds(state, choice.action, **options)
    assert (name, ap) == ("30-degree arc: 3 shots", 2)
    assert arc.distributions["card"] == matrix.distributions["card"]
    assert arc.numbers["expected_damage"] == matrix.numbers["expected_damage"]


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_an_arc_holding_no_enemy_says_why_its_zero() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    report = arc_odds(b, r.EstablishArc("A", 30, 180))
    assert report.numbers["expected_damage"] == 0
    assert "no enemy in action stands in the arc" in report.why["expected_damage"]
    assert "outside the arc: B at 4,0" in report.reasons


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_an_enemy_in_the_arc_out_of_sight_draws_no_shot_and_says_why() -> None:
    """"Impassible obstacles, such as a solid high wall ... block line of sight.\""""
    b = ready(LANE, A=trooper("red"), B=trooper("blue"),
              features=[{"between": [[2, 0], [3, 0]], "kind": "high-wall"}])
    take(b, r.Activate("A"))
    report = arc_odds(b, r.EstablishArc("A", 30, None, "4,0"))
    assert report.numbers["expected_damage"] == 0 and report.extra["targets"] == []
    assert any(line.startswith("B at 4,0 is in the arc but cannot be shot") for line in
               report.reasons)
    assert "can be shot from here" in report.why["expected_damage"]


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_every_enemy_in_the_arc_has_its_own_figures() -> None:
    b = ready("""
    A . . . B . . .
     . . . . . . . .
    . . . . C . . .
    """, A=trooper("red", "pistol"), B=trooper("blue"), C=trooper("blue", armor="standard"))
    take(b, r.Activate("A"))
    report = arc_odds(b, r.EstablishArc("A", 150, 15))
    assert [t["target"] for t in report.extra["targets"]] == ["B", "C"]
    assert report.extra["shots"] == 8           # 4 base shots times a pistol's 2
    assert "card C" in report.distributions and report.target == "B"
    # C's armor takes the first 2X hits: its own card, not B's.
    assert report.distributions["card C"] != report.distributions["card"]


@pytest.mark.reference_only  # no step played after the set-up
def test_the_arcs_card_agrees_with_sampling_the_rules_reaction_fire() -> None:
    """The rules' reaction fire at B three times, as if it entered a new dot of the arc each
    time, sampled with a seed: B's HP as often as the exact odds say."""
    b = ready(LANE, A=trooper("red", "smg", arc=30, bearing=0), B=trooper("blue"),
              first="blue")
    state = b.state
    assert state.troopers["A"].arc is not None and state.troopers["A"].arc.shots == 3
    report = SKIRMISHERS.odds.odds(state, r.EstablishArc("A", 30, 0))
    rng = np.random.default_rng(31)
    n = 1500
    counts: dict[int, int] = {}
    for _ in range(n):
        work = copy_state(state)
        for _shot in range(3):
            trace = run_sampled(reactions(work, "B", lambda w: Done(None)), rng,
                                policies=FirstOption(), world=SKIRMISHERS, state=work)
            work = copy_state(work)
            for e in trace.events:
                SKIRMISHERS.apply_event(work, e)
            work.troopers["B"] = replace(work.troopers["B"], shot_by=frozenset())
            if not work.troopers["B"].in_action:
                break
        hp = work.troopers["B"].hp
        counts[hp] = counts.get(hp, 0) + 1
    exact = report.distributions["hp"]
    for hp, p in exact.items():
        sd = float(p * (1 - p) / n) ** 0.5
        assert abs(counts.get(hp, 0) / n - float(p)) < 4 * sd + 1e-9, (hp, counts, p)
    assert set(counts) <= set(exact.outcomes)


def test_an_enemy_activating_in_the_arc_is_shot_at_the_reports_target_number() -> None:
    b = ready(LANE, A=trooper("red", arc=30, bearing=0), B=trooper("blue"), first="blue")
    report = SKIRMISHERS.odds.odds(b.state, r.EstablishArc("A", 30, 0))
    (shot,) = of(take(b, r.Activate("B"), rolls=[[1, 1]], decisions=["A"]), r.ShotFired)
    assert shot.tn == report.extra["tn"] == report.extra["targets"][0]["tn"]


@pytest.mark.reference_only  # no step played after the set-up
def test_odds_arc_option_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    shot = str(EXAMPLES / "shot.yaml")
    assert main(["odds", shot, "-a", "A", "-t", "B", "--arc", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shots"] == 2 and out["exact"]["p_hit"] == "13/18"
    assert [t["target"] for t in out["targets"]] == ["B", "C"]
    assert "depends on the enemies' moves" in out["reaction_fire"]
    assert main(["odds", shot, "--table", "--arc", "30", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["weapon"] for row in rows} == {"rifle"}
    assert all(row["action"].startswith("A establishes a 30° arc toward") for row in rows
               if row["attacker"] == "A")
    assert main(["odds", shot, "-a", "A", "-t", "B", "--arc", "60"]) == 0
    text = capsys.readouterr().out
    assert "each shot hits 13/18" in text and "expected damage" in text


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("args", [["--arc", "45"], ["--arc", "30@400"],
                                  ["--arc", "30", "--shots", "2"]])
@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_odds_arc_bad_values_are_one_error_line(args: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", str(EXAMPLES / "shot.yaml"), "-a", "A", "-t", "B", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: --arc") and "Traceback" not in err


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("name", ["shot.yaml", "corridor-ambush.yaml", "street-fight.yaml"])
@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_every_examples_arcs_do_damage_where_an_enemy_stands_in_range(name: str) -> None:
    """In every example, a 30-degree arc toward each enemy a trooper can shoot now gives it a
    non-zero expected damage, with the per-shot chance; a zero says why (armor)."""
    sc = example(name)
    state = sc.new_state()
    hooks = odds_hooks(sc.ruleset)
    seen = 0
    for t in state.alive():
        if t.active not in state.setup.pack.weapons:
            continue
        weapon = state.setup.pack.weapons[t.active]
        for e in state.alive():
            if e.side == t.side or ranged_tn(state, t.id, e.id, weapon).tn is None:
                continue
            p = state.place(e.id)
            report = hooks.odds(state, r.EstablishArc(t.id, 30, None, f"{p.col},{p.row}"))
            seen += 1
            assert report.target == e.id and report.numbers["p_hit"] > 0
            assert f"each shot hits {report.numbers['p_hit']}" in " ".join(report.reasons)
            if report.numbers["expected_damage"] == 0:
                assert "armor" in report.why["expected_damage"]
            else:
                assert report.numbers["expected_damage"] > 0
    assert seen > 0


@pytest.mark.reference_only  # no step played after the set-up
def test_plays_odds_n_on_an_arc_gives_each_enemys_shots_and_chance(tmp_path: Path) -> None:
    from test_ski_play import Table

    from tactica.play import PlaySession

    sc = scenario(LANE, {"A": trooper("red", "smg"), "B": trooper("blue")})
    # After A's activation: [65] is the 60-degree arc toward B, [29] the 30-degree arc at 45°.
    table = Table({"red>": ["1", "odds 65", "odds 29", "quit"]})
    PlaySession.start(sc, tmp_path / "p.jsonl", table, seed=1, ask_dice=False,
                      durable=False).run()
    said = "\n".join(table.said)
    assert "A establishes a 60° arc toward 4,0 (4 AP)" in said
    assert "6 shots: 2 base for 60° times 3 for its SMG" in said
    assert "B at 4,0: range 4 (short), target number 6, each shot hits 13/18" in said
    assert "depends on the enemies' moves" in said
    assert "expected damage: 0.000" in said   # the arc at 45° holds no enemy, and says why
    assert "why: no enemy in action stands in the arc now" in said
    sixty = said[said.index("6 shots: 2 base"):said.index("3 shots: 1 base")]
    assert "expected damage: 0.000" not in sixty and "expected damage: 9.839" in sixty
