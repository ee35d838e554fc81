"""Which rulings a Skirmishers battle consults (:mod:`tactica.engine.consulted`): the sight
rulings from the setup; SKI-25 only where body armor that changes the AP is destroyed; SKI-24
and SKI-40 only where a hit marks bludgeoning, or runs past cell 0; SKI-5 only where a prone
thrower's AP are doubled. A ruling that cannot decide
anything in a battle is not counted there, so a comparison of its readings says it compared
nothing."""

from __future__ import annotations

from ski_builders import example, scenario, trooper

from tactica.engine.consulted import recording
from tactica.rulesets.skirmishers.card import FRESH, apply_hit
from tactica.rulesets.skirmishers.explosives import throw_cost
from tactica.rulesets.skirmishers.geometry import SIGHT_RULINGS
from tactica.rulesets.skirmishers.state import setup_consulted


def _read(**hit: int) -> set[str]:
    with recording() as read:
        apply_hit(FRESH, **hit)
    return read


def test_a_hit_consults_the_bludgeoning_rulings_only_where_they_decide() -> None:
    assert _read(start=7, lethal=4) == set()
    assert _read(start=7, lethal=3, bludgeoning=2, armor=4) == set()  # armor still up
    assert _read(start=6, bludgeoning=4) == {"SKI-24"}
    assert _read(start=3, bludgeoning=8) == {"SKI-24", "SKI-40"}  # past cell 0


def test_the_setup_consults_the_sight_rulings_and_destroyed_armor() -> None:
    shot = example("shot.yaml")
    with recording() as read:
        state = shot.new_state()
    assert read == set(SIGHT_RULINGS) and setup_consulted(state) == SIGHT_RULINGS
    ground = """
        A . . . B C
    """
    worn = scenario(ground, {"A": trooper("red"), "B": trooper("blue", armor="standard"),
                             "C": trooper("blue", armor="standard", armor_left=0)})
    with recording() as read:
        worn.new_state()
    assert read == {*SIGHT_RULINGS, "SKI-25"}


def test_the_ap_change_consults_ski25_only_for_destroyed_armor() -> None:
    ground = """
        A . . . B C
    """
    sc = scenario(ground, {"A": trooper("red"), "B": trooper("blue", armor="standard"),
                           "C": trooper("blue", armor="standard", armor_left=0)})
    state = sc.new_state()
    with recording() as read:
        assert state.max_ap(state.troopers["A"]) == 8
        assert state.max_ap(state.troopers["B"]) == 6
    assert read == set()
    with recording() as read:
        assert state.max_ap(state.troopers["C"]) == 6  # SKI-25 stays: the AP change stays
    assert read == {"SKI-25"}


def test_a_throw_consults_ski5_only_when_prone() -> None:
    ground = """
        A . . . B C
    """
    sc = scenario(ground, {"A": trooper("red"), "B": trooper("blue", prone=True),
                           "C": trooper("blue")})
    state = sc.new_state()
    with recording() as read:
        assert throw_cost(state, "A", "hand-grenade", 4) == (4, 4)
        assert throw_cost(state, "A", "hand-grenade", 0, stairwell=True) == (3, 3)
    assert read == set()
    with recording() as read:
        assert throw_cost(state, "B", "hand-grenade", 4) == (8, 8)  # SKI-5 paid
    assert read == {"SKI-5"}
