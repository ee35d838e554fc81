"""Every dice prompt names who physically rolls, in every game: not always the acting side.

A defender rolls its own armor (Nebulia), its defence (Unhex) or its evasion (Arc); a trooper
rolls its own reaction fire in the enemy's move (Skirmishers, see also ``test_ski_table``); a
Captain rolls the hit die of its Revenge in the party's attack (Last Odyssey). Each fight is
played through the controller the terminal and the web page use, seeded, until such a roll is
asked; the roller is then checked against the rules' own units.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tactica.engine.ruleset import UnitStatus
from tactica.engine.scenario import load_scenario
from tactica.play import FightController
from tactica.play.controller import ActionRequest, DecisionRequest, Over, RollRequest
from tactica.play.roller import TABLE, Roller, named_roller, roller_of
from tactica.web.snapshot import request_json

EXAMPLES = Path(__file__).parents[2] / "examples"


class Asked:
    """A roll as asked: its request, who rolls it, the acting side and its action."""

    def __init__(self, req: RollRequest, roller: Roller, side: str | None, action: Any):
        self.req, self.roller, self.side, self.action = req, roller, side, action


def drive(ctl: FightController, wanted: Callable[[RollRequest], bool], *,
          prefer: str = "", options: str = "", dice: Callable[[RollRequest], str] | None = None,
          limit: int = 800, seed: int = 1) -> Asked:
    """Play seeded until a roll ``wanted`` is asked: actions matching ``prefer`` first,
    options matching ``options`` first, dice typed by ``dice`` (else rolled by tactica)."""
    rng = random.Random(seed)
    for _ in range(limit):
        req = ctl.advance()
        if isinstance(req, Over):
            break
        if isinstance(req, RollRequest):
            if wanted(req):
                side, _ = ctl.acting()
                return Asked(req, ctl.roller(req), side, ctl.acting_action())
            ctl.answer_roll(dice(req) if dice else "", key=req.key)
        elif isinstance(req, DecisionRequest):
            good = [i for i, t in enumerate(req.texts) if options and re.search(options, t)]
            ctl.decide(good[0] if good else rng.randrange(len(req.texts)), key=req.key)
        else:
            assert isinstance(req, ActionRequest)
            good = [i for i, t in enumerate(req.texts) if prefer and re.search(prefer, t)]
            ctl.take(rng.choice(good) if good else rng.randrange(len(req.actions)),
                     key=req.key)
    raise AssertionError("the roll never came")


def start(tmp_path: Path, scenario: Path, seed: int = 1) -> FightController:
    return FightController.start(load_scenario(scenario), tmp_path / "fight.jsonl", seed=seed,
                                 durable=False)


def side_of(ctl: FightController, unit: str) -> str:
    return next(u.side for u in ctl.battle.ruleset.units(ctl.battle.state) if u.id == unit)


def test_nebulia_the_armor_roll_is_the_targets(tmp_path: Path) -> None:
    ctl = start(tmp_path, EXAMPLES / "nebulia" / "duel.yaml")
    hit = drive(ctl, lambda r: r.label == "to hit", prefer="attacks")
    assert hit.roller == Roller(hit.side, hit.action.unit)
    ctl.answer_roll("1", key=hit.req.key)  # a success: the target rolls its armor
    armor = drive(ctl, lambda r: r.label == "armor", prefer="attacks")
    target = armor.action.target
    assert armor.roller == Roller(side_of(ctl, target), target) and armor.roller.side != armor.side
    # The page's dice prompt says so too.
    asked = request_json(ctl, armor.req)
    assert (asked["roller"], asked["roller_unit"], asked["side"]) == ("blue", "B", "red")
    assert asked["roller_words"] == "blue (B)"


def test_unhex_a_defence_is_rolled_by_the_defender(tmp_path: Path) -> None:
    ctl = start(tmp_path, EXAMPLES / "unhex" / "nightclub-fight.yaml")
    asked = drive(ctl, lambda r: r.label.endswith(": defend"), prefer="attacks",
                  options="^defend")
    defender = asked.req.label.split(":")[0]
    assert defender == asked.action.target
    assert asked.roller == Roller(side_of(ctl, defender), defender)
    assert asked.roller.side != asked.side


def test_unhex_initiative_is_rolled_by_each_team_for_the_table(tmp_path: Path) -> None:
    ctl = start(tmp_path, EXAMPLES / "unhex" / "nightclub-fight.yaml")
    asked = drive(ctl, lambda r: r.label.endswith(": initiative"))
    unit = asked.req.label.split(":")[0]
    assert asked.side is None and asked.roller == Roller(side_of(ctl, unit), unit)


def test_arc_an_evasion_is_rolled_by_the_one_evading(tmp_path: Path) -> None:
    ctl = start(tmp_path, EXAMPLES / "arc" / "pistol-duel.yaml")
    asked = drive(ctl, lambda r: " evades " in r.label, prefer="attacks")
    evader = asked.req.label.split(" evades ")[0]
    assert asked.roller == Roller(side_of(ctl, evader), evader)
    assert asked.roller.side != asked.side


def test_skirmishers_reaction_fire_is_rolled_by_the_firer(tmp_path: Path) -> None:
    ctl = start(tmp_path, EXAMPLES / "skirmishers" / "corridor-ambush.yaml")
    asked = drive(ctl, lambda r: "reaction fire by" in r.label, prefer="moves",
                  options="^[A-Z]$")
    firer = re.search(r"reaction fire by (\S+)", asked.req.label).group(1)  # type: ignore[union-attr]
    assert asked.roller == Roller(side_of(ctl, firer), firer)
    assert asked.roller.side != asked.side


def test_last_odyssey_a_revenge_is_rolled_by_the_captain(tmp_path: Path) -> None:
    """The party's melee attack on the Captain misses (a 10 on the hit die); the Captain's
    Revenge hit die is the police's roll, in the party's action."""
    ctl = start(tmp_path, EXAMPLES / "last-odyssey" / "police.yaml")

    def miss_the_captain(req: RollRequest) -> str:
        return "10" if req.label == "hit die" and "Captain" in req.roll.hint else ""

    asked = drive(ctl, lambda r: r.label == "hit die (Revenge)",
                  prefer=r"^\w+ uses (Fists|Sword|Cattle Prod|\w+) on Captain$",
                  dice=miss_the_captain, limit=2000)
    assert asked.roller == Roller("police", "Captain") and asked.side == "party"


def test_a_label_naming_nobody_is_the_acting_sides_or_the_tables(tmp_path: Path) -> None:
    ctl = start(tmp_path, EXAMPLES / "nebulia" / "duel.yaml")
    battle = ctl.battle
    assert roller_of(battle, "first side", None, None) == TABLE
    assert roller_of(battle, "a roll", None, "red") == Roller("red")
    units = battle.ruleset.units(battle.state)
    assert named_roller("2D6 start cell for the hit by B on A", units, ("red", "blue")) == \
        Roller("blue", "B")


def test_a_unit_is_named_as_a_whole_word_only() -> None:
    units = (UnitStatus("D", "red", True), UnitStatus("Cop 1", "police", True))
    assert named_roller("2D6 to hit", units, ()) is None  # no D inside 2D6
    assert named_roller("D's rifle on Cop 1", units, ()) == Roller("red", "D")
    assert named_roller("Cop 1's wound dice", units, ()) == Roller("police", "Cop 1")
    assert Roller("police", "Cop 1").words() == "police (Cop 1)" and TABLE.words() == "the table"
