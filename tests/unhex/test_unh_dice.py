"""Unhex dice: percentile roll under the level, the dice kept apart, criticals, the critical
success choice, good re-rolls and opposed rolls."""

from __future__ import annotations

import pytest

from tactica.engine.chance import Done, run_exact, run_scripted
from tactica.rulesets.unhex.dice import (
    PAIR,
    Check,
    CheckResult,
    check,
    critical,
    number,
    opposed_winner,
    pair_of,
    set_limit,
    succeeds,
)


def test_the_dice_read_tens_then_units_and_00_with_0_reads_100() -> None:
    assert number((4, 2)) == 42
    assert number((0, 7)) == 7
    assert number((0, 0)) == 100
    assert [pair_of(n) for n in (42, 7, 100)] == [(4, 2), (0, 7), (0, 0)]


@pytest.mark.parametrize(("pair", "level", "ok"), [
    ((5, 0), 50, True), ((5, 1), 50, False), ((0, 1), 1, True), ((0, 0), 99, False),
    ((9, 9), 99, True),
])
def test_success_is_at_or_under_the_current_level(pair: tuple[int, int], level: int,
                                                   ok: bool) -> None:
    assert succeeds(pair, level) is ok


def test_success_chance_is_the_level_in_percent() -> None:
    for level in (1, 25, 50, 99):
        assert PAIR.map(lambda p, lv=level: succeeds(p, lv)).p(True) * 100 == level


@pytest.mark.parametrize(("pair", "level", "crit"), [
    ((3, 3), 50, "success"),    # doubles at or under the level
    ((7, 7), 50, "failure"),    # doubles above it
    ((5, 0), 50, "success"),    # exactly the level
    ((0, 0), 99, "failure"),    # 100 is always a critical failure
    ((4, 9), 50, None),
    ((6, 1), 50, None),
])
def test_criticals(pair: tuple[int, int], level: int, crit: str | None) -> None:
    assert critical(pair, level) == crit


def test_the_dice_may_be_set_up_to_the_max_level_only_after_rolling_exactly_the_level() -> None:
    assert set_limit((4, 0), 40, 60) == 60
    assert set_limit((3, 3), 40, 60) == 40


SPEC = Check("attack", "A", "pcs", 40, 60)


def test_a_roll_is_two_dice_a_person_can_type() -> None:
    step = check(SPEC, Done)
    assert len(step.dice) == 2  # type: ignore[union-attr]
    trace = run_scripted(step, rolls=[(3, 4)])
    assert trace.value == CheckResult((3, 4), True)
    assert run_scripted(check(SPEC, Done), rolls=[[6, 2]]).value.success is False


def test_critical_success_choice_extra_action_or_set_the_dice() -> None:
    extra = run_scripted(check(SPEC, Done), rolls=[(2, 2)], decisions=["extra-action"]).value
    assert extra == CheckResult((2, 2), True, "success", extra=True)
    # Rolled exactly the level (40): the dice may be set up to the max level (60).
    trace = run_scripted(check(SPEC, Done), rolls=[(4, 0)], decisions=["set-dice", 59])
    assert trace.value == CheckResult((5, 9), True, "success", set=True)
    assert trace.records[-1].label.endswith("(1-60)")
    with pytest.raises(Exception, match="not one of its 40 options"):
        run_scripted(check(SPEC, Done), rolls=[(1, 1)], decisions=["set-dice", 41])


def test_initiative_critical_success_is_always_the_extra_action() -> None:
    spec = Check("initiative", "A", "pcs", 40, 60, choice=False)
    assert run_scripted(check(spec, Done), rolls=[(1, 1)]).value.extra


def test_critical_failure_loses_the_next_action() -> None:
    r = run_scripted(check(SPEC, Done), rolls=[(7, 7)]).value
    assert r.critical == "failure" and r.lost_action and not r.success


def test_good_roll_rerolls_one_or_both_dice_once_and_keeps_the_second() -> None:
    good = Check("attack", "A", "pcs", 40, 60, good=True)
    tens = run_scripted(check(good, Done), rolls=[(8, 3), [2]], decisions=["tens"]).value
    assert tens.pair == (2, 3) and tens.success
    units = run_scripted(check(good, Done), rolls=[(4, 5), [7]], decisions=["units"]).value
    assert units.pair == (4, 7) and not units.success  # the second result stands
    both = run_scripted(check(good, Done), rolls=[(8, 3), (1, 2)], decisions=["both"]).value
    assert both.pair == (1, 2)
    kept = run_scripted(check(good, Done), rolls=[(8, 3)], decisions=["keep"]).value
    assert kept.pair == (8, 3)


def test_a_critical_failure_cannot_be_rerolled() -> None:
    good = Check("attack", "A", "pcs", 40, 60, good=True)
    trace = run_scripted(check(good, Done), rolls=[(7, 7)])
    assert trace.value.critical == "failure" and not trace.records[1:]


def test_a_good_roll_raises_the_chance_of_success_exactly() -> None:
    from tactica.rulesets.unhex.values import reroll_choice

    good = Check("attack", "A", "pcs", 50, 50, good=True)

    class Best:
        def choose(self, decision, state, rng):  # type: ignore[no-untyped-def]
            if decision.context["kind"] == "reroll":
                return reroll_choice(decision.context["pair"], lambda p: succeeds(p, 50))
            return "extra-action"

    dist = run_exact(check(good, Done), policies=Best())
    p = dist.map(lambda r: r.success).p(True)
    assert p > 0.5 and p < 1


def test_opposed_rolls() -> None:
    ok = CheckResult
    # The highest success wins; a critical success does not beat a higher success.
    assert opposed_winner([ok((3, 4), True), ok((2, 2), True, "success")], [False, False]) == [0]
    # PC beats NPC on a tie; both fail: nobody.
    assert opposed_winner([ok((3, 4), True), ok((3, 4), True)], [False, True]) == [1]
    assert opposed_winner([ok((9, 4), False), ok((8, 8), False)], [True, False]) == []
    # Equal successes between two NPCs: a tie for the caller to break.
    assert opposed_winner([ok((3, 4), True), ok((3, 4), True)], [False, False]) == [0, 1]
