"""The hit die: the seed's worked example, thresholds, the natural 1, damage and multipliers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from lod_builders import act, battle, enemy, make, of, to_turn

from tactica.rulesets.last_odyssey.hitdie import (
    TargetSetup,
    absorb,
    damage_of,
    exact_outcomes,
    outcome,
    round_half,
)
from tactica.rulesets.last_odyssey.records import AttackResolved, Damaged, Downed, UseAbility

pytestmark = pytest.mark.both_engines


def duel(tmp: Path, attacker: dict, target: dict, *, rulings: dict | None = None,
         abilities: dict | None = None) -> object:
    pack = {"enemies": {"a": attacker, "t": target}, "abilities": abilities or {}}
    sc = make(tmp, {"A": {"enemy": "a"}, "T": {"enemy": "t"}},
              {"left": "A", "right": "T"}, pack=pack, rulings=rulings)
    return to_turn(battle(sc), "A")


# -- the seed's worked example ----------------------------------------------------------------


def test_seed_multi_target_example_with_one_scripted_die(tmp_path: Path) -> None:
    """Physical Accuracy 3, Physical Attack 2, die 5: accuracy result 2, damage result 7.
    Evasion 6 / Defense 1: 2 + 6 = 8 > 7, miss. Evasion 2 / Defense 3: 4 <= 7, hit, base 4."""
    pack = {"enemies": {
        "hero": enemy("Hero", pacc=3, patk=2, init=9, abilities=("cleave",)),
        "first": enemy("First", eva=6, pdef=1, shell=10),
        "second": enemy("Second", eva=2, pdef=3, shell=10),
    }}
    sc = make(tmp_path, {"H": {"enemy": "hero"}, "E1": {"enemy": "first"},
                         "E2": {"enemy": "second"}}, {"us": "H", "them": "E1, E2"}, pack=pack)
    b = to_turn(battle(sc), "H")
    events = act(b, UseAbility("H", "cleave", ("E1", "E2")), 5)
    first, second = of(events, AttackResolved)
    assert (first.target, first.die, first.total, first.hit) == ("E1", 5, 8, False)
    assert (second.target, second.die, second.total, second.hit) == ("E2", 5, 4, True)
    assert second.base == 4 and second.damage == 4  # a Shell is up: physical x1
    assert of(events, Damaged) == [Damaged("E2", "H", 4, 0, 6, 10, False)]
    assert b.state.fighters["E1"].shell == 10


def test_seed_example_without_shells_doubles_the_physical_base(tmp_path: Path) -> None:
    pack = {"enemies": {
        "hero": enemy("Hero", pacc=3, patk=2, init=9, abilities=("cleave",)),
        "first": enemy("First", eva=6, pdef=1),
        "second": enemy("Second", eva=2, pdef=3),
    }}
    sc = make(tmp_path, {"H": {"enemy": "hero"}, "E1": {"enemy": "first"},
                         "E2": {"enemy": "second"}}, {"us": "H", "them": "E1, E2"}, pack=pack)
    b = to_turn(battle(sc), "H")
    second = of(act(b, UseAbility("H", "cleave", ("E1", "E2")), 5), AttackResolved)[1]
    assert (second.base, second.multiplier, second.damage) == (4, "2", 8)


# -- thresholds and the natural 1 -------------------------------------------------------------


def setup(kind: str = "physical", **kw: object) -> TargetSetup:
    base: dict[str, object] = dict(accuracy=0, evasion=0, threshold=7 if kind != "status" else 5,
                                   attack=0, defense=0, multiplier=Fraction(1), hp=100)
    base.update(kw)
    return TargetSetup(kind, **base)  # type: ignore[arg-type]


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("kind", ["physical", "magical"])
def test_attacks_hit_at_7_or_below(kind: str) -> None:
    s = setup(kind, accuracy=4, evasion=3)
    assert outcome(s, 8).total == 7 and outcome(s, 8).hit
    assert outcome(s, 9).total == 8 and not outcome(s, 9).hit


@pytest.mark.reference_only  # no step played after the set-up
def test_status_lands_at_5_or_below_at_x1() -> None:
    s = setup("status", accuracy=2, evasion=1)
    assert outcome(s, 6).total == 5 and outcome(s, 6).hit
    assert not outcome(s, 7).hit


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize("kind", ["physical", "magical"])
def test_a_natural_1_always_hits_attacks(kind: str) -> None:
    s = setup(kind, evasion=20)
    assert outcome(s, 1).hit and outcome(s, 1).how == "natural 1"
    assert exact_outcomes(s).map(lambda o: o.hit).p(True) == Fraction(1, 10)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_status_that_cannot_land_never_lands_not_even_on_1() -> None:
    s = setup("status", evasion=20)
    assert not outcome(s, 1).hit
    assert exact_outcomes(s).map(lambda o: o.hit).p(True) == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_base_damage_is_attack_minus_defense_plus_the_die() -> None:
    s = setup(attack=2, defense=3)
    assert damage_of(s, 5) == (4, 4)


@pytest.mark.reference_only  # no step played after the set-up
def test_base_damage_has_a_floor_of_1_and_final_damage_may_be_0() -> None:
    s = setup(attack=0, defense=20, multiplier=Fraction(1, 4))
    base, final = damage_of(s, 3)
    assert base == 1 and final == 0  # 1 x 0.25 = 0.25 rounds to 0 (LOD-3)
    o = outcome(s, 3)
    assert o.hit and o.damage == 0 and o.to_hp == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_every_multiplier_multiplies_the_base_and_rounds_half_down() -> None:
    s = setup(attack=2, defense=0, multiplier=Fraction(1, 2))
    assert damage_of(s, 3) == (5, 2)  # 2.5 becomes 2
    assert round_half(Fraction(5, 2)) == 2 and round_half(Fraction(7, 2)) == 3
    assert round_half(Fraction(11, 4)) == 3 and round_half(Fraction(9, 4)) == 2


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize(("mode", "values"), [
    ("half-down", (2, 3, -1)), ("half-up", (3, 4, 0)), ("half-even", (2, 4, 0))])
def test_rounding_options_lod_2(mode: str, values: tuple[int, int, int]) -> None:
    got = tuple(round_half(Fraction(x), mode) for x in ("5/2", "7/2", "-1/2"))
    assert got == values


@pytest.mark.reference_only  # no step played after the set-up
def test_lod_1_die_only_multiplies_the_die() -> None:
    s = setup(attack=5, defense=1, multiplier=Fraction(2), multiply="die-only")
    assert damage_of(s, 3) == (7, 10)  # 5 - 1 + 3 x 2
    assert damage_of(setup(attack=5, defense=1, multiplier=Fraction(2)), 3) == (7, 14)


@pytest.mark.reference_only  # no step played after the set-up
def test_knock_out_hits_by_the_real_roll_and_damages_as_a_1() -> None:
    s = setup(attack=3, defense=0, evasion=4, knockout=True)
    assert outcome(s, 3).hit and outcome(s, 3).base == 4
    assert not outcome(s, 9).hit  # 9 + 4 = 13 > 7: the real roll misses
    assert outcome(s, 1).hit


@pytest.mark.reference_only  # no step played after the set-up
def test_shell_and_shellbreak_in_absorb() -> None:
    assert absorb(5, 10, 4) == absorb(5, 10, 4)
    a = absorb(5, 10, 4)
    assert (a.to_shell, a.to_hp, a.shell, a.hp, a.broken) == (4, 0, 1, 10, False)
    b = absorb(5, 10, 15)  # rest 10 is not more than 10 HP: no further damage
    assert (b.to_shell, b.to_hp, b.hp, b.broken, b.downed) == (5, 0, 10, True, False)
    c = absorb(5, 10, 16)  # rest 11 > 10: downed
    assert (c.to_hp, c.hp, c.downed) == (10, 0, True)
    d = absorb(0, 10, 12)
    assert (d.to_hp, d.hp, d.downed) == (10, 0, True)


# -- multipliers in the battle ----------------------------------------------------------------


def test_magical_attacks_double_against_a_shell_physical_without(tmp_path: Path) -> None:
    b = duel(tmp_path, enemy(init=5, patk=3, matk=3, pacc=10, macc=10,
                             abilities=("fists", "ghost-hand")),
             enemy(shell=20, hp=30))
    magic = of(act(b, UseAbility("A", "ghost-hand", ("T",)), 2), AttackResolved)[0]
    assert (magic.base, magic.multiplier, magic.damage) == (5, "2", 10)
    fists = of(act(b, UseAbility("A", "fists", ("T",)), 2), AttackResolved)[0]
    assert (fists.base, fists.multiplier, fists.damage) == (5, "1", 5)


def test_physical_doubles_and_magical_does_not_without_a_shell(tmp_path: Path) -> None:
    b = duel(tmp_path, enemy(init=5, patk=3, matk=3, pacc=10, macc=10,
                             abilities=("fists", "ghost-hand")), enemy(hp=40))
    fists = of(act(b, UseAbility("A", "fists", ("T",)), 2), AttackResolved)[0]
    assert (fists.multiplier, fists.damage) == ("2", 10)
    magic = of(act(b, UseAbility("A", "ghost-hand", ("T",)), 2), AttackResolved)[0]
    assert (magic.multiplier, magic.damage) == ("1", 5)


def test_ability_element_and_shell_multipliers_stack(tmp_path: Path) -> None:
    # Cattle Prod is thunder; thunder against water is x4; no Shell: physical x2.
    b = duel(tmp_path, enemy(init=5, patk=2, pacc=10, abilities=("cattle-prod",)),
             enemy(element="water", hp=99))
    prod = of(act(b, UseAbility("A", "cattle-prod", ("T",)), 1), AttackResolved)[0]
    assert (prod.base, prod.multiplier, prod.damage) == (3, "8", 24)


def test_gore_doubles_on_top_of_everything(tmp_path: Path) -> None:
    b = duel(tmp_path, enemy(init=5, patk=2, pacc=10, abilities=("gore",)),
             enemy(element="earth", hp=99, shell=50))
    gore = of(act(b, UseAbility("A", "gore", ("T",)), 2), AttackResolved)[0]
    assert (gore.base, gore.multiplier, gore.damage) == (4, "2", 8)


def test_strike_is_x1_5_and_rounds(tmp_path: Path) -> None:
    b = duel(tmp_path, enemy(init=5, patk=2, pacc=10, abilities=("strike",)),
             enemy(hp=99, shell=50))
    strike = of(act(b, UseAbility("A", "strike", ("T",)), 1), AttackResolved)[0]
    assert (strike.base, strike.multiplier, strike.damage) == (3, "3/2", 4)  # 4.5 -> 4


def test_dragonslayer_is_x4_at_full_hp_else_x2(tmp_path: Path) -> None:
    b = duel(tmp_path, enemy(init=5, patk=1, pacc=10, mp=20, abilities=("dragonslayer",)),
             enemy(hp=99, shell=60))
    first = of(act(b, UseAbility("A", "dragonslayer", ("T",)), 1), AttackResolved)[0]
    assert (first.multiplier, first.damage) == ("4", 8)
    assert b.state.fighters["T"].hp == 99  # the Shell took it: still at full HP
    (tmp_path / "b").mkdir()
    b2 = duel(tmp_path / "b", enemy(init=5, patk=1, pacc=10, mp=20, abilities=("dragonslayer",)),
              enemy(hp=99, shell=0))
    act(b2, UseAbility("A", "dragonslayer", ("T",)), 1)  # x4 x2 (no Shell): 16
    second = of(act(b2, UseAbility("A", "dragonslayer", ("T",)), 1), AttackResolved)[0]
    assert (second.multiplier, second.damage) == ("4", 8)  # x2, and x2 without a Shell


@pytest.mark.reference_only  # no step played after the set-up
def test_the_element_chart_is_transcribed() -> None:
    from tactica.rulesets.last_odyssey.content import builtin_pack

    pack = builtin_pack()
    rows = {
        "fire": "1 .5 1 .25 1 4 2 1 1", "water": "2 1 .5 4 .25 1 1 1 1",
        "earth": "1 2 1 .5 4 .25 1 1 1", "wind": "4 .25 2 2 1 2 .5 4 .25",
        "thunder": "1 4 .25 1 1 2 2 .5 .5", "ice": ".25 1 4 2 .5 1 2 .5 1",
        "wood": ".5 1 1 2 .5 .5 1 2 2", "light": "1 1 1 .25 2 2 .5 .5 4",
        "shadow": "1 1 1 4 2 1 .5 .25 1",
    }
    for attack, row in rows.items():
        for defend, value in zip(pack.elements, row.split(), strict=True):
            assert pack.multiplier(attack, defend) == Fraction(value), (attack, defend)
        assert pack.multiplier(attack, "colorless") == 1
        assert pack.multiplier("colorless", attack) == 1


def test_knock_out_attack_in_battle_knocks_out(tmp_path: Path) -> None:
    sc = make(tmp_path, {"Rook": {"character": "rook"}, "T": {"enemy": "t"}},
              {"party": "Rook", "them": "T"},
              pack={"enemies": {"t": enemy(hp=3, eva=20)}})
    b = to_turn(battle(sc), "Rook")
    events = act(b, UseAbility("Rook", "basic-attack", ("T",), "", True), 1)
    hit = of(events, AttackResolved)[0]
    assert hit.hit and hit.how == "natural 1"
    assert of(events, Downed) == [Downed("T", True, "Rook")]
    assert b.state.fighters["T"].knocked_out
    assert b.is_over and b.winner == "party"
