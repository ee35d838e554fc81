"""Frozen, typed, serialisable records: the events of a battle and the actions chosen in it.

Every event and action class is a frozen dataclass registered under a unique type name with
:func:`record`. :func:`to_json` and :func:`from_json` turn them into plain JSON mappings and
back, so a battle's log can be saved, diffed and replayed byte for byte.

>>> @record("example.hit")
... @dataclass(frozen=True)
... class Hit:
...     unit: str
...     amount: int
>>> to_json(Hit("B", 1))
{'type': 'example.hit', 'unit': 'B', 'amount': 1}
>>> from_json({'type': 'example.hit', 'unit': 'B', 'amount': 1})
Hit(unit='B', amount=1)
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from tactica.engine.errors import TacticaError

__all__ = [
    "Action",
    "ActionTaken",
    "BattleEnded",
    "Damaged",
    "Decided",
    "Event",
    "LogRecord",
    "Moved",
    "OutOfAction",
    "Rolled",
    "RoundStarted",
    "dumps",
    "from_json",
    "record",
    "record_type",
    "to_json",
]

C = TypeVar("C", bound=type)

_REGISTRY: dict[str, type] = {}
_NAMES: dict[type, str] = {}


def record(name: str) -> Callable[[C], C]:
    """Register a frozen dataclass as a serialisable record named ``name``."""

    def wrap(cls: C) -> C:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass to be a record")
        if name in _REGISTRY and _REGISTRY[name] is not cls:
            raise TypeError(f"record name {name!r} is already taken by {_REGISTRY[name]}")
        _REGISTRY[name] = cls
        _NAMES[cls] = name
        return cls

    return wrap


def record_type(obj: object) -> str:
    """The registered name of a record instance."""
    try:
        return _NAMES[type(obj)]
    except KeyError:
        raise TypeError(f"{type(obj).__name__} is not a registered record") from None


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(_plain(v) for v in value)
    return value


def to_json(obj: Any) -> dict[str, Any]:
    """A record as a JSON-ready mapping with its ``type`` first."""
    out: dict[str, Any] = {"type": record_type(obj)}
    for f in dataclasses.fields(obj):
        if f.init:  # a field computed from the others is not written
            out[f.name] = _plain(getattr(obj, f.name))
    return out


def _revive(tp: Any, value: Any) -> Any:
    """Turn a plain JSON value back into the annotated type (tuples, nested records)."""
    if isinstance(value, Mapping) and "type" in value and value["type"] in _REGISTRY:
        return from_json(value)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        if value is None:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _revive(arg, value)
            except (TypeError, ValueError):
                continue
        return value
    if origin is tuple and isinstance(value, list):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_revive(args[0], v) for v in value)
        if args and len(args) == len(value):
            return tuple(_revive(a, v) for a, v in zip(args, value, strict=True))
        return tuple(_revive(Any, v) for v in value)
    if origin is frozenset and isinstance(value, list):
        return frozenset(_revive(args[0] if args else Any, v) for v in value)
    if isinstance(value, list):
        return tuple(_revive(Any, v) for v in value)
    return value


def from_json(data: Mapping[str, Any]) -> Any:
    """Rebuild a record from :func:`to_json` output; unknown types raise TacticaError."""
    if not isinstance(data, Mapping) or "type" not in data:
        raise TacticaError(f"expected a record with a 'type', got {data!r}")
    name = data["type"]
    cls = _REGISTRY.get(name)
    if cls is None:
        raise TacticaError(f"unknown record type {name!r}")
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.init and f.name in data:
            kwargs[f.name] = _revive(hints.get(f.name, Any), data[f.name])
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise TacticaError(f"record {name!r} does not fit its fields: {exc}") from None


def dumps(obj: Any) -> str:
    """One record as one line of canonical JSON (sorted keys would lose the type-first order,
    so keys keep field order; separators are fixed)."""
    return json.dumps(to_json(obj), separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------------------------
# The kinds of records


class Action:
    """Base class of every action a side may choose (a game's own frozen dataclasses)."""


class Event:
    """Base class of every rule event (a game's own frozen dataclasses, or the core events
    below, which a game subclasses to add its own fields)."""


class LogRecord:
    """Base class of the records the core itself writes into a battle's log."""


# --------------------------------------------------------------------------------------------
# Events every game has. A game emits its own subclasses (adding fields after these), so the
# core can count rounds, moves, damage and losses the same way for every game.


@dataclass(frozen=True)
class RoundStarted(Event):
    """A new round (or turn of the whole battle) began."""

    round: int


@dataclass(frozen=True)
class Moved(Event):
    """A unit moved (to a place written as the map kind writes it)."""

    unit: str


@dataclass(frozen=True)
class Damaged(Event):
    """A unit lost ``amount`` of whatever the game counts as health (defense, HP, boxes...);
    ``source`` is the unit that caused it, if any."""

    unit: str
    amount: int
    source: str | None


@dataclass(frozen=True)
class OutOfAction(Event):
    """A unit is out of the fight (dead, unconscious, removed, fled): it acts no more."""

    unit: str


# --------------------------------------------------------------------------------------------
# Records the core writes; rulesets write their own events.


@record("action")
@dataclass(frozen=True)
class ActionTaken(LogRecord):
    """A side chose an action (the action record is nested)."""

    side: str
    action: Any


@record("rolled")
@dataclass(frozen=True)
class Rolled(LogRecord):
    """A roll was made: what it was for, the value read, and the faces if dice were rolled."""

    label: str
    value: Any
    faces: tuple[int, ...] | None = None


@record("decided")
@dataclass(frozen=True)
class Decided(LogRecord):
    """A side took a decision inside an action (a reaction, a die assignment, ...)."""

    side: str
    label: str
    choice: Any


@record("battle-ended")
@dataclass(frozen=True)
class BattleEnded(LogRecord):
    """The battle is over: the winning side, or ``None`` for a draw, and why."""

    winner: str | None
    reason: str
