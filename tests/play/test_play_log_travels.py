"""A log carries its fight: the scenario and its own content packs go into the header, so a
log copied to another folder (or machine) resumes there with ``play --resume`` alone, and logs
written before (version 2, without them) still resume from their scenario's file."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from play_helpers import DUEL, ScriptedTerminal

from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, PlaySession, read_log
from tactica.play.logfile import LogHeader

PACK = "weapons:\n  blaster: {range: ranged, accuracy: 6, dice: 1, damage: 1}\n"


def own_scenario(folder: Path) -> Path:
    """The duel with a content pack of its own, in ``folder``."""
    folder.mkdir(parents=True)
    (folder / "packs").mkdir()
    (folder / "packs" / "guns.yaml").write_text(PACK)
    scenario = folder / "duel.yaml"
    scenario.write_text(DUEL.read_text().replace("weapons: [rifle]", "weapons: [blaster]")
                        + "content: [packs/guns.yaml]\n")
    return scenario


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
        typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_header_carries_the_scenario_and_its_own_packs(tmp_path: Path) -> None:
    scenario = own_scenario(tmp_path / "table")
    log = tmp_path / "fight.jsonl"
    PlaySession.start(load_scenario(scenario), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    header = json.loads(log.read_text().splitlines()[0])
    assert header["version"] == 3
    assert header["files"]["packs"] == {"packs/guns.yaml": PACK}
    assert header["files"]["scenario"]["content"] == ["packs/guns.yaml"]
    assert list(header)[-1] == "check"


def test_a_copied_log_resumes_in_play_from_another_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = own_scenario(tmp_path / "table")
    monkeypatch.chdir(tmp_path / "table")
    code, _, err = run(capsys, monkeypatch, "play", "duel.yaml", "--seed", "1", "-c", "blue",
                       typed="1\nquit\n")
    assert (code, err) == (0, "")
    elsewhere = tmp_path / "another" / "machine"
    elsewhere.mkdir(parents=True)
    shutil.copy(tmp_path / "table" / "duel.log.jsonl", elsewhere / "copy.jsonl")
    shutil.rmtree(tmp_path / "table")  # nothing of the first table is left
    assert not scenario.exists()
    monkeypatch.chdir(tmp_path / "another")
    code, out, err = run(capsys, monkeypatch, "play", "--resume", "machine/copy.jsonl",
                         "-c", "red", "-c", "blue", "--auto-dice")
    assert (code, err) == (0, ""), err
    assert "resuming after" in out and "The battle is over." in out
    assert "blaster" in out


def test_the_log_own_copy_wins_over_an_edited_file_unless_one_is_named(
        tmp_path: Path) -> None:
    scenario = own_scenario(tmp_path / "table")
    log = tmp_path / "table" / "fight.jsonl"
    PlaySession.start(load_scenario(scenario), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    (tmp_path / "table" / "packs" / "guns.yaml").write_text(PACK.replace("6", "9"))
    FightController.resume(log, durable=False).close()  # the log's own copy: fine
    with pytest.raises(TacticaError, match="with other content"):
        FightController.resume(log, scenario=load_scenario(scenario), durable=False)


def test_a_version_2_log_still_resumes_from_its_scenario_file(tmp_path: Path) -> None:
    scenario = own_scenario(tmp_path / "table")
    log = tmp_path / "table" / "fight.jsonl"
    PlaySession.start(load_scenario(scenario), log, ScriptedTerminal(["1", "quit"]), seed=1,
                      durable=False).run()
    lines = log.read_text().splitlines()
    old = read_log(log).header
    assert old is not None
    v2 = LogHeader(old.game, old.scenario, old.digest, old.rulings, old.seed, old.computer,
                   version=2)
    fields = v2.to_json()
    assert "files" not in fields
    log.write_text("\n".join([json.dumps(fields, separators=(",", ":")), *lines[1:]]) + "\n")
    ctl = FightController.resume(log, durable=False)
    assert ctl.header.version == 2 and ctl.header.files is None and ctl.steps >= 1
    ctl.close()
    shutil.move(str(log), tmp_path / "moved.jsonl")
    with pytest.raises(TacticaError, match=r"name it: tactica serve SCENARIO --resume"):
        FightController.resume(tmp_path / "moved.jsonl", durable=False, command="serve")


@pytest.mark.parametrize("name", ["../escape.yaml", "/etc/passwd", "a/../../b.yaml"])
def test_a_pack_name_leaving_the_folder_is_refused(tmp_path: Path, name: str) -> None:
    scenario = own_scenario(tmp_path / "table")
    log = tmp_path / "fight.jsonl"
    PlaySession.start(load_scenario(scenario), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    _first, *rest = log.read_text().splitlines()
    header = read_log(log).header
    assert header is not None and header.files is not None
    files = {"scenario": header.files["scenario"], "packs": {name: PACK}}
    forged = LogHeader(header.game, header.scenario, header.digest, header.rulings,
                       header.seed, header.computer, files=files)
    log.write_text("\n".join([json.dumps(forged.to_json()), *rest]) + "\n")
    with pytest.raises(TacticaError, match="outside the scenario's folder"):
        FightController.resume(log, durable=False)
    assert not (tmp_path / "escape.yaml").exists()
