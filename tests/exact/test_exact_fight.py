"""Exact whole fights: a closed form checked by hand, the examples against 20,000 seeded battles,
exact comparisons, the budget and the policies' distributions."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tactica.analysis.exact import (
    BudgetExceeded,
    ExactPolicy,
    exact_compare,
    exact_fight,
    exact_policy,
)
from tactica.analysis.simulate import simulate
from tactica.cli import main
from tactica.engine.chance import Decide, Done
from tactica.engine.errors import TacticaError
from tactica.engine.policies import ScriptedPolicy
from tactica.engine.ruleset import valuation_hooks
from tactica.engine.scenario import load_scenario, scenario_from_mapping

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: The examples whose exact search takes a minute or more: run with TACTICA_EXACT_ALL=1.
ALL = os.environ.get("TACTICA_EXACT_ALL") == "1"
Z99 = 2.5758293035489004


def stand_and_shoot(max_rounds: int, *, armor_b: int = 2, cover: bool = False) -> dict:
    """Two Nebulia operators who cannot move (move 0), one hit puts each out of action, red
    first in every round (NEB-11 fixed); with ``cover`` a crate by B gives it cover (as in
    duel-cover.yaml: three of the four lines from A's tile reach B)."""
    return {
        "game": "nebulia-operations", "name": "Stand and shoot",
        "rulings": {"NEB-3": "chebyshev", "NEB-11": "fixed"}, "max_rounds": max_rounds,
        "map": {"kind": "grid", "tiles": "A.........\n" + (".......#..\n" if cover else
                                                              "..........\n") + ".......B..\n"},
        "units": {
            "A": {"side": "red", "defense": 1, "armor": 3, "move": 0,
                  "weapons": [{"name": "rifle", "range": "ranged", "accuracy": 6, "dice": 1,
                               "damage": 1}]},
            "B": {"side": "blue", "defense": 1, "armor": armor_b, "move": 0,
                  "weapons": [{"name": "rifle", "range": "ranged", "accuracy": 5, "dice": 1,
                               "damage": 1}]},
        },
    }


def test_two_operators_who_only_stand_and_shoot_follow_the_geometric_series() -> None:
    # The seed's attack: one d10 hits on accuracy or under (here 0 to 9: accuracy/10), then
    # one armor d10 saves on armor or under (armor/10); one point of damage against defense 1
    # is out of action. Red shoots first each round, then blue, until one is hit or the
    # rounds run out.
    rounds = 4
    sc = scenario_from_mapping(stand_and_shoot(rounds), source="stand.yaml", base_dir=ROOT)
    red = Fraction(6, 10) * (1 - Fraction(2, 10))      # A's rifle against B's armor 2
    blue = Fraction(5, 10) * (1 - Fraction(3, 10))     # B's rifle against A's armor 3
    miss = (1 - red) * (1 - blue)                      # a round in which nobody falls
    p_red = sum(miss ** k * red for k in range(rounds))
    p_blue = sum(miss ** k * (1 - red) * blue for k in range(rounds))
    odds = exact_fight(sc, policies="greedy")
    assert odds.p("red") == p_red == Fraction(559071927, 781250000)
    assert odds.p("blue") == p_blue
    assert odds.p("unfinished") == miss ** rounds
    assert odds.p("draw") == 0
    # The rounds: the fight ends in round k when it was not over before it.
    for k in range(1, rounds):
        assert odds.rounds().p(k) == miss ** (k - 1) * (1 - miss)
    assert odds.rounds().p(rounds) == miss ** (rounds - 1)
    assert odds.standing("red").p(1) == 1 - p_blue
    assert odds.to_dict()["win"]["red"]["p_exact"] == "559071927/781250000"


def _check_against_battles(sc, policies, *, seed: int, battles: int = 20_000) -> None:
    odds = exact_fight(sc, policies=policies)  # within the default budget, or refused
    report = simulate(sc, battles=battles, seed=seed, policies=policies, workers=1)
    assert report.battles == battles
    counts = {**report.wins, "draw + unfinished": report.draws + report.tally.unfinished}
    exact = {**{s: odds.p(s) for s in odds.sides},
             "draw + unfinished": odds.p("draw") + odds.p("unfinished")}
    for result, p in exact.items():
        # The 99% interval of a proportion of `battles` battles around the exact chance: the
        # battles' rate must fall inside it (the same test as the exact chance inside the
        # battles' 99% interval, with the exact chance's own spread).
        sd = (float(p) * (1 - float(p)) / battles) ** 0.5
        rate = counts[result] / battles
        assert abs(rate - float(p)) <= Z99 * sd + 1e-9, (result, rate, float(p))


def test_the_stand_and_shoot_fight_agrees_with_20000_battles() -> None:
    sc = scenario_from_mapping(stand_and_shoot(6), source="stand.yaml", base_dir=ROOT)
    _check_against_battles(sc, "greedy", seed=11)
    _check_against_battles(sc, "random", seed=12)


def test_cop_against_goblin_agrees_with_20000_battles() -> None:
    sc = load_scenario(EXAMPLES / "last-odyssey" / "cop-vs-goblin.yaml")
    _check_against_battles(sc, "greedy", seed=5)


def example(name: str, max_rounds: int | None = None):
    """An example scenario, with a shorter round limit where given (the same fight, ended
    sooner: its search fits the default budget)."""
    path = EXAMPLES / name
    if max_rounds is None:
        return load_scenario(path)
    import yaml
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return scenario_from_mapping({**data, "max_rounds": max_rounds}, source=str(path),
                                 base_dir=path.parent)


#: The examples that fit the default budget but take a minute or more (docs/exact.md lists
#: how far each game's search reaches), with the round limit that makes them fit (``None``:
#: the whole fight as the example sets it).
EXAMPLE_FIGHTS = [
    ("nebulia/duel.yaml", None, "greedy"),
    ("nebulia/duel-cover.yaml", None, "greedy"),
    ("skirmishers/shot.yaml", None, "greedy"),
    ("unhex/last-shots.yaml", None, "greedy"),
    ("unhex/back-room.yaml", 1, "greedy"),
]


def slowed_gunmen(max_rounds: int) -> dict:
    """A small Arc fight: Francis and Jane of the pistol duel, slowed to 2 AP a round and
    with 4 health each, with concealable pistols (no magazine to count) at 8 m. The pistol
    duel itself is far past any budget (docs/exact.md): this is the Arc fight the exact
    search can follow to its end."""
    return {
        "game": "arc", "name": "Slowed gunmen", "max_rounds": max_rounds,
        "ranges": [{"between": ["Francis", "Jane"], "metres": 8}],
        "units": {
            name: {"side": name.lower(), "character": name.lower(),
                   "weapons": ["pistol-concealable"], "health": 4, "speed": 2}
            for name in ("Francis", "Jane")},
    }


@pytest.mark.slow
@pytest.mark.skipif(not ALL, reason="a minute or more each: TACTICA_EXACT_ALL=1 runs them")
@pytest.mark.parametrize(("name", "max_rounds", "policy"), EXAMPLE_FIGHTS)
def test_every_example_agrees_with_20000_battles(name: str, max_rounds: int | None,
                                                 policy: str) -> None:
    _check_against_battles(example(name, max_rounds), policy, seed=3)


@pytest.mark.slow
@pytest.mark.skipif(not ALL, reason="a minute or more: TACTICA_EXACT_ALL=1 runs it")
def test_a_small_arc_fight_agrees_with_20000_battles() -> None:
    sc = scenario_from_mapping(slowed_gunmen(2), source="slowed.yaml", base_dir=ROOT)
    _check_against_battles(sc, "greedy", seed=3)


def test_one_round_of_a_small_arc_fight_agrees_with_battles() -> None:
    # Always on: the slowed gunmen for one round; two rounds run with TACTICA_EXACT_ALL=1.
    sc = scenario_from_mapping(slowed_gunmen(1), source="slowed.yaml", base_dir=ROOT)
    odds = exact_fight(sc, policies="greedy")
    assert odds.p("francis") > 0 and odds.p("jane") > 0
    _check_against_battles(sc, "greedy", seed=4, battles=4_000)


def test_skirmishers_shot_for_one_round_agrees_with_battles() -> None:
    # Always on: the rifleman and the two targets of shot.yaml for one round (270 states);
    # the whole fight, three rounds (85,508 states), runs with TACTICA_EXACT_ALL=1.
    sc = example("skirmishers/shot.yaml", 1)
    odds = exact_fight(sc, policies="greedy")
    assert odds.states < 1_000
    assert odds.p("blue") > 0 and odds.p("red") == 0  # A cannot put both down in one round
    _check_against_battles(sc, "greedy", seed=4, battles=4_000)


# --------------------------------------------------------------------------------------------
# Comparisons


def test_an_exact_comparison_gives_the_exact_difference_of_neb6() -> None:
    # Behind the crate B is in cover: NEB-6 decides whether cover's -1 goes on the armor die
    # (the die reads 1 lower: armor 2 saves on 0..3) or on the characteristic (armor 2 saves
    # on 0..1); in the open it changes nothing.
    sc = scenario_from_mapping(stand_and_shoot(3, cover=True), source="s.yaml", base_dir=ROOT)
    report = exact_compare(sc, "NEB-6=die,characteristic", policies="greedy")
    die, characteristic = report.odds
    assert report.consulted is True
    assert report.difference(1, "red") == characteristic.p("red") - die.p("red") != 0
    assert characteristic.p("red") > die.p("red")  # a worse save for B: red wins more
    doc = report.to_dict()
    assert doc["differences"][0]["red"]["difference_exact"] == str(report.difference(1, "red"))
    assert report.notes() == []


def test_a_ruling_never_consulted_is_said_so() -> None:
    # A cop and a goblin, face to face: nobody ever calls the initiative (LOD-8).
    sc = load_scenario(EXAMPLES / "last-odyssey" / "cop-vs-goblin.yaml")
    report = exact_compare(sc, "LOD-8=call-one,policy", policies="greedy")
    assert report.consulted is False
    assert report.difference(1, "police") == 0
    assert "never consulted" in report.notes()[0]


# --------------------------------------------------------------------------------------------
# Policies and the budget


def test_greedy_ties_are_shared_equally_and_random_is_uniform() -> None:
    sc = load_scenario(EXAMPLES / "nebulia" / "duel.yaml")
    state = sc.new_state()
    pending = sc.ruleset.pending(state)
    while not hasattr(pending, "actions"):
        from tactica.engine.battle import Battle, SampledDice
        battle = Battle(sc.ruleset, state)
        battle.advance(dice=SampledDice(1))
        state, pending = battle.state, battle.pending
    decision = Decide(pending.side, "action", pending.actions, Done)
    greedy = exact_policy("greedy", sc.ruleset).distribution(decision, state)
    hooks = valuation_hooks(sc.ruleset)
    assert hooks is not None
    values = hooks.rank(state, pending.actions)
    best = max(values)
    top = [a for a, v in zip(pending.actions, values, strict=True) if v >= best - 1e-12]
    assert set(greedy.outcomes) == set(top)
    assert all(p == Fraction(1, len(top)) for _, p in greedy.items())
    rand = exact_policy("random", sc.ruleset).distribution(decision, state)
    assert len(rand) == len(pending.actions)
    assert exact_policy("first-option", sc.ruleset).distribution(decision, state).outcomes == (
        pending.actions[0],)
    assert isinstance(exact_policy("greedy", sc.ruleset), ExactPolicy)


def test_a_policy_that_cannot_state_its_distribution_is_refused() -> None:
    sc = load_scenario(EXAMPLES / "nebulia" / "duel.yaml")
    with pytest.raises(TacticaError, match="cannot state the chance"):
        exact_policy(ScriptedPolicy([]), sc.ruleset)


def test_past_the_budget_one_line_says_how_far_and_what_to_try(capsys) -> None:
    code = main(["exact", str(EXAMPLES / "nebulia" / "firefight.yaml"), "--max-states", "300"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("error: ")
    assert "300 distinct states" in err[0]
    assert "a smaller map, fewer rounds, or `simulate --precision`" in err[0]
    sc = load_scenario(EXAMPLES / "nebulia" / "firefight.yaml")
    with pytest.raises(BudgetExceeded) as caught:
        exact_fight(sc, max_states=50)
    assert caught.value.states == 50


MEMORY_PROBE = """
import json, sys, time, tracemalloc
from tactica.analysis.exact import BudgetExceeded, exact_fight
from tactica.engine.scenario import load_scenario
sc = load_scenario(sys.argv[1])
tracemalloc.start()
start = time.process_time()
try:
    exact_fight(sc, max_states=int(sys.argv[2]))
    refused = False
except BudgetExceeded:
    refused = True
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({"refused": refused, "peak": peak, "cpu": time.process_time() - start}))
"""


def test_memory_stays_bounded_on_a_fight_far_past_the_budget(tmp_path: Path) -> None:
    # The firefight (5 against 5 on a large map) has far more states than any budget: the
    # search is refused at its budget, having held what that many states take.
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_PROBE, str(EXAMPLES / "nebulia" / "firefight.yaml"),
         "2000"], capture_output=True, text=True, check=True, cwd=tmp_path)
    probe = json.loads(out.stdout)
    assert probe["refused"] is True
    assert probe["peak"] < 64 * 2**20, probe  # 2,000 states in well under 64 MB


# --------------------------------------------------------------------------------------------
# The command


def test_the_command_prints_json_csv_and_markdown(tmp_path: Path, capsys) -> None:
    path = tmp_path / "stand.yaml"
    import yaml
    path.write_text(yaml.safe_dump(stand_and_shoot(4)), encoding="utf-8")
    assert main(["exact", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["win"]["red"]["p_exact"] == "559071927/781250000"
    assert doc["policies"] == {"red": "greedy", "blue": "greedy"}
    assert sum(Fraction(r["p_exact"]) for r in doc["rounds"]) == 1
    csv = tmp_path / "out.csv"
    assert main(["exact", str(path), "--csv", str(csv), "--markdown", "--exact"]) == 0
    text = capsys.readouterr().out
    assert "| red wins" in text and "559071927/781250000" in text
    assert "red wins" in csv.read_text(encoding="utf-8")
    assert main(["exact", str(path), "--policy", "red=random", "--policy", "blue=greedy",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["policies"]["red"] == "random"
    assert main(["exact", str(path), "--policy", "green=random"]) == 2
    assert "no side 'green'" in capsys.readouterr().err
    pytest.importorskip("matplotlib")
    assert main(["exact", str(path), "--plot", str(tmp_path / "stand.png")]) == 0
    assert (tmp_path / "stand.png").read_bytes()[:4] == b"\x89PNG"


def test_ctrl_c_stops_a_long_search_at_once(tmp_path: Path) -> None:
    # The firefight's search runs for minutes: once it has said how far it got (its progress
    # on standard error), Ctrl-C stops it with one line and exit code 130.
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from tactica.cli import main; "
         "sys.exit(main(sys.argv[1:]))", "exact", str(EXAMPLES / "nebulia" / "firefight.yaml"),
         "--max-states", "2000000"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert first.startswith("exact: ") and "states searched" in first
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1].startswith("interrupted: the exact search was stopped")
    assert "Traceback" not in err


def test_every_way_the_fight_can_end_is_one_state() -> None:
    # Finished states that differ only in what no longer matters (the fallen's wounds, the
    # rounds left in a gun) are one end of the fight: one state per outcome.
    import yaml

    from tactica.analysis.exact import _Search, exact_policy
    data = yaml.safe_load((EXAMPLES / "last-odyssey" / "cop-vs-goblin.yaml").read_text())
    sc = scenario_from_mapping({**data, "max_rounds": 3}, source="cop.yaml",
                               base_dir=EXAMPLES / "last-odyssey")
    state = sc.new_state()
    policies = {s: exact_policy("greedy", sc.ruleset) for s in sc.ruleset.sides_of(state)}
    search = _Search(sc.ruleset, state, policies, limit_reason=None, max_states=100_000,
                     rounds=0, progress=None)
    graph = search.run()
    assert graph.ends
    assert len(set(graph.ends.values())) == len(graph.ends)


def test_unhex_back_room_from_its_last_round_agrees_with_battles() -> None:
    # Always on: the back room's whole fight (three rounds) is past the default budget, and
    # one round of it (52,856 states) runs with TACTICA_EXACT_ALL=1; here a seeded battle of
    # the example is played to its last round and the rest of the fight searched exactly,
    # then played 2,000 times from there.
    import numpy as np

    from tactica.analysis.chances import chances_from
    from tactica.engine.battle import Battle, SampledDice
    from tactica.engine.policies import make_policy

    sc = load_scenario(EXAMPLES / "unhex" / "back-room.yaml")
    ruleset = sc.ruleset
    battle = Battle(ruleset, sc.new_state())
    sides = ruleset.sides_of(battle.state)
    played = {s: make_policy("greedy", ruleset) for s in sides}
    dice, rng = SampledDice(np.random.default_rng(24)), np.random.default_rng(124)
    while battle.state.round < sc.max_rounds:
        assert not battle.is_over
        battle.step(played, dice=dice, rng=rng)
    policies = dict.fromkeys(sides, "greedy")
    exact = chances_from(ruleset, battle.state, policies, max_rounds=sc.max_rounds,
                         max_states=5_000)
    assert exact.exact and exact.states < 5_000
    battles = 2_000
    estimate = chances_from(ruleset, battle.state, policies, max_rounds=sc.max_rounds,
                            max_states=1, battles=battles, seed=9)
    assert not estimate.exact
    assert exact.win["crew"] > Fraction(1, 20)  # the gunman may still win (about 9%)
    for found, p_exact in ((estimate.win[s], exact.win[s]) for s in sides):
        p = float(p_exact)
        sd = (p * (1 - p) / battles) ** 0.5
        assert abs(float(found) - p) <= Z99 * sd + 1e-9, (found, p)
    p = float(exact.none)
    assert abs(float(estimate.none) - p) <= Z99 * (p * (1 - p) / battles) ** 0.5 + 1e-9
