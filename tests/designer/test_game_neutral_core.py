"""The core stays game-neutral: no game's name, alias or ruling id in a module outside the
games' own packages (the matchup hooks are how the core reaches a game's geometry)."""

from __future__ import annotations

import re
from pathlib import Path

from tactica.ruleset import rulesets

SRC = Path(__file__).resolve().parents[2] / "src" / "tactica"
#: Prose written before this rule (examples in docstrings), left to the modules' owners.
OLDER = {"dice/mechanics.py", "play/logfile.py"}


def test_no_game_is_named_outside_the_games_packages() -> None:
    words = set()
    for rs in rulesets():
        words |= {rs.meta.name, *rs.meta.aliases, *(r.id for r in rs.meta.rulings)}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])",
                         re.IGNORECASE)
    found = [f"{path.relative_to(SRC)}: {m.group(0)}"
             for path in SRC.rglob("*.py") if "rulesets" not in path.relative_to(SRC).parts[:1]
             and path.relative_to(SRC).as_posix() not in OLDER
             for m in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
