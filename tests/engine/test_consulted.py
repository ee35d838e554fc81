"""Which rulings a battle consulted: reads recorded, remembered answers' reads replayed."""

from __future__ import annotations

from tactica.engine.caching import Cache
from tactica.engine.consulted import consult, recording
from tactica.engine.rulings import Ruling, Rulings

R = (Ruling("X-1", "q?", "a", {"a": "first", "b": "second"}),
     Ruling("X-2", "r?", "c", {"c": "third", "d": "fourth"}))


def test_a_read_is_recorded_and_a_peek_is_not() -> None:
    rulings = Rulings(R)
    with recording() as read:
        assert rulings.peek("X-2") == "c"
        assert rulings["X-1"] == "a"
    assert read == {"X-1"}
    assert rulings["X-2"] == "c"  # nothing records outside a recording
    assert read == {"X-1"}


def test_a_remembered_answer_consults_what_computing_it_consulted() -> None:
    cache: Cache[str, str] = Cache("test.consulted", maxsize=4)
    rulings = Rulings(R)

    def answer() -> str:
        found = cache.get("k")
        if found is None:
            found = cache.put("k", rulings["X-2"] + "!")
        return found

    with recording() as first:
        assert answer() == "c!"
    with recording() as second:
        assert answer() == "c!"  # a hit: nothing is read, the reads are replayed
    assert first == second == {"X-2"}
    assert cache.stats().hits == 1


def test_recordings_nest_and_frames_left_open_are_merged() -> None:
    cache: Cache[str, str] = Cache("test.consulted-open", maxsize=4)
    with recording() as outer:
        consult("X-1")
        assert cache.get("never-put") is None  # a miss never followed by its put
        with recording() as inner:
            consult("X-2")
        assert inner == {"X-2"}
        consult("X-3")
    assert outer == {"X-1", "X-2", "X-3"}
