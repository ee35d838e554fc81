"""Names from files cannot inject markup into SVG or HTML, nor control sequences into the terminal.

One hostile name (markup that would run a script, a screen-clearing escape sequence, an 8-bit
CSI, a bell, rich markup and an emoji code) goes into every name field of every map kind and of
one scenario of every game. Every SVG written is parsed: it is well formed, holds only the
elements tactica draws and no event handler, and the name is there as text. The HTML report
and the web app's answers are checked the same way; every terminal output has no control
character but newline and tab, and prints the rich markup literally.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml

from tactica.cli import main

#: Script markup, ESC [2J (clear the screen), an 8-bit CSI colour, rich markup, an emoji code
#: and a bell.
HOSTILE = '"><img src=x onerror=alert(1)>\x1b[2J\x9b31m[bold]B[/bold]:fire:\x07'
#: What is left of it on the terminal and in pictures: the same text without the controls.
SHOWN = '"><img src=x onerror=alert(1)>[bold]B[/bold]:fire:'
#: Zone names cannot hold '>' (it writes a move between two areas): the same attack without it.
AREA = HOSTILE.replace(">", "/")

_SVG_TAGS = {"svg", "g", "title", "defs", "marker", "path", "rect", "circle", "ellipse", "line",
             "polyline", "polygon", "text"}
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _write(path: Path, data: Any) -> str:
    path.write_text(yaml.safe_dump(data, allow_unicode=False, sort_keys=False),
                    encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    check_terminal(out + err)
    return code, out, err


def check_terminal(text: str) -> None:
    """No escape byte, no control character but newline and tab; markup printed literally."""
    assert not _CONTROL.search(text), repr(_CONTROL.search(text))
    if "B[/bold]" in text:
        assert "[bold]B[/bold]:fire:" in text


def check_svg(text: str, *, expect: str = SHOWN) -> ET.Element:
    """Well formed, only the elements tactica draws, no event handler or link; ``expect``
    is there as text or an attribute value."""
    root = ET.fromstring(text.encode("utf-8"))
    found = False
    for node in root.iter():
        tag = node.tag.rpartition("}")[2]
        assert tag in _SVG_TAGS, tag
        for name, value in node.attrib.items():
            assert not name.lower().startswith("on") and "href" not in name.lower(), name
            found = found or expect in value
        found = found or expect in (node.text or "")
    assert found, f"{expect!r} not drawn"
    assert "\x1b" not in text and "\x07" not in text
    return root


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[str] = []
        self.data: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(name for name, _ in attrs)

    def handle_data(self, data: str) -> None:
        self.data.append(data)


def check_html(text: str) -> None:
    page = _Tags()
    page.feed(text)
    assert "img" not in page.tags and "script" not in page.tags
    assert not [a for a in page.attrs if a.startswith("on")]
    assert any(SHOWN in d for d in page.data)
    assert not _CONTROL.search(text)
    for svg in re.findall(r"<svg\b.*?</svg>", text, flags=re.S):
        ET.fromstring(svg.encode("utf-8"))  # every picture is well formed


# -- every map kind ---------------------------------------------------------------------------

MAPS: dict[str, tuple[dict[str, Any], tuple[str, str]]] = {
    "grid": ({"kind": "grid", "name": HOSTILE, "tiles": "A.#\n..B\n",
              "sides": {"A": HOSTILE, "B": "blue"}}, ("A", "B")),
    "zones": ({"kind": "zones", "name": HOSTILE, "areas": [AREA, "Bar", "Kitchen"],
               "connections": [{"between": [AREA, "Bar"], "cover": [AREA], "door": "closed"},
                               {"between": ["Bar", "Kitchen"], "type": "dashed"}]},
              (AREA, "Kitchen")),
    "rows": ({"kind": "rows", "name": HOSTILE, "description": HOSTILE,
              "sides": {HOSTILE: {"front": [HOSTILE + "1"], "back": ["x"]},
                        "b": {"front": ["y"]}}}, (HOSTILE + "1", "y")),
    "dots": ({"kind": "dots", "name": HOSTILE,
              "levels": {"ground": "A . . B\n . . . .\n", HOSTILE: ". . . .\n . . . .\n"},
              "sides": {"A": HOSTILE, "B": "blue"},
              "buildings": [{"name": HOSTILE, "from": [0, 0], "to": [2, 1], "floors": 2}],
              "troopers": {"C": {"at": [3, 1], "level": HOSTILE}}}, ("A", "C")),
}


@pytest.mark.parametrize("kind", sorted(MAPS))
def test_every_map_kind_draws_hostile_names_as_text(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, (a, b) = MAPS[kind]
    path = _write(tmp_path / "map.yaml", data)
    code, out, _ = run(capsys, "map", path)
    assert code == 0 and SHOWN in out
    code, _, _ = run(capsys, "validate", path)
    assert code == 0
    code, _, _ = run(capsys, "map", path, "--svg", str(tmp_path / "map.svg"))
    assert code == 0
    check_svg((tmp_path / "map.svg").read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "sight", path, a, b, "--svg", str(tmp_path / "sight.svg"))
    assert code == 0
    check_svg((tmp_path / "sight.svg").read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "sight", path, a, b, "--json")
    assert code == 0 and json.loads(out)["from"] == a  # JSON keeps the data, escaped


def test_a_refused_name_is_reported_without_its_controls(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {"kind": "zones", "areas": [HOSTILE, "Bar"], "connections": []}
    code, _, err = run(capsys, "map", _write(tmp_path / "map.yaml", data))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


# -- one scenario of every game ---------------------------------------------------------------

def _nebulia() -> dict[str, Any]:
    gun = {"name": HOSTILE, "range": "ranged", "accuracy": 6, "dice": 1, "damage": 1}
    return {"game": "nebulia-operations", "name": HOSTILE, "description": HOSTILE,
            "map": MAPS["grid"][0] | {"sides": {}},
            "units": {"A": {"side": HOSTILE, "defense": 3, "armor": 3, "move": 2,
                            "weapons": [gun]},
                      "B": {"side": "blue", "defense": 1, "armor": 3, "move": 2,
                            "weapons": [gun]}}}


def _skirmishers(pack: str) -> dict[str, Any]:
    return {"game": "skirmishers", "name": HOSTILE, "description": HOSTILE, "max_rounds": 2,
            "content": [pack],
            "map": {"kind": "dots", "name": HOSTILE,
                    "levels": {"ground": ". A . . B .\n . . . . . .\n. . . . . .\n",
                               HOSTILE: ". . . . . .\n . . . . . .\n. . . . . .\n"},
                    "buildings": [{"name": HOSTILE, "from": [2, 1], "to": [4, 2],
                                   "floors": 2}]},
            "units": {"A": {"side": HOSTILE, "primary": "zap"},
                      "B": {"side": "blue", "primary": "rifle"}}}


def _unhex() -> dict[str, Any]:
    return {"game": "unhex", "name": HOSTILE, "description": HOSTILE, "max_rounds": 3,
            "map": {"kind": "zones", "name": HOSTILE, "areas": [AREA, "Bar"],
                    "connections": [{"between": [AREA, "Bar"], "cover": [AREA]}]},
            "units": {HOSTILE: {"side": HOSTILE, "at": AREA, "profile": "shooter"},
                      "Vince": {"side": "club", "at": "Bar", "profile": "gunman"}}}


def _last_odyssey() -> dict[str, Any]:
    return {"game": "last-odyssey", "name": HOSTILE, "description": HOSTILE, "max_rounds": 3,
            "map": {"kind": "rows", "name": HOSTILE,
                    "sides": {HOSTILE: {"front": [HOSTILE]}, "goblins": {"front": ["Goblin"]}}},
            "units": {HOSTILE: {"enemy": "cop"}, "Goblin": {"enemy": "goblin-skirmisher"}}}


def _arc() -> dict[str, Any]:
    gun = {"name": HOSTILE, "damage": "2d6", "type": "ballistic", "spread": 2, "rof": 1,
           "accuracy": [0, 0]}
    unit = {"skills": {"guns": 14, "evade": 12}, "health": 12, "weapons": [gun]}
    return {"game": "arc", "name": HOSTILE, "description": HOSTILE, "max_rounds": 3,
            "units": {HOSTILE: {"side": HOSTILE, **unit}, "Jane": {"side": "jane", **unit}}}


GAMES = ["nebulia", "skirmishers", "unhex", "last-odyssey", "arc"]
#: Per game: an attacker and a target, and the side the computer plays.
PLAYERS = {"nebulia": ("A", "B", "blue"), "skirmishers": ("A", "B", "blue"),
           "unhex": (HOSTILE, "Vince", "club"), "last-odyssey": (HOSTILE, "Goblin", "goblins"),
           "arc": (HOSTILE, "Jane", "jane")}


@pytest.fixture
def scenario(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    game = request.param
    if game == "skirmishers":
        pack = _write(tmp_path / "pack.yaml", {"weapons": {"zap": {
            "name": HOSTILE, "lethal": 4, "shots": 1, "short": 26, "long": 85, "points": 1}}})
        data = _skirmishers(pack)
    else:
        data = {"nebulia": _nebulia, "unhex": _unhex, "last-odyssey": _last_odyssey,
                "arc": _arc}[game]()
    yield game, _write(tmp_path / "scenario.yaml", data)


@pytest.mark.parametrize("scenario", GAMES, indirect=True)
def test_every_game_prints_hostile_names_literally(
        scenario: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, path = scenario
    code, out, err = run(capsys, "validate", path)
    assert code == 0, err
    code, out, err = run(capsys, "simulate", path, "-n", "3", "--seed", "1")
    assert code == 0, err
    assert SHOWN in out
    code, out, err = run(capsys, "odds", path, "--table")
    assert code == 0, err
    code, out, err = run(capsys, "odds", path, "--table", "--markdown")
    assert code == 0, err
    assert "&lt;img src=x onerror=alert(1)&gt;" in out and "<img" not in out
    attacker, target, computer = PLAYERS[game]
    code, out, err = run(capsys, "odds", path, "-a", attacker, "-t", target)
    assert code == 0, err
    code, out, err = run(capsys, "odds", path, "-a", attacker, "-t", target, "--json")
    assert code == 0, err
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 8))
    code, out, err = run(capsys, "play", path, "--seed", "1", "--auto-dice",
                         "--log", str(tmp_path / "fight.jsonl"), "-c", computer)
    assert code == 0, err
    assert f"{SHOWN} to choose" in out
    if game != "arc":
        code, out, err = run(capsys, "map", path, "--svg", str(tmp_path / "map.svg"))
        assert code == 0, err
        check_svg((tmp_path / "map.svg").read_text(encoding="utf-8"))
        code, out, err = run(capsys, "sight", path, attacker, target,
                             "--svg", str(tmp_path / "sight.svg"))
        assert code == 0, err
        check_svg((tmp_path / "sight.svg").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "report", path, "-o", str(tmp_path / "r.html"), "-n", "3")
    assert code == 0, err
    check_html((tmp_path / "r.html").read_text(encoding="utf-8"))


# -- the web app's answers --------------------------------------------------------------------

@pytest.mark.parametrize("scenario", GAMES, indirect=True)
def test_the_web_app_serves_hostile_names_as_data(
        scenario: tuple[str, str], tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from tactica.engine.scenario import load_scenario
    from tactica.play import FightController
    from tactica.web.app import create_app

    game, path = scenario
    attacker, target, computer = PLAYERS[game]
    ctl = FightController.start(load_scenario(Path(path)), tmp_path / "fight.jsonl", seed=1,
                                computer={computer: "greedy"}, durable=False)
    try:
        token = "hostile-test-token-0123456789"
        with TestClient(create_app(ctl, token=token, allowed_hosts=["testserver"]),
                        headers={"Authorization": f"token {token}"}) as client:
            state = client.get("/api/state")
            assert state.headers["content-type"].startswith("application/json")
            assert state.json()["title"] == HOSTILE  # data, as the file has it (the page
            # shows every string of the state with textContent)
            svg = client.get("/api/map.svg")
            if game == "arc":
                assert not svg.text.strip().startswith("<")
                return
            assert svg.headers["content-type"].startswith("image/svg+xml")
            check_svg(svg.text)
            sight = client.get("/api/sight", params={"a": attacker, "b": target})
            assert sight.status_code == 200, sight.text
            lines = client.get("/api/map.svg", params={"a": attacker, "b": target})
            check_svg(lines.text)
    finally:
        ctl.close()
