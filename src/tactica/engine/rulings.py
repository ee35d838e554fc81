"""Rulings: every ambiguity of a game's rules as a named option with a default.

A game declares its rulings (``ABC-3: chebyshev | manhattan | euclidean``); a battle runs under
one choice for each (:class:`Rulings`), the defaults filled in. Scenarios and the command line
switch them, and simulation compares two readings side by side.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from tactica.engine.consulted import consult
from tactica.engine.errors import RulingError

__all__ = ["Ruling", "Rulings"]


@dataclass(frozen=True)
class Ruling:
    """One ambiguity of a game's rules, as a named option with a default.

    ``options`` maps each allowed value to a one-line description; the default comes first.
    """

    id: str
    question: str
    default: str
    options: Mapping[str, str]

    def check(self, value: str, *, where: str = "") -> str:
        """``value`` if it is one of the options, else a RulingError listing them."""
        if value not in self.options:
            allowed = ", ".join(self.options)
            prefix = f"{where}: " if where else ""
            raise RulingError(f"{prefix}{self.id}: unknown option {value!r} (expected {allowed})")
        return value


class Rulings(Mapping[str, str]):
    """The ruling choices in force for one battle: every ruling of the game, defaults filled in.

    Reading a choice (``rulings["X-1"]``) is not a plain lookup: it also notes the ruling in
    the innermost open frame of :mod:`tactica.engine.consulted`, a module-global stack that a
    recorded simulation (:func:`~tactica.engine.consulted.recording`) and a cache computing an
    answer open and close. That is how ``simulate --compare``, ``sweep`` and ``effects`` know
    which battles a ruling could have changed, without every rule passing a recorder along.
    With no frame open (odds, ``play``, most tests) the note is a no-op. :meth:`peek` reads a
    choice without noting it, for a rule that reads ahead and consults where it decides.

    >>> r = Ruling("X-1", "q?", "a", {"a": "first", "b": "second"})
    >>> Rulings((r,), {"X-1": "b"})["X-1"]
    'b'
    """

    def __init__(
        self,
        declared: tuple[Ruling, ...],
        chosen: Mapping[str, str] | None = None,
        *,
        where: str = "rulings",
    ) -> None:
        self._declared = {r.id: r for r in declared}
        values = {r.id: r.default for r in declared}
        for key, value in (chosen or {}).items():
            ruling = self._declared.get(str(key))
            if ruling is None:
                known = ", ".join(self._declared) or "(none)"
                raise RulingError(f"{where}: unknown ruling {key!r} (this game has {known})")
            values[ruling.id] = ruling.check(str(value), where=where)
        self._values = values
        self._key = tuple(sorted(values.items()))

    def key(self) -> tuple[tuple[str, str], ...]:
        """A hashable summary of every choice (for caches)."""
        return self._key

    def __getitem__(self, key: str) -> str:
        value = self._values[key]
        consult(key)  # noted in tactica.engine.consulted's open frame, if any (see the class)
        return value

    def peek(self, key: str) -> str:
        """The choice for ``key`` without counting it as consulted: for rules that read a
        ruling ahead of time and :func:`~tactica.engine.consulted.consult` it where it decides."""
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Rulings({self._values!r})"

    def changed(self) -> dict[str, str]:
        """Only the choices that differ from the defaults."""
        return {k: v for k, v in self._values.items() if v != self._declared[k].default}

    def with_choices(self, chosen: Mapping[str, str], *, where: str = "rulings") -> Rulings:
        """A copy with some choices replaced (validated)."""
        merged = dict(self._values)
        merged.update(chosen)
        return Rulings(tuple(self._declared.values()), merged, where=where)

    def declared(self) -> tuple[Ruling, ...]:
        """The rulings of the game, in declaration order."""
        return tuple(self._declared.values())
