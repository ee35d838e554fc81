"""Progress of long commands: a bar on a terminal, a line every few seconds otherwise.

``TACTICA_PROGRESS_SECONDS`` sets the seconds between two lines off a terminal (default 5;
``0``: a line at every step, as a log or a test may want).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from tactica.cli.common import err_console

__all__ = ["PROGRESS_SECONDS_ENV", "ProgressLine", "progress_shown"]

#: The environment variable giving the seconds between two progress lines off a terminal.
PROGRESS_SECONDS_ENV = "TACTICA_PROGRESS_SECONDS"
_DEFAULT_SECONDS = 5.0


def _every() -> float:
    text = os.environ.get(PROGRESS_SECONDS_ENV, "").strip()
    try:
        value = float(text) if text else _DEFAULT_SECONDS
    except ValueError:
        return _DEFAULT_SECONDS
    return value if math.isfinite(value) and 0 <= value <= 86_400 else _DEFAULT_SECONDS


class ProgressLine:
    """Progress off a terminal: a line on standard error every ``every`` seconds (default:
    ``TACTICA_PROGRESS_SECONDS``, else 5) saying what was done, the rate and the time left."""

    def __init__(self, every: float | None = None, name: str = "simulate",
                 unit: str = "battles") -> None:
        self.every = _every() if every is None else every
        self.name = name
        self.unit = unit
        self.start = time.monotonic()
        self.last = self.start

    def __call__(self, done: int, planned: int) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        left = (planned - done) / rate if rate > 0 else float("inf")
        err_console.print(f"{self.name}: {done}/{planned} {self.unit}, {rate:.1f}/s, "
                          f"{_duration(left)} left", markup=False, highlight=False)


def _duration(seconds: float) -> str:
    if seconds == float("inf"):
        return "unknown time"
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


@contextmanager
def progress_shown(name: str, unit: str = "battles", total: int | None = None
                   ) -> Iterator[Callable[[int, int], None]]:
    """A progress callback ``(done, planned)`` for the block: a bar on a terminal (gone at the
    end), lines (:class:`ProgressLine`) otherwise."""
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err_console,
                  transient=True, disable=not err_console.is_terminal) as bar:
        task = bar.add_task(unit, total=total)
        line = None if err_console.is_terminal else ProgressLine(name=name, unit=unit)

        def progress(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned)
            if line is not None:
                line(done, planned)

        yield progress
