"""tactica effects: a run to a stated precision, Holm's correction for the number of readings
compared, and readings that reverse a rule said in words (effects and --compare)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tactica.analysis.effects import effects, holm, p_value
from tactica.analysis.paired import paired_difference
from tactica.analysis.simulate import compare
from tactica.engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
WAREHOUSE = ROOT / "examples" / "arc" / "warehouse.yaml"
FIREFIGHT = ROOT / "examples" / "nebulia" / "firefight.yaml"


def test_holm_finds_nothing_where_nothing_is_there_in_most_seeds() -> None:
    # 22 readings x 2 sides, 400 paired battles each, every reading without any effect:
    # each battle's difference is -1, 0 or +1 with equal chances both ways.
    readings, battles = 44, 400
    found_raw, found_holm = 0, 0
    for seed in range(20):
        rng = np.random.default_rng([seed, 34])
        diffs = rng.choice([-1, 0, 0, 1], size=(readings, battles))
        ds = [paired_difference(int(d.sum()), int((d * d).sum()), battles) for d in diffs]
        adjusted = holm([p_value(d) for d in ds])
        found_raw += any(d.significant for d in ds)
        found_holm += any(d.significant and p < 0.05 for d, p in zip(ds, adjusted,
                                                                      strict=True))
    assert found_holm <= 3  # at most 5% of seeds in expectation
    assert found_raw >= 10  # uncorrected, most seeds show some "effect"


def test_holm_keeps_a_real_effect() -> None:
    real = paired_difference(60, 100, 1000)  # +6 pts, clear
    nulls = [paired_difference(0, 100, 1000)] * 20
    adjusted = holm([p_value(d) for d in [real, *nulls]])
    assert adjusted[0] < 0.05 and all(p == 1.0 for p in adjusted[1:])


def test_effects_plays_to_its_precision_and_names_its_correction() -> None:
    report = effects(load_scenario(WAREHOUSE), precision=0.06, max_battles=3000, workers=1,
                     rulings=["ARC-1", "ARC-2", "ARC-31"])
    assert report.precision is not None and report.precision["reached"]
    for e in report.effects:
        for s in report.sides:
            d = e.differences[s]
            assert max(d.high - d.difference, d.difference - d.low) <= 0.06 + 1e-9
    table = report.table()
    assert table.columns[-1].name == "after Holm"
    assert any("Holm's correction for" in n for n in table.notes)
    assert any(n.startswith("played until every interval was within +-6.0 pts")
               for n in table.notes)
    doc = report.to_dict()
    assert doc["correction"]["method"] == "Holm"
    assert doc["correction"]["comparisons"] == len(report.effects) * len(report.sides)
    first = doc["effects"][0]["corrected"]
    for s in report.sides:
        assert first[s]["p_adjusted"] >= first[s]["p_value"]


def test_a_fixed_run_says_how_large_a_difference_it_could_have_seen() -> None:
    report = effects(load_scenario(WAREHOUSE), battles=40, workers=1, rulings=["ARC-1"])
    assert report.precision is None
    assert "so a smaller difference could not show" in report.precision_line()


def test_a_reading_that_reverses_cover_is_said_in_effects_and_compare() -> None:
    scenario = load_scenario(FIREFIGHT)
    report = effects(scenario, battles=20, workers=1, rulings=["NEB-6", "NEB-3"])
    said = [r for r in report.reversals if r.startswith("NEB-6=characteristic reverses cover")]
    assert len(said) == 1 and "cover raises the damage a target takes" in said[0]
    assert not any(r.startswith("NEB-3") for r in report.reversals)
    assert said[0] in report.table().notes
    cmp = compare(scenario, "NEB-6=die,characteristic", battles=20, seed=7, workers=1)
    assert said[0] in cmp.notes()
    assert said[0] in cmp.to_dict()["notes"]
    plain = compare(scenario, "NEB-3=chebyshev,manhattan", battles=20, seed=7, workers=1)
    assert not any("reverses" in n for n in plain.notes())
    unclear = [n for n in cmp.notes() if n.startswith("no clear difference under")]
    assert unclear and all("would have shown" in n for n in unclear)
    assert math.isfinite(cmp.paired_difference(1, "red").low)
