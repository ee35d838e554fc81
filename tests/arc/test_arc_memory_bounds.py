"""The greedy policy's remembered movement (the squares each square reaches, the walk to the
nearest foe) is bounded in bytes, not only in entries: on the largest grid a scenario may have
(100 x 100 squares) one answer takes up to some megabytes, so the bounds of 2,048 and 1,024
entries let a run keep gigabytes, growing from battle to battle (docs/limits.md)."""

from __future__ import annotations

import pytest
from arc_builders import gunner, make

from tactica.rulesets.arc import movement, policy


def _field() -> tuple[object, frozenset[tuple[int, int]], list[tuple[int, int]]]:
    rows = ["." * 100 for _ in range(100)]
    rows[0] = "A" + "." * 98 + "B"
    sc = make({"A": gunner("red"), "B": gunner("blue")},
              map={"kind": "grid", "tiles": "\n".join(rows) + "\n"})
    state = sc.new_state()
    starts = [(30 + 3 * i, 50) for i in range(12)]  # squares far from the edges
    return state.grid, state.rough, starts


def test_the_squares_kept_stay_within_their_bytes_and_answer_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    grid, rough, starts = _field()
    movement._layers.cache_clear()
    movement._options.cache_clear()
    first = movement._options(grid, starts[0], 12, rough)
    # Room for three or four answers of each.
    layers_budget = int(movement._layers.kept_bytes() * 3.5)
    options_budget = int(movement._options.kept_bytes() * 3.5)
    monkeypatch.setattr(movement._layers, "budget", layers_budget)
    monkeypatch.setattr(movement._options, "budget", options_budget)
    for start in starts[1:]:
        movement._options(grid, start, 12, rough)
        assert movement._layers.kept_bytes() <= layers_budget
        assert movement._options.kept_bytes() <= options_budget
    assert 1 < len(movement._layers) < len(starts)
    assert (grid, starts[0], rough, 12) not in movement._options  # the oldest went first
    assert movement._options(grid, starts[0], 12, rough) == first
    movement._layers.cache_clear()
    movement._options.cache_clear()


def test_the_walks_kept_stay_within_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policy._walk_map, "budget", 2 * 1024 * 1024)
    policy._walk_map.cache_clear()
    for i in range(8):
        walk = policy._walk_map(100, 100, frozenset(), ((i, 3 * i),))
        assert len(walk) == 100 * 100
        assert policy._walk_map.kept_bytes() <= 2 * 1024 * 1024
    assert len(policy._walk_map) < 8
    policy._walk_map.cache_clear()


def test_an_answer_of_the_largest_grid_is_counted_at_its_size() -> None:
    grid, rough, starts = _field()
    movement._layers.cache_clear()
    layers = movement._layers(grid, starts[0], rough, 24)
    squares = sum(len(layer) for layer in layers)
    assert squares > 2000
    assert movement._layers.kept_bytes() >= 100 * squares
    movement._layers.cache_clear()
