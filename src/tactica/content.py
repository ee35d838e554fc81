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

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel

from tactica.errors import ContentError
from tactica.validation import load_yaml, validate

__all__ = ["ContentLoader", "Stamp"]

M = TypeVar("M", bound=BaseModel)
P = TypeVar("P")

#: A file as the cache sees it: its path, modification time and size.
Stamp = tuple[Path, int, int]


def _stamp(path: Path) -> Stamp:
    try:
        st = path.stat()
    except OSError:
        return (path, -1, -1)
    return (path, st.st_mtime_ns, st.st_size)


class ContentLoader(Generic[M, P]):
    """Loads a game's content packs: ``builtin`` files first, then a scenario's own."""

    def __init__(self, model: type[M], build: Callable[[Sequence[tuple[str, M]]], P], *,
                 builtin: Sequence[Path] = (), cache: int = 32) -> None:
        self.model = model
        self.build = build
        self.builtin = tuple(builtin)
        self._cached = lru_cache(maxsize=cache)(self._load)

    def read(self, path: Path) -> M:
        """One pack file, validated (a ContentError names the file and the field)."""
        data = load_yaml(path, error=ContentError)
        return validate(self.model, data, source=str(path), error=ContentError)

    def load(self, extra: Sequence[Path] = ()) -> P:
        """The built-in packs merged with ``extra`` (in order; later ones win)."""
        return self._cached(tuple(_stamp(p) for p in (*self.builtin, *extra)))

    def _load(self, stamps: tuple[Stamp, ...]) -> P:
        files: list[tuple[str, M]] = []
        problems: list[str] = []
        for path, _, _ in stamps:
            try:
                files.append((str(path), self.read(path)))
            except ContentError as exc:
                problems.append(str(exc))
        if problems:
            raise ContentError("\n".join(problems))
        return self.build(files)
