"""``tactica serve --resume`` of a log copied to another folder: the log carries its scenario
and content packs, so the fight goes on where the copy is, with nothing of the first folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from web_helpers import EXAMPLES, Server

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tactica.engine.scenario import load_scenario
from tactica.play import FightController

PACK = "weapons:\n  blaster: {range: ranged, accuracy: 6, dice: 1, damage: 1}\n"


def test_serve_resumes_a_copied_log_in_another_folder(tmp_path: Path) -> None:
    table = tmp_path / "table"
    (table / "packs").mkdir(parents=True)
    (table / "packs" / "guns.yaml").write_text(PACK)
    scenario = table / "duel.yaml"
    scenario.write_text((EXAMPLES / "nebulia" / "duel.yaml").read_text().replace(
        "weapons: [rifle]", "weapons: [blaster]") + "content: [packs/guns.yaml]\n")
    ctl = FightController.start(load_scenario(scenario), table / "fight.jsonl", seed=3,
                                durable=False)
    ctl.take(len(ctl.advance().texts) - 1)  # type: ignore[union-attr]
    steps = ctl.steps
    ctl.close()
    other = tmp_path / "elsewhere"
    other.mkdir()
    shutil.copy(table / "fight.jsonl", other / "copy.jsonl")
    shutil.rmtree(table)
    server = Server(["--resume", "copy.jsonl"], other)
    try:
        state = server.state()
        assert state["steps"] == steps and state["log"] == "copy.jsonl"
        assert [u["id"] for u in state["units"]] == ["A", "B"]
        assert any("blaster" in str(u["details"]) for u in state["units"])
    finally:
        server.kill()
