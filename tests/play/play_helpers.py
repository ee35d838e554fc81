"""Helpers for the play tests: a scripted terminal and a tiny game with every kind of request.

*Standoff* (a test game, registered as ``toy-standoff``): two sides ``a`` and ``b`` with 2 hit
points each. Who starts is rolled as a value (no physical dice). On its turn a side shoots
(two d6, each 4+ hits) or waits; a side that hits decides where it aimed: ``legs`` (1 damage a
hit) or ``head`` (2 damage a hit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from tactica.battlefield.rows import Rows, Side
from tactica.dice import Dist, die
from tactica.engine.chance import Decide, Done, Emit, Roll, Step
from tactica.engine.errors import TacticaError
from tactica.engine.events import record
from tactica.engine.game import Explain, Game, Rules, Setup, Text
from tactica.engine.ruleset import (
    Automatic,
    ChooseAction,
    Finished,
    Pending,
    RulesetMeta,
    Rulings,
    UnitStatus,
    get_ruleset,
    register,
)
from tactica.engine.scenario import Scenario

EXAMPLES = Path(__file__).parents[2] / "examples" / "nebulia"
DUEL = EXAMPLES / "duel.yaml"
FIREFIGHT = EXAMPLES / "firefight.yaml"


class ScriptedTerminal:
    """Answers prompts from ``lines`` in order (EOFError when they run out); keeps a transcript."""

    def __init__(self, lines: Sequence[str] = ()):
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))

    @property
    def text(self) -> str:
        """Everything said, one line each."""
        return "\n".join(self.said)


# --------------------------------------------------------------------------------------------
# Standoff


@record("toy.shoot")
class Shoot:
    side: str


@record("toy.wait")
class Wait:
    side: str


@record("toy.started")
class Started:
    first: str


@record("toy.hit")
class Hit:
    target: str
    damage: int
    aim: str


@record("toy.turn-ended")
class TurnEnded:
    side: str


@dataclass
class StandoffState:
    hp: dict[str, int] = field(default_factory=lambda: {"a": 2, "b": 2})
    turn: str | None = None


def _hits(faces: tuple[int, ...]) -> int:
    return sum(1 for f in faces if f >= 4)


_ONE = die(6).map(lambda f: int(f >= 4))


class Standoff:
    """The test game."""

    meta: ClassVar[RulesetMeta] = RulesetMeta("toy-standoff", "Standoff", "rows", ())

    def initial_state(self, scenario: Any) -> StandoffState:
        return StandoffState()

    def pending(self, state: StandoffState) -> Pending:
        for side, hp in state.hp.items():
            if hp <= 0:
                other = "b" if side == "a" else "a"
                return Finished(other, f"{side} is down")
        if state.turn is None:
            return Automatic("who starts", Roll(
                "who starts", Dist.uniform(("a", "b")),
                lambda s: Emit(Started(s), lambda: Done(None))))
        return ChooseAction(state.turn, (Shoot(state.turn), Wait(state.turn)))

    def resolve(self, state: StandoffState, action: Any) -> Step:
        side = action.side
        target = "b" if side == "a" else "a"
        end = Emit(TurnEnded(side), lambda: Done(None))
        if isinstance(action, Wait):
            return end

        def after(hits: int) -> Step:
            if hits == 0:
                return end
            return Decide(side, "aim", ("legs", "head"),
                          lambda aim: Emit(Hit(target, hits * (2 if aim == "head" else 1), aim),
                                           lambda: end))

        return Roll("shot", _ONE + _ONE, after, dice=(die(6), die(6)), read=_hits)

    def apply_event(self, state: StandoffState, event: Any) -> None:
        if isinstance(event, Started):
            state.turn = event.first
        elif isinstance(event, Hit):
            state.hp[event.target] -= event.damage
        elif isinstance(event, TurnEnded):
            state.turn = "b" if event.side == "a" else "a"

    def copy_state(self, state: StandoffState) -> StandoffState:
        return StandoffState(dict(state.hp), state.turn)

    def describe_action(self, state: StandoffState, action: Any) -> str:
        return f"{action.side} {'shoots' if isinstance(action, Shoot) else 'waits'}"

    def describe_event(self, state: StandoffState, event: Any) -> str:
        if isinstance(event, Started):
            return f"{event.first} starts."
        if isinstance(event, Hit):
            return f"{event.target} is hit in the {event.aim} for {event.damage}."
        if isinstance(event, TurnEnded):
            return f"{event.side}'s turn ends."
        return repr(event)

    def describe_option(self, state: StandoffState, decision: Decide[Any], option: Any) -> str:
        return f"aim at the {option}"

    def explain_action(self, state: StandoffState, action: Any) -> list[str]:
        return ["two dice, 4+ hits"] if isinstance(action, Shoot) else []

    def sides_of(self, state: StandoffState) -> tuple[str, ...]:
        return ("a", "b")

    def units(self, state: StandoffState) -> tuple[UnitStatus, ...]:
        return tuple(UnitStatus(s, s, hp > 0, None, {"hp": hp}) for s, hp in state.hp.items())


def _built_in_code(data: Any, **where: Any) -> None:
    return None  # a Standoff scenario is built in code (below), never from a file


_STANDOFF = Standoff()
STANDOFF: Game[StandoffState, Any, Any] = Game(
    meta=Standoff.meta,
    module=__name__,
    setup=Setup(build=_built_in_code, start=_STANDOFF.initial_state),
    rules=Rules(pending=_STANDOFF.pending, resolve=_STANDOFF.resolve,
                apply=_STANDOFF.apply_event, copy=_STANDOFF.copy_state,
                sides=_STANDOFF.sides_of),
    text=Text(units=_STANDOFF.units, action=_STANDOFF.describe_action,
              event=_STANDOFF.describe_event),
    explain=Explain(action=_STANDOFF.explain_action, option=_STANDOFF.describe_option),
)


def standoff(tmp_path: Path) -> Scenario:
    """A Standoff scenario (built in code; its source names a file in ``tmp_path``)."""
    try:
        ruleset = get_ruleset("toy-standoff")
    except TacticaError:
        ruleset = register(STANDOFF)
    rows = Rows((Side("a", ("a",), ()), Side("b", ("b",), ())))
    return Scenario(name="Standoff", ruleset=ruleset, rulings=Rulings(()), battlefield=rows,
                    setup=None, source=str(tmp_path / "standoff.yaml"),
                    data={"game": "toy-standoff"}, max_rounds=30)
