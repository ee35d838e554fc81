"""The chance-to-win bar beside the turn indicator, in a real browser: exact on a small fight
and updated after every step; "estimated" with its 95% interval on a large one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from web_helpers import EXAMPLES, SCREENSHOTS, shot

from tactica.analysis.exact import exact_fight
from tactica.engine.scenario import load_scenario

TIMEOUT = 240_000  # ms: generous waits for events (an estimate plays 100 fights)

#: Two Nebulia operators who stand and shoot: 29 states, exact at once.
STAND = {
    "game": "nebulia-operations", "name": "Stand and shoot",
    "rulings": {"NEB-3": "chebyshev", "NEB-11": "fixed"}, "max_rounds": 4,
    "map": {"kind": "grid", "tiles": "A......B\n........\n"},
    "units": {
        "A": {"side": "red", "defense": 1, "armor": 3, "move": 0,
              "weapons": [{"name": "rifle", "range": "ranged", "accuracy": 6, "dice": 1,
                           "damage": 1}]},
        "B": {"side": "blue", "defense": 1, "armor": 2, "move": 0, "weapons": ["rifle"]},
    },
}


def chances_shown(page: Any, version: int) -> dict[str, str]:
    """Wait until the bar shows the chances of ``version`` of the fight; its kind and text."""
    page.wait_for_function(
        "v => { const c = document.querySelector('#chances');"
        " return c && !c.hidden && c.dataset.version === String(v); }",
        arg=version, timeout=TIMEOUT)
    box = page.locator("#chances")
    return {"kind": box.get_attribute("data-kind") or "", "text": box.inner_text()}


def test_the_bar_is_exact_on_a_small_fight_and_follows_every_step(
        browser: Any, servers: Any, tmp_path: Path) -> None:
    scenario = tmp_path / "stand.yaml"
    scenario.write_text(yaml.safe_dump(STAND), encoding="utf-8")
    server = servers([str(scenario), "--log", str(tmp_path / "s.jsonl"), "--seed", "2",
                    "-c", "blue", "--auto-dice"])
    page = browser.new_page()
    page.goto(server.url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    first = server.state()
    shown = chances_shown(page, first["version"])
    assert shown["kind"] == "exact"
    before = f"red {100 * float(exact_fight(load_scenario(scenario)).p('red')):.1f}%"
    assert before in shown["text"]  # the whole fight's exact chance, before anyone has shot
    assert page.locator("#chances .bar span[data-side='red']").count() == 1
    # Red's operator stays (it cannot move): a new version of the fight, and of the bar.
    page.click("button:text-is('A stays at 0,0')", timeout=TIMEOUT)
    page.wait_for_function(
        "v => { const c = document.querySelector('#chances');"
        " return c && c.dataset.version && c.dataset.version !== String(v); }",
        arg=first["version"], timeout=TIMEOUT)
    first = server.state()
    assert chances_shown(page, first["version"])["kind"] == "exact"
    # Red shoots (the attack's preview, then commit): the dice roll, blue answers, and the bar
    # follows the fight to its new version.
    page.click("#question button[title='A attacks B with rifle']", timeout=TIMEOUT)
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    page.click("#preview [data-commit]", timeout=TIMEOUT)
    page.wait_for_function(
        "v => { const c = document.querySelector('#chances');"
        " return c && c.dataset.version && c.dataset.version !== String(v); }",
        arg=first["version"], timeout=TIMEOUT)
    after = server.state()
    shown = chances_shown(page, after["version"])
    assert shown["kind"] == "exact"
    assert before not in shown["text"]  # a shot was fired: the chances moved
    shot(page, path=str(SCREENSHOTS / "chances-exact.png"))


def test_the_bar_is_estimated_with_its_interval_on_a_large_fight(
        browser: Any, servers: Any, tmp_path: Path) -> None:
    server = servers([str(EXAMPLES / "nebulia" / "firefight.yaml"), "--log",
                    str(tmp_path / "f.jsonl"), "--seed", "1"])
    page = browser.new_page()
    page.goto(server.url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    shown = chances_shown(page, server.state()["version"])
    assert shown["kind"] == "estimated"
    assert "estimated, 95% interval, 100 fights" in shown["text"]
    assert "red " in shown["text"] and "%-" in shown["text"]  # each side with its interval
    shot(page, path=str(SCREENSHOTS / "chances-estimated.png"))
