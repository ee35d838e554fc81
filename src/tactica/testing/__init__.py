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
* odds claims: what each of those odds reports claims (its damage distribution, expected
  damage, chance of dropping out) is what the game's own process does, exactly where the
  process can be enumerated, else within the interval of a seeded sample, read the way the
  game's ``Odds.reading`` says its reports read the process where it gives one; and every
  probability of exactly 0 or 1 carries a ``why`` (:mod:`tactica.testing.claims`);
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
import tempfile
import traceback
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tactica.engine.errors import TacticaError
from tactica.engine.game import Game
from tactica.engine.ruleset import (
    Ruleset,
    example_scenarios,
    get_ruleset,
    register,
    unregister,
)
from tactica.testing.battles import BattleChecks
from tactica.testing.commands import CommandChecks

__all__ = ["CHECKS", "CheckReport", "ConformanceError", "check_game"]

#: The checks, in the order they run (per scenario after the first two).
CHECKS = ("declaration", "examples", "start", "random playouts", "default policy playout",
          "exact steps", "replay", "state copies", "re-resolve", "same seed", "records",
          "scenario round trip", "exact against sampled", "odds claims", "validate", "map",
          "sight", "odds", "simulate each ruling option", "play and resume")


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
    assert isinstance(game, Game), "the game is not declared as a tactica.engine.game.Game"


def _has_examples(game: Ruleset, paths: Sequence[Path]) -> None:
    assert paths, (f"{game.meta.title} ships no example scenario (a YAML file with "
                   f"'game: {game.meta.name}' in the folder meta.examples beside its module)")


# --------------------------------------------------------------------------------------------
# The sweep


class _Sweep(BattleChecks, CommandChecks):
    """Runs the checks by name, each failure kept with its name and scenario."""

    def __init__(self, game: Ruleset, workdir: Path, seeds: tuple[int, ...],
                 checks: Collection[str] | None) -> None:
        super().__init__(game, seeds)
        self.checks = set(CHECKS if checks is None else checks)
        self.workdir = workdir
        self.report = CheckReport(game.meta.name, ())
        self.failures: list[str] = []

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
            ("odds claims", self.check_odds_claims),
        ):
            self.run(name, where, functools.partial(check, path))

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
