"""Simulation: the fast path plays the logged battle, tallies as it goes, paired comparisons,
runs to a precision, the step budget, executors (a Dask LocalCluster too), Ctrl-C."""

from __future__ import annotations

import json
import pickle
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tactica.analysis.simulate import compare, logged_battle, play_battle, simulate
from tactica.cli import main
from tactica.cli.simulate_cmd import ProgressLine
from tactica.engine.policies import default_policy
from tactica.engine.ruleset import example_scenarios, rulesets
from tactica.engine.scenario import load_scenario
from tactica.engine.stats import battle_stats

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DUEL = str(EXAMPLES / "nebulia" / "duel-cover.yaml")
FIREFIGHT = str(EXAMPLES / "nebulia" / "firefight.yaml")
COP = str(EXAMPLES / "last-odyssey" / "cop-vs-goblin.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# -- the fast path is the logged battle --------------------------------------------------------


def _examples() -> list[Path]:
    return [p for rs in rulesets() for p in example_scenarios(rs)]


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", ["default", "random"])
def test_a_simulated_battle_is_the_logged_battle(path: Path, policy: str) -> None:
    sc = load_scenario(path)
    if policy == "default":  # greedy, or first-option for a game without a valuation part
        policy = default_policy(sc.ruleset)
    sides = sc.ruleset.sides_of(sc.new_state())
    policies = dict.fromkeys(sides, policy)
    for index in range(2):
        fast = play_battle(sc, policies, 7, index)
        full = logged_battle(sc, policies, 7, index)
        stats = battle_stats(sc.ruleset, full.state, full.events())
        assert full.is_over and fast.finished
        assert (fast.winner, fast.rounds, dict(fast.units), fast.steps) == (
            full.winner, stats.rounds, dict(stats.units), full.steps)


# -- tallies, not lists (issue 16, item 10) ----------------------------------------------------


def test_a_report_does_not_grow_with_the_battles() -> None:
    sc = load_scenario(DUEL)
    small = simulate(sc, battles=10, seed=1, workers=1)
    large = simulate(sc, battles=300, seed=1, workers=1)
    assert large.battles == 300
    assert abs(len(pickle.dumps(large)) - len(pickle.dumps(small))) < 64


NO_DAMAGE = textwrap.dedent("""\
    game: nebulia-operations
    max_rounds: 1000
    map:
      kind: grid
      tiles: |
        A..#..B
    units:
      A: {side: red, defense: 1, armor: 3, move: 2,
          weapons: [{name: feather, range: ranged, accuracy: 9, damage: 0}]}
      B: {side: blue, defense: 1, armor: 3, move: 2,
          weapons: [{name: feather, range: ranged, accuracy: 9, damage: 0}]}
    """)


def test_a_battle_nobody_can_win_stops_at_the_step_budget(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    path = tmp_path / "stalemate.yaml"
    path.write_text(NO_DAMAGE)
    sc = load_scenario(path)
    result = play_battle(sc, {"red": "random", "blue": "random"}, 1, 0, max_steps=300)
    assert not result.finished and result.winner is None and result.steps == 300
    report = simulate(sc, battles=3, seed=1, workers=1, max_steps=300)
    assert report.to_dict()["unfinished"] == 3 and report.draws == 0
    code, out, _ = run(capsys, "simulate", str(path), "-n", "2", "-j", "1", "--max-steps", "200")
    assert code == 0 and "unfinished: 2 battles" in out


# -- paired comparisons ------------------------------------------------------------------------


def test_compare_a_ruling_reports_each_variant_and_the_paired_difference(
        capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "simulate", DUEL, "-n", "40", "--seed", "3", "-j", "1",
                   "--compare", "NEB-6=die,characteristic")
    assert list(doc["variants"]) == ["NEB-6=die", "NEB-6=characteristic"]
    assert doc["variants"]["NEB-6=characteristic"]["rulings"]["NEB-6"] == "characteristic"
    (diff,) = doc["paired"]
    assert diff["variant"] == "NEB-6=characteristic" and diff["against"] == "NEB-6=die"
    for outcome in (*doc["variants"]["NEB-6=die"]["wins"], "draw"):
        cell = diff[outcome]
        lo, hi = cell["ci95"]
        assert lo <= cell["difference"] <= hi
        assert cell["significant"] == (lo > 0 or hi < 0)
    # Each variant's own figures are those of a plain simulation of it.
    alone = run_json(capsys, "simulate", DUEL, "-n", "40", "--seed", "3", "-j", "1",
                     "-r", "NEB-6=characteristic")
    assert alone["wins"] == doc["variants"]["NEB-6=characteristic"]["wins"]
    code, out, _ = run(capsys, "simulate", DUEL, "-n", "40", "--seed", "3", "-j", "1",
                       "--compare", "NEB-6=die,characteristic")
    assert code == 0 and "paired difference" in out and "verdict" in out


def test_the_paired_difference_follows_the_battles() -> None:
    sc = load_scenario(DUEL)
    report = compare(sc, "units.B.defense=1,3", battles=60, seed=2, workers=1)
    mean, (_, hi), significant = report.difference(1, "red")
    # A tougher B (defense 3) makes red's wins rarer, battle by battle: a clear difference.
    assert mean < 0 and hi < 0 and significant
    assert report.to_dict()["compare"] == {"key": "units.B.defense", "values": [1, 3],
                                           "kind": "field"}


def test_variants_with_the_same_values_never_differ() -> None:
    sc = load_scenario(DUEL)
    report = compare(sc, "name=one,two", battles=20, seed=2, workers=1)
    for outcome in report.outcomes:
        assert report.difference(1, outcome)[:2] == (0.0, (0.0, 0.0))


@pytest.mark.parametrize(("spec", "message"), [
    ("NEB-6", "--compare: expected RULING=OPTION,OPTION"),
    ("NEB-6=die", "at least two values"),
    ("NEB-6=die,,characteristic", "an empty value"),
    ("NEB-6=die,die", "given twice"),
    ("NEB-99=a,b", "unknown ruling 'NEB-99'"),
    ("NEB-6=die,sideways", "NEB-6"),
    ("units.Z.defense=1,2", "the scenario has no units.Z"),
    ("units.B.defense=1,zero", "units.B.defense=zero does not make a valid scenario"),
])
def test_bad_comparisons_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], spec: str,
                                              message: str) -> None:
    code, out, err = run(capsys, "simulate", DUEL, "-n", "4", "-j", "1", "--compare", spec)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert message in err


@pytest.mark.parametrize(("argv", "message"), [
    (("--precision", "0"), "--precision: expected a half width from 0.0005"),
    (("--precision", "0.1", "-n", "5"), "not both"),
    (("--executor", "dask"), "needs --scheduler"),
    (("--executor", "spark"), "expected process or dask"),
    (("--scheduler", "tcp://127.0.0.1:1"), "--scheduler is for --executor dask"),
])
def test_bad_run_options_exit_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                              argv: tuple[str, ...], message: str) -> None:
    code, out, err = run(capsys, "simulate", DUEL, "-j", "1", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


# -- a precision instead of a count ------------------------------------------------------------


def test_a_run_to_a_precision_stops_when_every_interval_is_narrow_enough(
        capsys: pytest.CaptureFixture[str]) -> None:
    one = run_json(capsys, "simulate", DUEL, "--precision", "0.08", "--seed", "4", "-j", "1")
    two = run_json(capsys, "simulate", DUEL, "--precision", "0.08", "--seed", "4", "-j", "2")
    assert one == two
    assert one["precision"]["reached"] and one["precision"]["widest"] <= 0.08
    halves = [(hi - lo) / 2 for lo, hi in (r["ci95"] for r in one["win_rate"].values())]
    assert max(halves) <= 0.08
    capped = run_json(capsys, "simulate", DUEL, "--precision", "0.01", "--max-battles", "150",
                      "--seed", "4", "-j", "1")
    assert capped["battles"] == 150 and not capped["precision"]["reached"]


def test_a_comparison_to_a_precision_narrows_the_paired_intervals() -> None:
    report = compare(load_scenario(DUEL), "NEB-6=die,characteristic", battles=None,
                     precision=0.1, seed=1, workers=1).to_dict()
    assert report["precision"]["reached"]
    for outcome, cell in report["paired"][0].items():
        if isinstance(cell, dict):
            assert (cell["ci95"][1] - cell["ci95"][0]) / 2 <= 0.1, outcome


# -- executors ---------------------------------------------------------------------------------


def test_the_same_numbers_on_one_or_two_workers_and_on_dask(
        capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    argv = ("simulate", COP, "-n", "30", "--seed", "9", "--compare", "max_rounds=2,30")
    one = run_json(capsys, *argv, "-j", "1")
    two = run_json(capsys, *argv, "-j", "2")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = run_json(capsys, *argv, "--executor", "dask", "--scheduler",
                           cluster.scheduler_address)
        with distributed.Client(cluster) as client:
            direct = simulate(load_scenario(COP), battles=30, seed=9, executor="dask",
                              scheduler=client).to_dict()
    assert one == two == on_dask
    assert direct == simulate(load_scenario(COP), battles=30, seed=9, workers=1).to_dict()


def test_an_unreachable_scheduler_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    code, out, err = run(capsys, "simulate", DUEL, "-n", "4", "--executor", "dask",
                         "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "cannot reach the Dask scheduler" in err


def test_dask_without_the_extra_says_how_to_get_it(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, _, err = run(capsys, "simulate", DUEL, "-n", "4", "--executor", "dask",
                       "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and "pip install 'tactica[sim]'" in err


# -- progress and Ctrl-C (issue 16, item 12) ---------------------------------------------------


def test_progress_off_a_terminal_is_a_line_with_the_rate_and_the_time_left(
        capsys: pytest.CaptureFixture[str]) -> None:
    line = ProgressLine(every=0.0)
    line(50, 200)
    err = capsys.readouterr().err
    assert err.startswith("simulate: 50/200 battles, ") and "/s, " in err and "left" in err


# Ctrl-C of every long command: tests/test_ctrl_c.py (bounded in work, not in time).


def test_a_ruling_under_which_the_scenario_does_not_hold_is_one_line(capsys) -> None:
    # last-shots.yaml marks its cards for UNH-4 first's boxes: under the later rules they do
    # not fit, and --compare says so in one line naming the variant (simulate and exact).
    path = str(EXAMPLES / "unhex" / "last-shots.yaml")
    for argv in (["simulate", path, "--compare", "UNH-4=first,later", "-n", "10"],
                 ["exact", path, "--compare", "UNH-4=first,later"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "Traceback" not in err
        assert err.startswith("error: --compare: UNH-4=later does not make a valid scenario:")
        assert "4 marks, but the head has 3 boxes (and 11 more)" in err
