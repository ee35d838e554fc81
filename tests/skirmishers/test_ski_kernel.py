"""Skirmishers' compiled simulation kernel plays the reference's battles, battle for battle.

Every example scenario x both policies x seeds at the default rulings, then every other option
of every ruling the kernel covers (each on its own, on the example where it most often
matters) and mixes of all of them: the kernel's BattleResult equals the reference's
(:func:`tactica.analysis.sim.play.play_battle`), under every optional rule too, and so
do the rulings each battle consulted (``play_consulted``'s bit mask against the reference's
recording): on every example under every ruling option, and on a brawl that reaches melee,
bludgeoning past cell 0, destroyed armor and explosives scattering off the map. A battle the
kernel does not cover (a ruling option it does not know, a policy it does not play) is played by the
reference and counted as such. A
reference battle costs about a tenth of a second, so the seeds are few and chosen to reach
throws, scatter, blasts, melee, reaction fire and stairs; ``bench/battle.py`` and the
longer runs in ``docs/simulation.md`` compare thousands.
"""

from __future__ import annotations

from typing import Any

import pytest

from tactica.analysis.sim.kernels import prepared_kernel
from tactica.analysis.simulate import play_battle, simulate
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.skirmishers import RULINGS, kernel
from tactica.testing import kernels as kt

SKIRMISHERS = get_ruleset("skirmishers")
SCENARIOS = {p.stem: p for p in example_scenarios(SKIRMISHERS)}
#: Battles per example and policy at the default rulings (the one-shot example is short).
BATTLES = {"shot": 6, "street-fight": 3, "corridor-ambush": 3}
#: Where a ruling's other options are played: the street fight has levels, windows, stairs
#: and explosives; the corridor has arcs established from the start.
WHERE = {"SKI-18": "corridor-ambush", "SKI-4": "corridor-ambush", "SKI-27": "corridor-ambush"}
MIXES = 2


def test_the_kernel_is_built() -> None:
    kt.require_built("tactica.rulesets.skirmishers._kernel")


def _module() -> Any:
    return kt.built_kernel(kernel)


def test_the_kernel_covers_every_declared_ruling_option() -> None:
    kt.assert_covers_declared_rulings(RULINGS, kernel.COVERED_RULINGS)


VARIANTS = kt.ruling_variants(RULINGS, seed=31, mixes=MIXES, covered=kernel.COVERED_RULINGS,
                              defaults=False)


def _same(sc: Scenario, policies: dict[str, str], seed: int, index: int,
          max_steps: int = 20_000) -> frozenset[str]:
    """The kernel plays the reference's battle and reports the rulings it consulted (which
    are returned)."""
    return kt.assert_same_battle(sc, prepared_kernel(sc), policies, seed, index,
                                 max_steps).consulted


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kernel_plays_the_reference_battles_at_the_default_rulings(name: str) -> None:
    _module()
    sc = load_scenario(SCENARIOS[name])
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        for index in range(BATTLES[name]):
            _same(sc, dict.fromkeys(sides, policy), 11, index)
    _same(sc, {sides[0]: "greedy", sides[1]: "random"}, 11, 0)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_kernel_plays_the_reference_battles_under_every_ruling_option(
        variant: str) -> None:
    _module()
    ruling = variant.partition("=")[0]
    sc = load_scenario(SCENARIOS[WHERE.get(ruling, "street-fight")])
    sc = sc.with_rulings(VARIANTS[variant])
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        _same(sc, dict.fromkeys(sides, policy), 40 + len(variant), 0)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kernel_reports_the_rulings_consulted_on_every_example_under_every_option(
        name: str, variant: str) -> None:
    _module()
    ruling = variant.partition("=")[0]
    if name == WHERE.get(ruling, "street-fight"):
        return  # played above
    sc = load_scenario(SCENARIOS[name]).with_rulings(VARIANTS[variant])
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        _same(sc, dict.fromkeys(sides, policy), 70 + len(variant), 0)


@pytest.mark.parametrize("max_steps", [1, 2, 9, 40])
def test_a_battle_stopped_at_the_step_budget_is_the_same(max_steps: int) -> None:
    _module()
    for name in ("street-fight", "corridor-ambush"):
        sc = load_scenario(SCENARIOS[name])
        sides = sc.ruleset.sides_of(sc.new_state())
        for policy in ("greedy", "random"):
            _same(sc, dict.fromkeys(sides, policy), 5, 1, max_steps)


#: Four troopers at arm's length on a small yard: a stun baton and a blackjack (bludgeoning past
#: cell 0), fists and a club, armor destroyed from the start, a prone trooper, grenades that
#: scatter off the map.
BRAWL: dict[str, Any] = {
    "game": "skirmishers", "name": "Brawl", "max_rounds": 4,
    "map": {"kind": "dots", "name": "Yard",
            "levels": {"ground": ". . . . . .\n . A B . . .\n. C D . . .\n . . . . . .\n"}},
    "units": {
        "A": {"side": "red", "primary": "pistol", "melee": ["stun-baton"],
              "active": "stun-baton", "armor": "basic", "armor_left": 0,
              "marks": "...../X...."},
        "B": {"side": "blue", "primary": "pistol", "melee": ["blackjack"],
              "active": "blackjack", "armor": "standard", "prone": True},
        "C": {"side": "red", "primary": "smg", "active": "knife", "marks": "....//....."},
        "D": {"side": "blue", "primary": "smg", "melee": ["club"], "armor": "heavy",
              "experience": "green"},
    }}


#: The rulings each brawl reaches in its battles (so the comparison compares something).
REACHED = {"SKI-19", "SKI-22", "SKI-24", "SKI-25", "SKI-38", "SKI-40"}


@pytest.mark.parametrize(("rulings", "reached"), [
    ({"SKI-33": "stays", "SKI-6": "d6-dots"}, REACHED | {"SKI-6", "SKI-33", "SKI-41"}),
    ({"SKI-33": "stays", "SKI-41": "before-window", "SKI-40": "dead", "SKI-24": "lost",
      "SKI-25": "lifted", "SKI-19": "up", "SKI-22": "one-roll"}, REACHED - {"SKI-40"}),
])
def test_the_rulings_consulted_in_a_brawl_are_the_reference_s(rulings: dict[str, str],
                                                              reached: set[str]) -> None:
    _module()
    sc = load_scenario(SCENARIOS["street-fight"])
    data = {**BRAWL, "optional": ["experience"]}
    brawl = scenario_from_mapping(data, source="brawl.yaml", base_dir=sc.base_dir)
    brawl = brawl.with_rulings(rulings)
    seen: set[str] = set()
    for policy in ("greedy", "random"):
        for index in range(4):
            seen |= _same(brawl, {"red": policy, "blue": policy}, 1, index)
    assert reached <= seen, sorted(reached - seen)


def test_consulted_rulings_come_from_the_kernel_and_match_the_reference() -> None:
    _module()
    got = kt.assert_consulted_by_kernel(load_scenario(SCENARIOS["street-fight"]),
                                        {"red": "greedy", "blue": "random"}, 4, 2)
    assert {"SKI-4", "SKI-12", "SKI-26"} <= got.consulted
    assert not {"SKI-17", "SKI-30", "SKI-36", "SKI-42"} & got.consulted  # optional rules


def test_a_draw_at_the_round_limit_is_the_same() -> None:
    _module()
    sc = load_scenario(SCENARIOS["shot"])
    data = dict(sc.data)
    data["max_rounds"] = 1
    short = scenario_from_mapping(data, source="short.yaml", base_dir=sc.base_dir)
    prepared = prepared_kernel(short)
    assert not isinstance(prepared, NotCovered)
    results = [prepared.play({"red": "random", "blue": "random"}, 2, i, 20_000)
               for i in range(4)]
    assert results == [play_battle(short, {"red": "random", "blue": "random"}, 2, i)
                       for i in range(4)]
    assert any(not isinstance(r, NotCovered) and r.winner is None and r.finished
               for r in results)


# -- what the kernel does not cover is played by the reference, and counted ------------------


def test_a_ruling_option_the_kernel_does_not_know_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setitem(kernel.COVERED_RULINGS, "SKI-10",  # type: ignore[index]
                        ("steps", "steps-minus-one"))
    sc = load_scenario(SCENARIOS["shot"]).with_rulings({"SKI-10": "walkable"})
    assert prepared_kernel(sc) == NotCovered("SKI-10=walkable")
    kt.assert_reference_played(simulate(sc, battles=3, seed=3, workers=1), 3,
                               "SKI-10=walkable")


def _with_optional(rule: str) -> Scenario:
    sc = load_scenario(SCENARIOS["street-fight"])
    data = dict(sc.data)
    data["optional"] = [rule]
    levels = ["veteran", "green", "elite", "regular"]
    data["units"] = {uid: {**unit, "experience": levels[k % len(levels)]}
                     for k, (uid, unit) in enumerate(sc.data["units"].items())}
    return scenario_from_mapping(data, source=f"{rule}.yaml", base_dir=sc.base_dir)


def test_the_optional_rule_experience_is_played_by_the_kernel() -> None:
    _module()
    sc = _with_optional("experience")
    for policy in ("greedy", "random"):
        _same(sc, {"red": policy, "blue": policy}, 3, 1)


def _advanced_armor(name: str) -> Scenario:
    """An example under the optional rule advanced-armor, its troopers in every armor."""
    sc = load_scenario(SCENARIOS[name])
    data = dict(sc.data)
    data["optional"] = ["advanced-armor"]
    armors = ["heavy", "standard", "basic", "none"]
    data["units"] = {uid: {**unit, "armor": armors[k % len(armors)]}
                     for k, (uid, unit) in enumerate(sc.data["units"].items())}
    return scenario_from_mapping(data, source="advanced-armor.yaml", base_dir=sc.base_dir)


@pytest.mark.parametrize("rulings", [{"SKI-30": "middle"}, {"SKI-30": "top"},
                                     {"SKI-30": "top", "SKI-25": "lifted"},
                                     {"SKI-30": "middle", "SKI-25": "lifted",
                                      "SKI-24": "lost", "SKI-40": "dead"}])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_optional_rule_advanced_armor_is_played_by_the_kernel(
        name: str, rulings: dict[str, str]) -> None:
    """Advanced body armor (SKI-30): a lethal point on a protected cell only partly crosses it
    the first time, and the armor is destroyed when every protected cell is crossed (SKI-25)."""
    _module()
    sc = _advanced_armor(name).with_rulings(rulings)
    assert not isinstance(prepared_kernel(sc), NotCovered)
    sides = sc.ruleset.sides_of(sc.new_state())
    consulted: set[str] = set()
    for policy in ("greedy", "random"):
        for index in range(2 if name == "shot" else 1):
            consulted |= _same(sc, dict.fromkeys(sides, policy), 30, index)
    assert "SKI-30" in consulted


def _movement_fire(name: str) -> Scenario:
    sc = load_scenario(SCENARIOS[name])
    data = dict(sc.data)
    data["optional"] = ["movement-fire"]
    return scenario_from_mapping(data, source="movement-fire.yaml", base_dir=sc.base_dir)


@pytest.mark.parametrize("rulings", [{"SKI-36": "counts"}, {"SKI-36": "apart"},
                                     {"SKI-36": "apart", "SKI-27": "one", "SKI-3": "as-written"}])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_optional_rule_movement_fire_is_played_by_the_kernel(
        name: str, rulings: dict[str, str]) -> None:
    """Movement fire: a moving trooper fires once (2 AP, +2), its target's side decides whether
    it drops prone first; SKI-36 counts the 2 AP toward the 8 AP cap or not."""
    _module()
    sc = _movement_fire(name).with_rulings(rulings)
    assert not isinstance(prepared_kernel(sc), NotCovered)
    sides = sc.ruleset.sides_of(sc.new_state())
    consulted: set[str] = set()
    for policy in ("greedy", "random"):
        for index in range(3 if name == "shot" else 1):
            consulted |= _same(sc, dict.fromkeys(sides, policy), 36, index)
    _same(sc, {sides[0]: "random", sides[1]: "greedy"}, 36, 1)
    assert "SKI-36" in consulted


#: Random battles (seed 36) in which troopers fire on the move: at targets that drop prone,
#: stay standing, are hit, or are out of sight once prone.
MOVEMENT_FIRE_BATTLES = [("corridor-ambush", 5), ("corridor-ambush", 11), ("street-fight", 2),
                         ("street-fight", 4), ("street-fight", 5), ("shot", 5)]


@pytest.mark.parametrize("option", ["counts", "apart"])
@pytest.mark.parametrize(("name", "index"), MOVEMENT_FIRE_BATTLES)
def test_battles_that_fire_on_the_move_are_the_reference_s(name: str, index: int,
                                                           option: str) -> None:
    _module()
    sc = _movement_fire(name).with_rulings({"SKI-36": option})
    sides = sc.ruleset.sides_of(sc.new_state())
    _same(sc, dict.fromkeys(sides, "random"), 36, index)
    # the greedy side answers "drop prone" (beyond 1 dot) to the random side's fire
    _same(sc, {sides[0]: "random", sides[1]: "greedy"}, 36, index)
    _same(sc, {sides[0]: "greedy", sides[1]: "random"}, 36, index)


#: Six against six, badly hurt, in the open: squads lose four and check morale.
FIELD: dict[str, Any] = {
    "game": "skirmishers", "name": "Field", "max_rounds": 8, "optional": ["morale"],
    "map": {"kind": "dots", "name": "Field",
            "levels": {"ground": ". A . B . C . D . E . F\n . . . . . . . . . . . .\n"
                                 ". . . . . . . . . . . .\n . G . H . I . J . K . L\n"}},
    "squads": {"red": {"skill": "green", "leader": "A", "leadership": 3},
               "blue": {"skill": "veteran"}},
    "units": {u: {"side": "red" if u < "G" else "blue",
                  "primary": "smg" if u in "ACEGIK" else "pistol",
                  "marks": "XXXX......." if u in "ABGH" else "XXXXX......"}
              for u in "ABCDEFGHIJKL"},
}


@pytest.mark.parametrize("rulings", [{}, {"SKI-32": "out"},
                                     {"SKI-32": "out", "SKI-17": "retreat"},
                                     {"SKI-32": "out", "SKI-42": "fights"}])
def test_the_optional_rule_morale_is_played_by_the_kernel(rulings: dict[str, str]) -> None:
    """Morale: once four of a squad count as dead (SKI-32) it rolls 2D6 at the start of its
    turn against its morale less its leader's leadership (SKI-42); failing, it may not
    establish arcs or throw that turn, or it leaves (SKI-17)."""
    _module()
    sc = load_scenario(SCENARIOS["street-fight"])
    field = scenario_from_mapping(FIELD, source="field.yaml", base_dir=sc.base_dir)
    field = field.with_rulings(rulings)
    assert not isinstance(prepared_kernel(field), NotCovered)
    seen: set[str] = set()
    for policy in ("greedy", "random"):
        for index in range(4):
            seen |= _same(field, {"red": policy, "blue": policy}, 17, index)
    _same(field, {"red": "greedy", "blue": "random"}, 17, 0)
    assert "SKI-32" in seen
    if rulings:
        assert {"SKI-17", "SKI-42"} <= seen  # a check failed, the leader's squad checked


def test_every_optional_rule_is_played_by_the_kernel() -> None:
    _module()
    sc = load_scenario(SCENARIOS["street-fight"])
    data = dict(sc.data)
    data["optional"] = ["experience", "morale", "advanced-armor", "movement-fire"]
    every = scenario_from_mapping(data, source="every.yaml", base_dir=sc.base_dir)
    assert not isinstance(prepared_kernel(every), NotCovered)
    for policy in ("greedy", "random"):
        _same(every, {"red": policy, "blue": policy}, 5, 0)


def test_a_policy_the_kernel_does_not_play_falls_back() -> None:
    _module()
    sc = load_scenario(SCENARIOS["shot"])
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered)
    found = prepared.play({"red": "first-option", "blue": "greedy"}, 1, 0, 20_000)
    assert isinstance(found, NotCovered) and "first-option" in found.reason
    report = simulate(sc, battles=2, seed=1, workers=1, policies="first-option")
    assert report.engine == {"kernel": 0, "reference": 2, "reasons": {found.reason: 2}}


def test_without_the_extension_the_reference_plays_and_says_why() -> None:
    kt.assert_reference_without_extension(
        kernel, load_scenario(SCENARIOS["shot"]),
        lambda sc: simulate(sc, battles=2, seed=3, workers=1), 2)


# -- the same numbers with and without kernels ----------------------------------------------


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    import json

    from tactica.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    found: dict[str, Any] = json.loads(out)
    return found


def test_the_same_json_with_and_without_kernels_on_one_or_two_workers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    argv = ("simulate", str(SCENARIOS["shot"]), "-n", "12", "--seed", "9", "--policy",
            "random", "--json")
    monkeypatch.setenv("TACTICA_KERNELS", "0")
    reference = _json(capsys, *argv, "-j", "1")
    assert reference.pop("engine") == {"kernel": 0, "reference": 12,
                                        "reasons": {"TACTICA_KERNELS=0": 12}}
    monkeypatch.setenv("TACTICA_KERNELS", "1")  # every battle, however short the run
    for workers in ("1", "2"):
        got = _json(capsys, *argv, "-j", workers)
        assert got.pop("engine") == {"kernel": 12, "reference": 0, "reasons": {}}
        assert got == reference, workers


def test_the_table_says_who_played_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from tactica.cli import main

    _module()
    assert main(["simulate", str(SCENARIOS["shot"]), "-n", "5", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "engine: 5 battles by the compiled kernel, 0 by the reference" in out
