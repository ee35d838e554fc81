"""A fight's log is never silently wrong: one writer, nothing that is not a log overwritten,
every step checked on resume, content packs in the digest, write failures reported."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from play_helpers import DUEL, ScriptedTerminal

from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.scenario import load_scenario
from tactica.play import PlaySession, read_log
from tactica.play.logfile import LogWriter

BOTH = {"red": "greedy", "blue": "greedy"}


def whole_duel(tmp_path: Path, seed: int = 3) -> Path:
    """A finished duel (seed 3: B hits A once, A downs B) logged beside its scenario."""
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text())
    log = tmp_path / "duel.jsonl"
    PlaySession.start(load_scenario(scenario), log, ScriptedTerminal(), seed=seed,
                      computer=BOTH, ask_dice=False, durable=False).run()
    return log


def lines_of(log: Path) -> list[str]:
    return log.read_text().splitlines()


def number_of(lines: list[str], needle: str, nth: int = 0) -> int:
    """The 1-based line number of the ``nth`` line holding ``needle``."""
    found = [i + 1 for i, line in enumerate(lines) if needle in line]
    return found[nth]


def resume(log: Path, lines: list[str] = ()) -> ScriptedTerminal:  # type: ignore[assignment]
    t = ScriptedTerminal(lines)
    PlaySession.resume(log, t, durable=False).run()
    return t


# -- 3: every step is checked on resume -------------------------------------------------------


def _edit(lines: list[str], needle: str, change: Any, nth: int = 0) -> tuple[list[str], int]:
    n = number_of(lines, needle, nth)
    out = list(lines)
    if change is None:
        del out[n - 1]
    else:
        record = json.loads(out[n - 1])
        change(record)
        out[n - 1] = json.dumps(record, separators=(",", ":"))
    return out, n


def _set(**values: Any) -> Any:
    def change(record: dict[str, Any]) -> None:
        for key, value in values.items():
            target = record
            *path, last = key.split("__")
            for part in path:
                target = target[part]
            target[last] = value

    return change


CORRUPTIONS = {
    # what: (line holding, nth such line, change (None deletes), what the message says)
    "a deleted damaged record": ('"neb.damaged"', 0, None, "the rules give"),
    "an impossible D10 face": ('"rolled"', 1, _set(faces=[11]), "cannot show 11"),
    "a negative damage": ('"neb.damaged"', 0, _set(amount=-1), "recorded"),
    "nine hits from a one-die weapon": ('"hits":1', 0, _set(hits=9), "recorded"),
    "a unit attacking itself": ('"neb.attack"', 0, _set(action__target="A"),
                                "not a legal action"),
    "an unknown unit id": ('"neb.attack"', 0, _set(action__unit="Z"), "not a legal action"),
    "a string where a number belongs": ('"neb.damaged"', 0, _set(amount="1"), "recorded"),
    "a deleted round start": ('"neb.round-started"', 1, None, "the rules give"),
    "a roll value that the faces do not read": ('"rolled"', 0, _set(value=1),
                                                "not a possible result"),
    "a record of another game": ('"neb.damaged"', 0,
                                 lambda r: r.update({"type": "unh.moved"}), "does not fit"),
}


@pytest.mark.parametrize("what", list(CORRUPTIONS))
def test_a_corrupt_log_is_refused_with_its_line_number(tmp_path: Path, what: str) -> None:
    log = whole_duel(tmp_path)
    needle, nth, change, says = CORRUPTIONS[what]
    lines, n = _edit(lines_of(log), needle, change, nth)
    log.write_text("\n".join(lines) + "\n")
    before = log.read_bytes()
    with pytest.raises(TacticaError) as err:
        resume(log)
    message = str(err.value)
    if what != "a record of another game":
        assert f"duel.jsonl:{n}:" in message, message
    assert says in message, message
    assert "Traceback" not in message
    assert log.read_bytes() == before  # nothing changed


def test_a_corrupt_log_on_the_command_line_is_one_line_with_the_line_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = whole_duel(tmp_path)
    lines, n = _edit(lines_of(log), '"neb.damaged"', _set(unit="Q"))
    log.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["play", "--resume", str(log)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and f"duel.jsonl:{n}: " in err
    assert len(err.strip().splitlines()) == 1


def test_an_intact_log_still_resumes_and_a_finished_one_says_so(tmp_path: Path) -> None:
    log = whole_duel(tmp_path)
    t = resume(log)
    assert "The battle is over. Winner: red" in t.text


def test_a_log_that_goes_on_after_the_end_is_refused(tmp_path: Path) -> None:
    log = whole_duel(tmp_path)
    lines = lines_of(log)
    lines.append(lines[2])  # a "resolved" after the end
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(TacticaError, match=rf"duel\.jsonl:{len(lines)}: a record after the end"):
        resume(log)


def test_a_wrong_end_record_is_refused(tmp_path: Path) -> None:
    log = whole_duel(tmp_path)
    lines = lines_of(log)
    lines[-1] = lines[-1].replace('"winner":"red"', '"winner":"blue"')
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(TacticaError, match=rf"duel\.jsonl:{len(lines)}: the log says 'blue' won"):
        resume(log)


def test_a_cut_step_with_an_illegal_action_is_refused(tmp_path: Path) -> None:
    log = whole_duel(tmp_path)
    lines = lines_of(log)
    n = number_of(lines, '"neb.attack"')
    cut = [*lines[: n - 1], lines[n - 1].replace('"target":"B"', '"target":"A"')]
    log.write_text("\n".join(cut) + "\n")
    with pytest.raises(TacticaError, match=rf"duel\.jsonl:{n}: .*not a legal action"):
        resume(log)


# -- 1: one writer per log --------------------------------------------------------------------


def test_a_second_writer_is_refused_while_the_first_holds_the_log(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    first = PlaySession.start(load_scenario(DUEL), log, ScriptedTerminal(["quit"]), seed=1,
                              durable=False)
    before = log.read_bytes()
    with pytest.raises(TacticaError, match="another tactica session is writing this log"):
        PlaySession.resume(log, ScriptedTerminal(), durable=False)
    assert log.read_bytes() == before
    first.run()  # the first one goes on, then lets go
    resume(log, ["quit"])


def test_two_processes_cannot_share_a_log(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    PlaySession.start(load_scenario(DUEL), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    holder = textwrap.dedent(f"""
        import sys, time
        from tactica.play.logfile import LogWriter
        w = LogWriter({str(log)!r})
        print("locked", flush=True)
        sys.stdin.readline()
    """)
    proc = subprocess.Popen([sys.executable, "-c", holder], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        before = log.read_bytes()
        with pytest.raises(TacticaError, match="another tactica session is writing this log"):
            resume(log, ["quit"])
        assert log.read_bytes() == before
    finally:
        proc.communicate("\n", timeout=300)  # a safety net, not a measure
    resume(log, ["quit"])  # released when the other process ended


# -- 2: a file that is not a log is never overwritten -----------------------------------------


@pytest.mark.parametrize("content", [b"my notes", b"my notes\n", b"\x00\x00notes",
                                     b'{"type":"something-else"'])
def test_a_file_that_is_not_a_log_is_never_changed(tmp_path: Path, content: bytes,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(content)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["play", str(DUEL), "--resume", str(notes)])
    err = capsys.readouterr().err
    assert code == 2 and "not a tactica log" in err, err
    assert notes.read_bytes() == content


@pytest.mark.parametrize("content", [b"", b"\x00\x00\x00", b'{"type":"tactica-lo',
                                     b'{"type":"tactica-log","version":1,"ga'])
def test_a_torn_header_is_restarted(tmp_path: Path, content: bytes) -> None:
    log = tmp_path / "fight.jsonl"
    log.write_bytes(content)
    t = ScriptedTerminal(["quit"])
    PlaySession.resume(log, t, scenario=load_scenario(DUEL), seed=4, durable=False).run()
    assert "the fight starts anew" in t.text
    assert read_log(log).header is not None


# -- 4: content packs are in the digest -------------------------------------------------------


def test_a_content_pack_changed_after_the_start_is_noticed(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text(
        "weapons:\n  blaster: {range: ranged, accuracy: 6, dice: 1, damage: 1}\n")
    scenario = tmp_path / "duel.yaml"
    scenario.write_text(DUEL.read_text().replace("weapons: [rifle]", "weapons: [blaster]")
                        + "content: [pack.yaml]\n")
    log = tmp_path / "duel.jsonl"
    PlaySession.start(load_scenario(scenario), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    resume(log, ["quit"])  # unchanged: fine
    (tmp_path / "pack.yaml").write_text(
        "weapons:\n  blaster: {range: ranged, accuracy: 9, dice: 3, damage: 2}\n")
    resume(log, ["quit"])  # the log carries the pack it started with
    with pytest.raises(TacticaError, match=r"duel\.jsonl: the log was written for 'duel\.yaml' "
                                           r"with other content"):
        PlaySession.resume(log, ScriptedTerminal([]), scenario=load_scenario(scenario),
                           durable=False)


# -- 5: a write that fails leaves the log intact ----------------------------------------------


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG, errno.EROFS, errno.EIO])
def test_a_failed_write_is_a_clear_error_and_the_log_stays_intact(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        code: int) -> None:
    log = tmp_path / "duel.jsonl"
    PlaySession.start(load_scenario(DUEL), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    before = log.read_bytes()
    real_write = os.write
    calls = {"n": 0}

    def failing(fd: int, data: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 2:  # the second record of the resumed fight: half of it, then fail
            real_write(fd, bytes(data)[: len(data) // 2])
            raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    monkeypatch.setattr("tactica.play.logfile.os.write", failing)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n"))
    result = main(["play", "--resume", str(log), "-c", "red", "-c", "blue", "--auto-dice"])
    err = capsys.readouterr().err
    assert result == 2, err
    assert err.startswith(f"error: {log}: cannot save to the log ({os.strerror(code)})")
    assert "everything saved before is intact" in err and "Traceback" not in err
    monkeypatch.undo()
    saved = log.read_bytes()
    assert saved.startswith(before) and saved.endswith(b"\n")
    assert len(saved.splitlines()) == len(before.splitlines()) + 1  # the one record that made it
    resume(log, ["quit"])  # and it continues


def test_a_file_size_limit_is_a_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    PlaySession.start(load_scenario(DUEL), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    before = log.read_bytes()
    limit = len(before) + 200
    script = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
        from tactica.cli import main
        sys.exit(main(["play", "--resume", {str(log)!r}, "-c", "red", "-c", "blue",
                       "--auto-dice"]))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600)  # a safety net, not a measure
    assert proc.returncode == 2, proc.stderr
    assert "cannot save to the log (File too large)" in proc.stderr
    assert "Traceback" not in proc.stderr
    saved = log.read_bytes()
    assert saved.startswith(before) and saved.endswith(b"\n") and len(saved) <= limit
    resume(log, ["quit"])


def test_a_log_that_cannot_be_opened_for_writing_is_a_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "duel.jsonl"
    PlaySession.start(load_scenario(DUEL), log, ScriptedTerminal(["quit"]), seed=1,
                      durable=False).run()
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr("tactica.play.logfile.os.open", read_only)
    with pytest.raises(TacticaError, match=r"cannot open the log to write in it \(Read-only "
                                           r"file system\); the disk is read-only"):
        LogWriter(log)
    with pytest.raises(TacticaError, match="Read-only file system"):
        resume(log)


def test_a_cut_step_with_an_impossible_roll_is_refused_with_its_line(tmp_path: Path) -> None:
    log = whole_duel(tmp_path)
    lines = lines_of(log)
    n = number_of(lines, '"rolled"')
    cut = [*lines[: n - 1], lines[n - 1].replace('"faces":[', '"faces":[11,')]
    log.write_text("\n".join(cut) + "\n")
    with pytest.raises(TacticaError, match=rf"duel\.jsonl:{n}: .*not a possible result"):
        resume(log)
    log.write_text("\n".join([*lines[: n - 1], lines[n - 1], lines[n - 1]]) + "\n")
    with pytest.raises(TacticaError, match=rf"duel\.jsonl:{n + 1}: a recorded input the rules "
                                           "never asked for"):
        resume(log)
