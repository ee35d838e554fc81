"""``dice auto`` at the table: it rolls the die asked now, is saved in the log and survives
``--resume`` (in play and in the controller the web page drives)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from play_helpers import DUEL, ScriptedTerminal

from tactica.cli import main
from tactica.engine.events import Rolled
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, PlaySession, read_log
from tactica.play.controller import RollRequest
from tactica.play.logfile import DiceMode


def test_dice_auto_at_a_dice_prompt_rolls_that_die(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    t = ScriptedTerminal(["1", "1", "4", "dice auto", "quit"])
    PlaySession.start(load_scenario(DUEL), log, t, seed=1, durable=False).run()
    assert "  dice: rolled by tactica, this one too" in t.said
    records = read_log(log).records
    assert DiceMode("auto") in records
    after = records[records.index(DiceMode("auto")) + 1:]
    assert any(isinstance(r, Rolled) for r in after)  # the roll that was waiting


def test_the_dice_mode_survives_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "duel.jsonl"
    ctl = FightController.start(load_scenario(DUEL), log, seed=1, computer={"blue": "greedy"},
                                durable=False)
    ctl.advance()
    ctl.set_dice(False)
    ctl.close()
    again = FightController.resume(log, durable=False)
    assert again.ask_dice is False
    again.set_dice(True)
    again.close()
    third = FightController.resume(log, durable=False)
    assert third.ask_dice is True
    third.close()
    # and in play: a resumed fight asks no dice once the table chose tactica's
    ctl = FightController.resume(log, durable=False)
    ctl.set_dice(False)
    ctl.close()
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n" * 40))
    code = main(["play", "--resume", str(log)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "dice for" not in out


def test_the_web_dice_switch_settles_the_roll_waiting(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    ctl = FightController.start(load_scenario(DUEL), log, seed=1, computer={"blue": "greedy"},
                                durable=False)
    req = ctl.advance()
    ctl.take(len(req.texts) - 1, key=req.key)  # A stays; B's turn is the computer's
    for _ in range(20):
        req = ctl.advance()
        if isinstance(req, RollRequest):
            break
        ctl.take(next(i for i, t in enumerate(req.texts) if "attacks" in t), key=req.key)
    assert isinstance(req, RollRequest)
    ctl.set_dice(False)
    assert ctl.open_request is not req
    assert not isinstance(ctl.open_request, RollRequest)
    ctl.close()
