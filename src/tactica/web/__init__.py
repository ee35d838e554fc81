"""The game master's assistant as a local web page (``tactica serve``): a Starlette app over
the same fight controller as the terminal (:mod:`tactica.play.controller`) in
:mod:`tactica.web.app`, answering its owner only (:mod:`tactica.web.guard`), on a socket bound
first and connections bounded (:mod:`tactica.web.listen`)."""

from __future__ import annotations

__all__: list[str] = []
