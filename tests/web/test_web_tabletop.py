"""What the tabletop page is told by its server, without a browser: one colour per side for
every view, the map's places, what each action points at, the preview of an attack, dice
prompts that say whose action they belong to and the chance of success, a range asked as a
range, the ranges of a fight without a map, a favicon, and errors in words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import EXAMPLES

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from tactica.dice import Dist
from tactica.engine.chance import Roll
from tactica.engine.scenario import load_scenario
from tactica.play import FightController
from tactica.play.answer import success_chance
from tactica.presentation.render.svg import side_colours
from tactica.web.app import create_app

TOKEN = "test-token-0123456789abcdef"


@pytest.fixture
def open_fight(tmp_path: Path) -> Iterator[Any]:
    made: list[FightController] = []

    def start(scenario: Path, computer: str, ask_dice: bool = True) -> TestClient:
        ctl = FightController.start(load_scenario(scenario), tmp_path / f"f{len(made)}.jsonl",
                                    seed=3, computer={computer: "greedy"}, durable=False,
                                    ask_dice=ask_dice)
        made.append(ctl)
        return TestClient(create_app(ctl, token=TOKEN, allowed_hosts=["testserver"]),
                          headers={"Authorization": f"token {TOKEN}"})

    yield start
    for ctl in made:
        ctl.close()


def fills(svg: str) -> dict[str, str]:
    """Each unit's disc colour on the map."""
    return {m[1]: m[0] for m in re.findall(
        r'<(?:circle|ellipse)[^>]*fill="(#[0-9a-f]{6})"[^>]*data-unit="([^"]+)"', svg)}


def test_a_side_named_after_a_colour_is_drawn_in_it_and_the_others_in_turn() -> None:
    assert side_colours(["red", "blue"]) == {"red": "#b3261e", "blue": "#1f5fb4"}
    assert side_colours(["blue", "red"]) == {"blue": "#1f5fb4", "red": "#b3261e"}
    crew = side_colours(["crew", "club"])
    assert len(set(crew.values())) == 2 and "#b3261e" not in crew.values()


@pytest.mark.parametrize("scenario, computer", [
    (EXAMPLES / "nebulia" / "duel.yaml", "blue"),
    (EXAMPLES / "skirmishers" / "street-fight.yaml", "blue"),
    (EXAMPLES / "arc" / "warehouse.yaml", "red"),
    (EXAMPLES / "last-odyssey" / "goblins.yaml", "goblins"),
])
def test_the_map_draws_every_unit_in_the_colour_the_state_gives_its_side(
        open_fight: Any, scenario: Path, computer: str) -> None:
    client = open_fight(scenario, computer)
    state = client.get("/api/state").json()
    by_side = {s["name"]: s["colour"] for s in state["sides"]}
    assert by_side.get("red", "#b3261e") == "#b3261e"
    assert by_side.get("blue", "#1f5fb4") == "#1f5fb4"
    drawn = fills(client.get("/api/map.svg").text)
    assert drawn
    for u in state["units"]:
        assert u["colour"] == by_side[u["side"]]
        if u["id"] in drawn:
            assert drawn[u["id"]] == u["colour"], u["id"]


def test_each_action_says_its_unit_its_place_and_its_target(open_fight: Any) -> None:
    client = open_fight(EXAMPLES / "nebulia" / "duel.yaml", "blue")
    s = client.get("/api/state").json()
    links = s["request"]["links"]
    assert links[1] == {"unit": "A", "place": "0,1", "target": None, "kind": "move"}
    svg = client.get("/api/map.svg").text
    assert all(f'data-place="{lk["place"]}"' in svg for lk in links)
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    attack = s["request"]["texts"].index("A attacks B with rifle")
    assert s["request"]["links"][attack] == {"unit": "A", "place": None, "target": "B",
                                             "kind": "target"}
    # The preview: exact odds, the target's outcomes as bars (what is left of it first).
    p = client.get("/api/preview", params={"key": s["request"]["key"], "index": attack}).json()
    assert p["action"] == "A attacks B with rifle" and p["exact"]["P(hit)"] == "3/5"
    assert [b["name"] for b in p["bars"]] == ["defense left", "damage"]
    assert p["bars"][0]["bars"] == [{"value": "0", "p": 0.42, "exact": "21/50"},
                                    {"value": "1", "p": 0.58, "exact": "29/50"}]
    # A stale or wrong preview is refused in words; nothing moves.
    stale = client.get("/api/preview", params={"key": 1, "index": 0})
    # a page's preview that crossed an answer is told so, not refused (no 409 in its console)
    assert stale.status_code == 200 and stale.json()["stale"] is True
    assert "moved on" in stale.json()["error"]
    bad = client.get("/api/preview", params={"key": "x", "index": 0})
    assert bad.status_code == 400 and "whole numbers" in bad.json()["error"]
    # The roll after: whose action it belongs to, what it decides.
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": attack}).json()
    r = s["request"]
    assert (r["kind"], r["side"], r["during"]) == ("roll", "red", "A attacks B with rifle")


def test_a_wrong_number_of_dice_is_said_in_words(open_fight: Any) -> None:
    client = open_fight(EXAMPLES / "nebulia" / "duel.yaml", "blue")
    s = client.get("/api/state").json()
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    answer = client.post("/api/roll", json={"key": s["request"]["key"], "text": "1 0"})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error == "roll 'to hit' is 1 die: type one face (typed 2: 1 0)"
    assert "[" not in error


def test_a_roll_under_check_says_its_chance_of_success(open_fight: Any) -> None:
    client = open_fight(EXAMPLES / "arc" / "pistol-duel.yaml", "francis")
    r = client.get("/api/state").json()["request"]
    assert r["kind"] == "roll" and r["label"] == "initiative of Francis (d20, 7 or under)"
    assert (r["success"], r["success_exact"]) == ("35.0%", "7/20")
    d100 = Dist.uniform([(t, u) for t in range(10) for u in range(10)])
    check = Roll("Rook: attack", d100, lambda v: None, hint="45 or under succeeds (00 is 100)")
    assert success_chance(check) == pytest.approx(0.45)


def test_a_fight_without_a_map_gives_the_ranges_between_the_characters(
        open_fight: Any) -> None:
    client = open_fight(EXAMPLES / "arc" / "pistol-duel.yaml", "francis", ask_dice=False)
    s = client.get("/api/state").json()
    assert s["has_map"] is False
    assert s["ranges"] == [{"a": "Francis", "b": "Jane", "range": "20.0 m"}]


def test_a_number_to_set_is_asked_as_a_range() -> None:
    from tactica.engine.chance import Decide, Done
    from tactica.web.snapshot import request_json

    class Ctl:  # just enough of a controller for one question
        def acting(self) -> tuple[str, str]:
            return "crew", "Rook attacks Vince"

        def last_roll(self) -> str:
            return "Rook: attack: rolled 33 (3 and 3)"

        def suggestion(self) -> int:
            return 45

    from tactica.play.controller import DecisionRequest
    decision: Decide[Any] = Decide("crew", "set the die", tuple(range(1, 56)), Done)
    req = DecisionRequest(4, decision, 0, tuple(str(n) for n in range(1, 56)))
    out = request_json(Ctl(), req)  # type: ignore[arg-type]
    assert out["range"] == [1, 55] and out["during"] == "Rook attacks Vince"
    assert out["roll"] == "Rook: attack: rolled 33 (3 and 3)" and out["suggested"] == 45


def test_the_favicon_is_served_without_the_token(open_fight: Any) -> None:
    client = open_fight(EXAMPLES / "nebulia" / "duel.yaml", "blue")
    for path in ("/favicon.ico", "/static/favicon.svg"):
        answer = client.get(path, headers={"Authorization": ""})
        assert answer.status_code == 200 and answer.text.startswith("<svg")
    assert 'rel="icon"' in client.get("/").text


def test_rough_ground_the_grid_does_not_draw_is_told_by_place(open_fight: Any) -> None:
    client = open_fight(EXAMPLES / "arc" / "warehouse.yaml", "red")
    terrain = client.get("/api/state").json()["terrain"]
    assert terrain["4,0"] == "rough ground: +1 AP to enter" and len(terrain) == 6
    assert 'data-place="4,0"' in client.get("/api/map.svg").text


def test_the_odds_under_the_map_cite_no_rule_ids(open_fight: Any) -> None:
    """The report's reasons cite their rulings (``at or under 55 (UNH-5)``); the page says
    them in the table's words, as play does."""
    client = open_fight(EXAMPLES / "unhex" / "nightclub-fight.yaml", "club", ask_dice=False)
    odds = client.get("/api/sight", params={"a": "Rook", "b": "Vince"}).json()["odds"]
    assert odds, "Rook has attacks on Vince"
    shown = " ".join(line for o in odds for line in o["lines"] + o["reasons"])
    assert "at or under 55" in shown
    assert not re.search(r"\b[A-Z]{3}-\d+\b", shown)
