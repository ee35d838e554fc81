"""Idle and slow connections cannot starve the server: raw sockets on 127.0.0.1 against the
real server (uvicorn in a thread, with short limits). Every wait is bounded and waits for an
event (the server closing a socket, an answer), never for a fixed time to pass."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import EXAMPLES

pytest.importorskip("uvicorn")

from tactica.engine.scenario import load_scenario
from tactica.play import FightController
from tactica.web.app import create_app
from tactica.web.listen import Limits, listen, make_server

DUEL = EXAMPLES / "nebulia" / "duel.yaml"
TOKEN = "connections-token-0123456789abcdef"
LIMITS = Limits(head_timeout=0.5, keep_alive=1, max_connections=16, max_head_bytes=4096,
                body_timeout=0.5)
WAIT = 30.0  # the longest any single wait may take before the test fails


class Running:
    def __init__(self, port: int, server: Any, ctl: FightController):
        self.port = port
        self.server = server
        self.ctl = ctl

    def head(self, path: str = "/api/state", extra: str = "") -> bytes:
        return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Authorization: token {TOKEN}\r\n{extra}\r\n").encode()

    def get(self, path: str = "/api/state") -> int:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                     headers={"Authorization": f"token {TOKEN}"})
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return int(r.status)

    def connect(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=WAIT)
        return s


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    ctl = FightController.start(load_scenario(DUEL), tmp_path / "duel.jsonl", seed=1,
                                computer={"blue": "greedy"}, durable=False)
    app = create_app(ctl, token=TOKEN, allowed_hosts=[f"127.0.0.1:{port}"], limits=LIMITS)
    server = make_server(app, LIMITS)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Running(port, server, ctl)
    finally:
        app.state.fight.closed = True
        server.should_exit = True
        thread.join(timeout=WAIT)
        ctl.close()
        sock.close()


def closed_by_server(s: socket.socket) -> bool:
    """Read until the server closes the connection (True), or WAIT passes (False)."""
    s.settimeout(WAIT)
    try:
        while s.recv(4096):
            pass
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return True


def test_80_idle_connections_neither_starve_the_server_nor_stay_open(running: Running) -> None:
    idle: list[socket.socket] = []
    try:
        for i in range(80):
            s = running.connect()
            if i % 2:  # half send the start of a request, and never its end
                s.sendall(running.head()[:30])
            idle.append(s)
        assert running.get() == 200  # answered at once: an idle connection made room
        assert all(closed_by_server(s) for s in idle)
        assert running.get() == 200
        assert len(running.server.server_state.connections) <= LIMITS.max_connections
    finally:
        for s in idle:
            s.close()


def test_a_head_sent_a_byte_at_a_time_is_cut_off(running: Running) -> None:
    with running.connect() as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\n")
        for _ in range(int(WAIT / 0.05)):
            try:
                s.sendall(b"X")  # never a whole header line
            except (BrokenPipeError, ConnectionResetError):
                break
            with contextlib.suppress(TimeoutError):
                s.settimeout(0.05)
                if s.recv(1) == b"":
                    break
        else:
            raise AssertionError("the slow head was never cut off")
    assert running.get() == 200


def test_a_head_longer_than_the_limit_is_refused_before_it_ends(running: Running) -> None:
    with running.connect() as s:
        s.sendall(running.head(extra="X-Big: " + "x" * 3 * LIMITS.max_head_bytes)[:-2])
        s.settimeout(WAIT)
        answer = s.recv(100)
    assert answer.startswith(b"HTTP/1.1 400")


def test_a_body_that_never_ends_is_answered_408_and_changes_nothing(running: Running) -> None:
    before = running.ctl.log_path.read_bytes()
    head = (f"POST /api/dice HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n"
            f"Authorization: token {TOKEN}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n")
    with running.connect() as s:
        s.sendall(head.encode() + b'{"mode": ')  # and never the rest
        got = b""
        while b"did not arrive" not in got:
            chunk = s.recv(4096)
            assert chunk, got
            got += chunk
    assert got.startswith(b"HTTP/1.1 408")
    assert running.ctl.ask_dice is True and running.ctl.log_path.read_bytes() == before


def test_a_kept_alive_connection_answers_again_then_is_closed_when_idle(
        running: Running) -> None:
    with running.connect() as s:
        for _ in range(2):
            s.sendall(running.head())
            got = b""
            while b'"version"' not in got:
                chunk = s.recv(65536)
                assert chunk, "closed while a request was answered"
                got += chunk
            assert got.startswith(b"HTTP/1.1 200")
        assert closed_by_server(s)


def test_an_open_event_stream_is_not_cut_by_the_deadlines(running: Running) -> None:
    with running.connect() as s:
        s.sendall(running.head("/api/events"))
        got = b""
        while got.count(b"data: ") < 1:
            chunk = s.recv(4096)
            assert chunk, "the event stream closed"
            got += chunk
        time.sleep(3 * LIMITS.head_timeout)  # longer than any deadline of a request's head
        req = urllib.request.Request(
            f"http://127.0.0.1:{running.port}/api/dice", data=b'{"mode": "auto"}',
            method="POST", headers={"Authorization": f"token {TOKEN}",
                                    "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            assert r.status == 200
        while got.count(b"data: ") < 2:  # the change reaches the page still following
            chunk = s.recv(4096)
            assert chunk, "the event stream was cut"
            got += chunk
