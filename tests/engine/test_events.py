"""Events and actions are frozen, registered records that round-trip through JSON."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import pytest

import tactica.rulesets  # noqa: F401  (registers every game's records)
from tactica.engine import events as events_module
from tactica.engine.battle import Resolved
from tactica.engine.errors import TacticaError
from tactica.engine.events import (
    ActionTaken,
    BattleEnded,
    Decided,
    Rolled,
    dumps,
    from_json,
    record,
    record_type,
    to_json,
)
from tactica.rulesets.nebulia.records import (
    ActivationEnded,
    Attack,
    Attacked,
    Damaged,
    EndActivation,
    Move,
    Moved,
    OutOfAction,
    RoundStarted,
)

# One sample of every Nebulia Operations record (actions and events).
NEBULIA_SAMPLES: list[Any] = [
    Move("A", (3, 4)),
    Attack("A", "rifle", "B"),
    EndActivation("A"),
    RoundStarted(2, "blue"),
    Moved("A", ((0, 0), (1, 1), (2, 1))),
    Moved("B", ((5, 5),)),
    Attacked("A", "rifle", "B", True, 3, 1, 2),
    Damaged("B", 2, "A", 0),
    OutOfAction("B"),
    ActivationEnded("A"),
]

CORE_SAMPLES: list[Any] = [
    ActionTaken("red", Move("A", (3, 4))),
    ActionTaken("blue", Attack("1", "smg", "C")),
    Rolled("to hit", 2, (3, 5, 1, 0)),
    Rolled("armor", 0, None),
    Rolled("first side", "blue"),
    Decided("red", "react", "duck"),
    Decided("blue", "target", Attack("1", "smg", "C")),
    BattleEnded("red", "the only side left in action: red"),
    BattleEnded(None, "the round limit (30) was reached"),
    Resolved(),
]


def test_every_nebulia_record_type_has_a_sample() -> None:
    registered = {name for name in events_module._REGISTRY if name.startswith("neb.")}
    assert registered == {record_type(s) for s in NEBULIA_SAMPLES}


@pytest.mark.parametrize("obj", NEBULIA_SAMPLES + CORE_SAMPLES, ids=repr)
def test_round_trip_through_json_text(obj: Any) -> None:
    text = dumps(obj)
    back = from_json(json.loads(text))
    assert back == obj
    assert type(back) is type(obj)
    assert dumps(back) == text
    hash(back)  # frozen records stay hashable after the trip (tuples, not lists)


def test_json_form_is_plain_and_type_first() -> None:
    assert to_json(Moved("A", ((0, 0), (1, 1)))) == {
        "type": "neb.moved", "unit": "A", "path": [[0, 0], [1, 1]]}
    assert dumps(ActionTaken("red", Move("A", (3, 4)))) == (
        '{"type":"action","side":"red","action":{"type":"neb.move","unit":"A","to":[3,4]}}')
    assert dumps(Resolved()) == '{"type":"resolved"}'


def test_records_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Damaged("B", 1, "A", 0).amount = 2  # type: ignore[misc]


def test_unknown_or_malformed_records_are_clear_errors() -> None:
    with pytest.raises(TacticaError, match=r"unknown record type 'neb\.teleported'"):
        from_json({"type": "neb.teleported", "unit": "A"})
    with pytest.raises(TacticaError, match="expected a record with a 'type'"):
        from_json({"unit": "A"})
    with pytest.raises(TacticaError, match=r"record 'neb\.damaged' does not fit its fields"):
        from_json({"type": "neb.damaged", "unit": "B"})
    with pytest.raises(TypeError, match="is not a registered record"):
        to_json(object())


def test_registering_records() -> None:
    @record("test-events.ping")
    @dataclass(frozen=True)
    class Ping:
        n: int
        tags: frozenset[str] = frozenset()

    assert from_json(to_json(Ping(3, frozenset({"b", "a"})))) == Ping(3, frozenset({"a", "b"}))
    assert to_json(Ping(1, frozenset({"b", "a"})))["tags"] == ["a", "b"]  # sets sort

    with pytest.raises(TypeError, match="already taken"):
        @record("test-events.ping")
        @dataclass(frozen=True)
        class Pong:
            n: int

    with pytest.raises(TypeError, match="must be a dataclass"):
        record("test-events.plain")(int)
