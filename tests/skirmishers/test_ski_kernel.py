"""Skirmishers' compiled simulation kernel plays the reference's battles, battle for battle.

Every example scenario x both policies x seeds at the default rulings, then every other option
of every ruling the kernel covers (each on its own, on the example where it most often
matters) and mixes of all of them: the kernel's BattleResult equals the reference's
(:func:`tactica.analysis.sim.play.play_battle`), with the optional rule experience too, and so
do the rulings each battle consulted (``play_consulted``'s bit mask against the reference's
recording): on every example under every ruling option, and on a brawl that reaches melee,
bludgeoning past cell 0, destroyed armor and explosives scattering off the map. A battle the
kernel does not cover (another optional rule, a policy it does not play) is played by the
reference and counted as such. A
reference battle costs about a tenth of a second, so the seeds are few and chosen to reach
throws, scatter, blasts, melee, reaction fire and stairs; ``bench/battle.py`` and the
longer runs in ``docs/simulation.md`` compare thousands.
"""

from __future__ import annotations

from typing import Any

import pytest

from tactica.analysis.sim.kernels import prepared_kernel, simulated_battle
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


@pytest.mark.parametrize("rule", ["morale", "advanced-armor", "movement-fire"])
def test_the_other_optional_rules_fall_back(rule: str) -> None:
    _module()
    sc = _with_optional(rule)
    found = prepared_kernel(sc)
    assert found == NotCovered(f"the optional rule {rule}")
    if rule != "morale":
        return
    result, engine = simulated_battle(sc, {"red": "random", "blue": "random"}, 1, 0, 20_000)
    assert engine.reason == "the optional rule morale"
    assert result == play_battle(sc, {"red": "random", "blue": "random"}, 1, 0)


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
    monkeypatch.delenv("TACTICA_KERNELS")
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
