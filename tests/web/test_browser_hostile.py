"""In a real browser: a fight whose map names hold markup shows them as text and runs no script.

A Skirmishers level, the map and a side are named ``"><img src=x onerror=...>``: the page draws
the map and the names, and the handler never runs (it would set a flag on the window). The test
skips, saying why, where no Chromium or no Playwright is installed.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from web_helpers import TIMEOUT, Server, launch_browser

HOSTILE = '"><img src=x onerror="window.hostileRan=1"><svg onload="window.hostileRan=2">'


def test_a_hostile_level_name_runs_no_script(tmp_path: Path) -> None:
    scenario = tmp_path / "hostile.yaml"
    scenario.write_text(yaml.safe_dump({
        "game": "skirmishers", "name": HOSTILE, "max_rounds": 2,
        "map": {"kind": "dots", "name": HOSTILE,
                "levels": {HOSTILE: ". A . . B .\n . . . . . .\n"}},
        "units": {"A": {"side": HOSTILE, "primary": "rifle"},
                  "B": {"side": "blue", "primary": "rifle"}},
    }), encoding="utf-8")
    with launch_browser() as browser:
        server = Server([str(scenario), "--log", str(tmp_path / "f.jsonl"), "--seed", "1",
                         "-c", "blue"], tmp_path)
        try:
            page = browser.new_page()
            page.goto(server.url)
            page.wait_for_selector("#map svg circle[data-unit='A']", timeout=TIMEOUT)
            # The names are text: in the title, the map's level heading and the side's chips.
            assert page.inner_text("#title") == HOSTILE
            assert f"level 0: {HOSTILE}" in page.text_content("#map svg")  # type: ignore[operator]
            # A probe with the same broken image: once its handler ran, the map's would have.
            page.evaluate("""() => { const img = document.createElement('img');
                img.onerror = () => { window.probeRan = 1; }; img.src = 'x';
                document.body.append(img); }""")
            page.wait_for_function("() => window.probeRan === 1", timeout=TIMEOUT)
            assert page.evaluate("() => window.hostileRan") is None
            assert page.locator("#map img, #map [onerror], #map [onload]").count() == 0
        finally:
            server.kill()
