"""What the page draws on a Skirmishers map: arcs as templates, the arcs the open actions
would set and whom they hold, each move's AP and path, each trooper's AP left."""

from __future__ import annotations

import pytest
from ski_builders import ready, take, trooper

from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.marks import map_marks

pytestmark = pytest.mark.both_engines

LANE = """
A . . . B . . .
 . . . . . . . .
. . . . . . . .
"""


@pytest.mark.reference_only  # no step played after the set-up
def test_an_established_arc_is_a_template_with_its_bearing_reach_and_shots() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue", "smg", arc=60, toward=(0, 0)))
    (arc,) = map_marks(b.state, [])["arcs"]
    assert arc == {"unit": "B", "side": "blue", "place": "4,0", "width": 60, "bearing": 180.0,
                   "reach": 17, "shots": 6, "levels": [0]}


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_the_open_arcs_say_whom_they_hold_and_whom_they_point_at() -> None:
    b = ready(LANE, A=trooper("red"), B=trooper("blue"))
    take(b, r.Activate("A"))
    actions = list(b.legal_actions())
    marks = map_marks(b.state, actions)
    toward = [i for i, a in enumerate(actions)
              if isinstance(a, r.EstablishArc) and a.toward == "4,0"]
    assert len(toward) == 3 and all(marks["targets"][str(i)] == "B" for i in toward)
    assert all(marks["aims"][str(i)]["holds"] == ["B"] for i in toward)
    away = next(i for i, a in enumerate(actions)
                if isinstance(a, r.EstablishArc) and a.bearing == 180)
    assert marks["aims"][str(away)]["holds"] == [] and str(away) not in marks["targets"]
    assert marks["ap"] == {"A": 8, "B": 8}


@pytest.mark.reference_only  # exact odds or explanations: the reference's
def test_a_move_over_a_low_wall_says_its_cost_and_why() -> None:
    """"Across an obstruction: 2 AP": one dot past a low wall costs 3 AP, the straight way 2."""
    b = ready(LANE, A=trooper("red"), B=trooper("blue"),
              features=[{"between": [[1, 0], [2, 0]], "kind": "low-wall"}])
    take(b, r.Activate("A"))
    actions = list(b.legal_actions())
    marks = map_marks(b.state, actions)
    by_place = {m["place"]: m for m in marks["moves"].values()}
    assert by_place["1,0"] == {"unit": "A", "place": "1,0", "cost": 1, "direct": 1,
                               "path": ["0,0", "1,0"], "dear": ""}
    over = by_place["2,0"]
    assert over["cost"] == 3 and over["path"] == ["0,0", "1,0", "2,0"]
    assert over["dear"] == ("crosses the low wall into 2,0 (2 AP); costs 3 AP, the straight "
                            "way 2")
