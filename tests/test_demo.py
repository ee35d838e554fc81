"""``tactica demo``: the main job on embedded defaults, and the dice tour."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.cli import main
from tactica.cli.demo_job import demo_scenario

ROOT = Path(__file__).resolve().parent.parent


def test_demo_scenario_is_an_example_shipped_in_the_package() -> None:
    path, ruling = demo_scenario()
    example = ROOT / "examples" / "nebulia" / "firefight.yaml"
    assert path == example.resolve() and ruling == "NEB-9"


def test_demo_runs_odds_and_a_ruling_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--battles", "8", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Every attack possible from the opening positions" in out
    assert "A attacks 4 with rifle" in out  # the first attack in cover, explained
    assert "NEB-9=igougo" in out and "verdict: NEB-9=igougo against NEB-9=alternate" in out
    assert "8 battles each" in out


def test_demo_dice_tour(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--dice"]) == 0
    assert "D10 pools rolled under" in capsys.readouterr().out


def test_the_demos_verdict_does_not_hang_on_the_seed() -> None:
    # The demo's default number of battles gives the same words for every side whatever
    # the seed (kernels make its 10,000 battles per reading cheap).
    from tactica.cli.demo_job import DEMO_BATTLES, demo_comparison

    verdicts = set()
    for seed in range(1, 6):
        report = demo_comparison(DEMO_BATTLES, seed, workers=2)
        verdicts.add(tuple(report.paired_difference(1, s).verdict for s in report.sides))
    assert len(verdicts) == 1 and verdicts.pop() in {("higher", "lower"), ("lower", "higher")}
