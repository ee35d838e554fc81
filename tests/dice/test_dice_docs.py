"""docs/dice.md: its Python examples run, and the forms its tables describe mean what it says."""

from __future__ import annotations

import doctest
from fractions import Fraction
from pathlib import Path

import pytest

from tactica.dice import evaluate, parse

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


def test_the_python_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3d6>=4", "3d6cs>=4"),
        ("6d6>4", "6d6cs>=4"),
        ("6d6cs>4", "6d6cs>=5"),
        ("(3d6)>=4", "(3d6) >= 4"),
        ("2d6+1>=8", "2d6 + 1 >= 8"),
        ("(6d6cs>=5)>=2", "(6d6cs>=5) >= 2"),
        ("4d6r-1", "4d6rr1 - 1"),
        ("2d10r<2", "2d10rr<=2"),
        ("d6rr<2", "1d6rr<=1"),
        ("3d6!>4", "3d6x>=4"),
        ("3d6x>4", "3d6x>=5"),
        ("6d6>4f<2", "6d6cs>=4df<=2"),
        ("5d6!!>8", "5d6!!>=8"),
        ("4d6d", "4d6dl1"),
        ("4d6k", "4d6kh1"),
    ],
)
def test_the_documented_readings(text: str, canonical: str) -> None:
    assert str(parse(text)) == canonical


def test_the_documented_values() -> None:
    assert evaluate("-7/2").outcomes == (-4,) and evaluate("-7/2u").outcomes == (-3,)
    assert evaluate("7/2").outcomes == (3,) and evaluate("7/2u").outcomes == (4,)
    assert evaluate("d20>=11").to_dict() == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert evaluate("4d6dl1") == evaluate("4d6kh3")
    assert evaluate("4dF").outcomes == tuple(range(-4, 5))
    assert evaluate("6d6cs>=5df1").p(6) == Fraction(1, 3**6)
    assert evaluate("d6x", explode_depth=20).p(6 * 21) == Fraction(1, 6**21)
