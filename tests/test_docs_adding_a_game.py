"""The minimal game of docs/adding-a-game.md runs as written."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import numpy as np

from tactica.engine.battle import Battle, SampledDice
from tactica.engine.policies import RandomPolicy
from tactica.engine.ruleset import register, unregister
from tactica.engine.scenario import scenario_from_mapping
from tactica.engine.stats import battle_stats
from tactica.testing import check_game

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"


@functools.cache
def guide_game() -> Any:
    """The guide's minimal game, run once (its records may be declared only once)."""
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    assert code is not None
    namespace: dict[str, Any] = {}
    exec(compile(code.group(1), str(GUIDE), "exec"), namespace)
    return namespace["DUEL"]


def test_the_guides_minimal_game_registers_loads_and_plays_to_the_end() -> None:
    game = register(guide_game())
    try:
        sc = scenario_from_mapping({"game": "duel", "fighters": {"Lee": 3, "Van": 3}},
                                   source="guide.yaml")
        assert sc.battlefield is None
        battle = Battle(game, sc.new_state())
        rng = np.random.default_rng(1)
        winner = battle.run({s: RandomPolicy(game) for s in ("Lee", "Van")},
                            dice=SampledDice(rng), rng=rng)
        assert winner in ("Lee", "Van")
        stats = battle_stats(game, battle.state, battle.events())
        assert stats.units[winner].survived and stats.rounds >= 3
        loser = "Van" if winner == "Lee" else "Lee"
        assert stats.units[loser].damage_taken == 3 and stats.units[winner].damage_dealt == 3
    finally:
        unregister("duel")


def test_the_guides_minimal_game_passes_the_conformance_sweep(tmp_path: Path) -> None:
    scenario = tmp_path / "noon.yaml"
    scenario.write_text("game: duel\nname: Noon\nfighters: {Lee: 3, Van: 3}\n")
    report = check_game(guide_game(), scenarios=[scenario], workdir=tmp_path)
    assert "play and resume: noon.yaml" in report.passed
