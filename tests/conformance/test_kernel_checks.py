"""``tactica.testing.kernels``: the checks of a kernel equivalence test say clearly what differs.

The prepared kernels here are small stand-ins that play through the reference and then alter
one thing on purpose, so that the checker's verdict can be read; the real kernels are compared
in each game's ``test_*_kernel.py``.
"""

from __future__ import annotations

import unittest
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest

from tactica.analysis.sim.kernels import mask_of_rulings, prepared_kernel
from tactica.analysis.simulate import play_battle
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.rulings import Ruling
from tactica.engine.scenario import Scenario, load_scenario
from tactica.engine.stats import BattleResult
from tactica.testing import kernels as kt

POLICIES = {"red": "greedy", "blue": "random"}


def _duel() -> Scenario:
    paths = {p.stem: p for p in example_scenarios(get_ruleset("nebulia"))}
    return load_scenario(paths["duel"])


def _same(result: BattleResult) -> BattleResult | NotCovered:
    return result


class _Plain:
    """A prepared kernel without ``play_consulted``: the reference's battle, then ``alter``."""

    def __init__(self, scenario: Scenario,
                 alter: Callable[[BattleResult], BattleResult | NotCovered] = _same) -> None:
        self.scenario = scenario
        self.alter = alter

    def play(self, policies: Mapping[str, str], seed: int, index: int,
             max_steps: int) -> BattleResult | NotCovered:
        return self.alter(play_battle(self.scenario, policies, seed, index,
                                      max_steps=max_steps))


class _Consulting(_Plain):
    """A prepared kernel that also reports the rulings consulted, ``extra`` ones added."""

    def __init__(self, scenario: Scenario,
                 alter: Callable[[BattleResult], BattleResult | NotCovered] = _same,
                 extra: frozenset[str] = frozenset()) -> None:
        super().__init__(scenario, alter)
        self.extra = extra

    def play_consulted(self, policies: Mapping[str, str], seed: int, index: int,
                       max_steps: int) -> tuple[BattleResult, int] | NotCovered:
        result = play_battle(self.scenario, policies, seed, index, max_steps=max_steps,
                             consulted=True)
        altered = self.alter(result)
        if isinstance(altered, NotCovered):
            return altered
        mask = mask_of_rulings(self.scenario, result.consulted | self.extra)
        return replace(altered, consulted=frozenset()), mask


def test_a_faithful_kernel_passes_and_the_reference_result_is_returned() -> None:
    sc = _duel()
    want = play_battle(sc, POLICIES, 3, 1, consulted=True)
    assert kt.assert_same_battle(sc, _Consulting(sc), POLICIES, 3, 1) == want
    assert want.consulted  # the rulings were compared, not only the battle
    plain = kt.assert_same_battle(sc, _Plain(sc), POLICIES, 3, 1)
    assert plain == replace(want, consulted=frozenset())


def test_a_differing_battle_names_where_and_the_first_differing_field() -> None:
    sc = _duel()
    want = play_battle(sc, POLICIES, 3, 1)
    kernel = _Consulting(sc, lambda r: replace(r, steps=r.steps + 1))
    with pytest.raises(AssertionError) as failed:
        kt.assert_same_battle(sc, kernel, POLICIES, 3, 1)
    message = str(failed.value)
    assert message.startswith("the kernel's play differs from the reference on ")
    assert f"({sc.source})" in message
    assert "policies {'red': 'greedy', 'blue': 'random'}, seed 3, battle 1" in message
    assert message.endswith(f"steps: kernel {want.steps + 1}, reference {want.steps}")


def test_a_differing_unit_is_named() -> None:
    sc = _duel().with_rulings({"NEB-9": "igougo"})
    want = play_battle(sc, POLICIES, 2, 0)
    uid = sorted(want.units)[0]
    kernel = _Plain(sc, lambda r: replace(r, units={**r.units, uid: None}))  # type: ignore[dict-item]
    with pytest.raises(AssertionError, match=r"units\[") as failed:
        kt.assert_same_battle(sc, kernel, POLICIES, 2, 0)
    message = str(failed.value)
    assert "under {'NEB-9': 'igougo'}" in message
    assert f"units[{uid!r}]: kernel None, reference {want.units[uid]!r}" in message


def test_differing_consulted_rulings_are_named_on_either_side() -> None:
    sc = _duel()
    want = play_battle(sc, POLICIES, 3, 1, consulted=True)
    unread = sorted({r.id for r in sc.rulings.declared()} - want.consulted)[0]
    with pytest.raises(AssertionError) as failed:
        kt.assert_same_battle(sc, _Consulting(sc, extra=frozenset({unread})), POLICIES, 3, 1)
    message = str(failed.value)
    assert message.startswith("the kernel's play_consulted differs")
    assert message.endswith(f"consulted: kernel only ['{unread}'], reference only []")


def test_a_battle_the_kernel_does_not_play_fails_with_its_reason() -> None:
    sc = _duel()
    with pytest.raises(AssertionError, match=r"does not cover .* seed 3, battle 1: a reason"):
        kt.assert_same_battle(sc, NotCovered("a reason"), POLICIES, 3, 1)
    kernel = _Plain(sc, lambda r: NotCovered("too many steps"))
    with pytest.raises(AssertionError, match=r"the kernel's play did not play .*too many steps"):
        kt.assert_same_battle(sc, kernel, POLICIES, 3, 1)


def test_the_variants_are_each_option_alone_then_seeded_mixes() -> None:
    rulings = [Ruling("T-1", "?", "a", {"a": "", "b": "", "c": ""}),
               Ruling("T-2", "?", "x", {"x": "", "y": ""})]
    variants = kt.ruling_variants(rulings, seed=5, mixes=2)
    assert list(variants) == ["defaults", "T-1=b", "T-1=c", "T-2=y", "mix0", "mix1"]
    assert variants["T-1=c"] == {"T-1": "c"} and variants["defaults"] == {}
    assert variants == kt.ruling_variants(rulings, seed=5, mixes=2)
    assert all(set(variants[m]) == {"T-1", "T-2"} for m in ("mix0", "mix1"))
    ordered = kt.ruling_variants(rulings, seed=5, mixes=0, defaults=False,
                                 covered={"T-1": ("c", "b", "a"), "T-2": ("y", "x")})
    assert list(ordered) == ["T-1=c", "T-1=b", "T-2=y"]


def test_a_kernel_covering_other_options_than_declared_is_named() -> None:
    rulings = [Ruling("T-1", "?", "a", {"a": "", "b": ""})]
    kt.assert_covers_declared_rulings(rulings, {"T-1": ("b", "a")})
    with pytest.raises(AssertionError, match=r"not covered \['T-1=b'\], unknown \['T-1=z'\]"):
        kt.assert_covers_declared_rulings(rulings, {"T-1": ("a", "z")})


def test_a_kernel_not_built_fails_unless_it_may_be_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(kt.OPTIONAL, raising=False)
    with pytest.raises(AssertionError, match=r"tactica\.no_such_kernel was not built"):
        kt.require_built("tactica.no_such_kernel")
    monkeypatch.setenv(kt.OPTIONAL, "1")
    with pytest.raises(unittest.SkipTest):
        kt.require_built("tactica.no_such_kernel")
    kt.require_built("tactica.testing.kernels")  # a module that imports passes


class _Kernel:
    def __init__(self, module: Any) -> None:
        self.module = module

    def compiled(self) -> Any:
        return self.module


def test_a_test_needing_the_extension_skips_without_it() -> None:
    with pytest.raises(unittest.SkipTest, match="not built"):
        kt.built_kernel(_Kernel(None))
    module = ModuleType("fake")
    assert kt.built_kernel(_Kernel(module)) is module


def test_the_kernel_keeps_play_consulted_after_the_fallback_check() -> None:
    from tactica.rulesets.nebulia import kernel

    kt.built_kernel(kernel)
    sc = _duel()
    kt.assert_reference_when_not_consulting(sc, POLICIES, 4, 2)
    assert hasattr(type(prepared_kernel(sc)), "play_consulted")


def test_numbers_that_change_without_kernels_are_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setenv("TACTICA_KERNELS", "1")

    def run() -> dict[str, Any]:
        off = os.environ["TACTICA_KERNELS"] == "0"
        return {"engine": {"kernel": 0 if off else 3, "reference": 3 if off else 0},
                "wins": {"red": 2 if off else 1}, "battles": 3}

    with pytest.raises(AssertionError, match=r"differ with and without kernels in \['wins'\]"):
        kt.assert_same_without_kernels(run)
    assert os.environ["TACTICA_KERNELS"] == "1"  # given back
    same = kt.assert_same_without_kernels(lambda: {"engine": {"kernel": 0}, "battles": 3})
    assert same == ({"battles": 3}, {"kernel": 0}, {"kernel": 0})


class _Report:
    def __init__(self, engine: dict[str, Any], line: str) -> None:
        self.engine = engine
        self.line = line

    def engine_line(self) -> str:
        return self.line


def test_a_report_the_kernel_played_in_part_is_refused() -> None:
    line = "engine: the reference played every battle (NEB-9=igougo)"
    why = {"NEB-9=igougo": 4}
    kt.assert_reference_played(_Report({"kernel": 0, "reference": 4, "reasons": why}, line), 4,
                               "NEB-9=igougo")
    with pytest.raises(AssertionError, match="reference to play all 4 battles"):
        kt.assert_reference_played(
            _Report({"kernel": 1, "reference": 3, "reasons": {"NEB-9=igougo": 3}}, line), 4,
            "NEB-9=igougo")
    with pytest.raises(AssertionError, match="expected"):
        kt.assert_reference_played(_Report({"kernel": 0, "reference": 4, "reasons": why}, line),
                                   4, "NEB-1=x")


def test_without_the_extension_the_kernel_module_is_given_back() -> None:
    from tactica.rulesets.nebulia import kernel

    before = kernel.compiled
    with kt.without_extension(kernel):
        assert kernel.compiled() is None
    assert kernel.compiled is before
