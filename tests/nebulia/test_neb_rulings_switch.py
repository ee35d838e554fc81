"""Rulings are data: each ambiguity of Nebulia Operations is a named option with a default that a
scenario (or the command line) can switch, and every option can be played."""

from __future__ import annotations

import re

import numpy as np
import pytest
from neb_builders import battle_of, op, scenario

from tactica.analysis.simulate import simulate
from tactica.engine.battle import SampledDice
from tactica.engine.errors import ScenarioError, TacticaError
from tactica.engine.policies import GreedyPolicy, RandomPolicy
from tactica.engine.ruleset import get_ruleset
from tactica.rulesets.nebulia.kernel import COVERED_RULINGS

NEB = get_ruleset("nebulia-operations")
ALL_OPTIONS = [(r.id, option) for r in NEB.meta.rulings for option in r.options]
#: Every option, those the kernel does not play marked to run on the reference alone.
BOTH_OPTIONS = [pytest.param(ruling, option, marks=() if option in COVERED_RULINGS[ruling]
                             else pytest.mark.reference_only)
                for ruling, option in ALL_OPTIONS]

TILES = """
A..#....1
B.....#..
.#..#...2
"""


def units() -> dict[str, dict]:
    return {"A": op("red", dice=2), "B": op("red", weapons=[
        {"name": "knife", "range": "melee", "accuracy": 7},
        {"name": "pistol", "range": "ranged", "accuracy": 5}]),
        "1": op("blue"), "2": op("blue", accuracy=4, dice=3)}


def test_the_rulings_are_declared_with_their_defaults_first() -> None:
    ids = [r.id for r in NEB.meta.rulings]
    assert ids == [f"NEB-{i}" for i in range(1, 14)]
    for r in NEB.meta.rulings:
        assert next(iter(r.options)) == r.default, r.id
        assert r.question and all(r.options.values())


def test_defaults_unless_the_scenario_switches_them() -> None:
    sc = scenario("A..B", {"A": op("red"), "B": op("blue")}, rulings={"NEB-3": "manhattan"})
    assert sc.rulings["NEB-3"] == "manhattan"
    assert sc.rulings["NEB-6"] == "die"
    assert sc.rulings.changed() == {"NEB-3": "manhattan"}
    assert battle_of(sc).state.rulings["NEB-3"] == "manhattan"


def test_an_unknown_ruling_or_option_names_the_file_and_what_is_expected() -> None:
    with pytest.raises(ScenarioError) as info:
        scenario("A..B", {"A": op("red"), "B": op("blue")}, rulings={"NEB-3": "taxicab"})
    assert str(info.value) == (
        "test.yaml: rulings: NEB-3: unknown option 'taxicab' "
        "(expected chebyshev, manhattan, euclidean)"
    )
    with pytest.raises(ScenarioError, match=r"test.yaml: rulings: unknown ruling 'NEB-99' "
                                            r"\(this game has NEB-1, NEB-2, .*NEB-13\)"):
        scenario("A..B", {"A": op("red"), "B": op("blue")}, rulings={"NEB-99": "x"})


def test_with_rulings_switches_and_revalidates() -> None:
    sc = scenario("A..B", {"A": op("red"), "B": op("blue")})
    switched = sc.with_rulings({"NEB-6": "characteristic", "NEB-9": "igougo"})
    assert switched.rulings.changed() == {"NEB-6": "characteristic", "NEB-9": "igougo"}
    assert sc.rulings.changed() == {}  # the original is untouched
    with pytest.raises(TacticaError, match=re.escape(
            "--rulings: NEB-9: unknown option 'you-go' (expected alternate, igougo)")):
        sc.with_rulings({"NEB-9": "you-go"})


@pytest.mark.both_engines
@pytest.mark.parametrize(("ruling", "option"), BOTH_OPTIONS)
def test_every_option_of_every_ruling_plays_a_battle_to_the_end(ruling: str, option: str
                                                               ) -> None:
    sc = scenario(TILES, units(), rulings={ruling: option}, max_rounds=6)
    battle = battle_of(sc)
    rng = np.random.default_rng(11)
    policies = {"red": GreedyPolicy(battle.ruleset), "blue": RandomPolicy(battle.ruleset)}
    battle.run(policies, dice=SampledDice(rng, faces=True), rng=rng, max_steps=2000)
    assert battle.is_over
    assert battle.state.rulings[ruling] == option


def test_simulation_compares_two_readings() -> None:
    sc = scenario(TILES, units(), max_rounds=6)
    die = simulate(sc, battles=30, seed=5, workers=1)
    characteristic = simulate(sc.with_rulings({"NEB-6": "characteristic"}), battles=30, seed=5,
                              workers=1)
    assert die.rulings["NEB-6"] == "die"
    assert characteristic.rulings["NEB-6"] == "characteristic"
    # Cover helps the defender under "die" and hurts it under "characteristic": over the same
    # seeds the units take different damage.
    taken = [{u: r.units[u]["damage_taken_mean"] for u in r.units} for r in (die, characteristic)]
    assert taken[0] != taken[1]
