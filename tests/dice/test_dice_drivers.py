"""The same everywhere: expression rolls through the exact, sampled and scripted drivers and
the table prompt (a weapon whose damage is ``3d6x``, a roll of ``4d6kh3`` made by hand)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tactica.dice import evaluate, physical_dice
from tactica.engine.chance import Done, Roll, Step, run_exact, run_sampled, run_scripted
from tactica.engine.errors import ScriptError
from tactica.play.answer import describe_dice, parse_roll_answer

EXPRESSIONS = ["3d6x", "4d6kh3", "6d6cs>=5", "8d6r1", "2d10ro<2+d4/2u", "4dF", "(2d6)>=8"]


def damage_roll(text: str) -> Roll[Any]:
    """What a rule does with a content pack's dice text: one Roll request."""
    hand = physical_dice(text)
    return Roll(
        f"damage {text}",
        evaluate(text),
        lambda v: Done(v),
        dice=hand.dice if hand else (),
        read=hand.read if hand else None,
    )


def two_hits(text: str) -> Step:
    return Roll("hits", evaluate("(d6)>=4"), lambda h: damage_roll(text) if h else Done(0))


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_the_exact_driver_gives_the_expression_distribution(text: str) -> None:
    assert run_exact(damage_roll(text)) == evaluate(text)
    mixed = run_exact(two_hits(text))
    assert mixed.p(0) >= Fraction(1, 2) and sum(p for _, p in mixed.items()) == 1


@pytest.mark.parametrize("text", EXPRESSIONS)
@pytest.mark.parametrize("faces", [False, True])
def test_the_sampled_driver_agrees_with_the_exact_mean(text: str, faces: bool) -> None:
    exact = evaluate(text)
    rng = np.random.default_rng(11)
    n = 1500
    values = [run_sampled(damage_roll(text), rng, faces=faces).value for _ in range(n)]
    assert all(exact.p(v) > 0 for v in values)
    se = exact.sd() / math.sqrt(n)
    assert abs(float(np.mean(values)) - float(exact.mean())) <= 4 * se + 1e-12


def test_the_scripted_driver_takes_values_or_faces() -> None:
    assert run_scripted(damage_roll("3d6x"), rolls=[23]).value == 23
    trace = run_scripted(damage_roll("4d6kh3"), rolls=[(6, 1, 5, 3)])
    assert trace.value == 14 and trace.records[0].faces == (6, 1, 5, 3)
    assert run_scripted(damage_roll("6d6cs>=5"), rolls=[(5, 6, 1, 2, 3, 6)]).value == 3
    with pytest.raises(ScriptError, match="impossible"):
        run_scripted(damage_roll("3d6x"), rolls=[2])
    with pytest.raises(ScriptError, match="cannot show 1"):
        run_scripted(damage_roll("8d6r1"), rolls=[(1, 2, 3, 4, 5, 6, 2, 2)])


def test_the_table_prompt_reads_faces_or_the_result() -> None:
    kh = damage_roll("4d6kh3")
    assert describe_dice(kh) == "4 dice, faces 1-6"
    assert parse_roll_answer(kh, "6 1 5 3") == (14, (6, 1, 5, 3))
    assert parse_roll_answer(kh, "=17") == (17, None)
    fate = damage_roll("4dF")
    assert describe_dice(fate) == "4 dice, faces -1-1"
    assert parse_roll_answer(fate, "-1,0,1,1") == (1, (-1, 0, 1, 1))
    boom = damage_roll("3d6x")
    assert describe_dice(boom) == "no dice to read: enter the result"
    assert parse_roll_answer(boom, "23") == (23, None)
    with pytest.raises(ScriptError, match="not a possible result"):
        parse_roll_answer(boom, "2")


def test_physical_dice_read_like_the_expression() -> None:
    hand = physical_dice("max(2d6ro1min2, d8) - 1d4/2u + ((d6)>=5)")
    assert hand is not None and len(hand.dice) == 5
    # 2d6ro1min2: 1 and 3 -> 2 + 3 = 5; d8: 4; max 5; d4 3 / 2 up = 2; d6 5 >= 5: 1
    assert hand.read((1, 3, 4, 3, 5)) == 5 - 2 + 1
    assert physical_dice("(1d4)d6") is None and physical_dice("2d6!!") is None
