"""How rules ask for dice and decisions, and the drivers that answer them.

Rule code never calls a random number generator and never asks a person. It describes a
*process*: a tree of requests written in continuation-passing style. Each step is one of

* :class:`Roll` - "roll this" (a distribution of the value the rule reads, and optionally how a
  person rolls it: which dice, and how their faces are read);
* :class:`Decide` - "side S chooses one of these options";
* :class:`Emit` - "this happened" (an event, recorded in order; no state is changed here);
* :class:`Observe` - "show me the battle as my events so far have left it" (a trooper hit by
  reaction fire halfway through its move reads its lost AP before taking the next step);
* :class:`Done` - the process is over, with a result;
* a :class:`Node` - an immutable, hashable state with an :meth:`~Node.advance` method. Nodes are
  where the exact driver *merges*: two branches that reach equal nodes continue as one.

Three drivers answer the requests, so one rules implementation serves odds, simulation, tests and
play:

* :func:`run_sampled` - seeded sampling (simulation, virtual dice at the table);
* :func:`run_exact` - every outcome with its exact probability, equal results merged;
* :func:`run_scripted` - given values (tests, worked examples, dice rolled by hand).

A process that observes is run with the battle's state and the game's rules (any object with
``copy_state`` and ``apply_event``, a :class:`World`): the drivers keep a working copy per branch
with the emitted events applied, so no game builds its own. The exact driver keys its merges on
the node *and* the events emitted before it (equal histories mean equal working states), so
a process that emits only at the end of a chain of nodes merges exactly as before.

Why continuations and nodes, not generators: a generator cannot be copied, so an exact driver
would have to re-run it from the start for every branch and could never merge equal
intermediate states. Continuations branch for free, and nodes give the merge points that keep
"hit after hit against degrading armor" polynomial instead of exponential (see the tests).

Example: n D10 to hit at accuracy a, then one armor D10 per hit saving at armor s.

>>> from tactica.dice import d10_target_successes
>>> def attack(n: int, a: int, s: int) -> Step:
...     return Roll("to hit", d10_target_successes(n, a),
...                 lambda hits: Roll("armor", d10_target_successes(hits, s),
...                                   lambda saves: Done(hits - saves)))
>>> run_exact(attack(1, 6, 3)).p(1)
Fraction(21, 50)
>>> run_scripted(attack(1, 6, 3), rolls=[1, 0]).value
1
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar, cast, runtime_checkable

import numpy as np

from tactica.dice import Dist
from tactica.engine.errors import ScriptError, TacticaError
from tactica.engine.statekey import effects_key
from tactica.engine.working import Working, World

__all__ = [
    "Decide",
    "DecisionRecord",
    "Done",
    "Emit",
    "FirstOption",
    "Node",
    "Observe",
    "Policy",
    "Record",
    "Roll",
    "RollRecord",
    "Step",
    "Trace",
    "Working",
    "World",
    "and_then",
    "emit_all",
    "run",
    "run_exact",
    "run_sampled",
    "run_scripted",
]

T = TypeVar("T")
R = TypeVar("R")


# --------------------------------------------------------------------------------------------
# Requests


@runtime_checkable
class Node(Protocol):
    """An immutable, hashable intermediate state of a process: the exact driver merges equals.

    ``advance`` returns the next step. Implement it on a frozen dataclass.
    """

    def advance(self) -> Step:
        """The step that follows this state."""
        ...

    def __hash__(self) -> int: ...


@dataclass(frozen=True, eq=False)
class Roll(Generic[T]):
    """Ask for a roll: ``dist`` is the distribution of the value the rule reads.

    ``dice`` and ``read`` say how a person rolls it: ``dice`` is one distribution per physical
    die (the faces), and ``read`` turns the tuple of faces into the value. Without them the value
    itself is what a person enters. Drivers that sample use ``dist`` directly (one draw for a
    whole pool) unless asked to roll faces. ``hint`` is an optional sentence for people.
    """

    label: str
    dist: Dist[T]
    then: Callable[[T], Step]
    dice: tuple[Dist[int], ...] = ()
    read: Callable[[tuple[int, ...]], T] | None = None
    hint: str = ""
    """What the roll means in the game's own terms, for people at the table ("55 or under
    hits; doubles are criticals"); shown by ``play`` and the web page, ignored by the
    drivers."""

    def value_from_faces(self, faces: Sequence[int]) -> T:
        """Read rolled faces into the value, checking their number and range."""
        if self.read is None or not self.dice:
            raise ScriptError(f"roll {self.label!r} is not made with physical dice")
        if len(faces) != len(self.dice):
            wanted = len(self.dice)
            typed = " ".join(str(f) for f in faces) or "nothing"
            raise ScriptError(
                f"roll {self.label!r} is {wanted} {'die' if wanted == 1 else 'dice'}: type "
                f"{'one face' if wanted == 1 else f'{wanted} faces'} (typed "
                f"{len(faces)}: {typed})"
            )
        for i, (face, die) in enumerate(zip(faces, self.dice, strict=True)):
            if die.p(face) == 0:
                raise ScriptError(
                    f"roll {self.label!r}: die {i + 1} cannot show {face} "
                    f"(faces {die.outcomes[0]}..{die.outcomes[-1]})"
                )
        return self.read(tuple(faces))

    def sample(
        self, rng: np.random.Generator, *, faces: bool = False
    ) -> tuple[T, tuple[int, ...] | None]:
        """A random answer: one draw of ``dist``, or (``faces=True``) every physical die
        rolled and read, so that a person sees each die."""
        if faces and self.dice and self.read is not None:
            rolled = tuple(int(d.sample(rng)) for d in self.dice)
            return self.read(rolled), rolled
        return self.dist.sample(rng), None

    def answer(self, given: Any, *, which: str = "") -> tuple[T, tuple[int, ...] | None]:
        """A given answer: the value read, or a list of faces; checked against the roll.

        ``which`` names the roll in the error (``roll 3 ('armor')``)."""
        if isinstance(given, (tuple, list)):
            faces = tuple(int(f) for f in given)
            return self.value_from_faces(faces), faces
        if self.dist.p(given) == 0:
            raise ScriptError(
                f"scripted value {given!r} for {which or f'roll {self.label!r}'} is "
                f"impossible; possible values: {_describe_outcomes(self.dist)}"
            )
        return given, None


@dataclass(frozen=True, eq=False)
class Decide(Generic[T]):
    """Ask ``side`` to choose one of ``options`` (at least one)."""

    side: str
    label: str
    options: tuple[T, ...]
    then: Callable[[T], Step]
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Emit:
    """Record ``event`` (in order) and continue with ``then()``."""

    event: Any
    then: Callable[[], Step]


@dataclass(frozen=True, eq=False)
class Observe:
    """Continue with ``then(state)``: the battle state with every event this process emitted
    so far applied. ``state`` is the driver's working copy: read it, never change it."""

    then: Callable[[Any], Step]


@dataclass(frozen=True)
class Done(Generic[R]):
    """The end of a process, with its result (hashable, for merging)."""

    value: R


Step = Roll[Any] | Decide[Any] | Emit | Observe | Done[Any] | Node


# --------------------------------------------------------------------------------------------
# Records: what a run asked and what was answered, in order (for logs and replays)


@dataclass(frozen=True)
class RollRecord:
    """A roll that was made: its label, the value read and the faces (when rolled as dice)."""

    label: str
    value: Any
    faces: tuple[int, ...] | None = None


@dataclass(frozen=True)
class DecisionRecord:
    """A decision that was taken: by which side, on what, and the chosen option."""

    side: str
    label: str
    choice: Any


Record = RollRecord | DecisionRecord


@dataclass
class Trace(Generic[R]):
    """What one sampled or scripted run produced: the result, the events and the inputs."""

    value: R
    events: list[Any] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Decision policies


class Policy(Protocol):
    """Who decides for a side: answers :class:`Decide` requests, the choice of the next action
    of a battle included (a decision labelled ``"action"``).

    ``state`` is the battle as the decision sees it (``None`` when a process runs without
    one); ``rng`` is ``None`` in the exact driver, where a policy may return a
    :class:`~tactica.dice.Dist` over options to mix them.
    """

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        """One of ``decision.options`` (or, exactly, a Dist over them)."""
        ...


class FirstOption:
    """The simplest policy: always the first option (deterministic; the default)."""

    def choose(self, decision: Decide[Any], state: Any, rng: np.random.Generator | None) -> Any:
        return decision.options[0]


def _policy_for(
    policies: Policy | Mapping[str, Policy] | None, side: str
) -> Policy:
    if policies is None:
        return FirstOption()
    if isinstance(policies, Mapping):
        try:
            return policies[side]
        except KeyError:
            raise TacticaError(f"no policy for side {side!r}") from None
    return policies


def _checked_choice(decision: Decide[Any], choice: Any) -> Any:
    for option in decision.options:  # a policy hands back an option itself: identity first
        if option is choice:
            return choice
    if choice not in decision.options:
        raise TacticaError(
            f"{decision.side} chose {choice!r} for {decision.label!r}, "
            f"which is not one of its {len(decision.options)} options"
        )
    return choice


# --------------------------------------------------------------------------------------------
# Drivers


def run(
    step: Step,
    *,
    roll: Callable[[Roll[Any]], tuple[Any, tuple[int, ...] | None]],
    decide: Callable[[Decide[Any]], Any],
    on_event: Callable[[Any], None] | None = None,
    on_record: Callable[[Record], None] | None = None,
    working: Working | None = None,
) -> Any:
    """Walk a process, answering each request with ``roll`` and ``decide``; return the result.

    The general sequential driver: sampling, scripts and interactive play are all this loop
    with different answerers. ``roll`` returns the value and, if dice were rolled, the faces.
    ``working`` keeps the state that :class:`Observe` shows.
    """
    work = working if working is not None else Working(None, None)
    emitted = work.emitted
    # Dispatch on the exact type first (the request classes are never subclassed by the
    # games); anything else goes the general way. ``s`` is the step, untyped for speed.
    s: Any = step
    while True:
        kind = type(s)
        if kind is Emit:
            event = s.event
            if on_event is not None:
                on_event(event)
            emitted(event)
            s = s.then()
        elif kind is Roll:
            value, faces = roll(s)
            if on_record is not None:
                on_record(RollRecord(s.label, value, faces))
            s = s.then(value)
        elif kind is Done:
            return s.value
        elif kind is Decide:
            if not s.options:
                raise TacticaError(f"decision {s.label!r} for {s.side} has no options")
            choice = _checked_choice(s, decide(s))
            if on_record is not None:
                on_record(DecisionRecord(s.side, s.label, choice))
            s = s.then(choice)
        elif kind is Observe:
            s = s.then(work.view())
        elif isinstance(s, Done):
            return s.value
        else:
            s = _generic(s, roll, decide, on_event, on_record, work)


def _generic(step: Step, roll: Callable[[Roll[Any]], tuple[Any, tuple[int, ...] | None]],
             decide: Callable[[Decide[Any]], Any], on_event: Callable[[Any], None] | None,
             on_record: Callable[[Record], None] | None, work: Working) -> Step:
    """One step of :func:`run` for a request of a subclass, or a node: the next step."""
    if isinstance(step, Roll):
        value, faces = roll(step)
        if on_record is not None:
            on_record(RollRecord(step.label, value, faces))
        return step.then(value)
    if isinstance(step, Decide):
        if not step.options:
            raise TacticaError(f"decision {step.label!r} for {step.side} has no options")
        choice = _checked_choice(step, decide(step))
        if on_record is not None:
            on_record(DecisionRecord(step.side, step.label, choice))
        return step.then(choice)
    if isinstance(step, Emit):
        if on_event is not None:
            on_event(step.event)
        work.emitted(step.event)
        return step.then()
    if isinstance(step, Observe):
        return step.then(work.view())
    assert not isinstance(step, Done)
    return step.advance()


def _traced(step: Step, roll: Callable[[Roll[Any]], tuple[Any, tuple[int, ...] | None]],
            decide: Callable[[Decide[Any]], Any], working: Working) -> Trace[Any]:
    events: list[Any] = []
    records: list[Record] = []
    value = run(step, roll=roll, decide=decide, on_event=events.append, on_record=records.append,
                working=working)
    return Trace(value, events, records)


def run_sampled(
    step: Step,
    rng: np.random.Generator,
    *,
    policies: Policy | Mapping[str, Policy] | None = None,
    faces: bool = False,
    world: World | None = None,
    state: Any = None,
) -> Trace[Any]:
    """Sample one run with ``rng``. With ``faces=True`` every physical die is rolled and read
    (slower, but the record shows each die); otherwise each roll is one draw of its ``dist``.
    ``world`` and ``state`` serve :class:`Observe`."""

    def roll(r: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        return r.sample(rng, faces=faces)

    working = Working(world, state)

    def decide(d: Decide[Any]) -> Any:
        return _policy_for(policies, d.side).choose(d, working.current(), rng)

    return _traced(step, roll, decide, working)


def run_scripted(
    step: Step,
    *,
    rolls: Iterable[Any] = (),
    decisions: Iterable[Any] = (),
    policies: Policy | Mapping[str, Policy] | None = None,
    world: World | None = None,
    state: Any = None,
) -> Trace[Any]:
    """Run with given values: ``rolls`` answers each :class:`Roll` in order and ``decisions``
    each :class:`Decide` (when ``decisions`` runs out, ``policies`` answers, if given).

    A scripted roll is the value the rule reads, or a tuple/list of faces for a roll made with
    physical dice. A missing value, an impossible value, or a value left over is a
    :class:`~tactica.engine.errors.ScriptError`.
    """
    working = Working(world, state)
    roll_iter: Iterator[Any] = iter(list(rolls))
    decision_list = list(decisions)
    decision_iter: Iterator[Any] = iter(decision_list)
    counter = {"rolls": 0, "decisions": 0}

    def roll(r: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        counter["rolls"] += 1
        try:
            given = next(roll_iter)
        except StopIteration:
            raise ScriptError(
                f"no scripted value for roll {counter['rolls']} ({r.label!r}); "
                f"possible values: {_describe_outcomes(r.dist)}"
            ) from None
        return r.answer(given, which=f"roll {counter['rolls']} ({r.label!r})")

    def decide(d: Decide[Any]) -> Any:
        counter["decisions"] += 1
        try:
            return next(decision_iter)
        except StopIteration:
            if policies is not None:
                return _policy_for(policies, d.side).choose(d, working.current(), None)
            raise ScriptError(
                f"no scripted choice for decision {counter['decisions']} ({d.label!r} by "
                f"{d.side}); options: {list(d.options)[:8]}"
            ) from None

    trace = _traced(step, roll, decide, working)
    left_rolls = list(roll_iter)
    left_decisions = list(decision_iter)
    if left_rolls or left_decisions:
        raise ScriptError(
            "scripted values left over after the process ended: "
            + ", ".join(
                part
                for part in (
                    f"rolls {left_rolls}" if left_rolls else "",
                    f"decisions {left_decisions}" if left_decisions else "",
                )
                if part
            )
        )
    return trace


def _describe_outcomes(dist: Dist[Any]) -> str:
    outs = list(dist.outcomes)
    return ", ".join(map(repr, outs)) if len(outs) <= 12 else f"{outs[0]!r}..{outs[-1]!r}"


# --------------------------------------------------------------------------------------------
# The exact driver


def run_exact(
    step: Step,
    *,
    policies: Policy | Mapping[str, Policy] | None = None,
    events: bool = False,
    world: World | None = None,
    state: Any = None,
    alike: bool = False,
) -> Dist[Any]:
    """Every result of the process with its exact probability.

    Equal results merge; equal :class:`Node` states merge before they are advanced (layer by
    layer), which is what keeps long chains of rolls cheap. Decisions go to ``policies``
    (``rng=None``): a policy may return a :class:`~tactica.dice.Dist` over options to mix them.
    With ``events=True`` each result is ``(value, events)`` with the emitted events in order.

    ``world`` and ``state`` serve :class:`Observe`: each branch sees ``state`` with the events
    it emitted applied. Working states are built once per distinct history of events and
    shared by the branches that reach it; nodes merge when their histories are equal too.

    With ``alike=True`` (and ``events=True``), histories whose events change a state alike
    (:func:`~tactica.engine.statekey.effects_key`) are one: a result keeps the first such
    history met, with the chances of all of them (what the exact search of a fight needs).
    """
    results: dict[Hashable, Fraction] = {}
    # With alike: the history a result or a node keeps, by its key of effects.
    kept: dict[Hashable, tuple[Any, ...]] = {}

    def merged(head: Any, evs: tuple[Any, ...]) -> tuple[Any, Any]:
        """The key of ``head`` (a result, a node) after ``evs``: with the history read for
        its effects (alike), keeping the first history met."""
        try:
            k = (head, effects_key(evs))
            hash(k)
        except TypeError:
            return (head, evs)
        kept.setdefault(k, evs)
        return k

    frontier: dict[tuple[Node, Any], Fraction] = {}
    track = events or world is not None
    views: dict[tuple[Any, ...], Any] = {}
    # Working states by what their events change (a game's declare_effect): histories that
    # differ only in what the log keeps (the numbers of an initiative roll) share one.
    views_alike: dict[Hashable, Any] = {}

    def view(history: tuple[Any, ...]) -> Any:
        if world is None:
            raise TacticaError(
                "this process observes the battle state: run it with state= and world="
            )
        found = views.get(history)
        if found is not None:
            return found
        try:
            effect: Hashable = effects_key(history)
            found = views_alike.get(effect)
        except TypeError:  # an event that cannot be hashed: built on its own
            effect = None
        if found is not None:
            views[history] = found
            return found
        built = _build_view(history)
        if effect is not None:
            views_alike[effect] = built
        return built

    def _build_view(history: tuple[Any, ...]) -> Any:
        assert world is not None
        missing: list[tuple[Any, ...]] = []
        h = history
        while h not in views and h:
            missing.append(h)
            h = h[:-1]
        if h not in views:  # the empty history
            views[h] = world.copy_state(state)
        for key in reversed(missing):
            work = world.copy_state(views[key[:-1]])
            world.apply_event(work, key[-1])
            views[key] = work
        return views[history]

    def expand(start: Step, start_p: Fraction, start_events: tuple[Any, ...]) -> None:
        stack: list[tuple[Step, Fraction, tuple[Any, ...]]] = [(start, start_p, start_events)]
        while stack:
            s, p, evs = stack.pop()
            while True:
                if isinstance(s, Done):
                    key: Hashable = (s.value, evs) if events else s.value
                    if alike and events:
                        key = merged(s.value, evs)
                    results[key] = results.get(key, Fraction(0)) + p
                    break
                if isinstance(s, Roll):
                    items = list(s.dist.items())
                    for value, q in items[1:]:
                        stack.append((s.then(value), p * q, evs))
                    value, q = items[0]
                    s, p = s.then(value), p * q
                elif isinstance(s, Decide):
                    seen = view(evs) if world is not None else state
                    choice = _policy_for(policies, s.side).choose(s, seen, None)
                    if isinstance(choice, Dist):
                        mix = list(choice.items())
                        for option, q in mix[1:]:
                            stack.append((s.then(_checked_choice(s, option)), p * q, evs))
                        option, q = mix[0]
                        s, p = s.then(_checked_choice(s, option)), p * q
                    else:
                        s = s.then(_checked_choice(s, choice))
                elif isinstance(s, Emit):
                    if track:
                        evs = (*evs, s.event)
                    s = s.then()
                elif isinstance(s, Observe):
                    s = s.then(view(evs))
                else:
                    key2 = merged(s, evs) if alike and events else (s, evs)
                    frontier[key2] = frontier.get(key2, Fraction(0)) + p
                    break

    expand(step, Fraction(1), ())
    while frontier:
        layer = list(frontier.items())
        frontier.clear()
        for (node, evs), p in layer:
            expand(node.advance(), p, kept.get((node, evs), evs))
    if kept:
        pairs = cast(dict[tuple[Any, Any], Fraction], results)
        return Dist.from_probs({(k[0], kept.get(k, k[1])): p for k, p in pairs.items()})
    return Dist.from_probs(results)


# --------------------------------------------------------------------------------------------
# Composition


@dataclass(frozen=True)
class _ThenNode:
    node: Node
    f: Callable[[Any], Step]

    def advance(self) -> Step:
        return and_then(self.node.advance(), self.f)


def and_then(step: Step, f: Callable[[Any], Step]) -> Step:
    """Continue ``step`` with ``f(result)`` once it is Done: sequencing of processes.

    Nodes stay nodes (wrapped with ``f``), so merging still works when ``f`` is the same
    object on every branch.
    """
    if isinstance(step, Done):
        return f(step.value)
    if isinstance(step, Roll):
        r = step
        return Roll(r.label, r.dist, lambda v: and_then(r.then(v), f), r.dice, r.read,
                    r.hint)
    if isinstance(step, Decide):
        d = step
        return Decide(d.side, d.label, d.options, lambda o: and_then(d.then(o), f), d.context)
    if isinstance(step, Emit):
        e = step
        return Emit(e.event, lambda: and_then(e.then(), f))
    if isinstance(step, Observe):
        o = step
        return Observe(lambda state: and_then(o.then(state), f))
    return _ThenNode(step, f)


def emit_all(events: Iterable[Any], then: Step) -> Step:
    """Emit ``events`` in order, then continue with ``then``."""
    out = then
    for event in reversed(list(events)):
        out = Emit(event, (lambda s: lambda: s)(out))
    return out
