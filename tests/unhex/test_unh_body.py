"""Hit locations and boxes: marks, full locations, overflow, unconsciousness and death, and the
damage rulings (UNH-4, UNH-11, UNH-12, UNH-13, UNH-18)."""

from __future__ import annotations

import pytest

from tactica.rulesets.unhex.attack import Fighter, wound_events
from tactica.rulesets.unhex.body import (
    LATER_BOXES,
    Body,
    DamageRules,
    Marks,
    location_of,
    wound,
)
from tactica.rulesets.unhex.records import ItemDropped, LocationFilled

FIRST = DamageRules()


def test_the_hit_location_table() -> None:
    assert [location_of(d) for d in range(10)] == [
        "left leg", "left leg", "right leg", "right leg", "torso", "torso", "torso",
        "left arm", "right arm", "head"]
    body = Body.fresh(50)
    assert [body.boxes_at(loc) for loc in ("head", "right arm", "left arm", "torso",
                                           "right leg", "left leg")] == [5, 5, 5, 15, 10, 10]


def test_damage_marks_slashes_without_touching_the_level() -> None:
    w = wound(Body.fresh(50), "left arm", 3, FIRST)
    assert w.body.marks_at("left arm") == Marks(slash=3)
    assert w.body.level == 50 and w.filled == () and not w.knocked_out


def test_zero_damage_marks_nothing() -> None:
    w = wound(Body.fresh(50), "head", 0, FIRST)
    assert w.body == Body.fresh(50) and w.changed == ()


def test_a_full_arm_lowers_the_level_by_its_boxes_drops_the_item_and_the_hand_is_lost() -> None:
    w = wound(Body.fresh(50), "right arm", 5, FIRST)
    assert w.filled == ("right arm",) and w.body.level == 45 and w.level_lost == 5
    assert not w.body.hand_usable("right") and w.body.hand_usable("left")
    f = Fighter("A", "pcs", True, Body.fresh(50), right="pistol", left="knife")
    events, after = wound_events(f, w, "A", "B", "Bar", FIRST)
    assert [e for e in events if isinstance(e, ItemDropped)] == [
        ItemDropped("A", "pistol", "Bar", "the right arm is full")]
    assert (after.right, after.left) == (None, "knife")
    assert [e for e in events if isinstance(e, LocationFilled)] == [
        LocationFilled("A", "right arm", 5, 45)]


def test_a_full_arm_drops_a_two_handed_item_once() -> None:
    w = wound(Body.fresh(50), "left arm", 6, FIRST)
    f = Fighter("A", "pcs", True, Body.fresh(50), right="shotgun", left="shotgun")
    events, after = wound_events(f, w, "A", "B", "Bar", FIRST)
    assert [e.item for e in events if isinstance(e, ItemDropped)] == ["shotgun"]
    assert after.right is None and after.left is None


def test_a_full_leg_stops_the_character_and_one_leg_is_minus_ten() -> None:
    w = wound(Body.fresh(50), "left leg", 9, FIRST)
    assert not w.stops
    w = wound(w.body, "left leg", 1, FIRST)
    assert w.stops and w.body.level == 40 and w.body.legs_full == 1


@pytest.mark.parametrize("location", ["head", "torso"])
def test_a_full_head_or_torso_is_unconscious(location: str) -> None:
    boxes = Body.fresh(50).boxes_at(location)
    body = wound(Body.fresh(50), location, min(9, boxes - 1), FIRST).body
    w = wound(body, location, 9, FIRST)
    assert w.knocked_out and w.body.unconscious and w.body.level == 50 - boxes


def test_level_zero_is_unconscious() -> None:
    assert Body.fresh(50).with_level(0).unconscious
    assert Body.fresh(50).with_level(-3).level == 0


def test_further_damage_to_a_full_location_goes_to_the_torso() -> None:
    body = wound(Body.fresh(50), "head", 5, FIRST).body  # head full, unconscious
    w = wound(body, "head", 4, FIRST)
    assert w.body.marks_at("head") == Marks(slash=5) and w.body.marks_at("torso").slash == 4


def test_the_rest_of_a_hit_that_fills_a_location_goes_to_the_torso_or_is_lost() -> None:
    w = wound(Body.fresh(50), "right arm", 8, FIRST)
    assert w.body.marks_at("right arm").total == 5 and w.body.marks_at("torso").slash == 3
    lost = wound(Body.fresh(50), "right arm", 8, DamageRules(excess="lost"))
    assert lost.body.marks_at("torso").total == 0


def test_damage_to_a_full_torso_makes_marks_heavier_lightest_first() -> None:
    body = wound(wound(Body.fresh(50), "torso", 9, FIRST).body, "torso", 6, FIRST).body
    assert body.is_full("torso")
    w = wound(body, "torso", 4, FIRST)
    assert w.body.marks_at("torso") == Marks(slash=11, x=4)
    assert wound(body, "torso", 4, DamageRules(full_torso="lost")).body == body


def test_death_is_every_head_or_torso_box_permanent() -> None:
    body = Body.fresh(50).with_marks("head", Marks(x=5))
    w = wound(body, "head", 5, FIRST)  # full head: to the full torso? no: torso is empty
    assert not w.died
    body = Body.fresh(50).with_marks("torso", Marks(x=14, perm=1))
    w = wound(body, "torso", 9, FIRST)
    assert w.body.marks_at("torso") == Marks(perm=10, x=5) and not w.body.dead
    w = wound(w.body, "torso", 5, FIRST)
    assert w.died and w.body.dead


def test_later_damage_rules_lower_the_level_directly_with_fewer_boxes() -> None:
    later = DamageRules(version="later")
    body = Body.fresh(50, boxes=LATER_BOXES)
    w = wound(body, "right arm", 4, later)
    assert w.body.level == 46 and w.filled == ("right arm",) and w.losses == (0,)
    assert w.body.marks_at("torso").slash == 1
    f = Fighter("A", "pcs", True, body, right="knife")
    events, _ = wound_events(f, w, "A", "B", "Bar", later)
    assert [type(e).__name__ for e in events] == ["Wounded", "LevelLowered", "LocationFilled",
                                                  "ItemDropped"]


def test_wounds_can_be_x_marks() -> None:
    w = wound(Body.fresh(50), "torso", 3, DamageRules(mark="x"))
    assert w.body.marks_at("torso") == Marks(x=3)


def test_a_location_filling_again_after_first_aid_lowers_the_level_again_or_once() -> None:
    body = wound(Body.fresh(50), "left arm", 5, FIRST).body
    treated = body.with_marks("left arm", Marks(slash=2))
    assert treated.level == 45  # first aid never raises the level
    again = wound(treated, "left arm", 3, FIRST)
    assert again.body.level == 40
    once = wound(treated, "left arm", 3, DamageRules(refill="once"))
    assert once.body.level == 45 and once.filled == ("left arm",)
