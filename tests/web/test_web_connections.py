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
from tactica.web.guard import owner_check
from tactica.web.listen import Limits, listen, make_server

DUEL = EXAMPLES / "nebulia" / "duel.yaml"
TOKEN = "connections-token-0123456789abcdef"
LIMITS = Limits(head_timeout=0.5, keep_alive=1, max_connections=16, max_head_bytes=4096,
                body_timeout=0.5, write_timeout=1.0, reserved=4, max_streams=3,
                fresh_grace=0.0)
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
    with serving(tmp_path, LIMITS) as server:
        yield server


@contextlib.contextmanager
def serving(tmp_path: Path, limits: Limits) -> Iterator[Running]:
    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    ctl = FightController.start(load_scenario(DUEL), tmp_path / "duel.jsonl", seed=1,
                                computer={"blue": "greedy"}, durable=False)
    app = create_app(ctl, token=TOKEN, allowed_hosts=[f"127.0.0.1:{port}"], limits=limits)
    server = make_server(app, limits, owner_check(TOKEN))
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
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400")
    assert b"content-security-policy: default-src 'self'" in answer  # protected as any other
    assert b"x-frame-options: DENY" in answer


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


def _drain_until(s: socket.socket, marker: bytes) -> bytes:
    got = b""
    while marker not in got:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def test_pipelining_connections_that_never_read_cannot_lock_the_owner_out(
        running: Running) -> None:
    """The attack: more connections than the cap, each pipelining 400 GET /static/app.js
    and never reading an answer, three times over. The owner's requests are answered all
    along; the attackers' connections are cut."""
    request = (f"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n\r\n"
               ).encode()
    attackers: list[socket.socket] = []
    slowest = 0.0
    try:
        for _ in range(3):  # waves of attackers, the owner asking between them
            for _ in range(LIMITS.max_connections + 2):
                s = running.connect()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # reads nothing
                s.setblocking(False)
                with contextlib.suppress(BlockingIOError, ConnectionError):
                    s.send(request * 400)
                attackers.append(s)
            for _ in range(5):
                start = time.monotonic()
                assert running.get() == 200
                slowest = max(slowest, time.monotonic() - start)
        assert len(running.server.server_state.connections) <= LIMITS.max_connections
    finally:
        for s in attackers:
            s.close()
    print(f"the owner's slowest answer under the attack: {slowest:.3f} s")


def test_a_connection_with_requests_queued_far_ahead_is_cut(running: Running) -> None:
    with running.connect() as s:
        s.sendall(running.head() * (LIMITS.max_pipelined + 4))
        assert closed_by_server(s)
    assert running.get() == 200


def test_answers_never_read_are_cut_after_the_write_deadline(running: Running) -> None:
    """A few pipelined requests (within the bound), whose answers are never read: the writes
    wait on a full buffer, and the connection is cut at the write deadline."""
    with running.connect() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        big = (f"GET /api/map.svg HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n"
               f"Authorization: token {TOKEN}\r\n\r\n").encode()
        for _ in range(200):  # one at a time, reading nothing, until the server stops taking
            try:
                s.setblocking(False)
                s.send(big * 4)
            except (BlockingIOError, ConnectionError):
                break
        s.setblocking(True)
        assert closed_by_server(s)  # cut, not left waiting on a reader that never comes
    assert running.get() == 200


def test_event_streams_beyond_the_bound_end_the_oldest(running: Running) -> None:
    streams = []
    try:
        for _ in range(LIMITS.max_streams + 2):
            s = running.connect()
            s.sendall(running.head("/api/events"))
            assert b"data: " in _drain_until(s, b"data: ")
            streams.append(s)
        assert closed_by_server(streams[0]) and closed_by_server(streams[1])
        assert running.get() == 200
    finally:
        for s in streams:
            s.close()


def test_the_503_of_a_full_server_carries_the_protective_headers() -> None:
    from tactica.web.listen import _plain_answer

    answer = _plain_answer(b"503 Service Unavailable", b"too many\n")
    assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    for name in (b"content-security-policy", b"x-frame-options", b"x-content-type-options",
                 b"referrer-policy", b"cache-control"):
        assert name + b": " in answer


def test_a_flood_of_new_connections_does_not_cut_the_owners_on_its_way(tmp_path: Path) -> None:
    """The owner's connection is open, its request not yet sent; then more new connections
    than the server holds arrive. The owner's is not cut for them (it is younger than the
    grace a new connection has to show itself: here longer than the test), and its request,
    sent after the flood, is answered."""
    limits = Limits(head_timeout=WAIT, keep_alive=1, max_connections=8, reserved=2,
                    fresh_grace=WAIT)
    with serving(tmp_path, limits) as running:
        owner = running.connect()
        flood = [running.connect() for _ in range(limits.max_connections + 6)]
        try:
            owner.sendall(running.head())
            got = _drain_until(owner, b'"version"')
            assert got.startswith(b"HTTP/1.1 200"), got[:200]
        finally:
            owner.close()
            for s in flood:
                s.close()
