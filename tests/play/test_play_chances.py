"""``chances`` at the table: each side's chance to win from the current position, exact when
the rest of the fight fits the search, and shown at every turn after ``chances on``."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from play_helpers import ScriptedTerminal

from tactica.analysis.chances import chances_from
from tactica.engine.scenario import load_scenario
from tactica.play import PlaySession

#: Two Nebulia operators who stand and shoot (one hit each is out of action).
STAND = Path(__file__).parents[1] / "data" / "stand-and-shoot.yaml"


def test_chances_are_exact_on_a_small_fight_and_shown_at_every_turn_when_asked(
        tmp_path: Path) -> None:
    sc = load_scenario(STAND)
    t = ScriptedTerminal(["chances", "chances on", "1", "1", "chances off"])
    PlaySession.start(sc, tmp_path / "s.jsonl", t, seed=1, computer={"blue": "greedy"},
                      durable=False, ask_dice=False).run()
    # Before anyone has shot: the whole fight's exact odds, red first in every round.
    assert "  red wins: 71.6% = 559071927/781250000" in t.said
    assert any(line.startswith("  exact: every way the fight can go from here") for line in t.said)
    assert "  chances: shown at every turn" in t.said
    # Red shoots and B's armor saves; blue's shot is saved too; at red's turn in round 2 the
    # chances are shown by themselves: three rounds are left, a geometric series of three.
    assert "-- round 2 --" in t.said
    red, blue = Fraction(6, 10) * Fraction(8, 10), Fraction(5, 10) * Fraction(7, 10)
    miss = (1 - red) * (1 - blue)
    left = sum(miss ** k * red for k in range(3))
    after = t.said[t.said.index("-- round 2 --"):]
    assert f"  red wins: {float(left):.1%} = {left}" in after  # 1089183/1562500
    assert any(line.startswith("  exact: every way") for line in after)


def test_a_large_fight_is_estimated_with_intervals() -> None:
    sc = load_scenario(Path(__file__).parents[2] / "examples" / "nebulia" / "firefight.yaml")
    state = sc.new_state()
    found = chances_from(sc.ruleset, state, {"red": "greedy", "blue": "greedy"},
                         max_rounds=sc.max_rounds, max_states=200, battles=20, seed=1)
    assert not found.exact and found.battles == 20 and found.states == 200
    lines = found.lines()
    assert lines[0].startswith("red wins: ") and "(95% interval " in lines[0]
    assert lines[-1].startswith("estimated: 20 fights played from here")
    doc = found.to_dict()
    assert doc["label"] == "estimated" and len(doc["win"]["red"]["ci95"]) == 2
    again = chances_from(sc.ruleset, state, {"red": "greedy", "blue": "greedy"},
                         max_rounds=sc.max_rounds, max_states=200, battles=20, seed=1)
    assert again == found  # seeded


def test_a_finished_fight_has_certain_chances() -> None:
    sc = load_scenario(Path(__file__).parents[2] / "examples" / "nebulia" / "duel.yaml")
    state = sc.new_state()
    state.ops["B"].out = True  # B is out of action: red has won
    found = chances_from(sc.ruleset, state, {"red": "greedy", "blue": "greedy"})
    assert found.exact and found.win["red"] == Fraction(1) and found.none == 0
