"""What the rows mean in Last Odyssey: melee reach and advancing (LOD-9)."""

from __future__ import annotations

import pytest

from tactica.battlefield.rows import Rows, Side
from tactica.engine.errors import MapError
from tactica.rulesets.last_odyssey.melee import (
    advance,
    can_make_melee,
    can_melee,
    can_receive_melee,
    needs_advance,
)


def rows(party: str, enemies: str) -> Rows:
    """``"front, front / back"`` per side."""
    def side(name: str, text: str) -> Side:
        front, _, back = text.partition("/")
        names = [tuple(n.strip() for n in part.split(",") if n.strip()) for part in (front, back)]
        return Side(name, names[0], names[1])

    return Rows((side("party", party), side("enemies", enemies)))


def test_melee_needs_the_user_in_front_and_reaches_only_the_front() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    assert can_make_melee(r, "Ada") and not can_make_melee(r, "Bo")
    assert can_receive_melee(r, "Cop") and not can_receive_melee(r, "Shaman")
    assert can_melee(r, "Ada", "Cop")
    assert not can_melee(r, "Ada", "Shaman")
    assert not can_melee(r, "Bo", "Cop")


def test_advance_makes_the_whole_empty_fronted_side_count_as_front_row() -> None:
    r = rows("Ada / Bo", " / Shaman, Prankster")
    assert needs_advance(r) == ("enemies",)
    assert not can_receive_melee(r, "Shaman")
    advanced = advance(r, "party")
    assert can_receive_melee(advanced, "Shaman") and can_receive_melee(advanced, "Prankster")
    # They count as front row for everything, so they may use melee too ...
    assert can_make_melee(advanced, "Shaman")
    # ... while the advancing side is unchanged: Bo is still in the back.
    assert not can_make_melee(advanced, "Bo")
    assert needs_advance(advanced) == ()
    # LOD-9: afterwards they are ordinary front-row characters and may Move back.
    assert not can_receive_melee(advanced.with_moved("Shaman", "back"), "Shaman")


def test_advance_errors_say_why() -> None:
    r = rows("Ada / Bo", "Cop / Shaman")
    with pytest.raises(MapError, match="sides to advance on: none"):
        advance(r, "party")
    with pytest.raises(
        MapError, match=r"cannot advance on 'enemies': its front row is not empty \(Cop\)"
    ):
        advance(r, "party", on="enemies")
    with pytest.raises(MapError, match="unknown side 'heroes'"):
        advance(r, "heroes")
    both_empty = rows(" / Bo", " / Shaman")
    assert needs_advance(both_empty) == ("party", "enemies")
    assert advance(both_empty, "party").side("enemies").front == ("Shaman",)
    assert advance(both_empty, "enemies").side("party").front == ("Bo",)


def test_more_than_two_sides_need_on_when_ambiguous() -> None:
    r = Rows((Side("a", ("A",)), Side("b", (), ("B",)), Side("c", (), ("C",))))
    with pytest.raises(MapError, match="say on which side; sides to advance on: b, c"):
        advance(r, "a")
    assert can_receive_melee(advance(r, "a", on="c"), "C")
