"""Checks and degrees: the d20 rolled under, degrees by increment, the automatic 1 and 20,
taking 1, contested checks and hardware with a fixed degree (the skills and degrees chapters)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tactica.engine.rulings import Rulings
from tactica.rulesets.arc.checks import (
    Check,
    Score,
    check_dist,
    evade_wins,
    fixed,
    hits_of,
    parse_score,
    read_check,
    speed_of,
    take_one,
    winner,
)
from tactica.rulesets.arc.rulings import RULINGS

R = Rulings(RULINGS)


def rulings(**chosen: str) -> Rulings:
    return Rulings(RULINGS, {k.replace("_", "-"): v for k, v in chosen.items()})


# -- degrees: the source's examples -----------------------------------------------------------


def test_gus_rolls_9_against_8_and_fails_by_one_degree() -> None:
    r = read_check(9, 8, 5, R)
    assert not r.success and r.degree == -1 and str(r) == "-1º"


def test_tuck_the_sheriff_and_robin_hood() -> None:
    assert read_check(2, 14, 5, R, combat=False).degree == 0          # Tuck: +0º
    assert read_check(15, 17, 5, R, combat=False).degree == 3         # the Sheriff: +3º
    robin = read_check(20, 22, 5, R, combat=False)                    # Robin Hood: +4º
    assert robin.success and robin.degree == 4


def test_a_guns_check_uses_the_weapon_spread_as_its_increment() -> None:
    assert read_check(16, 16, 4, R).degree == 4        # the rifle: Guns 16º4 rolls 16: +4º
    assert read_check(10, 16, 3, R).degree == 3        # Foo (Guns 16º3) rolls 10: +3º
    assert read_check(15, 16, 8, R).degree == 1        # Foo (Guns 16º8) rolls 15: +1º


def test_arc_2_floor_plus_one_is_the_later_text() -> None:
    r2 = rulings(ARC_2="floor-plus-one")
    assert read_check(12, 16, 5, r2).degree == 3
    assert read_check(9, 8, 5, r2).degree == -2


# -- the automatic 1 and 20 (ARC-9) and taking 1 -----------------------------------------------


def test_a_1_always_succeeds_and_a_20_fails_in_combat() -> None:
    assert read_check(1, 0, 5, R).success
    assert not read_check(20, 25, 5, R).success                       # combat: still fails
    assert read_check(20, 25, 5, R, combat=False).success             # Robin Hood's case
    assert not read_check(20, 19, 5, R, combat=False).success


def test_taking_1_is_an_automatic_0_degree_success_at_20_or_more() -> None:
    assert take_one(19) is None
    r = take_one(20)
    assert r is not None and r.success and r.degree == 0 and r.how == "take 1"


def test_the_chance_of_a_check_is_exact() -> None:
    dist = check_dist(Check("Guns", 16, 4), R)
    assert sum(p for res, p in dist.items() if res.success) == Fraction(4, 5)
    assert sum(p for res, p in dist.items() if res.success and res.degree == 3) == \
        Fraction(4, 20)


# -- contested checks ---------------------------------------------------------------------------


def test_foo_succeeds_and_bar_fails_so_foo_hits() -> None:
    foo = read_check(4, 16, 5, R)
    bar = read_check(13, 12, 5, R)
    assert foo.success and not bar.success
    assert not evade_wins(foo, bar, R, same_increment=True)
    assert winner(foo, bar, same_increment=True) == 1


def test_foo_3_degrees_beats_bars_2() -> None:
    foo = read_check(10, 16, 3, R)     # Guns 16º3: +3º
    bar = read_check(12, 12, 5, R)     # Evade 12º5: +2º
    assert (foo.degree, bar.degree) == (3, 2)
    assert not evade_wins(foo, bar, R, same_increment=False)


def test_bars_2_degrees_beat_foos_1_and_the_attack_misses() -> None:
    foo = read_check(15, 16, 8, R)     # Guns 16º8: +1º
    bar = read_check(12, 12, 5, R)
    assert evade_wins(foo, bar, R, same_increment=False)


def test_with_equal_increments_the_higher_roll_wins_a_contest() -> None:
    a, b = read_check(12, 16, 5, R), read_check(10, 16, 5, R)   # both +2º
    assert winner(a, b, same_increment=True) == 1
    assert winner(a, b, same_increment=False) == 0


def test_arc_6_readings_of_an_equal_degree() -> None:
    attack = read_check(12, 16, 5, R)   # +2º
    evade = read_check(10, 12, 5, R)    # +2º, lower roll
    assert evade_wins(attack, evade, R, same_increment=True)                       # meets
    assert not evade_wins(attack, evade, rulings(ARC_6="contested"), same_increment=True)
    weak = read_check(3, 12, 5, R)      # +0º
    assert not evade_wins(attack, weak, R, same_increment=True)
    assert evade_wins(attack, weak, rulings(ARC_6="any-success"), same_increment=True)


def test_hardware_with_a_fixed_degree_needs_an_evade_of_that_degree() -> None:
    turret = fixed(3)
    assert not evade_wins(turret, read_check(10, 12, 5, R), R, same_increment=False)   # +2º
    assert evade_wins(turret, read_check(15, 16, 5, R), R, same_increment=False)       # +3º


# -- hits ---------------------------------------------------------------------------------------


def test_hits_are_the_lower_of_degree_and_rate_of_fire() -> None:
    assert hits_of(read_check(16, 16, 4, R), Fraction(3), R) == 3       # +4º, rof 3
    assert hits_of(read_check(12, 16, 3, R), Fraction(8), R) == 4       # +4º, rof 8
    assert hits_of(read_check(12, 16, 3, R), Fraction(1, 4), R) == 1    # fractional rof
    assert hits_of(read_check(17, 16, 3, R), Fraction(8), R) == 0


def test_arc_3_a_success_at_0_degrees() -> None:
    zero = read_check(3, 16, 4, R)
    assert zero.success and zero.degree == 0
    assert hits_of(zero, Fraction(3), R) == 1
    assert hits_of(zero, Fraction(3), rulings(ARC_3="no-hit")) == 0


# -- scores -------------------------------------------------------------------------------------


def test_speed_from_agi() -> None:
    assert speed_of(0) == Score(5, 0)
    assert speed_of(10) == Score(7, 7)          # 5•0 plus AGI 10's 20 points: exactly 7•7
    assert speed_of(20) == Score(7, 7)          # the maximum
    assert speed_of(3) == Score(6, 0)
    assert str(speed_of(5)) == "6•4"


@pytest.mark.parametrize(("text", "score"), [(4, Score(4)), ("2•1", Score(2, 1)),
                                             ("3", Score(3)), ([2, 1], Score(2, 1))])
def test_scores_are_written_rank_progress(text: object, score: Score) -> None:
    assert parse_score(text) == score


def test_a_bad_score_is_refused() -> None:
    with pytest.raises(ValueError, match="rank•progress"):
        parse_score("fast")
