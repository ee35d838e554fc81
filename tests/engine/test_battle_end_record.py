"""A log cut between the last step and the end record gets the end record on replay."""

from __future__ import annotations

import numpy as np

from tactica.engine.battle import Battle, SampledDice
from tactica.engine.events import BattleEnded
from tactica.engine.policies import GreedyPolicy
from tactica.engine.scenario import load_scenario


def test_replay_writes_the_missing_end_record() -> None:
    sc = load_scenario("examples/nebulia/duel.yaml")
    battle = Battle(sc.ruleset, sc.new_state())
    rng = np.random.default_rng(5)
    policies = {"red": GreedyPolicy(sc.ruleset), "blue": GreedyPolicy(sc.ruleset)}
    battle.run(policies, dice=SampledDice(rng), rng=rng)
    assert isinstance(battle.log[-1], BattleEnded)
    written: list[object] = []
    replayed, cut = Battle.replay(sc.ruleset, sc.new_state(), battle.log[:-1],
                                  listeners=[written.append])
    assert cut == []
    assert replayed.log == battle.log
    assert written == [battle.log[-1]]  # the listener (the log file) gets it too
    assert replayed.state == battle.state
