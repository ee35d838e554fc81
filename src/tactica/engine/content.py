"""Content packs: weapons, profiles, enemies and items as YAML, one loader for every game.

A game describes its pack file with a pydantic model and says how a sequence of validated files
becomes its pack (``build``: later files win on equal names). The loader reads, validates (every
error names the file and the field), merges in order and caches by each file's path,
modification time and size, so a pack edited between two runs is read again.

>>> from pydantic import BaseModel
>>> class Pack(BaseModel):
...     weapons: dict[str, int] = {}
>>> loader = ContentLoader(Pack, lambda files: {k: v for _, m in files
...                                             for k, v in m.weapons.items()})
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.yaml").write_text("weapons: {rifle: 2}")
>>> _ = (folder / "b.yaml").write_text("weapons: {rifle: 3, knife: 1}")
>>> loader.load([folder / "a.yaml", folder / "b.yaml"])
{'rifle': 3, 'knife': 1}
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel

from tactica.engine.errors import ContentError
from tactica.engine.limits import CONTENT_PATH_ENV, MAX_YAML_BYTES
from tactica.engine.validation import parse_yaml, read_bounded, validate

__all__ = ["ContentLoader", "ContentReading", "Stamp", "allowed_roots", "reading_content"]

M = TypeVar("M", bound=BaseModel)
P = TypeVar("P")

#: A file as the cache sees it: its path, modification time and size.
Stamp = tuple[Path, int, int]

#: Where tactica's own packs live (any file below this folder is built-in content).
_PACKAGE = Path(__file__).resolve().parent.parent


def _stamp(path: Path) -> Stamp:
    try:
        st = path.stat()
    except OSError:
        return (path, -1, -1)
    return (path, st.st_mtime_ns, st.st_size)


@dataclass
class ContentReading:
    """What the content packs of one scenario are: the folder its own packs must come from
    (``base``; ``None`` allows any path) and every pack file read, by name, with the SHA-256
    of its bytes (``used``; the log of a fight keeps their digest)."""

    base: Path | None
    used: dict[str, str] = field(default_factory=dict)
    also: tuple[Path, ...] = ()

    def name(self, path: Path) -> str:
        """How the digest names a pack: built-in packs by their place in tactica, the
        scenario's own relative to its folder (so that a folder can be moved)."""
        real = Path(os.path.realpath(path))
        if real.is_relative_to(_PACKAGE):
            return "tactica:" + real.relative_to(_PACKAGE).as_posix()
        if self.base is not None:
            base = Path(os.path.realpath(self.base))
            if real.is_relative_to(base):
                return real.relative_to(base).as_posix()
        return real.as_posix()


_READING: ContextVar[ContentReading | None] = ContextVar("tactica_content_reading",
                                                          default=None)


@contextmanager
def reading_content(base: Path | None,
                    also: tuple[Path, ...] = ()) -> Iterator[ContentReading]:
    """Within this block, a game's content packs must come from ``base`` (the scenario's
    folder, or below), tactica's own packs, the folders of ``TACTICA_CONTENT_PATH`` or the
    folders ``also`` given by the caller (a sweep's own generated packs), and every pack read
    is noted in the ContentReading yielded."""
    reading = ContentReading(base, also=also)
    token = _READING.set(reading)
    try:
        yield reading
    finally:
        _READING.reset(token)


def allowed_roots(base: Path, also: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The folders a scenario in ``base`` may take content packs from."""
    extra = [Path(p) for p in os.environ.get(CONTENT_PATH_ENV, "").split(os.pathsep) if p]
    return tuple(Path(os.path.realpath(p)) for p in (base, _PACKAGE, *extra, *also))


def _check_allowed(path: Path, reading: ContentReading | None) -> None:
    if reading is None or reading.base is None:
        return
    real = Path(os.path.realpath(path))
    if not any(real.is_relative_to(root)
               for root in allowed_roots(reading.base, reading.also)):
        raise ContentError(
            f"{path}: outside the scenario's folder; a scenario's content packs come from its "
            f"folder (or below) or tactica's own packs (set {CONTENT_PATH_ENV} to the folders "
            "to allow more)"
        )


class ContentLoader(Generic[M, P]):
    """Loads a game's content packs: ``builtin`` files first, then a scenario's own.

    Only regular files of bounded size are read (see :mod:`tactica.engine.limits`); while a scenario
    is being read (:func:`reading_content`) its packs must come from its folder, and every
    pack read is noted with its digest.
    """

    def __init__(self, model: type[M], build: Callable[[Sequence[tuple[str, M]]], P], *,
                 builtin: Sequence[Path] = (), cache: int = 32) -> None:
        self.model = model
        self.build = build
        self.builtin = tuple(builtin)
        self._cached = lru_cache(maxsize=cache)(self._load)

    def read(self, path: Path) -> M:
        """One pack file, validated (a ContentError names the file and the field)."""
        return self._read(path)[0]

    def _read(self, path: Path) -> tuple[M, str]:
        raw = read_bounded(path, limit=MAX_YAML_BYTES, what="content pack", error=ContentError)
        digest = hashlib.sha256(raw).hexdigest()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ContentError(f"{path}: cannot read: not UTF-8 text (byte {exc.start})"
                               ) from None
        data = parse_yaml(text, source=str(path), error=ContentError)
        return validate(self.model, data, source=str(path), error=ContentError), digest

    def load(self, extra: Sequence[Path] = ()) -> P:
        """The built-in packs merged with ``extra`` (in order; later ones win)."""
        reading = _READING.get()
        for path in extra:
            _check_allowed(path, reading)
        pack, digests = self._cached(tuple(_stamp(p) for p in (*self.builtin, *extra)))
        if reading is not None:
            for path, digest in digests:
                reading.used[reading.name(path)] = digest
        return pack

    def _load(self, stamps: tuple[Stamp, ...]) -> tuple[P, tuple[tuple[Path, str], ...]]:
        files: list[tuple[str, M]] = []
        digests: list[tuple[Path, str]] = []
        problems: list[str] = []
        for path, _, _ in stamps:
            try:
                model, digest = self._read(path)
            except ContentError as exc:
                problems.append(str(exc))
            else:
                files.append((str(path), model))
                digests.append((path, digest))
        if problems:
            raise ContentError("\n".join(problems))
        return self.build(files), tuple(digests)
