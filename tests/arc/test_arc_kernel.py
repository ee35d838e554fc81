"""Arc's compiled simulation kernel plays the reference's battles, battle for battle.

Every example scenario x both policies x every option of every ruling the kernel covers (each
option on its own, and a few mixes) x seeds: the kernel's BattleResult equals the reference's
(:func:`tactica.analysis.sim.play.play_battle`), and so do the rulings each battle consulted
(``play_consulted``'s bit mask against ``play_battle(..., consulted=True)``). Seeded generated
scenarios (grids with walls and
rough squares, no map with ranges, three sides, every character of the built-in pack) reach what the
examples do not. A battle the kernel does not cover is played by the reference and counted as
such. ``make test`` fails when the kernel was not built, unless ``TACTICA_KERNELS_OPTIONAL=1``
says that is expected (a machine without a C compiler).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.effects import effects
from tactica.analysis.sim.kernels import prepared_kernel, simulated_battle
from tactica.analysis.simulate import play_battle, simulate
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.arc import kernel
from tactica.rulesets.arc.rulings import RULINGS
from tactica.testing import kernels as kt

ARC = get_ruleset("arc")
SCENARIOS = {p.stem: p for p in example_scenarios(ARC)}
#: Seeds per battle setting and policy: the duel is short, the warehouse long.
BATTLES = {"pistol-duel": 4, "firefight": 2, "warehouse": 1}
MIXES = 3


def test_the_kernel_is_built() -> None:
    kt.require_built("tactica.rulesets.arc._kernel")


def _module() -> Any:
    return kt.built_kernel(kernel)


def test_what_the_kernel_does_not_play_mid_battle_is_the_engines_one_refusal() -> None:
    from tactica.engine.kernels import Uncovered

    assert _module().Uncovered is Uncovered


def test_the_kernel_covers_every_declared_ruling_option() -> None:
    kt.assert_covers_declared_rulings(RULINGS, kernel.COVERED_RULINGS)


def _covered(ruling: Any) -> list[str]:
    return sorted(ruling.options)


VARIANTS = kt.ruling_variants(RULINGS, seed=29, mixes=MIXES,
                              covered={r.id: _covered(r) for r in RULINGS})


def _scenario(name: str, variant: str) -> Scenario:
    return kt.with_rulings(load_scenario(SCENARIOS[name]), VARIANTS[variant])


def _same(sc: Scenario, seed: int, battles: int) -> None:
    """The kernel's battles are the reference's, and so are the rulings they consulted."""
    prepared = prepared_kernel(sc)
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        for index in range(battles):
            kt.assert_same_battle(sc, prepared, dict.fromkeys(sides, policy), seed, index)
    mixed = {side: ("greedy", "random")[k % 2] for k, side in enumerate(sides)}
    kt.assert_same_battle(sc, prepared, mixed, seed, 0)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kernel_plays_the_reference_battles(name: str, variant: str) -> None:
    _module()
    _same(_scenario(name, variant), 1000 + len(variant), BATTLES[name])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_more_battles_under_the_defaults(name: str) -> None:
    _module()
    _same(_scenario(name, "defaults"), 77, 2 * BATTLES[name] + 2)


@pytest.mark.parametrize("max_steps", [1, 3, 8, 9, 30])
def test_a_battle_stopped_at_the_step_budget_is_the_same(max_steps: int) -> None:
    _module()
    sc = load_scenario(SCENARIOS["warehouse"])
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered)
    for policy in ("greedy", "random"):
        policies = dict.fromkeys(("red", "blue"), policy)
        got = kt.assert_same_battle(sc, prepared, policies, 5, 1, max_steps, consulted=False)
        assert got.finished is False
        # the rulings such a battle consulted are the reference's to count
        assert isinstance(prepared.play_consulted(policies, 5, 1, max_steps), NotCovered)
        played, engine = simulated_battle(sc, policies, 5, 1, max_steps, consulted=True)
        assert not engine.is_kernel
        assert played == play_battle(sc, policies, 5, 1, max_steps=max_steps, consulted=True)


def test_consulted_rulings_come_from_the_kernel_and_match_the_reference() -> None:
    _module()
    got = kt.assert_consulted_by_kernel(_scenario("warehouse", "defaults"),
                                        {"red": "greedy", "blue": "random"}, 4, 2)
    # nobody in the warehouse wears two armor dice: ARC-4 is never read
    assert "ARC-29" in got.consulted and "ARC-4" not in got.consulted


def test_a_kernel_that_cannot_say_what_it_consulted_leaves_the_battle_to_the_reference() -> None:
    _module()
    kt.assert_reference_when_not_consulting(_scenario("pistol-duel", "defaults"),
                                            {"francis": "greedy", "jane": "greedy"}, 4, 2)


def test_a_draw_at_the_round_limit_is_the_same() -> None:
    _module()
    sc = _scenario("firefight", "defaults")
    data = dict(sc.data)
    data["max_rounds"] = 1
    short = scenario_from_mapping(data, source="short.yaml", base_dir=sc.base_dir)
    prepared = prepared_kernel(short)
    assert not isinstance(prepared, NotCovered)
    policies = {"red": "greedy", "blue": "greedy"}
    results = [prepared.play(policies, 2, i, 20_000) for i in range(6)]
    assert results == [play_battle(short, policies, 2, i) for i in range(6)]
    assert all(not isinstance(r, NotCovered) and r.finished and r.rounds == 1
               for r in results)
    assert any(not isinstance(r, NotCovered) and r.winner is None for r in results)


# -- what the kernel does not cover is played by the reference, and counted ------------------


def test_a_ruling_option_the_kernel_does_not_know_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setitem(kernel.COVERED_RULINGS, "ARC-12", ("round",))  # type: ignore[index]
    sc = load_scenario(SCENARIOS["pistol-duel"]).with_rulings({"ARC-12": "turn"})
    assert prepared_kernel(sc) == NotCovered("ARC-12=turn")
    kt.assert_reference_played(simulate(sc, battles=3, seed=3, workers=1), 3, "ARC-12=turn")


def _surprised(name: str, side: str, option: str) -> Scenario:
    sc = load_scenario(SCENARIOS[name])
    data = dict(sc.data)
    data["surprise"] = side
    surprised = scenario_from_mapping(data, source="surprise.yaml", base_dir=sc.base_dir)
    return surprised.with_rulings({"ARC-18": option})


SURPRISES = [("pistol-duel", "jane"), ("pistol-duel", "francis"), ("firefight", "red"),
             ("firefight", "blue"), ("warehouse", "red")]


@pytest.mark.parametrize("option", ["skip", "unaware"])
@pytest.mark.parametrize(("name", "side"), SURPRISES)
def test_the_kernel_plays_surprise_as_the_reference(name: str, side: str, option: str) -> None:
    """ARC-18: the surprised sides skip round 1 or play it unaware (no evading); the kernel
    plays it, battle for battle, and reads ARC-18 where the reference does."""
    _module()
    sc = _surprised(name, side, option)
    assert not isinstance(prepared_kernel(sc), NotCovered)
    _same(sc, 18, BATTLES[name])
    got = kt.assert_consulted_by_kernel(sc, dict.fromkeys(ARC.sides_of(sc.new_state()),
                                                          "random"), 3, 1)
    assert "ARC-18" in got.consulted


def test_surprise_is_played_by_the_kernel() -> None:
    _module()
    surprised = _surprised("pistol-duel", "jane", "skip")
    result, engine = simulated_battle(surprised, {"francis": "random", "jane": "random"},
                                      1, 0, 20_000)
    assert engine.is_kernel
    assert result == play_battle(surprised, {"francis": "random", "jane": "random"}, 1, 0)


def test_a_policy_the_kernel_does_not_play_falls_back() -> None:
    _module()
    sc = load_scenario(SCENARIOS["pistol-duel"])
    policies = {"francis": "first-option", "jane": "greedy"}
    result, engine = simulated_battle(sc, policies, 1, 0, 20_000)
    assert engine.reason == "the policy 'first-option' (the kernel plays greedy and random)"
    assert result == play_battle(sc, policies, 1, 0)


def test_without_the_extension_the_reference_plays_and_says_why() -> None:
    kt.assert_reference_without_extension(
        kernel, _scenario("pistol-duel", "defaults"),
        lambda sc: simulate(sc, battles=4, seed=3, workers=1), 4)


def test_effects_runs_on_the_kernel_with_the_reference_numbers() -> None:
    _module()
    sc = _scenario("pistol-duel", "defaults")
    _, engine, _ = kt.assert_same_without_kernels(
        lambda: effects(sc, battles=6, seed=2, workers=1).to_dict())
    assert engine["reference"] == 0 and engine["kernel"] > 0


def test_tactica_kernels_0_forces_the_reference() -> None:
    _module()
    sc = _scenario("pistol-duel", "defaults")
    _, on, off = kt.assert_same_without_kernels(
        lambda: simulate(sc, battles=16, seed=4, workers=1, policies="random").to_dict())
    assert on == {"kernel": 16, "reference": 0, "reasons": {}}
    assert off == {"kernel": 0, "reference": 16, "reasons": {"TACTICA_KERNELS=0": 16}}


# -- beyond the examples: generated grids and ranges, three sides, the whole pack -------------

_CHARACTERS = ("francis", "jane", "bobby", "sam", "rex", "ivy", "dee")


def _generated(k: int) -> Scenario:
    """A seeded random scenario: on a small grid with walls and rough squares, or without a
    map with some ranges given; two or three sides; characters of the built-in pack; random
    covered rulings."""
    pick = random.Random(2000 + k)
    sides = ["red", "blue", "green"][: pick.choice((2, 2, 3))]
    count = pick.randint(len(sides), 6)
    names = "ABCDEFGH"[:count]
    units: dict[str, Any] = {
        uid: {"side": sides[i % len(sides)], "character": pick.choice(_CHARACTERS)}
        for i, uid in enumerate(names)}
    data: dict[str, Any] = {
        "game": "arc", "name": f"generated {k}", "max_rounds": pick.randint(2, 8),
        "rulings": {r.id: pick.choice(_covered(r)) for r in RULINGS},
        "units": units,
    }
    if k % 3:
        w, h = pick.randint(5, 12), pick.randint(4, 8)
        tiles = [["#" if pick.random() < 0.15 else "." for _ in range(w)] for _ in range(h)]
        free = [(x, y) for y in range(h) for x in range(w) if tiles[y][x] == "."]
        pick.shuffle(free)
        for uid, (x, y) in zip(names, free, strict=False):
            tiles[y][x] = uid
        data["map"] = {"kind": "grid", "tiles": "\n".join("".join(r) for r in tiles) + "\n"}
        data["rough"] = [f"{x},{y}" for x, y in free[count:count + pick.randint(0, 6)]]
    else:
        data["ranges"] = [{"between": [a, b], "metres": pick.choice((1, 3.5, 12, 40, 80))}
                          for a in names for b in names if a < b and pick.random() < 0.5]
    return scenario_from_mapping(data, source=f"generated-{k}.yaml", base_dir=Path("."))


@pytest.mark.parametrize("k", range(9))
def test_the_kernel_plays_generated_battles_as_the_reference(k: int) -> None:
    _module()
    _same(_generated(k), k, 2)


# -- healing: every reading of a failed Medicine check and of the items' costs ----------------

#: Two poor medics (Medicine 5: most checks fail) with every item, beside gunners who wound.
_CLINIC = {
    "game": "arc", "name": "clinic", "max_rounds": 6,
    "units": {
        "Sam": {"side": "red", "character": "sam", "skills": {"medicine": 5},
                "items": {"medkit": 2, "bandage": 3, "bloodfoam": 2, "medhypo": 1}},
        "Rex": {"side": "red", "character": "rex"},
        "Dee": {"side": "blue", "character": "dee", "skills": {"medicine": 5},
                "items": {"medkit": 1, "bandage": 3, "bloodfoam": 2}},
        "Ivy": {"side": "blue", "character": "ivy"},
    },
}


@pytest.mark.parametrize("failure", ["harm", "signed", "flat"])
@pytest.mark.parametrize("cost", ["total", "other"])
def test_the_kernel_heals_as_the_reference_under_every_reading(failure: str, cost: str) -> None:
    """ARC-31 (the default ``harm``: a failed check has no beneficial effect, ``signed``,
    ``flat``) and ARC-25 with the bandage's 2 + 4 AP: the same battles, and some of them do
    fail a Medicine check (ARC-31 consulted) and use an item (ARC-25 consulted)."""
    _module()
    data = {**_CLINIC, "rulings": {"ARC-31": failure, "ARC-25": cost}}
    sc = scenario_from_mapping(data, source="clinic.yaml", base_dir=Path("."))
    prepared = prepared_kernel(sc)
    consulted: set[str] = set()
    for policy in ("greedy", "random"):
        for index in range(6):
            got = kt.assert_same_battle(sc, prepared, {"red": policy, "blue": policy}, 31, index)
            consulted |= got.consulted
    assert {"ARC-25", "ARC-31"} <= consulted
