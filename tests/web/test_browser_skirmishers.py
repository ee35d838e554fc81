"""Skirmishers on the page, in a real browser (the system's headless Chromium through
Playwright), at 1280 x 800: firing arcs drawn as templates in their side's colour on every
level, an arc aimed by dragging a bearing from the trooper, an enemy clicked opens the arc's
odds, a trooper out of the fight crossed out, the unit panel's AP the prompt's, reachable dots
in AP bands with their path and cost on hover, and a dear move's cost shown before it is
taken. Waits are on events and selectors; nothing is timed. Skips, saying why, where no
Chromium or no Playwright is installed."""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser_vtt import (
    answered,
    centre,
    click_and_wait,
    map_unit,
    open_page,
    pick,
    question,
    rgb,
    settled,
)
from web_helpers import TIMEOUT, Server, shot

from tactica.engine.events import ActionTaken
from tactica.play import read_log
from tactica.rulesets.skirmishers import records as r

SCENARIO = textwrap.dedent("""\
    game: skirmishers
    name: Skirmishers on the page
    max_rounds: 3
    first: red
    map:
      kind: dots
      levels:
        ground: |
          . . . . . . . . . .
           . . . . . . . . . .
          . A . . . . . . B .
           . . . . . . . . . .
          . . . . . . . . . .
           . C . . . . . . . .
        first: |
          . . . . . . . . . .
           . . . . . . . . . .
          . . . . . . . . . .
      stairs:
        - {at: [0, 0], levels: [ground, first]}
      features:
        - {between: [[2, 2], [3, 2]], kind: low-wall}
    units:
      A: {side: red, primary: rifle}
      C: {side: red, primary: rifle, marks: "XXXXXXXX..."}
      B: {side: blue, primary: smg, arc: {width: 60, bearing: 180}}
    """)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    scenario = tmp_path / "page.yaml"
    scenario.write_text(SCENARIO)
    s = Server([str(scenario), "--log", str(tmp_path / "page.jsonl"), "--seed", "2"], tmp_path)
    s.log = tmp_path / "page.jsonl"  # type: ignore[attr-defined]
    try:
        yield s
    finally:
        s.kill()


def post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with server.request(path, method="POST", body=body) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def act(server: Server, text: str) -> None:
    """Take the open action whose words are ``text``."""
    req = server.state()["request"]
    assert req["kind"] == "action", req
    post(server, "/api/action", {"key": req["key"], "index": req["texts"].index(text)})


def answer(server: Server, *, fire: bool = False, rolls: tuple[str, ...] = ()) -> None:
    """Answer decisions (hold fire, or fire when ``fire``) and rolls (``rolls`` in order, then
    tactica rolls) until a side is asked for an action."""
    left = list(rolls)
    for _ in range(40):
        req = server.state()["request"]
        if req["kind"] == "action":
            return
        if req["kind"] == "decision":
            post(server, "/api/decide", {"key": req["key"],
                                         "index": 0 if fire else len(req["options"]) - 1})
        elif req["kind"] == "roll":
            post(server, "/api/roll", {"key": req["key"], "text": left.pop(0) if left else ""})
        else:
            raise AssertionError(req)
    raise AssertionError("no action asked")


def reload(page: Any) -> None:
    page.evaluate("load()")
    page.wait_for_function("() => state && state.request && state.request.kind === 'action'",
                           timeout=TIMEOUT)
    settled(page)


def test_an_arc_is_a_template_in_its_sides_colour_on_every_level(
        browser: Any, server: Server, shots: Path) -> None:
    page = open_page(browser, server.url)
    settled(page)
    blue = next(s["colour"] for s in server.state()["sides"] if s["name"] == "blue")
    arc = page.locator("#map path.arc-set[data-arc='B']")
    arc.first.wait_for(state="attached", timeout=TIMEOUT)
    assert sorted(arc.nth(k).get_attribute("data-arc-level") for k in range(arc.count())) \
        == ["0", "1"]
    assert arc.first.get_attribute("fill") == blue
    assert arc.first.evaluate("n => getComputedStyle(n).stroke") == rgb(blue)
    # The template opens west from B (bearing 180, 60 degrees): A, due west, is inside it; the
    # dot east of B is not.
    inside = page.evaluate("""places => places.map((p) => {
        const arc = document.querySelector("#map path.arc-set[data-arc-level='0']");
        const dot = document.querySelector(`#map circle[data-place='${p}']`);
        return arc.isPointInFill(new DOMPoint(+dot.getAttribute("cx"), +dot.getAttribute("cy")));
    })""", ["1,2", "9,2", "7,0"])
    assert inside == [True, False, False]
    shot(page, path=str(shots / "ski-page-1-arc-template.png"))


def test_an_enemy_clicked_opens_the_arcs_odds(browser: Any, server: Server,
                                              shots: Path) -> None:
    act(server, "activate A")
    answer(server)
    page = open_page(browser, server.url)
    pick(page, "A")
    page.click(map_unit(page, "B"), timeout=TIMEOUT)
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    text = page.inner_text("#preview")
    assert "A establishes a 30° arc toward 8,2" in text
    # Target number 7: base 6, +1 for the low wall on the line.
    assert "P(hit): 58.3% (7/12)" in text and "expected damage: 0.00" not in text
    assert "each shot hits 7/12" in text and "depends on the enemies' moves" in text
    shot(page, path=str(shots / "ski-page-2-enemy-preview.png"))
    _, key, _ = question(page)
    page.locator("#preview [data-commit]").first.click()
    answered(page, key)
    arcs = [e for e in read_log(server.log).records  # type: ignore[attr-defined]
            if isinstance(e, r.ArcEstablished)]
    assert [(a.unit, a.width, a.toward) for a in arcs] == [("A", 30, "8,2")]


def test_an_arc_is_aimed_by_dragging_a_bearing_from_the_trooper(
        browser: Any, server: Server, shots: Path) -> None:
    act(server, "activate A")
    answer(server)
    page = open_page(browser, server.url)
    pick(page, "A")
    page.click("#aim-drag", timeout=TIMEOUT)
    x0, y0 = centre(page, map_unit(page, "A"))
    x1, y1 = centre(page, "#map circle[data-place='6,0']")
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=6)
    page.mouse.up()
    want = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
    got = float(page.input_value("#aim-bearing"))
    assert abs(got - want) <= 0.5, (got, want)
    assert page.locator("#map path.arc-aim[data-arc='A']").count() == 2   # both levels
    assert page.locator("#map circle.dest").count() > 0                   # A did not move
    # Released: the odds of the arc at that bearing, before it is set (it holds no enemy).
    page.wait_for_selector("#preview [data-commit]", timeout=TIMEOUT)
    text = page.inner_text("#preview")
    assert f"A establishes a 30° arc bearing {got:g}° (2 AP)" in text
    assert "no enemy in action stands in the arc now" in text
    shot(page, path=str(shots / "ski-page-3-drag-aim.png"))
    page.fill("#aim-bearing", "300")   # the box stays for an exact value
    click_and_wait(page, "#aim-enter")
    arcs = [e for e in read_log(server.log).records  # type: ignore[attr-defined]
            if isinstance(e, r.ArcEstablished)]
    assert [(a.unit, a.bearing) for a in arcs] == [("A", 300)]


def test_a_trooper_out_of_the_fight_is_crossed_out_never_a_prone_oval(
        browser: Any, server: Server, shots: Path) -> None:
    act(server, "activate C")
    answer(server, fire=True, rolls=("6 6", "6 6"))
    state = server.state()
    c = next(u for u in state["units"] if u["id"] == "C")
    assert not c["in_action"]
    page = open_page(browser, server.url)
    settled(page)
    mark = page.locator("#map g.dead-mark[data-unit='C']")
    mark.wait_for(state="attached", timeout=TIMEOUT)
    assert mark.locator("line").count() == 2
    for k in range(page.locator("#map ellipse[data-unit='C']").count()):
        assert not page.locator("#map ellipse[data-unit='C']").nth(k).is_visible()
    assert page.locator("[data-chip='C']").evaluate(
        "n => getComputedStyle(n).textDecorationLine") == "line-through"
    shot(page, path=str(shots / "ski-page-4-crossed-out.png"))


def test_the_unit_panels_ap_is_the_prompts(browser: Any, server: Server) -> None:
    act(server, "activate A")
    answer(server)
    act(server, "A moves to 1,3")   # 1 AP, out of B's arc? it may draw fire: held
    answer(server)
    page = open_page(browser, server.url)
    _, _, head = question(page)
    left = head.split("(")[1].split(" AP left")[0]
    pick(page, "A")
    terms = page.locator("#unitpanel dt")
    values = page.locator("#unitpanel dd")
    figures = {terms.nth(k).inner_text(): values.nth(k).inner_text()
               for k in range(terms.count())}
    assert figures["ap"] == left == "7" and figures["max ap"] == "8"
    # The weapon in hand once, by its name (not also its item key), then what else A carries.
    assert figures["weapon"] == "Rifle" and "weapons" not in figures, figures
    assert "Rifle" not in figures.get("other weapons", ""), figures


def test_reachable_dots_by_ap_with_path_on_hover_and_a_dear_move_shown_first(
        browser: Any, server: Server, shots: Path) -> None:
    act(server, "activate A")
    answer(server)
    page = open_page(browser, server.url)
    pick(page, "A")
    page.wait_for_selector("#map circle.dest[data-cost]", timeout=TIMEOUT)
    near = page.locator("#map circle.dest[data-place='1,3']")
    far = page.locator("#map circle.dest[data-cost='7']").first
    assert near.get_attribute("data-cost") == "1"
    colour = "n => getComputedStyle(n).fill"
    assert near.evaluate(colour) != far.evaluate(colour)
    assert page.locator("#ap-bands").is_visible()
    page.hover("#map circle.dest[data-place='4,2']")
    page.wait_for_selector("#map polyline.move-path", state="attached", timeout=TIMEOUT)
    said = page.inner_text("#selected")
    assert said.startswith("A to 4,2:") and "AP" in said
    shot(page, path=str(shots / "ski-page-5-move-cost.png"))
    # Across the low wall: 1 AP to 2,2, 2 AP over the wall ("across an obstruction"): 3 AP
    # where the straight way is 2; the cost shows before anything is taken.
    page.click("#map circle.dest[data-place='3,2']", timeout=TIMEOUT)
    page.wait_for_selector("#dear-move", timeout=TIMEOUT)
    assert "crosses the low wall into 3,2 (2 AP)" in page.inner_text("#dear-move")
    assert "A to 3,2: 3 AP" in page.inner_text("#preview")
    assert "costs 3 AP, the straight way 2" in page.inner_text("#dear-move")
    moved = [rec for rec in read_log(server.log).records  # type: ignore[attr-defined]
             if isinstance(rec, ActionTaken) and isinstance(rec.action, r.Move)]
    assert moved == []
    shot(page, path=str(shots / "ski-page-6-dear-move.png"))
    click_and_wait(page, "#preview button.primary")
    moved = [rec.action.to for rec in read_log(server.log).records  # type: ignore[attr-defined]
             if isinstance(rec, ActionTaken) and isinstance(rec.action, r.Move)]
    assert moved == ["3,2"]


def test_a_preview_at_a_bearing_is_checked(server: Server) -> None:
    """``/api/preview`` with ``bearing``: the arc's odds aimed there; a bearing that is no
    number, or an action that cannot be aimed, is one error."""
    import urllib.error

    act(server, "activate A")
    answer(server)
    req = server.state()["request"]
    arc = req["aimable"][0]
    with server.request(f"/api/preview?key={req['key']}&index={arc}&bearing=0") as resp:
        data = json.loads(resp.read())
    assert data["bearing"] == 0 and "bearing 0°" in data["action"]
    assert data["exact"]["P(hit)"] == "7/12"   # B due east, behind the low wall
    for query, status in ((f"index={arc}&bearing=nan", 400), (f"index={arc}&bearing=east", 400),
                          ("index=0&bearing=10", None)):
        with pytest.raises(urllib.error.HTTPError) as caught:
            server.request(f"/api/preview?key={req['key']}&{query}")
        if status is not None:
            assert caught.value.code == status
        assert "error" in json.loads(caught.value.read())
