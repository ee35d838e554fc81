"""The core stays game-neutral: no game's name, alias or ruling id in a module outside the
games' own packages (the matchup hooks are how the core reaches a game's geometry)."""

from __future__ import annotations

import re
from pathlib import Path

from tactica.engine.ruleset import rulesets

SRC = Path(__file__).resolve().parents[2] / "src" / "tactica"
#: Game names that are also ordinary words of the core's own vocabulary (a firing arc on the
#: dot lattice): their ruling ids and title still count.
COMMON_WORDS = {"arc"}


def test_no_game_is_named_outside_the_games_packages() -> None:
    words = set()
    for rs in rulesets():
        words |= {rs.meta.name, *rs.meta.aliases, *(r.id for r in rs.meta.rulings)}
    words -= COMMON_WORDS
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])",
                         re.IGNORECASE)
    found = [f"{path.relative_to(SRC)}: {m.group(0)}"
             for path in SRC.rglob("*.py") if "rulesets" not in path.relative_to(SRC).parts[:1]
             for m in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
