"""The web app's requests, without a browser: every wrong request is refused with a clear 4xx
and changes nothing; answers move the fight exactly as the terminal does; the server binds
locally unless told otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from play_helpers_web import ScriptedLines
from web_helpers import EXAMPLES

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from tactica.cli import main
from tactica.engine.errors import TacticaError
from tactica.engine.events import BattleEnded, Rolled
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, PlaySession, read_log
from tactica.web.app import create_app

DUEL = EXAMPLES / "nebulia" / "duel.yaml"
TOKEN = "test-token-0123456789abcdef"


def client_of(ctl: FightController) -> TestClient:
    """A client of ``ctl``'s app that sends the token (as a script does: a header)."""
    return TestClient(create_app(ctl, token=TOKEN, allowed_hosts=["testserver"]),
                      headers={"Authorization": f"token {TOKEN}"})


@pytest.fixture
def fight(tmp_path: Path) -> Iterator[tuple[TestClient, FightController, Path]]:
    log = tmp_path / "duel.jsonl"
    ctl = FightController.start(load_scenario(DUEL), log, seed=1, computer={"blue": "greedy"},
                                durable=False)
    with client_of(ctl) as client:
        yield client, ctl, log
    ctl.close()


def test_the_state_names_the_units_the_turn_and_the_actions(fight) -> None:  # type: ignore[no-untyped-def]
    client, _, _ = fight
    s = client.get("/api/state").json()
    assert s["game"] == "Nebulia Operations" and s["has_map"] is True
    assert [u["id"] for u in s["units"]] == ["A", "B"]
    req = s["request"]
    assert req["kind"] == "action" and req["side"] == "red"
    assert [g["head"] for g in req["groups"]] == ["A stays at 0,0", "A moves to"]
    svg = client.get("/api/map.svg").text
    assert 'data-unit="A"' in svg and 'data-unit="B"' in svg
    sight = client.get("/api/sight", params={"a": "A", "b": "B"}).json()
    assert sight["lines"][0] == "A -> B: visible, not in cover"
    assert sight["odds"][0]["numbers"]["P(hit)"] == pytest.approx(0.6)
    assert "sight-lines" in client.get("/api/map.svg", params={"a": "A", "b": "B"}).text


def test_a_whole_duel_through_the_api_is_logged_like_play(fight) -> None:  # type: ignore[no-untyped-def]
    client, _, log = fight
    s = client.get("/api/state").json()
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    assert s["request"]["kind"] == "roll" and s["request"]["label"] == "to hit"
    assert s["request"]["hint"] == "the die showing 1-6 is a success (6 in 10)"
    s = client.post("/api/roll", json={"key": s["request"]["key"], "text": "4"}).json()
    s = client.post("/api/roll", json={"key": s["request"]["key"], "text": "9"}).json()
    assert s["request"]["kind"] == "over" and s["request"]["winner"] == "red"
    assert "Winner: red" in s["request"]["text"]
    assert isinstance(read_log(log).records[-1], BattleEnded)


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/api/action", {"key": 1}, 422, "index: Field required"),
        ("/api/action", {"key": 1, "index": 0, "extra": 1}, 422, "extra: Extra inputs"),
        ("/api/action", {"key": "1", "index": 0}, 422, "key: Input should be a valid integer"),
        ("/api/action", {"key": 1, "index": -1}, 422, "index: Input should be greater"),
        ("/api/action", {"key": 1, "index": 99}, 409, "no action 100: choose 1 to 12"),
        ("/api/action", {"key": 999, "index": 0}, 409, "the fight has moved on"),
        ("/api/roll", {"key": 1, "text": "4"}, 409, "no roll is asked now"),
        ("/api/decide", {"key": 1, "index": 0}, 409, "no decision is asked now"),
        ("/api/dice", {"mode": "sometimes"}, 422, "mode: Input should be 'ask' or 'auto'"),
        ("/api/roll", {"key": 1, "text": "x" * 101}, 422, "at most 100 characters"),
        ("/api/action", [1, 2], 422, "expected a JSON object"),
    ],
)
def test_a_wrong_request_is_refused_and_changes_nothing(fight, path: str, body: object,  # type: ignore[no-untyped-def]
                                                        status: int, message: str) -> None:
    client, _, log = fight
    state = client.get("/api/state").json()
    before = log.read_bytes()
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    assert message in r.json()["error"]
    assert log.read_bytes() == before
    after = client.get("/api/state").json()
    assert after["request"] == state["request"] and after["ask_dice"] == state["ask_dice"]


def test_malformed_and_oversized_bodies_ids_and_paths_are_refused(fight) -> None:  # type: ignore[no-untyped-def]
    client, _, log = fight
    client.get("/api/state")
    before = log.read_bytes()
    r = client.post("/api/action", content=b"{not json", headers={"Content-Type":
                                                                  "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "the request is not valid JSON")
    r = client.post("/api/action", content=b"key=1", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/action", content=b"{" + b" " * 5000 + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert client.get("/api/sight", params={"a": "A", "b": "Z"}).json() == {
        "error": "b: no unit 'Z' in this fight"}
    assert client.get("/api/sight", params={"a": "A"}).status_code == 400
    assert client.get("/api/map.svg", params={"a": "A" * 500, "b": "B"}).status_code == 400
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/../../play/fight.py"):
        assert client.get(path).status_code == 404
    assert client.get("/api/action").status_code == 405
    assert client.get("/api/state", headers={"Host": "elsewhere.example"}).status_code == 400
    assert log.read_bytes() == before


def test_a_roll_typed_wrong_says_why_and_waits(fight) -> None:  # type: ignore[no-untyped-def]
    client, _, _ = fight
    s = client.get("/api/state").json()
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    key = s["request"]["key"]
    r = client.post("/api/roll", json={"key": key, "text": "12"})
    assert r.status_code == 400 and "cannot show 12" in r.json()["error"]
    assert client.get("/api/state").json()["request"]["key"] == key
    s = client.post("/api/dice", json={"mode": "auto"}).json()
    assert s["ask_dice"] is False


def test_the_server_stays_local_unless_told(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", str(DUEL), "--host", "example.com"]) == 2
    err = capsys.readouterr().err
    assert "--host: expected an IP address such as 127.0.0.1" in err
    assert "Traceback" not in err and not list(tmp_path.iterdir())


def test_a_fight_moves_from_the_terminal_to_the_browser_and_back(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    sc = load_scenario(DUEL)
    # The terminal: red stays and attacks, the to-hit die is typed, then the GM stops.
    PlaySession.start(sc, log, ScriptedLines(["1", "1", "4", "quit"]), seed=1,
                      computer={"blue": "greedy"}, durable=False).run()
    ctl = FightController.resume(log, durable=False)
    with client_of(ctl) as client:
        s = client.get("/api/state").json()
        assert (s["request"]["kind"], s["request"]["label"]) == ("roll", "armor")
        with pytest.raises(TacticaError, match="another tactica session is writing this log"):
            PlaySession.resume(log, ScriptedLines([]), durable=False)  # one writer at a time
        client.post("/api/roll", json={"key": s["request"]["key"], "text": "2"})  # saved
    ctl.close()
    # Back in the terminal: blue's turn goes on from there.
    lines = ScriptedLines(["quit"] * 3 + [""] * 40)
    PlaySession.resume(log, lines, durable=False, ask_dice=False).run()
    assert "armor: 2 -> 1" not in "\n".join(lines.said)  # answered in the browser, not again
    records = read_log(log).records
    assert Rolled("armor", 1, (2,)) in records


def test_a_body_giving_a_key_twice_is_refused(fight) -> None:  # type: ignore[no-untyped-def]
    """``{"n": 1, "n": 2}`` is never read as its last value: a guard and the code behind it
    could read different ones."""
    client, _, log = fight
    client.get("/api/state")
    before = log.read_bytes()
    r = client.post("/api/action", content=b'{"n": 1, "n": 2}',
                    headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "the request gives the key 'n' twice")
    r = client.post("/api/action", content=b'{"n": 1, "x": {"a": 1, "a": 1}}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert log.read_bytes() == before
