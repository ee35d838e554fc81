"""Skirmishers played from the terminal alone, as a game master sits at the table: the text
map draws every kind of wall, opening, stairs and building with a legend; an activation lists
its actions by kind with what each costs and the destinations nearest first; the dice prompts
say what each roll decides; a move says what it spends and what is left."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from ski_builders import example, ready, take, trooper
from test_ski_melee import PAIR, to_blue_turn
from test_ski_play import AMBUSH, Table

from tactica.cli import main
from tactica.engine.events import Rolled
from tactica.engine.scenario import load_scenario
from tactica.play import PlaySession
from tactica.rulesets.skirmishers import records as r

pytestmark = pytest.mark.both_engines

YARD = textwrap.dedent("""\
    kind: dots
    name: Yard
    levels:
      ground: |
        A . . . . . .
         . . . . . . .
        . . . . . . B
         . . . . . . .
      first:
    buildings:
      - name: Hut
        from: [3, 1]
        to: [4, 2]
        floors: 2
        doors: [{at: [3, 1], towards: west}]
        windows: [{at: [4, 2], towards: east}]
        stairs: [[4, 1]]
    features:
      - {between: [[0, 0], [1, 0]], kind: low-wall}
      - {between: [[0, 1], [0, 2]], kind: fence}
      - {between: [[1, 2], [2, 2]], kind: furniture}
      - {between: [[1, 0], [1, 1]], kind: vegetation}
      - {between: [[5, 0], [6, 0]], kind: high-wall}
      - {between: [[1, 3], [2, 3]], kind: tree}
    sides: {A: red, B: blue}
    """)

# Dots are four characters apart, rows two lines apart; what stands between two dots is drawn
# halfway between them: the low wall between 0,0 and 1,0 right of A, the fence below 0,1 (the
# odd row sits half a spacing right), the hut's walls all round 3,1 to 4,2 with the door on
# the west of 3,1, the window on the east of 4,2 and the stairs on 4,1, on both floors.
YARD_PICTURE = """\
Yard: dots 7x4, 2 levels, 2 troopers
level ground:
   0   1   2   3   4   5   6
0  A = .   .   .   .   . % .
        ~       # # # #
1    .   .   . + :   ^ # .   .
    |         #       #
2  .   . * . # :   : " .   B
              # # # #
3    .   . & .   .   .   .   .
level first:
   0   1   2   3   4   5   6
                # # # #
1              # :   ^ #
              #       #
2            # :   : #
              # # # #
legend: . open ground, : floor inside a building, ^ stairs, blank: no floor
  between dots: = low wall (1), * furniture (1), | fence (1), ~ light vegetation (1),
    " window (1), + door (1), % high wall (1), & tree trunk (1), # building wall (26)
  building Hut: 3,1 to 4,2, 2 floors (ground, first)
  stairs at 4,1: ground to first
  troopers:
    A (red) at 0,0
    B (blue) at 6,2"""


@pytest.mark.reference_only  # no step played after the set-up
def test_the_text_map_draws_each_feature_kind_per_level_with_a_legend(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "yard.yaml"
    path.write_text(YARD)
    assert main(["map", str(path)]) == 0
    assert capsys.readouterr().out == YARD_PICTURE + "\n"


@pytest.mark.reference_only  # no step played after the set-up
def test_the_street_fight_map_shows_the_house_on_both_floors(
        capsys: pytest.CaptureFixture[str]) -> None:
    here = Path(__file__).parents[2] / "examples" / "skirmishers" / "street-fight.yaml"
    assert main(["map", str(here)]) == 0
    out = capsys.readouterr().out.split("\n")
    ground, first = out.index("level ground:"), out.index("level first:")
    # Row 6 of the ground: A in the open, the garden's low wall, the house's wall, W inside,
    # and the east window of the house; Y at its first-floor window on the same row above.
    assert out[ground + 1 + 2 * 6 + 1] == (
        " 6  .   .   A   .   .   . = .   . # :   :   W   :   :   :   :   : \" .   .   .   .   "
        ".   .   .   .")
    assert " Y \"" in out[first + 1 + 2 * (6 - 3)]  # the first floor starts above row 4
    assert "  building House: 8,4 to 15,10, 2 floors (ground, first)" in out
    assert "  stairs at 14,9: ground to first" in out
    assert "    Y (blue) at 15,6@first" in out


def _menu(said: list[str], start: str) -> list[str]:
    first = next(i for i, line in enumerate(said) if line.startswith(start))
    end = next(i for i in range(first + 1, len(said)) if said[i].startswith("  type a number"))
    return said[first + 1:end]


@pytest.mark.reference_only  # no step played after the set-up
def test_an_activation_lists_its_actions_by_kind_with_their_ap(tmp_path: Path) -> None:
    table = Table({"dice for first side": ["red"], "red>": ["activate A", "quit"]})
    PlaySession.start(example("street-fight.yaml"), tmp_path / "s.jsonl", table, seed=1,
                      durable=False).run()
    menu = _menu(table.said, "red to choose: A acts (8 AP left) (165 actions)")
    assert menu[0] == "  A moves to (nearest first, AP to get there):"
    # The six dots around A at 2,6 cost 1 AP each; then 2 AP, and so on up to 8.
    assert menu[1] == "    1 AP: [5] 1,5  [6] 2,5  [4] 1,6  [1] 3,6  [3] 1,7  [2] 2,7"
    costs = [int(m.group(1)) for line in menu if (m := re.match(r"    (\d+) AP: ", line))]
    assert costs == [1, 2, 3, 4, 5, 6, 7, 8]
    assert "  A sets a firing arc of its Rifle (it fires when an enemy acts or moves inside " \
           "it):" in menu
    arcs = [line for line in menu if re.match(r"    \d+°, ", line)]
    assert [a.split(":")[0] for a in arcs] == ["    30°, 2 AP, 1 shot", "    60°, 4 AP, 2 shots",
                                               "    150°, 6 AP, 4 shots"]
    assert arcs[0].startswith("    30°, 2 AP, 1 shot: [153] toward W (10,6)  [156] toward X")
    assert "  [110] A goes prone (1 AP)" in menu
    assert "  A readies (3 AP): [111] Pistol  [112] Knife  [113] Hand Grenade" in menu
    assert "  A drops (0 AP): [114] Rifle  [115] Pistol  [116] Knife" in menu
    assert "  [165] A ends its activation" in menu
    # Every action is listed once, by the number that takes it.
    numbers = sorted(int(n) for line in menu for n in re.findall(r"\[(\d+)\]", line))
    assert numbers == list(range(1, 166))
    # No shot is offered: the hint says how to fire.
    assert menu[-1] == ("  how to fire: set a firing arc (above, or 'aim N DEGREES'): it "
                        "fires at an enemy acting or moving in it")


@pytest.mark.reference_only  # no step played after the set-up
def test_a_move_says_what_it_spends_and_what_is_left(tmp_path: Path) -> None:
    table = Table({"dice for first side": ["red"],
                   "red>": ["activate A", "A moves to 7,7", "quit"]})
    PlaySession.start(example("street-fight.yaml"), tmp_path / "s.jsonl", table, seed=1,
                      durable=False).run()
    said = table.said
    k = said.index("red: A moves to 7,7")
    assert said[k + 1] == "  costs 7 AP of the 8 available: 1 AP left after (movement cap 8, " \
                          "0 spent)"
    assert "red to choose: A acts (1 AP left) (8 actions)" in said
    menu = said[said.index("red to choose: A acts (1 AP left) (8 actions)") + 1:]
    assert menu[:2] == ["  A moves to (nearest first, AP to get there):",
                        "    1 AP: [3] 7,6  [2] 6,7  [1] 7,8"]
    assert menu[5] == ("  how to fire: no firing arc can be set now (one a turn, for 2 to 6 "
                       "AP); an arc fires at an enemy acting or moving in it")


@pytest.mark.reference_only  # no step played after the set-up
def test_every_die_says_what_it_decides(tmp_path: Path) -> None:
    # B's arc holds the lane: red walks A into it, blue fires twice (6 6 hits, then 1 2
    # starts at cell 3), and A falls at 2,0.
    scenario = tmp_path / "lane.yaml"
    scenario.write_text(AMBUSH)
    table = Table({"red>": ["activate A", "A moves to 4,0", "quit"],
                   "blue decides": ["2", "2", "1"], "dice": ["6 6", "1 2"]})
    PlaySession.start(load_scenario(scenario), tmp_path / "lane.jsonl", table, seed=3,
                      durable=False).run()
    dice = [p for p in table.prompts if p.startswith("dice for")]
    # Red moves A, but blue's player rolls blue's reaction fire: the prompt names the roller.
    assert dice == [
        "dice for 2D6 to hit: reaction fire by B at A, rolled by blue (B) (e.g. 2 5; Enter "
        "rolls)> ",
        "dice for 2D6 start cell for the reaction-fire hit by B on A, rolled by blue (B) (e.g. "
        "2 5; Enter rolls)> ",
    ]
    assert "blue (B) rolls in red's action: A moves to 4,0" in table.said
    assert "roll for '2D6 to hit: reaction fire by B at A': two six-sided dice" in table.said


@pytest.mark.reference_only  # no step played after the set-up
def test_the_map_command_at_the_table_draws_the_same_picture(tmp_path: Path) -> None:
    table = Table({"dice for first side": ["red"], "red>": ["map", "quit"]})
    PlaySession.start(example("street-fight.yaml"), tmp_path / "s.jsonl", table, seed=1,
                      durable=False).run()
    said = table.said
    # Shown once before the first choice, then again on request, each with its legend.
    assert said.count("level first:") == 2
    assert said.count("legend: . open ground, : floor inside a building, ^ stairs, blank: "
                      "no floor") == 2
    assert "  who stands where:" in said


def test_a_melee_roll_and_its_start_cell_name_the_attacker_and_the_target() -> None:
    b = ready(PAIR, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    take(b, r.Melee("A", "B", "bayonet"))
    to_blue_turn(b)
    take(b, r.Activate("B"), rolls=[[2, 2], [3, 4]])
    labels = [x.label for x in b.log if isinstance(x, Rolled)]
    assert labels[-2:] == ["2D6 to hit: A strikes B in melee",
                           "2D6 start cell for the hit by A on B"]


@pytest.mark.reference_only  # no step played after the set-up
def test_a_reaction_shot_is_offered_with_the_target_number_where_the_enemy_steps(
        tmp_path: Path) -> None:
    # A's 150° arc covers the house; W walks out of the west door into it. The offer is
    # worked out with W on the dot it enters (inside the house A could not see it).
    red = ["activate A", "155", "A ends its activation"]
    for uid in "BCD":
        red += [f"activate {uid}", f"{uid} ends its activation"]
    table = Table({"dice for first side": ["red"], "red>": red,
                   "blue>": ["activate W", "W moves to 7,7", "quit"],
                   "red decides": ["2"]})
    PlaySession.start(example("street-fight.yaml"), tmp_path / "s.jsonl", table, seed=1,
                      durable=False).run()
    said = table.said
    assert "red: A establishes a 150° arc toward 10,6 (6 AP)" in said
    offer = said[said.index("red decides 'reaction fire':") + 1]
    assert re.fullmatch(r"  \[1\] A fires at W with its Rifle \(target number \d+, \d+/\d+ to "
                        r"hit; 4 shots left\)", offer)
    assert "None" not in table.text


@pytest.mark.reference_only  # no step played after the set-up
def test_a_ready_grenade_lists_its_throws_by_ap(tmp_path: Path) -> None:
    table = Table({"dice for first side": ["red"],
                   "red>": ["activate A", "A readies its Hand Grenade", "quit"]})
    PlaySession.start(example("street-fight.yaml"), tmp_path / "s.jsonl", table, seed=1,
                      durable=False).run()
    menu = _menu(table.said, "red to choose: A acts (5 AP left) (139 actions)")
    k = menu.index("  A throws a Hand Grenade at:")
    assert menu[k + 1] == "    1 AP: [95] 1,5  [96] 2,5  [102] 1,6  [103] 3,6  [109] 1,7  [110] 2,7"
    costs = [int(m.group(1)) for line in menu[k:] if (m := re.match(r"    (\d+) AP: ", line))]
    assert costs == [1, 2, 3, 4, 5]
    assert menu[-1] == ("  how to fire: throw (above), or ready a firearm (3 AP), then set a "
                        "firing arc: it fires at an enemy acting or moving in it")
