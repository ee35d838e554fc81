"""Ability types (Self, Melee, Ranged, Ally, Special, Passive, Multi), basic attacks, costs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lod_builders import act, battle, enemy, make, of, to_turn

from tactica.engine.battle import Battle
from tactica.engine.errors import ContentError
from tactica.rulesets.last_odyssey.content import builtin_pack, load_packs
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    APSpent,
    AttackResolved,
    SwapEquipment,
    UseAbility,
)
from tactica.rulesets.last_odyssey.targeting import legal_actions

pytestmark = pytest.mark.both_engines

BASICS = {"cop": "truncheon", "hover-drone": "rubber-bullets", "spider-drone": "pincers",
          "lieutenant": "fists", "goblin-skirmisher": "knife", "boar-rider": "stab"}


@pytest.mark.reference_only  # no step played after the set-up
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


# -- Reaction: "cannot be used as an action, but triggers automatically when certain
# conditions are met": a pack declares the condition (trigger) and what it does (reaction).

SPIKES = {"name": "Spikes", "type": "reaction", "trigger": "hit-in-melee",
          "reaction": "prick"}
PRICK = {"name": "Prick", "type": "self", "hurt": 2}
RIPOSTE = {"name": "Riposte", "type": "reaction", "trigger": "missed-in-melee",
           "reaction": "fists"}


def _reactor(tmp_path: Path, *reactions: str) -> Battle:
    pack = {"abilities": {"spikes": SPIKES, "prick": PRICK, "riposte": RIPOSTE},
            "enemies": {"hedgehog": enemy("Hedgehog", hp=30, init=0, pacc=20,
                                          abilities=("fists", *reactions)),
                        "t": enemy(hp=30, init=9, pacc=3)}}
    sc = make(tmp_path, {"T": {"enemy": "t"}, "H": {"enemy": "hedgehog"}},
              {"us": "T", "them": "H"}, pack=pack)
    return to_turn(battle(sc), "T")


def test_a_declared_reaction_fires_when_its_trigger_is_met(tmp_path: Path) -> None:
    b = _reactor(tmp_path, "spikes")
    assert "spikes" not in {x.ability for x in legal_actions(b.state, "H")
                            if isinstance(x, UseAbility)}
    events = act(b, UseAbility("T", "fists", ("H",)), 2)  # hits: 2 - 3 + 0 <= 7
    assert of(events, AttackResolved)[0].hit
    used = of(events, AbilityUsed)
    assert used[-1] == AbilityUsed("H", "prick", ("T",), 0, 0, "", False, True)
    assert b.state.fighters["T"].hp == 28  # the Prick hurts the attacker for 2


def test_a_reaction_whose_trigger_is_not_met_does_not_fire(tmp_path: Path) -> None:
    b = _reactor(tmp_path, "riposte")
    events = act(b, UseAbility("T", "fists", ("H",)), 2)  # a hit: Riposte waits for a miss
    assert [e.ability for e in of(events, AbilityUsed)] == ["fists"]


def test_a_missed_in_melee_reaction_attacks_back(tmp_path: Path) -> None:
    pack_t = enemy(hp=30, init=9, pacc=0, eva=0)
    pack = {"abilities": {"riposte": RIPOSTE},
            "enemies": {"hedgehog": enemy("Hedgehog", hp=30, init=0, pacc=20, eva=9,
                                          abilities=("fists", "riposte")), "t": pack_t}}
    sc = make(tmp_path, {"T": {"enemy": "t"}, "H": {"enemy": "hedgehog"}},
              {"us": "T", "them": "H"}, pack=pack)
    b = to_turn(battle(sc), "T")
    events = act(b, UseAbility("T", "fists", ("H",)), 5, 4)  # 5 + 9 > 7 misses; then 4
    hits = of(events, AttackResolved)
    assert [(h.unit, h.hit) for h in hits] == [("T", False), ("H", True)]


@pytest.mark.reference_only  # no step played after the set-up
def test_a_reaction_without_its_trigger_is_refused_at_load(tmp_path: Path) -> None:
    bad = {"abilities": {"r": {"name": "R", "type": "reaction"},
                         "s": {"name": "S", "type": "ranged", "trigger": "hit-in-melee",
                               "attack": "physical"}}}
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_packs((tmp_path / "bad.yaml",))
    text = str(err.value)
    assert "bad.yaml" in text
    assert "abilities.r.trigger: field required for a reaction ability" in text
    assert "abilities.r.reaction: field required for a reaction ability" in text
    assert "abilities.s.trigger: only a reaction ability has a trigger" in text
