"""Games are plug-ins: found through entry points, checked against their declaration.

What every registered game must do, example by example and command by command, is
:func:`tactica.testing.check_game` (each game's tests call it; the toy games' are in
``test_toy_games.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from toy_games import TOY_DUEL, TOY_ROWS

from tactica.engine.errors import TacticaError
from tactica.engine.ruleset import RulesetMeta, register, rulesets

RULESETS = {rs.meta.name: rs for rs in rulesets()}


def test_the_toy_games_are_registered_without_any_edit_under_src() -> None:
    assert RULESETS["toy-rows"] is TOY_ROWS and RULESETS["toy-duel"] is TOY_DUEL
    assert TOY_DUEL.meta.battlefield is None and TOY_ROWS.meta.battlefield == "rows"
    src = Path(__file__).resolve().parents[2] / "src"
    assert not any("toy" in p.name for p in src.rglob("*.py"))


def test_a_game_shipped_as_its_own_package_is_found_through_its_entry_point(
        tmp_path: Path) -> None:
    """A pip-installed game is a module plus an entry point in the group tactica.rulesets."""
    here = str(Path(__file__).parent)
    (tmp_path / "sixth_game.py").write_text(textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {here!r})
        from dataclasses import replace
        from toy_games import ToyDuel, duel_game
        class Sixth(ToyDuel):
            meta = replace(ToyDuel.meta, name="sixth-game", title="Sixth game")
        GAME = duel_game(Sixth(), __name__)
    '''))
    info = tmp_path / "sixth_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sixth-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tactica.rulesets]\nsixth = sixth_game:GAME\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    code = ("import tactica; "
            "print(sorted(g.meta.name for g in tactica.rulesets()))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, check=True).stdout
    assert "sixth-game" in found and "nebulia-operations" in found


def test_a_class_with_hook_methods_is_refused_for_a_game_declaration() -> None:
    class Half:
        meta = RulesetMeta("half", "Half a game", None, ())

        def pending(self, state: Any) -> Any:
            return None

    with pytest.raises(TacticaError) as info:
        register(Half())
    message = str(info.value)
    assert message.startswith("cannot register game Half: it is a Half, not a "
                              "tactica.engine.game.Game")


def test_a_declaration_with_bad_metadata_is_refused_naming_each_problem() -> None:
    bad = replace(TOY_DUEL, meta=replace(TOY_DUEL.meta, name="Toy Duel",
                                         rulings=TOY_DUEL.meta.rulings * 2))
    with pytest.raises(TacticaError) as info:
        register(bad)
    message = str(info.value)
    assert "must be lower-case without spaces" in message
    assert "ruling TOYD-1 is declared twice" in message
