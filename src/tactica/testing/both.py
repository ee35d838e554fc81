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
from tactica.engine.chance import Decide, Policy, Roll
from tactica.engine.game import Game
from tactica.engine.kernels import Uncovered
from tactica.engine.ruleset import ChooseAction, NotCovered, Pending
from tactica.engine.scenario import Scenario

__all__ = ["ENGINES", "CheckedBattle", "KernelMirror", "RecordingDice", "RecordingPolicy",
           "ReplayMirror", "battle_for",
           "engine", "kernel_steps", "set_up", "using_engine"]

#: The engines a per-rule test runs on.
ENGINES = ("reference", "kernel")

_ENGINE: contextvars.ContextVar[str] = contextvars.ContextVar("tactica_engine",
                                                             default="reference")
_BATTLES: contextvars.ContextVar[list[CheckedBattle] | None] = contextvars.ContextVar(
    "tactica_checked_battles", default=None)


class KernelMirror(Protocol):
    """A game's kernel seen from its reference state (a game's kernel.py gives one, where
    its kernel can start from a state)."""

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
               mirror: KernelMirror | ReplayMirror) -> Battle[Any]:
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
        #: Per roll: its outcomes' probabilities in order, and the place of the outcome read.
        self.places: list[tuple[tuple[Fraction, ...], int]] = []

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        value, faces = self.dice.roll(request)
        dist = request.dist
        total = sum(dist.weights)
        self.rolls.append((request.label,
                           {o: Fraction(w, total)
                            for o, w in zip(dist.outcomes, dist.weights, strict=True) if w},
                           value))
        self.places.append((tuple(Fraction(w, total) for w in dist.weights),
                            list(dist.outcomes).index(value)))
        return value, faces


class RecordingPolicy:
    """Chooses with ``policy`` and records each choice as (its place among the options, how
    many options)."""

    def __init__(self, policy: Policy, choices: list[tuple[int, int]]) -> None:
        self.policy = policy
        self.choices = choices
        self.name = getattr(policy, "name", "recorded")

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        choice = self.policy.choose(decision, state, rng)
        self.choices.append((list(decision.options).index(choice), len(decision.options)))
        return choice


class CheckedBattle(Battle[Any]):
    """A battle whose every step is played again on the kernel and compared (see the
    module). ``checked``: the steps the kernel played (and agreed on) after the test's set-up
    (:func:`set_up`), ``setup_steps`` those before; ``refused``: why it could not start from
    the others."""

    def __init__(self, ruleset: Game[Any, Any, Any], state: Any,
                 mirror: KernelMirror | ReplayMirror) -> None:
        super().__init__(ruleset, state)
        self.mirror = mirror
        self.checked = 0
        self.setup_steps = 0
        self.refused: list[str] = []
        #: A step the kernel's scripted replay cannot reach (and so none after it).
        self.unscripted: str | None = None
        #: The state the replayed steps led to (a replay starts from the scenario's start).
        self.replayed: Any = None

    def legal_actions(self) -> tuple[Any, ...]:
        """The reference's legal actions, which the kernel must offer too, in order (reading
        them is a step of the test: it counts as one the kernel played)."""
        actions = super().legal_actions()
        if isinstance(self.pending, ChooseAction) and not isinstance(self.mirror,
                                                                     ReplayMirror):
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
        choices: list[tuple[int, int]] = []
        if isinstance(offered, ChooseAction) and action in offered.actions:
            choices.append((list(offered.actions).index(action), len(offered.actions)))
        elif isinstance(offered, ChooseAction) and isinstance(self.mirror, ReplayMirror):
            # allowed, but not one of the listed options: no script reaches it
            self.unscripted = f"{action!r}, allowed but not among the options listed"
        events = super().apply(action, dice=recording, policies=_recording(policies, choices),
                               rng=rng)
        self._check(before, offered, action, recording, choices)
        return events

    def advance(self, *, dice: Dice, policies: Mapping[str, Policy] | None = None,
                rng: np.random.Generator | None = None) -> list[Any]:
        before = self.ruleset.copy_state(self.state)
        offered = self.pending
        recording = RecordingDice(dice)
        choices: list[tuple[int, int]] = []
        events = super().advance(dice=recording, policies=_recording(policies, choices),
                                 rng=rng)
        self._check(before, offered, None, recording, choices)
        return events

    def _check(self, before: Any, offered: Pending, action: Any | None,
               recording: RecordingDice, choices: list[tuple[int, int]]) -> None:
        if isinstance(self.mirror, ReplayMirror):
            if self.replayed is None:
                self.replayed = self.mirror.scenario.new_state()
            if self.unscripted is None and before != self.replayed:
                self.unscripted = "the state was changed outside the battle's steps"
            if self.unscripted is not None:  # the replays cannot reach this step any more
                self.refused.append(self.unscripted)
                return
            reason = self.mirror.check(self, recording, choices)
            if reason is not None:
                self.refused.append(reason)
            else:
                self.checked += 1
            self.replayed = self.ruleset.copy_state(self.state)
            return
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


def _recording(policies: Mapping[str, Policy] | None,
               choices: list[tuple[int, int]]) -> dict[str, Policy] | None:
    if policies is None:
        return None
    return {side: RecordingPolicy(policy, choices) for side, policy in policies.items()}


class ReplayMirror:
    """The kernel of a game that cannot start from any state, played from the scenario's
    start instead: after each step of the reference battle (which must have started from
    ``scenario.new_state()`` and been changed by its steps alone), the kernel replays the whole
    battle so far with every choice scripted (its place among the options and how many there
    were: each side plays "random" with the script for its generator) and every roll's outcome
    scripted (its place among the roll's outcomes), and must end with the reference's
    :class:`~tactica.engine.stats.BattleResult` (winner, rounds, steps, every unit's survival,
    damage, moves and the details the kernel reports, e.g. health) after asking for the same
    rolls with the same distributions. The game's compiled ``Kernel`` has
    ``run_scripted(choices, outcomes, max_steps)`` and its prepared kernel ``_result``."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.choices: list[tuple[int, int]] = []
        self.outcomes: list[int] = []
        self.places: list[tuple[tuple[Fraction, ...], int]] = []
        self.labels: list[str] = []

    def check(self, battle: Battle[Any], recording: RecordingDice,
              choices: list[tuple[int, int]]) -> str | None:
        """Replay the battle so far on the kernel and compare (an ``AssertionError`` naming
        the first difference); the reason when the kernel cannot play it."""
        from tactica.analysis.sim.kernels import prepared_kernel
        from tactica.engine.stats import BattleResult, battle_stats
        from tactica.testing.kernels import first_difference

        self.choices += choices
        self.outcomes += [place for _, place in recording.places]
        self.places += recording.places
        self.labels += [label for label, _, _ in recording.rolls]
        prepared = prepared_kernel(self.scenario)
        if isinstance(prepared, NotCovered):
            return prepared.reason
        engine: Any = getattr(prepared, "engine", None)
        if engine is None or not hasattr(engine, "run_scripted"):
            return "the kernel cannot replay a scripted battle"
        module = getattr(prepared, "module", None)
        limits = (Uncovered, getattr(module, "Uncovered", Uncovered))
        try:
            out, rolls = engine.run_scripted(list(self.choices), list(self.outcomes),
                                             battle.steps)
        except limits as exc:  # met in the battle: a limit of the kernel's
            return str(exc)
        if isinstance(out, str):  # the kernel's reason for the reference to play
            return out
        result = prepared._result(out)  # type: ignore[attr-defined]
        if isinstance(result, tuple):  # with the rulings it consulted
            result = result[0]
        if isinstance(result, NotCovered):
            return result.reason
        where = f"kernel and reference differ after step {battle.steps}"
        kernel_places = []
        for _slot, _k, _outcomes, weights, place in rolls:
            total = sum(weights)
            kernel_places.append((tuple(Fraction(w, total) for w in weights), place))
        for n, (mine, theirs) in enumerate(zip(kernel_places, self.places, strict=False)):
            assert mine == theirs, (
                f"{where}: roll {n} ({self.labels[n]!r}): the kernel draws {mine}, the "
                f"reference {theirs}")
        assert len(kernel_places) == len(self.places), (
            f"{where}: the kernel rolls {len(kernel_places)} times, the reference "
            f"{len(self.places)}")
        stats = battle_stats(battle.ruleset, battle.state, battle.events())
        finished = battle.is_over
        want = BattleResult(battle.winner if finished else None, stats.rounds, stats.units,
                            battle.steps, finished)
        difference = first_difference(result, want)
        assert not difference, f"{where}: {difference}"
        return None
