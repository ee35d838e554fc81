"""Bounded dice text (issue 16, item 13): each case was a crash before, now a clear error or a
bounded answer, with the exact value available on request."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import pytest

from tactica.cli import main
from tactica.dice import evaluate, parse
from tactica.dice.display import fraction_text, int_text, sci_text
from tactica.engine.errors import DiceError

T = TypeVar("T")
PRODUCT = "*".join(["999999999"] * 35)
LONG_SUM = "+".join(["1"] * 326)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_huge_product_is_a_clear_error_not_an_overflow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(DiceError, match=r"reaches values of about 10\^1\d\d, too large"):
        evaluate(PRODUCT)
    for extra in ((), ("--json",)):
        code, out, err = run(capsys, "dice", PRODUCT, *extra)
        assert code == 2 and "Traceback" not in err + out


def called_deep(depth: int, f: Callable[[], T]) -> T:
    """``f()`` called with ``depth`` more frames on the stack (like the command line's)."""
    return f() if depth == 0 else called_deep(depth - 1, f)


def test_a_long_sum_needs_no_deep_recursion(capsys: pytest.CaptureFixture[str]) -> None:
    node = parse(LONG_SUM)
    assert called_deep(400, lambda: str(node)) == " + ".join(["1"] * 326)
    assert called_deep(400, lambda: evaluate(LONG_SUM)).outcomes == (326,)
    assert evaluate(node).outcomes == (326,)
    assert evaluate("+".join(["d2"] * 300)).mean() == 450
    code, out, _ = run(capsys, "dice", LONG_SUM)
    assert code == 0 and "mean 326.0000" in out
    code, out, _ = run(capsys, "dice", LONG_SUM, "--json")
    assert code == 0 and json.loads(out)["outcomes"] == [
        {"value": 326, "p": 1.0, "p_exact": "1"}
    ]


@pytest.mark.parametrize("text", ["2000d100kh", "9100d3kh"])
def test_fractions_past_the_print_limit_are_bounded(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    code, out, _ = run(capsys, "dice", text)
    assert code == 0 and "…" in out and "%" in out
    code, out, _ = run(capsys, "dice", text, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["exact_complete"] is False
    assert any(row["p_exact"] is None for row in doc["outcomes"])
    assert all(isinstance(row["p"], float) for row in doc["outcomes"])
    assert len(out) < 50_000


def test_the_exact_value_is_available_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "dice", "9100d3kh", "--json", "--exact")
    doc = json.loads(out)
    assert code == 0 and doc["exact_complete"] is True
    d = evaluate("9100d3kh")
    for row in doc["outcomes"]:
        num, _, den = row["p_exact"].partition("/")
        p = d.p(row["value"])
        assert (num, den) == (int_text(p.numerator), int_text(p.denominator))
    assert len(doc["outcomes"][0]["p_exact"]) > 4300


def test_negative_seed_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "dice", "d6", "--roll", "3", "--seed", "-1")
    assert code == 2 and out == ""
    assert err == "error: --seed needs a whole number of 0 or more, got -1\n"
    code, out, _ = run(capsys, "dice", "d6", "--roll", "3", "--seed", str(2**70), "--json")
    assert code == 0 and len(json.loads(out)["rolls"]) == 3


def test_bounded_text_helpers() -> None:
    assert fraction_text(Fraction(2, 4)) == "1/2"
    assert fraction_text(Fraction(1, 10**299)) is None
    assert fraction_text(Fraction(1, 10**299), limit=None) == "1/1" + "0" * 299
    assert sci_text(Fraction(1, 3), 3) == "3.33e-01"
    assert sci_text(Fraction(-10**5000)) == "-1.00000e+5000"
    assert sci_text(Fraction(199999, 10**4005), 2) == "2.0e-4000"
    big = 3**9100
    assert int_text(big)[:5] == "63594" and int_text(big)[-3:] == "001"
    assert int_text(-big)[0] == "-" and len(int_text(big)) == 4342
