"""Who answers at the table: dice typed by hand or rolled virtually, and people's decisions.

Virtual dice and the computer's choices draw from :class:`SeededStreams`: one generator per
(step of the battle, kind of request, index within the step), all derived from the fight's seed.
Nothing depends on how many numbers were drawn before, so a fight resumed from its log after a
crash rolls exactly what the uninterrupted fight would have rolled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tactica.battle import Policy
from tactica.chance import Decide, Roll
from tactica.dice import Dist
from tactica.errors import ScriptError

__all__ = [
    "ACTIONS",
    "DECISIONS",
    "HINTS",
    "ROLLS",
    "LeaveTable",
    "SeededPolicy",
    "SeededStreams",
    "TableDice",
    "TablePolicy",
    "Terminal",
    "describe_dice",
    "describe_roll",
    "parse_roll_answer",
]

#: Kinds of request, each with its own stream of random numbers per step.
ROLLS, DECISIONS, ACTIONS, HINTS = 0, 1, 2, 3

_QUIT = frozenset({"q", "quit", "exit"})


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


def _span(die: Dist[int]) -> str:
    outs = list(die.outcomes)
    if outs == list(range(outs[0], outs[-1] + 1)):
        return f"{outs[0]}-{outs[-1]}"
    return ", ".join(map(str, outs))


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


def describe_roll(request: Roll[Any]) -> str:
    """What a roll is for, what to roll, and the chance of each result."""
    items = list(request.dist.items())
    if len(items) <= 10:
        chances = ", ".join(f"{value}: {float(p):.1%}" for value, p in items)
    else:
        low, high = items[0][0], items[-1][0]
        mean = f", mean {float(request.dist.mean()):.2f}" if request.dist.is_integer() else ""
        chances = f"{len(items)} results from {low} to {high}{mean}"
    return f"roll for {request.label!r}: {describe_dice(request)}\n  chances: {chances}"


def parse_roll_answer(request: Roll[Any], text: str) -> tuple[Any, tuple[int, ...] | None]:
    """Read a typed answer: faces (``4 7 0`` or ``4,7,0``) for physical dice, or ``=VALUE``
    for the result itself (also a bare value when nothing is rolled as dice)."""
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
    try:
        faces = tuple(int(p) for p in parts)
    except ValueError:
        raise ScriptError(f"expected the faces rolled as numbers, such as '4 7', got {text!r}"
                          ) from None
    return request.value_from_faces(faces), faces


def _shown(value: Any, faces: tuple[int, ...] | None) -> str:
    if faces is None:
        return str(value)
    return f"{' '.join(map(str, faces))} -> {value}"


# --------------------------------------------------------------------------------------------
# Answerers


class TableDice:
    """Answers the rolls of one step: asks the game master, or rolls virtually.

    At the prompt, Enter rolls virtually (the same seeded roll as an unattended fight), and
    ``quit`` leaves the table with the step's rolls so far kept in the log. ``first`` is the
    number of the step's rolls already answered from the log.
    """

    def __init__(self, terminal: Terminal, streams: SeededStreams, step: int, *, ask: bool,
                 first: int = 0):
        self.terminal = terminal
        self.streams = streams
        self.step = step
        self.ask = ask
        self._next = first

    def _virtual(self, request: Roll[Any], index: int) -> tuple[Any, tuple[int, ...] | None]:
        rng = self.streams.generator(self.step, ROLLS, index)
        return request.sample(rng, faces=True)

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        index = self._next
        self._next += 1
        if not self.ask:
            value, faces = self._virtual(request, index)
            self.terminal.say(f"  {request.label}: rolled {_shown(value, faces)}")
            return value, faces
        self.terminal.say(describe_roll(request))
        while True:
            try:
                text = self.terminal.ask("dice (faces, =result, Enter to roll for you)> ")
            except EOFError:
                raise LeaveTable from None
            if text.strip().lower() in _QUIT:
                raise LeaveTable
            if text.strip() in ("?", "help"):
                self.terminal.say(
                    "type the faces you rolled (such as '4 7 0'), or '=N' for the result "
                    "itself, Enter to let tactica roll, 'quit' to stop (the log keeps this roll's "
                    "place; --resume asks for it again)"
                )
                continue
            if not text.strip():
                value, faces = self._virtual(request, index)
                self.terminal.say(f"  {request.label}: rolled {_shown(value, faces)}")
                return value, faces
            try:
                value, faces = parse_roll_answer(request, text)
            except ScriptError as exc:
                self.terminal.say(f"  {exc}")
                continue
            self.terminal.say(f"  {request.label}: {_shown(value, faces)}")
            return value, faces


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


class TablePolicy:
    """Asks the game master to decide for a side (decisions inside an action)."""

    def __init__(self, terminal: Terminal, describe: Callable[[Decide[Any], Any], str]):
        self.terminal = terminal
        self.describe = describe

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        lines = [f"{decision.side} decides {decision.label!r}:"]
        for i, option in enumerate(decision.options, start=1):
            lines.append(f"  [{i}] {self.describe(decision, option)}")
        self.terminal.say("\n".join(lines))
        while True:
            try:
                text = self.terminal.ask(f"{decision.side} decides> ").strip()
            except EOFError:
                raise LeaveTable from None
            if text.lower() in _QUIT:
                raise LeaveTable
            if text.isdigit() and 1 <= int(text) <= len(decision.options):
                return decision.options[int(text) - 1]
            for option in decision.options:
                if self.describe(decision, option).lower() == text.lower():
                    return option
            self.terminal.say(f"  {text!r} is not one of the options: type 1 to "
                              f"{len(decision.options)}, or 'quit'")
