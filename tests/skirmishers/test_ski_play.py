"""Skirmishers at the table: the reacting side is asked before each reaction shot, dice are
typed by hand, a fight resumes after a kill in the middle of a move, and the street fight is
played to the end."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ski_builders import example

from tactica.engine.battle import Battle
from tactica.engine.events import BattleEnded, Decided, Rolled
from tactica.engine.scenario import load_scenario
from tactica.play import PlaySession, read_log
from tactica.rulesets.skirmishers import records as r


class Table:
    """Answers each prompt from the first rule whose prefix it starts with; a rule's answers
    are used in order (its last one repeats). Keeps what was said."""

    def __init__(self, rules: dict[str, list[str]]) -> None:
        self.rules = {k: list(v) for k, v in rules.items()}
        self.said: list[str] = []
        self.prompts: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        for prefix, answers in self.rules.items():
            if prompt.startswith(prefix):
                if not answers:
                    raise EOFError
                return answers.pop(0) if len(answers) > 1 else answers[0]
        raise EOFError

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.said)


AMBUSH = textwrap.dedent("""\
    game: skirmishers
    name: Lane ambush
    max_rounds: 3
    first: red
    map:
      kind: dots
      levels:
        ground: |
          A . . . . . . B
           C . . . . . . .
          . . . . . . . .
    units:
      A: {side: red, primary: rifle}
      C: {side: red, primary: rifle}
      B: {side: blue, primary: smg, arc: {width: 60, bearing: 180}}
    """)


def test_the_reacting_side_is_asked_before_each_shot_and_dice_are_typed(tmp_path: Path) -> None:
    table = Table({"blue decides": ["1"], "dice": ["3 4"], "blue>": ["quit"]})
    log = tmp_path / "ambush.jsonl"
    PlaySession.start(example("corridor-ambush.yaml"), log, table, seed=2,
                      computer={"red": "greedy"}, durable=False).run()
    assert "blue decides 'reaction fire':" in table.text
    assert any("fires at" in line and "target number" in line for line in table.said)
    records = read_log(log).records
    fired = [d for d in records if isinstance(d, Decided) and d.label == "reaction fire"]
    assert fired and all(d.side == "blue" for d in fired)
    assert any(isinstance(x, Rolled) and x.faces == (3, 4) for x in records)


def test_a_fight_cut_right_after_a_kill_in_the_middle_of_a_move_resumes(tmp_path: Path) -> None:
    scenario = tmp_path / "lane.yaml"
    scenario.write_text(AMBUSH)
    log = tmp_path / "lane.jsonl"
    # Red walks A down B's arc: B holds at the activation and at the first dot, then fires at
    # the second: 6 6 hits, 1 2 starts at cell 3: A is out of action at 2,0.
    table = Table({"red>": ["activate A", "A moves to 4,0", "quit"],
                   "blue decides": ["2", "2", "1"], "dice": ["6 6", "1 2"]})
    PlaySession.start(load_scenario(scenario), log, table, seed=3, durable=False).run()
    records = read_log(log).records
    assert any(isinstance(e, r.OutOfAction) and e.unit == "A" for e in records)
    steps = [e for e in records if isinstance(e, r.Stepped)]
    assert [s.to for s in steps] == ["1,0", "2,0"]
    # Cut the log right after the roll that put A out of action, before the step's results.
    lines = log.read_bytes().split(b"\n")
    kill = next(i for i, line in enumerate(lines) if b'"2D6 start cell' in line)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[: kill + 1]) + b"\n")
    again = Table({})
    result = PlaySession.resume(cut, again, computer={"red": "greedy", "blue": "greedy"},
                                ask_dice=False, durable=False).run()
    assert "cut short after 2 rolls and 2 decisions" in again.text
    resumed = read_log(cut).records
    sc = load_scenario(scenario)
    battle, rest = Battle.replay(sc.ruleset, sc.new_state(), resumed)
    assert rest == [] and result.finished
    kept = [e for e in resumed if isinstance(e, r.Stepped)]
    assert [s.to for s in kept][:2] == ["1,0", "2,0"]
    assert not battle.state.troopers["A"].in_action
    assert isinstance(resumed[-1], BattleEnded)


def test_the_street_fight_is_played_to_the_end_with_reaction_fire(tmp_path: Path) -> None:
    log = tmp_path / "street.jsonl"
    table = Table({})
    result = PlaySession.start(example("street-fight.yaml"), log, table, seed=5,
                               computer={"red": "greedy", "blue": "greedy"}, ask_dice=False,
                               durable=False).run()
    assert result.finished and "The battle is over" in table.said[-1]
    records = read_log(log).records
    assert any(isinstance(e, r.ShotFired) and e.how == "arc" for e in records)
    assert any(isinstance(e, Decided) and e.label == "reaction fire" for e in records)


def test_the_table_commands_work_on_a_skirmish(tmp_path: Path) -> None:
    table = Table({"red>": ["status", "map", "sight A W", "odds 1", "suggest", "quit"]})
    PlaySession.start(example("street-fight.yaml"), tmp_path / "s.jsonl", table, seed=1,
                      computer={"blue": "greedy"}, ask_dice=False, durable=False).run()
    said = table.text
    assert "A at 2,6: in action" in said and "card " in said
    assert "A -> W: " in said
    assert "suggestion: [" in said

