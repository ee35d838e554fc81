"""End to end in a real browser: the system's headless Chromium driven by Playwright.

A whole Nebulia duel played by clicking (the computer plays blue), a second tab following it,
sight and odds by clicking two units, the server killed in the middle of an attack and the
fight resumed from its log; then an Unhex turn; then a page of another local server that tries
to frame the fight and to drive it; then a disk that cannot take the next step. Every page is
opened by the URL the server prints (with its token) and runs under its
Content-Security-Policy without one violation. Screenshots go to web_helpers.SCREENSHOTS.
The tests skip, saying why, where no Chromium or no Playwright is installed.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    EXAMPLES,
    SCREENSHOTS,
    TIMEOUT,
    answered,
    click_and_wait,
    question,
    shot,
)

from tactica.engine.events import ActionTaken, BattleEnded, Rolled
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, read_log


def attack(page: Any, selector: str) -> None:
    """An attack's button opens its preview (exact odds, outcome bars); commit it there."""
    page.click(selector, timeout=TIMEOUT)
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    click_and_wait(page, "#preview [data-commit]")


def type_dice(page: Any, text: str) -> None:
    _, key, _ = question(page)
    page.fill("#dice-input", text)
    page.click("#dice-enter")
    answered(page, key)


VIOLATIONS: list[str] = []


def open_page(browser: Any, url: str) -> Any:  # a browser, or one of its contexts
    """A new tab on ``url``; a Content-Security-Policy violation there is kept in
    VIOLATIONS (checked at the end of each test)."""
    page = browser.new_page()
    page.set_viewport_size({"width": 1400, "height": 950})
    page.on("console", lambda m: VIOLATIONS.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.goto(url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    assert "token=" not in page.url  # the page keeps the token, out of the address bar
    return page


@pytest.fixture(autouse=True)
def no_violations() -> Iterator[None]:
    VIOLATIONS.clear()
    yield
    assert VIOLATIONS == []


def test_a_whole_duel_by_clicking_survives_the_server_being_killed(
        browser: Any, servers: Any, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    server = servers([str(EXAMPLES / "nebulia" / "duel.yaml"), "--log", str(log), "--seed", "3",
                    "-c", "blue"])
    page = open_page(browser, server.url)
    other = open_page(browser, server.url)  # a second tab on the same fight
    assert "red to choose" in question(page)[2]
    page.wait_for_selector("#map svg [data-unit='A']", timeout=TIMEOUT)

    # Sight and odds by clicking two units on the map.
    page.click("#map circle[data-unit='A']")
    page.click("#map circle[data-unit='B']")
    page.wait_for_selector("#sight:not([hidden])", timeout=TIMEOUT)
    assert "A -> B: visible, not in cover" in page.inner_text("#sight")
    assert "P(hit): 60.00%" in page.inner_text("#sight")
    page.wait_for_selector("#map svg #sight-lines", timeout=TIMEOUT)
    shot(page, path=str(SCREENSHOTS / "duel-1-sight.png"), full_page=True)

    # Red stays and attacks; the first attack misses (8 on the to-hit die).
    click_and_wait(page, "button:text-is('A stays at 0,0')")
    other.wait_for_function("() => document.querySelector('#question h2').textContent"
                            ".includes('A may attack')", timeout=TIMEOUT)  # the other tab too
    attack(page, "#question button[title='A attacks B with rifle']")
    kind, _, head = question(page)
    assert (kind, head) == ("roll", "red (A) rolls: to hit")
    assert "the die showing 1-6 is a success" in page.inner_text("#question")
    type_dice(page, "8")

    # Blue (the computer) moves and shoots; its dice are rolled by tactica on request, until
    # red chooses again.
    for _ in range(20):
        kind, _, head = question(page)
        if kind == "action" and head.startswith("red"):
            break
        assert kind == "roll", head
        click_and_wait(page, "#dice-roll")
    else:
        raise AssertionError("red never chose again")
    shot(page, path=str(SCREENSHOTS / "duel-2-round-2.png"), full_page=True)

    # Red attacks from where it stands: a hit (4), then the server dies before the armor roll.
    click_and_wait(page, "#question button[data-action='0']")
    if "A may attack" not in question(page)[2]:  # the first choice was a move
        raise AssertionError(question(page))
    attack(page, "#question button[title='A attacks B with rifle']")
    type_dice(page, "4")
    assert question(page)[2] == "blue (B) rolls: armor"  # the defender's roll
    shot(page, path=str(SCREENSHOTS / "duel-3-before-kill.png"), full_page=True)
    before = log.read_bytes()
    server.kill()

    resumed = servers(["--resume", str(log)])
    assert log.read_bytes() == before  # nothing lost, nothing added
    page.goto(resumed.url)  # a new launch: a new port and token
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    assert question(page)[2] == "blue (B) rolls: armor"  # the defender's roll
    type_dice(page, "9")
    page.wait_for_selector("#over", timeout=TIMEOUT)
    assert "Winner: red" in page.inner_text("#over")
    shot(page, path=str(SCREENSHOTS / "duel-4-over.png"), full_page=True)

    records = read_log(log).records
    assert isinstance(records[-1], BattleEnded) and records[-1].winner == "red"
    rolls = [(r.label, r.faces) for r in records if isinstance(r, Rolled)]
    assert rolls[0] == ("to hit", (8,)) and rolls[-2:] == [("to hit", (4,)), ("armor", (9,))]


def test_an_unhex_turn_in_the_browser(browser: Any, servers: Any, tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    server = servers([str(EXAMPLES / "unhex" / "nightclub-fight.yaml"), "--log", str(log),
                    "--seed", "3", "-c", "club", "--auto-dice"])
    page = open_page(browser, server.url)

    def until_crew_acts() -> None:
        for _ in range(30):
            kind, _, head = question(page)
            if kind == "action" and head.startswith("crew"):
                return
            assert kind == "decision", head
            click_and_wait(page, "#question button[data-option='0']")
        raise AssertionError("the crew never acted")

    until_crew_acts()
    # The zone map draws the units on their areas; click Rook then Vince.
    page.wait_for_selector("#map svg .token[data-unit='Rook']", timeout=TIMEOUT)
    page.click("#map svg circle[data-unit='Rook']")
    page.click("[data-chip='Dmitri']")
    page.wait_for_selector("#sight:not([hidden])", timeout=TIMEOUT)
    sight = page.inner_text("#sight")
    assert "Rook -> Dmitri" in sight and "P(hit)" in sight
    shot(page, path=str(SCREENSHOTS / "unhex-1-sight.png"), full_page=True)

    attack(page, "button[title='Rook attacks Dmitri with the shotgun']")
    until_crew_acts()
    shot(page, path=str(SCREENSHOTS / "unhex-2-after-turn.png"), full_page=True)
    records = read_log(log).records
    assert any(isinstance(r, ActionTaken) and r.side == "crew" for r in records)
    assert "Rook attacks Dmitri with the shotgun" in page.inner_text("#feed")


ATTACK = """<!doctype html><html><body>
<iframe id="frame" src="{fight}/" width="600" height="400"></iframe>
<form id="form" method="POST" action="{fight}/api/dice" enctype="text/plain">
<input name='{{"mode": "auto", "x": "' value='"}}'></form>
<script>
window.results = [];
const post = (init) => fetch("{fight}/api/dice", Object.assign({{method: "POST",
  credentials: "include", body: '{{"mode": "auto"}}'}}, init))
  .then((r) => results.push(r.type + " " + r.status), (e) => results.push("failed"));
Promise.all([post({{headers: {{"Content-Type": "application/json"}}}}),
             post({{mode: "no-cors", headers: {{"Content-Type": "text/plain"}}}})])
  .then(() => {{ window.done = true; }});
</script></body></html>"""


def test_another_local_page_can_neither_frame_nor_drive_the_fight(
        browser: Any, servers: Any, tmp_path: Path) -> None:
    """A page of another server on this machine (same site as the fight: only the port
    differs) tries everything at once."""
    log = tmp_path / "duel.jsonl"
    server = servers([str(EXAMPLES / "nebulia" / "duel.yaml"), "--log", str(log), "--seed", "3"])
    context = browser.new_context()
    mine = open_page(context, server.url)  # the owner's tab, in the attacker's browser
    attacker_dir = tmp_path / "attacker"
    attacker_dir.mkdir()
    (attacker_dir / "index.html").write_text(ATTACK.format(fight=server.base))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(attacker_dir))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        before = log.read_bytes()
        evil = context.new_page()
        evil.goto(f"http://127.0.0.1:{httpd.server_address[1]}/index.html")
        evil.wait_for_function("() => window.done === true", timeout=TIMEOUT)
        results = evil.evaluate("window.results")
        assert "basic 200" not in results and "cors 200" not in results, results
        frame = next(f for f in evil.frames if f != evil.main_frame)
        frame.wait_for_load_state("load", timeout=TIMEOUT)
        assert frame.locator("#question").count() == 0  # framing refused
        evil.evaluate("document.getElementById('form').submit()")  # a plain form post
        evil.wait_for_load_state("load", timeout=TIMEOUT)
        assert server.state()["ask_dice"] is True and log.read_bytes() == before
        assert mine.locator("#autodice").is_checked() is False
        shot(evil, path=str(SCREENSHOTS / "attack-refused.png"))
        VIOLATIONS.clear()  # the framing refusal is reported on the attacker's page
    finally:
        context.close()
        httpd.shutdown()
        httpd.server_close()


def test_a_step_the_disk_cannot_take_is_not_shown_and_the_page_says_why(
        browser: Any, servers: Any, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    ctl = FightController.start(load_scenario(EXAMPLES / "nebulia" / "duel.yaml"), log,
                                seed=3, computer={"blue": "greedy"}, durable=False)
    ctl.advance()  # the round's start is saved: red is asked
    ctl.close()
    before = log.read_bytes()
    # The server may not make any file larger than the log is now (Python ignores SIGXFSZ:
    # the write fails with EFBIG).
    prelude = ("import resource; resource.setrlimit(resource.RLIMIT_FSIZE, "
               f"({len(before)}, {len(before)}))")
    server = servers(["--resume", str(log)], prelude=prelude)
    page = open_page(browser, server.url)
    assert "red to choose" in question(page)[2]
    page.click("button:text-is('A stays at 0,0')", timeout=TIMEOUT)
    page.wait_for_selector("#notice:not([hidden])", timeout=TIMEOUT)
    notice = page.inner_text("#notice")
    assert "could not be saved" in notice and "File too large" in notice
    assert "reloaded from its log" in notice and page.locator("#error").is_hidden()
    kind, _, head = question(page)
    assert kind == "action" and "red to choose" in head  # the step is not shown as taken
    assert page.locator("button:text-is('A stays at 0,0')").count() == 1
    assert log.read_bytes() == before
    shot(page, path=str(SCREENSHOTS / "disk-full-notice.png"), full_page=True)
