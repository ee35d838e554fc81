"""Differential fuzzing of the compiled kernels, bounded for ``make test``: random valid
scenarios of each game (the same ones every run) played by the kernel and by the reference give
the same battles; a planted kernel bug is found and shrunk to a small scenario. The long run is
``make fuzz`` (``long_run.py --differential``)."""

from __future__ import annotations

from typing import Any

import differential as dt
import pytest
import yaml

from tactica.engine.scenario import Scenario
from tactica.rulesets.nebulia import kernel as neb_kernel
from tactica.testing import kernels as kt

#: Scenarios per game, two battles each: about 250 battles over the five games.
SCENARIOS = 25


@pytest.mark.parametrize("game", dt.GAMES)
def test_random_scenarios_play_the_same_battles_on_kernel_and_reference(game: str) -> None:
    kt.built_kernel(neb_kernel)
    tally = dt.run(game, range(SCENARIOS), battles=2, shrink_budget=60)
    summary = tally.summary()
    assert summary["mismatches"] == 0, summary["mismatch_details"]
    assert tally.scenarios == SCENARIOS
    # most drawn scenarios are the kernel's to play: the comparison is not vacuous
    assert tally.covered >= SCENARIOS * 3 // 4, summary["uncovered_reasons"]
    assert tally.battles >= 2 * tally.covered


@pytest.mark.parametrize("game", dt.GAMES)
def test_drawn_scenarios_are_valid_and_vary(game: str) -> None:
    drawn = [dt.random_scenario(game, seed) for seed in range(12)]
    for data, policies, _ in drawn:
        assert isinstance(dt.load(data), Scenario)
        assert set(policies.values()) <= {"greedy", "random"}
    assert len({repr(data) for data, _, _ in drawn}) == len(drawn)
    switched = {rid for data, _, _ in drawn for rid in data.get("rulings", {})}
    assert len(switched) >= 5
    assert dt.random_scenario(game, 3) == dt.random_scenario(game, 3)


def test_a_planted_kernel_bug_is_found_and_shrunk(monkeypatch: pytest.MonkeyPatch) -> None:
    kt.built_kernel(neb_kernel)
    reads = dict(neb_kernel.OPTION_READS)
    reads["alternate"] = ("NEB-9", {"alternate": 0, "igougo": 1})  # the turns inverted
    monkeypatch.setattr(neb_kernel, "OPTION_READS", reads)
    found: list[dict[str, Any]] = []
    tally = dt.run("nebulia-operations", range(6), battles=2, shrink_budget=150,
                   on_mismatch=found.append)
    assert tally.mismatches, "the inverted turns were not noticed in 6 scenarios"
    small = dt.load(yaml.safe_load(found[0]["scenario"]))
    drawn, _, _ = dt.random_scenario("nebulia-operations", found[0]["seed"])
    assert len(small.data["units"]) <= min(3, len(drawn["units"]))
    assert len(small.rulings.changed()) <= 1


def test_shrinking_drops_units_rulings_and_map_while_it_still_mismatches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_check(data: dict[str, Any], policies: dict[str, str], **_: Any) -> dt.Outcome:
        bad = "B" in data["units"] and data.get("rulings", {}).get("NEB-5") == "foes"
        return dt.Outcome("mismatch", "planted") if bad else dt.Outcome("same")

    monkeypatch.setattr(dt, "check", fake_check)
    data = {"game": "nebulia-operations", "max_rounds": 8,
            "rulings": {"NEB-5": "foes", "NEB-3": "manhattan", "NEB-9": "igougo"},
            "map": {"kind": "grid", "tiles": "A...\n.B#.\n....\n..C.\n"},
            "units": {k: {"side": s, "profile": "trooper"}
                      for k, s in (("A", "red"), ("B", "blue"), ("C", "red"))}}
    small, outcome = dt.shrink(data, {"red": "greedy", "blue": "random"})
    assert outcome.kind == "mismatch"
    assert list(small["units"]) == ["B"]
    assert small["rulings"] == {"NEB-5": "foes"}
    assert small["map"]["tiles"] == "..\n.B\n"
    assert small["max_rounds"] == 1
