"""The fight controller: one engine path under every front end (the terminal, the web page).

A :class:`FightController` owns a fight: its scenario, its :class:`~tactica.engine.battle.Battle`,
the log writer (and so the log's lock), the seeded streams of its virtual dice and the computer's
policies. It never reads a keyboard nor writes a screen. :meth:`~FightController.advance` runs
everything that needs nobody (automatic steps, the computer's turns, virtual dice) and stops at
the first question for a person, which it returns as a *request*:

* :class:`ActionRequest` - a side chooses one of its legal actions;
* :class:`RollRequest` - a die is to be rolled by hand (the game master types the faces) or
  virtually (an empty answer);
* :class:`DecisionRequest` - a side decides inside an action (react, assign dice, ...);
* :class:`Over` - the battle is finished.

A front end answers with :meth:`~FightController.take`, :meth:`~FightController.answer_roll`
or :meth:`~FightController.decide`, naming the request it answers (a stale answer is refused,
so two browser tabs cannot take two actions for one turn), and shows the :class:`Note` s the
controller emits as things happen.

How a question inside a step is asked without a thread: the step runs until it needs a person,
which stops it the way a crash would, with its action and the answers so far already in the
log. The answer is queued and the step re-runs from its recorded inputs
(:meth:`tactica.engine.battle.Battle.resume_step`), exactly as a fight resumed from its log does. So
the terminal, the web page and ``--resume`` share one path, and a fight killed while a
question is open resumes to the same question.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from tactica.engine.battle import Battle, Resolved
from tactica.engine.chance import Decide, Done, Policy, Roll
from tactica.engine.errors import IllegalActionError, ScriptError, TacticaError
from tactica.engine.events import ActionTaken, BattleEnded, Decided, Rolled, dumps
from tactica.engine.menu import ActionMenu, menu_of
from tactica.engine.policies import GreedyPolicy, make_policy
from tactica.engine.ruleset import Aiming, Automatic, ChooseAction, Finished, explain_hooks
from tactica.engine.scenario import Scenario
from tactica.play.answer import (
    ACTIONS,
    HINTS,
    ROLLS,
    SeededPolicy,
    SeededStreams,
    parse_roll_answer,
    shown_label,
    shown_roll,
)
from tactica.play.fight import new_fight, resume_fight
from tactica.play.logfile import DiceMode, LogHeader, LogWriter
from tactica.play.roller import Roller, roller_of
from tactica.play.words import winner_line

__all__ = [
    "ActionRequest",
    "DecisionRequest",
    "FightController",
    "Note",
    "Over",
    "Request",
    "RollRequest",
]


@dataclass(frozen=True)
class Note:
    """Something to show: ``kind`` is ``info``, ``turn`` (a new step), ``action`` (a side's
    choice), ``explain``, ``roll``, ``event`` or ``end``; ``side`` who it is about."""

    kind: str
    text: str
    side: str | None = None

    def to_json(self) -> dict[str, Any]:
        """For the web page."""
        return {"kind": self.kind, "text": self.text, "side": self.side}


@dataclass(frozen=True)
class ActionRequest:
    """``side`` chooses one of ``actions`` (described by ``texts``); the actions numbered in
    ``aimable`` (0-based) may be aimed at any bearing instead (a firing arc); ``menu``: the
    game's layout of the actions for people (``None``: the game has none)."""

    key: int
    side: str
    prompt: str
    actions: tuple[Any, ...]
    texts: tuple[str, ...]
    aimable: tuple[int, ...] = ()
    aiming: Aiming | None = field(default=None, compare=False, repr=False)
    menu: ActionMenu | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class RollRequest:
    """Roll ``roll`` (the ``index``-th roll of its step) by hand, or virtually."""

    key: int
    roll: Roll[Any]
    index: int

    @property
    def label(self) -> str:
        """What the roll is for, as the table reads it (the log keeps the roll's own)."""
        return shown_label(self.roll.label)


@dataclass(frozen=True)
class DecisionRequest:
    """``decision.side`` chooses one of its options (described by ``texts``)."""

    key: int
    decision: Decide[Any]
    index: int
    texts: tuple[str, ...]
    #: The state the decision is taken in (inside the step), for a suggestion.
    state: Any = field(default=None, compare=False, repr=False)

    @property
    def side(self) -> str:
        """Who decides."""
        return self.decision.side


@dataclass(frozen=True)
class Over:
    """The battle is finished: ``winner`` (``None`` for a draw) and why."""

    key: int
    winner: str | None
    reason: str


Request = ActionRequest | RollRequest | DecisionRequest | Over


class _Ask(Exception):
    """Raised inside a step when a person must answer (the step stops there)."""

    def __init__(self, kind: str, request: Any, index: int, state: Any = None):
        super().__init__(kind)
        self.kind = kind
        self.request = request
        self.index = index
        self.state = state  # the state a decision is taken in (for a suggestion)


@dataclass(frozen=True)
class _Queued:
    """A person's answer waiting for the re-run step to ask for it (``virtual``: a roll made
    by tactica at the person's request)."""

    kind: str
    index: int
    answer: Any
    virtual: bool = False


class _StepDice:
    """The dice of one run of a step: a queued answer, virtual dice, or a question."""

    def __init__(self, ctl: FightController, step: int, first: int):
        self.ctl = ctl
        self.step = step
        self._next = first

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        index = self._next
        self._next += 1
        queued = self.ctl._queued_answer("roll", index)
        if queued is not None:
            value, faces = queued.answer
            rolled = "rolled " if queued.virtual else ""
            self.ctl._note("roll", f"{shown_label(request.label)}: {rolled}"
                           f"{shown_roll(value, faces)}")
            return value, faces
        if not self.ctl.ask_dice:
            return self.ctl._virtual(request, self.step, index)
        raise _Ask("roll", request, index)


class _PersonPolicy:
    """A person's side inside a step: a queued answer, or a question."""

    def __init__(self, ctl: FightController, indices: itertools.count[int]):
        self.ctl = ctl
        self.indices = indices

    def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
        index = next(self.indices)
        queued = self.ctl._queued_answer("decide", index)
        if queued is not None:
            self.ctl._note("action", f"{decision.side} chooses: "
                           f"{self.ctl.describe_option(decision, queued.answer)}",
                           decision.side)
            return queued.answer
        raise _Ask("decide", decision, index, state)


class FightController:
    """One fight, driven by whoever answers its requests; build it with :meth:`start` or
    :meth:`resume`, and :meth:`close` it at the end (that releases the log's lock)."""

    def __init__(self, scenario: Scenario, battle: Battle[Any], writer: LogWriter,
                 header: LogHeader, *, ask_dice: bool, computer: Mapping[str, str],
                 cut: Sequence[Any] = (), resumed: bool = False, notes: Sequence[str] = ()):
        self.scenario = scenario
        self.battle = battle
        self.writer = writer
        self.header = header
        self.ask_dice = ask_dice
        self.computer = dict(computer)
        self.resumed = resumed
        self.streams = SeededStreams(header.seed)
        self._policies: dict[str, Policy] = {
            s: make_policy(n, scenario.ruleset) for s, n in self.computer.items()}
        self._open: list[Any] = list(cut)
        self._in_step = bool(cut)
        self._queued: _Queued | None = None
        self._request: Request | None = None
        self._keys = itertools.count(1)
        self._told = 0
        self._listeners: list[Callable[[Note], None]] = []
        self.feed: list[Note] = [Note("info", n) for n in notes]
        self.version = 0
        if cut:
            self._announce_cut(cut)

    @classmethod
    def start(cls, scenario: Scenario, log: str | Path, *, seed: int | None = None,
              computer: Mapping[str, str | None] | None = None, ask_dice: bool = True,
              durable: bool = True, replace_empty: bool = False,
              command: str = "play") -> FightController:
        """A new fight logged to ``log`` (which must not exist yet): see
        :func:`tactica.play.fight.new_fight`."""
        built = new_fight(scenario, Path(log), seed=seed, computer=computer, durable=durable,
                          replace_empty=replace_empty, command=command)
        return cls(built.scenario, built.battle, built.writer, built.header,
                   ask_dice=ask_dice, computer=built.computer)

    @classmethod
    def resume(cls, log: str | Path, *, scenario: Scenario | None = None,
               computer: Mapping[str, str | None] | None = None,
               ask_dice: bool | None = None, durable: bool = True, seed: int | None = None,
               command: str = "play", accept_old_log: bool = False) -> FightController:
        """Continue the fight in ``log``: see :func:`tactica.play.fight.resume_fight`.
        ``ask_dice`` ``None``: the dice as the table last chose them in this fight (typed by
        hand unless it chose tactica's)."""
        built = resume_fight(Path(log), scenario=scenario, computer=computer, durable=durable,
                             seed=seed, command=command, accept_old_log=accept_old_log)
        if ask_dice is None:
            ask_dice = True if built.ask_dice is None else built.ask_dice
        return cls(built.scenario, built.battle, built.writer, built.header,
                   ask_dice=ask_dice, computer=built.computer, cut=built.cut,
                   resumed=built.resumed, notes=built.notes)

    @property
    def log_path(self) -> Path:
        """The log file."""
        return self.writer.path

    # -- listening -----------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[Note], None]) -> None:
        """Call ``listener`` with every note from now on."""
        self._listeners.append(listener)

    def _note(self, kind: str, text: str, side: str | None = None) -> None:
        note = Note(kind, text, side)
        self.feed.append(note)
        del self.feed[:-400]
        for listener in self._listeners:
            listener(note)

    # -- the fight -----------------------------------------------------------------------------

    @property
    def open_request(self) -> Request | None:
        """The question open now, without running anything (``None`` before :meth:`advance`
        has run)."""
        return self._request

    def advance(self) -> Request:
        """Run automatic steps, the computer's turns and virtual dice until a person must
        answer or the battle is over; returns that request."""
        while self._request is None:
            try:
                self._request = self._next_request()
            except _Ask as ask:
                self._request = self._asked(ask)
            if self._request is not None:
                self.version += 1
        return self._request

    def _next_request(self) -> Request | None:
        """Run one thing; a request when a person is needed or the battle is over."""
        if self._in_step:
            self._continue_step()
            return None
        p = self.battle.pending
        if isinstance(p, Finished):
            return self._finished(p)
        if isinstance(p, Automatic):
            self._note("turn", p.label)
            self._in_step = True
            self._continue_step()
            return None
        if p.side in self.computer:
            decision: Decide[Any] = Decide(p.side, "action", p.actions, Done)
            rng = self.streams.generator(self.steps, ACTIONS)
            action = self._policies[p.side].choose(decision, self.battle.state, rng)
            self._start_action(action, f"{p.side} (computer)")
            return None
        aimable: tuple[int, ...] = ()
        if p.aiming is not None:
            aiming = p.aiming
            aimable = tuple(i for i, a in enumerate(p.actions)
                            if aiming.aim(a, Fraction(0)) is not None)
        return ActionRequest(next(self._keys), p.side, p.prompt, p.actions,
                             tuple(self.describe(a) for a in p.actions), aimable, p.aiming,
                             menu_of(self.battle.ruleset, self.battle.state, p.actions))

    def _asked(self, ask: _Ask) -> Request:
        """A step stopped for a person: keep its inputs so far aside, and ask."""
        log = self.battle.log
        k = len(log)
        while k > 0 and not isinstance(log[k - 1], (Resolved, BattleEnded)):
            k -= 1
        self._open = log[k:]
        del log[k:]
        self._in_step = True
        self._tell_so_far()
        key = next(self._keys)
        if ask.kind == "roll":
            return RollRequest(key, ask.request, ask.index)
        decision: Decide[Any] = ask.request
        texts = tuple(self.describe_option(decision, o) for o in decision.options)
        return DecisionRequest(key, decision, ask.index, texts, ask.state)

    def _answerers(self) -> tuple[_StepDice, dict[str, Policy]]:
        rolls = sum(1 for r in self._open if isinstance(r, Rolled))
        decisions = sum(1 for r in self._open if isinstance(r, Decided))
        step = self.steps
        indices = itertools.count(decisions)
        policies: dict[str, Policy] = {}
        for side in self.battle.ruleset.sides_of(self.battle.state):
            if side in self.computer:
                policies[side] = SeededPolicy(self._policies[side], self.streams, step,
                                              indices=indices)
            else:
                policies[side] = _PersonPolicy(self, indices)
        return _StepDice(self, step, rolls), policies

    def _continue_step(self) -> None:
        """Run (or re-run from its recorded inputs) the step in progress."""
        dice, policies = self._answerers()
        cut, self._open = self._open, []
        if cut:
            events = self.battle.resume_step(cut, dice=dice, policies=policies)
        else:
            events = self.battle.advance(dice=dice, policies=policies)
        self._in_step = False
        self._queued = None
        self.version += 1
        self._tell(events)

    def _start_action(self, action: Any, who: str) -> None:
        side = self.battle.pending.side if isinstance(self.battle.pending, ChooseAction) else None
        self._note("action", f"{who}: {self.describe(action)}", side)
        for line in self.explain(action):
            self._note("explain", line, side)
        dice, policies = self._answerers()
        self.version += 1
        events = self.battle.apply(action, dice=dice, policies=policies)
        self._tell(events)

    def _virtual(self, request: Roll[Any], step: int, index: int
                 ) -> tuple[Any, tuple[int, ...] | None]:
        rng = self.streams.generator(step, ROLLS, index)
        value, faces = request.sample(rng, faces=True)
        self._note("roll", f"{shown_label(request.label)}: rolled {shown_roll(value, faces)}")
        return value, faces

    def _queued_answer(self, kind: str, index: int) -> _Queued | None:
        q = self._queued
        if q is not None and (q.kind, q.index) == (kind, index):
            self._queued = None
            return q
        return None

    def _finished(self, p: Finished) -> Over:
        if not any(isinstance(r, BattleEnded) for r in self.battle.log):
            ended = BattleEnded(p.winner, p.reason)  # the step's marker reached the disk alone
            self.battle.log.append(ended)
            self.writer.append(ended)
        self._note("end", f"The battle is over. {winner_line(p.winner, p.reason)}.")
        return Over(next(self._keys), p.winner, p.reason)

    # -- answering -----------------------------------------------------------------------------

    def _check(self, key: int | None, kind: type) -> Any:
        req = self.advance()
        if key is not None and req.key != key:
            raise IllegalActionError("the fight has moved on since that question was asked; "
                                     "answer the question now open")
        if not isinstance(req, kind):
            raise IllegalActionError(f"no {_WHAT[kind]} is asked now: {_open_question(req)}")
        return req

    def take(self, index: int, *, key: int | None = None,
             bearing: Fraction | float | None = None) -> None:
        """Take action ``index`` (0-based) of the open :class:`ActionRequest`; with
        ``bearing``, that action aimed at ``bearing`` degrees (one of ``aimable``)."""
        req: ActionRequest = self._check(key, ActionRequest)
        if not 0 <= index < len(req.actions):
            raise IllegalActionError(f"no action {index + 1}: choose 1 to {len(req.actions)}")
        action = req.actions[index]
        if bearing is not None:
            action = _aimed(req, index, bearing)
        self._request = None
        try:
            self._start_action(action, req.side)
        except _Ask as ask:
            self._request = self._asked(ask)
        self.advance()

    def answer_roll(self, text: str, *, key: int | None = None) -> None:
        """Answer the open :class:`RollRequest`: the faces typed (``"4 7"``, ``"37"`` for a
        d100, ``"=3"`` for the result), or ``""`` to roll virtually. A wrong answer raises a
        ScriptError and changes nothing."""
        req: RollRequest = self._check(key, RollRequest)
        if text.strip():
            self._queued = _Queued("roll", req.index, parse_roll_answer(req.roll, text))
        else:
            rng = self.streams.generator(self.steps, ROLLS, req.index)
            self._queued = _Queued("roll", req.index, req.roll.sample(rng, faces=True),
                                   virtual=True)
        self._request = None
        self.advance()

    def set_dice(self, ask: bool) -> None:
        """Dice typed by hand (``ask``) or rolled by tactica from now on. The choice is saved
        in the log (a resumed fight keeps it); choosing tactica's dice while a roll is asked
        rolls that one too."""
        if ask != self.ask_dice:
            self.writer.write_line(dumps(DiceMode("ask" if ask else "auto")))
            self.ask_dice = ask
        self.version += 1
        req = self._request
        if not ask and isinstance(req, RollRequest):
            self.answer_roll("", key=req.key)

    def decide(self, index: int, *, key: int | None = None) -> None:
        """Answer the open :class:`DecisionRequest` with option ``index`` (0-based)."""
        req: DecisionRequest = self._check(key, DecisionRequest)
        options = req.decision.options
        if not 0 <= index < len(options):
            raise ScriptError(f"no option {index + 1}: choose 1 to {len(options)}")
        self._queued = _Queued("decide", req.index, options[index])
        self._request = None
        self.advance()

    # -- reading -------------------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """Steps finished so far."""
        return sum(1 for r in self.battle.log if isinstance(r, Resolved))

    def suggestion(self) -> int:
        """The action (0-based) the computer would choose for the open action request, or the
        option it would choose for the open decision (a reaction fire, a re-roll)."""
        req = self._request
        rng = self.streams.generator(self.steps, HINTS)
        greedy = GreedyPolicy(self.battle.ruleset)
        if isinstance(req, DecisionRequest):
            options = list(req.decision.options)
            choice = greedy.choose(req.decision, req.state, rng)
            return int(options.index(choice)) if choice in options else 0
        asked: ActionRequest = self._check(None, ActionRequest)
        decision: Decide[Any] = Decide(asked.side, "action", asked.actions, Done)
        return asked.actions.index(greedy.choose(decision, self.battle.state, rng))

    def last_roll(self) -> str | None:
        """The last roll of the step under way, in words (what a re-roll decision is about),
        or ``None``."""
        if not self._in_step:
            return None
        for note in reversed(self.feed):
            if note.kind == "roll":
                return note.text
            if note.kind == "turn" or (note.kind == "action" and " chooses: " not in note.text):
                return None
        return None

    def acting(self) -> tuple[str | None, str]:
        """The step a roll or a decision is asked in: ``(side, the action in words)`` for a
        side's action, ``(None, what the step is)`` for an automatic one (a round's start)."""
        first = self._open[0] if self._open else None
        if isinstance(first, ActionTaken):
            return first.side, self.describe(first.action)
        p = self.battle.pending
        return None, p.label if isinstance(p, Automatic) else ""

    def acting_action(self) -> Any | None:
        """The action of the step a roll or a decision is asked in (``None``: an automatic
        step, such as a round's start)."""
        first = self._open[0] if self._open else None
        return first.action if isinstance(first, ActionTaken) else None

    def roller(self, req: RollRequest) -> Roller:
        """Who physically rolls ``req``'s dice: the side (and the unit it rolls for), which
        is not always the acting side (a defender's armor, a reaction, a scatter)."""
        side, _ = self.acting()
        return roller_of(self.battle, req.label, self.acting_action(), side)

    def describe(self, action: Any) -> str:
        """An action in words."""
        return self.battle.ruleset.describe_action(self.battle.state, action)

    def describe_option(self, decision: Decide[Any], option: Any) -> str:
        """An option of a decision in words."""
        hooks = explain_hooks(self.battle.ruleset)
        if hooks is not None:
            return hooks.option(self.battle.state, decision, option)
        return str(option)

    def explain(self, action: Any) -> list[str]:
        """Why an action's dice are what they are: sight, cover, what each die needs."""
        hooks = explain_hooks(self.battle.ruleset)
        if hooks is None:
            return []
        try:
            return hooks.action(self.battle.state, action)
        except TacticaError:
            return []

    def history(self, n: int) -> list[str]:
        """The last ``n`` events in words."""
        rs, state = self.battle.ruleset, self.battle.state
        events = self.battle.events()[-n:] if n > 0 else []
        return [rs.describe_event(state, e) for e in events]

    def _tell(self, events: Sequence[Any]) -> None:
        """The events of a finished step, but those told before one of its questions."""
        told, self._told = self._told, 0
        rs, state = self.battle.ruleset, self.battle.state
        for e in events[told:]:
            self._note("event", rs.describe_event(state, e))

    def _tell_so_far(self) -> None:
        """The events a step stopped for a question has made so far and not told yet: what
        happened comes before the question that depends on it (the initiative's winner before
        the order of the teams)."""
        so_far = self.battle.emitting
        rs, state = self.battle.ruleset, self.battle.state
        for e in so_far[self._told:]:
            self._note("event", rs.describe_event(state, e))
        self._told = max(self._told, len(so_far))

    def _announce_cut(self, cut: Sequence[Any]) -> None:
        rolls = [r for r in cut if isinstance(r, Rolled)]
        decisions = [r for r in cut if isinstance(r, Decided)]
        first = cut[0]
        if isinstance(first, ActionTaken):
            what = self.describe(first.action)
        else:
            p = self.battle.pending
            what = p.label if isinstance(p, Automatic) else "the step"
        made = [f"{n} {word}{'s' if n != 1 else ''}"
                for n, word in ((len(rolls), "roll"), (len(decisions), "decision")) if n]
        after = f" after {' and '.join(made)}" if made else ""
        self._note("info", f"Finishing {what!r}, cut short{after}:")
        if isinstance(first, ActionTaken):
            for line in self.explain(first.action):
                self._note("explain", line)
        for r in rolls:
            self._note("roll", f"{shown_label(r.label)}: {shown_roll(r.value, r.faces)} "
                               "(from the log)")

    def close(self) -> None:
        """Release the log (its lock); the controller answers nothing after."""
        self.writer.close()


_WHAT: dict[type, str] = {ActionRequest: "action", RollRequest: "roll",
                          DecisionRequest: "decision"}


def _aimed(req: ActionRequest, index: int, bearing: Fraction | float) -> Any:
    """Action ``index`` of ``req`` aimed at ``bearing`` degrees, or a ScriptError saying why
    not."""
    if isinstance(bearing, float) and not math.isfinite(bearing):
        raise ScriptError(f"bearing: expected a number of degrees, got {bearing}")
    aimed = None
    if req.aiming is not None and index in req.aimable:
        aimed = req.aiming.aim(req.actions[index], Fraction(bearing))
    if aimed is None:
        shown = _numbers(req.aimable) or "none now"
        raise ScriptError(f"action {index + 1} cannot be aimed at a bearing (those that can: "
                          f"{shown})")
    return aimed


def _numbers(indices: Sequence[int]) -> str:
    """0-based indices as people number them, runs joined: ``36-74, 80``."""
    runs: list[list[int]] = []
    for i in sorted(indices):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(f"{r[0] + 1}" if len(r) == 1 else f"{r[0] + 1}-{r[-1] + 1}" for r in runs)


def _open_question(req: Request) -> str:
    if isinstance(req, ActionRequest):
        return f"{req.side} chooses an action"
    if isinstance(req, RollRequest):
        return f"the dice for {req.label!r} are awaited"
    if isinstance(req, DecisionRequest):
        return f"{req.side} decides {req.decision.label!r}"
    return "the battle is over"
