"""Actions and reactions: attacks and their range bands, moves (one connection, arrows,
doors, legs), items and hands, defend, counterattack, intercept, surrender, die assignment,
critical successes, and first aid."""

from __future__ import annotations

import pytest
from unh_builders import act, npc, of, pc, ready

from tactica.engine.events import Decided, Rolled
from tactica.rulesets.unhex.body import Marks
from tactica.rulesets.unhex.legal import arrangements, attacks, interceptions, moves
from tactica.rulesets.unhex.records import (
    ActionSpent,
    Arrange,
    Attack,
    Attacked,
    Defended,
    Door,
    DoorChanged,
    Drop,
    EndTurn,
    FirstAid,
    FirstAidPlan,
    ItemDropped,
    ItemsArranged,
    KitUsedUp,
    Move,
    Moved,
    Reaction,
    Stopped,
    Treated,
    Wounded,
)

pytestmark = pytest.mark.both_engines

DOORS = {"kind": "zones", "areas": ["Hall", "Vault", "Roof", "Street"], "connections": [
    {"between": ["Hall", "Vault"], "door": "closed"},
    {"between": ["Roof", "Street"], "type": "one-way"},
    {"between": ["Street", "Hall"]}]}
NONE = Reaction("none")


# -- attacks ------------------------------------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_attacking_needs_a_weapon_in_a_usable_hand() -> None:
    b = ready({"A": pc("Bar", items=["knife", "pistol"], hold=[]), "B": npc("Bar")})
    assert attacks(b.state, b.state.chars["A"]) == []
    b = ready({"A": pc("Bar", items=["knife"]), "B": npc("Bar")})
    b.state.chars["A"].body = b.state.chars["A"].body.with_marks("right arm", Marks(slash=5))
    assert attacks(b.state, b.state.chars["A"]) == []


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_melee_reaches_range_zero_only_and_only_enemies_are_targets() -> None:
    b = ready({"A": pc("Bar"), "A2": pc("Bar"), "B": npc("Bar"), "C": npc("Kitchen")})
    assert attacks(b.state, b.state.chars["A"]) == [Attack("A", "knife", "B")]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_an_attack_hits_at_or_under_the_attackers_current_level() -> None:
    b = ready({"A": pc("Bar", level=40), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(4, 1)], decisions={"npcs": [NONE]})
    assert of(events, Attacked)[0].outcome == "miss" and not of(events, Wounded)


# -- declaring reactions before the dice --------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_reactions_are_declared_before_any_die_and_only_once() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    act(b, Attack("A", "knife", "B"), rolls=[(1, 2), (3, 4)],
        decisions={"npcs": [Reaction("defend")], "pcs": [lambda o: True]})
    step = b.log[b.log.index(next(e for e in b.log if isinstance(e, Decided))):]
    assert isinstance(step[0], Decided) and step[0].side == "npcs"
    assert isinstance(step[1], Rolled)
    assert sum(isinstance(e, Decided) and e.side == "npcs" for e in step) == 1


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_defend_wins_with_a_higher_success_and_the_attack_misses() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(2, 1), (3, 4)],
                 decisions={"npcs": [Reaction("defend")]})
    assert of(events, Attacked)[0].outcome == "defended"
    assert of(events, Defended)[0].won and not of(events, Wounded)
    assert of(events, ActionSpent) == [ActionSpent("A", "attack"), ActionSpent("B", "defend")]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_defend_loses_to_a_higher_success_and_a_pc_wins_ties_against_an_npc() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(3, 4), (3, 4)],
                 decisions={"npcs": [Reaction("defend")], "pcs": [lambda o: True]})
    assert of(events, Attacked)[0].outcome == "hit"
    b = ready({"A": pc("Bar"), "B": npc("Bar")}, order=("npcs", "pcs"))
    events = act(b, Attack("B", "knife", "A"), rolls=[(3, 4), (3, 4)],
                 decisions={"pcs": [Reaction("defend")]})
    assert of(events, Attacked)[0].outcome == "defended"


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
@pytest.mark.parametrize(("rule", "outcome"), [("actor", "hit"), ("reactor", "defended")])
def test_equal_successes_between_two_npcs_follow_unh_14(rule: str, outcome: str) -> None:
    b = ready({"A": npc("Bar"), "B": {**npc("Bar"), "side": "gang"}}, order=("npcs", "gang"),
              pcs=(), rulings={"UNH-14": rule})
    events = act(b, Attack("A", "knife", "B"), rolls=[(3, 4), (3, 4)],
                 decisions={"gang": [Reaction("defend")], "npcs": [lambda o: True]})
    assert of(events, Attacked)[0].outcome == outcome


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_both_failing_the_attack_misses() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(8, 1), (9, 2)],
                 decisions={"npcs": [Reaction("defend")]})
    assert of(events, Attacked)[0].outcome == "miss"


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_the_defender_may_roll_first_under_unh_15() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")}, rulings={"UNH-15": "reactor-first"})
    act(b, Attack("A", "knife", "B"), rolls=[(2, 1), (3, 4)],
        decisions={"npcs": [Reaction("defend")], "pcs": [lambda o: True]})
    assert [e.label for e in b.log if isinstance(e, Rolled)] == ["B: defend", "A: attack"]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_no_defence_against_a_ranged_attack_without_cover_and_never_at_range_zero() -> None:
    b = ready({"A": pc("Bar", items=["pistol"]), "B": npc("Bar")})
    with pytest.raises(Exception, match="not one of its"):
        act(b, Attack("A", "pistol", "B"), decisions={"npcs": [Reaction("defend")]})


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_counterattack_only_from_ones_own_area_with_a_melee_weapon_simultaneously() -> None:
    b = ready({"A": pc("Bar", items=["pistol"], level=99), "B": npc("Bar")})
    # A ranged attack from the same area can be counterattacked with a melee weapon.
    events = act(b, Attack("A", "pistol", "B"), rolls=[(5, 9), (0, 9)],
                 decisions={"npcs": [Reaction("counterattack", "knife"),
                                     lambda o: o.location == "left leg"],
                            "pcs": [lambda o: o.location == "head"]})
    wounds = of(events, Wounded)
    # Both wounds land, although the attack knocked B out: the effects are simultaneous.
    assert [(w.unit, w.location, w.amount) for w in wounds] == [("B", "head", 5),
                                                                 ("A", "left leg", 9)]
    assert b.state.chars["B"].unconscious and b.state.chars["B"].actions == 0
    b = ready({"A": pc("Bar", items=["pistol"]), "B": npc("Bar", items=["pistol"])})
    kinds = {o.kind for o in _reactions(b, "A", "pistol", "B")}
    assert "counterattack" not in kinds  # a ranged weapon cannot counterattack
    b = ready({"A": pc("Dance Floor", items=["pistol"]), "B": npc("Bar")})
    assert "counterattack" not in {o.kind for o in _reactions(b, "A", "pistol", "B")}


def _reactions(b: object, a: str, w: str, t: str) -> tuple[Reaction, ...]:
    from tactica.rulesets.unhex.legal import reactions_to_attack

    s = b.state  # type: ignore[attr-defined]
    look = s.view.look(s.chars[a].area, s.chars[t].area)
    return reactions_to_attack(s, s.chars[a], s.chars[t], s.item(w), look)


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_without_an_action_left_only_surrender_is_offered() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")}, actions={"B": 0})
    assert _reactions(b, "A", "knife", "B") == (NONE, Reaction("surrender"))


# -- die assignment and critical successes ------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_the_attacker_assigns_the_dice_as_a_decision_of_its_side() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(3, 7)],
                 decisions={"npcs": [NONE], "pcs": [lambda o: o.damage == 7]})
    [w] = of(events, Wounded)
    assert (w.amount, w.location, w.assigned_by) == (7, "right leg", "A")
    decided = [e for e in b.log if isinstance(e, Decided)]
    assert decided[-1].side == "pcs" and decided[-1].label.startswith("A: which die")


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_setting_the_dice_on_a_critical_success() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(2, 2)],
                 decisions={"npcs": [NONE], "pcs": ["set-dice", 49,
                                                     lambda o: o.location == "head"]})
    att = of(events, Attacked)[0]
    assert att.set_dice and att.roll == 49 and att.critical == "success"
    [w] = of(events, Wounded)
    assert (w.amount, w.location) == (4, "head")


# -- movement -----------------------------------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_moving_one_connection_respecting_arrows_and_doors() -> None:
    b = ready({"A": pc("Roof"), "B": npc("Street"), "C": npc("Hall")}, zones=DOORS)
    s = b.state
    assert [m.to for m in moves(s, s.chars["A"])] == ["Street"]
    assert moves(s, s.chars["B"]) == [Move("B", "Hall")]  # never back up the arrow
    assert [m.to for m in moves(s, s.chars["C"])] == ["Street"]  # the door is closed
    assert Door("C", "Vault", "open") not in b.legal_actions()


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_opening_a_door_takes_an_action_and_lets_people_through() -> None:
    b = ready({"A": pc("Hall"), "B": npc("Street")}, zones=DOORS)
    assert Door("A", "Vault", "open") in b.legal_actions()
    events = act(b, Door("A", "Vault", "open"))
    assert of(events, DoorChanged) == [DoorChanged("A", "Hall", "Vault", "open")]
    assert "Vault" in [m.to for m in moves(b.state, b.state.chars["A"])]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_a_full_leg_allows_moving_only_with_empty_hands_and_two_never() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Alley")})
    a = b.state.chars["A"]
    a.body = a.body.with_marks("left leg", Marks(slash=10))
    assert moves(b.state, a) == []
    events = act(b, Drop("A", "knife"))
    assert of(events, ItemDropped) == [ItemDropped("A", "knife", "Bar", "dropped")]
    assert not of(events, ActionSpent) and a.actions == 1  # dropping is free
    assert {m.to for m in moves(b.state, a)} == {"Dance Floor", "Kitchen"}
    a.body = a.body.with_marks("right leg", Marks(slash=10))
    assert moves(b.state, a) == []


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_a_move_arrives_when_no_one_intercepts() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Alley")})
    events = act(b, Move("A", "Kitchen"))
    assert of(events, Moved) == [Moved("A", "Bar", "Kitchen")]


# -- intercept ----------------------------------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_intercept_attacks_the_mover_and_a_stop_lets_the_interceptor_choose_where() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen", items=["knife"]),
               "C": npc("Alley", items=["shotgun"])})
    # A moves into the Kitchen: B (range 0, melee) and C (range 1... to the Kitchen end)
    found = {c.id for c, _ in interceptions(b.state, b.state.chars["A"], "Kitchen")}
    assert found == {"B", "C"}
    b.state.chars["A"].body = b.state.chars["A"].body.with_marks("right leg", Marks(slash=9))
    events = act(b, Move("A", "Kitchen"), rolls=[(2, 3)],
                 decisions={"npcs": [Reaction("intercept", "knife"), NONE,
                                     lambda o: o.location == "right leg", "Bar"]})
    assert of(events, Attacked)[0].kind == "intercept"
    assert of(events, Stopped) == [Stopped("A", "Bar", "Kitchen", "Bar", "B")]
    assert b.state.chars["A"].area == "Bar"
    assert of(events, ActionSpent) == [ActionSpent("A", "move"), ActionSpent("B", "intercept")]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_an_interception_that_does_not_stop_the_mover_lets_it_arrive() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen")})
    events = act(b, Move("A", "Kitchen"), rolls=[(2, 3)],
                 decisions={"npcs": [Reaction("intercept", "knife"),
                                     lambda o: o.location == "right leg"]})
    assert of(events, Moved) == [Moved("A", "Bar", "Kitchen")]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_the_mover_cannot_react_to_an_interception() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen")})
    act(b, Move("A", "Kitchen"), rolls=[(2, 3)],
        decisions={"npcs": [Reaction("intercept", "knife"), lambda o: True]})
    assert not [e for e in b.log if isinstance(e, Decided) and e.side == "pcs"]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
@pytest.mark.parametrize(("rule", "attacks_after"), [("at-stop", 2), ("wasted", 1)])
def test_further_interceptions_after_a_stop_follow_unh_16(rule: str, attacks_after: int) -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen"), "C": npc("Bar")},
              rulings={"UNH-16": rule})
    b.state.chars["A"].body = b.state.chars["A"].body.with_marks("right leg", Marks(slash=9))
    rolls = [(2, 3)] + ([(1, 2)] if rule == "at-stop" else [])
    decisions = [Reaction("intercept", "knife"), Reaction("intercept", "knife"),
                 lambda o: o.location == "right leg", "Bar"]
    if rule == "at-stop":
        decisions.append(lambda o: True)
    events = act(b, Move("A", "Kitchen"), rolls=rolls, decisions={"npcs": decisions})
    assert len(of(events, Attacked)) == attacks_after
    assert b.state.chars["C"].actions == 0  # the declared action is spent either way


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_any_hit_stops_the_mover_under_unh_17() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Kitchen")}, rulings={"UNH-17": "any-hit"})
    events = act(b, Move("A", "Kitchen"), rolls=[(1, 3)],
                 decisions={"npcs": [Reaction("intercept", "knife"), lambda o: True,
                                     "Kitchen"]})
    assert of(events, Stopped)[0].at == "Kitchen"


# -- items --------------------------------------------------------------------------------------


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_rearranging_hands_is_one_action_and_two_handed_items_need_both_hands() -> None:
    b = ready({"A": pc("Bar", items=["knife", "shotgun", "pistol"], hold=["knife"]),
               "B": npc("Alley")})
    a = b.state.chars["A"]
    options = arrangements(b.state, a)
    assert Arrange("A", "shotgun", "shotgun") in options
    assert Arrange("A", "pistol", "knife") in options
    events = act(b, Arrange("A", "shotgun", "shotgun"))
    assert of(events, ActionSpent) == [ActionSpent("A", "manage items")]
    assert (a.right, a.left, a.in_hands()) == ("shotgun", "shotgun", ("shotgun",))
    a.body = a.body.with_marks("left arm", Marks(slash=5))
    assert all(x.left is None for x in arrangements(b.state, a))
    assert all(x.right != "shotgun" for x in arrangements(b.state, a))


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_picking_up_from_the_floor_and_the_five_slots() -> None:
    five = ["knife", "pistol", "bottle", "machete", "revolver"]
    b = ready({"A": pc("Bar", items=five, hold=["knife"]), "B": npc("Alley")})
    b.state.floor["Bar"] = ("shotgun",)
    assert not any("shotgun" in (x.right, x.left) for x in arrangements(b.state,
                                                                          b.state.chars["A"]))
    act(b, Drop("A", "knife"))
    events = act(b, Arrange("A", "shotgun", "shotgun"))
    assert of(events, ItemsArranged)[0].picked_up == ("shotgun",)
    assert b.state.floor["Bar"] == ("knife",)


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_under_unh_19_items_in_hand_use_no_slot() -> None:
    five = ["knife", "pistol", "bottle", "machete", "revolver"]
    b = ready({"A": pc("Bar", items=five, hold=["knife"]), "B": npc("Alley")},
              rulings={"UNH-19": "stowed"})
    b.state.floor["Bar"] = ("shotgun",)
    # Six items carried, the shotgun in hand: five stowed, which fits.
    assert Arrange("A", "shotgun", "shotgun") in arrangements(b.state, b.state.chars["A"])


# -- first aid ----------------------------------------------------------------------------------


def _patient() -> object:
    b = ready({"M": pc("Bar", items=["first-aid-kit"]), "P": pc("Bar"), "B": npc("Alley")})
    p = b.state.chars["P"]
    p.body = (p.body.with_marks("torso", Marks(slash=15)).with_marks("left leg", Marks(slash=4))
              .with_marks("head", Marks(slash=2)))
    assert p.unconscious
    return b


@pytest.mark.reference_only  # no step played after the set-up
def test_first_aid_success_erases_marks_and_turns_the_rest_to_x() -> None:
    b = _patient()
    plan = FirstAidPlan(3, 0, (("torso", 3),))
    events = act(b, FirstAid("M", "P"), rolls=[(3, 0)], decisions={"pcs": [plan]})
    [t] = of(events, Treated)
    assert t.outcome == "success" and t.erased == (("torso", 3),)
    body = b.state.chars["P"].body
    assert body.marks_at("torso") == Marks(x=12) and body.marks_at("head") == Marks(x=2)
    assert body.level == 50 and not b.state.chars["P"].unconscious  # awake, level unchanged


@pytest.mark.reference_only  # no step played after the set-up
def test_first_aid_plans_spread_the_boxes_over_the_extra_locations() -> None:
    from tactica.rulesets.unhex.aid import first_aid_plans

    b = _patient()
    plans = first_aid_plans(b.state.chars["P"].body, (3, 1))
    assert FirstAidPlan(3, 1, (("head", 2), ("torso", 1))) in plans
    assert FirstAidPlan(1, 3, (("torso", 1),)) in plans
    assert all(sum(n for _, n in p.erase) <= p.boxes and len(p.erase) <= p.extra + 1
               for p in plans)


@pytest.mark.reference_only  # no step played after the set-up
def test_first_aid_failure_uses_up_the_kit() -> None:
    b = _patient()
    events = act(b, FirstAid("M", "P"), rolls=[(8, 1)])
    assert of(events, KitUsedUp) == [KitUsedUp("M", "first-aid-kit")]
    assert b.state.chars["M"].items == () and b.state.chars["M"].right is None
    assert b.state.chars["P"].body.marks_at("left leg") == Marks(x=4)


@pytest.mark.reference_only  # no step played after the set-up
def test_first_aid_critical_failure_makes_x_marks_permanent_chosen_by_the_treater() -> None:
    b = _patient()
    events = act(b, FirstAid("M", "P"), rolls=[(7, 7)],
                 decisions={"pcs": [lambda h: dict(h.marks) == {"left leg": 4, "torso": 3}]})
    body = b.state.chars["P"].body
    assert body.marks_at("left leg") == Marks(perm=4)
    assert body.marks_at("torso") == Marks(x=12, perm=3)
    assert of(events, Treated)[0].outcome == "critical failure"
    assert b.state.chars["M"].owed == 1  # and the treater loses its next action


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_first_aid_needs_the_kit_in_hand_and_range_zero() -> None:
    b = ready({"M": pc("Bar", items=["first-aid-kit", "knife"], hold=["knife"]),
               "P": pc("Bar"), "B": npc("Alley")})
    b.state.chars["P"].body = b.state.chars["P"].body.with_marks("torso", Marks(slash=1))
    assert not [a for a in b.legal_actions() if isinstance(a, FirstAid)]
    b = ready({"M": pc("Kitchen", items=["first-aid-kit"]), "P": pc("Bar"), "B": npc("Alley")})
    b.state.chars["P"].body = b.state.chars["P"].body.with_marks("torso", Marks(slash=1))
    b.state.chars["M"].body = b.state.chars["M"].body.with_marks("head", Marks(slash=1))
    assert [a for a in b.legal_actions() if isinstance(a, FirstAid)] == [FirstAid("M", "M")]


# -- more of the rules --------------------------------------------------------------------------


@pytest.mark.reference_only  # no step played after the set-up
def test_levels_start_at_fifty() -> None:
    from unh_builders import scenario

    sc = scenario({"A": {"side": "pcs", "at": "Bar"}, "B": {"side": "npcs", "at": "Bar"}})
    a = sc.new_state().chars["A"]
    assert (a.level, a.body.max_level, a.items) == (50, 50, ())


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_the_attack_rolls_against_the_current_level() -> None:
    b = ready({"A": pc("Bar"), "B": npc("Bar")})
    b.state.chars["A"].body = b.state.chars["A"].body.with_level(40)
    events = act(b, Attack("A", "knife", "B"), rolls=[(4, 5)], decisions={"npcs": [NONE]})
    assert of(events, Attacked)[0].outcome == "miss"


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_a_good_attacker_may_reroll_in_battle() -> None:
    b = ready({"A": pc("Bar", good=["attack"]), "B": npc("Bar")})
    events = act(b, Attack("A", "knife", "B"), rolls=[(8, 3), [2]],
                 decisions={"npcs": [NONE], "pcs": ["tens", lambda o: o.damage == 3]})
    assert of(events, Attacked)[0].roll == 23
    assert [e.label for e in b.log if isinstance(e, Rolled)] == [
        "A: attack", "A: attack (re-roll tens)"]


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_the_unconscious_take_no_actions_and_cannot_react() -> None:
    from unh_builders import advance

    b = ready({"A": pc("Bar"), "B": npc("Bar"), "C": npc("Bar")})
    b.state.chars["B"].body = b.state.chars["B"].body.with_marks("head", Marks(slash=5))
    assert not b.state.chars["B"].in_fight
    assert _reactions(b, "A", "knife", "B") == (NONE,)
    act(b, EndTurn("pcs"))
    act(b, EndTurn("npcs"))
    events = advance(b, rolls=[(9, 1), (9, 2)], decisions={"pcs": [("pcs", "npcs")]})
    assert dict(events[0].actions) == {"A": 1, "C": 1}


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_no_cover_while_moving_the_interceptor_assigns_the_dice() -> None:
    b = ready({"A": pc("Kitchen"), "B": npc("Dance Floor", items=["shotgun"])})
    assert b.state.view.look("Dance Floor", "Bar").cover
    events = act(b, Move("A", "Bar"), rolls=[(2, 3)],
                 decisions={"npcs": [Reaction("intercept", "shotgun"), lambda o: True]})
    assert of(events, Attacked)[0].cover is False
    assert of(events, Wounded)[0].assigned_by == "B"


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_dropping_an_item_takes_no_action_so_it_is_offered_with_none_left() -> None:
    """The seed: "Dropping items currently in your hands ... doesn't take an action". A has
    spent its action; B (same team) still has one, so the team's turn goes on and A may
    still drop what it holds."""
    b = ready({"A": pc("Bar", items=["knife", "bottle"], hold=["knife", "bottle"]),
               "B": pc("Kitchen"), "C": npc("Alley")})
    act(b, Arrange("A", "knife", None))                 # manage items: its one action
    a = b.state.chars["A"]
    assert a.actions == 0 and b.state.chars["B"].actions == 1
    held = [n for n in (a.right, a.left) if n]
    legal = b.legal_actions()
    assert [x for x in legal if isinstance(x, Drop) and x.unit == "A"] == [
        Drop("A", n) for n in held]
    assert not [x for x in legal if getattr(x, "unit", None) == "A"
                and not isinstance(x, Drop)]
    events = act(b, Drop("A", held[0]))
    assert of(events, ItemDropped) == [ItemDropped("A", held[0], "Bar", "dropped")]
    assert not of(events, ActionSpent) and a.actions == 0


@pytest.mark.reference_only  # its round is set up by changing the state: no replay
def test_first_aid_offers_every_plan_not_only_locations_filled_one_after_another() -> None:
    """The rule file: "erase that many `\\` marks over at most that many locations". With
    `\\` marks on the left arm 5, torso 3, head 1 and a roll allowing 2 boxes over 2
    locations, {left arm 1, torso 1} is a plan; each plan leaves a different body."""
    from tactica.rulesets.unhex.aid import first_aid_plans, treat

    b = ready({"M": pc("Bar", items=["first-aid-kit"]), "P": pc("Bar"), "B": npc("Alley")})
    p = b.state.chars["P"]
    body = (p.body.with_marks("left arm", Marks(slash=5)).with_marks("torso", Marks(slash=3))
            .with_marks("head", Marks(slash=1)))
    plans = first_aid_plans(body, (2, 1))            # 2 boxes over 2, or 1 box over 3
    erased = {p.erase for p in plans}
    assert erased == {(("left arm", 2),), (("torso", 2),), (("left arm", 1), ("torso", 1)),
                      (("head", 1), ("left arm", 1)), (("head", 1), ("torso", 1)),
                      (("head", 1),), (("left arm", 1),), (("torso", 1),)}
    assert len(plans) == len(erased) == len({treat(body, e) for e in erased})
    assert all(sum(n for _, n in p.erase) <= p.boxes and len(p.erase) <= p.extra + 1
               for p in plans)
    p.body = body
    chosen = FirstAidPlan(2, 1, (("left arm", 1), ("torso", 1)))
    events = act(b, FirstAid("M", "P"), rolls=[(2, 1)], decisions={"pcs": [chosen]})
    after = b.state.chars["P"].body
    assert of(events, Treated)[0].erased == (("left arm", 1), ("torso", 1))
    assert after.marks_at("left arm") == Marks(x=4) and after.marks_at("torso") == Marks(x=2)
