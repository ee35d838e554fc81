"""Who answers at the table: dice described and read as people type them, seeded streams.

Virtual dice and the computer's choices draw from :class:`SeededStreams`: one generator per
(step of the battle, kind of request, index within the step), all derived from the fight's seed.
Nothing depends on how many numbers were drawn before, so a fight resumed from its log after a
crash rolls exactly what the uninterrupted fight would have rolled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from tactica.dice import Dist
from tactica.engine.battle import Policy
from tactica.engine.chance import Decide, Roll
from tactica.engine.errors import ScriptError
from tactica.engine.validation import whole_number

__all__ = [
    "ACTIONS",
    "DECISIONS",
    "HINTS",
    "ROLLS",
    "LeaveTable",
    "SeededPolicy",
    "SeededStreams",
    "Terminal",
    "answer_example",
    "chances_line",
    "describe_dice",
    "describe_roll",
    "dice_words",
    "parse_roll_answer",
    "roll_lines",
    "shown_label",
    "shown_roll",
    "success_chance",
]

#: Kinds of request, each with its own stream of random numbers per step.
ROLLS, DECISIONS, ACTIONS, HINTS = 0, 1, 2, 3



class Terminal(Protocol):
    """Where the game master reads and types: ``ask`` raises EOFError when input ends."""

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the line typed (without its newline)."""
        ...

    def say(self, text: str) -> None:
        """Show one or more lines."""
        ...


class LeaveTable(Exception):
    """The game master stopped the fight; everything answered so far is in the log."""


@dataclass(frozen=True)
class SeededStreams:
    """Independent generators derived from ``seed``, one per (step, kind, index)."""

    seed: int

    def generator(self, step: int, kind: int, index: int = 0) -> np.random.Generator:
        """The generator for request ``index`` of ``kind`` in step ``step``."""
        return np.random.default_rng([self.seed, step, kind, index])


# --------------------------------------------------------------------------------------------
# Describing a roll

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve")


def _count(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


def _span(die: Dist[int]) -> str:
    outs = list(die.outcomes)
    if outs == list(range(outs[0], outs[-1] + 1)):
        return f"{outs[0]}-{outs[-1]}"
    return ", ".join(map(str, outs))


def _is_percentile(request: Roll[Any]) -> bool:
    """Two dice with faces 0-9 read as one of 100 results: a d100, tens and units."""
    tens = list(range(10))
    return (len(request.dice) == 2 and all(list(d.outcomes) == tens for d in request.dice)
            and len(request.dist.outcomes) == 100)


def describe_dice(request: Roll[Any]) -> str:
    """``3 dice, faces 0-9`` (or the value to enter when no physical dice are rolled)."""
    if not request.dice or request.read is None:
        return "no dice to read: enter the result"
    groups: list[tuple[str, int]] = []
    for die in request.dice:
        span = _span(die)
        if groups and groups[-1][0] == span:
            groups[-1] = (span, groups[-1][1] + 1)
        else:
            groups.append((span, 1))
    return " + ".join(
        f"{n} {'die' if n == 1 else 'dice'}, faces {span}" for span, n in groups
    )


def dice_words(request: Roll[Any]) -> str:
    """The dice in plain words: ``two six-sided dice``, ``a d100 read as tens and units``,
    ``three ten-sided dice (faces 0-9)``, or ``no dice: type the result``."""
    if not request.dice or request.read is None:
        return "no dice: type the result"
    if _is_percentile(request):
        return "a d100 read as tens and units (two ten-sided dice, faces 0-9; 00 is 100)"
    groups: list[tuple[Dist[int], int]] = []
    for die in request.dice:
        if groups and list(groups[-1][0].outcomes) == list(die.outcomes):
            groups[-1] = (die, groups[-1][1] + 1)
        else:
            groups.append((die, 1))
    parts = []
    for die, n in groups:
        outs = list(die.outcomes)
        sided = f"{_count(len(outs))}-sided" if len(outs) <= 12 else f"{len(outs)}-sided"
        noun = "die" if n == 1 else "dice"
        standard = outs == list(range(1, len(outs) + 1))
        parts.append(f"{'one' if n == 1 else _count(n)} {sided} {noun}"
                     + ("" if standard else f" (faces {_span(die)})"))
    return " and ".join(parts)


def chances_line(request: Roll[Any]) -> str:
    """The chance of each result when there are few, else a short summary."""
    items = list(request.dist.items())
    if len(items) <= 10:
        return ", ".join(f"{value}: {float(p):.1%}" for value, p in items)
    if request.dist.is_integer():
        low, high = items[0][0], items[-1][0]
        return f"{low} to {high}, {float(request.dist.mean()):.2f} on average"
    return f"{len(items)} possible results"


_UNDER = re.compile(r"\b(\d+) or under\b|\bat or under (\d+)\b|\bunder (\d+)\)")
_FACES = re.compile(r"\bon (\d+)-(\d+)\b")


def _number(value: Any) -> int | None:
    """A rolled value as the number compared: a whole number, or a d100's pair of faces."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, int) and 0 <= v <= 9 for v in value)):
        return 100 if value == (0, 0) else value[0] * 10 + value[1]
    return None


_UNDER_LABEL = re.compile(r"\((d\d+) under (\d+)\)")


def shown_label(label: str) -> str:
    """A roll's label as the table reads it: a roll-under check says its number one way, the
    way its hint says it (``d20 under 8`` reads ``d20, 8 or under``: 8 succeeds).

    >>> shown_label("initiative of Foo (d20 under 12)")
    'initiative of Foo (d20, 12 or under)'
    """
    return _UNDER_LABEL.sub(r"(\1, \2 or under)", label)


def success_chance(request: Roll[Any]) -> Fraction | None:
    """The chance that a roll-under check succeeds, when its hint says the number to roll
    under (``55 or under succeeds``, ``d20 under 7``) or the faces that succeed (``hits on
    1-9``); ``None`` for other rolls.

    >>> from tactica.dice import Dist
    >>> d20 = Dist.uniform(range(1, 21))
    >>> success_chance(Roll("check", d20, lambda v: None, hint="7 or under succeeds"))
    Fraction(7, 20)
    """
    text = f"{request.label} {request.hint}"
    under = _UNDER.search(text)
    faces = _FACES.search(text) if under is None else None
    if under is None and faces is None:
        return None
    total = Fraction(0)
    counted = False
    for value, p in request.dist.items():
        n = _number(value)
        if n is None:
            return None
        counted = True
        if under is not None:
            limit = int(next(g for g in under.groups() if g))
            ok = n <= limit
        else:
            assert faces is not None
            ok = int(faces.group(1)) <= n <= int(faces.group(2))
        if ok:
            total += Fraction(p)
    return total if counted else None


def answer_example(request: Roll[Any]) -> str:
    """What a player would type for this roll: ``37``, ``2 5``, ``4 7 0``, or a result."""
    if not request.dice or request.read is None:
        return str(next(iter(request.dist.outcomes)))
    if _is_percentile(request):
        return "37"
    faces = [list(d.outcomes)[min(len(d.outcomes) - 1, i * 3 + 1)]
             for i, d in enumerate(request.dice)]
    return " ".join(map(str, faces))


def roll_lines(request: Roll[Any]) -> list[str]:
    """What a person reads before rolling: the roll, the dice, what they mean, the chances."""
    lines = [f"roll for {shown_label(request.label)!r}: {dice_words(request)}"]
    if request.hint:
        lines.append(f"  {request.hint}")
    if len(request.dist.outcomes) <= 10 or not request.hint:
        lines.append(f"  chances: {chances_line(request)}")
    return lines


def describe_roll(request: Roll[Any]) -> str:
    """What a roll is for, what to roll, and the chance of each result."""
    return "\n".join(roll_lines(request))


def _faces_of(request: Roll[Any], token: str) -> tuple[int, ...] | None:
    """One typed number read as the faces of several dice, as players type them: ``37`` for
    a d100 (``100`` too, read as 00 and 0), ``25`` for two six-sided dice."""
    n = len(request.dice)
    if n < 2 or whole_number(token) is None:
        return None
    if _is_percentile(request):
        if token == "100":
            return (0, 0)
        if len(token) <= 2:
            return (int(token) // 10, int(token) % 10)
        return None
    if len(token) != n:
        return None
    faces = tuple(int(c) for c in token)
    if all(die.p(f) > 0 for f, die in zip(faces, request.dice, strict=True)):
        return faces
    return None


def parse_roll_answer(request: Roll[Any], text: str) -> tuple[Any, tuple[int, ...] | None]:
    """Read a typed answer: faces (``4 7 0``, ``4,7,0``; ``37`` for a d100, ``25`` for two
    dice) for physical dice, or ``=VALUE`` for the result itself (also a bare value when
    nothing is rolled as dice)."""
    text = text.strip()
    physical = bool(request.dice) and request.read is not None
    if text.startswith("=") or not physical:
        wanted = text.removeprefix("=").strip()
        for value in request.dist.outcomes:
            if str(value).lower() == wanted.lower():
                return value, None
        possible = ", ".join(str(v) for v in list(request.dist.outcomes)[:12])
        raise ScriptError(f"{wanted!r} is not a possible result of {request.label!r} "
                          f"(possible: {possible})")
    parts = [p for p in re.split(r"[\s,]+", text) if p]
    if len(parts) == 1:
        joined = _faces_of(request, parts[0])
        if joined is not None:
            return request.value_from_faces(joined), joined
    try:
        faces = tuple(int(p) for p in parts)
    except ValueError:
        raise ScriptError(f"expected the faces rolled as numbers, such as "
                          f"'{answer_example(request)}', got {text!r}") from None
    return request.value_from_faces(faces), faces


def shown_roll(value: Any, faces: tuple[int, ...] | None) -> str:
    """``4 7 -> 1`` (faces and the value read), the value alone, or the faces alone when the
    value is the faces themselves (``37`` for the pair of a d100: ``3 7``)."""
    if faces is None:
        return str(value)
    if isinstance(value, tuple) and value == faces:
        if len(faces) == 2 and all(0 <= f <= 9 for f in faces):
            read = 100 if faces == (0, 0) else faces[0] * 10 + faces[1]
            return f"{read} ({faces[0]} and {faces[1]})"
        return " ".join(map(str, faces))
    return f"{' '.join(map(str, faces))} -> {value}"


class SeededPolicy:
    """A computer policy whose every decision in a step draws from its own seeded generator.

    ``indices`` numbers the step's decisions; the policies of every side of a step share it.
    """

    def __init__(self, inner: Policy, streams: SeededStreams, step: int, *,
                 indices: Iterator[int]):
        self.inner = inner
        self.streams = streams
        self.step = step
        self._indices = indices

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        rng = self.streams.generator(self.step, DECISIONS, next(self._indices))
        return self.inner.choose(decision, state, rng)
