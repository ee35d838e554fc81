"""The compiled simulation kernel plays the reference's battles, battle for battle.

Every example scenario x both policies x every option of every ruling the kernel covers (each
option on its own, and a few mixes of all of them) x seeds: the kernel's BattleResult equals
the reference's (:func:`tactica.analysis.sim.play.play_battle`). A battle the kernel does not cover
is played by the reference and counted as such. ``make test`` fails when the kernel was not
built, unless ``TACTICA_KERNELS_OPTIONAL=1`` says that is expected (a machine without a C
compiler).
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.sim.kernels import prepared_kernel, simulated_battle
from tactica.analysis.simulate import play_battle, simulate
from tactica.engine.ruleset import NotCovered, example_scenarios, get_ruleset
from tactica.engine.scenario import Scenario, load_scenario, scenario_from_mapping
from tactica.rulesets.nebulia import RULINGS, kernel
from tactica.testing import kernels as kt

NEBULIA = get_ruleset("nebulia")
SCENARIOS = {p.stem: p for p in example_scenarios(NEBULIA)}
#: Seeds per battle setting: the duels are short, the firefight long.
BATTLES = {"duel": 12, "duel-cover": 12, "firefight": 3}
MIXES = 3


def test_the_kernel_is_built() -> None:
    kt.require_built("tactica.rulesets.nebulia._kernel")


def _module() -> Any:
    return kt.built_kernel(kernel)


def test_the_kernel_covers_every_declared_ruling_option() -> None:
    kt.assert_covers_declared_rulings(RULINGS, kernel.COVERED_RULINGS)


@pytest.mark.parametrize("size", [0, 1, 7, 8, 30, 127, 128, 129, 256, 300])
def test_the_native_dice_words_are_hashlib_blake2b(size: int) -> None:
    module = _module()
    data = bytes(range(256))[:size] * 2
    data = data[:size]
    for counter in (0, 1, 2, 255, 2**40 + 3):
        salt = counter.to_bytes(16, "little")
        want = int.from_bytes(hashlib.blake2b(data, digest_size=8, salt=salt).digest(), "little")
        assert module.blake2b_word(data, counter) == want


def test_the_native_policy_draws_are_numpys_default_rng_integers() -> None:
    import numpy as np

    module = _module()
    pick = random.Random(5)
    for _ in range(300):
        entropy = [pick.choice([0, 1, pick.randrange(2**32), pick.randrange(2**64)]),
                   pick.randrange(10**6), 1, pick.randrange(8)]
        ns = [pick.randint(1, 400) for _ in range(pick.randint(1, 12))]
        generator = np.random.default_rng(entropy)
        assert module.policy_integers(entropy, ns) == [int(generator.integers(n)) for n in ns]


VARIANTS = kt.ruling_variants(RULINGS, seed=23, mixes=MIXES)


def _scenario(name: str, variant: str) -> Scenario:
    return kt.with_rulings(load_scenario(SCENARIOS[name]), VARIANTS[variant])


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kernel_plays_the_reference_battles(name: str, variant: str) -> None:
    _module()
    sc = _scenario(name, variant)
    prepared = prepared_kernel(sc)
    sides = sc.ruleset.sides_of(sc.new_state())
    seed = 1000 + len(variant)
    for policy in ("greedy", "random"):
        for index in range(BATTLES[name]):
            kt.assert_same_battle(sc, prepared, dict.fromkeys(sides, policy), seed, index)
    for index in range(2):
        kt.assert_same_battle(sc, prepared, {sides[0]: "greedy", sides[1]: "random"}, seed,
                              index)


def test_consulted_rulings_come_from_the_kernel_and_match_the_reference() -> None:
    _module()
    got = kt.assert_consulted_by_kernel(_scenario("duel", "defaults"),
                                        {"red": "greedy", "blue": "random"}, 4, 2)
    assert "NEB-6" in got.consulted and "NEB-10" not in got.consulted


def test_a_kernel_that_cannot_say_what_it_consulted_leaves_the_battle_to_the_reference() -> None:
    _module()
    kt.assert_reference_when_not_consulting(_scenario("duel", "defaults"),
                                            {"red": "greedy", "blue": "greedy"}, 4, 2)


@pytest.mark.parametrize("max_steps", [1, 2, 5, 17, 60])
def test_a_battle_stopped_at_the_step_budget_is_the_same(max_steps: int) -> None:
    _module()
    sc = load_scenario(SCENARIOS["firefight"])
    prepared = prepared_kernel(sc)
    assert not isinstance(prepared, NotCovered)
    for policy in ("greedy", "random"):
        policies = dict.fromkeys(("red", "blue"), policy)
        got = prepared.play(policies, 5, 1, max_steps)
        assert got == play_battle(sc, policies, 5, 1, max_steps=max_steps)
        assert not isinstance(got, NotCovered)
        assert got.finished is False or max_steps > 17


def test_a_draw_at_the_round_limit_is_the_same() -> None:
    _module()
    sc = _scenario("firefight", "defaults")
    data = dict(sc.data)
    data["max_rounds"] = 2
    short = scenario_from_mapping(data, source="short.yaml", base_dir=sc.base_dir)
    prepared = prepared_kernel(short)
    assert not isinstance(prepared, NotCovered)
    policies = {"red": "greedy", "blue": "greedy"}
    results = [prepared.play(policies, 2, i, 20_000) for i in range(3)]
    assert results == [play_battle(short, policies, 2, i) for i in range(3)]
    assert all(not isinstance(r, NotCovered) and r.winner is None and r.finished
               for r in results)


# -- what the kernel does not cover is played by the reference, and counted ------------------


def _big_map() -> Scenario:
    rows = ["." * 40 for _ in range(30)]
    rows[0] = "A" + rows[0][1:]
    rows[29] = rows[29][:39] + "B"
    data = {
        "game": "nebulia-operations", "name": "A wide field",
        "map": {"kind": "grid", "tiles": "\n".join(rows) + "\n"},
        "max_rounds": 1,
        "units": {
            "A": {"side": "red", "defense": 2, "armor": 3, "move": 3,
                  "weapons": [{"name": "rifle", "range": "ranged", "accuracy": 6}]},
            "B": {"side": "blue", "defense": 2, "armor": 3, "move": 3, "weapons": ["rifle"]},
        },
    }
    return scenario_from_mapping(data, source="wide.yaml", base_dir=Path("."))


def test_a_map_beyond_the_kernel_falls_back_to_the_reference_and_is_counted() -> None:
    sc = _big_map()
    prepared = prepared_kernel(sc)
    assert isinstance(prepared, NotCovered) or kernel.compiled() is None
    assert "40 x 30" in prepared.reason or prepared.reason == kernel.NOT_BUILT
    result, engine = simulated_battle(sc, {"red": "random", "blue": "random"}, 1, 0, 20_000)
    assert not engine.is_kernel
    assert result == play_battle(sc, {"red": "random", "blue": "random"}, 1, 0)
    report = simulate(sc, battles=2, seed=1, workers=1, policies="random")
    assert report.to_dict()["engine"] == {"kernel": 0, "reference": 2,
                                          "reasons": {prepared.reason: 2}}
    assert "40 x 30" in report.engine_line() or kernel.NOT_BUILT in report.engine_line()


def test_a_ruling_option_the_kernel_does_not_know_falls_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _module()
    monkeypatch.setitem(kernel.COVERED_RULINGS, "NEB-9", ("alternate",))  # type: ignore[index]
    sc = _scenario("duel", "NEB-9=igougo")
    assert prepared_kernel(sc) == NotCovered("NEB-9=igougo")
    kt.assert_reference_played(simulate(sc, battles=4, seed=3, workers=1), 4, "NEB-9=igougo")


def test_without_the_extension_the_reference_plays_and_says_why() -> None:
    kt.assert_reference_without_extension(
        kernel, _scenario("duel", "defaults"),
        lambda sc: simulate(sc, battles=5, seed=3, workers=1), 5)


def test_tactica_kernels_0_forces_the_reference() -> None:
    _module()
    sc = _scenario("duel-cover", "defaults")
    _, on, off = kt.assert_same_without_kernels(
        lambda: simulate(sc, battles=20, seed=4, workers=1).to_dict())
    assert on == {"kernel": 20, "reference": 0, "reasons": {}}
    assert off == {"kernel": 0, "reference": 20, "reasons": {"TACTICA_KERNELS=0": 20}}


# -- the same numbers with and without kernels, on every executor -------------------------------


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    import json

    from tactica.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    found: dict[str, Any] = json.loads(out)
    return found


def test_the_same_json_with_and_without_kernels_on_one_or_two_workers_and_dask(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    _module()
    path = str(SCENARIOS["firefight"])
    runs = {
        "simulate": ("simulate", path, "-n", "16", "--seed", "9", "--policy", "random"),
        "compare": ("simulate", path, "-n", "12", "--seed", "9", "--compare",
                    "NEB-12=enemies,any"),
    }
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        for name, argv in runs.items():
            variants = 2 if name == "compare" else 1
            n = int(argv[3]) * variants
            monkeypatch.setenv("TACTICA_KERNELS", "0")
            reference = _json(capsys, *argv, "--json", "-j", "1")
            assert reference.pop("engine") == {"kernel": 0, "reference": n,
                                                "reasons": {"TACTICA_KERNELS=0": n}}
            monkeypatch.setenv("TACTICA_KERNELS", "1")  # every battle, however short the run
            one = _json(capsys, *argv, "--json", "-j", "1")
            two = _json(capsys, *argv, "--json", "-j", "2")
            on_dask = _json(capsys, *argv, "--json", "--executor", "dask", "--scheduler",
                            cluster.scheduler_address)
            for got in (one, two, on_dask):
                assert got.pop("engine") == {"kernel": n, "reference": 0, "reasons": {}}
                assert got == reference


def test_the_table_says_who_played_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from tactica.cli import main

    _module()
    assert main(["simulate", str(SCENARIOS["duel"]), "-n", "7", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "engine: 7 battles by the compiled kernel, 0 by the reference" in out


# -- beyond the examples: generated maps, three sides, odd content ----------------------------

_WEAPONS = [
    {"name": "knife", "range": "melee", "accuracy": 7, "dice": 1, "damage": 1},
    {"name": "maul", "range": "melee", "accuracy": 5, "dice": 2, "damage": 2},
    {"name": "rifle", "range": "ranged", "accuracy": 6, "dice": 1, "damage": 1},
    {"name": "smg", "range": "ranged", "accuracy": 4, "dice": 3, "damage": 1},
    {"name": "cannon", "range": "ranged", "accuracy": 2, "dice": 5, "damage": 3},
    {"name": "dud", "range": "ranged", "accuracy": 0, "dice": 1, "damage": 0},
]


def _generated(k: int) -> Scenario:
    """A seeded random scenario: a small map with walls, two or three sides, mixed content,
    some operators already hurt, and random rulings."""
    pick = random.Random(1000 + k)
    w, h = pick.randint(5, 11), pick.randint(4, 8)
    tiles = [["#" if pick.random() < 0.18 else "." for _ in range(w)] for _ in range(h)]
    sides = ["red", "blue", "green"][: pick.choice((2, 2, 3))]
    units: dict[str, Any] = {}
    free = [(x, y) for y in range(h) for x in range(w) if tiles[y][x] == "."]
    pick.shuffle(free)
    names = "ABCDEFGHJK"
    for i in range(min(len(free), pick.randint(len(sides), 7))):
        x, y = free[i]
        uid = names[i]
        tiles[y][x] = uid
        defense = pick.randint(1, 4)
        units[uid] = {
            "side": sides[i % len(sides)], "defense": defense, "armor": pick.randint(0, 6),
            "move": pick.randint(0, 4),
            "weapons": pick.sample(_WEAPONS, pick.randint(1, 3)),
        }
        if defense > 1 and pick.random() < 0.3:
            units[uid]["defense_lost"] = 1
    data = {
        "game": "nebulia-operations", "name": f"generated {k}",
        "max_rounds": pick.randint(2, 15),
        "rulings": {r.id: pick.choice(sorted(r.options)) for r in RULINGS},
        "map": {"kind": "grid", "tiles": "\n".join("".join(row) for row in tiles) + "\n"},
        "units": units,
    }
    return scenario_from_mapping(data, source=f"generated-{k}.yaml", base_dir=Path("."))


@pytest.mark.parametrize("k", range(10))
def test_the_kernel_plays_generated_battles_as_the_reference(k: int) -> None:
    _module()
    sc = _generated(k)
    prepared = prepared_kernel(sc)
    sides = sc.ruleset.sides_of(sc.new_state())
    for policy in ("greedy", "random"):
        for index in range(4):
            kt.assert_same_battle(sc, prepared, dict.fromkeys(sides, policy), k, index,
                                  consulted=False)
