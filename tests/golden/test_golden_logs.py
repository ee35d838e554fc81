"""Golden logs: fixed-seed Nebulia Operations battles whose event logs are checked in.

Each log is one record per line (``tactica.engine.events.dumps``). A change in the rules, the dice,
the policies or the log format shows up here as a diff; when the change is intended, regenerate the
files and review the diff in version control::

    TACTICA_REGOLD=1 .venv/bin/pytest -q tests/golden
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from tactica.engine.battle import Battle, SampledDice
from tactica.engine.events import dumps, from_json
from tactica.engine.policies import make_policy
from tactica.engine.scenario import load_scenario

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
REGOLD = os.environ.get("TACTICA_REGOLD") == "1"


@dataclass(frozen=True)
class Golden:
    file: str
    scenario: str
    seed: int
    policies: dict[str, str]
    rulings: dict[str, str] = field(default_factory=dict)
    faces: bool = False


GOLDEN = [
    Golden("nebulia-firefight-seed2024.jsonl", "nebulia/firefight.yaml", 2024,
           {"red": "greedy", "blue": "random"}, faces=True),
    Golden("nebulia-firefight-igougo-seed7.jsonl", "nebulia/firefight.yaml", 7,
           {"red": "greedy", "blue": "greedy"},
           rulings={"NEB-9": "igougo", "NEB-11": "random", "NEB-6": "characteristic"}),
]


def play(g: Golden) -> list[str]:
    sc = load_scenario(EXAMPLES / g.scenario)
    if g.rulings:
        sc = sc.with_rulings(g.rulings)
    rng = np.random.default_rng(g.seed)
    battle = Battle(sc.ruleset, sc.new_state())
    battle.run({side: make_policy(name, battle.ruleset) for side, name in g.policies.items()},
               dice=SampledDice(rng, faces=g.faces), rng=rng)
    return [dumps(e) for e in battle.log]


@pytest.mark.parametrize("g", GOLDEN, ids=[g.file for g in GOLDEN])
def test_the_log_matches_the_golden_file(g: Golden) -> None:
    path = HERE / g.file
    got = play(g)
    if REGOLD or not path.exists():
        if not REGOLD:
            pytest.fail(f"{path.name} is missing: run with TACTICA_REGOLD=1 to write it")
        path.write_text("\n".join(got) + "\n", encoding="utf-8")
    want = path.read_text(encoding="utf-8").splitlines()
    if got != want:
        diff = "\n".join(list(difflib.unified_diff(want, got, f"{g.file} (golden)",
                                                   f"{g.file} (now)", n=2, lineterm=""))[:40])
        pytest.fail(f"the battle's log differs from {g.file} (TACTICA_REGOLD=1 rewrites it "
                    f"if the change is intended):\n{diff}")


@pytest.mark.parametrize("g", GOLDEN, ids=[g.file for g in GOLDEN])
def test_the_golden_file_is_a_whole_battle_that_replays(g: Golden) -> None:
    import json

    sc = load_scenario(EXAMPLES / g.scenario)
    if g.rulings:
        sc = sc.with_rulings(g.rulings)
    lines = (HERE / g.file).read_text(encoding="utf-8").splitlines()
    log = [from_json(json.loads(line)) for line in lines]
    assert [dumps(e) for e in log] == lines
    battle, cut = Battle.replay(sc.ruleset, sc.new_state(), log)
    assert cut == [] and battle.is_over
    assert json.loads(lines[-1])["type"] == "battle-ended"
