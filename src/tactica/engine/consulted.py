"""Which rulings a battle consulted: the reads of a ruling's value, recorded as they happen.

A comparison of two readings of a ruling that the battles never consult compares nothing: both
variants play the same battles. To say so, a simulated battle records every ruling whose value
the rules read (:meth:`tactica.engine.rulings.Rulings.__getitem__` calls :func:`consult`) while it
is played (:func:`recording`). A rule that reads a ruling ahead of time (a bundle of rulings built
with the state) may read it with :meth:`~tactica.engine.rulings.Rulings.peek` and call
:func:`consult` at the point where the reading decides something, so that a battle that never
reaches that point does not count as consulting it.

Answers remembered across battles (:class:`tactica.engine.caching.Cache`) keep the rulings consulted
while they were computed and consult them again on every hit (:func:`opened`, :func:`closed`),
so a remembered answer counts as the reads that made it. Recording is *conservative*: a ruling
read and then ignored counts as consulted; a ruling not consulted was not read at all, and
playing the battle under another of its readings plays the very same battle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

__all__ = ["closed", "consult", "consult_all", "opened", "recording"]

#: Open frames, innermost last: each collects the rulings consulted while it is open.
_FRAMES: list[set[str]] = []
#: What each frame belongs to (a cache and key, or ``None`` for a recording).
_OWNERS: list[object] = []
#: Frames deeper than this are not opened (a cache miss never followed by its put).
_DEPTH = 256


def consult(ruling: str) -> None:
    """Note that the rules read ``ruling``'s value (a no-op when nothing records)."""
    if _FRAMES:
        _FRAMES[-1].add(ruling)


def consult_all(rulings: Iterable[str]) -> None:
    """Note several rulings at once (a remembered answer's reads)."""
    if _FRAMES:
        _FRAMES[-1].update(rulings)


def _close_to(depth: int) -> set[str]:
    """Close the frames above ``depth`` (merging inner ones outward) and return the frame at
    ``depth``'s collection, merged into its parent."""
    while len(_FRAMES) > depth + 1:
        inner = _FRAMES.pop()
        _OWNERS.pop()
        _FRAMES[-1].update(inner)
    frame = _FRAMES.pop()
    _OWNERS.pop()
    if _FRAMES:
        _FRAMES[-1].update(frame)
    return frame


def opened(owner: object) -> None:
    """Open a frame for ``owner`` (a cache's missing key, about to be computed)."""
    if len(_FRAMES) < _DEPTH:
        _FRAMES.append(set())
        _OWNERS.append(owner)


def closed(owner: object) -> frozenset[str] | None:
    """Close ``owner``'s frame: the rulings consulted while it was open (``None`` when no
    frame of ``owner`` is open, such as a value remembered without asking first)."""
    for depth in range(len(_OWNERS) - 1, -1, -1):
        if _OWNERS[depth] == owner:
            return frozenset(_close_to(depth))
    return None


@contextmanager
def recording() -> Iterator[set[str]]:
    """Record the rulings consulted inside the ``with`` into the set it gives (filled in
    while the block runs, complete when it ends)."""
    if None not in _OWNERS:  # frames left open outside any recording (a cache miss never
        _FRAMES.clear()      # followed by its put) can belong to no answer of this one
        _OWNERS.clear()
    frame: set[str] = set()
    depth = len(_FRAMES)
    _FRAMES.append(frame)
    _OWNERS.append(None)
    try:
        yield frame
    finally:
        if len(_FRAMES) > depth:
            while len(_FRAMES) > depth + 1:
                inner = _FRAMES.pop()
                _OWNERS.pop()
                frame.update(inner)
            _FRAMES.pop()
            _OWNERS.pop()
            if _FRAMES:
                _FRAMES[-1].update(frame)
