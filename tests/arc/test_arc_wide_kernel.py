"""Arc's kernel plays the rolls whose total weight needs more than 64 bits (the shipped
automatic rifle, GPMG and HMG; the wound dice of a long fight) with the reference's own exact
sampler on the same key: every battle on the kernel, equal to the reference's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.sim.kernels import prepared_kernel, simulated_battle
from tactica.analysis.simulate import play_battle, simulate
from tactica.engine.kernels import TWO64
from tactica.engine.ruleset import NotCovered
from tactica.engine.scenario import Scenario, scenario_from_mapping
from tactica.rulesets.arc import kernel, steps
from tactica.testing import kernels as kt

POLICIES = ({"red": "greedy", "blue": "greedy"}, {"red": "random", "blue": "greedy"})


def _scenario(data: dict[str, Any]) -> Scenario:
    return scenario_from_mapping(data, source="wide.yaml", base_dir=Path("."))


def _heavy(weapon: str) -> Scenario:
    """A gunner with the pack's ``weapon`` against Bobby (battle rifle), 30 m apart."""
    return _scenario({
        "game": "arc", "name": weapon, "max_rounds": 6,
        "ranges": [{"between": ["Foo", "Bar"], "metres": 30}],
        "units": {"Foo": {"side": "red", "skills": {"big_guns": 14, "evade": 12},
                          "health": 18, "weapons": [weapon]},
                  "Bar": {"side": "blue", "character": "bobby"}}})


@pytest.mark.parametrize("weapon", ["automatic-rifle", "gpmg", "hmg"])
def test_the_shipped_heavy_weapons_play_on_the_kernel(weapon: str) -> None:
    kt.built_kernel(kernel)
    sc = _heavy(weapon)
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered), prepared.reason
    for policies in POLICIES:
        for index in range(3):
            kt.assert_same_battle(sc, prepared, policies, 4, index)
    report = simulate(sc, battles=4, seed=2, workers=1)
    assert report.engine == {"kernel": 4, "reference": 0, "reasons": {}}


def _tough() -> Scenario:
    """Two characters of health 200 firing a rate-of-fire-12 gun at each other: their wound
    dice pile up past a 64-bit total."""
    gun = {"name": "spitter", "damage": "1d6", "type": "ballistic", "spread": 4, "rof": 12,
           "accuracy": [2, 2], "capacity": 1000}
    unit = {"skills": {"guns": 18, "evade": 6}, "health": 200, "weapons": [gun]}
    return _scenario({"game": "arc", "name": "tough", "max_rounds": 30,
                      "units": {"A": {"side": "red", **unit}, "B": {"side": "blue", **unit}}})


def test_wound_dice_past_64_bits_play_on_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    kt.built_kernel(kernel)
    sc = _tough()
    policies = {"red": "greedy", "blue": "greedy"}
    widest = [0]
    dist_of = steps.wound_dist

    def counted(wounds: Any) -> Any:
        found = dist_of(wounds)
        widest[0] = max(widest[0], found.total)
        return found

    with monkeypatch.context() as patch:
        patch.setattr(steps, "wound_dist", counted)
        want = play_battle(sc, policies, 1, 0)
    assert widest[0] >= TWO64  # the reference rolled wound dice past 64 bits
    result, engine = simulated_battle(sc, policies, 1, 0, 20_000)
    assert engine.is_kernel, engine.reason
    assert result == want, kt.first_difference(result, want)
