"""The greedy policy's remembered arcs are bounded in bytes, not only in entries: on the
largest lattice a scenario may have (50 x 50 dots) one arc's dots take up to a few hundred
kilobytes, so a count of entries alone let a long run keep gigabytes (docs/limits.md)."""

from __future__ import annotations

import random

import pytest

from tactica.rulesets.skirmishers import arcs


def _arcs(n: int) -> list[tuple[int, int, tuple[int, int], int, float | None, str | None]]:
    rng = random.Random(7)
    out = []
    for _ in range(n):
        row = rng.randrange(50)
        vertex = (rng.randrange(50) - row // 2, row)
        width = rng.choice(sorted(arcs.ARC_SIZES))
        if rng.random() < 0.5:
            out.append((50, 50, vertex, width, float(rng.randrange(0, 360, 15)), None))
        else:
            out.append((50, 50, vertex, width, None, f"{rng.randrange(50)},{rng.randrange(50)}"))
    return out


def test_the_arcs_kept_stay_within_their_bytes_and_answer_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arcs, "HELD_BYTES", 2 * 1024 * 1024)
    arcs.forget_held()
    keys = _arcs(120)
    first = arcs._held(*keys[0])
    for key in keys[1:]:
        arcs._held(*key)
        assert arcs.held_bytes() <= 2 * 1024 * 1024
    assert 1 < arcs.held_count() < len(keys)  # some were dropped, the recent ones kept
    assert not arcs.held_kept(keys[0])  # the first, least recently used, went first
    assert arcs._held(*keys[0]) == first  # and is worked out again the same
    arcs.forget_held()


def test_an_arc_of_the_largest_map_is_counted_at_its_size() -> None:
    arcs.forget_held()
    wide = arcs._held(50, 50, (0, 25), 150, 0.0, None)
    assert len(wide) > 300
    # At least the dots' tuples themselves: never counted as one small entry.
    assert arcs.held_bytes() >= 56 * len(wide)
    assert arcs.HELD_BYTES // arcs.held_bytes() < 20_000  # the old bound, in entries
    arcs.forget_held()


def test_small_arcs_are_not_kept_by_the_ten_thousand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arcs, "HELD_KEPT", 10)
    arcs.forget_held()
    for key in _arcs(30):
        arcs._held(*key)
        assert arcs.held_count() <= 10
    arcs.forget_held()
