"""Firing arcs "can be oriented in any direction": a person aims an arc at any bearing typed in
degrees, in ``tactica play`` and on the web page; the computer keeps to the listed bearings."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from ski_builders import of, ready, take, trooper

from tactica.battlefield.dots.arcs import bearing_value
from tactica.engine.battle import Battle
from tactica.engine.errors import IllegalActionError, ScriptError
from tactica.engine.events import ActionTaken
from tactica.engine.ruleset import ChooseAction
from tactica.engine.scenario import load_scenario
from tactica.play import FightController, PlaySession, read_log
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.arcs import arc_holds

pytestmark = pytest.mark.both_engines

FIELD = """
A . . . . . . .
 . . . . . . . .
. . . . . . . .
 . . . . . . . B
"""

SCENARIO = textwrap.dedent("""\
    game: skirmishers
    name: Aim
    max_rounds: 2
    first: red
    map:
      kind: dots
      levels:
        ground: |
          A . . . . . . .
           . . . . . . . .
          . . . . . . . .
           . . . . . . . B
    units:
      A: {side: red, primary: rifle}
      B: {side: blue, primary: rifle}
    """)


def aimed(b: Battle, bearing: float, width: int = 30) -> r.ArcEstablished:  # type: ignore[type-arg]
    take(b, r.Activate("A"))
    (arc,) = of(take(b, r.EstablishArc("A", width, bearing)), r.ArcEstablished)
    return arc


@pytest.mark.reference_only  # an arc outside the listed options: no script reaches it
def test_a_firing_arc_may_be_oriented_in_any_direction() -> None:
    """A 30 degree arc at 7.5 degrees is no listed action, yet legal; it holds the dots whose
    bearing lies within 15 degrees of 7.5: B, 6 steps east and 3 south-east, lies at 19.1."""
    b = ready(FIELD, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    listed = {a.bearing for a in b.legal_actions() if isinstance(a, r.EstablishArc)}
    assert 7.5 not in listed and 37.5 not in listed           # the computer's finite set
    pending = b.pending
    assert isinstance(pending, ChooseAction) and pending.allows(r.EstablishArc("A", 30, 7.5))
    (arc,) = of(take(b, r.EstablishArc("A", 30, 7.5)), r.ArcEstablished)
    assert (arc.width, arc.bearing, arc.shots, arc.ap) == (30, 7.5, 1, 2)
    assert arc_holds(b.state, "A", "B")
    for off in (37.5, 0):                                     # 18.4 and 19.1 degrees off
        other = ready(FIELD, A=trooper("red"), B=trooper("blue"))
        aimed(other, off)
        assert not arc_holds(other.state, "A", "B"), off


@pytest.mark.reference_only  # an arc outside the listed options: no script reaches it
def test_only_arcs_the_trooper_may_establish_now_are_accepted() -> None:
    b = ready(FIELD, A=trooper("red", marks="........X.."), B=trooper("blue"))  # 1 HP: 4 AP
    take(b, r.Activate("A"))
    for wrong in (r.EstablishArc("A", 150, 10), r.EstablishArc("A", 45, 10),
                  r.EstablishArc("A", 30, 360), r.EstablishArc("A", 30, -5),
                  r.EstablishArc("B", 30, 10)):
        with pytest.raises(IllegalActionError):
            take(b, wrong)
    take(b, r.EstablishArc("A", 60, 359.5))


@pytest.mark.reference_only  # no step played after the set-up
def test_a_bearing_is_kept_in_0_to_360_and_whole_degrees_as_an_int() -> None:
    assert bearing_value(Fraction(75, 2)) == 37.5
    assert bearing_value(-90) == 270 and isinstance(bearing_value(Fraction(720)), int)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_scenario_may_set_an_arc_on_any_bearing() -> None:
    """B's arc at 187.5 degrees holds A, which lies at 199.1 degrees from B."""
    b = ready(FIELD, A=trooper("red"), B=trooper("blue", arc=30, bearing=187.5))
    arc = b.state.troopers["B"].arc
    assert arc is not None and arc.bearing == 187.5 and arc_holds(b.state, "B", "A")
    whole = ready(FIELD, A=trooper("red"), B=trooper("blue", arc=60, bearing=30.0))
    kept = whole.state.troopers["B"].arc
    assert kept is not None and kept.bearing == 30 and isinstance(kept.bearing, int)


@pytest.mark.reference_only  # no step played after the set-up
def test_an_aimed_arc_replays_from_the_log(tmp_path: Path) -> None:
    scenario = tmp_path / "aim.yaml"
    scenario.write_text(SCENARIO)
    ctl = FightController.start(load_scenario(scenario), tmp_path / "aim.jsonl", seed=1,
                                durable=False)
    req = ctl.advance()
    ctl.take(0, key=req.key)                                   # activate A
    req = ctl.advance()
    k = req.aimable[0]
    with pytest.raises(ScriptError, match="cannot be aimed"):
        ctl.take(len(req.actions) - 1, key=req.key, bearing=10)  # ending the activation
    ctl.take(k, key=req.key, bearing=Fraction(101, 10))
    ctl.close()
    records = read_log(tmp_path / "aim.jsonl").records
    (taken,) = [x for x in records if isinstance(x, ActionTaken)
                and isinstance(x.action, r.EstablishArc)]
    assert taken.action.bearing == 10.1
    sc = load_scenario(scenario)
    battle, rest = Battle.replay(sc.ruleset, sc.new_state(), records)
    assert rest == [] and battle.state.troopers["A"].arc is not None
    assert battle.state.troopers["A"].arc.bearing == 10.1


class Table:
    """Answers prompts by prefix, in order; keeps what was said."""

    def __init__(self, rules: dict[str, list[str]]) -> None:
        self.rules = rules
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        for prefix, answers in self.rules.items():
            if prompt.startswith(prefix) and answers:
                return answers.pop(0)
        raise EOFError

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))


def test_play_takes_aim_n_degrees(tmp_path: Path) -> None:
    scenario = tmp_path / "aim.yaml"
    scenario.write_text(SCENARIO)
    b = ready(FIELD, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    n = 1 + next(i for i, a in enumerate(b.legal_actions()) if isinstance(a, r.EstablishArc)
                 and a.width == 60)
    table = Table({"red>": ["1", "aim 1 10", f"aim {n} 37,5", f"aim {n} 37.5°", "quit"]})
    log = tmp_path / "aim.jsonl"
    PlaySession.start(load_scenario(scenario), log, table, seed=1, durable=False).run()
    said = "\n".join(table.said)
    assert "'aim N DEGREES'" in said and "such as 'aim " in said
    assert "action 1 cannot be aimed" in said                 # 1 is a move, not an arc
    assert "'37,5' is not a number of degrees" in said
    assert "A establishes a 60° arc bearing 37.5° (4 AP)" in said
    assert "it holds B now" in said                           # B lies at 19.1 degrees
    (arc,) = [e for e in read_log(log).records if isinstance(e, r.ArcEstablished)]
    assert (arc.width, arc.bearing) == (60, 37.5)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[object, FightController]]:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from tactica.web.app import create_app

    scenario = tmp_path / "aim.yaml"
    scenario.write_text(SCENARIO)
    ctl = FightController.start(load_scenario(scenario), tmp_path / "aim.jsonl", seed=1,
                                durable=False)
    token = "aim-test-token-0123456789"
    with TestClient(create_app(ctl, token=token, allowed_hosts=["testserver"]),
                    headers={"Authorization": f"token {token}"}) as client:
        yield client, ctl
    ctl.close()


@pytest.mark.reference_only  # no step played after the set-up
def test_the_web_page_aims_an_arc_at_a_bearing(web) -> None:  # type: ignore[no-untyped-def]
    client, ctl = web
    s = client.get("/api/state").json()
    assert s["request"]["aimable"] == []                      # activating: nothing to aim
    s = client.post("/api/action", json={"key": s["request"]["key"], "index": 0}).json()
    req = s["request"]
    k = req["aimable"][0]
    assert "arc" in req["texts"][k]
    wrong = client.post("/api/action", json={"key": req["key"], "index": 0, "bearing": 10})
    assert wrong.status_code == 400 and "cannot be aimed" in wrong.json()["error"]
    bad = client.post("/api/action", json={"key": req["key"], "index": k, "bearing": "ten"})
    assert bad.status_code == 422 and "bearing" in bad.json()["error"]
    s = client.post("/api/action", json={"key": req["key"], "index": k, "bearing": 222.5}).json()
    assert any("bearing 222.5°" in n["text"] for n in s["feed"])
    assert ctl.battle.state.troopers["A"].arc.bearing == 222.5
