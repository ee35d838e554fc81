"""The long fuzzing run's judgement of a worker that has not answered: stuck (a hang) or only
slow on a busy machine. Clock and CPU time are scripted."""

from __future__ import annotations

import long_run


class _Cpu:
    def __init__(self) -> None:
        self.used: float | None = 0.0

    def __call__(self, pid: int) -> float | None:
        return self.used


def test_a_worker_starved_of_cpu_is_not_stuck() -> None:
    """At low priority beside other work a worker got 0.1 s of CPU a minute: after ten
    minutes it has used one second of its five, and is still working."""
    cpu = _Cpu()
    watch = long_run._Watch(1, 5.0, now=0.0, cpu=cpu)
    for minute in range(1, 11):
        cpu.used = 0.1 * minute
        assert not watch.stuck(now=60.0 * minute)


def test_a_worker_blocked_without_cpu_is_stuck() -> None:
    cpu = _Cpu()
    watch = long_run._Watch(1, 5.0, now=0.0, cpu=cpu)
    cpu.used = 0.5
    assert not watch.stuck(now=10.0)
    assert not watch.stuck(now=10.0 + long_run._Watch.STILL - 1)
    assert watch.stuck(now=10.0 + long_run._Watch.STILL + 1)


def test_a_worker_its_timer_did_not_stop_is_stuck() -> None:
    cpu = _Cpu()
    watch = long_run._Watch(1, 5.0, now=0.0, cpu=cpu)
    cpu.used = 20.0
    assert not watch.stuck(now=30.0)
    cpu.used = 26.0  # past three times its limit, and ten seconds more
    assert watch.stuck(now=31.0)


def test_without_proc_the_clock_decides_generously() -> None:
    cpu = _Cpu()
    cpu.used = None
    watch = long_run._Watch(1, 5.0, now=0.0, cpu=cpu)
    assert not watch.stuck(now=600.0)
    assert watch.stuck(now=651.0)


def test_the_cpu_time_of_this_process_is_read() -> None:
    import os

    used = long_run._cpu_seconds(os.getpid())
    assert used is None or used >= 0.0


def test_a_worker_that_has_run_its_share_is_replaced_by_a_fresh_one() -> None:
    """Five inputs, one worker, two inputs a worker: every input is answered, and three
    workers ran them (the first, and one after each second input)."""
    pool = long_run._Pool(1, timeout=30.0, memory_mb=3072, per_worker=2)
    try:
        first = pool.slots[0][0].pid
        answers = list(pool.run(iter([("dice", n) for n in range(5)])))
        assert [a[:2] for a in answers] == [("dice", n) for n in range(5)]
        assert all(a[2] in ("ok", "refused") for a in answers), answers
        assert pool.started == 3 and pool.slots[0][0].pid != first
    finally:
        pool.close()
