"""Playing Last Odyssey at the table: whole fights by the computer, commands, resuming."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lod_builders import example

from tactica.engine.battle import Battle
from tactica.engine.events import BattleEnded, Rolled
from tactica.play import PlaySession, read_log


class Terminal:
    """Answers prompts from ``lines`` (EOFError when they run out) and keeps what was said."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))


def play(log: Path, lines: list[str], **kw: Any) -> Terminal:
    t = Terminal(lines)
    PlaySession.start(example("police.yaml"), log, t, durable=False, **kw).run()
    return t


def test_the_computer_plays_a_whole_fight_and_the_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "police.jsonl"
    t = play(log, [], seed=4, computer={"party": "greedy", "police": "random"},
             ask_dice=False)
    assert "The battle is over. " in t.said[-1]
    records = read_log(log).records
    assert isinstance(records[-1], BattleEnded)
    sc = example("police.yaml")
    battle, cut = Battle.replay(sc.ruleset, sc.new_state(), records)
    assert cut == [] and battle.is_over and battle.winner == records[-1].winner
    assert [r for r in records if isinstance(r, Rolled) and r.label == "hit die"]


def test_a_cut_fight_resumes_to_the_same_log(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    computer = {"party": "greedy", "police": "greedy"}
    play(full, [], seed=9, computer=computer, ask_dice=False)
    data = full.read_bytes()
    cut = tmp_path / "cut.jsonl"
    lines = data.split(b"\n")
    for k in (3, len(lines) // 2, len(lines) - 3):
        cut.write_bytes(b"\n".join(lines[:k]) + b"\n")
        PlaySession.resume(cut, Terminal([]), scenario=example("police.yaml"),
                           computer=computer, seed=9, ask_dice=False, durable=False).run()
        assert cut.read_bytes() == data, k


def test_commands_at_the_table(tmp_path: Path) -> None:
    lines = ["status", "map", "list Dragonslayer", "odds 1", "sight Rook Vesper", "suggest",
             "quit"]
    t = play(tmp_path / "p.jsonl", lines, seed=1, computer={"police": "greedy"},
             ask_dice=False)
    said = "\n".join(t.said)
    assert "First strike, before initiative" in said and "Initiative: " in said
    assert said.index("First strike, before initiative") < said.index("Initiative: ")
    assert "Rook at party:" in said and "; hp " in said
    assert "party   Lark, Moss" in said  # the rows as they stand
    assert "Vesper uses Dragonslayer on" in said
    assert "one hit die (d10) for 1 target(s)" in said and "P(out of action)" in said
    assert "Rook stands in the front row of party" in said and "Rook: may use melee" in said
    assert "suggestion: [" in said
