"""Playing Unhex at the table: reactions are asked of the reacting side before the dice, the
die assignment of the assigning side, and a fight cut in the middle of an attack resumes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from unh_builders import act, npc, pc, policies, ready, scenario

from tactica.engine.battle import Battle, PrefixDice, ScriptedDice
from tactica.engine.events import ActionTaken, Decided, Rolled
from tactica.play.session import PlaySession
from tactica.rulesets.unhex import UNHEX
from tactica.rulesets.unhex.records import (
    Assignment,
    Attack,
    FirstAidPlan,
    Hardening,
    Move,
    Reaction,
    Wounded,
)


class Table:
    """A game master typing ``lines``; keeps what was said."""

    def __init__(self, lines: Sequence[str]):
        self.lines = list(lines)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        self.said.append(f"> {prompt}")
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))


OPENING = ["3 4", "6 2", "1", "A attacks B with the pistol", "1"]


def test_a_person_reacts_before_the_dice_and_assigns_them_after(tmp_path: Path) -> None:
    sc = scenario({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    table = Table([*OPENING, "2 7", "2", "quit"])
    PlaySession.start(sc, tmp_path / "fight.jsonl", table, seed=1).run()
    said = table.said
    react = said.index("npcs decides \"B: react to A's attack with the pistol?\":")
    dice = said.index("roll for 'A: attack': a d100 read as tens and units (two ten-sided "
                      "dice, faces 0-9; 00 is 100)")
    assign = said.index("pcs decides 'A: which die is damage, 2 or 7?':")
    assert react < dice < assign
    assert said[react + 1:react + 3] == ["  [1] no reaction", "  [2] surrender"]
    assert "  B takes 7 damage to the right leg (chosen by A): right leg 7\\ 0X 0#." in said


def test_a_fight_cut_after_the_reaction_resumes_asking_only_for_the_dice(tmp_path: Path) -> None:
    sc = scenario({"A": pc("Entrance", items=["pistol"]), "B": npc("Dance Floor")})
    log = tmp_path / "fight.jsonl"
    PlaySession.start(sc, log, Table([*OPENING, "quit"]), seed=1).run()
    table = Table(["2 7", "2", "quit"])
    session = PlaySession.resume(log, table, scenario=sc)
    session.run()
    assert not any("react to" in line for line in table.said)
    wounds = [e for e in session.battle.log if isinstance(e, Wounded)]
    assert [(w.unit, w.location, w.amount) for w in wounds] == [("B", "right leg", 7)]


def test_the_log_holds_each_decision_by_its_side_before_the_rolls_it_precedes() -> None:
    b = ready({"A": pc("Dance Floor", items=["pistol"]), "B": npc("Bar")})
    act(b, Attack("A", "pistol", "B"), rolls=[(3, 7), (1, 2)],
        decisions={"npcs": [Reaction("defend"), lambda o: True]})
    records = [r for r in b.log if isinstance(r, (ActionTaken, Decided, Rolled))]
    assert [(type(r).__name__, getattr(r, "side", "")) for r in records] == [
        ("ActionTaken", "pcs"), ("Decided", "npcs"), ("Rolled", ""), ("Rolled", ""),
        ("Decided", "npcs")]  # B is in cover: the target assigns the dice


def test_interceptions_are_asked_of_each_reacting_character_before_any_die() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen"), "C": npc("Kitchen")})
    act(b, Move("A", "Kitchen"), rolls=[(9, 1)],
        decisions={"npcs": [Reaction("intercept", "knife"), Reaction("none")]})
    records = [r for r in b.log if isinstance(r, (Decided, Rolled))]
    assert [type(r).__name__ for r in records] == ["Decided", "Decided", "Rolled"]
    assert [r.label for r in records[:2]] == [
        "B: intercept A moving from Bar to Kitchen?", "C: intercept A moving from Bar to Kitchen?"]


def test_a_step_cut_in_the_middle_resumes_from_its_recorded_rolls() -> None:
    units = {"A": pc("Bar"), "B": npc("Bar")}
    whole = ready(units)
    act(whole, Attack("A", "knife", "B"), rolls=[(2, 2), (3, 1)],
        decisions={"npcs": [Reaction("defend")], "pcs": ["extra-action", lambda o: True]})
    cut_at = next(i for i, r in enumerate(whole.log) if isinstance(r, Rolled)) + 1
    start = ready(units)
    battle, cut = Battle.replay(UNHEX, start.state, whole.log[:cut_at])
    events = battle.resume_step(cut, dice=PrefixDice([], ScriptedDice([(3, 1)])),
                                policies=policies({"pcs": ["extra-action", lambda o: True]},
                                                  ("pcs", "npcs")))
    assert battle.log == whole.log[:len(battle.log)]
    assert events == whole.events()


def test_options_read_as_words() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    words = [UNHEX.explain.option(b.state, None, o) for o in (  # type: ignore[arg-type]
        Reaction("none"), Reaction("counterattack", "knife"),
        Assignment(7, "right leg", "units"),
        FirstAidPlan(3, 1, (("head", 2), ("torso", 1))),
        Hardening((("left leg", 2),)), ("pcs", "npcs"))]
    assert words == ["no reaction", "counterattack with the knife",
                     "7 damage (units die), right leg (tens die)",
                     "3 boxes over 2 locations: erase head 2, torso 1",
                     "2 on the left leg", "pcs then npcs"]
    assert UNHEX.sight.battlefield(b.state).name == "Nightclub"


def test_first_aid_offers_every_plan_grouped_by_reading_and_applies_the_one_chosen(
        tmp_path: Path) -> None:
    """"Erase that many `\\` marks over at most that many locations": a roll of 34 on a
    patient with `\\` on the head 1, left arm 5, torso 3, left leg 2 allows 3 boxes over 5
    locations or 4 over 4; every plan is offered once, on a few lines grouped by the
    reading, and {left arm 2, torso 2} (not a fill of one location after another) can be
    chosen."""
    from tactica.rulesets.unhex.aid import first_aid_plans

    marks = {"head": "\\", "left arm": "\\" * 5, "torso": "\\" * 3, "left leg": "\\" * 2}
    sc = scenario({"M": pc("Bar", items=["first-aid-kit"]), "P": {**pc("Bar"), "marks": marks},
                   "B": npc("Alley")})
    plans = first_aid_plans(sc.new_state().chars["P"].body, (3, 4))
    assert len(plans) == 35 == len({p.erase for p in plans})
    pick = 1 + plans.index(FirstAidPlan(4, 3, (("left arm", 2), ("torso", 2))))
    table = Table(["1", "3 4", "6 2", "1", "M gives first aid to P", "3 4", str(pick), "quit"])
    session = PlaySession.start(sc, tmp_path / "fight.jsonl", table, seed=1)
    session.run()
    said = table.said
    ask = said.index("pcs decides 'M: first aid on P, which marks to erase?':")
    listed = said[ask + 1:said.index("> pcs decides> ", ask)]
    assert len(listed) < len(plans) // 2
    assert listed[0].startswith("  3 boxes over 5 locations, erase: [1] head 1, left arm 2")
    assert any(line.startswith("  4 boxes over 4 locations, erase: [16]") for line in listed)
    assert f"[{pick}] left arm 2, torso 2" in " ".join(listed)
    body = session.battle.state.chars["P"].body
    assert (body.marks_at("left arm").slash, body.marks_at("torso").slash) == (0, 0)
    assert (body.marks_at("left arm").x, body.marks_at("torso").x) == (3, 1)
