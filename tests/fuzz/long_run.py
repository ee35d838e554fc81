"""The long fuzzing run (``make fuzz``): many inputs, each with a time limit, in worker
processes with a memory limit; reports crashes, hangs and memory.

Every input is made from a seed by :mod:`fuzz_targets` (so any one is reproduced from its kind
and number) and run in a worker process:

* a *crash* is any exception but a :class:`~tactica.engine.errors.TacticaError` (the clear
``error:``
  of the command line), a MemoryError included (the worker's address space is limited);
* a *hang* is an input that takes more than ``--timeout`` seconds of CPU time (the worker
  interrupts it; CPU time, not the clock, so that a machine busy with other work reports no
  false hang; a worker that does not answer long after is killed and replaced);
* memory is the peak resident size of the workers, and per game the most one input raised it.

Every figure is given per game too (the five games, and ``dice`` for dice expressions): each
input belongs to the game of the seed it was made from (a scenario, a map, a log, a session).

Usage::

    python tests/fuzz/long_run.py --inputs 100000            # the run `make fuzz` makes
    python tests/fuzz/long_run.py --replay scenario:1234     # one input, with its traceback

The exit code is 1 if any input crashed or hung.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import multiprocessing.connection
import os
import resource
import shutil
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: How inputs are shared among the targets (out of 20), then the command line's options and
#: sweep files (tests/fuzz/fuzz_cli_inputs.py; 3 more in 23).
MIX = (("scenario", 8), ("map", 3), ("dice", 3), ("log", 3), ("play", 3))
CLI_MIX = (("options", 2), ("sweep-file", 1))
MIX = MIX + CLI_MIX
#: The games inputs belong to, in the order of the report.
GAMES = ("nebulia-operations", "unhex", "last-odyssey", "skirmishers", "arc", "dice")


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def kinds(n: int, start: int) -> Iterator[tuple[str, int]]:
    """Inputs ``start`` .. ``start + n - 1``: (kind, seed)."""
    wheel = [kind for kind, weight in MIX for _ in range(weight)]
    for i in range(start, start + n):
        yield wheel[i % len(wheel)], i


def _worker(conn: Connection, timeout: float, memory_mb: int) -> None:
    """Run inputs sent on ``conn``; answer each with its outcome."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import fuzz_targets as ft

    from tactica.engine.errors import TacticaError

    folder = ft.seeds().folder  # built before the first input: its time is no input's
    signal.signal(signal.SIGPROF, _alarm)
    conn.send("ready")
    try:
        _serve(conn, timeout, ft, TacticaError)
    finally:  # a forked worker runs no atexit hooks
        shutil.rmtree(folder, ignore_errors=True)


def _serve(conn: Connection, timeout: float, ft: Any, refusal: type[Exception]) -> None:
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        kind, seed = job
        start = time.process_time()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        outcome, detail, game = "ok", "", "?"
        try:
            game, value = ft.make_labelled(kind, seed)
            signal.setitimer(signal.ITIMER_PROF, timeout)
            try:
                ft.TARGETS[kind](value)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        except refusal:
            outcome = "refused"
        except _Hang:
            outcome, detail = "hang", f"more than {timeout} s of CPU time"
        except BaseException as exc:  # the point: anything else is a crash
            frames = traceback.extract_tb(exc.__traceback__)
            where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames)
                          if "tactica" in f.filename), "?")
            outcome = "crash"
            detail = f"{type(exc).__name__} at {where}: {str(exc)[:200]}"
        took = time.process_time() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        conn.send((kind, seed, outcome, detail, took, peak, peak - before, game))


class _Pool:
    """Worker processes, one input at a time each; a silent worker is killed and replaced."""

    def __init__(self, workers: int, timeout: float, memory_mb: int):
        self.ctx = mp.get_context("fork")
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.slots: list[tuple[Any, Connection, Any]] = [self._start() for _ in range(workers)]

    def _start(self) -> tuple[Any, Connection, Any]:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, self.timeout, self.memory_mb),
                                daemon=True)
        proc.start()
        child.close()
        # Wait until the worker has built its seeds (a few fights played: slow on a loaded
        # machine); only then does an input's time start.
        if not parent.poll(600) or parent.recv() != "ready":
            raise RuntimeError(f"a fuzzing worker did not start (exit code {proc.exitcode})")
        return proc, parent, None

    def run(self, jobs: Iterator[tuple[str, int]]) -> Iterator[tuple[Any, ...]]:
        pending = list(jobs)
        pending.reverse()
        busy: dict[int, tuple[tuple[str, int], float]] = {}
        while pending or busy:
            for i, (_proc, conn, _) in enumerate(self.slots):
                if i not in busy and pending:
                    job = pending.pop()
                    conn.send(job)
                    busy[i] = (job, time.monotonic())
            ready = mp.connection.wait([self.slots[i][1] for i in busy], timeout=1.0)
            for i in list(busy):
                proc, conn, _ = self.slots[i]
                job, since = busy[i]
                if conn in ready:
                    try:
                        answer = conn.recv()
                    except EOFError:  # the worker died (killed by the system?)
                        answer = (*job, "crash", f"the worker died ({proc.exitcode})",
                                  time.monotonic() - since, 0.0, 0.0, "?")
                        self._replace(i)
                    del busy[i]
                    yield answer
                elif time.monotonic() - since > self.timeout * 10 + 60:  # stuck, not busy
                    self._replace(i)
                    del busy[i]
                    yield (*job, "hang", "no answer: the worker was killed",
                           time.monotonic() - since, 0.0, 0.0, "?")

    def _replace(self, i: int) -> None:
        proc, conn, _ = self.slots[i]
        proc.kill()
        proc.join(5)
        conn.close()
        self.slots[i] = self._start()

    def close(self) -> None:
        for proc, conn, _ in self.slots:
            with contextlib.suppress(OSError):
                conn.send(None)
            proc.join(5)
            if proc.is_alive():
                proc.kill()


class _Game:
    """What the run saw of one game's inputs."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.peak = 0.0
        self.growth = 0.0
        self.slowest = (0.0, "")

    def add(self, kind: str, seed: int, outcome: str, took: float, rss: float,
            growth: float) -> None:
        self.outcomes[outcome] += 1
        self.peak = max(self.peak, rss)
        self.growth = max(self.growth, growth)
        if took > self.slowest[0]:
            self.slowest = (took, f"{kind}:{seed}")

    def summary(self) -> dict[str, Any]:
        return {"inputs": sum(self.outcomes.values()), "crashes": self.outcomes["crash"],
                "hangs": self.outcomes["hang"],
                "outcomes": dict(sorted(self.outcomes.items())),
                "peak_worker_rss_mb": round(self.peak, 1),
                "most_one_input_raised_the_peak_mb": round(self.growth, 1),
                "slowest": {"input": self.slowest[1], "seconds": round(self.slowest[0], 3)}}


def _table(games: dict[str, dict[str, Any]]) -> str:
    head = f"{'game':<20} {'inputs':>7} {'crashes':>7} {'hangs':>5} {'refused':>7} " \
           f"{'peak MB':>8} {'+MB max':>7} {'slowest':>8}"
    lines = [head]
    for game, g in games.items():
        lines.append(f"{game:<20} {g['inputs']:>7} {g['crashes']:>7} {g['hangs']:>5} "
                     f"{g['outcomes'].get('refused', 0):>7} {g['peak_worker_rss_mb']:>8.0f} "
                     f"{g['most_one_input_raised_the_peak_mb']:>7.0f} "
                     f"{g['slowest']['seconds']:>7.2f}s")
    return "\n".join(lines)


def run(inputs: int, start: int, workers: int, timeout: float, memory_mb: int,
        report: Path | None) -> int:
    began = time.perf_counter()
    pool = _Pool(workers, timeout, memory_mb)
    counts: Counter[tuple[str, str]] = Counter()
    by_game: dict[str, _Game] = {game: _Game() for game in GAMES}
    problems: list[dict[str, Any]] = []
    slowest: list[tuple[float, str, int]] = []
    peak = 0.0
    done = 0
    try:
        for kind, seed, outcome, detail, took, rss, growth, game in pool.run(
                kinds(inputs, start)):
            done += 1
            counts[(kind, outcome)] += 1
            by_game.setdefault(game, _Game()).add(kind, seed, outcome, took, rss, growth)
            peak = max(peak, rss)
            slowest = sorted([*slowest, (took, kind, seed)], reverse=True)[:10]
            if outcome in ("crash", "hang"):
                problems.append({"input": f"{kind}:{seed}", "game": game, "outcome": outcome,
                                 "detail": detail, "seconds": round(took, 2)})
                print(f"  {outcome}: {kind}:{seed} ({game}) {detail}", flush=True)
            if done % 5000 == 0:
                rate = done / (time.perf_counter() - began)
                print(f"{done} inputs, {rate:.0f}/s, peak {peak:.0f} MB, "
                      f"{len(problems)} problem(s)", flush=True)
    finally:
        pool.close()
    elapsed = time.perf_counter() - began
    crashes = sum(1 for p in problems if p["outcome"] == "crash")
    hangs = sum(1 for p in problems if p["outcome"] == "hang")
    games = {game: g.summary() for game, g in by_game.items() if g.outcomes}
    summary = {
        "inputs": done,
        "crashes": crashes,
        "hangs": hangs,
        "timeout_seconds": timeout,
        "memory_limit_mb": memory_mb,
        "peak_worker_rss_mb": round(peak, 1),
        "seconds": round(elapsed, 1),
        "by_kind": {kind: {o: n for (k, o), n in sorted(counts.items()) if k == kind}
                    for kind, _ in MIX},
        "by_game": games,
        "slowest": [{"input": f"{k}:{s}", "seconds": round(t, 3)} for t, k, s in slowest],
        "problems": problems[:200],
    }
    print(json.dumps({k: v for k, v in summary.items() if k not in ("problems", "by_game")},
                     indent=2))
    print(_table(games))
    if report is not None:
        report.write_text(json.dumps(summary, indent=2) + "\n")
    return 1 if problems else 0


def replay(which: str) -> int:
    """Run one input in this process and show what happens."""
    import fuzz_targets as ft

    kind, _, seed = which.partition(":")
    value = ft.make_input(kind, int(seed))
    print(repr(value)[:2000])
    print("->", ft.run_input(kind, value))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=0, help="number of the first input")
    parser.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds of CPU time per input")
    parser.add_argument("--memory-mb", type=int, default=3072,
                        help="address space limit of a worker")
    parser.add_argument("--report", type=Path, default=None, help="write the summary here")
    parser.add_argument("--replay", metavar="KIND:N", help="run one input, with its traceback")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    return run(args.inputs, args.start, args.workers, args.timeout, args.memory_mb,
               args.report)


if __name__ == "__main__":
    sys.exit(main())
