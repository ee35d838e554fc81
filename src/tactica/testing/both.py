"""The per-rule tests on both engines: every step a test plays on the reference is played again
on the game's compiled kernel, from the state before the step, and the two must agree.

CPython runs each ``decimal`` test on both its C and its Python implementation; a game's
scripted tests (a state set up, steps taken with scripted dice) do the same here. A test builds
its battle with :func:`battle_for`; under the ``kernel`` engine that is a
:class:`CheckedBattle`, which, after each step the reference takes (:meth:`Battle.apply`,
:meth:`Battle.advance` and so :meth:`Battle.step`), starts the kernel from the state before it
with the step's choice and the outcomes the reference's dice gave, and checks that

* the kernel offered the same options, in the same order, as the reference's legal actions
  (and whenever a test reads :meth:`Battle.legal_actions`),
* it asked for the same rolls, in order, each with the same distribution,
* it ended in the same state (what the kernel holds of it: positions, health, who is out, who
  is ready, the round, whose turn, what comes next).

The test's own assertions then hold of the kernel's step as well. A step whose state the kernel
cannot start from (a ruling it does not cover, an action it does not know) is left to the
reference and counted apart: :attr:`CheckedBattle.checked` says how many steps the kernel
played, so a test that means to run on both engines can require at least one.

A game offers the kernel's side through a :class:`KernelMirror`.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from tactica.engine.battle import Battle, Dice
from tactica.engine.chance import Policy, Roll
from tactica.engine.game import Game
from tactica.engine.ruleset import ChooseAction, NotCovered, Pending

__all__ = ["ENGINES", "CheckedBattle", "KernelMirror", "RecordingDice", "battle_for",
           "engine", "kernel_steps", "set_up", "using_engine"]

#: The engines a per-rule test runs on.
ENGINES = ("reference", "kernel")

_ENGINE: contextvars.ContextVar[str] = contextvars.ContextVar("tactica_engine",
                                                             default="reference")
_BATTLES: contextvars.ContextVar[list[CheckedBattle] | None] = contextvars.ContextVar(
    "tactica_checked_battles", default=None)


class KernelMirror(Protocol):
    """A game's kernel seen from its reference state (e.g. ``nebulia.kernel.NebuliaMirror``)."""

    def run(self, before: Any, action: Any | None,
            outcomes: list[Any]) -> Mapping[str, Any] | NotCovered:
        """The kernel's run of one step from ``before`` (``action`` ``None``: the automatic
        step) with the reference's roll ``outcomes``, or why the kernel cannot start there."""
        ...

    def offered(self, state: Any) -> list[Any] | NotCovered:
        """The options the kernel offers in ``state``, where a side chooses, as the
        reference's actions (or why the kernel cannot start there)."""
        ...

    def view(self, state: Any, pending: Pending) -> Mapping[str, Any]:
        """What the kernel holds of the reference's ``state``, and what comes next."""
        ...

    def kernel_view(self, before: Any, result: Mapping[str, Any]) -> Mapping[str, Any]:
        """The same reading of the kernel's end state."""
        ...

    def options(self, before: Any, result: Mapping[str, Any]) -> list[list[Any]]:
        """The options the kernel offered at each choice, as the reference's actions."""
        ...

    def rolls(self, before: Any,
              result: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
        """The kernel's draws as (label, {outcome: probability}, outcome)."""
        ...


def engine() -> str:
    """The engine the tests in progress play on: ``reference`` or ``kernel``."""
    return _ENGINE.get()


@contextlib.contextmanager
def using_engine(name: str) -> Iterator[list[CheckedBattle]]:
    """Battles made by :func:`battle_for` inside play on ``name``; yields the checked battles
    made (for a test's closing check)."""
    if name not in ENGINES:
        raise ValueError(f"engine {name!r} (known: {', '.join(ENGINES)})")
    battles: list[CheckedBattle] = []
    token, listed = _ENGINE.set(name), _BATTLES.set(battles)
    try:
        yield battles
    finally:
        _ENGINE.reset(token)
        _BATTLES.reset(listed)


def kernel_steps(battles: Sequence[CheckedBattle]) -> int:
    """How many steps of ``battles`` the kernel played and agreed on."""
    return sum(b.checked for b in battles)


def battle_for(ruleset: Game[Any, Any, Any], state: Any,
               mirror: KernelMirror) -> Battle[Any]:
    """A new battle of ``state``: a plain :class:`Battle` on the reference engine, a
    :class:`CheckedBattle` on the kernel engine."""
    if engine() == "reference":
        return Battle(ruleset, state)
    battle = CheckedBattle(ruleset, state, mirror)
    listed = _BATTLES.get()
    if listed is not None:
        listed.append(battle)
    return battle


def set_up(battle: Battle[Any]) -> None:
    """The steps ``battle`` took so far were a test's set-up (the situation it checks comes
    next): they were compared on the kernel, but do not count as the test's kernel run."""
    if isinstance(battle, CheckedBattle):
        battle.setup_steps += battle.checked
        battle.checked = 0


class RecordingDice:
    """Answers rolls with ``dice`` and records each as (label, {outcome: probability}, value)."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.rolls: list[tuple[str, dict[Any, Fraction], Any]] = []

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        value, faces = self.dice.roll(request)
        dist = request.dist
        total = sum(dist.weights)
        self.rolls.append((request.label,
                           {o: Fraction(w, total)
                            for o, w in zip(dist.outcomes, dist.weights, strict=True) if w},
                           value))
        return value, faces


class CheckedBattle(Battle[Any]):
    """A battle whose every step is played again on the kernel and compared (see the
    module). ``checked``: the steps the kernel played (and agreed on) after the test's set-up
    (:func:`set_up`), ``setup_steps`` those before; ``refused``: why it could not start from
    the others."""

    def __init__(self, ruleset: Game[Any, Any, Any], state: Any,
                 mirror: KernelMirror) -> None:
        super().__init__(ruleset, state)
        self.mirror = mirror
        self.checked = 0
        self.setup_steps = 0
        self.refused: list[str] = []

    def legal_actions(self) -> tuple[Any, ...]:
        """The reference's legal actions, which the kernel must offer too, in order (reading
        them is a step of the test: it counts as one the kernel played)."""
        actions = super().legal_actions()
        if isinstance(self.pending, ChooseAction):
            offered = self.mirror.offered(self.state)
            if isinstance(offered, NotCovered):
                self.refused.append(offered.reason)
            else:
                assert offered == list(actions), (
                    f"kernel and reference differ after step {self.steps}: the kernel offers "
                    f"{offered}, the reference {list(actions)}")
                self.checked += 1
        return actions

    def apply(self, action: Any, *, dice: Dice, policies: Mapping[str, Policy] | None = None,
              rng: np.random.Generator | None = None) -> list[Any]:
        before = self.ruleset.copy_state(self.state)
        offered = self.pending
        recording = RecordingDice(dice)
        events = super().apply(action, dice=recording, policies=policies, rng=rng)
        self._check(before, offered, action, recording)
        return events

    def advance(self, *, dice: Dice, policies: Mapping[str, Policy] | None = None,
                rng: np.random.Generator | None = None) -> list[Any]:
        before = self.ruleset.copy_state(self.state)
        offered = self.pending
        recording = RecordingDice(dice)
        events = super().advance(dice=recording, policies=policies, rng=rng)
        self._check(before, offered, None, recording)
        return events

    def _check(self, before: Any, offered: Pending, action: Any | None,
               recording: RecordingDice) -> None:
        result = self.mirror.run(before, action, [value for _, _, value in recording.rolls])
        if isinstance(result, NotCovered):
            self.refused.append(result.reason)
            return
        where = f"kernel and reference differ at step {self.steps} ({action!r})"
        if isinstance(offered, ChooseAction):
            options = self.mirror.options(before, result)
            assert options == [list(offered.actions)], (
                f"{where}: the kernel offers {options}, the reference {list(offered.actions)}")
        kernel_rolls = self.mirror.rolls(before, result)
        assert kernel_rolls == recording.rolls, (
            f"{where}: the kernel rolls {kernel_rolls}, the reference {recording.rolls}")
        mine = self.mirror.kernel_view(before, result)
        theirs = self.mirror.view(self.state, self.pending)
        assert mine == theirs, f"{where}: the kernel ends in {mine}, the reference in {theirs}"
        self.checked += 1
