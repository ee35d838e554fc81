"""The gaps a sentence-by-sentence audit of the seed found, each as the rule reads.

Bludgeoning past cell 0 (SKI-40), a grenade at a prone trooper's dot, the dots of "target
prone, 1 dot away" and of a throw, a blocked scatter after a throw through a window (SKI-41),
and the leader's leadership "while the leader lives" (SKI-42).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from ski_builders import advance, of, ready, scenario, take, trooper

from tactica.engine.battle import Battle, ScriptedDice
from tactica.engine.chance import Done, run_scripted
from tactica.rulesets.skirmishers import SKIRMISHERS
from tactica.rulesets.skirmishers import records as r
from tactica.rulesets.skirmishers.explosives import throw_cost
from tactica.rulesets.skirmishers.fire import damage, explosive_tn, ranged_tn

pytestmark = pytest.mark.both_engines

PAIR = """
A B . .
 . . . .
"""


def hit_once(b, target: str, lethal: int, bludgeoning: int,  # type: ignore[no-untyped-def]
             start: tuple[int, int]) -> r.Hit:
    """One hit on ``target`` with the start cell rolled as ``start``."""
    trace = run_scripted(damage(b.state, target, lethal, bludgeoning, "A", lambda w: Done(None)),
                         rolls=[list(start)], world=SKIRMISHERS, state=b.state)
    (hit,) = of(trace.events, r.Hit)
    return hit


# -- Bludgeoning past cell 0 (SKI-40) --------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_partial_marks_do_not_lower_hp_so_a_stun_baton_past_cell_0_does_not_kill() -> None:
    """A stun baton (8\\) from cell 6 on a fresh trooper: cells 6 to 0 are partly crossed and
    the eighth point runs past cell 0. No cell is fully crossed: the trooper keeps 10 HP."""
    b = ready(PAIR, A=trooper("red"), B=trooper("blue"))
    hit = hit_once(b, "B", 0, 8, (3, 3))
    assert hit.marks == "....///////" and hit.hp == 10 and not hit.dead


@pytest.mark.reference_only  # no step played after the set-up
def test_bludgeoning_puts_a_trooper_out_of_action_only_by_fully_crossing_a_cell() -> None:
    """A second baton hit on the same cells fully crosses them: 0 HP, out of action, and the
    point past cell 0 is still lost: not DEAD."""
    b = ready(PAIR, A=trooper("red"), B=trooper("blue", marks="....///////"))
    hit = hit_once(b, "B", 0, 8, (4, 2))
    assert hit.marks == "....XXXXXXX" and hit.hp == 0 and not hit.dead
    assert of(run_scripted(damage(b.state, "B", 0, 8, "A", lambda w: Done(None)),
                           rolls=[[4, 2]], world=SKIRMISHERS, state=b.state).events,
              r.OutOfAction) == [r.OutOfAction("B", False)]


@pytest.mark.reference_only  # no step played after the set-up
def test_under_the_other_reading_a_bludgeoning_point_past_cell_0_kills_ski_40() -> None:
    b = ready(PAIR, rulings={"SKI-40": "dead"}, A=trooper("red"), B=trooper("blue"))
    hit = hit_once(b, "B", 0, 8, (3, 3))
    assert hit.dead and hit.hp == 0


@pytest.mark.reference_only  # no step played after the set-up
def test_a_stun_baton_never_kills_a_fresh_trooper_a_vibroblade_does_11_in_144() -> None:
    """Exact odds of one melee attack (target number 4: 11 in 12 hit). The vibroblade's 5X
    kills from start cells 2 and 3 (1 in 12); the stun baton's 8\\ only under SKI-40 dead,
    from start cells 2 to 6 (5 in 12)."""
    kit = {"melee": ["stun-baton", "vibroblade"]}
    b = ready(PAIR, A=trooper("red", **kit), B=trooper("blue"))
    baton = SKIRMISHERS.odds.odds(b.state, r.Melee("A", "B", "stun-baton"))
    blade = SKIRMISHERS.odds.odds(b.state, r.Melee("A", "B", "vibroblade"))
    assert baton.numbers["p_dead"] == 0 and baton.numbers["p_out_of_action"] == 0
    assert blade.numbers["p_dead"] == Fraction(11, 144)
    old = ready(PAIR, rulings={"SKI-40": "dead"}, A=trooper("red", **kit), B=trooper("blue"))
    assert SKIRMISHERS.odds.odds(old.state, r.Melee("A", "B", "stun-baton")).numbers["p_dead"] \
        == Fraction(11, 12) * Fraction(5, 12)


# -- Explosives target a dot -----------------------------------------------------------------

LANE = """
A . . . . B . .
 . . . . . . . .
"""
LOW_WALL = [{"between": [[4, 0], [5, 0]], "kind": "low-wall"}]


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_grenade_may_target_the_dot_of_a_prone_trooper_behind_a_low_wall() -> None:
    """The low wall next to prone B blocks a shot at B; a grenade targets B's dot, and the
    prone rules for a trooper do not apply to a dot: the wall only gives cover (+1)."""
    b = ready(LANE, features=LOW_WALL, A=trooper("red", active="hand-grenade"),
              B=trooper("blue", prone=True))
    rifle = b.state.setup.pack.weapons["rifle"]
    assert ranged_tn(b.state, "A", "B", rifle).tn is None
    assert explosive_tn(b.state, "A", "5,0", 5).tn == 5 + 1
    take(b, r.Activate("A"))
    assert r.Throw("A", "hand-grenade", "5,0") in b.legal_actions()
    (e,) = of(take(b, r.Throw("A", "hand-grenade", "5,0")), r.ExplosiveThrown)
    assert (e.ap, e.tn) == (5, 6)


# -- Dots are lattice steps, whatever the range ruling ---------------------------------------

STEPS = """
A . B . . . . . . . .
 . . . . . . . . . . .
"""


@pytest.mark.reference_only  # no step played after the set-up
def test_a_prone_target_2_dots_away_is_not_adjacent_under_steps_minus_one() -> None:
    """SKI-10 steps-minus-one makes the range 1, but the target is 2 dots away: +1, not -1."""
    for ruling in ("steps", "steps-minus-one"):
        b = ready(STEPS, rulings={"SKI-10": ruling}, A=trooper("red"),
                  B=trooper("blue", prone=True))
        seen = ranged_tn(b.state, "A", "B", b.state.setup.pack.weapons["rifle"])
        assert seen.tn == 6 + 1, ruling
        near = ready(PAIR, rulings={"SKI-10": ruling}, A=trooper("red"),
                     B=trooper("blue", prone=True))
        assert ranged_tn(near.state, "A", "B",
                         near.state.setup.pack.weapons["rifle"]).tn == 6 - 1, ruling


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_grenade_thrown_2_dots_costs_2_ap_whatever_the_range_ruling() -> None:
    """A hand grenade costs 1 AP for each dot it is thrown: 2 dots, 2 AP, target number 2;
    with 8 AP it reaches 8 dots and no further."""
    for ruling in ("steps", "steps-minus-one", "walkable"):
        b = ready(STEPS, rulings={"SKI-10": ruling}, A=trooper("red", active="hand-grenade"),
                  B=trooper("blue"))
        take(b, r.Activate("A"))
        targets = {a.at for a in b.legal_actions() if isinstance(a, r.Throw)}
        assert "8,0" in targets and "9,0" not in targets, ruling
        (e,) = of(take(b, r.Throw("A", "hand-grenade", "2,0")), r.ExplosiveThrown)
        assert (e.ap, e.tn) == (2, 2), ruling
        assert throw_cost(b.state, "A", "hand-grenade", 2) == (2, 2)


# -- A blocked scatter after a throw through a window (SKI-41) -------------------------------

HOUSE = [{"name": "House", "from": [4, 0], "to": [6, 2], "floors": 1,
          "windows": [{"at": [4, 1], "towards": "west"}]}]
STREET = ". . . . . . .\n . . . . . . .\n. . . . . . ."


def window_miss(rulings: dict[str, str] | None = None) -> tuple[r.ExplosiveResolved, r.Hit]:
    """A grenade thrown from the street through the window at B's dot misses; its scatter
    from the dot before the window (3,1) runs south-east into the house's wall."""
    b = ready(STREET, buildings=HOUSE, rulings=rulings,
              A=trooper("red", active="hand-grenade", at=[0, 1]),
              B=trooper("blue", at=[5, 1]))
    take(b, r.Activate("A"))
    (e,) = of(take(b, r.Throw("A", "hand-grenade", "5,1")), r.ExplosiveThrown)
    assert e.origin == "3,1"
    if b.state.active == "A":
        take(b, r.EndActivation("A"))
    events = advance(b, rolls=[[1, 1], [2], [6, 6]])        # a miss; 2: south-east
    (boom,) = of(events, r.ExplosiveResolved)
    return boom, of(events, r.Hit)[0]


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_a_blocked_scatter_leaves_the_explosion_on_the_targeted_dot() -> None:
    """'If the path of scatter intersects an impassible obstacle ... the explosive does not
    scatter and the center of the explosion stays on the targeted dot.'"""
    boom, hit = window_miss()
    assert not boom.hit and boom.landing == "5,1" and "does not scatter" in boom.note
    assert hit.unit == "B" and hit.lethal == 6                  # B on the centre: 6X


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_under_the_other_reading_it_stays_on_the_dot_before_the_window_ski_41() -> None:
    boom, hit = window_miss({"SKI-41": "before-window"})
    assert boom.landing == "3,1" and hit.lethal == 1             # B 2 dots away: 1X


# -- Morale: leadership while the leader lives (SKI-42) --------------------------------------

SQUAD = """
A C E F G H . B D
 . . . . . . . . .
"""


def leader_down(**rulings: str) -> Battle:  # type: ignore[type-arg]
    """Four of red's troopers are DEAD; its leader A is at 0 HP, out of action, alive."""
    units = {k: trooper("red") for k in "ACEFGH"} | {"B": trooper("blue"),
                                                     "D": trooper("blue")}
    sc = scenario(SQUAD, units, optional=["morale"], rulings=rulings,
                  squads={"red": {"skill": "regular", "leader": "A", "leadership": 2}})
    state = sc.new_state()
    for uid in "CEFG":
        SKIRMISHERS.apply_event(state, r.OutOfAction(uid, True))
    SKIRMISHERS.apply_event(state, r.OutOfAction("A", False))
    return Battle(sc.ruleset, state)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_leader_at_0_hp_still_lives_and_its_leadership_counts() -> None:
    """Regular 7, less leadership 2 'while the leader lives': A is out of action, not dead."""
    events = leader_down().advance(dice=ScriptedDice([[3, 2]]))
    (check,) = of(events, r.MoraleChecked)
    assert (check.dead, check.tn, check.passed) == (4, 5, True)


@pytest.mark.reference_only  # no step played after the set-up
def test_under_the_other_reading_only_a_leader_in_action_counts_ski_42() -> None:
    events = leader_down(**{"SKI-42": "fights"}).advance(dice=ScriptedDice([[3, 2]]))
    (check,) = of(events, r.MoraleChecked)
    assert (check.tn, check.passed) == (7, False)


@pytest.mark.reference_only  # no step played after the set-up
def test_a_dead_leader_gives_no_leadership_under_either_reading() -> None:
    for ruling in ("lives", "fights"):
        b = leader_down(**{"SKI-42": ruling})
        SKIRMISHERS.apply_event(b.state, r.OutOfAction("A", True))
        events = b.advance(dice=ScriptedDice([[3, 2]]))
        assert of(events, r.MoraleChecked)[0].tn == 7 + 1, ruling     # 5 dead: +1


@pytest.mark.reference_only  # the kernel refuses: A has an explosive active from the start
def test_an_explosive_kept_on_the_map_by_ski_33_stays_where_ski_41_says() -> None:
    """SKI-33 stays: a scatter off the map does not happen; after a throw through a window
    the explosion stays on the targeted dot (SKI-41), or on the dot before the window."""
    house = [{"name": "House", "from": [2, 0], "to": [4, 2], "floors": 1,
              "windows": [{"at": [2, 0], "towards": "west"}]}]
    for ruling, landing, hits in (("targeted-dot", "3,0", []), ("before-window", "1,0", ["A"])):
        b = ready(STREET, buildings=house, rulings={"SKI-33": "stays", "SKI-41": ruling},
                  A=trooper("red", active="hand-grenade", at=[0, 0]),
                  B=trooper("blue", at=[6, 2]))
        take(b, r.Activate("A"))
        (e,) = of(take(b, r.Throw("A", "hand-grenade", "3,0")), r.ExplosiveThrown)
        assert e.origin == "1,0"
        if b.state.active == "A":
            take(b, r.EndActivation("A"))
        # A miss; 6: north-east, off the map. Only the dot before the window is next to A.
        events = advance(b, rolls=[[1, 1], [6], *([[6, 6]] if hits else [])])
        (boom,) = of(events, r.ExplosiveResolved)
        assert boom.landing == landing and "off the map" in boom.note, ruling
        assert [h.unit for h in of(events, r.Hit)] == hits
