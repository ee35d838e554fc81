"""Ability types (Self, Melee, Ranged, Ally, Special, Passive, Multi), basic attacks, costs."""

from __future__ import annotations

from pathlib import Path

import pytest
from lod_builders import act, battle, enemy, make, of, to_turn

from tactica.rulesets.last_odyssey.content import builtin_pack
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    APSpent,
    AttackResolved,
    SwapEquipment,
    UseAbility,
)
from tactica.rulesets.last_odyssey.targeting import legal_actions

BASICS = {"cop": "truncheon", "hover-drone": "rubber-bullets", "spider-drone": "pincers",
          "lieutenant": "fists", "goblin-skirmisher": "knife", "boar-rider": "stab"}


@pytest.mark.parametrize(("template", "basic"), sorted(BASICS.items()))
def test_named_basic_attacks_are_colorless_melee_physical(template: str, basic: str) -> None:
    pack = builtin_pack()
    assert basic in pack.templates[template].abilities
    a = pack.abilities[basic]
    assert (a.basic, a.reach, a.attack, a.element, a.multiplier, a.mp, a.ap) == (
        True, "melee", "physical", "colorless", 1, 0, 1)


def test_the_basic_attack_is_always_melee_whatever_the_weapon(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Vesper": {"character": "vesper"}, "F": {"enemy": "t"},
                         "B": {"enemy": "t"}},
              {"party": "Vesper", "them": "F / B"}, pack={"enemies": {"t": enemy()}})
    b = to_turn(battle(sc), "Vesper")
    act(b, SwapEquipment("Vesper", "mundane bow"))
    basics = {x.targets for x in legal_actions(b.state, "Vesper")
              if isinstance(x, UseAbility) and x.ability == "basic-attack"}
    assert basics == {("F",)}


def test_passive_abilities_are_never_actions(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Cop": {"enemy": "cop"}, "Lt": {"enemy": "lieutenant"},
                         "T": {"enemy": "t"}},
              {"police": "Cop, Lt", "them": "T"}, pack={"enemies": {"t": enemy(init=0)}})
    b = to_turn(battle(sc), "Lt")
    names = {x.ability for x in legal_actions(b.state, "Lt") if isinstance(x, UseAbility)}
    assert "faithful" not in names and {"fists", "discipline"} <= names


def test_self_abilities_target_only_the_user(tmp_path: Path) -> None:
    sc = make(tmp_path, {"C": {"enemy": "captain"}, "D": {"enemy": "cop"}, "T": {"enemy": "t"}},
              {"police": "C, D", "them": "T"}, pack={"enemies": {"t": enemy(init=0)}})
    b = to_turn(battle(sc), "C")
    reloads = [x for x in legal_actions(b.state, "C")
               if isinstance(x, UseAbility) and x.ability == "reload"]
    assert reloads == [UseAbility("C", "reload", ("C",))]


@pytest.mark.parametrize(("ruling", "ranged", "ally"), [
    ("sides", {"T", "U"}, {"S", "Ally"}),
    ("anyone", {"T", "U", "Ally"}, {"S", "Ally", "T", "U"}),
])
def test_lod_16_ranged_and_ally_targets(tmp_path: Path, ruling: str, ranged: set[str],
                                        ally: set[str]) -> None:
    sc = make(tmp_path, {"S": {"enemy": "shaman"}, "Ally": {"enemy": "t"}, "T": {"enemy": "t"},
                         "U": {"enemy": "t"}},
              {"fairies": "Ally / S", "them": "T / U"}, pack={"enemies": {"t": enemy(init=0)}},
              rulings={"LOD-16": ruling})
    b = to_turn(battle(sc), "S")
    actions = [x for x in legal_actions(b.state, "S") if isinstance(x, UseAbility)]
    assert {x.targets[0] for x in actions if x.ability == "ghost-hand"} == ranged
    assert {x.targets[0] for x in actions if x.ability == "medicine"} == ally


def test_power_attack_is_x2_and_cleave_reaches_the_front_row(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Rook": {"character": "rook"}, "F": {"enemy": "t"},
                         "G": {"enemy": "t"}, "B": {"enemy": "t"}},
              {"party": "Rook", "them": "F, G / B"},
              pack={"enemies": {"t": enemy(hp=99, shell=90)}})
    b = to_turn(battle(sc), "Rook")
    cleaves = [x for x in legal_actions(b.state, "Rook")
               if isinstance(x, UseAbility) and x.ability == "cleave"]
    assert {x.targets for x in cleaves} == {("F", "G")}
    power = of(act(b, UseAbility("Rook", "power-attack", ("F",)), 4), AttackResolved)[0]
    assert (power.base, power.multiplier, power.damage) == (10, "2", 20)


def test_lod_19_unstated_costs_are_1_ap_and_no_mp(tmp_path: Path) -> None:
    sc = make(tmp_path, {"A": {"enemy": "arsonist"}, "T": {"enemy": "t"}},
              {"fire": "A", "them": "T"}, pack={"enemies": {"t": enemy(init=0, hp=99)}})
    b = to_turn(battle(sc), "A")
    events = act(b, UseAbility("A", "detonate", ("T",)), 5)
    assert of(events, APSpent) == [APSpent("A", 1, 1)]
    assert of(events, AbilityUsed)[0].mp == 0
