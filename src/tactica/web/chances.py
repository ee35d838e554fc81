"""The page's chance-to-win bar: ``GET /api/chances`` answers each side's chance of winning
from the fight's current position (:mod:`tactica.analysis.chances`: exact when the rest of the
fight fits a budget of states, else estimated from seeded fights with 95% intervals).

The position is copied under the fight's lock (at once) and the chances are worked out
outside it, in a worker thread, so the rest of the page never waits for them; the answer of
each version of the fight is remembered, and several tabs asking for it share one search. A
request for a version older than one asked for since is answered ``{"stale": true}`` at once
(the page asks for the new one)."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tactica.analysis.chances import CHANCE_MAX_STATES, chances_from
from tactica.play.chances import policies_at_table
from tactica.play.controller import FightController

__all__ = ["WEB_BATTLES", "chances_endpoint"]

#: Fights played from the current position for an estimate on the page.
WEB_BATTLES = 100


class _Remembered:
    """The last version's answer, computed once whoever asks."""

    def __init__(self) -> None:
        self.version = -1
        self.answer: dict[str, Any] | None = None
        self.lock = threading.Lock()
        #: The newest version asked for: an older one still waiting is not worked out.
        self.latest = -1


def chances_endpoint(server: Any) -> Callable[[Request], Awaitable[Response]]:
    """The handler of ``GET /api/chances`` for ``server`` (a
    :class:`tactica.web.app.FightServer`)."""
    remembered = _Remembered()

    def position(ctl: FightController) -> tuple[int, Any, Any, dict[str, str], int]:
        ctl.advance()  # what needs nobody first, as the page's state does
        battle = ctl.battle
        return (ctl.version, battle.ruleset, battle.ruleset.copy_state(battle.state),
                policies_at_table(ctl.scenario, battle, ctl.computer), ctl.scenario.max_rounds)

    def work(version: int, ruleset: Any, state: Any, policies: dict[str, str],
             max_rounds: int) -> dict[str, Any]:
        remembered.latest = max(remembered.latest, version)
        with remembered.lock:
            if remembered.version == version and remembered.answer is not None:
                return remembered.answer
            if version < remembered.latest:  # the fight has moved on: the page asks again
                return {"version": version, "stale": True}
            found = chances_from(ruleset, state, policies, max_rounds=max_rounds,
                                 max_states=CHANCE_MAX_STATES, battles=WEB_BATTLES)
            answer = {**found.to_dict(), "version": version, "policies": policies}
            remembered.version, remembered.answer = version, answer
            return answer

    async def chances(request: Request) -> Response:
        version, ruleset, state, policies, max_rounds = await server.run(position)
        answer = await anyio.to_thread.run_sync(
            lambda: work(version, ruleset, state, policies, max_rounds))
        return JSONResponse(answer)

    return chances
