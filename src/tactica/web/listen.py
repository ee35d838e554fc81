"""The server's socket and connections: bound before anything else, and bounded.

:func:`listen` binds the address first (so a busy port or an address this machine does not
have is one clear error, before any log is created) and :func:`run` serves the app on it
with uvicorn, through :func:`guarded_protocol`: uvicorn's HTTP/1.1 protocol (h11) with

* a deadline for every request's head (:attr:`Limits.head_timeout` from the moment the
  connection opens, or the previous answer ends): a connection that sends nothing, or its
  head a byte at a time, is closed then;
* a cap on open connections (:attr:`Limits.max_connections`): one more closes the connection
  that has waited longest without a request, or, when every connection is busy, the oldest
  connection that has not shown the launch's token, or, when every one has, is answered 503
  and closed. Connections that have not shown the token may hold all but
  :attr:`Limits.reserved` of the places: the owner always finds one;
* a deadline for writing (:attr:`Limits.write_timeout`): a connection whose answers are not
  read (its writes wait that long on a full buffer) is cut;
* a bound on what one connection may queue: at most :attr:`Limits.max_pipelined` requests
  sent ahead of their answers and :attr:`Limits.max_unread_bytes` bytes not yet read (a
  browser sends one request at a time); more cuts the connection;
* a bound on a request's head (:attr:`Limits.max_head_bytes`; a larger one gets 400), the
  idle keep-alive delay of uvicorn (:attr:`Limits.keep_alive`), and a deadline for a request's
  body in the app (:attr:`Limits.body_timeout`).

Long answers are not cut while they are read: a page follows the fight through Server-Sent
Events for as long as it is open (the app keeps at most :attr:`Limits.max_streams` of them,
ending the oldest). The 400 and 503 answers given here carry the same protective headers as the
app's (:data:`tactica.web.guard.SECURITY_HEADERS`).
"""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tactica.engine.errors import TacticaError

__all__ = ["Limits", "guarded_protocol", "listen", "make_server", "run"]


@dataclass(frozen=True)
class Limits:
    """How long and how much the server waits for and holds."""

    head_timeout: float = 10.0
    keep_alive: int = 5
    max_connections: int = 64
    max_head_bytes: int = 16 * 1024
    body_timeout: float = 10.0
    write_timeout: float = 10.0
    max_pipelined: int = 8
    max_unread_bytes: int = 64 * 1024
    reserved: int = 16
    fresh_grace: float = 1.0
    max_streams: int = 8


#: Tells whether a request's raw headers carry the launch's token.
OwnerCheck = Callable[[list[tuple[bytes, bytes]]], bool]


def _plain_answer(status: bytes, body: bytes) -> bytes:
    """A whole answer with the protective headers, that closes the connection."""
    from tactica.web.guard import SECURITY_HEADERS

    head = [b"HTTP/1.1 " + status, b"connection: close",
            b"content-type: text/plain; charset=utf-8",
            b"content-length: " + str(len(body)).encode()]
    head += [f"{k}: {v}".encode("latin-1") for k, v in SECURITY_HEADERS]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` (an IP address, or ``localhost``) and ``port`` (0: any free
    one) and listening; a TacticaError saying why not."""
    address = "127.0.0.1" if host == "localhost" else host
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise _bind_error(host, port, exc) from None
    sock.setblocking(False)
    return sock


def _bind_error(host: str, port: int, exc: OSError) -> TacticaError:
    reason = exc.strerror or str(exc)
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if exc.errno == errno.EADDRINUSE:
        return TacticaError(f"--port {port}: {shown} is already in use (another server is "
                            "listening there); choose another --port, or --port 0 for any "
                            "free one")
    if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return TacticaError(f"--host {host}: this machine has no such address ({reason}); "
                            "use 127.0.0.1, or one of this machine's own addresses")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return TacticaError(f"--port {port}: not allowed to listen on {shown} ({reason}); "
                            "ports below 1024 need privileges: choose one from 1024 up")
    return TacticaError(f"cannot listen on {shown} ({reason})")


def guarded_protocol(limits: Limits, owner: OwnerCheck | None = None
                     ) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the deadlines, the connection cap (keeping
    :attr:`Limits.reserved` places for connections whose requests pass ``owner``) and the
    bounds on what a connection queues."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self._head_timer: asyncio.TimerHandle | None = None
            self._write_timer: asyncio.TimerHandle | None = None
            self._idle_since = 0.0
            self._opened = 0.0
            self._owner = False
            self._asked = False  # a request came: the connection is known (owner or not)
            self._partial = False  # bytes came, not a whole head yet

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._opened = self.loop.time()
            self._wait_for_head()
            others = [c for c in self._guarded() if not c._owner]
            if len(self.connections) > limits.max_connections:
                self._make_room()
            elif owner is not None and len(others) > limits.max_connections - limits.reserved:
                self._evict(others)  # the owner's places stay free

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            self._stop_write_timer()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._partial = not self._asked
            if self.transport.is_closing():
                return
            unread, _ = self.conn.trailing_data
            if len(unread) > limits.max_unread_bytes or \
                    unread.count(b"\r\n\r\n") > limits.max_pipelined:
                self._cut()  # requests queued far ahead of their answers: not a browser

        def handle_events(self) -> None:
            before = self.cycle
            super().handle_events()
            if self.cycle is not None and self.cycle is not before:
                self._asked = True
                if owner is not None and not self._owner:
                    self._owner = owner(list(self.cycle.scope["headers"]))
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop_waiting()  # a request's head has come: it is being answered

        def send_400_response(self, msg: str) -> None:
            self.transport.write(_plain_answer(b"400 Bad Request", msg.encode("ascii",
                                                                               "replace")))
            self.transport.close()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._write_timer is None:
                self._write_timer = self.loop.call_later(limits.write_timeout, self._cut)

        def resume_writing(self) -> None:
            self._stop_write_timer()
            super().resume_writing()

        def _stop_write_timer(self) -> None:
            if self._write_timer is not None:
                self._write_timer.cancel()
                self._write_timer = None

        def _cut(self) -> None:
            """Close at once, dropping what was not sent (it would never be read)."""
            self._write_timer = None
            self._stop_waiting()
            if not self.transport.is_closing() or self.transport.get_write_buffer_size():
                self.transport.abort()

        def _recheck(self) -> None:
            if not self.transport.is_closing() and \
                    len(self.connections) > limits.max_connections:
                self._evict([c for c in self._guarded() if not c._owner])

        def _guarded(self) -> list[GuardedH11]:
            return [c for c in self.connections
                    if isinstance(c, GuardedH11) and not c.transport.is_closing()]

        def _evict(self, candidates: list[GuardedH11]) -> bool:
            """Cut the oldest of ``candidates`` but this one: one known not to be the
            owner's, else one that sent part of a head and not the rest, else a new one whose
            request has not come in :attr:`Limits.fresh_grace` (a newer one may be the
            owner's, its request on the way). False if there is none."""
            now = self.loop.time()
            others = [c for c in candidates if c is not self]
            for group in ([c for c in others if c._asked],
                          [c for c in others if not c._asked and c._partial],
                          [c for c in others if now - c._opened >= limits.fresh_grace]):
                if group:
                    min(group, key=lambda c: c._opened)._cut()
                    return True
            return False

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (
                    self.cycle is None or self.cycle.response_complete):
                self._wait_for_head()  # kept alive: the next head has the same deadline

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self._idle_since = self.loop.time()
            self._head_timer = self.loop.call_later(limits.head_timeout, self._too_slow)

        def _stop_waiting(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def _make_room(self) -> None:
            others = [c for c in self._guarded() if c is not self]
            # First a kept-alive connection waiting for its next request, then one known not
            # to be the owner's, then the oldest new one whose request has not come (the
            # newest may be the owner's, its request on the way).
            kept = [c for c in others if c._asked and c._head_timer is not None]
            if kept:
                oldest = min(kept, key=lambda c: c._idle_since)
                oldest._stop_waiting()
                oldest.transport.close()
                return
            if self._evict([c for c in others if not c._owner]):
                return
            if len(self.connections) <= limits.max_connections + limits.reserved:
                # Only new connections, too new to tell (one may be the owner's): this one
                # waits beside them, and the room is made once the oldest is old enough.
                self.loop.call_later(limits.fresh_grace, self._recheck)
                return
            self.transport.write(_plain_answer(b"503 Service Unavailable",
                                               b"too many connections: try again in a "
                                               b"moment\n"))
            self._stop_waiting()
            self.transport.close()

    return GuardedH11


def make_server(app: Any, limits: Limits = Limits(), owner: OwnerCheck | None = None) -> Any:
    """The uvicorn server of ``app`` with these limits (start it with ``.run(sockets=...)``);
    ``owner`` tells the owner's requests (their connections keep their places)."""
    import uvicorn

    config = uvicorn.Config(
        app, http=guarded_protocol(limits, owner), ws="none", lifespan="off", interface="asgi3",
        log_level="warning", timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=limits.max_head_bytes, timeout_graceful_shutdown=2,
        proxy_headers=False, server_header=False)
    return uvicorn.Server(config)


def run(app: Any, sock: socket.socket, limits: Limits = Limits(),
        owner: OwnerCheck | None = None) -> None:
    """Serve ``app`` on the bound ``sock`` until Ctrl-C (or SIGTERM)."""
    make_server(app, limits, owner).run(sockets=[sock])
