"""Every game, every example scenario, through every capability and every command.

Like a new user would: ``validate``, ``map``, ``sight`` (unit ids, on every map kind),
``odds --table`` and each odds option the game declares, ``simulate`` under each ruling
option, a ``play`` by the computer to the end, and ``play --resume`` from a log cut in half.
What a game does not declare must be refused with one clear line and exit code 2.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from toy_games import TOY_DUEL, TOY_ROWS

from tactica.cli import main
from tactica.errors import TacticaError
from tactica.events import Action
from tactica.odds import COMMON_KEYS
from tactica.ruleset import (
    Capability,
    Ruleset,
    RulesetMeta,
    example_scenarios,
    register,
    rulesets,
)
from tactica.scenario import load_scenario

RULESETS = {rs.meta.name: rs for rs in rulesets()}
CASES = [
    pytest.param(name, path, id=f"{name}:{path.name}")
    for name in sorted(RULESETS)
    for path in example_scenarios(RULESETS[name])
]
#: The first example of each game: where every ruling option is simulated.
FIRSTS = [pytest.param(name, example_scenarios(rs)[0], id=name)
          for name, rs in sorted(RULESETS.items()) if example_scenarios(rs)]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


def two_units(rs: Ruleset, path: Path) -> tuple[str, str]:
    sc = load_scenario(path)
    units = [u for u in rs.units(sc.new_state()) if u.in_action]
    first = units[0]
    other = next(u for u in units if u.side != first.side)
    return first.id, other.id


# -- the toy games are games like any other ---------------------------------------------------


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
        from toy_games import ToyDuel
        class Sixth(ToyDuel):
            meta = replace(ToyDuel.meta, name="sixth-game", title="Sixth game")
        GAME = Sixth()
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


def test_a_game_that_does_not_fit_its_declaration_is_refused() -> None:
    class Half:
        meta = RulesetMeta("half", "Half a game", None, (),
                           provides=frozenset({Capability.ODDS}))

        def pending(self, state: Any) -> Any:
            return None

    with pytest.raises(TacticaError) as info:
        register(Half())
    message = str(info.value)
    assert "cannot register game Half" in message
    assert "lacks initial_state" in message and "'odds' hooks but lacks odds_choices" in message

    class Undeclared(type(TOY_DUEL)):  # type: ignore[misc]
        meta = RulesetMeta("undeclared", "Undeclared", None, ())

    with pytest.raises(TacticaError, match=r"does not declare Capability\.SETUP"):
        register(Undeclared())


# -- the commands, for every example ----------------------------------------------------------


@pytest.mark.parametrize(("name", "path"), CASES)
def test_validate(name: str, path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "validate", path)
    assert code == 0, err
    assert "valid" in out and RULESETS[name].meta.title in out


@pytest.mark.parametrize(("name", "path"), CASES)
def test_map(name: str, path: Path, capsys: pytest.CaptureFixture[str],
             tmp_path: Path) -> None:
    rs = RULESETS[name]
    code, out, err = cli(capsys, "map", path, "--svg", tmp_path / "map.svg")
    if rs.meta.battlefield is None and load_scenario(path).battlefield is None:
        assert "played without a map" in one_line_error(code, err)
        return
    assert code == 0, err
    assert "<svg" in (tmp_path / "map.svg").read_text()
    code, out, err = cli(capsys, "map", path)
    assert code == 0 and out.strip()


@pytest.mark.parametrize(("name", "path"), CASES)
def test_sight_between_two_units(name: str, path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    rs = RULESETS[name]
    a, b = two_units(rs, path)
    code, out, err = cli(capsys, "sight", path, a, b, "--json")
    if not rs.meta.has(Capability.SIGHT):
        line = one_line_error(code, err)
        assert rs.meta.title in line and "no sight" in line
        return
    if load_scenario(path).battlefield is None:  # a game whose map is optional, without one
        assert "without a map" in one_line_error(code, err)
        return
    assert code == 0, err
    report = json.loads(out)
    assert {"visible", "cover", "range", "reasons"} <= set(report)
    assert isinstance(report["cover"], int) and not isinstance(report["cover"], bool)


@pytest.mark.parametrize(("name", "path"), CASES)
def test_odds_table_and_every_declared_option(name: str, path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    rs = RULESETS[name]
    code, out, err = cli(capsys, "odds", path, "--table", "--json")
    if not rs.meta.has(Capability.ODDS):
        assert "has no odds" in one_line_error(code, err)
        return
    assert code == 0, err
    rows = json.loads(out)
    assert rows, f"no unit of {path.name} can act on anyone"
    for row in rows:
        assert set(COMMON_KEYS) <= set(row)
        assert 0 <= row["p_out_of_action"] <= 1
    a = rows[0]["attacker"]
    t = rows[0]["target"]
    code, out, err = cli(capsys, "odds", path, "-a", a, "-t", t, "--json")
    assert code == 0, err
    assert set(COMMON_KEYS) <= set(json.loads(out))
    for option in rs.meta.odds_options:
        flag = [f"--{option.name}"] + ([option.choices[0]] if option.takes_value and
                                       option.choices else [])
        if option.takes_value and not option.choices:
            continue  # a free value: the game's own tests cover it
        code, out, err = cli(capsys, "odds", path, "--table", "--json", *flag)
        assert code == 0, err
    line = one_line_error(*cli(capsys, "odds", path, "-a", a, "-t", t,
                               "--no-such-option")[::2])
    assert "--no-such-option" in line and rs.meta.title in line


@pytest.mark.parametrize(("name", "path"), FIRSTS)
def test_simulate_under_each_ruling_option(name: str, path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    rs = RULESETS[name]
    code, out, err = cli(capsys, "simulate", path, "-n", "2", "--seed", "5", "-j", "1",
                         "--json")
    assert code == 0, err
    base = json.loads(out)
    assert base["battles"] == 2
    for ruling in rs.meta.rulings:
        for option in list(ruling.options)[1:]:
            code, out, err = cli(capsys, "simulate", path, "-n", "1", "--seed", "5", "-j",
                                 "1", "--json", "--rulings", f"{ruling.id}={option}")
            assert code == 0, f"{ruling.id}={option}: {err}"
            assert json.loads(out)["rulings"][ruling.id] == option


@pytest.mark.parametrize(("name", "path"), CASES)
def test_play_by_the_computer_to_the_end_then_resume_a_cut_log(
        name: str, path: Path, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = RULESETS[name]
    sides = rs.sides_of(load_scenario(path).new_state())
    computer = [arg for side in sides for arg in ("--computer", side)]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # nobody at the table
    log = tmp_path / "fight.jsonl"
    code, out, err = cli(capsys, "play", path, "--log", log, "--auto-dice", "--seed", "9",
                         *computer)
    assert code == 0, err
    assert "The battle is over" in out
    whole = log.read_text().splitlines()
    assert json.loads(whole[-1])["type"] == "battle-ended"
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(whole[: max(2, len(whole) // 2)]) + "\n")
    code, out, err = cli(capsys, "play", "--resume", cut, "--auto-dice")
    assert code == 0, err
    assert cut.read_text().splitlines() == whole


def test_what_every_action_type_is() -> None:
    """Every legal action of every example is an Action the core can name."""
    for rs in RULESETS.values():
        for path in example_scenarios(rs):
            sc = load_scenario(path)
            from tactica.battle import Battle, ScriptedDice

            battle = Battle(rs, sc.new_state())
            while not battle.legal_actions() and not battle.is_over:
                try:
                    battle.advance(dice=ScriptedDice([]))
                except TacticaError:
                    break  # a first step that rolls: the actions come later
            assert all(isinstance(a, Action) for a in battle.legal_actions()), path
