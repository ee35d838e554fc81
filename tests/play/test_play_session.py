"""Playing at the table: dice typed by hand, people's choices, and resuming after any crash."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from play_helpers import DUEL, FIREFIGHT, ScriptedTerminal, standoff

from tactica.engine.battle import Battle
from tactica.engine.errors import TacticaError
from tactica.engine.events import ActionTaken, BattleEnded, Decided, Rolled
from tactica.engine.scenario import Scenario, load_scenario
from tactica.play import PlaySession, read_log
from tactica.rulesets.nebulia.records import Attack, Attacked

BOTH = {"red": "greedy", "blue": "random"}


def play(scenario: Scenario, log: Path, lines: list[str] = (), **kw: Any) -> ScriptedTerminal:  # type: ignore[assignment]
    t = ScriptedTerminal(lines)
    kw.setdefault("durable", False)
    PlaySession.start(scenario, log, t, **kw).run()
    return t


def resume(log: Path, lines: list[str] = (), **kw: Any) -> ScriptedTerminal:  # type: ignore[assignment]
    t = ScriptedTerminal(lines)
    kw.setdefault("durable", False)
    PlaySession.resume(log, t, **kw).run()
    return t


def cut_points(data: bytes, every: int = 1) -> list[int]:
    """Every ``every``-th line boundary, and the middle of each of those lines."""
    points, pos = [], 0
    for i, line in enumerate(data.split(b"\n")[:-1]):
        if i % every == 0:
            points += [pos, pos + len(line) // 2]
        pos += len(line) + 1
    return [*points, len(data)]


# --------------------------------------------------------------------------------------------
# Whole fights


def test_the_computer_plays_a_whole_duel_and_the_log_replays(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    log = tmp_path / "duel.jsonl"
    t = play(sc, log, seed=3, computer=BOTH, ask_dice=False)
    assert "The battle is over. " in t.said[-1]
    contents = read_log(log)
    assert contents.header is not None and contents.header.seed == 3
    assert contents.header.scenario.endswith("examples/nebulia/duel.yaml")
    assert isinstance(contents.records[-1], BattleEnded)
    battle, cut = Battle.replay(sc.ruleset, sc.new_state(), contents.records)
    assert cut == [] and battle.is_over and battle.winner == contents.records[-1].winner
    assert [r for r in contents.records if isinstance(r, Rolled)]  # dice were rolled


def test_the_same_seed_gives_the_same_log_byte_for_byte(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    logs = [tmp_path / f"{n}.jsonl" for n in (1, 2, 3)]
    for log, seed in zip(logs, (11, 11, 12), strict=True):
        play(sc, log, seed=seed, computer=BOTH, ask_dice=False)
    assert logs[0].read_bytes() == logs[1].read_bytes() != logs[2].read_bytes()


@pytest.mark.parametrize(("path", "every"), [(DUEL, 1), (FIREFIGHT, 12)])
def test_a_fight_cut_anywhere_resumes_to_the_same_log(tmp_path: Path, path: Path,
                                                      every: int) -> None:
    """Killed at any byte (inside a record, between a step's rolls and its results, before the
    battle's end was written, inside the header), the fight resumes to the very same log."""
    sc = load_scenario(path)
    full_log = tmp_path / "full.jsonl"
    play(sc, full_log, seed=5, computer=BOTH, ask_dice=False)
    full = full_log.read_bytes()
    log = tmp_path / "cut.jsonl"
    for k in cut_points(full, every):
        log.write_bytes(full[:k])
        resume(log, scenario=sc, computer=BOTH, seed=5, ask_dice=False)
        assert log.read_bytes() == full, f"cut at byte {k}"


def test_pressing_enter_at_every_die_rolls_what_the_virtual_dice_roll(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    play(sc, tmp_path / "auto.jsonl", seed=8, computer=BOTH, ask_dice=False)
    play(sc, tmp_path / "enter.jsonl", [""] * 200, seed=8, computer=BOTH, ask_dice=True)
    assert (tmp_path / "auto.jsonl").read_bytes() == (tmp_path / "enter.jsonl").read_bytes()


# --------------------------------------------------------------------------------------------
# Dice typed by hand


def test_typed_dice_quit_between_two_rolls_and_resume_asks_only_the_second(
        tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    log = tmp_path / "duel.jsonl"
    # red: A stays, attacks B; to hit: a 4 (hit); then the game master stops at the armor roll.
    t = play(sc, log, ["1", "1", "4", "quit"], seed=1, computer={"blue": "greedy"})
    assert "roll for 'to hit': one ten-sided die (faces 0-9)" in t.said
    assert "  the die showing 1-6 is a success (6 in 10)" in t.said
    assert "  chances: 0: 40.0%, 1: 60.0%" in t.said
    assert "  to hit: 1 D10 at accuracy 6: faces 1-6 hit (3/5 each)" in t.said
    assert "  to hit: 4 -> 1" in t.said
    assert t.said[-1].startswith("Stopped. The fight is saved in")
    records = read_log(log).records
    assert records[-2:] == (ActionTaken("red", Attack("A", "rifle", "B")),
                            Rolled("to hit", 1, (4,)))

    # armor: a 9 fails; B (defense 1) is out; then blue has nobody left: red wins.
    t = resume(log, ["9"])
    assert "Finishing 'A attacks B with rifle', cut short after 1 roll:" in t.said
    assert "  to hit: 4 -> 1 (from the log)" in t.said
    assert sum(p.startswith("dice") for p in t.prompts) == 1
    assert "  A attacks B with rifle: 1 hit(s), 0 saved, 1 damage." in t.said
    records = read_log(log).records
    assert Attacked("A", "rifle", "B", False, 1, 0, 1) in records
    assert records[-1] == BattleEnded("red", "the only side left in action: red")


def test_wrong_dice_are_asked_again_with_the_reason(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    lines = ["1", "1", "x", "4 4", "10", "=2", "=1", "=0", "quit"]
    t = play(sc, tmp_path / "duel.jsonl", lines, seed=1, computer={"blue": "greedy"})
    assert "  expected the faces rolled as numbers, such as '1', got 'x'" in t.said
    assert "  roll 'to hit' is 1 die: type one face (typed 2: 4 4)" in t.said
    assert "  roll 'to hit': die 1 cannot show 10 (faces 0..9)" in t.said
    assert "  '2' is not a possible result of 'to hit' (possible: 0, 1)" in t.said
    assert "  to hit: 1" in t.said and "  armor: 0" in t.said
    rolls = [r for r in read_log(tmp_path / "duel.jsonl").records if isinstance(r, Rolled)]
    assert rolls[:2] == [Rolled("to hit", 1, None), Rolled("armor", 0, None)]


def test_decisions_and_value_rolls_are_asked_recorded_and_resumed(tmp_path: Path) -> None:
    sc = standoff(tmp_path)
    log = tmp_path / "standoff.jsonl"
    # who starts: typed by name; a shoots: 6 and 4 are two hits; aim at the head: b is down.
    t = play(sc, log, ["a", "1", "6 4", "x", "2"], seed=2)
    assert "roll for 'who starts': no dice: type the result" in t.said
    assert "  chances: a: 50.0%, b: 50.0%" in t.said
    assert "  [2] aim at the head" in t.said
    assert ("  'x' is not one of the options: type 1 to 2 ('help' for the commands, 'quit' "
            "to stop)") in t.said
    records = read_log(log).records
    assert Decided("a", "aim", "head") in records
    # Cut the log after the decision, before the step's results: resume replays both inputs.
    data = log.read_bytes()
    log.write_bytes(data[: data.index(b'{"type":"toy.hit"')])
    t = resume(log, scenario=sc)
    assert "Finishing 'a shoots', cut short after 1 roll and 1 decision:" in t.said
    assert "  b is hit in the head for 4." in t.said
    assert read_log(log).records[-1] == BattleEnded("a", "b is down")


# --------------------------------------------------------------------------------------------
# The game master's commands


def test_commands_answer_without_changing_the_fight(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    log = tmp_path / "duel.jsonl"
    lines = ["help", "list 3,", "odds 1", "odds 99", "sight A B", "status", "history",
             "suggest", "map", "A moves to 9,9", "moves to 1", "dice auto", "quit"]
    t = play(sc, log, lines, seed=1, computer={"blue": "greedy"})
    said = t.text
    assert "  odds N         what could happen if action N is taken, and why" in said
    assert "  [10] A moves to 3,0\n  [11] A moves to 3,1\n  [12] A moves to 3,2" in said
    assert "  100.00%  A is activated and stays at 0,0." in said
    assert "  no action 99: choose 1 to 12" in said
    assert "  A -> B: visible, not in cover" in said
    assert "  red:\n    A at 0,0: in action; defense 3" in said
    assert "  Round 1 begins; red activates first." in said
    assert "  suggestion: [" in said
    assert said.count("grid 10x3, 2 occupants") == 2  # at the turn's start, and on request
    assert "  no action matches 'A moves to 9,9'" in said
    assert "  3 action(s) match 'moves to 1'" in said
    assert "  dice: rolled by tactica" in said
    # the table's choice of dice is saved (a resumed fight keeps it); the battle is unchanged
    assert [type(r).__name__ for r in read_log(log).records] == ["RoundStarted", "Resolved",
                                                                 "DiceMode"]


def test_odds_of_an_attack_are_exact_and_explained(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    t = play(sc, tmp_path / "duel.jsonl", ["A stays at 0,0", "odds 1", "quit"], seed=1,
             computer={"blue": "greedy"})
    said = t.text
    assert "  sight: 4 of 4 lines clear, distance 7 (chebyshev)" in said
    # 3/5 to hit, then 7/10 that armor fails: B (defense 1) is out with 21/50.
    assert "  P(out of action): 42.00%" in said
    assert "  P(hit): 60.00%" in said


# --------------------------------------------------------------------------------------------
# What a resume checks


def test_resume_finds_the_scenario_beside_the_log_from_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fights = tmp_path / "fights"
    fights.mkdir()
    scenario = fights / "duel.yaml"
    scenario.write_text(DUEL.read_text())
    monkeypatch.chdir(fights)
    play(load_scenario("duel.yaml"), Path("duel.jsonl"), ["quit"], seed=1)
    monkeypatch.chdir(tmp_path)
    assert read_log(fights / "duel.jsonl").header.scenario == "duel.yaml"  # type: ignore[union-attr]
    t = resume(Path("fights/duel.jsonl"), ["quit"])
    assert "resuming after 1 step(s); the last events:" in t.said
    scenario.unlink()  # the log carries its scenario
    t = resume(Path("fights/duel.jsonl"), ["quit"])
    assert "resuming after 1 step(s); the last events:" in t.said


def test_resume_refuses_a_changed_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text())
    log = tmp_path / "duel.jsonl"
    play(load_scenario(scenario), log, ["quit"], seed=1)
    scenario.write_text(DUEL.read_text().replace("defense: 1", "defense: 2"))
    resume(log, ["quit"])  # the log's own copy of the scenario, as it was
    with pytest.raises(TacticaError, match=r"duel\.jsonl: the log was written for 'duel\.yaml' "
                                           r"with other content"):
        resume(log, scenario=load_scenario(scenario))


def test_rulings_are_kept_in_the_log_and_restored(tmp_path: Path) -> None:
    sc = load_scenario(DUEL).with_rulings({"NEB-6": "characteristic"})
    log = tmp_path / "duel.jsonl"
    play(sc, log, ["quit"], seed=1)
    header = read_log(log).header
    assert header is not None and header.rulings["NEB-6"] == "characteristic"
    t = resume(log, ["quit"])
    assert "rulings: NEB-6=characteristic" in t.said


def test_the_computer_must_play_a_side_of_the_battle(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    with pytest.raises(TacticaError, match=r"computer: no side 'green' in this battle "
                                           r"\(sides: red, blue\)"):
        play(sc, tmp_path / "a.jsonl", computer={"green": "greedy"})
    with pytest.raises(TacticaError, match="unknown policy 'clever'"):
        play(sc, tmp_path / "b.jsonl", computer={"red": "clever"})
    assert not (tmp_path / "a.jsonl").exists() and not (tmp_path / "b.jsonl").exists()


def test_a_log_without_a_complete_line_needs_the_scenario(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    log.write_bytes(b'{"type":"tactica-')
    with pytest.raises(TacticaError, match="holds no complete line"):
        resume(log)
    t = resume(log, ["quit"], scenario=load_scenario(DUEL), seed=4)
    assert "holds no complete line yet: the fight starts anew." in t.said[0]
    assert read_log(log).header is not None


def test_ctrl_c_leaves_every_answer_in_the_log(tmp_path: Path) -> None:
    class Interrupted(ScriptedTerminal):
        def ask(self, prompt: str) -> str:
            if not self.lines:
                raise KeyboardInterrupt
            return super().ask(prompt)

    log = tmp_path / "duel.jsonl"
    t = Interrupted(["1", "1", "4"])
    session = PlaySession.start(load_scenario(DUEL), log, t, seed=1, durable=False)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    assert read_log(log).records[-1] == Rolled("to hit", 1, (4,))


def test_suggest_answers_a_decision_too(tmp_path: Path) -> None:
    sc = standoff(tmp_path)
    # a shoots and hits twice; at the decision, 'suggest' names one of its options
    t = play(sc, tmp_path / "standoff.jsonl", ["a", "1", "6 4", "suggest", "quit"], seed=2)
    said = t.text
    assert "suggestions are for actions" not in said
    found = re.search(r"  suggestion: \[(\d)\] (aim at the (?:legs|head))", said)
    assert found, said


def test_a_megabyte_typed_line_is_refused_without_being_shown_again(tmp_path: Path) -> None:
    sc = load_scenario(DUEL)
    huge = "A" * (1024 * 1024)
    t = play(sc, tmp_path / "duel.jsonl", [huge, "quit"], seed=1, computer={"blue": "greedy"})
    said = "\n".join(t.said)
    assert "that line is 1,048,576 characters long; at most 1,000 are read" in said
    assert "A" * 1001 not in said and len(said) < 100_000
