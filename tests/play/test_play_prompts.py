"""What the table reads, in every game: no rule ids or code notation, no die a roll does not
use, the scenario's names, a number asked as a range, events before the decisions that depend
on them, long lists on request."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from play_helpers import ScriptedTerminal

from tactica.engine.scenario import Scenario, load_scenario
from tactica.play import PlaySession

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT / "tests" / "unhex"))

#: The example scenarios (the other files there are maps the scenarios name).
SCENARIOS = sorted(p for p in EXAMPLES.glob("*/*.yaml")
                   if re.search(r"^game:", p.read_text(encoding="utf-8"), re.MULTILINE))

RULE_ID = re.compile(r"\b[A-Z]{3}-\d+\b")
SIDES = {"six": 6, "ten": 10, "twelve": 12, "eight": 8, "four": 4, "twenty": 20}


class Answering:
    """Enter at every dice prompt, the first option or action elsewhere, for ``n`` prompts."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.prompts: list[str] = []
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.n -= 1
        if self.n < 0:
            raise EOFError
        return "" if prompt.startswith("dice for") else "1"

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))


def _play(sc: Scenario, log: Path, terminal: object, seed: int = 1) -> None:
    PlaySession.start(sc, log, terminal, seed=seed, durable=False).run()  # type: ignore[arg-type]


def _faces(dice_line: str) -> int:
    """The highest face of the dice a ``roll for`` line names (0: no dice)."""
    if "d100" in dice_line:
        return 100
    found = [int(n) for n in re.findall(r"(\d+)-sided", dice_line)]
    found += [SIDES[w] for w in re.findall(r"(\w+)-sided", dice_line) if w in SIDES]
    return max(found, default=0)


def test_every_example_is_found() -> None:
    games = {p.parent.name for p in SCENARIOS}
    assert games == {"arc", "last-odyssey", "nebulia", "skirmishers", "unhex"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("seed", [1, 2])
def test_no_prompt_shows_a_rule_id_code_or_a_die_not_rolled(path: Path, seed: int,
                                                            tmp_path: Path) -> None:
    t = Answering(120)
    _play(load_scenario(path), tmp_path / "fight.jsonl", t, seed)
    shown = t.said + t.prompts
    assert len(t.prompts) > 5
    for line in shown:
        assert not RULE_ID.search(line), line
        assert "//" not in line, line
    for k, line in enumerate(t.said[:-1]):
        if not line.startswith("roll for "):
            continue
        faces = _faces(line)
        hint = t.said[k + 1]
        for n in re.findall(r"\ba (\d+)\b", hint):
            assert faces == 0 or int(n) <= faces, (line, hint)
        for n in re.findall(r"\bd(\d+)\b", hint):
            assert int(n) == faces or (int(n) == 100 and faces == 10), (line, hint)


def test_an_arc_roll_on_a_d10_does_not_speak_of_a_20() -> None:
    from tactica.rulesets.arc.attack import check_hint
    from tactica.rulesets.arc.checks import Check

    rulings = {"ARC-2": "floor"}
    on_d20 = check_hint(Check("Guns", 14, 4, 20), rulings)
    on_d10 = check_hint(Check("Guns", 14, 4, 10), rulings)
    assert on_d20 == ("14 or under succeeds; the degrees are the roll divided by 4, rounded "
                      "down; a 1 always succeeds, a 20 always fails")
    assert "20" not in on_d10 and "a 1 always succeeds" in on_d10


def test_arc_shows_the_scenarios_names(tmp_path: Path) -> None:
    t = Answering(40)
    _play(load_scenario(EXAMPLES / "arc" / "warehouse.yaml"), tmp_path / "w.jsonl", t)
    said = "\n".join(t.said)
    assert "Ivy (A): 8 or under succeeds; who succeeds acts before who fails" in said
    assert "Ivy (A)'s initiative: 11, -2º." in said
    assert "Initiative order: Dee (D), Jane (F), Francis (B), Bobby (E), Sam (C), Ivy (A)." \
        in said
    assert "blue to choose: Dee (D)'s turn, round 1: 6 AP" in said
    # the roll's label (kept in the log) has the ids; what it is for, the names
    k = t.said.index("roll for 'F attacks A (Small Guns 11º2 on a d20)': one 20-sided die")
    assert t.said[k + 1].startswith("  Jane (F) attacks Ivy (A): 11 or under succeeds;")
    k = t.said.index("roll for 'A evades (Evade 8º5 on a d20)': one 20-sided die")
    assert t.said[k + 1].startswith("  Ivy (A) evades: 8 or under succeeds;")


def test_unhex_asks_a_number_to_set_as_a_range(tmp_path: Path) -> None:
    from unh_builders import npc, pc, scenario

    sc = scenario({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    # initiative, the order, A's attack, B's reaction; the attack rolls doubles at or under
    # A's level: a critical success, and A sets the dice
    lines = ["3 4", "6 2", "1", "A attacks B with the pistol", "1", "2 2", "set the dice",
             "0", "99", "seven", "37"]
    t = ScriptedTerminal([*lines, "quit"])
    _play(sc, tmp_path / "u.jsonl", t)
    said = t.text
    assert "pcs decides 'A: critical success on attack':" in said
    assert "  [1] an extra action this round" in said
    head = next(s for s in t.said if s.startswith("pcs decides 'A: set the dice to"))
    low, high = re.findall(r"a number from (\d+) to (\d+)", head)[0]
    assert low == "1" and int(high) >= 37
    assert f"  [{high}]" not in said  # not listed one by one
    assert f"  0 is not from 1 to {high}: type a number from 1 to {high}" in said
    assert f"  99 is not from 1 to {high}: type a number from 1 to {high}" in said
    assert "  'seven' is not a number" in said
    assert "pcs chooses: 37" in said


def test_unhex_shows_who_won_the_initiative_before_the_order_is_asked(tmp_path: Path) -> None:
    t = Answering(8)
    _play(load_scenario(EXAMPLES / "unhex" / "nightclub-fight.yaml"), tmp_path / "n.jsonl", t)
    won = next(i for i, s in enumerate(t.said) if "win the initiative" in s)
    asked = next(i for i, s in enumerate(t.said) if "in which order do the teams act?" in s)
    assert won < asked
    assert sum("win the initiative" in s for s in t.said) == 1  # told once, not again after


class AsksForTheList(Answering):
    """Answering, but types 'actions' once, at the first prompt after a summary."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.asked_at: int | None = None

    def ask(self, prompt: str) -> str:
        if self.asked_at is None and any("'actions' shows them all" in s
                                         for s in self.said[-3:]):
            self.asked_at = len(self.said)
            self.prompts.append(prompt)
            return "actions"
        return super().ask(prompt)


def test_last_odyssey_lists_a_long_turns_actions_on_request(tmp_path: Path) -> None:
    t = AsksForTheList(40)
    _play(load_scenario(EXAMPLES / "last-odyssey" / "goblins.yaml"), tmp_path / "g.jsonl", t)
    said = t.said
    again = next(i for i, s in enumerate(said)
                 if s.startswith("party to choose: Lark's turn: 1 AP (55 actions)"))
    # the same unit's turn goes on: its actions counted by kind, not listed again
    assert said[again + 1:again + 4] == [
        "  [1-44] uses (44),  [45] moves to the front row,  [46-53] holds (8),  [54] flees,",
        "  [55] ends its turn;",
        "  'actions' shows them all, 'list WORDS' numbers them, or type an action's words",
    ]
    # all of them, grouped, on request (the first time a summary was shown: Vesper's turn)
    assert t.asked_at is not None
    assert said[t.asked_at - 4].startswith("party to choose: Vesper's turn: 1 AP (34 actions)")
    assert said[t.asked_at:t.asked_at + 2] == [
        "  [1] Vesper uses Basic Attack on Skirmisher 2",
        "  [2] Vesper uses Basic Attack on Skirmisher 2 to knock out"]
    # a new turn of the same unit (a round later) lists them again
    starts = [i for i, s in enumerate(said) if s.startswith("party to choose: Lark's turn: 2")]
    assert len(starts) >= 2
    for i in starts:
        assert said[i + 1].startswith("  [1-") and "ways: 'list Lark uses" in said[i + 1]


def test_last_odyssey_shows_an_attacks_reasons_without_their_rule_ids(tmp_path: Path) -> None:
    t = Answering(200)
    _play(load_scenario(EXAMPLES / "last-odyssey" / "police.yaml"), tmp_path / "p.jsonl", t,
          seed=3)
    faithful = [s for s in t.said if "Faithful: a downing blow on Captain" in s]
    assert faithful
    assert all(s.endswith("goes to Lieutenant") for s in faithful)


def test_the_rulings_behind_the_prompts_are_one_command_away(tmp_path: Path) -> None:
    t = ScriptedTerminal(["rulings 20 combat", "rulings nothing-like-this", "quit"])
    _play(load_scenario(EXAMPLES / "arc" / "warehouse.yaml"), tmp_path / "w.jsonl", t)
    assert t.prompts[0].startswith("dice for initiative of A")
    shown = [s for s in t.said if s.startswith("  ARC-9 ")]
    assert len(shown) == 1 and ": combat (" in shown[0]
    assert "  no ruling matches" in t.said
