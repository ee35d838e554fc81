"""The web page's server: a Starlette app over one fight controller.

Routes (JSON unless said):

* ``GET /`` the page; ``GET /static/...`` its script and style (from this package only);
* ``GET /api/state`` the fight (:func:`tactica.web.snapshot.snapshot`);
* ``GET /api/map.svg[?a=ID&b=ID]`` the map, with the sight lines between two units;
* ``GET /api/sight?a=ID&b=ID`` sight and cover, with its reasons, and the odds between them;
* ``POST /api/action`` ``{"key", "index"}``, ``/api/roll`` ``{"key", "text"}`` (``""``:
  tactica rolls), ``/api/decide`` ``{"key", "index"}``, ``/api/dice`` ``{"mode"}``;
* ``GET /api/events`` Server-Sent Events: the fight's version after every change, so every
  tab on the fight fetches the new state.

Every request is checked before anything changes: a JSON body of at most 4 KiB with exactly
the fields of its pydantic model, ids that exist, the ``key`` of the question open now (a tab
that is behind is told so: 409). A wrong request gets a 4xx with ``{"error": "..."}`` naming
what is wrong, and changes nothing. The controller is driven under one lock, in a worker
thread (its log writes wait for the disk), so answers from several tabs are taken one at a
time; the log is saved after every event exactly as in ``tactica play``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from importlib.resources import files
from typing import Any, Literal

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tactica.errors import ScriptError, TacticaError
from tactica.play.controller import FightController
from tactica.play.queries import sight_of, svg_of
from tactica.validation import whole_number
from tactica.web.snapshot import odds_between, snapshot

__all__ = ["MAX_BODY", "FightServer", "create_app"]

#: The largest request body accepted (bytes).
MAX_BODY = 4096
#: The longest id or typed answer accepted.
MAX_TEXT = 100
_STATIC = files("tactica.web") / "static"


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ActionBody(_Body):
    """Take action ``index`` (0-based) of the question ``key``."""

    key: int = Field(ge=0)
    index: int = Field(ge=0, le=100_000)


class RollBody(_Body):
    """The dice typed for the question ``key`` (``""``: tactica rolls)."""

    key: int = Field(ge=0)
    text: str = Field(max_length=MAX_TEXT)


class DecideBody(_Body):
    """Option ``index`` (0-based) of the question ``key``."""

    key: int = Field(ge=0)
    index: int = Field(ge=0, le=100_000)


class DiceBody(_Body):
    """Dice typed by hand (``ask``) or rolled by tactica (``auto``)."""

    mode: Literal["ask", "auto"]


class WebError(Exception):
    """A request refused: ``status`` and a sentence."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class FightServer:
    """The controller of one fight, and who is told when it changes."""

    def __init__(self, controller: FightController):
        self.controller = controller
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self.closed = False

    async def run(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the controller, alone, in a worker thread; tell every tab after."""
        async with self.lock:
            try:
                return await anyio.to_thread.run_sync(fn)
            finally:
                self._changed.set()
                self._changed = asyncio.Event()

    async def wait_change(self, timeout: float) -> None:
        """Until the next change (or ``timeout`` seconds)."""
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


async def _body(request: Request, model: type[_Body]) -> Any:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError(415, "send the request as JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None and (whole_number(length) is None or int(length) > MAX_BODY):
        raise WebError(413, f"the request is larger than {MAX_BODY} bytes")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise WebError(413, f"the request is larger than {MAX_BODY} bytes")
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise WebError(400, "the request is not valid JSON") from None
    if not isinstance(raw, dict):
        raise WebError(422, "expected a JSON object")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err["loc"]) or "body"
            problems.append(f"{where}: {err['msg']}")
        raise WebError(422, "; ".join(problems)) from None


def _unit(ctl: FightController, name: str | None, what: str) -> str:
    if not name:
        raise WebError(400, f"{what}: a unit id is required")
    if len(name) > MAX_TEXT:
        raise WebError(400, f"{what}: longer than {MAX_TEXT} characters")
    ids = [u.id for u in ctl.battle.ruleset.units(ctl.battle.state)]
    if name not in ids:
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise WebError(404, f"{what}: no unit {shown!r} in this fight")
    return name


def create_app(controller: FightController, *, allowed_hosts: list[str] | None = None
               ) -> Starlette:
    """The app serving ``controller``'s fight. ``allowed_hosts`` (Host headers accepted) keeps
    a local server from answering pages of other sites (DNS rebinding); ``None``: any."""
    server = FightServer(controller)
    ctl = controller

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            if server.closed:
                return _error(503, "the fight is closed")
            try:
                result: Response = await handler(request)
                return result
            except WebError as exc:
                return _error(exc.status, str(exc))
            except ScriptError as exc:
                return _error(400, str(exc))
            except TacticaError as exc:
                return _error(409, str(exc))
        return run

    async def page(request: Request) -> Response:
        return HTMLResponse((_STATIC / "index.html").read_text(encoding="utf-8"))

    async def state(request: Request) -> Response:
        return JSONResponse(await server.run(lambda: snapshot(ctl)))

    async def map_svg(request: Request) -> Response:
        a, b = request.query_params.get("a"), request.query_params.get("b")

        def draw() -> str:
            sight = None
            if a or b:
                sight = sight_of(ctl.battle, _unit(ctl, a, "a"), _unit(ctl, b, "b"))
            return svg_of(ctl.battle, sight)

        svg = await server.run(draw)
        if not svg:
            raise WebError(404, "this game is played without a map")
        return Response(svg, media_type="image/svg+xml")

    async def sight(request: Request) -> Response:
        a, b = request.query_params.get("a"), request.query_params.get("b")

        def answer() -> dict[str, Any]:
            source, target = _unit(ctl, a, "a"), _unit(ctl, b, "b")
            out: dict[str, Any] = {"a": source, "b": target,
                                   "odds": odds_between(ctl, source, target)}
            try:
                report = sight_of(ctl.battle, source, target)
            except TacticaError as exc:
                out["sight"] = None
                out["lines"] = [str(exc)]
                return out
            out["sight"] = {"visible": report.visible, "cover": report.cover,
                            "in_cover": report.in_cover}
            out["lines"] = report.explain().split("\n")
            return out

        return JSONResponse(await server.run(answer))

    async def action(request: Request) -> Response:
        body: ActionBody = await _body(request, ActionBody)
        await server.run(lambda: ctl.take(body.index, key=body.key))
        return JSONResponse(await server.run(lambda: snapshot(ctl)))

    async def roll(request: Request) -> Response:
        body: RollBody = await _body(request, RollBody)
        try:
            await server.run(lambda: ctl.answer_roll(body.text, key=body.key))
        except ScriptError as exc:  # dice that cannot be what was rolled
            raise WebError(400, str(exc)) from None
        return JSONResponse(await server.run(lambda: snapshot(ctl)))

    async def decide(request: Request) -> Response:
        body: DecideBody = await _body(request, DecideBody)
        await server.run(lambda: ctl.decide(body.index, key=body.key))
        return JSONResponse(await server.run(lambda: snapshot(ctl)))

    async def dice(request: Request) -> Response:
        body: DiceBody = await _body(request, DiceBody)

        def set_mode() -> None:
            ctl.ask_dice = body.mode == "ask"
            ctl.version += 1

        await server.run(set_mode)
        return JSONResponse(await server.run(lambda: snapshot(ctl)))

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            seen = -1
            while not server.closed:
                if ctl.version != seen:
                    seen = ctl.version
                    yield f"data: {json.dumps({'version': seen})}\n\n"
                else:
                    yield ": still here\n\n"
                await server.wait_change(10.0)
                if await request.is_disconnected():
                    break

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", page),
        Route("/api/state", guarded(state)),
        Route("/api/map.svg", guarded(map_svg)),
        Route("/api/sight", guarded(sight)),
        Route("/api/action", guarded(action), methods=["POST"]),
        Route("/api/roll", guarded(roll), methods=["POST"]),
        Route("/api/decide", guarded(decide), methods=["POST"]),
        Route("/api/dice", guarded(dice), methods=["POST"]),
        Route("/api/events", events),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ]
    middleware = ([Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)]
                  if allowed_hosts else [])

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, f"no such page: {request.url.path[:80]}")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _error(405, f"{request.method} is not allowed on {request.url.path[:80]}")

    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.fight = server
    return app
