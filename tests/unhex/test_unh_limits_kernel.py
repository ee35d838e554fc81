"""Unhex's kernel at its fixed limits (``_kernel.LIMITS``, read from the compiled module): the
legal actions of a turn are checked before every write, so a turn with more actions than the
list holds leaves its battle to the reference, which plays it, naming the limit; the
scenario bounds keep characters and areas within the kernel's arrays."""

from __future__ import annotations

from typing import Any

import pytest

from tactica.analysis.sim.kernels import simulated_battle
from tactica.analysis.simulate import play_battle
from tactica.engine.limits import MAX_UNITS
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.unhex import MAX_AREAS, MAX_CHARACTERS, kernel, rules
from tactica.rulesets.unhex.kernel import UnhexKernel
from tactica.testing import kernels as kt

UNHEX = get_ruleset("unhex")
NIGHTCLUB = {p.stem: p for p in example_scenarios(UNHEX)}["nightclub-fight"]
POLICIES = {"crew": "greedy", "club": "random"}
PROFILES = ("shooter", "medic", "gunman", "brawler", "bouncer")


def _limits() -> dict[str, int]:
    limits: dict[str, int] = kt.built_kernel(kernel).LIMITS
    return limits


def _hub(characters: int) -> Scenario:
    """``characters`` characters of both sides in the nightclub's hub (the dance floor, with
    five ways out), each with a profile's kit."""
    base = load_scenario(NIGHTCLUB)
    data = dict(base.data)
    data["max_rounds"] = 2
    data["units"] = {
        f"U{k}": {"side": "crew" if k % 2 == 0 else "club", "at": "Dance Floor",
                  "profile": PROFILES[k % len(PROFILES)]}
        for k in range(characters)}
    return scenario_from_mapping(data, source="hub.yaml", base_dir=base.base_dir)


def _most_actions(sc: Scenario, monkeypatch: pytest.MonkeyPatch) -> int:
    """The most legal actions of one turn in the reference's battle 0 of seed 1."""
    seen = [0]
    legal = rules.legal_actions

    def counted(state: Any, side: str) -> tuple[Any, ...]:
        found = legal(state, side)
        seen[0] = max(seen[0], len(found))
        return found

    with monkeypatch.context() as patch:
        patch.setattr(rules, "legal_actions", counted)
        play_battle(sc, POLICIES, 1, 0)
    return seen[0]


def test_the_scenario_bounds_keep_characters_and_areas_within_the_kernel() -> None:
    limits = _limits()
    assert limits["characters"] >= MAX_CHARACTERS and MAX_UNITS >= MAX_CHARACTERS
    assert limits["areas"] >= MAX_AREAS


def test_a_turn_with_more_actions_than_the_list_holds_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sc = _hub(18)
    most = _most_actions(sc, monkeypatch)
    assert 18 < most <= _limits()["actions"]
    want = play_battle(sc, POLICIES, 1, 0)
    prepared = kernel.prepare(sc)
    assert isinstance(prepared, UnhexKernel)
    # a list that holds every action of the battle's largest turn: the kernel plays it
    prepared.engine.hold("actions", most)
    assert prepared.play(POLICIES, 1, 0, 20_000) == want
    # one action fewer: the list is checked before the write, and the reference plays
    prepared.engine.hold("actions", most - 1)
    found = prepared.play(POLICIES, 1, 0, 20_000)
    assert isinstance(found, NotCovered)
    assert found.reason == f"more than {most - 1} legal actions in one turn"
    prepared.engine.hold("actions", _limits()["actions"])
    assert prepared.play(POLICIES, 1, 0, 20_000) == want


def test_a_list_smaller_than_one_action_is_refused() -> None:
    prepared = kernel.prepare(_hub(2))
    assert isinstance(prepared, UnhexKernel)
    with pytest.raises(ValueError, match="legal actions"):
        prepared.engine.hold("actions", 0)
    with pytest.raises(ValueError, match="legal actions"):
        prepared.engine.hold("actions", _limits()["actions"] + 1)


def test_the_hub_battle_plays_on_the_kernel_as_the_reference() -> None:
    sc = _hub(18)
    result, engine = simulated_battle(sc, POLICIES, 1, 0, 20_000)
    assert engine.is_kernel
    assert result == play_battle(sc, POLICIES, 1, 0)
