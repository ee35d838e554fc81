"""The command line starts light: ``--version`` and ``--help`` import no command, no game and
no numerical library; a broken plug-in is skipped and reported, never fatal.

What is imported is asserted, never how long it takes.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tactica.cli import main
from tactica.cli.app import COMMANDS, app, load_commands

HEAVY = ("numpy", "pandas", "pydantic", "yaml", "tactica.api", "tactica.rulesets",
         "tactica.engine.ruleset", "tactica.engine.chance", "tactica.dice")


def _modules_after(*args: str, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    code = textwrap.dedent(f"""
        import contextlib, io, json, sys
        from tactica.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main({list(args)!r})
        print(json.dumps({{"code": code, "out": out.getvalue(),
                           "modules": sorted(sys.modules)}}))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env)
    found = json.loads(done.stdout)
    assert found["code"] == 0, done.stderr
    return set(found["modules"]), found["out"]


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_import_no_command_no_game_and_no_numpy(flag: str) -> None:
    modules, out = _modules_after(flag)
    heavy = sorted(m for m in modules
                   if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == []
    assert not any(m.startswith("tactica.cli.") and m.endswith("_cmd") for m in modules)
    if flag == "--version":
        assert out.startswith("tactica ")
    else:
        assert all(name in out for name in COMMANDS)


def test_the_help_lists_each_command_with_its_own_summary() -> None:
    """The summaries --help shows without importing a command are the commands' own."""
    load_commands()
    registered = {}
    for info in app.registered_commands:
        assert info.callback is not None
        name = info.name or info.callback.__name__.replace("_", "-")
        text = info.help if info.help is not None else inspect.getdoc(info.callback)
        registered[name] = (info.callback.__module__,
                            " ".join(inspect.cleandoc(text or "").split("\n\n")[0].split()))
    assert registered == COMMANDS


def test_a_command_runs_after_the_others_were_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    capsys.readouterr()
    assert main(["dice", "2d6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean"] == 7


def test_a_mistyped_command_is_suggested_from_every_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulte"]) == 2
    err = capsys.readouterr().err
    assert "No such command 'simulte'" in err and "'simulate'" in err


# -- a broken plug-in -------------------------------------------------------------------------


def _broken_plugins(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "broken_game.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "half_game.py").write_text("class Half:\n    pass\n\nGAME = Half()\n")
    info = tmp_path / "broken_games-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-games\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[tactica.rulesets]\nbroken = broken_game:GAME\nhalf = half_game:GAME\n"
        "[tactica.map_kinds]\nodd = half_game:GAME\n")
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


def _tactica(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from tactica.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, env=env)


def test_a_broken_plugin_is_reported_by_games_and_skipped_by_every_command(
        tmp_path: Path) -> None:
    env = _broken_plugins(tmp_path)
    games = _tactica(env, "games", "--json")
    assert games.returncode == 0, games.stderr
    names = {g["name"] for g in json.loads(games.stdout)}
    assert "nebulia-operations" in names and not {"broken", "half"} & names
    warnings = games.stderr.strip().splitlines()
    assert len(warnings) == 3 and all(w.startswith("warning: plug-in ") for w in warnings)
    assert "'broken' (broken_game:GAME) of tactica.rulesets was skipped: " \
           "ModuleNotFoundError" in games.stderr
    assert "'half'" in games.stderr and "cannot register game Half" in games.stderr
    assert "'odd' (half_game:GAME) of tactica.map_kinds" in games.stderr
    assert "Traceback" not in games.stderr

    example = next((Path(__file__).parents[1] / "src/tactica/rulesets/nebulia/examples")
                   .glob("duel.yaml"))
    valid = _tactica(env, "validate", str(example))
    assert valid.returncode == 0 and valid.stderr == "", valid.stderr
    code = ("import tactica\ntry:\n    tactica.get_ruleset('broken')\n"
            "except tactica.TacticaError as e:\n    print(e)")
    why = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert "unknown game 'broken'" in why and "was skipped: ModuleNotFoundError" in why


def test_the_packages_names_are_the_api_whatever_was_imported_first() -> None:
    """``tactica.odds`` and ``tactica.simulate`` are the functions, whichever module is imported
    first (the modules live in the engine and analysis packages, so no name is shared)."""
    code = ("import tactica.engine.odds, tactica.analysis.simulate, tactica\n"
            "print(callable(tactica.odds), callable(tactica.simulate), "
            "tactica.OddsReport.__module__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["True", "True", "tactica.engine.odds"]
