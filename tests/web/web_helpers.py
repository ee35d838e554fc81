"""Helpers of the web tests: a real server in a subprocess, and the system's Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
SCREENSHOTS = Path(__file__).parent / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    """The system's Chromium (Debian's package), or None."""
    for name in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.access(name, os.X_OK):
            return name
    return shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``tactica serve ARGS`` in a subprocess on a free local port."""

    def __init__(self, args: list[str], cwd: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        code = "import sys; from tactica.cli import main; sys.exit(main(sys.argv[1:]))"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", *args, "--port", str(self.port)],
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 300  # generous: a loaded machine starts slowly
        while True:
            try:
                self.state()
                return
            except (urllib.error.URLError, ConnectionError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    out = self.proc.stdout.read() if self.proc.stdout else ""
                    self.kill()
                    raise RuntimeError(f"the server did not start: {out}") from None
                time.sleep(0.2)

    def state(self) -> dict:  # type: ignore[type-arg]
        with urllib.request.urlopen(self.url + "/api/state", timeout=60) as r:
            return json.loads(r.read())  # type: ignore[no-any-return]

    def kill(self) -> None:
        """Kill it at once (as a crash would), and wait until it is gone."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        if self.proc.stdout:
            self.proc.stdout.close()


def launch_browser() -> Any:
    """The system's headless Chromium through Playwright (a context manager yielding the
    browser), or a pytest skip saying what is missing."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (Debian: apt-get install chromium); the browser tests "
                    "need the system's browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright's Python package is not installed (pip install "
                    "'tactica[browser]')")

    @contextlib.contextmanager
    def launched() -> Iterator[Any]:
        SCREENSHOTS.mkdir(exist_ok=True)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            try:
                yield b
            finally:
                b.close()

    return launched()
