"""The greedy policy's sight tables are bounded in memory on the largest map a scenario may
have (64 x 64 tiles): sparse masks per operator tile, bounded remembered answers, and the
targets kept over every table within a number of bytes (docs/limits.md)."""

from __future__ import annotations

import numpy as np
import pytest

from tactica.rulesets.nebulia import sighttable
from tactica.rulesets.nebulia.sighttable import SightTable


def _walls(side: int) -> frozenset[tuple[int, int]]:
    rng = np.random.default_rng(3)
    return frozenset((int(x), int(y)) for x, y in rng.integers(0, side, size=(200, 2)))


def test_a_target_of_a_64_by_64_map_takes_little_memory() -> None:
    table = SightTable(64, 64, _walls(64), "inset", "chebyshev", 1)
    target = table.target((40, 30))
    masks = sum(i.nbytes + m.nbytes for i, m in target.singles.values())
    masks += sum(i.nbytes + m.nbytes for i, m in target.pairs.values())
    # A full mask per operator tile took 64 * 64 bytes each: over 16 MB for this target.
    assert masks < 4 * 1024 * 1024, masks
    assert target.memo_limit * 2 * 64 * 64 <= sighttable.MEMO_BYTES
    assert target.values_limit * 8 * 64 * 64 <= sighttable.VALUES_BYTES


def test_the_targets_kept_stay_within_their_bytes_and_answer_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sighttable, "TARGETS_BYTES", 24 * 1024 * 1024)
    monkeypatch.setattr(sighttable, "_KEPT", type(sighttable._KEPT)())
    walls = _walls(32)
    table = SightTable(32, 32, walls, "inset", "chebyshev", 1)
    blockers = [(10, 10), (20, 12), (13, 30)]
    first = table.target((5, 5)).visible_cover(blockers, 3)[0].copy()
    for i in range(20):
        table.target((i, (7 * i) % 32))
    kept = sum(size for _, size in sighttable._KEPT.values())
    assert kept <= 24 * 1024 * 1024 and len(table._targets) < 20
    assert (5, 5) not in table._targets  # dropped long ago, and built again the same
    again = table.target((5, 5)).visible_cover(blockers, 3)[0]
    assert np.array_equal(first, again)


# The sparse masks answer as the grid's own sight: tests/nebulia/test_neb_fast_tables.py.
