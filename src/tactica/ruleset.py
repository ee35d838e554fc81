"""Rulesets are plug-ins: declared metadata, rulings as named options, narrow hooks.

The core (battle, odds, simulation, play) never asks which game is running: it calls the hooks
of :class:`Ruleset`. A game is one package below :mod:`tactica.rulesets` whose module registers
its ruleset with :func:`register`; adding a game touches no core file.

The shape of a battle, as the core sees it:

* :meth:`Ruleset.pending` says what happens next: a side chooses an action
  (:class:`ChooseAction`), something happens by itself (:class:`Automatic`: initiative, the end of
  a round, explosives, wound dice, poison), or the battle is over (:class:`Finished`).
* :meth:`Ruleset.resolve` turns a chosen action into a chance process (:mod:`tactica.chance`)
  that emits events; the core appends them to the log and applies them with
  :meth:`Ruleset.apply_event`, the only place where a battle's state changes.

Activation by alternation, whole-side turns with reactions mid-move, initiative order with AP,
one action a round spent on acting or reacting, and end-of-turn resolutions all fit this shape.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from tactica.chance import Step
from tactica.errors import RulingError, TacticaError

__all__ = [
    "Automatic",
    "ChooseAction",
    "Finished",
    "Pending",
    "Ruleset",
    "RulesetMeta",
    "Ruling",
    "Rulings",
    "get_ruleset",
    "register",
    "rulesets",
]


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


@dataclass(frozen=True)
class RulesetMeta:
    """What a ruleset declares about itself."""

    name: str
    title: str
    battlefield: str
    rulings: tuple[Ruling, ...]
    aliases: tuple[str, ...] = ()
    source: str = ""
    summary: str = ""


# --------------------------------------------------------------------------------------------
# What happens next


@dataclass(frozen=True)
class ChooseAction:
    """``side`` must choose one of ``actions``; ``prompt`` says what for (for people)."""

    side: str
    actions: tuple[Any, ...]
    prompt: str = ""


@dataclass(frozen=True)
class Automatic:
    """Something happens by itself: run ``process`` (it may roll and emit events)."""

    label: str
    process: Step


@dataclass(frozen=True)
class Finished:
    """The battle is over: ``winner`` is a side or ``None`` for a draw."""

    winner: str | None
    reason: str


Pending = ChooseAction | Automatic | Finished


@runtime_checkable
class Ruleset(Protocol):
    """The hooks the core calls. State objects are the ruleset's own (mutable, copyable)."""

    meta: ClassVar[RulesetMeta]

    def initial_state(self, scenario: Any) -> Any:
        """A new battle state from a validated scenario."""
        ...

    def pending(self, state: Any) -> Pending:
        """What happens next in ``state``."""
        ...

    def resolve(self, state: Any, action: Any) -> Step:
        """The chance process of ``action`` in ``state``; it emits events and ends in Done.

        Must not change ``state``; may assume ``action`` is legal.
        """
        ...

    def apply_event(self, state: Any, event: Any) -> None:
        """Change ``state`` by one event: the only mutation of a battle."""
        ...

    def copy_state(self, state: Any) -> Any:
        """An independent copy of ``state``."""
        ...

    def describe_action(self, state: Any, action: Any) -> str:
        """One line for people (``A moves to 3,4``)."""
        ...

    def describe_event(self, state: Any, event: Any) -> str:
        """One line for people."""
        ...

    def sides_of(self, state: Any) -> tuple[str, ...]:
        """The sides of the battle, in order."""
        ...

    def battle_stats(self, state: Any, events: list[Any]) -> dict[str, Any]:
        """``{"rounds": n, "units": {id: {"side", "survived", "damage_dealt",
        "damage_taken"}}}`` for a finished (or stopped) battle."""
        ...


_RULESETS: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make a ruleset available by its name and aliases."""
    meta = ruleset.meta
    _RULESETS[meta.name] = ruleset
    for alias in (meta.name, *meta.aliases):
        _ALIASES[alias.lower()] = meta.name
    return ruleset


def _load_builtin() -> None:
    import tactica.rulesets  # noqa: F401  (its __init__ imports every built-in game)


def rulesets() -> tuple[Ruleset, ...]:
    """Every registered ruleset, by name."""
    _load_builtin()
    return tuple(_RULESETS[k] for k in sorted(_RULESETS))


def get_ruleset(name: str, *, where: str = "game") -> Ruleset:
    """The ruleset called ``name`` (or an alias), or a TacticaError listing the known games."""
    _load_builtin()
    key = _ALIASES.get(str(name).lower())
    if key is None:
        known = ", ".join(sorted(_RULESETS))
        raise TacticaError(f"{where}: unknown game {name!r} (expected one of {known})")
    return _RULESETS[key]

