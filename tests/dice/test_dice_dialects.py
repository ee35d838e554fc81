"""Dice dialects (what ``r`` means), Foundry's ``{...}kh`` groups, ``[flavor]`` tags and
``# comments``: exactly against icepool (a test-only oracle) where icepool can say it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from tactica.dice import DEFAULT_DIALECT, DIALECTS, estimate_cost, evaluate, notes, parse
from tactica.dice.lexer import DiceSyntaxError
from tactica.engine.errors import DiceError

d4, d6, d8, d10, d20 = icepool.d4, icepool.d6, icepool.d8, icepool.d10, icepool.d20


def oracle(d: Any) -> dict[int, Fraction]:
    denom = d.denominator()
    out: dict[int, Fraction] = {}
    for o, q in d.items():
        if q:
            out[int(o)] = out.get(int(o), Fraction(0)) + Fraction(q, denom)
    return out


def test_the_default_dialect_is_roll20() -> None:
    assert DEFAULT_DIALECT == "roll20" and set(DIALECTS) == {"roll20", "foundry"}
    assert evaluate("4d6r1") == evaluate("4d6r1", dialect="roll20")


# text, dialect, the same roll in icepool
CASES: list[tuple[str, str, Any]] = [
    # a bare r: until the face no longer matches (Roll20), once (Foundry)
    ("8d6r1", "roll20", 8 @ d6.reroll([1], depth="inf")),
    ("8d6r1", "foundry", 8 @ d6.reroll([1], depth=1)),
    ("8d6r", "foundry", 8 @ d6.reroll([1], depth=1)),
    # r's compare point: inclusive in Roll20, strict in Foundry
    ("4d6r<3", "roll20", 4 @ d6.reroll([1, 2, 3], depth="inf")),
    ("4d6r<3", "foundry", 4 @ d6.reroll([1, 2], depth=1)),
    ("4d6r>4", "foundry", 4 @ d6.reroll([5, 6], depth=1)),
    ("d20r<=2", "foundry", d20.reroll([1, 2], depth=1)),
    # ro and rr mean the same in both
    *[(text, dialect, want) for dialect in DIALECTS for text, want in [
        ("8d6ro1", 8 @ d6.reroll([1], depth=1)),
        ("2d10ro<2", 2 @ d10.reroll([1, 2], depth=1)),
        ("8d6rr1", 8 @ d6.reroll([1], depth="inf")),
        ("4d6rr<3", 4 @ d6.reroll([1, 2], depth="inf")),
        ("4d6rr1kh3", d6.reroll([1], depth="inf").highest(4, 3)),
    ]],
    # groups keep among the totals of their expressions
    ("{4d6, 3d8}kh", "foundry", icepool.highest(4 @ d6, 3 @ d8)),
    ("{4d6, 3d8}kl", "roll20", icepool.lowest(4 @ d6, 3 @ d8)),
    ("{1d20, 1d20}kh", "foundry", d20.highest(2, 1)),
    ("{1d20, 1d20}kl1", "foundry", d20.lowest(2, 1)),
    ("{d6, d8, d10}kh2", "foundry", icepool.Pool([d6, d8, d10]).highest(2).sum()),
    ("{d6, d8, d10}dl1", "foundry", icepool.Pool([d6, d8, d10]).highest(2).sum()),
    ("{d6, d8, d10}dh2", "foundry", icepool.Pool([d6, d8, d10]).lowest(1).sum()),
    ("{2d6, d4+3, 5}kh2", "foundry", icepool.Pool([2 @ d6, d4 + 3, icepool.Die([5])])
     .highest(2).sum()),
    ("{d6, 2d4}", "foundry", d6 + 2 @ d4),
    ("{d20, d20}kh + 5", "foundry", d20.highest(2, 1) + 5),
    ("({d20, d20}kh)>=15", "foundry", d20.highest(2, 1) >= 15),
    ("{4d6r1, 4d6r1}kh", "foundry", icepool.highest(4 @ d6.reroll([1], depth=1),
                                                     4 @ d6.reroll([1], depth=1))),
    # flavor and comments change nothing in the value
    ("2d6[fire] + 1d4[cold]", "roll20", 2 @ d6 + d4),
    ("2d6 + 3 # longsword", "foundry", 2 @ d6 + 3),
    ("2d6[slash #1]+1 # the rest is a comment ) ( [", "roll20", 2 @ d6 + 1),
    ("{d20[first], d20[second]}kh[advantage]", "foundry", d20.highest(2, 1)),
    ("(2d6)[both] * 2", "roll20", (2 @ d6) * 2),
    ("6d6[hits]>4", "roll20", 6 @ d6.map(lambda v: int(v >= 4))),
]


@pytest.mark.parametrize(("text", "dialect", "want"), CASES)
def test_matches_icepool(text: str, dialect: str, want: Any) -> None:
    assert evaluate(text, dialect=dialect).to_dict() == oracle(want)


def test_r_differs_between_the_dialects_and_the_canonical_text_says_how() -> None:
    roll20, foundry = evaluate("d6r1"), evaluate("d6r1", dialect="foundry")
    assert roll20.p(1) == 0 and foundry.p(1) == Fraction(1, 36)
    assert str(parse("d6r1")) == "1d6rr1"
    assert str(parse("d6r1", dialect="foundry")) == "1d6ro1"
    # the canonical text reads the same in either dialect
    for dialect in DIALECTS:
        for text in ("4d6r<3kh3", "2d10ro<2", "d20rr1", "{d6r1, d8r<3}kh"):
            canonical = str(parse(text, dialect=dialect))
            for other in DIALECTS:
                assert str(parse(canonical, dialect=other)) == canonical


def test_flavor_and_comment_notes() -> None:
    said = notes("2d6[fire] + (1d4+1)[cold] + 3 # Burning hands [x]")
    assert said.labels == (("2d6", "fire"), ("(1d4+1)", "cold"))
    assert said.comment == "Burning hands [x]"
    assert notes("2d6").labels == () and notes("2d6").comment is None
    assert notes("2d6[]").labels == ()  # an empty tag is no label
    assert notes("{d20, d20}kh[adv]").labels == (("{d20, d20}kh", "adv"),)
    assert notes("2d6[a#b]").labels == (("2d6", "a#b"),) and notes("2d6[a#b]").comment is None


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("2d6[fire", 4, "'[' without its ']'"),
        ("[fire]2d6", 1, "goes right after a term"),
        ("2d6 + [x]", 7, "goes right after a term"),
        ("2d6 ]", 5, "unexpected ']'"),
        ("# only a comment", 17, "empty dice expression"),
        ("{4d6}kh", 6, "group of one expression"),
        ("{d6, d6}kh3", 9, "cannot keep 3 of 2"),
        ("{d6, d6}kh>3", 11, "counting the results of a group"),
        ("{d6, d6}cs>3", 9, "counting the results of a group"),
        ("{d6, d6}kh[adv]>3", 16, "counting the results of a group"),
        ("{d6, d6", 8, "expected ',' or '}'"),
        ("{}", 2, "unexpected '}'"),
    ],
)
def test_bad_input_names_the_column(text: str, column: int, words: str) -> None:
    with pytest.raises(DiceSyntaxError, match=None) as caught:
        parse(text, dialect="foundry")
    assert words in str(caught.value)
    if caught.value.column is not None and words != "empty dice expression":
        assert caught.value.column == column


def test_unknown_dialect() -> None:
    with pytest.raises(DiceError, match="unknown dice dialect 'hero'"):
        parse("2d6", dialect="hero")


def test_group_sizes_are_bounded_before_computing() -> None:
    with pytest.raises(DiceError, match="too many partial results"):
        estimate_cost("{" + ", ".join(["1000d6"] * 6) + "}kh3")
    with pytest.raises(DiceError, match="too many expressions in one group"):
        parse("{" + ",".join(["1"] * 101) + "}")
    # a plain sum or a keep of one stays cheap however many members
    assert evaluate("{" + ", ".join(["d6"] * 40) + "}").mean() == 140
    assert evaluate("{" + ", ".join(["d6"] * 40) + "}kh").p(6) == 1 - Fraction(5, 6) ** 40


def test_groups_nest() -> None:
    assert evaluate("{{d6, d6}kh, {d6, d6}kl}kh") == evaluate(
        "max(max(d6, d6), min(d6, d6))")
