"""Benchmark: sight queries on a tile grid, batch path against the plain reference.

All ordered pairs of 40 occupants on a 64x64 grid with 10% blocking tiles (seeded). The
reference is :meth:`TileGrid.sight` (per line, one exact test per nearby blocker); the batch is
:meth:`TileGrid.sight_many` (offset geometry cached, numpy gathers). Answers must be identical,
line by line. The batch is timed warm (offset geometry already cached; the first, cold batch is
reported separately): ``fast`` is the mean over the timed runs of :meth:`TileGrid.sight_all`,
``best`` its fastest run, ``list`` :meth:`TileGrid.sight_many` given the same pairs as a list of
occupant ids. Run with ``python bench/sight.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tactica.battlefield.grid import POLICIES, TileGrid

__all__ = ["build_grid", "main"]


def build_grid(
    size: int = 64, density: float = 0.10, occupants: int = 40, seed: int = 7
) -> TileGrid:
    """A seeded random square grid: ``density`` of tiles blocking, ``occupants`` on open tiles."""
    rng = np.random.default_rng(seed)
    tiles = [(x, y) for y in range(size) for x in range(size)]
    order = rng.permutation(len(tiles))
    n_block = round(density * len(tiles))
    blockers = frozenset(tiles[i] for i in order[:n_block])
    ids = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    placed = {ids[k]: tiles[i] for k, i in enumerate(order[n_block : n_block + occupants])}
    return TileGrid(size, size, blockers, placed, name=f"bench {size}x{size} seed {seed}")


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def run(grid: TileGrid, policy: str, repeat: int, min_time: float) -> dict[str, float]:
    """Time both paths for one policy and check that they agree; returns the rates."""
    ids = list(grid.occupants)
    pairs = [(a, b) for a in ids for b in ids if a != b]

    t0 = time.perf_counter()
    reference = [grid.sight(a, b, policy=policy) for a, b in pairs]
    ref_time = time.perf_counter() - t0
    ref_bits = [
        sum(1 << i for i, line in enumerate(s.lines) if not line.is_clear) for s in reference
    ]

    t0 = time.perf_counter()
    batch = grid.sight_all(policy=policy)
    cold = time.perf_counter() - t0
    if batch.blocked.tolist() != ref_bits:
        raise SystemExit(f"{policy}: batch and reference disagree")
    assert batch.visible.tolist() == [s.is_visible for s in reference]
    assert batch.cover.tolist() == [s.is_in_cover for s in reference]

    runs, elapsed = 0, 0.0
    best = float("inf")
    while runs < repeat or elapsed < min_time:
        t0 = time.perf_counter()
        again = grid.sight_all(policy=policy)
        dt = time.perf_counter() - t0
        best = min(best, dt)
        elapsed += dt
        runs += 1
    assert again.blocked.tolist() == ref_bits
    many = grid.sight_many(pairs, policy=policy)
    assert many.blocked.tolist() == ref_bits
    t0 = time.perf_counter()
    for _ in range(repeat):
        grid.sight_many(pairs, policy=policy)
    many_time = time.perf_counter() - t0
    return {
        "pairs": len(pairs),
        "reference": _rate(len(pairs), ref_time),
        "cold": _rate(len(pairs), cold),
        "fast": _rate(len(pairs) * runs, elapsed),
        "best": _rate(len(pairs), best),
        "many": _rate(len(pairs) * repeat, many_time),
        "visible": sum(s.is_visible for s in reference),
        "cover": sum(s.is_in_cover for s in reference),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per policy."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--density", type=float, default=0.10)
    parser.add_argument("--occupants", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--policy", choices=POLICIES, action="append")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--min-time", type=float, default=1.0)
    args = parser.parse_args(argv)
    grid = build_grid(args.size, args.density, args.occupants, args.seed)
    print(
        f"{grid.name}: {len(grid.blockers)} blocking tiles, {len(grid.occupants)} occupants, "
        "all ordered pairs; answers checked identical line by line"
    )
    header = f"{'policy':<9} {'pairs':>6} {'reference q/s':>14} {'cold q/s':>10} "
    header += f"{'fast q/s':>11} {'best q/s':>11} {'ratio':>7} {'list q/s':>11} "
    header += f"{'visible':>8} {'cover':>6}"
    print(header)
    slow = False
    for policy in args.policy or POLICIES:
        r = run(grid, policy, args.repeat, args.min_time)
        ratio = r["fast"] / r["reference"]
        print(
            f"{policy:<9} {r['pairs']:>6.0f} {r['reference']:>14,.0f} {r['cold']:>10,.0f} "
            f"{r['fast']:>11,.0f} {r['best']:>11,.0f} {ratio:>6.0f}x {r['many']:>11,.0f} "
            f"{r['visible']:>8.0f} {r['cover']:>6.0f}"
        )
        slow = slow or r["fast"] < 1_000_000
    print("target: >= 1,000,000 pair queries/s (warm, one core):", "missed" if slow else "met")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
