"""Readings the code used to take without saying so, now rulings (LOD-22 onwards), and First
Strike before initiative."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lod_builders import Dice, act, battle, enemy, make, of, to_turn

from tactica.engine.ruleset import ChooseAction
from tactica.rulesets.last_odyssey.records import (
    AttackResolved,
    Damaged,
    InitiativeRolled,
    ItemStolen,
    PhaseStarted,
    UseAbility,
)

pytestmark = pytest.mark.both_engines


def _pair(tmp: Path, attacker: dict[str, Any], target: dict[str, Any],
          rulings: dict[str, str] | None = None, **units: Any) -> Any:
    pack = {"enemies": {"a": attacker, "t": target}}
    sc = make(tmp, {"A": {"enemy": "a", **units.get("a", {})},
                    "T": {"enemy": "t", **units.get("t", {})}},
              {"left": "A", "right": "T"}, pack=pack, rulings=rulings)
    return to_turn(battle(sc), "A")


@pytest.mark.parametrize(("ruling", "a_hp", "t_hp", "multiplier"), [
    ("target", 10, 99, "4"), ("target", 99, 50, "2"),
    ("user", 99, 50, "4"), ("user", 10, 99, "2"),
])
def test_lod_22_whose_full_hp_dragonslayer_checks(tmp_path: Path, ruling: str, a_hp: int,
                                                  t_hp: int, multiplier: str) -> None:
    b = _pair(tmp_path, enemy(init=5, patk=1, pacc=10, mp=20, hp=99,
                              abilities=("dragonslayer",)),
              enemy(hp=99, shell=60), {"LOD-22": ruling}, a={"hp": a_hp}, t={"hp": t_hp})
    hit = of(act(b, UseAbility("A", "dragonslayer", ("T",)), 1), AttackResolved)[0]
    assert hit.multiplier == multiplier


@pytest.mark.parametrize(("ruling", "spent"), [("damaging", False), ("any-hit", True)])
def test_lod_23_does_steal_use_up_body_armor(tmp_path: Path, ruling: str, spent: bool) -> None:
    pack = {"enemies": {"p": enemy(init=9, pacc=20, patk=5,
                                   abilities=("steal", "fists"))}}
    sc = make(tmp_path, {"P": {"enemy": "p"}, "Cop": {"enemy": "cop", "items": ["potion"]}},
              {"fairies": "P", "police": "Cop"}, pack=pack, rulings={"LOD-23": ruling})
    b = to_turn(battle(sc), "P")
    events = act(b, UseAbility("P", "steal", ("Cop",)), 2, choices=("potion",))
    assert of(events, ItemStolen) == [ItemStolen("P", "Cop", "potion")]
    assert not of(events, Damaged)
    assert b.state.fighters["Cop"].body_armor_spent is spent
    # The next physical hit: stopped by the armor if Steal left it, damage otherwise.
    punch = act(b, UseAbility("P", "fists", ("Cop",)), 2)
    assert bool(of(punch, Damaged)) is spent


@pytest.mark.parametrize(("ruling", "order"), [("initiative", ["Fast", "Slow1", "Slow2"]),
                                               ("listed", ["Slow1", "Fast", "Slow2"])])
def test_first_strike_comes_before_the_calls_and_the_gms_roll(tmp_path: Path, ruling: str,
                                                              order: list[str]) -> None:
    # The party (player characters) calls initiative and the GM rolls 2d4: the police's
    # First Strike turns come before any of that (LOD-24 orders the free turns).
    pack = {"enemies": {"slow": enemy(init=1), "fast": enemy(init=9)}}
    sc = make(tmp_path, {"Slow1": {"enemy": "slow"}, "Fast": {"enemy": "fast"},
                         "Slow2": {"enemy": "slow"}, "Rook": {"character": "rook"}},
              {"police": "Slow1, Fast, Slow2", "party": "Rook"}, pack=pack,
              first_strike="police", rulings={"LOD-24": ruling})
    b = battle(sc)
    dice = Dice(gm=5)
    b.advance(dice=dice)
    assert dice.labels == []  # nothing rolled before First Strike
    assert b.state.phase == "first-strike" and not of(b.events(), InitiativeRolled)
    seen = []
    while isinstance(b.pending, ChooseAction):
        seen.append((b.state.active, b.state.ap))
        act(b, next(a for a in b.legal_actions() if type(a).__name__ == "EndTurn"))
    assert seen == [(u, 1) for u in order]
    b.advance(dice=dice)
    assert dice.labels == ["GM's 2d4"]  # now initiative
    phases = [(e.round, e.phase) for e in b.events() if isinstance(e, PhaseStarted)]
    assert phases == [(0, "first-strike"), (1, "paradigm"), (1, "action")]
    assert of(b.events(), InitiativeRolled)[0].order[0] == "Fast"
