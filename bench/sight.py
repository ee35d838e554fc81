"""Benchmark: sight queries on a tile grid and a dot lattice, batch paths against references.

Tile grid: all ordered pairs of 40 occupants on a 64x64 grid with 10% blocking tiles (seeded). The
reference is :meth:`TileGrid.sight` (per line, one exact test per nearby blocker); the batch is
:meth:`TileGrid.sight_many` (offset geometry cached, numpy gathers). Answers must be identical,
line by line. The batch is timed warm (offset geometry already cached; the first, cold batch is
reported separately): ``fast`` is the mean over the timed runs of :meth:`TileGrid.sight_all`,
``best`` its fastest run, ``list`` :meth:`TileGrid.sight_many` given the same pairs as a list of
occupant ids.

Dot lattice: all ordered pairs of 60 troopers on a 40x40 lattice around a two-floor building
(walls, doors, windows, stairs; about a fifth of the troopers upstairs, a fifth prone) with low
walls, hedges, fences and trees scattered (seeded). The reference is
:func:`~tactica.battlefield.dots.reference.reference_sight` (every feature and trooper tested on
its own in Fractions, then the rules); the batch is :meth:`DotLattice.sight_all` (offset
geometry cached, numpy gathers). Visibility, cover and range must be identical for every pair,
under both readings of tangency.

Run with ``python bench/sight.py`` (``--help`` for options; ``--kind dots`` for the lattice only).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tactica.battlefield.dots.fast import DotSightBatch
from tactica.battlefield.dots.geometry import (
    DIRECTIONS,
    Axial,
    Side,
    offset_to_axial,
    side_between,
)
from tactica.battlefield.dots.lattice import Building, DotLattice, Stairs, Trooper
from tactica.battlefield.dots.reference import reference_sight
from tactica.battlefield.grid.tiles import POLICIES, TileGrid

__all__ = ["build_grid", "build_lattice", "main"]


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


def build_lattice(size: int = 40, troopers: int = 60, seed: int = 7) -> DotLattice:
    """A seeded ``size`` x ``size`` lattice: a two-floor building in the middle (walls on both
    floors, doors and windows, stairs), scattered low walls, hedges, fences and trees, and
    ``troopers`` troopers, about a fifth upstairs and a fifth prone."""
    rng = np.random.default_rng(seed)
    lo, hi = size * 3 // 10, size * 6 // 10
    inside = {offset_to_axial(c, r) for r in range(lo, hi + 1) for c in range(lo, hi + 2)}
    on_map = {offset_to_axial(c, r) for r in range(size) for c in range(size)}
    features: dict[tuple[int, Side], str] = {}
    outline = sorted(
        side_between(d, (d[0] + dq, d[1] + dr))
        for d in inside for dq, dr in DIRECTIONS if (d[0] + dq, d[1] + dr) not in inside
    )
    for lvl in (0, 1):
        for i, side in enumerate(outline):
            features[(lvl, side)] = "window" if i % 5 == 2 else "door" if (
                lvl == 0 and i % 11 == 7) else "wall"
    dots = sorted(on_map)
    kinds = ["low-wall", "vegetation", "fence", "furniture", "tree", "high-wall"]
    weights = np.array([4, 3, 2, 1, 1, 1], dtype=float)
    for _ in range(size * size // 12):
        d = dots[int(rng.integers(len(dots)))]
        dq, dr = DIRECTIONS[int(rng.integers(6))]
        n = (d[0] + dq, d[1] + dr)
        side = side_between(d, n)
        if n in on_map and (0, side) not in features:
            features[(0, side)] = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    ids = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    upstairs = sorted(inside)
    placed: dict[str, Trooper] = {}
    taken: set[tuple[Axial, int]] = set()
    for tid in ids[:troopers]:
        while True:
            level = 1 if rng.random() < 0.2 else 0
            pool = upstairs if level else dots
            dot = pool[int(rng.integers(len(pool)))]
            if (dot, level) not in taken:
                break
        taken.add((dot, level))
        placed[tid] = Trooper(dot, level, bool(rng.random() < 0.2))
    stairs = {offset_to_axial(lo + 1, lo + 1): Stairs("stairs", 0, 1)}
    return DotLattice(
        size, size, ("ground", "first"), {1: frozenset(inside)}, features, stairs, placed,
        buildings=(Building("house", frozenset(inside), 2),),
        name=f"bench dots {size}x{size} seed {seed} (house from {lo},{lo} to {hi + 1},{hi})",
    )


def run_dots(lat: DotLattice, options: dict[str, str], repeat: int,
             min_time: float) -> dict[str, float]:
    """Time the lattice's reference and batch for one set of options; they must agree."""
    ids = list(lat.troopers)
    pairs = [(a, b) for a in ids for b in ids if a != b]
    t0 = time.perf_counter()
    reference = [reference_sight(lat, a, b, **options) for a, b in pairs]
    ref_time = time.perf_counter() - t0
    expected = [(r.visible, r.cover, -1 if r.range is None else r.range) for r in reference]

    def answers(b: DotSightBatch) -> list[tuple[bool, int, int]]:
        return list(zip(b.visible.tolist(), b.cover.tolist(), b.range.tolist(), strict=True))

    t0 = time.perf_counter()
    batch = lat.sight_all(**options)
    cold = time.perf_counter() - t0
    if answers(batch) != expected:
        raise SystemExit(f"dots {options}: batch and reference disagree")
    runs, elapsed, best = 0, 0.0, float("inf")
    while runs < repeat or elapsed < min_time:
        t0 = time.perf_counter()
        again = lat.sight_all(**options)
        dt = time.perf_counter() - t0
        best, elapsed, runs = min(best, dt), elapsed + dt, runs + 1
    assert answers(again) == expected
    many = lat.sight_many(pairs, **options)
    assert answers(many) == expected
    return {
        "pairs": len(pairs),
        "reference": _rate(len(pairs), ref_time),
        "cold": _rate(len(pairs), cold),
        "fast": _rate(len(pairs) * runs, elapsed),
        "best": _rate(len(pairs), best),
        "visible": sum(r.visible for r in reference),
        "cover": sum(r.cover for r in reference if r.visible),
    }


def main_dots(size: int, troopers: int, seed: int, repeat: int, min_time: float) -> bool:
    """Run the lattice benchmark; True if the target is met."""
    lat = build_lattice(size, troopers, seed)
    up = sum(t.level for t in lat.troopers.values())
    prone = sum(t.prone for t in lat.troopers.values())
    print(f"{lat.name}: {len(lat.features)} features, {len(lat.troopers)} troopers "
          f"({up} upstairs, {prone} prone), all ordered pairs; visible, cover and range checked "
          "identical to the reference")
    print(f"{'reading':<9} {'pairs':>6} {'reference q/s':>14} {'cold q/s':>10} "
          f"{'fast q/s':>11} {'best q/s':>11} {'ratio':>7} {'visible':>8} {'cover':>6}")
    slow = False
    for name, options in (("clear", {}), ("counts", {"tangent": "counts"})):
        r = run_dots(lat, options, repeat, min_time)
        print(f"{name:<9} {r['pairs']:>6.0f} {r['reference']:>14,.0f} {r['cold']:>10,.0f} "
              f"{r['fast']:>11,.0f} {r['best']:>11,.0f} {r['fast'] / r['reference']:>6.0f}x "
              f"{r['visible']:>8.0f} {r['cover']:>6.0f}")
        slow = slow or r["fast"] < 500_000
    print("target: >= 500,000 lattice pair queries/s (warm, one core):",
          "missed" if slow else "met")
    return not slow


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per policy (grid) and per reading (dots)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--density", type=float, default=0.10)
    parser.add_argument("--occupants", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--policy", choices=POLICIES, action="append")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--kind", choices=("grid", "dots", "both"), default="both")
    parser.add_argument("--dots-size", type=int, default=40)
    parser.add_argument("--troopers", type=int, default=60)
    args = parser.parse_args(argv)
    dots_ok = True
    if args.kind in ("dots", "both"):
        dots_ok = main_dots(args.dots_size, args.troopers, args.seed, args.repeat, args.min_time)
        if args.kind == "dots":
            return 0 if dots_ok else 1
        print()
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
    return 1 if slow or not dots_ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
