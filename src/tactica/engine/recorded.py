"""Answering a step's requests from its recorded rolls and decisions, checking each.

:meth:`tactica.engine.battle.Battle.replay` re-runs every step of a log with these answerers: a
recorded roll must have the label the rules ask for and be a possible result (its faces too),
a recorded decision must be one of its options, asked of the same side; anything else is a
:class:`ReplayError` naming the position of the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from tactica.engine.chance import Decide, Policy, Roll
from tactica.engine.errors import ScriptError, TacticaError
from tactica.engine.events import Decided, Rolled, dumps
from tactica.engine.validation import quote

__all__ = [
    "RULES_FAILURES",
    "PrefixDice",
    "RecordedAnswers",
    "RecordsExhausted",
    "ReplayError",
    "recorded_choice",
    "recorded_roll",
    "same_record",
    "shown",
]


class _Dice(Protocol):
    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]: ...


class ReplayError(TacticaError):
    """A log whose records do not follow the rules: ``index`` is the position, in the records
    given to :meth:`Battle.replay`, of the first one that does not (``None``: the end)."""

    def __init__(self, message: str, index: int | None):
        super().__init__(message)
        self.index = index


#: What the rules code may raise on records it was never meant to see (an unknown unit id, a
#: string where a number belongs): on replay it becomes a ReplayError naming the record.
RULES_FAILURES = (KeyError, ValueError, TypeError, AttributeError, IndexError, AssertionError,
                   ArithmeticError, RecursionError)


def _exact_outcome(dist: Any, value: Any) -> tuple[bool, Any]:
    """``(True, outcome)`` if ``value`` is an outcome of ``dist`` of the same type."""
    try:
        if dist.p(value) <= 0:
            return False, None
    except TypeError:  # unhashable
        return False, None
    for outcome in dist.outcomes:
        if type(outcome) is type(value) and outcome == value:
            return True, outcome
    return False, None


def recorded_roll(request: Roll[Any], rec: Rolled) -> tuple[Any, tuple[int, ...] | None]:
    """The answer a recorded roll gives to ``request``, checked: the same label, faces that
    the dice can show and that read as the recorded value (or, without faces, a possible
    value of the same type). A TacticaError says what does not fit."""
    if rec.label != request.label:
        raise TacticaError(
            f"the log does not fit the rules: recorded roll {quote(rec.label)}, "
            f"but the rules ask for {request.label!r}"
        )
    if rec.faces is not None:
        try:
            faces = tuple(rec.faces)
            read = request.value_from_faces(faces)
            fits = type(read) is type(rec.value) and read == rec.value
        except ScriptError as exc:
            raise TacticaError(f"the log does not fit the rules: recorded roll "
                               f"{request.label!r} = {quote(rec.value)} (faces "
                               f"{quote(rec.faces)}) is not a possible result of that roll: "
                               f"{exc}") from None
        except RULES_FAILURES:
            fits = False
        if fits:
            return read, faces
    else:
        fits, outcome = _exact_outcome(request.dist, rec.value)
        if fits:
            return outcome, None
    shown = f" (faces {quote(list(rec.faces) if isinstance(rec.faces, tuple) else rec.faces)})"
    raise TacticaError(
        f"the log does not fit the rules: recorded roll {request.label!r} = "
        f"{quote(rec.value)}{shown if rec.faces is not None else ''} is not a possible "
        "result of that roll"
    )


def recorded_choice(decision: Decide[Any], rec: Decided) -> Any:
    """The option of ``decision`` a recorded decision chose, checked (side, label, option)."""
    if rec.side != decision.side or rec.label != decision.label:
        raise TacticaError(
            f"the log does not fit the rules: recorded decision {quote(rec.label)} by "
            f"{quote(rec.side)}, but the rules ask {decision.side} {decision.label!r}"
        )
    for option in decision.options:
        try:
            if type(option) is type(rec.choice) and option == rec.choice:
                return option
        except RULES_FAILURES:
            break
    raise TacticaError(
        f"the log does not fit the rules: recorded choice {quote(rec.choice)} for "
        f"{decision.label!r} is not one of its {len(decision.options)} options"
    )


class PrefixDice:
    """Answers from recorded rolls first (checked with :func:`recorded_roll`), then from
    ``then`` (used to resume a cut step)."""

    def __init__(self, recorded: Sequence[Rolled], then: _Dice):
        self._recorded = list(recorded)
        self._then = then

    @property
    def replaying(self) -> bool:
        """True while recorded rolls remain."""
        return bool(self._recorded)

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        if self._recorded:
            return recorded_roll(request, self._recorded.pop(0))
        return self._then.roll(request)


class RecordsExhausted(ReplayError):
    """The rules ask for more than a step's recorded inputs (an error for a complete step;
    what a step cut short ends with)."""


class RecordedAnswers:
    """The recorded rolls and decisions of one step (``log[start:stop]``), answered in the
    order the rules ask for them; after them, ``dice`` and ``policies`` answer (a cut step),
    or (``None``) a request is a ReplayError."""

    def __init__(self, log: Sequence[Any], start: int, stop: int, *, dice: _Dice | None = None,
                 policies: Mapping[str, Policy] | None = None):
        self.log = log
        self.at = start
        self.stop = stop
        self.dice = dice
        self.policies = policies

    def _next(self, what: str, kind: type) -> Any:
        if self.at >= self.stop:
            return None
        rec = self.log[self.at]
        if not isinstance(rec, kind):
            found = "a decision" if isinstance(rec, Decided) else "a roll"
            raise ReplayError(f"the rules {what} here, but the log has {found}", self.at)
        return rec

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        rec = self._next(f"roll {request.label!r}", Rolled)
        if rec is None:
            if self.dice is not None:
                return self.dice.roll(request)
            raise RecordsExhausted(f"the rules roll {request.label!r} here, but the step's "
                                   "recorded rolls have run out", self.at)
        try:
            answer = recorded_roll(request, rec)
        except TacticaError as exc:
            raise ReplayError(str(exc), self.at) from None
        self.at += 1
        return answer

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        rec = self._next(f"ask {decision.side} {decision.label!r}", Decided)
        if rec is None:
            if self.policies is not None:
                policy = self.policies.get(decision.side)
                if policy is None:
                    raise TacticaError(f"no policy decides for side {decision.side!r}")
                return policy.choose(decision, state, rng)
            raise RecordsExhausted(f"the rules ask {decision.side} {decision.label!r} here, "
                                   "but the step's recorded decisions have run out", self.at)
        try:
            choice = recorded_choice(decision, rec)
        except TacticaError as exc:
            raise ReplayError(str(exc), self.at) from None
        self.at += 1
        return choice


def shown(entry: Any) -> str:
    try:
        text = dumps(entry)
    except (TypeError, ValueError):
        text = repr(entry)
    return text if len(text) <= 160 else text[:157] + "..."


def same_record(recorded: Any, produced: Any) -> bool:
    """Equal records of the same type that serialise the same (``3`` is not ``"3"``, nor
    ``3.0``)."""
    if type(recorded) is not type(produced):
        return False
    try:
        if recorded != produced:
            return False
    except RULES_FAILURES:
        return False
    return shown(recorded) == shown(produced)
