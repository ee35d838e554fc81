"""The game master's assistant as a local web page (``tactica serve``): a Starlette app over
the same fight controller as the terminal (:mod:`tactica.play.controller`)."""

from __future__ import annotations

__all__: list[str] = []
