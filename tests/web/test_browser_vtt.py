"""The web page as a small tabletop, in a real browser (the system's headless Chromium through
Playwright), for every game: a turn played by clicking the map (a move clicked or dragged
onto a place, a target clicked, its preview read, the attack committed), a fight without a map
played from its cards and ranges, and one colour per side in the server's state, the map and
the chips. Screenshots go to the test's folder (or to $TACTICA_SCREENSHOTS when set). Waits
are on events and selectors, generous; nothing is timed. The tests skip, saying why, where no
Chromium or no Playwright is installed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from web_helpers import (
    EXAMPLES,
    TIMEOUT,
    Server,
    answered,
    click_and_wait,
    question,
    shot,
    until_side_acts,
)

from tactica.engine.events import ActionTaken
from tactica.engine.validation import load_yaml
from tactica.play import read_log


def open_page(browser: Any, url: str, width: int = 1280, height: int = 800) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.violations = []
    page.on("console", lambda m: page.violations.append(m.text)
            if "Content Security Policy" in m.text or "404" in m.text else None)
    page.goto(url)
    page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
    return page


def settled(page: Any) -> None:
    """Wait until the map drawn is the fight's now (it is fetched after the state)."""
    page.wait_for_function("() => !state.has_map || document.querySelector('#map')"
                           ".dataset.version === String(state.version)", timeout=TIMEOUT)


def feed_shows(page: Any, server: Server, text: str) -> None:
    """Wait until the page's feed shows ``text``; if it never does, fail saying what the feed,
    the question and the server's state showed instead."""
    try:
        page.wait_for_function("t => document.querySelector('#feed').textContent.includes(t)",
                               arg=text, timeout=TIMEOUT)
    except Exception as error:  # Playwright's TimeoutError: say what was there instead
        state = server.state()
        raise AssertionError(
            f"the feed never showed {text!r}; it showed {page.inner_text('#feed')!r}; the "
            f"question {question(page)!r}; the server's feed {state.get('feed')!r}; the "
            f"server printed {server.printed!r}") from error


def map_unit(page: Any, unit: str) -> str:
    return f"#map svg :is(circle, ellipse)[data-unit='{unit}']"


def pick(page: Any, unit: str) -> None:
    """Click a unit on the map; its panel opens."""
    page.click(map_unit(page, unit), timeout=TIMEOUT)
    page.wait_for_function("u => { const h = document.querySelector('#unitpanel h3');"
                           " return h && h.textContent === u; }", arg=unit, timeout=TIMEOUT)


def centre(page: Any, selector: str) -> tuple[float, float]:
    """The middle of what ``selector`` shows, once it is drawn (the map may be redrawn just
    then: it is looked for again)."""
    settled(page)
    for _ in range(20):
        node = page.locator(selector).first
        node.wait_for(state="visible", timeout=TIMEOUT)
        box = node.bounding_box(timeout=TIMEOUT)
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raise AssertionError(f"{selector} is not drawn")


def drag(page: Any, source: str, target: str) -> None:
    """Press on ``source``, carry it in small steps, release on ``target``."""
    x0, y0 = centre(page, source)
    x1, y1 = centre(page, target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3, steps=4)
    page.mouse.move(x1, y1, steps=6)
    page.mouse.up()


def commit_preview(page: Any) -> str:
    """The preview is open: check it shows the odds and the outcome bars, then commit its
    first attack; the action's text."""
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    text = page.inner_text("#preview")
    assert "Before committing" in text and re.search(r"P\(\w[^)]*\): \d+\.\d%", text), text
    assert page.locator("#preview .bar").count() >= 2  # outcome bars
    action = page.locator("#preview .headline").first.inner_text()
    click_and_wait(page, "#preview [data-commit]")
    return action


def rgb(colour: str) -> str:
    """``#1f5fb4`` as the browser writes a computed colour: ``rgb(31, 95, 180)``."""
    c = colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(c[i:i + 2], 16) for i in (0, 2, 4)))


def colours_agree(page: Any, state: dict[str, Any]) -> None:
    """Every unit has its side's colour in the server's state, on the map and on its chip."""
    settled(page)
    by_side = {s["name"]: s["colour"] for s in state["sides"]}
    for u in state["units"]:
        assert u["colour"] == by_side[u["side"]], u
        chip = page.locator(f"[data-chip='{u['id']}']")
        assert chip.evaluate("n => getComputedStyle(n).backgroundColor") == rgb(u["colour"])
        drawn = page.locator(f"#map svg circle[data-unit='{u['id']}'],"
                             f" #map svg ellipse[data-unit='{u['id']}']")
        if u["in_action"] and u["place"] and "@" not in u["place"]:
            assert drawn.count() >= 1, u["id"]
        for k in range(drawn.count()):
            assert drawn.nth(k).get_attribute("fill") == u["colour"], u["id"]
    # The side headings too.
    for s in state["sides"]:
        head = page.locator(f".sidebox[data-side='{s['name']}'] h3")
        assert head.evaluate("n => getComputedStyle(n).color") == rgb(s["colour"])


def taken(log: Path, side: str) -> list[str]:
    return [type(r.action).__name__ for r in read_log(log).records
            if isinstance(r, ActionTaken) and r.side == side]


# -- every game, a turn by clicking ------------------------------------------------------------

def test_nebulia_a_turn_moved_on_the_map_and_an_attack_previewed(
        browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "nebulia" / "duel.yaml", "-c", "blue")
    page = open_page(browser, server.url)
    page.wait_for_selector(map_unit(page, "A"), timeout=TIMEOUT)
    colours_agree(page, server.state())
    assert "red to choose" in question(page)[2]

    # Zoom and pan: the buttons and the wheel zoom, dragging the background pans, fit resets.
    def view_box() -> list[float]:
        return [float(v) for v in page.get_attribute("#map svg", "viewBox").split()]

    whole = view_box()
    page.click("#zoom-in")
    zoomed = view_box()
    assert zoomed[2] < whole[2] and zoomed[3] < whole[3]
    x, y = centre(page, "#viewport")
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    page.wait_for_function("w => parseFloat(document.querySelector('#map svg')"
                           ".getAttribute('viewBox').split(' ')[2]) < w", arg=zoomed[2],
                           timeout=TIMEOUT)
    before = view_box()
    page.mouse.move(x, y + 200)  # the background below the grid
    page.mouse.down()
    page.mouse.move(x - 60, y + 180, steps=5)
    page.mouse.up()
    assert view_box()[0] > before[0]  # the map moved left under the pointer
    page.click("#zoom-fit")
    assert view_box() == whole

    pick(page, "A")  # its destinations light up; one clicked
    assert page.locator("#map [data-place].dest").count() >= 5
    settled(page)
    shot(page, path=str(shots / "nebulia-1-picked.png"))
    _, key, _ = question(page)
    page.click("#map rect[data-place='1,1']", timeout=TIMEOUT)
    answered(page, key)
    assert "A moves to 1,1" in page.inner_text("#feed")

    pick(page, "A")  # then B, its target: the preview before the attack
    assert page.locator("#map circle.target[data-unit='B']").count() == 1
    page.click(map_unit(page, "B"))
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    preview = page.inner_text("#preview")
    assert "P(hit): 60.0% (3/5)" in preview and "B: defense left" in preview
    settled(page)
    shot(page, path=str(shots / "nebulia-2-preview.png"))
    assert commit_preview(page) == "A attacks B with rifle"

    kind, _, head = question(page)  # the dice prompt names the action and what it decides
    assert (kind, head) == ("roll", "red (A) rolls: to hit")
    assert page.inner_text("#roll-who") == \
        "Who rolls: red (A) (in red's action: A attacks B with rifle)"
    assert "What it decides: the die showing 1-6 is a success" in page.inner_text("#question")
    settled(page)
    shot(page, path=str(shots / "nebulia-3-roll.png"))
    until_side_acts(page, "red")
    assert taken(server.log, "red") == ["Move", "Attack"]
    assert taken(server.log, "blue")  # the computer's turn came between
    colours_agree(page, server.state())
    assert page.violations == []


def test_skirmishers_street_fight_at_1280_by_800_a_move_dragged(
        browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "skirmishers" / "street-fight.yaml", "-c", "blue",
                   "--auto-dice")
    page = open_page(browser, server.url, 1280, 800)
    until_side_acts(page, "red")
    page.wait_for_selector(map_unit(page, "A"), timeout=TIMEOUT)
    settled(page)
    shot(page, path=str(shots / "skirmishers-1-map.png"))

    # Readable at 1280 x 800: the map fills its box, one level at a time (tabs), the troopers
    # and their letters large enough to read and click.
    viewport = page.locator("#viewport").bounding_box()
    assert viewport is not None and viewport["width"] >= 700 and viewport["height"] >= 500
    assert viewport["y"] + viewport["height"] <= 800  # the whole map without scrolling
    tabs = page.locator("#levels button")
    assert tabs.count() == 2 and "ground" in tabs.nth(0).inner_text()
    disc = page.locator(map_unit(page, "A")).bounding_box()
    assert disc is not None and disc["width"] >= 14
    letter = page.locator("#map svg text[data-unit='A']").bounding_box()
    assert letter is not None and letter["height"] >= 9
    # The upper level's tab shows the trooper standing there.
    tabs.nth(1).click()
    page.wait_for_selector("#map g[data-level='1']:not([style*='none']) circle[data-unit='Y']",
                           timeout=TIMEOUT)
    assert page.locator(map_unit(page, "Y")).bounding_box() is not None
    settled(page)
    shot(page, path=str(shots / "skirmishers-2-level-1.png"))
    tabs.nth(0).click()
    colours_agree(page, server.state())

    # A's activation from its panel, then A dragged to a place its moves reach.
    pick(page, "A")
    click_and_wait(page, "#unitpanel button:text-is('activate A')")
    until_side_acts(page, "red")
    pick(page, "A")
    dest = "#map circle.dest[data-place='4,6']"
    page.wait_for_selector(dest, timeout=TIMEOUT)
    _, key, _ = question(page)
    drag(page, map_unit(page, "A"), dest)
    answered(page, key)
    assert "A moves to 4,6" in page.inner_text("#feed")
    settled(page)
    shot(page, path=str(shots / "skirmishers-3-dragged.png"))

    until_side_acts(page, "red")
    if "A acts" in question(page)[2]:  # A still stands: its activation ends from its panel
        pick(page, "A")
        click_and_wait(page, "#unitpanel button:text-is('A ends its activation')")
        until_side_acts(page, "red")
    # The turn went round: blue's trooper acted, red activates again.
    assert "activates a trooper" in question(page)[2]
    assert taken(server.log, "red")[:2] == ["Activate", "Move"]
    assert "Activate" in taken(server.log, "blue")
    assert page.violations == []


def test_unhex_a_turn_on_the_zone_map(browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "unhex" / "nightclub-fight.yaml", "-c", "club", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "crew")
    page.wait_for_selector("#map svg .token[data-unit='Rook']", timeout=TIMEOUT)
    colours_agree(page, server.state())
    pick(page, "Rook")
    page.click(map_unit(page, "Lola"))
    assert "Rook attacks Lola" in commit_preview(page)
    settled(page)
    shot(page, path=str(shots / "unhex-1-attacked.png"))
    until_side_acts(page, "crew")
    assert "Attack" in taken(server.log, "crew")
    assert page.violations == []


def test_last_odyssey_a_row_changed_on_the_map_and_an_ability_previewed(
        browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "last-odyssey" / "goblins.yaml", "-c", "goblins", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "party")
    page.wait_for_selector("#map svg rect[data-place='party:back']", timeout=TIMEOUT)
    colours_agree(page, server.state())
    actor = server.state()["request"]["links"][0]["unit"]
    pick(page, actor)
    page.click(map_unit(page, "Skirmisher 1"))
    action = commit_preview(page)
    assert action.startswith(f"{actor} uses")
    settled(page)
    shot(page, path=str(shots / "last-odyssey-1-used.png"))
    until_side_acts(page, "party")
    # A character changes row: its side's other row, clicked on the map.
    state = server.state()
    move = next(lk for lk in state["request"]["links"] if lk["kind"] == "move")
    pick(page, move["unit"])
    _, key, _ = question(page)
    page.click(f"#map rect.dest[data-place='{move['place']}']", timeout=TIMEOUT)
    answered(page, key)
    row = move["place"].split(":")[1]
    assert f"{move['unit']} moves to the {row} row" in page.inner_text("#feed")
    settled(page)
    shot(page, path=str(shots / "last-odyssey-2-moved.png"))
    until_side_acts(page, "party")
    assert {"UseAbility", "Move"} <= set(taken(server.log, "party"))
    assert page.violations == []


def test_arc_without_a_map_shows_the_ranges_and_plays_by_its_cards(
        browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "arc" / "pistol-duel.yaml", "-c", "francis", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "jane")
    page.wait_for_selector("#nomap:not([hidden]) #ranges", timeout=TIMEOUT)
    distances = page.inner_text("#ranges")  # a table of the two sides' distances
    assert "Francis" in distances and "Jane" in distances and " m" in distances
    assert page.locator("#viewport").is_hidden()
    page.click("#nomap .card[data-unit='Jane']")
    page.click("#nomap .card[data-unit='Francis']")
    assert "Jane attacks Francis" in commit_preview(page)
    settled(page)
    shot(page, path=str(shots / "arc-1-no-map.png"))
    until_side_acts(page, "jane")
    assert "Attack" in taken(server.log, "jane")
    assert page.violations == []


def test_arc_on_a_grid_a_move_clicked_with_its_way_chosen(
        browser: Any, serve: Any, shots: Path) -> None:
    server = serve(EXAMPLES / "arc" / "warehouse.yaml", "-c", "red", "--auto-dice")
    page = open_page(browser, server.url)
    until_side_acts(page, "blue")
    page.wait_for_selector(map_unit(page, "D"), timeout=TIMEOUT)
    colours_agree(page, server.state())
    # The rough ground the grid does not draw is shaded, and said in the legend.
    assert page.locator("#map rect.terrain").count() == 6
    assert "rough ground: +1 AP to enter" in page.inner_text("#terrain-legend")
    state = server.state()
    actor = next(lk["unit"] for lk in state["request"]["links"] if lk["kind"] == "move")
    places = [lk["place"] for lk in state["request"]["links"]
              if lk["unit"] == actor and lk["kind"] == "move"]
    pick(page, actor)
    place = places[0]
    _, key, _ = question(page)
    page.click(f"#map rect.dest[data-place='{place}']", timeout=TIMEOUT)
    if places.count(place) > 1:  # walk or run: the way is asked
        page.wait_for_selector("#preview button[data-action]", timeout=TIMEOUT)
        page.click("#preview button[data-action]")
    answered(page, key)
    assert f"{actor} moves to {place}" in page.inner_text("#feed")
    settled(page)
    shot(page, path=str(shots / "arc-2-grid-move.png"))
    until_side_acts(page, "blue")
    assert "Move" in taken(server.log, "blue")
    assert page.violations == []


def test_each_attack_button_shows_its_exact_chance(browser: Any, serve: Any) -> None:
    server = serve(EXAMPLES / "nebulia" / "duel.yaml", "-c", "blue")
    page = open_page(browser, server.url)
    click_and_wait(page, "#question button[title='A stays at 0,0']")
    button = "#question button.attack[title='A attacks B with rifle']"
    page.wait_for_selector(f"{button} .odds-tag", timeout=TIMEOUT)
    assert page.inner_text(f"{button} .odds-tag") == \
        " · P(hit) 60.0% · out of action 42.0% · damage 0.42"
    assert page.violations == []


def css_rgb(hex_colour: str) -> str:
    """``#1f5fb4`` as a browser computes it (``rgb(31, 95, 180)``)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_unhex_preview_shows_the_attackers_bars_when_the_target_can_counterattack(
        browser: Any, serve: Any, shots: Path, tmp_path: Path) -> None:
    """Jet and Vince share the dance floor, each with a melee weapon in hand: whichever side
    acts first, its attack on the other may be counterattacked, so the preview shows the
    attacker's own outcome beside the target's, labelled with when it holds."""
    data = load_yaml(EXAMPLES / "unhex" / "nightclub-fight.yaml")
    data["units"]["Jet"]["at"] = "Dance Floor"
    scenario = tmp_path / "close-quarters.yaml"
    scenario.write_text(json.dumps(data))
    server = serve(scenario, "--auto-dice")  # both sides by hand: nobody acts before
    page = open_page(browser, server.url)
    until_side_acts(page, "")  # the first action of the fight, whoever won the initiative
    attacker, target = ("Jet", "Vince") if question(page)[2].startswith("crew") else \
        ("Vince", "Jet")
    pick(page, attacker)
    page.click(map_unit(page, target))
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    block = page.locator("#preview .attack-preview").last
    block.locator(".bar.attacker").first.wait_for(timeout=TIMEOUT)
    heads = block.locator(".dist[data-who='attacker'] h4").all_inner_texts()
    assert heads and all(h.startswith(f"{attacker}: ")
                         and f"if {target} counterattacks with the" in h for h in heads), heads
    assert block.locator(".dist[data-who='target'] h4").first.inner_text().startswith(
        f"{target}: ")
    assert block.locator(".bar.attacker").count() >= 2
    assert "P(attacker hit)" in block.inner_text()
    assert "no retaliation" not in block.inner_text()
    # Each side's bars in its own colour, the one the map's tokens and the chips use.
    fills = page.evaluate("""() => Object.fromEntries(['attacker', 'target'].map((who) => [who,
        getComputedStyle(document.querySelector(
            `#preview .dist[data-who='${who}'] .fill`)).backgroundColor]))""")
    colours = {u["id"]: u["colour"] for u in
               json.loads(page.evaluate("() => JSON.stringify(state.units)"))}
    assert fills["attacker"] != fills["target"], fills
    assert fills["attacker"] == css_rgb(colours[attacker]), (fills, colours)
    assert fills["target"] == css_rgb(colours[target]), (fills, colours)
    block.locator(".dist[data-who='attacker']").first.scroll_into_view_if_needed()
    shot(page, path=str(shots / "unhex-2-counterattack-preview.png"))
    assert page.violations == []


def test_unhex_a_critical_success_sets_the_dice_through_the_range_input(
        browser: Any, serve: Any, shots: Path) -> None:
    """Dice typed at the table: Rook's attack rolls 33, a critical success (doubles at or
    under 55); Rook chooses to set the dice, the page asks for a number from 1 to 55 as a
    range (not 55 buttons), 46 is typed there, and the attack goes on as a roll of 46."""
    server = serve(EXAMPLES / "unhex" / "nightclub-fight.yaml", "-c", "club")
    page = open_page(browser, server.url)
    until_side_acts(page, "crew")  # the computer's dice and the crew's decisions, seeded
    pick(page, "Rook")
    page.click(map_unit(page, "Lola"))
    assert "Rook attacks Lola" in commit_preview(page)
    for _ in range(10):  # the club's reaction (the computer's), then Rook's roll
        kind, _, head = question(page)
        if kind == "roll" and "Rook: attack" in head:
            break
        assert kind == "decision", head
        click_and_wait(page, "#question button[data-option='0']")
    _, key, _ = question(page)
    page.fill("#dice-input", "3 3")
    page.click("#dice-enter")
    answered(page, key)
    kind, _, head = question(page)
    assert kind == "decision" and "critical success" in head, head
    click_and_wait(page, "#question button:has-text('set the dice')")
    kind, key, head = question(page)
    assert kind == "decision" and "set the dice to (1-55)" in head, head
    page.wait_for_selector("#range-input", timeout=TIMEOUT)
    assert page.locator("#question button[data-option]").count() == 0  # no 55 buttons
    number = page.locator("#range-input")
    assert (number.get_attribute("min"), number.get_attribute("max")) == ("1", "55")
    page.fill("#range-input", "46")
    # Another view of the same question arrives (the event stream reconnected, another tab
    # answered nothing): the question is drawn again and the number typed stays.
    page.evaluate("() => load()")
    assert page.input_value("#range-input") == "46"
    shot(page, path=str(shots / "unhex-3-set-the-dice.png"))
    page.click("#range-enter")
    answered(page, key)
    feed_shows(page, server, "rolls 46 (critical success)")
    records = [r for r in read_log(server.log).records
               if type(r).__name__ == "Attacked" and getattr(r, "unit", "") == "Rook"]
    assert [(r.roll, r.set_dice) for r in records] == [(46, True)]
    assert page.violations == []


def test_a_view_answered_late_is_never_drawn_over_a_newer_one(browser: Any, serve: Any) -> None:
    """Two views of the fight in flight at once: a reload the event stream started (held here
    until after the answer) and the state the answer itself returned. The older one, answered
    last, must not be drawn over the newer: the page would show a question already answered
    and a feed without the step just taken, and wait for a change that never comes."""
    server = serve(EXAMPLES / "nebulia" / "duel.yaml", "-c", "blue")
    page = open_page(browser, server.url)
    _, old_key, head = question(page)
    assert "red to choose" in head
    old_view = json.dumps(server.state())
    held: list[Any] = []
    page.route("**/api/state", lambda route: held.append(route))  # held, answered below
    page.evaluate("() => { window.lateView = load(); }")  # a reload, its answer held
    for _ in range(10_000):  # Playwright hands the route over while a call waits
        if held:
            break
        page.evaluate("0")
    assert held, "the reload never reached the route"
    click_and_wait(page, "#question button[data-action]:not(.attack)")
    _, new_key, _ = question(page)
    feed = page.inner_text("#feed")
    for route in held:
        route.fulfill(status=200, content_type="application/json", body=old_view)
    page.evaluate("() => window.lateView")  # the held reload has been drawn, or refused
    page.unroute("**/api/state")
    assert question(page)[1] == new_key != old_key
    assert page.inner_text("#feed") == feed
