"""``check_game(game)``: the conformance sweep any game runs, in the tree or installed with pip.

A game's tests call it once (from pytest or any other runner)::

    from tactica.testing import check_game
    from my_duel import DUEL

    def test_duel_conforms(tmp_path):
        check_game(DUEL, workdir=tmp_path)

It takes every example scenario of the game (or the ``scenarios`` given) through the core and
through every command, like a new user would, and checks what the core promises:

* the declaration: metadata, rulings with their defaults first, names and aliases;
* battles: a battle starts where someone must act or something happens; seeded random playouts
  and a playout by the game's default policy end, and a finished battle has no legal actions;
  a state copy is independent of its original (``copy_state`` forgets no mutable field);
  every roll's outcomes sum to exactly 1 and what was rolled is possible; each step is one of
  the outcomes of its exact process; the log replays to an equal state; re-resolving a step
  with its recorded rolls and decisions writes the same records; the same seed writes the same
  log byte for byte; every record round-trips through JSON and reads as words; the scenario's
  data round-trips into a scenario that plays the same battle;
* exact against sampled: for actions whose odds the game gives, the exact outcome
  distribution and a seeded sample of the same process agree within a few standard errors;
* the commands: ``validate``, ``map``, ``sight`` between two units, ``odds --table`` and each
  odds option the game declares, ``simulate`` under each ruling option (on the first
  scenario), a computer ``play`` to the end and ``play --resume`` from a log cut in half. What
  a game does not declare must be refused with one ``error:`` line and exit code 2.

Every check runs; the failures are raised together as one :class:`ConformanceError` (an
``AssertionError``) naming each check, the scenario and what went wrong. The work is bounded
(two seeds, the first steps of a playout checked exactly, a few battles per command), so a
game's test suite can afford it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import sys
import tempfile
import traceback
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import numpy as np

from tactica.battle import Battle, Resolved, SampledDice, ScriptedDice, is_input_record
from tactica.chance import Decide, FirstOption, Roll, run_exact, run_sampled
from tactica.errors import IllegalActionError, TacticaError
from tactica.events import (
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
from tactica.policies import RandomPolicy, default_policy, make_policy
from tactica.ruleset import (
    Capability,
    ChooseAction,
    Finished,
    Rules,
    Ruleset,
    example_scenarios,
    get_ruleset,
    odds_hooks,
    register,
    unregister,
)
from tactica.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.stats import battle_stats

__all__ = ["CHECKS", "CheckReport", "ConformanceError", "check_game"]

#: The most steps a checked playout may take before it counts as endless.
MAX_STEPS = 20_000
#: How many steps of a playout are checked against their exact process.
EXACT_STEPS = 60
#: Samples per action in the check of exact odds against sampling, and the tolerance in
#: standard errors.
SAMPLES = 200
TOLERANCE = 5.0


#: The checks, in the order they run (per scenario after the first two).
CHECKS = ("declaration", "examples", "start", "random playouts", "default policy playout",
          "exact steps", "replay", "state copies", "re-resolve", "same seed", "records",
          "scenario round trip", "exact against sampled", "validate", "map", "sight", "odds",
          "simulate each ruling option", "play and resume")


class ConformanceError(AssertionError):
    """A game failed one or more conformance checks; the message names each."""


@dataclass
class CheckReport:
    """What :func:`check_game` checked: the game, the scenarios and each check that passed
    (``"replay: duel.yaml"``)."""

    game: str
    scenarios: tuple[Path, ...]
    passed: list[str] = field(default_factory=list)


def check_game(game: Ruleset, *, scenarios: Sequence[str | Path] | None = None,
               seeds: Sequence[int] = (0, 1), workdir: str | Path | None = None,
               commands: bool = True, checks: Collection[str] | None = None) -> CheckReport:
    """Run the conformance sweep over ``game`` and its example scenarios (or ``scenarios``:
    scenario files of this game); raise :class:`ConformanceError` naming every check that
    failed, or return what passed.

    ``seeds`` are the seeds of the random playouts; ``workdir`` is where the commands write
    their files (default: a temporary folder, removed afterwards); ``commands=False`` skips
    the command line checks; ``checks`` runs only the checks of these names (:data:`CHECKS`).
    A game that is not registered is registered for the sweep and forgotten afterwards.
    """
    unknown = sorted(set(checks or ()) - set(CHECKS))
    if unknown:
        raise ValueError(f"check_game: no check {unknown[0]!r} (the checks: {', '.join(CHECKS)})")
    name = game.meta.name
    added = _ensure_registered(game)
    try:
        with contextlib.ExitStack() as stack:
            if workdir is None:
                workdir = stack.enter_context(tempfile.TemporaryDirectory(prefix="tactica-"))
            sweep = _Sweep(game, Path(workdir), tuple(seeds), checks)
            paths = (tuple(Path(p) for p in scenarios) if scenarios is not None
                     else example_scenarios(game))
            sweep.run("declaration", "", lambda: _declaration(game))
            sweep.run("examples", "", lambda: _has_examples(game, paths))
            for path in paths:
                sweep.scenario_checks(path)
                if commands:
                    sweep.command_checks(path, first=path == paths[0])
    finally:
        if added:
            unregister(name)
    if sweep.failures:
        raise ConformanceError(
            f"check_game({name}): {len(sweep.failures)} of "
            f"{len(sweep.failures) + len(sweep.report.passed)} checks failed\n"
            + "\n".join(sweep.failures))
    sweep.report.scenarios = paths
    return sweep.report


def _ensure_registered(game: Ruleset) -> bool:
    try:
        found = get_ruleset(game.meta.name)
    except TacticaError:
        register(game)
        return True
    if found is not game:
        raise ConformanceError(f"check_game({game.meta.name}): another game object is "
                               f"registered under that name ({type(found).__name__})")
    return False


# --------------------------------------------------------------------------------------------
# The game's declaration


def _declaration(game: Ruleset) -> None:
    meta = game.meta
    assert meta.name and meta.title, "meta.name and meta.title must be set"
    assert meta.battlefield is None or isinstance(meta.battlefield, str)
    assert get_ruleset(meta.name) is game, f"get_ruleset({meta.name!r}) is another game"
    for alias in meta.aliases:
        assert get_ruleset(alias) is game, f"the alias {alias!r} names another game"
    ids = [r.id for r in meta.rulings]
    assert len(set(ids)) == len(ids), f"a ruling id is declared twice: {ids}"
    for ruling in meta.rulings:
        assert ruling.default in ruling.options, f"{ruling.id}: the default is no option"
        assert next(iter(ruling.options)) == ruling.default, \
            f"{ruling.id}: the default must be the first option"
    assert isinstance(game, Rules), "the game lacks a core hook"


def _has_examples(game: Ruleset, paths: Sequence[Path]) -> None:
    assert paths, (f"{game.meta.title} ships no example scenario (a YAML file with "
                   f"'game: {game.meta.name}' in the folder meta.examples beside its module)")


# --------------------------------------------------------------------------------------------
# Battles


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


class _Sweep:
    def __init__(self, game: Ruleset, workdir: Path, seeds: tuple[int, ...],
                 checks: Collection[str] | None) -> None:
        self.game = game
        self.checks = set(CHECKS if checks is None else checks)
        self.workdir = workdir
        self.seeds = seeds
        self.report = CheckReport(game.meta.name, ())
        self.failures: list[str] = []
        self._playouts: dict[tuple[Path, int, str], tuple[Battle[Any], int]] = {}
        self._scenarios: dict[Path, Scenario] = {}

    def run(self, check: str, where: str, body: Callable[[], None]) -> None:
        if check not in self.checks:
            return
        label = f"{check}: {where}" if where else check
        try:
            body()
        except Exception as exc:  # every check runs; each failure is reported with its name
            detail = str(exc) or type(exc).__name__
            if not isinstance(exc, AssertionError):
                tail = traceback.extract_tb(exc.__traceback__)[-1]
                detail = (f"{type(exc).__name__}: {detail} "
                          f"({Path(tail.filename).name}:{tail.lineno})")
            self.failures.append(f"  {label}: {detail}")
        else:
            self.report.passed.append(label)

    # -- helpers

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

    # -- the checks of one scenario, through the core

    def scenario_checks(self, path: Path) -> None:
        where = path.name
        for name, check in (
            ("start", self.check_start),
            ("random playouts", self.check_random_playouts),
            ("default policy playout", self.check_default_playout),
            ("exact steps", self.check_exact_steps),
            ("replay", self.check_replay),
            ("state copies", self.check_state_copies),
            ("re-resolve", self.check_re_resolve),
            ("same seed", self.check_same_seed),
            ("records", self.check_records),
            ("scenario round trip", self.check_round_trip),
            ("exact against sampled", self.check_exact_against_sampled),
        ):
            self.run(name, where, functools.partial(check, path))

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
        assert not bad, f"{bad[0]!r} is not a tactica.events.Action"

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
                   for c in hooks.odds_choices(state, u.id)][:2]
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

    # -- the checks of one scenario, through the command line

    def command_checks(self, path: Path, *, first: bool) -> None:
        where = path.name
        checks: list[tuple[str, Callable[[Path], None]]] = [
            ("validate", self.check_validate),
            ("map", self.check_map),
            ("sight", self.check_sight),
            ("odds", self.check_odds),
        ]
        if first:
            checks.append(("simulate each ruling option", self.check_simulate))
        checks.append(("play and resume", self.check_play))
        for name, check in checks:
            self.run(name, where, functools.partial(check, path))

    def check_validate(self, path: Path) -> None:
        code, out, err = _cli("validate", path)
        assert code == 0, f"validate failed: {err.strip()}"
        assert "valid" in out and self.game.meta.title in out, f"validate said {out!r}"

    def check_map(self, path: Path) -> None:
        svg = self.workdir / f"{path.stem}.map.svg"
        code, _, err = _cli("map", path, "--svg", svg)
        if self.game.meta.battlefield is None and self.scenario(path).battlefield is None:
            assert "played without a map" in _one_line_error(code, err)
            return
        assert code == 0, f"map --svg failed: {err.strip()}"
        assert "<svg" in svg.read_text(encoding="utf-8"), "map --svg wrote no SVG"
        code, out, err = _cli("map", path)
        assert code == 0 and out.strip(), f"map failed: {err.strip()}"

    def check_sight(self, path: Path) -> None:
        state = self.scenario(path).new_state()
        units = [u for u in self.game.units(state) if u.in_action]
        a = units[0]
        others = [u for u in units if u.side != a.side]
        assert others, "every unit in action is on one side"
        code, out, err = _cli("sight", path, a.id, others[0].id, "--json")
        if not self.game.meta.has(Capability.SIGHT):
            line = _one_line_error(code, err)
            assert self.game.meta.title in line and "no sight" in line, line
            return
        if self.scenario(path).battlefield is None:  # a game whose map is optional, without
            assert "without a map" in _one_line_error(code, err)
            return
        assert code == 0, f"sight failed: {err.strip()}"
        report = json.loads(out)
        assert {"visible", "cover", "range", "reasons"} <= set(report), sorted(report)
        assert isinstance(report["cover"], int) and not isinstance(report["cover"], bool), \
            "sight: cover must be a whole number (a count of cover modifiers)"

    def check_odds(self, path: Path) -> None:
        from tactica.odds import COMMON_KEYS

        meta = self.game.meta
        code, out, err = _cli("odds", path, "--table", "--json")
        if not meta.has(Capability.ODDS):
            assert "has no odds" in _one_line_error(code, err)
            return
        assert code == 0, f"odds --table failed: {err.strip()}"
        rows = json.loads(out)
        assert rows, f"no unit of {path.name} can act on anyone"
        for row in rows:
            missing = set(COMMON_KEYS) - set(row)
            assert not missing, f"odds --table: a row lacks {sorted(missing)}"
            assert 0 <= row["p_out_of_action"] <= 1
        a, t = rows[0]["attacker"], rows[0]["target"]
        code, out, err = _cli("odds", path, "-a", a, "-t", t, "--json")
        assert code == 0, f"odds -a {a} -t {t} failed: {err.strip()}"
        assert set(COMMON_KEYS) <= set(json.loads(out))
        for option in meta.odds_options:
            if option.takes_value and not option.choices:
                continue  # a free value: the game's own tests cover it
            flag = [f"--{option.name}", *([option.choices[0]] if option.takes_value else [])]
            code, out, err = _cli("odds", path, "--table", "--json", *flag)
            assert code == 0, f"odds --table {' '.join(flag)} failed: {err.strip()}"
        line = _one_line_error(*_cli("odds", path, "-a", a, "-t", t, "--no-such-option")[::2])
        assert "--no-such-option" in line and meta.title in line, line

    def check_simulate(self, path: Path) -> None:
        code, out, err = _cli("simulate", path, "-n", "2", "--seed", "5", "-j", "1", "--json")
        assert code == 0, f"simulate failed: {err.strip()}"
        base = json.loads(out)
        assert base["battles"] == 2
        assert set(base["policies"].values()) == {default_policy(self.game)}, \
            f"the report names the policies {base['policies']}"
        for ruling in self.game.meta.rulings:
            for option in list(ruling.options)[1:]:
                code, out, err = _cli("simulate", path, "-n", "1", "--seed", "5", "-j", "1",
                                      "--json", "--rulings", f"{ruling.id}={option}")
                assert code == 0, f"{ruling.id}={option}: {err.strip()}"
                assert json.loads(out)["rulings"][ruling.id] == option

    def check_play(self, path: Path) -> None:
        sides = self.game.sides_of(self.scenario(path).new_state())
        computer = [arg for side in sides for arg in ("--computer", side)]
        log = self.workdir / f"{path.stem}.fight.jsonl"
        log.unlink(missing_ok=True)
        code, out, err = _cli("play", path, "--log", log, "--auto-dice", "--seed", "9",
                              *computer)
        assert code == 0, f"play failed: {err.strip()}"
        assert "The battle is over" in out, "play by the computer did not reach the end"
        whole = log.read_text(encoding="utf-8").splitlines()
        assert json.loads(whole[-1])["type"] == "battle-ended", "the log does not end the fight"
        cut = self.workdir / f"{path.stem}.cut.jsonl"
        cut.write_text("\n".join(whole[: max(2, len(whole) // 2)]) + "\n", encoding="utf-8")
        code, out, err = _cli("play", "--resume", cut, "--auto-dice")
        assert code == 0, f"play --resume failed: {err.strip()}"
        assert cut.read_text(encoding="utf-8").splitlines() == whole, \
            "the resumed fight wrote another log than the whole one"


def _damage(events: Sequence[Any]) -> int:
    return sum(e.amount for e in events if isinstance(e, Damaged))


def _out(events: Sequence[Any]) -> bool:
    return any(isinstance(e, OutOfAction) for e in events)


# --------------------------------------------------------------------------------------------
# The command line, in this process


@contextlib.contextmanager
def _nobody_at_the_table() -> Iterator[None]:
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        sys.stdin = stdin


def _cli(*args: str | Path) -> tuple[int, str, str]:
    from tactica.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _nobody_at_the_table():
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def _one_line_error(code: int, err: str) -> str:
    assert code == 2, f"expected exit code 2, got {code}: {err.strip()}"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, \
        f"expected one 'error:' line, got {err.strip()!r}"
    return lines[0]
