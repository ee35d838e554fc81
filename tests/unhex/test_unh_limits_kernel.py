"""Unhex's kernel at its fixed limits (``_kernel.LIMITS``, read from the compiled module): the
legal actions of a turn are checked before every write, so a turn with more actions than the
list holds leaves its battle to the reference, which plays it, naming the limit; the
scenario bounds keep characters and areas within the kernel's arrays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tactica.analysis.sim.kernels import simulated_battle
from tactica.analysis.simulate import play_battle
from tactica.engine.limits import MAX_UNITS
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.unhex import MAX_AREAS, MAX_CHARACTERS, kernel, rules
from tactica.rulesets.unhex.content import SLOTS
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


# -- at each limit a scenario can reach the kernel plays; one past it the reference does ------


def _club(units: dict[str, Any], **extra: Any) -> Scenario:
    """The nightclub fight's map and content with ``units`` (and ``extra`` fields)."""
    base = load_scenario(NIGHTCLUB)
    data = {**dict(base.data), "max_rounds": 2, "units": units, **extra}
    return scenario_from_mapping(data, source="limits.yaml", base_dir=base.base_dir)


def _teams(teams: int) -> Scenario:
    """One gunman for each of ``teams`` teams, spread over the nightclub's areas."""
    areas = load_scenario(NIGHTCLUB).data["map"]["areas"]
    return _club({f"U{k}": {"side": f"t{k}", "at": areas[k % len(areas)], "profile": "gunman"}
                  for k in range(teams)}, pcs=["t0"])


def test_the_sides_limit() -> None:
    most = _limits()["sides"]
    kt.assert_at_and_past_limit(
        _teams(most), _teams(most + 1),
        f"{most + 1} teams (the kernel plays up to {most})",
        {f"t{k}": "greedy" for k in range(most + 1)}, battles=1)


def _armoury(tmp_path: Path, kinds: int) -> Scenario:
    """Characters of two sides carrying ``kinds`` kinds of knife between them (a pack of its
    own), as many to a character as its slots hold."""
    slots = SLOTS
    pack = {"items": {f"blade-{k}": {"kind": "melee", "hands": 1} for k in range(kinds)}}
    (tmp_path / "blades.yaml").write_text(yaml.safe_dump(pack))
    names = [f"blade-{k}" for k in range(kinds)]
    loads = [names[i:i + slots] for i in range(0, kinds, slots)]
    units = {f"U{k}": {"side": "crew" if k % 2 == 0 else "club",
                       "at": "Dance Floor" if k % 2 == 0 else "Bar", "items": load,
                       "hold": load[:1]}
             for k, load in enumerate(loads)}
    base = load_scenario(NIGHTCLUB)
    data = {"game": "unhex", "name": f"{kinds} kinds of item", "max_rounds": 2,
            "map": base.data["map"], "pcs": ["crew"], "content": ["blades.yaml"],
            "units": units}
    return scenario_from_mapping(data, source=str(tmp_path / "s.yaml"), base_dir=tmp_path)


def test_the_kinds_of_item_limit(tmp_path: Path) -> None:
    most = _limits()["items"]
    kt.assert_at_and_past_limit(_armoury(tmp_path, most), _armoury(tmp_path, most + 1),
                                f"more than {most} kinds of item", POLICIES, battles=1)


def _with_doors(doors: int) -> Scenario:
    """The nightclub fight with an open door on its first ``doors`` solid connections."""
    base = load_scenario(NIGHTCLUB)
    data = dict(base.data)
    game_map = dict(data["map"])
    solid = [i for i, c in enumerate(game_map["connections"]) if c.get("type") != "dashed"]
    assert len(solid) > doors
    game_map["connections"] = [{**c, "door": "open"} if i in solid[:doors] else c
                               for i, c in enumerate(game_map["connections"])]
    data["map"] = game_map
    data["max_rounds"] = 2
    return scenario_from_mapping(data, source="doors.yaml", base_dir=base.base_dir)


def test_the_views_limit() -> None:
    """Every combination of open doors is a view of the map: the kernel holds as many doors
    as its views allow."""
    views = _limits()["views"]
    most = views.bit_length() - 1
    assert 1 << most == views
    kt.assert_at_and_past_limit(_with_doors(most), _with_doors(most + 1),
                                f"a map with {most + 1} doors (the kernel plays up to {most})",
                                POLICIES)


def _fixtures(fixtures: int, objectives: int) -> Scenario:
    """The nightclub fight with ``fixtures`` levers at the bar and ``objectives`` objectives of
    the crew (each: reach the alley)."""
    base = load_scenario(NIGHTCLUB)
    data = dict(base.data)
    data["max_rounds"] = 2
    data["fixtures"] = {"Bar": [f"lever-{k}" for k in range(fixtures)]} if fixtures else {}
    data["objectives"] = [{"side": "crew", "reach": "Alley"} for _ in range(objectives)]
    return scenario_from_mapping(data, source="fixtures.yaml", base_dir=base.base_dir)


@pytest.mark.parametrize("what", ["fixtures", "objectives"])
def test_the_fixtures_and_objectives_limit(what: str) -> None:
    most = _limits()["fixtures"]
    at = _fixtures(most, 1) if what == "fixtures" else _fixtures(1, most)
    past = _fixtures(most + 1, 1) if what == "fixtures" else _fixtures(1, most + 1)
    kt.assert_at_and_past_limit(at, past, f"more than {most} fixtures or objectives",
                                POLICIES, battles=1)


def test_no_character_can_carry_more_than_the_kernel_holds() -> None:
    """A character carries at most its slots' worth and two in hand (UNH-19 stowed), when set
    up or when it picks an item up; the kernel holds more."""
    assert _limits()["carried"] >= SLOTS + 2


def test_no_dice_key_is_longer_than_the_kernel_holds() -> None:
    """A character whose name passes the kernel's key (``unit 'name'|`` of 300 bytes) is left
    to the reference before any table is built; the longest key of a name within it (a roll's
    label with its re-roll) fits the kernel's slot."""
    longest_name = 300 - len("unit ''|")
    longest_label = max(len(f": {label}{suffix}|") for label in kernel._LABELS
                        for suffix in kernel._REROLLS)
    assert longest_name + longest_label <= _limits()["slot"]
