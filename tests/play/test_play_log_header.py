"""A log's header is covered by its check: every field edited by hand is refused at line 1,
by ``--resume`` and by every reader, and the file is left as it was. Version 1 logs (no check)
are refused unless ``--accept-old-log`` is given; then they say that their header is taken as
written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from play_helpers import DUEL, ScriptedTerminal

from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, PlaySession, read_log
from tactica.play.logfile import LOG_VERSION, LogHeader


def started(tmp_path: Path) -> Path:
    """A duel beside its scenario, with a ruling changed and one action taken."""
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text())
    log = tmp_path / "duel.jsonl"
    sc = load_scenario(scenario).with_rulings({"NEB-3": "manhattan"})
    ctl = FightController.start(sc, log, seed=5, computer={"blue": "greedy"}, durable=False)
    ctl.take(0, key=ctl.advance().key)
    ctl.close()
    return log


def edit_header(log: Path, change: Any) -> bytes:
    lines = log.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    change(header)
    lines[0] = json.dumps(header, separators=(",", ":")).encode()
    log.write_bytes(b"\n".join(lines))
    return log.read_bytes()


def set_field(name: str, value: Any) -> Any:
    def change(header: dict[str, Any]) -> None:
        header[name] = value
    return change


EDITS = {
    "a ruling changed": lambda h: h["rulings"].update({"NEB-3": "chebyshev"}),
    "a ruling added": lambda h: h["rulings"].update({"NEB-9": "igougo"}),
    "a ruling removed": lambda h: h["rulings"].pop("NEB-12"),
    "the seed": set_field("seed", 6),
    "the game": set_field("game", "unhex"),
    "the digest": set_field("digest", "0123456789abcdef"),
    "the scenario": set_field("scenario", "other.yaml"),
    "the computer": set_field("computer", {"red": "greedy"}),
    "the check removed": lambda h: h.pop("check"),
    "the check forged": set_field("check", "0" * 16),
    "a field added": set_field("note", "hi"),
    "the version lowered": set_field("version", 1),
    "the version lowered to 2": set_field("version", 2),
    "the scenario's copy": lambda h: h["files"]["scenario"].update(name="Other"),
    "a field of another kind": set_field("seed", "5"),
}


def test_a_new_log_closes_its_header_with_a_check(tmp_path: Path) -> None:
    log = started(tmp_path)
    header = json.loads(log.read_text().splitlines()[0])
    assert header["version"] == LOG_VERSION == 3
    assert list(header)[-1] == "check"
    assert header["rulings"]["NEB-3"] == "manhattan" and header["seed"] == 5
    read = read_log(log).header
    assert read is not None and read.checked and read.check() == header["check"]


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_an_edited_header_is_refused_at_line_1(tmp_path: Path, edit: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    log = started(tmp_path)
    before = edit_header(log, EDITS[edit])
    assert main(["play", "--resume", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {log}:1: the log's header "), err
    assert "edited" in err or "damaged" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert log.read_bytes() == before  # nothing repaired, nothing appended
    with pytest.raises(TacticaError, match=r"duel\.jsonl:1: the log's header"):
        read_log(log)


def test_the_ruling_edit_of_the_audit_is_refused(tmp_path: Path) -> None:
    """The case that went through before: a ruling edited that past steps do not contradict."""
    log = started(tmp_path)
    edit_header(log, EDITS["a ruling changed"])
    with pytest.raises(TacticaError, match=r"duel\.jsonl:1: the log's header was edited after "
                                           r"the fight started"):
        FightController.resume(log, durable=False)


def test_the_header_put_back_continues(tmp_path: Path) -> None:
    log = started(tmp_path)
    original = log.read_bytes()
    edit_header(log, EDITS["the seed"])
    with pytest.raises(TacticaError):
        FightController.resume(log, durable=False)
    log.write_bytes(original)
    ctl = FightController.resume(log, durable=False)
    assert ctl.header.seed == 5 and ctl.scenario.rulings["NEB-3"] == "manhattan"
    ctl.close()


def test_a_version_1_log_is_refused_unless_accepted_and_then_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = started(tmp_path)

    def old(header: dict[str, Any]) -> None:
        header["version"] = 1
        del header["check"]

    before = edit_header(log, old)
    got = read_log(log).header
    assert got is not None and not got.checked and got.version == 1
    with pytest.raises(TacticaError, match="--accept-old-log"):
        PlaySession.resume(log, ScriptedTerminal(["quit"]), durable=False)
    assert main(["play", "--resume", str(log)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "carries no check of its header" in err
    assert log.read_bytes() == before  # left as it was
    t = ScriptedTerminal(["quit"])
    PlaySession.resume(log, t, durable=False, accept_old_log=True).run()
    assert "its header carries no check" in t.text
    assert json.loads(log.read_text().splitlines()[0])["version"] == 1  # left as it was
    header = LogHeader("nebulia-operations", "duel.yaml", "d", {}, 1, version=1)
    assert "check" not in header.to_json()


def test_the_downgrade_past_the_check_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Version set to 1, the check deleted and a ruling edited: what a version 2 header
    protects cannot be changed by calling it a version 1 header."""
    log = started(tmp_path)

    def downgrade(header: dict[str, Any]) -> None:
        header["version"] = 1
        del header["check"]
        header["rulings"]["NEB-3"] = "chebyshev"

    before = edit_header(log, downgrade)
    assert main(["play", "--resume", str(log)]) == 2
    assert "--accept-old-log" in capsys.readouterr().err
    assert main(["serve", "--resume", str(log), "--port", "0"]) == 2
    assert "--accept-old-log" in capsys.readouterr().err
    assert log.read_bytes() == before


@pytest.mark.parametrize("seed", [2**64, 10**30, -1])
def test_a_header_seed_out_of_bounds_is_refused(tmp_path: Path, seed: int) -> None:
    log = started(tmp_path)
    edit_header(log, set_field("seed", seed))
    with pytest.raises(TacticaError, match=r"damaged|2\^64"):
        read_log(log)
