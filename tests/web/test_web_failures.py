"""The server fails clearly and never shows a state its log does not hold: a failed write
reloads the fight from the log (and every page says why); a busy port, an address this
machine does not have, a folder or a broken link as the log: one error line, exit 2, and no
new log. ``--port 0`` prints the port it chose; any loopback address works."""

from __future__ import annotations

import errno
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import EXAMPLES, Server

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from tactica.cli import main
from tactica.cli.serve_cmd import host_names
from tactica.engine.events import BattleEnded, Rolled
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, read_log
from tactica.web.app import create_app

DUEL = EXAMPLES / "nebulia" / "duel.yaml"
TOKEN = "failure-token-0123456789abcdef"


@pytest.fixture
def fight(tmp_path: Path) -> Iterator[tuple[TestClient, Any, Path]]:
    log = tmp_path / "duel.jsonl"
    ctl = FightController.start(load_scenario(DUEL), log, seed=1, computer={"blue": "greedy"},
                                durable=False)
    app = create_app(ctl, token=TOKEN, allowed_hosts=["testserver"])
    with TestClient(app, headers={"Authorization": f"token {TOKEN}"}) as client:
        yield client, app.state.fight, log
    app.state.fight.controller.close()


def full_disk(monkeypatch: pytest.MonkeyPatch, *, after: int = 0) -> None:
    """Every write to a log fails with ENOSPC once ``after`` writes went through."""
    real_write = os.write
    calls = {"n": 0}

    def write(fd: int, data: Any) -> int:
        calls["n"] += 1
        if calls["n"] > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr("tactica.play.logfile.os.write", write)


def answer(client: TestClient, path: str, **body: Any) -> Any:
    key = client.get("/api/state").json()["request"]["key"]
    return client.post(path, json={"key": key, **body})


def test_a_full_disk_reloads_the_fight_from_its_log_and_says_why(
        fight: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, server, log = fight
    answer(client, "/api/action", index=0)  # A stays at 0,0
    before_state = client.get("/api/state").json()
    assert "A may attack" in before_state["request"]["prompt"] + str(before_state["request"])
    before = log.read_bytes()
    first = server.controller

    full_disk(monkeypatch)
    r = answer(client, "/api/action", index=0)  # A attacks B: the action cannot be saved
    assert r.status_code == 503
    error = r.json()["error"]
    assert "could not be saved" in error and "No space left on device" in error
    assert "reloaded from its log" in error and "tactica play --resume" not in error
    assert log.read_bytes() == before
    assert server.controller is not first and first.writer.closed  # a fresh controller
    s = client.get("/api/state").json()
    assert s["notice"] == error and s["feed"][0]["text"] == error
    assert s["version"] > before_state["version"]  # every page is told to reload
    assert s["request"]["groups"] == before_state["request"]["groups"]  # as the log holds it
    assert s["steps"] == before_state["steps"]

    monkeypatch.undo()  # space again: the same answer goes through, the notice goes
    s = answer(client, "/api/action", index=0).json()
    assert s["request"]["kind"] == "roll" and s["notice"] == ""
    assert len(log.read_bytes()) > len(before)


def test_a_full_disk_never_closes_a_fight_with_a_computer_side(
        fight: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A step cut short by a full disk, and the reload's own computer move failing to save
    too: the fight waits as its log holds it, every request says why, and once there is
    space again the next request continues it from its log (the computer's move included)."""
    client, server, log = fight
    answer(client, "/api/action", index=0)
    answer(client, "/api/action", index=0)
    answer(client, "/api/roll", text="4")  # a hit: the armor roll is asked
    before = log.read_bytes()
    full_disk(monkeypatch, after=1)  # the armor die is saved, the step's results are not
    r = answer(client, "/api/roll", text="9")
    assert r.status_code == 503
    error = r.json()["error"]
    assert "nor continued from its log" in error and "once the problem is solved" in error
    assert not server.closed and server.stalled
    for path in ["/api/state", "/api/map.svg"]:  # still full: refused, saying why
        refused = client.get(path)
        assert refused.status_code == 503 and "could not be saved" in refused.json()["error"]
    assert log.read_bytes().startswith(before)
    last = read_log(log).records[-1]  # complete lines only
    assert isinstance(last, Rolled) and (last.label, last.faces) == ("armor", (9,))
    monkeypatch.undo()  # space again: the next request continues the fight from its log
    s = client.get("/api/state")
    assert s.status_code == 200, s.text
    assert not server.stalled
    records = read_log(log).records
    assert isinstance(records[-1], BattleEnded) and records[-1].winner == "red"
    assert s.json()["notice"]  # the page says what happened


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


def test_a_busy_port_is_one_error_line_and_no_log(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        err = refused(capsys, str(DUEL), "--port", str(port))
        assert f"--port {port}: 127.0.0.1:{port} is already in use" in err
        assert "--port 0" in err
        err = refused(capsys, "--resume", str(tmp_path / "nope.jsonl"), "--port", str(port))
        assert "already in use" in err  # the address is checked first
    assert list(tmp_path.iterdir()) == []


def test_an_address_this_machine_does_not_have_is_one_error_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    err = refused(capsys, str(DUEL), "--host", "192.0.2.1", "--port", "0")  # TEST-NET-1
    assert "--host 192.0.2.1: this machine has no such address" in err
    assert list(tmp_path.iterdir()) == []


def test_a_folder_or_a_broken_link_as_the_log_gets_its_own_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    (tmp_path / "broken.jsonl").symlink_to(tmp_path / "gone" / "fight.jsonl")
    for option in ("--log", "--resume"):
        err = refused(capsys, str(DUEL), option, "logs", "--port", "0")
        assert "logs: is a folder; name the log's file" in err
        err = refused(capsys, str(DUEL), option, "broken.jsonl", "--port", "0")
        assert "broken.jsonl: a link to" in err and "which leads nowhere" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.jsonl", "logs"]
    assert list((tmp_path / "logs").iterdir()) == []


def test_the_names_the_server_answers_to() -> None:
    assert host_names("127.0.0.1", 8123, []) == ["127.0.0.1:8123", "localhost:8123"]
    assert host_names("0.0.0.0", 8123, ["mybox.lan", "192.168.1.5"]) == [
        "0.0.0.0:8123", "localhost:8123", "127.0.0.1:8123", "mybox.lan:8123",
        "192.168.1.5:8123"]
    assert host_names("::1", 80, []) == ["[::1]:80", "[::1]", "localhost:80", "localhost",
                                         "127.0.0.1:80", "127.0.0.1"]


def test_port_0_prints_the_port_chosen_and_another_loopback_address_works(
        tmp_path: Path) -> None:
    server = Server([str(DUEL), "--log", str(tmp_path / "duel.jsonl"), "--host", "127.0.0.2"],
                    tmp_path)
    try:
        assert server.url.startswith(f"http://127.0.0.2:{server.port}/?token=")
        assert server.port != 0 and len(server.token) >= 40
        assert server.state()["title"] == "Duel in the open"
        with server.request("/api/state", headers={"Host": f"localhost:{server.port}"}) as r:
            assert r.status == 200
        # Server-Sent Events with the token in a header (as the page sends it).
        with socket.create_connection(("127.0.0.2", server.port), timeout=20) as s:
            s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.2:{server.port}\r\n"
                      f"Authorization: token {server.token}\r\n\r\n".encode())
            got = b""
            while b"data: " not in got and len(got) < 10_000:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
        head = got.decode().lower()
        assert head.startswith("http/1.1 200") and "text/event-stream" in head
        assert "x-frame-options: deny" in head and "data: {\"version\": " in got.decode()
    finally:
        server.kill()
