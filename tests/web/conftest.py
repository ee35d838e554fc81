"""The browser tests' fixtures: the system's Chromium, servers started in a test's folder (every
one killed at the end), and where screenshots go."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Server, launch_browser


@pytest.fixture
def browser() -> Iterator[Any]:
    """The system's headless Chromium (the test skips, saying why, where there is none)."""
    with launch_browser() as b:
        yield b


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``servers(ARGS, prelude="")`` starts ``tactica serve ARGS`` in tmp_path."""
    started: list[Server] = []

    def start(args: list[str], prelude: str = "") -> Server:
        server = Server(args, tmp_path, prelude=prelude)
        started.append(server)
        return server

    yield start
    for s in started:
        s.kill()


@pytest.fixture
def serve(servers: Callable[..., Server], tmp_path: Path) -> Callable[..., Server]:
    """``serve(SCENARIO, *ARGS)``: the fight of SCENARIO at seed 3, its log in tmp_path (the
    server's ``log``)."""
    count = iter(range(1_000))

    def start(scenario: Path, *args: str) -> Server:
        log = tmp_path / f"fight-{next(count)}.jsonl"
        server = servers([str(scenario), "--log", str(log), "--seed", "3", *args])
        server.log = log  # type: ignore[attr-defined]
        return server

    return start


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a test's screenshots go: $TACTICA_SCREENSHOTS, else the test's folder."""
    where = Path(os.environ.get("TACTICA_SCREENSHOTS") or tmp_path / "screenshots")
    where.mkdir(parents=True, exist_ok=True)
    return where
