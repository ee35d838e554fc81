"""The server's socket and connections: bound before anything else, and bounded.

:func:`listen` binds the address first (so a busy port or an address this machine does not
have is one clear error, before any log is created) and :func:`run` serves the app on it
with uvicorn, through :func:`guarded_protocol`: uvicorn's HTTP/1.1 protocol (h11) with

* a deadline for every request's head (:attr:`Limits.head_timeout` from the moment the
  connection opens, or the previous answer ends): a connection that sends nothing, or its
  head a byte at a time, is closed then;
* a cap on open connections (:attr:`Limits.max_connections`): one more closes the connection
  that has waited longest without a request, or, when every connection is busy, is answered
  503 and closed;
* a bound on a request's head (:attr:`Limits.max_head_bytes`; a larger one gets 400), the
  idle keep-alive delay of uvicorn (:attr:`Limits.keep_alive`), and a deadline for a request's
  body in the app (:attr:`Limits.body_timeout`).

Long answers are not cut: a page follows the fight through Server-Sent Events for as long as
it is open.
"""

from __future__ import annotations

import asyncio
import errno
import socket
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


def guarded_protocol(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the deadline for request heads and the connection cap."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self._head_timer: asyncio.TimerHandle | None = None
            self._idle_since = 0.0

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._wait_for_head()
            if len(self.connections) > limits.max_connections:
                self._make_room()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop_waiting()  # a request's head has come: it is being answered

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
            idle = [c for c in self.connections
                    if isinstance(c, GuardedH11) and c is not self
                    and c._head_timer is not None and not c.transport.is_closing()]
            if idle:
                oldest = min(idle, key=lambda c: c._idle_since)
                oldest._stop_waiting()
                oldest.transport.close()
                return
            body = b"too many connections: try again in a moment\n"
            self.transport.write(
                b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n"
                b"content-type: text/plain; charset=utf-8\r\nx-content-type-options: nosniff\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            self._stop_waiting()
            self.transport.close()

    return GuardedH11


def make_server(app: Any, limits: Limits = Limits()) -> Any:
    """The uvicorn server of ``app`` with these limits (start it with ``.run(sockets=...)``)."""
    import uvicorn

    config = uvicorn.Config(
        app, http=guarded_protocol(limits), ws="none", lifespan="off", interface="asgi3",
        log_level="warning", timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=limits.max_head_bytes, timeout_graceful_shutdown=2,
        proxy_headers=False, server_header=False)
    return uvicorn.Server(config)


def run(app: Any, sock: socket.socket, limits: Limits = Limits()) -> None:
    """Serve ``app`` on the bound ``sock`` until Ctrl-C (or SIGTERM)."""
    make_server(app, limits).run(sockets=[sock])
