"""End to end in a real browser: the system's headless Chromium driven by Playwright.

A whole Nebulia duel played by clicking (the computer plays blue), a second tab following it,
sight and odds by clicking two units, the server killed in the middle of an attack and the
fight resumed from its log; then an Unhex turn. Screenshots go to tests/web/screenshots/.
The tests skip, saying why, where no Chromium or no Playwright is installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import EXAMPLES, SCREENSHOTS, Server, launch_browser

from tactica.events import ActionTaken, BattleEnded, Rolled
from tactica.play import read_log

TIMEOUT = 120_000  # ms: generous waits for events, a loaded machine may be slow


@pytest.fixture
def browser() -> Iterator[Any]:
    with launch_browser() as b:
        yield b


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start ``tactica serve ARGS`` in tmp_path; every server started is killed at the end."""
    started: list[Server] = []

    def start(args: list[str]) -> Server:
        server = Server(args, tmp_path)
        started.append(server)
        return server

    yield start
    for s in started:
        s.kill()


def question(page: Any) -> tuple[str, str, str]:
    """The open question: its kind, key and heading."""
    box = page.locator("#question")
    head = box.locator("h2, #over").first.inner_text(timeout=TIMEOUT)
    return (box.get_attribute("data-kind") or "", box.get_attribute("data-key") or "", head)


def answered(page: Any, key: str) -> None:
    """Wait until the question ``key`` is no longer the open one."""
    page.wait_for_function(
        "k => { const q = document.querySelector('#question'); return q && q.dataset.key !== k; }",
        arg=key, timeout=TIMEOUT)


def click_and_wait(page: Any, selector: str) -> None:
    _, key, _ = question(page)
    page.click(selector, timeout=TIMEOUT)
    answered(page, key)


def type_dice(page: Any, text: str) -> None:
    _, key, _ = question(page)
    page.fill("#dice-input", text)
    page.click("#dice-enter")
    answered(page, key)


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    page.goto(url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    return page


def test_a_whole_duel_by_clicking_survives_the_server_being_killed(
        browser: Any, serve: Any, tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    server = serve([str(EXAMPLES / "nebulia" / "duel.yaml"), "--log", str(log), "--seed", "3",
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
    page.screenshot(path=str(SCREENSHOTS / "duel-1-sight.png"), full_page=True)

    # Red stays and attacks; the first attack misses (8 on the to-hit die).
    click_and_wait(page, "button:text-is('A stays at 0,0')")
    other.wait_for_function("() => document.querySelector('#question h2').textContent"
                            ".includes('A may attack')", timeout=TIMEOUT)  # the other tab too
    click_and_wait(page, "button:text-is('A attacks B with rifle')")
    kind, _, head = question(page)
    assert (kind, head) == ("roll", "Roll for to hit")
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
    page.screenshot(path=str(SCREENSHOTS / "duel-2-round-2.png"), full_page=True)

    # Red attacks from where it stands: a hit (4), then the server dies before the armor roll.
    click_and_wait(page, "#question button[data-action='0']")
    if "A may attack" not in question(page)[2]:  # the first choice was a move
        raise AssertionError(question(page))
    click_and_wait(page, "button:text-is('A attacks B with rifle')")
    type_dice(page, "4")
    assert question(page)[2] == "Roll for armor"
    page.screenshot(path=str(SCREENSHOTS / "duel-3-before-kill.png"), full_page=True)
    before = log.read_bytes()
    server.kill()

    resumed = serve(["--resume", str(log)])
    assert log.read_bytes() == before  # nothing lost, nothing added
    page.goto(resumed.url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    assert question(page)[2] == "Roll for armor"
    type_dice(page, "9")
    page.wait_for_selector("#over", timeout=TIMEOUT)
    assert "Winner: red" in page.inner_text("#over")
    page.screenshot(path=str(SCREENSHOTS / "duel-4-over.png"), full_page=True)

    records = read_log(log).records
    assert isinstance(records[-1], BattleEnded) and records[-1].winner == "red"
    rolls = [(r.label, r.faces) for r in records if isinstance(r, Rolled)]
    assert rolls[0] == ("to hit", (8,)) and rolls[-2:] == [("to hit", (4,)), ("armor", (9,))]


def test_an_unhex_turn_in_the_browser(browser: Any, serve: Any, tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    server = serve([str(EXAMPLES / "unhex" / "nightclub-fight.yaml"), "--log", str(log),
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
    page.screenshot(path=str(SCREENSHOTS / "unhex-1-sight.png"), full_page=True)

    click_and_wait(page, "button[title='Rook attacks Dmitri with the shotgun']")
    until_crew_acts()
    page.screenshot(path=str(SCREENSHOTS / "unhex-2-after-turn.png"), full_page=True)
    records = read_log(log).records
    assert any(isinstance(r, ActionTaken) and r.side == "crew" for r in records)
    assert "Rook attacks Dmitri with the shotgun" in page.inner_text("#feed")
