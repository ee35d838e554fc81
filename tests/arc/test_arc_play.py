"""Simulation and play: seeded battles of every example, the game master typing the d20 and
each damage die, a fight by the computer resumed from its cut log."""

from __future__ import annotations

from pathlib import Path

import pytest
from arc_builders import EXAMPLES, example

from tactica.analysis.simulate import simulate
from tactica.engine.events import BattleEnded
from tactica.play import PlaySession, read_log


class Terminal:
    """Answers prompts from ``lines`` (EOFError when they run out) and keeps what was said."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.said: list[str] = []
        self.prompts: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))


@pytest.mark.parametrize("name", ["pistol-duel.yaml", "firefight.yaml", "warehouse.yaml"])
def test_simulation_is_reproducible_by_seed_and_worker_count(name: str) -> None:
    sc = example(name)
    one = simulate(sc, battles=12, seed=3, workers=1).to_dict()
    again = simulate(sc, battles=12, seed=3, workers=1).to_dict()
    assert one == again
    assert sum(one["wins"].values()) + one["draws"] == 12


def test_two_workers_give_the_same_numbers_as_one() -> None:
    sc = example("firefight.yaml")
    assert simulate(sc, battles=16, seed=5, workers=1).to_dict() == \
        simulate(sc, battles=16, seed=5, workers=2).to_dict()


def test_the_game_master_types_the_d20_and_each_damage_die(tmp_path: Path) -> None:
    # Foo rolls 12 for initiative (the only success: it acts first); everyone else fails;
    # Ivy's and Bobby's pistols hold 5 rounds. Foo shoots Bar: its Guns check involves no AGI,
    # so a d20 (ARC-20), 10 is +2º, two hits; Bar evades (the computer) and rolls 20; the
    # damage is typed die by die.
    lines = ["12", "20", "5", "20", "20", "20", "5", "20",
             "Foo attacks Bar with the rifle", "10", "20", "1 2 3 1 2 3", "quit"]
    t = Terminal(lines)
    PlaySession.start(example("firefight.yaml"), tmp_path / "f.jsonl", t, seed=1,
                      computer={"blue": "greedy"}, ask_dice=True, durable=False).run()
    said = "\n".join(t.said)
    assert "roll for 'initiative of Foo (d20, 12 or under)': one 20-sided die" in said
    assert "Foo attacks Bar (Small Guns 16º4 on a d20)': one 20-sided die" in said
    assert "Bar evades (Evade 12º5 on a d20)" in said
    assert "hits 1-2 damage (6d6 together)\": six six-sided dice" in said
    assert "1 2 3 1 2 3 -> 12 (d6+d6)" in said
    assert "Bar takes 12 damage: 4 health, wound dice d6+d6." in said


def test_the_computer_plays_the_firefight_to_the_end_and_a_cut_log_resumes(
        tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    computer = {"red": "greedy", "blue": "random"}
    PlaySession.start(example("firefight.yaml"), full, Terminal([]), seed=2,
                      computer=computer, ask_dice=False, durable=False).run()
    records = read_log(full).records
    assert isinstance(records[-1], BattleEnded)
    data = full.read_bytes()
    lines = data.split(b"\n")
    cut = tmp_path / "cut.jsonl"
    for k in (5, len(lines) // 2):
        cut.write_bytes(b"\n".join(lines[:k]) + b"\n")
        PlaySession.resume(cut, Terminal([]), scenario=example("firefight.yaml"),
                           computer=computer, seed=2, ask_dice=False, durable=False).run()
        assert cut.read_bytes() == data, k


def test_the_examples_folder_is_the_packages() -> None:
    assert (EXAMPLES / "firefight.yaml").exists()
