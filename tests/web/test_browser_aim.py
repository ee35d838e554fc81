"""In a real browser: a Skirmishers firing arc aimed at a bearing typed in degrees. Skips,
saying why, where no Chromium or no Playwright is installed."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from web_helpers import TIMEOUT, Server

from tactica.play import read_log
from tactica.rulesets.skirmishers import records as r

SCENARIO = textwrap.dedent("""\
    game: skirmishers
    name: Aim in the browser
    max_rounds: 2
    first: red
    map:
      kind: dots
      levels:
        ground: |
          A . . . . .
           . . . . . B
    units:
      A: {side: red, primary: rifle}
      B: {side: blue, primary: rifle}
    """)


def test_an_arc_is_aimed_at_a_typed_bearing(browser: Any, tmp_path: Path) -> None:
    scenario = tmp_path / "aim.yaml"
    scenario.write_text(SCENARIO)
    log = tmp_path / "aim.jsonl"
    server = Server([str(scenario), "--log", str(log), "--seed", "1", "--auto-dice"], tmp_path)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 950})
        page.goto(server.url)
        page.wait_for_selector("#question[data-key]", timeout=TIMEOUT)
        assert page.locator("#aim-form").count() == 0          # activating: nothing to aim
        page.click("#question button[data-action='0']", timeout=TIMEOUT)
        page.wait_for_selector("#aim-form", timeout=TIMEOUT)
        page.select_option("#aim-action", index=3)
        page.fill("#aim-bearing", "222.5")
        page.click("#aim-enter")
        page.wait_for_function(
            "() => document.querySelector('#feed').innerText.includes('bearing 222.5°')",
            timeout=TIMEOUT)
    finally:
        server.kill()
    arcs = [e for e in read_log(log).records if isinstance(e, r.ArcEstablished)]
    assert [a.bearing for a in arcs] == [222.5]
