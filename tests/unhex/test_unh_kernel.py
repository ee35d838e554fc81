"""Unhex's compiled simulation kernel plays the reference's battles, battle for battle.

Every example scenario x both policies x every option of every ruling the kernel covers (each
option on its own, and a few mixes of all of them) x seeds: the kernel's BattleResult equals
the reference's (:func:`tactica.analysis.sim.play.play_battle`), and the rulings the kernel says
each battle consulted are the ones the reference records (``consulted=True``). Generated
fights (random zone maps with doors, three teams, characters already wounded, shields, first aid
kits, counted ammunition, fixtures and objectives, random rulings) reach the branches the
nightclub rarely does. A battle the kernel does not cover is played by the reference and counted
as such. ``make test`` fails when the kernel was not built, unless
``TACTICA_KERNELS_OPTIONAL=1`` says that is expected.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.effects import effects
from tactica.analysis.sim.kernels import prepared_kernel, simulated_battle
from tactica.analysis.simulate import play_battle, simulate
from tactica.engine.consulted import recording
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.unhex import RULINGS, kernel
from tactica.testing import kernels as kt

UNHEX = get_ruleset("unhex")
SCENARIOS = {p.stem: p for p in example_scenarios(UNHEX)}
#: Seeds per policy and variant (a greedy nightclub battle costs the reference ~0.1 s).
BATTLES = {"greedy": 1, "random": 2}
MIXES = 3


def test_the_kernel_is_built() -> None:
    kt.require_built("tactica.rulesets.unhex._kernel")


def _module() -> Any:
    return kt.built_kernel(kernel)


def test_the_kernel_covers_every_declared_ruling_option() -> None:
    kt.assert_covers_declared_rulings(RULINGS, kernel.COVERED_RULINGS)


VARIANTS = kt.ruling_variants(RULINGS, seed=29, mixes=MIXES)


def _scenario(name: str, variant: str) -> Scenario:
    return kt.with_rulings(load_scenario(SCENARIOS[name]), VARIANTS[variant])


def _same(sc: Scenario, policies: dict[str, str], seed: int, index: int,
          max_steps: int = 20_000) -> None:
    """The kernel's battle is the reference's, and so are the rulings it consulted."""
    kt.assert_same_battle(sc, prepared_kernel(sc), policies, seed, index, max_steps)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kernel_plays_the_reference_battles(name: str, variant: str) -> None:
    _module()
    sc = _scenario(name, variant)
    sides = sc.ruleset.sides_of(sc.new_state())
    seed = 2000 + len(variant)
    for policy, battles in BATTLES.items():
        for index in range(battles):
            _same(sc, dict.fromkeys(sides, policy), seed, index)
    mixed = ["greedy", "random"] if len(variant) % 2 else ["random", "greedy"]
    _same(sc, dict(zip(sides, mixed, strict=True)), seed, 7)


def test_consulted_rulings_come_from_the_kernel_and_match_the_reference() -> None:
    _module()
    got = kt.assert_consulted_by_kernel(_scenario("nightclub-fight", "defaults"),
                                        {"crew": "greedy", "club": "random"}, 4, 2)
    # greedy values attacks under UNH-6; two teams never ask how more than two are ordered
    assert "UNH-6" in got.consulted and "UNH-20" not in got.consulted


def test_a_kernel_that_cannot_say_what_it_consulted_leaves_the_battle_to_the_reference() -> None:
    _module()
    kt.assert_reference_when_not_consulting(_scenario("nightclub-fight", "defaults"),
                                            {"crew": "random", "club": "random"}, 4, 2)


def test_effects_on_the_kernel_are_the_references() -> None:
    _module()
    sc = _scenario("nightclub-fight", "defaults")
    on, engine, _ = kt.assert_same_without_kernels(
        lambda: effects(sc, battles=4, seed=6, workers=1, policies="random").to_dict())
    assert engine["reference"] == 0
    assert {r["ruling"] for r in on["never_consulted"]} >= {"UNH-5", "UNH-8", "UNH-20"}


def test_the_setup_consults_what_the_kernel_counts_in_every_battle() -> None:
    sc = _scenario("nightclub-fight", "UNH-4=later")
    with recording() as read:
        sc.new_state()
    assert read == set(kernel.SETUP_CONSULTED)


@pytest.mark.parametrize("max_steps", [1, 2, 5, 17, 60])
def test_a_battle_stopped_at_the_step_budget_is_the_same(max_steps: int) -> None:
    _module()
    sc = _scenario("nightclub-fight", "defaults")
    for policy in ("greedy", "random"):
        _same(sc, {"crew": policy, "club": policy}, 5, 1, max_steps)


def test_a_draw_at_the_round_limit_is_the_same() -> None:
    _module()
    sc = _scenario("nightclub-fight", "defaults")
    data = dict(sc.data)
    data["max_rounds"] = 2
    short = scenario_from_mapping(data, source="short.yaml", base_dir=sc.base_dir)
    for i in range(3):
        _same(short, {"crew": "greedy", "club": "greedy"}, 2, i)
        _same(short, {"crew": "random", "club": "random"}, 2, i)


# -- what the kernel does not cover is played by the reference, and counted ------------------


def _with_doors(n: int) -> Scenario:
    """The nightclub with a door on its first ``n`` solid connections."""
    sc = _scenario("nightclub-fight", "defaults")
    data = dict(sc.data)
    game_map = dict(data["map"])
    game_map["connections"] = [
        {**c, "door": "open"} if i < n else c for i, c in enumerate(game_map["connections"])]
    data["map"] = game_map
    return scenario_from_mapping(data, source="doors.yaml", base_dir=sc.base_dir)


def test_doors_are_played_by_the_kernel() -> None:
    _module()
    sc = _with_doors(4)
    for policy in ("greedy", "random"):
        for index in range(2):
            _same(sc, {"crew": policy, "club": policy}, 3, index)


def test_a_map_with_more_doors_falls_back_to_the_reference_and_is_counted() -> None:
    sc = _with_doors(5)
    prepared = prepared_kernel(sc)
    assert isinstance(prepared, NotCovered)
    assert prepared.reason in ("a map with 5 doors (the kernel plays up to 4)",
                               kernel.NOT_BUILT)
    policies = {"crew": "random", "club": "random"}
    result, engine = simulated_battle(sc, policies, 1, 0, 20_000)
    assert not engine.is_kernel
    assert result == play_battle(sc, policies, 1, 0)
    report = simulate(sc, battles=2, seed=1, workers=1, policies="random")
    assert report.to_dict()["engine"] == {"kernel": 0, "reference": 2,
                                          "reasons": {prepared.reason: 2}}
    assert prepared.reason in report.engine_line()


def test_a_ruling_option_the_kernel_does_not_know_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setitem(kernel.COVERED_RULINGS, "UNH-14", ("actor",))  # type: ignore[index]
    sc = _scenario("nightclub-fight", "UNH-14=reactor")
    assert prepared_kernel(sc) == NotCovered("UNH-14=reactor")
    kt.assert_reference_played(simulate(sc, battles=3, seed=3, workers=1, policies="random"),
                               3, "UNH-14=reactor")


def test_a_policy_the_kernel_does_not_play_falls_back() -> None:
    _module()
    sc = _scenario("nightclub-fight", "defaults")
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered)
    policies = {"crew": "first-option", "club": "random"}
    assert prepared.play(policies, 1, 0, 20_000) == NotCovered(
        "the policy 'first-option' (the kernel plays greedy and random)")
    result, engine = simulated_battle(sc, policies, 1, 0, 20_000)
    assert engine.reason is not None and "first-option" in engine.reason
    assert result == play_battle(sc, policies, 1, 0)


def test_without_the_extension_the_reference_plays_and_says_why() -> None:
    kt.assert_reference_without_extension(
        kernel, _scenario("nightclub-fight", "UNH-4=later"),
        lambda sc: simulate(sc, battles=3, seed=3, workers=1, policies="random"), 3)


def test_tactica_kernels_0_forces_the_reference() -> None:
    _module()
    sc = _scenario("nightclub-fight", "defaults")
    _, on, off = kt.assert_same_without_kernels(
        lambda: simulate(sc, battles=12, seed=4, workers=1, policies="random").to_dict())
    assert on == {"kernel": 12, "reference": 0, "reasons": {}}
    assert off == {"kernel": 0, "reference": 12, "reasons": {"TACTICA_KERNELS=0": 12}}


# -- beyond the examples: generated zone maps, wounded characters, shields, ammunition -------

_ITEMS = ["knife", "machete", "bottle", "baseball-bat", "pool-cue", "pistol", "revolver",
          "shotgun", "rifle", "first-aid-kit", "riot-shield"]
_TWO_HANDED = {"baseball-bat", "pool-cue", "shotgun", "rifle"}
_RANGED = {"pistol", "revolver", "shotgun", "rifle"}
_GOOD = ["attack", "defend", "initiative", "first-aid"]
_LOCATIONS = ["head", "right arm", "left arm", "torso", "right leg", "left leg"]
#: Boxes per location under UNH-4 first and later.
_BOXES = {"first": (5, 5, 5, 15, 10, 10), "later": (3, 3, 3, 9, 6, 6)}


def _generated(k: int) -> Scenario:
    """A seeded random fight: a small zone map (solid and dashed lines, cover marks, doors),
    two or three teams, random items in hand, characters already wounded, fixtures and
    objectives, and random rulings."""
    pick = random.Random(5000 + k)
    rulings = {r.id: pick.choice(sorted(r.options)) for r in RULINGS}
    boxes = dict(zip(_LOCATIONS, _BOXES[rulings["UNH-4"]], strict=True))
    n = pick.randint(3, 6)
    areas = [f"Room {i}" for i in range(n)]
    connections: list[dict[str, Any]] = []
    for i in range(1, n):
        j = pick.randrange(i)
        link: dict[str, Any] = {"between": [areas[j], areas[i]]}
        if pick.random() < 0.5:
            link["cover"] = [pick.choice([areas[i], areas[j]])]
        if pick.random() < 0.25:
            link["door"] = pick.choice(["open", "closed"])
        connections.append(link)
    for _ in range(pick.randint(0, 2)):
        a, b = pick.sample(areas, 2)
        if all({a, b} != set(c["between"]) for c in connections):
            connections.append({"between": [a, b], "type": "dashed"})
    sides = ["crew", "gang", "cops"][:pick.choice((2, 2, 3))]
    units: dict[str, Any] = {}
    for i in range(pick.randint(len(sides), 7)):
        items = pick.sample(_ITEMS, pick.randint(1, 4))
        if pick.random() < 0.5 and "first-aid-kit" not in items:
            items[-1] = "first-aid-kit"
        ones = [it for it in items if it not in _TWO_HANDED]
        twos = [it for it in items if it in _TWO_HANDED]
        hold = ([pick.choice(twos)] if twos and pick.random() < 0.4
                else pick.sample(ones, min(len(ones), pick.randint(0, 2))))
        level = pick.randint(25, 85)
        unit: dict[str, Any] = {
            "side": sides[i % len(sides)], "at": pick.choice(areas), "level": level,
            "max_level": min(99, level + pick.choice([0, 0, 5, 15])), "items": items,
            "hold": hold, "good": pick.sample(_GOOD, pick.randint(0, 2)),
        }
        if pick.random() < 0.6:
            marks = {}
            for loc in pick.sample(_LOCATIONS, pick.randint(1, 3)):
                room = boxes[loc] - (1 if loc in ("head", "torso") else 0)
                total = pick.randint(1, min(room, 6))
                marks[loc] = "".join(pick.choice("\\\\\\X#") for _ in range(total))
            unit["marks"] = marks
        carried = [it for it in items if it in _RANGED]
        if carried and pick.random() < 0.5:
            unit["ammo"] = {carried[0]: pick.randint(0, 2)}
        units[f"U{i}"] = unit
    extra: dict[str, Any] = {}
    if pick.random() < 0.4:
        lever, terminal = pick.choice(areas), pick.choice(areas)
        extra["fixtures"] = ({lever: ["lever", "terminal"]} if lever == terminal
                             else {lever: ["lever"], terminal: ["terminal"]})
        extra["objectives"] = [{"side": pick.choice(sides), "use": "lever"}]
        if pick.random() < 0.5:
            extra["objectives"].append({"side": pick.choice(sides), "reach": pick.choice(areas),
                                        "count": pick.randint(1, 2)})
    data = {
        **extra,
        "game": "unhex", "name": f"generated {k}", "max_rounds": pick.randint(3, 12),
        "pcs": pick.choice([[], ["crew"], ["gang"], ["crew", "gang"]]),
        "exits": pick.sample(areas, pick.randint(0, 2)),
        "rulings": rulings,
        "map": {"kind": "zones", "name": f"map {k}", "areas": areas,
                "connections": connections},
        "units": units,
    }
    return scenario_from_mapping(data, source=f"generated-{k}.yaml", base_dir=Path("."))


@pytest.mark.parametrize("k", range(20))
def test_the_kernel_plays_generated_battles_as_the_reference(k: int) -> None:
    _module()
    sc = _generated(k)
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        for index in range(4):
            _same(sc, dict.fromkeys(sides, policy), k, index)


# -- first aid plans, breaking NPCs, dropping with no action left -----------------------------

#: Two NPC teams in two rooms, each with a medic and patients whose `\` marks are spread over
#: several locations (first aid then has plans that split the boxes), an exit to break to.
_INFIRMARY: dict[str, Any] = {
    "game": "unhex", "name": "infirmary", "max_rounds": 8, "pcs": [], "exits": ["Yard"],
    "map": {"kind": "zones", "name": "infirmary", "areas": ["Ward", "Hall", "Yard"],
            "connections": [{"between": ["Ward", "Hall"], "cover": ["Ward"]},
                            {"between": ["Hall", "Yard"]}]},
    "units": {
        "Doc": {"side": "gang", "at": "Ward", "level": 70, "good": ["first-aid"],
                "items": ["first-aid-kit", "pistol", "knife"],
                "hold": ["first-aid-kit", "knife"]},
        "Ann": {"side": "gang", "at": "Ward", "level": 55, "items": ["pistol", "knife"],
                "hold": ["pistol", "knife"],
                "marks": {"left arm": "\\\\\\\\\\", "torso": "\\\\\\", "head": "\\"}},
        "Bo": {"side": "gang", "at": "Ward", "level": 45, "items": ["shotgun"],
               "hold": ["shotgun"], "marks": {"right leg": "\\\\\\\\", "right arm": "\\\\"}},
        "Medic": {"side": "cops", "at": "Hall", "level": 65,
                  "items": ["first-aid-kit", "revolver"], "hold": ["first-aid-kit", "revolver"],
                  "marks": {"torso": "\\\\", "left leg": "\\\\\\"}},
        "Cy": {"side": "cops", "at": "Hall", "level": 60, "items": ["rifle"], "hold": ["rifle"],
               "marks": {"head": "\\\\", "left arm": "\\\\\\", "torso": "\\\\\\\\"}},
        "Di": {"side": "cops", "at": "Hall", "level": 50, "items": ["machete", "bottle"],
               "hold": ["machete", "bottle"]},
    },
}


@pytest.mark.parametrize("ruling", ["break", "wounded-now", "fight-on"])
def test_the_kernel_treats_breaks_and_drops_as_the_reference(ruling: str) -> None:
    """Every plan of a first aid success (boxes split over locations), UNH-27's default
    (wounded in an earlier round) and its options, and ``Drop`` offered with no action left:
    the kernel's battles are the reference's under both policies."""
    _module()
    data = {**_INFIRMARY, "rulings": {"UNH-27": ruling}}
    sc = scenario_from_mapping(data, source="infirmary.yaml", base_dir=Path("."))
    for policy in ("greedy", "random"):
        for index in range(6):
            _same(sc, {"gang": policy, "cops": policy}, 27, index)
    _same(sc, {"gang": "greedy", "cops": "random"}, 27, 6)
