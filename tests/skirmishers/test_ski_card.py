"""The unit card: HP cells 10..1, 0 and DEAD, the start cell, lethal then bludgeoning, body
armor, and the AP and modifier columns (the rulebook's unit card and infantry combat)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ski_builders import ready, trooper

from tactica.rulesets.skirmishers.card import (
    FRESH,
    START_CELL,
    apply_hit,
    current_hp,
    protected_cells,
)
from tactica.rulesets.skirmishers.content import builtin_pack

pytestmark = pytest.mark.both_engines

REGULAR = builtin_pack().cards["regular"]


@pytest.mark.reference_only  # no step played after the set-up
def test_a_rifle_hit_with_start_roll_7_on_a_fresh_trooper_leaves_hp_3_6_ap_plus_2() -> None:
    """Worked example: a rifle (4X) hit with start roll 7 on a fresh unarmored regular trooper:
    cells 7, 6, 5, 4 fully crossed; HP 3, 6 AP, +2."""
    hit = apply_hit(FRESH, start=7, lethal=4)
    assert hit.crossed == (7, 6, 5, 4)
    assert hit.hp == 3
    assert REGULAR.max_ap(hit.hp) == 6 and REGULAR.modifier(hit.hp) == 2


@pytest.mark.reference_only  # no step played after the set-up
def test_a_regular_trooper_with_5_hp_has_7_ap_and_plus_2() -> None:
    """Worked example (quoted): a regular trooper with 5 HP has 7 AP and +2 to all target
    numbers."""
    assert REGULAR.max_ap(5) == 7 and REGULAR.modifier(5) == 2


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.parametrize(("hp", "ap", "modifier"), [
    (10, 8, 0), (9, 8, 0), (8, 8, 0), (7, 8, 1), (6, 7, 1), (5, 7, 2), (4, 6, 2), (3, 6, 2),
    (2, 5, 3), (1, 4, 3), (0, 0, 0)])
def test_the_card_columns(hp: int, ap: int, modifier: int) -> None:
    assert REGULAR.max_ap(hp) == ap and REGULAR.modifier(hp) == modifier


@pytest.mark.reference_only  # no step played after the set-up
def test_standard_body_armor_has_4_cells_and_takes_2_from_every_ap_value() -> None:
    """Worked example (quoted): standard body armor, 4 armor cells and -2 to every AP value
    (6 AP at full health)."""
    b = ready("A . B", A=trooper("red", armor="standard"), B=trooper("blue"))
    a = b.state.troopers["A"]
    assert a.armor_left == 4 and b.state.max_ap(a) == 6
    assert {k: (v.cells, v.ap) for k, v in builtin_pack().armor.items()} == {
        "none": (0, 0), "basic": (2, -1), "standard": (4, -2), "heavy": (6, -3)}


@pytest.mark.reference_only  # no step played after the set-up
def test_the_start_cell_is_2d6_with_11_and_12_read_as_10() -> None:
    """SKI-1: 11 and 12 have no cell: they start at cell 10."""
    assert START_CELL.p(10) == pytest.approx(6 / 36) and START_CELL.p(2) * 36 == 1
    assert set(START_CELL.outcomes) == set(range(2, 11))


@pytest.mark.reference_only  # no step played after the set-up
def test_lethal_damage_skips_cells_already_fully_crossed() -> None:
    """Skip any previously fully crossed out cells and fully cross out any partly crossed or
    undamaged cells."""
    marks = apply_hit(FRESH, start=7, lethal=2).marks          # 7 and 6 crossed
    again = apply_hit(marks, start=7, lethal=2)                 # starts at 5 (SKI-1)
    assert again.crossed == (5, 4) and again.hp == 3
    partly = apply_hit(FRESH, start=8, bludgeoning=2).marks     # 8 and 7 partly crossed
    assert partly == "..//......."
    crossed = apply_hit(partly, start=8, lethal=1)
    assert crossed.crossed == (8,) and crossed.hp == 7


@pytest.mark.reference_only  # no step played after the set-up
def test_the_current_hp_is_right_of_the_lowest_fully_crossed_cell() -> None:
    """Partly crossed cells do not lower HP; a single crossed cell 2 leaves 1 HP."""
    assert current_hp(FRESH) == 10
    assert current_hp("X..........") == 9
    assert current_hp("........X..") == 1
    assert current_hp("..///////..") == 10


@pytest.mark.reference_only  # no step played after the set-up
def test_bludgeoning_follows_the_lethal_damage_and_partly_crosses_cells() -> None:
    """Club (1X + 4\\) from cell 9: 9 crossed, then 8 7 6 5 partly crossed."""
    hit = apply_hit(FRESH, start=9, lethal=1, bludgeoning=4)
    assert hit.crossed == (9,) and hit.partial == (8, 7, 6, 5) and hit.hp == 8


@pytest.mark.reference_only  # no step played after the set-up
def test_bludgeoning_on_a_partly_crossed_cell_crosses_it_fully() -> None:
    marks = apply_hit(FRESH, start=6, bludgeoning=2).marks       # 6 and 5 partly
    hit = apply_hit(marks, start=6, bludgeoning=2)
    assert hit.crossed == (6, 5) and hit.hp == 4


@pytest.mark.reference_only  # no step played after the set-up
def test_bludgeoning_reaching_a_fully_crossed_cell_skips_it_or_is_lost_ski_24() -> None:
    marks = apply_hit(FRESH, start=6, lethal=1).marks            # 6 crossed
    assert apply_hit(marks, start=6, bludgeoning=1).partial == (5,)
    lost = apply_hit(marks, start=6, bludgeoning=1, crossed_bludgeoning="lost")
    assert lost.partial == () and lost.marks == marks


@pytest.mark.reference_only  # no step played after the set-up
def test_damage_past_cell_1_leaves_0_hp_and_past_cell_0_is_dead_ski_2() -> None:
    three = apply_hit(FRESH, start=3, lethal=4)                 # 3 2 1 0
    assert three.hp == 0 and not three.dead
    two = apply_hit(FRESH, start=3, lethal=3)                    # 3 2 1
    assert two.hp == 0 and not two.dead
    dead = apply_hit(FRESH, start=2, lethal=4)                   # 2 1 0, then past it
    assert dead.dead and dead.hp == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_body_armor_takes_lethal_points_first_and_bludgeoning_is_ignored_while_it_lasts() -> None:
    """Lethal damage crosses armor cells first; with armor left all bludgeoning is ignored
    (SKI-20)."""
    hit = apply_hit(FRESH, start=7, lethal=1, bludgeoning=4, armor=4)
    assert hit.armor == 3 and hit.armor_lost == 1 and hit.marks == FRESH
    assert hit.bludgeoning_ignored
    through = apply_hit(FRESH, start=7, lethal=6, armor=4)       # 4 to armor, 2 to HP
    assert through.armor == 0 and through.crossed == (7, 6) and through.hp == 5


@pytest.mark.reference_only  # no step played after the set-up
def test_armor_destroyed_by_the_hit_lets_bludgeoning_start_at_the_start_cell_ski_20() -> None:
    hit = apply_hit(FRESH, start=7, lethal=2, bludgeoning=3, armor=2)
    assert hit.armor == 0 and hit.crossed == () and hit.partial == (7, 6, 5)


@pytest.mark.reference_only  # no step played after the set-up
def test_advanced_body_armor_protects_contiguous_cells_ski_30() -> None:
    """Optional rule: a lethal hit on a protected cell marks it \\ and then X."""
    cells = protected_cells(4, "middle")
    assert cells == frozenset({8, 7, 6, 5})
    assert protected_cells(2, "middle") == frozenset({7, 6})
    assert protected_cells(4, "top") == frozenset({10, 9, 8, 7})
    first = apply_hit(FRESH, start=8, lethal=2, protected=cells)
    assert first.partial == (8, 7) and first.hp == 10
    second = apply_hit(first.marks, start=8, lethal=2, protected=cells)
    assert second.crossed == (8, 7) and second.hp == 6
    outside = apply_hit(FRESH, start=10, lethal=3, protected=cells)
    assert outside.crossed == (10, 9) and outside.partial == (8,)


@pytest.mark.reference_only  # no step played after the set-up
@settings(deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(2, 10), st.integers(0, 6), st.integers(0, 8),
                          st.integers(0, 6)), max_size=6))
def test_damage_never_heals(hits: list[tuple[int, int, int, int]]) -> None:
    marks, armor, hp = FRESH, 4, 10
    for start, lethal, blud, _ in hits:
        hit = apply_hit(marks, start=start, lethal=lethal, bludgeoning=blud, armor=armor)
        assert hit.hp <= hp and hit.armor <= armor
        assert all(a == b or (a, b) in {(".", "/"), (".", "X"), ("/", "X")}
                   for a, b in zip(marks, hit.marks, strict=True))
        if hit.dead:
            break
        marks, armor, hp = hit.marks, hit.armor, hit.hp
