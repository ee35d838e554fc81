"""Ctrl-C for long work: the first one stops the work, a second one stops the process at once.

A long command runs inside :func:`stop_on_ctrl_c` (the command line puts every command in
it). Its SIGINT handler is installed whatever the process inherited (a shell that started the
command in the background may have made it ignore SIGINT), and:

* the first SIGINT records the request and raises :class:`KeyboardInterrupt` where the main
  thread is; the work stops, keeps what had finished, and the command says ``interrupted``
  and exits with code 130. Should the exception be raised somewhere that swallows it (a
  finalizer, a library's ``except``), the request stays recorded: the waits of the executors
  call :func:`check`, which raises it again within a fraction of a second;
* a second SIGINT stops the process at once: its worker processes are killed and it exits
  with code 130 without cleaning up.

Worker processes must never act on SIGINT (Ctrl-C reaches the whole process group; the main
process alone decides): :func:`sigint_held` holds SIGINT back while a pool forks its workers,
so that none is interrupted before :func:`ignore_in_worker` (the pool's initializer) makes it
ignore SIGINT, and the main process gets the signal once the pool has started.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType

__all__ = ["EXIT_CODE", "check", "ignore_in_worker", "mark_reported", "reported",
           "requested", "sigint_held", "stop_on_ctrl_c"]

#: The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_CODE = 130


class _State:
    installed = 0
    requested = False
    reported = False


_STATE = _State()


def _handler(signum: int, frame: FrameType | None) -> None:
    if _STATE.requested:
        _stop_now()
    _STATE.requested = True
    raise KeyboardInterrupt


def _stop_now() -> None:
    """The second Ctrl-C: kill the worker processes and leave without cleaning up."""
    import multiprocessing

    with suppress(OSError):
        os.write(2, b"interrupted again: stopped at once\n")
    with suppress(Exception):  # nothing may keep the process from ending now
        for child in multiprocessing.active_children():
            child.kill()
    os._exit(EXIT_CODE)


@contextmanager
def stop_on_ctrl_c() -> Iterator[None]:
    """Within the block, Ctrl-C stops the work (a KeyboardInterrupt, recorded) and a second
    one the process. Only the main thread can install a signal handler: elsewhere the block
    changes nothing. The previous handler comes back at the end."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _handler)
    # A process started with SIGINT held back (a pool's worker, a test) gets it again.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _STATE.installed += 1
    if _STATE.installed == 1:
        _STATE.requested = _STATE.reported = False
    try:
        yield
    finally:
        _STATE.installed -= 1
        signal.signal(signal.SIGINT, previous)


def requested() -> bool:
    """Whether Ctrl-C was pressed inside :func:`stop_on_ctrl_c`."""
    return _STATE.requested


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed (and the exception may have been lost on
    its way); long waits call it between their steps."""
    if _STATE.requested:
        raise KeyboardInterrupt


def mark_reported() -> None:
    """The command has said what the interruption left (the command line then adds
    nothing)."""
    _STATE.reported = True


def reported() -> bool:
    """Whether the command said what the interruption left (:func:`mark_reported`)."""
    return _STATE.reported


@contextmanager
def sigint_held() -> Iterator[None]:
    """Hold SIGINT back in this thread for the block: processes forked and threads started in
    it begin with SIGINT held, and a Ctrl-C pressed meanwhile reaches this process at the end
    of the block (as a KeyboardInterrupt, where the handler is installed)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def ignore_in_worker() -> None:
    """In a worker process: ignore SIGINT from now on (the main process alone handles Ctrl-C),
    then let go of a SIGINT held back while the worker started (it is dropped)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
