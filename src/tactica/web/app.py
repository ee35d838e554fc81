"""The web page's server: a Starlette app over one fight controller.

Routes (JSON unless said):

* ``GET /`` the page, a shell that holds nothing of the fight (its script takes the token
  from ``/?token=TOKEN``, the URL printed, and sends it in a header); ``GET /static/...`` its
  script and style (from this package only); the paths served without the token;
* ``GET /api/state`` the fight (:func:`tactica.web.snapshot.snapshot`);
* ``GET /api/map.svg[?a=ID&b=ID]`` the map, with the sight lines between two units;
* ``GET /api/sight?a=ID&b=ID`` sight and cover, with its reasons, and the odds between them;
* ``GET /api/preview?key=KEY&index=I[&bearing=DEGREES]`` the exact odds of action ``I`` of the
  open question (aimed at a bearing: an aimable firing arc), its outcomes as bars (the preview
  shown before an attack is committed); a question that is no longer open answers
  ``{"stale": true}`` (a page's requests that crossed an answer are not errors);
* ``GET /api/chances`` each side's chance to win from here (:mod:`tactica.web.chances`);
* ``GET /favicon.ico`` the page's icon (also ``/static/favicon.svg``);
* ``POST /api/action`` ``{"key", "index"}`` (and ``"bearing"``, degrees, to aim an action the
  question lists as aimable: a firing arc at any bearing), ``/api/roll`` ``{"key", "text"}``
  (``""``: tactica rolls), ``/api/decide`` ``{"key", "index"}``, ``/api/dice`` ``{"mode"}``;
* ``GET /api/events`` Server-Sent Events: the fight's version after every change, so every
  tab on the fight fetches the new state.

Only the fight's owner is answered (:class:`tactica.web.guard.OwnerGuard`: the launch's token,
the server's own Host names, the page's own Origin for changes, and security headers on every
answer). Every request is checked before anything changes: a JSON body of at most 4 KiB with exactly
the fields of its pydantic model, ids that exist, the ``key`` of the question open now (a tab
that is behind is told so: 409). A wrong request gets a 4xx with ``{"error": "..."}`` naming
what is wrong, and changes nothing. The controller is driven under one lock, in a worker
thread (its log writes wait for the disk), so answers from several tabs are taken one at a
time; the log is saved after every event exactly as in ``tactica play``.

A step that cannot be saved (a full disk, a read-only disk) leaves the log as it was before
that record (:class:`tactica.play.logfile.LogWriter` undoes it), but the fight in memory has
moved on. The server then never shows that state: it reloads the fight from its log, at once,
answers the request 503 saying what happened, and every page shows that notice with the fight
as the log holds it (a step cut short asks again for what was not saved). If even the reload
fails (its computer move cannot be saved either), the fight waits as the log holds it: every
request says why and tries the reload again, so that the fight goes on once there is space.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import AsyncIterator, Callable
from importlib.resources import files
from typing import Any, Literal

import anyio
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tactica.engine.errors import ScriptError, TacticaError
from tactica.engine.validation import whole_number
from tactica.play.controller import FightController, Note
from tactica.play.queries import sight_of, svg_of
from tactica.web.chances import chances_endpoint
from tactica.web.guard import SECURITY_HEADERS, OwnerGuard
from tactica.web.listen import Limits
from tactica.web.snapshot import odds_between, preview, snapshot

__all__ = ["MAX_BODY", "FightServer", "create_app"]

#: The largest request body accepted (bytes).
MAX_BODY = 4096
#: The longest id or typed answer accepted.
MAX_TEXT = 100
_STATIC = files("tactica.web") / "static"


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ActionBody(_Body):
    """Take action ``index`` (0-based) of the question ``key``, aimed at ``bearing`` degrees
    when given."""

    key: int = Field(ge=0)
    index: int = Field(ge=0, le=100_000)
    bearing: float | None = Field(default=None, allow_inf_nan=False)


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
    """The controller of one fight (replaced when the fight is reloaded from its log), and
    who is told when it changes."""

    def __init__(self, controller: FightController):
        self.controller = controller
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self.closed = False
        #: The fight could not be saved nor continued from its log (a full disk): every
        #: request tries to continue it from its log again, and is refused until it can.
        self.stalled = False
        self._why = ""
        #: Why the fight was last reloaded from its log (shown on every page), or why it waits.
        self.notice = ""

    async def run(self, fn: Callable[[FightController], Any], *, answer: bool = False) -> Any:
        """Run ``fn`` on the controller, alone, in a worker thread; tell every tab after. A
        failed write reloads the fight from its log and is refused with a 503; an ``answer``
        that goes through clears the notice of the last reload."""
        async with self.lock:
            if self.closed:
                raise WebError(503, self.notice or "the fight is closed")
            if self.stalled:  # try again: the disk may have room now
                old = self.controller
                await anyio.to_thread.run_sync(lambda: self._reload(old, self._why))
                if self.stalled:
                    raise WebError(503, self.notice)
            ctl = self.controller
            try:
                result = await anyio.to_thread.run_sync(lambda: fn(ctl))
                if answer:
                    self.notice = ""
                return result
            except TacticaError as exc:
                if not ctl.writer.closed:
                    raise
                why = str(exc)
                await anyio.to_thread.run_sync(lambda: self._reload(ctl, why))
                raise WebError(503, self.notice) from None
            finally:
                self._changed.set()
                self._changed = asyncio.Event()

    def _reload(self, old: FightController, why: str) -> None:
        """The log's writer closed after a failed write: rebuild the fight from the log."""
        path = old.log_path
        def short(text: str) -> str:  # without the terminal's advice
            return text.split("; everything saved before")[0]

        why = short(why)
        self._why = why
        new: FightController | None = None
        try:
            new = FightController.resume(path, scenario=old.scenario, computer=old.computer,
                                         ask_dice=old.ask_dice, durable=old.writer.durable,
                                         command=old.writer.command,
                                         accept_old_log=not old.header.checked)
            new.advance()  # what needs nobody (the computer's turns) must be saved too
        except TacticaError as exc:
            # Not closed: the log holds every step saved, and the next request continues the
            # fight from it again (once the disk has room, it goes on from there).
            self.stalled = True
            self.notice = (f"The fight could not be saved ({why}), nor continued from its log "
                           f"({short(str(exc))}); it waits as its log holds it: every request "
                           f"tries again, so once the problem is solved (space freed) it goes "
                           f"on here, or continue it with tactica serve --resume {path}")
            if new is not None:
                new.close()
            return
        self.stalled = False
        new.version += old.version + 1  # every page sees a new version, and reloads
        self.notice = (f"The last answer could not be saved: {why}. The fight was reloaded "
                       "from its log and is shown as the log holds it: give the answer again "
                       "once the problem is solved.")
        new.feed.insert(0, Note("info", self.notice))
        self.controller = new

    async def wait_change(self, timeout: float) -> None:
        """Until the next change (or ``timeout`` seconds)."""
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key if len(key) <= 40 else key[:37] + "..."


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key is given once (``{"a": 1, "a": 2}`` is refused, never
    read as the last one: a guard and the code behind it might read different values)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


async def _body(request: Request, model: type[_Body], timeout: float) -> Any:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError(415, "send the request as JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None and (whole_number(length) is None or int(length) > MAX_BODY):
        raise WebError(413, f"the request is larger than {MAX_BODY} bytes")
    data = b""
    try:
        with anyio.fail_after(timeout):
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise WebError(413, f"the request is larger than {MAX_BODY} bytes")
    except TimeoutError:
        raise WebError(408, f"the request's body did not arrive within {timeout:g} s") from None
    try:
        raw = json.loads(data.decode("utf-8"), object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise WebError(400, f"the request gives the key {exc.key!r} twice") from None
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


def _bearing(text: str | None) -> float | None:
    """``bearing=DEGREES`` of a preview (an aimed firing arc), a finite number, or None."""
    if text is None:
        return None
    try:
        value = float(text[:40])
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise WebError(400, f"preview: bearing: expected a number of degrees, got {text[:40]!r}")
    return value


def create_app(controller: FightController, *, token: str, allowed_hosts: list[str],
               limits: Limits | None = None) -> Starlette:
    """The app serving ``controller``'s fight to its owner only: requests must carry
    ``token`` in a header (see :class:`~tactica.web.guard.OwnerGuard`) and name one of
    ``allowed_hosts`` (``name:port``) as their Host."""
    server = FightServer(controller)
    body_timeout = (limits or Limits()).body_timeout
    max_streams = (limits or Limits()).max_streams
    #: The open event streams, oldest first: one more ends the oldest (a tab left open
    #: somewhere), so that streams never hold every connection of the server.
    streams: list[asyncio.Event] = []

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            try:
                if server.closed:
                    raise WebError(503, server.notice or "the fight is closed")
                result: Response = await handler(request)
                return result
            except WebError as exc:
                return _error(exc.status, str(exc))
            except ScriptError as exc:
                return _error(400, str(exc))
            except TacticaError as exc:
                return _error(409, str(exc))
        return run

    def state_of(ctl: FightController) -> dict[str, Any]:
        return {**snapshot(ctl), "notice": server.notice}

    async def page(request: Request) -> Response:
        return HTMLResponse((_STATIC / "index.html").read_text(encoding="utf-8"))

    async def state(request: Request) -> Response:
        return JSONResponse(await server.run(state_of))

    async def map_svg(request: Request) -> Response:
        a, b = request.query_params.get("a"), request.query_params.get("b")

        def draw(ctl: FightController) -> str:
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

        def answer(ctl: FightController) -> dict[str, Any]:
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

    async def preview_of(request: Request) -> Response:
        key = whole_number(request.query_params.get("key", ""))
        index = whole_number(request.query_params.get("index", ""))
        if key is None or index is None:
            raise WebError(400, "preview: give the question's key and the action's number "
                                "(key=K&index=I, whole numbers)")
        bearing = _bearing(request.query_params.get("bearing"))

        def answer(ctl: FightController) -> dict[str, Any]:
            req = ctl.open_request
            if req is None or req.key != key:  # a tab a step behind: said, not refused
                return {"stale": True, "key": key,
                        "error": "the fight has moved on since that question was asked"}
            return preview(ctl, key, index, bearing)

        return JSONResponse(await server.run(answer))

    async def favicon(request: Request) -> Response:
        return Response((_STATIC / "favicon.svg").read_bytes(), media_type="image/svg+xml")

    async def action(request: Request) -> Response:
        body: ActionBody = await _body(request, ActionBody, body_timeout)
        await server.run(lambda ctl: ctl.take(body.index, key=body.key, bearing=body.bearing),
                         answer=True)
        return JSONResponse(await server.run(state_of))

    async def roll(request: Request) -> Response:
        body: RollBody = await _body(request, RollBody, body_timeout)
        try:
            await server.run(lambda ctl: ctl.answer_roll(body.text, key=body.key), answer=True)
        except ScriptError as exc:  # dice that cannot be what was rolled
            raise WebError(400, str(exc)) from None
        return JSONResponse(await server.run(state_of))

    async def decide(request: Request) -> Response:
        body: DecideBody = await _body(request, DecideBody, body_timeout)
        await server.run(lambda ctl: ctl.decide(body.index, key=body.key), answer=True)
        return JSONResponse(await server.run(state_of))

    async def dice(request: Request) -> Response:
        body: DiceBody = await _body(request, DiceBody, body_timeout)

        def set_mode(ctl: FightController) -> None:
            ctl.set_dice(body.mode == "ask")  # the roll asked now too, when tactica rolls

        await server.run(set_mode, answer=True)
        return JSONResponse(await server.run(state_of))

    async def events(request: Request) -> Response:
        if server.closed:  # not 200: the page's EventSource stops asking
            return _error(503, server.notice or "the fight is closed")

        ended = asyncio.Event()
        streams.append(ended)
        while len(streams) > max_streams:
            streams.pop(0).set()

        async def stream() -> AsyncIterator[str]:
            seen = -1
            try:
                while not server.closed and not ended.is_set():
                    version = server.controller.version
                    if version != seen:
                        seen = version
                        yield f"data: {json.dumps({'version': seen})}\n\n"
                    else:
                        yield ": still here\n\n"
                    waits = [asyncio.ensure_future(server.wait_change(10.0)),
                             asyncio.ensure_future(ended.wait())]
                    _, pending = await asyncio.wait(waits,
                                                    return_when=asyncio.FIRST_COMPLETED)
                    for task in pending:
                        task.cancel()
                    if await request.is_disconnected():
                        break
            finally:
                if ended in streams:
                    streams.remove(ended)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", page),
        Route("/api/state", guarded(state)),
        Route("/api/map.svg", guarded(map_svg)),
        Route("/api/sight", guarded(sight)),
        Route("/api/preview", guarded(preview_of)),
        Route("/api/chances", guarded(chances_endpoint(server))),
        Route("/favicon.ico", favicon),
        Route("/api/action", guarded(action), methods=["POST"]),
        Route("/api/roll", guarded(roll), methods=["POST"]),
        Route("/api/decide", guarded(decide), methods=["POST"]),
        Route("/api/dice", guarded(dice), methods=["POST"]),
        Route("/api/events", events),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ]
    middleware = [Middleware(OwnerGuard, token=token, hosts=allowed_hosts)]

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, f"no such page: {request.url.path[:80]}")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _error(405, f"{request.method} is not allowed on {request.url.path[:80]}")

    async def failed(request: Request, exc: Exception) -> Response:
        # Answered outside the guard: its headers are added here.
        return JSONResponse({"error": "the server failed on this request"}, status_code=500,
                            headers=dict(SECURITY_HEADERS))

    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={404: not_found, 405: not_allowed, 500: failed})
    app.state.fight = server
    return app
