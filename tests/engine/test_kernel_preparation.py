"""A run too short to pay a kernel's preparation back is played by the reference, saying why
(the same battles: the numbers do not change); a longer one by the kernel, prepared once in
the process that forks the workers, not once per worker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tactica.analysis.sim.kernels import ENVIRONMENT, MIN_KERNEL_BATTLES, short_run
from tactica.analysis.simulate import simulate
from tactica.engine.ruleset import example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario
from tactica.rulesets.nebulia import kernel
from tactica.testing import kernels as kt


def _duel() -> Scenario:
    paths = {p.stem: p for p in example_scenarios(get_ruleset("nebulia-operations"))}
    return load_scenario(paths["duel"])


def _reason(battles: int) -> str:
    return (f"a run of {battles} battle{'s' if battles != 1 else ''} per process, too short to "
            f"pay the kernel's preparation back: it plays from {MIN_KERNEL_BATTLES}")


@pytest.fixture
def automatic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment says nothing of kernels: the engine chooses."""
    monkeypatch.delenv(ENVIRONMENT, raising=False)


@pytest.mark.usefixtures("automatic")
def test_a_short_run_is_played_by_the_reference_with_the_reason() -> None:
    kt.built_kernel(kernel)
    battles = MIN_KERNEL_BATTLES - 1
    report = simulate(_duel(), battles=battles, seed=3, workers=1)
    kt.assert_reference_played(report, battles, _reason(battles))
    numbers = report.to_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENVIRONMENT, "1")  # forced: the kernel plays the same battles
        forced = simulate(_duel(), battles=battles, seed=3, workers=1).to_dict()
    assert forced.pop("engine") == {"kernel": battles, "reference": 0, "reasons": {}}
    numbers.pop("engine")
    assert numbers == forced


@pytest.mark.usefixtures("automatic")
def test_a_run_long_enough_is_played_by_the_kernel() -> None:
    kt.built_kernel(kernel)
    report = simulate(_duel(), battles=MIN_KERNEL_BATTLES, seed=3, workers=1)
    assert report.engine == {"kernel": MIN_KERNEL_BATTLES, "reference": 0, "reasons": {}}


@pytest.mark.usefixtures("automatic")
def test_the_battles_counted_are_those_of_each_process() -> None:
    kt.built_kernel(kernel)
    sc = _duel()
    assert short_run(sc, MIN_KERNEL_BATTLES) is None
    assert short_run(sc, MIN_KERNEL_BATTLES - 1) is not None
    battles = 2 * (MIN_KERNEL_BATTLES - 1)
    report = simulate(sc, battles=battles, seed=3, workers=2)
    kt.assert_reference_played(report, battles, _reason(MIN_KERNEL_BATTLES - 1))
    report = simulate(sc, battles=battles + 1, seed=3, workers=2)
    assert report.engine["kernel"] == battles + 1


def test_forced_or_off_says_its_own_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    sc = _duel()
    monkeypatch.setenv(ENVIRONMENT, "1")
    assert short_run(sc, 1) is None
    monkeypatch.setenv(ENVIRONMENT, "0")
    assert short_run(sc, 1) is None  # TACTICA_KERNELS=0 is the reason then
    report = simulate(sc, battles=2, seed=3, workers=1)
    kt.assert_reference_played(report, 2, f"{ENVIRONMENT}=0")


@pytest.mark.usefixtures("automatic")
def test_the_workers_share_the_kernel_prepared_before_they_fork(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each preparation writes the id of the process that made it: one, by this process."""
    kt.built_kernel(kernel)
    log = tmp_path / "prepared.txt"
    prepare = kernel.prepare

    def logged(scenario: Scenario) -> object:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return prepare(scenario)

    monkeypatch.setattr(kernel, "prepare", logged)
    report = simulate(_duel(), battles=2 * MIN_KERNEL_BATTLES, seed=3, workers=2)
    assert report.engine["kernel"] == 2 * MIN_KERNEL_BATTLES
    assert log.read_text().split() == [str(os.getpid())]


@pytest.mark.usefixtures("automatic")
def test_a_short_run_whose_battles_cost_more_than_a_preparation_goes_to_the_kernel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the reference has spent its budget on the scenario in this process (here: less
    than nothing, so after its first battle), the kernel plays the rest of the run, the same
    battles."""
    from tactica.analysis.sim import kernels as sim_kernels

    kt.built_kernel(kernel)
    battles = MIN_KERNEL_BATTLES - 1
    monkeypatch.setattr(sim_kernels, "REFERENCE_BUDGET", -1.0)
    report = simulate(_duel(), battles=battles, seed=3, workers=1)
    assert report.engine == {"kernel": battles - 1, "reference": 1,
                             "reasons": {_reason(battles): 1}}
    numbers = report.to_dict()
    numbers.pop("engine")
    monkeypatch.setattr(sim_kernels, "REFERENCE_BUDGET", 1e9)
    again = simulate(_duel(), battles=battles, seed=3, workers=1).to_dict()
    assert again.pop("engine")["reference"] == battles
    assert numbers == again
