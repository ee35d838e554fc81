"""Battle states copied from their dataclass fields, so that no field can be forgotten.

:func:`copy_state` copies a (mutable) dataclass state by what each field's annotation says:

* ``dict[...]``, ``set[...]`` and ``list[...]`` are copied (a ``dict`` whose values are mutable
  dataclasses copies them too, by the same rule);
* a mutable dataclass is copied by the same rule;
* everything else is shared: numbers, strings, tuples, frozen sets, frozen dataclasses, maps and
  other values a battle never changes, and read-only annotations (``Mapping``, ``Sequence``);
* a field with the metadata :data:`FRESH` starts again in the copy (a memo of answers about
  the state).

A field added to a state is copied by the same rule without anyone writing it down; the plan of
each class is worked out once.

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Tally:
...     hits: dict[str, int] = field(default_factory=dict)
...     name: str = "t"
>>> a = Tally({"A": 1})
>>> b = copy_state(a)
>>> b.hits["A"] = 2
>>> a.hits, b.hits
({'A': 1}, {'A': 2})
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from tactica.engine.caching import Cache

__all__ = ["FRESH", "copy_plan", "copy_state"]

T = TypeVar("T")

#: How one field is copied.
Copy = Callable[[Any], Any]

#: The metadata of a field that starts again from its ``default_factory`` in every copy (a
#: memo that answers for one state only):
#: ``memo: dict[str, Any] = field(default_factory=dict, compare=False, metadata=FRESH)``.
FRESH: Mapping[str, bool] = MappingProxyType({"tactica.engine.copying.fresh": True})
_PLANS = Cache[type, tuple[tuple[str, Copy], ...]]("copying.plans", maxsize=1024)


def _mutable_dataclass(tp: Any) -> bool:
    return (isinstance(tp, type) and dataclasses.is_dataclass(tp)
            and not tp.__dataclass_params__.frozen)  # type: ignore[attr-defined]


def _value_copy(tp: Any) -> Copy | None:
    origin = typing.get_origin(tp) or tp
    args = typing.get_args(tp)
    if origin is dict:
        inner = _value_copy(args[1]) if len(args) == 2 else None
        if inner is None:
            return dict
        return lambda d: {k: inner(v) for k, v in d.items()}
    if origin is set:
        return set
    if origin is list:
        return list
    if _mutable_dataclass(tp):
        return copy_state
    return None


def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    space = dict(vars(module)) if module is not None else {}
    hints: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        tp = f.type
        if isinstance(tp, str):
            try:
                tp = eval(tp, space)  # the annotation as the class's module reads it
            except NameError:  # a name imported for type checking only: read the text
                head = tp.partition("[")[0].strip()
                tp = {"dict": dict, "set": set, "list": list}.get(head, object)
        hints[f.name] = tp
    return hints


def _remake(factory: Callable[[], Any]) -> Copy:
    def remake(_old: Any) -> Any:
        return factory()

    return remake


def copy_plan(cls: type) -> tuple[tuple[str, Copy], ...]:
    """The fields of ``cls`` that a copy does not share, each with how it is copied."""
    plan = _PLANS.get(cls)
    if plan is None:
        hints = _hints(cls)
        steps: list[tuple[str, Copy]] = []
        for f in dataclasses.fields(cls):
            if f.metadata.get("tactica.engine.copying.fresh"):
                assert callable(f.default_factory), f"{f.name}: a FRESH field needs a factory"
                steps.append((f.name, _remake(f.default_factory)))
                continue
            how = _value_copy(hints[f.name])
            if how is not None:
                steps.append((f.name, how))
        plan = _PLANS.put(cls, tuple(steps))
    return plan


def copy_state(state: T) -> T:
    """An independent copy of a dataclass ``state``: see the module's rule."""
    cls = type(state)
    plan = copy_plan(cls)
    new = object.__new__(cls)
    fields = new.__dict__
    fields.update(state.__dict__)
    for name, how in plan:
        fields[name] = how(fields[name])
    return new
