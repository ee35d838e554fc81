"""Who may talk to the fight's server: its owner only (the model is Jupyter Server's).

:class:`OwnerGuard` wraps the web app and decides before any route runs:

* **Host** - every request must name the server as it was started: one of ``hosts`` (``name:port``
  strings: the address it listens on, ``localhost``, ``127.0.0.1`` and the names given with
  ``--allow-host``). A page of another site that rebinds its own name to this machine (DNS
  rebinding) sends its own name, and is refused (400).
* **Token** - a random token is made at each launch (:func:`new_token`) and printed in the URL
  that ``tactica serve`` shows. Every path but the page itself (``GET /``, a shell that holds
  nothing of the fight) and its static files needs it, in an ``Authorization: token TOKEN``
  (or ``Bearer``) header; without it: 403, and nothing is read or changed. The page's script
  reads ``?token=TOKEN`` from the URL it was opened with, keeps it in the tab's
  ``sessionStorage`` (the browser keeps it for this origin only: scheme, name *and port*),
  takes it out of the address bar and sends it in that header. No cookie is set or accepted:
  cookies ignore ports, so one would reach every other web server of this machine that the
  owner's browser visits.
* **Origin** - a request that changes anything (any method but GET and HEAD) must not come
  from another site's page: its ``Origin``, when it has one, one of ``http://HOST`` for the
  hosts above, and its ``Sec-Fetch-Site``, when it has one, ``same-origin`` (403 otherwise).
  A script (no browser) sends neither.
* **Headers** - every answer, refusals and errors included, carries :data:`SECURITY_HEADERS`:
  a Content-Security-Policy that allows only the server's own script and style and no
  framing, ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and ``Cache-Control: no-store``.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "SECURITY_HEADERS", "OwnerGuard", "new_token", "owner_check"]

#: The page runs only its own script and style, loads nothing from elsewhere, and may not be
#: framed.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
#: Sent with every answer (replacing any header of the same name).
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CSP),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("cache-control", "no-store"),
)
_RAW_HEADERS = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in SECURITY_HEADERS]
_REPLACED = {k for k, _ in _RAW_HEADERS}
#: Paths served without the token: the page's own script, style and icon (no fight in them;
#: ``/favicon.ico`` too), and ``GET /``, the page's shell.
PUBLIC = "/static/"
_SAFE_METHODS = frozenset({"GET", "HEAD"})


def new_token() -> str:
    """A fresh random token (256 bits) for one launch of the server."""
    return secrets.token_urlsafe(32)


def with_security_headers(send: Send) -> Send:
    """``send`` adding :data:`SECURITY_HEADERS` to the start of every answer."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _REPLACED]
            message = {**message, "headers": kept + _RAW_HEADERS}
        await send(message)

    return sending


class OwnerGuard:
    """The ASGI middleware that lets only the owner in (see the module's description)."""

    def __init__(self, app: ASGIApp, *, token: str, hosts: Iterable[str]):
        if len(token) < 16:
            raise ValueError("the token is too short")
        self.app = app
        self.token = token
        self.hosts = frozenset(h.lower() for h in hosts)
        if not self.hosts:
            raise ValueError("no host to answer as")
        self.origins = frozenset(f"http://{h}" for h in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # no WebSocket here
            await send({"type": "websocket.close", "code": 1008})
            return
        send = with_security_headers(send)
        headers = Headers(scope=scope)
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, message, extra = refusal
            await _answer(send, status, message, extra)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: Headers
                 ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """``None`` to let the request through; else the status, a sentence and headers."""
        hosts = headers.getlist("host")
        if len(hosts) != 1 or hosts[0].lower() not in self.hosts:
            shown = ", ".join(repr(h[:60]) for h in hosts) or "none"
            return 400, (f"this server answers only as {sorted(self.hosts)[0]} (or the names "
                         f"it was started with), not to the Host {shown}"), []
        path: str = scope["path"]
        method: str = scope["method"]
        if path.startswith(PUBLIC) or path == "/favicon.ico":
            return None
        if path == "/" and method in _SAFE_METHODS:  # the shell: its script asks with the token
            return None
        if not _token_in(headers, self.token):
            return 403, ("this fight answers only its owner: open the URL that tactica serve "
                         "printed (with its ?token=...), or send the token in an "
                         "Authorization header"), []
        if method not in _SAFE_METHODS:
            origin = headers.get("origin")
            site = headers.get("sec-fetch-site")
            if origin is not None and origin.lower() not in self.origins:
                return 403, (f"requests from {origin[:80]!r} are refused: only the fight's "
                             "own page may change it"), []
            if site is not None and site not in ("same-origin", "none"):
                return 403, (f"a {site[:20]} request is refused: only the fight's own page "
                             "may change it"), []
        return None


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode())


def _token_in(headers: Headers, token: str) -> bool:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return scheme.lower() in ("token", "bearer") and _same(value.strip(), token)


def owner_check(token: str) -> Callable[[list[tuple[bytes, bytes]]], bool]:
    """Whether a request's raw headers carry the launch's token (the connection limits keep
    room for the owner's requests: :mod:`tactica.web.listen`)."""

    def is_owner(raw: list[tuple[bytes, bytes]]) -> bool:
        return _token_in(Headers(raw=raw), token)

    return is_owner


async def _answer(send: Send, status: int, message: str,
                  extra: list[tuple[bytes, bytes]]) -> None:
    body = json.dumps({"error": message}).encode() if message else b""
    headers: list[tuple[bytes, bytes]] = [(b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    start: dict[str, Any] = {"type": "http.response.start", "status": status,
                             "headers": headers + extra}
    await send(start)
    await send({"type": "http.response.body", "body": body})
