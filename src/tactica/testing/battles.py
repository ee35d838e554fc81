"""The conformance checks of one scenario through the core: battles, logs, copies, odds.

Part of :func:`tactica.testing.check_game`; each ``check_*`` method raises an AssertionError
saying what is wrong.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import numpy as np

from tactica.engine.battle import Battle, Resolved, SampledDice, ScriptedDice, is_input_record
from tactica.engine.chance import Decide, FirstOption, Roll, run_exact, run_sampled
from tactica.engine.errors import IllegalActionError, TacticaError
from tactica.engine.events import (
    Action,
    ActionTaken,
    BattleEnded,
    Damaged,
    Decided,
    Event,
    OutOfAction,
    Rolled,
    dumps,
    from_json,
    to_json,
)
from tactica.engine.policies import RandomPolicy, default_policy, make_policy
from tactica.engine.ruleset import Capability, ChooseAction, Finished, Ruleset, odds_hooks
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.engine.stats import battle_stats
from tactica.testing.claims import inconsistent_claims, odds_claims, unexplained_certainties

__all__ = ["BattleChecks"]

#: The most steps a checked playout may take before it counts as endless.
MAX_STEPS = 20_000
#: How many steps of a playout are checked against their exact process.
EXACT_STEPS = 60
#: Samples per action in the check of exact odds against sampling, and the tolerance in
#: standard errors.
SAMPLES = 200
TOLERANCE = 5.0
#: How many of a scenario's odds reports the check of their claims compares with the process.
CLAIMS = 6


class _CheckedDice:
    """Sampled dice (faces rolled) that check every roll request as it is met."""

    def __init__(self, seed: int) -> None:
        self.inner = SampledDice(np.random.default_rng([seed, 7]), faces=True)
        self.requests = 0

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        self.requests += 1
        probs = [p for _, p in request.dist.items()]
        assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in probs), \
            f"roll {request.label!r}: a probability is not an exact fraction in [0, 1]"
        assert sum(probs) == 1, f"roll {request.label!r}: the outcomes sum to {sum(probs)}"
        value, faces = self.inner.roll(request)
        assert request.dist.p(value) > 0, f"roll {request.label!r} gave impossible {value!r}"
        if faces is not None:
            assert len(faces) == len(request.dice), \
                f"roll {request.label!r}: {len(faces)} faces for {len(request.dice)} dice"
            assert request.value_from_faces(faces) == value, \
                f"roll {request.label!r}: the faces {faces} do not read as {value!r}"
        return value, faces


class _Recorded:
    """Answers decisions with recorded choices, in order (shared between the sides)."""

    def __init__(self, choices: list[Any]) -> None:
        self.choices = choices

    def choose(self, decision: Decide[Any], state: Any, rng: Any) -> Any:
        return self.choices.pop(0)


def _log_json(battle: Battle[Any]) -> str:
    return "\n".join(dumps(e) for e in battle.log)


def _steps_of(log: Sequence[Any]) -> list[list[Any]]:
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


class BattleChecks:
    """The checks of a scenario through the core, with the seeded playouts they share."""

    def __init__(self, game: Ruleset, seeds: tuple[int, ...]) -> None:
        self.game = game
        self.seeds = seeds
        self._playouts: dict[tuple[Path, int, str], tuple[Battle[Any], int]] = {}
        self._scenarios: dict[Path, Scenario] = {}

    def scenario(self, path: Path) -> Scenario:
        if path not in self._scenarios:
            self._scenarios[path] = load_scenario(path)
        return self._scenarios[path]

    def policies(self, sc: Scenario, kind: str) -> dict[str, Any]:
        sides = self.game.sides_of(sc.new_state())
        if kind == "random":
            return {s: RandomPolicy(self.game) for s in sides}
        default = default_policy(self.game)
        return {s: make_policy(default, self.game) if i == 0 else RandomPolicy(self.game)
                for i, s in enumerate(sides)}

    def playout(self, path: Path, seed: int, kind: str = "random", *,
                fresh: bool = False) -> tuple[Battle[Any], int]:
        """A whole seeded battle of the scenario and the number of roll requests met."""
        key = (path, seed, kind)
        if fresh or key not in self._playouts:
            sc = self.scenario(path)
            battle = Battle(self.game, sc.new_state())
            dice = _CheckedDice(seed)
            battle.run(self.policies(sc, kind), dice=dice, rng=np.random.default_rng([seed, 3]),
                       max_steps=MAX_STEPS)
            if fresh:
                return battle, dice.requests
            self._playouts[key] = (battle, dice.requests)
        return self._playouts[key]

    def check_start(self, path: Path) -> None:
        sc = self.scenario(path)
        assert sc.ruleset is self.game, f"the scenario is a {sc.ruleset.meta.name} scenario"
        battle = Battle(self.game, sc.new_state())
        assert not battle.is_over, "the battle is over before it starts"
        pending = battle.pending
        if isinstance(pending, ChooseAction):
            assert pending.actions, "the first side to act has no action"
            assert pending.side in self.game.sides_of(battle.state), \
                f"{pending.side!r} acts but is no side of the battle"
        stats = battle_stats(self.game, battle.state, [])
        assert stats.rounds == 0
        assert set(stats.units) == {u.id for u in self.game.units(battle.state)}
        while not battle.legal_actions() and not battle.is_over:
            try:
                battle.advance(dice=ScriptedDice([]))
            except TacticaError:
                break  # a first step that rolls: the actions come later
        bad = [a for a in battle.legal_actions() if not isinstance(a, Action)]
        assert not bad, f"{bad[0]!r} is not a tactica.engine.events.Action"

    def check_random_playouts(self, path: Path) -> None:
        for seed in self.seeds:
            battle, requests = self.playout(path, seed)
            assert battle.is_over, f"seed {seed}: no end after {MAX_STEPS} steps"
            pending = battle.pending
            assert isinstance(pending, Finished)
            assert pending.winner is None or pending.winner in self.game.sides_of(battle.state), \
                f"seed {seed}: the winner {pending.winner!r} is no side"
            assert battle.legal_actions() == (), f"seed {seed}: a finished battle has actions"
            try:
                battle.apply(cast(Action, object()), dice=ScriptedDice([]))
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"seed {seed}: a finished battle accepted an action")
            ended = sum(isinstance(e, BattleEnded) for e in battle.log)
            assert ended == 1 and isinstance(battle.log[-1], BattleEnded), \
                f"seed {seed}: the log must end with one battle-ended record"
            assert requests == sum(isinstance(e, Rolled) for e in battle.log), \
                f"seed {seed}: the log does not record every roll"

    def check_default_playout(self, path: Path) -> None:
        battle, _ = self.playout(path, self.seeds[0], "default")
        assert battle.is_over and battle.legal_actions() == (), \
            f"the {default_policy(self.game)} policy does not end the battle"

    def check_exact_steps(self, path: Path) -> None:
        """For the first steps of a playout: the exact distribution of the step's process
        sums to exactly 1, and the events the battle recorded are one of its outcomes."""
        battle, _ = self.playout(path, self.seeds[0])
        rs = self.game
        state = rs.copy_state(self.scenario(path).new_state())
        for i, step in enumerate(_steps_of(battle.log)[:EXACT_STEPS]):
            first = step[0]
            if isinstance(first, ActionTaken):
                process = rs.resolve(state, first.action)
            else:
                pending = rs.pending(state)
                assert not isinstance(pending, (ChooseAction, Finished)), \
                    f"step {i}: the log runs a step where the game waits for an action"
                process = pending.process
            events = tuple(e for e in step if not is_input_record(e))
            if not any(isinstance(e, Decided) for e in step):
                dist = run_exact(process, policies=FirstOption(), events=True, world=rs,
                                 state=state)
                total = sum(p for _, p in dist.items())
                assert total == 1, f"step {i}: the exact outcomes sum to {total}"
                assert any(evs == events for (_, evs), p in dist.items() if p > 0), \
                    f"step {i}: what the battle recorded is no outcome of its exact process"
            for e in events:
                rs.apply_event(state, e)

    def check_replay(self, path: Path) -> None:
        for seed in self.seeds:
            battle, _ = self.playout(path, seed)
            again, cut = Battle.replay(self.game, self.scenario(path).new_state(), battle.log)
            assert cut == [], f"seed {seed}: the replay left {len(cut)} records over"
            assert again.state == battle.state, f"seed {seed}: the replayed state differs"
            assert again.is_over and again.winner == battle.winner
            assert battle_stats(self.game, again.state, again.events()) == \
                battle_stats(self.game, battle.state, battle.events()), \
                f"seed {seed}: the replay's statistics differ"

    def check_state_copies(self, path: Path) -> None:
        """A copy is independent: the events of each step, applied to a copy, leave the
        original as it was (a field ``copy_state`` forgets is shared, and changes both)."""
        rs = self.game
        battle, _ = self.playout(path, self.seeds[0])
        sc = self.scenario(path)
        state, twin = sc.new_state(), sc.new_state()
        for i, step in enumerate(_steps_of(battle.log)[:EXACT_STEPS]):
            events = [e for e in step if not is_input_record(e)]
            copy = rs.copy_state(state)
            assert copy is not state, "copy_state returned the state itself"
            for e in events:
                rs.apply_event(copy, e)
            assert state == twin, (f"step {i}: applying its events to a copy changed the "
                                   "original (copy_state shares a mutable field)")
            for e in events:
                rs.apply_event(state, e)
                rs.apply_event(twin, e)
            assert copy == state, f"step {i}: the copy and the original differ after the step"

    def check_re_resolve(self, path: Path) -> None:
        rs = self.game
        battle, _ = self.playout(path, self.seeds[-1])
        state = rs.copy_state(self.scenario(path).new_state())
        for i, step in enumerate(_steps_of(battle.log)):
            rolls = [list(e.faces) if e.faces is not None else e.value
                     for e in step if isinstance(e, Rolled)]
            decisions = [e.choice for e in step if isinstance(e, Decided)]
            recorded = {s: _Recorded(decisions) for s in rs.sides_of(state)}
            trial = Battle(rs, rs.copy_state(state))
            dice = ScriptedDice(rolls)
            first = step[0]
            if isinstance(first, ActionTaken):
                trial.apply(first.action, dice=dice, policies=recorded)
            else:
                trial.advance(dice=dice, policies=recorded)
            redone = [e for e in trial.log if not isinstance(e, BattleEnded)]
            assert redone == step, f"step {i}: re-resolved with its rolls, it records otherwise"
            assert dice.remaining == [] and decisions == [], \
                f"step {i}: re-resolving left rolls or decisions unused"
            state = trial.state

    def check_same_seed(self, path: Path) -> None:
        battle, _ = self.playout(path, self.seeds[0])
        again, _ = self.playout(path, self.seeds[0], fresh=True)
        assert _log_json(again) == _log_json(battle), "the same seed wrote another log"
        if len(self.seeds) > 1:
            other, _ = self.playout(path, self.seeds[1])
            assert _log_json(other) != _log_json(battle) or len(battle.log) < 10, \
                "two seeds wrote the same long log"

    def check_records(self, path: Path) -> None:
        battle, _ = self.playout(path, self.seeds[0])
        state = battle.state
        for e in battle.log:
            assert from_json(json.loads(json.dumps(to_json(e)))) == e, \
                f"{type(e).__name__} does not round-trip through JSON"
            if isinstance(e, ActionTaken):
                assert self.game.describe_action(state, e.action), \
                    f"{e.action!r} has no description"
            elif not is_input_record(e):
                assert self.game.describe_event(state, cast(Event, e)), f"{e!r} has no description"

    def check_round_trip(self, path: Path) -> None:
        sc = self.scenario(path)
        again = scenario_from_mapping(sc.data, source=sc.source, base_dir=path.parent)
        assert again.ruleset is sc.ruleset
        assert again.rulings == sc.rulings, "the rulings differ after a round trip"
        assert again.max_rounds == sc.max_rounds
        assert again.new_state() == sc.new_state(), "the starting state differs"
        original, _ = self.playout(path, 0)
        battle = Battle(again.ruleset, again.new_state())
        battle.run(self.policies(again, "random"), dice=_CheckedDice(0),
                   rng=np.random.default_rng([0, 3]), max_steps=MAX_STEPS)
        assert _log_json(battle) == _log_json(original), \
            "the round-tripped scenario plays another battle"

    def check_exact_against_sampled(self, path: Path) -> None:
        """The exact outcome distribution of a few actions whose odds the game gives, against
        a seeded sample of the same process: damage dealt and the chance that someone drops
        out agree within :data:`TOLERANCE` standard errors."""
        if not self.game.meta.has(Capability.ODDS):
            return
        hooks = odds_hooks(self.game)
        state = self.scenario(path).new_state()
        choices = [c for u in self.game.units(state) if u.in_action
                   for c in hooks.choices(state, u.id)][:2]
        for n, choice in enumerate(choices):
            report = hooks.odds(state, choice.action)
            for key, value in report.numbers.items():
                if key.startswith("p_"):
                    assert 0 <= value <= 1, f"{choice.means}: {key} = {value} is no probability"
            exact = run_exact(self.game.resolve(state, choice.action), policies=FirstOption(),
                              events=True, world=self.game, state=state)
            rng = np.random.default_rng([n, 11])
            samples = [run_sampled(self.game.resolve(state, choice.action), rng,
                                   policies=FirstOption(), world=self.game, state=state).events
                       for _ in range(SAMPLES)]
            for what, measure in (("damage dealt", _damage), ("out of action", _out)):
                dist = [(float(measure(evs)), float(p)) for (_, evs), p in exact.items()]
                mean = sum(v * p for v, p in dist)
                sd = math.sqrt(max(0.0, sum(p * (v - mean) ** 2 for v, p in dist)))
                seen = sum(float(measure(evs)) for evs in samples) / SAMPLES
                error = sd / math.sqrt(SAMPLES)
                assert abs(seen - mean) <= TOLERANCE * error + 1e-9, (
                    f"{choice.unit} -> {', '.join(choice.targets)} ({choice.means}): exact "
                    f"{what} {mean:.4f}, sampled {seen:.4f} (standard error {error:.4f})")


    def check_odds_claims(self, path: Path) -> None:
        """What the game's odds reports claim against the outcomes of its own process
        (:func:`~tactica.testing.claims.odds_claims`): for the first :data:`CLAIMS` actions
        whose odds the game gives, the damage distribution, expected damage and chance of
        dropping out equal the process's, exactly where it can be enumerated, else within an
        interval of a seeded sample; every probability of 0 or 1 says why. A game whose
        reports read the process otherwise gives its reading (``Odds.reading``: the process,
        the answers to its decisions, what an outcome's damage and dropping out are) and is
        compared through it; one that only says how in words (``Odds.reads``) is held to
        reports that do not contradict themselves."""
        if not self.game.meta.has(Capability.ODDS):
            return
        hooks = odds_hooks(self.game)
        state = self.scenario(path).new_state()
        choices = [c for u in self.game.units(state) if u.in_action
                   for c in hooks.choices(state, u.id)][:CLAIMS]
        reads = getattr(hooks, "reads", None)
        read_by = getattr(hooks, "reading", None)
        problems = []
        for n, choice in enumerate(choices):
            report = hooks.odds(state, choice.action)
            reading = read_by(state, choice.action) if read_by is not None else None
            if reads and read_by is None:
                found = unexplained_certainties(report) + inconsistent_claims(report)
            elif reading is not None:
                found = odds_claims(report, reading.process, world=self.game,
                                    state=state if reading.state is None else reading.state,
                                    seed=n, policies=reading.policies, damage=reading.damage,
                                    out=reading.out)
            else:
                found = odds_claims(report, functools.partial(self.game.resolve, state,
                                                              choice.action),
                                    world=self.game, state=state, seed=n)
            problems += [f"{choice.unit} -> {', '.join(choice.targets)} ({choice.means}): "
                         f"{problem}" for problem in found]
        assert not problems, "; ".join(problems)


def _damage(events: Sequence[Any]) -> int:
    return sum(e.amount for e in events if isinstance(e, Damaged))


def _out(events: Sequence[Any]) -> bool:
    return any(isinstance(e, OutOfAction) for e in events)
