"""Helpers of the web tests: a real server in a subprocess, and the system's Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
#: Where the browser tests keep their screenshots: $TACTICA_SCREENSHOTS, else a folder of the
#: system's temporary directory (never the repository).
SCREENSHOTS = Path(os.environ.get("TACTICA_SCREENSHOTS")
                   or Path(tempfile.gettempdir()) / "tactica-screenshots")
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
    """``tactica serve ARGS --port 0`` in a subprocess (after the Python lines ``prelude``):
    ``url`` is the URL it prints (with its token), ``base`` the same without the token,
    ``port`` the port it chose."""

    def __init__(self, args: list[str], cwd: Path, *, port: int = 0, prelude: str = ""):
        code = (prelude + "\n" if prelude else "") + (
            "import sys; from tactica.cli import main; sys.exit(main(sys.argv[1:]))")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", *args, "--port", str(port)],
            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.printed: list[str] = []
        # Generous waits for events (the URL printed, the first answer): a loaded machine
        # starts slowly; they are safety nets, not measures.
        self.url = self._printed_url(deadline=time.monotonic() + 300)
        self.base, _, self.token = self.url.partition("/?token=")
        self.port = int(self.base.rsplit(":", 1)[1])
        deadline = time.monotonic() + 300
        while True:
            try:
                self.state()
                return
            except (urllib.error.URLError, ConnectionError):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(f"the server did not start: {self.printed}") from None
                time.sleep(0.2)

    def _printed_url(self, deadline: float) -> str:
        """The URL the server prints (it is ready once it has printed it). The output is read
        by a thread until the server ends, so that it never blocks on a full pipe."""
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                lines.put(line.rstrip("\n"))
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.printed.append(line)
            if line.startswith("http://"):
                return line.strip()
        self.kill()
        raise RuntimeError(f"the server printed no URL: {self.printed}")

    def request(self, path: str, *, method: str = "GET", body: Any = None,
                headers: dict[str, str] | None = None, token: bool = True) -> Any:
        """A request with the token in an Authorization header (unless ``token`` is False)."""
        sent = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            sent["Authorization"] = f"token {self.token}"
        sent.update(headers or {})
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=sent)
        return urllib.request.urlopen(req, timeout=60)

    def state(self) -> dict:  # type: ignore[type-arg]
        with self.request("/api/state") as r:
            return json.loads(r.read())  # type: ignore[no-any-return]

    def kill(self) -> None:
        """Kill it at once (as a crash would), and wait until it is gone."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)


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


def shot(page: Any, **options: Any) -> None:
    """A screenshot for people to look at (under SCREENSHOTS), never a check: Chromium now and
    then cannot capture one on a loaded machine, and the test goes on without it."""
    from playwright.sync_api import Error

    with contextlib.suppress(Error):
        page.screenshot(**options)


#: ms: generous waits for events (a loaded machine may be slow): safety nets, not measures.
TIMEOUT = 120_000


def question(page: Any) -> tuple[str, str, str]:
    """The page's open question: its kind, key and heading."""
    box = page.locator("#question")
    head = box.locator("h2, #over").first.inner_text(timeout=TIMEOUT)
    return (box.get_attribute("data-kind") or "", box.get_attribute("data-key") or "", head)


def answered(page: Any, key: str) -> None:
    """Wait until the question ``key`` is no longer the open one."""
    page.wait_for_function(
        "k => { const q = document.querySelector('#question'); return q && q.dataset.key !== k; }",
        arg=key, timeout=TIMEOUT)


def click_and_wait(page: Any, selector: str) -> None:
    """Click ``selector`` and wait until the open question has been answered."""
    _, key, _ = question(page)
    page.click(selector, timeout=TIMEOUT)
    answered(page, key)


def until_side_acts(page: Any, side: str, limit: int = 60) -> None:
    """Answer rolls (tactica rolls) and decisions (the first option, or a range's lowest
    number) until ``side`` is asked for an action."""
    for _ in range(limit):
        kind, _, head = question(page)
        if kind == "action" and head.startswith(side):
            return
        if kind == "roll":
            click_and_wait(page, "#dice-roll")
        elif kind == "decision":
            if page.locator("#range-enter").count():
                click_and_wait(page, "#range-enter")
            else:
                click_and_wait(page, "#question button[data-option='0']")
        else:
            raise AssertionError(f"unexpected question: {kind} {head}")
    raise AssertionError(f"{side} never acted")
