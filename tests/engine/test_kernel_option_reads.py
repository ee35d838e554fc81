"""Ruling options reach every compiled kernel through a table checked against the declaration.

Each game's ``kernel.OPTION_READS`` says, for every key of the compiled loop's tables that
depends on a ruling, the value the loop takes for each option the kernel plays. An option the
reads do not name is never read as another: ``prepare`` answers ``NotCovered`` naming the ruling
and the option, and ``simulate`` says the reference played it and why. These tests add an option
to one ruling of each game (the declaration itself, for the test's length) and check both ways
a kernel may meet it: not in its covered list, and in its covered list but not in its reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import pytest

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.analysis.simulate import simulate
from tactica.engine.kernels import check_option_reads, option_codes, option_table
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.rulings import Ruling, Rulings
from tactica.engine.scenario import Scenario, load_scenario
from tactica.rulesets.arc import kernel as arc_kernel
from tactica.rulesets.last_odyssey import kernel as lod_kernel
from tactica.rulesets.nebulia import kernel as neb_kernel
from tactica.rulesets.skirmishers import kernel as ski_kernel
from tactica.rulesets.unhex import kernel as unh_kernel
from tactica.testing import kernels as kt


@dataclass(frozen=True)
class Case:
    """A game, a ruling its kernel reads, the option the test adds, and an example scenario
    its kernel plays (whose reference reads any option it does not know as the default)."""

    game: str
    kernel: ModuleType
    ruling: str
    example: str


CASES = [
    Case("nebulia", neb_kernel, "NEB-6", "duel-cover"),
    Case("skirmishers", ski_kernel, "SKI-6", "shot"),
    Case("last-odyssey", lod_kernel, "LOD-15", "cop-vs-goblin"),
    Case("unhex", unh_kernel, "UNH-14", "nightclub-fight"),
    Case("arc", arc_kernel, "ARC-29", "pistol-duel"),
]
IDS = [c.game for c in CASES]
NEW = "sideways"


def _scenario(case: Case, chosen: dict[str, str] | None = None) -> Scenario:
    ruleset = get_ruleset(case.game)
    path = next(p for p in example_scenarios(ruleset) if p.stem == case.example)
    return kt.with_rulings(load_scenario(path), chosen or {})


def _declared(case: Case) -> tuple[Ruling, ...]:
    return get_ruleset(case.game).meta.rulings


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_reads_match_the_declaration_and_the_covered_options(case: Case) -> None:
    assert check_option_reads(_declared(case), case.kernel.COVERED_RULINGS,
                              case.kernel.OPTION_READS) == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_kernel_plays_the_example_under_every_option_it_reads(case: Case) -> None:
    kt.built_kernel(case.kernel)
    for ruling in sorted({r for r, _ in case.kernel.OPTION_READS.values()}):
        for option in case.kernel.COVERED_RULINGS[ruling]:
            sc = _scenario(case, {ruling: option})
            got = case.kernel.prepare(sc)
            assert not isinstance(got, NotCovered) or f"{ruling}=" not in got.reason, (
                f"{ruling}={option}: {got}")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_new_option_the_kernel_does_not_cover_is_refused_by_name(case: Case) -> None:
    kt.built_kernel(case.kernel)
    assert not isinstance(prepared_kernel(_scenario(case)), NotCovered)
    with kt.declared_option(_declared(case), case.ruling, NEW):
        sc = _scenario(case, {case.ruling: NEW})
        reason = f"{case.ruling}={NEW}"
        assert case.kernel.prepare(sc) == NotCovered(reason)
        kt.assert_reference_played(simulate(sc, battles=2, seed=5, workers=1), 2, reason)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_new_option_claimed_covered_but_not_read_is_refused_by_name(
        case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    kt.built_kernel(case.kernel)
    covered = case.kernel.COVERED_RULINGS
    monkeypatch.setitem(covered, case.ruling, (*covered[case.ruling], NEW))
    with kt.declared_option(_declared(case), case.ruling, NEW):
        sc = _scenario(case, {case.ruling: NEW})
        got = case.kernel.prepare(sc)
        assert isinstance(got, NotCovered)
        assert got.reason.startswith(f"{case.ruling}={NEW} (the kernel plays "), got.reason
        report = simulate(sc, battles=2, seed=5, workers=1)
        assert report.engine == {"kernel": 0, "reference": 2, "reasons": {got.reason: 2}}
        assert f"{case.ruling}={NEW}" in report.engine_line()
        problems = check_option_reads(_declared(case), covered, case.kernel.OPTION_READS)
        assert problems and all(case.ruling in p for p in problems), problems


def test_option_codes_number_each_declared_option_in_order() -> None:
    ruling = Ruling("X-1", "q?", "a", {"a": "first", "b": "second", "c": "third"})
    assert option_codes([ruling]) == {"X-1": {"a": 0, "b": 1, "c": 2}}


def test_a_read_naming_an_undeclared_option_or_ruling_is_refused() -> None:
    from tactica.engine.kernels import Uncovered

    ruling = Ruling("X-1", "q?", "a", {"a": "first", "b": "second"})
    rulings = Rulings((ruling,), {})
    with pytest.raises(Uncovered, match=r"X-1 .*declare: z"):
        option_table(rulings, {"k": ("X-1", {"a": 0, "z": 1})})
    with pytest.raises(Uncovered, match="ruling X-2"):
        option_table(rulings, {"k": ("X-2", {"a": 0})})
    assert check_option_reads([ruling], {"X-1": ("a", "b"), "X-3": ("a",)},
                              {"k": ("X-1", {"a": 0})}) == [
        "X-3 is covered but not declared",
        "k reads X-1 as ['a'], the kernel covers ['a', 'b']"]
