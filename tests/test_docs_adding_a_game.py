"""The minimal game of docs/adding-a-game.md runs as written, laid out as the guide's
pip-installable package ``my_duel``, and passes the conformance sweep."""

from __future__ import annotations

import functools
import importlib
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from tactica.engine.battle import Battle, SampledDice
from tactica.engine.policies import RandomPolicy
from tactica.engine.ruleset import Capability, example_scenarios, register, unregister
from tactica.engine.scenario import scenario_from_mapping
from tactica.engine.stats import battle_stats
from tactica.testing import check_game

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"


def guide_code() -> str:
    """The code block of the guide's section 2 (the minimal game)."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## 2. A minimal game"):text.index("## 3. ")]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert code is not None
    return code.group(1)


@functools.cache
def guide_game() -> Any:
    """The guide's game as the package ``my_duel`` of its section 4, imported once (its
    records may be declared only once). The folder is left for the process's lifetime."""
    home = Path(tempfile.mkdtemp(prefix="my-duel-"))
    package = home / "my_duel"
    (package / "examples").mkdir(parents=True)
    (package / "__init__.py").write_text(guide_code(), encoding="utf-8")
    (package / "examples" / "noon.yaml").write_text(
        "game: duel\nname: Noon\nfighters: {Lee: 3, Van: 3}\n", encoding="utf-8")
    sys.path.insert(0, str(home))
    try:
        return importlib.import_module("my_duel").DUEL
    finally:
        sys.path.remove(str(home))


def test_the_guides_minimal_game_is_short_and_declares_odds_only() -> None:
    lines = guide_code().splitlines()
    assert len(lines) < 120
    game = guide_game()
    assert game.meta.provides == {Capability.ODDS}
    assert [p.name for p in example_scenarios(game)] == ["noon.yaml"]


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
        assert stats.units[winner].survived and stats.rounds >= 1
        loser = "Van" if winner == "Lee" else "Lee"
        assert stats.units[loser].damage_taken >= 3 and not stats.units[loser].survived
    finally:
        unregister("duel")


def test_the_guides_package_passes_the_conformance_sweep(tmp_path: Path) -> None:
    report = check_game(guide_game(), workdir=tmp_path)
    assert "play and resume: noon.yaml" in report.passed
    assert "odds: noon.yaml" in report.passed


def test_the_guides_game_type_checks_and_a_left_out_odds_field_is_a_type_error(
        tmp_path: Path) -> None:
    """mypy (strict) accepts the guide's game as written, and names what a game leaves out of
    its odds: a headline number of the report, or a required field of the Odds part."""
    from mypy import api

    (tmp_path / "duel_ok.py").write_text(guide_code(), encoding="utf-8")
    broken = guide_code().replace(
        "    outcomes = run_exact(resolve(state, action), events=True)\n",
        "    outcomes = run_exact(resolve(state, action), events=True)\n"
        "    OddsNumbers(p_hit=Fraction(1), p_out_of_action=Fraction(0))\n"
    ).replace("odds=Odds(choices=choices, report=odds)", "odds=Odds(report=odds)")
    broken = ("from fractions import Fraction\n\nfrom tactica.engine.odds import OddsNumbers\n"
              + broken)
    (tmp_path / "duel_broken.py").write_text(broken, encoding="utf-8")
    out, _, status = api.run(["--strict", "--no-error-summary", "--cache-dir",
                              str(tmp_path / "cache"), "--follow-imports", "silent",
                              str(tmp_path / "duel_ok.py"), str(tmp_path / "duel_broken.py")])
    assert status == 1
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert all("duel_broken.py" in line for line in errors), out
    assert any('Missing named argument "expected_damage"' in line for line in errors), out
    assert any('argument "choices" in call to "Odds"' in line for line in errors), out
