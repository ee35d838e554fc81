"""Kernel equivalence tests: a game's compiled kernel plays the reference's battles.

A game with a compiled simulation kernel proves it battle for battle: every example, both
policies, every option of every ruling the kernel covers, the kernel's
:class:`~tactica.engine.stats.BattleResult` equals the reference's
(:func:`tactica.analysis.simulate.play_battle`), and so do the rulings each battle consulted
when the kernel reports them. These functions are that test's machinery, shipped so that a game
installed with pip can test its own kernel::

    import pytest
    from tactica.analysis.sim.kernels import prepared_kernel
    from tactica.engine.scenario import load_scenario
    from tactica.testing import kernels as kt
    from my_game import RULINGS, kernel

    VARIANTS = kt.ruling_variants(RULINGS, seed=29)

    def test_the_kernel_is_built() -> None:
        kt.require_built("my_game._kernel")

    @pytest.mark.parametrize("variant", list(VARIANTS))
    def test_the_kernel_plays_the_reference_battles(variant: str) -> None:
        kt.built_kernel(kernel)
        sc = kt.with_rulings(load_scenario("duel.yaml"), VARIANTS[variant])
        prepared = prepared_kernel(sc)
        for index in range(4):
            kt.assert_same_battle(sc, prepared, {"red": "greedy", "blue": "random"}, 1, index)

They work under any runner: a failed comparison is an ``AssertionError`` naming the scenario,
policies, seed, battle and the first field that differs; a kernel that was not built (and may
not be) raises :class:`unittest.SkipTest`, which pytest and unittest report as a skip.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import random
import unittest
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

from tactica.analysis.sim.kernels import (
    ENVIRONMENT,
    NOT_CONSULTING,
    prepared_kernel,
    rulings_of_mask,
    simulated_battle,
)
from tactica.analysis.simulate import play_battle
from tactica.engine.errors import ScenarioError
from tactica.engine.kernels import NOT_BUILT
from tactica.engine.ruleset import NotCovered, PreparedKernel
from tactica.engine.rulings import Ruling
from tactica.engine.scenario import Scenario
from tactica.engine.stats import BattleResult

__all__ = ["MAX_STEPS", "OPTIONAL", "EngineReport", "KernelModule",
           "assert_consulted_by_kernel", "assert_covers_declared_rulings",
           "assert_reference_played", "assert_reference_when_not_consulting",
           "assert_reference_without_extension", "assert_same_battle",
           "assert_same_without_kernels", "built_kernel", "declared_option", "first_difference",
           "kernels_off", "require_built", "ruling_variants", "with_rulings",
           "without_extension"]

#: The environment variable saying a kernel may be missing (``1``: a machine without a C
#: compiler); without it a kernel that was not built fails its test.
OPTIONAL = "TACTICA_KERNELS_OPTIONAL"
#: The step budget of an equivalence battle (no example comes near it).
MAX_STEPS = 20_000


class KernelModule(Protocol):
    """A game's kernel module: ``compiled()`` is its extension, or ``None`` when not built."""

    def compiled(self) -> Any:
        """The compiled extension module, or ``None``."""
        ...


def require_built(module_name: str) -> None:
    """Import the compiled extension ``module_name``: fail (``AssertionError``) when it was not
    built, unless ``TACTICA_KERNELS_OPTIONAL=1`` says that is expected (then skip)."""
    try:
        importlib.import_module(module_name)
    except ImportError as exc:
        if os.environ.get(OPTIONAL) == "1":
            raise unittest.SkipTest(f"{OPTIONAL}=1: the compiled kernel was not built") from exc
        raise AssertionError(f"the compiled kernel {module_name} was not built ({exc}); "
                             f"build it, or set {OPTIONAL}=1 where it cannot be") from exc


def built_kernel(kernel: KernelModule) -> ModuleType:
    """The compiled extension of a game's kernel module; skip the test when it is not built
    (:func:`require_built` is the test that fails then)."""
    module = kernel.compiled()
    if module is None:
        raise unittest.SkipTest("the compiled kernel is not built")
    assert isinstance(module, ModuleType)
    return module


def assert_covers_declared_rulings(rulings: Sequence[Ruling],
                                   covered: Mapping[str, Sequence[str]]) -> None:
    """The kernel covers every option of every declared ruling, and no other."""
    declared = {r.id: set(r.options) for r in rulings}
    claimed = {k: set(v) for k, v in covered.items()}
    if declared != claimed:
        missing = sorted(f"{k}={o}" for k, v in declared.items() for o in v - claimed.get(k, set()))
        extra = sorted(f"{k}={o}" for k, v in claimed.items() for o in v - declared.get(k, set()))
        raise AssertionError(f"the kernel's covered rulings differ from the declared ones: "
                             f"not covered {missing or 'none'}, unknown {extra or 'none'}")


@contextlib.contextmanager
def declared_option(rulings: Sequence[Ruling], ruling_id: str, option: str,
                    description: str = "an option added by a test") -> Iterator[Ruling]:
    """The game's declaration of ``ruling_id`` (one of ``rulings``) has one more option,
    ``option``, for the ``with`` block (then as before): every reader of the declaration sees
    it, as when a designer adds an option to the game without touching its kernel."""
    ruling = next((r for r in rulings if r.id == ruling_id), None)
    if ruling is None:
        raise KeyError(f"no ruling {ruling_id!r} is declared")
    if option in ruling.options:
        raise ValueError(f"{ruling_id} already has the option {option!r}")
    before = ruling.options
    object.__setattr__(ruling, "options", {**before, option: description})
    try:
        yield ruling
    finally:
        object.__setattr__(ruling, "options", before)


def ruling_variants(rulings: Sequence[Ruling], *, seed: int, mixes: int = 3,
                    covered: Mapping[str, Sequence[str]] | None = None,
                    defaults: bool = True) -> dict[str, dict[str, str]]:
    """Ruling settings to play, by name: ``"defaults"`` (none chosen, when ``defaults``), each
    option other than the default on its own (``"X-9=other"``, in the order of ``covered``
    or else of the declaration), then ``mixes`` settings of every ruling drawn with ``seed``
    (``"mix0"`` ...) from its sorted options."""
    options = {r.id: list(covered[r.id] if covered is not None else r.options) for r in rulings}
    variants: dict[str, dict[str, str]] = {}
    if defaults:
        variants["defaults"] = {}
    for ruling in rulings:
        for option in options[ruling.id]:
            if option != ruling.default:
                variants[f"{ruling.id}={option}"] = {ruling.id: option}
    pick = random.Random(seed)
    for k in range(mixes):
        variants[f"mix{k}"] = {r.id: pick.choice(sorted(options[r.id])) for r in rulings}
    return variants


def with_rulings(scenario: Scenario, chosen: Mapping[str, str]) -> Scenario:
    """``scenario`` under the ruling options ``chosen`` (itself when none are). A scenario
    whose setup holds only under a ruling it sets itself (a card marked for the boxes of one
    damage rule) keeps that ruling, and the others of ``chosen`` apply; a scenario
    that is invalid under ``chosen`` for any other reason is an error, as always."""
    if not chosen:
        return scenario
    try:
        return scenario.with_rulings(dict(chosen))
    except ScenarioError:
        pinned = dict(scenario.data.get("rulings") or {})
        kept = {k: v for k, v in chosen.items() if k not in pinned}
        if kept == dict(chosen):
            raise
        return scenario.with_rulings(kept) if kept else scenario


def first_difference(got: BattleResult, want: BattleResult) -> str:
    """The first field in which two battle results differ, said for people (``""`` if none)."""
    for f in dataclasses.fields(BattleResult):
        a, b = getattr(got, f.name), getattr(want, f.name)
        if a == b:
            continue
        if f.name == "units":
            for uid in sorted(set(a) | set(b), key=str):
                if a.get(uid) != b.get(uid):
                    return f"units[{uid!r}]: kernel {a.get(uid)!r}, reference {b.get(uid)!r}"
        if f.name == "consulted":
            return (f"consulted: kernel only {sorted(a - b)}, "
                    f"reference only {sorted(b - a)}")
        return f"{f.name}: kernel {a!r}, reference {b!r}"
    return ""


def _where(scenario: Scenario, policies: Mapping[str, str], seed: int, index: int) -> str:
    name = scenario.data.get("name") or scenario.source
    chosen = scenario.rulings.changed()
    rulings = f" under {chosen}" if chosen else ""
    return (f"{name!s} ({scenario.source}){rulings}, policies {dict(policies)}, seed {seed}, "
            f"battle {index}")


def _check(got: BattleResult | NotCovered, want: BattleResult, what: str, where: str) -> None:
    if isinstance(got, NotCovered):
        raise AssertionError(f"{what} did not play {where}: {got.reason}")
    if got != want:
        raise AssertionError(f"{what} differs from the reference on {where}: "
                             f"{first_difference(got, want) or 'the results are unequal'}")


def assert_same_battle(scenario: Scenario, prepared: PreparedKernel | NotCovered,
                       policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int = MAX_STEPS, *, consulted: bool = True) -> BattleResult:
    """Battle ``index`` of ``seed`` played by the ``prepared`` kernel is the reference's:
    ``play`` gives the same result, and ``play_consulted`` (when the kernel has it and
    ``consulted``) the same result with the same rulings consulted. Returns the reference's
    result (with the rulings consulted when they were compared)."""
    where = _where(scenario, policies, seed, index)
    if isinstance(prepared, NotCovered):
        raise AssertionError(f"the kernel does not cover {where}: {prepared.reason}")
    play_consulted = getattr(prepared, "play_consulted", None) if consulted else None
    want = play_battle(scenario, policies, seed, index, max_steps=max_steps,
                       consulted=play_consulted is not None)
    plain = dataclasses.replace(want, consulted=frozenset())
    _check(prepared.play(policies, seed, index, max_steps), plain, "the kernel's play", where)
    if play_consulted is None:
        return want
    played = play_consulted(policies, seed, index, max_steps)
    if isinstance(played, NotCovered):
        raise AssertionError(f"the kernel's play_consulted did not play {where}: "
                             f"{played.reason}")
    result, mask = played
    _check(dataclasses.replace(result, consulted=rulings_of_mask(scenario, mask)), want,
           "the kernel's play_consulted", where)
    return want


def assert_consulted_by_kernel(scenario: Scenario, policies: Mapping[str, str], seed: int,
                               index: int, max_steps: int = MAX_STEPS) -> BattleResult:
    """``simulated_battle(..., consulted=True)`` is played by the kernel and equals the
    reference's battle with the rulings it consulted; returns it."""
    got, engine = simulated_battle(scenario, policies, seed, index, max_steps, consulted=True)
    where = _where(scenario, policies, seed, index)
    assert engine.is_kernel, f"the reference played {where}: {engine.reason}"
    _check(got, play_battle(scenario, policies, seed, index, max_steps=max_steps,
                            consulted=True), "the simulated battle", where)
    return got


_PLAY_CONSULTED = "play_consulted"
_COMPILED = "compiled"


@contextlib.contextmanager
def _without_play_consulted(prepared: PreparedKernel) -> Iterator[None]:
    kind = type(prepared)
    method = kind.__dict__.get(_PLAY_CONSULTED)
    if method is None:
        yield
        return
    delattr(kind, _PLAY_CONSULTED)
    try:
        yield
    finally:
        setattr(kind, _PLAY_CONSULTED, method)


def assert_reference_when_not_consulting(scenario: Scenario, policies: Mapping[str, str],
                                         seed: int, index: int,
                                         max_steps: int = MAX_STEPS) -> None:
    """A kernel without ``play_consulted`` (it is taken away from the prepared kernel's class
    for the check, and given back) leaves a battle whose consulted rulings are counted to the
    reference, and still plays the battle when they are not."""
    prepared = prepared_kernel(scenario)
    where = _where(scenario, policies, seed, index)
    if isinstance(prepared, NotCovered):
        raise AssertionError(f"the kernel does not cover {where}: {prepared.reason}")
    with _without_play_consulted(prepared):
        got, engine = simulated_battle(scenario, policies, seed, index, max_steps,
                                       consulted=True)
        assert engine.reason == NOT_CONSULTING.reason, (
            f"{where}: the reference should play, saying {NOT_CONSULTING.reason!r}, "
            f"not {engine.reason!r}")
        _check(got, play_battle(scenario, policies, seed, index, max_steps=max_steps,
                                consulted=True), "the battle the reference played", where)
        plain, engine = simulated_battle(scenario, policies, seed, index, max_steps)
        assert engine.is_kernel, f"the reference played {where}: {engine.reason}"
        _check(plain, dataclasses.replace(got, consulted=frozenset()), "the kernel's play",
               where)


# --------------------------------------------------------------------------------------------
# A kernel's limits: at a limit the kernel plays, one past it the reference plays and says why


def assert_at_and_past_limit(at: Scenario, past: Scenario, reason: str,
                             policies: Mapping[str, str], *, seed: int = 1,
                             battles: int = 2) -> None:
    """At a kernel's limit (``at``) the kernel plays ``battles`` battles equal to the
    reference's; one past it (``past``) the kernel is not prepared, its reason is ``reason``
    (which names the limit), and the reference plays the battle, counted with that reason.
    ``policies`` may name sides of ``past`` that ``at`` does not have."""
    prepared = prepared_kernel(at)
    sides = set(at.ruleset.sides_of(at.new_state()))
    for index in range(battles):
        assert_same_battle(at, prepared, {s: p for s, p in policies.items() if s in sides},
                           seed, index, consulted=False)
    beyond = prepared_kernel(past)
    assert isinstance(beyond, NotCovered), f"the kernel was prepared past its limit ({reason})"
    assert beyond.reason == reason, f"{beyond.reason!r}, expected {reason!r}"
    result, engine = simulated_battle(past, policies, seed, 0, MAX_STEPS)
    assert engine.reason == reason, f"{engine.reason!r}, expected {reason!r}"
    want = play_battle(past, policies, seed, 0, max_steps=MAX_STEPS)
    assert result == want, first_difference(result, want)


# --------------------------------------------------------------------------------------------
# Battles left to the reference, and the same numbers either way


class EngineReport(Protocol):
    """What a report of ``simulate`` says of who played its battles."""

    @property
    def engine(self) -> dict[str, Any]:
        """Battles played by the kernel and by the reference, and the reference's battles per
        reason."""
        ...

    def engine_line(self) -> str:
        """The same, in one line for people."""
        ...


def assert_reference_played(report: EngineReport, battles: int, reason: str) -> None:
    """The reference played all ``battles`` of ``report`` and its one line says ``reason``."""
    assert report.engine == {"kernel": 0, "reference": battles,
                             "reasons": {reason: battles}}, (
        f"expected the reference to play all {battles} battles, got {report.engine}")
    line = f"engine: the reference played every battle ({reason})"
    assert report.engine_line() == line, f"{report.engine_line()!r}, expected {line!r}"


@contextlib.contextmanager
def kernels_off() -> Iterator[None]:
    """``TACTICA_KERNELS=0`` in the environment for the ``with`` block (then as before)."""
    before = os.environ.get(ENVIRONMENT)
    os.environ[ENVIRONMENT] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENVIRONMENT]
        else:
            os.environ[ENVIRONMENT] = before


def assert_same_without_kernels(run: Callable[[], dict[str, Any]]
                                ) -> tuple[dict[str, Any], dict[str, int], dict[str, int]]:
    """``run()`` (a report's ``to_dict()``) gives the same numbers with kernels and with
    ``TACTICA_KERNELS=0``, its ``"engine"`` entry aside. Returns the numbers and the engine
    entries with and without kernels, for the test to check who played."""
    on = run()
    with kernels_off():
        off = run()
    engine_on, engine_off = on.pop("engine"), off.pop("engine")
    assert engine_off.get("kernel") == 0, f"TACTICA_KERNELS=0 still used kernels: {engine_off}"
    if on != off:
        differ = sorted(k for k in set(on) | set(off) if on.get(k) != off.get(k))
        raise AssertionError(f"the numbers differ with and without kernels in {differ}")
    return on, engine_on, engine_off


@contextlib.contextmanager
def without_extension(kernel: KernelModule) -> Iterator[None]:
    """The game's kernel module answers that its extension is not built, for the ``with``
    block (its ``compiled`` is replaced, then given back)."""
    compiled = vars(kernel).get(_COMPILED)
    if compiled is None:
        raise TypeError(f"{kernel!r} has no function compiled() of its own to replace")
    setattr(kernel, _COMPILED, lambda: None)
    try:
        yield
    finally:
        setattr(kernel, _COMPILED, compiled)


def assert_reference_without_extension(kernel: KernelModule, scenario: Scenario,
                                       run: Callable[[Scenario], EngineReport],
                                       battles: int) -> None:
    """Without the extension, ``scenario`` has no prepared kernel and ``run(scenario)`` (a
    ``simulate`` of ``battles`` battles) is played by the reference, saying the kernel was not
    built."""
    with without_extension(kernel):
        found = prepared_kernel(scenario)
        assert found == NotCovered(NOT_BUILT), f"a kernel without its extension gave {found}"
        assert_reference_played(run(scenario), battles, NOT_BUILT)
