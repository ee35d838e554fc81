"""Whole battles on the nightclub: seeded, reproducible, with confidence intervals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from unh_builders import NIGHTCLUB_FIGHT

from tactica.analysis.simulate import play_battle, simulate
from tactica.cli import main
from tactica.engine.battle import Battle, SampledDice
from tactica.engine.events import Decided, dumps
from tactica.engine.policies import make_policy
from tactica.engine.scenario import load_scenario

pytestmark = pytest.mark.both_engines

GREEDY = {"crew": "greedy", "club": "greedy"}


@pytest.mark.reference_only  # no step played after the set-up
@pytest.mark.slow
def test_a_few_hundred_battles_give_win_rates_with_intervals() -> None:
    sc = load_scenario(NIGHTCLUB_FIGHT)
    report = simulate(sc, battles=200, seed=3, workers=1)
    doc = report.to_dict()
    assert sum(doc["wins"].values()) + doc["draws"] == 200
    for side in ("crew", "club"):
        p, (lo, hi) = report.win_rate(side)
        assert 0 < lo <= p <= hi < 1  # both teams win sometimes: a real fight
    assert set(doc["units"]) == {"Rook", "Mara", "Jet", "Vince", "Lola", "Dmitri", "Sal"}
    assert all(0 <= u["survival_ci95"][0] <= u["survival"] <= u["survival_ci95"][1] <= 1
               for u in doc["units"].values())
    assert 1 <= doc["rounds"]["min"] <= doc["rounds"]["mean"] <= doc["rounds"]["max"] <= 40


@pytest.mark.reference_only  # no step played after the set-up
def test_the_same_seed_gives_the_same_battles() -> None:
    sc = load_scenario(NIGHTCLUB_FIGHT)
    first = [play_battle(sc, GREEDY, 9, i) for i in range(3)]
    assert first == [play_battle(sc, GREEDY, 9, i) for i in range(3)]
    assert first != [play_battle(sc, GREEDY, 10, i) for i in range(3)]
    one = simulate(sc, battles=12, seed=5, workers=1).to_dict()
    assert one == simulate(sc, battles=12, seed=5, workers=2).to_dict()


@pytest.mark.reference_only  # no step played after the set-up
def test_greedy_policies_react_and_use_the_dice_choices() -> None:
    sc = load_scenario(NIGHTCLUB_FIGHT)
    labels: set[str] = set()
    for i in range(4):
        rng = np.random.default_rng([1, i])
        b = Battle(sc.ruleset, sc.new_state())
        b.run({s: make_policy("greedy", b.ruleset) for s in ("crew", "club")},
              dice=SampledDice(rng), rng=rng)
        for e in b.log:
            if isinstance(e, Decided):
                labels.add(e.label.split(": ", 1)[1].split(" ")[0])
                if "react to" in e.label or "intercept" in e.label:
                    labels.add(f"react:{getattr(e.choice, 'kind', e.choice)}")
        assert b.is_over
        assert dumps(b.log[-1])
    assert {"which", "react:none", "react:defend", "react:intercept"} <= labels


@pytest.mark.reference_only  # no step played after the set-up
def test_simulate_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", str(NIGHTCLUB_FIGHT), "-n", "10", "--seed", "4", "-j", "1", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["battles"] == 10 and set(doc["win_rate"]) == {"crew", "club"}
    assert all(len(v["ci95"]) == 2 for v in doc["win_rate"].values())
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == doc
    assert main(["simulate", str(NIGHTCLUB_FIGHT), "-n", "10", "--seed", "4", "-j", "1",
                 "-p", "random", "--json", "-r", "UNH-6=random"]) == 0
    assert json.loads(capsys.readouterr().out)["rulings"]["UNH-6"] == "random"
