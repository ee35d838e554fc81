"""The server answers its owner only: without the launch's token, from another site's page
(Origin), or under a foreign name (Host), a request is refused and changes nothing; every
answer carries the security headers."""

from __future__ import annotations

import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import EXAMPLES, Server

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from tactica.engine.scenario import load_scenario
from tactica.play import FightController
from tactica.web.app import create_app
from tactica.web.guard import CSP

DUEL = EXAMPLES / "nebulia" / "duel.yaml"
TOKEN = "owner-token-0123456789abcdef"
HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
READS = ["/api/state", "/api/map.svg", "/api/map.svg?a=A&b=B", "/api/sight?a=A&b=B",
         "/api/events"]
CHANGES = [("/api/action", {"key": 1, "index": 0}), ("/api/roll", {"key": 1, "text": ""}),
           ("/api/decide", {"key": 1, "index": 0}), ("/api/dice", {"mode": "auto"})]


@pytest.fixture
def fight(tmp_path: Path) -> Iterator[tuple[TestClient, FightController, Path]]:
    log = tmp_path / "duel.jsonl"
    ctl = FightController.start(load_scenario(DUEL), log, seed=1, computer={"blue": "greedy"},
                                durable=False)
    app = create_app(ctl, token=TOKEN, allowed_hosts=["testserver", "127.0.0.1:8000"])
    with TestClient(app, follow_redirects=False) as client:
        yield client, ctl, log
    ctl.close()


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"token {token}"}


def unchanged(ctl: FightController, log: Path) -> Any:
    before = (log.read_bytes(), ctl.version, ctl.ask_dice, ctl.open_request)

    def check() -> None:
        assert (log.read_bytes(), ctl.version, ctl.ask_dice, ctl.open_request) == before
    return check


def has_security_headers(response: Any) -> None:
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (response.url, name)
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("credentials", [
    {}, auth("wrong-token-0123456789abcdef"), auth(""), {"Authorization": TOKEN},
    {"Cookie": f"tactica-token=wrong{TOKEN}"}, {"Cookie": f"other-name={TOKEN}"},
], ids=["none", "wrong", "empty", "no-scheme", "wrong-cookie", "other-cookie"])
def test_without_the_token_nothing_is_read_or_changed(fight, credentials: dict[str, str]  # type: ignore[no-untyped-def]
                                                      ) -> None:
    client, ctl, log = fight
    ctl.advance()
    check = unchanged(ctl, log)
    for path in READS:
        r = client.get(path, headers=credentials)
        assert r.status_code == 403, (path, r.text)
        assert "answers only its owner" in r.json()["error"]
        assert "Duel" not in r.text and "data-unit" not in r.text
        has_security_headers(r)
    for path, body in CHANGES:
        r = client.post(path, json=body, headers={**credentials, "Origin": "http://testserver"})
        assert r.status_code == 403, (path, r.text)
        has_security_headers(r)
    # The token in the query string opens nothing but the page (whose script reads it).
    assert client.get(f"/api/state?token={TOKEN}", headers=credentials).status_code == 403
    check()


def test_the_page_shell_is_served_to_anyone_and_shows_nothing_of_the_fight(fight) -> None:  # type: ignore[no-untyped-def]
    """The page is a shell: its script reads the token from the URL and asks for the fight
    with it; no cookie is set (a cookie would go to every port of this machine)."""
    client, ctl, log = fight
    ctl.advance()
    check = unchanged(ctl, log)
    for path in ["/", f"/?token={TOKEN}", "/?token=wrong"]:
        r = client.get(path)
        assert r.status_code == 200 and '<script src="/static/app.js">' in r.text, path
        assert "set-cookie" not in r.headers
        assert "Duel" not in r.text and "data-unit" not in r.text and TOKEN not in r.text
        has_security_headers(r)
    assert client.post("/", headers={"Origin": "http://testserver"}).status_code == 403
    check()


@pytest.mark.parametrize("name", ["tactica-token", "tactica-token-8000"])
def test_a_cookie_alone_no_longer_opens_the_fight(fight, name: str) -> None:  # type: ignore[no-untyped-def]
    client, ctl, log = fight
    ctl.advance()
    check = unchanged(ctl, log)
    cookie = {"Cookie": f"{name}={TOKEN}"}
    for path in READS:
        r = client.get(path, headers=cookie)
        assert r.status_code == 403, (path, r.text)
        assert "answers only its owner" in r.json()["error"]
    for path, body in CHANGES:
        r = client.post(path, json=body, headers={**cookie, "Origin": "http://testserver",
                                                  "Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 403, (path, r.text)
    check()


def test_the_page_sends_the_token_in_a_header_from_its_own_origin_only(fight) -> None:  # type: ignore[no-untyped-def]
    client, ctl, log = fight
    assert client.get("/api/state", headers=auth()).json()["title"] == "Duel in the open"
    check = unchanged(ctl, log)
    for origin in ["http://evil.example", "null", "http://testserver.evil.example",
                   "https://testserver", "http://127.0.0.1:8001"]:
        r = client.post("/api/dice", json={"mode": "auto"},
                        headers={**auth(), "Origin": origin})
        assert r.status_code == 403, (origin, r.text)
        has_security_headers(r)
    r = client.post("/api/dice", json={"mode": "auto"},
                    headers={**auth(), "Origin": "http://testserver",
                             "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    check()
    r = client.post("/api/dice", json={"mode": "auto"},
                    headers={**auth(), "Origin": "http://testserver"})
    assert r.status_code == 200 and r.json()["ask_dice"] is False
    r = client.post("/api/dice", json={"mode": "ask"},
                    headers={**auth(), "Origin": "http://127.0.0.1:8000",
                             "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200 and ctl.ask_dice is True


def test_a_script_sends_the_token_in_a_header_and_still_no_foreign_origin(fight) -> None:  # type: ignore[no-untyped-def]
    client, ctl, log = fight
    for scheme in ("token", "Bearer"):
        assert client.get("/api/state", headers={"Authorization": f"{scheme} {TOKEN}"}
                          ).status_code == 200
    check = unchanged(ctl, log)
    r = client.post("/api/dice", json={"mode": "auto"},
                    headers={**auth(), "Origin": "http://evil.example"})
    assert r.status_code == 403 and "evil.example" in r.json()["error"]
    check()
    assert client.post("/api/dice", json={"mode": "auto"}, headers=auth()).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1",
                                  "127.0.0.1:8001", "localhost:8000", "testserver.evil.example",
                                  ""])
def test_a_foreign_host_is_refused_even_with_the_token(fight, host: str) -> None:  # type: ignore[no-untyped-def]
    client, ctl, log = fight
    ctl.advance()
    check = unchanged(ctl, log)
    for path in [*READS, "/", "/static/app.js", f"/?token={TOKEN}"]:
        r = client.get(path, headers={**auth(), "Host": host})
        assert r.status_code == 400, (path, r.text)
        assert "answers only as" in r.json()["error"]
        has_security_headers(r)
    r = client.post("/api/dice", json={"mode": "auto"},
                    headers={**auth(), "Host": host, "Origin": f"http://{host}"})
    assert r.status_code == 400
    check()
    assert client.get("/api/state", headers={**auth(), "Host": "127.0.0.1:8000"}
                      ).status_code == 200


def test_the_security_headers_are_on_every_route(fight) -> None:  # type: ignore[no-untyped-def]
    client, _, _ = fight
    answers = [client.get(path, headers=auth()) for path in READS if path != "/api/events"]
    answers += [client.get("/")]
    answers += [client.get(path) for path in ["/static/app.js", "/static/style.css",
                                              "/static/nope.js", "/static/../app.py"]]
    answers += [client.get(path, headers=auth()) for path in ["/nope", "/api/action",
                                                              "/api/sight?a=A&b=Z"]]
    answers += [client.post(path, json=body, headers=auth()) for path, body in CHANGES]
    answers += [client.post("/api/action", content=b"{", headers={
        **auth(), "Content-Type": "application/json"})]
    statuses = {r.status_code for r in answers}
    assert {200, 400, 404, 405, 409}.issubset(statuses), statuses
    for r in answers:
        has_security_headers(r)
    js = client.get("/static/app.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]


def test_listening_on_every_address_still_checks_host_origin_and_token(tmp_path: Path) -> None:
    """``--host 0.0.0.0`` used to switch the Host check off: not any more."""
    server = Server([str(DUEL), "--log", str(tmp_path / "duel.jsonl"), "--host", "0.0.0.0",
                     "--allow-host", "mybox.lan"], tmp_path)
    try:
        assert server.url.startswith("http://127.0.0.1:")
        port = server.port
        assert server.state()["title"] == "Duel in the open"
        with server.request("/api/state", headers={"Host": f"mybox.lan:{port}"}) as r:
            assert r.status == 200
        refusals = [
            ("/api/state", "GET", {"Host": f"evil.example:{port}"}, True, 400),
            ("/api/state", "GET", {"Host": "mybox.lan"}, True, 400),
            ("/api/state", "GET", {}, False, 403),
            ("/api/dice", "POST", {"Origin": "http://evil.example"}, True, 403),
            ("/api/dice", "POST", {"Host": f"evil.example:{port}",
                                   "Origin": f"http://evil.example:{port}"}, True, 400),
        ]
        for path, method, headers, token, status in refusals:
            body = {"mode": "auto"} if method == "POST" else None
            with pytest.raises(urllib.error.HTTPError) as caught:
                server.request(path, method=method, body=body, headers=headers, token=token)
            assert caught.value.code == status, (path, headers)
            assert caught.value.headers["X-Frame-Options"] == "DENY"
        assert server.state()["ask_dice"] is True  # nothing changed
    finally:
        server.kill()
