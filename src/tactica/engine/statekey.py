"""A battle state's merge key: equal keys mean states that play on the same way.

The exact search of a whole fight (:mod:`tactica.analysis.exact`) merges the branches that
reach equal states. Game states are mutable dataclasses, so the core derives a hashable key
from their fields by the rule :mod:`tactica.engine.copying` copies them by, without anyone
writing the fields down:

* a dataclass (mutable or frozen) is its class and its fields' keys, in order, except the
  fields its equality ignores (``compare=False``: a memo of derived answers), those marked
  :data:`~tactica.engine.copying.FRESH` (a memo that answers for one state only) and those
  marked :data:`NOT_KEYED` (a figure that never changes what happens next);
* a ``dict`` is its items in order, a ``list`` or ``tuple`` its items, a ``set`` a frozen set;
* an object the starting state already holds (a map, the rulings, a content pack: the things a
  battle shares and never changes) is keyed by its identity, so it is never walked or hashed;
* anything else is its own key (numbers, strings, frozen sets, enums: hashable values).

A key is *conservative*: two states with equal keys are equal in every field, so they play on
the same way; two equal states may have different keys (a dict filled in another order), which
costs merging, never exactness. A game may declare a key of its own for its state class with
:func:`declare_key` (a shorter key, or one that forgets what never matters).

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Tally:
...     hits: dict[str, int] = field(default_factory=dict)
...     round: int = 0
>>> keys = StateKeys(Tally({"A": 1}))
>>> keys(Tally({"A": 1}, 2)) == keys(Tally({"A": 1}, 2)), keys(Tally({"A": 1})) == keys(Tally())
(True, False)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from tactica.engine.caching import Cache
from tactica.engine.errors import TacticaError

__all__ = ["NOT_KEYED", "DeclaredKey", "StateKeys", "declare_effect", "declare_key",
           "declared_key", "effects_key"]

#: The metadata of a field the merge key leaves out: a figure kept for people (a tally of
#: what happened) that never changes what the rules do next.
NOT_KEYED: Mapping[str, bool] = MappingProxyType({"tactica.engine.statekey.skip": True})

_FRESH = "tactica.engine.copying.fresh"
_SKIP = "tactica.engine.statekey.skip"
#: A game's own key: ``key(state, core)``, where ``core(value)`` keys any value by the core's
#: rule (so a game changes only what it knows about).
DeclaredKey = Callable[[Any, Callable[[Any], Hashable]], Hashable]
_DECLARED: dict[type, DeclaredKey] = {}
_PLAIN = (int, str, float, bool, type(None), Fraction, bytes, enum.Enum)
_PLAIN_TYPES = frozenset({int, str, float, bool, type(None), Fraction, bytes})
_FIELDS = Cache[type, tuple[str, ...]]("statekey.fields", maxsize=1024)


def declare_key(cls: type, key: DeclaredKey) -> None:
    """Key the states of class ``cls`` (a game's state) with ``key(state, core)`` instead of
    the core's rule; ``core(value)`` is the core's key of any value (the state with a field
    that no longer matters set to a constant, for instance). ``key(a, core) == key(b, core)``
    must imply that ``a`` and ``b`` play on the same way."""
    _DECLARED[cls] = key


#: What of an event changes a state, by event class (a game's declaration); see
#: :func:`declare_effect`.
_EFFECTS: dict[type, Callable[[Any], Hashable] | None] = {}


def declare_effect(cls: type, effect: Callable[[Any], Hashable] | None) -> None:
    """Declare what of an event of class ``cls`` its game's ``apply_event`` reads:
    ``effect(event)`` must be equal for two events that change every state alike (the fields
    the handler reads, leaving out a roll kept only for the log); ``None``: the event
    changes no state at all. The exact search then applies only one of the outcomes of a
    step whose events have equal effects (an initiative of two percentile dice has 10,000
    outcomes and a handful of effects)."""
    _EFFECTS[cls] = effect


def effects_key(events: Any) -> Hashable:
    """A key of a list of events: equal keys change every state alike (each event as
    itself, unless its game declared its effect)."""
    out: list[Hashable] = []
    for e in events:
        kind = type(e)
        if kind in _EFFECTS:
            effect = _EFFECTS[kind]
            if effect is not None:
                out.append((kind, effect(e)))
        else:
            out.append(e)
    return tuple(out)


def declared_key(cls: type) -> DeclaredKey | None:
    """The key a game declared for ``cls``, or ``None`` (the core's rule)."""
    return _DECLARED.get(cls)


def _keyed_fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS.put(cls, tuple(f.name for f in dataclasses.fields(cls)
                                       if f.compare and not f.metadata.get(_FRESH)
                                       and not f.metadata.get(_SKIP)))
    return names


class StateKeys:
    """The merge keys of the states of one fight, relative to its starting state ``root``
    (whose shared parts are keyed by identity: ``root`` is kept alive for that)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.custom = _DECLARED.get(type(root))
        self.shared: set[int] = set()
        self.interned: dict[Hashable, Hashable] = {}
        # The key of every frozen dataclass met, by identity: a copy of a state shares the
        # frozen parts it did not change (a unit nobody touched), so most of a new state's
        # key is found here instead of walked again. The object is kept beside its key, so
        # that its id is not reused while the entry lives.
        self.frozen: dict[int, tuple[Any, Hashable]] = {}
        self._collect(root, top=True)

    def _collect(self, value: Any, *, top: bool = False) -> None:
        """Note every object of ``root`` that is not a plain value (recursing into the
        containers the copies do not share)."""
        if isinstance(value, _PLAIN):
            return
        if not top:
            self.shared.add(id(value))
        if isinstance(value, dict):
            for v in value.values():
                self._collect(v)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                self._collect(v)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for name in _keyed_fields(type(value)):
                self._collect(getattr(value, name))

    def __call__(self, state: Any) -> Hashable:
        """The merge key of ``state`` (a state of the same fight as ``root``)."""
        if self.custom is not None:
            return self.custom(state, self._core)
        return self._key(state, type(state).__name__)

    def _core(self, value: Any) -> Hashable:
        return self._key(value, type(value).__name__)

    def _key(self, value: Any, where: str) -> Hashable:
        kind = type(value)
        if kind in _PLAIN_TYPES:
            plain: Hashable = value
            return plain
        if id(value) in self.shared:
            return (_Same, id(value))
        if kind is tuple or kind is list:
            if all(type(v) in _PLAIN_TYPES for v in value):  # a place, a list of names
                return (kind is list, tuple(value))
            key = self._key
            return (kind is list, tuple([v if type(v) in _PLAIN_TYPES else key(v, where)
                                         for v in value]))
        if kind is dict or kind is MappingProxyType:
            key = self._key
            return (dict, tuple([(k, v if type(v) in _PLAIN_TYPES else key(v, where))
                                 for k, v in value.items()]))
        if kind is frozenset or kind is set:
            return (set, frozenset(value))
        if isinstance(value, _PLAIN):
            return value
        if dataclasses.is_dataclass(value):
            frozen = kind.__dataclass_params__.frozen
            if frozen:
                known = self.frozen.get(id(value))
                if known is not None and known[0] is value:
                    return known[1]
            key = self._key
            fields = value.__dict__ if hasattr(value, "__dict__") else None
            found: Hashable
            if fields is not None:
                found = (kind, tuple([v if type(v := fields[name]) in _PLAIN_TYPES
                                      else key(v, where) for name in _keyed_fields(kind)]))
            else:  # a dataclass with slots
                found = (kind, tuple([v if type(v := getattr(value, name)) in _PLAIN_TYPES
                                      else key(v, where) for name in _keyed_fields(kind)]))
            # The same unit recurs in many states: keep one copy of its key.
            found = self.interned.setdefault(found, found)
            if frozen:
                self.frozen[id(value)] = (value, found)
            return found
        try:
            hash(value)
        except TypeError:
            raise TacticaError(
                f"the exact search cannot key a field of {where} (a {kind.__name__}): the "
                "game may declare a key of its own (tactica.engine.statekey.declare_key)"
            ) from None
        hashable: Hashable = value
        return hashable


class _Same:
    """The marker of a part shared with the starting state (keyed by identity)."""
