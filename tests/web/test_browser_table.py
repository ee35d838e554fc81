"""The page at the table, in a real browser (the system's headless Chromium through
Playwright), at 1280x800: one focused preview (a picker among the attacker's ways, the chance
to take the target out shown large, attacker and target side by side, Commit in view), the
evade case of an Arc attack, attack buttons whose tags tell their targets apart (every one of
them), an Arc fight without a map (distances, no map words, names said once, a roll-under
read one way), Arc's sight on a grid in metres, and the dice switch that rolls the die asked.
No request of the page is refused (no 409) on the way. Screenshots go to the test's folder
(or $TACTICA_SCREENSHOTS). The tests skip, saying why, without Chromium or Playwright.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from web_helpers import (
    EXAMPLES,
    TIMEOUT,
    answered,
    click_and_wait,
    question,
    shot,
    until_side_acts,
)

THREE_TARGETS = """\
game: nebulia-operations
name: Three targets
rulings: {NEB-3: chebyshev}
map:
  kind: grid
  tiles: |
    A.....1
    ......2
    ......3
units:
  A: {side: red, defense: 3, armor: 3, move: 3,
      weapons: [{name: rifle, range: ranged, accuracy: 6, dice: 1, damage: 1}]}
  "1": {side: blue, defense: 1, armor: 3, move: 3, weapons: [rifle]}
  "2": {side: blue, defense: 2, armor: 3, move: 3, weapons: [rifle]}
  "3": {side: blue, defense: 3, armor: 5, move: 3, weapons: [rifle]}
"""


def open_page(browser: Any, url: str) -> Any:
    """The page at 1280x800; ``page.refused`` gathers every answer of 400 or more."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.refused = []
    page.on("response", lambda r: page.refused.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    page.goto(url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    return page


def in_view(page: Any, selector: str) -> None:
    """``selector`` is drawn inside the 1280x800 window."""
    box = page.locator(selector).first.bounding_box(timeout=TIMEOUT)
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, (selector, box)


def test_one_preview_with_a_picker_and_commit_in_view(
        browser: Any, serve: Any, shots: Path) -> None:
    """Last Odyssey: Vesper has five ways to attack Skirmisher 1 (two abilities, each to
    knock out or not, a dart); the preview shows one of them, chosen in its picker."""
    server = serve(EXAMPLES / "last-odyssey" / "goblins.yaml", "-c", "goblins", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "party")
    # Every attack button carries its tag, not only the first dozen.
    buttons = page.locator("#question button.attack")
    assert buttons.count() > 12
    page.wait_for_function(
        "() => [...document.querySelectorAll('#question button.attack')]"
        ".every((b) => b.querySelector('.odds-tag'))", timeout=TIMEOUT)
    buttons.first.click()
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    assert page.locator("#preview .attack-preview").count() == 1  # one attack, not a stack
    options = page.locator("#preview-pick option").all_inner_texts()
    assert len(options) >= 2 and len(set(options)) == len(options)
    assert re.fullmatch(r"\d+\.\d%", page.inner_text("#preview .kill .big"))
    assert page.locator("#preview .duel .side-col").count() == 2  # side by side
    roles = page.locator("#preview .side-col .who-head").all_inner_texts()
    assert roles[0].startswith("attacker: ") and roles[1].startswith("target: ")
    in_view(page, "#preview [data-commit]")
    shot(page, path=str(shots / "table-lo-preview.png"))
    # Another way, chosen in the picker: the preview shows that one, Commit still in view.
    second = options[1]
    page.select_option("#preview-pick", label=second)
    page.wait_for_function("t => { const h = document.querySelector('#preview .headline');"
                           " return h && h.textContent === t; }", arg=second, timeout=TIMEOUT)
    assert page.locator("#preview .attack-preview").count() == 1
    in_view(page, "#preview [data-commit]")
    click_and_wait(page, "#preview [data-commit]")
    assert second in page.inner_text("#feed")
    page.wait_for_timeout(500)  # the tags of the next question are asked for meanwhile
    assert page.refused == []


def test_arc_preview_shows_the_evade_case(browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "arc" / "firefight.yaml", "-c", "blue", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "red")
    page.click("#question button.attack", timeout=TIMEOUT)
    page.wait_for_selector("#preview .case", timeout=TIMEOUT)
    case = page.inner_text("#preview .case")
    assert case.startswith("If the target evades")
    evaded = re.search(r"P\(evaded\): (\d+\.\d)%", case)
    assert evaded and float(evaded.group(1)) > 0, case
    # the plain case says why nobody evades in it
    assert "P(evaded) 0.0%:" in page.inner_text("#preview .attack-preview > .why")
    in_view(page, "#preview [data-commit]")
    shot(page, path=str(shots / "table-arc-evade.png"))
    assert page.refused == []


def test_attack_tags_tell_the_targets_apart(browser: Any, serve: Any, shots: Path,
                                             tmp_path: Path) -> None:
    scenario = tmp_path / "three.yaml"
    scenario.write_text(THREE_TARGETS)
    server = serve(scenario, "-c", "blue")
    page = open_page(browser, server.url)
    click_and_wait(page, "#question button[title='A stays at 0,0']")
    page.wait_for_function(
        "() => { const b = [...document.querySelectorAll('#question button.attack')];"
        " return b.length === 3 && b.every((x) => x.querySelector('.odds-tag')); }",
        timeout=TIMEOUT)
    tags = page.locator("#question button.attack .odds-tag").all_inner_texts()
    assert all(t.startswith(" · P(hit) 60.0%") for t in tags), tags  # the same to hit ...
    assert all("out of action" in t and "damage" in t for t in tags), tags
    assert len(set(tags)) == 3, tags  # ... and what differs, said
    shot(page, path=str(shots / "table-nebulia-tags.png"))
    assert page.refused == []


def test_arc_without_a_map(browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "arc" / "firefight.yaml", "-c", "blue")
    page = open_page(browser, server.url)
    kind, _, head = question(page)
    # The initiative check says its number one way.
    assert kind == "roll" and re.search(r"\(d20, \d+ or under\)", head), head
    assert not re.search(r"under \d+\)", head)
    # The table's dice: the switch rolls the die asked now too.
    _, key, _ = question(page)
    page.check("#autodice")
    answered(page, key)
    until_side_acts(page, "red")
    page.wait_for_selector("#nomap:not([hidden])", timeout=TIMEOUT)
    text = page.inner_text("body")
    assert "light up on the map" not in text
    assert "The scenario gives no distance between the characters." in text
    assert page.locator("#ranges").count() == 0  # no table of "not given"
    assert "Sam Sam" not in text and "Sam the medic" in page.inner_text("#units")
    page.click("#nomap .card[data-unit='Foo']")
    assert "click a ringed character" in page.inner_text("#selected")
    shot(page, path=str(shots / "table-arc-no-map.png"))
    assert page.refused == []


def test_arc_distances_given_without_a_map(browser: Any, serve: Any) -> None:
    server = serve(EXAMPLES / "arc" / "pistol-duel.yaml", "-c", "francis", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "jane")
    page.wait_for_selector("#nomap:not([hidden]) #ranges", timeout=TIMEOUT)
    table = page.inner_text("#ranges")
    assert "Jane" in table and "Francis" in table and " m" in table


def test_arc_sight_on_a_grid_speaks_metres(browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "arc" / "warehouse.yaml", "-c", "red", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "blue")
    page.wait_for_selector("#map svg circle[data-unit='A']", timeout=TIMEOUT)
    page.click("#map svg circle[data-unit='D']", timeout=TIMEOUT)
    page.click("#map svg circle[data-unit='A']", timeout=TIMEOUT)
    page.wait_for_selector("#sight div#sight-lines", timeout=TIMEOUT)
    lines = page.inner_text("#sight div#sight-lines")
    assert re.search(r"distance \d+\.\d m", lines) and "chebyshev" not in lines, lines
    page.wait_for_function("() => /metres/.test(document.querySelector('#map svg')"
                           ".textContent)", timeout=TIMEOUT)
    shot(page, path=str(shots / "table-arc-grid-sight.png"))
