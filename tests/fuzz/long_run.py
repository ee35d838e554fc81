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
  A worker is replaced by a fresh one after :data:`INPUTS_PER_WORKER` inputs
  (``--inputs-per-worker``): a process that plays thousands of different scenarios fills
  every bounded cache of every game with them (about 150 MB in all, measured), which no
  command a user runs ever does, and that would be counted on top of each input's own peak.

The report (``--report``) is written as the run goes, every :data:`REPORT_EVERY` inputs and at
least once a minute, with ``"finished": false`` and the rate so far until the run ends: a run
stopped early still says what it reached.

Every figure is given per game too (the five games, and ``dice`` for dice expressions): each
input belongs to the game of the seed it was made from (a scenario, a map, a log, a session).

The differential run (``--differential N``, a target of its own: :func:`run_differential`)
draws N random valid scenarios per game (:mod:`differential`), plays each with the compiled
kernel and with the reference and compares them; it reports per game the scenarios tried, how
many the kernel covered, the reasons it did not, and every mismatch shrunk to a minimal
scenario. With ``--asan-scenarios M`` it then builds the kernels again with AddressSanitizer
(when the compiler has it) into a temporary folder and plays M scenarios per game on that build
in a subprocess (``LD_PRELOAD`` of the sanitizer's runtime), reporting what it found.

Usage::

    python tests/fuzz/long_run.py --inputs 100000            # the run `make fuzz` makes
    python tests/fuzz/long_run.py --replay scenario:1234     # one input, with its traceback
    python tests/fuzz/long_run.py --differential 1000 --asan-scenarios 100

The exit code is 1 if any input crashed or hung, or any scenario mismatched.
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
import subprocess
import sys
import sysconfig
import tempfile
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


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) process ``pid`` has used, from ``/proc``; ``None`` where
    the system does not say."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class _Watch:
    """Whether a worker that has not answered is stuck rather than slow. An input's limit is
    CPU time: on a machine busy with other work (the long run is meant to run at low
    priority beside it) a worker may wait minutes for a few seconds of CPU, and the clock
    alone would call that a hang. A worker is stuck when it has used well past its limit of
    CPU time without answering (its timer did not stop it), or when it has used none for
    ``STILL`` seconds (blocked, not starved: a starved process still gets some time). Where
    ``/proc`` says nothing, the clock decides, generously."""

    STILL = 120.0

    def __init__(self, pid: int, timeout: float, now: float | None = None,
                 cpu: Any = _cpu_seconds) -> None:
        self.pid, self.timeout, self.cpu = pid, timeout, cpu
        self.since = self.moved = time.monotonic() if now is None else now
        self.start = self.last = cpu(pid)

    def stuck(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        used = self.cpu(self.pid)
        if used is None or self.start is None:
            return now - self.since > self.timeout * 10 + 600
        if used - self.start > self.timeout * 3 + 10:
            return True
        if used > (self.last or 0.0):
            self.last, self.moved = used, now
        return now - self.moved > self.STILL


#: Inputs a worker runs before a fresh one takes its place (see the top of this file).
INPUTS_PER_WORKER = 1000


class _Pool:
    """Worker processes, one input at a time each; a silent worker is killed and replaced,
    and one that has run ``per_worker`` inputs is ended and replaced."""

    def __init__(self, workers: int, timeout: float, memory_mb: int,
                 per_worker: int = INPUTS_PER_WORKER):
        self.ctx = mp.get_context("fork")
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.per_worker = per_worker
        #: Workers started in all (replacements included).
        self.started = 0
        self.slots: list[tuple[Any, Connection, Any]] = [self._start() for _ in range(workers)]
        self.ran = [0] * workers

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
        self.started += 1
        return proc, parent, None

    def run(self, jobs: Iterator[tuple[str, int]]) -> Iterator[tuple[Any, ...]]:
        pending = list(jobs)
        pending.reverse()
        busy: dict[int, tuple[tuple[str, int], float]] = {}
        watch: dict[int, _Watch] = {}
        while pending or busy:
            for i, (proc, conn, _) in enumerate(self.slots):
                if i not in busy and pending:
                    job = pending.pop()
                    conn.send(job)
                    busy[i] = (job, time.monotonic())
                    watch[i] = _Watch(proc.pid, self.timeout)
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
                    self.ran[i] += 1
                    if self.ran[i] >= self.per_worker:
                        self._retire(i)
                    yield answer
                elif watch[i].stuck():  # not merely slow on a busy machine: stuck
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
        self.ran[i] = 0

    def _retire(self, i: int) -> None:
        """Worker ``i`` has run its share: it ends (its folder removed) and a fresh one
        takes its place."""
        proc, conn, _ = self.slots[i]
        with contextlib.suppress(OSError):
            conn.send(None)
        proc.join(60)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
        conn.close()
        self.slots[i] = self._start()
        self.ran[i] = 0

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


#: How often (in inputs, and in seconds) the report is written while the run goes on, so that
#: a run stopped before its end still says what it reached.
REPORT_EVERY = 500
REPORT_SECONDS = 60.0


def run(inputs: int, start: int, workers: int, timeout: float, memory_mb: int,
        report: Path | None, per_worker: int = INPUTS_PER_WORKER) -> int:
    began = time.perf_counter()
    pool = _Pool(workers, timeout, memory_mb, per_worker)
    counts: Counter[tuple[str, str]] = Counter()
    by_game: dict[str, _Game] = {game: _Game() for game in GAMES}
    problems: list[dict[str, Any]] = []
    slowest: list[tuple[float, str, int]] = []
    peak = 0.0
    done = 0
    written = time.monotonic()

    def summary(finished: bool) -> dict[str, Any]:
        elapsed = time.perf_counter() - began
        return {
            "finished": finished,
            "inputs_asked": inputs,
            "inputs": done,
            "crashes": sum(1 for p in problems if p["outcome"] == "crash"),
            "hangs": sum(1 for p in problems if p["outcome"] == "hang"),
            "timeout_seconds": timeout,
            "memory_limit_mb": memory_mb,
            "inputs_per_worker": per_worker,
            "peak_worker_rss_mb": round(peak, 1),
            "seconds": round(elapsed, 1),
            "inputs_per_second": round(done / elapsed, 2) if elapsed > 0 else 0.0,
            "by_kind": {kind: {o: n for (k, o), n in sorted(counts.items()) if k == kind}
                        for kind, _ in MIX},
            "by_game": {game: g.summary() for game, g in by_game.items() if g.outcomes},
            "slowest": [{"input": f"{k}:{s}", "seconds": round(t, 3)} for t, k, s in slowest],
            "problems": problems[:200],
        }

    def write(finished: bool) -> dict[str, Any]:
        result = summary(finished)
        if report is not None:  # whole or not at all: a reader never sees half a file
            partial = report.with_name(report.name + ".part")
            partial.write_text(json.dumps(result, indent=2) + "\n")
            os.replace(partial, report)
        return result

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
            if done % REPORT_EVERY == 0 or time.monotonic() - written > REPORT_SECONDS:
                write(False)
                written = time.monotonic()
    finally:
        pool.close()
    result = write(True)
    print(json.dumps({k: v for k, v in result.items() if k not in ("problems", "by_game")},
                     indent=2))
    print(_table(result["by_game"]))
    return 1 if problems else 0


# --------------------------------------------------------------------------------------------
# Differential fuzzing of the kernels, and the same on an AddressSanitizer build

#: The environment variable naming a folder of kernels to import instead of the built ones
#: (the AddressSanitizer build; read by :func:`_use_kernels_from`).
ASAN_FOLDER = "TACTICA_FUZZ_KERNELS"


def _use_kernels_from(folder: str) -> dict[str, str]:
    """Import each game's ``_kernel`` from ``folder/<game>/`` (the sanitized build) rather
    than from beside its rules: the folder goes first in the game package's path. Returns the
    file each kernel was imported from; raises when one is not the folder's."""
    import importlib

    files = {}
    for game_dir in sorted(Path(folder).iterdir()):
        package = importlib.import_module(f"tactica.rulesets.{game_dir.name}")
        package.__path__.insert(0, str(game_dir))
        module = importlib.import_module(f"tactica.rulesets.{game_dir.name}._kernel")
        files[game_dir.name] = str(module.__file__)
        if not files[game_dir.name].startswith(str(game_dir)):
            raise RuntimeError(f"the {game_dir.name} kernel came from {module.__file__}, "
                               f"not from {game_dir}")
    return files


def run_differential(per_game: int, start: int, report: Path | None, *,
                     label: str = "differential", battles: int = 2,
                     games_only: tuple[str, ...] = ()) -> int:
    """``per_game`` random scenarios of each game, kernel against reference; prints and
    returns (exit code) what it found. A mismatch is shrunk and printed as YAML."""
    import differential as dt

    folder = os.environ.get(ASAN_FOLDER)
    kernel_files = _use_kernels_from(folder) if folder else {}
    began = time.perf_counter()
    games: dict[str, Any] = {}
    for game in games_only or dt.GAMES:
        t0 = time.perf_counter()

        def said(entry: dict[str, Any], game: str = game) -> None:
            print(f"  MISMATCH {game} seed {entry['seed']}: {entry['detail']}\n"
                  f"{entry['scenario']}", flush=True)

        tally = dt.run(game, range(start, start + per_game), battles=battles,
                       on_mismatch=said)
        games[game] = {**tally.summary(), "seconds": round(time.perf_counter() - t0, 1)}
        g = games[game]
        print(f"{label}: {game}: {g['scenarios']} scenarios, {g['covered']} covered by the "
              f"kernel ({g['battles_compared']} battles compared), {g['mismatches']} "
              f"mismatches, {g['seconds']} s", flush=True)
    summary = {"run": label, "scenarios_per_game": per_game, "first_seed": start,
               "kernels_imported_from": kernel_files,
               "seconds": round(time.perf_counter() - began, 1),
               "scenarios": sum(g["scenarios"] for g in games.values()),
               "mismatches": sum(g["mismatches"] for g in games.values()), "by_game": games}
    print(_differential_table(games))
    if report is not None:
        report.write_text(json.dumps(summary, indent=2) + "\n")
    return 1 if summary["mismatches"] else 0


def _differential_table(games: dict[str, Any]) -> str:
    lines = [f"{'game':<20} {'scenarios':>9} {'covered':>7} {'battles':>7} {'mismatch':>8}"
             f"  not covered, most common reasons"]
    for game, g in games.items():
        reasons = "; ".join(f"{r} ({n})" for r, n in list(g["uncovered_reasons"].items())[:3])
        lines.append(f"{game:<20} {g['scenarios']:>9} {g['covered']:>7} "
                     f"{g['battles_compared']:>7} {g['mismatches']:>8}  {reasons}")
    return "\n".join(lines)


def _asan_runtime() -> str | None:
    """The path of the compiler's AddressSanitizer runtime, or ``None`` when it has none."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        found = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True,
                               text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return found if found and os.path.isabs(found) and os.path.exists(found) else None


def build_asan_kernels(dest: Path) -> tuple[bool, str]:
    """Compile each game's generated kernel C source (``_kernel.c``, written by the build
    beside its ``_kernel.pyx``) with ``-fsanitize=address`` into ``dest/<game>/``. Returns
    whether every kernel was built, and what happened (why not, when not)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    include = sysconfig.get_paths()["include"]
    rulesets = HERE.parents[1] / "src" / "tactica" / "rulesets"
    sources = sorted(rulesets.glob("*/_kernel.pyx"))
    built = []
    for pyx in sources:
        source = pyx.with_suffix(".c")
        if not source.exists() or source.stat().st_mtime < pyx.stat().st_mtime:
            return False, (f"{source.relative_to(rulesets)} is missing or older than its "
                           ".pyx: build the kernels first (make .venv/.test-installed)")
        out = dest / pyx.parent.name / f"_kernel{suffix}"
        out.parent.mkdir(parents=True, exist_ok=True)
        flags = (sysconfig.get_config_var("CFLAGS") or "").split()
        command = [*cc, *flags, "-shared", "-fPIC", "-O1", "-g", "-fsanitize=address",
                   "-fno-omit-frame-pointer", "-ffp-contract=off", f"-I{include}",
                   str(source), "-o", str(out)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            return False, (f"the compiler failed on {pyx.parent.name} with "
                           f"-fsanitize=address: {done.stderr.strip()[-300:]}")
        built.append(pyx.parent.name)
    return True, f"built {', '.join(built)} with -fsanitize=address"


def run_asan(per_game: int, start: int, report: Path | None,
             games_only: tuple[str, ...] = (), battles: int = 2) -> int:
    """The differential run on an AddressSanitizer build of the kernels, in a subprocess;
    skipped, saying why, where the compiler has no sanitizer."""
    runtime = _asan_runtime()
    result: dict[str, Any] = {"run": "differential-asan", "scenarios_per_game": per_game}
    if runtime is None:
        result["skipped"] = "the C compiler has no AddressSanitizer runtime (libasan)"
        print(f"asan: skipped: {result['skipped']}")
        if report is not None:
            report.write_text(json.dumps(result, indent=2) + "\n")
        return 0
    with tempfile.TemporaryDirectory(prefix="tactica-asan-") as tmp:
        ok, said = build_asan_kernels(Path(tmp) / "kernels")
        print(f"asan: {said}", flush=True)
        if not ok:
            result["skipped"] = said
            if report is not None:
                report.write_text(json.dumps(result, indent=2) + "\n")
            return 0
        inner = Path(tmp) / "report.json"
        env = {**os.environ, ASAN_FOLDER: str(Path(tmp) / "kernels"), "LD_PRELOAD": runtime,
               "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1"}
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--differential", str(per_game),
             "--start", str(start), "--report", str(inner), "--label", "differential-asan",
             "--games", ",".join(games_only), "--battles", str(battles)],
            env=env, capture_output=True, text=True)
        sys.stdout.write(done.stdout)
        errors = [line for line in done.stderr.splitlines() if "AddressSanitizer" in line]
        result.update(json.loads(inner.read_text()) if inner.exists() else {})
        result.update({"exit_code": done.returncode, "sanitizer_errors": errors[:20],
                       "runtime": runtime})
        print(f"asan: exit code {done.returncode}, {len(errors)} AddressSanitizer report(s)")
        if errors or done.returncode not in (0, 1):
            sys.stdout.write(done.stderr[-4000:])
    if report is not None:
        report.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if done.returncode == 0 and not errors else 1


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
    parser.add_argument("--inputs-per-worker", type=int, default=INPUTS_PER_WORKER,
                        help="inputs a worker runs before a fresh one replaces it")
    parser.add_argument("--report", type=Path, default=None, help="write the summary here")
    parser.add_argument("--replay", metavar="KIND:N", help="run one input, with its traceback")
    parser.add_argument("--differential", type=int, default=None, metavar="N",
                        help="the differential run of the kernels instead: N scenarios a game")
    parser.add_argument("--asan-scenarios", type=int, default=0, metavar="M",
                        help="with --differential: then M scenarios a game on an "
                             "AddressSanitizer build of the kernels")
    parser.add_argument("--games", default="", help="with --differential: only these games "
                        "(comma-separated)")
    parser.add_argument("--battles", type=int, default=2,
                        help="with --differential: battles compared per scenario")
    parser.add_argument("--label", default="differential", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    if args.differential is not None:
        only = tuple(g for g in args.games.split(",") if g)
        import differential as dt

        unknown = [g for g in only if g not in dt.GAMES]
        if unknown:
            parser.error(f"--games: unknown game {unknown[0]!r} (expected one of "
                         f"{', '.join(dt.GAMES)})")
        code = run_differential(args.differential, args.start, args.report, label=args.label,
                                games_only=only, battles=args.battles)
        if args.asan_scenarios > 0:
            asan_report = (args.report.with_name(args.report.stem + "-asan.json")
                           if args.report is not None else None)
            code = max(code, run_asan(args.asan_scenarios, args.start, asan_report, only,
                                      args.battles))
        return code
    if args.inputs_per_worker < 1:
        parser.error("--inputs-per-worker: expected 1 or more")
    return run(args.inputs, args.start, args.workers, args.timeout, args.memory_mb,
               args.report, args.inputs_per_worker)


if __name__ == "__main__":
    sys.exit(main())
