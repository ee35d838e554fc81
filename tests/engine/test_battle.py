"""The battle core: one way to change a battle, the log it writes, replays and resumed steps.

Most tests use a tiny game defined here (not registered), so that they check the core only
through the ruleset hooks: two sides shoot at each other with one D6; the target decides to
duck or stand; a round starts with a rolled initiative. A few tests play Nebulia Operations.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from tactica.dice import Dist
from tactica.engine.battle import (
    Battle,
    PrefixDice,
    Resolved,
    SampledDice,
    ScriptedDice,
    is_input_record,
)
from tactica.engine.chance import Decide, Done, Emit, Roll, Step
from tactica.engine.errors import IllegalActionError, ScriptError, TacticaError
from tactica.engine.events import ActionTaken, BattleEnded, Decided, Rolled, record
from tactica.engine.policies import GreedyPolicy, RandomPolicy, ScriptedPolicy
from tactica.engine.ruleset import Automatic, ChooseAction, Finished, Pending, RulesetMeta
from tactica.engine.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
D6 = Dist.uniform(range(1, 7))


# -- a tiny game ------------------------------------------------------------------------------


@record("test-battle.shoot")
@dataclass(frozen=True)
class Shoot:
    side: str


@record("test-battle.wait")
@dataclass(frozen=True)
class Wait:
    side: str


@record("test-battle.round")
@dataclass(frozen=True)
class RoundBegan:
    first: str


@record("test-battle.hit")
@dataclass(frozen=True)
class Hit:
    target: str
    amount: int


@record("test-battle.turn-over")
@dataclass(frozen=True)
class TurnOver:
    side: str


@dataclass
class DuelState:
    hp: dict[str, int] = field(default_factory=lambda: {"red": 3, "blue": 3})
    to_act: list[str] = field(default_factory=list)
    rounds: int = 0


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


class Duel:
    meta: ClassVar[RulesetMeta] = RulesetMeta("test-duel", "Test duel", "none", ())

    def initial_state(self, scenario: Any) -> DuelState:
        return DuelState()

    def pending(self, state: DuelState) -> Pending:
        alive = [s for s, hp in state.hp.items() if hp > 0]
        if len(alive) == 1:
            return Finished(alive[0], "the other side is down")
        if state.rounds >= 20 and not state.to_act:
            return Finished(None, "out of rounds")
        if not state.to_act:
            return Automatic("initiative", Roll("initiative", Dist.uniform(["red", "blue"]),
                                                lambda s: Emit(RoundBegan(s), lambda: Done(None))))
        side = state.to_act[0]
        return ChooseAction(side, (Shoot(side), Wait(side)))

    def resolve(self, state: DuelState, action: Any) -> Step:
        if isinstance(action, Wait):
            return Emit(TurnOver(action.side), lambda: Done(None))
        target = other(action.side)

        def after(face: int) -> Step:
            return Decide(target, "dodge", ("duck", "stand"),
                          lambda how: outcome(face, how))

        def outcome(face: int, how: str) -> Step:
            amount = 1 if face >= (5 if how == "duck" else 3) else 0
            then = Emit(TurnOver(action.side), lambda: Done(None))
            return Emit(Hit(target, amount), lambda: then) if amount else then

        return Roll("shot", Dist.uniform(range(1, 7)), after, dice=(D6,),
                    read=lambda faces: faces[0])

    def apply_event(self, state: DuelState, event: Any) -> None:
        if isinstance(event, RoundBegan):
            state.rounds += 1
            state.to_act = [event.first, other(event.first)]
        elif isinstance(event, Hit):
            state.hp[event.target] -= event.amount
        elif isinstance(event, TurnOver):
            state.to_act.remove(event.side)
        else:
            raise TypeError(event)

    def copy_state(self, state: DuelState) -> DuelState:
        return copy.deepcopy(state)

    def describe_action(self, state: DuelState, action: Any) -> str:
        return f"{action.side} {type(action).__name__.lower()}s"

    def describe_event(self, state: DuelState, event: Any) -> str:
        return repr(event)

    def sides_of(self, state: DuelState) -> tuple[str, ...]:
        return ("red", "blue")

    def battle_stats(self, state: DuelState, events: list[Any]) -> dict[str, Any]:
        return {"rounds": state.rounds, "units": {}}


DUEL = Duel()


class Always:
    """A policy that always answers ``answer`` when it is an option, else the first option."""

    def __init__(self, answer: Any = None) -> None:
        self.answer = answer
        self.asked: list[Decide[Any]] = []

    def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
        self.asked.append(decision)
        return self.answer if self.answer in decision.options else decision.options[0]


def duel() -> Battle:
    return Battle(DUEL, DuelState())


def policies() -> dict[str, Always]:
    return {"red": Always(), "blue": Always("duck")}


# -- applying actions -------------------------------------------------------------------------


def test_an_action_writes_its_inputs_events_and_a_closing_marker() -> None:
    battle = duel()
    seen: list[Any] = []
    battle.listeners.append(seen.append)
    assert battle.advance(dice=ScriptedDice(["red"])) == [RoundBegan("red")]
    events = battle.apply(Shoot("red"), dice=ScriptedDice([[6]]), policies=policies())
    assert events == [Hit("blue", 1), TurnOver("red")]
    assert battle.log == [
        Rolled("initiative", "red", None),
        RoundBegan("red"),
        Resolved(),
        ActionTaken("red", Shoot("red")),
        Rolled("shot", 6, (6,)),
        Decided("blue", "dodge", "duck"),
        Hit("blue", 1),
        TurnOver("red"),
        Resolved(),
    ]
    assert seen == battle.log
    assert battle.events() == [RoundBegan("red"), Hit("blue", 1), TurnOver("red")]
    assert [is_input_record(e) for e in battle.log[3:6]] == [True, True, True]
    assert battle.state.hp == {"red": 3, "blue": 2}


def test_decisions_inside_an_action_go_to_the_deciding_side() -> None:
    battle = duel()
    battle.advance(dice=ScriptedDice(["red"]))
    pols = policies()
    battle.apply(Shoot("red"), dice=ScriptedDice([4]), policies=pols)
    assert [d.label for d in pols["blue"].asked] == ["dodge"]
    assert pols["red"].asked == []
    assert battle.state.hp["blue"] == 3  # 4 does not hit a ducking target
    with pytest.raises(TacticaError, match="no policy decides for side 'red'"):
        battle.apply(Shoot("blue"), dice=ScriptedDice([4]), policies={"blue": Always()})


def test_only_legal_actions_and_only_when_a_side_must_choose() -> None:
    battle = duel()
    with pytest.raises(IllegalActionError, match="no action can be taken now: initiative comes"):
        battle.apply(Shoot("red"), dice=ScriptedDice([]))
    battle.advance(dice=ScriptedDice(["blue"]))
    with pytest.raises(IllegalActionError,
                       match=r"red shoots is not a legal action for blue now \(2 legal"):
        battle.apply(Shoot("red"), dice=ScriptedDice([]))
    with pytest.raises(IllegalActionError, match="nothing happens by itself now"):
        battle.advance(dice=ScriptedDice([]))
    assert battle.legal_actions() == (Shoot("blue"), Wait("blue"))


def test_the_end_is_written_once_and_nothing_can_follow() -> None:
    battle = duel()
    battle.state.hp["blue"] = 1
    battle.advance(dice=ScriptedDice(["red"]))
    battle.apply(Shoot("red"), dice=ScriptedDice([6]), policies=policies())
    assert battle.is_over and battle.winner == "red"
    assert battle.log[-1] == BattleEnded("red", "the other side is down")
    assert battle.legal_actions() == ()
    assert battle.step(policies(), dice=ScriptedDice([]), rng=np.random.default_rng(0)) == []
    with pytest.raises(IllegalActionError, match="the battle is over"):
        battle.apply(Wait("blue"), dice=ScriptedDice([]))
    assert sum(isinstance(e, BattleEnded) for e in battle.log) == 1


def test_run_plays_to_the_end_or_stops_at_the_step_limit() -> None:
    rng = np.random.default_rng(5)
    battle = duel()
    pols = {"red": RandomPolicy(battle.ruleset), "blue": RandomPolicy(battle.ruleset)}
    winner = battle.run(pols, dice=SampledDice(rng), rng=rng)
    assert battle.is_over and winner == battle.winner
    stuck = duel()
    waiting = {"red": ScriptedPolicy([], fallback=Always(Wait("red"))),
               "blue": Always(Wait("blue"))}
    with pytest.raises(TacticaError, match="did not end within 7 steps"):
        stuck.run(waiting, dice=SampledDice(1), rng=rng, max_steps=7)


def test_the_same_seed_gives_the_same_log() -> None:
    logs = []
    for _ in range(2):
        rng = np.random.default_rng(99)
        battle = duel()
        battle.run({"red": RandomPolicy(battle.ruleset), "blue": RandomPolicy(battle.ruleset)},
                   dice=SampledDice(rng, faces=True), rng=rng)
        logs.append(battle.log)
    assert logs[0] == logs[1]


# -- dice -------------------------------------------------------------------------------------


def test_scripted_dice_values_faces_and_errors() -> None:
    shot: Roll[int] = Roll("shot", Dist.uniform(range(1, 7)), Done, dice=(D6,),
                           read=lambda f: f[0])
    dice = ScriptedDice([5, [2], 7])
    assert dice.roll(shot) == (5, None)
    assert dice.roll(shot) == (2, (2,))
    assert dice.remaining == [7]
    with pytest.raises(ScriptError, match=r"scripted value 7 for roll 'shot' is impossible; "
                                          r"possible values: 1, 2, 3, 4, 5, 6"):
        dice.roll(shot)
    with pytest.raises(ScriptError, match="no scripted value left for roll 'shot'"):
        dice.roll(shot)


def test_sampled_dice_are_seeded_and_may_roll_faces() -> None:
    shot: Roll[int] = Roll("shot", Dist.uniform(range(1, 7)), Done, dice=(D6,),
                           read=lambda f: f[0])
    by_seed, by_rng = SampledDice(3), SampledDice(np.random.default_rng(3))
    assert [by_seed.roll(shot) for _ in range(20)] == [by_rng.roll(shot) for _ in range(20)]
    value, faces = SampledDice(8, faces=True).roll(shot)
    assert faces == (value,)


def test_prefix_dice_replay_recorded_rolls_then_ask() -> None:
    shot: Roll[int] = Roll("shot", Dist.uniform(range(1, 7)), Done)
    prefix = PrefixDice([Rolled("shot", 2, None)], ScriptedDice([6]))
    assert prefix.replaying
    assert prefix.roll(shot) == (2, None)
    assert not prefix.replaying
    assert prefix.roll(shot) == (6, None)
    wrong = PrefixDice([Rolled("armor", 1, None)], ScriptedDice([]))
    with pytest.raises(TacticaError, match="recorded roll 'armor', but the rules ask for 'shot'"):
        wrong.roll(shot)


def test_prefix_dice_refuse_a_recorded_roll_the_rules_cannot_produce() -> None:
    shot: Roll[int] = Roll("shot", Dist.uniform(range(1, 7)), Done, dice=(D6,),
                           read=lambda f: f[0])
    assert PrefixDice([Rolled("shot", 4, (4,))], ScriptedDice([])).roll(shot) == (4, (4,))
    for bad in (Rolled("shot", 9, None), Rolled("shot", 2, (5,)), Rolled("shot", 7, (7,)),
                Rolled("shot", 2, (1, 1))):
        with pytest.raises(TacticaError, match=r"the log does not fit the rules: recorded roll "
                                               r"'shot' = \d.* is not a possible result"):
            PrefixDice([bad], ScriptedDice([])).roll(shot)


# -- replays and resumed steps ----------------------------------------------------------------


def played_duel(seed: int) -> Battle:
    rng = np.random.default_rng(seed)
    battle = duel()
    battle.run({"red": RandomPolicy(battle.ruleset), "blue": RandomPolicy(battle.ruleset)},
               dice=SampledDice(rng, faces=True), rng=rng)
    return battle


def test_replaying_the_log_gives_the_same_state() -> None:
    battle = played_duel(4)
    again, cut = Battle.replay(DUEL, DuelState(), battle.log)
    assert cut == []
    assert again.state == battle.state
    assert again.log == battle.log
    assert again.is_over and again.winner == battle.winner


def step_spans(log: list[Any]) -> list[tuple[int, int]]:
    """(start, stop) of each step in the log: stop is just after its Resolved marker."""
    spans, start = [], 0
    for i, e in enumerate(log):
        if isinstance(e, Resolved):
            spans.append((start, i + 1))
            start = i + 1
            if start < len(log) and isinstance(log[start], BattleEnded):
                start += 1
    return spans


def rest_of_step(log: list[Any], k: int, stop: int) -> tuple[list[Any], list[Any]]:
    """The rolls and decisions of a step after position k, as script values."""
    rolls = [list(e.faces) if e.faces is not None else e.value
             for e in log[k:stop] if isinstance(e, Rolled)]
    decisions = [e.choice for e in log[k:stop] if isinstance(e, Decided)]
    return rolls, decisions


def test_a_log_cut_anywhere_inside_a_step_resumes_to_the_same_log() -> None:
    battle = played_duel(8)
    log = battle.log
    checked = 0
    for start, stop in step_spans(log)[:12]:
        for k in range(start + 1, stop):
            prefix = log[:k]
            try:
                resumed, cut = Battle.replay(DUEL, DuelState(), prefix)
            except TacticaError as exc:
                # Cut between the rule events of a step: those are written together.
                assert "cut while saving" in str(exc)
                assert not is_input_record(log[k - 1])
                continue
            assert cut == log[start:k]
            rolls, decisions = rest_of_step(log, k, stop)
            scripted = {s: ScriptedPolicy(list(decisions)) for s in ("red", "blue")}
            resumed.resume_step(cut, dice=ScriptedDice(rolls), policies=scripted,
                                rng=np.random.default_rng(0))
            assert resumed.log == log[:stop]
            checked += 1
    assert checked >= 20


def test_resuming_an_empty_cut_does_nothing() -> None:
    battle = played_duel(2)
    again, cut = Battle.replay(DUEL, DuelState(), battle.log)
    assert again.resume_step(cut, dice=ScriptedDice([])) == []


# -- Nebulia Operations through the core ------------------------------------------------------


def test_a_nebulia_battle_is_reproducible_and_replays() -> None:
    sc = load_scenario(EXAMPLES / "nebulia" / "firefight.yaml")
    logs = []
    for _ in range(2):
        rng = np.random.default_rng(17)
        battle = Battle(sc.ruleset, sc.new_state())
        battle.run({"red": GreedyPolicy(battle.ruleset), "blue": RandomPolicy(battle.ruleset)},
                   dice=SampledDice(rng), rng=rng)
        logs.append(battle)
    assert logs[0].log == logs[1].log
    replayed, cut = Battle.replay(sc.ruleset, sc.new_state(), logs[0].log)
    assert cut == [] and replayed.state == logs[0].state
