"""Where battles run: this process, a local process pool, or a Dask cluster.

Work is cut into *jobs*, ranges of battle indices; a job plays its battles under every variant
and returns their :class:`~tactica.analysis.sim.tally.Tally` (and the paired tally). Battle ``i`` is
the same wherever it runs (its generators come from the seed and ``i`` alone) and tallies merge in
any order, so the numbers never depend on the executor, the number of workers or the order in
which jobs finish.

Every executor is a context manager whose :meth:`~Executor.run` yields each job's result as it
finishes. Ctrl-C (a KeyboardInterrupt in the main process) ends the work at once: the local
pool's workers ignore SIGINT (they are forked with it held back, so that none is interrupted
while it starts) and are terminated, a Dask client cancels its futures; the caller keeps what
had finished. The waits call :func:`tactica.analysis.ctrl_c.check`, so a Ctrl-C whose
exception was lost on its way still stops them (:mod:`tactica.analysis.ctrl_c`).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from tactica.analysis import ctrl_c
from tactica.analysis.sim.play import play_chunk
from tactica.analysis.sim.tally import PairedTally, Tally
from tactica.engine.caching import Cache
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import Scenario, scenario_from_mapping

__all__ = [
    "DaskExecutor",
    "Executor",
    "Job",
    "JobResult",
    "LocalExecutor",
    "Plan",
    "ProcessExecutor",
    "make_executor",
    "run_job",
]

#: Battle indices ``[start, stop)``.
Job = tuple[int, int]
#: One tally per variant, and the paired tally (``None`` for a single variant).
JobResult = tuple[list[Tally], PairedTally | None]


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs, as plain data: each variant's scenario data, source and
    folder, the policies, the seed and the step budget of a battle. ``token`` names the plan
    so that a worker builds its scenarios once."""

    token: str
    variants: tuple[tuple[Any, str, str, tuple[str, ...]], ...]
    policies: tuple[tuple[str, str], ...]
    seed: int
    max_steps: int
    #: Count the rulings each battle consulted (and pair each variant's changed ruling's);
    #: ``reuse``: take the first variant's battle where the changed ruling was not consulted
    #: (:func:`~tactica.analysis.sim.play.play_chunk`).
    consulted: bool = False
    rulings: tuple[str | None, ...] = ()
    reuse: bool = False
    #: The battles each process plays of the run, when it is known to be that short (the
    #: reference plays a run too short to pay a kernel's preparation back,
    #: :func:`~tactica.analysis.sim.kernels.short_run`); ``None``: a long run.
    per_process: int | None = None

    @classmethod
    def of(cls, scenarios: Sequence[Scenario], policies: dict[str, str], seed: int,
           max_steps: int, *, consulted: bool = False, rulings: Sequence[str | None] = (),
           reuse: bool = False, per_process: int | None = None) -> Plan:
        """The plan of a run (the token is unique to this process's run)."""
        import uuid

        return cls(uuid.uuid4().hex,
                   tuple((dict(s.data), s.source, str(s.base_dir),
                          tuple(str(f) for f in s.content_folders)) for s in scenarios),
                   tuple(sorted(policies.items())), seed, max_steps, consulted, tuple(rulings),
                   reuse, per_process)

    def short(self, scenario: Scenario) -> bool:
        """True when the run leaves ``scenario``'s battles to the reference, too short to pay
        its kernel's preparation back."""
        from tactica.analysis.sim.kernels import short_run

        return self.per_process is not None and short_run(scenario,
                                                          self.per_process) is not None


# Scenarios built in this process, by plan token (workers build a plan's scenarios once).
_BUILT: Cache[str, list[Scenario]] = Cache("simulate.built-scenarios", maxsize=9)


def _scenarios(plan: Plan) -> list[Scenario]:
    found = _BUILT.get(plan.token)
    if found is None:
        found = [scenario_from_mapping(data, source=source, base_dir=Path(base),
                                       content_folders=tuple(Path(f) for f in folders))
                 for data, source, base, folders in plan.variants]
        _BUILT.put(plan.token, found)
    return found


def run_job(plan: Plan, start: int, stop: int) -> JobResult:
    """Play battles ``start`` .. ``stop - 1`` of ``plan`` under every variant (the function
    workers run)."""
    return play_chunk(_scenarios(plan), dict(plan.policies), plan.seed, start, stop,
                      max_steps=plan.max_steps, consulted=plan.consulted, rulings=plan.rulings,
                      reuse=plan.reuse, per_process=plan.per_process)


class Executor(Protocol):
    """Runs jobs; a context manager (its resources live until the end of the ``with``)."""

    def run(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobResult]]:
        """Each job with its result, as jobs finish."""
        ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


class LocalExecutor:
    """This process, one job after the other (the scenarios are used as they are)."""

    def __init__(self, plan: Plan, scenarios: Sequence[Scenario]) -> None:
        self.plan = plan
        self.scenarios = list(scenarios)

    def run(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobResult]]:
        for start, stop in jobs:
            ctrl_c.check()
            yield (start, stop), play_chunk(self.scenarios, dict(self.plan.policies),
                                            self.plan.seed, start, stop,
                                            max_steps=self.plan.max_steps,
                                            consulted=self.plan.consulted,
                                            rulings=self.plan.rulings,
                                            reuse=self.plan.reuse,
                                            per_process=self.plan.per_process)

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        return None


_POOL_PLAN: dict[str, Plan] = {}


def _init_worker(plan: Plan) -> None:
    # Ctrl-C reaches the whole process group: the main process alone handles it.
    ctrl_c.ignore_in_worker()
    _POOL_PLAN["plan"] = plan
    _scenarios(plan)


def _pool_job(job: Job) -> tuple[Job, JobResult]:
    return job, run_job(_POOL_PLAN["plan"], job[0], job[1])


def _prepare_before_fork(plan: Plan) -> None:
    """Build the plan's scenarios and prepare their kernels in this process, so that workers
    forked from it start with them (their caches are this process's): the kernel's tables are
    built once for the run, not once per worker. Not for a run too short to pay it back."""
    from tactica.analysis.sim.kernels import prepared_kernel

    for scenario in _scenarios(plan):
        if not plan.short(scenario):
            prepared_kernel(scenario)


class ProcessExecutor:
    """A pool of ``workers`` local processes (forked where the system allows, so they start
    with this process's caches, the plan's prepared kernels among them)."""

    def __init__(self, plan: Plan, workers: int) -> None:
        self.plan = plan
        self.workers = workers
        self._pool: Any = None

    def __enter__(self) -> ProcessExecutor:
        methods = multiprocessing.get_all_start_methods()
        if "fork" in methods:
            _prepare_before_fork(self.plan)
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        try:
            # Forked with SIGINT held back (its threads too, which fork the replacements of
            # workers that end): a Ctrl-C meanwhile reaches this process once the pool runs.
            with ctrl_c.sigint_held():
                self._pool = ctx.Pool(self.workers, initializer=_init_worker,
                                      initargs=(self.plan,))
        except BaseException as exc:
            self.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return self

    def run(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobResult]]:
        it = self._pool.imap_unordered(_pool_job, list(jobs))
        for _ in range(len(jobs)):
            while True:
                ctrl_c.check()
                try:
                    found = it.next(timeout=0.2)
                except multiprocessing.TimeoutError:
                    continue
                yield found
                break

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._pool is None:
            return
        if kind is None:
            self._pool.close()
        else:  # interrupted or failed: do not wait for the jobs under way
            self._pool.terminate()
        self._pool.join()
        self._pool = None


class DaskExecutor:
    """A Dask cluster reached at ``scheduler`` (``tcp://host:8786``), or an existing
    ``distributed.Client`` (tests pass one on a LocalCluster)."""

    def __init__(self, plan: Plan, scheduler: Any, *, timeout: float = 5.0) -> None:
        self.plan = plan
        self.scheduler = scheduler
        self.timeout = timeout
        self._client: Any = None
        self._own = False
        self._futures: list[Any] = []

    def __enter__(self) -> DaskExecutor:
        try:
            import distributed
        except ImportError:
            raise TacticaError(
                "--executor dask needs Dask: pip install 'tactica[sim]' "
                "(or dask[distributed])"
            ) from None
        if isinstance(self.scheduler, distributed.Client):
            self._client = self.scheduler
            return self
        if not isinstance(self.scheduler, str) or not self.scheduler.strip():
            raise TacticaError("--executor dask needs --scheduler ADDRESS "
                               "(such as tcp://127.0.0.1:8786)")
        try:
            self._client = distributed.Client(  # type: ignore[no-untyped-call]
                self.scheduler, timeout=self.timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise TacticaError(f"--scheduler: cannot reach the Dask scheduler at "
                               f"{self.scheduler!r}: {reason}") from None
        self._own = True
        return self

    def run(self, jobs: Sequence[Job]) -> Iterator[tuple[Job, JobResult]]:
        from distributed import as_completed

        futures = {self._client.submit(run_job, self.plan, a, b, pure=False): (a, b)
                   for a, b in jobs}
        self._futures = list(futures)
        done = as_completed(list(futures), loop=self._client.loop)  # type: ignore[no-untyped-call]
        for fut in done:
            ctrl_c.check()
            yield futures[fut], fut.result()
        self._futures = []

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._client is None:
            return
        if self._futures:
            self._client.cancel(self._futures)
            self._futures = []
        if self._own:
            self._client.close()
        self._client = None


def make_executor(kind: str, plan: Plan, scenarios: Sequence[Scenario], *, workers: int,
                  scheduler: Any = None) -> Executor:
    """The executor called ``kind`` (``process``, the default, or ``dask``); ``process``
    with one worker runs in this process."""
    if kind == "dask":
        return DaskExecutor(plan, scheduler)
    if kind != "process":
        raise TacticaError(f"--executor: expected process or dask, got {kind!r}")
    if workers <= 1:
        return LocalExecutor(plan, scenarios)
    return ProcessExecutor(plan, workers)
