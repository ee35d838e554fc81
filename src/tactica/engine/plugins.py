"""Plug-ins found through Python entry points, where a broken one is skipped and reported.

Games (``tactica.rulesets``) and map kinds (``tactica.map_kinds``) are plug-ins. One that fails
to import, or that its registry refuses, must not stop every command: :func:`load_plugins`
skips it and records why, and ``tactica games`` shows what was skipped (see
:func:`broken_plugins`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

__all__ = ["BrokenPlugin", "broken_plugins", "load_plugins"]


@dataclass(frozen=True)
class BrokenPlugin:
    """An entry point that could not be used: its group, name, target and why."""

    group: str
    name: str
    value: str
    reason: str

    def __str__(self) -> str:
        return f"plug-in {self.name!r} ({self.value}) of {self.group} was skipped: {self.reason}"


_BROKEN: dict[tuple[str, str], BrokenPlugin] = {}


def load_plugins(group: str, accept: Callable[[object], object]) -> tuple[BrokenPlugin, ...]:
    """Load every entry point of ``group`` and hand what it names to ``accept`` (which
    registers it, raising on one it refuses). One that fails to import or that ``accept``
    refuses is skipped; the skipped ones are returned and kept for :func:`broken_plugins`."""
    skipped: list[BrokenPlugin] = []
    for ep in entry_points(group=group):
        try:
            accept(ep.load())
        except Exception as exc:  # a broken plug-in must not break the others
            broken = BrokenPlugin(group, ep.name, ep.value, f"{type(exc).__name__}: {exc}")
            _BROKEN[(group, ep.name)] = broken
            skipped.append(broken)
    return tuple(skipped)


def broken_plugins(group: str | None = None) -> tuple[BrokenPlugin, ...]:
    """The plug-ins skipped so far (of ``group``, or of every group), in the order met."""
    return tuple(b for b in _BROKEN.values() if group is None or b.group == group)
