"""In a real browser: the launch's token reaches the fight's server and no other.

Cookies ignore ports, so a token kept in a cookie would go to every web server of this
machine that the owner's browser visits. The page keeps it in its own tab's storage (scoped to
the server's origin, port included) and sends it in a header. Here the owner opens the URL
tactica serve prints, then visits another local server (a plain http.server on another
loopback port, which records every request it gets): none of its requests carries the token,
and the fight's page still works after a reload. The test skips, saying why, where no
Chromium or no Playwright is installed.
"""

from __future__ import annotations

import http.server
import threading
from pathlib import Path
from typing import Any, ClassVar

from web_helpers import EXAMPLES, TIMEOUT, Server, launch_browser

from tactica.engine.events import ActionTaken
from tactica.play import read_log

OTHER_PAGE = b"""<!doctype html><html><body><p>another local service</p>
<img src="/pixel.png" alt="">
<script>fetch("/api", {credentials: "include"}).then(() => { window.done = true; },
                                                    () => { window.done = true; });</script>
</body></html>"""


class Recorder(http.server.BaseHTTPRequestHandler):
    """Another local web service: answers a small page and records every request's headers."""

    seen: ClassVar[list[tuple[str, list[tuple[str, str]]]]] = []

    def do_GET(self) -> None:
        self.seen.append((self.path, list(self.headers.items())))
        body = OTHER_PAGE if self.path.startswith("/index") else b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "text/html" if body is OTHER_PAGE
                         else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_another_local_service_never_receives_the_token(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    Recorder.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    other = f"http://127.0.0.1:{httpd.server_address[1]}"
    with launch_browser() as browser:
        server = Server([str(EXAMPLES / "nebulia" / "duel.yaml"), "--log", str(log),
                         "--seed", "3"], tmp_path)
        try:
            context = browser.new_context()
            page = context.new_page()
            page.goto(server.url)
            page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
            assert "red to choose" in page.inner_text("#question h2")
            assert "token=" not in page.url  # out of the address bar
            assert context.cookies() == []  # nothing a browser would send elsewhere
            # The owner visits another local service, by both of this machine's names.
            visit = context.new_page()
            for name in (other, other.replace("127.0.0.1", "localhost")):
                visit.goto(f"{name}/index.html")
                visit.wait_for_function("() => window.done === true", timeout=TIMEOUT)
            paths = [path for path, _ in Recorder.seen]
            assert paths.count("/index.html") == 2 and paths.count("/api") == 2, paths
            for path, headers in Recorder.seen:
                for name, value in headers:
                    assert server.token not in value, (path, name)
                    assert "tactica" not in f"{name}: {value}".lower(), (path, name, value)
            # The fight's page keeps its token over a reload, and still changes the fight.
            page.reload()
            page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
            assert "token=" not in page.url
            key = page.get_attribute("#question", "data-key")
            page.click("button:text-is('A stays at 0,0')", timeout=TIMEOUT)
            page.wait_for_function(
                "k => document.querySelector('#question').dataset.key !== k",
                arg=key, timeout=TIMEOUT)
            assert page.locator("#error").is_hidden()
            assert any(isinstance(r, ActionTaken) and r.side == "red"
                       for r in read_log(log).records)
            # A tab of its own (its storage empty) opened on the bare address is refused.
            bare = context.new_page()
            bare.goto(server.base + "/")
            bare.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT)
            assert "answers only its owner" in bare.inner_text("#error")
            assert context.cookies() == []
            context.close()
        finally:
            server.kill()
            httpd.shutdown()
            httpd.server_close()
