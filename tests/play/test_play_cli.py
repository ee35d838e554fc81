"""``tactica play`` on the command line: start, stop, --resume LOG, and clear errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from play_helpers import DUEL

from tactica.cli import main
from tactica.engine.events import BattleEnded
from tactica.play import read_log


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str,
        typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_computer_plays_both_sides_to_the_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "fight.jsonl"
    code, out, err = run(capsys, monkeypatch, "play", str(DUEL), "--log", str(log), "--seed",
                         "2", "--computer", "red", "-c", "blue=random", "--auto-dice")
    assert (code, err) == (0, "")
    assert "the computer plays red (greedy), blue (random)" in out
    assert "The battle is over. " in out
    assert isinstance(read_log(log).records[-1], BattleEnded)


def test_stop_then_resume_from_the_log_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, monkeypatch, "play", str(DUEL), "--seed", "1", "-c", "blue",
                       typed="1\n1\n4\nquit\n")
    log = tmp_path / "duel.log.jsonl"  # the default: the scenario's name, here
    assert code == 0 and log.exists()
    assert ("Stopped. The fight is saved in duel.log.jsonl; continue it with: "
            "tactica play --resume duel.log.jsonl") in out
    code, out, _ = run(capsys, monkeypatch, "play", "--resume", "duel.log.jsonl", typed="9\n")
    assert code == 0
    assert "  to hit: 4 -> 1 (from the log)" in out
    assert "The battle is over. Winner: red" in out


def test_ctrl_c_says_how_to_continue(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    log = tmp_path / "fight.jsonl"
    code, _, err = run(capsys, monkeypatch, "play", str(DUEL), "--log", str(log))
    assert code == 130
    assert f"interrupted: the fight is saved in {log}; continue it with tactica play " in err
    assert len(read_log(log).records) == 2  # the first round began before the prompt


def test_an_existing_log_is_not_overwritten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "fight.jsonl"
    log.write_text("my notes\n")
    code, _, err = run(capsys, monkeypatch, "play", str(DUEL), "--log", str(log))
    assert code == 2
    assert "already there; continue it with --resume" in err
    assert log.read_text() == "my notes\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play"], "error: give a SCENARIO to start a fight, or --resume LOG to continue one"),
        (["play", str(DUEL), "-c", "red="], "error: --computer: expected SIDE or SIDE=POLICY, "
                                            "got 'red='"),
        (["play", str(DUEL), "-c", "green"], "error: computer: no side 'green'"),
        (["play", "--resume", "x.jsonl", "-r", "NEB-3=manhattan"],
         "error: --rulings: a fight keeps the rulings it started with"),
        (["play", "--resume", "x.jsonl", "--log", "y.jsonl"],
         "error: --log 'y.jsonl' and --resume 'x.jsonl': name the log once"),
        (["play", "--resume", "missing.jsonl"], "error: missing.jsonl: no such log"),
        (["play", str(DUEL), "-r", "NEB-3=sideways"], "unknown option 'sideways'"),
    ],
)
def test_bad_input_is_one_line_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, monkeypatch, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert not (tmp_path / "duel.log.jsonl").exists()
