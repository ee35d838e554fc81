"""The terminal as a new user meets it: grouped actions, a unique text takes its action, the
commands at every prompt, dice typed as players type them, a game without a map, and the rich
terminal (prompt_toolkit reading, rich colours) driven through a pipe."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from play_helpers import DUEL, FIREFIGHT, ScriptedTerminal, standoff

from tactica.dice import die
from tactica.engine.chance import Done, Roll
from tactica.engine.errors import ScriptError, TacticaError
from tactica.engine.events import Rolled
from tactica.engine.ruleset import get_ruleset, register
from tactica.engine.scenario import load_scenario
from tactica.play import PlaySession, read_log
from tactica.play.answer import dice_words, parse_roll_answer, shown_roll

EXAMPLES = Path(__file__).parents[2] / "examples"
sys.path.insert(0, str(Path(__file__).parents[1] / "conformance"))


def play(path: Path, log: Path, lines: list[str], **kw: object) -> ScriptedTerminal:
    t = ScriptedTerminal(lines)
    PlaySession.start(load_scenario(path), log, t, durable=False, **kw).run()  # type: ignore[arg-type]
    return t


def test_many_actions_read_as_one_line_per_unit_and_kind(tmp_path: Path) -> None:
    t = play(FIREFIGHT, tmp_path / "ff.jsonl", ["C 2,4", "quit"], seed=4,
             computer={"blue": "greedy"})
    said = t.text
    assert "red to choose: red activates an operator (73 actions)" in said
    assert "  [1] A stays at 0,0" in said
    # every destination carries its number, even in one run
    assert ("  A moves to (10): [2] 0,2  [3] 1,0  [4] 1,1  [5] 1,2  [6] 1,3  [7] 2,0  [8] 2,1"
            "  [9] 2,3\n        [10] 3,0  [11] 3,1") in said
    assert "\n  [73] " not in said  # not one line per tile
    # a group whose numbers are not one run numbers each destination
    assert "  C moves to (11): [27] 0,2  [29] 0,4  [30] 1,1" in said
    assert "red: C moves to 2,4" in said  # 'C 2,4' matches one action only: it is taken


def test_the_commands_work_at_a_dice_prompt_and_a_decision(tmp_path: Path) -> None:
    sc = standoff(tmp_path)
    t = ScriptedTerminal(["status", "map", "sight a b", "history", "a", "1", "help", "6 4",
                          "odds 1", "", "2"])
    PlaySession.start(sc, tmp_path / "s.jsonl", t, seed=2, durable=False).run()
    said = t.text
    assert "    a: in action" in said  # status at the dice prompt
    assert "Standoff does not show its battlefield during a fight" in said
    assert "  N              take action number N" in said  # help at the dice prompt
    assert "odds are for the actions a side chooses from" in said
    assert "b is hit in the head for 4." in said
    assert "'' is not one of the options" not in said  # Enter at a decision asks again


def test_a_game_without_a_map_says_so(tmp_path: Path) -> None:
    from toy_games import TOY_DUEL  # a toy game played without a map

    try:
        get_ruleset(TOY_DUEL.meta.name)
    except TacticaError:
        register(TOY_DUEL)
    scenario = Path(__file__).parents[1] / "conformance" / "toys" / "gunfight.yaml"
    t = play(scenario, tmp_path / "g.jsonl", ["map", "sight Ann Bob", "quit"], seed=1)
    assert ("this Toy Duel fight is played without a map: there is no map and no sight "
            "to show") in t.text


def test_a_d100_is_typed_as_players_type_it(tmp_path: Path) -> None:
    fight = EXAMPLES / "unhex" / "nightclub-fight.yaml"
    log = tmp_path / "u.jsonl"
    t = play(fight, log, ["1", "37", "keep", "100", "quit"], seed=3, computer={"club": "greedy"})
    said = t.text
    assert ("roll for 'Rook: initiative': a d100 read as tens and units (two ten-sided dice, "
            "faces 0-9; 00 is 100)") in said
    assert "  55 or under succeeds (00 is 100); doubles at or under 55" in said
    assert "  Rook: initiative: 37 (3 and 7)" in said
    rolls = [r for r in read_log(log).records if isinstance(r, Rolled)]
    assert [r.faces for r in rolls] == [(3, 7), (0, 0)]


def test_dice_answers_read_the_way_players_type_them() -> None:
    two = Roll("2d6", die(6) + die(6), Done, dice=(die(6), die(6)),
               read=lambda f: f[0] + f[1])
    assert dice_words(two) == "two six-sided dice"
    assert parse_roll_answer(two, "2 5") == (7, (2, 5))
    assert parse_roll_answer(two, "2,5") == (7, (2, 5))
    assert parse_roll_answer(two, "25") == (7, (2, 5))
    assert parse_roll_answer(two, "=7") == (7, None)
    with pytest.raises(ScriptError, match="die 2 cannot show 9"):
        parse_roll_answer(two, "2 9")
    with pytest.raises(ScriptError, match="such as '2 5'"):
        parse_roll_answer(two, "two and five")
    assert shown_roll((3, 7), (3, 7)) == "37 (3 and 7)"
    assert shown_roll(7, (2, 5)) == "2 5 -> 7"


def test_the_end_names_the_winner_without_conjugating_the_side(tmp_path: Path) -> None:
    t = play(DUEL, tmp_path / "d.jsonl", [], seed=2, computer={"red": "greedy", "blue": "random"},
             ask_dice=False)
    assert t.said[-1].startswith("The battle is over. Winner: ")
    assert " wins" not in t.said[-1]


def test_the_rich_terminal_completes_colours_and_reads_a_pipe(tmp_path: Path) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.document import Document
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from tactica.play.console import RichTerminal, WordsCompleter

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="truecolor", width=120)
    holder: dict[str, PlaySession] = {}
    words = lambda: holder["s"].completions()  # noqa: E731
    with create_pipe_input() as pipe:
        session = PromptSession(input=pipe, output=DummyOutput(),
                                completer=WordsCompleter(words, lambda: ["A", "B"]))
        terminal = RichTerminal(palette=lambda: holder["s"].palette(), words=words,
                                console=console, session=session)
        pipe.send_text("A stays at 0,0\nquit\n")
        s = PlaySession.start(load_scenario(DUEL), tmp_path / "r.jsonl", terminal, seed=1,
                              computer={"blue": "greedy"}, durable=False)
        holder["s"] = s
        result = s.run()
    assert not result.finished
    text = out.getvalue()
    red = "\x1b[1;38;2;61;139;253m"  # the first side's colour
    assert "red: A stays at 0,0" in text.replace("\x1b[0m", "").replace(red, "")
    assert f"{red}red\x1b[0m" in text  # red's name in its side's colour
    completer = WordsCompleter(lambda: ["A attacks B with rifle", "list", "odds"],
                               lambda: ["A", "B", "Pool Tables"])
    found = [c.text for c in completer.get_completions(Document("A att"), None)]  # type: ignore[arg-type]
    assert found == ["A attacks B with rifle"]
    found = [c.text for c in completer.get_completions(Document("sight A P"), None)]  # type: ignore[arg-type]
    assert found == ["'Pool Tables'"]
