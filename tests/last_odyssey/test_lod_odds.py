"""Exact odds: the hook, the command line, multi-target reports, and agreement with sampling."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from lod_builders import EXAMPLES, battle, enemy, example, make, of, to_turn

from tactica import odds_of
from tactica.cli import main
from tactica.engine.battle import Battle, SampledDice
from tactica.engine.errors import IllegalActionError
from tactica.rulesets.last_odyssey.records import AttackResolved, Damaged, Downed, UseAbility

COP_VS_GOBLIN = EXAMPLES / "cop-vs-goblin.yaml"


def test_cop_truncheon_on_a_goblin_exactly() -> None:
    sc = example("cop-vs-goblin.yaml")
    report = odds_of(sc.ruleset, sc.new_state(), "Cop", "Goblin")
    n = report.numbers
    # die - 4 + 4 <= 7 (faces 1-7); base 4 - 1 + die; x1 against the wood Shell of 5.
    assert n["p_hit"] == Fraction(7, 10)
    assert n["expected_damage"] == Fraction(49, 10)
    assert n["p_shellbreak"] == Fraction(6, 10)  # faces 2-7 deal 5 or more
    assert n["p_down"] == 0  # the rest (at most 5) is never more than 5 HP
    dmg = report.distributions["damage"]
    assert dmg.p(0) == Fraction(3, 10) and all(dmg.p(v) == Fraction(1, 10) for v in range(4, 11))
    assert report.distributions["hp_loss"].p(0) == 1
    assert report.distributions["shell_left"].to_dict() == {
        0: Fraction(6, 10), 1: Fraction(1, 10), 5: Fraction(3, 10)}
    assert any("faces 1-7 hit" in r for r in report.reasons)


def test_the_command_line_gives_the_same_exact_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", str(COP_VS_GOBLIN), "--attacker", "Cop", "--target", "Goblin",
                 "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert data["exact"]["p_hit"] == "7/10" and data["exact"]["expected_damage"] == "49/10"
    assert data["exact"]["p_shellbreak"] == "3/5" and data["p_down"] == 0.0
    assert data["weapon"] == "Truncheon"
    code = main(["odds", str(COP_VS_GOBLIN), "--table", "--json"])
    rows = json.loads(capsys.readouterr()[0])
    assert code == 0 and {(r["attacker"], r["weapon"]) for r in rows} >= {
        ("Cop", "Truncheon"), ("Goblin", "Knife"), ("Goblin", "Poison Arrow")}


def test_exact_odds_agree_with_seeded_battles_within_4_standard_errors() -> None:
    sc = example("cop-vs-goblin.yaml")
    report = odds_of(sc.ruleset, sc.new_state(), "Cop", "Goblin")
    start = to_turn(battle(sc), "Cop")
    rng = np.random.default_rng(20240601)
    dice = SampledDice(rng, faces=True)
    n = 4000
    hits = breaks = downs = 0
    damage: dict[int, int] = {}
    for _ in range(n):
        trial = Battle(sc.ruleset, sc.ruleset.copy_state(start.state))
        events = trial.apply(UseAbility("Cop", "truncheon", ("Goblin",)), dice=dice)
        r = of(events, AttackResolved)[0]
        hits += r.hit
        d = r.damage if r.hit else 0
        damage[d] = damage.get(d, 0) + 1
        breaks += any(e.broken for e in of(events, Damaged))
        downs += bool(of(events, Downed))
    for name, count in (("p_hit", hits), ("p_shellbreak", breaks), ("p_down", downs)):
        p = float(report.numbers[name])
        se = math.sqrt(p * (1 - p) / n)
        assert abs(count / n - p) <= 4 * se + 1e-12, (name, count / n, p)
    exact = report.distributions["damage"]
    assert set(damage) <= set(exact.outcomes)
    for value, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(damage.get(value, 0) / n - float(p)) <= 4 * se
    mean = sum(v * c for v, c in damage.items()) / n
    assert abs(mean - float(exact.mean())) <= 4 * exact.sd() / math.sqrt(n)


def seed_scene(tmp: Path) -> object:
    pack = {"enemies": {
        "hero": enemy("Hero", pacc=3, patk=2, init=9, abilities=("cleave", "fists")),
        "first": enemy("First", eva=6, pdef=1, shell=10),
        "second": enemy("Second", eva=2, pdef=3, shell=10),
    }}
    return make(tmp, {"H": {"enemy": "hero"}, "E1": {"enemy": "first"},
                      "E2": {"enemy": "second"}}, {"us": "H", "them": "E1, E2"}, pack=pack)


def test_multi_target_odds_per_target_from_one_die(tmp_path: Path) -> None:
    sc = seed_scene(tmp_path)
    state = sc.new_state()
    report = odds_of(sc.ruleset, state, "H", "E1,E2", "Cleave")
    n = report.numbers
    assert n["p_hit[E1]"] == Fraction(4, 10)  # die - 3 + 6 <= 7: faces 1-4
    assert n["p_hit[E2]"] == Fraction(8, 10)  # die - 3 + 2 <= 7: faces 1-8
    # E2: base max(1, 2 - 3 + die) x1 (Shell up); the seed's die 5 gives 4.
    assert report.distributions["damage[E2]"].p(4) == Fraction(1, 10)
    assert n["expected_damage"] == n["expected_damage[E1]"] + n["expected_damage[E2]"]
    assert report.target == "E1,E2"
    single = odds_of(sc.ruleset, state, "H", "E2", "cleave")
    assert single.numbers["p_hit"] == n["p_hit[E2]"]


def test_odds_options_knockout_and_element(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Lark": {"character": "lark"}, "Rook": {"character": "rook"},
                         "T": {"enemy": "t"}},
              {"party": "Rook / Lark", "them": "T"},
              pack={"enemies": {"t": enemy(element="water", hp=99)}})
    state = sc.new_state()
    rs = sc.ruleset
    hit = odds_of(rs, state, "Rook", "T")
    ko = odds_of(rs, state, "Rook", "T", knockout=True)
    assert ko.numbers["p_hit"] == hit.numbers["p_hit"]
    assert set(ko.distributions["damage"].outcomes) <= {0, 2 * (6 - 0 + 1)}
    assert odds_of(rs, state, "Rook", "T", "Basic Attack/knockout").numbers == ko.numbers
    bolt = odds_of(rs, state, "Lark", "T", "Elemental Bolt/thunder")
    assert "thunder vs water x4" in " ".join(bolt.reasons)
    with pytest.raises(IllegalActionError, match="needs an element"):
        odds_of(rs, state, "Lark", "T", "Elemental Bolt")
    with pytest.raises(IllegalActionError, match="only player characters"):
        odds_of(rs, state, "T", "Rook", knockout=True)


def test_odds_refuse_what_cannot_be_done(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Moss": {"character": "moss"}, "Rook": {"character": "rook"},
                         "T": {"enemy": "t"}, "U": {"enemy": "t"}},
              {"party": "Rook / Moss", "them": "T / U"}, pack={"enemies": {"t": enemy()}})
    state = sc.new_state()
    rs = sc.ruleset
    with pytest.raises(IllegalActionError, match="back row"):
        odds_of(rs, state, "Rook", "U")
    with pytest.raises(IllegalActionError, match="back row"):
        odds_of(rs, state, "Moss", "T")
    with pytest.raises(IllegalActionError, match="always works"):
        odds_of(rs, state, "Moss", "Rook", "Heal")
    with pytest.raises(IllegalActionError, match="one target"):
        odds_of(rs, state, "Rook", "T,U")
    with pytest.raises(IllegalActionError, match="no ability"):
        odds_of(rs, state, "Rook", "T", "Fireball")
    flash = odds_of(rs, state, "Moss", "U", "Flash")
    assert flash.numbers["p_out_of_action"] == 0 and "status roll" in flash.reasons[1]


def test_odds_show_faithful_and_shellbreak_downs(capsys: pytest.CaptureFixture[str]) -> None:
    sc = example("police.yaml")
    state = sc.new_state()
    report = odds_of(sc.ruleset, state, "Lark", "Captain", "Elemental Bolt/thunder")
    assert report.numbers["p_down"] == 0  # the Lieutenant takes any downing bolt
    assert any("Faithful" in r for r in report.reasons)
    cop = odds_of(sc.ruleset, state, "Lark", "Cop 1", "Elemental Bolt/thunder")
    assert 0 < cop.numbers["p_down"] < cop.numbers["p_hit"]
    code = main(["odds", str(EXAMPLES / "police.yaml"), "-a", "Lark", "-t",
                 "Cop 1,Cop 2,Captain,Hover Drone,Spider Drone,Lieutenant",
                 "-w", "Elemental Storm/wind", "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert code == 0 and "p_hit[Hover Drone]" in data and "p_down[Lieutenant]" in data


def test_odds_and_a_seeded_battle_agree_on_the_boar_rider_at_0_hp(tmp_path: Path) -> None:
    # Every hit takes the Boar Rider (HP 22 to 4, no Shell left) to 0 HP: in the battle it
    # stays up until the Effect phase (Too Stupid to Die); the odds say so too.
    pack = {"enemies": {"t": enemy(init=9, patk=30, pacc=10, hp=60, abilities=("fists",))}}
    sc = make(tmp_path, {"T": {"enemy": "t"}, "Boar": {"enemy": "boar-rider", "hp": 4,
                                                       "shells": {"earth": 0}}},
              {"us": "T", "fairies": "Boar"}, pack=pack)
    start = to_turn(battle(sc), "T")
    report = odds_of(sc.ruleset, start.state, "T", "Boar", "Fists")
    n = report.numbers
    assert n["p_hit"] > 0 and n["p_zero_hp"] == n["p_hit"]
    assert n["p_down"] == 0 and n["p_out_of_action"] == 0
    assert any("Too Stupid to Die" in r for r in report.reasons)
    rng = np.random.default_rng(5)
    dice = SampledDice(rng, faces=True)
    trials, zero, out = 400, 0, 0
    for _ in range(trials):
        trial = Battle(sc.ruleset, sc.ruleset.copy_state(start.state))
        trial.apply(UseAbility("T", "fists", ("Boar",)), dice=dice)
        boar = next(u for u in sc.ruleset.units(trial.state) if u.id == "Boar")
        zero += trial.state.fighters["Boar"].hp == 0
        out += not boar.in_action
    p = float(n["p_zero_hp"])
    assert out == 0  # odds: never out of action now
    assert abs(zero / trials - p) <= 4 * math.sqrt(p * (1 - p) / trials) + 1e-9


def test_the_listed_damage_factors_multiply_to_the_multiplier_shown() -> None:
    # "the base damage ... multiplied by any relevant modifiers": the explanation lists every
    # one, Dragonslayer's x4 at full HP and the Shell's x2 included, and they multiply to it.
    from tactica.rulesets.last_odyssey.odds import attack_options
    from tactica.rulesets.last_odyssey.targeting import multiplier_factors, target_setup

    sc = example("police.yaml")
    state = sc.new_state()
    for unit in ("Vesper", "Lark", "Rook"):
        for opt in attack_options(state, unit):
            ability = next(state.ability(a) for a in state.fighters[unit].abilities
                           if state.ability(a).name == opt.weapon.split("/")[0])
            if ability.attack in (None, "status"):
                continue
            element = opt.weapon.split("/")[1] if "/" in opt.weapon else ""
            for tid in opt.target.split(","):
                factors = multiplier_factors(state, unit, ability, tid, element)
                setup = target_setup(state, unit, ability, tid, element)
                assert math.prod(v for _, v in factors) == setup.multiplier, (unit, tid)
    report = odds_of(sc.ruleset, state, "Vesper", "Cop 1", "Dragonslayer")
    line = next(r for r in report.reasons if "damage:" in r)
    assert ("x 4 (Dragonslayer (Cop 1 at full HP) x4, colorless vs colorless x1, "
            "physical vs a Shell up x1)") in line
    report = odds_of(sc.ruleset, state, "Lark", "Cop 1", "Elemental Bolt/fire")
    line = next(r for r in report.reasons if "damage:" in r)
    assert "x 2 (" in line and "magical vs a Shell up x2" in line


# -- the attacker's outcome when a target strikes back (Revenge) ------------------------------


def test_a_revenge_gives_the_attackers_outcome_exactly() -> None:
    """Rook's melee attack on the Captain: on a miss the Captain's Revenge (its Cattle Prod)
    strikes Rook, so Rook's damage is the Captain's own attack's, weighted by the miss."""
    sc = example("police.yaml")
    start = to_turn(battle(sc), "Rook")
    report = odds_of(sc.ruleset, start.state, "Rook", "Captain")
    assert "Captain may strike back" in "\n".join(report.reasons)
    miss = 1 - report.numbers["p_hit"]
    back = odds_of(sc.ruleset, start.state, "Captain", "Rook", "cattle-prod")
    expected: dict[int, Fraction] = {0: 1 - miss}
    for value, p in back.distributions["damage"].items():
        expected[value] = expected.get(value, Fraction(0)) + miss * p
    assert dict(report.distributions["attacker_damage"].items()) == expected
    assert report.numbers["p_attacker_down"] == miss * back.numbers["p_down"]
    from tactica.engine.odds_why import unexplained

    assert unexplained(report) == []


def test_no_attackers_outcome_without_a_reaction() -> None:
    sc = example("cop-vs-goblin.yaml")
    report = odds_of(sc.ruleset, sc.new_state(), "Cop", "Goblin")
    assert not any(name.startswith("attacker") for name in report.distributions)


def test_the_attackers_outcome_agrees_with_seeded_battles() -> None:
    sc = example("police.yaml")
    start = to_turn(battle(sc), "Rook")
    report = odds_of(sc.ruleset, start.state, "Rook", "Captain")
    action = sc.ruleset.odds.odds_action(start.state, "Rook", ("Captain",), None)
    rng = np.random.default_rng(7)
    dice = SampledDice(rng, faces=True)
    n = 3000
    taken = []
    for _ in range(n):
        trial = Battle(sc.ruleset, sc.ruleset.copy_state(start.state))
        events = trial.apply(action, dice=dice)
        taken.append(sum(e.damage for e in of(events, AttackResolved)
                         if e.target == "Rook" and e.hit))
    exact = report.distributions["attacker_damage"]
    assert abs(sum(taken) / n - float(exact.mean())) <= 4 * exact.sd() / math.sqrt(n)
    hurt = float(1 - exact.p(0))
    assert abs(sum(1 for t in taken if t) / n - hurt) <= 4 * math.sqrt(hurt * (1 - hurt) / n)


def test_odds_refusals_name_the_real_reason(tmp_path: Path) -> None:
    """A friend is refused because it is a friend (melee always; ranged under LOD-16
    ``sides``, which the refusal names), the user itself because it is itself: not LOD-16
    for a melee attack, which that ruling does not govern."""
    sc = make(tmp_path, {"Moss": {"character": "moss"}, "Rook": {"character": "rook"},
                         "Lark": {"character": "lark"}, "T": {"enemy": "t"}},
              {"party": "Rook, Lark / Moss", "them": "T"}, pack={"enemies": {"t": enemy()}})
    state = sc.new_state()
    rs = sc.ruleset
    with pytest.raises(IllegalActionError) as melee:
        odds_of(rs, state, "Rook", "Lark")
    assert "Lark is on Rook's side" in str(melee.value), str(melee.value)
    assert "LOD-16" not in str(melee.value), str(melee.value)
    with pytest.raises(IllegalActionError) as ranged:
        odds_of(rs, state, "Lark", "Rook", "Elemental Bolt/fire")
    assert "Rook is on Lark's side" in str(ranged.value), str(ranged.value)
    assert "LOD-16 sides" in str(ranged.value), str(ranged.value)
    for unit, means in (("Rook", None), ("Lark", "Elemental Bolt/fire")):
        with pytest.raises(IllegalActionError) as itself:
            odds_of(rs, state, unit, unit, means)
        assert "itself" in str(itself.value) and "LOD-16" not in str(itself.value)


def test_a_multi_target_expected_damage_counts_the_blows_a_faithful_protector_takes() -> None:
    # Elemental Storm hits every enemy; a downing blow on the Captain goes to the Lieutenant
    # (Faithful, LOD-14), who is a target too: the total damage counts that blow, and the
    # expected damage is the mean of that total, as the battle's own process deals it.
    from tactica.testing.claims import inconsistent_claims, odds_claims

    sc = example("police.yaml")
    state = sc.new_state()
    targets = "Cop 1,Cop 2,Captain,Hover Drone,Spider Drone,Lieutenant"
    report = odds_of(sc.ruleset, state, "Lark", targets, "Elemental Storm/fire")
    assert report.numbers["expected_damage"] == report.distributions["damage"].mean()
    assert inconsistent_claims(report) == []
    action = sc.ruleset.odds.odds_action(state, "Lark", tuple(targets.split(",")),
                                         "Elemental Storm/fire")
    reading = sc.ruleset.odds.reading(state, action)
    assert odds_claims(report, reading.process, world=sc.ruleset, state=state,
                       damage=reading.damage, out=reading.out) == []
