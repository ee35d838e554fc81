"""Conformance of every registered game, on every example scenario it ships.

A game is found by :func:`tactica.ruleset.rulesets` (the built-in games, and the two toy games
of ``toy_games.py`` registered by this folder's ``conftest.py``); its examples are
:func:`tactica.ruleset.example_scenarios`. Every check goes through the core's hooks only:

* random playouts end, and a finished battle has no legal actions;
* the chance outcomes of every roll request sum to 1, and what was rolled is possible;
* the log replays (rule events only) to a state equal to the final one;
* re-resolving each step with its recorded rolls and decisions gives identical records;
* the same seed gives the same log, byte for byte as JSON;
* the scenario's data round-trips into a scenario that plays the same battle.
"""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tactica.battle import Battle, Resolved, SampledDice, ScriptedDice, is_input_record
from tactica.chance import Decide, FirstOption, Roll, run_exact
from tactica.errors import IllegalActionError
from tactica.events import ActionTaken, BattleEnded, Decided, Rolled, dumps, from_json, to_json
from tactica.policies import GreedyPolicy, RandomPolicy
from tactica.ruleset import (
    ChooseAction,
    Finished,
    Rules,
    Ruleset,
    example_scenarios,
    get_ruleset,
    rulesets,
)
from tactica.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.stats import battle_stats

SEEDS = (0, 1)
MAX_STEPS = 20_000

RULESETS = {rs.meta.name: rs for rs in rulesets()}
CASES = [
    pytest.param(name, path, id=f"{name}:{path.name}")
    for name in sorted(RULESETS)
    for path in example_scenarios(RULESETS[name])
]


class CheckedDice:
    """Sampled dice (faces rolled) that check every roll request as it is met."""

    def __init__(self, seed: int) -> None:
        self.inner = SampledDice(np.random.default_rng([seed, 7]), faces=True)
        self.requests = 0

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        self.requests += 1
        probs = [p for _, p in request.dist.items()]
        assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in probs), request.label
        assert sum(probs) == 1, f"roll {request.label!r}: outcomes sum to {sum(probs)}"
        value, faces = self.inner.roll(request)
        assert request.dist.p(value) > 0, f"roll {request.label!r} gave impossible {value!r}"
        if faces is not None:
            assert len(faces) == len(request.dice)
            assert request.value_from_faces(faces) == value
        return value, faces


@functools.cache
def scenario(path: Path) -> Scenario:
    return load_scenario(path)


def policies_for(rs: Ruleset, sc: Scenario, kind: str) -> dict[str, Any]:
    sides = rs.sides_of(sc.new_state())
    if kind == "random":
        return {s: RandomPolicy(rs) for s in sides}
    return {s: GreedyPolicy(rs) if i == 0 else RandomPolicy(rs) for i, s in enumerate(sides)}


@functools.cache
def playout(path: Path, seed: int, kind: str = "random") -> tuple[Battle, int]:
    """A whole battle of the example, seeded; returns it and the number of roll requests."""
    sc = scenario(path)
    rs = sc.ruleset
    battle = Battle(rs, sc.new_state())
    rng = np.random.default_rng([seed, 3])
    dice = CheckedDice(seed)
    battle.run(policies_for(rs, sc, kind), dice=dice, rng=rng, max_steps=MAX_STEPS)
    return battle, dice.requests


def log_json(battle: Battle) -> str:
    return "\n".join(dumps(e) for e in battle.log)


def steps_of(log: list[Any]) -> list[list[Any]]:
    """The log split into steps, each ending with its Resolved marker (BattleEnded apart)."""
    out: list[list[Any]] = []
    current: list[Any] = []
    for e in log:
        if isinstance(e, BattleEnded):
            continue
        current.append(e)
        if isinstance(e, Resolved):
            out.append(current)
            current = []
    assert current == [], "the log ends inside a step"
    return out


class Recorded:
    """Answers decisions with recorded choices, in order (shared between the sides)."""

    def __init__(self, choices: list[Any]) -> None:
        self.choices = choices

    def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
        return self.choices.pop(0)


# -- metadata ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_metadata_and_rulings_are_declared(name: str) -> None:
    rs = RULESETS[name]
    meta = rs.meta
    assert meta.name == name and meta.title
    assert meta.battlefield is None or isinstance(meta.battlefield, str)
    assert get_ruleset(name) is rs
    for alias in meta.aliases:
        assert get_ruleset(alias) is rs
    ids = [r.id for r in meta.rulings]
    assert len(set(ids)) == len(ids)
    for ruling in meta.rulings:
        assert ruling.default in ruling.options, ruling.id
        assert next(iter(ruling.options)) == ruling.default, ruling.id
    assert isinstance(rs, Rules)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_game_has_an_example_scenario(name: str) -> None:
    assert example_scenarios(RULESETS[name]), f"{name} ships no example scenario"


# -- playouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "path"), CASES)
def test_random_playouts_end_and_a_finished_battle_has_no_legal_actions(name: str,
                                                                         path: Path) -> None:
    for seed in SEEDS:
        battle, requests = playout(path, seed)
        assert battle.is_over
        pending = battle.pending
        assert isinstance(pending, Finished)
        assert pending.winner is None or pending.winner in battle.ruleset.sides_of(battle.state)
        assert battle.legal_actions() == ()
        with pytest.raises(IllegalActionError):
            battle.apply(object(), dice=ScriptedDice([]))
        assert sum(isinstance(e, BattleEnded) for e in battle.log) == 1
        assert isinstance(battle.log[-1], BattleEnded)
        # CheckedDice checked every roll request met on the way (a battle may need none).
        assert requests == sum(isinstance(e, Rolled) for e in battle.log)


@pytest.mark.parametrize(("name", "path"), CASES)
def test_greedy_playouts_end(name: str, path: Path) -> None:
    battle, _ = playout(path, 0, "greedy")
    assert battle.is_over and battle.legal_actions() == ()


@pytest.mark.parametrize(("name", "path"), CASES)
def test_each_step_is_a_possible_outcome_of_its_exact_process(name: str, path: Path) -> None:
    """For the first steps of a playout: the exact distribution of the step's process sums to
    exactly 1, and the events the battle recorded are one of its outcomes."""
    battle, _ = playout(path, 0)
    rs = battle.ruleset
    state = rs.copy_state(scenario(path).new_state())
    for step in steps_of(battle.log)[:60]:
        first = step[0]
        process = (rs.resolve(state, first.action) if isinstance(first, ActionTaken)
                   else rs.pending(state).process)  # type: ignore[union-attr]
        events = tuple(e for e in step if not is_input_record(e))
        if not any(isinstance(e, Decided) for e in step):
            dist = run_exact(process, policies=FirstOption(), events=True, world=rs,
                             state=state)
            assert sum(p for _, p in dist.items()) == 1
            assert any(evs == events for (_, evs), p in dist.items() if p > 0), step
        for e in events:
            rs.apply_event(state, e)


# -- logs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "path"), CASES)
def test_the_log_replays_to_an_equal_state(name: str, path: Path) -> None:
    for seed in SEEDS:
        battle, _ = playout(path, seed)
        again, cut = Battle.replay(battle.ruleset, scenario(path).new_state(), battle.log)
        assert cut == []
        assert again.state == battle.state
        assert again.is_over and again.winner == battle.winner
        assert battle_stats(again.ruleset, again.state, again.events()) == \
            battle_stats(battle.ruleset, battle.state, battle.events())


@pytest.mark.parametrize(("name", "path"), CASES)
def test_re_resolving_each_step_with_its_recorded_rolls_gives_the_same_records(
        name: str, path: Path) -> None:
    battle, _ = playout(path, 1)
    rs = battle.ruleset
    state = rs.copy_state(scenario(path).new_state())
    for step in steps_of(battle.log):
        rolls = [list(e.faces) if e.faces is not None else e.value
                 for e in step if isinstance(e, Rolled)]
        decisions = [e.choice for e in step if isinstance(e, Decided)]

        recorded = {s: Recorded(decisions) for s in rs.sides_of(state)}
        trial = Battle(rs, rs.copy_state(state))
        dice = ScriptedDice(rolls)
        first = step[0]
        if isinstance(first, ActionTaken):
            trial.apply(first.action, dice=dice, policies=recorded)
        else:
            trial.advance(dice=dice, policies=recorded)
        redone = [e for e in trial.log if not isinstance(e, BattleEnded)]
        assert redone == step
        assert dice.remaining == [] and decisions == []
        state = trial.state


@pytest.mark.parametrize(("name", "path"), CASES)
def test_the_same_seed_gives_the_same_log_byte_for_byte(name: str, path: Path) -> None:
    battle, _ = playout(path, 0)
    playout.cache_clear()
    again, _ = playout(path, 0)
    assert again is not battle
    assert log_json(again) == log_json(battle)
    other, _ = playout(path, 1)
    assert log_json(other) != log_json(battle) or len(battle.log) < 10


@pytest.mark.parametrize(("name", "path"), CASES)
def test_every_record_of_the_log_round_trips_and_reads_as_words(name: str,
                                                                  path: Path) -> None:
    battle, _ = playout(path, 0)
    rs = battle.ruleset
    state = battle.state
    for e in battle.log:
        assert from_json(json.loads(json.dumps(to_json(e)))) == e
        if isinstance(e, ActionTaken):
            assert rs.describe_action(state, e.action)
        elif not is_input_record(e):
            assert rs.describe_event(state, e)


@pytest.mark.parametrize(("name", "path"), CASES)
def test_the_scenario_data_round_trips(name: str, path: Path) -> None:
    sc = scenario(path)
    again = scenario_from_mapping(sc.data, source=sc.source, base_dir=path.parent)
    assert again.ruleset is sc.ruleset
    assert again.rulings == sc.rulings
    assert again.max_rounds == sc.max_rounds
    assert again.new_state() == sc.new_state()
    original, _ = playout(path, 0)
    rng = np.random.default_rng([0, 3])
    battle = Battle(again.ruleset, again.new_state())
    battle.run(policies_for(again.ruleset, again, "random"), dice=CheckedDice(0), rng=rng,
               max_steps=MAX_STEPS)
    assert log_json(battle) == log_json(original)


@pytest.mark.parametrize(("name", "path"), CASES)
def test_a_battle_starts_where_someone_must_act_or_something_happens(name: str,
                                                                      path: Path) -> None:
    sc = scenario(path)
    battle = Battle(sc.ruleset, sc.new_state())
    assert not battle.is_over
    pending = battle.pending
    if isinstance(pending, ChooseAction):
        assert pending.actions and pending.side in sc.ruleset.sides_of(battle.state)
    stats = battle_stats(sc.ruleset, battle.state, [])
    assert stats.rounds == 0 and set(stats.units) == {u.id for u in sc.ruleset.units(battle.state)}
