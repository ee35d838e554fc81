"""The working state of a chance process: the battle as the events it emitted so far left it.

Drivers keep it for :class:`tactica.engine.chance.Observe`; it is built only when a process first
looks, so processes that never observe pay nothing.
"""

from __future__ import annotations

from typing import Any, Protocol

from tactica.engine.errors import TacticaError

__all__ = ["Working", "World"]


class World(Protocol):
    """What a driver needs to keep a working state for :class:`Observe`: the game's rules."""

    def copy_state(self, state: Any) -> Any:
        """An independent copy of ``state``."""
        ...

    def apply_event(self, state: Any, event: Any) -> None:
        """Change ``state`` by one event."""
        ...


class Working:
    """The working state of one sequential run: the start state with the emitted events
    applied, built only when a process first observes it."""

    def __init__(self, world: World | None, state: Any) -> None:
        self._world = world
        self._base = state
        self._pending: list[Any] = []
        self._state: Any = None
        self.built = False

    def emitted(self, event: Any) -> None:
        """Note an emitted event (applied at once if the working state exists)."""
        if self.built:
            assert self._world is not None
            self._world.apply_event(self._state, event)
        else:
            self._pending.append(event)

    def current(self) -> Any:
        """The state as it stands: the start state while nothing was emitted, else the
        working state (``None`` when run without a state)."""
        if self._base is None:
            return None
        if not self.built and not self._pending:
            return self._base
        return self.view()

    def built_state(self) -> Any:
        """The working state if a process built it (the start state with every emitted event
        applied), else ``None``."""
        return self._state if self.built else None

    def view(self) -> Any:
        """The working state, built on first use."""
        if not self.built:
            if self._world is None:
                raise TacticaError(
                    "this process observes the battle state: run it with state= and world="
                )
            self._state = self._world.copy_state(self._base)
            for event in self._pending:
                self._world.apply_event(self._state, event)
            self._pending.clear()
            self.built = True
        return self._state
