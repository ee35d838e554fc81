"""``GET /api/chances`` without a browser: the owner's only, exact on a small fight, the same
answer for the same version, and a new one once the fight moves on."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from tactica.engine.scenario import load_scenario
from tactica.play import FightController
from tactica.web.app import create_app

TOKEN = "test-token-0123456789abcdef"
#: Two Nebulia operators who stand and shoot (one hit each is out of action).
STAND = Path(__file__).parents[1] / "data" / "stand-and-shoot.yaml"


def test_the_chances_are_exact_and_follow_the_fight(tmp_path: Path) -> None:
    ctl = FightController.start(load_scenario(STAND), tmp_path / "s.jsonl", seed=1,
                                computer={"blue": "greedy"}, durable=False, ask_dice=False)
    app = create_app(ctl, token=TOKEN, allowed_hosts=["testserver"])
    try:
        with TestClient(app) as stranger:
            assert stranger.get("/api/chances").status_code == 403
        with TestClient(app, headers={"Authorization": f"token {TOKEN}"}) as client:
            first = client.get("/api/chances").json()
            assert first["exact"] is True and first["label"] == "exact"
            assert first["win"]["red"]["p_exact"] == "559071927/781250000"
            assert first["policies"] == {"red": "greedy", "blue": "greedy"}
            assert first["version"] == client.get("/api/state").json()["version"]
            assert client.get("/api/chances").json() == first  # remembered
            key = client.get("/api/state").json()["request"]["key"]
            client.post("/api/action", json={"key": key, "index": 0})  # A stays
            key = client.get("/api/state").json()["request"]["key"]
            client.post("/api/action", json={"key": key, "index": 0})  # A shoots
            after = client.get("/api/chances").json()
            assert after["version"] > first["version"]
            assert after["win"]["red"]["p_exact"] != first["win"]["red"]["p_exact"]
    finally:
        ctl.close()
