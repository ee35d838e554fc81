"""A battle: a ruleset, its state, and the event log; ``apply`` is the one way to change it.

The core, not the rules, writes the log. For each step of the battle it records

1. :class:`~tactica.engine.events.ActionTaken` when a side chose an action (nothing for automatic
   steps such as initiative or the end of a round),
2. a :class:`~tactica.engine.events.Rolled` or :class:`~tactica.engine.events.Decided` record for
every die
   rolled and every decision taken inside the step, as they happen,
3. the rule events the step emitted, applied to the state in order with the ruleset's
   ``apply_event`` (the only mutation),
4. :class:`Resolved`, closing the step.

Re-running a step with its recorded rolls and decisions gives the same events, and applying
them to the state gives the same state. :meth:`Battle.replay` rebuilds a battle that way and
trusts nothing in the log: every step is re-run from its recorded action (which must be legal
then) or as the automatic step that comes next, every recorded roll must be a possible result
of the roll the rules ask for (the faces too), every decision one of its options, and the
events must be those the rules give, type for type; the first record that does not follow is
refused with a :class:`ReplayError` naming its position. A log cut in the middle of a step (a
program killed while a person was typing dice) resumes by re-running that step with the rolls
already recorded and asking only for the rest.

Simulation needs only the result: a battle built with ``record=False`` keeps no log and builds
no input records (no :class:`ActionTaken`, :class:`Rolled`, :class:`Decided`,
:class:`Resolved`); its listeners see the rule events alone. The battle itself is the same: the
same requests are answered by the same dice and policies in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import zip_longest
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np

from tactica.engine import chance
from tactica.engine.chance import Decide, Policy, Roll
from tactica.engine.errors import IllegalActionError, ScriptError, TacticaError
from tactica.engine.events import (
    Action,
    ActionTaken,
    BattleEnded,
    Decided,
    Event,
    LogRecord,
    Rolled,
    record,
)
from tactica.engine.recorded import (
    RULES_FAILURES,
    PrefixDice,
    RecordedAnswers,
    RecordsExhausted,
    ReplayError,
    same_record,
    shown,
)
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending
from tactica.engine.validation import quote

if TYPE_CHECKING:
    from tactica.engine.game import Game

__all__ = [
    "Battle",
    "Dice",
    "Entry",
    "Policy",
    "PrefixDice",
    "ReplayError",
    "Resolved",
    "SampledDice",
    "ScriptedDice",
    "is_input_record",
]


S = TypeVar("S")


@record("resolved")
class Resolved(LogRecord):
    """Closes one step of the battle in the log."""


#: One entry of a battle's log: a record the core wrote, or a rule event.
Entry = LogRecord | Event


def is_input_record(event: object) -> bool:
    """True for the records the core writes (inputs and markers), False for rule events."""
    return isinstance(event, LogRecord)


# --------------------------------------------------------------------------------------------
# Who answers rolls and decisions


class Dice(Protocol):
    """Answers roll requests: the value read and, if physical dice were rolled, their faces."""

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        """Answer one roll."""
        ...


class SampledDice:
    """Seeded virtual dice. ``faces=True`` rolls every physical die (for people to read)."""

    def __init__(self, rng: np.random.Generator | int | None = None, *, faces: bool = False):
        self.rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.faces = faces

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        return request.sample(self.rng, faces=self.faces)


class ScriptedDice:
    """Given values in order: a value read, or a list of faces for a roll of physical dice."""

    def __init__(self, values: Iterable[Any]):
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> list[Event]:
        """Values not used yet."""
        return self._values[self._next :]

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        if self._next >= len(self._values):
            raise ScriptError(f"no scripted value left for roll {request.label!r}")
        given = self._values[self._next]
        self._next += 1
        return request.answer(given)


# --------------------------------------------------------------------------------------------


class Battle(Generic[S]):
    """A battle in progress: ``ruleset``, mutable ``state`` and the append-only ``log``.

    ``listeners`` are called with every record appended to the log, as it is appended (the
    play command saves the log file from there). With ``record=False`` (simulation's fast
    path) nothing is kept and the listeners are called with the rule events only.
    """

    def __init__(
        self,
        ruleset: Game[S, Any, Any],
        state: S,
        *,
        log: Sequence[Entry] | None = None,
        listeners: Sequence[Callable[[Entry], None]] = (),
        record: bool = True,
    ):
        self.ruleset = ruleset
        self.state = state
        self.log: list[Entry] = list(log or [])
        self.listeners = list(listeners)
        self.record = record
        #: Steps run by this object (actions and automatic steps), for simulation's budget.
        self.steps = 0
        #: The step under way: the action taken, or the automatic step's label (simulation's
        #: dice key their draws by it).
        self.step_key: object = None
        #: The rule events of the step under way so far (those of the last step once it is
        #: over): a step stopped for a person's answer leaves here what came before the
        #: question, so that a front end shows it first.
        self.emitting: list[Event] = []
        self._pending: Pending | None = None
        self._ended = any(isinstance(e, BattleEnded) for e in self.log)

    # -- reading -------------------------------------------------------------------------------

    @property
    def pending(self) -> Pending:
        """What happens next (cached until the state changes)."""
        if self._pending is None:
            self._pending = self.ruleset.pending(self.state)
        return self._pending

    @property
    def is_over(self) -> bool:
        """True once the battle is finished."""
        return isinstance(self.pending, Finished)

    @property
    def winner(self) -> str | None:
        """The winning side once finished (``None`` for a draw or while in progress)."""
        p = self.pending
        return p.winner if isinstance(p, Finished) else None

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the side to choose may take now (empty unless a side must choose)."""
        p = self.pending
        return p.actions if isinstance(p, ChooseAction) else ()

    def events(self) -> list[Event]:
        """The rule events of the log (no input records or markers)."""
        return [e for e in self.log if not isinstance(e, LogRecord)]

    # -- changing ------------------------------------------------------------------------------

    def _append(self, event: Entry) -> None:
        if self.record:
            self.log.append(event)
            for listener in self.listeners:
                listener(event)
        elif not isinstance(event, LogRecord):
            for listener in self.listeners:
                listener(event)

    def apply(
        self,
        action: Action,
        *,
        dice: Dice,
        policies: Mapping[str, Policy] | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[Event]:
        """Take ``action`` for the side to choose; returns the rule events it caused."""
        p = self.pending
        if not isinstance(p, ChooseAction):
            what = "the battle is over" if isinstance(p, Finished) else f"{p.label} comes first"
            raise IllegalActionError(f"no action can be taken now: {what}")
        if not p.allows(action):
            raise IllegalActionError(
                f"{self.ruleset.describe_action(self.state, action)} is not a legal action "
                f"for {p.side} now ({len(p.actions)} legal actions)"
            )
        if self.record:
            self._append(ActionTaken(p.side, action))
        self.step_key = action
        return self._run(self.ruleset.resolve(self.state, action), dice, policies, rng)

    def advance(
        self,
        *,
        dice: Dice,
        policies: Mapping[str, Policy] | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[Event]:
        """Run the automatic step that comes next (initiative, end of round, ...)."""
        p = self.pending
        if not isinstance(p, Automatic):
            raise IllegalActionError("nothing happens by itself now: a side must choose")
        self.step_key = p.label
        return self._run(p.process, dice, policies, rng)

    def step(
        self,
        policies: Mapping[str, Policy],
        *,
        dice: Dice,
        rng: np.random.Generator,
    ) -> list[Event]:
        """One step of progress: a policy chooses an action, or the automatic step runs."""
        p = self.pending
        if isinstance(p, Finished):
            return []
        if isinstance(p, Automatic):
            return self.advance(dice=dice, policies=policies, rng=rng)
        decision: Decide[Any] = Decide(p.side, "action", p.actions, chance.Done)
        action = _policy(policies, p.side).choose(decision, self.state, rng)
        return self.apply(action, dice=dice, policies=policies, rng=rng)

    def run(
        self,
        policies: Mapping[str, Policy],
        *,
        dice: Dice,
        rng: np.random.Generator,
        max_steps: int = 100_000,
    ) -> str | None:
        """Play to the end; returns the winner (``None`` for a draw)."""
        for _ in range(max_steps):
            if self.is_over:
                return self.winner
            self.step(policies, dice=dice, rng=rng)
        raise TacticaError(f"the battle did not end within {max_steps} steps")

    def _run(
        self,
        process: chance.Step,
        dice: Dice,
        policies: Mapping[str, Policy] | None,
        rng: np.random.Generator | None,
        *,
        skip_records: int = 0,
    ) -> list[Event]:
        self.steps += 1
        emitted: list[Event] = []
        self.emitting = emitted
        working = chance.Working(self.ruleset, self.state)
        made: list[np.random.Generator] = []

        def decide(d: Decide[Any]) -> Any:
            if rng is not None:
                generator = rng
            else:  # one generator per step, made when first needed
                if not made:
                    made.append(np.random.default_rng(0))
                generator = made[0]
            return _policy(policies, d.side).choose(d, working.current(), generator)

        on_record: Callable[[chance.Record], None] | None = None
        if self.record:
            skipped = [skip_records]

            def on_record(rec: chance.Record) -> None:
                if skipped[0] > 0:
                    skipped[0] -= 1
                    return
                if isinstance(rec, chance.RollRecord):
                    self._append(Rolled(rec.label, rec.value, rec.faces))
                else:
                    self._append(Decided(rec.side, rec.label, rec.choice))

        chance.run(process, roll=dice.roll, decide=decide, on_event=emitted.append,
                   on_record=on_record, working=working)
        apply_event = self.ruleset.apply_event
        state = self.state
        if self.record:
            for event in emitted:
                apply_event(state, event)
                self._append(event)
            self._append(Resolved())
        else:  # simulation: the listeners see the rule events alone
            listeners = self.listeners
            built = working.built_state()
            if built is not None:
                # The working copy already has every event of the step applied: it becomes
                # the battle's state instead of applying the events a second time.
                self.state = built
                for event in emitted:
                    for listener in listeners:
                        listener(event)
            else:
                for event in emitted:
                    apply_event(state, event)
                    for listener in listeners:
                        listener(event)
        self._pending = None
        if not self._ended and isinstance(self.pending, Finished):
            fin = self.pending
            assert isinstance(fin, Finished)
            self._ended = True
            if self.record:
                self._append(BattleEnded(fin.winner, fin.reason))
        return emitted

    # -- logs ----------------------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        ruleset: Game[S, Any, Any],
        initial_state: S,
        log: Sequence[Entry],
        *,
        listeners: Sequence[Callable[[Entry], None]] = (),
    ) -> tuple[Battle[S], list[Entry]]:
        """Rebuild a battle from a log; returns it and the records of a step cut short.

        Every complete step is re-run and checked (see the module); a record that does not
        follow raises a :class:`ReplayError` with its position. Records after the last
        :class:`Resolved` (an action and some rolls whose results were never written) are
        checked for their action and returned for :meth:`resume_step`.
        """
        battle = cls(ruleset, ruleset.copy_state(initial_state))
        battle._ended = False
        i, n = 0, len(log)
        open_step: list[Entry] = []
        while i < n:
            entry = log[i]
            if battle._ended:
                raise ReplayError(f"a record after the end of the battle: {shown(entry)}", i)
            if isinstance(entry, BattleEnded):
                battle._check_end(entry, i)
                i += 1
                continue
            stop = next((j for j in range(i, n) if isinstance(log[j], Resolved)), None)
            if stop is None:
                open_step = list(log[i:])
                battle._check_cut(open_step, i)
                break
            battle._replay_step(log, i, stop)
            i = stop + 1
        battle.listeners = list(listeners)
        if not open_step and not battle._ended and isinstance(battle.pending, Finished):
            # Cut between the last step and the record of the end: write the end now.
            fin = battle.pending
            battle._ended = True
            battle._append(BattleEnded(fin.winner, fin.reason))
        return battle, open_step

    def _check_end(self, entry: BattleEnded, i: int) -> None:
        p = self.pending
        if not isinstance(p, Finished):
            raise ReplayError(f"the log says the battle ended ({quote(entry.reason)}), but it "
                              "goes on", i)
        if (entry.winner, entry.reason) != (p.winner, p.reason):
            raise ReplayError(f"the log says {quote(entry.winner)} won ({quote(entry.reason)}),"
                              f" but the rules say {p.winner!r} ({p.reason})", i)
        if not self.log or not isinstance(self.log[-1], Resolved):
            raise ReplayError("the end of the battle is recorded out of place", i)
        self.log.append(entry)
        self._ended = True

    def _step_process(self, first: Entry | None, i: int) -> tuple[chance.Step, int]:
        """The process of the step starting at ``log[i]`` (``first``) and where its inputs
        start: the recorded action's, which must be legal now, or the automatic step's."""
        p = self.pending
        if isinstance(first, ActionTaken):
            if not isinstance(p, ChooseAction):
                what = "the battle is over" if isinstance(p, Finished) else f"{p.label} comes"
                raise ReplayError(f"an action is recorded where {what}", i)
            if first.side != p.side:
                raise ReplayError(f"an action of {quote(first.side)} is recorded, but {p.side} "
                                  "chooses now", i)
            try:
                legal = p.allows(first.action)
                what = (self.ruleset.describe_action(self.state, first.action) if legal
                        else shown(first.action))
            except RULES_FAILURES:
                legal, what = False, shown(first.action)
            if not legal:
                raise ReplayError(f"{what} is not a legal action for {p.side} now "
                                  f"({len(p.actions)} legal actions)", i)
            return self.ruleset.resolve(self.state, first.action), i + 1
        if isinstance(p, ChooseAction):
            raise ReplayError(f"{p.side} chooses an action here, but the log records "
                              f"{shown(first) if first is not None else 'none'}", i)
        if isinstance(p, Finished):
            raise ReplayError(f"the battle is over ({p.reason}), but the log goes on", i)
        return p.process, i

    def _replay_step(self, log: Sequence[Entry], i: int, stop: int) -> None:
        """Re-run the step ``log[i:stop]`` (closed by the Resolved at ``stop``), check it and
        apply its events."""
        process, start = self._step_process(log[i] if i < stop else None, i)
        inputs_end = start
        while inputs_end < stop and isinstance(log[inputs_end], (Rolled, Decided)):
            inputs_end += 1
        answers = RecordedAnswers(log, start, inputs_end)
        emitted: list[Event] = []
        self.emitting = emitted
        working = chance.Working(self.ruleset, self.state)
        try:
            chance.run(
                process,
                roll=answers.roll,
                decide=lambda d: answers.choose(d, working.current(), None),
                on_event=emitted.append,
                working=working,
            )
        except ReplayError:
            raise
        except TacticaError as exc:
            raise ReplayError(f"the rules refuse this step: {exc}", answers.at) from None
        except RULES_FAILURES as exc:
            raise ReplayError(f"the rules cannot follow this step ({type(exc).__name__}: "
                              f"{quote(str(exc), 120)})", answers.at) from None
        if answers.at < inputs_end:
            raise ReplayError(f"a recorded input the rules never asked for: "
                              f"{shown(log[answers.at])}", answers.at)
        for k, (want, got) in enumerate(zip_longest(log[inputs_end:stop], emitted)):
            at = inputs_end + k
            if got is None:
                raise ReplayError(f"recorded {shown(want)}, but the rules give no more "
                                  "events in this step", at)
            if want is None:
                raise ReplayError(f"the rules give {shown(got)} here, which the log lacks",
                                  stop)
            if not same_record(want, got):
                raise ReplayError(f"recorded {shown(want)}, but the rules give "
                                  f"{shown(got)}", at)
        for event in emitted:
            self.ruleset.apply_event(self.state, event)
        self.log.extend(log[i:stop + 1])
        self._pending = None

    def _check_cut(self, cut: Sequence[Entry], i: int) -> None:
        """A step cut short holds only inputs: its action (legal now), then rolls and decisions
        the rules ask for, in order (checked by running the step until they run out)."""
        for k, entry in enumerate(cut):
            if not is_input_record(entry) or isinstance(entry, BattleEnded):
                # Rule events are only written together with their step's marker.
                raise ReplayError("the log ends inside a step's results: it was cut while "
                                  "saving", i + k)
            if isinstance(entry, ActionTaken) and k > 0:
                raise ReplayError("an action inside another step", i + k)
        process, start = self._step_process(cut[0], i)
        log = [None] * i + list(cut)  # positions as in the whole log
        answers = RecordedAnswers(log, start, len(log))
        working = chance.Working(self.ruleset, self.state)
        try:
            chance.run(process, roll=answers.roll,
                       decide=lambda d: answers.choose(d, working.current(), None),
                       working=working)
        except RecordsExhausted:
            return
        except ReplayError:
            raise
        except TacticaError as exc:
            raise ReplayError(f"the rules refuse this step: {exc}", answers.at) from None
        except RULES_FAILURES as exc:
            raise ReplayError(f"the rules cannot follow this step ({type(exc).__name__}: "
                              f"{quote(str(exc), 120)})", answers.at) from None
        if answers.at < len(log):
            raise ReplayError(f"a recorded input the rules never asked for: "
                              f"{shown(log[answers.at])}", answers.at)

    def resume_step(
        self,
        cut: Sequence[Entry],
        *,
        dice: Dice,
        policies: Mapping[str, Policy] | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[Event]:
        """Finish a step that a log cut short, reusing its recorded rolls and decisions (each
        checked against what the rules ask) and asking ``dice`` and ``policies`` the rest."""
        if not cut:
            return []
        try:
            process, start = self._step_process(cut[0], 0)
        except ReplayError as exc:
            raise TacticaError(f"the log's last step does not fit the battle: {exc}") from None
        for rec in cut:  # put the cut records back in the log as they were
            self.log.append(rec)
        answers = RecordedAnswers(cut, start, len(cut), dice=dice, policies=policies)
        sides = {*(policies or {}), *(d.side for d in cut if isinstance(d, Decided))}
        replaying: dict[str, Policy] = {side: answers for side in sorted(sides)}
        try:
            return self._run(process, answers, replaying, rng, skip_records=len(cut) - start)
        except ReplayError as exc:
            raise TacticaError(f"the log's last step does not fit the battle: {exc}") from None


def _policy(policies: Mapping[str, Policy] | None, side: str) -> Policy:
    if policies is None or side not in policies:
        raise TacticaError(f"no policy decides for side {side!r}")
    return policies[side]
